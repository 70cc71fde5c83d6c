// BiasAdd and BiasAddGrad as Eigen expressions for any Eigen device: the value is viewed as
// [outer, channels, inner] (NHWC: inner = 1; NCHW: outer = batch).
#pragma once

#include "framework/tensor.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <vector>
#include <type_traits>

namespace tstudio::nn {

/// out[o, c, i] = value[o, c, i] + bias[c].
template <typename Device, typename T> struct BiasAddFunctor {
    void operator()(const Device& d, ConstShapedTensor<T, 3> value, ConstFlatTensor<T> bias,
                    ShapedTensor<T, 3> out) const
    {
        if constexpr (std::is_same_v<Device, Eigen::ThreadPoolDevice>) {
            if (value.dimension(2) == 1) {
                channelsLast(d, value.data(), value.dimension(0), value.dimension(1), bias.data(), out.data());
                return;
            }
        }
        const std::array<Eigen::Index, 3> oneByChannels{1, bias.dimension(0), 1};
        const std::array<Eigen::Index, 3> broadcast{value.dimension(0), 1, value.dimension(2)};
        out.device(d) = value + bias.reshape(oneByChannels).broadcast(broadcast);
    }

    /// NHWC (inner 1): rows of `channels` on the device's threads (cpuParallelFor, the caller
    /// working too; Eigen's broadcast expression leaves the caller idle on big values), the same
    /// one addition per element.
    static void channelsLast(const Eigen::ThreadPoolDevice& d, const T* value, Eigen::Index rows,
                             Eigen::Index channels, const T* bias, T* out)
    {
        using Row = Eigen::Array<T, Eigen::Dynamic, 1>;
        const Eigen::Map<const Row> b(bias, channels);
        const Eigen::TensorOpCost cost(double(2 * channels * sizeof(T)), double(channels * sizeof(T)),
                                       double(channels));
        cpuParallelFor(d, rows, cost, [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index r = begin; r < end; ++r)
                Eigen::Map<Row>(out + r * channels, channels) =
                    Eigen::Map<const Row>(value + r * channels, channels) + b;
        });
    }
};

/// Channels per work item of the channels-last BiasAddGrad loop.
inline constexpr Eigen::Index kBiasGradBlock = 16;
/// Most channels per work item of the channels-last BiasAddGrad loop over few rows.
inline constexpr Eigen::Index kBiasGradBand = 1024;
/// Rows per partial sum when the channels-last BiasAddGrad goes down the rows in one pass.
inline constexpr Eigen::Index kBiasGradRows = 1024;

/// acc[c] += row[c] for c < width (at most kBiasGradBlock). Called with a compile-time width for
/// full blocks, which lets GCC vectorise it at -O2.
template <typename T, typename Acc, typename Width>
inline void accumulateBiasGradRow(Acc* __restrict acc, const T* __restrict row, Width width)
{
    for (Eigen::Index c = 0; c < width; ++c)
        acc[c] += static_cast<Acc>(row[c]);
}

/// out[c] = sum over o and i of backprop[o, c, i], accumulated in Acc (float for half, as
/// TensorFlow's AccumulatorType).
template <typename Device, typename T, typename Acc> struct BiasAddGradFunctor {
    void operator()(const Device& d, ConstShapedTensor<T, 3> backprop, FlatTensor<T> out) const
    {
        if constexpr (std::is_same_v<Device, Eigen::ThreadPoolDevice>) {
            if (backprop.dimension(2) == 1) {
                if (backprop.dimension(0) >= 2 * kBiasGradRows)
                    channelsLastByRows(d, backprop.data(), backprop.dimension(0), backprop.dimension(1), out.data());
                else
                    channelsLast(d, backprop.data(), backprop.dimension(0), backprop.dimension(1), out.data());
                return;
            }
        }
        const Eigen::IndexList<Eigen::type2index<0>, Eigen::type2index<2>> outerAndInner;
        out.device(d) = backprop.template cast<Acc>().sum(outerAndInner).template cast<T>();
    }

private:
    /// Channels last with many rows (a convolution's [batch * height * width, channels]): one pass
    /// down the rows, each block of kBiasGradRows rows summed into its own partial sums, which are
    /// then added block after block. Reading each row once, whole, takes a quarter of the time of
    /// going down all rows once per block of channels (0.38 against 1.57 ms for LeNet's first
    /// convolution, 78,400 x 32, `tstudio bench lenet --threads 1 --profile 5` on the 2-core
    /// development VM); the blocks do not depend on the number of threads, so neither does the sum.
    static void channelsLastByRows(const Eigen::ThreadPoolDevice& d, const T* backprop, Eigen::Index rows,
                                   Eigen::Index channels, T* out)
    {
        using Index = Eigen::Index;
        const Index blocks = (rows + kBiasGradRows - 1) / kBiasGradRows;
        std::vector<Acc> partial(static_cast<std::size_t>(blocks * channels), Acc(0));
        const Index full = channels / kBiasGradBlock * kBiasGradBlock;
        const Eigen::TensorOpCost cost(double(kBiasGradRows * channels * sizeof(T)), double(channels * sizeof(Acc)),
                                       double(kBiasGradRows * channels));
        cpuParallelFor(d, blocks, cost, [&](Index begin, Index end) {
            for (Index block = begin; block < end; ++block) {
                Acc* acc = partial.data() + block * channels;
                const Index last = std::min(rows, (block + 1) * kBiasGradRows);
                for (Index r = block * kBiasGradRows; r < last; ++r) {
                    const T* row = backprop + r * channels;
                    for (Index c = 0; c < full; c += kBiasGradBlock)
                        accumulateBiasGradRow(acc + c, row + c, std::integral_constant<Index, kBiasGradBlock>());
                    if (full < channels)
                        accumulateBiasGradRow(acc + full, row + full, channels - full);
                }
            }
        });
        for (Index c = 0; c < channels; ++c) {
            Acc total = partial[static_cast<std::size_t>(c)];
            for (Index block = 1; block < blocks; ++block)
                total += partial[static_cast<std::size_t>(block * channels + c)];
            out[c] = static_cast<T>(total);
        }
    }

    /// Channels last ([rows, channels]): each work item sums a band of channels down all rows, row
    /// after row, as the reduction above does per channel, a block of kBiasGradBlock channels at a
    /// time. The band is up to kBiasGradBand channels wide, so that a wide row (a 10,000-word
    /// softmax's logits) is read in long runs rather than one cache line per row and page (its
    /// 400 x 10,000 gradient: 5.2-7.5 -> 1.6-2.1 ms on one thread, `tstudio bench ptb --threads 1
    /// --profile 5`, three runs each, on a 2-core Zen 3 VM, bands of 16 against 1,024); each
    /// channel's sum runs down the rows in order whatever the band, so the result does not depend
    /// on the band or the number of threads.
    static void channelsLast(const Eigen::ThreadPoolDevice& d, const T* backprop, Eigen::Index rows,
                             Eigen::Index channels, T* out)
    {
        using Index = Eigen::Index;
        // About 8 bands where the channels allow, so that 2-8 threads share them out.
        const Index wanted = (channels / 8 + kBiasGradBlock - 1) / kBiasGradBlock * kBiasGradBlock;
        const Index band = std::clamp<Index>(wanted, kBiasGradBlock, kBiasGradBand);
        const Index bands = (channels + band - 1) / band;
        const Eigen::TensorOpCost cost(double(rows * band * sizeof(T)), double(band * sizeof(T)), double(rows * band));
        cpuParallelFor(d, bands, cost, [&](Index begin, Index end) {
            for (Index item = begin; item < end; ++item) {
                const Index c0 = item * band;
                const Index width = std::min(band, channels - c0);
                const Index full = width / kBiasGradBlock * kBiasGradBlock;
                Acc acc[kBiasGradBand];
                std::fill(acc, acc + width, Acc(0));
                const T* row = backprop + c0;
                for (Index r = 0; r < rows; ++r, row += channels) {
                    for (Index c = 0; c < full; c += kBiasGradBlock)
                        accumulateBiasGradRow(acc + c, row + c, std::integral_constant<Index, kBiasGradBlock>());
                    if (full < width)
                        accumulateBiasGradRow(acc + full, row + full, width - full);
                }
                for (Index c = 0; c < width; ++c)
                    out[c0 + c] = static_cast<T>(acc[c]);
            }
        });
    }
};

} // namespace tstudio::nn
