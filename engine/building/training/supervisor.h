// Supervisor: tf.train.Supervisor of TF 1.x, the training manager that predates
// MonitoredTrainingSession: it prepares (restores or initialises) a session and runs the standard
// services (summaries, step counter, checkpoints) and the queue runners on threads of a Coordinator.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "io/events/event_file_writer.h"
#include "model/saver.h"
#include "proto/meta_graph.pb.h"
#include "proto/queue_runner.pb.h"
#include "runtime/session.h"
#include "training/coordinator.h"
#include "training/session_manager.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::training {

/// Supervisor's arguments. For the ops and tensors, nullopt is TensorFlow's USE_DEFAULT and an
/// empty name its None; for the saver and the summary writer, nullopt is USE_DEFAULT and a null
/// pointer None.
struct SupervisorOptions {
    /// The registries and ConfigProto of the sessions (ops and kernels required).
    SessionOptions session;
    bool isChief = true;
    /// Default: the first item of the "ready_op" collection, else report_uninitialized_variables()
    /// (added to the collection).
    std::optional<std::string> readyOp;
    /// Default: the first item of "ready_for_local_init_op", else None.
    std::optional<std::string> readyForLocalInitOp;
    /// Default: the first item of "init_op", else global_variables_initializer() "init" (added).
    std::optional<std::string> initOp;
    Feeds initFeeds;
    /// Default: the first item of "local_init_op", else group(local_variables_initializer(),
    /// tables_initializer()) (added).
    std::optional<std::string> localInitOp;
    /// A scalar string tensor holding a serialized Summary. Default: the first item of
    /// "summary_op", else summary.merge_all() (added when there are summaries).
    std::optional<std::string> summaryOp;
    /// Default: tf.train.Saver() of every global variable (none without variables).
    std::optional<std::shared_ptr<Saver>> saver;
    /// An integer scalar tensor. Default: the first item of the "global_step" collection, else the
    /// tensor "global_step:0" when it is an int32 or int64 one.
    std::optional<std::string> globalStep;
    /// The chief's checkpoints, graph.pbtxt and events; restored from. Empty: none.
    std::string logdir;
    double saveSummariesSecs = 120; ///< 0: no summary or step-counter service
    double saveModelSecs = 600;     ///< 0: no checkpoint service
    double recoveryWaitSecs = 30;
    double stopGraceSecs = 120;
    std::string checkpointBasename = "model.ckpt";
    /// Default: a new event file in logdir (the chief with a logdir only).
    std::optional<std::shared_ptr<events::EventFileWriter>> summaryWriter;
    /// Called after the init op when no checkpoint was restored.
    std::function<Status(Session&)> initFn;
    /// The queue runners prepareOrWaitForSession starts (TensorFlow's "queue_runners" collection).
    std::vector<tensorflow::QueueRunnerDef> queueRunners;
};

/// tf.train.Supervisor over our Session.
///
/// create() settles the ops in TensorFlow's order (ready op, init op, local init op, saver,
/// summary op, global step), exports the MetaGraph, opens the chief's event file and finalizes the
/// graph: adding a node afterwards fails with "Graph is finalized and cannot be modified.". A task
/// that is not the chief needs every variable placed (InvalidArgument "When using replicas, all
/// Variables must have their device set: w") and writes nothing: its logdir, writer and service
/// periods are dropped, as TensorFlow's are.
///
/// prepareOrWaitForSession(): the chief's session is prepared as SessionManager.prepare_session
/// does (restored from logdir's latest checkpoint, else initialised), graph.pbtxt is written to
/// logdir and the graph and MetaGraph to the event file (once per writer), then the standard
/// services start: SessionLog START at the current global step, and threads on the coordinator
/// that run at once and then every period:
///  - the summary service: the summary op and the global step, written as a summary at that step;
///  - the step counter: "<global step op>/sec" ("global_step/sec": steps per second since its
///    last run);
///  - the checkpoint service: Saver.save(savePath(), global_step) with the MetaGraph, then
///    SessionLog CHECKPOINT {checkpoint_path = savePath()} at the step.
/// Another task waits for the model (SessionManager.wait_for_session; in this process no other
/// task initialises it, so it ends with DeadlineExceeded after maxWaitSecs unless its variables
/// need no initialisation). Both then start the queue runners.
///
/// A service's error requests the coordinator's stop with it; stop() returns it. As in
/// TensorFlow, stop() saves no final checkpoint: save through saver() before it when needed.
/// Thread-safe where TensorFlow's is (requestStop, shouldStop, summaryComputed from any thread);
/// prepareOrWaitForSession and stop from one thread.
class Supervisor {
public:
    static Expected<std::unique_ptr<Supervisor>> create(GraphBuilder& graph, SupervisorOptions options = {});
    /// stop() (errors ignored) and closes the session: nothing is saved.
    ~Supervisor();

    Supervisor(const Supervisor&) = delete;
    Supervisor& operator=(const Supervisor&) = delete;

    /// See the class comment. Clears the coordinator's stop first (a second session after stop());
    /// an event file closed by stop() is replaced by a new one. `maxWaitSecs` bounds a waiting
    /// task's wait (nullopt: no limit).
    Expected<std::shared_ptr<Session>> prepareOrWaitForSession(bool startStandardServices = true,
                                                               std::optional<double> maxWaitSecs = 7200);
    /// The chief's services on `session` (see the class comment); nothing without a logdir.
    /// FailedPrecondition "Only chief supervisor can start standard services. Because only chief
    /// supervisors can write events." for another task.
    Status startStandardServices(const std::shared_ptr<Session>& session);
    /// The given queue runners' threads (default options.queueRunners) on the coordinator.
    Status startQueueRunners(const std::shared_ptr<Session>& session,
                             const std::optional<std::vector<tensorflow::QueueRunnerDef>>& runners = std::nullopt);
    /// A LooperThread on the coordinator calling `target` every `intervalSecs` (back to back
    /// without); stop() joins it. An error from `target` stops the coordinator with it.
    void loop(std::optional<double> intervalSecs, std::function<Status()> target);

    /// managed_session: prepareOrWaitForSession, then `body`; an error from the body requests the
    /// stop with it (OutOfRange, the input's end, is a clean stop); then stop() and the session is
    /// closed. Returns the preparation's error, else the coordinator's (the body's or a service's).
    Status managedSession(const std::function<Status(Session&)>& body, bool startStandardServices = true,
                          bool closeSummaryWriter = true);

    /// Requests the coordinator's stop and joins its threads within stopGraceSecs; returns the
    /// error reported to it (or Internal "Coordinator stopped with threads still running: ..."
    /// unless ignoreLiveThreads). With closeSummaryWriter, then writes SessionLog STOP and closes
    /// the event file. Does not close the session.
    Status stop(bool closeSummaryWriter = true, bool ignoreLiveThreads = false);
    void requestStop(const Status& error = Status::ok()) { m_coordinator.requestStop(error); }
    bool shouldStop() const { return m_coordinator.shouldStop(); }
    void waitForStop() const { (void)m_coordinator.waitForStop(); }

    /// summary_computed: writes a serialized Summary at `step` (default: the global step read from
    /// `session`, 0 without one). FailedPrecondition "Writing a summary requires a summary
    /// writer." without a writer.
    Status summaryComputed(Session& session, const std::string& serializedSummary,
                           std::optional<std::int64_t> step = std::nullopt);

    bool isChief() const { return m_options.isChief; }
    Coordinator& coord() { return m_coordinator; }
    const SessionManager& sessionManager() const { return m_manager; }
    /// The settled pieces; empty names and null pointers are None.
    const std::string& initOp() const { return *m_options.initOp; }
    const std::string& readyOp() const { return *m_options.readyOp; }
    const std::string& readyForLocalInitOp() const { return *m_options.readyForLocalInitOp; }
    const std::string& localInitOp() const { return *m_options.localInitOp; }
    const std::string& summaryOp() const { return *m_options.summaryOp; }
    const std::string& globalStep() const { return *m_options.globalStep; }
    Saver* saver() const { return m_options.saver->get(); }
    events::EventFileWriter* summaryWriter() const { return m_writer.get(); }
    /// "<logdir>/<checkpointBasename>"; empty without a logdir.
    const std::string& savePath() const { return m_savePath; }
    double saveSummariesSecs() const { return m_options.saveSummariesSecs; }
    double saveModelSecs() const { return m_options.saveModelSecs; }
    const tensorflow::MetaGraphDef& metaGraph() const { return m_metaGraph; }

private:
    Supervisor(GraphBuilder& graph, SupervisorOptions options);
    Status settle(GraphBuilder& graph);
    Status writeGraph();
    /// The global step's value in `session` (0 without a global step).
    Expected<std::int64_t> readGlobalStep(Session& session) const;

    GraphBuilder* m_graph;
    SupervisorOptions m_options;
    SessionManager m_manager;
    Coordinator m_coordinator;
    tensorflow::MetaGraphDef m_metaGraph;
    std::string m_savePath;
    std::string m_globalStepOp; ///< the global step variable's name, when it is one ("global_step")
    std::shared_ptr<events::EventFileWriter> m_writer;
    bool m_ownsWriter = false; ///< made by the supervisor (reopened after stop)
    bool m_graphAdded = false; ///< graph and MetaGraph written to m_writer
    std::mutex m_saveMutex;    ///< one checkpoint at a time
    std::shared_ptr<Session> m_session;
};

} // namespace tstudio::training
