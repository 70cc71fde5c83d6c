// GPU kernels of Select (TensorFlow 1's rules) and SelectV2 (all three broadcast), validated by the
// shape rules the CPU kernels use (cwise_shape_checks.h), for TensorFlow 1.15's GPU dtypes.
#define EIGEN_USE_THREADS
#include "kernels/math/cwise_kernels_cuda.h"
#include "kernels/math/cwise_shape_checks.h"

#include <cstdint>

namespace tstudio::math_kernels {

namespace {

/// Select (V2 = false) or SelectV2 (V2 = true). A scalar condition cannot be read on the host, so
/// Select broadcasts it over t and e on the GPU instead of passing one of them through.
template <typename T, bool V2> class SelectGpuKernel final : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        auto gpu = gpu_cwise::checkedGpuOf(*this, context);
        if (!gpu)
            return gpu.error();
        const Tensor& condition = context.input(0);
        const Tensor& t = context.input(1);
        const Tensor& e = context.input(2);
        auto shapes = V2 ? selectV2Shapes(condition.shape(), t.shape(), e.shape())
                         : selectShapes(*this, condition.shape(), t.shape(), e.shape());
        if (!shapes)
            return shapes.error();
        auto out = gpu_cwise::uninitializedOutput(*this, context, 0, shapes->output);
        if (!out)
            return out.error();
        if (shapes->plan.numElements() > 0) {
            const auto layout = gpu_cwise::broadcastLayout(shapes->plan);
            if (!layout) {
                return unimplementedError(op() + " on GPU broadcasts at most " +
                                          std::to_string(gpu::kMaxBroadcastRank) + " dimensions: condition " +
                                          condition.shape().toString() + ", then " + t.shape().toString() + ", else " +
                                          e.shape().toString());
            }
            gpu::SelectLauncher<T>::launch((*gpu)->computeStream(), *layout, out->template data<T>(),
                                           condition.data<bool>(), t.data<T>(), e.data<T>());
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
        }
        return context.setOutput(0, std::move(*out));
    }
};

template <typename... Ts> Status registerSelect(KernelRegistry& registry, TypeList<Ts...>)
{
    using gpu_cwise::gpuKernelDef;
    Status status;
    ((status =
          status.isOk() ? registry.add<SelectGpuKernel<Ts, false>>(gpuKernelDef("Select", {kDataTypeOf<Ts>})) : status),
     ...);
    ((status = status.isOk() ? registry.add<SelectGpuKernel<Ts, true>>(gpuKernelDef("SelectV2", {kDataTypeOf<Ts>}))
                             : status),
     ...);
    return status;
}

} // namespace

Status registerSelectGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15's GPU Select types (all in GPU memory, int32 included), less the complex ones.
    return registerSelect(registry, TypeList<bool, Eigen::half, float, double, std::int32_t, std::int64_t>{});
}

} // namespace tstudio::math_kernels
