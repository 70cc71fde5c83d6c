// GPU instantiations of the unary launchers (Neg ... IsInf, LogicalNot) for the dtypes TensorFlow 1.15
// registers in GPU memory; int32 Neg/Abs/Sign/Square run on the host (register_math_kernels_cuda.cpp).
#include "kernels/math/cwise_cuda.cuh"
#include "kernels/math/unary_functors.h"

#include <cstdint>

namespace tstudio::gpu {

#define TSTUDIO_UNARY_GPU(F, T) template struct UnaryLauncher<functor::F<T>, T>;
#define TSTUDIO_UNARY_GPU_FLOATS(F)                                                                                    \
    TSTUDIO_UNARY_GPU(F, float) TSTUDIO_UNARY_GPU(F, double) TSTUDIO_UNARY_GPU(F, Eigen::half)

TSTUDIO_UNARY_GPU_FLOATS(NegOp)
TSTUDIO_UNARY_GPU(NegOp, std::int64_t)
TSTUDIO_UNARY_GPU_FLOATS(AbsOp)
TSTUDIO_UNARY_GPU(AbsOp, std::int64_t)
TSTUDIO_UNARY_GPU_FLOATS(SignOp)
TSTUDIO_UNARY_GPU(SignOp, std::int64_t)
TSTUDIO_UNARY_GPU_FLOATS(SquareOp)
TSTUDIO_UNARY_GPU(SquareOp, std::int64_t)
TSTUDIO_UNARY_GPU_FLOATS(SqrtOp)
TSTUDIO_UNARY_GPU_FLOATS(RsqrtOp)
TSTUDIO_UNARY_GPU_FLOATS(ExpOp)
TSTUDIO_UNARY_GPU_FLOATS(LogOp)
TSTUDIO_UNARY_GPU_FLOATS(Log1pOp)
TSTUDIO_UNARY_GPU_FLOATS(TanhOp)
TSTUDIO_UNARY_GPU_FLOATS(SigmoidOp)
TSTUDIO_UNARY_GPU_FLOATS(ReciprocalOp)
TSTUDIO_UNARY_GPU_FLOATS(FloorOp)
TSTUDIO_UNARY_GPU_FLOATS(CeilOp)
TSTUDIO_UNARY_GPU_FLOATS(RoundOp)
// Round's integer kernels are the identity; TensorFlow keeps them in GPU memory, int32 too.
TSTUDIO_UNARY_GPU(RoundOp, std::int32_t)
TSTUDIO_UNARY_GPU(RoundOp, std::int64_t)
TSTUDIO_UNARY_GPU_FLOATS(IsNanOp)
TSTUDIO_UNARY_GPU_FLOATS(IsInfOp)
TSTUDIO_UNARY_GPU_FLOATS(IsFiniteOp)
TSTUDIO_UNARY_GPU(LogicalNotOp, bool)

#undef TSTUDIO_UNARY_GPU_FLOATS
#undef TSTUDIO_UNARY_GPU

} // namespace tstudio::gpu
