// GPU instantiations of the binary arithmetic launchers (Add ... FloorDiv) for the dtypes TensorFlow
// 1.15 registers in GPU memory; int32 runs on the host (register_math_kernels_cuda.cpp).
#include "kernels/math/cwise_cuda.cuh"

#include <cstdint>

namespace tstudio::gpu {

#define TSTUDIO_BINARY_GPU(F, T) template struct BinaryLauncher<functor::F<T>, T>;
#define TSTUDIO_BINARY_GPU_FLOATS(F)                                                                                   \
    TSTUDIO_BINARY_GPU(F, float) TSTUDIO_BINARY_GPU(F, double) TSTUDIO_BINARY_GPU(F, Eigen::half)

TSTUDIO_BINARY_GPU_FLOATS(AddOp)
TSTUDIO_BINARY_GPU(AddOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(SubOp)
TSTUDIO_BINARY_GPU(SubOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(MulOp)
TSTUDIO_BINARY_GPU(MulOp, std::uint8_t)
TSTUDIO_BINARY_GPU(MulOp, std::int8_t)
TSTUDIO_BINARY_GPU(MulOp, std::uint16_t)
TSTUDIO_BINARY_GPU(MulOp, std::int16_t)
TSTUDIO_BINARY_GPU(MulOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(TrueDivOp)
TSTUDIO_BINARY_GPU_FLOATS(DivNoNanOp)
TSTUDIO_BINARY_GPU(TruncDivOp, std::uint8_t)
TSTUDIO_BINARY_GPU(TruncDivOp, std::uint16_t)
TSTUDIO_BINARY_GPU(TruncDivOp, std::int16_t)
TSTUDIO_BINARY_GPU(TruncDivOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(FloorDivOp)
TSTUDIO_BINARY_GPU(FloorDivOp, std::uint8_t)
TSTUDIO_BINARY_GPU(FloorDivOp, std::uint16_t)
TSTUDIO_BINARY_GPU(FloorDivOp, std::int16_t)
TSTUDIO_BINARY_GPU(FloorDivOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(MaximumOp)
TSTUDIO_BINARY_GPU(MaximumOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(MinimumOp)
TSTUDIO_BINARY_GPU(MinimumOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(PowOp)
TSTUDIO_BINARY_GPU(PowOp, std::int64_t)
TSTUDIO_BINARY_GPU_FLOATS(SquaredDifferenceOp)
TSTUDIO_BINARY_GPU(SquaredDifferenceOp, std::int64_t)

#undef TSTUDIO_BINARY_GPU_FLOATS
#undef TSTUDIO_BINARY_GPU

} // namespace tstudio::gpu
