// GPU kernels of the binary element-wise ops: arithmetic (Add ... FloorMod), comparisons and logic,
// with the dtypes TensorFlow 1.15 registers on GPU; int32 kernels keep x, y and z in host memory.
#define EIGEN_USE_THREADS
#include "kernels/math/binary_functors.h"
#include "kernels/math/cwise_kernels_cuda.h"

#include <cstdint>

namespace tstudio::math_kernels {

namespace {
using Floats = TypeList<float, double, Eigen::half>;
using FloatsInt64 = TypeList<float, double, Eigen::half, std::int64_t>;
/// The integer types TensorFlow's GPU Div and FloorDiv take in GPU memory.
using DivInts = TypeList<std::uint8_t, std::uint16_t, std::int16_t, std::int64_t>;
using MulInts = TypeList<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::int64_t>;
/// Less ... GreaterEqual on GPU.
using Ordered = TypeList<float, double, Eigen::half, std::int64_t, std::uint8_t, std::int8_t, std::int16_t>;
/// Equal and NotEqual on GPU.
using Equality = TypeList<float, double, Eigen::half, std::uint8_t, std::int8_t, std::int16_t, std::int64_t, bool>;
} // namespace

Status registerBinaryGpuKernels(KernelRegistry& r)
{
    using namespace gpu_cwise;
    using namespace functor;
    using cwise::NonZeroDivisor;
    // Integer zero divisors: the host (int32) kernels fail as the CPU's; the GPU kernels cannot look
    // at y without a host copy and, as TensorFlow's, do not check (our functors then give 0).
    return firstError({
        registerBinary<AddOp>(r, "Add", FloatsInt64{}),
        registerBinaryHostInt32<AddOp>(r, "Add"),
        registerBinary<AddOp>(r, "AddV2", FloatsInt64{}),
        registerBinaryHostInt32<AddOp>(r, "AddV2"),
        registerBinary<SubOp>(r, "Sub", FloatsInt64{}),
        registerBinaryHostInt32<SubOp>(r, "Sub"),
        registerBinary<MulOp>(r, "Mul", Floats{}),
        registerBinary<MulOp>(r, "Mul", MulInts{}),
        registerBinaryHostInt32<MulOp>(r, "Mul"),
        registerBinary<TrueDivOp>(r, "RealDiv", Floats{}),
        registerBinary<DivNoNanOp>(r, "DivNoNan", Floats{}),
        registerBinary<DivOp>(r, "Div", Floats{}),
        registerBinary<DivOp>(r, "Div", DivInts{}),
        registerBinaryHostInt32<DivOp, NonZeroDivisor>(r, "Div"),
        registerBinary<FloorDivOp>(r, "FloorDiv", Floats{}),
        registerBinary<FloorDivOp>(r, "FloorDiv", DivInts{}),
        registerBinaryHostInt32<FloorDivOp, NonZeroDivisor>(r, "FloorDiv"),
        // FloorMod: TensorFlow 1.15 has only the int32 host kernel on GPU.
        registerBinaryHostInt32<FloorModOp, NonZeroDivisor>(r, "FloorMod"),
        registerBinary<MaximumOp>(r, "Maximum", FloatsInt64{}),
        registerBinaryHostInt32<MaximumOp>(r, "Maximum"),
        registerBinary<MinimumOp>(r, "Minimum", FloatsInt64{}),
        registerBinaryHostInt32<MinimumOp>(r, "Minimum"),
        // Pow: no int32 kernel on GPU in TensorFlow 1.15; int64 gives 0 for negative exponents where
        // the CPU kernel fails.
        registerBinary<PowOp>(r, "Pow", FloatsInt64{}),
        registerBinary<SquaredDifferenceOp>(r, "SquaredDifference", FloatsInt64{}),
        registerBinaryHostInt32<SquaredDifferenceOp>(r, "SquaredDifference"),

        registerBinary<LessOp>(r, "Less", Ordered{}),
        registerBinaryHostInt32<LessOp>(r, "Less"),
        registerBinary<LessEqualOp>(r, "LessEqual", Ordered{}),
        registerBinaryHostInt32<LessEqualOp>(r, "LessEqual"),
        registerBinary<GreaterOp>(r, "Greater", Ordered{}),
        registerBinaryHostInt32<GreaterOp>(r, "Greater"),
        registerBinary<GreaterEqualOp>(r, "GreaterEqual", Ordered{}),
        registerBinaryHostInt32<GreaterEqualOp>(r, "GreaterEqual"),
        registerBinary<EqualOp>(r, "Equal", Equality{}),
        registerBinaryHostInt32<EqualOp>(r, "Equal"),
        registerBinary<NotEqualOp>(r, "NotEqual", Equality{}),
        registerBinaryHostInt32<NotEqualOp>(r, "NotEqual"),
        // LogicalAnd/Or have no type attr: one kernel without constraints.
        r.add<BinaryGpuKernel<bool, LogicalAndOp<bool>, Placement::kDevice>>(KernelDef{"LogicalAnd", "GPU", {}, {}}),
        r.add<BinaryGpuKernel<bool, LogicalOrOp<bool>, Placement::kDevice>>(KernelDef{"LogicalOr", "GPU", {}, {}}),
    });
}

} // namespace tstudio::math_kernels
