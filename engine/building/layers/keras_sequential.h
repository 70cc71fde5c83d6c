// A Keras Sequential model of Dense layers built with the building API and described for
// writeTf2SavedModel with the names Keras gives it (model.save in TensorFlow 2's layout).
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"
#include "layers/activation.h"
#include "model/tf2_saved_model_writer.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tstudio {

class OpRegistry;

/// tf.keras.layers.Dense(units, activation).
struct KerasDense {
    std::int64_t units = 0;
    layers::Activation activation = layers::Activation::kNone;
};

/// Sequential([Dense(...), ...]) on inputs of `inputShape` (batch dimension included, e.g. [-1, 5]).
struct KerasSequentialOptions {
    TensorShape inputShape;
    DataType dtype = tensorflow::DT_FLOAT;
    std::vector<KerasDense> layers;
};

/// The model as Keras saves it: layers "dense", "dense_1", ... built by layers::dense on the
/// Placeholder "dense_input"; variables "dense/kernel" [in, units] and "dense/bias" [units] with
/// the values `weights` gives by those names (every one required); objects "layer_with_weights-i"
/// (also "layer-i", identifier "_tf_keras_layer") under the root "_tf_keras_sequential", variables
/// "layer_with_weights-i/kernel" and ".../bias"; signature serving_default with input key
/// "dense_input" and output key the last layer's name ("dense_1"). Errors: InvalidArgument for no
/// layers, a missing or ill-shaped weight (naming it); layers::dense's.
Expected<Tf2SavedModelSpec> kerasSequentialSpec(const OpRegistry& ops, const KerasSequentialOptions& options,
                                                const std::map<std::string, Tensor>& weights);

} // namespace tstudio
