// Softmax cross-entropy with logits (dense labels, broadcast as TensorFlow 1.15 allows, and sparse
// class indices) per row, as TensorFlow's XentEigenImpl / SparseXentEigenImpl compute it.
#pragma once

#include "kernels/nn/nn_kernel_util.h"

#include <array>
#include <cstdint>

namespace tstudio::nn {

/// A [rows, classes] view of a tensor that may be broadcast along either dimension: element
/// (i, j) is data[i * rowStride + j * colStride].
template <typename T> struct BroadcastMatrix {
    const T* data = nullptr;
    std::int64_t rowStride = 0;
    std::int64_t colStride = 0;
    T at(std::int64_t i, std::int64_t j) const { return data[i * rowStride + j * colStride]; }
};

/// The [rows, classes] shape SoftmaxCrossEntropyWithLogits works on: the common shape of logits
/// and labels (NumPy broadcasting when they differ), or TensorFlow's error when they do not
/// broadcast or the result is not a matrix. Shared by the CPU and GPU kernels.
Expected<std::array<std::int64_t, 2>> xentShape(const TensorShape& logits, const TensorShape& labels);

/// The strides of a tensor of rank <= 2 viewed as the [rows, classes] matrix it broadcasts to
/// (0 along a broadcast dimension).
struct BroadcastStrides {
    std::int64_t row = 0;
    std::int64_t col = 0;
};
BroadcastStrides broadcastStrides(const TensorShape& shape);

/// TensorFlow's shape checks of SparseSoftmaxCrossEntropyWithLogits (logits [rows, classes] with
/// classes > 0, labels [rows]); label values are checked by the CPU kernel only.
Status validateSparseXent(const TensorShape& logits, const TensorShape& labels);

template <typename T> struct XentCpu {
    /// Per row i, with z = logits[i] - max(logits[i]) and s = sum(exp(z)):
    /// loss[i] = sum_j labels[i, j] * (log(s) - z[j]); backprop[i, j] = exp(z[j]) / s - labels[i, j].
    /// Computed in float for half.
    static void dense(const Eigen::ThreadPoolDevice& d, std::int64_t rows, std::int64_t classes,
                      BroadcastMatrix<T> logits, BroadcastMatrix<T> labels, T* loss, T* backprop);
    /// The same with one-hot labels given as class indices, all in [0, classes).
    template <typename Index>
    static void sparse(const Eigen::ThreadPoolDevice& d, std::int64_t rows, std::int64_t classes, const T* logits,
                       const Index* labels, T* loss, T* backprop);
};

} // namespace tstudio::nn
