// gpuCopy() and GpuDenseUpdate: the state kernels' copies and add/sub updates on a CudaDevice, queued
// on its compute stream.
#include "devices/cuda/cuda_kernel.h"
#include "kernels/state/device_copy.h"
#include "kernels/state/state_kernels_cuda.h"

#include <span>
#include <string>
#include <type_traits>

namespace tstudio {

namespace {

class GpuCopy final : public DeviceCopy {
public:
    Status copy(OpKernelContext& ctx, const Tensor& src, Tensor& dst) const override
    {
        if (src.numElements() == 0)
            return Status::ok();
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (src.dtype() == tensorflow::DT_STRING || src.dtype() == tensorflow::DT_RESOURCE)
            return invalidArgumentError(dataTypeString(src.dtype()) + " tensors cannot be copied on a GPU");
        const std::span<const std::byte> from = src.tensorData();
        if (dst.tensorData().size() != from.size())
            return internalError("GPU copy between tensors of " + std::to_string(from.size()) + " and " +
                                 std::to_string(dst.tensorData().size()) + " bytes");
        // cudaMemcpyDefault: a value fed from the host may still be in host memory.
        return cuda::cudaStatus(cudaMemcpyAsync(dst.tensorData().data(), from.data(), from.size(), cudaMemcpyDefault,
                                                (*gpu)->computeStream()),
                                "cudaMemcpyAsync (variable copy on GPU)");
    }
};

template <typename T> constexpr state::cuda::UpdateType updateTypeOf()
{
    if constexpr (std::is_same_v<T, Eigen::half>)
        return state::cuda::UpdateType::kHalf;
    else if constexpr (std::is_same_v<T, float>)
        return state::cuda::UpdateType::kFloat;
    else if constexpr (std::is_same_v<T, double>)
        return state::cuda::UpdateType::kDouble;
    else
        return state::cuda::UpdateType::kInt64;
}

} // namespace

const DeviceCopy& gpuCopy()
{
    static const GpuCopy instance;
    return instance;
}

template <typename T, functor::DenseUpdateOp Op>
Status GpuDenseUpdate<T, Op>::run(OpKernelContext& ctx, Tensor& params, const Tensor& update)
{
    auto gpu = cuda::gpuOf(ctx);
    if (!gpu)
        return gpu.error();
    if (params.numElements() == 0)
        return Status::ok();
    state::cuda::launchDenseUpdate((*gpu)->computeStream(), updateTypeOf<T>(), Op == functor::DenseUpdateOp::kSub,
                                   params.tensorData().data(), update.tensorData().data(), params.numElements());
    return cuda::lastLaunchStatus(Op == functor::DenseUpdateOp::kSub ? "DenseUpdate (sub)" : "DenseUpdate (add)");
}

template struct GpuDenseUpdate<Eigen::half, functor::DenseUpdateOp::kAdd>;
template struct GpuDenseUpdate<Eigen::half, functor::DenseUpdateOp::kSub>;
template struct GpuDenseUpdate<float, functor::DenseUpdateOp::kAdd>;
template struct GpuDenseUpdate<float, functor::DenseUpdateOp::kSub>;
template struct GpuDenseUpdate<double, functor::DenseUpdateOp::kAdd>;
template struct GpuDenseUpdate<double, functor::DenseUpdateOp::kSub>;
template struct GpuDenseUpdate<std::int64_t, functor::DenseUpdateOp::kAdd>;
template struct GpuDenseUpdate<std::int64_t, functor::DenseUpdateOp::kSub>;

} // namespace tstudio
