// launchBatchPointers: the per-matrix pointer arrays of a broadcast batched product, written on the GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::linalg {

/// The batch layout of BatchMatMulV2 with broadcast batch dimensions: output matrix b, at
/// multi-index (i_0, ..., i_{rank-1}) over outputDims, multiplies x's matrix at that index with
/// the dimensions where xDims is 1 set to 0, and y's likewise (row-major, as BatchBroadcast).
struct BatchPointerLayout {
    static constexpr int kMaxRank = 8;
    int rank = 0;
    std::int64_t outputDims[kMaxRank] = {};
    std::int64_t xDims[kMaxRank] = {};
    std::int64_t yDims[kMaxRank] = {};
    const char* x = nullptr;
    const char* y = nullptr;
    char* out = nullptr;
    std::int64_t xMatrixBytes = 0;
    std::int64_t yMatrixBytes = 0;
    std::int64_t outMatrixBytes = 0;
};

/// Queues on `stream` a kernel that writes, for b < batch, xPointers[b], yPointers[b] and
/// outPointers[b] (arrays in GPU memory) for cublasGemmBatchedEx. batch > 0.
cudaError_t launchBatchPointers(const BatchPointerLayout& layout, std::int64_t batch, const void** xPointers,
                                const void** yPointers, void** outPointers, cudaStream_t stream);

} // namespace tstudio::linalg
