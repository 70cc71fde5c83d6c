// Launchers of the GPU softmax and cross-entropy kernels (softmax_cuda.cu, xent_cuda.cu).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::nn {

/// Rows at most this long are handled by one warp each; longer ones by a block of 256 threads.
inline constexpr std::int64_t kWarpRowLimit = 1024;

/// out[r, :] = softmax or (log) log-softmax of logits[r, :] for r < rows, in the accumulator type
/// (float for half): z = x - max(x), then exp(z) / sum(exp(z)) or z - log(sum(exp(z))).
/// T in __half, float, double. rows, classes > 0.
template <typename T>
cudaError_t launchSoftmax(const T* logits, T* out, std::int64_t rows, std::int64_t classes, bool log,
                          cudaStream_t stream);

/// Element (r, c) of a matrix that may be broadcast: data[r * row + c * col].
template <typename T> struct StridedMatrix {
    const T* data = nullptr;
    std::int64_t row = 0;
    std::int64_t col = 0;
};

/// SoftmaxCrossEntropyWithLogits per row r < rows, with z = logits[r] - max(logits[r]) and
/// s = log(sum(exp(z))): loss[r] = sum_c labels[r, c] * (s - z[c]) and
/// backprop[r, c] = exp(z[c] - s) - labels[r, c] (backprop is dense [rows, classes]).
/// T in __half, float, double. rows, classes > 0.
template <typename T>
cudaError_t launchXent(StridedMatrix<T> logits, StridedMatrix<T> labels, T* loss, T* backprop, std::int64_t rows,
                       std::int64_t classes, cudaStream_t stream);

/// SparseSoftmaxCrossEntropyWithLogits: as launchXent with one-hot labels given as class indices
/// (logits dense [rows, classes]). A label outside [0, classes) gives NaN for the row's loss and
/// its whole backprop row, as TensorFlow's GPU kernel (which does not check labels) does.
/// T in __half, float; Index in int32_t, int64_t. rows, classes > 0.
template <typename T, typename Index>
cudaError_t launchSparseXent(const T* logits, const Index* labels, T* loss, T* backprop, std::int64_t rows,
                             std::int64_t classes, cudaStream_t stream);

} // namespace tstudio::nn
