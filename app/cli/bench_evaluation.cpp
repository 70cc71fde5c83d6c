// benchEvaluation: training with and without the project's evaluations, timed.
#include "bench_evaluation.h"

#include "bench_report.h"

#include "cli_command.h"
#include "project_argument.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace tstudio::cli {

int benchEvaluation(const Registries& registries, const EvalBenchArgs& args, BenchReport& report)
{
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "tstudio bench eval: %s\n", s.toString().c_str());
        return static_cast<int>(kExitFailure);
    };
    auto loaded = loadProjectArgument(projectPath(args.project), args.sets);
    if (!loaded)
        return fail(loaded.error());
    if (!loaded->eval)
        return fail(invalidArgumentError(loaded->location.filename().string() +
                                         ": the project has no eval section to measure"));
    project::Project without = *loaded;
    without.eval.reset();
    report.text("project %s: %d steps, batch %lld, eval every %s on %zu source(s)\n",
                loaded->location.filename().string().c_str(), args.steps, static_cast<long long>(loaded->batchSize),
                loaded->eval->everySteps ? (std::to_string(*loaded->eval->everySteps) + " steps").c_str()
                                         : "checkpoint or period",
                loaded->eval->sources.size());
    double best[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    project::TrainRunResult withEval;
    for (int r = 0; r < args.repeat; ++r) {
        for (int kind = 0; kind < 2; ++kind) {
            auto dir = temporaryLogDirectory("bench-eval");
            if (!dir)
                return fail(dir.error());
            project::TrainRunOptions options;
            options.logdir = *dir;
            options.steps = args.steps;
            options.threads = args.threads;
            auto result = project::trainProject(kind == 0 ? without : *loaded, registries, options);
            std::error_code ec;
            std::filesystem::remove_all(*dir, ec);
            if (!result)
                return fail(result.error());
            report.text("  run %d %-12s %.2f s (%.1f steps/s)%s\n", r + 1, kind == 0 ? "without eval" : "with eval",
                        result->seconds, result->stepsPerSecond,
                        kind == 1 ? (", " + std::to_string(result->evaluations.size()) + " evaluations in " +
                                     std::to_string(result->evalSeconds).substr(0, 5) + " s")
                                        .c_str()
                                  : "");
            if (result->seconds < best[kind]) {
                best[kind] = result->seconds;
                if (kind == 1)
                    withEval = *result;
            }
        }
    }
    std::int64_t batches = 0;
    for (const project::EvalResult& e : withEval.evaluations)
        batches += e.batches;
    report.text("without eval: %.2f s; with eval: %.2f s (%zu evaluations, %lld batches, %.2f s evaluating)\n", best[0],
                best[1], withEval.evaluations.size(), static_cast<long long>(batches), withEval.evalSeconds);
    report.text("evaluation overhead: %.1f%% of training time (fastest of %d runs each)\n",
                100.0 * (best[1] - best[0]) / best[0], args.repeat);
    report["project"] = loaded->location.string();
    report["steps"] = args.steps;
    report["runs"] = args.repeat;
    report["seconds_without_eval"] = best[0];
    report["seconds_with_eval"] = best[1];
    report["evaluations"] = withEval.evaluations.size();
    report["eval_batches"] = batches;
    report["eval_seconds"] = withEval.evalSeconds;
    report["overhead_percent"] = 100.0 * (best[1] - best[0]) / best[0];
    return kExitOk;
}

} // namespace tstudio::cli
