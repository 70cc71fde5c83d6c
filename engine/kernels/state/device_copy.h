// DeviceCopy: how the state and training kernels copy tensors on their device (Assign, the
// copy-on-write of resource variables, private copies of plain inputs), one implementation per device.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

namespace tstudio {

class OpKernelContext;

/// Copies between tensors in the memory of the kernel's device: memcpy on the host; on a GPU a copy
/// queued on its compute stream (ordered before the kernels queued after it, nothing waited for).
/// Implementations are stateless and thread-safe; the kernels that use one are built with it.
class DeviceCopy {
public:
    virtual ~DeviceCopy() = default;
    /// dst = src element by element; same dtype and element count, both in the device's memory
    /// (strings only on the host).
    virtual Status copy(OpKernelContext& ctx, const Tensor& src, Tensor& dst) const = 0;
    /// A private copy of `src` from ctx.allocator(); an uninitialized tensor is returned as is.
    Expected<Tensor> clone(OpKernelContext& ctx, const Tensor& src) const;
};

/// Host memory (the CPU device's kernels).
const DeviceCopy& hostCopy();

} // namespace tstudio
