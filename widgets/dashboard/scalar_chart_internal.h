// What ScalarChart's source files share (scalar_chart*.cpp): a run's data as the chart keeps it, and
// writing a file atomically from bytes.
#pragma once

#include "dashboard/decimation.h"
#include "dashboard/dense_line_item.h"
#include "dashboard/envelope_item.h"
#include "dashboard/raw_curve_item.h"
#include "dashboard/scalar_chart.h"
#include "dashboard/scalar_math.h"
#include "io/atomic_file.h"

#include <QByteArray>
#include <QLineSeries>
#include <QString>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace tstudio::dashboard {

/// One run's samples in the columns the chart needs, its series, and the drawing order.
struct ScalarChart::RunData {
    Samples samples;
    std::vector<double> x;        ///< the current x axis, in sample order
    std::vector<double> raw;      ///< values, in sample order
    std::vector<double> smoothed; ///< smoothed values (the chart's SmoothingKind), in sample order
    std::vector<double> logRaw, logSmoothed;
    ValueStats rawStats, smoothedStats; ///< of `raw` and `smoothed`, for the y domain
    /// The band drawn around the curve, in sample order: the min/max envelope of each window while
    /// the chart shows envelopes, or the run's own bounds (setSeriesBand: a margin chart's).
    std::vector<double> envLo, envHi;
    bool hasBand = false;             ///< envLo/envHi are the run's own bounds
    std::vector<double> bandLo, bandHi; ///< those bounds as given
    std::vector<double> sortedEnvLo, sortedEnvHi, logEnvLo, logEnvHi;
    ValueStats envStats; ///< valueStats of envLo merged with envHi's
    /// Sample indices with finite x sorted by x, when the samples are not drawable as they are.
    std::vector<std::uint32_t> order;
    bool sorted = false; ///< drawing goes through `order`
    std::vector<double> sortedX, sortedRaw, sortedSmoothed; ///< only when `sorted`
    double xMin = 0, xMax = 0;
    QLineSeries* rawSeries = nullptr;
    QLineSeries* smoothSeries = nullptr;
    /// The faded raw curve when it is dense: drawn by this item, `rawSeries` then empty.
    RawCurveItem* rawCurve = nullptr;
    /// The full-colour curve when it is dense: drawn by this item, `smoothSeries` then empty.
    DenseLineItem* smoothCurve = nullptr;
    EnvelopeItem* envelope = nullptr; ///< while the envelope is shown
    /// What a series last drew. A redraw skips a series whose values, x range, width and axis are as they
    /// were: moving the smoothing slider re-decimates and replaces only the smoothed curve, not the raw one.
    struct Drawn {
        std::uint64_t values = 0, smoothed = 0;
        double x0 = 0, x1 = 0;
        int columns = 0;
        bool log = false;
        bool valid = false;
        bool operator==(const Drawn&) const = default;
    };
    std::uint64_t valuesVersion = 0;   ///< bumped when the samples or the x axis change
    std::uint64_t smoothedVersion = 0; ///< bumped when the smoothed values are recomputed
    Drawn rawDrawn, smoothDrawn, envDrawn;

    /// Whether the run's band is drawn, the chart's envelopes being on or off.
    bool showsBand(bool envelopes) const { return envelopes || hasBand; }

    std::span<const double> drawX() const { return sorted ? std::span<const double>(sortedX) : x; }
    std::span<const double> drawY(bool smooth, bool log) const
    {
        if (log)
            return smooth ? logSmoothed : logRaw;
        if (sorted)
            return smooth ? sortedSmoothed : sortedRaw;
        return smooth ? smoothed : raw;
    }
    /// The envelope's lower (`upper` false) or upper boundary in drawing order, as plotted.
    std::span<const double> drawEnvelope(bool upper, bool log) const
    {
        if (log)
            return upper ? logEnvHi : logEnvLo;
        if (sorted)
            return upper ? sortedEnvHi : sortedEnvLo;
        return upper ? envHi : envLo;
    }
};

namespace detail {

/// The envelope's gap-free stretches (both bounds finite) in drawing order, each boundary decimated
/// to the plot's pixel columns as the curves are; stretches wholly outside the x range are left out.
std::vector<EnvelopeItem::Stretch> envelopeStretches(std::span<const double> xs, std::span<const double> hi,
                                                     std::span<const double> lo, std::pair<double, double> xRange,
                                                     int columns);

/// Text made safe for the rich text of titles and tooltips.
inline QString htmlEscape(const QString& s) { return s.toHtmlEscaped(); }

/// Writes `bytes` to `path` through a temporary file renamed over it.
inline Status writeBytes(const QString& path, const QByteArray& bytes)
{
    return writeFileAtomically(path.toStdString(),
                               std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace detail

} // namespace tstudio::dashboard
