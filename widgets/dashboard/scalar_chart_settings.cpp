// ScalarChart's display settings: the smoothing (TensorBoard's exponential average or a moving
// average), the min/max envelope or a run's own band, and the Pin / Enlarge buttons' state.
#include "scalar_chart.h"
#include "dashboard/scalar_chart_internal.h"

#include "dashboard/scalar_math.h"
#include "dashboard/scalar_window.h"

#include <QElapsedTimer>
#include <QSignalBlocker>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {

namespace detail {

/// The envelope's gap-free stretches (both bounds finite) in drawing order, each boundary decimated
/// to the plot's pixel columns as the curves are; stretches wholly outside [x0, x1] are left out.
std::vector<EnvelopeItem::Stretch> envelopeStretches(std::span<const double> xs, std::span<const double> hi,
                                                     std::span<const double> lo, std::pair<double, double> xRange,
                                                     int columns)
{
    std::vector<EnvelopeItem::Stretch> out;
    std::vector<std::uint32_t> idx;
    const std::size_t n = std::min({xs.size(), hi.size(), lo.size()});
    auto inside = [&](std::size_t k) { return std::isfinite(hi[k]) && std::isfinite(lo[k]); };
    std::size_t i = 0;
    while (i < n) {
        while (i < n && !inside(i))
            ++i;
        std::size_t j = i;
        while (j < n && inside(j))
            ++j;
        if (j > i && xs[j - 1] >= xRange.first && xs[i] <= xRange.second) {
            EnvelopeItem::Stretch stretch;
            auto boundary = [&](std::span<const double> y, std::vector<QPointF>& to) {
                if (j - i <= static_cast<std::size_t>(columns)) { // no denser than the pixels: every point
                    for (std::size_t k = i; k < j; ++k)
                        to.emplace_back(xs[k], y[k]);
                    return;
                }
                decimateForDrawing(xs.subspan(i, j - i), y.subspan(i, j - i), xRange.first, xRange.second, columns,
                                   idx);
                to.reserve(idx.size());
                for (std::uint32_t k : idx)
                    to.emplace_back(xs[i + k], y[i + k]);
            };
            boundary(hi, stretch.upper);
            boundary(lo, stretch.lower);
            out.push_back(std::move(stretch));
        }
        i = j;
    }
    return out;
}

} // namespace detail

void ScalarChart::resmooth(RunData& d)
{
    QElapsedTimer timer;
    timer.start();
    ++d.smoothedVersion;
    if (m_smoothingKind == SmoothingKind::MovingAverage)
        smoothMovingAverage(d.raw, static_cast<std::size_t>(m_window), d.smoothed, &d.smoothedStats);
    else
        smoothTensorBoard(d.raw, m_smoothing, d.smoothed, &d.smoothedStats);
    if (d.hasBand) {
        d.envLo = d.bandLo;
        d.envHi = d.bandHi;
    } else if (m_envelope) {
        rollingMinMax(d.raw, static_cast<std::size_t>(m_window), d.envLo, d.envHi);
    } else {
        for (std::vector<double>* v : {&d.envLo, &d.envHi, &d.sortedEnvLo, &d.sortedEnvHi, &d.logEnvLo, &d.logEnvHi})
            v->clear();
    }
    // The y domain's statistics of the two bounds, each as the part it is.
    d.envStats = valueStats(d.envLo);
    d.envStats.merge(valueStats(d.envHi));
    // Values in drawing order: x-sorted copies where the samples are not, log10 on a log axis.
    auto reorder = [&](const std::vector<double>& from, std::vector<double>& to) {
        to.resize(d.order.size());
        for (std::size_t i = 0; i < d.order.size(); ++i)
            to[i] = from[d.order[i]];
    };
    const bool band = d.showsBand(m_envelope);
    if (d.sorted) {
        reorder(d.raw, d.sortedRaw);
        reorder(d.smoothed, d.sortedSmoothed);
        if (band) {
            reorder(d.envLo, d.sortedEnvLo);
            reorder(d.envHi, d.sortedEnvHi);
        }
    }
    // Non-positive values cannot be drawn on a log axis: NaN drops them from the decimation.
    auto logOf = [](std::span<const double> from, std::vector<double>& to) {
        to.resize(from.size());
        for (std::size_t i = 0; i < from.size(); ++i)
            to[i] = from[i] > 0 ? std::log10(from[i]) : NAN;
    };
    if (m_logY) {
        logOf(d.drawY(false, false), d.logRaw);
        logOf(d.drawY(true, false), d.logSmoothed);
        if (band) {
            logOf(d.drawEnvelope(false, false), d.logEnvLo);
            logOf(d.drawEnvelope(true, false), d.logEnvHi);
        }
    } else {
        d.logRaw.clear();
        d.logSmoothed.clear();
    }
    m_pendingTimes.smooth += static_cast<double>(timer.nsecsElapsed()) / 1e6;
}


void ScalarChart::setSeriesBand(const QString& run, std::vector<double> lower, std::vector<double> upper)
{
    auto it = m_data.find(run);
    if (it == m_data.end())
        return;
    RunData& d = *it->second;
    const bool had = d.hasBand;
    d.hasBand = !lower.empty() || !upper.empty();
    lower.resize(d.raw.size(), NAN);
    upper.resize(d.raw.size(), NAN);
    d.bandLo = std::move(lower);
    d.bandHi = std::move(upper);
    if (!d.hasBand) {
        d.bandLo.clear();
        d.bandHi.clear();
    }
    resmooth(d);
    m_seriesDirty = m_seriesDirty || had != d.hasBand;
    m_domainDirty = true;
    scheduleRedraw();
}


bool ScalarChart::smoothingOn() const
{
    return m_smoothingKind == SmoothingKind::MovingAverage ? m_window > 1 : m_smoothing > 0;
}


void ScalarChart::smoothingChanged(bool wasOn, bool envelopeWas)
{
    for (auto& [run, d] : m_data)
        resmooth(*d);
    m_seriesDirty = m_seriesDirty || wasOn != smoothingOn() || envelopeWas != m_envelope;
    m_domainDirty = true;
    scheduleRedraw();
}


void ScalarChart::setSmoothing(double weight)
{
    weight = std::isfinite(weight) ? std::clamp(weight, 0.0, kMaxSmoothingWeight) : 0.0;
    if (weight == m_smoothing)
        return;
    const bool wasOn = smoothingOn();
    m_smoothing = weight;
    if (m_smoothingKind == SmoothingKind::Exponential)
        smoothingChanged(wasOn, m_envelope);
}


void ScalarChart::setSmoothingKind(SmoothingKind kind)
{
    if (kind == m_smoothingKind)
        return;
    const bool wasOn = smoothingOn();
    m_smoothingKind = kind;
    smoothingChanged(wasOn, m_envelope);
}


void ScalarChart::setSmoothingWindow(int samples)
{
    samples = std::clamp(samples, 1, static_cast<int>(kMaxSmoothingWindow));
    if (samples == m_window)
        return;
    const bool wasOn = smoothingOn();
    m_window = samples;
    if (m_smoothingKind == SmoothingKind::MovingAverage || m_envelope)
        smoothingChanged(wasOn, m_envelope);
}


void ScalarChart::setEnvelope(bool shown)
{
    if (shown == m_envelope)
        return;
    m_envelope = shown;
    smoothingChanged(smoothingOn(), !shown);
}


QList<QPointF> ScalarChart::envelopeUpper(const QString& run) const
{
    QList<QPointF> out;
    auto it = m_data.find(run);
    if (it != m_data.end() && it->second->envelope)
        for (const EnvelopeItem::Stretch& s : it->second->envelope->stretches())
            out.append(QList<QPointF>(s.upper.begin(), s.upper.end()));
    return out;
}


QList<QPointF> ScalarChart::envelopeLower(const QString& run) const
{
    QList<QPointF> out;
    auto it = m_data.find(run);
    if (it != m_data.end() && it->second->envelope)
        for (const EnvelopeItem::Stretch& s : it->second->envelope->stretches())
            out.append(QList<QPointF>(s.lower.begin(), s.lower.end()));
    return out;
}


void ScalarChart::setPinned(bool pinned)
{
    const QSignalBlocker block(m_pinButton);
    m_pinButton->setChecked(pinned);
    retranslateUi();
}


bool ScalarChart::isPinned() const
{
    return m_pinButton->isChecked();
}


void ScalarChart::setEnlarged(bool enlarged)
{
    const QSignalBlocker block(m_enlargeButton);
    m_enlargeButton->setChecked(enlarged);
    retranslateUi();
}


bool ScalarChart::isEnlarged() const
{
    return m_enlargeButton->isChecked();
}


void ScalarChart::setPinAndEnlargeShown(bool shown)
{
    m_pinButton->setVisible(shown);
    m_enlargeButton->setVisible(shown);
}

} // namespace tstudio::dashboard
