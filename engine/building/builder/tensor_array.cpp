// TensorArray: tf.TensorArray's graph implementation of TensorFlow 1.15 (tensor_array_ops.py's
// _GraphTensorArray), with its node names. Colocation with the first write is left out: TensorArray
// kernels exist for the CPU only, so every array op is placed there anyway.
#include "builder/tensor_array.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "core/try.h"

#include <algorithm>

namespace tstudio {
namespace {

/// Output `t` as the builder knows it now (after setShape).
Expected<Output> refreshed(GraphBuilder& b, const Output& t)
{
    return b.tensor(t.name());
}

/// An int32 scalar Const named `name` (a Python int passed for an index argument).
Expected<Output> int32Scalar(GraphBuilder& b, std::int64_t value, std::string_view name)
{
    return ops::constantInts(b, {value}, TensorShape::scalar(), tensorflow::DT_INT32, name);
}

/// math_ops.range(0, limit) under the current scope: "range/start", "range/delta", Range "range".
Expected<Output> rangeTo(GraphBuilder& b, const Output& limit)
{
    TSTUDIO_TRY(scope, b.nameScope("range"));
    TSTUDIO_TRY(start, int32Scalar(b, 0, "start"));
    TSTUDIO_TRY(delta, int32Scalar(b, 1, "delta"));
    return ops::firstOutput(b.op("Range", {start, limit, delta}, {}, scope.name()));
}

/// array_ops.shape(value)[0]: "Shape" (a Const when the shape is fully defined), then the
/// StridedSlice "strided_slice" with its "stack", "stack_1", "stack_2".
Expected<Output> firstDimension(GraphBuilder& b, const Output& value)
{
    Output shape;
    if (value.shape().isFullyDefined()) {
        TSTUDIO_TRY(c, ops::shapeTensor(b, value.shape(), "Shape"));
        shape = c;
    } else {
        TSTUDIO_TRY(s, ops::firstOutput(b.op("Shape", {value}, {{"out_type", attr::type(tensorflow::DT_INT32)}})));
        shape = s;
    }
    TSTUDIO_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_TRY(begin, ops::constantInts(b, {0}, TensorShape{1}, tensorflow::DT_INT32, "stack"));
    TSTUDIO_TRY(end, ops::constantInts(b, {1}, TensorShape{1}, tensorflow::DT_INT32, "stack_1"));
    TSTUDIO_TRY(strides, ops::constantInts(b, {1}, TensorShape{1}, tensorflow::DT_INT32, "stack_2"));
    return ops::firstOutput(b.op("StridedSlice", {shape, begin, end, strides},
                                 {{"begin_mask", attr::i(0)},
                                  {"end_mask", attr::i(0)},
                                  {"ellipsis_mask", attr::i(0)},
                                  {"new_axis_mask", attr::i(0)},
                                  {"shrink_axis_mask", attr::i(1)}},
                                 scope.name()));
}

/// The dimensions of `shape` after the first (unknown rank stays unknown; a scalar gives unknown,
/// as TensorShape[1:] of a scalar would fail in Python only when used).
TensorShape dropFirstDim(const TensorShape& shape)
{
    if (shape.rank() < 1)
        return TensorShape::unknown();
    return TensorShape(std::vector<std::int64_t>(shape.dims().begin() + 1, shape.dims().end()));
}

} // namespace

TensorArray::TensorArray(DataType dtype, Output handle, Output flow, std::shared_ptr<TensorShape> elementShape,
                         bool inferShape)
    : m_dtype(dtype), m_handle(std::move(handle)), m_flow(std::move(flow)), m_elementShape(std::move(elementShape)),
      m_inferShape(inferShape)
{
}

Expected<TensorArray> TensorArray::create(GraphBuilder& b, DataType dtype, const Output& size,
                                          const TensorArrayOptions& options)
{
    TSTUDIO_TRY(scope, b.nameScope(options.name));
    return create(b, dtype, size, options, scope);
}

Expected<TensorArray> TensorArray::create(GraphBuilder& b, DataType dtype, std::int32_t size,
                                          const TensorArrayOptions& options)
{
    TSTUDIO_TRY(scope, b.nameScope(options.name));
    TSTUDIO_TRY(sizeTensor, int32Scalar(b, size, "size"));
    return create(b, dtype, sizeTensor, options, scope);
}

Expected<TensorArray> TensorArray::create(GraphBuilder& b, DataType dtype, const Output& size,
                                          const TensorArrayOptions& options, const ScopeGuard& scope)
{
    TSTUDIO_TRY(op, b.op("TensorArrayV3", {size},
                         {{"dtype", attr::type(dtype)},
                          {"element_shape", attr::shape(options.elementShape)},
                          {"dynamic_size", attr::b(options.dynamicSize)},
                          {"clear_after_read", attr::b(options.clearAfterRead)},
                          {"identical_element_shapes", attr::b(options.inferShape)},
                          {"tensor_array_name", attr::s(options.tensorArrayName)}},
                         scope.name()));
    return TensorArray(dtype, op.output(0), op.output(1), std::make_shared<TensorShape>(options.elementShape),
                       options.inferShape);
}

TensorArray TensorArray::fromHandle(DataType dtype, Output handle, Output flow, bool inferShape)
{
    return TensorArray(dtype, std::move(handle), std::move(flow), std::make_shared<TensorShape>(), inferShape);
}

TensorArray TensorArray::withFlow(Output flow) const
{
    return TensorArray(m_dtype, m_handle, std::move(flow), m_elementShape, m_inferShape);
}

Expected<TensorArray> TensorArray::identity(GraphBuilder& b) const
{
    TSTUDIO_TRY(flow, ops::identity(b, m_flow));
    return withFlow(flow);
}

Status TensorArray::checkDtype(const Output& value) const
{
    if (value.baseDtype() == m_dtype)
        return Status::ok();
    return invalidArgumentError("TensorArray dtype is " + dataTypeName(m_dtype) + " but Op is trying to write dtype " +
                                dataTypeName(value.baseDtype()) + " (tensor '" + value.name() + "')");
}

Status TensorArray::checkElementShape(const TensorShape& shape, const Output& value) const
{
    if (!shape.isCompatibleWith(*m_elementShape))
        return invalidArgumentError("Inconsistent shapes: saw " + shape.toString() + " but expected " +
                                    m_elementShape->toString() + " (TensorArray '" + m_handle.node() + "', value '" +
                                    value.name() + "')");
    if (m_inferShape) {
        auto merged = m_elementShape->merge(shape);
        if (!merged)
            return merged.error();
        *m_elementShape = std::move(*merged);
    }
    return Status::ok();
}

Expected<Output> TensorArray::read(GraphBuilder& b, const Output& index) const
{
    TSTUDIO_TRY(value, ops::firstOutput(
                           b.op("TensorArrayReadV3", {m_handle, index, m_flow}, {{"dtype", attr::type(m_dtype)}})));
    if (Status s = b.setShape(value, *m_elementShape); !s.isOk())
        return unexpected(s);
    return refreshed(b, value);
}

Expected<Output> TensorArray::read(GraphBuilder& b, std::int32_t index) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayReadV3"));
    TSTUDIO_TRY(indexTensor, int32Scalar(b, index, "index"));
    TSTUDIO_TRY(value, ops::firstOutput(b.op("TensorArrayReadV3", {m_handle, indexTensor, m_flow},
                                             {{"dtype", attr::type(m_dtype)}}, scope.name())));
    if (Status s = b.setShape(value, *m_elementShape); !s.isOk())
        return unexpected(s);
    return refreshed(b, value);
}

Expected<TensorArray> TensorArray::write(GraphBuilder& b, const Output& index, const Output& value) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayWrite"));
    if (Status s = checkDtype(value); !s.isOk())
        return unexpected(s);
    if (Status s = checkElementShape(value.shape(), value); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(flow, ops::firstOutput(b.op("TensorArrayWriteV3", {m_handle, index, value, m_flow})));
    return withFlow(flow);
}

Expected<TensorArray> TensorArray::write(GraphBuilder& b, std::int32_t index, const Output& value) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayWrite"));
    if (Status s = checkDtype(value); !s.isOk())
        return unexpected(s);
    if (Status s = checkElementShape(value.shape(), value); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(opScope, b.nameScope("TensorArrayWriteV3"));
    TSTUDIO_TRY(indexTensor, int32Scalar(b, index, "index"));
    TSTUDIO_TRY(
        flow, ops::firstOutput(b.op("TensorArrayWriteV3", {m_handle, indexTensor, value, m_flow}, {}, opScope.name())));
    return withFlow(flow);
}

Expected<Output> TensorArray::gather(GraphBuilder& b, const Output& indices) const
{
    TSTUDIO_TRY(value, ops::firstOutput(
                           b.op("TensorArrayGatherV3", {m_handle, indices, m_flow},
                                {{"dtype", attr::type(m_dtype)}, {"element_shape", attr::shape(*m_elementShape)}})));
    if (!m_elementShape->isUnknownRank()) {
        if (Status s = b.setShape(value, TensorShape{-1}.concatenate(*m_elementShape)); !s.isOk())
            return unexpected(s);
    }
    return refreshed(b, value);
}

Expected<Output> TensorArray::stack(GraphBuilder& b) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayStack"));
    TSTUDIO_TRY(n, size(b));
    TSTUDIO_TRY(indices, rangeTo(b, n));
    return gather(b, indices);
}

Expected<TensorArray> TensorArray::scatter(GraphBuilder& b, const Output& indices, const Output& value) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayScatter"));
    if (Status s = checkDtype(value); !s.isOk())
        return unexpected(s);
    if (Status s = checkElementShape(dropFirstDim(value.shape()), value); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(flow, ops::firstOutput(b.op("TensorArrayScatterV3", {m_handle, indices, value, m_flow})));
    return withFlow(flow);
}

Expected<TensorArray> TensorArray::unstack(GraphBuilder& b, const Output& value) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayUnstack"));
    TSTUDIO_TRY(n, firstDimension(b, value));
    TSTUDIO_TRY(indices, rangeTo(b, n));
    return scatter(b, indices, value);
}

Expected<Output> TensorArray::concat(GraphBuilder& b) const
{
    const TensorShape except0 = dropFirstDim(*m_elementShape);
    TSTUDIO_TRY(op, b.op("TensorArrayConcatV3", {m_handle, m_flow},
                         {{"dtype", attr::type(m_dtype)}, {"element_shape_except0", attr::shape(except0)}}));
    const Output value = op.output(0);
    if (!m_elementShape->isUnknownRank()) {
        if (Status s = b.setShape(value, TensorShape{-1}.concatenate(except0)); !s.isOk())
            return unexpected(s);
    }
    return refreshed(b, value);
}

Expected<TensorArray> TensorArray::split(GraphBuilder& b, const Output& value, const Output& lengths) const
{
    TSTUDIO_TRY(scope, b.nameScope("TensorArraySplit"));
    if (Status s = checkDtype(value); !s.isOk())
        return unexpected(s);
    Output lengths64 = lengths;
    if (lengths.baseDtype() != tensorflow::DT_INT64) {
        TSTUDIO_TRY(cast, ops::firstOutput(b.op("Cast", {lengths}, {{"DstT", attr::type(tensorflow::DT_INT64)}})));
        lengths64 = cast;
    }
    // Pieces of one constant length give the element shape [length] + value.shape[1:].
    if (!value.shape().isUnknownRank()) {
        if (const Tensor* known = b.constantValue(lengths64);
            known != nullptr && known->rank() == 1 && known->numElements() > 0) {
            const auto v = known->values<std::int64_t>();
            if (*std::min_element(v.begin(), v.end()) == *std::max_element(v.begin(), v.end())) {
                if (Status s =
                        checkElementShape(TensorShape{v.front()}.concatenate(dropFirstDim(value.shape())), value);
                    !s.isOk())
                    return unexpected(s);
            }
        }
    }
    TSTUDIO_TRY(flow, ops::firstOutput(b.op("TensorArraySplitV3", {m_handle, value, lengths64, m_flow})));
    return withFlow(flow);
}

Expected<Output> TensorArray::size(GraphBuilder& b) const
{
    return ops::firstOutput(b.op("TensorArraySizeV3", {m_handle, m_flow}));
}

Expected<Operation> TensorArray::close(GraphBuilder& b) const
{
    return b.op("TensorArrayCloseV3", {m_handle});
}

Expected<TensorArray> TensorArray::grad(GraphBuilder& b, const std::string& source,
                                        const std::optional<Output>& flow) const
{
    const Output flowIn = flow.value_or(m_flow);
    TSTUDIO_TRY(scope, b.nameScope("TensorArrayGrad"));
    TSTUDIO_TRY(op, b.op("TensorArrayGradV3", {m_handle, flowIn}, {{"source", attr::s(source)}}));
    Output gradientFlow;
    {
        auto after = b.controlDependencies({op});
        TSTUDIO_TRY(id, ops::identity(b, flowIn, "gradient_flow"));
        gradientFlow = id;
    }
    // The gradient array shares this one's element shape (Python assigns the same list).
    return TensorArray(m_dtype, op.output(0), gradientFlow, m_elementShape, m_inferShape);
}

} // namespace tstudio
