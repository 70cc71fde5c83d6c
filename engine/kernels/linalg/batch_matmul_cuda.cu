// The pointer arrays of a broadcast batched matrix product, computed on the GPU from the batch layout.
#include "kernels/linalg/batch_matmul_cuda.h"

namespace tstudio::linalg {
namespace {

__global__ void batchPointersKernel(BatchPointerLayout layout, std::int64_t batch, const void** xPointers,
                                    const void** yPointers, void** outPointers)
{
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; b < batch; b += stride) {
        // Split b into its multi-index (last dimension fastest) and rebuild x's and y's matrix
        // numbers with broadcast dimensions pinned to 0.
        std::int64_t rest = b;
        std::int64_t xIndex = 0, yIndex = 0, xScale = 1, yScale = 1;
        for (int d = layout.rank - 1; d >= 0; --d) {
            const std::int64_t i = rest % layout.outputDims[d];
            rest /= layout.outputDims[d];
            if (layout.xDims[d] != 1)
                xIndex += i * xScale;
            if (layout.yDims[d] != 1)
                yIndex += i * yScale;
            xScale *= layout.xDims[d];
            yScale *= layout.yDims[d];
        }
        xPointers[b] = layout.x + xIndex * layout.xMatrixBytes;
        yPointers[b] = layout.y + yIndex * layout.yMatrixBytes;
        outPointers[b] = layout.out + b * layout.outMatrixBytes;
    }
}

} // namespace

cudaError_t launchBatchPointers(const BatchPointerLayout& layout, std::int64_t batch, const void** xPointers,
                                const void** yPointers, void** outPointers, cudaStream_t stream)
{
    constexpr int kThreads = 256;
    const std::int64_t blocks = (batch + kThreads - 1) / kThreads;
    const unsigned grid = static_cast<unsigned>(blocks > 4096 ? 4096 : blocks);
    batchPointersKernel<<<grid, kThreads, 0, stream>>>(layout, batch, xPointers, yPointers, outPointers);
    return cudaGetLastError();
}

} // namespace tstudio::linalg
