// DeviceCopy::clone and the host's DeviceCopy.
#include "kernels/state/device_copy.h"

#include "framework/op_kernel.h"
#include "kernels/state/ref_inputs.h"

namespace tstudio {

Expected<Tensor> DeviceCopy::clone(OpKernelContext& ctx, const Tensor& src) const
{
    if (!src.isInitialized())
        return src;
    // Strings and handles are objects, not bytes (and only ever in host memory): constructed copies.
    if (src.dtype() == tensorflow::DT_STRING || src.dtype() == tensorflow::DT_RESOURCE)
        return src.deepCopy(ctx.allocator());
    auto result = Tensor::allocateUninitialized(ctx.allocator(), src.dtype(), src.shape());
    if (!result)
        return result;
    if (Status s = copy(ctx, src, *result); !s.isOk())
        return unexpected(s);
    return result;
}

namespace {

class HostCopy final : public DeviceCopy {
public:
    Status copy(OpKernelContext&, const Tensor& src, Tensor& dst) const override
    {
        copyElements(src, dst);
        return Status::ok();
    }
};

} // namespace

const DeviceCopy& hostCopy()
{
    static const HostCopy instance;
    return instance;
}

} // namespace tstudio
