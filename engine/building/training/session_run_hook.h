// SessionRunHook: the callbacks a MonitoredTrainingSession calls around session creation and each
// run (tf.train.SessionRunHook, SessionRunArgs, SessionRunContext, SessionRunValues of TF 1.x).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/tensor.h"
#include "proto/config.pb.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio {
class Session;
}

namespace tstudio::training {

/// Feeds as Session::run takes them: ("node:0" or "node", value).
using Feeds = std::vector<std::pair<std::string, Tensor>>;

/// What a run asks for (tf.train.SessionRunArgs): tensors to fetch ("node:0"), ops to run for their
/// effects (TensorFlow lets an Operation stand among the fetches; here they are listed apart), feeds
/// and RunOptions. A hook's options are merged with the others' (see MonitoredTrainingSession::run).
struct SessionRunArgs {
    std::vector<std::string> fetches;
    std::vector<std::string> targets;
    Feeds feeds;
    std::optional<tensorflow::RunOptions> options;
};

/// The run in progress as hooks see it (tf.train.SessionRunContext): the caller's request, the
/// session (hooks may run it again, e.g. to read the global step after the train op), and the stop
/// request. Valid only during the run's beforeRun / afterRun calls.
class SessionRunContext {
public:
    SessionRunContext(SessionRunArgs originalArgs, Session& session)
        : m_originalArgs(std::move(originalArgs)), m_session(session)
    {
    }
    const SessionRunArgs& originalArgs() const { return m_originalArgs; }
    Session& session() const { return m_session; }
    /// Asks the MonitoredTrainingSession to stop: shouldStop() is true after this run.
    void requestStop() { m_stopRequested = true; }
    bool stopRequested() const { return m_stopRequested; }

private:
    SessionRunArgs m_originalArgs;
    Session& m_session;
    bool m_stopRequested = false;
};

/// What a hook gets back (tf.train.SessionRunValues): one tensor per fetch of its SessionRunArgs,
/// in order, the merged RunOptions and the run's metadata (step_stats when tracing was asked).
struct SessionRunValues {
    std::vector<Tensor> results;
    const tensorflow::RunOptions& options;
    const tensorflow::RunMetadata& runMetadata;
};

/// A hook (tf.train.SessionRunHook). Every callback returns an error to abort: the error reaches
/// the caller of MonitoredTrainingSession::create / run / close unchanged.
/// Order: begin() for each hook while the graph may still grow (before the Scaffold is finalized);
/// afterCreateSession() once the variables are restored or initialized; beforeRun() / afterRun()
/// around every run; end() from close().
class SessionRunHook {
public:
    virtual ~SessionRunHook() = default;

    /// The graph may still be changed here (e.g. ops the hook will run). `graph` outlives the
    /// MonitoredTrainingSession and may be kept.
    virtual Status begin(GraphBuilder& graph)
    {
        (void)graph;
        return {};
    }
    virtual Status afterCreateSession(Session& session)
    {
        (void)session;
        return {};
    }
    /// What to add to the run; an empty SessionRunArgs adds nothing.
    virtual Expected<SessionRunArgs> beforeRun(SessionRunContext& context)
    {
        (void)context;
        return SessionRunArgs{};
    }
    virtual Status afterRun(SessionRunContext& context, const SessionRunValues& values)
    {
        (void)context;
        (void)values;
        return {};
    }
    virtual Status end(Session& session)
    {
        (void)session;
        return {};
    }
};

/// The collection that holds the global step's read tensor (TensorFlow's GLOBAL_STEP_READ_KEY).
inline constexpr std::string_view kGlobalStepReadKey = "global_step_read_op_cache";

/// training_util._get_or_create_global_step_read: the tensor the hooks read the global step from,
/// "global_step/add:0" = AddV2("global_step/read", "global_step/add/y" = 0), a copy of the value
/// made when it is computed. Without the copy a fetch of the variable's snapshot would alias the
/// variable and show the train op's increment of the same run. Made once (at the root name scope,
/// without control dependencies) and kept in kGlobalStepReadKey. TensorFlow reads the variable
/// through initialized_value() (a cond on IsVariableInitialized); the session has initialized or
/// restored every variable before a hook runs, so the plain snapshot is read here.
/// Errors: FailedPrecondition "Global step should be created to use <hookName>." when the graph
/// has none (TensorFlow's RuntimeError); getGlobalStep's errors for a malformed one;
/// FailedPrecondition when kGlobalStepReadKey holds several items.
Expected<std::string> globalStepReadTensor(GraphBuilder& graph, std::string_view hookName);

/// When globalStepReadTensor has been made: every op that increments the global step (AssignAdd,
/// AssignSub and their resource forms, with the variable as first input) gets a control input on
/// the read, so the read shows the step before the run's increment. TensorFlow's executor usually
/// reads it first anyway; ours runs independent nodes in GraphDef order, where the read (made by
/// the hooks, after the model) would come after the increment. Nothing to do without a read or a
/// global step.
Status orderGlobalStepReadBeforeIncrements(GraphBuilder& graph);

/// The value of an integer scalar (int32 or int64); InvalidArgument naming `what` otherwise.
Expected<std::int64_t> int64Scalar(const Tensor& t, std::string_view what);

/// Runs `tensor` (an integer scalar, e.g. the global step) and returns its value.
Expected<std::int64_t> fetchInt64(Session& session, const std::string& tensor);

} // namespace tstudio::training
