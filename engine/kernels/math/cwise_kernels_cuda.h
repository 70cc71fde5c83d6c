// Element-wise kernels on a GPU: the OpKernel classes and registration helpers that the math family's
// *_cuda.cpp files share. Device kernels queue cwise_cuda.h's launchers on the compute stream; the
// int32 kernels run on the host over host-memory arguments, as TensorFlow registers them.
#pragma once

#ifndef EIGEN_USE_THREADS
#error "define EIGEN_USE_THREADS before the first include of a file that includes kernels/math/cwise_kernels_cuda.h"
#endif

#include "devices/cuda/cuda_kernel.h"
#include "framework/data_type.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "kernels/math/broadcast.h"
#include "kernels/math/cwise_cpu.h"
#include "kernels/math/cwise_cuda.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tstudio::gpu_cwise {

/// Where a kernel computes: on the GPU over GPU memory, or on the host over arguments that its
/// KernelDef keeps in host memory (TensorFlow's int32 arithmetic "GPU" kernels).
enum class Placement { kDevice, kHost };

/// The launch layout of a valid plan with at least one output element; nullopt when it has more
/// than gpu::kMaxBroadcastRank collapsed dimensions.
std::optional<gpu::BroadcastLayout> broadcastLayout(const BroadcastPlan& plan);
/// Unimplemented, in TensorFlow's words: "Broadcast between [2,1,3] and [1,2,1] is not supported yet."
Status unsupportedBroadcastError(const TensorShape& x, const TensorShape& y);

/// The dtypes of a TypeList, for KernelDefs.
template <typename... Ts> std::vector<DataType> dataTypesOf(TypeList<Ts...>)
{
    return {kDataTypeOf<Ts>...};
}

/// A GPU KernelDef with attr `attr` constrained to `types` and `hostArgs` kept in host memory.
KernelDef gpuKernelDef(std::string op, std::vector<DataType> types, std::vector<std::string> hostArgs = {},
                       std::string attr = "T");

/// A new tensor in the GPU's memory for output `i` of `kernel`, every element to be written by a kernel.
Expected<Tensor> uninitializedOutput(const OpKernel& kernel, OpKernelContext& context, int i, const TensorShape& shape);

/// The GPU `context` computes on (cuda::gpuOf), then the CPU kernels' input dtype checks
/// (cwise::checkInputTypes): how every element-wise GPU kernel's compute() starts.
Expected<CudaDevice*> checkedGpuOf(const OpKernel& kernel, OpKernelContext& context);

/// The scalar bool output of Equal/NotEqual with incompatible_shape_error = false on shapes that do
/// not broadcast: `value`, written on the compute stream (or on the host for host-memory outputs).
Status setScalarBoolOutput(const OpKernel& kernel, OpKernelContext& context, CudaDevice& gpu, bool value);

/// out = f(x, y) over a valid plan with at least one element, on the host (BroadcastRowCursor).
template <typename F, typename In, typename Out>
void hostBinary(const F& f, const BroadcastPlan& plan, Out* out, const In* x, const In* y)
{
    if (plan.dims().empty()) {
        out[0] = f(x[0], y[0]);
        return;
    }
    const std::int64_t inner = plan.dims().back();
    const std::int64_t xStep = plan.strides(0).back();
    const std::int64_t yStep = plan.strides(1).back();
    const std::int64_t rows = plan.numElements() / inner;
    BroadcastRowCursor cursor(plan, 0);
    for (std::int64_t row = 0; row < rows; ++row, cursor.next()) {
        const In* a = x + cursor.offset(0);
        const In* b = y + cursor.offset(1);
        Out* o = out + row * inner;
        for (std::int64_t j = 0; j < inner; ++j)
            o[j] = f(a[j * xStep], b[j * yStep]);
    }
}

/// x: In -> y: f(x), same shape.
template <typename In, typename F, Placement P> class UnaryGpuKernel final : public OpKernel {
public:
    using Out = gpu::ResultOf<F, In>;
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        auto gpu = checkedGpuOf(*this, context);
        if (!gpu)
            return gpu.error();
        const Tensor& x = context.input(0);
        const std::int64_t n = x.numElements();
        if constexpr (P == Placement::kHost) {
            auto out = context.allocateOutput(0, x.shape());
            if (!out)
                return out.error();
            const F f{};
            const In* in = x.data<In>();
            Out* y = (*out)->template data<Out>();
            for (std::int64_t i = 0; i < n; ++i)
                y[i] = f(in[i]);
            return Status::ok();
        } else {
            auto out = uninitializedOutput(*this, context, 0, x.shape());
            if (!out)
                return out.error();
            if (n > 0) {
                gpu::UnaryLauncher<F, In>::launch((*gpu)->computeStream(), F(), out->template data<Out>(), x.data<In>(),
                                                  n);
                if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                    return s;
            }
            return context.setOutput(0, std::move(*out));
        }
    }
};

/// x: In, y: In -> z: f(x, y) with broadcasting, validated as the CPU's BinaryCwiseKernel (same
/// texts; Equal/NotEqual with incompatible_shape_error = false give a scalar). Host kernels run
/// Check on y as the CPU kernels do (integer division by zero, negative integer powers); device
/// kernels do not read their inputs on the host and, as TensorFlow's GPU kernels, do not check.
template <typename In, typename F, Placement P, typename Check = cwise::NoCheck>
class BinaryGpuKernel final : public OpKernel {
public:
    using Out = gpu::ResultOf<F, In, In>;

    explicit BinaryGpuKernel(OpKernelConstruction& construction) : OpKernel(construction)
    {
        const tensorflow::AttrValue* attr = findAttr(construction.node(), "incompatible_shape_error");
        m_scalarWhenIncompatible = attr && attr->value_case() == tensorflow::AttrValue::kB && !attr->b();
    }

    Status compute(OpKernelContext& context) override
    {
        auto gpu = checkedGpuOf(*this, context);
        if (!gpu)
            return gpu.error();
        const Tensor& x = context.input(0);
        const Tensor& y = context.input(1);
        const BroadcastPlan plan{x.shape(), y.shape()};
        if (!plan.valid()) {
            if constexpr (std::is_same_v<Out, bool>) {
                if (m_scalarWhenIncompatible)
                    return setScalarBoolOutput(*this, context, **gpu, op() == "NotEqual");
            }
            return cwise::incompatibleShapesError(x.shape(), y.shape());
        }
        if (plan.numElements() == 0) {
            auto out = context.allocateOutput(0, plan.outputShape());
            return out ? Status::ok() : out.error();
        }
        if constexpr (P == Placement::kHost) {
            auto out = context.allocateOutput(0, plan.outputShape());
            if (!out)
                return out.error();
            if (Status s = Check::template check<In>(y); !s.isOk())
                return s;
            hostBinary(F(), plan, (*out)->template data<Out>(), x.data<In>(), y.data<In>());
            return Status::ok();
        } else {
            const std::optional<gpu::BroadcastLayout> layout = broadcastLayout(plan);
            if (!layout)
                return unsupportedBroadcastError(x.shape(), y.shape());
            auto out = uninitializedOutput(*this, context, 0, plan.outputShape());
            if (!out)
                return out.error();
            gpu::BinaryLauncher<F, In>::launch((*gpu)->computeStream(), F(), *layout, out->template data<Out>(),
                                               x.data<In>(), y.data<In>());
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
            return context.setOutput(0, std::move(*out));
        }
    }

private:
    bool m_scalarWhenIncompatible = false;
};

/// y: In, dy: In -> z: f(y, dy) for inputs of the same number of elements, shaped as y (the
/// gradient helpers TanhGrad ... ReciprocalGrad, as the CPU's SimpleBinaryKernel).
template <typename In, typename F> class SimpleBinaryGpuKernel final : public OpKernel {
public:
    using Out = gpu::ResultOf<F, In, In>;
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        auto gpu = checkedGpuOf(*this, context);
        if (!gpu)
            return gpu.error();
        const Tensor& y = context.input(0);
        const Tensor& dy = context.input(1);
        // The CPU's SimpleBinaryKernel text.
        if (y.numElements() != dy.numElements()) {
            return invalidArgumentError("The two arguments to a cwise op must have same number of elements, got " +
                                        std::to_string(y.numElements()) + " and " + std::to_string(dy.numElements()));
        }
        auto out = uninitializedOutput(*this, context, 0, y.shape());
        if (!out)
            return out.error();
        if (y.numElements() > 0) {
            gpu::FlatBinaryLauncher<F, In>::launch((*gpu)->computeStream(), F(), out->template data<Out>(),
                                                   y.data<In>(), dy.data<In>(), y.numElements());
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
        }
        return context.setOutput(0, std::move(*out));
    }
};

// --- Registration: one KernelDef per dtype, as TensorFlow's REGISTER_KERNEL_BUILDER per type --------------

/// The first error of `statuses` (registrations made in order), or OK.
Status firstError(std::initializer_list<Status> statuses);

/// The arguments of a unary and of a binary element-wise op, all in host memory for the int32 kernels.
inline const std::vector<std::string> kUnaryArgs{"x", "y"};
inline const std::vector<std::string> kBinaryArgs{"x", "y", "z"};

/// UnaryGpuKernel<T, F<T>, kDevice> for `op` and each T.
template <template <typename> class F, typename... Ts>
Status registerUnary(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    ((status = status.isOk()
                   ? registry.add<UnaryGpuKernel<Ts, F<Ts>, Placement::kDevice>>(gpuKernelDef(op, {kDataTypeOf<Ts>}))
                   : status),
     ...);
    return status;
}

/// UnaryGpuKernel<int32, F<int32>, kHost> for `op`, x and y in host memory.
template <template <typename> class F> Status registerUnaryHostInt32(KernelRegistry& registry, const std::string& op)
{
    using Kernel = UnaryGpuKernel<std::int32_t, F<std::int32_t>, Placement::kHost>;
    return registry.add<Kernel>(gpuKernelDef(op, {kDataTypeOf<std::int32_t>}, kUnaryArgs));
}

/// BinaryGpuKernel<T, F<T>, kDevice> for `op` and each T.
template <template <typename> class F, typename... Ts>
Status registerBinary(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    ((status = status.isOk()
                   ? registry.add<BinaryGpuKernel<Ts, F<Ts>, Placement::kDevice>>(gpuKernelDef(op, {kDataTypeOf<Ts>}))
                   : status),
     ...);
    return status;
}

/// BinaryGpuKernel<int32, F<int32>, kHost, Check> for `op`, x, y and z in host memory.
template <template <typename> class F, typename Check = cwise::NoCheck>
Status registerBinaryHostInt32(KernelRegistry& registry, const std::string& op)
{
    using Kernel = BinaryGpuKernel<std::int32_t, F<std::int32_t>, Placement::kHost, Check>;
    return registry.add<Kernel>(gpuKernelDef(op, {kDataTypeOf<std::int32_t>}, kBinaryArgs));
}

/// SimpleBinaryGpuKernel<T, F<T>> for `op` and each T.
template <template <typename> class F, typename... Ts>
Status registerSimpleBinary(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    ((status =
          status.isOk() ? registry.add<SimpleBinaryGpuKernel<Ts, F<Ts>>>(gpuKernelDef(op, {kDataTypeOf<Ts>})) : status),
     ...);
    return status;
}

} // namespace tstudio::gpu_cwise

namespace tstudio::math_kernels {
// The math family's GPU kernel groups, one per *_cuda.cpp file; registerMathGpuKernels
// (register_math_kernels_cuda.cpp) calls them all.
Status registerBinaryGpuKernels(KernelRegistry& registry); ///< Add ... FloorMod, comparisons, logic
Status registerUnaryGpuKernels(KernelRegistry& registry);  ///< Neg ... IsInf, LogicalNot, *Grad helpers
Status registerCastGpuKernels(KernelRegistry& registry);   ///< Cast
Status registerSelectGpuKernels(KernelRegistry& registry); ///< Select, SelectV2
Status registerAddNGpuKernels(KernelRegistry& registry);   ///< AddN
} // namespace tstudio::math_kernels

namespace tstudio::nn {
// The NN family's element-wise GPU kernels, registered with the math family's by registerMathGpuKernels.
Status
registerActivationGpuKernels(KernelRegistry& registry); ///< Relu ... Softsign, their *Grad (activation_ops_cuda.cpp)
Status registerBiasAddGpuKernels(KernelRegistry& registry); ///< BiasAdd, BiasAddV1 (bias_add_cuda.cpp)
} // namespace tstudio::nn
