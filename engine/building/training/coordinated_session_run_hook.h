// CoordinatedSessionRunHook: a SessionRunHook whose after_create_session also receives the
// MonitoredTrainingSession's Coordinator (TensorFlow's after_create_session(session, coord)), for
// hooks that start threads of their own, such as SyncReplicasOptimizer's chief queue runner.
#pragma once

#include "training/coordinator.h"
#include "training/session_run_hook.h"

namespace tstudio::training {

/// MonitoredTrainingSession calls afterCreateSession(session, coordinator) instead of
/// afterCreateSession(session) for hooks of this kind. Threads started on `coordinator` are stopped
/// and joined by the session's close() (which closes the Session if they still wait, so a kernel
/// waiting in them returns Cancelled).
class CoordinatedSessionRunHook : public SessionRunHook {
public:
    using SessionRunHook::afterCreateSession;
    virtual Status afterCreateSession(Session& session, Coordinator& coordinator) = 0;
};

} // namespace tstudio::training
