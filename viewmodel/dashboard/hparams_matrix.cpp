// The hparams sessions as a matrix of columns with axis scales.
#include "dashboard/hparams_matrix.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace tstudio::dashboard {
namespace {

std::string metricKey(const events::MetricDefinition& m)
{
    return m.group + "\n" + m.tag;
}

std::string metricTitle(const events::MetricDefinition& m)
{
    if (!m.displayName.empty())
        return m.displayName;
    return m.group.empty() ? m.tag : m.group + "/" + m.tag;
}

/// Sets a column's kind and scale from the values its rows hold.
void describe(HParamsColumn& column, std::size_t index, const std::vector<HParamsRow>& rows,
              const std::vector<events::HParamValue>& domain)
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    std::set<std::string> texts;
    for (const HParamsRow& row : rows) {
        const events::HParamValue& v = row.values[index];
        if (std::holds_alternative<std::monostate>(v))
            continue;
        if (const double* d = std::get_if<double>(&v)) {
            if (std::isfinite(*d)) {
                lo = std::min(lo, *d);
                hi = std::max(hi, *d);
            }
        } else {
            column.numeric = false;
        }
        texts.insert(events::hparamText(v));
    }
    if (column.numeric) {
        if (lo <= hi) {
            column.min = lo;
            column.max = hi;
            column.positive = lo > 0;
        }
        return;
    }
    std::set<std::string> placed;
    for (const events::HParamValue& v : domain) {
        std::string text = events::hparamText(v);
        if (placed.insert(text).second)
            column.categories.push_back(std::move(text));
    }
    for (const std::string& text : texts)
        if (placed.insert(text).second)
            column.categories.push_back(text);
}

} // namespace

std::vector<std::size_t> HParamsMatrix::hparamColumns() const
{
    std::vector<std::size_t> out;
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].kind == HParamsColumn::Kind::HParam)
            out.push_back(c);
    return out;
}

std::vector<std::size_t> HParamsMatrix::metricColumns() const
{
    std::vector<std::size_t> out;
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].kind == HParamsColumn::Kind::Metric)
            out.push_back(c);
    return out;
}

std::optional<double> HParamsMatrix::position(std::size_t row, std::size_t column, AxisScale scale) const
{
    if (row >= rows.size() || column >= columns.size())
        return std::nullopt;
    const HParamsColumn& c = columns[column];
    const events::HParamValue& v = rows[row].values[column];
    if (std::holds_alternative<std::monostate>(v))
        return std::nullopt;
    if (c.numeric) {
        const double d = std::get<double>(v);
        if (!std::isfinite(d))
            return std::nullopt;
        if (c.max <= c.min)
            return 0.5;
        if (scale == AxisScale::Log && c.positive)
            return (std::log(d) - std::log(c.min)) / (std::log(c.max) - std::log(c.min));
        return (d - c.min) / (c.max - c.min);
    }
    const std::string text = events::hparamText(v);
    const auto it = std::find(c.categories.begin(), c.categories.end(), text);
    if (it == c.categories.end())
        return std::nullopt;
    if (c.categories.size() == 1)
        return 0.5;
    return static_cast<double>(it - c.categories.begin()) / static_cast<double>(c.categories.size() - 1);
}

double HParamsMatrix::valueAt(std::size_t column, double position, AxisScale scale) const
{
    const HParamsColumn& c = columns.at(column);
    if (scale == AxisScale::Log && c.positive && c.max > c.min)
        return std::exp(std::log(c.min) + position * (std::log(c.max) - std::log(c.min)));
    return c.min + position * (c.max - c.min);
}

HParamsMatrix buildHParamsMatrix(const std::vector<std::pair<std::string, events::HParamsExperiment>>& experiments)
{
    HParamsMatrix matrix;
    std::map<std::string, std::size_t> hparamIndex, metricIndex;
    std::map<std::string, std::vector<events::HParamValue>> domains;
    for (const auto& [label, experiment] : experiments)
        for (const events::HParamDefinition& h : experiment.hparams)
            if (hparamIndex.emplace(h.name, matrix.columns.size()).second) {
                HParamsColumn column;
                column.key = h.name;
                column.title = h.displayName.empty() ? h.name : h.displayName;
                matrix.columns.push_back(std::move(column));
                domains[h.name] = h.domain;
            }
    for (const auto& [label, experiment] : experiments)
        for (const events::MetricDefinition& m : experiment.metrics)
            if (metricIndex.emplace(metricKey(m), matrix.columns.size()).second) {
                HParamsColumn column;
                column.kind = HParamsColumn::Kind::Metric;
                column.key = metricKey(m);
                column.title = metricTitle(m);
                matrix.columns.push_back(std::move(column));
            }
    const bool prefix = experiments.size() > 1;
    for (const auto& [label, experiment] : experiments)
        for (const events::HParamsSession& s : experiment.sessions) {
            HParamsRow row;
            row.run = prefix ? label + "/" + s.run : s.run;
            row.status = s.status;
            row.values.resize(matrix.columns.size());
            for (const auto& [name, value] : s.hparams)
                if (auto it = hparamIndex.find(name); it != hparamIndex.end())
                    row.values[it->second] = value;
            for (const auto& [index, reading] : s.metrics)
                if (index < experiment.metrics.size())
                    if (auto it = metricIndex.find(metricKey(experiment.metrics[index])); it != metricIndex.end())
                        row.values[it->second] = reading.value;
            matrix.rows.push_back(std::move(row));
        }
    for (std::size_t c = 0; c < matrix.columns.size(); ++c) {
        const auto domain = domains.find(matrix.columns[c].key);
        describe(matrix.columns[c], c, matrix.rows,
                 matrix.columns[c].kind == HParamsColumn::Kind::HParam && domain != domains.end()
                     ? domain->second
                     : std::vector<events::HParamValue>{});
    }
    return matrix;
}

bool insideBrushes(const HParamsMatrix& matrix, std::size_t row, const std::vector<AxisBrush>& brushes)
{
    for (const AxisBrush& b : brushes) {
        const std::optional<double> p = matrix.position(row, b.column, b.scale);
        if (!p || *p < std::min(b.low, b.high) - 1e-12 || *p > std::max(b.low, b.high) + 1e-12)
            return false;
    }
    return true;
}

} // namespace tstudio::dashboard
