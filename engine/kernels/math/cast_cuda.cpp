// GPU kernel of Cast between bool, int32, int64, half, float and double (functor::CastOp, as the CPU
// kernel, so the numbers are the same), with the Truncate option.
#define EIGEN_USE_THREADS
#include "kernels/math/cast.h"
#include "kernels/math/cast_attrs.h"
#include "kernels/math/cwise_kernels_cuda.h"

#include <cstdint>

namespace tstudio::math_kernels {

namespace {

/// The dtypes the GPU Cast converts between.
using GpuCastTypes = TypeList<bool, std::int32_t, std::int64_t, Eigen::half, float, double>;

/// Queues the conversion of every element of `in` into `out` (same number of elements, > 0).
using CastLaunch = void (*)(cudaStream_t stream, const Tensor& in, Tensor& out, bool truncate);

template <typename From, typename To> void castOnGpu(cudaStream_t stream, const Tensor& in, Tensor& out, bool truncate)
{
    using Op = functor::CastOp<From, To>;
    gpu::UnaryLauncher<Op, From>::launch(stream, Op{truncate}, out.data<To>(), in.data<From>(), in.numElements());
}

CastLaunch castLaunch(DataType from, DataType to)
{
    CastLaunch launch = nullptr;
    (void)dispatchDataType<GpuCastTypes>(from, [&](auto fromTag) {
        using From = typename decltype(fromTag)::type;
        (void)dispatchDataType<GpuCastTypes>(to, [&](auto toTag) {
            using To = typename decltype(toTag)::type;
            launch = &castOnGpu<From, To>;
        });
    });
    return launch;
}

class CastGpuKernel final : public OpKernel {
public:
    /// `launch` nullptr: SrcT == DstT, the output is the input.
    CastGpuKernel(OpKernelConstruction& construction, CastLaunch launch, bool truncate)
        : OpKernel(construction), m_launch(launch), m_truncate(truncate)
    {
    }

    Status compute(OpKernelContext& context) override
    {
        auto gpu = gpu_cwise::checkedGpuOf(*this, context);
        if (!gpu)
            return gpu.error();
        const Tensor& in = context.input(0);
        if (m_launch == nullptr)
            return context.setOutput(0, in);
        auto out = gpu_cwise::uninitializedOutput(*this, context, 0, in.shape());
        if (!out)
            return out.error();
        if (in.numElements() > 0) {
            m_launch((*gpu)->computeStream(), in, *out, m_truncate);
            if (Status s = cuda::lastLaunchStatus("Cast"); !s.isOk())
                return s;
        }
        return context.setOutput(0, std::move(*out));
    }

private:
    CastLaunch m_launch;
    bool m_truncate;
};

Expected<std::unique_ptr<OpKernel>> makeCastGpuKernel(OpKernelConstruction& construction)
{
    auto attrs = castAttrs(construction.node());
    if (!attrs)
        return unexpected(attrs.error());
    CastLaunch launch = nullptr;
    if (attrs->src != attrs->dst) {
        launch = castLaunch(attrs->src, attrs->dst);
        if (launch == nullptr) {
            return unexpected(unimplementedError("Cast " + dataTypeString(attrs->src) + " to " +
                                                 dataTypeString(attrs->dst) + " has no GPU kernel"));
        }
    }
    return std::unique_ptr<OpKernel>(std::make_unique<CastGpuKernel>(construction, launch, attrs->truncate));
}

} // namespace

Status registerCastGpuKernels(KernelRegistry& registry)
{
    // TensorFlow registers GPU Cast for nearly every pair of numeric types; ours covers the pairs of
    // the training graphs' dtypes, and the placer runs the other pairs on the CPU.
    const std::vector<DataType> types = gpu_cwise::dataTypesOf(GpuCastTypes{});
    return registry.registerKernel(KernelDef{"Cast", "GPU", {{"SrcT", types}, {"DstT", types}}, {}}, makeCastGpuKernel);
}

} // namespace tstudio::math_kernels
