// Activation functions of tf.layers: one op each, named after the op type as TensorFlow 1.15 names it.
#include "layers/activation.h"

#include "builder/ops_sugar.h"

namespace tstudio::layers {

std::string_view activationOpType(Activation activation)
{
    switch (activation) {
    case Activation::kNone: return {};
    case Activation::kRelu: return "Relu";
    case Activation::kRelu6: return "Relu6";
    case Activation::kElu: return "Elu";
    case Activation::kSelu: return "Selu";
    case Activation::kSoftplus: return "Softplus";
    case Activation::kSoftsign: return "Softsign";
    case Activation::kSigmoid: return "Sigmoid";
    case Activation::kTanh: return "Tanh";
    case Activation::kSoftmax: return "Softmax";
    }
    return {};
}

Expected<Output> applyActivation(GraphBuilder& b, const Output& x, Activation activation)
{
    const std::string_view type = activationOpType(activation);
    if (type.empty())
        return x;
    return ops::firstOutput(b.op(type, {x}));
}

} // namespace tstudio::layers
