#include "project/run/run_evaluations.h"

#include "core/log.h"
#include "core/try.h"
#include "project/run/eval_metrics.h"

namespace tstudio::project {

Expected<std::unique_ptr<RunEvaluations>> RunEvaluations::prepare(GraphBuilder& b, const Project& project,
                                                                  const std::string& loss,
                                                                  const std::filesystem::path& logdir)
{
    auto out = std::unique_ptr<RunEvaluations>(new RunEvaluations);
    out->m_settings = *project.eval;
    out->m_logdir = logdir;
    TSTUDIO_TRY(evaluation, ProjectEvaluation::prepare(b, project, loss));
    out->m_evaluation = std::move(evaluation);
    const EvalSettings& e = *project.eval;
    if (e.best) {
        auto keeper = BestCheckpointKeeper::open(logdir / "best", e.best->metric,
                                                 evalMetricMode(e, e.best->metric, e.best->mode));
        if (!keeper)
            return unexpected(keeper.error().withContext(projectLabel(project) + "eval.best"));
        out->m_best = std::move(*keeper);
    }
    if (e.earlyStopping)
        out->m_stopping.emplace(e.earlyStopping->metric,
                                evalMetricMode(e, e.earlyStopping->metric, e.earlyStopping->mode),
                                e.earlyStopping->patience, e.earlyStopping->minDelta);
    return out;
}

void RunEvaluations::start(std::int64_t step, std::optional<std::int64_t> savedStep)
{
    m_lastStep = step;
    m_lastTime = Clock::now();
    m_lastSaved = savedStep;
}

bool RunEvaluations::due(std::int64_t step, std::optional<std::int64_t> savedStep) const
{
    if (step == m_lastStep)
        return false;
    if (m_settings.everySteps && step - m_lastStep >= *m_settings.everySteps)
        return true;
    if (m_settings.everySecs &&
        std::chrono::duration<double>(Clock::now() - m_lastTime).count() >= static_cast<double>(*m_settings.everySecs))
        return true;
    return m_settings.afterCheckpoint && savedStep && savedStep != m_lastSaved && *savedStep == step;
}

Expected<bool> RunEvaluations::evaluate(Session& session, std::int64_t step, const std::string& prefix,
                                        TrainRunResult& result,
                                        const std::function<void(const EvalResult&)>& onEvaluation)
{
    TSTUDIO_TRY(evaluated, m_evaluation->run(session, step, prefix));
    m_lastStep = step;
    m_lastTime = Clock::now();
    m_lastSaved = step;
    result.evalSeconds += evaluated.seconds;
    logInfo("evaluation", "Saving dict for global step " + std::to_string(step) + ": " + formatEvalMetrics(evaluated) +
                              " (" + std::to_string(evaluated.batches) + " batches)");
    if (Status s = writeEvalSummary(m_logdir / "eval", evaluated); !s.isOk())
        return unexpected(s.withContext("writing the evaluation to '" + (m_logdir / "eval").string() + "'"));
    if (m_best) {
        TSTUDIO_TRY(kept, m_best->consider(evaluated, prefix));
        (void)kept;
        result.best = m_best->best();
    }
    bool stop = false;
    if (m_stopping) {
        TSTUDIO_TRY(stopNow, m_stopping->record(evaluated));
        if (stopNow) {
            result.earlyStopped = m_stopping->reason();
            logInfo("evaluation", "Early stopping: " + result.earlyStopped);
            stop = true;
        }
    }
    result.evaluations.push_back(evaluated);
    if (onEvaluation)
        onEvaluation(result.evaluations.back());
    return stop;
}

} // namespace tstudio::project
