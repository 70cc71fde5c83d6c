// GPU kernels of AddN: half, float, double and int64 summed on the GPU (eight inputs per launch,
// left to right as the CPU kernel), int32 on the host with inputs and sum in host memory (TensorFlow's).
#define EIGEN_USE_THREADS
#include "kernels/math/binary_functors.h"
#include "kernels/math/cwise_kernels_cuda.h"
#include "kernels/math/cwise_shape_checks.h"

#include <cstdint>
#include <vector>

namespace tstudio::math_kernels {

namespace {

using gpu_cwise::Placement;

template <typename T, Placement P> class AddNGpuKernel final : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        auto gpu = gpu_cwise::checkedGpuOf(*this, context);
        if (!gpu)
            return gpu.error();
        if (Status s = checkSameShapes(*this, context); !s.isOk())
            return s;
        const Tensor& first = context.input(0);
        if (context.numInputs() == 1)
            return context.setOutput(0, first); // as TensorFlow: the input itself
        const std::int64_t n = first.numElements();
        if constexpr (P == Placement::kHost) {
            auto out = context.allocateOutput(0, first.shape());
            if (!out)
                return out.error();
            // Input by input, left to right, as the CPU kernel adds them.
            const functor::AddOp<T> add;
            T* sum = (*out)->template data<T>();
            const T* a = first.data<T>();
            const T* b = context.input(1).data<T>();
            for (std::int64_t i = 0; i < n; ++i)
                sum[i] = add(a[i], b[i]);
            for (int k = 2; k < context.numInputs(); ++k) {
                const T* in = context.input(k).data<T>();
                for (std::int64_t i = 0; i < n; ++i)
                    sum[i] = add(sum[i], in[i]);
            }
            return Status::ok();
        } else {
            auto out = gpu_cwise::uninitializedOutput(*this, context, 0, first.shape());
            if (!out)
                return out.error();
            if (n > 0) {
                std::vector<const T*> inputs;
                for (int k = 0; k < context.numInputs(); ++k)
                    inputs.push_back(context.input(k).data<T>());
                gpu::AddNLauncher<T>::launch((*gpu)->computeStream(), out->template data<T>(), inputs.data(),
                                             static_cast<int>(inputs.size()), n);
                if (Status s = cuda::lastLaunchStatus("AddN"); !s.isOk())
                    return s;
            }
            return context.setOutput(0, std::move(*out));
        }
    }
};

template <typename... Ts> Status registerAddN(KernelRegistry& registry, TypeList<Ts...>)
{
    using gpu_cwise::gpuKernelDef;
    Status status;
    ((status = status.isOk()
                   ? registry.add<AddNGpuKernel<Ts, Placement::kDevice>>(gpuKernelDef("AddN", {kDataTypeOf<Ts>}))
                   : status),
     ...);
    return status;
}

} // namespace

Status registerAddNGpuKernels(KernelRegistry& registry)
{
    return gpu_cwise::firstError({
        registerAddN(registry, TypeList<Eigen::half, float, double, std::int64_t>{}),
        registry.add<AddNGpuKernel<std::int32_t, Placement::kHost>>(
            gpu_cwise::gpuKernelDef("AddN", {kDataTypeOf<std::int32_t>}, {"inputs", "sum"})),
    });
}

} // namespace tstudio::math_kernels
