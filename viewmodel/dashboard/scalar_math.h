// Scalar chart arithmetic without Qt: TensorBoard's smoothing and y domains, axis ticks and labels, decimation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio::dashboard {

/// The largest smoothing weight the dashboard offers (TensorBoard's slider stops at 0.999).
inline constexpr double kMaxSmoothingWeight = 0.999;

/// How many values a series has, how many are finite, and the least and greatest finite one.
struct ValueStats {
    std::size_t total = 0, finite = 0;
    double min = 0, max = 0; ///< only meaningful when finite > 0
    void merge(const ValueStats& other);
};
ValueStats valueStats(std::span<const double> values);

/// TensorBoard's scalar smoothing: an exponential moving average started at 0 and debiased by
/// 1 - weight^n, where n counts the finite values seen so far. Non-finite values are copied through
/// and do not enter the average; a series whose values all compare equal (== as in JavaScript, so
/// a NaN anywhere makes it non-constant) is returned as it is. `weight` is clamped to
/// [0, kMaxSmoothingWeight] (NaN counts as 0). `out` is resized to values.size() and may be reused.
/// `stats`, when given, receives valueStats(out), computed in the same pass.
void smoothTensorBoard(std::span<const double> values, double weight, std::vector<double>& out, ValueStats* stats = nullptr);
std::vector<double> smoothTensorBoard(std::span<const double> values, double weight);

/// d3's tick increment for `count` ticks over [start, stop] (start < stop): a positive power of ten
/// times 1, 2 or 5, or, below 1, the negative reciprocal (-5 means a step of 0.2) so that ticks are
/// computed exactly. 0 when the range is empty or not finite.
double tickIncrement(double start, double stop, int count);

/// d3's linear scale nice(): widens [lo, hi] outwards to multiples of the tick step for `count` ticks.
std::pair<double, double> niceLinearDomain(double lo, double hi, int count = 10);

/// Nice tick values inside [lo, hi] for about `count` ticks (d3's ticks()), ascending.
std::vector<double> linearTicks(double lo, double hi, int count);

/// The extent TensorBoard's y scale starts from, over the finite values of `parts` (the
/// concatenation of several runs): min..max, or with `ignoreOutliers` min..max of the values between
/// the 5% and 95% quantiles (d3.quantile: linear interpolation between order statistics), or the
/// quantiles themselves when no value lies between them. Nothing when no value is finite.
/// Exact at any size: the quantiles need four order statistics, which large inputs get from one
/// pass that counts against narrow windows found by sampling (no copy, no sort; about 2 ms for a
/// million values), falling back to a full selection where the sample misleads. `stats`, when
/// given, must be the merged valueStats of the parts; it saves a pass over them.
std::optional<std::pair<double, double>> valueExtent(std::span<const std::span<const double>> parts, bool ignoreOutliers,
                                                     const ValueStats* stats = nullptr);

/// TensorBoard's y domain for a linear axis over `values` (non-finite values skipped):
/// - the extent is min..max, or with `ignoreOutliers` min..max of the values between the 5% and
///   95% quantiles (linear interpolation between order statistics, as d3.quantile);
/// - padding is 20% of the span, or |a| * 1.1 + 1.1 when the span is 0;
/// - the lower bound is -0.1 * max when 0 <= min < span (zero shown when that at most doubles the
///   span), else min - padding; the upper bound max + padding;
/// - the result is made nice with d3's nice() for 10 ticks.
/// No finite value gives [-0.1, 1.1]. The extent is valueExtent's.
std::pair<double, double> yDomain(std::span<const double> values, bool ignoreOutliers);
/// The same over the concatenation of `parts` (several runs), without concatenating them.
/// `stats`, when given, must be the merged valueStats of the parts; it saves a pass over them.
std::pair<double, double> yDomain(std::span<const std::span<const double>> parts, bool ignoreOutliers,
                                  const ValueStats* stats = nullptr);

/// TensorBoard's y domain for a log axis: only finite positive values count; outliers are judged on
/// log10 values; the domain is padded by 20% of the log span, widened at most to the enclosing
/// powers of ten. No positive value gives [1, 10]; a constant series (empty in TensorBoard) gets
/// its decade, or the decades either side of an exact power of ten.
std::pair<double, double> yDomainLog(std::span<const double> values, bool ignoreOutliers);
/// yDomainLog given log10 of the values (NaN where a value is not finite and positive), in parts.
std::pair<double, double> yDomainLogOfLogs(std::span<const std::span<const double>> logParts, bool ignoreOutliers);

/// Whether the outlier-ignoring domains of large inputs and the decimation (decimation.h) may count
/// with AVX2 where the processor has it (the default) or must use the SSE2 code every x86-64 has:
/// for tests of both.
void allowAvx2Scan(bool allowed);
/// Whether AVX2 is allowed (allowAvx2Scan) and the processor has it.
bool avx2ScanAllowed();

/// A pixel column's vertical extent, [top, bottom] in pixel rows (top <= bottom), of a polyline.
struct ColumnSpan {
    int column = 0;
    int top = 0;
    int bottom = 0;
};

/// The pixels of each column that the polyline through `xs`, `ys` (pixel coordinates, x ascending;
/// non-finite points break nothing: they are skipped) covers, for the columns [firstColumn,
/// lastColumn]: each segment adds to every column it crosses the rows it passes within that
/// column, and every column it touches gets at least the row of the segment's height there. The
/// columns come in ascending order, those the line does not reach left out. Filling the spans draws
/// the line one pixel wide without antialiasing and without drawing any pixel twice, so a
/// translucent line of thousands of points costs one fill of at most one rectangle per column.
void polylineColumnSpans(std::span<const double> xs, std::span<const double> ys, int firstColumn, int lastColumn,
                         std::vector<ColumnSpan>& spans);

/// TensorBoard's step labels (d3.format(".4~s")): "0", "500", "1k", "2.5k", "1.235M".
std::string formatStep(double step);

/// TensorBoard's value labels (multiscaleFormatter): d3 "~e" with `digits` digits after the point
/// when |v| >= 1e4 or 0 < |v| < 0.01, otherwise d3 "~g" with `digits` significant digits; |v| below
/// 1e-15 counts as 0. Axis labels use 3 digits, tooltips 4. "NaN", "Infinity", "-Infinity" as JS.
std::string formatValue(double value, int digits);

/// Labels for axis ticks (ascending, distinct values): formatValue with the fewest digits, at least
/// `minDigits`, that keep every label distinct, so that a narrow range reads "0.98, 0.9802, 0.9804"
/// rather than "0.98" three times. At most 17 digits (enough to tell any two doubles apart); an
/// equal pair of labels can remain only for ticks that are equal as doubles.
std::vector<std::string> tickLabels(std::span<const double> ticks, int minDigits = 3);

/// Where a scalar tag's chart goes in the dashboard: 0 for losses (a name part, between '/', '_',
/// '-', '.' or ' ', that is or ends in "loss", case-insensitive: "loss", "total_loss", "losses/xent"),
/// 2 for rates ("global_step/sec", "examples/sec", "steps_per_second", "batches_per_sec": a last part
/// "sec"/"second", or a name ending in "per_sec"/"per_second"), 1 for everything else. The chart
/// users open the dashboard for comes first; throughput, which says nothing about the model, last.
int scalarTagRank(std::string_view tag);
/// Dashboard order of scalar tags (and of sections by their best tag): by scalarTagRank, then by name.
bool scalarTagLess(std::string_view a, std::string_view b);

/// TensorBoard's relative time (relativeFormatter): "1d 2h 3m 4s", leading zero units dropped.
/// `seconds` is time since the run's first sample.
std::string formatRelative(double seconds);

/// Time-friendly tick values (seconds) inside [lo, hi] for about `count` ticks: steps of 1, 2, 5,
/// 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 7 days, then nice day counts.
std::vector<double> timeTicks(double lo, double hi, int count);

} // namespace tstudio::dashboard
