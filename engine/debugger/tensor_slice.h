// TensorSlice: NumPy's basic indexing ("[::5, :2]", "[3, ..., -1]") parsed and applied to a Tensor,
// for the debugger's `pt name[slice]` and the tensor inspector's table.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::debugger {

/// One item of a NumPy basic index.
struct SliceItem {
    enum class Kind {
        kIndex,    ///< an integer: picks one position and drops the axis (negative counts from the end)
        kRange,    ///< start:stop:step, each part optional (NumPy's defaults and clamping)
        kEllipsis, ///< "...": as many full ranges as needed (at most one per slice)
        kNewAxis,  ///< "None" or "np.newaxis": inserts an axis of size 1
    };
    Kind kind = Kind::kRange;
    std::int64_t index = 0; ///< kIndex
    std::optional<std::int64_t> start, stop, step; ///< kRange; step never 0

    bool operator==(const SliceItem&) const = default;
};

/// A parsed index. No items (text "" or "[]"... see parseTensorSlice) selects the whole tensor.
struct TensorSlice {
    std::vector<SliceItem> items;

    bool operator==(const TensorSlice&) const = default;
};

/// Parses "[::5, :2]", "[3]", "[1:-1, ..., 0]", "[None, :]"; the brackets are required, spaces are
/// allowed anywhere; "" gives the whole tensor. InvalidArgument naming the column and what was
/// expected ("slice '[1:a]': expected an integer at column 4"), for a step of 0, two ellipses,
/// or anything NumPy would not accept as a basic index.
Expected<TensorSlice> parseTensorSlice(std::string_view text);

/// The slice as canonical text ("[::5, :2]"); parseTensorSlice(formatTensorSlice(s)) == s.
std::string formatTensorSlice(const TensorSlice& slice);

/// The shape `slice` gives on `shape` (as NumPy: clamped ranges, negative steps, dropped axes).
/// InvalidArgument for too many indices ("too many indices for tensor: tensor is 2-dimensional,
/// but 3 were indexed") and for an index out of range ("index 7 is out of bounds for axis 0 with
/// size 5"), NumPy's texts.
Expected<TensorShape> slicedShape(const TensorShape& shape, const TensorSlice& slice);

/// Where the elements of a sliced tensor lie in the tensor it was cut from, so a view can label them with
/// their source indices (row 100 of "[100:110]" is source row 100, not 0).
struct SliceOrigin {
    /// One axis of the result: the source axis it runs along (-1 for an inserted axis), the source
    /// position of its first element and the step between its elements (NumPy's clamped start and step).
    struct Axis {
        int sourceAxis = -1;
        std::int64_t first = 0;
        std::int64_t step = 0;
    };
    std::vector<Axis> axes;            ///< one per axis of the result
    std::vector<std::int64_t> picked;  ///< one per source axis: the position an integer index picked, else -1

    /// The source position of `position` along result axis `axis` (itself for an axis out of range).
    std::int64_t sourcePosition(std::size_t axis, std::int64_t position) const;
    /// The full source index of a result index (picked positions included).
    std::vector<std::int64_t> sourceIndex(const std::vector<std::int64_t>& index) const;
};

/// The origin of every axis of `slice` on `shape`; the errors of slicedShape.
Expected<SliceOrigin> sliceOrigin(const TensorShape& shape, const TensorSlice& slice);

/// A new tensor holding the selected elements in C order (a copy on `allocator`), any dtype
/// (strings included); the errors of slicedShape, FailedPrecondition for an uninitialized tensor.
Expected<Tensor> applyTensorSlice(const Tensor& tensor, const TensorSlice& slice, Allocator& allocator);

/// "layer1/MatMul:0[::5, :2]" -> {"layer1/MatMul:0", "[::5, :2]"}: the tensor name and the slice
/// text from the first '[' on ("" when there is none). Names never contain '['.
std::pair<std::string, std::string> splitTensorExpression(std::string_view expression);

} // namespace tstudio::debugger
