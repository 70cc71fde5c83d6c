// Element-wise ops on the CPU: the CpuDevice executors of cwise_functor.h (threads from Eigen's
// ThreadPoolDevice, SIMD from Eigen arrays), and the kernel classes and registration helpers the
// math family's *_cpu.cpp files share.
#pragma once

#ifndef EIGEN_USE_THREADS
#error "define EIGEN_USE_THREADS before the first include of a file that includes kernels/math/cwise_cpu.h"
#endif

#include "framework/data_type.h"
#include "devices/cpu/cpu_parallel.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"
#include "kernels/math/broadcast.h"
#include "kernels/math/cwise_functor.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace tstudio {

using CpuDevice = Eigen::ThreadPoolDevice;

namespace cwise {

/// Scalar types handled with Eigen arrays (SIMD where Eigen has packets); strings take plain loops.
template <typename T> inline constexpr bool kEigenScalar = !std::is_same_v<T, std::string>;

/// The result type of functor F applied to arguments of type In.
template <typename F, typename... In> using ResultOf = std::decay_t<std::invoke_result_t<const F&, const In&...>>;

template <typename T> using Array = Eigen::Array<T, Eigen::Dynamic, 1>;

/// One element's cost for the thread pool's cost model (it decides how many threads to use).
template <typename F, typename In, typename Out, int Inputs> Eigen::TensorOpCost elementCost()
{
    double cycles = 100; // strings: allocation dominates
    if constexpr (kEigenScalar<In>)
        cycles = Eigen::internal::functor_traits<F>::Cost;
    return Eigen::TensorOpCost(double(Inputs * sizeof(In)), double(sizeof(Out)), cycles);
}

/// Runs f(first, last) over [0, n) on the pool's threads, choosing the number of ranges by `cost`.
/// Range boundaries fall on multiples of 64 elements, so every element goes through the same
/// (SIMD or scalar) code of Eigen's assignment loop whatever the number of threads: results do
/// not depend on the thread count.
template <typename F>
void parallelRanges(const CpuDevice& device, std::int64_t n, const Eigen::TensorOpCost& cost, F&& f)
{
    cpuParallelFor(device, n, cost, std::forward<F>(f), 64);
}

// Row kernels: n outputs from contiguous inputs (V) or a repeated scalar (S).

template <typename F, typename In, typename Out> void rowUnary(const F& f, Out* out, const In* a, Eigen::Index n)
{
    if constexpr (kEigenScalar<In>) {
        Eigen::Map<Array<Out>>(out, n) = Eigen::Map<const Array<In>>(a, n).unaryExpr(f);
    } else {
        for (Eigen::Index i = 0; i < n; ++i)
            out[i] = f(a[i]);
    }
}

template <typename F, typename In, typename Out>
void rowVV(const F& f, Out* out, const In* a, const In* b, Eigen::Index n)
{
    if constexpr (kEigenScalar<In>) {
        Eigen::Map<Array<Out>>(out, n) =
            Eigen::Map<const Array<In>>(a, n).binaryExpr(Eigen::Map<const Array<In>>(b, n), f);
    } else {
        for (Eigen::Index i = 0; i < n; ++i)
            out[i] = f(a[i], b[i]);
    }
}

template <typename F, typename In, typename Out>
void rowVS(const F& f, Out* out, const In* a, const In& b, Eigen::Index n)
{
    if constexpr (kEigenScalar<In>) {
        Eigen::Map<Array<Out>>(out, n) = Eigen::Map<const Array<In>>(a, n).binaryExpr(Array<In>::Constant(n, b), f);
    } else {
        for (Eigen::Index i = 0; i < n; ++i)
            out[i] = f(a[i], b);
    }
}

template <typename F, typename In, typename Out>
void rowSV(const F& f, Out* out, const In& a, const In* b, Eigen::Index n)
{
    if constexpr (kEigenScalar<In>) {
        Eigen::Map<Array<Out>>(out, n) = Array<In>::Constant(n, a).binaryExpr(Eigen::Map<const Array<In>>(b, n), f);
    } else {
        for (Eigen::Index i = 0; i < n; ++i)
            out[i] = f(a, b[i]);
    }
}

} // namespace cwise

template <typename F, typename In> struct UnaryFunctor<CpuDevice, F, In> {
    using Out = cwise::ResultOf<F, In>;

    void operator()(const CpuDevice& device, const F& f, Out* out, const In* in, std::int64_t n) const
    {
        if (n <= 0)
            return;
        cwise::parallelRanges(
            device, n, cwise::elementCost<F, In, Out, 1>(),
            [&](Eigen::Index first, Eigen::Index last) { cwise::rowUnary(f, out + first, in + first, last - first); });
    }
};

/// Splits the output into ranges for the pool's threads; each range walks its rows of the
/// collapsed output (BroadcastRowCursor: index arithmetic once per row) and fills each row with
/// one vectorised expression. Same-shape inputs are one long row, scalar-and-tensor one long row
/// against a constant, so those cases never compute per-element indices.
template <typename F, typename In> struct BinaryFunctor<CpuDevice, F, In> {
    using Out = cwise::ResultOf<F, In, In>;

    void operator()(const CpuDevice& device, const F& f, const BroadcastPlan& plan, Out* out, const In* x,
                    const In* y) const
    {
        const std::int64_t n = plan.numElements();
        if (n <= 0)
            return;
        if (plan.dims().empty()) { // one element
            out[0] = f(x[0], y[0]);
            return;
        }
        const std::int64_t inner = plan.dims().back();
        const std::int64_t xStep = plan.strides(0).back(); // 1, or 0 when x repeats along the row
        const std::int64_t yStep = plan.strides(1).back();
        cwise::parallelRanges(device, n, cwise::elementCost<F, In, Out, 2>(),
                              [&](Eigen::Index first, Eigen::Index last) {
                                  BroadcastRowCursor cursor(plan, first / inner);
                                  std::int64_t column = first % inner;
                                  for (std::int64_t pos = first; pos < last; column = 0, cursor.next()) {
                                      const std::int64_t length = std::min(inner - column, last - pos);
                                      const In* a = x + cursor.offset(0) + column * xStep;
                                      const In* b = y + cursor.offset(1) + column * yStep;
                                      if (xStep != 0 && yStep != 0)
                                          cwise::rowVV(f, out + pos, a, b, length);
                                      else if (yStep == 0)
                                          cwise::rowVS(f, out + pos, a, *b, length);
                                      else
                                          cwise::rowSV(f, out + pos, *a, b, length);
                                      pos += length;
                                  }
                              });
    }
};

namespace cwise {

/// out = f(x, y) over n elements without a broadcast plan: `scalar` 0 when x and y both have n
/// elements, 1 when x is one element repeated, 2 when y is. The ranges and row kernels of
/// BinaryFunctor's one-row case, so the results are the same.
template <typename F, typename In, typename Out>
void binaryRow(const CpuDevice& device, const F& f, Out* out, const In* x, const In* y, std::int64_t n, int scalar)
{
    if (n == 1) {
        out[0] = f(x[0], y[0]);
        return;
    }
    parallelRanges(device, n, elementCost<F, In, Out, 2>(), [&](Eigen::Index first, Eigen::Index last) {
        if (scalar == 0)
            rowVV(f, out + first, x + first, y + first, last - first);
        else if (scalar == 1)
            rowSV(f, out + first, *x, y + first, last - first);
        else
            rowVS(f, out + first, x + first, *y, last - first);
    });
}

/// InvalidArgument in TensorFlow's words unless every input has the dtype the kernel was built
/// for ("Expected tensor of type float but got type int32"); typed access would abort otherwise.
Status checkInputTypes(const OpKernel& kernel, const OpKernelContext& context);
/// The device's thread pool; Internal when the kernel runs on a device without one.
Expected<const CpuDevice*> cpuDevice(const OpKernelContext& context);
/// "Incompatible shapes: [2,3] vs. [4]".
Status incompatibleShapesError(const TensorShape& x, const TensorShape& y);

/// Input checks that binary kernels run on y once the output is known to be non-empty (every
/// element of y is then used).
struct NoCheck {
    template <typename T> static Status check(const Tensor&) { return Status::ok(); }
};

/// Integer Div, FloorDiv and FloorMod: TensorFlow fails the whole op on a zero divisor.
struct NonZeroDivisor {
    template <typename T> static Status check(const Tensor& y)
    {
        if constexpr (std::is_integral_v<T>) {
            const auto values = y.values<T>();
            if (std::find(values.begin(), values.end(), T(0)) != values.end())
                return invalidArgumentError("Integer division by zero");
        }
        return Status::ok();
    }
};

/// Integer Pow: TensorFlow fails the whole op on a negative exponent.
struct NonNegativeExponent {
    template <typename T> static Status check(const Tensor& y)
    {
        if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
            const auto values = y.values<T>();
            if (std::any_of(values.begin(), values.end(), [](T v) { return v < T(0); }))
                return invalidArgumentError("Integers to negative integer powers are not allowed");
        }
        return Status::ok();
    }
};

} // namespace cwise

/// x: In -> y: f(x), same shape.
template <typename In, typename F> class UnaryCwiseKernel final : public OpKernel {
public:
    using Out = cwise::ResultOf<F, In>;
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        auto device = cwise::cpuDevice(context);
        if (!device)
            return device.error();
        const Tensor& x = context.input(0);
        // In place when nothing else holds x (element i is read before it is written).
        auto out = context.forwardInputOrAllocateOutput({0}, 0, x.shape());
        if (!out)
            return out.error();
        if (x.numElements() > 0)
            UnaryFunctor<CpuDevice, F, In>()(**device, F(), (*out)->template data<Out>(), x.data<In>(),
                                             x.numElements());
        return Status::ok();
    }
};

/// x: In, y: In -> z: f(x, y) with broadcasting ("Incompatible shapes: [2,3] vs. [4]"). A node
/// with incompatible_shape_error = false (Equal, NotEqual) gives a scalar instead: false for
/// Equal, true for NotEqual, as TensorFlow's BinaryOpState.
template <typename In, typename F, typename Check = cwise::NoCheck> class BinaryCwiseKernel final : public OpKernel {
public:
    using Out = cwise::ResultOf<F, In, In>;

    explicit BinaryCwiseKernel(OpKernelConstruction& construction) : OpKernel(construction)
    {
        const tensorflow::AttrValue* attr = findAttr(construction.node(), "incompatible_shape_error");
        m_scalarWhenIncompatible = attr && attr->value_case() == tensorflow::AttrValue::kB && !attr->b();
    }

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        auto device = cwise::cpuDevice(context);
        if (!device)
            return device.error();
        const Tensor& x = context.input(0);
        const Tensor& y = context.input(1);
        // Equal shapes, or a scalar and a tensor: one row, no broadcast plan (and none of its
        // vectors) to make, as TensorFlow's BinaryOp fast paths; the same ranges and row kernels.
        const bool sameShape = x.shape() == y.shape();
        if (sameShape || x.rank() == 0 || y.rank() == 0) {
            const Tensor& shaped = sameShape || y.rank() == 0 ? x : y;
            auto out = context.forwardInputOrAllocateOutput({0, 1}, 0, shaped.shape());
            if (!out)
                return out.error();
            const std::int64_t n = shaped.numElements();
            if (n == 0)
                return Status::ok();
            if (Status s = Check::template check<In>(y); !s.isOk())
                return s;
            cwise::binaryRow(**device, F(), (*out)->template data<Out>(), x.data<In>(), y.data<In>(), n,
                             sameShape ? 0 : (x.rank() == 0 ? 1 : 2));
            return Status::ok();
        }
        const BroadcastPlan plan{x.shape(), y.shape()};
        if (!plan.valid()) {
            if constexpr (std::is_same_v<Out, bool>) {
                if (m_scalarWhenIncompatible) {
                    auto out = context.allocateOutput(0, TensorShape::scalar());
                    if (!out)
                        return out.error();
                    (*out)->template scalar<bool>() = op() == "NotEqual";
                    return Status::ok();
                }
            }
            return cwise::incompatibleShapesError(x.shape(), y.shape());
        }
        // In place in an input of the output's shape that nothing else holds: each row reads its
        // elements of that input before writing the same elements.
        auto out = context.forwardInputOrAllocateOutput({0, 1}, 0, plan.outputShape());
        if (!out)
            return out.error();
        if (plan.numElements() == 0)
            return Status::ok();
        if (Status s = Check::template check<In>(y); !s.isOk())
            return s;
        BinaryFunctor<CpuDevice, F, In>()(**device, F(), plan, (*out)->template data<Out>(), x.data<In>(),
                                          y.data<In>());
        return Status::ok();
    }

private:
    bool m_scalarWhenIncompatible = false;
};

/// y: In, dy: In -> z: f(y, dy) for inputs with the same number of elements, shaped as y
/// (TensorFlow's SimpleBinaryOp: the gradient helpers TanhGrad, SqrtGrad, ...).
template <typename In, typename F> class SimpleBinaryKernel final : public OpKernel {
public:
    using Out = cwise::ResultOf<F, In, In>;
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        if (Status s = cwise::checkInputTypes(*this, context); !s.isOk())
            return s;
        auto device = cwise::cpuDevice(context);
        if (!device)
            return device.error();
        const Tensor& y = context.input(0);
        const Tensor& dy = context.input(1);
        if (y.numElements() != dy.numElements()) {
            return invalidArgumentError("The two arguments to a cwise op must have same number of elements, got " +
                                        std::to_string(y.numElements()) + " and " + std::to_string(dy.numElements()));
        }
        auto out = context.forwardInputOrAllocateOutput({0, 1}, 0, y.shape());
        if (!out)
            return out.error();
        const TensorShape flat{y.numElements()};
        BinaryFunctor<CpuDevice, F, In>()(**device, F(), BroadcastPlan{flat, flat}, (*out)->template data<Out>(),
                                          y.data<In>(), dy.data<In>());
        return Status::ok();
    }
};

// --- Registration: one KernelDef per dtype, as TensorFlow's REGISTER_KERNEL_BUILDER per type --------------

/// Registers `Kernel` for `op` on CPU with attr `attr` constrained to `dtype`.
template <typename Kernel>
Status addCpuKernel(KernelRegistry& registry, const std::string& op, DataType dtype, const std::string& attr = "T")
{
    return registry.add<Kernel>(KernelDef{op, "CPU", {{attr, {dtype}}}, {}});
}

/// Registers UnaryCwiseKernel<T, F<T>> for each T.
template <template <typename> class F, typename... Ts>
Status registerUnaryKernels(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    ((status = status.isOk() ? addCpuKernel<UnaryCwiseKernel<Ts, F<Ts>>>(registry, op, kDataTypeOf<Ts>) : status), ...);
    return status;
}

/// Registers BinaryCwiseKernel<T, F<T>, Check> for each T.
template <template <typename> class F, typename Check = cwise::NoCheck, typename... Ts>
Status registerBinaryKernels(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    ((status =
          status.isOk() ? addCpuKernel<BinaryCwiseKernel<Ts, F<Ts>, Check>>(registry, op, kDataTypeOf<Ts>) : status),
     ...);
    return status;
}

/// Registers SimpleBinaryKernel<T, F<T>> for each T.
template <template <typename> class F, typename... Ts>
Status registerSimpleBinaryKernels(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    ((status = status.isOk() ? addCpuKernel<SimpleBinaryKernel<Ts, F<Ts>>>(registry, op, kDataTypeOf<Ts>) : status),
     ...);
    return status;
}

} // namespace tstudio
