// The FusedBatchNorm arithmetic on the CPU: per-channel sums over blocks of the outer dimension on
// the Eigen device's thread pool (partial sums in double, then combined), elementwise steps in float.
#define EIGEN_USE_THREADS

#include "kernels/nn/fused_batch_norm.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cmath>
#include <vector>

namespace tstudio::nn {

namespace {

using Index = Eigen::Index;
using Device = Eigen::ThreadPoolDevice;

/// sums[c] = sum over (o, i) of value(element index, c).
template <typename Value> std::vector<double> channelSums(const Device& d, const BatchNormLayout& l, Value value)
{
    const Index channels = l.channels;
    const Index blocks = std::clamp<Index>(4 * d.numThreads(), 1, std::max<Index>(1, l.outer));
    const Index perBlock = (l.outer + blocks - 1) / blocks;
    std::vector<double> partial(static_cast<std::size_t>(blocks * channels), 0.0);
    const double elements = double(perBlock * channels * l.inner);
    const Eigen::TensorOpCost cost(elements * 4, 0, elements * 2);
    cpuParallelFor(d, blocks, cost, [&](Index b0, Index b1) {
        for (Index b = b0; b < b1; ++b) {
            double* acc = partial.data() + b * channels;
            const Index oEnd = std::min(l.outer, (b + 1) * perBlock);
            for (Index o = b * perBlock; o < oEnd; ++o) {
                for (Index c = 0; c < channels; ++c) {
                    const Index base = (o * channels + c) * l.inner;
                    double s = 0;
                    for (Index i = 0; i < l.inner; ++i)
                        s += value(base + i, c);
                    acc[c] += s;
                }
            }
        }
    });
    std::vector<double> sums(static_cast<std::size_t>(channels), 0.0);
    for (Index b = 0; b < blocks; ++b) {
        for (Index c = 0; c < channels; ++c)
            sums[static_cast<std::size_t>(c)] += partial[static_cast<std::size_t>(b * channels + c)];
    }
    return sums;
}

/// Calls f(element index, channel) for every element, in parallel.
template <typename F> void forEachElement(const Device& d, const BatchNormLayout& l, F f)
{
    const Eigen::TensorOpCost cost(double(l.inner * 8), double(l.inner * 4), double(l.inner * 4));
    cpuParallelFor(d, l.outer * l.channels, cost, [&](Index begin, Index end) {
        for (Index r = begin; r < end; ++r) {
            const Index c = r % l.channels;
            for (Index i = 0; i < l.inner; ++i)
                f(r * l.inner + i, c);
        }
    });
}

/// 1 / sqrt(variance + epsilon) per channel, in float as TensorFlow's rsqrt.
std::vector<float> inverseStddev(const float* variance, Index channels, float epsilon)
{
    std::vector<float> out(static_cast<std::size_t>(channels));
    for (Index c = 0; c < channels; ++c)
        out[static_cast<std::size_t>(c)] = 1.0f / std::sqrt(variance[c] + epsilon);
    return out;
}

} // namespace

template <typename T>
void FusedBatchNormCpu<T>::training(const Device& d, const BatchNormLayout& l, const T* x, const float* scale,
                                    const float* offset, float epsilon, T* y, float* mean, float* variance)
{
    const double rest = double(l.rest());
    const std::vector<double> sums = channelSums(d, l, [&](Index i, Index) { return double(float(x[i])); });
    std::vector<double> meanD(sums.size());
    for (std::size_t c = 0; c < sums.size(); ++c) {
        meanD[c] = sums[c] / rest;
        mean[c] = float(meanD[c]);
    }
    const std::vector<double> squares = channelSums(d, l, [&](Index i, Index c) {
        const double centered = double(float(x[i])) - meanD[static_cast<std::size_t>(c)];
        return centered * centered;
    });
    for (std::size_t c = 0; c < squares.size(); ++c)
        variance[c] = float(squares[c] / rest);
    inference(d, l, x, scale, offset, mean, variance, epsilon, y);
}

template <typename T>
void FusedBatchNormCpu<T>::inference(const Device& d, const BatchNormLayout& l, const T* x, const float* scale,
                                     const float* offset, const float* mean, const float* variance, float epsilon, T* y)
{
    std::vector<float> factor = inverseStddev(variance, l.channels, epsilon);
    for (Index c = 0; c < l.channels; ++c)
        factor[static_cast<std::size_t>(c)] *= scale[c];
    forEachElement(d, l, [&](Index i, Index c) {
        y[i] = T((float(x[i]) - mean[c]) * factor[static_cast<std::size_t>(c)] + offset[c]);
    });
}

template <typename T>
void FusedBatchNormCpu<T>::grad(const Device& d, const BatchNormLayout& l, bool training, const T* dy, const T* x,
                                const float* scale, const float* mean, const float* variance, float epsilon, T* dx,
                                float* scaleBackprop, float* offsetBackprop)
{
    const std::vector<float> coef0 = inverseStddev(variance, l.channels, epsilon);
    const std::vector<double> sumDy = channelSums(d, l, [&](Index i, Index) { return double(float(dy[i])); });
    const std::vector<double> sumDyXc = channelSums(
        d, l, [&](Index i, Index c) { return double(float(dy[i])) * (double(float(x[i])) - double(mean[c])); });
    for (Index c = 0; c < l.channels; ++c) {
        const auto k = static_cast<std::size_t>(c);
        scaleBackprop[c] = float(sumDyXc[k]) * coef0[k];
        offsetBackprop[c] = float(sumDy[k]);
    }
    if (!training) {
        forEachElement(
            d, l, [&](Index i, Index c) { dx[i] = T(float(dy[i]) * (scale[c] * coef0[static_cast<std::size_t>(c)])); });
        return;
    }
    const float restInv = 1.0f / float(l.rest());
    forEachElement(d, l, [&](Index i, Index c) {
        const auto k = static_cast<std::size_t>(c);
        const float coef1 = scale[c] * coef0[k];
        const float coef2 = coef0[k] * coef0[k] * float(sumDyXc[k]) * restInv;
        const float dyCentered = float(dy[i]) - float(sumDy[k]) * restInv;
        dx[i] = T(coef1 * (dyCentered - (float(x[i]) - mean[c]) * coef2));
    });
}

template struct FusedBatchNormCpu<float>;
template struct FusedBatchNormCpu<Eigen::half>;

} // namespace tstudio::nn
