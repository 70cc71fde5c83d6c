// EarlyStopping: evaluations without improvement, counted.
#include "project/run/early_stopping.h"

#include "project/run/eval_metrics.h"

#include <cstdio>

namespace tstudio::project {

EarlyStopping::EarlyStopping(std::string metric, std::string mode, std::int64_t patience, double minDelta)
    : m_metric(std::move(metric)), m_mode(std::move(mode)), m_patience(patience), m_minDelta(minDelta)
{
}

Expected<bool> EarlyStopping::record(const EvalResult& result)
{
    auto value = result.metric(m_metric);
    if (!value)
        return unexpected(invalidArgumentError("eval.early_stopping.metric: the evaluation gave no '" + m_metric + "'"));
    if (!m_best || evalImproves(m_mode, *value, *m_best, m_minDelta)) {
        m_best = *value;
        m_bestStep = result.step;
        m_without = 0;
        return false;
    }
    ++m_without;
    return m_without >= m_patience;
}

std::string EarlyStopping::reason() const
{
    char best[64];
    std::snprintf(best, sizeof best, "%.4g", m_best.value_or(0));
    return m_metric + " has not improved on " + best + " (step " + std::to_string(m_bestStep) + ") for " +
           std::to_string(m_without) + " evaluation" + (m_without == 1 ? "" : "s");
}

} // namespace tstudio::project
