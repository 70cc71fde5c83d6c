// tf.SparseTensor in the building API: construction checks, the static shape, sparse_placeholder
// and the slicing/gathering helpers with TensorFlow 1.15's node names.
#include "builder/sparse_tensor.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "framework/shape_inference.h"

#include <string>

namespace tstudio::sparse {

namespace {

Status checkRank(const Output& t, int rank, const char* what)
{
    const TensorShape& s = t.shape();
    if (!s.isUnknownRank() && s.rank() != rank)
        return invalidArgumentError("Shape must be rank " + std::to_string(rank) + " but is rank " +
                                    std::to_string(s.rank()) + " for SparseTensor " + what + " " + t.name());
    return Status::ok();
}

Status checkInt64(const Output& t, const char* what)
{
    if (t.baseDtype() != tensorflow::DT_INT64)
        return invalidArgumentError(std::string("SparseTensor ") + what + " must be int64, got " +
                                    dataTypeName(t.baseDtype()) + " (" + t.name() + ")");
    return Status::ok();
}

/// Dimension `i` of a known-rank shape, else unknown.
std::int64_t dimOf(const TensorShape& s, int i)
{
    return s.isUnknownRank() || s.rank() <= i ? -1 : s.dim(i);
}

/// A StridedSlice "strided_slice" of int32 stacks, in the scope Tensor.__getitem__ opens.
Expected<Output> stridedSlice(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& begin,
                              const std::vector<std::int64_t>& end, int beginMask, int endMask, int shrinkMask)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(beginT, py::intVector(b, begin, "stack"));
    TSTUDIO_AD_TRY(endT, py::intVector(b, end, "stack_1"));
    TSTUDIO_AD_TRY(strides, py::intVector(b, std::vector<std::int64_t>(begin.size(), 1), "stack_2"));
    return py::genOp(b, "StridedSlice", {x, beginT, endT, strides},
                     {{"begin_mask", attr::i(beginMask)},
                      {"end_mask", attr::i(endMask)},
                      {"ellipsis_mask", attr::i(0)},
                      {"new_axis_mask", attr::i(0)},
                      {"shrink_axis_mask", attr::i(shrinkMask)}},
                     scope.name());
}

} // namespace

Expected<SparseTensor> makeSparseTensor(const Output& indices, const Output& values, const Output& denseShape)
{
    if (!indices.isValid() || !values.isValid() || !denseShape.isValid())
        return unexpected(invalidArgumentError("SparseTensor needs valid indices, values and dense_shape"));
    TSTUDIO_AD_CHECK(checkInt64(indices, "indices"));
    TSTUDIO_AD_CHECK(checkInt64(denseShape, "dense_shape"));
    TSTUDIO_AD_CHECK(checkRank(indices, 2, "indices"));
    TSTUDIO_AD_CHECK(checkRank(values, 1, "values"));
    TSTUDIO_AD_CHECK(checkRank(denseShape, 1, "dense_shape"));
    // indices [N, rank] against values [N] and dense_shape [rank].
    if (auto n = ShapeInferenceContext::mergeDim(dimOf(indices.shape(), 0), dimOf(values.shape(), 0)); !n)
        return unexpected(
            n.error().withContext("SparseTensor indices " + indices.name() + " and values " + values.name()));
    if (auto r = ShapeInferenceContext::mergeDim(dimOf(indices.shape(), 1), dimOf(denseShape.shape(), 0)); !r)
        return unexpected(
            r.error().withContext("SparseTensor indices " + indices.name() + " and dense_shape " + denseShape.name()));
    return SparseTensor{indices, values, denseShape};
}

Expected<SparseTensor> makeSparseTensor(GraphBuilder& b, const Output& indices, const Output& values,
                                        const std::vector<std::int64_t>& denseShape)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("SparseTensor"));
    TSTUDIO_AD_TRY(shape, ops::constantInts(b, denseShape, {static_cast<std::int64_t>(denseShape.size())},
                                            tensorflow::DT_INT64, "dense_shape"));
    scope.close();
    return makeSparseTensor(indices, values, shape);
}

TensorShape staticShape(const GraphBuilder& b, const SparseTensor& sp)
{
    if (const Tensor* value = b.constantValue(sp.denseShape)) {
        std::vector<std::int64_t> dims;
        for (std::int64_t i = 0; i < value->numElements(); ++i)
            dims.push_back(value->dtype() == tensorflow::DT_INT64
                               ? value->values<std::int64_t>()[static_cast<std::size_t>(i)]
                               : value->values<std::int32_t>()[static_cast<std::size_t>(i)]);
        return TensorShape(dims);
    }
    const std::int64_t rank = dimOf(sp.denseShape.shape(), 0);
    return rank < 0 ? TensorShape::unknown() : TensorShape::unknownDims(static_cast<int>(rank));
}

Expected<SparseTensor> sparsePlaceholder(GraphBuilder& b, DataType dtype, const TensorShape& shape,
                                         std::string_view name)
{
    const std::string prefix(name);
    const auto named = [&](const char* part, const char* fallback) {
        return prefix.empty() ? std::string(fallback) : prefix + "/" + part;
    };
    const std::int64_t rank = shape.rank(); // -1 when unknown
    Output denseShape;
    if (shape.isFullyDefined()) {
        std::vector<std::int64_t> dims(shape.dims().begin(), shape.dims().end());
        TSTUDIO_AD_TRY(c, ops::constantInts(b, dims, {rank}, tensorflow::DT_INT64, named("shape", "Const")));
        denseShape = c;
    } else {
        TSTUDIO_AD_TRY(p, ops::placeholder(b, tensorflow::DT_INT64, TensorShape{rank}, named("shape", "Placeholder")));
        denseShape = p;
    }
    TSTUDIO_AD_TRY(values, ops::placeholder(b, dtype, TensorShape{-1}, named("values", "Placeholder")));
    TSTUDIO_AD_TRY(indices,
                   ops::placeholder(b, tensorflow::DT_INT64, TensorShape{-1, rank}, named("indices", "Placeholder")));
    return makeSparseTensor(indices, values, denseShape);
}

Expected<Output> column(GraphBuilder& b, const Output& matrix, std::int64_t columnIndex)
{
    return stridedSlice(b, matrix, {0, columnIndex}, {0, columnIndex + 1}, 1, 1, 2);
}

Expected<Output> element(GraphBuilder& b, const Output& vector, std::int64_t i)
{
    return stridedSlice(b, vector, {i}, {i + 1}, 0, 0, 1);
}

Expected<Output> gather(GraphBuilder& b, const Output& params, const Output& indices, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "GatherV2", {params, indices, axis}, {}, scope.name());
}

Expected<Output> transposeMatrix(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("transpose"));
    TSTUDIO_AD_TRY(perm, ops::constantInts(b, {1, 0}, {2}, tensorflow::DT_INT32, "perm"));
    return py::genOp(b, "Transpose", {x, perm}, {}, scope.name());
}

} // namespace tstudio::sparse
