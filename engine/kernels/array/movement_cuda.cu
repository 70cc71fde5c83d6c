// The GPU data-movement loops: IndexMap gathers and scatters, row concatenation and splitting, and
// fills, each instantiated once per element width (not once per dtype).
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/array/movement_cuda.h"

#include <cstring>

namespace tstudio::array::cuda {

namespace {

using gpu::firstIndex;
using gpu::gridStride;

/// One element per loop step: its offset in the mapped buffer from the walked index, axis by axis
/// from the innermost (the map's offsets are non-negative and below the buffer's size, so partial
/// sums fit in Index too).
template <typename E, typename Index, bool kScatter>
__global__ void indexMapCopyKernel(const __grid_constant__ DeviceIndexMap map, Index total, const E* __restrict__ in,
                                   E* __restrict__ out)
{
    for (Index i = firstIndex<Index>(); i < total; i += gridStride<Index>()) {
        Index rest = i;
        Index offset = static_cast<Index>(map.base);
        for (int d = map.rank - 1; d >= 0; --d) {
            const Index size = static_cast<Index>(map.size[d]);
            const Index j = rest % size;
            rest /= size;
            offset += map.table[d] ? static_cast<Index>(map.table[d][j])
                                   : static_cast<Index>(map.start[d]) + j * static_cast<Index>(map.step[d]);
        }
        if constexpr (kScatter)
            out[offset] = in[i];
        else
            out[i] = in[offset];
    }
}

/// Element (r, c) of the batch's columns: its part by binary search over the edges (parts have
/// non-zero widths, so the edges strictly increase).
template <typename E, typename Index, bool kConcat>
__global__ void rowCopyKernel(const __grid_constant__ DeviceRowParts parts, Index rows, E* __restrict__ whole)
{
    const Index width = static_cast<Index>(parts.edge[parts.count]);
    const Index total = rows * width;
    for (Index i = firstIndex<Index>(); i < total; i += gridStride<Index>()) {
        const Index r = i / width;
        const Index c = i % width;
        int lo = 0;
        int hi = parts.count - 1;
        while (lo < hi) {
            const int mid = (lo + hi + 1) / 2;
            if (static_cast<Index>(parts.edge[mid]) <= c)
                lo = mid;
            else
                hi = mid - 1;
        }
        const Index first = static_cast<Index>(parts.edge[lo]);
        const Index partWidth = static_cast<Index>(parts.edge[lo + 1]) - first;
        E* part = static_cast<E*>(parts.data[lo]);
        const Index partIndex = r * partWidth + (c - first);
        const Index wholeIndex = r * static_cast<Index>(parts.totalWidth) + static_cast<Index>(parts.firstColumn) + c;
        if constexpr (kConcat)
            whole[wholeIndex] = part[partIndex];
        else
            part[partIndex] = whole[wholeIndex];
    }
}

template <typename E>
__global__ void fillFromDeviceKernel(const E* __restrict__ value, E* __restrict__ out, std::int64_t n)
{
    const E v = *value;
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>())
        out[i] = v;
}

template <typename E> __global__ void fillWithValueKernel(const E value, E* __restrict__ out, std::int64_t n)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>())
        out[i] = value;
}

} // namespace

void launchIndexMapCopy(cudaStream_t stream, int elementBytes, const DeviceIndexMap& map, std::int64_t total,
                        bool narrow, bool scatter, const void* in, void* out)
{
    gpu::dispatchWidth(elementBytes, [&](auto tag) {
        using E = decltype(tag);
        const auto* from = static_cast<const E*>(in);
        auto* to = static_cast<E*>(out);
        const unsigned blocks = gpu::blocksFor(total);
        if (narrow) {
            const auto n = static_cast<std::int32_t>(total);
            if (scatter)
                indexMapCopyKernel<E, std::int32_t, true>
                    <<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(map, n, from, to);
            else
                indexMapCopyKernel<E, std::int32_t, false>
                    <<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(map, n, from, to);
        } else {
            if (scatter)
                indexMapCopyKernel<E, std::int64_t, true>
                    <<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(map, total, from, to);
            else
                indexMapCopyKernel<E, std::int64_t, false>
                    <<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(map, total, from, to);
        }
    });
}

void launchRowCopy(cudaStream_t stream, int elementBytes, std::int64_t rows, const DeviceRowParts& parts, bool narrow,
                   bool concat, void* whole)
{
    gpu::dispatchWidth(elementBytes, [&](auto tag) {
        using E = decltype(tag);
        auto* w = static_cast<E*>(whole);
        const unsigned blocks = gpu::blocksFor(rows * parts.edge[parts.count]);
        if (narrow) {
            const auto r = static_cast<std::int32_t>(rows);
            if (concat)
                rowCopyKernel<E, std::int32_t, true><<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(parts, r, w);
            else
                rowCopyKernel<E, std::int32_t, false><<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(parts, r, w);
        } else {
            if (concat)
                rowCopyKernel<E, std::int64_t, true><<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(parts, rows, w);
            else
                rowCopyKernel<E, std::int64_t, false><<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(parts, rows, w);
        }
    });
}

void launchFillFromDevice(cudaStream_t stream, int elementBytes, const void* value, void* out, std::int64_t n)
{
    gpu::dispatchWidth(elementBytes, [&](auto tag) {
        using E = decltype(tag);
        fillFromDeviceKernel<E><<<gpu::blocksFor(n), gpu::kThreadsPerBlock, 0, stream>>>(static_cast<const E*>(value),
                                                                                         static_cast<E*>(out), n);
    });
}

void launchFillWithValue(cudaStream_t stream, int elementBytes, const void* value, void* out, std::int64_t n)
{
    gpu::dispatchWidth(elementBytes, [&](auto tag) {
        using E = decltype(tag);
        E v;
        std::memcpy(&v, value, sizeof(E));
        fillWithValueKernel<E><<<gpu::blocksFor(n), gpu::kThreadsPerBlock, 0, stream>>>(v, static_cast<E*>(out), n);
    });
}

} // namespace tstudio::array::cuda
