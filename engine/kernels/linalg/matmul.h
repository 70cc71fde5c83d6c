// MatMulFunctor: one matrix product as an Eigen tensor contraction, written once for every Eigen device.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>

namespace tensorflow {
class NodeDef;
}

namespace tstudio::linalg {

/// The sizes of MatMul's product out[m, n] = op(a)[m, k] * op(b)[k, n], after TensorFlow's checks
/// (both operands matrices, inner dimensions equal). Shared by the CPU and GPU kernels.
struct MatMulDims {
    std::int64_t m = 0;
    std::int64_t k = 0;
    std::int64_t n = 0;
};
Expected<MatMulDims> matMulDims(const TensorShape& a, const TensorShape& b, bool transposeA, bool transposeB);

/// The two bool attrs of a product kernel, read when it is built: MatMul's transpose_a and
/// transpose_b, or BatchMatMul's adj_x and adj_y. A missing or mistyped attr (the first of the two)
/// is kept in `status` for compute() to return, the flags then false. Shared by the CPU and GPU
/// MatMul and BatchMatMul kernels.
struct ProductAttrs {
    bool first = false;
    bool second = false;
    Status status;
};
ProductAttrs productAttrs(const tensorflow::NodeDef& node, const char* firstName, const char* secondName);

/// out = op(a) * op(b), where op transposes when asked: a is [m,k] or [k,m] (transposeA), b is
/// [k,n] or [n,k] (transposeB) and out is [m,n], all row-major (TensorFlow's MatMulFunctor).
/// Real types only: complex products with conjugation go through cpuGemm on the CPU. The
/// contraction runs on `device`'s threads (Eigen::ThreadPoolDevice) or inline (DefaultDevice).
template <typename Device, typename T> struct MatMulFunctor {
    void operator()(const Device& device, ShapedTensor<T, 2> out, ConstShapedTensor<T, 2> a, ConstShapedTensor<T, 2> b,
                    bool transposeA, bool transposeB) const
    {
        const Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims{
            Eigen::IndexPair<Eigen::DenseIndex>(transposeA ? 0 : 1, transposeB ? 1 : 0)};
        out.device(device) = a.contract(b, dims);
    }
};

} // namespace tstudio::linalg
