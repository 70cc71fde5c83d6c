// ReductionOp: the CPU kernel template behind Sum, Mean, Prod, Max, Min, All and Any (TF's ReductionOp).
// Included by the <op>_cpu.cpp files only, after `#define EIGEN_USE_THREADS`.
#pragma once

#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"
#include "kernels/reduction/permute_dims.h"
#include "kernels/reduction/reduce_functor.h"
#include "kernels/reduction/reduction_helper.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace tstudio::reduction {

/// What ReductionOp<T, Reducer> computes on: T itself, except that signed integers are summed and
/// multiplied on their unsigned twin, where C++ defines the wrap-around modulo 2^bits (on T an
/// overflow is undefined behaviour); the bits are those of TensorFlow's two's-complement results.
template <typename T, typename Reducer> struct ComputeType {
    using Type = T;
    using ReducerType = Reducer;
};
template <typename T>
    requires std::is_integral_v<T> && std::is_signed_v<T>
struct ComputeType<T, Eigen::internal::SumReducer<T>> {
    using Type = std::make_unsigned_t<T>;
    using ReducerType = Eigen::internal::SumReducer<Type>;
};
template <typename T>
    requires std::is_integral_v<T> && std::is_signed_v<T>
struct ComputeType<T, Eigen::internal::ProdReducer<T>> {
    using Type = std::make_unsigned_t<T>;
    using ReducerType = Eigen::internal::ProdReducer<Type>;
};

/// input: T, reduction_indices: Tidx (int32 or int64) -> output: T, with keep_dims.
///
/// The reduction is first collapsed by ReductionHelper; then, as in TensorFlow: nothing to
/// reduce copies the input; an empty output is left alone; an empty input with a non-empty
/// output gets the reducer's identity; one, two or three collapsed dimensions are reduced
/// directly with Eigen on the device's threads; anything else is transposed so that the kept
/// runs come first and reduced as a matrix along its rows.
template <typename T, typename Reducer> class ReductionOp : public OpKernel {
public:
    explicit ReductionOp(OpKernelConstruction& construction) : OpKernel(construction), m_attrs(construction.node()) {}

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& data = ctx.input(0);
        const Tensor& axes = ctx.input(1);
        ReductionHelper helper;
        if (Status s = m_attrs.plan(data.shape(), axes, helper); !s.isOk())
            return s;
        auto allocated = ctx.allocateOutput(0, helper.outShape());
        if (!allocated)
            return allocated.error();
        Tensor& out = **allocated;
        if (out.numElements() == 0)
            return Status::ok();
        if (helper.ndims() == 0 || (helper.ndims() == 1 && !helper.reduceFirstAxis())) {
            // Only size-1 dimensions are reduced: the values are the input's.
            std::memcpy(out.template data<T>(), data.data<T>(),
                        static_cast<std::size_t>(data.numElements()) * sizeof(T));
            return Status::ok();
        }

        const Eigen::ThreadPoolDevice& d = *ctx.device().eigenCpuDevice();
        // C is T, or for signed integer sums and products its unsigned twin (same size and bits).
        using C = typename ComputeType<T, Reducer>::Type;
        using F = ReduceFunctor<Eigen::ThreadPoolDevice, C, typename ComputeType<T, Reducer>::ReducerType>;
        const std::vector<std::int64_t>& in = helper.dataReshape();
        const std::vector<std::int64_t>& kept = helper.outReshape();
        C* o = reinterpret_cast<C*>(out.template data<T>());
        if (data.numElements() == 0) {
            F::fillIdentity(d, ShapedTensor<C, 1>(o, out.numElements()));
            return Status::ok();
        }
        const C* x = reinterpret_cast<const C*>(data.data<T>());
        const Eigen::array<int, 1> axis0{0};
        const Eigen::array<int, 1> axis1{1};
        const Eigen::array<int, 2> axes02{0, 2};
        if (helper.ndims() == 1) {
            F::reduce(d, ShapedTensor<C, 0>(o), ConstShapedTensor<C, 1>(x, in[0]), axis0);
        } else if (helper.ndims() == 2 && helper.reduceFirstAxis()) {
            F::reduce(d, ShapedTensor<C, 1>(o, kept[0]), ConstShapedTensor<C, 2>(x, in[0], in[1]), axis0);
        } else if (helper.ndims() == 2) {
            F::reduce(d, ShapedTensor<C, 1>(o, kept[0]), ConstShapedTensor<C, 2>(x, in[0], in[1]), axis1);
        } else if (helper.ndims() == 3 && helper.reduceFirstAxis()) {
            F::reduce(d, ShapedTensor<C, 1>(o, kept[0]), ConstShapedTensor<C, 3>(x, in[0], in[1], in[2]), axes02);
        } else if (helper.ndims() == 3) {
            F::reduce(d, ShapedTensor<C, 2>(o, kept[0], kept[1]), ConstShapedTensor<C, 3>(x, in[0], in[1], in[2]),
                      axis1);
        } else {
            // Kept runs first, reduced runs last, then a [kept, reduced] matrix reduced along rows.
            auto shuffled = Tensor::allocate(ctx.allocator(), data.dtype(), data.shape());
            if (!shuffled)
                return shuffled.error();
            C* permuted = reinterpret_cast<C*>(shuffled->template data<T>());
            permuteDims(&d, x, permuted, sizeof(T), in, helper.permutation());
            const std::int64_t unreduced = out.numElements();
            const std::int64_t reduced = data.numElements() / unreduced;
            F::reduce(d, ShapedTensor<C, 1>(o, unreduced), ConstShapedTensor<C, 2>(permuted, unreduced, reduced), axis1);
        }
        return Status::ok();
    }

private:
    ReductionAttrs m_attrs;
};

/// Registers ReductionOp<T, ReducerOf<T>> for `op` and each of Ts (Tidx int32 and int64).
template <template <typename> class ReducerOf, typename... Ts>
Status registerReductionKernels(KernelRegistry& registry, const std::string& op, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (status.isOk()) {
            status = registry.add<ReductionOp<T, ReducerOf<T>>>(KernelDef{
                op, "CPU", {{"T", {kDataTypeOf<T>}}, {"Tidx", {tensorflow::DT_INT32, tensorflow::DT_INT64}}}, {}});
        }
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

/// TensorFlow 1.15's TF_CALL_REAL_NUMBER_TYPES and TF_CALL_NUMBER_TYPES.
using RealNumberKernelTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t,
                                       std::int32_t, std::int64_t, std::uint8_t, std::uint16_t>;
using NumberKernelTypes =
    TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
             std::uint8_t, std::uint16_t, std::complex<float>, std::complex<double>>;

} // namespace tstudio::reduction
