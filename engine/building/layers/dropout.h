// tf.layers.dropout: inverted dropout in training, identity otherwise, as TensorFlow 1.15 builds it.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::layers {

struct DropoutOptions {
    double rate = 0.5; ///< the fraction dropped, in [0, 1)
    /// When valid, the rate as a scalar tensor of the input's dtype (tf.layers.dropout(rate=tensor)),
    /// in place of `rate`: not range-checked (as in TensorFlow); a known value 0 drops nothing.
    Output rateTensor;
    /// The mask's shape (keras noise_shape): nullopt: the input's shape; an entry nullopt takes the
    /// input's dimension at run time (Python's None).
    std::optional<std::vector<std::optional<std::int64_t>>> noiseShape;
    std::optional<std::int64_t> seed; ///< op seed (tf.get_seed rules with the graph seed)
    std::string name;                 ///< empty: "dropout", "dropout_1", ...
};

/// tf.layers.dropout(inputs, rate, noise_shape, seed, training) with `training` a Python bool
/// (smart_cond on a constant; see the overload below for a tensor). training false: "dropout/Identity". training true:
/// nn.dropout under "dropout/dropout/": "rate" (a Python rate; a rate tensor is used as is), "Shape" (Const for a fully
/// defined shape), "random_uniform/..." (a RandomUniform over the noise shape), "sub" (1 - rate), "truediv"
/// (1 / keep_prob), "GreaterEqual" (random >= rate), "mul" (x * scale), "Cast", "mul_1"; kept elements are scaled
/// by 1 / (1 - rate). Rate 0 (or a rate tensor known to be 0) returns `inputs` itself. A noise shape is built in
/// the layer's scope first ("dropout/Shape", "dropout/strided_slice" for None entries, "dropout/Const" or
/// "dropout/packed").
/// Errors (training only, as in TensorFlow): "x has to be a floating point tensor since it's going to
/// be scaled. Got a int32 tensor instead.", "rate must be a scalar tensor or a float in the range
/// [0, 1), got 1", "Tensor conversion requested dtype float32 for Tensor with dtype float64: r:0" and
/// "Shapes [2] and () are incompatible (rate)" for a rate tensor, a noise shape of the wrong length.
Expected<Output> dropout(GraphBuilder& b, const Output& inputs, const DropoutOptions& options = {},
                         bool training = false);

/// The same with `training` a bool tensor (keras smart_cond, builder/cond.h): a value known while
/// building (a Const) acts as the bool; otherwise tf.cond under "dropout/cond/": "Switch" (pred,
/// pred), "switch_t", "switch_f", "pred_id", the true branch "dropout/cond/dropout/..." as above (a
/// noise shape first, "dropout/cond/Shape", ...; its Consts get a control input on "switch_t"; the
/// input enters through "dropout/cond/dropout/mul/Switch" (".../Shape/Switch" for a partially known
/// shape), a rate tensor through "dropout/cond/dropout/sub/Switch", colocated with them), the false
/// branch "dropout/cond/Identity" fed by "dropout/cond/Identity/Switch", and "dropout/cond/Merge"
/// (returned). Rate 0: the true branch returns the input through "dropout/cond/Switch_1". The
/// editor's Dropout passes the graph's learning phase (builder/learning_phase.h). Differences from
/// TensorFlow: cond's (each Switch precedes its consumer in the GraphDef). Errors: as above, and
/// InvalidArgument when `training` is not a bool.
Expected<Output> dropout(GraphBuilder& b, const Output& inputs, const DropoutOptions& options, const Output& training);

} // namespace tstudio::layers
