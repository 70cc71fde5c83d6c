// tstudio profile: traces training steps of a project, or runs of a model, with FULL_TRACE and writes
// them as a Chrome trace and/or prints tfprof's op and scope tables; also summarises a trace file.
#include "cli_command.h"
#include "model_session.h"
#include "profile_json.h"
#include "project/format/json_text.h"
#include "project_argument.h"

#include "io/file_kind_detector.h"
#include "profiler/pprof_profile.h"
#include "profiler/profile_summary.h"
#include "profiler/tfprof_op_log.h"
#include "profiler/tfprof_profile_proto.h"
#include "profiler/tfprof_view.h"
#include "profiler/trace_builder.h"
#include "profiler/trace_files.h"
#include "project/format/project_file.h"
#include "project/format/setting_advice.h"
#include "project/run/project_runner.h"
#include "proto/config.pb.h"
#include "registries/default_registries.h"
#include "runtime/arena_run_metadata.h"
#include "runtime/session.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

namespace tstudio::cli {
namespace {

struct ProfileArgs : ModelRunArgs {
    int steps = 1;
    int warmup = 1;
    std::string out;
    bool summary = false;
    bool json = false;
    int step = -1;
    std::string logdir;
    std::vector<std::string> sets;
    /// --view scope: tfprof's scope view with its options instead of the summary.
    std::string view;
    profiler::TfprofOptions tfprof;
    std::string orderBy = "name";
    std::string select = "micros";
    std::string accountTypes = ".*", start = ".*", trim, show = ".*", hide;
    /// --output pprof:FILE (tfprof's "pprof:outfile=FILE" too).
    std::string output;
    std::string profileProto;
    std::string opLogPath;
    std::string writeOpLogPath;
    /// Read from --op-log.
    std::optional<profiler::OpLog> opLog;
};

/// tfprof's scope table of `trace` for --step, with the graph's attrs and --op-log's facts.
Expected<profiler::ProfileTable> scopeTable(const ProfileArgs& args, const profiler::ProfileTrace& trace,
                                            const tensorflow::GraphDef* graph)
{
    profiler::ProfileTableOptions tableOptions;
    tableOptions.step = args.step;
    tableOptions.graph = graph;
    tableOptions.opLog = args.opLog ? &*args.opLog : nullptr;
    return profiler::buildProfileTable(trace, profiler::ProfileView::ByScope, tableOptions);
}

/// The file of --output "pprof:FILE" or "pprof:outfile=FILE"; InvalidArgument for anything else.
Expected<std::string> pprofOutputPath(const std::string& spec)
{
    const std::string prefix = "pprof:";
    if (spec.rfind(prefix, 0) != 0 || spec.size() == prefix.size())
        return unexpected(invalidArgumentError("--output '" + spec +
                                               "': expected pprof:FILE (or tfprof's "
                                               "pprof:outfile=FILE)"));
    std::string path = spec.substr(prefix.size());
    if (path.rfind("outfile=", 0) == 0)
        path = path.substr(8);
    if (path.empty())
        return unexpected(invalidArgumentError("--output '" + spec + "': the file name is missing"));
    return path;
}

/// --output pprof:FILE: the scope tree as a gzip-compressed pprof profile, the quantity the first
/// of --select in name order (as tfprof picks it).
Status writePprof(const ProfileArgs& args, const profiler::ProfileTrace& trace, const tensorflow::GraphDef* graph)
{
    auto path = pprofOutputPath(args.output);
    if (!path)
        return path.error();
    auto table = scopeTable(args, trace, graph);
    if (!table)
        return table.error();
    profiler::PprofOptions options;
    const auto selected = profiler::splitTfprofList(args.select);
    const std::set<std::string> ordered(selected.begin(), selected.end());
    if (!ordered.empty())
        options.select = *ordered.begin();
    options.accountTypeRegexes = profiler::splitTfprofList(args.accountTypes);
    options.timeNanos = trace.originNs;
    options.durationNanos = trace.endNs();
    if (Status s = profiler::writePprofProfile(*table, options, *path); !s.isOk())
        return s;
    std::fprintf(stderr, "tstudio profile: wrote %s (pprof, %s; e.g. go tool pprof -top -sample_index=1 %s)\n",
                 path->c_str(), options.select.c_str(), path->c_str());
    return {};
}

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio profile: %s\n", project::withCliAdvice(s).toString().c_str());
    return kExitFailure;
}

/// tfprof's scope view of `trace` under the --view options.
int printTfprofView(const ProfileArgs& args, const profiler::ProfileTrace& trace, const tensorflow::GraphDef* graph)
{
    profiler::TfprofOptions options = args.tfprof;
    options.orderBy = args.orderBy;
    const auto selected = profiler::splitTfprofList(args.select);
    options.select = std::set<std::string>(selected.begin(), selected.end());
    options.accountTypeRegexes = profiler::splitTfprofList(args.accountTypes);
    options.startNameRegexes = profiler::splitTfprofList(args.start);
    options.trimNameRegexes = profiler::splitTfprofList(args.trim);
    options.showNameRegexes = profiler::splitTfprofList(args.show);
    options.hideNameRegexes = profiler::splitTfprofList(args.hide);
    auto table = scopeTable(args, trace, graph);
    if (!table)
        return fail(table.error());
    auto text = profiler::formatTfprofScopeView(*table, options);
    if (!text)
        return fail(text.error());
    std::cout << *text << std::flush;
    return kExitOk;
}

/// Trains the project for warmup + steps global steps in a log directory of its own (a temporary
/// one unless --logdir) and traces the last `steps`.
Expected<profiler::ProfileTrace> traceProject(const ProfileArgs& args, const std::filesystem::path& path,
                                              std::shared_ptr<tensorflow::GraphDef>* graph)
{
    std::vector<project::Override> device;
    if (args.device != "cpu")
        device.push_back({"device", "\"" + args.device + "\""});
    auto loaded = loadProjectArgument(path, args.sets, device);
    if (!loaded)
        return unexpected(loaded.error());
    if (auto projectGraph = project::readProjectGraph(*loaded))
        *graph = std::make_shared<tensorflow::GraphDef>(std::move(*projectGraph));
    auto registries = makeDefaultRegistries();
    if (!registries)
        return unexpected(registries.error());

    std::filesystem::path logdir = args.logdir;
    const bool temporary = logdir.empty();
    if (temporary) {
        auto dir = temporaryLogDirectory("profile");
        if (!dir)
            return unexpected(dir.error());
        logdir = *dir;
    }
    std::atomic<int> traceSteps{args.warmup == 0 ? args.steps : 0};
    std::vector<profiler::TracedStep> traced;
    project::TrainRunOptions options;
    options.logdir = logdir;
    options.steps = args.warmup + args.steps;
    options.progressEverySteps = 1;
    options.traceStepsRequested = &traceSteps;
    options.onProgress = [&](const project::TrainProgress& p) {
        if (p.step - p.firstStep == args.warmup)
            traceSteps = args.steps;
    };
    options.onTrace = [&](std::int64_t step, const tensorflow::RunMetadata& metadata) {
        traced.push_back({step, metadata.step_stats()});
    };
    auto result = project::trainProject(*loaded, **registries, options);
    if (temporary) {
        std::error_code ec;
        std::filesystem::remove_all(logdir, ec);
    }
    if (!result)
        return unexpected(result.error());
    if (traced.empty())
        return unexpected(failedPreconditionError(
            "no step was traced: the run ended at global step " + std::to_string(result->lastStep) +
            " (is the log directory's training already past warmup + steps? use --logdir with a fresh directory)"));
    return profiler::traceFromStepStats(traced);
}

/// Runs the model's fetches and targets warmup times, then `steps` times traced.
Expected<profiler::ProfileTrace> traceModel(const ProfileArgs& args, const FileKindReport& report,
                                            std::shared_ptr<tensorflow::GraphDef>* graph)
{
    if (args.fetches.empty() && args.targets.empty())
        return unexpected(invalidArgumentError("nothing to run: give at least one --fetch or --target"));
    auto model = openModelSession(args, true, &report);
    if (!model)
        return unexpected(model.error());
    *graph = std::make_shared<tensorflow::GraphDef>((*model)->graph());
    std::vector<Tensor> outputs;
    for (int i = 0; i < args.warmup; ++i)
        if (Status s = (*model)->session().run((*model)->feeds(), args.fetches, args.targets, &outputs); !s.isOk())
            return unexpected(s);
    tensorflow::RunOptions options;
    options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    std::vector<profiler::TracedStep> traced;
    for (int i = 0; i < args.steps; ++i) {
        ArenaRunMetadata metadata;
        if (Status s = (*model)->session().run(options, (*model)->feeds(), args.fetches, args.targets, &outputs,
                                               metadata.get());
            !s.isOk())
            return unexpected(s);
        traced.push_back({i, metadata->step_stats()});
    }
    return profiler::traceFromStepStats(traced);
}

int profile(ProfileArgs& args)
{
    if (!args.opLogPath.empty()) {
        auto log = profiler::readOpLog(args.opLogPath);
        if (!log)
            return fail(log.error());
        args.opLog = std::move(*log);
    }
    const std::filesystem::path path = projectPath(args.model);
    auto report = detectFileKind(path);
    if (!report)
        return fail(report.error());
    std::shared_ptr<tensorflow::GraphDef> graph;
    Expected<profiler::ProfileTrace> trace = unexpected(internalError("not traced"));
    switch (report->kind) {
    case FileKind::kProject: trace = traceProject(args, path, &graph); break;
    case FileKind::kTfprofProfile:
        trace = profiler::readTraceFile(path);
        if (auto described = profiler::readProfileProtoGraph(path); trace && described)
            graph = std::make_shared<tensorflow::GraphDef>(std::move(*described));
        break;
    case FileKind::kChromeTrace:
    case FileKind::kEventFile:
    case FileKind::kEventLogDir: trace = profiler::readTraceFile(path); break;
    default: trace = traceModel(args, *report, &graph); break;
    }
    if (!trace)
        return fail(trace.error());
    std::size_t events = trace->events.size();
    std::fprintf(stderr, "tstudio profile: %zu step(s), %zu op executions on %zu device(s)\n", trace->steps.size(),
                 events, trace->devices.size());
    if (!args.out.empty()) {
        if (Status s = profiler::writeChromeTraceFile(*trace, args.out, {}); !s.isOk())
            return fail(s);
        std::fprintf(stderr,
                     "tstudio profile: wrote %s (Chrome trace JSON: Perfetto, chrome://tracing, TensorStudio)\n",
                     args.out.c_str());
    }
    if (!args.output.empty())
        if (Status s = writePprof(args, *trace, graph.get()); !s.isOk())
            return fail(s);
    if (!args.profileProto.empty()) {
        if (Status s = profiler::writeProfileProto(*trace, graph.get(), args.profileProto); !s.isOk())
            return fail(s);
        std::fprintf(stderr, "tstudio profile: wrote %s (tfprof's ProfileProto)\n", args.profileProto.c_str());
    }
    if (!args.writeOpLogPath.empty()) {
        if (Status s = profiler::writeOpLog(*trace, graph.get(), args.writeOpLogPath); !s.isOk())
            return fail(s);
        std::fprintf(stderr, "tstudio profile: wrote %s (tfprof's OpLogProto)\n", args.writeOpLogPath.c_str());
    }
    if (!args.view.empty())
        return printTfprofView(args, *trace, graph.get());
    if (args.json || args.summary ||
        (args.out.empty() && args.output.empty() && args.profileProto.empty() && args.writeOpLogPath.empty())) {
        profiler::ProfileSummaryOptions options;
        options.step = args.step;
        options.graph = graph.get();
        options.opLog = args.opLog ? &*args.opLog : nullptr;
        if (args.json) {
            auto json = profileSummaryJson(*trace, options);
            if (!json)
                return fail(json.error());
            (*json)["trace_file"] = args.out.empty() ? nullptr : nlohmann::ordered_json(args.out);
            std::printf("%s\n", jsonText(*json, 2).c_str());
            return kExitOk;
        }
        auto text = profiler::formatProfileSummary(*trace, options);
        if (!text)
            return fail(text.error());
        std::cout << *text << std::flush;
    }
    return kExitOk;
}

/// tfprof's options (tf.profiler.ProfileOptionBuilder), for --view scope.
void addTfprofOptions(CLI::App& cmd, ProfileArgs& args)
{
    const char* group = "tfprof view (--view scope)";
    cmd.add_option("--view", args.view, "print tfprof's scope view with the options below instead of the summary")
        ->check(CLI::IsMember({"scope"}))
        ->group(group);
    auto& o = args.tfprof;
    cmd.add_option("--max-depth", o.maxDepth, "max_depth: nodes at most this many levels below the root")
        ->capture_default_str()
        ->group(group);
    const std::pair<const char*, std::int64_t*> minimums[] = {{"--min-bytes", &o.minBytes},
                                                              {"--min-peak-bytes", &o.minPeakBytes},
                                                              {"--min-residual-bytes", &o.minResidualBytes},
                                                              {"--min-output-bytes", &o.minOutputBytes},
                                                              {"--min-micros", &o.minMicros},
                                                              {"--min-accelerator-micros", &o.minAcceleratorMicros},
                                                              {"--min-cpu-micros", &o.minCpuMicros},
                                                              {"--min-params", &o.minParams},
                                                              {"--min-float-ops", &o.minFloatOps},
                                                              {"--min-occurrence", &o.minOccurrence}};
    for (const auto& [name, value] : minimums)
        cmd.add_option(name, *value, std::string("tfprof's ") + (name + 2) + ": nodes below it are not shown")
            ->group(group);
    cmd.add_option("--order-by", args.orderBy,
                   "order_by: name, bytes, peak_bytes, residual_bytes, output_bytes, micros, accelerator_micros, "
                   "cpu_micros, params, float_ops or occurrence")
        ->capture_default_str()
        ->group(group);
    cmd.add_option("--select", args.select,
                   "select, comma-separated: bytes, peak_bytes, residual_bytes, output_bytes, micros, "
                   "accelerator_micros, cpu_micros, params, float_ops, occurrence, device, op_types")
        ->capture_default_str()
        ->group(group);
    cmd.add_option("--account-type-regexes", args.accountTypes,
                   "account_type_regexes (comma-separated): the op "
                   "types counted")
        ->capture_default_str()
        ->group(group);
    cmd.add_option("--start-name-regexes", args.start, "start_name_regexes: show from the first matching nodes")
        ->capture_default_str()
        ->group(group);
    cmd.add_option("--trim-name-regexes", args.trim, "trim_name_regexes: hide what is below matching nodes")
        ->group(group);
    cmd.add_option("--show-name-regexes", args.show, "show_name_regexes: show only matching nodes")
        ->capture_default_str()
        ->group(group);
    cmd.add_option("--hide-name-regexes", args.hide, "hide_name_regexes: hide matching nodes")->group(group);
    cmd.add_flag("--account-displayed-op-only", o.accountDisplayedOpOnly,
                 "account_displayed_op_only: totals count only the nodes shown")
        ->group(group);
}

} // namespace

void addProfileCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "profile",
        "Trace steps with FULL_TRACE: a project's training steps (.tsproj, or spirals, book-mnist, lenet, "
        "mnist-notes), or runs "
        "of a model (.pb, .pbtxt, .meta, SavedModel) with --feed/--fetch/--target as tstudio run; write a Chrome "
        "trace (--out) and/or print tfprof's op and scope tables (--summary). A Chrome trace or event file given "
        "as MODEL is summarised as it is");
    auto args = std::make_shared<ProfileArgs>();
    addModelRunOptions(*cmd, *args);
    cmd->add_option("--steps", args->steps, "steps (or runs) traced")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000000));
    cmd->add_option("--warmup", args->warmup, "untraced steps (or runs) first")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    cmd->add_option("--out", args->out, "write the trace here as Chrome trace JSON (TensorFlow's timeline layout)");
    cmd->add_flag("--summary", args->summary,
                  "print the op and scope tables, float operations and parameters "
                  "(the default when there is no --out)");
    cmd->add_flag("--json", args->json,
                  "print the op types, the scope tree, float operations and parameters as JSON "
                  "instead of --summary's tables");
    cmd->add_option("--step", args->step, "--summary for one traced step (its index) instead of the average per step");
    cmd->add_option("--logdir", args->logdir,
                    "project: train in this log directory (default: a temporary one, removed)");
    cmd->add_option("--set", args->sets, "project: KEY=VALUE overrides a project setting, e.g. --set data.dir=DIR");
    cmd->add_option("--output", args->output,
                    "pprof:FILE: write the scope tree as a pprof profile (gzip protobuf; the quantity is the first "
                    "of --select; go tool pprof reads it), as tfprof's -output pprof:outfile=FILE");
    cmd->add_option("--profile-proto", args->profileProto,
                    "write tfprof's ProfileProto (as tf.profiler.Profiler.serialize_to_string); tstudio profile and "
                    "the profiler read it back");
    cmd->add_option("--op-log", args->opLogPath,
                    "read tfprof's OpLogProto (tf.profiler.write_op_log's tfprof_log): its float_ops replace the "
                    "counted ones, its types join the op types, its _trainable_variables are the parameters");
    cmd->add_option("--write-op-log", args->writeOpLogPath,
                    "write tfprof's OpLogProto: each node's float_ops and the parameters' _trainable_variables type");
    addTfprofOptions(*cmd, *args);
    cmd->callback([args, &exitCode] { exitCode = profile(*args); });
}

} // namespace tstudio::cli
