// Scalar chart arithmetic: TensorBoard's smoothing, y domains and label formats, d3's ticks, decimation.
#include "scalar_math.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TSTUDIO_SCAN_AVX2 1
#endif

namespace tstudio::dashboard {

namespace {

bool finite(double v) { return std::isfinite(v); }

/// The extent TensorBoard's scale takes from finite values: min..max, or without outliers min..max
/// of the values inside the [5%, 95%] quantiles. Only four order statistics decide the quantiles;
/// given them (ascending ranks l0, l0 + 1, h0, h0 + 1 of n values), the extent follows without
/// looking at the other values except in rounding corner cases, which `scan` settles exactly.
struct QuantileRanks {
    std::size_t n = 0, l0 = 0, h0 = 0;
    double posLo = 0, posHi = 0;
    explicit QuantileRanks(std::size_t count) : n(count)
    {
        posLo = static_cast<double>(n - 1) * 0.05;
        posHi = static_cast<double>(n - 1) * 0.95;
        l0 = static_cast<std::size_t>(std::floor(posLo));
        h0 = static_cast<std::size_t>(std::floor(posHi));
    }
};

/// lo/hi of the values within [qa, qb] (d3.quantile interpolation of the order statistics), or the
/// quantiles themselves when rounding left no value inside. `scan(qa, qb, lo, hi)` computes the
/// answer by visiting every value; it is called only where the order statistics cannot tell.
template <typename Scan>
void extentFromOrderStatistics(const QuantileRanks& r, double l0v, double l1v, double h0v, double h1v, double& lo, double& hi,
                               const Scan& scan)
{
    const double qa = l0v + (l1v - l0v) * (r.posLo - static_cast<double>(r.l0));
    const double qb = h0v + (h1v - h0v) * (r.posHi - static_cast<double>(r.h0));
    // The smallest value >= qa is l0v when qa == l0v, l1v when l0v < qa <= l1v; the largest value
    // <= qb is h1v when qb == h1v, h0v when h0v <= qb < h1v. Anything else (qa above l1v or qb
    // above h1v after rounding, or non-finite interpolation) is settled by a scan.
    const bool loKnown = qa == l0v || (qa > l0v && qa <= l1v);
    const bool hiKnown = qb == h1v || (qb >= h0v && qb < h1v);
    if (loKnown && hiKnown) {
        lo = qa == l0v ? l0v : l1v;
        hi = qb == h1v ? h1v : h0v;
        if (lo > hi) // no value inside [qa, qb]
            lo = qa, hi = qb;
        return;
    }
    scan(qa, qb, lo, hi);
}

/// Order statistics k and k + 1 (k + 1 < size) of `v`, which is reordered.
std::pair<double, double> selectPair(std::vector<double>& v, std::size_t k)
{
    const auto at = v.begin() + static_cast<std::ptrdiff_t>(k);
    std::nth_element(v.begin(), at, v.end());
    const double a = *at;
    const double b = k + 1 < v.size() ? *std::min_element(at + 1, v.end()) : a;
    return {a, b};
}

/// The outlier-ignoring extent of `values` (all finite, at least two), reordering them.
void extentBySelection(std::vector<double>& values, double& lo, double& hi)
{
    const QuantileRanks r(values.size());
    const auto [l0v, l1v] = selectPair(values, r.l0);
    // Everything from l0 on is >= l0v after the first selection, so the second one starts there.
    const auto from = values.begin() + static_cast<std::ptrdiff_t>(r.l0);
    const auto at = values.begin() + static_cast<std::ptrdiff_t>(r.h0);
    std::nth_element(from, at, values.end());
    const double h0v = *at;
    const double h1v = r.h0 + 1 < r.n ? *std::min_element(at + 1, values.end()) : h0v;
    extentFromOrderStatistics(r, l0v, l1v, h0v, h1v, lo, hi, [&](double qa, double qb, double& a, double& b) {
        a = std::numeric_limits<double>::infinity();
        b = -a;
        for (double v : values)
            if (v >= qa && v <= qb) {
                a = std::min(a, v);
                b = std::max(b, v);
            }
        if (a > b)
            a = qa, b = qb;
    });
}

using Parts = std::span<const std::span<const double>>;

/// One window of values around two neighbouring ranks: how many values lie below `a`, equal `a`,
/// strictly between `a` and `b` (copied), and equal `b`.
struct Window {
    double a = 0, b = 0;
    std::size_t below = 0, equalA = 0, equalB = 0;
    double* inside = nullptr; // the values strictly between a and b, then scratch space
    std::size_t count = 0;             // values kept in `inside`

    /// Order statistics k and k + 1 of all values, if the window holds them.
    bool pair(std::size_t k, std::size_t n, double& first, double& second)
    {
        // Where the last selection inside the window put its element: everything after it is not
        // smaller, so the next rank is the least of those, without a second selection.
        std::size_t selected = count;
        auto value = [&](std::size_t rank, double& out) {
            if (rank < below)
                return false;
            rank -= below;
            if (rank < equalA) {
                out = a;
                return true;
            }
            rank -= equalA;
            if (rank < count) {
                double* at = inside + rank;
                if (selected < count && rank == selected + 1) {
                    out = *std::min_element(at, inside + count);
                } else {
                    std::nth_element(inside, at, inside + count);
                    out = *at;
                }
                selected = rank;
                return true;
            }
            rank -= count;
            if (rank < equalB) {
                out = b;
                return true;
            }
            return false;
        };
        if (!value(k, first))
            return false;
        if (k + 1 >= n) {
            second = first;
            return true;
        }
        return value(k + 1, second);
    }
};

/// The end of a scan: the values [i, len) of `p` one by one, then the counts into `win`.
void finishScan(const double* p, std::size_t i, std::size_t len, Window& win, std::size_t below, std::size_t equalA,
                std::size_t equalB, std::size_t count)
{
    const double a = win.a, b = win.b;
    double* out = win.inside;
    for (; i < len; ++i) {
        const double v = p[i];
        below += v < a;
        equalA += v == a;
        equalB += v == b;
        out[count] = v;
        count += (v > a) & (v < b);
    }
    win.below += below;
    win.equalA += equalA;
    win.equalB += a == b ? 0 : equalB;
    win.count = count;
}

/// Counts `len` values into `win` and appends those strictly inside it to win.inside, which must
/// have room for `len` more. Branch-free: every value is stored, the cursor moves only for those
/// inside; two values at a time with SSE2.
void scanWindow(const double* p, std::size_t len, Window& win)
{
    const double a = win.a, b = win.b;
    std::size_t below = 0, equalA = 0, equalB = 0, count = win.count, i = 0;
    double* out = win.inside;
#if defined(__SSE2__)
    const __m128d va = _mm_set1_pd(a), vb = _mm_set1_pd(b);
    __m128i cBelow = _mm_setzero_si128(), cEqualA = _mm_setzero_si128(), cEqualB = _mm_setzero_si128();
    for (; i + 2 <= len; i += 2) {
        const __m128d v = _mm_loadu_pd(p + i);
        // A true comparison is all ones, -1 as an integer: subtracting it counts.
        cBelow = _mm_sub_epi64(cBelow, _mm_castpd_si128(_mm_cmplt_pd(v, va)));
        cEqualA = _mm_sub_epi64(cEqualA, _mm_castpd_si128(_mm_cmpeq_pd(v, va)));
        cEqualB = _mm_sub_epi64(cEqualB, _mm_castpd_si128(_mm_cmpeq_pd(v, vb)));
        const int inside = _mm_movemask_pd(_mm_and_pd(_mm_cmpgt_pd(v, va), _mm_cmplt_pd(v, vb)));
        out[count] = p[i];
        count += static_cast<std::size_t>(inside & 1);
        out[count] = p[i + 1];
        count += static_cast<std::size_t>(inside >> 1);
    }
    alignas(16) std::int64_t lanes[2];
    for (const auto& [vec, sum] : {std::pair{cBelow, &below}, std::pair{cEqualA, &equalA}, std::pair{cEqualB, &equalB}}) {
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), vec);
        *sum += static_cast<std::size_t>(lanes[0] + lanes[1]);
    }
#endif
    finishScan(p, i, len, win, below, equalA, equalB, count);
}

std::atomic<bool> g_avx2Allowed{true};

#if defined(TSTUDIO_SCAN_AVX2)
/// scanWindow four values at a time, for processors with AVX2 (chosen at run time): most values lie
/// outside the window, so the copying is skipped for groups with none inside.
__attribute__((target("avx2"))) void scanWindowAvx2(const double* p, std::size_t len, Window& win)
{
    const double a = win.a, b = win.b;
    std::size_t below = 0, equalA = 0, equalB = 0, count = win.count, i = 0;
    double* out = win.inside;
    const __m256d va = _mm256_set1_pd(a), vb = _mm256_set1_pd(b);
    __m256i cBelow = _mm256_setzero_si256(), cEqualA = _mm256_setzero_si256(), cEqualB = _mm256_setzero_si256();
    for (; i + 4 <= len; i += 4) {
        const __m256d v = _mm256_loadu_pd(p + i);
        cBelow = _mm256_sub_epi64(cBelow, _mm256_castpd_si256(_mm256_cmp_pd(v, va, _CMP_LT_OQ)));
        cEqualA = _mm256_sub_epi64(cEqualA, _mm256_castpd_si256(_mm256_cmp_pd(v, va, _CMP_EQ_OQ)));
        cEqualB = _mm256_sub_epi64(cEqualB, _mm256_castpd_si256(_mm256_cmp_pd(v, vb, _CMP_EQ_OQ)));
        const int inside = _mm256_movemask_pd(
            _mm256_and_pd(_mm256_cmp_pd(v, va, _CMP_GT_OQ), _mm256_cmp_pd(v, vb, _CMP_LT_OQ)));
        if (inside) {
            for (int lane = 0; lane < 4; ++lane) {
                out[count] = p[i + static_cast<std::size_t>(lane)];
                count += static_cast<std::size_t>((inside >> lane) & 1);
            }
        }
    }
    alignas(32) std::int64_t lanes[4];
    for (const auto& [vec, sum] : {std::pair{cBelow, &below}, std::pair{cEqualA, &equalA}, std::pair{cEqualB, &equalB}}) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), vec);
        *sum += static_cast<std::size_t>(lanes[0] + lanes[1] + lanes[2] + lanes[3]);
    }
    finishScan(p, i, len, win, below, equalA, equalB, count);
}
#endif

/// The outlier-ignoring extent of the `n` values of `parts` (all finite, n large), without copying
/// them: a deterministic sample brackets each pair of order statistics with a narrow window, one
/// pass counts the values below and copies the few inside, and a selection inside the window
/// finishes the job. False when the sample's guess missed (then the caller selects in full).
bool extentBySampling(Parts parts, std::size_t n, double& lo, double& hi)
{
    const QuantileRanks r(n);
    constexpr std::size_t kSample = 4096, kMargin = 64;
    std::vector<double> sample;
    sample.reserve(kSample);
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (std::size_t i = 0; i < kSample; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::size_t at = static_cast<std::size_t>((state >> 11) % n);
        for (std::span<const double> p : parts) {
            if (at < p.size()) {
                sample.push_back(p[at]);
                break;
            }
            at -= p.size();
        }
    }
    std::sort(sample.begin(), sample.end());
    auto bracket = [&](std::size_t rank, double& a, double& b) {
        const double s = static_cast<double>(rank) / static_cast<double>(n - 1) * static_cast<double>(kSample - 1);
        const auto centre = static_cast<std::size_t>(s);
        a = sample[centre > kMargin ? centre - kMargin : 0];
        b = sample[std::min(kSample - 1, centre + kMargin + 1)];
    };
    std::array<Window, 2> windows;
    bracket(r.l0, windows[0].a, windows[0].b);
    bracket(r.h0, windows[1].a, windows[1].b);
    const std::size_t used = windows[0].b >= windows[1].a ? 1 : 2;
    if (used == 1)
        windows[0].b = windows[1].b;
    // Room for three times the expected share of the values; more means the sample misled us.
    constexpr std::size_t kBlock = 1024;
    const std::size_t capacity = std::max<std::size_t>(3 * n * (2 * kMargin + 2) / kSample * (3 - used), 4 * kBlock);
    // The buffers are kept between calls (per thread): fresh megabytes would cost page faults.
    thread_local std::array<std::vector<double>, 2> buffers;
    for (std::size_t w = 0; w < used; ++w) {
        if (buffers[w].size() < capacity + kBlock)
            buffers[w].resize(capacity + kBlock);
        windows[w].inside = buffers[w].data();
    }
    auto scan = scanWindow;
#if defined(TSTUDIO_SCAN_AVX2)
    if (avx2ScanAllowed())
        scan = scanWindowAvx2;
#endif
    for (std::span<const double> p : parts) {
        for (std::size_t start = 0; start < p.size(); start += kBlock) {
            const std::size_t stop = std::min(p.size(), start + kBlock);
            for (std::size_t w = 0; w < used; ++w) {
                scan(p.data() + start, stop - start, windows[w]);
                if (windows[w].count > capacity)
                    return false;
            }
        }
    }
    double l0v = 0, l1v = 0, h0v = 0, h1v = 0;
    if (!windows[0].pair(r.l0, n, l0v, l1v) || !windows[used - 1].pair(r.h0, n, h0v, h1v))
        return false;
    extentFromOrderStatistics(r, l0v, l1v, h0v, h1v, lo, hi, [&](double qa, double qb, double& a, double& b) {
        a = std::numeric_limits<double>::infinity();
        b = -a;
        for (std::span<const double> p : parts)
            for (double v : p)
                if (v >= qa && v <= qb) {
                    a = std::min(a, v);
                    b = std::max(b, v);
                }
        if (a > b)
            a = qa, b = qb;
    });
    return true;
}

/// The extent of the finite values of `parts`, as TensorBoard's scale takes it; false when there
/// is no finite value.
bool extentOf(Parts parts, bool ignoreOutliers, double& lo, double& hi, const ValueStats* known)
{
    ValueStats stats;
    if (known) {
        stats = *known;
    } else {
        for (std::span<const double> p : parts)
            stats.merge(valueStats(p));
    }
    const std::size_t n = stats.finite, total = stats.total;
    if (n == 0)
        return false;
    lo = stats.min;
    hi = stats.max;
    if (!ignoreOutliers || n == 1)
        return true;
    // Large all-finite inputs: select in narrow windows found by sampling, without a copy.
    constexpr std::size_t kSamplingFrom = 1u << 15;
    if (n == total && n >= kSamplingFrom && extentBySampling(parts, n, lo, hi))
        return true;
    std::vector<double> values;
    values.reserve(n);
    for (std::span<const double> p : parts)
        for (double v : p)
            if (finite(v))
                values.push_back(v);
    extentBySelection(values, lo, hi);
    return true;
}

/// `sig` significant decimal digits of |v| > 0, rounded half away from zero on the exact binary
/// value as JavaScript's toPrecision/toExponential, and the decimal exponent of the first digit.
struct Digits {
    std::string digits;
    int exponent = 0;
};

Digits roundedDigits(double v, int sig)
{
    constexpr int kExtra = 25;
    std::array<char, 128> buf{};
    std::snprintf(buf.data(), buf.size(), "%.*e", sig - 1 + kExtra, std::fabs(v));
    std::string all;
    const char* p = buf.data();
    for (; *p && *p != 'e'; ++p)
        if (*p >= '0' && *p <= '9')
            all.push_back(*p);
    int exponent = *p == 'e' ? std::atoi(p + 1) : 0;
    Digits d{all.substr(0, static_cast<std::size_t>(sig)), exponent};
    // Round half up: JavaScript picks the larger candidate on an exact tie.
    if (all[static_cast<std::size_t>(sig)] >= '5') {
        int i = sig - 1;
        while (i >= 0 && d.digits[static_cast<std::size_t>(i)] == '9')
            d.digits[static_cast<std::size_t>(i--)] = '0';
        if (i >= 0) {
            ++d.digits[static_cast<std::size_t>(i)];
        } else {
            d.digits.insert(d.digits.begin(), '1');
            d.digits.pop_back();
            ++d.exponent;
        }
    }
    return d;
}

/// Removes zeros after the decimal point (and the point itself) before any exponent, as d3's "~".
std::string trimZeros(const std::string& s)
{
    const std::size_t dot = s.find('.');
    if (dot == std::string::npos)
        return s;
    const std::size_t e = s.find('e');
    const std::size_t end = e == std::string::npos ? s.size() : e;
    std::size_t last = end;
    while (last > dot + 1 && s[last - 1] == '0')
        --last;
    if (last == dot + 1)
        last = dot;
    return s.substr(0, last) + s.substr(end);
}

std::string exponentSuffix(int e) { return std::string("e") + (e < 0 ? "-" : "+") + std::to_string(std::abs(e)); }

/// JavaScript's Number.prototype.toExponential(frac) for finite v.
std::string toExponential(double v, int frac)
{
    if (v == 0)
        return (frac > 0 ? "0." + std::string(static_cast<std::size_t>(frac), '0') : "0") + "e+0";
    const Digits d = roundedDigits(v, frac + 1);
    std::string s = (v < 0 ? "-" : "") + d.digits.substr(0, 1);
    if (frac > 0)
        s += "." + d.digits.substr(1);
    return s + exponentSuffix(d.exponent);
}

/// JavaScript's Number.prototype.toPrecision(p) for finite v.
std::string toPrecision(double v, int p)
{
    if (v == 0)
        return p > 1 ? "0." + std::string(static_cast<std::size_t>(p - 1), '0') : "0";
    const Digits d = roundedDigits(v, p);
    const std::string sign = v < 0 ? "-" : "";
    const int e = d.exponent;
    if (e < -6 || e >= p)
        return sign + d.digits.substr(0, 1) + (p > 1 ? "." + d.digits.substr(1) : "") + exponentSuffix(e);
    if (e >= 0) {
        const auto intLen = static_cast<std::size_t>(e + 1);
        return sign + d.digits.substr(0, intLen) + (intLen < d.digits.size() ? "." + d.digits.substr(intLen) : "");
    }
    return sign + "0." + std::string(static_cast<std::size_t>(-e - 1), '0') + d.digits;
}

std::string jsSpecial(double v) { return std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity"; }

} // namespace

void ValueStats::merge(const ValueStats& other)
{
    if (other.finite > 0) {
        min = finite > 0 ? std::min(min, other.min) : other.min;
        max = finite > 0 ? std::max(max, other.max) : other.max;
    }
    total += other.total;
    finite += other.finite;
}

namespace {

/// Accumulates ValueStats one value at a time, without branches on the data.
struct StatsAccumulator {
    std::size_t finite = 0;
    double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();
    void add(double v)
    {
        const bool ok = std::isfinite(v);
        finite += ok;
        min = ok && v < min ? v : min;
        max = ok && v > max ? v : max;
    }
    ValueStats result(std::size_t total) const
    {
        ValueStats s;
        s.total = total;
        s.finite = finite;
        if (finite > 0)
            s.min = min, s.max = max;
        return s;
    }
};

} // namespace

ValueStats valueStats(std::span<const double> values)
{
    StatsAccumulator acc;
    for (double v : values)
        acc.add(v);
    return acc.result(values.size());
}

void smoothTensorBoard(std::span<const double> values, double weight, std::vector<double>& out, ValueStats* stats)
{
    out.resize(values.size());
    if (!(weight > 0))
        weight = 0;
    weight = std::min(weight, kMaxSmoothingWeight);
    const bool constant = std::all_of(values.begin(), values.end(), [&](double v) { return v == values[0]; });
    // Once weight^n is at most 2^-54, 1 - weight^n rounds to exactly 1 and stays there: stop calling pow.
    constexpr double kNegligible = 0x1p-54;
    double last = 0;
    std::int64_t accumulated = 0;
    bool debiasDone = weight == 0;
    // The statistics ride along: the average's dependency chain leaves the CPU idle enough.
    StatsAccumulator acc;
    std::size_t i = 0;
    for (; i < values.size() && !debiasDone; ++i) {
        const double v = values[i];
        if (constant || !finite(v)) {
            out[i] = v;
            acc.add(v);
            continue;
        }
        last = last * weight + (1 - weight) * v;
        ++accumulated;
        const double power = std::pow(weight, static_cast<double>(accumulated));
        debiasDone = power <= kNegligible;
        out[i] = last / (1 - power);
        acc.add(out[i]);
    }
    // Debiased: the divisor is exactly 1 from here on (the same values without the divisions, whose
    // throughput nearly matched the average's dependency chain).
    if (!constant)
        for (; i < values.size(); ++i) {
            const double v = values[i];
            if (finite(v))
                last = last * weight + (1 - weight) * v;
            out[i] = finite(v) ? last : v;
            acc.add(out[i]);
        }
    for (; i < values.size(); ++i) {
        out[i] = values[i];
        acc.add(values[i]);
    }
    if (stats)
        *stats = acc.result(values.size());
}

std::vector<double> smoothTensorBoard(std::span<const double> values, double weight)
{
    std::vector<double> out;
    smoothTensorBoard(values, weight, out);
    return out;
}

double tickIncrement(double start, double stop, int count)
{
    static const double e10 = std::sqrt(50.0), e5 = std::sqrt(10.0), e2 = std::sqrt(2.0);
    if (count <= 0 || !finite(start) || !finite(stop) || !(stop > start))
        return 0;
    const double step = (stop - start) / count;
    const double power = std::floor(std::log(step) / std::log(10.0));
    const double error = step / std::pow(10.0, power);
    const double factor = error >= e10 ? 10 : error >= e5 ? 5 : error >= e2 ? 2 : 1;
    return power >= 0 ? factor * std::pow(10.0, power) : -std::pow(10.0, -power) / factor;
}

std::pair<double, double> niceLinearDomain(double lo, double hi, int count)
{
    // d3-scale's nice(): snap to the step, then snap again with the step of the snapped range.
    auto snap = [](double& a, double& b, double step) {
        if (step > 0) {
            a = std::floor(a / step) * step;
            b = std::ceil(b / step) * step;
        } else if (step < 0) {
            a = std::ceil(a * step) / step;
            b = std::floor(b * step) / step;
        }
    };
    double a = std::min(lo, hi), b = std::max(lo, hi);
    double step = tickIncrement(a, b, count);
    snap(a, b, step);
    step = tickIncrement(a, b, count);
    snap(a, b, step);
    return {a, b};
}

std::vector<double> linearTicks(double lo, double hi, int count)
{
    std::vector<double> ticks;
    if (lo == hi && finite(lo))
        return {lo};
    const double step = tickIncrement(std::min(lo, hi), std::max(lo, hi), count);
    if (step == 0 || !finite(step))
        return ticks;
    const double a = std::min(lo, hi), b = std::max(lo, hi);
    if (step > 0) {
        const double first = std::ceil(a / step), last = std::floor(b / step);
        for (double k = first; k <= last; ++k)
            ticks.push_back(k * step);
    } else {
        const double inv = -step;
        const double first = std::ceil(a * inv), last = std::floor(b * inv);
        for (double k = first; k <= last; ++k)
            ticks.push_back(k / inv);
    }
    return ticks;
}

std::optional<std::pair<double, double>> valueExtent(std::span<const std::span<const double>> parts, bool ignoreOutliers,
                                                     const ValueStats* stats)
{
    double a = 0, b = 0;
    if (!extentOf(parts, ignoreOutliers, a, b, stats))
        return std::nullopt;
    return std::make_pair(a, b);
}

std::pair<double, double> yDomain(std::span<const std::span<const double>> parts, bool ignoreOutliers, const ValueStats* stats)
{
    double a = 0, b = 0;
    if (!extentOf(parts, ignoreOutliers, a, b, stats))
        return {-0.1, 1.1};
    const double span = b - a;
    const double padding = span == 0 ? std::fabs(a) * 1.1 + 1.1 : span * 0.2;
    const double lower = (a >= 0 && a < span) ? -0.1 * b : a - padding;
    return niceLinearDomain(lower, b + padding, 10);
}

std::pair<double, double> yDomain(std::span<const double> values, bool ignoreOutliers)
{
    const std::span<const double> one[] = {values};
    return yDomain(one, ignoreOutliers);
}

std::pair<double, double> yDomainLogOfLogs(std::span<const std::span<const double>> logParts, bool ignoreOutliers)
{
    double la = 0, lb = 0;
    if (!extentOf(logParts, ignoreOutliers, la, lb, nullptr))
        return {1, 10};
    const double minLog = std::log10(std::numeric_limits<double>::denorm_min());
    la = std::max(minLog, la);
    const double pad = (lb - la) * 0.2;
    double lo = std::max({minLog, la - pad, std::floor(la)});
    double hi = std::min(lb + pad, std::ceil(lb));
    if (lo >= hi) {
        // A constant series, where TensorBoard's domain is empty: show its decade (or the two
        // decades around an exact power of ten).
        lo = std::floor(la) - (std::floor(la) == la ? 1 : 0);
        hi = std::ceil(lb) + (std::ceil(lb) == lb ? 1 : 0);
    }
    return {std::pow(10.0, lo), std::pow(10.0, hi)};
}

std::pair<double, double> yDomainLog(std::span<const double> values, bool ignoreOutliers)
{
    std::vector<double> logs;
    logs.reserve(values.size());
    for (double v : values)
        logs.push_back(finite(v) && v > 0 ? std::log10(v) : NAN);
    const std::span<const double> one[] = {logs};
    return yDomainLogOfLogs(one, ignoreOutliers);
}

void polylineColumnSpans(std::span<const double> xs, std::span<const double> ys, int firstColumn, int lastColumn,
                         std::vector<ColumnSpan>& spans)
{
    spans.clear();
    if (lastColumn < firstColumn)
        return;
    const std::size_t columns = static_cast<std::size_t>(lastColumn - firstColumn) + 1;
    // Per column the lowest and highest y reached (pixel rows grow downwards); empty: low > high.
    thread_local std::vector<double> low, high;
    low.assign(columns, std::numeric_limits<double>::infinity());
    high.assign(columns, -std::numeric_limits<double>::infinity());
    const double left = firstColumn, right = static_cast<double>(lastColumn) + 1;
    auto reach = [&](double x, double y0, double y1) {
        // The column holding x (a point on a column's right edge belongs to it too, when it is the last).
        double c = std::floor(x);
        if (c > lastColumn)
            c = lastColumn;
        if (!(c >= firstColumn))
            return;
        const auto k = static_cast<std::size_t>(c - firstColumn);
        low[k] = std::min(low[k], std::min(y0, y1));
        high[k] = std::max(high[k], std::max(y0, y1));
    };
    const std::size_t n = std::min(xs.size(), ys.size());
    bool havePrevious = false;
    double px = 0, py = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = xs[i], y = ys[i];
        if (!std::isfinite(x) || !std::isfinite(y))
            continue;
        if (!havePrevious) {
            havePrevious = true;
            px = x, py = y;
            if (x >= left && x <= right)
                reach(x, y, y);
            continue;
        }
        // The segment from (px, py) to (x, y), clipped to the columns' x range, column by column.
        const double x0 = std::max(px, left), x1 = std::min(x, right);
        if (x0 <= x1) {
            const double dx = x - px;
            auto yAt = [&](double xv) { return dx > 0 ? py + (y - py) * ((xv - px) / dx) : y; };
            if (dx <= 0) {
                reach(x0, py, y); // a vertical segment
            } else {
                double from = x0;
                while (true) {
                    double c = std::floor(from);
                    const double to = std::min(x1, c + 1);
                    reach(from, yAt(from), yAt(to));
                    if (to >= x1)
                        break;
                    from = to;
                }
            }
        }
        px = x, py = y;
    }
    spans.reserve(columns);
    for (std::size_t k = 0; k < columns; ++k) {
        if (!(low[k] <= high[k]))
            continue;
        // The rows whose centres the extent covers, at least the row holding its middle.
        int top = static_cast<int>(std::ceil(low[k] - 0.5));
        int bottom = static_cast<int>(std::floor(high[k] - 0.5));
        if (bottom < top)
            top = bottom = static_cast<int>(std::floor((low[k] + high[k]) / 2));
        spans.push_back({firstColumn + static_cast<int>(k), top, bottom});
    }
}

void allowAvx2Scan(bool allowed) { g_avx2Allowed.store(allowed, std::memory_order_relaxed); }

bool avx2ScanAllowed()
{
#if defined(TSTUDIO_SCAN_AVX2)
    return g_avx2Allowed.load(std::memory_order_relaxed) && __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

std::string formatStep(double step)
{
    if (!finite(step))
        return jsSpecial(step);
    // d3.format(".4~s"): 4 significant digits, an SI prefix chosen from the exponent, zeros trimmed.
    static constexpr std::array<const char*, 17> kPrefixes = {"y", "z", "a", "f", "p", "n", "\u00b5", "m", "",
                                                              "k", "M", "G", "T", "P", "E", "Z", "Y"};
    constexpr int p = 4;
    if (step == 0)
        return "0";
    const Digits d = roundedDigits(step, p);
    const int prefix = std::clamp(static_cast<int>(std::floor(d.exponent / 3.0)), -8, 8);
    const int i = d.exponent - prefix * 3 + 1; // digits before the point
    std::string s;
    if (i >= p)
        s = d.digits + std::string(static_cast<std::size_t>(i - p), '0');
    else if (i > 0)
        s = d.digits.substr(0, static_cast<std::size_t>(i)) + "." + d.digits.substr(static_cast<std::size_t>(i));
    else
        s = "0." + std::string(static_cast<std::size_t>(-i), '0') + roundedDigits(step, std::max(0, p + i - 1) + 1).digits;
    return (step < 0 ? "-" : "") + trimZeros(s) + kPrefixes[static_cast<std::size_t>(prefix + 8)];
}

std::string formatValue(double value, int digits)
{
    if (!finite(value))
        return jsSpecial(value);
    double absv = std::fabs(value);
    if (absv < 1e-15)
        absv = 0;
    if (absv >= 1e4 || (absv > 0 && absv < 0.01))
        return trimZeros(toExponential(value, digits));
    return trimZeros(toPrecision(value, digits));
}

std::vector<std::string> tickLabels(std::span<const double> ticks, int minDigits)
{
    std::vector<std::string> labels(ticks.size());
    for (int digits = std::clamp(minDigits, 1, 17);; ++digits) {
        for (std::size_t i = 0; i < ticks.size(); ++i)
            labels[i] = formatValue(ticks[i], digits);
        bool distinct = true;
        // Ticks are ascending, so equal labels would be neighbours.
        for (std::size_t i = 1; i < labels.size() && distinct; ++i)
            distinct = labels[i] != labels[i - 1] || ticks[i] == ticks[i - 1];
        if (distinct || digits >= 17)
            return labels;
    }
}

namespace {

std::string lowerAscii(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

} // namespace

int scalarTagRank(std::string_view tag)
{
    const std::string lower = lowerAscii(tag);
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= lower.size(); ++i) {
        if (i == lower.size() || lower[i] == '/' || lower[i] == '_' || lower[i] == '-' || lower[i] == '.' || lower[i] == ' ') {
            if (i > start)
                parts.push_back(std::string_view(lower).substr(start, i - start));
            start = i + 1;
        }
    }
    if (endsWith(lower, "per_sec") || endsWith(lower, "per_second") ||
        (!parts.empty() && (parts.back() == "sec" || parts.back() == "second")))
        return 2;
    for (std::string_view part : parts)
        if (endsWith(part, "loss") || part == "losses")
            return 0;
    return 1;
}

bool scalarTagLess(std::string_view a, std::string_view b)
{
    const int ra = scalarTagRank(a), rb = scalarTagRank(b);
    return ra != rb ? ra < rb : a < b;
}

std::string formatRelative(double seconds)
{
    if (!finite(seconds))
        return jsSpecial(seconds);
    // Whole seconds first, so 60 s reads "1m 0s" (TensorBoard's hour arithmetic can give "59s").
    auto total = static_cast<std::int64_t>(std::floor(seconds + 1e-9));
    const bool negative = total < 0;
    total = std::llabs(total);
    const std::int64_t days = total / 86400, hours = total / 3600 % 24, minutes = total / 60 % 60, secs = total % 60;
    std::string out = negative ? "-" : "";
    if (days)
        out += std::to_string(days) + "d ";
    if (hours || days)
        out += std::to_string(hours) + "h ";
    if (minutes || hours || days)
        out += std::to_string(minutes) + "m ";
    return out + std::to_string(secs) + "s";
}

std::vector<double> timeTicks(double lo, double hi, int count)
{
    static constexpr std::array<double, 20> kSteps = {1,    2,    5,    10,    15,    30,    60,     120,    300,    600,
                                                      900,  1800, 3600, 7200,  10800, 21600, 43200,  86400,  172800, 604800};
    if (!finite(lo) || !finite(hi) || !(hi > lo) || count < 1)
        return finite(lo) && lo == hi ? std::vector<double>{lo} : std::vector<double>{};
    const double target = (hi - lo) / count;
    double step = 0;
    for (double s : kSteps)
        if (s >= target) {
            step = s;
            break;
        }
    if (step == 0) {
        // Longer than weeks: nice multiples of a day.
        const double days = tickIncrement(0, (hi - lo) / 86400.0, count);
        step = std::max(1.0, days > 0 ? days : 1.0) * 86400.0;
    }
    if (target < 1) {
        // Sub-second spans: ordinary decimal ticks.
        return linearTicks(lo, hi, count);
    }
    std::vector<double> ticks;
    for (double k = std::ceil(lo / step); k * step <= hi; ++k)
        ticks.push_back(k * step);
    return ticks;
}

} // namespace tstudio::dashboard
