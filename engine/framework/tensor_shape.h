// TensorShape: a possibly partial shape (unknown rank, or known rank with unknown dims), as TF's PartialTensorShape.
#pragma once

#include "core/expected.h"
#include "framework/inline_dims.h"
#include "proto/tensor_shape.pb.h"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace tstudio {

/// A shape as TensorFlow's PartialTensorShape: either unknown rank, or a list of dimensions
/// (outermost first) where each is a size >= 0 or -1 (unknown). A scalar is the empty list.
/// A value type; not synchronised (copy it across threads).
class TensorShape {
public:
    /// The dimension value meaning "unknown".
    static constexpr std::int64_t kUnknownDim = -1;
    /// TensorFlow's limit on the rank (TensorShape::MaxDimensions).
    static constexpr int kMaxRank = 254;

    /// Unknown rank, as a default PartialTensorShape. Note that `TensorShape{}` is therefore
    /// unknown too: use scalar() for `[]`.
    TensorShape() = default;
    /// Known rank with these dimensions, e.g. `TensorShape{2, -1, 3}` is "[2,?,3]". Sizes below
    /// -1 are stored as -1: use fromDims to reject them instead.
    TensorShape(std::initializer_list<std::int64_t> dims)
        : m_knownRank(true), m_dims(std::span<const std::int64_t>(dims.begin(), dims.size()))
    {
        for (std::int64_t& d : m_dims)
            d = std::max(d, kUnknownDim);
    }
    /// Known rank with these dimensions; sizes below -1 are stored as -1 (see fromDims).
    explicit TensorShape(std::vector<std::int64_t> dims);

    /// "[]": rank 0, one element.
    static TensorShape scalar()
    {
        TensorShape shape;
        shape.m_knownRank = true;
        return shape;
    }
    /// "<unknown>".
    static TensorShape unknown() { return TensorShape(); }
    /// Known rank, every dimension unknown: unknownDims(2) is "[?,?]". Precondition: rank >= 0.
    static TensorShape unknownDims(int rank);
    /// Known rank with these dimensions; InvalidArgument for a size below -1 or more than
    /// kMaxRank dimensions.
    static Expected<TensorShape> fromDims(std::span<const std::int64_t> dims);

    /// Validates and converts; InvalidArgument for a size below -1, for unknown_rank together
    /// with dimensions, and for more than kMaxRank dimensions. Dimension names are dropped.
    static Expected<TensorShape> fromProto(const tensorflow::TensorShapeProto& proto);
    /// The proto form: unknown_rank = true, or one Dim per dimension (size -1 when unknown).
    tensorflow::TensorShapeProto toProto() const;

    /// The number of dimensions, or -1 when the rank is unknown.
    int rank() const { return m_knownRank ? static_cast<int>(m_dims.size()) : -1; }
    bool isUnknownRank() const { return !m_knownRank; }
    /// Dimension i (-1 when unknown). Precondition: 0 <= i < rank().
    std::int64_t dim(int i) const { return m_dims[static_cast<std::size_t>(i)]; }
    /// All dimensions (empty for a scalar and for unknown rank).
    std::span<const std::int64_t> dims() const { return m_dims; }
    /// Known rank and no unknown dimension.
    bool isFullyDefined() const;

    /// The product of the dimensions (1 for a scalar). InvalidArgument when the shape is not fully
    /// defined, or "shape [..] has too many elements" when the product overflows int64.
    Expected<std::int64_t> numElements() const;

    /// TensorFlow's spelling: "[2,?,3]", "[]" for a scalar, "<unknown>" for unknown rank.
    std::string toString() const;

    /// True when some fully defined shape fits both: either rank is unknown, or the ranks are equal
    /// and each pair of dimensions is equal or has an unknown member.
    bool isCompatibleWith(const TensorShape& other) const;
    /// The most specific shape compatible with both (unknown parts filled from the other).
    /// InvalidArgument as TensorFlow's shape inference words it: "Shapes must be equal rank, but
    /// are 2 and 3", "Dimension 1 in both shapes must be equal, but are 3 and 4. Shapes are
    /// [2,3] and [2,4]."
    Expected<TensorShape> merge(const TensorShape& other) const;
    /// This shape's dimensions followed by other's; unknown rank if either is.
    TensorShape concatenate(const TensorShape& other) const;

    /// Identical (not merely compatible): same rank-knownness and the same dimensions, -1 included.
    bool operator==(const TensorShape& other) const = default;

private:
    bool m_knownRank = false;
    InlineDims m_dims; ///< inline up to rank 6: copying a shape does not allocate
};

} // namespace tstudio
