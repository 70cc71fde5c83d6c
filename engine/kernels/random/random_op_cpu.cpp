// CPU kernels of RandomUniform, RandomStandardNormal, TruncatedNormal and RandomUniformInt.
#define EIGEN_USE_THREADS

#include "kernels/random/random_op_cpu.h"

#include "framework/kernel_registry.h"
#include "kernels/random/fill_philox_random_cpu.h"
#include "kernels/random/guarded_philox_random.h"
#include "kernels/random/philox_kernel.h"
#include "kernels/random/random_output_shape.h"

#include <string>

namespace tstudio {

namespace {

using random::PhiloxRandom;

/// Fills `out` with `dist` from `gen`, on the device's thread pool when it has one.
template <typename Distribution>
void fill(OpKernelContext& ctx, PhiloxRandom gen, Tensor& out, const Distribution& dist)
{
    using T = typename Distribution::ResultElementType;
    T* data = out.data<T>();
    const std::int64_t n = out.numElements();
    if (const Eigen::ThreadPoolDevice* device = ctx.device().eigenCpuDevice()) {
        random::FillPhiloxRandom<Eigen::ThreadPoolDevice, Distribution>()(*device, gen, data, n, dist);
    } else {
        constexpr int kGroupSize = Distribution::kResultElementCount;
        random::fillPhiloxRandomGroups(gen, data, n, 0, (n + kGroupSize - 1) / kGroupSize, dist);
    }
}

/// RandomUniform, RandomStandardNormal and TruncatedNormal: `Distribution` over the Philox stream
/// of the node's seeds (TensorFlow's PhiloxRandomOp).
template <typename Distribution> class PhiloxRandomOp : public random::PhiloxKernel {
public:
    using PhiloxKernel::PhiloxKernel;

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto shape = random::outputShape(ctx.input(0));
        if (!shape)
            return shape.error();
        auto out = ctx.allocateOutput(0, *shape);
        if (!out)
            return out.error();
        // TensorFlow reserves 256 Philox calls per output, whatever the distribution needs.
        const PhiloxRandom gen =
            m_generator.reserveRandomOutputs((*out)->numElements(), random::kReservedSamplesPerOutput);
        fill(ctx, gen, **out, Distribution());
        return Status::ok();
    }
};

/// RandomUniformInt: integers in [minval, maxval) (TensorFlow's RandomUniformIntOp).
template <typename Int> class RandomUniformIntOp : public random::PhiloxKernel {
public:
    using PhiloxKernel::PhiloxKernel;

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const Tensor& minval = ctx.input(1);
        const Tensor& maxval = ctx.input(2);
        auto shape = random::uniformIntOutputShape(ctx.input(0), minval, maxval);
        if (!shape)
            return shape.error();
        auto out = ctx.allocateOutput(0, *shape);
        if (!out)
            return out.error();
        // As in TensorFlow, an empty output is fine whatever the bounds ("zero impossible things").
        if ((*out)->numElements() == 0)
            return Status::ok();
        const Int lo = minval.scalar<Int>();
        const Int hi = maxval.scalar<Int>();
        if (Status s = random::checkUniformIntRange(lo, hi); !s.isOk())
            return s;
        const PhiloxRandom gen =
            m_generator.reserveRandomOutputs((*out)->numElements(), random::kReservedSamplesPerOutput);
        fill(ctx, gen, **out, random::UniformIntDistribution<PhiloxRandom, Int>(lo, hi));
        return Status::ok();
    }
};

/// The truncated normal draws its words one at a time through the single-sample adapter.
template <typename Generator, typename T>
using TruncatedNormalOnAdapter = random::TruncatedNormalDistribution<random::SingleSampleAdapter<Generator>, T>;

template <typename T> Status addFloatSamplers(KernelRegistry& registry)
{
    if (Status s = registry.add<PhiloxRandomOp<random::UniformDistribution<PhiloxRandom, T>>>(
            KernelDef{"RandomUniform", "CPU", {{"dtype", {kDataTypeOf<T>}}}, {"shape"}});
        !s.isOk())
        return s;
    if (Status s = registry.add<PhiloxRandomOp<random::NormalDistribution<PhiloxRandom, T>>>(
            KernelDef{"RandomStandardNormal", "CPU", {{"dtype", {kDataTypeOf<T>}}}, {"shape"}});
        !s.isOk())
        return s;
    return registry.add<PhiloxRandomOp<TruncatedNormalOnAdapter<PhiloxRandom, T>>>(
        KernelDef{"TruncatedNormal", "CPU", {{"dtype", {kDataTypeOf<T>}}}, {"shape"}});
}

template <typename Int> Status addUniformInt(KernelRegistry& registry)
{
    return registry.add<RandomUniformIntOp<Int>>(
        KernelDef{"RandomUniformInt", "CPU", {{"Tout", {kDataTypeOf<Int>}}}, {"shape", "minval", "maxval"}});
}

} // namespace

Expected<TensorShape> random::outputShape(const Tensor& shape)
{
    if (shape.rank() != 1) {
        return unexpected(
            invalidArgumentError("shape must be a vector of {int32,int64}, got shape " + shape.shape().toString()));
    }
    std::vector<std::int64_t> dims;
    if (shape.dtype() == tensorflow::DT_INT32) {
        for (std::int32_t d : shape.values<std::int32_t>())
            dims.push_back(d);
    } else if (shape.dtype() == tensorflow::DT_INT64) {
        for (std::int64_t d : shape.values<std::int64_t>())
            dims.push_back(d);
    } else {
        return unexpected(invalidArgumentError("shape must be a vector of {int32,int64}."));
    }
    if (dims.size() > static_cast<std::size_t>(TensorShape::kMaxRank))
        return unexpected(invalidArgumentError("Too many dimensions"));
    for (std::int64_t d : dims) {
        if (d < 0)
            return unexpected(invalidArgumentError("Dimension " + std::to_string(d) + " must be >= 0"));
    }
    TensorShape result(std::move(dims));
    if (auto n = result.numElements(); !n)
        return unexpected(n.error());
    return result;
}

Expected<TensorShape> random::uniformIntOutputShape(const Tensor& shape, const Tensor& minval, const Tensor& maxval)
{
    if (minval.rank() != 0)
        return unexpected(invalidArgumentError("minval must be 0-D, got shape " + minval.shape().toString()));
    if (maxval.rank() != 0)
        return unexpected(invalidArgumentError("maxval must be 0-D, got shape " + maxval.shape().toString()));
    return outputShape(shape);
}

Status registerRandomSamplerKernels(KernelRegistry& registry)
{
    for (auto add : {addFloatSamplers<Eigen::half>, addFloatSamplers<Eigen::bfloat16>, addFloatSamplers<float>,
                     addFloatSamplers<double>, addUniformInt<std::int32_t>, addUniformInt<std::int64_t>}) {
        if (Status s = add(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
