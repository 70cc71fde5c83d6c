// CPU kernels that put tensors into TensorArrays and take them out (TensorArrayWriteV3,
// TensorArrayReadV3, TensorArrayGatherV3, TensorArrayScatterV3, TensorArrayConcatV3,
// TensorArraySplitV3) with TensorFlow 1.15's checks and words. The ops that write pass their flow
// input through as their flow output; the values move as raw elements of their width (strings as
// strings), so every dtype with elements works.
#include "kernels/array/array_kernel_util.h"
#include "kernels/tensor_array/tensor_array_kernels.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"

#include <algorithm>
#include <numeric>

namespace tstudio {
namespace {

using array::ArrayKernel;

/// Copies `count` elements of `src` from `srcOffset` to `dst` at `dstOffset` (same dtype).
Status copyElements(const Tensor& src, std::int64_t srcOffset, Tensor& dst, std::int64_t dstOffset, std::int64_t count)
{
    if (count == 0)
        return Status::ok();
    return array::dispatchByElementBytes(src.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        const E* from = array::elementsAs<E>(src) + srcOffset;
        std::copy(from, from + count, array::mutableElementsAs<E>(dst) + dstOffset);
    });
}

/// Output 0 of `shape` holding `values` one after another (Gather and Concat).
Status concatenateInto(OpKernelContext& ctx, const TensorShape& shape, const std::vector<Tensor>& values)
{
    auto out = ctx.allocateOutput(0, shape);
    if (!out)
        return out.error();
    std::int64_t offset = 0;
    for (const Tensor& value : values) {
        if (Status s = copyElements(value, 0, **out, offset, value.numElements()); !s.isOk())
            return s;
        offset += value.numElements();
    }
    return Status::ok();
}

/// `value` cut along dimension 0 into consecutive pieces of shape [lengths[k]] + value.shape[1:]
/// (or value.shape[1:] itself when `dropFirstDim`, every length being 1): the elements Scatter and
/// Split write.
Expected<std::vector<Tensor>> cutAlongDim0(Allocator& allocator, const Tensor& value,
                                           const std::vector<std::int64_t>& lengths, bool dropFirstDim)
{
    std::vector<std::int64_t> dims(value.shape().dims().begin(), value.shape().dims().end());
    const std::int64_t rows = dims.front();
    const std::int64_t perRow = rows == 0 ? 0 : value.numElements() / rows;
    std::vector<Tensor> pieces;
    pieces.reserve(lengths.size());
    std::int64_t offset = 0;
    for (std::int64_t length : lengths) {
        std::vector<std::int64_t> pieceDims = dims;
        if (dropFirstDim)
            pieceDims.erase(pieceDims.begin());
        else
            pieceDims.front() = length;
        auto piece = Tensor::allocateUninitialized(allocator, value.dtype(), TensorShape(pieceDims));
        if (!piece)
            return unexpected(piece.error());
        if (Status s = copyElements(value, offset, *piece, 0, length * perRow); !s.isOk())
            return unexpected(s);
        offset += length * perRow;
        pieces.push_back(std::move(*piece));
    }
    return pieces;
}

/// TensorArrayWriteV3 (handle, index, value, flow_in) -> flow_out.
class TensorArrayWriteOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        if (Status s = tensor_array::passFlow(ctx, 3); !s.isOk())
            return s;
        auto index = tensor_array::scalarIndex(ctx, 1);
        if (!index)
            return index.error();
        auto array = tensor_array::fromInput(ctx);
        if (!array)
            return array.error();
        const Tensor& value = ctx.input(2);
        if (Status s = tensor_array::checkDtype(**array, value.dtype(), true); !s.isOk())
            return s;
        return (*array)->write(ctx.allocator(), *index, value);
    }
};

/// Base of the kernels that take elements out (Read, Gather, Concat): their `dtype` attr, which the
/// array's must match.
class TensorArrayReader : public ArrayKernel {
public:
    explicit TensorArrayReader(OpKernelConstruction& c) : ArrayKernel(c) { read(attrType(c.node(), "dtype"), m_dtype); }

protected:
    /// The array of input 0, of this kernel's dtype ("TensorArray dtype is float but Op requested
    /// dtype int32.").
    Expected<std::shared_ptr<TensorArrayResource>> arrayOfDtype(const OpKernelContext& ctx) const
    {
        auto array = tensor_array::fromInput(ctx);
        if (!array)
            return array;
        if (Status s = tensor_array::checkDtype(**array, m_dtype, false); !s.isOk())
            return unexpected(s);
        return array;
    }

private:
    DataType m_dtype = tensorflow::DT_FLOAT;
};

/// TensorArrayReadV3 (handle, index, flow_in) -> value.
class TensorArrayReadOp : public TensorArrayReader {
public:
    using TensorArrayReader::TensorArrayReader;
    Status compute(OpKernelContext& ctx) override
    {
        auto index = tensor_array::scalarIndex(ctx, 1);
        if (!index)
            return index.error();
        auto array = arrayOfDtype(ctx);
        if (!array)
            return array.error();
        auto value = (*array)->read(ctx.allocator(), *index);
        if (!value)
            return value.error();
        return ctx.setOutput(0, std::move(*value));
    }
};

/// TensorArrayGatherV3 (handle, indices, flow_in) -> the elements at indices stacked.
class TensorArrayGatherOp : public TensorArrayReader {
public:
    explicit TensorArrayGatherOp(OpKernelConstruction& c) : TensorArrayReader(c)
    {
        read(attrShape(c.node(), "element_shape"), m_elementShape);
    }
    Status compute(OpKernelContext& ctx) override
    {
        auto array = arrayOfDtype(ctx);
        if (!array)
            return array.error();
        // The element shape given must fit the array's.
        if (Status s = (*array)->mergeElementShape(m_elementShape); !s.isOk())
            return s;
        auto indices = tensor_array::indexVector(ctx, 1);
        if (!indices)
            return indices.error();
        if (indices->empty()) {
            if (!m_elementShape.isFullyDefined())
                return unimplementedError("TensorArray has size zero, but element shape " + m_elementShape.toString() +
                                          " is not fully defined. Currently only static shapes are supported when "
                                          "packing zero-size TensorArrays.");
            return concatenateInto(ctx, TensorShape{0}.concatenate(m_elementShape), {});
        }
        auto values = (*array)->readMany(ctx.allocator(), *indices);
        if (!values)
            return values.error();
        const TensorShape& first = values->front().shape();
        if (!m_elementShape.isCompatibleWith(first))
            return invalidArgumentError("TensorArray was passed element_shape " + m_elementShape.toString() +
                                        " which does not match the Tensor at index 0: " + first.toString());
        for (std::size_t i = 1; i < values->size(); ++i) {
            const TensorShape& shape = (*values)[i].shape();
            if (shape != first)
                return invalidArgumentError(
                    "TensorArray has inconsistent shapes.  Index 0 has shape: " + first.toString() + " but index " +
                    std::to_string(i) + " has shape: " + shape.toString());
        }
        const TensorShape outShape = TensorShape{static_cast<std::int64_t>(values->size())}.concatenate(first);
        return concatenateInto(ctx, outShape, *values);
    }

private:
    TensorShape m_elementShape;
};

/// TensorArrayConcatV3 (handle, flow_in) -> every element concatenated along dimension 0, and the
/// lengths.
class TensorArrayConcatOp : public TensorArrayReader {
public:
    explicit TensorArrayConcatOp(OpKernelConstruction& c) : TensorArrayReader(c)
    {
        read(attrShape(c.node(), "element_shape_except0"), m_elementShapeExcept0);
    }
    Status compute(OpKernelContext& ctx) override
    {
        auto array = arrayOfDtype(ctx);
        if (!array)
            return array.error();
        auto size = (*array)->packOrConcatSize();
        if (!size)
            return size.error();
        if (*size <= 0) {
            if (!m_elementShapeExcept0.isFullyDefined())
                return unimplementedError("TensorArray has size zero, but element_shape_except0 " +
                                          m_elementShapeExcept0.toString() +
                                          " is not fully defined. Currently only static shapes are supported when "
                                          "concatenating zero-size TensorArrays.");
            if (Status s = concatenateInto(ctx, TensorShape{0}.concatenate(m_elementShapeExcept0), {}); !s.isOk())
                return s;
            auto lengths = ctx.allocateOutput(1, TensorShape{0});
            return lengths ? Status::ok() : lengths.error();
        }
        std::vector<std::int32_t> indices(static_cast<std::size_t>(*size));
        std::iota(indices.begin(), indices.end(), 0);
        auto values = (*array)->readMany(ctx.allocator(), indices);
        if (!values)
            return values.error();
        auto lengths = ctx.allocateOutput(1, TensorShape{static_cast<std::int64_t>(values->size())});
        if (!lengths)
            return lengths.error();
        TensorShape except0;
        std::int64_t rows = 0;
        for (std::size_t i = 0; i < values->size(); ++i) {
            const TensorShape& shape = (*values)[i].shape();
            if (shape.rank() < 1)
                return invalidArgumentError("Concat saw a scalar shape at index " + std::to_string(i) +
                                            " but requires at least vectors.  Did you mean to call pack?");
            (*lengths)->values<std::int64_t>()[i] = shape.dim(0);
            rows += shape.dim(0);
            const TensorShape rest(std::vector<std::int64_t>(shape.dims().begin() + 1, shape.dims().end()));
            if (i == 0) {
                except0 = rest;
                if (!m_elementShapeExcept0.isCompatibleWith(rest))
                    return invalidArgumentError("TensorArray was passed element_shape_except0 " +
                                                m_elementShapeExcept0.toString() +
                                                " but index 0 has (excepting dimension 0) shape: " + rest.toString() +
                                                " which does not match.");
            } else if (rest != except0) {
                return invalidArgumentError("TensorArray has inconsistent shapes.  Index 0 has (excepting dimension "
                                            "0) shape: " +
                                            except0.toString() + " but index " + std::to_string(i) +
                                            " has (excepting dimension 0) shape: " + rest.toString());
            }
        }
        return concatenateInto(ctx, TensorShape{rows}.concatenate(except0), *values);
    }

private:
    TensorShape m_elementShapeExcept0;
};

/// TensorArrayScatterV3 (handle, indices, value, flow_in) -> flow_out: value[k] written at indices[k].
class TensorArrayScatterOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        if (Status s = tensor_array::passFlow(ctx, 3); !s.isOk())
            return s;
        auto array = tensor_array::fromInput(ctx);
        if (!array)
            return array.error();
        const Tensor& value = ctx.input(2);
        if (Status s = tensor_array::checkDtype(**array, value.dtype(), true); !s.isOk())
            return s;
        if (value.rank() < 1)
            return invalidArgumentError("Input value for unpack must be at least a vector but received shape: " +
                                        value.shape().toString());
        auto size = (*array)->size();
        if (!size)
            return size.error();
        auto indices = tensor_array::indexVector(ctx, 1);
        if (!indices)
            return indices.error();
        const auto count = static_cast<std::int64_t>(indices->size());
        if (count != value.shape().dim(0))
            return invalidArgumentError("Expected len(indices) == values.shape[0], but saw: " + std::to_string(count) +
                                        " vs. " + std::to_string(value.shape().dim(0)));
        const std::int64_t maxIndex = indices->empty() ? -1 : *std::max_element(indices->begin(), indices->end());
        std::int64_t arraySize = *size;
        if ((*array)->hasDynamicSize() && arraySize < maxIndex + 1)
            arraySize = maxIndex + 1;
        if (maxIndex >= arraySize)
            return invalidArgumentError("Max scatter index must be < array size (" + std::to_string(maxIndex) +
                                        " vs. " + std::to_string(arraySize) + ")");
        auto pieces = cutAlongDim0(ctx.allocator(), value, std::vector<std::int64_t>(indices->size(), 1), true);
        if (!pieces)
            return pieces.error();
        return (*array)->writeMany(ctx.allocator(), *indices, *pieces);
    }
};

/// TensorArraySplitV3 (handle, value, lengths, flow_in) -> flow_out: value cut along dimension 0 into
/// pieces of `lengths`, piece k written at index k.
class TensorArraySplitOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        if (Status s = tensor_array::passFlow(ctx, 3); !s.isOk())
            return s;
        auto array = tensor_array::fromInput(ctx);
        if (!array)
            return array.error();
        const Tensor& value = ctx.input(1);
        const Tensor& lengthsTensor = ctx.input(2);
        if (lengthsTensor.rank() != 1)
            return invalidArgumentError("Expected lengths to be a vector, received shape: " +
                                        lengthsTensor.shape().toString());
        const auto lengthValues = lengthsTensor.values<std::int64_t>();
        const std::vector<std::int64_t> lengths(lengthValues.begin(), lengthValues.end());
        std::int64_t total = 0;
        for (std::size_t i = 0; i < lengths.size(); ++i) {
            if (lengths[i] < 0)
                return invalidArgumentError("Expected lengths to be non-negative, but lengths[" + std::to_string(i) +
                                            "] is " + std::to_string(lengths[i]));
            total += lengths[i];
        }
        if (value.rank() < 1)
            return invalidArgumentError("Expected value to be at least a vector, but received shape: " +
                                        value.shape().toString());
        if (total != value.shape().dim(0))
            return invalidArgumentError("Expected sum of lengths to be equal to values.shape[0], but sum of lengths "
                                        "is " +
                                        std::to_string(total) + " and value's shape is: " + value.shape().toString());
        auto size = (*array)->size();
        if (!size)
            return size.error();
        const auto count = static_cast<std::int32_t>(lengths.size());
        std::int32_t arraySize = *size;
        if ((*array)->hasDynamicSize() && arraySize < count)
            arraySize = count;
        if (arraySize != count)
            return invalidArgumentError("TensorArray's size is not equal to the size of lengths (" +
                                        std::to_string(arraySize) + " vs. " + std::to_string(count) +
                                        "), and the TensorArray is not marked as dynamically resizeable");
        if (Status s = tensor_array::checkDtype(**array, value.dtype(), true); !s.isOk())
            return s;
        auto pieces = cutAlongDim0(ctx.allocator(), value, lengths, false);
        if (!pieces)
            return pieces.error();
        if (Status s = (*array)->setMarkedSize(arraySize); !s.isOk())
            return s;
        std::vector<std::int32_t> indices(static_cast<std::size_t>(arraySize));
        std::iota(indices.begin(), indices.end(), 0);
        return (*array)->writeMany(ctx.allocator(), indices, *pieces);
    }
};

} // namespace

Status registerTensorArrayAccessKernels(KernelRegistry& registry)
{
    // Write and Read only keep references and accept any dtype; the others move elements.
    const std::vector<DataType> movable = array::allAndQuantizedDataTypes();
    return array::KernelAdder(registry)
        .add<TensorArrayWriteOp>(array::cpuDef("TensorArrayWriteV3"))
        .add<TensorArrayReadOp>(array::cpuDef("TensorArrayReadV3"))
        .add<TensorArrayGatherOp>(array::cpuDef("TensorArrayGatherV3", {{"dtype", movable}}))
        .add<TensorArrayScatterOp>(array::cpuDef("TensorArrayScatterV3", {{"T", movable}}))
        .add<TensorArrayConcatOp>(array::cpuDef("TensorArrayConcatV3", {{"dtype", movable}}))
        .add<TensorArraySplitOp>(array::cpuDef("TensorArraySplitV3", {{"T", movable}}))
        .status();
}

} // namespace tstudio
