// The CPU's update functions for the Apply* kernels (apply_ops.h): the Eigen functors of
// apply_functors.h on the device's thread pool, the hyper-parameters read on the host. Included by
// apply_ops_cpu.cpp and resource_apply_ops_cpu.cpp only, after `#define EIGEN_USE_THREADS`.
#pragma once

#include "kernels/state/device_copy.h"
#include "kernels/training/apply_functors.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::training {

using CpuDevice = Eigen::ThreadPoolDevice;

template <typename T> struct CpuApplyUpdates {
    static const CpuDevice& device(OpKernelContext& ctx) { return *ctx.device().eigenCpuDevice(); }

    static Status gradientDescent(OpKernelContext& ctx, Tensor& var, const Tensor& alpha, const Tensor& delta)
    {
        functor::ApplyGradientDescent<CpuDevice, T>()(device(ctx), var.flat<T>(), alpha.scalar<T>(), delta.flat<T>());
        return Status::ok();
    }
    static Status momentum(OpKernelContext& ctx, Tensor& var, Tensor& accum, const Tensor& lr, const Tensor& grad,
                           const Tensor& momentum, bool useNesterov)
    {
        functor::ApplyMomentum<CpuDevice, T>()(device(ctx), var.flat<T>(), accum.flat<T>(), lr.scalar<T>(),
                                               grad.flat<T>(), momentum.scalar<T>(), useNesterov);
        return Status::ok();
    }
    static Status adam(OpKernelContext& ctx, Tensor& var, Tensor& m, Tensor& v, const Tensor& beta1Power,
                       const Tensor& beta2Power, const Tensor& lr, const Tensor& beta1, const Tensor& beta2,
                       const Tensor& epsilon, const Tensor& grad, bool useNesterov)
    {
        functor::ApplyAdam<CpuDevice, T>()(device(ctx), var.flat<T>(), m.flat<T>(), v.flat<T>(), beta1Power.scalar<T>(),
                                           beta2Power.scalar<T>(), lr.scalar<T>(), beta1.scalar<T>(), beta2.scalar<T>(),
                                           epsilon.scalar<T>(), grad.flat<T>(), useNesterov);
        return Status::ok();
    }
    static Status rmsProp(OpKernelContext& ctx, Tensor& var, Tensor& ms, Tensor& mom, const Tensor& lr,
                          const Tensor& rho, const Tensor& momentum, const Tensor& epsilon, const Tensor& grad)
    {
        functor::ApplyRMSProp<CpuDevice, T>()(device(ctx), var.flat<T>(), ms.flat<T>(), mom.flat<T>(), lr.scalar<T>(),
                                              rho.scalar<T>(), momentum.scalar<T>(), epsilon.scalar<T>(),
                                              grad.flat<T>());
        return Status::ok();
    }
    static Status centeredRmsProp(OpKernelContext& ctx, Tensor& var, Tensor& mg, Tensor& ms, Tensor& mom,
                                  const Tensor& lr, const Tensor& rho, const Tensor& momentum, const Tensor& epsilon,
                                  const Tensor& grad)
    {
        functor::ApplyCenteredRMSProp<CpuDevice, T>()(device(ctx), var.flat<T>(), mg.flat<T>(), ms.flat<T>(),
                                                      mom.flat<T>(), lr.scalar<T>(), rho.scalar<T>(),
                                                      momentum.scalar<T>(), epsilon.scalar<T>(), grad.flat<T>());
        return Status::ok();
    }
    static Status adagrad(OpKernelContext& ctx, Tensor& var, Tensor& accum, const Tensor& lr, const Tensor& grad,
                          bool updateSlots)
    {
        functor::ApplyAdagrad<CpuDevice, T>()(device(ctx), var.flat<T>(), accum.flat<T>(), lr.scalar<T>(),
                                              grad.flat<T>(), updateSlots);
        return Status::ok();
    }
    static Status adadelta(OpKernelContext& ctx, Tensor& var, Tensor& accum, Tensor& accumUpdate, const Tensor& lr,
                           const Tensor& rho, const Tensor& epsilon, const Tensor& grad)
    {
        functor::ApplyAdadelta<CpuDevice, T>()(device(ctx), var.flat<T>(), accum.flat<T>(), accumUpdate.flat<T>(),
                                               lr.scalar<T>(), rho.scalar<T>(), epsilon.scalar<T>(), grad.flat<T>());
        return Status::ok();
    }
    static Status ftrl(OpKernelContext& ctx, Tensor& var, Tensor& accum, Tensor& linear, const Tensor& grad,
                       const Tensor& lr, const Tensor& l1, const Tensor& l2, const Tensor& lrPower)
    {
        functor::ApplyFtrl<CpuDevice, T>()(device(ctx), var.flat<T>(), accum.flat<T>(), linear.flat<T>(),
                                           grad.flat<T>(), lr.scalar<T>(), l1.scalar<T>(), l2.scalar<T>(),
                                           lrPower.scalar<T>());
        return Status::ok();
    }
};

/// The CPU as a device of the Apply* forms (apply_forms.h).
struct CpuApplyDevice {
    template <typename T> using Updates = CpuApplyUpdates<T>;
    static const DeviceCopy& copier() { return hostCopy(); }
};

} // namespace tstudio::training
