// GPU kernels of the unary element-wise ops (Neg ... IsInf, LogicalNot) and of the gradient helpers
// (TanhGrad ... ReciprocalGrad), with the dtypes TensorFlow 1.15 registers on GPU; int32 Neg, Abs,
// Sign and Square keep x and y in host memory.
#define EIGEN_USE_THREADS
#include "kernels/math/cwise_kernels_cuda.h"
#include "kernels/math/unary_functors.h"

#include <cstdint>

namespace tstudio::math_kernels {

namespace {
using Floats = TypeList<float, double, Eigen::half>;
using FloatsInt64 = TypeList<float, double, Eigen::half, std::int64_t>;
} // namespace

Status registerUnaryGpuKernels(KernelRegistry& r)
{
    using namespace gpu_cwise;
    using namespace functor;
    return firstError({
        registerUnary<NegOp>(r, "Neg", FloatsInt64{}),
        registerUnaryHostInt32<NegOp>(r, "Neg"),
        registerUnary<AbsOp>(r, "Abs", FloatsInt64{}),
        registerUnaryHostInt32<AbsOp>(r, "Abs"),
        registerUnary<SignOp>(r, "Sign", FloatsInt64{}),
        registerUnaryHostInt32<SignOp>(r, "Sign"),
        registerUnary<SquareOp>(r, "Square", FloatsInt64{}),
        registerUnaryHostInt32<SquareOp>(r, "Square"),
        registerUnary<SqrtOp>(r, "Sqrt", Floats{}),
        registerUnary<RsqrtOp>(r, "Rsqrt", Floats{}),
        registerUnary<ExpOp>(r, "Exp", Floats{}),
        registerUnary<LogOp>(r, "Log", Floats{}),
        registerUnary<Log1pOp>(r, "Log1p", Floats{}),
        registerUnary<TanhOp>(r, "Tanh", Floats{}),
        registerUnary<SigmoidOp>(r, "Sigmoid", Floats{}),
        registerUnary<ReciprocalOp>(r, "Reciprocal", Floats{}),
        registerUnary<FloorOp>(r, "Floor", Floats{}),
        registerUnary<CeilOp>(r, "Ceil", Floats{}),
        // Round: TensorFlow keeps even its int32 kernel (the identity) in GPU memory.
        registerUnary<RoundOp>(r, "Round", TypeList<float, double, Eigen::half, std::int32_t, std::int64_t>{}),
        registerUnary<IsNanOp>(r, "IsNan", Floats{}),
        registerUnary<IsInfOp>(r, "IsInf", Floats{}),
        registerUnary<IsFiniteOp>(r, "IsFinite", Floats{}),
        r.add<UnaryGpuKernel<bool, LogicalNotOp<bool>, Placement::kDevice>>(KernelDef{"LogicalNot", "GPU", {}, {}}),

        registerSimpleBinary<TanhGradOp>(r, "TanhGrad", Floats{}),
        registerSimpleBinary<SigmoidGradOp>(r, "SigmoidGrad", Floats{}),
        registerSimpleBinary<RsqrtGradOp>(r, "RsqrtGrad", Floats{}),
        registerSimpleBinary<SqrtGradOp>(r, "SqrtGrad", Floats{}),
        registerSimpleBinary<ReciprocalGradOp>(r, "ReciprocalGrad", Floats{}),
    });
}

} // namespace tstudio::math_kernels
