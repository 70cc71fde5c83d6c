// Helpers of the element-wise GPU kernels: launch layouts from broadcast plans, KernelDefs, outputs.
#define EIGEN_USE_THREADS
#include "kernels/math/cwise_kernels_cuda.h"

#include "devices/cuda/cuda_error.h"

namespace tstudio::gpu_cwise {

std::optional<gpu::BroadcastLayout> broadcastLayout(const BroadcastPlan& plan)
{
    const std::vector<std::int64_t>& dims = plan.dims();
    if (dims.size() > static_cast<std::size_t>(gpu::kMaxBroadcastRank) || plan.numInputs() > gpu::kMaxBroadcastInputs)
        return std::nullopt;
    gpu::BroadcastLayout layout;
    layout.numElements = plan.numElements();
    layout.rank = static_cast<int>(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        layout.dims[d] = dims[d];
        for (int k = 0; k < plan.numInputs(); ++k)
            layout.strides[k][d] = plan.strides(k)[d];
    }
    return layout;
}

Status unsupportedBroadcastError(const TensorShape& x, const TensorShape& y)
{
    return unimplementedError("Broadcast between " + x.toString() + " and " + y.toString() + " is not supported yet.");
}

Status firstError(std::initializer_list<Status> statuses)
{
    for (const Status& s : statuses) {
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

KernelDef gpuKernelDef(std::string op, std::vector<DataType> types, std::vector<std::string> hostArgs, std::string attr)
{
    return KernelDef{std::move(op), "GPU", {{std::move(attr), std::move(types)}}, std::move(hostArgs)};
}

Expected<Tensor> uninitializedOutput(const OpKernel& kernel, OpKernelContext& context, int i, const TensorShape& shape)
{
    const DataType dtype = baseType(kernel.outputTypes()[static_cast<std::size_t>(i)]);
    return Tensor::allocateUninitialized(context.allocator(), dtype, shape);
}

Expected<CudaDevice*> checkedGpuOf(const OpKernel& kernel, OpKernelContext& context)
{
    auto gpu = cuda::gpuOf(context);
    if (!gpu)
        return gpu;
    if (Status s = cwise::checkInputTypes(kernel, context); !s.isOk())
        return unexpected(s);
    return gpu;
}

Status setScalarBoolOutput(const OpKernel& kernel, OpKernelContext& context, CudaDevice& gpu, bool value)
{
    if (kernel.outputInHostMemory(0)) {
        auto out = context.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<bool>() = value;
        return Status::ok();
    }
    auto out = uninitializedOutput(kernel, context, 0, TensorShape::scalar());
    if (!out)
        return out.error();
    // A bool is one byte, 1 for true.
    if (Status s = cuda::cudaStatus(cudaMemsetAsync(out->data<bool>(), value ? 1 : 0, 1, gpu.computeStream()),
                                    "cudaMemsetAsync");
        !s.isOk())
        return s;
    return context.setOutput(0, std::move(*out));
}

} // namespace tstudio::gpu_cwise
