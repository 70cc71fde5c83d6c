// StopAtStepHook: requests a stop once the global step reaches a last step.
#include "training/stop_at_step_hook.h"

namespace tstudio::training {

Expected<std::shared_ptr<StopAtStepHook>> StopAtStepHook::create(std::optional<std::int64_t> numSteps,
                                                                 std::optional<std::int64_t> lastStep)
{
    if (!numSteps && !lastStep)
        return unexpected(invalidArgumentError("One of num_steps or last_step must be specified."));
    if (numSteps && lastStep)
        return unexpected(invalidArgumentError("Only one of num_steps or last_step can be specified."));
    return std::shared_ptr<StopAtStepHook>(new StopAtStepHook(numSteps, lastStep));
}

Status StopAtStepHook::begin(GraphBuilder& graph)
{
    auto step = globalStepReadTensor(graph, "StopAtStepHook");
    if (!step)
        return step.error();
    m_globalStep = *step;
    return {};
}

Status StopAtStepHook::afterCreateSession(Session& session)
{
    if (m_lastStep)
        return {};
    auto step = fetchInt64(session, m_globalStep);
    if (!step)
        return step.error();
    m_lastStep = *step + *m_numSteps;
    return {};
}

Expected<SessionRunArgs> StopAtStepHook::beforeRun(SessionRunContext&)
{
    SessionRunArgs args;
    args.fetches = {m_globalStep};
    return args;
}

Status StopAtStepHook::afterRun(SessionRunContext& context, const SessionRunValues& values)
{
    auto stale = int64Scalar(values.results.at(0), m_globalStep);
    if (!stale)
        return stale.error();
    if (*stale + 1 < *m_lastStep)
        return {};
    auto step = fetchInt64(context.session(), m_globalStep);
    if (!step)
        return step.error();
    if (*step >= *m_lastStep)
        context.requestStop();
    return {};
}

} // namespace tstudio::training
