// GPU instantiations of Cast (functor::CastOp through the unary launcher) between bool, int32, int64,
// half, float and double.
#include "kernels/math/cast.h"
#include "kernels/math/cwise_cuda.cuh"

#include <cstdint>

namespace tstudio::gpu {

#define TSTUDIO_CAST_GPU(From, To) template struct UnaryLauncher<functor::CastOp<From, To>, From>;
#define TSTUDIO_CAST_GPU_FROM(From)                                                                                    \
    TSTUDIO_CAST_GPU(From, bool)                                                                                       \
    TSTUDIO_CAST_GPU(From, std::int32_t)                                                                               \
    TSTUDIO_CAST_GPU(From, std::int64_t)                                                                               \
    TSTUDIO_CAST_GPU(From, Eigen::half)                                                                                \
    TSTUDIO_CAST_GPU(From, float)                                                                                      \
    TSTUDIO_CAST_GPU(From, double)

// Every ordered pair, the six identities included (the kernel passes those through and never
// launches them, but one table of launchers for all pairs keeps the host code simple).
TSTUDIO_CAST_GPU_FROM(bool)
TSTUDIO_CAST_GPU_FROM(std::int32_t)
TSTUDIO_CAST_GPU_FROM(std::int64_t)
TSTUDIO_CAST_GPU_FROM(Eigen::half)
TSTUDIO_CAST_GPU_FROM(float)
TSTUDIO_CAST_GPU_FROM(double)

#undef TSTUDIO_CAST_GPU_FROM
#undef TSTUDIO_CAST_GPU

} // namespace tstudio::gpu
