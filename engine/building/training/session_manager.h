// SessionManager: makes a Session whose model is ready, by restoring the latest checkpoint or by
// running the init op, or waits for another task to make it ready (tf.train.SessionManager of TF 1.x).
#pragma once

#include "core/expected.h"
#include "model/saver.h"
#include "runtime/session.h"
#include "training/session_run_hook.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::training {

/// The ops a SessionManager checks and runs; an empty name is TensorFlow's None.
struct SessionManagerOptions {
    /// Run after each new session once readyForLocalInitOp reports nothing.
    std::string localInitOp;
    /// A string vector naming what is not initialized (empty: ready).
    std::string readyOp;
    std::string readyForLocalInitOp;
    /// How long waitForSession sleeps between tries.
    double recoveryWaitSecs = 30;
};

/// What prepareSession initialises the model with when no checkpoint is restored.
struct PrepareSessionArgs {
    std::string initOp; ///< empty: None
    Feeds initFeeds;
    std::function<Status(Session&)> initFn;
    /// Restores "model_checkpoint_path" of checkpointDir's state file when both are given.
    Saver* saver = nullptr;
    std::string checkpointDir;
};

/// tf.train.SessionManager over our Session.
class SessionManager {
public:
    explicit SessionManager(SessionManagerOptions options) : m_options(std::move(options)) {}

    /// prepare_session on a created Session: restores the checkpoint that checkpointDir's state
    /// file names (and hands the state file's list to the saver for max_to_keep), or else runs the
    /// init op with its feeds and then the init fn; runs the local init op once the
    /// ready-for-local-init op reports nothing; checks the ready op. Returns whether it restored.
    /// FailedPrecondition in TensorFlow's RuntimeError texts: "Model is not initialized and no
    /// init_op or init_fn or local_init_op was given", "Init operations did not make model ready for
    /// local_init.  Init op: init, init fn: None, error: Variables not initialized: w" and "Init
    /// operations did not make model ready.  Init op: ..., init fn: ..., local_init_op: ..., error:
    /// ..."; the restore's errors ("The passed save_path is not a valid checkpoint: ...").
    Expected<bool> prepareSession(Session& session, const PrepareSessionArgs& args) const;

    /// wait_for_session: creates sessions of `graph` until one is ready (its local init op run when
    /// it may be), sleeping recoveryWaitSecs between tries, as a task that is not the chief waits
    /// for the chief. DeadlineExceeded "Session was not ready after waiting N secs." once another
    /// wait would pass maxWaitSecs (nullopt: no limit). `shared` (when given) runs on each new
    /// session before it is checked: it stands for the variables other tasks hold, which in
    /// TensorFlow a worker's session sees through its master (an asynchronous project run pulls
    /// the parameter servers' values there); its error ends the wait.
    Expected<std::unique_ptr<Session>> waitForSession(const SessionOptions& options, const tensorflow::GraphDef& graph,
                                                      std::optional<double> maxWaitSecs = std::nullopt,
                                                      const std::function<Status(Session&)>& shared = {}) const;

    /// _ready: "" when `op` is empty or reports nothing, else "Variables not initialized: a, b";
    /// a FailedPrecondition mentioning "uninitialized" from running `op` is a "not ready" too.
    static Expected<std::string> notReady(Session& session, const std::string& op);

    const SessionManagerOptions& options() const { return m_options; }

private:
    /// _try_run_local_init_op: "" after running the local init op (or without one), else why not.
    Expected<std::string> tryRunLocalInitOp(Session& session) const;

    SessionManagerOptions m_options;
};

} // namespace tstudio::training
