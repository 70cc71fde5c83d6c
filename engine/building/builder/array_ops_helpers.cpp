// TensorFlow 1.15's Python array_ops calls (array_ops_helpers.h) with Python's node names.
#include "builder/array_ops_helpers.h"

#include "builder/ops_sugar.h"
#include "builder/python_ops.h"

#include <string>

namespace tstudio::array_ops {

namespace {

bool isTensor(const ListElement& e)
{
    return std::holds_alternative<Output>(e);
}

/// The dtype Python infers for a list: its first tensor's, else int32 (int64 for a wide int).
DataType listDtype(const std::vector<ListElement>& elements)
{
    bool wide = false;
    for (const ListElement& e : elements) {
        if (isTensor(e))
            return std::get<Output>(e).baseDtype();
        const std::int64_t v = std::get<std::int64_t>(e);
        wide = wide || v < INT32_MIN || v > INT32_MAX;
    }
    return wide ? tensorflow::DT_INT64 : tensorflow::DT_INT32;
}

Expected<Output> scalarConst(GraphBuilder& b, std::int64_t value, std::string_view name)
{
    const bool wide = value < INT32_MIN || value > INT32_MAX;
    return ops::constantInts(b, {value}, TensorShape::scalar(), wide ? tensorflow::DT_INT64 : tensorflow::DT_INT32,
                             name);
}

Expected<Output> scalarOrTensor(GraphBuilder& b, const ListElement& e, std::string_view name)
{
    if (isTensor(e))
        return std::get<Output>(e);
    return scalarConst(b, std::get<std::int64_t>(e), name);
}

} // namespace

Expected<Output> shape(GraphBuilder& b, const Output& x, DataType outType)
{
    if (x.shape().isFullyDefined())
        return ops::constantInts(b, {x.shape().dims().begin(), x.shape().dims().end()},
                                 TensorShape{static_cast<std::int64_t>(x.shape().rank())}, outType, "Shape");
    return py::genOp(b, "Shape", {x}, {{"out_type", attr::type(outType)}});
}

Expected<Output> rank(GraphBuilder& b, const Output& x)
{
    if (!x.shape().isUnknownRank())
        return ops::constantInts(b, {x.shape().rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "Rank");
    return py::genOp(b, "Rank", {x});
}

Expected<Output> packList(GraphBuilder& b, const std::vector<ListElement>& elements, std::string_view name)
{
    const DataType dtype = listDtype(elements);
    bool anyTensor = false;
    std::vector<std::int64_t> ints;
    for (const ListElement& e : elements) {
        anyTensor = anyTensor || isTensor(e);
        if (!isTensor(e))
            ints.push_back(std::get<std::int64_t>(e));
    }
    if (!anyTensor)
        return ops::constantInts(b, ints, TensorShape{static_cast<std::int64_t>(ints.size())}, dtype, name);
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    std::vector<Output> tensors;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        if (isTensor(elements[i])) {
            tensors.push_back(std::get<Output>(elements[i]));
            continue;
        }
        TSTUDIO_AD_TRY(c, ops::constantInts(b, {std::get<std::int64_t>(elements[i])}, TensorShape::scalar(), dtype,
                                            std::to_string(i)));
        tensors.push_back(c);
    }
    return py::genOp(b, "Pack", {tensors}, {{"axis", attr::i(0)}}, scope.name());
}

Expected<Output> stack(GraphBuilder& b, const std::vector<Output>& values, std::int64_t axis)
{
    if (axis == 0) {
        std::vector<ListElement> elements(values.begin(), values.end());
        return packList(b, elements, "stack");
    }
    return py::genOp(b, "Pack", {values}, {{"axis", attr::i(axis)}}, "stack");
}

Expected<Output> slice(GraphBuilder& b, const Output& x, const Output& begin, const Output& size)
{
    return py::genOp(b, "Slice", {x, begin, size});
}

Expected<Output> slice(GraphBuilder& b, const Output& x, const std::vector<ListElement>& begin,
                       const std::vector<ListElement>& size)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Slice"));
    TSTUDIO_AD_TRY(beginT, packList(b, begin, "begin"));
    TSTUDIO_AD_TRY(sizeT, packList(b, size, "size"));
    return py::genOp(b, "Slice", {x, beginT, sizeT}, {}, scope.name());
}

Expected<Output> concat(GraphBuilder& b, const std::vector<ConcatValue>& values, const ListElement& axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("concat"));
    if (values.size() == 1) {
        // array_ops.concat's degenerate case: the axis converted as "concat_dim" (a Python int
        // becomes a Const), then identity(values[0], name="concat") inside the "concat" scope.
        if (!std::holds_alternative<Output>(values[0]))
            return unexpected(internalError("a one-value concat of a Python list is not used by any gradient"));
        if (!isTensor(axis)) {
            TSTUDIO_AD_TRY(dim, scalarConst(b, std::get<std::int64_t>(axis), "concat_dim"));
            (void)dim;
        }
        return py::genOp(b, "Identity", {std::get<Output>(values[0])}, {}, "concat");
    }
    std::vector<Output> tensors;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::holds_alternative<Output>(values[i])) {
            tensors.push_back(std::get<Output>(values[i]));
            continue;
        }
        TSTUDIO_AD_TRY(packed,
                       packList(b, std::get<std::vector<ListElement>>(values[i]), "values_" + std::to_string(i)));
        tensors.push_back(packed);
    }
    TSTUDIO_AD_TRY(axisT, scalarOrTensor(b, axis, "axis"));
    return py::genOp(b, "ConcatV2", {tensors, axisT}, {}, scope.name());
}

Expected<Output> gather(GraphBuilder& b, const Output& params, const Output& indices)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("GatherV2"));
    TSTUDIO_AD_TRY(axis, scalarConst(b, 0, "axis"));
    return py::genOp(b, "GatherV2", {params, indices, axis}, {{"batch_dims", attr::i(0)}}, scope.name());
}

Expected<Output> stridedSlice1d(GraphBuilder& b, const Output& x, const std::optional<ListElement>& start,
                                const std::optional<ListElement>& stop, bool shrink)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    std::int64_t beginMask = 0;
    std::int64_t endMask = 0;
    ListElement begin = std::int64_t{0};
    ListElement end = std::int64_t{0};
    if (shrink) {
        // x[i]: begin i, end i + 1 (a tensor index adds "add"), shrink_axis_mask bit 0.
        begin = *start;
        if (isTensor(*start)) {
            TSTUDIO_AD_TRY(next, py::binary(b, py::Operator::kAdd, std::get<Output>(*start), 1.0));
            end = next;
        } else {
            end = std::get<std::int64_t>(*start) + 1;
        }
    } else {
        if (start)
            begin = *start;
        else
            beginMask = 1;
        if (stop)
            end = *stop;
        else
            endMask = 1;
    }
    TSTUDIO_AD_TRY(beginT, packList(b, {begin}, "stack"));
    TSTUDIO_AD_TRY(endT, packList(b, {end}, "stack_1"));
    TSTUDIO_AD_TRY(stridesT, packList(b, {std::int64_t{1}}, "stack_2"));
    return py::genOp(b, "StridedSlice", {x, beginT, endT, stridesT},
                     {{"begin_mask", attr::i(beginMask)},
                      {"end_mask", attr::i(endMask)},
                      {"ellipsis_mask", attr::i(0)},
                      {"new_axis_mask", attr::i(0)},
                      {"shrink_axis_mask", attr::i(shrink ? 1 : 0)}},
                     scope.name());
}

Expected<Output> allAxes(GraphBuilder& b, const Output& x)
{
    if (!x.shape().isUnknownRank()) {
        std::vector<std::int64_t> all(static_cast<std::size_t>(x.shape().rank()));
        for (std::size_t i = 0; i < all.size(); ++i)
            all[i] = static_cast<std::int64_t>(i);
        return ops::constantInts(b, all, TensorShape{static_cast<std::int64_t>(all.size())}, tensorflow::DT_INT32,
                                 "Const");
    }
    // math_ops.range(0, rank(x)): the Rank op comes first, then the range's scope.
    TSTUDIO_AD_TRY(r, py::genOp(b, "Rank", {x}));
    return range(b, std::int64_t{0}, r);
}

Expected<Output> reduceSumAll(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(axes, allAxes(b, x));
    return py::reduceSum(b, x, axes);
}

Expected<Output> range(GraphBuilder& b, const ListElement& start, const ListElement& limit, std::int64_t delta)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("range"));
    TSTUDIO_AD_TRY(startT, scalarOrTensor(b, start, "start"));
    TSTUDIO_AD_TRY(limitT, scalarOrTensor(b, limit, "limit"));
    TSTUDIO_AD_TRY(deltaT, scalarConst(b, delta, "delta"));
    return py::genOp(b, "Range", {startT, limitT, deltaT}, {}, scope.name());
}

} // namespace tstudio::array_ops
