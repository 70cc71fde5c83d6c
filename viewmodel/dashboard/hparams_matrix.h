// The sessions of one or more hparams experiments as one matrix without Qt: a column per hparam and
// metric, each with the scale its axis uses in the parallel-coordinates and scatter-plot views.
#pragma once

#include "io/events/hparams.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::dashboard {

struct HParamsColumn {
    enum class Kind { HParam, Metric };
    Kind kind = Kind::HParam;
    /// The hparam's name, or the metric's "<group>\n<tag>" (unique among the matrix's columns).
    std::string key;
    /// Display name, else the name (hparams) or "group/tag" (metrics).
    std::string title;
    /// Every value the sessions hold is a number (an empty column is numeric too).
    bool numeric = true;
    /// Numeric: the least and greatest finite value (both 0 when none).
    double min = 0;
    double max = 0;
    /// Numeric: every finite value is > 0, so a logarithmic axis is possible.
    bool positive = false;
    /// Categorical (strings, bools, or numbers mixed with them): the values' texts (hparamText) in
    /// axis order: the experiment's discrete domain where it gives one, then the values the domain
    /// lacks, as text sorts.
    std::vector<std::string> categories;
};

struct HParamsRow {
    /// The session's run as the table shows it ("<logdir>/<run>" when there are several log
    /// directories) and its status ("success", "failure", "running" or "unknown").
    std::string run;
    std::string status;
    /// Per column: the value (monostate where the session has none).
    std::vector<events::HParamValue> values;
};

/// An axis's scale: where a value lies along it, 0 (bottom/left) to 1.
enum class AxisScale { Linear, Log };

class HParamsMatrix {
public:
    std::vector<HParamsColumn> columns;
    std::vector<HParamsRow> rows;

    /// Column indices of the hparams and of the metrics, in column order.
    std::vector<std::size_t> hparamColumns() const;
    std::vector<std::size_t> metricColumns() const;

    /// Where rows[row].values[column] lies on the column's axis in [0, 1], or nullopt where the
    /// session has no value (or a non-finite one). Numeric: linear between min and max, or by the
    /// logarithm with AxisScale::Log where the column is positive (linear otherwise); 0.5 where
    /// min == max. Categorical: index / (categories - 1), 0.5 for a single category.
    std::optional<double> position(std::size_t row, std::size_t column, AxisScale scale = AxisScale::Linear) const;

    /// The value at `position` in [0, 1] on a numeric column's axis (the inverse of position()),
    /// for axis ticks and brush labels.
    double valueAt(std::size_t column, double position, AxisScale scale = AxisScale::Linear) const;
};

/// Builds the matrix of `experiments` (a label, the log directory's name, with each): columns are the
/// union of every experiment's hparams and then of its metrics, by name, in first-seen order; rows
/// are every session, labelled "<label>/<run>" when there is more than one experiment.
HParamsMatrix buildHParamsMatrix(const std::vector<std::pair<std::string, events::HParamsExperiment>>& experiments);

/// A brush on one axis: the sessions whose position on `column` lies in [low, high] (positions, as
/// position() gives them, with the same scale).
struct AxisBrush {
    std::size_t column = 0;
    double low = 0;
    double high = 1;
    AxisScale scale = AxisScale::Linear;
};

/// Whether row `row` lies inside every brush (a session without a value on a brushed axis does not).
bool insideBrushes(const HParamsMatrix& matrix, std::size_t row, const std::vector<AxisBrush>& brushes);

} // namespace tstudio::dashboard
