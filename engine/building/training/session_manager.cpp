// SessionManager: restores or initialises a session's model, or waits until it is ready.
#include "training/session_manager.h"

#include "core/log.h"
#include "io/checkpoint/checkpoint_state.h"

#include <chrono>
#include <cmath>
#include <thread>

namespace tstudio::training {

Expected<std::string> SessionManager::notReady(Session& session, const std::string& op)
{
    if (op.empty())
        return std::string();
    std::vector<Tensor> out;
    if (Status s = session.run({}, {op}, {}, &out); !s.isOk()) {
        if (s.code() == StatusCode::kFailedPrecondition && s.message().find("uninitialized") != std::string::npos)
            return s.message();
        return unexpected(s);
    }
    const Tensor& t = out.front();
    if (t.dtype() != tensorflow::DT_STRING || t.numElements() == 0)
        return std::string();
    std::string names;
    for (const std::string& n : t.strings())
        names += (names.empty() ? "" : ", ") + n;
    return "Variables not initialized: " + names;
}

Expected<std::string> SessionManager::tryRunLocalInitOp(Session& session) const
{
    if (m_options.localInitOp.empty())
        return std::string();
    auto why = notReady(session, m_options.readyForLocalInitOp);
    if (!why || !why->empty())
        return why;
    std::vector<Tensor> none;
    if (Status s = session.run({}, {}, {m_options.localInitOp}, &none); !s.isOk())
        return unexpected(s);
    return std::string();
}

Expected<bool> SessionManager::prepareSession(Session& session, const PrepareSessionArgs& args) const
{
    bool restored = false;
    if (args.saver && !args.checkpointDir.empty()) {
        auto state = readCheckpointState(args.checkpointDir);
        if (state) {
            if (Status s = args.saver->restore(session, state->model_checkpoint_path()); !s.isOk())
                return unexpected(s);
            args.saver->recoverLastCheckpoints(
                {state->all_model_checkpoint_paths().begin(), state->all_model_checkpoint_paths().end()});
            restored = true;
        } else if (state.error().code() != StatusCode::kNotFound) {
            return unexpected(state.error());
        }
    }
    const std::string initOp = args.initOp.empty() ? "None" : args.initOp;
    const std::string initFn = args.initFn ? "<init_fn>" : "None";
    if (!restored) {
        if (args.initOp.empty() && !args.initFn && m_options.localInitOp.empty())
            return unexpected(failedPreconditionError(
                "Model is not initialized and no init_op or init_fn or local_init_op was given"));
        std::vector<Tensor> none;
        if (!args.initOp.empty())
            if (Status s = session.run(args.initFeeds, {}, {args.initOp}, &none); !s.isOk())
                return unexpected(s);
        if (args.initFn)
            if (Status s = args.initFn(session); !s.isOk())
                return unexpected(s);
    }
    auto localNotReady = tryRunLocalInitOp(session);
    if (!localNotReady)
        return unexpected(localNotReady.error());
    if (!localNotReady->empty())
        return unexpected(
            failedPreconditionError("Init operations did not make model ready for local_init.  Init op: " + initOp +
                                    ", init fn: " + initFn + ", error: " + *localNotReady));
    auto notReadyNames = notReady(session, m_options.readyOp);
    if (!notReadyNames)
        return unexpected(notReadyNames.error());
    if (!notReadyNames->empty()) {
        const std::string localInit = m_options.localInitOp.empty() ? "None" : m_options.localInitOp;
        return unexpected(failedPreconditionError("Init operations did not make model ready.  Init op: " + initOp +
                                                  ", init fn: " + initFn + ", local_init_op: " + localInit +
                                                  ", error: " + *notReadyNames));
    }
    return restored;
}

Expected<std::unique_ptr<Session>> SessionManager::waitForSession(const SessionOptions& options,
                                                                  const tensorflow::GraphDef& graph,
                                                                  std::optional<double> maxWaitSecs,
                                                                  const std::function<Status(Session&)>& shared) const
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    for (;;) {
        auto session = std::make_unique<Session>(options);
        if (Status s = session->create(graph); !s.isOk())
            return unexpected(s);
        if (shared)
            if (Status s = shared(*session); !s.isOk())
                return unexpected(s);
        auto localWhy = tryRunLocalInitOp(*session);
        if (!localWhy)
            return unexpected(localWhy.error());
        std::string why;
        if (localWhy->empty()) {
            auto ready = notReady(*session, m_options.readyOp);
            if (!ready)
                return unexpected(ready.error());
            if (ready->empty())
                return session;
            why = *ready;
        }
        (void)session->close();
        if (maxWaitSecs) {
            const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
            if (std::max(0.0, *maxWaitSecs - elapsed) - m_options.recoveryWaitSecs < 0)
                return unexpected(Status{StatusCode::kDeadlineExceeded,
                                         "Session was not ready after waiting " +
                                             std::to_string(static_cast<long long>(*maxWaitSecs)) + " secs."});
        }
        logInfo("session_manager", "Waiting for model to be ready.  Ready_for_local_init_op:  " +
                                       (localWhy->empty() ? std::string("None") : *localWhy) +
                                       ", ready: " + (why.empty() ? std::string("None") : why));
        std::this_thread::sleep_for(std::chrono::duration<double>(m_options.recoveryWaitSecs));
    }
}

} // namespace tstudio::training
