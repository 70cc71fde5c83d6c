// Shared pieces of the array CPU kernels: a kernel base that keeps attr errors, registration
// helpers, dtype lists, index-tensor reading and element access by byte width.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"
#include "framework/tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace Eigen {
struct ThreadPoolDevice;
}

namespace tstudio::array {

/// Base of the array kernels. TensorFlow rejects bad attrs when a kernel is constructed
/// (OP_REQUIRES in the constructor); constructors here call require()/read(), and KernelAdder
/// turns a recorded error into a failed kernel creation.
class ArrayKernel : public OpKernel {
public:
    using OpKernel::OpKernel;
    const Status& constructionStatus() const { return m_constructionStatus; }

protected:
    /// Records `status` if it is the first error; returns whether it is ok.
    bool require(const Status& status)
    {
        if (!status.isOk() && m_constructionStatus.isOk())
            m_constructionStatus = status;
        return status.isOk();
    }
    template <typename V, typename Out> bool read(const Expected<V>& value, Out& out)
    {
        if (!value)
            return require(value.error());
        out = *value;
        return true;
    }

private:
    Status m_constructionStatus;
};

/// A CPU KernelDef; `constraints` pairs a type attr with the dtypes it accepts.
KernelDef cpuDef(std::string op, std::vector<std::pair<std::string, std::vector<DataType>>> constraints = {});

/// A factory that builds K(construction, args...) and, for an ArrayKernel, fails with the attr
/// error its constructor recorded. `args` are copied into the factory (e.g. a `const Movement*`).
template <typename K, typename... Args> KernelFactory kernelFactory(Args... args)
{
    return [args...](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        auto kernel = std::make_unique<K>(c, args...);
        if constexpr (std::is_base_of_v<ArrayKernel, K>) {
            if (!kernel->constructionStatus().isOk())
                return unexpected(kernel->constructionStatus());
        }
        return std::unique_ptr<OpKernel>(std::move(kernel));
    };
}

/// Registers kernels one after another and keeps the first error.
class KernelAdder {
public:
    explicit KernelAdder(KernelRegistry& registry) : m_registry(registry) {}

    template <typename K> KernelAdder& add(KernelDef def) { return addFactory(std::move(def), kernelFactory<K>()); }
    KernelAdder& addFactory(KernelDef def, KernelFactory factory)
    {
        if (m_status.isOk())
            m_status = m_registry.registerKernel(std::move(def), std::move(factory));
        return *this;
    }
    Status status() const { return m_status; }

private:
    KernelRegistry& m_registry;
    Status m_status;
};

// --- dtype lists (TensorFlow's TF_CALL_* sets) -----------------------------------------------------

/// TF_CALL_POD_TYPES with uint32/uint64: every numeric type and bool.
std::vector<DataType> podDataTypes();
/// podDataTypes() plus string (TF_CALL_POD_STRING_TYPES / TF_CALL_ALL_TYPES with uint32/uint64).
std::vector<DataType> allDataTypes();
/// allDataTypes() plus the quantized types (whose elements are moved as their storage integers).
std::vector<DataType> allAndQuantizedDataTypes();
/// int32, int64.
std::vector<DataType> indexDataTypes();

// --- reading small host tensors --------------------------------------------------------------------

/// The values of an int32 or int64 tensor (any shape) as int64.
std::vector<std::int64_t> indexValues(const Tensor& tensor);
/// Element `i` of an int32 or int64 tensor.
std::int64_t indexValue(const Tensor& tensor, std::int64_t i);
/// Dims of a fully defined shape.
std::vector<std::int64_t> dimsOf(const TensorShape& shape);
/// Row-major element strides of `dims`.
std::vector<std::int64_t> stridesOf(const std::vector<std::int64_t>& dims);
/// Product of dims[begin, end).
std::int64_t product(const std::vector<std::int64_t>& dims, std::size_t begin, std::size_t end);
/// "[2,3]" from a list of values, as TensorFlow joins a BCast::Vec.
std::string bracketJoin(const std::vector<std::int64_t>& values);
/// TensorFlow's TensorShapeUtils::MakeShape from an int32/int64 vector: "shape must be a vector of
/// {int32,int64}, got shape [2,2]", "Dimension -1 must be >= 0".
Expected<TensorShape> makeShape(const Tensor& shapeTensor);

// --- Pad, MirrorPad and MirrorPadGrad ---------------------------------------------------------------

/// The rows of a paddings matrix: before[d] and after[d] for each dimension d of the input.
struct Paddings {
    std::vector<std::int64_t> before;
    std::vector<std::int64_t> after;
};

/// The paddings matrix [rank(input), 2] (int32 or int64): "paddings must be a matrix with 2
/// columns: [3]", "The first dimension of paddings must be the rank of inputs[1,2]<sep>[2,3]";
/// `separator` is what TensorFlow puts between the two shapes (" " for Pad, ", " for MirrorPad and
/// MirrorPadGrad). The values are not checked.
Expected<Paddings> readPaddings(const Tensor& input, const Tensor& paddings, const std::string& separator);

/// The `mode` attr of MirrorPad and MirrorPadGrad as the offset of the reflection: 0 for
/// SYMMETRIC (the edge is repeated), 1 for REFLECT; "mode must be either REFLECT or SYMMETRIC."
Expected<int> mirrorPadOffset(const tensorflow::NodeDef& node);

/// The checked paddings of MirrorPad (`gradient` false) or MirrorPadGrad (true) on `input`:
/// readPaddings (", " between the shapes), then per dimension before, after >= 0 ("paddings must be
/// non-negative: 1 -2"; MirrorPadGrad: "Paddings must be non-negative: 1, -2") and within the
/// reflection limit of the unpadded size (the input's, or for the gradient the output's): with
/// `offset` 0 (SYMMETRIC) <= it, with 1 (REFLECT) < it ("paddings must be no greater than the
/// [output ]dimension size: 2, 3 greater than 2", "paddings must be less than the [output ]dimension
/// size: 2, 3 not less than 2"). outDims: the padded dims (gradient: the unpadded ones).
struct MirrorPadding {
    std::vector<std::int64_t> before;
    std::vector<std::int64_t> outDims;
};
Expected<MirrorPadding> mirrorPadding(const Tensor& input, const Tensor& paddings, int offset, bool gradient);

/// The Eigen thread pool device of a CPU kernel's context.
const Eigen::ThreadPoolDevice& cpuDevice(const OpKernelContext& context);

// --- element access by byte width ------------------------------------------------------------------

/// A 16-byte element (complex128) moved as raw bytes.
struct Bytes16 {
    std::uint64_t word[2];
};

/// Calls `visitor(TypeTag<E>{})` with the type that moves `dtype`'s elements: std::string for
/// strings, otherwise an unsigned integer (or Bytes16) of the element's width, so data-movement
/// kernels are compiled once per width rather than once per dtype. Unimplemented for dtypes
/// without elements (resource, variant).
template <typename Visitor> Status dispatchByElementBytes(DataType dtype, Visitor&& visitor)
{
    if (dtype == tensorflow::DT_STRING) {
        visitor(TypeTag<std::string>{});
        return Status::ok();
    }
    switch (dataTypeSize(dtype)) {
    case 1: visitor(TypeTag<std::uint8_t>{}); return Status::ok();
    case 2: visitor(TypeTag<std::uint16_t>{}); return Status::ok();
    case 4: visitor(TypeTag<std::uint32_t>{}); return Status::ok();
    case 8: visitor(TypeTag<std::uint64_t>{}); return Status::ok();
    case 16: visitor(TypeTag<Bytes16>{}); return Status::ok();
    default: return unimplementedError("dtype " + dataTypeName(dtype) + " has no elements that can be moved");
    }
}

/// The elements of `tensor` seen as E (see dispatchByElementBytes); null when there are none.
template <typename E> const E* elementsAs(const Tensor& tensor)
{
    if constexpr (std::is_same_v<E, std::string>)
        return tensor.strings().data();
    else
        return reinterpret_cast<const E*>(tensor.tensorData().data());
}
template <typename E> E* mutableElementsAs(Tensor& tensor)
{
    if constexpr (std::is_same_v<E, std::string>)
        return tensor.strings().data();
    else
        return reinterpret_cast<E*>(tensor.tensorData().data());
}

/// Copies all elements of `src` into `dst` (same dtype and element count), in parallel.
void copyElements(const Eigen::ThreadPoolDevice& device, const Tensor& src, Tensor& dst);

/// Output `index` as `input`'s buffer viewed with `shape` (same element count), as TensorFlow's
/// Tensor::CopyFrom: nothing is copied, on any device.
Status setReshapedOutput(OpKernelContext& context, int index, const Tensor& input, const TensorShape& shape);

} // namespace tstudio::array
