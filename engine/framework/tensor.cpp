// Tensor: allocation, TensorProto decoding and encoding with TensorFlow's rules, and the debug string.
#include "framework/tensor.h"

#include "core/log.h"
#include "framework/memory_poison.h"
#include "framework/resource_handle.h"
#include "framework/tensor_text.h"
#include "framework/variant.h"
#include "core/varint.h"
#include "proto/resource_handle.pb.h"

#include <atomic>
#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

namespace tstudio {

using namespace tensorflow;

static_assert(std::endian::native == std::endian::little,
              "TensorProto.tensor_content is little-endian; a big-endian host needs byte swapping here");

namespace detail {

DataType storageDataType(DataType dtype)
{
    switch (dtype) {
    case DT_QINT8: return DT_INT8;
    case DT_QUINT8: return DT_UINT8;
    case DT_QINT16: return DT_INT16;
    case DT_QUINT16: return DT_UINT16;
    case DT_QINT32: return DT_INT32;
    default: return dtype;
    }
}

void tensorAccessFailed(DataType actual, DataType requested, const char* what)
{
    const std::string message = std::string("wrong ") + what + " in a typed access to a tensor of dtype " +
                                dataTypeName(actual) + " (accessed as " + dataTypeName(requested) + ")";
    logError("tensor", message);
    std::abort();
}

} // namespace detail

namespace {

/// True for the dtypes whose elements are C++ objects with constructors and destructors.
bool hasObjectElements(DataType dtype)
{
    return dtype == DT_STRING || dtype == DT_RESOURCE || dtype == DT_VARIANT;
}

/// Frees a buffer when the last Tensor sharing it goes away; destroys object elements (strings,
/// resource handles) first.
struct BufferReleaser {
    Allocator* allocator = nullptr;
    std::size_t bytes = 0;
    DataType dtype = DT_INVALID;
    std::int64_t objects = 0;  ///< elements to destroy (0 for plain numbers)

    void operator()(std::byte* p) const
    {
        if (dtype == DT_STRING)
            std::destroy_n(std::launder(reinterpret_cast<std::string*>(p)), objects);
        else if (dtype == DT_RESOURCE)
            std::destroy_n(std::launder(reinterpret_cast<ResourceHandle*>(p)), objects);
        else if (dtype == DT_VARIANT)
            std::destroy_n(std::launder(reinterpret_cast<Variant*>(p)), objects);
        allocator->deallocate(p, bytes);
    }
};

bool isSupported(DataType dtype)
{
    return dtype == DT_RESOURCE || dtype == DT_VARIANT ||
           dispatchDataType(detail::storageDataType(dtype), [](auto) {}).isOk();
}

std::size_t elementSize(DataType dtype)
{
    switch (dtype) {
    case DT_STRING: return sizeof(std::string);
    case DT_RESOURCE: return sizeof(ResourceHandle);
    case DT_VARIANT: return sizeof(Variant);
    default: return dataTypeSize(dtype);
    }
}

std::string describe(DataType dtype, const TensorShape& shape)
{
    return "tensor of dtype " + dataTypeName(dtype) + " and shape " + shape.toString();
}

/// The dtype and shape checks shared by allocate and fromProto; returns the element count.
Expected<std::int64_t> checkedElementCount(DataType dtype, const TensorShape& shape)
{
    if (dtype == DT_INVALID)
        return unexpected(invalidArgumentError("a tensor needs a dtype (found DT_INVALID)"));
    if (isRefType(dtype)) {
        return unexpected(invalidArgumentError("tensors hold values, not references: dtype " + dataTypeName(dtype) +
                                               " is not allowed (use " + dataTypeName(baseType(dtype)) + ")"));
    }
    if (!isSupported(dtype))
        return unexpected(unimplementedError("tensors of dtype " + dataTypeName(dtype) + " are not supported"));
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("a tensor needs a fully defined shape, found " + shape.toString()));
    auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    if (*count > std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(elementSize(dtype))) {
        return unexpected(invalidArgumentError(describe(dtype, shape) + " would need more than 2^63 - 1 bytes"));
    }
    return *count;
}

// --- Typed fields of TensorProto -------------------------------------------------------------

/// The typed field that holds `dtype`'s values and how many values it has.
struct TypedField {
    const char* name = "";
    std::int64_t count = 0;
    bool oddPairs = false;  ///< a complex field with an odd number of floats
};

TypedField typedFieldOf(const TensorProto& proto, DataType dtype)
{
    switch (dtype) {
    case DT_FLOAT: return {"float_val", proto.float_val_size()};
    case DT_DOUBLE: return {"double_val", proto.double_val_size()};
    case DT_INT32:
    case DT_INT16:
    case DT_INT8:
    case DT_UINT8:
    case DT_UINT16:
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32: return {"int_val", proto.int_val_size()};
    case DT_INT64: return {"int64_val", proto.int64_val_size()};
    case DT_BOOL: return {"bool_val", proto.bool_val_size()};
    case DT_STRING: return {"string_val", proto.string_val_size()};
    case DT_HALF:
    case DT_BFLOAT16: return {"half_val", proto.half_val_size()};
    case DT_COMPLEX64: return {"scomplex_val", proto.scomplex_val_size() / 2, proto.scomplex_val_size() % 2 != 0};
    case DT_COMPLEX128: return {"dcomplex_val", proto.dcomplex_val_size() / 2, proto.dcomplex_val_size() % 2 != 0};
    case DT_UINT32: return {"uint32_val", proto.uint32_val_size()};
    case DT_UINT64: return {"uint64_val", proto.uint64_val_size()};
    case DT_RESOURCE: return {"resource_handle_val", proto.resource_handle_val_size()};
    default: return {};
    }
}

/// Sets out[0..n) from `count` values read by `get`: values beyond the last are copies of it
/// (TensorFlow's rule for typed fields); with no values `out` keeps its zeros.
template <typename T, typename Get>
void fillRepeatingLast(T* out, std::int64_t n, std::int64_t count, Get get)
{
    if (count == 0)
        return;
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = get(static_cast<int>(i));
    std::fill(out + count, out + n, out[count - 1]);
}

template <typename T>
T fromBits(std::int32_t value)
{
    const auto bits = static_cast<std::uint16_t>(value & 0xffff);
    return std::bit_cast<T>(bits);
}

template <typename T>
std::int32_t toBits(T value)
{
    return static_cast<std::int32_t>(std::bit_cast<std::uint16_t>(value));
}

void fillFromTypedField(Tensor& t, const TensorProto& p, std::int64_t count)
{
    const std::int64_t n = t.numElements();
    auto fromInts = [&](auto* out) {
        using T = std::remove_pointer_t<decltype(out)>;
        fillRepeatingLast(out, n, count, [&](int i) { return static_cast<T>(p.int_val(i)); });
    };
    switch (detail::storageDataType(t.dtype())) {
    case DT_FLOAT: fillRepeatingLast(t.data<float>(), n, count, [&](int i) { return p.float_val(i); }); break;
    case DT_DOUBLE: fillRepeatingLast(t.data<double>(), n, count, [&](int i) { return p.double_val(i); }); break;
    case DT_INT32: fromInts(t.data<std::int32_t>()); break;
    case DT_INT16: fromInts(t.data<std::int16_t>()); break;
    case DT_INT8: fromInts(t.data<std::int8_t>()); break;
    case DT_UINT8: fromInts(t.data<std::uint8_t>()); break;
    case DT_UINT16: fromInts(t.data<std::uint16_t>()); break;
    case DT_INT64: fillRepeatingLast(t.data<std::int64_t>(), n, count, [&](int i) { return p.int64_val(i); }); break;
    case DT_BOOL: fillRepeatingLast(t.data<bool>(), n, count, [&](int i) { return p.bool_val(i); }); break;
    case DT_STRING: fillRepeatingLast(t.data<std::string>(), n, count, [&](int i) { return p.string_val(i); }); break;
    case DT_HALF:
        fillRepeatingLast(t.data<Eigen::half>(), n, count,
                          [&](int i) { return fromBits<Eigen::half>(p.half_val(i)); });
        break;
    case DT_BFLOAT16:
        fillRepeatingLast(t.data<Eigen::bfloat16>(), n, count,
                          [&](int i) { return fromBits<Eigen::bfloat16>(p.half_val(i)); });
        break;
    case DT_COMPLEX64:
        fillRepeatingLast(t.data<std::complex<float>>(), n, count, [&](int i) {
            return std::complex<float>(p.scomplex_val(2 * i), p.scomplex_val(2 * i + 1));
        });
        break;
    case DT_COMPLEX128:
        fillRepeatingLast(t.data<std::complex<double>>(), n, count, [&](int i) {
            return std::complex<double>(p.dcomplex_val(2 * i), p.dcomplex_val(2 * i + 1));
        });
        break;
    case DT_UINT32: fillRepeatingLast(t.data<std::uint32_t>(), n, count, [&](int i) { return p.uint32_val(i); }); break;
    case DT_UINT64: fillRepeatingLast(t.data<std::uint64_t>(), n, count, [&](int i) { return p.uint64_val(i); }); break;
    default: break;  // resources are read by fillHandles; other dtypes were checked as supported
    }
}

/// The resource_handle_val counterpart of fillFromTypedField (a handle can be invalid, so this
/// one can fail): the same repeat-the-last-value rule.
Status fillHandles(Tensor& t, const TensorProto& p, std::int64_t count)
{
    std::span<ResourceHandle> out = t.values<ResourceHandle>();
    for (std::int64_t i = 0; i < count; ++i) {
        auto handle = ResourceHandle::fromProto(p.resource_handle_val(static_cast<int>(i)));
        if (!handle)
            return handle.error();
        out[static_cast<std::size_t>(i)] = std::move(*handle);
    }
    if (count > 0)
        std::fill(out.begin() + count, out.end(), out[static_cast<std::size_t>(count - 1)]);
    return Status::ok();
}

template <typename Field, typename T, typename Convert>
void appendAll(Field* field, std::span<const T> values, Convert convert)
{
    field->Reserve(static_cast<int>(values.size()));
    for (const T& v : values)
        field->Add(convert(v));
}

void writeTypedField(const Tensor& t, TensorProto* p)
{
    auto same = [](auto v) { return v; };
    auto toInt = [](auto v) { return static_cast<std::int32_t>(v); };
    switch (detail::storageDataType(t.dtype())) {
    case DT_FLOAT: appendAll(p->mutable_float_val(), t.values<float>(), same); break;
    case DT_DOUBLE: appendAll(p->mutable_double_val(), t.values<double>(), same); break;
    case DT_INT32: appendAll(p->mutable_int_val(), t.values<std::int32_t>(), same); break;
    case DT_INT16: appendAll(p->mutable_int_val(), t.values<std::int16_t>(), toInt); break;
    case DT_INT8: appendAll(p->mutable_int_val(), t.values<std::int8_t>(), toInt); break;
    case DT_UINT8: appendAll(p->mutable_int_val(), t.values<std::uint8_t>(), toInt); break;
    case DT_UINT16: appendAll(p->mutable_int_val(), t.values<std::uint16_t>(), toInt); break;
    case DT_INT64: appendAll(p->mutable_int64_val(), t.values<std::int64_t>(), same); break;
    case DT_BOOL: appendAll(p->mutable_bool_val(), t.values<bool>(), same); break;
    case DT_HALF: appendAll(p->mutable_half_val(), t.values<Eigen::half>(), toBits<Eigen::half>); break;
    case DT_BFLOAT16: appendAll(p->mutable_half_val(), t.values<Eigen::bfloat16>(), toBits<Eigen::bfloat16>); break;
    case DT_COMPLEX64:
        p->mutable_scomplex_val()->Reserve(static_cast<int>(2 * t.numElements()));
        for (const std::complex<float>& v : t.values<std::complex<float>>()) {
            p->add_scomplex_val(v.real());
            p->add_scomplex_val(v.imag());
        }
        break;
    case DT_COMPLEX128:
        p->mutable_dcomplex_val()->Reserve(static_cast<int>(2 * t.numElements()));
        for (const std::complex<double>& v : t.values<std::complex<double>>()) {
            p->add_dcomplex_val(v.real());
            p->add_dcomplex_val(v.imag());
        }
        break;
    case DT_UINT32: appendAll(p->mutable_uint32_val(), t.values<std::uint32_t>(), same); break;
    case DT_UINT64: appendAll(p->mutable_uint64_val(), t.values<std::uint64_t>(), same); break;
    default: break;  // strings are written by the caller
    }
}

/// DT_STRING tensor_content: n varint32 lengths, then the bytes of every string back to back
/// (TensorFlow's EncodeStringList).
Status decodeStringList(std::string_view in, std::span<std::string> out)
{
    std::vector<std::uint32_t> lengths(out.size());
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        auto length = varint::decode32(in);
        if (!length) {
            return invalidArgumentError("string tensor_content is damaged: the length of element " +
                                        std::to_string(i) + " is missing or not a varint32");
        }
        lengths[i] = *length;
        total += *length;
    }
    if (total != in.size()) {
        return invalidArgumentError("string tensor_content is damaged: the lengths add up to " +
                                    std::to_string(total) + " bytes but " + std::to_string(in.size()) + " follow");
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].assign(in.substr(0, lengths[i]));
        in.remove_prefix(lengths[i]);
    }
    return Status::ok();
}

/// DT_RESOURCE tensor_content: the same string list, each string a serialized ResourceHandleProto
/// (TensorFlow's EncodeResourceHandleList).
Status decodeHandleList(std::string_view in, std::span<ResourceHandle> out)
{
    std::vector<std::string> serialized(out.size());
    if (Status s = decodeStringList(in, serialized); !s.isOk())
        return s;
    tensorflow::ResourceHandleProto proto;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (!proto.ParseFromString(serialized[i]))
            return invalidArgumentError("resource tensor_content is damaged: element " + std::to_string(i) +
                                        " is not a ResourceHandleProto");
        auto handle = ResourceHandle::fromProto(proto);
        if (!handle)
            return handle.error();
        out[i] = std::move(*handle);
    }
    return Status::ok();
}

// --- Debug string ------------------------------------------------------------------------------

/// Lays out the first `values` of a tensor of `dims` as TensorFlow's SummarizeValue does without
/// print_v2: rank <= 1 space-separated, deeper ranks in nested brackets, "..." where cut.
void layoutDim(std::span<const std::int64_t> dims, std::size_t d, const std::vector<std::string>& values,
               std::size_t& next, std::string& out)
{
    if (next >= values.size())
        return;
    const std::int64_t count = dims[d];
    if (d + 1 == dims.size()) {
        for (std::int64_t i = 0; i < count; ++i) {
            if (next >= values.size()) {
                if (d != 0)
                    out += "...";
                return;
            }
            if (i > 0)
                out += ' ';
            out += values[next++];
        }
        return;
    }
    for (std::int64_t i = 0; i < count && next < values.size(); ++i) {
        out += '[';
        layoutDim(dims, d + 1, values, next, out);
        out += ']';
    }
}

} // namespace

// --- Tensor ----------------------------------------------------------------------------------------

Tensor Tensor::uninitialized(DataType dtype)
{
    return Tensor(dtype, TensorShape::unknown(), 0, nullptr);
}

Tensor::Tensor(DataType dtype, TensorShape shape, std::int64_t numElements, std::shared_ptr<std::byte> buffer)
    : m_dtype(dtype), m_shape(std::move(shape)), m_numElements(numElements), m_buffer(std::move(buffer))
{
}

Expected<Tensor> Tensor::allocate(Allocator& allocator, DataType dtype, const TensorShape& shape)
{
    return allocate(allocator, dtype, shape, true);
}

Expected<Tensor> Tensor::allocate(Allocator& allocator, DataType dtype, const TensorShape& shape, bool zeroFill)
{
    auto count = checkedElementCount(dtype, shape);
    if (!count)
        return unexpected(count.error());
    const std::int64_t n = *count;
    if (n == 0)
        return Tensor(dtype, shape, 0, nullptr);

    const std::size_t bytes = static_cast<std::size_t>(n) * elementSize(dtype);
    auto memory = allocator.allocate(bytes);
    if (!memory)
        return unexpected(memory.error().withContext(describe(dtype, shape)));
    auto* raw = static_cast<std::byte*>(*memory);
    if (dtype == DT_STRING)
        std::uninitialized_value_construct_n(reinterpret_cast<std::string*>(raw), n);
    else if (dtype == DT_RESOURCE)
        std::uninitialized_value_construct_n(reinterpret_cast<ResourceHandle*>(raw), n);
    else if (dtype == DT_VARIANT)
        std::uninitialized_value_construct_n(reinterpret_cast<Variant*>(raw), n);
    std::shared_ptr<std::byte> buffer(raw,
                                      BufferReleaser{&allocator, bytes, dtype, hasObjectElements(dtype) ? n : 0});
    Status filled = Status::ok();
    if (!hasObjectElements(dtype) && zeroFill)
        filled = allocator.fillZero(raw, bytes);
    else if (!hasObjectElements(dtype) && poisonUninitializedMemory())
        filled = allocator.fillBytes(raw, bytes, kPoisonByte);
    if (!filled.isOk())
        return unexpected(filled.withContext(describe(dtype, shape)));
    return Tensor(dtype, shape, n, std::move(buffer));
}

Expected<Tensor> Tensor::fromProto(Allocator& allocator, const TensorProto& proto)
{
    const DataType dtype = proto.dtype();
    auto shape = TensorShape::fromProto(proto.tensor_shape());
    if (!shape)
        return unexpected(shape.error().withContext("TensorProto"));
    auto count = checkedElementCount(dtype, *shape);
    if (!count)
        return unexpected(count.error().withContext("TensorProto"));
    const std::int64_t n = *count;
    if (n == 0)  // No values to read, whatever the fields hold.
        return allocate(allocator, dtype, *shape);
    if (dtype == DT_VARIANT) {
        // The objects a variant holds (datasets) live only in memory; without values the elements
        // are empty variants, as TensorFlow's default ones.
        if (!proto.tensor_content().empty() || proto.variant_val_size() > 0)
            return unexpected(unimplementedError("TensorProto " + describe(dtype, *shape) +
                                                 ": variant values cannot be decoded (datasets and other variant "
                                                 "objects exist only inside a running session)"));
        return allocate(allocator, dtype, *shape);
    }

    const std::string& content = proto.tensor_content();
    if (!content.empty()) {
        if (hasObjectElements(dtype)) {
            // Each element takes at least its one-byte length: a cheap check before allocating.
            if (content.size() < static_cast<std::uint64_t>(n)) {
                return unexpected(invalidArgumentError("TensorProto " + describe(dtype, *shape) + " needs at least " +
                                                       std::to_string(n) + " bytes of tensor_content, found " +
                                                       std::to_string(content.size())));
            }
        } else {
            const std::uint64_t expected = static_cast<std::uint64_t>(n) * dataTypeSize(dtype);
            if (content.size() != expected) {
                return unexpected(invalidArgumentError("TensorProto " + describe(dtype, *shape) + " needs " +
                                                       std::to_string(expected) + " bytes of tensor_content, found " +
                                                       std::to_string(content.size())));
            }
        }
        auto tensor = allocate(allocator, dtype, *shape);
        if (!tensor)
            return tensor;
        if (dtype == DT_STRING) {
            if (Status s = decodeStringList(content, tensor->strings()); !s.isOk())
                return unexpected(s.withContext("TensorProto " + describe(dtype, *shape)));
        } else if (dtype == DT_RESOURCE) {
            if (Status s = decodeHandleList(content, tensor->values<ResourceHandle>()); !s.isOk())
                return unexpected(s.withContext("TensorProto " + describe(dtype, *shape)));
        } else {
            std::memcpy(tensor->m_buffer.get(), content.data(), content.size());
        }
        return tensor;
    }

    const TypedField field = typedFieldOf(proto, dtype);
    if (field.oddPairs) {
        return unexpected(invalidArgumentError("TensorProto " + describe(dtype, *shape) + " has an odd number of " +
                                               "values in " + field.name + "; complex values come in (re, im) pairs"));
    }
    if (field.count > n) {
        return unexpected(invalidArgumentError("TensorProto " + describe(dtype, *shape) + " has " +
                                               std::to_string(field.count) + " values in " + field.name +
                                               ", more than its " + std::to_string(n) + " elements"));
    }
    auto tensor = allocate(allocator, dtype, *shape);
    if (!tensor)
        return tensor;
    if (dtype == DT_RESOURCE) {
        if (Status s = fillHandles(*tensor, proto, field.count); !s.isOk())
            return unexpected(s.withContext("TensorProto " + describe(dtype, *shape)));
    } else {
        fillFromTypedField(*tensor, proto, field.count);
    }
    return tensor;
}

void Tensor::toProto(TensorProto* proto, bool useTensorContent) const
{
    proto->Clear();
    proto->set_dtype(m_dtype);
    *proto->mutable_tensor_shape() = m_shape.toProto();
    if (m_numElements == 0)
        return;
    if (m_dtype == DT_STRING) {
        proto->mutable_string_val()->Reserve(static_cast<int>(m_numElements));
        for (const std::string& s : strings())
            proto->add_string_val(s);
    } else if (m_dtype == DT_RESOURCE) {
        proto->mutable_resource_handle_val()->Reserve(static_cast<int>(m_numElements));
        for (const ResourceHandle& handle : values<ResourceHandle>())
            handle.toProto(proto->add_resource_handle_val());
    } else if (m_dtype == DT_VARIANT) {
        // Only the type name: the objects cannot be serialised (TensorFlow's datasets neither).
        for (const Variant& value : values<Variant>())
            proto->add_variant_val()->set_type_name(value.typeName());
    } else if (useTensorContent) {
        const std::span<const std::byte> bytes = tensorData();
        proto->set_tensor_content(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    } else {
        writeTypedField(*this, proto);
    }
}

std::size_t Tensor::totalBytes() const
{
    if (m_dtype != DT_STRING)
        return static_cast<std::size_t>(m_numElements) * elementSize(m_dtype);
    std::size_t total = static_cast<std::size_t>(m_numElements) * sizeof(std::string);
    for (const std::string& s : strings())
        total += s.size();
    return total;
}

std::span<const std::byte> Tensor::tensorData() const
{
    if (hasObjectElements(m_dtype) || !m_buffer)
        return {};
    return {m_buffer.get(), static_cast<std::size_t>(m_numElements) * dataTypeSize(m_dtype)};
}

std::span<std::byte> Tensor::tensorData()
{
    if (hasObjectElements(m_dtype) || !m_buffer)
        return {};
    return {m_buffer.get(), static_cast<std::size_t>(m_numElements) * dataTypeSize(m_dtype)};
}

Allocator* Tensor::bufferAllocator() const
{
    const BufferReleaser* releaser = m_buffer ? std::get_deleter<BufferReleaser>(m_buffer) : nullptr;
    return releaser ? releaser->allocator : nullptr;
}

bool Tensor::inHostMemory() const
{
    const Allocator* allocator = bufferAllocator();
    return allocator == nullptr || allocator->hostAccessible();
}

Expected<Tensor> Tensor::deepCopy(Allocator& allocator) const
{
    if (!inHostMemory() || !allocator.hostAccessible())
        return unexpected(invalidArgumentError(
            "a deep copy of a " + describe(m_dtype, m_shape) + " tensor from " +
            (inHostMemory() ? std::string("host") : bufferAllocator()->deviceName()) + " memory to " +
            allocator.deviceName() + " memory needs the device's copy (Device::copyToHost/copyFromHost)"));
    auto copy = allocate(allocator, m_dtype, m_shape, /*zeroFill=*/false); // every byte is copied below
    if (!copy || m_numElements == 0)
        return copy;
    if (m_dtype == DT_STRING) {
        std::copy_n(strings().begin(), m_numElements, copy->strings().begin());
    } else if (m_dtype == DT_RESOURCE) {
        std::copy_n(values<ResourceHandle>().begin(), m_numElements, copy->values<ResourceHandle>().begin());
    } else if (m_dtype == DT_VARIANT) {
        // The held objects are immutable: the copy shares them.
        std::copy_n(values<Variant>().begin(), m_numElements, copy->values<Variant>().begin());
    } else {
        const std::span<const std::byte> bytes = tensorData();
        std::memcpy(copy->m_buffer.get(), bytes.data(), bytes.size());
    }
    return copy;
}

Status Tensor::setZero()
{
    if (!m_buffer || hasObjectElements(m_dtype))
        return Status::ok();
    // Every buffer comes from allocate(), so it knows its allocator.
    return bufferAllocator()->fillZero(m_buffer.get(), static_cast<std::size_t>(m_numElements) * elementSize(m_dtype));
}

Expected<Tensor> Tensor::reshapedView(const TensorShape& shape) const
{
    if (!isInitialized())
        return unexpected(invalidArgumentError("cannot view an uninitialized " + dataTypeName(m_dtype) +
                                               " tensor with shape " + shape.toString()));
    auto count = checkedElementCount(m_dtype, shape);
    if (!count)
        return unexpected(count.error());
    if (*count != m_numElements)
        return unexpected(invalidArgumentError("cannot view a " + describe(m_dtype, m_shape) + " (" +
                                               std::to_string(m_numElements) + " elements) with shape " +
                                               shape.toString() + " (" + std::to_string(*count) + " elements)"));
    return Tensor(m_dtype, shape, m_numElements, m_buffer);
}

bool Tensor::bufferIsShared() const
{
    if (!m_buffer || m_buffer.use_count() > 1)
        return static_cast<bool>(m_buffer);
    // Sole owner: the other owners' last accesses to the buffer happened before their release of
    // it; the fence orders them before the caller's writes (use_count() itself is a relaxed load).
    std::atomic_thread_fence(std::memory_order_acquire);
    return false;
}

std::string Tensor::debugString(std::int64_t maxValues) const
{
    const std::int64_t limit = maxValues < 0 ? m_numElements : std::min(maxValues, m_numElements);
    std::vector<std::string> values;
    values.reserve(static_cast<std::size_t>(limit));
    const Status visited = dispatchDataType(detail::storageDataType(m_dtype), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* elements = data<T>();
        for (std::int64_t i = 0; i < limit; ++i)
            values.push_back(formatElement(elements[i]));
    });
    if (!visited.isOk() && m_dtype == DT_VARIANT) {
        values.clear();
        for (std::int64_t i = 0; i < limit; ++i)
            values.push_back(data<Variant>()[i].debugString());
    } else if (!visited.isOk()) {
        values.assign(static_cast<std::size_t>(limit), "?");
    }

    std::string summary;
    if (m_shape.rank() <= 1) {
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i > 0)
                summary += ' ';
            summary += values[i];
        }
    } else {
        std::size_t next = 0;
        layoutDim(m_shape.dims(), 0, values, next, summary);
    }
    if (limit < m_numElements)
        summary += "...";
    return "Tensor<type: " + dataTypeString(m_dtype) + " shape: " + m_shape.toString() + " values: " + summary + ">";
}

} // namespace tstudio
