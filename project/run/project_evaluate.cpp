// evaluateProject: a checkpoint restored into the project's graph and evaluated.
#include "project/run/project_evaluate.h"

#include "core/try.h"
#include "io/checkpoint/checkpoint_state.h"
#include "model/restore_variables.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "training/session_run_hook.h"
#include "project/run/training_setup.h"

namespace tstudio::project {

namespace {

std::filesystem::path logDirectory(const Project& project, const EvaluateOptions& options)
{
    return std::filesystem::absolute(options.logdir ? *options.logdir : project.resolve(project.logdir))
        .lexically_normal();
}

} // namespace

Expected<std::string> evaluationCheckpoint(const Project& project, const EvaluateOptions& options)
{
    const std::string& prefix = options.checkpoint;
    std::error_code ec;
    if (!prefix.empty() && !std::filesystem::is_directory(prefix, ec))
        return prefix;
    const std::filesystem::path dir = prefix.empty() ? logDirectory(project, options) : std::filesystem::path(prefix);
    auto latest = latestCheckpoint(dir);
    // What to do about it is the caller's to say: a flag on the command line, a button in a GUI.
    if (!latest)
        return unexpected(notFoundError(projectLabel(project) + "no checkpoint in " +
                                        (prefix.empty() ? "log directory" : "directory") + " '" + dir.string() + "' (" +
                                        latest.error().message() + ")"));
    return latest->string();
}

Expected<EvalResult> evaluateProject(const Project& project, const Registries& registries, const EvaluateOptions& options)
{
    const std::string label = projectLabel(project);
    if (!project.eval)
        return unexpected(failedPreconditionError(
            label + "the project has no eval section (add one: \"eval\": {\"sources\": [...], \"every_steps\": N, "
                    "\"metrics\": [...]})"));
    const std::filesystem::path logdir = logDirectory(project, options);
    TSTUDIO_TRY(prefix, evaluationCheckpoint(project, options));

    TSTUDIO_TRY(prepared, prepareTraining(project, registries.ops));
    TSTUDIO_TRY(evaluation, ProjectEvaluation::prepare(*prepared.builder, project, prepared.modelLoss));
    SessionOptions sessionOptions;
    sessionOptions.ops = &registries.ops;
    sessionOptions.kernels = &registries.kernels;
    sessionOptions.config.set_intra_op_parallelism_threads(options.threads);
    sessionOptions.config.set_inter_op_parallelism_threads(1);
    (*sessionOptions.config.mutable_device_count())["GPU"] = project.device == "gpu" ? 1 : 0;
    sessionOptions.config.set_allow_soft_placement(true);
    Session session(sessionOptions);
    if (Status s = session.create(prepared.builder->toGraphDef()); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(restored, restoreVariablesByName(session, prefix));
    // Metric variables are local: the checkpoint never holds them, the evaluation zeroes them.
    std::vector<std::string> missing;
    for (const std::string& name : restored.notInCheckpoint)
        if (name.rfind("eval_metrics/", 0) != 0)
            missing.push_back(name);
    if (!missing.empty()) {
        std::string names;
        for (std::size_t i = 0; i < missing.size() && i < 5; ++i)
            names += (i ? ", " : "") + missing[i];
        if (missing.size() > 5)
            names += " and " + std::to_string(missing.size() - 5) + " more";
        return unexpected(notFoundError("checkpoint '" + prefix + "' lacks variables the project's graph has: " + names));
    }
    TSTUDIO_TRY(step, training::fetchInt64(session, prepared.globalStep));
    TSTUDIO_TRY(result, evaluation->run(session, step, prefix));
    if (options.writeSummary)
        if (Status s = writeEvalSummary(logdir / "eval", result); !s.isOk())
            return unexpected(s);
    return result;
}

} // namespace tstudio::project
