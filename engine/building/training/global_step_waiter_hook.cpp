// GlobalStepWaiterHook (global_step_waiter_hook.h).
#include "training/global_step_waiter_hook.h"

#include "core/log.h"
#include "runtime/session.h"

#include <thread>

namespace tstudio::training {

Status GlobalStepWaiterHook::begin(GraphBuilder& graph)
{
    m_workerStarted = false;
    auto read = globalStepReadTensor(graph, "_GlobalStepWaiterHook");
    if (!read)
        return read.error();
    m_globalStep = *read;
    return Status::ok();
}

Expected<SessionRunArgs> GlobalStepWaiterHook::beforeRun(SessionRunContext& context)
{
    if (m_workerStarted)
        return SessionRunArgs{};
    if (m_waitUntilStep <= 0) {
        m_workerStarted = true;
        return SessionRunArgs{};
    }
    logInfo("training", "Waiting for global step " + std::to_string(m_waitUntilStep) + " before starting training.");
    std::int64_t lastLogged = 0;
    while (true) {
        if (context.session().isClosed())
            return unexpected(cancelledError("The session was closed while waiting for global step " +
                                             std::to_string(m_waitUntilStep)));
        auto current = fetchInt64(context.session(), m_globalStep);
        if (!current)
            return unexpected(current.error());
        if (*current >= m_waitUntilStep) {
            m_workerStarted = true;
            return SessionRunArgs{};
        }
        if (*current - lastLogged > 1000) {
            logInfo("training", "Waiting for global step " + std::to_string(m_waitUntilStep) +
                                    " before starting training. Current step is " + std::to_string(*current) + ".");
            lastLogged = *current;
        }
        std::this_thread::sleep_for(m_pollInterval);
    }
}

} // namespace tstudio::training
