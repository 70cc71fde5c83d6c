// TrainingRun: one project's training (project::trainProject) on a worker thread, with pause, stop and
// checkpoint requests from the GUI thread and its progress delivered back to the GUI thread.
#pragma once

#include "debugger/debug_controller.h"
#include "profiler/profile_trace.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

Q_DECLARE_METATYPE(tstudio::project::TrainProgress)
Q_DECLARE_METATYPE(tstudio::project::TrainRunResult)
Q_DECLARE_METATYPE(tstudio::project::EvalResult)
Q_DECLARE_METATYPE(std::shared_ptr<const tstudio::profiler::ProfileTrace>)
Q_DECLARE_METATYPE(std::shared_ptr<const tensorflow::GraphDef>)

namespace tstudio {
struct Registries;
}

namespace tstudio::training_panel {

/// Signals arrive on the thread that owns the run (the GUI thread): started once the session exists
/// (the log directory holds the graph and the first checkpoint), progressed at most every
/// `progressIntervalMs` and after the last step, finished exactly once. Destroying a run that is
/// still going stops it after the current step and waits for it (a final checkpoint is saved).
class TrainingRun : public QObject {
    Q_OBJECT
public:
    /// `registries` must outlive the run. options.onProgress/onStarted/onCheckpoint and the
    /// request flags are the run's own; the others (steps, logdir, resume, threads) are used as given.
    TrainingRun(const Registries* registries, project::Project project, project::TrainRunOptions options,
                QObject* parent = nullptr);
    ~TrainingRun() override;

    /// Starts the worker; once only.
    void start();
    bool isRunning() const { return m_running; }
    bool isPaused() const { return m_pause.load(); }
    void setPaused(bool paused);
    /// Ends the run after the current step (also while paused).
    void requestStop();
    /// Saves a checkpoint after the current step (checkpointSaved then reports it).
    void requestCheckpoint();
    /// Traces the next `steps` steps with FULL_TRACE (as a ProfilerHook would); profiled then
    /// delivers their trace. A request while one is pending adds to it.
    void requestProfile(int steps = 1);
    /// After finished: a profile request was still waiting when the run ended (Profile pressed as
    /// its last step finished), so no step of it was traced.
    bool profileRequestUnserved() const { return !m_running && m_traceSteps.load() > 0; }
    /// Minimum time between progressed signals (default 100 ms).
    void setProgressInterval(int milliseconds) { m_progressIntervalMs = milliseconds; }

    const project::Project& project() const { return m_project; }
    /// Attaches the debugger to every training step (before start()). Stop while it is paused
    /// cancels the paused step: the run ends without a checkpoint of that half-done step.
    void setDebugger(std::shared_ptr<DebugController> debugger) { m_debugger = std::move(debugger); }

signals:
    void started(const tstudio::project::TrainProgress& progress);
    void progressed(const tstudio::project::TrainProgress& progress);
    void checkpointSaved(const QString& prefix);
    /// An evaluation of the project's eval section finished (its results are in <logdir>/eval).
    void evaluated(const tstudio::project::EvalResult& result);
    /// The steps asked for by requestProfile, traced (built into a trace on the worker).
    void profiled(std::shared_ptr<const tstudio::profiler::ProfileTrace> trace);
    /// The graph the training session runs (the project's plus optimizer, summaries and hooks),
    /// before the first step: what the debugger's node names refer to.
    void sessionGraph(std::shared_ptr<const tensorflow::GraphDef> graph);
    /// ok false: `message` is the error, in the engine's words.
    void finished(bool ok, const QString& message, const tstudio::project::TrainRunResult& result);

private:
    void work();

    const Registries* m_registries;
    project::Project m_project;
    project::TrainRunOptions m_options;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_pause{false};
    std::atomic<bool> m_checkpoint{false};
    std::atomic<int> m_traceSteps{0};
    std::atomic<int> m_progressIntervalMs{100};
    std::shared_ptr<DebugController> m_debugger;
    bool m_running = false;
    std::thread m_thread;
};

} // namespace tstudio::training_panel
