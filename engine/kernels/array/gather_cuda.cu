// The GPU loops of Gather/GatherV2 and OneHot, one output element per loop step.
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/array/movement_cuda.h"

namespace tstudio::array::cuda {

namespace {

using gpu::firstIndex;
using gpu::gridStride;

/// out[b, o, c, k] = params[b, o, indices[b, c], k], or zeros for an index outside [0, limit)
/// (TensorFlow's GPU gather does the same rather than fail).
template <typename E, typename IndexT, typename Index>
__global__ void gatherKernel(const E* __restrict__ params, const IndexT* __restrict__ indices, E* __restrict__ out,
                             const DeviceGatherShape shape, Index total)
{
    const Index inner = static_cast<Index>(shape.inner);
    const Index count = static_cast<Index>(shape.count);
    const Index outer = static_cast<Index>(shape.outer);
    const std::int64_t limit = shape.limit;
    for (Index i = firstIndex<Index>(); i < total; i += gridStride<Index>()) {
        const Index k = i % inner;
        const Index slice = i / inner;
        const Index c = slice % count;
        const Index bo = slice / count;
        const Index b = bo / outer;
        const auto index = static_cast<std::int64_t>(indices[b * count + c]);
        if (index >= 0 && index < limit)
            out[i] = params[(bo * static_cast<Index>(limit) + static_cast<Index>(index)) * inner + k];
        else
            out[i] = E{};
    }
}

/// out[p, d, s] = indices[p, s] == d ? *on : *off.
template <typename E, typename IndexT, typename Index>
__global__ void oneHotKernel(const IndexT* __restrict__ indices, const E* __restrict__ on, const E* __restrict__ off,
                             E* __restrict__ out, Index depth, Index suffix, Index total)
{
    const E onValue = *on;
    const E offValue = *off;
    for (Index i = firstIndex<Index>(); i < total; i += gridStride<Index>()) {
        const Index s = i % suffix;
        const Index t = i / suffix;
        const Index d = t % depth;
        const Index p = t / depth;
        const auto index = static_cast<std::int64_t>(indices[p * suffix + s]);
        out[i] = index == static_cast<std::int64_t>(d) ? onValue : offValue;
    }
}

template <typename E, typename IndexT>
void gatherWith(cudaStream_t stream, const DeviceGatherShape& shape, const void* params, const void* indices, void* out)
{
    const std::int64_t total = shape.batch * shape.outer * shape.count * shape.inner;
    const std::int64_t paramsCount = shape.batch * shape.outer * shape.limit * shape.inner;
    const auto* p = static_cast<const E*>(params);
    const auto* idx = static_cast<const IndexT*>(indices);
    auto* o = static_cast<E*>(out);
    const unsigned blocks = gpu::blocksFor(total);
    if (total < gpu::kNarrowLimit && paramsCount < gpu::kNarrowLimit)
        gatherKernel<E, IndexT, std::int32_t>
            <<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(p, idx, o, shape, static_cast<std::int32_t>(total));
    else
        gatherKernel<E, IndexT, std::int64_t><<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(p, idx, o, shape, total);
}

template <typename E, typename IndexT>
void oneHotWith(cudaStream_t stream, std::int64_t prefix, std::int64_t depth, std::int64_t suffix, const void* indices,
                const void* on, const void* off, void* out)
{
    const std::int64_t total = prefix * depth * suffix;
    const auto* idx = static_cast<const IndexT*>(indices);
    const auto* onValue = static_cast<const E*>(on);
    const auto* offValue = static_cast<const E*>(off);
    auto* o = static_cast<E*>(out);
    const unsigned blocks = gpu::blocksFor(total);
    if (total < gpu::kNarrowLimit)
        oneHotKernel<E, IndexT, std::int32_t><<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(
            idx, onValue, offValue, o, static_cast<std::int32_t>(depth), static_cast<std::int32_t>(suffix),
            static_cast<std::int32_t>(total));
    else
        oneHotKernel<E, IndexT, std::int64_t>
            <<<blocks, gpu::kThreadsPerBlock, 0, stream>>>(idx, onValue, offValue, o, depth, suffix, total);
}

} // namespace

void launchGather(cudaStream_t stream, int elementBytes, bool wideIndices, const DeviceGatherShape& shape,
                  const void* params, const void* indices, void* out)
{
    gpu::dispatchWidth(elementBytes, [&](auto tag) {
        using E = decltype(tag);
        if (wideIndices)
            gatherWith<E, std::int64_t>(stream, shape, params, indices, out);
        else
            gatherWith<E, std::int32_t>(stream, shape, params, indices, out);
    });
}

void launchOneHot(cudaStream_t stream, int elementBytes, int indexBytes, std::int64_t prefix, std::int64_t depth,
                  std::int64_t suffix, const void* indices, const void* on, const void* off, void* out)
{
    gpu::dispatchWidth(elementBytes, [&](auto tag) {
        using E = decltype(tag);
        if (indexBytes == 1)
            oneHotWith<E, std::uint8_t>(stream, prefix, depth, suffix, indices, on, off, out);
        else if (indexBytes == 4)
            oneHotWith<E, std::int32_t>(stream, prefix, depth, suffix, indices, on, off, out);
        else
            oneHotWith<E, std::int64_t>(stream, prefix, depth, suffix, indices, on, off, out);
    });
}

} // namespace tstudio::array::cuda
