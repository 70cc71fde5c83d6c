// trainProject: a project's training run on MonitoredTrainingSession.
#include "project/run/project_runner.h"
#include "project/run/parameter_server.h"

#include "project/run/projector_metadata.h"
#include "project/run/run_evaluations.h"
#include "project/run/run_hparams.h"

#include "builder/collections.h"
#include "project/run/carried_state.h"
#include "core/log.h"
#include "core/try.h"
#include "devices/cpu/cpu_device.h"
#include "devices/gpu_probe.h"
#include "project/run/default_accuracy.h"
#include "project/run/early_stopping.h"
#include "project/run/eval_metrics.h"
#include "project/run/intra_op_thread_tuner.h"
#include "framework/data_type.h"
#include "io/checkpoint/checkpoint_state.h"
#include "project/run/project_summaries.h"
#include "project/format/setting_advice.h"
#include "proto/summary.pb.h"
#include "runtime/arena_run_metadata.h"
#include "runtime/execution_observer.h"
#include "registries/default_registries.h"
#include "summary/summary.h"
#include "training/checkpoint_saver_hook.h"
#include "training/monitored_session.h"
#include "training/nan_tensor_hook.h"
#include "training/profiler_hook.h"
#include "training/session_run_hook.h"
#include "training/stop_at_step_hook.h"
#include "training/summary_writer_cache.h"
#include "project/run/training_setup.h"
#include "project/sources/word_text_source.h"

#include <chrono>
#include <cstdio>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <set>
#include <system_error>
#include <thread>
#include <variant>

namespace tstudio::project {
namespace {

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

Status checkDevice(const std::string& device, std::int64_t replicas)
{
    if (device == "cpu")
        return Status::ok();
    const GpuProbeReport gpus = probeGpus();
    if (gpus.devices.empty())
        return failedPreconditionError("device '" + device + "': no usable GPU (" + gpuUnusableText(gpus) +
                                       "); train on the CPU: device 'cpu'");
    if (static_cast<std::int64_t>(gpus.devices.size()) < replicas)
        return failedPreconditionError("replicas: " + std::to_string(replicas) + " towers on device 'gpu' need " +
                                       std::to_string(replicas) + " GPUs, this machine has " +
                                       std::to_string(gpus.devices.size()) + "; lower replicas or use device 'cpu'");
    return Status::ok();
}

/// "replicas: 2 towers, batch 64 split 32 per tower: tower_0 on /device:CPU:0, tower_1 on
/// /device:CPU:1; variables and averaged gradients on /device:CPU:0".
std::string towerMapping(const Project& project, const std::vector<std::string>& devices)
{
    std::string text = "replicas: " + std::to_string(devices.size()) + " towers, batch " +
                       std::to_string(project.batchSize) + " split " +
                       std::to_string(project.batchSize / static_cast<std::int64_t>(devices.size())) + " per tower: ";
    for (std::size_t i = 0; i < devices.size(); ++i)
        text += (i ? ", tower_" : "tower_") + std::to_string(i) + " on " + devices[i];
    return text + "; variables and averaged gradients on /device:CPU:0";
}

/// The log directory of the run: the option (relative to the current directory) or the project's
/// (relative to the .tsproj).
std::filesystem::path logDirectory(const Project& project, const TrainRunOptions& options)
{
    if (options.logdir)
        return std::filesystem::absolute(*options.logdir).lexically_normal();
    return std::filesystem::absolute(project.resolve(project.logdir)).lexically_normal();
}

/// Refuses to start a fresh run over an earlier one's checkpoints.
Status checkLogDirectory(const std::filesystem::path& logdir, bool resume)
{
    std::error_code ec;
    if (resume || !std::filesystem::exists(logdir / kCheckpointStateFileName, ec))
        return Status::ok();
    auto latest = latestCheckpoint(logdir);
    const std::string what = latest ? latest->filename().string() : std::string("a damaged checkpoint state");
    // What to do about it is the front end's to say (setting_advice.h): a flag, or a tick box.
    return failedPreconditionError(
        settingProblem("logdir", "'" + logdir.string() + "' already holds checkpoints (latest " + what + ")"));
}

/// The checkpoint files in `dir` (the state file and every "model.ckpt-*" file), by name.
std::set<std::string> checkpointFiles(const std::filesystem::path& dir)
{
    std::set<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name == kCheckpointStateFileName || name.rfind("model.ckpt-", 0) == 0)
            names.insert(name);
    }
    return names;
}

/// Removes what writes cut short by a crash or a kill left in `dir`: the bundle writer's
/// "model.ckpt-N.data-*.tempstate<id>" files, a sharded save's "model.ckpt-N_temp_<id>" directories,
/// writeFileAtomically's ".NAME.tmp<digits>" files and the best copy's "NAME.tmp" files. Nothing
/// reads them and nothing else removes them (TensorFlow leaves them too), so a run killed again and
/// again would fill the disk with them. Only these names of our own writers are touched.
void removeInterruptedWrites(const std::filesystem::path& dir)
{
    static const std::regex kTempFile(
        R"(model\.ckpt-[0-9]+.*\.tempstate[0-9]+)"
        R"(|\.(checkpoint|graph\.pbtxt|best_metric\.json|model\.ckpt-[0-9]+\.(meta|index))\.tmp[0-9]+)"
        R"(|(checkpoint|model\.ckpt-[0-9]+\.(meta|index|data-[0-9]{5}-of-[0-9]{5}))\.tmp)");
    static const std::regex kTempDir(R"(model\.ckpt-[0-9]+_temp_[0-9a-f]+)");
    std::error_code ec;
    std::vector<std::filesystem::path> doomed;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeError;
        const bool isDir = it->is_directory(typeError);
        if (std::regex_match(name, isDir ? kTempDir : kTempFile))
            doomed.push_back(it->path());
    }
    for (const std::filesystem::path& path : doomed) {
        std::error_code removeError;
        std::filesystem::remove_all(path, removeError);
        if (removeError)
            logWarning("training",
                       "cannot remove '" + path.string() + "', left by an interrupted write: " + removeError.message());
    }
}

/// A save or event write that found the disk full says so in the system's words; the user also
/// needs to know that the run can go on: the latest checkpoint is whole (the saver never names a
/// checkpoint it could not finish).
Status withDiskFullAdvice(Status error, const std::filesystem::path& logdir)
{
    const std::string& m = error.message();
    if (error.code() != StatusCode::kResourceExhausted ||
        (m.find("No space left on device") == std::string::npos && m.find("Disk quota exceeded") == std::string::npos))
        return error;
    auto latest = latestCheckpoint(logdir);
    if (!latest)
        return error;
    return Status(error.code(), m + "; the latest checkpoint, " + latest->filename().string() + " in '" +
                                    logdir.string() + "', is intact: free some space and resume from it");
}

/// A run that failed before finishing a step leaves no checkpoint of its own behind: the files
/// MonitoredTrainingSession's checkpoint hook wrote when the session was created (the untrained
/// variables) are removed, so that the next Start is not refused over them and the failure stays
/// the message. Files that were there before the run are kept.
void removeUnfinishedCheckpoints(const std::filesystem::path& dir, const std::set<std::string>& before)
{
    for (const std::string& name : checkpointFiles(dir))
        if (!before.count(name)) {
            std::error_code ec;
            std::filesystem::remove(dir / name, ec);
        }
}

/// tf.estimator adds a "loss" scalar summary unless one of the summaries is an op named "loss"
/// (it takes a summary of that name to be the user's own loss summary).
Status addLossSummary(GraphBuilder& b, const std::string& loss)
{
    if (loss.empty())
        return Status::ok();
    for (const CollectionItem& item : b.collections().get(graph_keys::kSummaries))
        if (const Output* summary = std::get_if<Output>(&item); summary && summary->node() == "loss")
            return Status::ok();
    auto lossTensor = b.tensor(loss);
    if (!lossTensor)
        return lossTensor.error();
    if (lossTensor->shape().rank() > 0)
        return Status::ok(); // not a scalar loss: nothing a scalar summary could show
    auto summary = summary::scalar(b, "loss", *lossTensor);
    return summary ? Status::ok() : summary.error();
}

/// The session's checkpoint hook (MonitoredTrainingSession always has one here: see the periods).
std::shared_ptr<training::CheckpointSaverHook> checkpointHook(training::MonitoredTrainingSession& session)
{
    for (const auto& hook : session.hooks())
        if (auto saver = std::dynamic_pointer_cast<training::CheckpointSaverHook>(hook))
            return saver;
    return nullptr;
}

/// Saves a checkpoint now through the checkpoint hook (so it has its .meta and the event file its
/// SessionLog, as the periodic ones); its prefix.
Expected<std::string> saveCheckpointNow(training::CheckpointSaverHook* hook, Session& session)
{
    if (!hook)
        return unexpected(failedPreconditionError("this run saves no checkpoints (its checkpoint hook is off)"));
    return hook->saveNow(session);
}

/// The prefix of a checkpoint of the session's variables at `step`: the hook's latest when it saved
/// at that step, else a new one saved now.
Expected<std::string> checkpointAt(training::CheckpointSaverHook* hook, Session& session, std::int64_t step)
{
    if (hook && hook->lastSavedStep() == step)
        return hook->checkpointPrefix(step);
    return saveCheckpointNow(hook, session);
}

/// Writes the scalar "perplexity" at `step` to the training event file of `logdir` (the writer the
/// summary hook uses) and flushes it.
Status writePerplexity(const std::filesystem::path& logdir, double perplexity, std::int64_t step)
{
    auto writer = training::SummaryWriterCache::global().get(logdir.string());
    if (!writer)
        return writer.error();
    tensorflow::Summary summary;
    tensorflow::Summary::Value* v = summary.add_value();
    v->set_tag("perplexity");
    v->set_simple_value(static_cast<float>(perplexity));
    if (Status s = (*writer)->addSummary(summary, step); !s.isOk())
        return s;
    return (*writer)->flush();
}

/// An asynchronous worker's scalar "staleness" at the global step its variables were pulled at (flushed
/// with the loop's other events).
Status writeStaleness(const std::filesystem::path& logdir, std::int64_t staleness, std::int64_t step)
{
    auto writer = training::SummaryWriterCache::global().get(logdir.string());
    if (!writer)
        return writer.error();
    tensorflow::Summary summary;
    tensorflow::Summary::Value* v = summary.add_value();
    v->set_tag("staleness");
    v->set_simple_value(static_cast<float>(staleness));
    return (*writer)->addSummary(summary, step);
}

/// A number as the log prints it (4 significant digits, "123.4").
std::string formatNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

/// A thread that calls `onStop` once when `flag` turns true, until stop() (joined then).
class StopWatcher {
public:
    ~StopWatcher() { stop(); }
    void start(const std::atomic<bool>& flag, std::function<void()> onStop)
    {
        m_thread = std::thread([this, &flag, onStop = std::move(onStop)] {
            std::unique_lock lock(m_mutex);
            while (!m_done) {
                if (flag.load()) {
                    onStop();
                    return;
                }
                m_wake.wait_for(lock, std::chrono::milliseconds(20));
            }
        });
    }
    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_wake.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_thread;
};

/// "data-parallel: rank 1 of 2, batch 32 per rank (global batch 64), shard 1 of 2 of every data
/// source, learning rate not scaled; checkpoints from rank 0, event files in <dir>".
std::string dataParallelLine(const Project& project, const DataParallel& parallel, const std::filesystem::path& events)
{
    const bool scaled = parallel.scaleLearningRate || project.distributed.scaleLearningRate;
    return "data-parallel: rank " + std::to_string(parallel.rank) + " of " + std::to_string(parallel.size) +
           ", batch " + std::to_string(project.batchSize) + " per rank (global batch " +
           std::to_string(project.batchSize * parallel.size) + "), shard " + std::to_string(parallel.rank) + " of " +
           std::to_string(parallel.size) + " of every data source, learning rate " +
           (scaled ? "scaled by " + std::to_string(parallel.size) : std::string("not scaled")) +
           "; checkpoints from rank 0 only, this rank's event files in " + events.string();
}

/// The MonitoredTrainingSession of a run: threads, devices (towers), the checkpoint and summary
/// directories (rank 0's log directory; another rank saves nothing and writes its events to its own),
/// the project's hooks' periods and its stop, NaN and profiler hooks.
Expected<training::MonitoredTrainingSessionOptions>
sessionOptions(const Project& project, const Registries& registries, const TrainRunOptions& options,
               const PreparedTraining& prepared, bool chief, const std::filesystem::path& logdir,
               const std::filesystem::path& eventDir, std::int64_t lastStep)
{
    training::MonitoredTrainingSessionOptions mts;
    mts.session.ops = &registries.ops;
    mts.session.kernels = &registries.kernels;
    mts.session.config.set_intra_op_parallelism_threads(options.threads);
    mts.session.config.set_inter_op_parallelism_threads(1);
    // "gpu": ops with GPU kernels on GPU:0 (TensorFlow's default placement), the rest (summaries,
    // save and restore) on the CPU; "cpu": no GPU device at all.
    // With replicas the towers' devices: CPU:0..N-1 or GPU:0..N-1.
    const int towers = static_cast<int>(project.replicas);
    (*mts.session.config.mutable_device_count())["GPU"] = project.device == "gpu" ? towers : 0;
    if (project.device == "cpu" && towers > 1)
        (*mts.session.config.mutable_device_count())["CPU"] = towers;
    if (!prepared.towerDevices.empty())
        logInfo("training", towerMapping(project, prepared.towerDevices));
    mts.session.config.set_allow_soft_placement(true);
    mts.session.captureGraphs = project.cudaGraphs && options.cudaGraphs;
    // Horovod's checkpoint_dir=None on every rank but 0: rank r > 0 restores and saves nothing,
    // and its summaries and step counts go to its own directory.
    mts.checkpointDir = chief ? logdir.string() : std::string();
    if (!chief)
        mts.summaryDir = eventDir.string();
    training::ScaffoldOptions scaffold;
    scaffold.initOp = prepared.initOp;
    mts.scaffold = std::make_shared<training::Scaffold>(std::move(scaffold));
    // The project's periods; a null period turns that hook off (TensorFlow's None, 0 here).
    const Hooks& hooks = project.hooks;
    mts.saveCheckpointSteps = hooks.checkpointEverySteps.value_or(0);
    mts.saveCheckpointSecs = hooks.checkpointEverySecs ? static_cast<double>(*hooks.checkpointEverySecs) : 0.0;
    if (*mts.saveCheckpointSteps == 0 && *mts.saveCheckpointSecs == 0)
        mts.saveCheckpointSecs = 600.0; // the final checkpoint at close() needs the hook
    if (*mts.saveCheckpointSteps > 0 && *mts.saveCheckpointSecs > 0)
        mts.saveCheckpointSecs = 0.0; // steps given explicitly win over the default period
    mts.saveSummariesSteps = hooks.summaryEverySteps.value_or(0);
    mts.saveSummariesSecs = 0.0;
    mts.logStepCountSteps = hooks.logEverySteps.value_or(0);
    // The graph's own input pipelines, started with the session (TensorFlow's _CoordinatedSession).
    mts.queueRunners = prepared.queueRunners;
    mts.stopGracePeriodSecs = 2; // a runner stuck in a stalled reader must not hold the IDE's Stop for long

    auto stop = training::StopAtStepHook::create(std::nullopt, lastStep);
    if (!stop)
        return unexpected(stop.error());
    mts.hooks.push_back(*stop);
    if (!prepared.loss.empty())
        mts.hooks.push_back(std::make_shared<training::NanTensorHook>(prepared.loss, true));
    if (hooks.profileEverySteps && *hooks.profileEverySteps > 0) {
        training::ProfilerHookOptions profiler;
        profiler.saveSteps = *hooks.profileEverySteps;
        profiler.outputDir = eventDir.string();
        auto hook = training::ProfilerHook::create(profiler);
        if (!hook)
            return unexpected(hook.error());
        mts.hooks.push_back(*hook);
    }
    return mts;
}

/// The carried state after a step (its fetches from `carriedAt` on): at an epoch's end the
/// perplexity, written as an event and logged.
Status carryAfterStep(CarriedState& carried, const std::vector<Tensor>& values, std::size_t carriedAt,
                      const std::filesystem::path& eventDir, TrainRunResult& result)
{
    const auto tail = values.begin() + static_cast<std::ptrdiff_t>(carriedAt);
    auto perplexity = carried.afterStep(std::vector<Tensor>(tail, values.end()));
    if (!perplexity)
        return perplexity.error();
    if (!*perplexity)
        return Status::ok();
    const std::int64_t epoch = carried.steps() / carried.epochSteps();
    if (Status s = writePerplexity(eventDir, **perplexity, result.lastStep); !s.isOk())
        return s;
    logInfo("training", "Epoch " + std::to_string(epoch) + ": perplexity " + formatNumber(**perplexity) +
                            " (global step " + std::to_string(result.lastStep) + ")");
    result.perplexities.push_back(**perplexity);
    return Status::ok();
}

/// What a run adds to the prepared graph before its session starts.
struct RunAdditions {
    std::string accuracy; ///< the default accuracy's tensor; empty when none could be built
    std::string stepRead; ///< the hooks' copy of the global step, which the loop fetches too
    std::unique_ptr<CarriedState> carried;
    std::unique_ptr<RunEvaluations> evaluations; ///< rank 0's, when the project has an eval section
};

/// The project's summaries and the loss's, the default accuracy, the global step's read, the state
/// carried between steps ("carry_state" / "perplexity", checked before the session writes anything)
/// and the evaluations (rank 0 only).
Expected<RunAdditions> addRunNodes(GraphBuilder& b, const Project& project, const PreparedTraining& prepared,
                                   bool chief, const std::filesystem::path& logdir)
{
    RunAdditions out;
    if (Status s = addProjectSummaries(b, project, prepared.collections); !s.isOk())
        return unexpected(s);
    if (Status s = addLossSummary(b, prepared.loss); !s.isOk())
        return unexpected(s.withContext("adding the loss summary"));
    // A classifier's accuracy is what a newcomer looks for first; a graph it cannot be built on
    // (logits of unknown rank) still trains, without it.
    if (auto added = addDefaultAccuracy(b, prepared.loss); !added)
        logWarning("training", "no default accuracy: " + added.error().message());
    else if (*added)
        out.accuracy = **added;
    // The hooks' copy of the global step (MonitoredTrainingSession orders it before the step's
    // increment); the loop fetches it too.
    auto stepRead = training::globalStepReadTensor(b, "the training loop");
    if (!stepRead)
        return unexpected(stepRead.error());
    out.stepRead = *stepRead;
    // "carry_state" / "perplexity": checked before the session writes anything.
    if (!project.carryState.empty() || !project.perplexity.empty()) {
        auto epochSteps = wordTextEpochSteps(project);
        if (!epochSteps)
            return unexpected(
                epochSteps.error().withContext(!project.perplexity.empty() ? "perplexity" : "carry_state"));
        auto made = CarriedState::prepare(b, project, project.batchSize, *epochSteps);
        if (!made)
            return unexpected(made.error());
        out.carried = std::move(*made);
    }

    if (project.eval && chief) {
        auto made = RunEvaluations::prepare(b, project, prepared.modelLoss, logdir);
        if (!made)
            return unexpected(made.error());
        out.evaluations = std::move(*made);
    }
    return out;
}

/// The loop of a started training session and its end: a step at a time until the session
/// stops, a stop or an error; progress, checkpoints asked for, traces, evaluations; then the final
/// evaluation, the session's close and the run's result.
class TrainLoop {
public:
    TrainLoop(const TrainRunOptions& options, const Hooks& hooks, PreparedTraining* prepared,
              std::unique_ptr<training::MonitoredTrainingSession>* session, TrainRunResult& result,
              const std::string& accuracy, const std::string& stepRead, std::unique_ptr<CarriedState>& carried,
              std::unique_ptr<RunEvaluations>& evaluations, const std::filesystem::path& eventDir, bool chief,
              std::int64_t lastStep, std::function<void()> forgetUnfinished, ParameterServerClient* async)
        : options(options), prepared(prepared), session(session), result(result), accuracy(accuracy),
          stepRead(stepRead), carried(carried), evaluations(evaluations), eventDir(eventDir), chief(chief),
          lastStep(lastStep), forgetUnfinished(std::move(forgetUnfinished)), async(async),
          every(options.progressEverySteps > 0 ? options.progressEverySteps
                                               : std::max<std::int64_t>(hooks.logEverySteps.value_or(100), 1))
    {
        // The hooks' copy of the global step, taken before this run's increment.
        fetches = {stepRead};
        if (!prepared->loss.empty())
            fetches.push_back(prepared->loss);
        accuracyAt = fetches.size();
        if (!accuracy.empty())
            fetches.push_back(accuracy);
        carriedAt = fetches.size(); // the carried state's fetches follow
        if (carried)
            fetches.insert(fetches.end(), carried->fetches().begin(), carried->fetches().end());
        // An asynchronous worker computes the gradients and leaves their apply to the parameter servers.
        gradientsAt = fetches.size();
        if (async)
            fetches.insert(fetches.end(), async->gradientTensors().begin(), async->gradientTensors().end());
    }

    Expected<TrainRunResult> run()
    {
        start = Clock::now();
        lastReport = start;
        lastFlush = start;
        lastReportStep = result.firstStep;
        // Looked up once: asked after every step whether it saved.
        saver = checkpointHook(**session);
        if (evaluations)
            evaluations->start(result.firstStep, saver ? saver->lastSavedStep() : std::nullopt);
        if (options.onSessionVariables)
            options.onSessionVariables((*session)->rawSession(), false);
        for (Device* device : (*session)->rawSession().devices())
            if (auto* found = dynamic_cast<CpuDevice*>(device); found && !cpu)
                cpu = found;
        if (options.adaptThreads && cpu && cpu->intraOpThreads() >= 2)
            tuner.emplace(cpu->intraOpThreads());
        if (options.onStarted) {
            TrainProgress p;
            p.step = result.firstStep;
            p.firstStep = result.firstStep;
            p.lastStep = lastStep;
            options.onStarted(p);
        }
        // A step may wait on an empty queue (a slow or stalled reader) where the loop never sees the
        // stop flag: a stop asked for then stops the queue runners, whose cancel ops close the queues,
        // so the waiting dequeue ends (OutOfRange) and the loop ends as for a stop between steps.
        if (!prepared->queueRunners.empty() && options.stopRequested)
            watcher.start(*options.stopRequested, [this] { (*session)->requestStop(); });
        Status failure = Status::ok();
        bool done = false;
        while (!done && failure.isOk() && !(*session)->shouldStop())
            failure = step(done);
        // tf.estimator.train_and_evaluate evaluates the final checkpoint too.
        if (failure.isOk() && evaluations && !result.stoppedMidStep && !stopping() &&
            result.lastStep > result.firstStep && !evaluations->doneAt(result.lastStep)) {
            auto goOn = evaluateNow();
            if (!goOn)
                failure = goOn.error();
        }
        result.seconds = secondsBetween(start, Clock::now());
        watcher.stop();
        if (failure.isOk() && !result.stoppedMidStep && options.onSessionVariables)
            options.onSessionVariables((*session)->rawSession(), true);
        if (carried)
            carried->reset(); // the carried values hold the session's buffers
        if (options.observer)
            options.observer->sessionClosing();
        if (async && chief && failure.isOk() && !result.stoppedMidStep) {
            // The last checkpoint (saved at close) holds the servers' values once every worker is done.
            auto last = async->pull((*session)->rawSession(), true);
            if (!last)
                failure = last.error();
        }
        if (async && pushes > 0) {
            result.asyncUpdates = pushes;
            result.meanStaleness = static_cast<double>(stalenessSum) / static_cast<double>(pushes);
            logInfo("training", "asynchronous: " + std::to_string(pushes) + " updates pushed, staleness mean " +
                                    formatNumber(result.meanStaleness) + ", max " +
                                    std::to_string(result.maxStaleness));
        }
        Status closed = (*session)->close();
        if (!failure.isOk()) {
            if (result.lastStep == result.firstStep)
                forgetUnfinished();
            return unexpected(chief ? withDiskFullAdvice(failure, result.logdir) : failure);
        }
        if (!closed.isOk())
            return unexpected(chief ? withDiskFullAdvice(closed, result.logdir) : closed);
        // The step the variables hold now (the last run's increment included).
        auto finalStep = training::fetchInt64((*session)->rawSession(), prepared->globalStep);
        if (finalStep && !result.stoppedMidStep)
            result.lastStep = *finalStep;
        if ((result.lastStep - result.firstStep) % every != 0)
            report(Clock::now());
        result.stepsPerSecond = result.seconds > 0 ? static_cast<double>(result.lastStep - result.firstStep) / result.seconds : 0.0;
        if (auto latest = latestCheckpoint(result.logdir); latest && chief)
            result.lastCheckpoint = latest->string();
        return result;
    }

private:
    bool stopping() const { return options.stopRequested && options.stopRequested->load(); }

    void report(Clock::time_point now)
    {
        if (!options.onProgress)
            return;
        TrainProgress p;
        p.step = result.lastStep;
        p.firstStep = result.firstStep;
        p.lastStep = lastStep;
        p.loss = result.finalLoss;
        p.accuracy = result.finalAccuracy;
        const double dt = secondsBetween(lastReport, now);
        p.stepsPerSecond = dt > 0 ? static_cast<double>(result.lastStep - lastReportStep) / dt : 0.0;
        p.seconds = secondsBetween(start, now);
        p.intraOpThreads = cpu ? cpu->activeIntraOpThreads() : 0;
        p.adaptingThreads = tuner.has_value();
        options.onProgress(p);
        lastReport = now;
        lastReportStep = result.lastStep;
    }

    /// One evaluation at the session's current step (checkpointed first); false to stop the run.
    Expected<bool> evaluateNow()
    {
        const bool saving = saver && saver->lastSavedStep() != result.lastStep;
        auto prefix = checkpointAt(saver.get(), (*session)->rawSession(), result.lastStep);
        if (!prefix)
            return unexpected(prefix.error());
        if (saving && options.onCheckpoint)
            options.onCheckpoint(*prefix);
        auto stop = evaluations->evaluate((*session)->rawSession(), result.lastStep, *prefix, result,
                                          options.onEvaluation);
        if (!stop)
            return unexpected(stop.error().withContext("evaluating at step " + std::to_string(result.lastStep)));
        return !*stop;
    }

    /// One step (or a pause); `done` when the loop should end without an error.
    Status step(bool& done)
    {
        if (stopping()) {
            done = true;
            return Status::ok();
        }
        if (options.pauseRequested && options.pauseRequested->load()) {
            const Clock::time_point pausedAt = Clock::now();
            while (options.pauseRequested->load() && !stopping())
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            const Clock::duration paused = Clock::now() - pausedAt;
            start += paused;
            lastReport += paused;
            return Status::ok();
        }
        if (options.checkpointRequested && options.checkpointRequested->exchange(false)) {
            auto prefix = saveCheckpointNow(saver.get(), (*session)->rawSession());
            if (!prefix)
                return prefix.error();
            if (options.onCheckpoint)
                options.onCheckpoint(*prefix);
        }
        std::int64_t pulledAt = 0;
        if (async) {
            // Between-graph replication: this step computes on the servers' current variables.
            auto pulled = async->pull((*session)->rawSession());
            if (!pulled)
                return pulled.error();
            pulledAt = *pulled;
            if (pulledAt >= lastStep) { // the other workers took the run to its end
                result.lastStep = pulledAt;
                done = true;
                return Status::ok();
            }
        }
        auto feeds = prepared->nextFeeds();
        if (!feeds)
            return feeds.error();
        if (carried)
            carried->addFeeds(*feeds);
        const bool traceAt = options.traceAtStep && !tracedAtStep && result.lastStep >= *options.traceAtStep;
        const bool trace = traceAt || (options.traceStepsRequested && options.traceStepsRequested->load() > 0);
        tensorflow::RunOptions runOptions;
        std::optional<ArenaRunMetadata> runMetadata;
        if (trace) {
            runOptions.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
            runMetadata.emplace();
        }
        std::vector<std::string> targets;
        if (!async)
            targets.push_back(prepared->trainOp);
        if (tuner)
            cpu->setActiveIntraOpThreads(tuner->threads());
        const Clock::time_point ranAt = Clock::now();
        auto values = (*session)->run(fetches, *feeds, targets, trace ? &runOptions : nullptr,
                                      runMetadata ? runMetadata->get() : nullptr, options.observer);
        if (tuner) {
            // A traced step, or one the debugger held, says nothing of the threads' speed.
            const double took = secondsBetween(ranAt, Clock::now());
            if (trace || options.observer)
                tuner->skipStep(took);
            else
                tuner->stepRan(took);
        }
        if (!values) {
            done = true;
            if (options.observer && values.error().code() == StatusCode::kCancelled) {
                result.stoppedMidStep = true;
            } else if (values.error().code() == StatusCode::kOutOfRange && (*session)->shouldStop()) {
                // The input ended (or a stop closed the queues): MonitoredTrainingSession's clean
                // end; close() below saves the final checkpoint. The failed step changed nothing.
                if (!stopping()) {
                    result.inputExhaustedAfter = result.lastStep - result.firstStep;
                    logInfo("training", "Input exhausted after " + std::to_string(*result.inputExhaustedAfter) +
                                            " steps (global step " + std::to_string(result.lastStep) +
                                            "): " + values.error().message());
                }
            } else {
                return values.error();
            }
            return Status::ok();
        }
        // The step before this run's increment.
        auto step = training::int64Scalar((*values)[0], stepRead);
        if (!step)
            return step.error();
        result.lastStep = *step + 1;
        if (async) {
            std::vector<Tensor> gradients(values->begin() + static_cast<std::ptrdiff_t>(gradientsAt), values->end());
            values->resize(gradientsAt);
            auto staleness = async->push((*session)->rawSession(), gradients, pulledAt);
            if (!staleness)
                return staleness.error();
            ++pushes;
            stalenessSum += *staleness;
            result.maxStaleness = std::max(result.maxStaleness, *staleness);
            result.lastStep = async->globalStepAfterPush();
            if (Status s = writeStaleness(eventDir, *staleness, pulledAt); !s.isOk())
                return s;
        }
        if (trace) {
            if (traceAt)
                tracedAtStep = true;
            else
                options.traceStepsRequested->fetch_sub(1);
            if (options.onTrace)
                options.onTrace(*step, **runMetadata);
        }
        if (!prepared->loss.empty())
            result.finalLoss = scalarAsDouble((*values)[1]);
        if (!accuracy.empty())
            result.finalAccuracy = scalarAsDouble((*values)[accuracyAt]);
        if (carried) {
            if (Status s = carryAfterStep(*carried, *values, carriedAt, eventDir, result); !s.isOk())
                return s;
        }
        const Clock::time_point now = Clock::now();
        if (options.flushSecs > 0 && secondsBetween(lastFlush, now) >= options.flushSecs) {
            if (Status s = training::SummaryWriterCache::global().flush(eventDir.string()); !s.isOk())
                return s;
            lastFlush = now;
        }
        if ((result.lastStep - result.firstStep) % every == 0)
            report(now);
        if (evaluations) {
            if (evaluations->due(result.lastStep, saver ? saver->lastSavedStep() : std::nullopt)) {
                auto goOn = evaluateNow();
                if (!goOn)
                    return goOn.error();
                if (!*goOn)
                    done = true;
            }
        }
        return Status::ok();
    }

    const TrainRunOptions& options;
    PreparedTraining* prepared;
    std::unique_ptr<training::MonitoredTrainingSession>* session;
    TrainRunResult& result;
    const std::string& accuracy;
    const std::string& stepRead;
    std::unique_ptr<CarriedState>& carried;
    std::unique_ptr<RunEvaluations>& evaluations;
    const std::filesystem::path& eventDir;
    const bool chief;
    const std::int64_t lastStep;
    const std::function<void()> forgetUnfinished;
    ParameterServerClient* async;
    const std::int64_t every;
    std::vector<std::string> fetches;
    std::size_t accuracyAt = 0;
    std::size_t carriedAt = 0;
    std::size_t gradientsAt = 0;
    std::int64_t pushes = 0;
    std::int64_t stalenessSum = 0;
    Clock::time_point start;
    Clock::time_point lastReport;
    Clock::time_point lastFlush;
    std::int64_t lastReportStep = 0;
    std::shared_ptr<training::CheckpointSaverHook> saver;
    StopWatcher watcher;
    bool tracedAtStep = false;
    CpuDevice* cpu = nullptr; ///< the session's (first) CPU device
    std::optional<IntraOpThreadTuner> tuner; ///< with options.adaptThreads on 2 or more threads
};

} // namespace

std::filesystem::path trainLogDirectory(const Project& project, const TrainRunOptions& options)
{
    return logDirectory(project, options);
}

std::filesystem::path rankEventDirectory(const std::filesystem::path& logdir, int rank)
{
    return rank == 0 ? logdir : logdir / ("worker_" + std::to_string(rank));
}

namespace {

/// A parameter server's part of an asynchronous run: the project's training graph (the variables, the
/// optimizer's update) on a CPU session of its own, serving the workers until they are done.
Expected<TrainRunResult> serveProject(const Project& project, const Registries& registries,
                                      const TrainRunOptions& options, const AsyncLayout& layout)
{
    TrainRunResult result;
    result.logdir = logDirectory(project, options);
    result.parameterServer = true;
    auto prepared = prepareTraining(project, registries.ops, DataParallel{0, 1, false, true});
    if (!prepared)
        return unexpected(prepared.error());
    auto placement = ParameterPlacement::build(*prepared->builder, *prepared, layout.psTasks);
    if (!placement)
        return unexpected(placement.error().withContext(projectLabel(project) + "distributed"));
    SessionOptions session;
    session.ops = &registries.ops;
    session.kernels = &registries.kernels;
    session.config.set_intra_op_parallelism_threads(options.threads);
    session.config.set_inter_op_parallelism_threads(1);
    (*session.config.mutable_device_count())["GPU"] = 0;
    const auto start = Clock::now();
    auto report = serveParameters(*prepared->builder, *prepared, *placement, layout, session);
    if (!report)
        return unexpected(report.error());
    result.seconds = secondsBetween(start, Clock::now());
    result.lastStep = report->lastStep;
    result.asyncUpdates = report->updates;
    result.meanStaleness = report->meanStaleness;
    result.maxStaleness = report->maxStaleness;
    logInfo("training", "ps task " + std::to_string(layout.rank - layout.workers()) + ": " +
                            std::to_string(report->updates) + " updates applied, staleness mean " +
                            formatNumber(report->meanStaleness) + ", max " + std::to_string(report->maxStaleness) +
                            "; global step " + std::to_string(report->lastStep));
    return result;
}

} // namespace

Expected<TrainRunResult> trainProject(const Project& project, const Registries& registries,
                                      const TrainRunOptions& options)
{
    if (Status s = checkDevice(project.device, project.replicas); !s.isOk())
        return unexpected(s);
    DataParallel parallel = options.dataParallel.value_or(DataParallel{});
    if (parallel.size < 1 || parallel.rank < 0 || parallel.rank >= parallel.size)
        return unexpected(invalidArgumentError("data-parallel: rank " + std::to_string(parallel.rank) + " of " +
                                               std::to_string(parallel.size) + " does not exist"));
    // "replication": "async" in an MPI job: the last ranks serve the variables, the others are workers.
    std::optional<AsyncLayout> layout;
    if (options.dataParallel && project.distributed.asynchronous) {
        layout = AsyncLayout{parallel.rank, parallel.size, static_cast<int>(project.distributed.psTasks)};
        if (Status s = layout->check(); !s.isOk())
            return unexpected(s.withContext(projectLabel(project).empty() ? "project" : projectLabel(project)));
        logInfo("training", "asynchronous replication (between-graph, parameter servers): " + layout->describe());
        if (layout->isPs())
            return serveProject(project, registries, options, *layout);
        parallel = DataParallel{parallel.rank, layout->workers(), false, true};
    }
    const bool chief = parallel.rank == 0;
    if (parallel.size > 1 && project.eval && project.eval->earlyStopping)
        return unexpected(invalidArgumentError(
            projectLabel(project) + "eval.early_stopping: not with " + std::to_string(parallel.size) +
            " processes: rank 0 alone evaluates, and the other ranks could not follow its stop; "
            "remove eval.early_stopping or train in one process"));
    TrainRunResult result;
    result.logdir = logDirectory(project, options);
    // Rank r > 0 shares rank 0's log directory, where rank 0 may already have written this run's
    // first checkpoint: only rank 0 checks it.
    if (chief)
        if (Status s = checkLogDirectory(result.logdir, options.resume); !s.isOk())
            return unexpected(s);
    if (chief) {
        removeInterruptedWrites(result.logdir);
        removeInterruptedWrites(result.logdir / "best");
    }
    const std::filesystem::path eventDir = rankEventDirectory(result.logdir, parallel.rank);
    if (options.dataParallel && !layout)
        logInfo("training", dataParallelLine(project, parallel, eventDir));

    auto prepared = prepareTraining(project, registries.ops, parallel);
    if (!prepared)
        return unexpected(prepared.error());
    GraphBuilder& b = *prepared->builder;
    TSTUDIO_TRY(added, addRunNodes(b, project, *prepared, chief, result.logdir));
    const std::string accuracy = added.accuracy;
    const std::string stepRead = added.stepRead;
    std::unique_ptr<CarriedState> carried = std::move(added.carried);
    std::unique_ptr<RunEvaluations> evaluations = std::move(added.evaluations);
    std::unique_ptr<ParameterServerClient> async;
    if (layout) {
        auto placement = ParameterPlacement::build(b, *prepared, layout->psTasks);
        if (!placement)
            return unexpected(placement.error().withContext(projectLabel(project) + "distributed"));
        if (chief)
            for (const std::string& line : placement->mappingLines(*layout))
                logInfo("placement", line);
        logInfo("training", "worker " + std::to_string(parallel.rank) + " of " + std::to_string(parallel.size) +
                                ": batch " + std::to_string(project.batchSize) + ", shard " +
                                std::to_string(parallel.rank) + " of " + std::to_string(parallel.size) +
                                " of every data source; " + std::to_string(prepared->gradientTensors.size()) +
                                " gradient tensors pushed each step" +
                                (chief ? "; checkpoints from this worker (the chief)" : "") +
                                ", this worker's event files in " + eventDir.string());
        async = std::make_unique<ParameterServerClient>(*layout, std::move(*placement), prepared->gradientTensors);
    }

    std::int64_t lastStep = options.steps.value_or(project.steps);
    if (project.hooks.stopAtStep)
        lastStep = std::min(lastStep, *project.hooks.stopAtStep);

    auto sessionSettings =
        sessionOptions(project, registries, options, *prepared, chief, result.logdir, eventDir, lastStep);
    if (!sessionSettings)
        return unexpected(sessionSettings.error());
    training::MonitoredTrainingSessionOptions mts = std::move(*sessionSettings);
    if (async && !chief) {
        // A worker that is not the chief, as TensorFlow's (is_chief=False): its own hooks only (no
        // summaries or checkpoints), and a session that waits for the model the chief made ready, here
        // the parameter servers' variables, which the servers send once the chief has given them.
        mts.isChief = false;
        mts.workerSharedState = [client = async.get()](Session& s) -> Status {
            auto pulled = client->pull(s);
            return pulled ? Status::ok() : pulled.error();
        };
    }
    const Hooks& hooks = project.hooks;

    // Only rank 0's own checkpoints are ever removed (the others write none).
    const std::set<std::string> checkpointsBefore = checkpointFiles(result.logdir);
    auto forgetUnfinished = [&] {
        if (chief)
            removeUnfinishedCheckpoints(result.logdir, checkpointsBefore);
    };
    auto session = training::MonitoredTrainingSession::create(b, std::move(mts));
    if (!session) {
        forgetUnfinished();
        return unexpected(session.error());
    }
    if (!prepared->broadcastOp.empty()) {
        // BroadcastGlobalVariablesHook.after_create_session: every rank starts from rank 0's
        // variables (restored or initialised), global step included.
        if (Status s = (*session)->rawSession().run({}, {}, {prepared->broadcastOp}, nullptr); !s.isOk()) {
            (void)(*session)->close();
            forgetUnfinished();
            return unexpected(s.withContext("broadcasting rank 0's variables"));
        }
    }
    if (async && chief) {
        // The servers start from the chief's variables (restored or initialised), as the chief
        // initialises the variables placed on /job:ps in TensorFlow; the other workers wait for it.
        if (Status s = async->initialize((*session)->rawSession()); !s.isOk()) {
            (void)(*session)->close();
            forgetUnfinished();
            (void)async->done(true);
            return unexpected(s.withContext("sending the chief's variables to the parameter servers"));
        }
    }
    if (options.onSessionGraph)
        options.onSessionGraph(b.graphDef());
    auto first = training::fetchInt64((*session)->rawSession(), prepared->globalStep);
    if (!first)
        return unexpected(first.error());
    result.firstStep = *first;
    result.lastStep = *first;
    result.restored = *first > 0;

    // The run as a session of TensorBoard's HParams: its settings and scalar summaries (chief only).
    std::shared_ptr<events::EventFileWriter> hparamsWriter;
    if (chief && !eventDir.empty()) {
        if (auto writer = training::SummaryWriterCache::global().get(eventDir.string())) {
            hparamsWriter = *writer;
            // The steps the run goes to (a --steps given for this run, else the project's).
            Project ran = project;
            ran.steps = lastStep;
            if (Status s = writeRunSessionStart(*hparamsWriter, ran, scalarSummaryTags(b.graphDef()),
                                                result.logdir.string(), result.firstStep);
                !s.isOk())
                logWarning("project", "the run's hparams were not written: " + s.toString());
        }
    }
    // A word2vec project's words label its embeddings in the projector.
    if (chief && !result.logdir.empty())
        if (Status s = writeProjectorMetadata(project, b.graphDef(), result.logdir); !s.isOk())
            logWarning("project", "the projector's metadata.tsv was not written: " + s.toString());
    auto ran = TrainLoop(options, hooks, &*prepared, &*session, result, accuracy, stepRead, carried, evaluations,
                         eventDir, chief, lastStep, forgetUnfinished, async.get())
                   .run();
    if (async)
        if (Status s = async->done(!ran.has_value()); !s.isOk() && ran)
            return unexpected(s);
    if (hparamsWriter) {
        Status ended = writeRunSessionEnd(*hparamsWriter, !ran.has_value(), result.lastStep);
        if (ended.isOk())
            ended = hparamsWriter->flush();
        if (!ended.isOk())
            logWarning("project", "the run's hparams end was not written: " + ended.toString());
    }
    return ran;
}

} // namespace tstudio::project
