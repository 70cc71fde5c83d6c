// trainProject: a project's training run as MonitoredTrainingSession runs it (restore or
// initialise, hooks, checkpoints and event files in the log directory), shared by `tstudio train`
// and the GUI.
#pragma once

#include "project/run/best_checkpoint.h"
#include "core/expected.h"
#include "project/run/data_parallel.h"
#include "project/run/evaluation.h"
#include "project/format/project_file.h"

namespace tensorflow {
class GraphDef;
class RunMetadata;
}

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {
struct Registries;
class ExecutionObserver;
class Session;
}

namespace tstudio::project {

/// Where a run is, reported to the caller after each step it asks for.
struct TrainProgress {
    std::int64_t step = 0;      ///< the global step after this run's latest step
    std::int64_t firstStep = 0; ///< the global step the run started from (restored or 0)
    std::int64_t lastStep = 0;  ///< the global step the run stops at
    std::optional<double> loss; ///< the latest loss, when the project names one
    /// The latest batch's accuracy, when the run logs the default one (default_accuracy.h).
    std::optional<double> accuracy;
    double stepsPerSecond = 0;  ///< over the steps since the previous report
    double seconds = 0;         ///< since the first step of this run
    /// The intra-op threads the CPU device's ops ran with at the latest step (0: no CPU device).
    int intraOpThreads = 0;
    /// TrainRunOptions::adaptThreads is choosing them (see IntraOpThreadTuner).
    bool adaptingThreads = false;
};

struct TrainRunOptions {
    /// Overrides project.steps: the global step to stop at (tf.estimator's max_steps, so that a
    /// resumed run finishes the same amount of training).
    std::optional<std::int64_t> steps;
    /// Overrides project.logdir (absolute, or relative to the current directory).
    std::optional<std::filesystem::path> logdir;
    /// Continue from the latest checkpoint of the log directory. Without it a log directory that
    /// already holds checkpoints is refused, so an earlier run is never overwritten by mistake.
    bool resume = false;
    /// Intra-op threads of the CPU device (0: the engine's default).
    int threads = 0;
    /// The steps run on all of those threads or on one fewer, whichever the run's own steps measure
    /// faster, measured again now and then (IntraOpThreadTuner): for a run that shares its cores
    /// with a GUI or other programs. Off: every op may use every thread.
    bool adaptThreads = false;
    /// false turns CUDA graph capture off whatever the project's "cuda_graphs" says (--no-cuda-graphs).
    bool cudaGraphs = true;
    /// Called every `progressEverySteps` steps and after the last one (nullptr: never).
    std::function<void(const TrainProgress&)> onProgress;
    /// 0: hooks.log_every_steps of the project (100 when it has none).
    std::int64_t progressEverySteps = 0;
    /// Set to true by another thread to stop after the current step (a final checkpoint is saved).
    const std::atomic<bool>* stopRequested = nullptr;
    /// While true (set by another thread) the loop waits between steps; stopRequested still ends
    /// the run. Time spent paused counts in neither seconds nor steps per second.
    const std::atomic<bool>* pauseRequested = nullptr;
    /// Set to true by another thread to save a checkpoint after the current step (as the
    /// checkpoint hook saves, with the event file's SessionLog); the loop sets it back to false and
    /// calls onCheckpoint with the prefix ("<logdir>/model.ckpt-<step>").
    std::atomic<bool>* checkpointRequested = nullptr;
    std::function<void(const std::string& prefix)> onCheckpoint;
    /// Event files are flushed at least this often (seconds; 0: only as TensorFlow does, at
    /// checkpoints and after flush_secs), so that a dashboard following the log directory sees the
    /// summaries while the run goes on.
    double flushSecs = 0;
    /// Called once the session exists (the log directory holds the graph and the first checkpoint),
    /// before the first step, with step == firstStep.
    std::function<void(const TrainProgress&)> onStarted;
    /// Steps still to trace, counted down by the loop (set up front, or by another thread: the
    /// Training panel's Profile button). While above zero each step runs with FULL_TRACE and onTrace
    /// gets the global step it ran at and its RunMetadata (step_stats), on the training thread.
    std::atomic<int>* traceStepsRequested = nullptr;
    std::function<void(std::int64_t step, const tensorflow::RunMetadata&)> onTrace;
    /// Also trace the step that runs at this global step (the first step of the run when it starts
    /// past it), once, as ProfilerHook's save_steps would: the Training panel's "Profile step N".
    std::optional<std::int64_t> traceAtStep;
    /// The debugger (or another observer), attached to every training step's session run (each
    /// step then runs single-threaded in the stable order). When it cancels a step (the debugger's
    /// Stop) the run ends without an error and without a final checkpoint, since that step may
    /// have updated some variables and not others: the last checkpoint stays the latest, and the
    /// result says stoppedMidStep. Its sessionClosing() is called before the session goes.
    ExecutionObserver* observer = nullptr;
    /// Called once the session exists, before the first step, with the graph it runs: the
    /// project's graph plus the optimizer, summaries and the hooks' ops (what the observer sees).
    std::function<void(const tensorflow::GraphDef&)> onSessionGraph;
    /// Called on the training thread after each evaluation of the project's "eval" section, once
    /// its results are in <logdir>/eval (and the best checkpoint kept).
    std::function<void(const EvalResult&)> onEvaluation;
    /// This process's place in a data-parallel run across the ranks of an MPI job (see
    /// data_parallel.h; MpiContext must be initialised when size > 1). Rank 0 checks the log
    /// directory, restores (with resume) and saves checkpoints and writes the event files and
    /// evaluations there; rank r > 0 neither checks, restores nor saves, and writes its event files
    /// (summaries, global_step/sec, profiler traces) to <logdir>/worker_<r>/. With size > 1 every
    /// rank must call trainProject with the same project and steps, and the run needs no
    /// eval.early_stopping (rank 0 alone evaluates, the others could not follow its stop).
    /// stopRequested, pauseRequested and checkpointRequested act on this rank only: a rank that
    /// stops early leaves the others waiting in their next allreduce, so a GUI stops a distributed
    /// run by ending the MPI job.
    std::optional<DataParallel> dataParallel;
    /// Called on the training thread with the live session (for tests and tools that read
    /// variables; it must not run the train op): once before the first step (after restore or
    /// initialisation and, with dataParallel size > 1, the broadcast of rank 0's variables) with
    /// finished false, and once after the last step, before the session closes, with finished true
    /// (not when a step failed).
    std::function<void(Session& session, bool finished)> onSessionVariables;
};

struct TrainRunResult {
    std::filesystem::path logdir;
    std::int64_t firstStep = 0; ///< restored global step (0 for a fresh run)
    std::int64_t lastStep = 0;  ///< global step reached
    std::optional<double> finalLoss;
    std::optional<double> finalAccuracy; ///< the last batch's default accuracy, when it is logged
    double seconds = 0;                ///< of the training steps (not of set-up)
    double stepsPerSecond = 0;         ///< (lastStep - firstStep) / seconds
    std::string lastCheckpoint;        ///< the prefix of the checkpoint written last ("" when none)
    bool restored = false;             ///< true when the run continued from a checkpoint
    bool stoppedMidStep = false;       ///< the observer cancelled a step (see TrainRunOptions::observer)
    std::vector<EvalResult> evaluations;    ///< every evaluation of this run, in order
    /// With "perplexity": exp(mean per-word loss) of each epoch of this run's word_text source, in
    /// order (also the scalar "perplexity" of the event file at the epoch's last global step).
    std::vector<double> perplexities;
    double evalSeconds = 0;                 ///< spent evaluating (included in `seconds`)
    std::optional<BestCheckpointRecord> best; ///< eval.best: the best kept so far (this run or earlier)
    /// eval.early_stopping stopped the run: why ("loss has not improved on 0.06 (step 400) for 5
    /// evaluations"); empty otherwise.
    std::string earlyStopped;    /// The graph's input ended (a train step failed with OutOfRange: its queue runners' num_epochs
    /// were reached, or an in-graph iterator ran out) after this many steps of this run: training
    /// ended there, before `steps`, with a final checkpoint, as MonitoredTrainingSession ends it.
    std::optional<std::int64_t> inputExhaustedAfter;
    /// distributed.replication "async": the updates this rank pushed (a worker) or applied (a
    /// parameter server), and their staleness (updates applied by the servers between a push's pull and
    /// its apply; also the worker's scalar "staleness" in its event file at each pulled step).
    std::int64_t asyncUpdates = 0;
    double meanStaleness = 0;
    std::int64_t maxStaleness = 0;
    bool parameterServer = false; ///< this rank served the variables (it trained nothing itself)
};

/// Trains `project` until the global step reaches options.steps (else project.steps, or
/// hooks.stop_at_step when that comes first):
///  - prepareTraining builds the graph and the input pipelines;
///  - the graph's own summaries and the project's "summaries" entries go into SUMMARIES
///    (addProjectSummaries, project_summaries.h), so that the summary hook writes them;
///  - a scalar summary "loss" is added when the project names a loss and no summary op is named
///    "loss" (as tf.estimator adds one);
///  - a classifier's loss (a softmax cross-entropy over logits) gets the scalar summary "accuracy"
///    and TrainProgress::accuracy when the training logs no accuracy of its own
///    (addDefaultAccuracy, default_accuracy.h);
///  - the global step's increment waits for the hooks' read of it, so every hook fires at exactly
///    its step (tf.estimator builds its model under the same dependency);
///  - MonitoredTrainingSession in the log directory (checkpoints every hooks.checkpoint_every_*,
///    summaries every hooks.summary_every_steps, global_step/sec every hooks.log_every_steps, a
///    Chrome trace every hooks.profile_every_steps), with StopAtStepHook and NanTensorHook on the
///    loss; it restores the latest checkpoint of the log directory when resuming;
///  - with an "eval" section (ProjectEvaluation, evaluation.h): its metrics are built into the graph
///    before the session; every eval.every_steps steps, every eval.every_secs seconds, after each
///    checkpoint the hook saves (eval.after_checkpoint) and once more at the end, the variables are
///    checkpointed (unless the latest checkpoint is of this step), evaluated in the live session in
///    evaluation mode, written to <logdir>/eval, kept as <logdir>/best when they are the best
///    (eval.best), and counted by eval.early_stopping, which ends the run like stop_at_step;
///  - "carry_state" (carried_state.h): each step feeds the state fetched at the step before, zeros at
///    each epoch start of the word_text source; "perplexity": exp(mean per-word loss) of each epoch,
///    logged and written as the scalar "perplexity" (result.perplexities);
///  - a MetaGraphDef's queue runners ("queue_runners" collection) start with the session and feed
///    the graph (a project may then have no data sources); a step that fails with OutOfRange (the
///    end of their last epoch) ends the run cleanly (result.inputExhaustedAfter, logged "Input
///    exhausted after N steps"), and closing the session closes the queues and joins their threads;
///    a stop requested while a step waits on an empty queue stops the queue runners (their cancel
///    ops close the queues), so the step ends and the run stops without a hang;
///  - rank 0 first removes what writes cut short by an earlier run's crash or kill left in the log
///    directory and its best/ (checkpoint temporary files and directories, ".NAME.tmpN" files);
///  - close() saves the last checkpoint; a run that fails saves none, and one that fails before
///    finishing its first step removes the checkpoint the session wrote when it was created (files
///    that were in the log directory before the run stay), so that starting again is not refused.
/// Errors: FailedPrecondition "logdir: '/p/runs/x' already holds checkpoints (latest model.ckpt-150)"
/// (a settings problem, setting_advice.h: each front end adds its remedy);
/// FailedPrecondition "device 'gpu': ..." when no GPU device is available; the preparation's,
/// the session's and the hooks' errors (a NaN loss names the tensor and the step).
/// With options.dataParallel (size > 1), also: prepareTraining's sharding, averaging and
/// broadcast op, which runs once the session exists; rank r > 0's result has an empty
/// lastCheckpoint. InvalidArgument "eval.early_stopping: not with 2 ranks (--distributed): ...".
Expected<TrainRunResult> trainProject(const Project& project, const Registries& registries,
                                      const TrainRunOptions& options = {});

/// The log directory a run of `project` with `options` uses: options.logdir (relative to the
/// current directory) or the project's logdir (relative to the .tsproj), absolute and normalised.
std::filesystem::path trainLogDirectory(const Project& project, const TrainRunOptions& options);

/// Where rank `rank` of a data-parallel run writes its event files: `logdir` for rank 0,
/// <logdir>/worker_<rank> otherwise.
std::filesystem::path rankEventDirectory(const std::filesystem::path& logdir, int rank);

} // namespace tstudio::project
