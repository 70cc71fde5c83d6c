// Tensor <-> JSON conversion for the command line.
#include "tensor_json.h"

#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <utility>

namespace tstudio::cli {
namespace {

Status collectShape(const nlohmann::json& value, std::vector<std::int64_t>& dims, std::size_t depth)
{
    if (!value.is_array())
        return Status::ok();
    // Checked before descending: arrays nested a million deep would otherwise overflow the stack.
    if (depth >= static_cast<std::size_t>(TensorShape::kMaxRank))
        return invalidArgumentError("JSON arrays nested deeper than " + std::to_string(TensorShape::kMaxRank) +
                                    " levels: a tensor has at most " + std::to_string(TensorShape::kMaxRank) +
                                    " dimensions");
    if (depth == dims.size())
        dims.push_back(static_cast<std::int64_t>(value.size()));
    else if (dims[depth] != static_cast<std::int64_t>(value.size()))
        return invalidArgumentError("ragged JSON array: rows of length " + std::to_string(dims[depth]) + " and " +
                                    std::to_string(value.size()) + " at depth " + std::to_string(depth));
    for (const auto& element : value)
        if (Status s = collectShape(element, dims, depth + 1); !s.isOk())
            return s;
    return Status::ok();
}

void flatten(const nlohmann::json& value, std::vector<const nlohmann::json*>& out)
{
    if (value.is_array()) {
        for (const auto& element : value)
            flatten(element, out);
    } else {
        out.push_back(&value);
    }
}

/// A JSON number (or a NaN/Infinity string) as double.
std::optional<double> numberOf(const nlohmann::json& v)
{
    if (v.is_number())
        return v.get<double>();
    if (v.is_boolean())
        return v.get<bool>() ? 1.0 : 0.0;
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (s == "NaN")
            return std::nan("");
        if (s == "Infinity")
            return HUGE_VAL;
        if (s == "-Infinity")
            return -HUGE_VAL;
    }
    return std::nullopt;
}

/// The shortest decimal that reads back as the same float, as a double (so JSON prints it short).
double shortestFloat(float f)
{
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, f);
    *end = '\0';
    return std::strtod(buffer, nullptr);
}

template <typename T>
nlohmann::json jsonNumber(T v)
{
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>) {
        const double d = static_cast<double>(static_cast<float>(v));
        if (std::isnan(d))
            return "NaN";
        if (std::isinf(d))
            return d > 0 ? "Infinity" : "-Infinity";
        if constexpr (std::is_same_v<T, double>)
            return static_cast<double>(v);
        else
            return shortestFloat(static_cast<float>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
        return v;
    } else if constexpr (std::is_integral_v<T>) {
        return v;
    } else if constexpr (std::is_same_v<T, std::string>) {
        return v;
    } else {
        return nlohmann::json::array({jsonNumber(v.real()), jsonNumber(v.imag())});
    }
}

} // namespace

Expected<Tensor> tensorFromJson(const nlohmann::json& value, DataType dtype, Allocator& allocator)
{
    std::vector<std::int64_t> dims;
    if (Status s = collectShape(value, dims, 0); !s.isOk())
        return unexpected(s);
    auto shape = TensorShape::fromDims(dims);
    if (!shape)
        return unexpected(shape.error());
    auto tensor = Tensor::allocate(allocator, dtype, *shape);
    if (!tensor)
        return unexpected(tensor.error());
    std::vector<const nlohmann::json*> leaves;
    flatten(value, leaves);
    // A ragged array whose elements nest differently ([[1, 23, []]]: two numbers, and a shape
    // with no room for them) must not write past the tensor (found by the feed_json fuzzer).
    if (static_cast<std::int64_t>(leaves.size()) != tensor->numElements())
        return unexpected(invalidArgumentError("ragged array: its shape " + shape->toString() + " holds " +
                                               std::to_string(tensor->numElements()) + " values but it has " +
                                               std::to_string(leaves.size())));
    Status status = dispatchDataType(dtype, [&](auto tag) -> Status {
        using T = typename decltype(tag)::type;
        auto out = tensor->values<T>();
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            const nlohmann::json& leaf = *leaves[i];
            if constexpr (std::is_same_v<T, std::string>) {
                if (!leaf.is_string())
                    return invalidArgumentError("expected a string, got " + leaf.dump());
                out[i] = leaf.get<std::string>();
            } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
                return unimplementedError("complex values cannot be given as JSON; use a .npy file");
            } else {
                if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                    // JSON integers are taken exactly: through a double, 2^53 + 1 became 2^53 without a word.
                    if (leaf.is_number_integer()) { // signed or unsigned, never a float
                        auto take = [&](auto exact) -> Status {
                            if (!std::in_range<T>(exact))
                                return invalidArgumentError(leaf.dump() + " does not fit a " + dataTypeName(dtype));
                            out[i] = static_cast<T>(exact);
                            return Status::ok();
                        };
                        Status taken = leaf.is_number_unsigned() ? take(leaf.get<std::uint64_t>())
                                                                 : take(leaf.get<std::int64_t>());
                        if (!taken.isOk())
                            return taken;
                        continue;
                    }
                }
                auto number = numberOf(leaf);
                if (!number)
                    return invalidArgumentError("expected a number for a " + dataTypeName(dtype) + " tensor, got " +
                                                leaf.dump());
                if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                    // max() + 1 = 2^digits is exact as a double, max() itself is not for 64 bits (it
                    // rounds up to 2^63), so 9223372036854775808 passed "> max()" and the cast was undefined.
                    if (*number != std::floor(*number) || *number < static_cast<double>(std::numeric_limits<T>::lowest()) ||
                        *number >= std::ldexp(1.0, std::numeric_limits<T>::digits))
                        return invalidArgumentError(leaf.dump() + " does not fit a " + dataTypeName(dtype));
                }
                out[i] = static_cast<T>(*number);
            }
        }
        return Status::ok();
    });
    if (!status.isOk())
        return unexpected(status);
    return tensor;
}

nlohmann::json tensorToJson(const Tensor& tensor)
{
    nlohmann::json out;
    out["dtype"] = dataTypeName(tensor.dtype());
    out["shape"] = nlohmann::json::array();
    for (std::int64_t d : tensor.shape().dims())
        out["shape"].push_back(d);
    nlohmann::json values = nlohmann::json::array();
    const Status s = dispatchDataType(tensor.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (const T& v : tensor.values<T>())
            values.push_back(jsonNumber(v));
    });
    if (!s.isOk())
        out["error"] = s.message();
    out["values"] = std::move(values);
    return out;
}

} // namespace tstudio::cli
