// registerRandomGpuKernels: RandomUniform, RandomStandardNormal, TruncatedNormal and
// RandomUniformInt on the GPU, with the CPU kernels' checks, generator and reservation, so a seeded
// op gives TensorFlow's numbers on either device (uniform values bit for bit; normals up to the
// last bits of the GPU's log, sqrt, sin and cos).
#include "kernels/random/random_op_cuda.h"
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"
#include "kernels/random/fill_philox_random.h"
#include "kernels/random/guarded_philox_random.h"
#include "kernels/random/philox_kernel.h"
#include "kernels/random/random_output_shape.h"

#include <string>

namespace tstudio {

namespace {

using random::PhiloxRandom;

template <typename T> constexpr random::cuda::RealType realTypeOf()
{
    if constexpr (std::is_same_v<T, Eigen::half>)
        return random::cuda::RealType::kHalf;
    else if constexpr (std::is_same_v<T, float>)
        return random::cuda::RealType::kFloat;
    else
        return random::cuda::RealType::kDouble;
}

/// RandomUniform, RandomStandardNormal and TruncatedNormal: the shape (host memory) checked as on
/// the CPU, 256 Philox calls reserved per output (TensorFlow's multiplier on both devices), then one
/// launch filling the output in TensorFlow's group order.
template <random::cuda::RealDistribution kDistribution, typename T>
class PhiloxRandomGpuOp : public random::PhiloxKernel {
public:
    using PhiloxKernel::PhiloxKernel;

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (!m_init.isOk())
            return m_init;
        auto shape = random::outputShape(ctx.input(0));
        if (!shape)
            return shape.error();
        auto out = Tensor::allocateUninitialized(ctx.allocator(), kDataTypeOf<T>, *shape);
        if (!out)
            return out.error();
        const std::int64_t n = out->numElements();
        const PhiloxRandom gen = m_generator.reserveRandomOutputs(n, random::kReservedSamplesPerOutput);
        if (n > 0) {
            random::cuda::launchFillReal((*gpu)->computeStream(), kDistribution, realTypeOf<T>(), gen,
                                         out->tensorData().data(), n);
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }
};

/// RandomUniformInt: shape, minval and maxval in host memory, checked in the CPU kernel's order.
template <typename Int> class RandomUniformIntGpuOp : public random::PhiloxKernel {
public:
    using PhiloxKernel::PhiloxKernel;

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (!m_init.isOk())
            return m_init;
        const Tensor& minval = ctx.input(1);
        const Tensor& maxval = ctx.input(2);
        auto shape = random::uniformIntOutputShape(ctx.input(0), minval, maxval);
        if (!shape)
            return shape.error();
        auto out = Tensor::allocateUninitialized(ctx.allocator(), kDataTypeOf<Int>, *shape);
        if (!out)
            return out.error();
        const std::int64_t n = out->numElements();
        // As on the CPU, an empty output is fine whatever the bounds.
        if (n > 0) {
            const Int lo = minval.scalar<Int>();
            const Int hi = maxval.scalar<Int>();
            if (Status s = random::checkUniformIntRange(lo, hi); !s.isOk())
                return s;
            const PhiloxRandom gen = m_generator.reserveRandomOutputs(n, random::kReservedSamplesPerOutput);
            random::cuda::launchFillUniformInt((*gpu)->computeStream(), std::is_same_v<Int, std::int64_t>, lo, hi, gen,
                                               out->tensorData().data(), n);
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }
};

/// TensorFlow registers the GPU samplers for an int32 `shape` only (TypeConstraint<int32>("T")).
template <typename T> Status addRealSamplers(KernelRegistry& registry)
{
    using random::cuda::RealDistribution;
    const std::vector<std::pair<std::string, std::vector<DataType>>> constraints = {{"dtype", {kDataTypeOf<T>}},
                                                                                    {"T", {tensorflow::DT_INT32}}};
    if (Status s = registry.add<PhiloxRandomGpuOp<RealDistribution::kUniform, T>>(
            KernelDef{"RandomUniform", "GPU", constraints, {"shape"}});
        !s.isOk())
        return s;
    if (Status s = registry.add<PhiloxRandomGpuOp<RealDistribution::kNormal, T>>(
            KernelDef{"RandomStandardNormal", "GPU", constraints, {"shape"}});
        !s.isOk())
        return s;
    return registry.add<PhiloxRandomGpuOp<RealDistribution::kTruncatedNormal, T>>(
        KernelDef{"TruncatedNormal", "GPU", constraints, {"shape"}});
}

template <typename Int> Status addUniformInt(KernelRegistry& registry)
{
    return registry.add<RandomUniformIntGpuOp<Int>>(
        KernelDef{"RandomUniformInt",
                  "GPU",
                  {{"Tout", {kDataTypeOf<Int>}}, {"T", {tensorflow::DT_INT32}}},
                  {"shape", "minval", "maxval"}});
}

} // namespace

Status registerRandomGpuKernels(KernelRegistry& registry)
{
    for (auto add : {addRealSamplers<Eigen::half>, addRealSamplers<float>, addRealSamplers<double>,
                     addUniformInt<std::int32_t>, addUniformInt<std::int64_t>}) {
        if (Status s = add(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
