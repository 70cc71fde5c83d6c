// CpuDenseUpdate: the CPU's update function for the add/sub update kernels (included by the CPU
// kernel files after `#define EIGEN_USE_THREADS`).
#pragma once

#include "framework/op_kernel.h"
#include "kernels/state/dense_update.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio {

/// functor::DenseUpdate on the CPU device's thread pool.
template <typename T, functor::DenseUpdateOp Op> struct CpuDenseUpdate {
    static Status run(OpKernelContext& ctx, Tensor& params, const Tensor& update)
    {
        functor::DenseUpdate<Eigen::ThreadPoolDevice, T, Op>()(*ctx.device().eigenCpuDevice(), params.flat<T>(),
                                                               update.flat<T>());
        return Status::ok();
    }
};

} // namespace tstudio
