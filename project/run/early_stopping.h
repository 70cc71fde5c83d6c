// Early stopping on an eval metric (eval.early_stopping), as tf.estimator.experimental's
// stop_if_no_increase_hook / stop_if_no_decrease_hook, counted in evaluations.
#pragma once

#include "project/run/evaluation.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tstudio::project {

class EarlyStopping {
public:
    /// Stops after `patience` evaluations in a row without `metric` improving by more than `minDelta`
    /// in direction `mode` ("max" or "min").
    EarlyStopping(std::string metric, std::string mode, std::int64_t patience, double minDelta);

    /// Records an evaluation; true when training should stop now. InvalidArgument when the result
    /// lacks the metric.
    Expected<bool> record(const EvalResult& result);

    /// "accuracy has not improved on 0.9812 (step 1200) for 5 evaluations", once record() said stop.
    std::string reason() const;

private:
    std::string m_metric;
    std::string m_mode;
    std::int64_t m_patience;
    double m_minDelta;
    std::optional<double> m_best;
    std::int64_t m_bestStep = 0;
    std::int64_t m_without = 0;
};

} // namespace tstudio::project
