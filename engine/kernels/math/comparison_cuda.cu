// GPU instantiations of the comparison and logic launchers (Less ... NotEqual, LogicalAnd, LogicalOr)
// for the dtypes TensorFlow 1.15 registers in GPU memory; int32 runs on the host.
#include "kernels/math/cwise_cuda.cuh"

#include <cstdint>

namespace tstudio::gpu {

#define TSTUDIO_COMPARE_GPU(F, T) template struct BinaryLauncher<functor::F<T>, T>;
#define TSTUDIO_COMPARE_GPU_ORDERED(F)                                                                                 \
    TSTUDIO_COMPARE_GPU(F, float)                                                                                      \
    TSTUDIO_COMPARE_GPU(F, double)                                                                                     \
    TSTUDIO_COMPARE_GPU(F, Eigen::half)                                                                                \
    TSTUDIO_COMPARE_GPU(F, std::int64_t)                                                                               \
    TSTUDIO_COMPARE_GPU(F, std::uint8_t)                                                                               \
    TSTUDIO_COMPARE_GPU(F, std::int8_t)                                                                                \
    TSTUDIO_COMPARE_GPU(F, std::int16_t)

TSTUDIO_COMPARE_GPU_ORDERED(LessOp)
TSTUDIO_COMPARE_GPU_ORDERED(LessEqualOp)
TSTUDIO_COMPARE_GPU_ORDERED(GreaterOp)
TSTUDIO_COMPARE_GPU_ORDERED(GreaterEqualOp)
TSTUDIO_COMPARE_GPU_ORDERED(EqualOp)
TSTUDIO_COMPARE_GPU(EqualOp, bool)
TSTUDIO_COMPARE_GPU_ORDERED(NotEqualOp)
TSTUDIO_COMPARE_GPU(NotEqualOp, bool)
TSTUDIO_COMPARE_GPU(LogicalAndOp, bool)
TSTUDIO_COMPARE_GPU(LogicalOrOp, bool)

#undef TSTUDIO_COMPARE_GPU_ORDERED
#undef TSTUDIO_COMPARE_GPU

} // namespace tstudio::gpu
