// GPU instantiations of the gradient helpers TanhGrad, SigmoidGrad, RsqrtGrad, SqrtGrad and
// ReciprocalGrad (flat launches over y and dy) for half, float and double.
#include "kernels/math/cwise_cuda.cuh"
#include "kernels/math/unary_functors.h"

namespace tstudio::gpu {

#define TSTUDIO_GRAD_GPU(F)                                                                                            \
    template struct FlatBinaryLauncher<functor::F<float>, float>;                                                      \
    template struct FlatBinaryLauncher<functor::F<double>, double>;                                                    \
    template struct FlatBinaryLauncher<functor::F<Eigen::half>, Eigen::half>;

TSTUDIO_GRAD_GPU(TanhGradOp)
TSTUDIO_GRAD_GPU(SigmoidGradOp)
TSTUDIO_GRAD_GPU(RsqrtGradOp)
TSTUDIO_GRAD_GPU(SqrtGradOp)
TSTUDIO_GRAD_GPU(ReciprocalGradOp)

#undef TSTUDIO_GRAD_GPU

} // namespace tstudio::gpu
