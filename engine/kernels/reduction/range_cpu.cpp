// Range's CPU kernel: start, start + delta, ... stopping before limit (TensorFlow computes it on the host).
#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"
#include "kernels/reduction/reduction_kernels.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

namespace tstudio::reduction {

namespace {

/// A number as TensorFlow's StrCat writes it: integers in decimal; floating point with the
/// fewest of (FLT_DIG or DBL_DIG) and (FLT_DIG + 3 or DBL_DIG + 2) significant digits that
/// reads back as the same value ("5", "0.1", "nan", "inf").
template <typename T> std::string tfNumber(T v)
{
    if constexpr (std::is_integral_v<T>) {
        return std::to_string(v);
    } else {
        if (std::isnan(v))
            return "nan";
        if (std::isinf(v))
            return v < 0 ? "-inf" : "inf";
        const bool isFloat = std::is_same_v<T, float>;
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.*g", isFloat ? FLT_DIG : DBL_DIG, static_cast<double>(v));
        if (static_cast<T>(std::strtod(buffer, nullptr)) != v)
            std::snprintf(buffer, sizeof buffer, "%.*g", isFloat ? FLT_DIG + 3 : DBL_DIG + 2, static_cast<double>(v));
        return buffer;
    }
}

/// Range for Tidx = T.
template <typename T> class RangeOp : public OpKernel {
public:
    explicit RangeOp(OpKernelConstruction& construction) : OpKernel(construction) {}

    Status compute(OpKernelContext& ctx) override
    {
        const char* names[] = {"start", "limit", "delta"};
        for (int i = 0; i < 3; ++i) {
            // TensorFlow's IsLegacyScalar: a scalar or a vector of one element.
            const TensorShape& s = ctx.input(i).shape();
            if (!(s.rank() == 0 || (s.rank() == 1 && s.dim(0) == 1)))
                return invalidArgumentError(std::string(names[i]) + " must be a scalar, not shape " + s.toString());
        }
        const T start = ctx.input(0).scalar<T>();
        const T limit = ctx.input(1).scalar<T>();
        const T delta = ctx.input(2).scalar<T>();
        if (delta == T(0))
            return invalidArgumentError("Requires delta != 0: " + tfNumber(delta));
        if (delta > T(0) && !(start <= limit)) {
            return invalidArgumentError("Requires start <= limit when delta > 0: " + tfNumber(start) + "/" +
                                        tfNumber(limit));
        }
        if (delta < T(0) && !(start >= limit)) {
            return invalidArgumentError("Requires start >= limit when delta < 0: " + tfNumber(start) + "/" +
                                        tfNumber(limit));
        }
        // The element count, computed without overflow (TensorFlow 2 also rejects counts beyond int64).
        std::int64_t size = 0;
        if constexpr (std::is_integral_v<T>) {
            // |limit - start| and |delta| as unsigned 64-bit values are exact for every T.
            const auto absSpan = limit >= start ? static_cast<std::uint64_t>(limit) - static_cast<std::uint64_t>(start)
                                                : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(limit);
            const auto absStep = delta > 0 ? static_cast<std::uint64_t>(delta) : 0 - static_cast<std::uint64_t>(delta);
            const std::uint64_t count = absSpan / absStep + (absSpan % absStep != 0 ? 1 : 0);
            if (count > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                return invalidArgumentError("Requires ((limit - start) / delta) <= " +
                                            std::to_string(std::numeric_limits<std::int64_t>::max()));
            size = static_cast<std::int64_t>(count);
        } else {
            // In T, as TensorFlow: a float quotient may round to an integer that a double would exceed.
            const double count = static_cast<double>(std::ceil(std::abs((limit - start) / delta)));
            if (!(count <= static_cast<double>(std::numeric_limits<std::int64_t>::max())))
                return invalidArgumentError("Requires ((limit - start) / delta) <= " +
                                            std::to_string(std::numeric_limits<std::int64_t>::max()));
            size = static_cast<std::int64_t>(count);
        }
        auto out = ctx.allocateOutput(0, TensorShape{size});
        if (!out)
            return out.error();
        // Repeated addition in T, as TensorFlow (not start + i * delta, as NumPy's arange); no
        // step is taken past the last element, where an integer could overflow.
        auto values = (*out)->template values<T>();
        T value = start;
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i > 0)
                value += delta;
            values[i] = value;
        }
        return Status::ok();
    }
};

} // namespace

namespace {

Status registerRange(KernelRegistry& registry, const std::string& device, std::vector<std::string> hostArgs)
{
    // TensorFlow 1.15 registers float, double, int32 and int64 (sequence_ops.cc).
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (status.isOk())
            status = registry.add<RangeOp<T>>(KernelDef{"Range", device, {{"Tidx", {kDataTypeOf<T>}}}, hostArgs});
    };
    add(TypeTag<float>{});
    add(TypeTag<double>{});
    add(TypeTag<std::int32_t>{});
    add(TypeTag<std::int64_t>{});
    return status;
}

} // namespace

Status registerRangeCpuKernels(KernelRegistry& registry)
{
    return registerRange(registry, "CPU", {"start", "limit", "delta"});
}

Status registerRangeHostKernelsOnGpu(KernelRegistry& registry)
{
    return registerRange(registry, "GPU", {"start", "limit", "delta", "output"});
}

} // namespace tstudio::reduction
