// IndexedSlices: the dense conversion (ops._IndexedSlicesToTensor) and the aggregation of several
// gradient contributions of which some are sparse (gradients_util._AggregateIndexedSlicesGradients).
#include "builder/indexed_slices.h"

#include "builder/array_ops_helpers.h"
#include "builder/python_ops.h"

namespace tstudio {

using array_ops::ListElement;

Expected<Output> indexedSlicesToTensor(GraphBuilder& b, const IndexedSlices& slices)
{
    if (!slices.denseShape)
        return unexpected(invalidArgumentError("Tensor conversion requested for IndexedSlices without dense_shape: " +
                                               slices.values.name()));
    TSTUDIO_AD_TRY(rows,
                   array_ops::stridedSlice1d(b, *slices.denseShape, ListElement{std::int64_t{0}}, std::nullopt, true));
    return py::genOp(b, "UnsortedSegmentSum", {slices.values, slices.indices, rows});
}

Expected<Output> toDenseGradient(GraphBuilder& b, const Gradient& g)
{
    if (!g.isSparse())
        return g.dense();
    return indexedSlicesToTensor(b, g.sparse());
}

Expected<Gradient> aggregateIndexedSlicesGradients(GraphBuilder& b, const std::vector<Gradient>& grads)
{
    if (grads.empty())
        return unexpected(internalError("aggregateIndexedSlicesGradients needs at least one gradient"));
    if (grads.size() == 1)
        return grads.front();
    // math_ops._as_indexed_slices_list: int64 indices everywhere as soon as one slices has them.
    bool anyInt64 = false;
    for (const Gradient& g : grads)
        anyInt64 = anyInt64 || (g.isSparse() && baseType(g.sparse().indices.dtype()) == tensorflow::DT_INT64);
    std::vector<IndexedSlices> slices;
    for (const Gradient& g : grads) {
        if (g.isSparse()) {
            slices.push_back(g.sparse());
            continue;
        }
        // _as_indexed_slices(x): IndexedSlices(x, range(0, shape(x)[0]), shape(x)).
        const Output& x = g.dense();
        TSTUDIO_AD_TRY(shape, py::shape(b, x));
        TSTUDIO_AD_TRY(rows, array_ops::stridedSlice1d(b, shape, ListElement{std::int64_t{0}}, std::nullopt, true));
        TSTUDIO_AD_TRY(indices, array_ops::range(b, std::int64_t{0}, ListElement{rows}));
        slices.push_back(IndexedSlices{x, indices, shape});
    }
    std::vector<array_ops::ConcatValue> values;
    std::vector<array_ops::ConcatValue> indices;
    for (IndexedSlices& s : slices) {
        if (anyInt64 && baseType(s.indices.dtype()) != tensorflow::DT_INT64) {
            TSTUDIO_AD_TRY(cast, py::cast(b, s.indices, tensorflow::DT_INT64));
            s.indices = cast;
        }
        values.emplace_back(s.values);
        indices.emplace_back(s.indices);
    }
    TSTUDIO_AD_TRY(concatValues, array_ops::concat(b, values, std::int64_t{0}));
    TSTUDIO_AD_TRY(concatIndices, array_ops::concat(b, indices, std::int64_t{0}));
    return Gradient(IndexedSlices{concatValues, concatIndices, slices.front().denseShape});
}

} // namespace tstudio
