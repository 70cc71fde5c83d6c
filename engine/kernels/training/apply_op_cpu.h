// The CPU's update functions for the Apply* kernels (apply_ops.h): the Eigen functors of
// apply_functors.h over ranges of the variable on the device's threads, the hyper-parameters read
// on the host. Included by
// apply_ops_cpu.cpp and resource_apply_ops_cpu.cpp only, after `#define EIGEN_USE_THREADS`.
#pragma once

#include "devices/cpu/cpu_parallel.h"
#include "kernels/state/device_copy.h"
#include "kernels/training/apply_functors.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::training {

template <typename T> struct CpuApplyUpdates {
    /// Runs update(range) over the n elements of the variable in contiguous ranges on the device's
    /// threads (cpuParallelFor, the calling thread working too); `range` slices any flat operand.
    /// Each range applies the functor on Eigen's DefaultDevice, so every element goes through the
    /// same expression whatever the number of ranges. `tensors` operands are read per element and
    /// `written` written; `cycles` is the arithmetic per element.
    template <typename F>
    static void inRanges(OpKernelContext& ctx, const Tensor& var, int tensors, int written, double cycles, F&& update)
    {
        const Eigen::TensorOpCost cost(double(tensors) * sizeof(T), double(written) * sizeof(T), cycles);
        cpuParallelFor(*ctx.device().eigenCpuDevice(), static_cast<Eigen::Index>(var.numElements()), cost,
                       [&](Eigen::Index first, Eigen::Index last) {
                           auto range = [first, last](auto& t) {
                               using Flat = std::conditional_t<std::is_const_v<std::remove_reference_t<decltype(t)>>,
                                                               ConstFlatTensor<T>, FlatTensor<T>>;
                               return Flat(t.template data<T>() + first, last - first);
                           };
                           update(range);
                       });
    }

    static Status gradientDescent(OpKernelContext& ctx, Tensor& var, const Tensor& alpha, const Tensor& delta)
    {
        inRanges(ctx, var, 2, 1, 2, [&](auto range) {
            functor::ApplyGradientDescent<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), range(var),
                                                                     alpha.scalar<T>(), range(delta));
        });
        return Status::ok();
    }
    static Status momentum(OpKernelContext& ctx, Tensor& var, Tensor& accum, const Tensor& lr, const Tensor& grad,
                           const Tensor& momentum, bool useNesterov)
    {
        inRanges(ctx, var, 3, 2, 5, [&](auto range) {
            functor::ApplyMomentum<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), range(var), range(accum),
                                                              lr.scalar<T>(), range(grad), momentum.scalar<T>(),
                                                              useNesterov);
        });
        return Status::ok();
    }
    static Status adam(OpKernelContext& ctx, Tensor& var, Tensor& m, Tensor& v, const Tensor& beta1Power,
                       const Tensor& beta2Power, const Tensor& lr, const Tensor& beta1, const Tensor& beta2,
                       const Tensor& epsilon, const Tensor& grad, bool useNesterov)
    {
        inRanges(ctx, var, 4, 3, 20, [&](auto range) {
            functor::ApplyAdam<Eigen::DefaultDevice, T>()(
                Eigen::DefaultDevice(), range(var), range(m), range(v), beta1Power.scalar<T>(), beta2Power.scalar<T>(),
                lr.scalar<T>(), beta1.scalar<T>(), beta2.scalar<T>(), epsilon.scalar<T>(), range(grad), useNesterov);
        });
        return Status::ok();
    }
    static Status rmsProp(OpKernelContext& ctx, Tensor& var, Tensor& ms, Tensor& mom, const Tensor& lr,
                          const Tensor& rho, const Tensor& momentum, const Tensor& epsilon, const Tensor& grad)
    {
        inRanges(ctx, var, 4, 3, 20, [&](auto range) {
            functor::ApplyRMSProp<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), range(var), range(ms), range(mom),
                                                             lr.scalar<T>(), rho.scalar<T>(), momentum.scalar<T>(),
                                                             epsilon.scalar<T>(), range(grad));
        });
        return Status::ok();
    }
    static Status centeredRmsProp(OpKernelContext& ctx, Tensor& var, Tensor& mg, Tensor& ms, Tensor& mom,
                                  const Tensor& lr, const Tensor& rho, const Tensor& momentum, const Tensor& epsilon,
                                  const Tensor& grad)
    {
        inRanges(ctx, var, 5, 4, 25, [&](auto range) {
            functor::ApplyCenteredRMSProp<Eigen::DefaultDevice, T>()(
                Eigen::DefaultDevice(), range(var), range(mg), range(ms), range(mom), lr.scalar<T>(), rho.scalar<T>(),
                momentum.scalar<T>(), epsilon.scalar<T>(), range(grad));
        });
        return Status::ok();
    }
    static Status adagrad(OpKernelContext& ctx, Tensor& var, Tensor& accum, const Tensor& lr, const Tensor& grad,
                          bool updateSlots)
    {
        inRanges(ctx, var, 3, 2, 15, [&](auto range) {
            functor::ApplyAdagrad<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), range(var), range(accum),
                                                             lr.scalar<T>(), range(grad), updateSlots);
        });
        return Status::ok();
    }
    static Status adadelta(OpKernelContext& ctx, Tensor& var, Tensor& accum, Tensor& accumUpdate, const Tensor& lr,
                           const Tensor& rho, const Tensor& epsilon, const Tensor& grad)
    {
        inRanges(ctx, var, 4, 3, 30, [&](auto range) {
            functor::ApplyAdadelta<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), range(var), range(accum),
                                                              range(accumUpdate), lr.scalar<T>(), rho.scalar<T>(),
                                                              epsilon.scalar<T>(), range(grad));
        });
        return Status::ok();
    }
    static Status ftrl(OpKernelContext& ctx, Tensor& var, Tensor& accum, Tensor& linear, const Tensor& grad,
                       const Tensor& lr, const Tensor& l1, const Tensor& l2, const Tensor& lrPower)
    {
        inRanges(ctx, var, 4, 3, 40, [&](auto range) {
            functor::ApplyFtrl<Eigen::DefaultDevice, T>()(Eigen::DefaultDevice(), range(var), range(accum),
                                                          range(linear), range(grad), lr.scalar<T>(), l1.scalar<T>(),
                                                          l2.scalar<T>(), lrPower.scalar<T>());
        });
        return Status::ok();
    }
};

/// The CPU as a device of the Apply* forms (apply_forms.h).
struct CpuApplyDevice {
    template <typename T> using Updates = CpuApplyUpdates<T>;
    static const DeviceCopy& copier() { return hostCopy(); }
};

} // namespace tstudio::training
