// Tensor: a dtype, a fully defined shape and a shared reference-counted buffer, with TensorProto conversion.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "proto/tensor.pb.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

namespace tstudio {

/// Eigen views of a tensor's buffer (row-major, as TensorFlow's).
template <typename T>
using FlatTensor = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor>>;
template <typename T>
using ConstFlatTensor = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor>>;
template <typename T, int N>
using ShapedTensor = Eigen::TensorMap<Eigen::Tensor<T, N, Eigen::RowMajor>>;
template <typename T, int N>
using ConstShapedTensor = Eigen::TensorMap<Eigen::Tensor<const T, N, Eigen::RowMajor>>;

namespace detail {
/// The dtype whose C++ type stores `dtype`'s elements: the quantized dtypes are stored as the
/// integers of their width (qint8 as int8, quint16 as uint16, qint32 as int32, ...).
DataType storageDataType(DataType dtype);
/// Aborts with a message: a typed access with the wrong C++ type or shape is a programming error.
[[noreturn]] void tensorAccessFailed(DataType actual, DataType requested, const char* what);
} // namespace detail

/// TensorFlow's Tensor: a dtype, a fully defined shape and a buffer of numElements() elements,
/// row-major. Supported dtypes: the 16 with a C++ type (see data_type.h), the quantized ones,
/// DT_RESOURCE and DT_VARIANT; not the 8-bit floats or the 4-bit integers.
///
/// Ownership: copies are cheap and share the buffer, as in TensorFlow; a write through one copy
/// is seen by all (deepCopy makes an independent one). The buffer is freed, and its Allocator's
/// statistics updated, when the last copy goes away; that Allocator must outlive it. DT_STRING
/// elements are std::string objects in allocator memory (their headers are counted in the
/// statistics, their characters are not); DT_RESOURCE elements are likewise ResourceHandle
/// objects, accessed as values<ResourceHandle>() after including framework/resource_handle.h
/// (which maps the type to DT_RESOURCE); DT_VARIANT elements are Variant objects (shared references
/// to immutable values such as datasets; framework/variant.h), copied by reference by deepCopy and
/// not decodable from a TensorProto with values. Tensors with no elements have no buffer.
///
/// Threads: a Tensor object is not synchronised; copies may live on different threads, and
/// concurrent reads of a shared buffer are fine, concurrent writes are the caller's business.
///
/// Typed access (data<T>, flat<T>, ...) requires T to be the dtype's C++ type (the storage
/// integer for quantized dtypes); a mismatch is a programming error and aborts with a message.
class Tensor {
public:
    /// An empty float32 tensor of shape [0], as TensorFlow's default Tensor.
    Tensor() = default;

    /// A tensor of `dtype` that holds no value yet: what a VariableV2 holds before its first
    /// Assign. isInitialized() is false, its shape has unknown rank and it has no elements; only
    /// dtype(), shape() and isInitialized() may be used on it.
    static Tensor uninitialized(DataType dtype);
    /// False only for tensors made by uninitialized() (TensorFlow's Tensor::IsInitialized).
    bool isInitialized() const { return m_shape.rank() >= 0; }

    /// A zero-initialised tensor (empty strings for DT_STRING, empty handles for DT_RESOURCE).
    /// InvalidArgument for a ref dtype,
    /// DT_INVALID or a shape that is not fully defined or has too many elements; Unimplemented
    /// for unsupported dtypes; ResourceExhausted from the allocator.
    static Expected<Tensor> allocate(Allocator& allocator, DataType dtype, const TensorShape& shape);
    /// As allocate, without the zero fill, for callers that write every element (copies, kernels).
    static Expected<Tensor> allocateUninitialized(Allocator& allocator, DataType dtype, const TensorShape& shape)
    {
        return allocate(allocator, dtype, shape, /*zeroFill=*/false);
    }

    /// A tensor of `shape` holding `values` in row-major order; InvalidArgument when the counts
    /// differ.
    template <typename T>
    static Expected<Tensor> fromVector(Allocator& allocator, const TensorShape& shape, const std::vector<T>& values);

    /// Decodes a TensorProto with TensorFlow's rules: a non-empty tensor_content is the whole
    /// buffer (little-endian; for strings, varint lengths then bytes) and must have exactly
    /// numElements x element-size bytes; otherwise the typed field of the dtype is read
    /// (float_val, double_val, int_val for int32/int16/int8/uint8/uint16 and the quantized types,
    /// int64_val, bool_val, string_val, half_val for half and bfloat16 bit patterns,
    /// scomplex_val/dcomplex_val as (re, im) pairs, uint32_val, uint64_val, resource_handle_val;
    /// a resource tensor_content is a string list of serialized ResourceHandleProtos): with fewer values
    /// than elements the last value is repeated, with none every element is zero, with more it is
    /// InvalidArgument. Shapes must be fully defined; absurd sizes fail before any allocation.
    /// Unimplemented for unsupported dtypes.
    static Expected<Tensor> fromProto(Allocator& allocator, const tensorflow::TensorProto& proto);

    /// Replaces `*proto` with this tensor: dtype, shape, and the values in tensor_content
    /// (raw little-endian bytes) when `useTensorContent`, else in the dtype's typed field.
    /// Strings always go to string_val, handles to resource_handle_val. Tensors with no elements
    /// carry no values.
    void toProto(tensorflow::TensorProto* proto, bool useTensorContent) const;

    DataType dtype() const { return m_dtype; }
    const TensorShape& shape() const { return m_shape; }
    int rank() const { return m_shape.rank(); }
    std::int64_t numElements() const { return m_numElements; }
    /// Bytes of element data: numElements x dataTypeSize; for strings, TensorFlow's estimate
    /// numElements x sizeof(std::string) plus the characters; for resources numElements x
    /// sizeof(ResourceHandle).
    std::size_t totalBytes() const;
    /// The raw element bytes of a tensor of plain numbers (empty for strings, resources and empty
    /// tensors).
    std::span<const std::byte> tensorData() const;
    std::span<std::byte> tensorData();

    /// Sets every element of a plain-number tensor to zero through the allocator its buffer came
    /// from (device memory: an asynchronous memset ordered before the device's later kernels);
    /// strings and handles are left as they are. For kernels whose output is all zeros in an edge
    /// case (an empty input) but is otherwise written in full. The error when the device could not
    /// queue the fill.
    [[nodiscard]] Status setZero();

    /// A view of this tensor's buffer with `shape` (TensorFlow's Tensor::CopyFrom(other, shape),
    /// what Reshape, ExpandDims and Squeeze return): nothing is copied, and an in-place write
    /// through one is seen through the other. InvalidArgument when `shape` is not fully defined,
    /// holds another number of elements, or this tensor is uninitialized.
    Expected<Tensor> reshapedView(const TensorShape& shape) const;

    /// True when both are views of the same buffer (never for tensors without elements).
    bool sharesBufferWith(const Tensor& other) const { return m_buffer && m_buffer == other.m_buffer; }
    /// True when another Tensor object also views this buffer, so an in-place write would be seen
    /// through it (TensorFlow's !RefCountIsOne). Resource variables copy before writing when it is
    /// true. Only meaningful while no other thread can copy this Tensor object (the resource
    /// variable's mutex guarantees that); false for tensors without elements.
    bool bufferIsShared() const;
    /// An independent copy with its own buffer from `allocator`. Both this tensor's memory and
    /// `allocator` must be host memory (device tensors are copied through Device::copyToHost and
    /// copyFromHost): InvalidArgument otherwise.
    Expected<Tensor> deepCopy(Allocator& allocator) const;
    /// The allocator the elements came from; nullptr when there are no elements.
    Allocator* bufferAllocator() const;
    /// Whether the host may read and write the elements directly (false for GPU memory; true
    /// for tensors without elements).
    bool inHostMemory() const;

    /// TensorFlow's DebugString: "Tensor<type: float shape: [2] values: 1 2>" with at most
    /// `maxValues` values (all when negative), nested brackets for rank >= 2 and "..." when cut.
    std::string debugString(std::int64_t maxValues = 3) const;

    /// True when T is the C++ type that stores this tensor's elements.
    template <typename T>
    bool holds() const
    {
        return kDataTypeOf<T> == detail::storageDataType(m_dtype);
    }

    /// The first element (nullptr when there are none).
    template <typename T>
    T* data()
    {
        checkType<T>();
        return elements<T>();
    }
    template <typename T>
    const T* data() const
    {
        checkType<T>();
        return elements<T>();
    }

    /// All elements, row-major.
    template <typename T>
    std::span<T> values()
    {
        return {data<T>(), static_cast<std::size_t>(m_numElements)};
    }
    template <typename T>
    std::span<const T> values() const
    {
        return {data<T>(), static_cast<std::size_t>(m_numElements)};
    }
    std::span<std::string> strings() { return values<std::string>(); }
    std::span<const std::string> strings() const { return values<std::string>(); }

    /// All elements as a rank-1 Eigen tensor.
    template <typename T>
    FlatTensor<T> flat()
    {
        return FlatTensor<T>(data<T>(), static_cast<Eigen::Index>(m_numElements));
    }
    template <typename T>
    ConstFlatTensor<T> flat() const
    {
        return ConstFlatTensor<T>(data<T>(), static_cast<Eigen::Index>(m_numElements));
    }

    /// The elements as a rank-N Eigen tensor of this shape; requires rank() == N.
    template <typename T, int N>
    ShapedTensor<T, N> shaped()
    {
        return ShapedTensor<T, N>(data<T>(), eigenDims<T, N>());
    }
    template <typename T, int N>
    ConstShapedTensor<T, N> shaped() const
    {
        return ConstShapedTensor<T, N>(data<T>(), eigenDims<T, N>());
    }
    /// The elements viewed with other dimensions; their product must equal numElements().
    template <typename T, int N>
    ShapedTensor<T, N> shaped(const std::array<Eigen::Index, N>& dims)
    {
        checkElementCount<T>(dims);
        return ShapedTensor<T, N>(data<T>(), dims);
    }
    template <typename T, int N>
    ConstShapedTensor<T, N> shaped(const std::array<Eigen::Index, N>& dims) const
    {
        checkElementCount<T>(dims);
        return ConstShapedTensor<T, N>(data<T>(), dims);
    }

    /// The single element; requires numElements() == 1 (any rank, as TensorFlow's scalar()).
    template <typename T>
    T& scalar()
    {
        checkSingleElement<T>();
        return *data<T>();
    }
    template <typename T>
    const T& scalar() const
    {
        checkSingleElement<T>();
        return *data<T>();
    }

private:
    Tensor(DataType dtype, TensorShape shape, std::int64_t numElements, std::shared_ptr<std::byte> buffer);
    /// allocate(), leaving plain-number buffers unfilled when `zeroFill` is false (for a copy that
    /// overwrites every byte at once).
    static Expected<Tensor> allocate(Allocator& allocator, DataType dtype, const TensorShape& shape, bool zeroFill);

    template <typename T>
    void checkType() const
    {
        if (!holds<T>())
            detail::tensorAccessFailed(m_dtype, kDataTypeOf<T>, "element type");
    }
    template <typename T>
    T* elements() const
    {
        if (!m_buffer)
            return nullptr;
        return std::launder(reinterpret_cast<T*>(m_buffer.get()));
    }
    template <typename T, int N>
    std::array<Eigen::Index, N> eigenDims() const
    {
        if (m_shape.rank() != N)
            detail::tensorAccessFailed(m_dtype, kDataTypeOf<T>, "rank for shaped<T, N>()");
        std::array<Eigen::Index, N> dims{};
        for (int i = 0; i < N; ++i)
            dims[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(m_shape.dim(i));
        return dims;
    }
    template <typename T, std::size_t N>
    void checkElementCount(const std::array<Eigen::Index, N>& dims) const
    {
        Eigen::Index product = 1;
        for (Eigen::Index d : dims)
            product *= d;
        if (product != m_numElements)
            detail::tensorAccessFailed(m_dtype, kDataTypeOf<T>, "element count for shaped<T, N>(dims)");
    }
    template <typename T>
    void checkSingleElement() const
    {
        if (m_numElements != 1)
            detail::tensorAccessFailed(m_dtype, kDataTypeOf<T>, "element count for scalar<T>()");
    }

    DataType m_dtype = tensorflow::DT_FLOAT;
    TensorShape m_shape = TensorShape{0};
    std::int64_t m_numElements = 0;
    std::shared_ptr<std::byte> m_buffer;  ///< null when there are no elements
};

template <typename T>
Expected<Tensor> Tensor::fromVector(Allocator& allocator, const TensorShape& shape, const std::vector<T>& values)
{
    auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    if (static_cast<std::int64_t>(values.size()) != *count) {
        return unexpected(invalidArgumentError("shape " + shape.toString() + " has " + std::to_string(*count) +
                                               " elements but " + std::to_string(values.size()) +
                                               " values were given"));
    }
    auto tensor = allocate(allocator, kDataTypeOf<T>, shape);
    if (tensor)
        std::copy(values.begin(), values.end(), tensor->template data<T>());
    return tensor;
}

} // namespace tstudio
