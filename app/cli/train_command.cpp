// tstudio train: trains a project (.tsproj) as MonitoredTrainingSession does, with a progress
// line, checkpoints and event files in the run's log directory; with --distributed, as one rank of
// an MPI job (Horovod's semantics, see project/data_parallel.h). Progress, evaluations and messages go
// to stderr; the result to stdout (with --json as one JSON document, docs/cli-json.md).
#include "cli_command.h"
#include "core/log.h"

#include "debug_shell.h"
#include "eval_result_json.h"
#include "project/format/json_text.h"
#include "distributed/mpi_context.h"
#include "project/distributed/distributed_status.h"
#include "project/distributed/distributed_world.h"
#include "progress_line.h"
#include "project_argument.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"
#include "project/format/setting_advice.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

namespace tstudio::cli {
namespace {

struct TrainArgs {
    std::string project;
    std::optional<std::int64_t> steps;
    std::string logdir;
    std::string device;
    std::vector<std::string> sets;
    std::string mnistDir;
    bool resume = false;
    int threads = 0;
    bool noCudaGraphs = false;
    bool distributed = false;
    bool scaleLr = false;
    DebugArgs debug;
    bool useSavedBreakpoints = false;
    bool json = false;
};

int fail(const Status& s)
{
    std::fprintf(stderr, "error: %s\n", project::withCliAdvice(s).toString().c_str());
    return kExitFailure;
}

/// Ctrl+C stops after the current step; the final checkpoint is still written.
std::atomic<bool> g_stopRequested{false};
extern "C" void onInterrupt(int)
{
    g_stopRequested.store(true);
}

/// What a rank says when the MPI job ends under it (mpirun's SIGTERM after another rank died, or the
/// job interrupted), prepared before training so that the signal handler only writes: this rank's
/// prefix, and the other ranks on this host with their pids, so that the one that is gone can be
/// named (mpirun reaps a dead rank before it terminates the others).
struct EndingNotice {
    char prefix[64] = "";
    struct Peer {
        int rank;
        pid_t pid;
    };
    std::vector<Peer> localPeers;
};
EndingNotice g_ending;

void writeText(const char* text)
{
    const ssize_t written = write(STDERR_FILENO, text, std::strlen(text));
    (void)written;
}

void writeNumber(long long value)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value > 0 && n < 23);
    char text[24];
    for (int i = 0; i < n; ++i)
        text[i] = digits[n - 1 - i];
    text[n] = '\0';
    writeText(text);
}

/// SIGTERM (and SIGINT) in a distributed run: a collective would wait for the rank that is gone,
/// so the rank says why and leaves at once ("rank 0 of 2: stopped: the MPI job is ending (rank 1,
/// pid 4242 on this host, has exited); ..."); the last checkpoint stays the latest (files are
/// written to a temporary name and renamed, so none is half-written). Async-signal-safe calls only.
extern "C" void onJobEnding(int signal)
{
    writeText(g_ending.prefix);
    writeText("stopped: the MPI job is ending (");
    bool named = false;
    for (const EndingNotice::Peer& peer : g_ending.localPeers) {
        if (kill(peer.pid, 0) == 0 || errno != ESRCH)
            continue;
        writeText(named ? "; rank " : "rank ");
        writeNumber(peer.rank);
        writeText(", pid ");
        writeNumber(peer.pid);
        writeText(" on this host, has exited");
        named = true;
    }
    if (!named)
        writeText("another rank failed or the job was interrupted");
    writeText("); the last checkpoint in the log directory stays the latest\n");
    _exit(128 + signal);
}

/// Joins the MPI job: every rank's first line says where it runs and where the others do; rank 0
/// writes <logdir>/distributed.json.
Expected<project::DistributedWorld> joinJob(const std::filesystem::path& logdir)
{
    auto world = project::joinDistributedWorld();
    if (!world)
        return world;
    std::fprintf(stderr, "%s; %s\n", project::describeRank(*world).c_str(), project::describeMapping(*world).c_str());
    std::snprintf(g_ending.prefix, sizeof g_ending.prefix, "rank %d of %d: ", world->rank, world->size);
    const project::RankPlace& me = world->ranks[static_cast<std::size_t>(world->rank)];
    for (const project::RankPlace& r : world->ranks)
        if (r.rank != world->rank && r.host == me.host)
            g_ending.localPeers.push_back({r.rank, static_cast<pid_t>(r.pid)});
    std::signal(SIGTERM, onJobEnding);
    if (world->rank == 0)
        if (Status s = project::writeDistributedStatus(project::makeDistributedStatus(*world, logdir)); !s.isOk())
            return unexpected(s);
    return world;
}

/// `tstudio train --json`: the run's result as one document (docs/cli-json.md).
nlohmann::ordered_json trainResultJson(const project::Project& loaded, const project::TrainRunResult& result,
                                       const std::optional<project::DistributedWorld>& world, bool interrupted)
{
    nlohmann::ordered_json out;
    out["project"] = loaded.name;
    out["project_file"] = loaded.location.string();
    out["logdir"] = result.logdir.string();
    out["resumed"] = result.restored;
    out["first_step"] = result.firstStep;
    out["last_step"] = result.lastStep;
    out["seconds"] = result.seconds;
    out["steps_per_second"] = result.stepsPerSecond;
    out["final_loss"] = result.finalLoss ? nlohmann::ordered_json(*result.finalLoss) : nullptr;
    out["final_accuracy"] = result.finalAccuracy ? nlohmann::ordered_json(*result.finalAccuracy) : nullptr;
    out["last_checkpoint"] = result.lastCheckpoint.empty() ? nullptr : nlohmann::ordered_json(result.lastCheckpoint);
    out["interrupted"] = interrupted;
    out["early_stopped"] = result.earlyStopped.empty() ? nullptr : nlohmann::ordered_json(result.earlyStopped);
    out["input_exhausted_after"] =
        result.inputExhaustedAfter ? nlohmann::ordered_json(*result.inputExhaustedAfter) : nullptr;
    nlohmann::ordered_json evaluations = nlohmann::ordered_json::array();
    for (const project::EvalResult& e : result.evaluations)
        evaluations.push_back(evalResultJson(e));
    out["evaluations"] = std::move(evaluations);
    out["perplexities"] = result.perplexities;
    if (result.best) {
        nlohmann::ordered_json best;
        best["checkpoint"] = (result.logdir / "best" / result.best->checkpoint).string();
        best["metric"] = result.best->metric;
        best["mode"] = result.best->mode;
        best["value"] = result.best->value;
        best["global_step"] = result.best->step;
        out["best"] = std::move(best);
    } else {
        out["best"] = nullptr;
    }
    if (world) {
        nlohmann::ordered_json distributed;
        distributed["rank"] = world->rank;
        distributed["size"] = world->size;
        out["distributed"] = std::move(distributed);
    } else {
        out["distributed"] = nullptr;
    }
    return out;
}

int train(const TrainArgs& args)
{
    std::vector<project::Override> overrides;
    if (!args.mnistDir.empty())
        overrides.push_back({"data.dir", nlohmann::json(args.mnistDir).dump()});
    if (!args.device.empty())
        overrides.push_back({"device", nlohmann::json(args.device).dump()});
    auto loaded = loadProjectArgument(projectPath(args.project), args.sets, overrides);
    if (!loaded)
        return fail(loaded.error());
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail(registries.error());
    if (args.distributed && !distributed::mpiBuilt())
        return fail(unavailableError("this build has no MPI support (install openmpi-bin and libopenmpi-dev)"));

    // Under mpirun a rank's stderr is a pseudo-terminal, but its lines are read by mpirun (and the
    // IDE behind it): distributed, every progress report is a line of its own.
    const bool tty = isatty(fileno(stderr)) != 0 && !args.distributed;
    project::TrainRunOptions options;
    options.steps = args.steps;
    if (!args.logdir.empty())
        options.logdir = args.logdir;
    options.resume = args.resume;
    options.threads = args.threads;
    options.cudaGraphs = !args.noCudaGraphs;
    options.stopRequested = &g_stopRequested;
    // A distributed run is followed live (the IDE's "Run on N processes" opens rank 0's log
    // directory in the dashboard): its event files are flushed every second, not only at
    // checkpoints.
    if (args.distributed)
        options.flushSecs = 1.0;
    std::optional<project::DistributedWorld> world;
    std::optional<project::DistributedStatus> status;
    if (args.distributed) {
        const std::filesystem::path logdir = project::trainLogDirectory(*loaded, options);
        auto joined = joinJob(logdir);
        if (!joined) {
            (void)distributed::MpiContext::instance().finalize();
            return fail(joined.error());
        }
        world = *joined;
        // Asynchronous parameter servers exchange point-to-point messages only: no thread negotiating
        // collectives every few milliseconds, which would spin on the cores the ranks share.
        if (loaded->distributed.asynchronous)
            if (Status s = distributed::MpiContext::instance().stopCollectives(); !s.isOk()) {
                (void)distributed::MpiContext::instance().finalize();
                return fail(s);
            }
        options.dataParallel = project::DataParallel{world->rank, world->size, args.scaleLr};
        if (world->rank == 0)
            status = project::makeDistributedStatus(*world, logdir);
    }
    const bool chief = !world || world->rank == 0;
    // A rank's part in the job (data-parallel shard, worker or parameter server, where the variables
    // are) is stated on stderr, as the IDE's console shows it.
    std::optional<LogSinkId> rankLog;
    if (world)
        rankLog = addLogSink([rank = world->rank](const LogRecord& r) {
            // Registered, this sink is the only one: warnings and errors must go on reaching stderr.
            if (r.severity >= LogSeverity::kWarning)
                std::fprintf(stderr, "[rank %d] %s: %s\n", rank, std::string(logSeverityName(r.severity)).c_str(),
                             r.message.c_str());
            else if (r.severity == LogSeverity::kInfo && (r.source == "training" || r.source == "placement") &&
                     r.message.rfind("global_step/sec", 0) != 0) // the progress line has the speed
                std::fprintf(stderr, "[rank %d] %s\n", rank, r.message.c_str());
        });
    // Rank 0 alone shows progress (Horovod's verbose = hvd.rank() == 0).
    options.onProgress = [tty, chief](const project::TrainProgress& p) {
        if (!chief)
            return;
        ProgressSample sample{p.step, p.firstStep, p.lastStep, p.loss, p.accuracy, p.stepsPerSecond};
        const std::string line = formatProgress(sample, tty ? 24 : 0);
        if (tty)
            std::fprintf(stderr, "\r%s\033[K", line.c_str());
        else
            std::fprintf(stderr, "%s\n", line.c_str());
    };
    options.onEvaluation = [tty](const project::EvalResult& r) {
        std::fprintf(stderr, "%seval at step %lld: %s (%lld batches, %.2f s)\n", tty ? "\r\033[K" : "",
                     static_cast<long long>(r.step), project::formatEvalMetrics(r).c_str(),
                     static_cast<long long>(r.batches), r.seconds);
    };
    if (chief)
        std::fprintf(stderr, "training '%s' (%s)\n", loaded->name.c_str(), loaded->location.string().c_str());
    g_stopRequested.store(false);
    // Distributed, a stop between steps on one rank would leave the others in their allreduce:
    // Ctrl+C ends the job as mpirun's SIGTERM does.
    auto previous = std::signal(SIGINT, world ? onJobEnding : onInterrupt);
    Expected<project::TrainRunResult> result = unexpected(internalError("not trained"));
    DebugArgs debug = args.debug;
    if (args.useSavedBreakpoints) {
        debug.saved = loaded->debugger.breakpoints;
        debug.watch.insert(debug.watch.begin(), loaded->debugger.watch.begin(), loaded->debugger.watch.end());
    }
    if (world && !debug.empty()) {
        (void)distributed::MpiContext::instance().finalize();
        return fail(invalidArgumentError("--distributed cannot run under the debugger: a rank held at a breakpoint "
                                         "would hold every other rank in its allreduce; debug in one process"));
    }
    if (!debug.empty()) {
        // Each step runs under the debugger; its prompt opens at the first breakpoint hit.
        auto graph = project::readProjectGraph(*loaded);
        if (!graph)
            return fail(graph.error());
        Status s = runUnderDebugger(
            *graph, debug, /*startPaused=*/false,
            [&](DebugController& controller) {
                options.observer = &controller;
                result = project::trainProject(*loaded, **registries, options);
                return result ? Status::ok() : result.error();
            },
            [] { g_stopRequested.store(true); });
        (void)s; // the run's own error is in `result`
    } else {
        result = project::trainProject(*loaded, **registries, options);
    }
    std::signal(SIGINT, previous);
    if (rankLog)
        removeLogSink(*rankLog);
    if (tty && chief)
        std::fprintf(stderr, "\n");
    if (world) {
        if (status) {
            status->state = result ? "finished" : "failed";
            if (result) {
                status->firstStep = result->firstStep;
                status->lastStep = result->lastStep;
            } else {
                status->message = result.error().toString();
            }
            if (Status s = project::writeDistributedStatus(*status); !s.isOk())
                std::fprintf(stderr, "warning: %s\n", s.toString().c_str());
        }
        // Every rank leaves the collectives together (MpiContext::finalize waits for the others).
        Status finalized = distributed::MpiContext::instance().finalize();
        if (!result)
            return fail(result.error().withContext(project::describeRank(*world)));
        if (!finalized.isOk())
            return fail(finalized);
        if (result->parameterServer) {
            std::fprintf(args.json ? stderr : stdout,
                         "%s: parameter server: %lld updates applied (staleness mean %.2f, max %lld), global step "
                         "%lld\n",
                         project::describeRank(*world).c_str(), static_cast<long long>(result->asyncUpdates),
                         result->meanStaleness, static_cast<long long>(result->maxStaleness),
                         static_cast<long long>(result->lastStep));
            return kExitOk;
        }
        if (!chief) {
            // Under mpirun every rank's stdout is one stream: with --json only rank 0's document is on it.
            std::fprintf(args.json ? stderr : stdout, "%s: global step %lld -> %lld, event files in %s\n",
                         project::describeRank(*world).c_str(), static_cast<long long>(result->firstStep),
                         static_cast<long long>(result->lastStep),
                         project::rankEventDirectory(result->logdir, world->rank).string().c_str());
            return kExitOk;
        }
    }
    if (!result)
        return fail(result.error());
    const int exit = g_stopRequested.load() ? kExitFailure : kExitOk;
    if (args.json) {
        std::printf("%s\n", jsonText(trainResultJson(*loaded, *result, world, g_stopRequested.load()), 2).c_str());
        return exit;
    }
    std::string loss = result->finalLoss ? " final loss " + std::to_string(*result->finalLoss) + "," : std::string();
    if (result->finalAccuracy)
        loss += " accuracy " + std::to_string(*result->finalAccuracy) + ",";
    std::printf("%s global step %lld -> %lld in %s (%.1f steps/s),%s log directory %s%s%s\n",
                result->restored ? "resumed:" : "trained:", static_cast<long long>(result->firstStep),
                static_cast<long long>(result->lastStep), formatDuration(result->seconds).c_str(), result->stepsPerSecond,
                loss.c_str(), result->logdir.string().c_str(), result->lastCheckpoint.empty() ? "" : ", checkpoint ",
                result->lastCheckpoint.empty() ? "" : std::filesystem::path(result->lastCheckpoint).filename().string().c_str());
    if (!result->earlyStopped.empty())
        std::printf("stopped early: %s\n", result->earlyStopped.c_str());
    if (result->inputExhaustedAfter)
        std::printf("input exhausted after %lld steps (the graph's input ran out: its queues reached num_epochs); "
                    "training ended at global step %lld with a final checkpoint\n",
                    static_cast<long long>(*result->inputExhaustedAfter), static_cast<long long>(result->lastStep));
    if (result->best) {
        char value[64];
        std::snprintf(value, sizeof value, "%.6g", result->best->value);
        std::printf("best checkpoint: %s (%s = %s at step %lld) in %s\n", result->best->checkpoint.c_str(),
                    result->best->metric.c_str(), value, static_cast<long long>(result->best->step),
                    (result->logdir / "best").string().c_str());
    }
    return exit;
}

} // namespace

void addTrainCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("train", "Train a project (.tsproj) in-process as MonitoredTrainingSession does: "
                                            "checkpoints, summaries and event files go to its log directory. PROJECT "
                                            "may also name a shipped example: spirals (synthetic data), book-mnist "
                                            "lenet or mnist-notes (these take --set data.dir=MNIST_DIR)");
    auto args = std::make_shared<TrainArgs>();
    cmd->add_option("PROJECT", args->project,
                    "a .tsproj file, or spirals, book-mnist, lenet, mnist-notes, ptb-small, word2vec, "
                    "seq2seq-reverse")
        ->required();
    cmd->add_option("--steps", args->steps, "the global step to stop at (default: the project's steps)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 50));
    cmd->add_option("--logdir", args->logdir, "log directory (default: the project's logdir, relative to the .tsproj)");
    cmd->add_option("--device", args->device, "cpu or gpu (default: the project's device)")
        ->check(CLI::IsMember({"cpu", "gpu"}));
    cmd->add_option("--set", args->sets, "KEY=VALUE: overrides a project setting, e.g. --set data.dir=/data/mnist "
                                         "--set training.optimizer.learning_rate=0.1 (repeatable)");
    cmd->add_flag("--resume", args->resume, "continue from the latest checkpoint of the log directory");
    addDebugOptions(*cmd, args->debug);
    cmd->add_flag("--debug", args->useSavedBreakpoints,
                  "attach the debugger with the breakpoints and watches saved in the project");
    cmd->add_option("--threads", args->threads, "intra-op threads (0 = one per core this process may run on)")->capture_default_str();
    cmd->add_flag("--no-cuda-graphs", args->noCudaGraphs,
                  "on a GPU, run every step in the executor instead of capturing the training step as a CUDA graph "
                  "and replaying it");
    cmd->add_option("--mnist", args->mnistDir, "the same as --set data.dir=DIR");
    auto* distributedFlag = cmd->add_flag(
        "--distributed", args->distributed,
        "train as one rank of an MPI job (run under mpirun -np N or srun), with Horovod's semantics: batch_size "
        "is per rank, each rank reads its shard of every data source, gradients are averaged across the ranks, "
        "rank 0's variables are broadcast at the start, and rank 0 alone writes checkpoints (rank R's event files "
        "go to LOGDIR/worker_R). Without mpirun: a world of one");
    cmd->add_flag("--scale-lr", args->scaleLr,
                  "with --distributed: multiply the learning rate by the number of ranks (Horovod's advice; also "
                  "the project's distributed.scale_learning_rate)")
        ->needs(distributedFlag);
    cmd->add_flag("--json", args->json,
                  "print the result as JSON (progress and evaluations still go to stderr as they happen)");
    cmd->callback([args, &exitCode] { exitCode = train(*args); });
}

} // namespace tstudio::cli
