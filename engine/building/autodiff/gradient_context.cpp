// GradientContext: the forward op, its incoming gradients and the gradients set for its inputs.
#include "autodiff/gradient_context.h"

namespace tstudio {

GradientContext::GradientContext(GraphBuilder& builder, GradientCallState& state, Operation op,
                                 const tensorflow::NodeDef& node, std::vector<Output> inputs,
                                 std::vector<std::optional<Output>> outputGradients)
    : m_builder(builder), m_state(state), m_op(std::move(op)), m_node(node), m_inputs(std::move(inputs)),
      m_outputGradients(std::move(outputGradients)), m_inputGradients(m_inputs.size()),
      m_outputSlices(static_cast<std::size_t>(m_op.numOutputs())), m_inputSlices(m_inputs.size())
{
    m_outputGradients.resize(static_cast<std::size_t>(m_op.numOutputs()));
}

void GradientContext::setOutputIndexedSlices(int i, IndexedSlices slices)
{
    m_outputSlices.at(static_cast<std::size_t>(i)) = std::move(slices);
}

Status GradientContext::setInputGradient(int i, IndexedSlices gradient)
{
    if (i < 0 || i >= numInputs())
        return invalidArgumentError("gradient for input " + std::to_string(i) + " of '" + m_op.name() + "' (op type: " +
                                    m_op.type() + "), which has " + std::to_string(numInputs()) + " inputs");
    if (!gradient.values.isValid() || !gradient.indices.isValid())
        return invalidArgumentError("invalid IndexedSlices gradient for input " + std::to_string(i) + " of '" +
                                    m_op.name() + "'");
    m_inputGradients[static_cast<std::size_t>(i)].reset();
    m_inputSlices[static_cast<std::size_t>(i)] = std::move(gradient);
    return Status::ok();
}

std::vector<std::optional<Gradient>> GradientContext::inputGradientsWithSlices() const
{
    std::vector<std::optional<Gradient>> out(m_inputGradients.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (m_inputSlices[i])
            out[i] = Gradient(*m_inputSlices[i]);
        else if (m_inputGradients[i])
            out[i] = Gradient(*m_inputGradients[i]);
    }
    return out;
}

Expected<Output> GradientContext::grad(int i) const
{
    if (i < 0 || i >= numOutputs())
        return unexpected(internalError("the gradient function of '" + m_op.name() + "' (op type: " + m_op.type() +
                                        ") asked for output " + std::to_string(i) + " of " +
                                        std::to_string(numOutputs())));
    const std::optional<Output>& g = m_outputGradients[static_cast<std::size_t>(i)];
    if (!g)
        return unexpected(internalError("no gradient arrives at output " + std::to_string(i) + " of '" + m_op.name() +
                                        "' (op type: " + m_op.type() + ")"));
    return *g;
}

Status GradientContext::setInputGradient(int i, Output gradient)
{
    if (i < 0 || i >= numInputs())
        return invalidArgumentError("gradient for input " + std::to_string(i) + " of '" + m_op.name() + "' (op type: " +
                                    m_op.type() + "), which has " + std::to_string(numInputs()) + " inputs");
    if (!gradient.isValid())
        return invalidArgumentError("invalid gradient tensor for input " + std::to_string(i) + " of '" + m_op.name() +
                                    "'");
    m_inputSlices[static_cast<std::size_t>(i)].reset();
    m_inputGradients[static_cast<std::size_t>(i)] = std::move(gradient);
    return Status::ok();
}

Status GradientContext::setNoGradient(int i)
{
    if (i < 0 || i >= numInputs())
        return invalidArgumentError("input " + std::to_string(i) + " of '" + m_op.name() + "' does not exist");
    m_inputGradients[static_cast<std::size_t>(i)].reset();
    m_inputSlices[static_cast<std::size_t>(i)].reset();
    return Status::ok();
}

} // namespace tstudio
