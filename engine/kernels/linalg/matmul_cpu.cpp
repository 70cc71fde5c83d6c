// MatMul's CPU kernel, and the per-type choice of product implementation shared with BatchMatMul.
#define EIGEN_USE_THREADS
#include "kernels/linalg/matmul_cpu.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"
#include "kernels/linalg/gemm_cpu.h"
#include "kernels/linalg/matmul.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <complex>
#include <type_traits>
#include <vector>

namespace tstudio::linalg {

template <typename T>
void matMulCpu(const Eigen::ThreadPoolDevice* device, const T* a, const T* b, T* out, std::int64_t m, std::int64_t n,
               std::int64_t k, bool transposeA, bool conjugateA, bool transposeB, bool conjugateB)
{
    if (m <= 0 || n <= 0)
        return;
    if (k == 0) {
        // [m,0] x [0,n]: an empty sum, zero everywhere (TensorFlow's SetZeroFunctor).
        std::fill(out, out + m * n, T(0));
        return;
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::complex<float>> ||
                  std::is_same_v<T, std::complex<double>>) {
        GemmArgs<T> args;
        args.a = a;
        args.b = b;
        args.c = out;
        args.m = m;
        args.n = n;
        args.k = k;
        args.lda = transposeA ? m : k;
        args.ldb = transposeB ? k : n;
        args.ldc = n;
        args.transposeA = transposeA;
        args.transposeB = transposeB;
        args.conjugateA = conjugateA;
        args.conjugateB = conjugateB;
        cpuGemm(device, args);
    } else if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
        // TensorFlow converts bfloat16 operands to float, multiplies in float and rounds the
        // product back once.
        std::vector<float> af(a, a + m * k), bf(b, b + k * n), of(static_cast<std::size_t>(m * n));
        matMulCpu<float>(device, af.data(), bf.data(), of.data(), m, n, k, transposeA, false, transposeB, false);
        std::transform(of.begin(), of.end(), out, [](float v) { return Eigen::bfloat16(v); });
    } else {
        const ConstShapedTensor<T, 2> ta(a, transposeA ? k : m, transposeA ? m : k);
        const ConstShapedTensor<T, 2> tb(b, transposeB ? n : k, transposeB ? k : n);
        ShapedTensor<T, 2> to(out, m, n);
        if (device)
            MatMulFunctor<Eigen::ThreadPoolDevice, T>()(*device, to, ta, tb, transposeA, transposeB);
        else
            MatMulFunctor<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), to, ta, tb, transposeA, transposeB);
    }
}

Expected<MatMulDims> matMulDims(const TensorShape& a, const TensorShape& b, bool transposeA, bool transposeB)
{
    if (a.rank() != 2)
        return unexpected(invalidArgumentError("In[0] is not a matrix. Instead it has shape " + a.toString()));
    if (b.rank() != 2)
        return unexpected(invalidArgumentError("In[1] is not a matrix. Instead it has shape " + b.toString()));
    MatMulDims dims;
    dims.k = a.dim(transposeA ? 0 : 1);
    if (dims.k != b.dim(transposeB ? 1 : 0)) {
        return unexpected(
            invalidArgumentError("Matrix size-incompatible: In[0]: " + a.toString() + ", In[1]: " + b.toString()));
    }
    dims.m = a.dim(transposeA ? 1 : 0);
    dims.n = b.dim(transposeB ? 0 : 1);
    return dims;
}

ProductAttrs productAttrs(const tensorflow::NodeDef& node, const char* firstName, const char* secondName)
{
    ProductAttrs attrs;
    auto first = attrBool(node, firstName);
    auto second = attrBool(node, secondName);
    if (!first)
        attrs.status = first.error();
    else if (!second)
        attrs.status = second.error();
    else {
        attrs.first = *first;
        attrs.second = *second;
    }
    return attrs;
}

#define TSTUDIO_INSTANTIATE_MATMUL_CPU(T)                                                                              \
    template void matMulCpu<T>(const Eigen::ThreadPoolDevice*, const T*, const T*, T*, std::int64_t, std::int64_t,     \
                               std::int64_t, bool, bool, bool, bool)
TSTUDIO_INSTANTIATE_MATMUL_CPU(float);
TSTUDIO_INSTANTIATE_MATMUL_CPU(double);
TSTUDIO_INSTANTIATE_MATMUL_CPU(Eigen::half);
TSTUDIO_INSTANTIATE_MATMUL_CPU(Eigen::bfloat16);
TSTUDIO_INSTANTIATE_MATMUL_CPU(std::int32_t);
TSTUDIO_INSTANTIATE_MATMUL_CPU(std::int64_t);
TSTUDIO_INSTANTIATE_MATMUL_CPU(std::complex<float>);
TSTUDIO_INSTANTIATE_MATMUL_CPU(std::complex<double>);
#undef TSTUDIO_INSTANTIATE_MATMUL_CPU

namespace {

/// MatMul: a [m,k] (or [k,m] with transpose_a) times b [k,n] (or [n,k] with transpose_b).
template <typename T> class MatMulOp : public OpKernel {
public:
    explicit MatMulOp(OpKernelConstruction& construction)
        : OpKernel(construction), m_attrs(productAttrs(construction.node(), "transpose_a", "transpose_b"))
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_attrs.status.isOk())
            return m_attrs.status;
        const Tensor& a = ctx.input(0);
        const Tensor& b = ctx.input(1);
        auto dims = matMulDims(a.shape(), b.shape(), m_attrs.first, m_attrs.second);
        if (!dims)
            return dims.error();
        const std::int64_t m = dims->m, n = dims->n, k = dims->k;
        auto out = ctx.allocateOutput(0, TensorShape{m, n});
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();
        matMulCpu<T>(ctx.device().eigenCpuDevice(), a.data<T>(), b.data<T>(), (*out)->template data<T>(), m, n, k,
                     m_attrs.first, false, m_attrs.second, false);
        return Status::ok();
    }

private:
    ProductAttrs m_attrs;
};

template <typename... Ts> Status registerMatMulTypes(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (status.isOk())
            status = registry.add<MatMulOp<T>>(KernelDef{"MatMul", "CPU", {{"T", {kDataTypeOf<T>}}}, {}});
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace

Status registerMatMulCpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15's CPU registrations (matmul_op.cc).
    return registerMatMulTypes(registry, TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int32_t,
                                                  std::int64_t, std::complex<float>, std::complex<double>>{});
}

} // namespace tstudio::linalg
