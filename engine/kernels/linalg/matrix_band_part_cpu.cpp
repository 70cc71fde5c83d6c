// MatrixBandPart's CPU kernel: copies the central band of every innermost matrix and leaves the
// rest of the (zero-filled) output at zero, with TensorFlow 1.15's checks and error texts.
#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace tstudio::linalg {

namespace {

/// A scalar int32/int64 band width (num_lower or num_upper), widened to int64.
Expected<std::int64_t> bandWidth(const Tensor& t, const char* name)
{
    if (t.rank() != 0)
        return unexpected(
            invalidArgumentError(std::string(name) + " must be scalar, got shape " + t.shape().toString()));
    if (t.dtype() == tensorflow::DT_INT32)
        return static_cast<std::int64_t>(*t.data<std::int32_t>());
    return *t.data<std::int64_t>();
}

template <typename T> class MatrixBandPartOp : public OpKernel {
public:
    explicit MatrixBandPartOp(OpKernelConstruction& construction) : OpKernel(construction) {}

    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        if (input.rank() < 2) {
            return invalidArgumentError("input must be at least 2-dim, received shape: " + input.shape().toString());
        }
        const std::int64_t rows = input.shape().dim(input.rank() - 2);
        const std::int64_t cols = input.shape().dim(input.rank() - 1);
        auto lower = bandWidth(context.input(1), "num_lower");
        if (!lower)
            return lower.error();
        if (*lower > rows) {
            return invalidArgumentError("num_lower must be negative or less or equal to number of rows (" +
                                        std::to_string(rows) + ") got: " + std::to_string(*lower));
        }
        auto upper = bandWidth(context.input(2), "num_upper");
        if (!upper)
            return upper.error();
        if (*upper > cols) {
            return invalidArgumentError("num_upper must be negative or less or equal to number of columns (" +
                                        std::to_string(cols) + ") got: " + std::to_string(*upper));
        }
        auto out = context.allocateZeroedOutput(0, input.shape());
        if (!out)
            return out.error();
        const std::int64_t total = input.numElements();
        if (total == 0)
            return Status::ok();
        const std::int64_t matrices = total / (rows * cols);
        const T* in = input.data<T>();
        T* o = (*out)->template data<T>();
        // Row r keeps the columns [r - num_lower, r + num_upper] (all of them for a negative width).
        for (std::int64_t b = 0; b < matrices; ++b) {
            for (std::int64_t r = 0; r < rows; ++r) {
                const std::int64_t first = *lower < 0 ? 0 : std::clamp<std::int64_t>(r - *lower, 0, cols);
                const std::int64_t last = *upper < 0 ? cols : std::clamp<std::int64_t>(r + *upper + 1, 0, cols);
                const std::int64_t offset = (b * rows + r) * cols;
                std::copy(in + offset + first, in + offset + std::max(first, last), o + offset + first);
            }
        }
        return Status::ok();
    }
};

template <typename... Ts> Status registerBandPartTypes(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (status.isOk()) {
            status = registry.add<MatrixBandPartOp<T>>(
                KernelDef{"MatrixBandPart", "CPU", {{"T", {kDataTypeOf<T>}}}, {"num_lower", "num_upper"}});
        }
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace

Status registerMatrixBandPartCpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers the CPU kernel for TF_CALL_POD_TYPES: its number types (which in
    // 1.15 have no uint32/uint64) and bool; num_lower/num_upper may be int32 or int64 (Tindex).
    return registerBandPartTypes(
        registry,
        TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                 std::uint8_t, std::uint16_t, bool, std::complex<float>, std::complex<double>>{});
}

} // namespace tstudio::linalg
