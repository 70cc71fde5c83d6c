// TrainingRun: trainProject on a std::thread; callbacks posted back to the owner's thread.
#include "training/training_run.h"

#include "profiler/trace_builder.h"
#include "proto/config.pb.h"

#include <QMetaObject>

#include <algorithm>
#include <chrono>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tstudio::training_panel {

TrainingRun::TrainingRun(const Registries* registries, project::Project project, project::TrainRunOptions options,
                         QObject* parent)
    : QObject(parent), m_registries(registries), m_project(std::move(project)), m_options(std::move(options))
{
}

TrainingRun::~TrainingRun()
{
    m_stop = true;
    m_pause = false;
    if (m_debugger && m_debugger->isPaused())
        m_debugger->cancel();
    if (m_thread.joinable())
        m_thread.join();
}

void TrainingRun::start()
{
    if (m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] { work(); });
}

void TrainingRun::setPaused(bool paused)
{
    m_pause = paused;
}

void TrainingRun::requestStop()
{
    m_stop = true;
    if (m_debugger && m_debugger->isPaused())
        m_debugger->cancel();
}

void TrainingRun::requestCheckpoint()
{
    m_checkpoint = true;
}

void TrainingRun::requestProfile(int steps)
{
    m_traceSteps += std::max(1, steps);
}

namespace {

/// The nice value of a run's threads (0 is the GUI's; 19 the lowest).
constexpr int kTrainingNice = 5;

} // namespace

void TrainingRun::work()
{
    // Training saturates every core; the window must stay responsive. Below the GUI thread's
    // priority (Linux's nice is per thread and inherited by the threads this one starts: the
    // session's intra-op pool, the event writers), the run takes what the GUI leaves.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kTrainingNice);
    using Clock = std::chrono::steady_clock;
    project::TrainRunOptions options = m_options;
    options.stopRequested = &m_stop;
    options.pauseRequested = &m_pause;
    options.checkpointRequested = &m_checkpoint;
    options.traceStepsRequested = &m_traceSteps;
    options.progressEverySteps = 1;
    options.observer = m_debugger.get();
    options.onSessionGraph = [this](const tensorflow::GraphDef& graph) {
        auto shared = std::make_shared<const tensorflow::GraphDef>(graph);
        QMetaObject::invokeMethod(this, [this, shared] { emit sessionGraph(shared); }, Qt::QueuedConnection);
    };
    options.flushSecs = 0.4; // the dashboard reads twice a second
    // Throttled on this thread: at most one progressed signal per interval, steps per second over it.
    Clock::time_point lastPost = Clock::now();
    std::int64_t lastPostStep = -1;
    options.onStarted = [this, &lastPost, &lastPostStep](const project::TrainProgress& p) {
        lastPost = Clock::now();
        lastPostStep = p.step;
        QMetaObject::invokeMethod(this, [this, p] { emit started(p); }, Qt::QueuedConnection);
    };
    options.onProgress = [this, &lastPost, &lastPostStep](const project::TrainProgress& progress) {
        const Clock::time_point now = Clock::now();
        const double dt = std::chrono::duration<double>(now - lastPost).count();
        if (dt * 1000.0 < m_progressIntervalMs.load() && progress.step < progress.lastStep)
            return;
        project::TrainProgress p = progress;
        p.stepsPerSecond = dt > 0 && lastPostStep >= 0 ? static_cast<double>(p.step - lastPostStep) / dt : 0.0;
        lastPost = now;
        lastPostStep = p.step;
        QMetaObject::invokeMethod(this, [this, p] { emit progressed(p); }, Qt::QueuedConnection);
    };
    options.onCheckpoint = [this](const std::string& prefix) {
        const QString text = QString::fromStdString(prefix);
        QMetaObject::invokeMethod(this, [this, text] { emit checkpointSaved(text); }, Qt::QueuedConnection);
    };
    options.onEvaluation = [this](const project::EvalResult& result) {
        QMetaObject::invokeMethod(this, [this, result] { emit evaluated(result); }, Qt::QueuedConnection);
    };
    // Traced steps gather here until the last one asked for has run, then go as one trace.
    std::vector<profiler::TracedStep> traced;
    options.onTrace = [this, &traced](std::int64_t step, const tensorflow::RunMetadata& metadata) {
        traced.push_back({step, metadata.step_stats()});
        if (m_traceSteps.load() > 0)
            return;
        auto trace = std::make_shared<const profiler::ProfileTrace>(profiler::traceFromStepStats(traced));
        traced.clear();
        QMetaObject::invokeMethod(this, [this, trace] { emit profiled(trace); }, Qt::QueuedConnection);
    };
    auto result = project::trainProject(m_project, *m_registries, options);
    const bool ok = result.has_value();
    const QString message = ok ? QString() : QString::fromStdString(result.error().message());
    const project::TrainRunResult value = ok ? *result : project::TrainRunResult{};
    QMetaObject::invokeMethod(
        this,
        [this, ok, message, value] {
            if (m_thread.joinable())
                m_thread.join();
            m_running = false;
            emit finished(ok, message, value);
        },
        Qt::QueuedConnection);
}

} // namespace tstudio::training_panel
