// ReductionHelper: axis validation and the merged-dimension view of a reduction.
#include "kernels/reduction/reduction_helper.h"

#include "framework/node_attrs.h"

#include <string>

namespace tstudio::reduction {

namespace {

template <typename Index> Status markAxes(const TensorShape& data, const Tensor& axes, std::vector<bool>& bitmap)
{
    const std::int64_t rank = data.rank();
    for (const Index value : axes.values<Index>()) {
        const auto index = static_cast<std::int64_t>(value);
        if (index < -rank || index >= rank) {
            return invalidArgumentError("Invalid reduction dimension (" + std::to_string(index) + " for input with " +
                                        std::to_string(rank) + " dimension(s)");
        }
        const std::int64_t axis = index < 0 ? index + rank : index;
        if (bitmap[static_cast<std::size_t>(axis)]) {
            return invalidArgumentError("Invalid reduction arguments: Axes contains duplicate dimension: " +
                                        std::to_string(axis));
        }
        bitmap[static_cast<std::size_t>(axis)] = true;
    }
    return Status::ok();
}

} // namespace

Status ReductionHelper::simplify(const TensorShape& data, const Tensor& axes, bool keepDims)
{
    const int rank = data.rank();
    std::vector<bool> bitmap(static_cast<std::size_t>(rank), false);
    Status status;
    if (axes.dtype() == tensorflow::DT_INT32)
        status = markAxes<std::int32_t>(data, axes, bitmap);
    else if (axes.dtype() == tensorflow::DT_INT64)
        status = markAxes<std::int64_t>(data, axes, bitmap);
    else
        status = invalidArgumentError("reduction_indices must be int32 or int64, not " + dataTypeString(axes.dtype()));
    if (!status.isOk())
        return status;

    std::vector<std::int64_t> outDims;
    for (int i = 0; i < rank; ++i) {
        if (!bitmap[static_cast<std::size_t>(i)])
            outDims.push_back(data.dim(i));
        else if (keepDims)
            outDims.push_back(1);
    }
    m_outShape = TensorShape(std::move(outDims));

    m_dataReshape.clear();
    m_outReshape.clear();
    int i = 0;
    while (i < rank && data.dim(i) == 1)
        ++i;
    if (i >= rank) {
        // Every dimension is 1: the input is essentially a scalar.
        m_reduceFirstAxis = true;
        return Status::ok();
    }
    m_reduceFirstAxis = bitmap[static_cast<std::size_t>(i)];
    m_dataReshape.push_back(data.dim(i));
    for (++i; i < rank; ++i) {
        const std::int64_t size = data.dim(i);
        const auto u = static_cast<std::size_t>(i);
        if (size == 1)
            bitmap[u] = bitmap[u - 1];
        if (bitmap[u - 1] != bitmap[u])
            m_dataReshape.push_back(size);
        else
            m_dataReshape.back() *= size;
    }
    for (std::size_t j = m_reduceFirstAxis ? 1 : 0; j < m_dataReshape.size(); j += 2)
        m_outReshape.push_back(m_dataReshape[j]);
    return Status::ok();
}

std::vector<std::int64_t> ReductionHelper::shuffledShape() const
{
    std::vector<std::int64_t> shape;
    for (int p : permutation())
        shape.push_back(m_dataReshape[static_cast<std::size_t>(p)]);
    return shape;
}

std::vector<int> ReductionHelper::permutation() const
{
    const int dims = ndims();
    const int first = m_reduceFirstAxis ? 1 : 0; // the first kept run
    std::vector<int> perm;
    for (int i = first; i < dims; i += 2)
        perm.push_back(i);
    for (int i = 1 - first; i < dims; i += 2)
        perm.push_back(i);
    return perm;
}

ReductionAttrs::ReductionAttrs(const tensorflow::NodeDef& node)
{
    auto value = attrBool(node, "keep_dims");
    if (value)
        keepDims = *value;
    else
        status = value.error();
}

Status ReductionAttrs::plan(const TensorShape& data, const Tensor& axes, ReductionHelper& helper) const
{
    if (!status.isOk())
        return status;
    return helper.simplify(data, axes, keepDims);
}

} // namespace tstudio::reduction
