// The GPU fills of the Philox random ops: each thread computes whole groups of outputs with
// fillPhiloxRandomGroups, so group g comes from the same generator position as on the CPU and the
// numbers are TensorFlow's whatever the launch shape.
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/random/fill_philox_random.h"
#include "kernels/random/random_op_cuda.h"

namespace tstudio::random::cuda {

namespace {

template <typename Distribution>
__global__ void fillPhiloxKernel(PhiloxRandom gen, typename Distribution::ResultElementType* data, std::int64_t size,
                                 std::int64_t groups, Distribution dist)
{
    for (std::int64_t g = gpu::firstIndex<std::int64_t>(); g < groups; g += gpu::gridStride<std::int64_t>())
        fillPhiloxRandomGroups(gen, data, size, g, g + 1, dist);
}

template <typename Distribution>
void fill(cudaStream_t stream, PhiloxRandom gen, void* data, std::int64_t n, const Distribution& dist)
{
    constexpr int kGroupSize = Distribution::kResultElementCount;
    const std::int64_t groups = (n + kGroupSize - 1) / kGroupSize;
    fillPhiloxKernel<Distribution><<<gpu::blocksFor(groups), gpu::kThreadsPerBlock, 0, stream>>>(
        gen, static_cast<typename Distribution::ResultElementType*>(data), n, groups, dist);
}

template <typename T>
void fillReal(cudaStream_t stream, RealDistribution distribution, PhiloxRandom gen, void* data, std::int64_t n)
{
    switch (distribution) {
    case RealDistribution::kUniform: fill(stream, gen, data, n, UniformDistribution<PhiloxRandom, T>()); break;
    case RealDistribution::kNormal: fill(stream, gen, data, n, NormalDistribution<PhiloxRandom, T>()); break;
    case RealDistribution::kTruncatedNormal:
        fill(stream, gen, data, n, TruncatedNormalDistribution<SingleSampleAdapter<PhiloxRandom>, T>());
        break;
    }
}

} // namespace

void launchFillReal(cudaStream_t stream, RealDistribution distribution, RealType type, PhiloxRandom gen, void* data,
                    std::int64_t n)
{
    switch (type) {
    case RealType::kHalf: fillReal<Eigen::half>(stream, distribution, gen, data, n); break;
    case RealType::kFloat: fillReal<float>(stream, distribution, gen, data, n); break;
    case RealType::kDouble: fillReal<double>(stream, distribution, gen, data, n); break;
    }
}

void launchFillUniformInt(cudaStream_t stream, bool wide, std::int64_t lo, std::int64_t hi, PhiloxRandom gen,
                          void* data, std::int64_t n)
{
    if (wide)
        fill(stream, gen, data, n, UniformIntDistribution<PhiloxRandom, std::int64_t>(lo, hi));
    else
        fill(stream, gen, data, n,
             UniformIntDistribution<PhiloxRandom, std::int32_t>(static_cast<std::int32_t>(lo),
                                                                static_cast<std::int32_t>(hi)));
}

} // namespace tstudio::random::cuda
