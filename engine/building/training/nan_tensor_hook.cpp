// NanTensorHook: stops training when the loss becomes NaN.
#include "training/nan_tensor_hook.h"

#include "core/log.h"
#include "training/global_step.h"

#include <cmath>

namespace tstudio::training {

Status NanTensorHook::begin(GraphBuilder& graph)
{
    if (auto loss = graph.tensor(m_loss); !loss)
        return loss.error();
    // Only to name the step in the error: read after the run, so the variable's snapshot will do.
    auto step = getGlobalStep(graph);
    m_globalStep = step && *step ? (*step)->value().name() : std::string();
    return {};
}

Expected<SessionRunArgs> NanTensorHook::beforeRun(SessionRunContext&)
{
    SessionRunArgs args;
    args.fetches = {m_loss};
    return args;
}

Status NanTensorHook::afterRun(SessionRunContext& context, const SessionRunValues& values)
{
    const Tensor& loss = values.results.at(0);
    double value = 0;
    if (loss.numElements() == 1 && loss.dtype() == tensorflow::DT_FLOAT)
        value = loss.scalar<float>();
    else if (loss.numElements() == 1 && loss.dtype() == tensorflow::DT_DOUBLE)
        value = loss.scalar<double>();
    else
        return invalidArgumentError("NanTensorHook: the loss tensor '" + m_loss +
                                    "' must be a float or double scalar, got " + dataTypeString(loss.dtype()) + " " +
                                    loss.shape().toString());
    if (!std::isnan(value))
        return {};
    const std::string message = "Model diverged with loss = NaN.";
    if (!m_failOnNanLoss) {
        logWarning("training", message);
        context.requestStop();
        return {};
    }
    logError("training", message);
    std::string where = "tensor '" + m_loss + "'";
    if (!m_globalStep.empty()) {
        auto step = fetchInt64(context.session(), m_globalStep);
        if (step)
            where += " at global step " + std::to_string(*step);
    }
    return invalidArgumentError("NaN loss during training: Model diverged with loss = NaN (" + where + ").");
}

} // namespace tstudio::training
