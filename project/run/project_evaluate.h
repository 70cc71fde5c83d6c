// evaluateProject: one evaluation of a project's checkpoint outside training (`tstudio evaluate`),
// with the metrics and eval sources of its "eval" section.
#pragma once

#include "core/expected.h"
#include "project/run/evaluation.h"
#include "project/format/project_file.h"

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

/// The checkpoint prefix evaluateProject restores: options.checkpoint when it names a prefix, else the
/// latest checkpoint of the directory it names or, when it is empty, of the log directory
/// (options.logdir, else the project's). Errors (NotFound) say what is missing and where, and leave
/// the remedy to the caller, who knows how its user names a checkpoint or trains one (`tstudio
/// evaluate`: "train first, or pass --checkpoint"; a GUI: its own buttons):
/// "<file>: no checkpoint in log directory 'D' (why)", "<file>: no checkpoint in directory 'D' (why)".
Expected<std::string> evaluationCheckpoint(const Project& project, const EvaluateOptions& options = {});

/// Builds the project's training graph (prepareTraining, so the checkpoint's variables all have a
/// home) with the eval section's metrics, restores every variable from the checkpoint
/// (evaluationCheckpoint) and runs one evaluation in evaluation mode (ProjectEvaluation::run); the
/// result's step is the checkpoint's global step. Errors: FailedPrecondition "<file>: the project
/// has no eval section (add one: ...)"; evaluationCheckpoint's (without a remedy: callers that add
/// theirs call it first); NotFound "checkpoint 'P' lacks variables the project's graph has: a, b";
/// prepareTraining's, ProjectEvaluation's, the restore's and the run's.
Expected<EvalResult> evaluateProject(const Project& project, const Registries& registries,
                                     const EvaluateOptions& options = {});

} // namespace tstudio::project
