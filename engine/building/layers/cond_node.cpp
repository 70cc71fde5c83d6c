// The Cond node: its catalogue entry, the checks of its ports and its expansion through the builder's cond.
#include "layers/cond_node.h"

#include "builder/cond.h"
#include "core/try.h"
#include "framework/data_type.h"

namespace tstudio::layers {
namespace {

/// "float32 [?,4]": what a message says a port got.
std::string describe(const Output& t)
{
    return dataTypeName(t.baseDtype()) + " " + t.shape().toString();
}

} // namespace

LayerType condLayerType()
{
    LayerType t;
    t.type = "Cond";
    t.category = "Layers";
    t.doc = "tf.cond(pred, lambda: true, lambda: false): the value of 'true' when the bool scalar pred is true, "
            "else the value of 'false'; TensorFlow's Switch and Merge ops.";
    t.inputs = 3;
    t.outputs = 1;
    t.inputNames = {"pred", "true", "false"};
    t.outputNames = {"output"};
    return t;
}

Status checkCondPorts(const Output& pred, const Output& trueValue, const Output& falseValue)
{
    const std::string takes = "port 'pred' takes a bool scalar; got " + describe(pred);
    if (pred.baseDtype() != tensorflow::DT_BOOL)
        return invalidArgumentError(takes);
    if (pred.shape().rank() > 0)
        return invalidArgumentError(takes + ": reduce it to one value first (tf.reduce_any, tf.reduce_all)");
    if (trueValue.baseDtype() != falseValue.baseDtype())
        return invalidArgumentError("ports 'true' and 'false' take tensors of one dtype; got " + describe(trueValue) +
                                    " and " + describe(falseValue));
    return Status::ok();
}

Expected<LayerExpansion> expandCondNode(GraphBuilder& b, std::string_view name, const std::vector<Output>& inputs)
{
    if (inputs.size() != 3)
        return unexpected(invalidArgumentError("expected 3 inputs, got " + std::to_string(inputs.size())));
    if (Status s = checkCondPorts(inputs[0], inputs[1], inputs[2]); !s.isOk())
        return unexpected(s);
    // `lambda: x` of a tensor from outside the branch: cond passes it in through a Switch of its own.
    const Output trueValue = inputs[1];
    const Output falseValue = inputs[2];
    TSTUDIO_TRY(merged, cond(
                            b, inputs[0],
                            [&](GraphBuilder&) -> Expected<std::vector<Output>> { return std::vector{trueValue}; },
                            [&](GraphBuilder&) -> Expected<std::vector<Output>> { return std::vector{falseValue}; },
                            name.empty() ? std::string_view("cond") : name));
    return LayerExpansion{{merged.front()}, {}};
}

} // namespace tstudio::layers
