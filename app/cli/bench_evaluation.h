// `tstudio bench eval PROJECT`: what evaluation while training costs, measured on a project with an
// eval section (benchmark, not a test).
#pragma once

#include <string>
#include <vector>

namespace tstudio {
struct Registries;
}

namespace tstudio::cli {

class BenchReport;

struct EvalBenchArgs {
    std::string project = "mnist-notes"; ///< a .tsproj or a shipped example's name
    std::vector<std::string> sets;       ///< --set KEY=VALUE
    int steps = 2000;
    int repeat = 2; ///< runs of each kind, alternating; the fastest of each counts
    int threads = 0;
};

/// Trains the project `steps` steps with its eval section and without it, `repeat` times each in
/// alternation (fresh temporary log directories, removed afterwards), and prints both times, the
/// evaluations (count, batches, seconds) and the overhead (with - without) / without. Returns the
/// process exit code (1 when the project has no eval section or a run fails).
int benchEvaluation(const Registries& registries, const EvalBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
