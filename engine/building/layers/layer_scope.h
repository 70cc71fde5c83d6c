// LayerScope: the variable and name scopes one call of a tf.layers function builds in, the weights it
// adds (add_weight) and the input checks of its InputSpec, as TensorFlow 1.15's tf.layers base Layer.
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable.h"
#include "builder/variable_scope.h"
#include "core/expected.h"
#include "losses/regularizers.h"

#include <optional>
#include <string>
#include <string_view>

namespace tstudio::layers {

/// The scopes of one layer call. tf.layers.dense(x, 4) makes a layer object and calls it once:
///  - `name` given: variable scope "<current>/<name>" (not made unique: a second layer of the same
///    name without reuse fails in getVariable with TensorFlow's "Variable fc/kernel already
///    exists, disallowed..."), and a name scope `name` made unique ("fc_1/" for the ops of a reusing
///    call);
///  - no name, reuse kTrue / kAutoReuse: the same with `baseName` ("dense");
///  - no name and no reuse: a fresh "dense", "dense_1", ... (variable_scope(None,
///    default_name="dense")). TensorFlow counts variable-scope openings per name; this counts name
///    scopes (GraphBuilder's unique names), which agree as long as code does not open a name scope
///    called "dense" by hand.
/// Variables are created in the variable scope and ops in the name scope. Leaving (close() or the
/// destructor) restores both. Move-only; close in reverse order of entering, as `with` blocks.
class LayerScope {
public:
    /// Errors: the name scope's ("'a b' is not a valid scope name").
    static Expected<LayerScope> enter(GraphBuilder& b, std::string_view baseName, std::string_view name, Reuse reuse);

    /// The layer's name as error messages give it ("dense", "dense_1", "fc").
    const std::string& layerName() const { return m_layerName; }
    /// The full variable scope ("dense", "outer/dense_1").
    const std::string& variableScope() const { return m_variableScope; }
    void close() { m_guard.close(); }

private:
    std::string m_layerName;
    std::string m_variableScope;
    ScopeGuard m_guard;
};

/// Layer.add_weight of tf.layers: tf.get_variable(name, shape, dtype, initializer, trainable) in the
/// current (layer) variable scope; when the variable is new and `regularizer` is set, its penalty is
/// built under "<variable>/Regularizer/" and added to REGULARIZATION_LOSSES (addRegularizationLoss);
/// a reused variable gets no second penalty, as in TensorFlow. `initializer` nullopt: the scope's,
/// else getVariable's default (glorot_uniform for floats). Errors: getVariable's, the regularizer's.
Expected<Variable> addWeight(GraphBuilder& b, std::string_view name, const TensorShape& shape, DataType dtype,
                             const std::optional<Initializer>& initializer, const Regularizer& regularizer,
                             bool trainable);

// --- InputSpec checks (keras input_spec.assert_input_compatibility, TensorFlow's words) ---------------

/// InvalidArgument "Input 0 of layer conv2d is incompatible with the layer: expected ndim=4, found
/// ndim=3. Full shape received: [None, 3, 4]", or "... its rank is undefined, but the layer requires
/// a defined rank." for an unknown rank.
Status checkInputNdim(const std::string& layerName, const Output& x, int ndim);
/// The same for a minimum rank (TensorFlow's message has the doubled colon):
/// "Input 0 of layer dense is incompatible with the layer: : expected min_ndim=2, found ndim=1. Full
/// shape received: [3]".
Status checkInputMinNdim(const std::string& layerName, const Output& x, int minNdim);

/// A shape as Python prints TensorShape.as_list(): "[None, 3]".
std::string pythonShapeList(const TensorShape& shape);

// --- Python calls the layers make, with TensorFlow's node names ---------------------------------------

/// x[index] of a 1-D tensor (Tensor.__getitem__ with an int): "strided_slice/stack",
/// "strided_slice/stack_1", "strided_slice/stack_2" and the StridedSlice "strided_slice"
/// (shrink_axis_mask 1).
Expected<Output> elementAt(GraphBuilder& b, const Output& x, std::int64_t index);
/// ops.convert_to_tensor(list, name) of int32 scalars where some are tensors (autopacking): a scope
/// `name` holding one Const per Python number, named after its position ("1"), and the Pack named
/// after the scope. Each entry is a tensor (valid Output) or the number beside it.
Expected<Output> autopack(GraphBuilder& b, const std::vector<std::pair<Output, std::int64_t>>& elements,
                          std::string_view name);

} // namespace tstudio::layers
