// TensorShape: validation, proto conversion, element counts and the shape algebra.
#include "framework/tensor_shape.h"

#include <algorithm>
#include <limits>

namespace tstudio {

namespace {

InlineDims normalized(std::span<const std::int64_t> given)
{
    InlineDims dims(given);
    for (std::int64_t& d : dims)
        d = std::max(d, TensorShape::kUnknownDim);
    return dims;
}

std::string dimsToString(std::span<const std::int64_t> dims)
{
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            out += ',';
        // Only -1 means unknown; other negative sizes appear (as numbers) in validation messages.
        out += dims[i] == TensorShape::kUnknownDim ? std::string("?") : std::to_string(dims[i]);
    }
    out += ']';
    return out;
}

Status checkDims(std::span<const std::int64_t> dims, std::string_view what)
{
    if (dims.size() > static_cast<std::size_t>(TensorShape::kMaxRank)) {
        return invalidArgumentError(std::string(what) + " has " + std::to_string(dims.size()) +
                                    " dimensions, more than the " + std::to_string(TensorShape::kMaxRank) +
                                    " TensorFlow allows");
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] < TensorShape::kUnknownDim) {
            return invalidArgumentError(std::string(what) + " has dimension " + std::to_string(i) + " of size " +
                                        std::to_string(dims[i]) + "; sizes must be >= 0, or -1 for unknown");
        }
    }
    return Status::ok();
}

} // namespace

TensorShape::TensorShape(std::vector<std::int64_t> dims) : m_knownRank(true), m_dims(normalized(dims)) {}

TensorShape TensorShape::unknownDims(int rank)
{
    TensorShape shape = scalar();
    shape.m_dims = InlineDims(static_cast<std::size_t>(std::max(rank, 0)), kUnknownDim);
    return shape;
}

Expected<TensorShape> TensorShape::fromDims(std::span<const std::int64_t> dims)
{
    if (Status s = checkDims(dims, "shape " + dimsToString(dims)); !s.isOk())
        return unexpected(std::move(s));
    return TensorShape(std::vector<std::int64_t>(dims.begin(), dims.end()));
}

Expected<TensorShape> TensorShape::fromProto(const tensorflow::TensorShapeProto& proto)
{
    std::vector<std::int64_t> dims;
    dims.reserve(static_cast<std::size_t>(proto.dim_size()));
    for (const auto& d : proto.dim())
        dims.push_back(d.size());
    if (proto.unknown_rank()) {
        if (!dims.empty()) {
            return unexpected(invalidArgumentError("TensorShapeProto has unknown_rank set but also lists " +
                                                   std::to_string(dims.size()) + " dimensions"));
        }
        return TensorShape::unknown();
    }
    if (Status s = checkDims(dims, "TensorShapeProto " + dimsToString(dims)); !s.isOk())
        return unexpected(std::move(s));
    return TensorShape(std::move(dims));
}

tensorflow::TensorShapeProto TensorShape::toProto() const
{
    tensorflow::TensorShapeProto proto;
    if (!m_knownRank) {
        proto.set_unknown_rank(true);
        return proto;
    }
    for (std::int64_t d : m_dims)
        proto.add_dim()->set_size(d);
    return proto;
}

bool TensorShape::isFullyDefined() const
{
    return m_knownRank && std::none_of(m_dims.begin(), m_dims.end(), [](std::int64_t d) { return d < 0; });
}

Expected<std::int64_t> TensorShape::numElements() const
{
    if (!isFullyDefined())
        return unexpected(invalidArgumentError("shape " + toString() + " is not fully defined"));
    // Any zero makes the product 0, however large the other dimensions are.
    if (std::find(m_dims.begin(), m_dims.end(), 0) != m_dims.end())
        return 0;
    std::int64_t product = 1;
    for (std::int64_t d : m_dims) {
        if (product > std::numeric_limits<std::int64_t>::max() / d) {
            return unexpected(
                invalidArgumentError("shape " + toString() + " has too many elements (more than 2^63 - 1)"));
        }
        product *= d;
    }
    return product;
}

std::string TensorShape::toString() const
{
    return m_knownRank ? dimsToString(m_dims) : std::string("<unknown>");
}

bool TensorShape::isCompatibleWith(const TensorShape& other) const
{
    if (!m_knownRank || !other.m_knownRank)
        return true;
    if (m_dims.size() != other.m_dims.size())
        return false;
    for (std::size_t i = 0; i < m_dims.size(); ++i) {
        if (m_dims[i] >= 0 && other.m_dims[i] >= 0 && m_dims[i] != other.m_dims[i])
            return false;
    }
    return true;
}

Expected<TensorShape> TensorShape::merge(const TensorShape& other) const
{
    if (!m_knownRank)
        return other;
    if (!other.m_knownRank)
        return *this;
    if (m_dims.size() != other.m_dims.size()) {
        return unexpected(invalidArgumentError("Shapes must be equal rank, but are " + std::to_string(rank()) +
                                               " and " + std::to_string(other.rank())));
    }
    TensorShape result = *this;
    for (std::size_t i = 0; i < m_dims.size(); ++i) {
        const std::int64_t a = m_dims[i];
        const std::int64_t b = other.m_dims[i];
        if (a >= 0 && b >= 0 && a != b) {
            return unexpected(invalidArgumentError("Dimension " + std::to_string(i) +
                                                   " in both shapes must be equal, but are " + std::to_string(a) +
                                                   " and " + std::to_string(b) + ". Shapes are " + toString() +
                                                   " and " + other.toString() + "."));
        }
        result.m_dims[i] = a >= 0 ? a : b;
    }
    return result;
}

TensorShape TensorShape::concatenate(const TensorShape& other) const
{
    if (!m_knownRank || !other.m_knownRank)
        return unknown();
    std::vector<std::int64_t> dims(m_dims.begin(), m_dims.end());
    dims.insert(dims.end(), other.m_dims.begin(), other.m_dims.end());
    return TensorShape(std::move(dims));
}

} // namespace tstudio
