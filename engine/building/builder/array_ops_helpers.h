// TensorFlow 1.15's Python array_ops and math_ops calls that python_ops.h does not offer, as
// GraphBuilder calls with Python's node names: shapes and ranks folded to constants where known,
// Python lists packed into tensors, slicing. The gradient functions, IndexedSlices and
// embedding_lookup use them.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio::array_ops {

/// An element of a Python list that array_ops packs into a tensor: a tensor or a Python int.
using ListElement = std::variant<Output, std::int64_t>;

/// array_ops.shape(x, out_type): a Const "Shape" of `outType` when x's shape is fully defined,
/// else a Shape op.
Expected<Output> shape(GraphBuilder& b, const Output& x, DataType outType = tensorflow::DT_INT32);
/// array_ops.rank(x): a Const "Rank" when the rank is known, else a Rank op.
Expected<Output> rank(GraphBuilder& b, const Output& x);
/// A Python list converted where a tensor is expected (ops.convert_to_tensor(list, name=`name`)):
/// a Const `name` when it holds only ints, else the autopacking Pack `name` whose int elements are
/// Consts "<name>/<position>" of the tensors' dtype.
Expected<Output> packList(GraphBuilder& b, const std::vector<ListElement>& elements, std::string_view name);
/// array_ops.stack(values, axis) of tensors: the Pack "stack".
Expected<Output> stack(GraphBuilder& b, const std::vector<Output>& values, std::int64_t axis);
/// array_ops.slice(x, begin, size): "Slice" (list arguments become "Slice/begin", "Slice/size").
Expected<Output> slice(GraphBuilder& b, const Output& x, const std::vector<ListElement>& begin,
                       const std::vector<ListElement>& size);
Expected<Output> slice(GraphBuilder& b, const Output& x, const Output& begin, const Output& size);
/// array_ops.concat(values, axis) for two or more values: "concat/axis" (a Python int axis) and the
/// ConcatV2 "concat"; list elements of `values` become "concat/values_<i>". One value: the
/// Identity "concat/concat", as TensorFlow's degenerate case.
using ConcatValue = std::variant<Output, std::vector<ListElement>>;
Expected<Output> concat(GraphBuilder& b, const std::vector<ConcatValue>& values, const ListElement& axis);
/// array_ops.gather(params, indices) (axis 0): "GatherV2/axis" and "GatherV2".
Expected<Output> gather(GraphBuilder& b, const Output& params, const Output& indices);
/// Python slicing of a 1-D tensor x[start:stop] or x[start] (`shrink`): "strided_slice/stack",
/// "strided_slice/stack_1", "strided_slice/stack_2" and "strided_slice"; an absent bound sets its
/// mask bit. A tensor bound is packed ("strided_slice/stack" becomes a Pack).
Expected<Output> stridedSlice1d(GraphBuilder& b, const Output& x, const std::optional<ListElement>& start,
                                const std::optional<ListElement>& stop, bool shrink = false);
/// math_ops._ReductionDims(x, None), the axes of a reduction over every axis: a Const "Const" of
/// 0..rank-1 when the rank is known, else Rank and the Range "range" over it.
Expected<Output> allAxes(GraphBuilder& b, const Output& x);
/// math_ops.reduce_sum(x) over every axis: "Const" axes (Rank + "range" when the rank is unknown)
/// and "Sum".
Expected<Output> reduceSumAll(GraphBuilder& b, const Output& x);
/// math_ops.range(start, limit, delta): "range/start", "range/limit", "range/delta" for Python
/// ints and the Range "range".
Expected<Output> range(GraphBuilder& b, const ListElement& start, const ListElement& limit, std::int64_t delta = 1);

} // namespace tstudio::array_ops
