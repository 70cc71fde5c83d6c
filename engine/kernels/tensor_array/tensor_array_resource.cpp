// TensorArrayResource: writes, reads, zeros for unwritten elements and gradient aggregation, with TensorFlow
// 1.15's checks and messages (tensorflow/core/kernels/tensor_array.{h,cc}).
#include "kernels/tensor_array/tensor_array_resource.h"

#include "framework/allocator.h"

#include <algorithm>
#include <complex>

namespace tstudio {
namespace {

/// TF_CALL_NUMBER_TYPES: the dtypes whose repeated gradient writes can be added up.
using AddableTypes =
    TypeList<Eigen::half, Eigen::bfloat16, float, double, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
             std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::complex<float>, std::complex<double>>;

/// a + b, element-wise, into a new tensor (a and b have the same dtype and shape).
Expected<Tensor> addTensors(Allocator& allocator, const Tensor& a, const Tensor& b)
{
    auto sum = Tensor::allocateUninitialized(allocator, a.dtype(), a.shape());
    if (!sum)
        return unexpected(sum.error());
    Status s = dispatchDataType<AddableTypes>(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto x = a.values<T>();
        const auto y = b.values<T>();
        auto out = sum->template values<T>();
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = static_cast<T>(x[i] + y[i]);
    });
    if (!s.isOk())
        return unexpected(
            invalidArgumentError("tensor_array::AddToTensor type not supported: " + dataTypeString(a.dtype())));
    return *sum;
}

} // namespace

TensorArrayResource::TensorArrayResource(std::string name, const Options& options)
    : m_name(std::move(name)), m_dtype(options.dtype), m_identicalElementShapes(options.identicalElementShapes),
      m_multipleWritesAggregate(options.multipleWritesAggregate), m_isGrad(options.isGrad),
      m_clearAfterRead(options.clearAfterRead), m_dynamicSize(options.dynamicSize), m_markedSize(options.markedSize),
      m_elementShape(options.elementShape), m_elements(static_cast<std::size_t>(std::max(options.size, 0)))
{
}

std::string TensorArrayResource::debugString() const
{
    std::lock_guard lock(m_mutex);
    return "TensorArray[" + m_name + "] of " + dataTypeString(m_dtype) + ", " + std::to_string(m_elements.size()) +
           " elements" + (m_closed ? ", closed" : "");
}

Status TensorArrayResource::checkNotClosed() const
{
    if (m_closed)
        return invalidArgumentError("TensorArray " + m_name + " has already been closed.");
    return Status::ok();
}

Status TensorArrayResource::write(Allocator& allocator, std::int32_t index, const Tensor& value)
{
    std::lock_guard lock(m_mutex);
    return lockedWrite(allocator, index, value);
}

Status TensorArrayResource::writeMany(Allocator& allocator, const std::vector<std::int32_t>& indices,
                                      const std::vector<Tensor>& values)
{
    std::lock_guard lock(m_mutex);
    for (std::size_t k = 0; k < indices.size(); ++k) {
        if (Status s = lockedWrite(allocator, indices[k], values[k]); !s.isOk())
            return s;
    }
    return Status::ok();
}

Status TensorArrayResource::lockedWrite(Allocator& allocator, std::int32_t index, const Tensor& value)
{
    if (Status s = checkNotClosed(); !s.isOk())
        return s;
    const auto at = static_cast<std::size_t>(index);
    if (index < 0 || (!m_dynamicSize && at >= m_elements.size()))
        return invalidArgumentError(prefix() + "Tried to write to index " + std::to_string(index) +
                                    " but array is not resizeable and size is: " + std::to_string(m_elements.size()));
    if (m_dynamicSize && at >= m_elements.size())
        m_elements.resize(at + 1);
    Element& e = m_elements[at];
    const std::string where = prefix() + "Could not write to TensorArray index " + std::to_string(index);
    if (value.dtype() != m_dtype)
        return invalidArgumentError(where + " because the value dtype is " + dataTypeString(value.dtype()) +
                                    " but TensorArray dtype is " + dataTypeString(m_dtype) + ".");
    if (!m_elementShape.isCompatibleWith(value.shape()))
        return invalidArgumentError(where + " because the value shape is " + value.shape().toString() +
                                    " which is incompatible with the TensorArray's inferred element shape: " +
                                    m_elementShape.toString() + " (consider setting infer_shape=False).");
    if (m_identicalElementShapes && !m_elementShape.isFullyDefined())
        m_elementShape = value.shape();
    if (e.read)
        return invalidArgumentError(where + " because it has already been read.");
    if (!m_multipleWritesAggregate && e.written)
        return invalidArgumentError(where + " because it has already been written to.");
    if (!e.written) {
        e.tensor = value;
        e.hasTensor = true;
        e.shape = value.shape();
        e.written = true;
        return Status::ok();
    }
    // A gradient array: add the new value to what is there.
    if (value.shape() != e.shape)
        return invalidArgumentError(prefix() + "Could not aggregate to TensorArray index " + std::to_string(index) +
                                    " because the existing shape is " + e.shape.toString() +
                                    " but the new input shape is " + value.shape().toString() + ".");
    if (!e.hasTensor || e.tensor.numElements() == 0) {
        // Only a shape was stored (zeros): the value replaces it.
        e.tensor = value;
        e.hasTensor = true;
        return Status::ok();
    }
    auto sum = addTensors(allocator, e.tensor, value);
    if (!sum)
        return sum.error();
    e.tensor = std::move(*sum);
    // Values were aggregated: a gradient of this array would be ambiguous.
    m_gradientsDisallowed = true;
    return Status::ok();
}

Expected<Tensor> TensorArrayResource::read(Allocator& allocator, std::int32_t index)
{
    std::lock_guard lock(m_mutex);
    return lockedRead(allocator, index);
}

Expected<std::vector<Tensor>> TensorArrayResource::readMany(Allocator& allocator,
                                                            const std::vector<std::int32_t>& indices)
{
    std::lock_guard lock(m_mutex);
    std::vector<Tensor> values;
    values.reserve(indices.size());
    for (std::int32_t index : indices) {
        auto value = lockedRead(allocator, index);
        if (!value)
            return unexpected(value.error());
        values.push_back(std::move(*value));
    }
    return values;
}

Expected<Tensor> TensorArrayResource::lockedRead(Allocator& allocator, std::int32_t index)
{
    if (Status s = checkNotClosed(); !s.isOk())
        return unexpected(s);
    const auto at = static_cast<std::size_t>(index);
    if (index < 0 || (!m_isGrad && at >= m_elements.size()))
        return unexpected(invalidArgumentError("Tried to read from index " + std::to_string(index) +
                                               " but array size is: " + std::to_string(m_elements.size())));
    const bool beyondEnd = at >= m_elements.size(); // only for gradient arrays
    if (beyondEnd || !m_elements[at].written) {
        // Never written: zeros of the element's shape when it is known. A gradient array knows the
        // shape its forward array's element had; other arrays rely on the element shape.
        TensorShape shape;
        if (m_isGrad && !beyondEnd && m_elements[at].shape.rank() > 0) {
            shape = m_elements[at].shape;
        } else if (!m_elementShape.isFullyDefined()) {
            return unexpected(invalidArgumentError(
                prefix() + "Could not read from TensorArray index " + std::to_string(index) +
                " because it has not yet been written to.  Furthermore, the element shape is not fully defined: " +
                m_elementShape.toString() +
                ".  It is possible you are working with a resizeable TensorArray and stop_gradients is not allowing "
                "the gradients to be written.  If you set the full element_shape property on the forward "
                "TensorArray, the proper all-zeros tensor will be returned instead of incurring this error."));
        } else {
            shape = m_elementShape;
        }
        if (beyondEnd) {
            const std::size_t old = m_elements.size();
            m_elements.resize(at + 1);
            for (std::size_t i = old; i <= at; ++i) {
                m_elements[i].shape = shape;
                m_elements[i].written = true;
            }
        } else {
            m_elements[at].shape = shape;
            m_elements[at].written = true;
        }
    }
    Element& e = m_elements[at];
    if (e.cleared)
        return unexpected(invalidArgumentError(prefix() + "Could not read index " + std::to_string(index) +
                                               " twice because it was cleared after a previous read (perhaps try "
                                               "setting clear_after_read = false?)."));
    if (!e.hasTensor || e.tensor.numElements() == 0) {
        // Only a shape is stored: the value is zeros of that shape.
        auto zeros = Tensor::allocate(allocator, m_dtype, e.shape);
        if (!zeros)
            return unexpected(zeros.error());
        e.tensor = std::move(*zeros);
        e.hasTensor = true;
    }
    Tensor value = e.tensor;
    if (m_clearAfterRead) {
        e.tensor = Tensor();
        e.hasTensor = false;
        e.cleared = true;
    }
    e.read = true;
    return value;
}

TensorShape TensorArrayResource::elementShape() const
{
    std::lock_guard lock(m_mutex);
    return m_elementShape;
}

Status TensorArrayResource::mergeElementShape(const TensorShape& candidate)
{
    std::lock_guard lock(m_mutex);
    if (m_elementShape.isUnknownRank() || candidate.isUnknownRank()) {
        if (m_elementShape.isUnknownRank())
            m_elementShape = candidate;
        return Status::ok();
    }
    if (m_elementShape.rank() != candidate.rank())
        return invalidArgumentError("PartialTensorShape: Incompatible ranks during merge: " +
                                    std::to_string(m_elementShape.rank()) + " vs. " + std::to_string(candidate.rank()));
    auto merged = m_elementShape.merge(candidate);
    if (!merged)
        return invalidArgumentError("PartialTensorShape: Incompatible shapes during merge: " +
                                    m_elementShape.toString() + " vs. " + candidate.toString());
    m_elementShape = std::move(*merged);
    return Status::ok();
}

Expected<std::int32_t> TensorArrayResource::size() const
{
    std::lock_guard lock(m_mutex);
    if (Status s = checkNotClosed(); !s.isOk())
        return unexpected(s);
    return static_cast<std::int32_t>(m_elements.size());
}

Status TensorArrayResource::setMarkedSize(std::int32_t size)
{
    std::lock_guard lock(m_mutex);
    if (Status s = checkNotClosed(); !s.isOk())
        return s;
    if (!m_isGrad)
        m_markedSize = size;
    return Status::ok();
}

Expected<std::int32_t> TensorArrayResource::markedSize() const
{
    std::lock_guard lock(m_mutex);
    if (Status s = checkNotClosed(); !s.isOk())
        return unexpected(s);
    return m_markedSize;
}

Expected<std::int32_t> TensorArrayResource::packOrConcatSize() const
{
    std::lock_guard lock(m_mutex);
    if (Status s = checkNotClosed(); !s.isOk())
        return unexpected(s);
    return m_isGrad ? m_markedSize : static_cast<std::int32_t>(m_elements.size());
}

void TensorArrayResource::disableDynamicSize()
{
    std::lock_guard lock(m_mutex);
    m_dynamicSize = false;
}

bool TensorArrayResource::hasDynamicSize() const
{
    std::lock_guard lock(m_mutex);
    return m_dynamicSize;
}

bool TensorArrayResource::gradientsAllowed() const
{
    std::lock_guard lock(m_mutex);
    return !m_gradientsDisallowed;
}

Status TensorArrayResource::copyShapesFrom(const TensorArrayResource& source, const TensorShape* shapeToPrepend)
{
    std::scoped_lock lock(m_mutex, source.m_mutex);
    if (Status s = checkNotClosed(); !s.isOk())
        return s;
    if (Status s = source.checkNotClosed(); !s.isOk())
        return s;
    if (m_elements.size() != source.m_elements.size())
        return invalidArgumentError("TensorArray sizes do not match during CopyShapesFrom: " + m_name + " has size " +
                                    std::to_string(m_elements.size()) + " but rhs " + source.m_name + " has size " +
                                    std::to_string(source.m_elements.size()));
    for (std::size_t i = 0; i < m_elements.size(); ++i) {
        const Element& from = source.m_elements[i];
        if (!from.written)
            continue;
        m_elements[i].shape = shapeToPrepend ? shapeToPrepend->concatenate(from.shape) : from.shape;
        m_elements[i].written = true;
    }
    return Status::ok();
}

void TensorArrayResource::clearAndMarkClosed()
{
    std::lock_guard lock(m_mutex);
    m_elements.clear();
    m_closed = true;
}

} // namespace tstudio
