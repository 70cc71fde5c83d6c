// The GPU pieces of the state kernels (CUDA builds only): the DeviceCopy of a CudaDevice and the
// add/sub update of AssignAdd, AssignSub, AssignAddVariableOp and AssignSubVariableOp.
#pragma once

#include "kernels/state/dense_update.h"
#include "kernels/state/dense_update_cuda.h"

namespace tstudio {

class DeviceCopy;
class OpKernelContext;
class Tensor;

/// Copies queued on the kernel's GPU's compute stream (device_copy_cuda.cpp).
const DeviceCopy& gpuCopy();

/// params op= update on the kernel's GPU (a DenseUpdateFn), for T in half, float, double, int64.
template <typename T, functor::DenseUpdateOp Op> struct GpuDenseUpdate {
    static Status run(OpKernelContext& ctx, Tensor& params, const Tensor& update);
};

} // namespace tstudio
