// The tf.sparse functions of TensorFlow 1.15 with Python's node names (see sparse_ops.h).
#include "builder/sparse_ops.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_to_dense.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace tstudio::sparse {

namespace {

std::string listString(const std::vector<std::int64_t>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i > 0 ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

/// The known values of an int32/int64 vector tensor, or nullopt.
std::optional<std::vector<std::int64_t>> knownInts(const GraphBuilder& b, const Output& t)
{
    const Tensor* value = b.constantValue(t);
    if (value == nullptr)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < value->numElements(); ++i) {
        const auto iu = static_cast<std::size_t>(i);
        out.push_back(value->dtype() == tensorflow::DT_INT64 ? value->values<std::int64_t>()[iu]
                                                             : value->values<std::int32_t>()[iu]);
    }
    return out;
}

/// sparse_reshape after the shape was made an int64 tensor; `requested` is its value when
/// tensor_util.constant_value knows it (a Const, or a Cast of one).
Expected<SparseTensor> reshapeInt64(GraphBuilder& b, const SparseTensor& sp, const Output& shape,
                                    const std::optional<std::vector<std::int64_t>>& requested, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("SparseReshape") : name));
    TSTUDIO_AD_TRY(op, b.op("SparseReshape", {sp.indices, sp.denseShape, shape}, {}, scope.name()));
    Output reshapedShape = op.output(1);
    const TensorShape inShape = staticShape(b, sp);
    if (requested && inShape.isFullyDefined()) {
        if (std::count(requested->begin(), requested->end(), std::int64_t{-1}) > 1)
            return unexpected(
                invalidArgumentError("At most one dimension can be inferred (-1). Found: " + listString(*requested)));
        const std::int64_t inSize = *inShape.numElements();
        std::vector<std::int64_t> resolved = *requested;
        std::int64_t known = 1;
        for (std::int64_t d : resolved)
            known *= d == -1 ? 1 : d;
        for (std::int64_t& d : resolved) {
            if (d == -1)
                d = known == 0 ? 0 : inSize / known;
        }
        const std::int64_t outSize = std::accumulate(resolved.begin(), resolved.end(), std::int64_t{1},
                                                     [](std::int64_t x, std::int64_t y) { return x * y; });
        if (outSize != inSize)
            return unexpected(invalidArgumentError("Cannot reshape a tensor with " + std::to_string(inSize) +
                                                   " elements to shape " + listString(*requested) + " (" +
                                                   std::to_string(outSize) + " elements)."));
        TSTUDIO_AD_TRY(
            c, ops::constantInts(b, resolved, {static_cast<std::int64_t>(resolved.size())}, tensorflow::DT_INT64));
        reshapedShape = c;
    }
    TSTUDIO_AD_TRY(values, ops::identity(b, sp.values));
    return makeSparseTensor(op.output(0), values, reshapedShape);
}

/// The dense shape of a result SparseTensor given as a Python list (the SparseTensor constructor's
/// Const "SparseTensor/dense_shape").
Expected<SparseTensor> withListShape(GraphBuilder& b, const Output& indices, const Output& values,
                                     const TensorShape& shape)
{
    return makeSparseTensor(b, indices, values, std::vector<std::int64_t>(shape.dims().begin(), shape.dims().end()));
}

} // namespace

Expected<SparseTensor> sparseReshape(GraphBuilder& b, const SparseTensor& sp, const Output& shape,
                                     std::string_view name)
{
    TSTUDIO_AD_TRY(shape64, py::cast(b, shape, tensorflow::DT_INT64));
    return reshapeInt64(b, sp, shape64, knownInts(b, shape), name);
}

Expected<SparseTensor> sparseReshape(GraphBuilder& b, const SparseTensor& sp, const std::vector<std::int64_t>& shape,
                                     std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Cast"));
    TSTUDIO_AD_TRY(x,
                   ops::constantInts(b, shape, {static_cast<std::int64_t>(shape.size())}, tensorflow::DT_INT32, "x"));
    TSTUDIO_AD_TRY(cast, py::genOp(b, "Cast", {x}, {{"DstT", attr::type(tensorflow::DT_INT64)}}, scope.name()));
    scope.close();
    return reshapeInt64(b, sp, cast, shape, name);
}

Expected<SparseTensor> sparseReshape(GraphBuilder& b, const SparseTensor& sp, const std::vector<Output>& shapeParts,
                                     std::string_view name)
{
    TSTUDIO_AD_TRY(castScope, b.nameScope("Cast"));
    TSTUDIO_AD_TRY(packScope, b.nameScope("x"));
    TSTUDIO_AD_TRY(packed, py::genOp(b, "Pack", {shapeParts}, {{"axis", attr::i(0)}}, packScope.name()));
    packScope.close();
    castScope.close();
    // constant_value_as_shape of a Pack of computed sizes knows no entry: no static shape.
    TSTUDIO_AD_TRY(shape64, py::cast(b, packed, tensorflow::DT_INT64));
    return reshapeInt64(b, sp, shape64, std::nullopt, name);
}

Expected<SparseTensor> sparseAdd(GraphBuilder& b, const SparseTensor& a, const SparseTensor& other, double threshold)
{
    DataType real = a.dtype();
    if (real == tensorflow::DT_COMPLEX64)
        real = tensorflow::DT_FLOAT;
    else if (real == tensorflow::DT_COMPLEX128)
        real = tensorflow::DT_DOUBLE;
    TSTUDIO_AD_TRY(thresh, ops::constant(b, threshold, real, "threshold"));
    TSTUDIO_AD_TRY(op, b.op("SparseAdd", {a.indices, a.values, a.denseShape, other.indices, other.values,
                                          other.denseShape, thresh}));
    const TensorShape aShape = staticShape(b, a);
    const TensorShape bShape = staticShape(b, other);
    auto merged = aShape.merge(bShape);
    if (!merged)
        return unexpected(
            invalidArgumentError("Shapes " + aShape.toString() + " and " + bShape.toString() + " are incompatible"));
    if (merged->isFullyDefined())
        return withListShape(b, op.output(0), op.output(1), *merged);
    return makeSparseTensor(op.output(0), op.output(1), op.output(2));
}

Expected<Output> sparseAdd(GraphBuilder& b, const SparseTensor& sp, const Output& dense)
{
    return py::genOp(b, "SparseTensorDenseAdd", {sp.indices, sp.values, sp.denseShape, dense});
}

Expected<SparseTensor> sparseConcat(GraphBuilder& b, std::int64_t axis, const std::vector<SparseTensor>& inputs,
                                    std::string_view name)
{
    if (inputs.empty())
        return unexpected(invalidArgumentError("sparse_concat needs at least one SparseTensor"));
    if (inputs.size() == 1)
        return inputs.front();
    std::vector<Output> indices;
    std::vector<Output> values;
    std::vector<Output> shapes;
    for (const SparseTensor& sp : inputs) {
        indices.push_back(sp.indices);
        values.push_back(sp.values);
        shapes.push_back(sp.denseShape);
    }
    TSTUDIO_AD_TRY(op, b.op("SparseConcat", {indices, values, shapes}, {{"concat_dim", attr::i(axis)}}, name));
    std::vector<std::vector<std::int64_t>> known;
    for (const Output& s : shapes) {
        auto v = knownInts(b, s);
        if (!v)
            return makeSparseTensor(op.output(0), op.output(1), op.output(2));
        known.push_back(*v);
    }
    std::vector<std::int64_t> out = known.front();
    const auto rank = static_cast<std::int64_t>(out.size());
    const std::int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
        return unexpected(invalidArgumentError("sparse_concat axis " + std::to_string(axis) +
                                               " is out of range for rank " + std::to_string(rank)));
    std::int64_t total = 0;
    for (const auto& k : known) {
        if (static_cast<std::int64_t>(k.size()) != rank)
            return unexpected(invalidArgumentError("sparse_concat inputs have different ranks: " + listString(out) +
                                                   " and " + listString(k)));
        total += k[static_cast<std::size_t>(a)];
    }
    out[static_cast<std::size_t>(a)] = total;
    TSTUDIO_AD_TRY(shape, ops::constantInts(b, out, {rank}, tensorflow::DT_INT64));
    return makeSparseTensor(op.output(0), op.output(1), shape);
}

Expected<SparseTensor> sparseSlice(GraphBuilder& b, const SparseTensor& sp, const std::vector<std::int64_t>& start,
                                   const std::vector<std::int64_t>& size, std::string_view name)
{
    TSTUDIO_AD_TRY(startT,
                   ops::constantInts(b, start, {static_cast<std::int64_t>(start.size())}, tensorflow::DT_INT64));
    TSTUDIO_AD_TRY(sizeT, ops::constantInts(b, size, {static_cast<std::int64_t>(size.size())}, tensorflow::DT_INT64));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("SparseSlice") : name));
    TSTUDIO_AD_TRY(op, b.op("SparseSlice", {sp.indices, sp.values, sp.denseShape, startT, sizeT}, {}, scope.name()));
    return makeSparseTensor(op.output(0), op.output(1), op.output(2));
}

Expected<SparseTensor> sparseReorder(GraphBuilder& b, const SparseTensor& sp, std::string_view name)
{
    TSTUDIO_AD_TRY(op, b.op("SparseReorder", {sp.indices, sp.values, sp.denseShape}, {}, name));
    const TensorShape shape = staticShape(b, sp);
    if (shape.isFullyDefined())
        return withListShape(b, op.output(0), op.output(1), shape);
    TSTUDIO_AD_TRY(denseShape, ops::identity(b, sp.denseShape));
    return makeSparseTensor(op.output(0), op.output(1), denseShape);
}

Expected<SparseTensor> sparseRetain(GraphBuilder& b, const SparseTensor& sp, const Output& toRetain)
{
    const TensorShape& retain = toRetain.shape();
    if (!retain.isUnknownRank() && retain.rank() != 1)
        return unexpected(invalidArgumentError("Shape " + retain.toString() + " must have rank 1 (to_retain)"));
    const TensorShape& values = sp.values.shape();
    if (!retain.isUnknownRank() && !values.isUnknownRank() && values.rank() == 1 && retain.dim(0) >= 0 &&
        values.dim(0) >= 0 && retain.dim(0) != values.dim(0))
        return unexpected(invalidArgumentError("Dimensions " + std::to_string(values.dim(0)) + " and " +
                                               std::to_string(retain.dim(0)) +
                                               " are not compatible (sp_input values and to_retain)"));
    TSTUDIO_AD_TRY(where, py::genOp(b, "Where", {toRetain}));
    TSTUDIO_AD_TRY(whereTrue, py::reshape(b, where, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(newIndices, gather(b, sp.indices, whereTrue));
    TSTUDIO_AD_TRY(newValues, gather(b, sp.values, whereTrue));
    TSTUDIO_AD_TRY(shape, ops::identity(b, sp.denseShape));
    return makeSparseTensor(newIndices, newValues, shape);
}

Expected<Output> sparseTensorToDense(GraphBuilder& b, const SparseTensor& sp, const std::optional<Output>& defaultValue,
                                     bool validateIndices, std::string_view name)
{
    return sparseToDense(b, sp.indices, sp.denseShape, sp.values, defaultValue, validateIndices,
                         name.empty() ? std::string_view("SparseToDense") : name);
}

Expected<Output> sparseTensorDenseMatmul(GraphBuilder& b, const SparseTensor& spA, const Output& dense, bool adjointA,
                                         bool adjointB, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("SparseTensorDenseMatMul") : name));
    return py::genOp(b, "SparseTensorDenseMatMul", {spA.indices, spA.values, spA.denseShape, dense},
                     {{"adjoint_a", attr::b(adjointA)}, {"adjoint_b", attr::b(adjointB)}});
}

Expected<std::pair<SparseTensor, Output>> sparseFillEmptyRows(GraphBuilder& b, const SparseTensor& sp,
                                                              double defaultValue, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("SparseFillEmptyRows") : name));
    TSTUDIO_AD_TRY(value, ops::constant(b, defaultValue, sp.dtype()));
    TSTUDIO_AD_TRY(op, b.op("SparseFillEmptyRows", {sp.indices, sp.values, sp.denseShape, value}));
    TSTUDIO_AD_TRY(filled, makeSparseTensor(op.output(0), op.output(1), sp.denseShape));
    return std::pair<SparseTensor, Output>{filled, op.output(2)};
}

Expected<Output> sparseSegmentReduce(GraphBuilder& b, SegmentReduction reduction, const Output& data,
                                     const Output& indices, const Output& segmentIds,
                                     const std::optional<Output>& numSegments, std::string_view name)
{
    std::string type = reduction == SegmentReduction::kSum    ? "SparseSegmentSum"
                       : reduction == SegmentReduction::kMean ? "SparseSegmentMean"
                                                              : "SparseSegmentSqrtN";
    if (numSegments) {
        type += "WithNumSegments";
        return py::genOp(b, type, {data, indices, segmentIds, *numSegments}, {}, name);
    }
    return py::genOp(b, type, {data, indices, segmentIds}, {}, name);
}

Expected<Output> segmentSum(GraphBuilder& b, const Output& data, const Output& segmentIds, std::string_view name)
{
    return py::genOp(b, "SegmentSum", {data, segmentIds}, {}, name);
}

} // namespace tstudio::sparse
