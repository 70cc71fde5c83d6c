// Tensor elements read as doubles (see tensor_real_values.h).
#include "tensor_view/tensor_real_values.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tstudio::debugger_ui {

namespace {

/// The C++ storage dtype when it holds real numbers (quantized dtypes map to their integers).
std::optional<DataType> realStorage(DataType dtype)
{
    if (isRefType(dtype))
        return std::nullopt;
    const DataType storage = detail::storageDataType(dtype);
    if (storage == tensorflow::DT_BOOL || isFloating(storage) || isInteger(storage))
        return storage;
    return std::nullopt;
}

} // namespace

bool hasRealValues(DataType dtype)
{
    return realStorage(dtype).has_value();
}

std::optional<double> elementAsDouble(const Tensor& tensor, std::int64_t index)
{
    const auto storage = realStorage(tensor.dtype());
    if (!storage || !tensor.isInitialized() || index < 0 || index >= tensor.numElements())
        return std::nullopt;
    const std::byte* base = tensor.tensorData().data();
    if (*storage == tensorflow::DT_BOOL)
        return reinterpret_cast<const bool*>(base)[index] ? 1.0 : 0.0;
    // Typed through the raw bytes, which serve the quantized dtypes too.
    std::optional<double> out;
    (void)dispatchDataType<RealNumberTypes>(*storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        out = static_cast<double>(reinterpret_cast<const T*>(base)[index]);
    });
    return out;
}

std::vector<double> realValues(const Tensor& tensor)
{
    return realValues(tensor, 0, tensor.isInitialized() ? tensor.numElements() : 0);
}

std::vector<double> realValues(const Tensor& tensor, std::int64_t begin, std::int64_t count)
{
    std::vector<double> out;
    const auto storage = realStorage(tensor.dtype());
    if (!storage || !tensor.isInitialized())
        return out;
    begin = std::clamp<std::int64_t>(begin, 0, tensor.numElements());
    count = std::clamp<std::int64_t>(count, 0, tensor.numElements() - begin);
    if (count == 0)
        return out;
    const auto n = static_cast<std::size_t>(count);
    out.resize(n);
    const std::byte* base = tensor.tensorData().data();
    if (*storage == tensorflow::DT_BOOL) {
        const auto* values = reinterpret_cast<const bool*>(base) + begin;
        for (std::size_t i = 0; i < n; ++i)
            out[i] = values[i] ? 1.0 : 0.0;
        return out;
    }
    (void)dispatchDataType<RealNumberTypes>(*storage, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto* values = reinterpret_cast<const T*>(base) + begin;
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<double>(values[i]);
    });
    return out;
}

ValueSpread spreadOf(const std::vector<double>& values)
{
    ValueSpread spread;
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (double v : values) {
        if (std::isnan(v)) {
            spread.nan = true;
        } else if (std::isinf(v)) {
            (v > 0 ? spread.posInf : spread.negInf) = true;
        } else {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (lo <= hi) {
        spread.anyFinite = true;
        spread.low = lo;
        spread.high = hi;
    }
    return spread;
}

} // namespace tstudio::debugger_ui
