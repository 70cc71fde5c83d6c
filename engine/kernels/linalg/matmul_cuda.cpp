// MatMul, BatchMatMul and BatchMatMulV2 on the GPU with cuBLAS (float without TF32 unless the
// device allows it; half with float accumulation), and registerLinalgGpuKernels.
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"
#include "kernels/linalg/batch_matmul.h"
#include "kernels/linalg/batch_matmul_cuda.h"
#include "kernels/linalg/matmul.h"

#include <cublas_v2.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <string>
#include <type_traits>

namespace tstudio::linalg {

namespace {

/// cuBLAS's names for T: its data type, the computation type and the type of alpha and beta.
template <typename T> struct CublasTypes;
template <> struct CublasTypes<float> {
    static constexpr cudaDataType_t kData = CUDA_R_32F;
    using Scale = float;
    static cublasComputeType_t compute(bool allowTf32)
    {
        return allowTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    }
};
template <> struct CublasTypes<double> {
    static constexpr cudaDataType_t kData = CUDA_R_64F;
    using Scale = double;
    static cublasComputeType_t compute(bool) { return CUBLAS_COMPUTE_64F; }
};
template <> struct CublasTypes<Eigen::half> {
    static constexpr cudaDataType_t kData = CUDA_R_16F;
    using Scale = float; // products of halves are summed in float, as TensorFlow's cublasGemmEx calls
    static cublasComputeType_t compute(bool) { return CUBLAS_COMPUTE_32F; }
};

/// One or more row-major products out[m,n] = op(a)[m,k] * op(b)[k,n]: the operands of product i
/// are given by pointer arrays (when `pointers`) or by strides from the first matrices.
struct GemmShape {
    std::int64_t m = 0, n = 0, k = 0;
    bool transposeA = false, transposeB = false;
};

Status checkCublasLimits(const std::string& op, const GemmShape& g)
{
    if (g.m > INT_MAX || g.n > INT_MAX || g.k > INT_MAX) {
        return invalidArgumentError(op + ": matrix dimensions [" + std::to_string(g.m) + "," + std::to_string(g.k) +
                                    "] x [" + std::to_string(g.k) + "," + std::to_string(g.n) +
                                    "] exceed cuBLAS's 32-bit sizes");
    }
    return Status::ok();
}

/// cuBLAS works column-major; a row-major [r,c] matrix is its column-major [c,r] transpose. So the
/// row-major out = op(a) * op(b) is computed as the column-major out^T = op(b)^T * op(a)^T: cuBLAS's
/// first operand is b, its second a, and the product is n x m with leading dimension n.
struct ColumnMajorCall {
    cublasOperation_t opFirst, opSecond;
    int rows, cols, depth; // cuBLAS's m, n, k
    int ldFirst, ldSecond, ldOut;
};
ColumnMajorCall columnMajor(const GemmShape& g)
{
    ColumnMajorCall c;
    c.opFirst = g.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N;
    c.opSecond = g.transposeA ? CUBLAS_OP_T : CUBLAS_OP_N;
    c.rows = static_cast<int>(g.n);
    c.cols = static_cast<int>(g.m);
    c.depth = static_cast<int>(g.k);
    c.ldFirst = static_cast<int>(g.transposeB ? g.k : g.n);
    c.ldSecond = static_cast<int>(g.transposeA ? g.m : g.k);
    c.ldOut = static_cast<int>(g.n);
    return c;
}

/// cuBLAS's batch count is an int, and some of its kernels put the batch in a 16-bit grid
/// dimension: batches go in slices of at most this many products.
constexpr std::int64_t kMaxBatchPerCall = 65535;

/// `batch` products with operand i at a + i * strideA, b + i * strideB, out + i * strideOut (a
/// stride of 0 repeats a matrix), all queued on the device's compute stream.
template <typename T>
Status stridedGemm(CudaDevice& gpu, const GemmShape& g, const T* a, std::int64_t strideA, const T* b,
                   std::int64_t strideB, T* out, std::int64_t strideOut, std::int64_t batch)
{
    using Types = CublasTypes<T>;
    const ColumnMajorCall c = columnMajor(g);
    const typename Types::Scale one(1), zero(0);
    const cublasComputeType_t compute = Types::compute(gpu.allowTf32());
    std::lock_guard lock(gpu.libraryMutex());
    if (batch == 1) {
        return cuda::cublasStatus(cublasGemmEx(gpu.cublas(), c.opFirst, c.opSecond, c.rows, c.cols, c.depth, &one, b,
                                               Types::kData, c.ldFirst, a, Types::kData, c.ldSecond, &zero, out,
                                               Types::kData, c.ldOut, compute, CUBLAS_GEMM_DEFAULT),
                                  "cublasGemmEx");
    }
    for (std::int64_t first = 0; first < batch; first += kMaxBatchPerCall) {
        const int count = static_cast<int>(std::min(kMaxBatchPerCall, batch - first));
        const cublasStatus_t status = cublasGemmStridedBatchedEx(
            gpu.cublas(), c.opFirst, c.opSecond, c.rows, c.cols, c.depth, &one, b + first * strideB, Types::kData,
            c.ldFirst, strideB, a + first * strideA, Types::kData, c.ldSecond, strideA, &zero, out + first * strideOut,
            Types::kData, c.ldOut, strideOut, count, compute, CUBLAS_GEMM_DEFAULT);
        if (Status s = cuda::cublasStatus(status, "cublasGemmStridedBatchedEx"); !s.isOk())
            return s;
    }
    return Status::ok();
}

/// MatMul: a [m,k] (or [k,m] with transpose_a) times b [k,n] (or [n,k] with transpose_b).
template <typename T> class MatMulGpuOp : public OpKernel {
public:
    explicit MatMulGpuOp(OpKernelConstruction& construction)
        : OpKernel(construction), m_attrs(productAttrs(construction.node(), "transpose_a", "transpose_b"))
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (!m_attrs.status.isOk())
            return m_attrs.status;
        const Tensor& a = ctx.input(0);
        const Tensor& b = ctx.input(1);
        auto dims = matMulDims(a.shape(), b.shape(), m_attrs.first, m_attrs.second);
        if (!dims)
            return dims.error();
        const TensorShape shape{dims->m, dims->n};
        if (dims->m == 0 || dims->n == 0 || dims->k == 0) {
            // Nothing to compute, or an empty sum: zeros (filled on the stream).
            auto out = ctx.allocateZeroedOutput(0, shape);
            return out ? Status::ok() : out.error();
        }
        const GemmShape g{dims->m, dims->n, dims->k, m_attrs.first, m_attrs.second};
        if (Status s = checkCublasLimits(op(), g); !s.isOk())
            return s;
        auto out = Tensor::allocateUninitialized(ctx.allocator(), a.dtype(), shape);
        if (!out)
            return out.error();
        if (Status s = stridedGemm<T>(**gpu, g, a.data<T>(), 0, b.data<T>(), 0, out->template data<T>(), 0, 1);
            !s.isOk())
            return s;
        return ctx.setOutput(0, std::move(*out));
    }

private:
    ProductAttrs m_attrs;
};

/// BatchMatMul (kV2 = false) and BatchMatMulV2 (kV2 = true) for real types (adjoint = transpose).
/// Batches where x and y are each either whole or a single matrix go through one strided batched
/// call; other broadcasts through pointer arrays written on the GPU (batch rank <= 8) or, beyond
/// that, one call per matrix.
template <typename T, bool kV2> class BatchMatMulGpuOp : public OpKernel {
public:
    explicit BatchMatMulGpuOp(OpKernelConstruction& construction)
        : OpKernel(construction), m_attrs(productAttrs(construction.node(), "adj_x", "adj_y"))
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (!m_attrs.status.isOk())
            return m_attrs.status;
        const Tensor& x = ctx.input(0);
        const Tensor& y = ctx.input(1);
        auto shape = batchMatMulShape(x.shape(), y.shape(), m_attrs.first, m_attrs.second, kV2);
        if (!shape)
            return shape.error();
        if (shape->bcast.batch == 0 || shape->m == 0 || shape->n == 0 || shape->k == 0) {
            auto out = ctx.allocateZeroedOutput(0, shape->output);
            return out ? Status::ok() : out.error();
        }
        const GemmShape g{shape->m, shape->n, shape->k, m_attrs.first, m_attrs.second};
        if (Status s = checkCublasLimits(op(), g); !s.isOk())
            return s;
        auto out = Tensor::allocateUninitialized(ctx.allocator(), x.dtype(), shape->output);
        if (!out)
            return out.error();
        const BatchBroadcast& bcast = shape->bcast;
        const std::int64_t xStride = g.m * g.k, yStride = g.k * g.n, outStride = g.m * g.n;
        const T* xData = x.data<T>();
        const T* yData = y.data<T>();
        T* outData = out->template data<T>();
        Status status;
        if ((bcast.xBatch == bcast.batch || bcast.xBatch == 1) && (bcast.yBatch == bcast.batch || bcast.yBatch == 1)) {
            status = stridedGemm<T>(**gpu, g, xData, bcast.xBatch == 1 ? 0 : xStride, yData,
                                    bcast.yBatch == 1 ? 0 : yStride, outData, outStride, bcast.batch);
        } else if (bcast.outputDims.size() <= static_cast<std::size_t>(BatchPointerLayout::kMaxRank)) {
            status = pointerGemm(**gpu, ctx, g, bcast, xData, yData, outData);
        } else {
            for (std::int64_t i = 0; i < bcast.batch && status.isOk(); ++i) {
                const auto u = static_cast<std::size_t>(i);
                status = stridedGemm<T>(**gpu, g, xData + bcast.xIndex[u] * xStride, 0,
                                        yData + bcast.yIndex[u] * yStride, 0, outData + i * outStride, 0, 1);
            }
        }
        if (!status.isOk())
            return status;
        return ctx.setOutput(0, std::move(*out));
    }

private:
    /// cublasGemmBatchedEx over pointer arrays that a small kernel writes into GPU memory from the
    /// batch layout (nothing is read back or copied from the host).
    Status pointerGemm(CudaDevice& gpu, OpKernelContext& ctx, const GemmShape& g, const BatchBroadcast& bcast,
                       const T* x, const T* y, T* out)
    {
        static_assert(sizeof(void*) == sizeof(std::int64_t), "pointer arrays are stored as int64 elements");
        const std::int64_t batch = bcast.batch;
        auto arrays = Tensor::allocateUninitialized(ctx.allocator(), tensorflow::DT_INT64, TensorShape{3 * batch});
        if (!arrays)
            return arrays.error();
        auto** base = reinterpret_cast<void**>(arrays->template data<std::int64_t>());
        const void** xPointers = const_cast<const void**>(base);
        const void** yPointers = const_cast<const void**>(base + batch);
        void** outPointers = base + 2 * batch;

        BatchPointerLayout layout;
        layout.rank = static_cast<int>(bcast.outputDims.size());
        for (int d = 0; d < layout.rank; ++d) {
            const auto u = static_cast<std::size_t>(d);
            layout.outputDims[d] = bcast.outputDims[u];
            layout.xDims[d] = bcast.xDims[u];
            layout.yDims[d] = bcast.yDims[u];
        }
        layout.x = reinterpret_cast<const char*>(x);
        layout.y = reinterpret_cast<const char*>(y);
        layout.out = reinterpret_cast<char*>(out);
        layout.xMatrixBytes = g.m * g.k * static_cast<std::int64_t>(sizeof(T));
        layout.yMatrixBytes = g.k * g.n * static_cast<std::int64_t>(sizeof(T));
        layout.outMatrixBytes = g.m * g.n * static_cast<std::int64_t>(sizeof(T));
        const cudaError_t launched =
            launchBatchPointers(layout, batch, xPointers, yPointers, outPointers, gpu.computeStream());
        if (Status s = cuda::cudaStatus(launched, op() + " pointer kernel launch"); !s.isOk())
            return s;

        using Types = CublasTypes<T>;
        const ColumnMajorCall c = columnMajor(g);
        const typename Types::Scale one(1), zero(0);
        const cublasComputeType_t compute = Types::compute(gpu.allowTf32());
        std::lock_guard lock(gpu.libraryMutex());
        for (std::int64_t first = 0; first < batch; first += kMaxBatchPerCall) {
            const int count = static_cast<int>(std::min(kMaxBatchPerCall, batch - first));
            const cublasStatus_t status = cublasGemmBatchedEx(
                gpu.cublas(), c.opFirst, c.opSecond, c.rows, c.cols, c.depth, &one, yPointers + first, Types::kData,
                c.ldFirst, xPointers + first, Types::kData, c.ldSecond, &zero, outPointers + first, Types::kData,
                c.ldOut, count, compute, CUBLAS_GEMM_DEFAULT);
            if (Status s = cuda::cublasStatus(status, "cublasGemmBatchedEx"); !s.isOk())
                return s;
        }
        return Status::ok(); // `arrays` is released now; the stream orders its reuse after the products
    }

    ProductAttrs m_attrs;
};

template <typename... Ts> Status registerTypes(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        const std::vector<std::pair<std::string, std::vector<DataType>>> constraints{{"T", {kDataTypeOf<T>}}};
        if (status.isOk())
            status = registry.add<MatMulGpuOp<T>>(KernelDef{"MatMul", "GPU", constraints, {}});
        if (status.isOk())
            status = registry.add<BatchMatMulGpuOp<T, false>>(KernelDef{"BatchMatMul", "GPU", constraints, {}});
        if (status.isOk())
            status = registry.add<BatchMatMulGpuOp<T, true>>(KernelDef{"BatchMatMulV2", "GPU", constraints, {}});
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace

} // namespace tstudio::linalg

namespace tstudio {

Status registerLinalgGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers float, double and half for all three on GPU (matmul_op.cc,
    // batch_matmul_op_real.cc); its complex64/complex128 GPU kernels are not registered here, so
    // complex products run on the CPU.
    return linalg::registerTypes(registry, TypeList<float, double, Eigen::half>{});
}

} // namespace tstudio
