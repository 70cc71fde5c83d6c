// evaluateProject: one evaluation of a project's checkpoint outside training (`tstudio evaluate`,
// the IDE's Evaluate checkpoint), with the metrics and eval sources of its "eval" section.
#pragma once

#include "core/expected.h"
#include "evaluation.h"
#include "project_file.h"

#include <filesystem>
#include <optional>
#include <string>

namespace tstudio {
struct Registries;
}

namespace tstudio::project {

struct EvaluateOptions {
    /// The checkpoint prefix (or a directory: its latest); default: the latest of the log directory.
    std::string checkpoint;
    /// Overrides project.logdir (absolute, or relative to the current directory).
    std::optional<std::filesystem::path> logdir;
    /// Also write the results to <logdir>/eval at the checkpoint's step, as training does.
    bool writeSummary = false;
    int threads = 0;
};

/// Builds the project's training graph (prepareTraining, so the checkpoint's variables all have a
/// home) with the eval section's metrics, restores every variable from the checkpoint and runs one
/// evaluation in evaluation mode (ProjectEvaluation::run); the result's step is the checkpoint's
/// global step. Errors: FailedPrecondition "<file>: the project has no eval section (add one: ...)";
/// NotFound "no checkpoint in log directory 'D' (train first, or pass --checkpoint)"; NotFound
/// "checkpoint 'P' lacks variables the project's graph has: a, b"; prepareTraining's,
/// ProjectEvaluation's, the restore's and the run's.
Expected<EvalResult> evaluateProject(const Project& project, const Registries& registries,
                                     const EvaluateOptions& options = {});

} // namespace tstudio::project
