// TensorArrayResource: the per-step resource behind TensorFlow 1.15's TensorArray ops (tensor_array.h there):
// an array of tensors of one dtype, written once per index (gradient arrays add up repeated
// writes), read by index, optionally freed on read, growing on writes when dynamically sized.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/resource_manager.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class Allocator;

/// TensorFlow's TensorArray resource. Its errors are TensorFlow's, prefixed "TensorArray <name>: "
/// where TensorFlow prefixes them (the name is the handle's second string, "<tensor_array_name>_<n>",
/// or "<that>@<gradient source>" for a gradient array); the executor adds the node.
///
/// Semantics, as TensorFlow's:
///  - an index is written at most once, except in gradient arrays (multiple_writes_aggregate), where
///    further writes of the same shape are added to it; an index that was read cannot be written;
///  - writes must match the element shape; with identical_element_shapes the first write fixes it;
///  - with clear_after_read, a read frees the element and a second read of it fails;
///  - reading an index that was never written gives zeros when its shape is known (the element shape
///    fully defined, or in a gradient array the shape the forward array's element had), else fails
///    naming the index (TensorFlow's message, with "because it has not yet been written to" added);
///  - a gradient array reads past its end as zeros (of the element shape, when fully defined), and
///    concatenates its marked size (the size the forward array had after a Split).
/// Sizes and indices are int32, as in TensorFlow. Thread-safe: every member takes the array's mutex.
class TensorArrayResource : public Resource {
public:
    /// The mangled name of tensorflow::TensorArray, which its handles carry.
    static constexpr std::string_view kTypeName = "N10tensorflow11TensorArrayE";

    struct Options {
        DataType dtype = tensorflow::DT_FLOAT;
        std::int32_t size = 0;
        TensorShape elementShape; ///< partial; unknown rank by default
        bool identicalElementShapes = false;
        bool dynamicSize = false;
        bool multipleWritesAggregate = false; ///< gradient arrays
        bool isGrad = false;
        std::int32_t markedSize = -1;
        bool clearAfterRead = true;
    };

    /// `name` is what messages call the array ("foo_0", "foo_0@gradients").
    TensorArrayResource(std::string name, const Options& options);

    /// "TensorArray[foo_0] of float, 3 elements" ("..., closed" once closed).
    std::string debugString() const override;

    const std::string& name() const { return m_name; }
    DataType elemType() const { return m_dtype; }
    bool hasIdenticalElementShapes() const { return m_identicalElementShapes; }

    /// Writes `value` at `index` (WriteOrAggregate); `allocator` holds aggregated sums.
    Status write(Allocator& allocator, std::int32_t index, const Tensor& value);
    /// Writes values[k] at indices[k] in order, stopping at the first error (earlier writes stay).
    Status writeMany(Allocator& allocator, const std::vector<std::int32_t>& indices, const std::vector<Tensor>& values);
    /// The element at `index` (zeros of its known shape when unwritten; see the class comment).
    Expected<Tensor> read(Allocator& allocator, std::int32_t index);
    /// read for each index in order, stopping at the first error.
    Expected<std::vector<Tensor>> readMany(Allocator& allocator, const std::vector<std::int32_t>& indices);

    TensorShape elementShape() const;
    /// Merges `candidate` into the element shape (TensorArrayGatherV3's element_shape attr):
    /// "PartialTensorShape: Incompatible shapes during merge: [2] vs. [3]".
    Status mergeElementShape(const TensorShape& candidate);

    /// The number of elements; "TensorArray foo_0 has already been closed." once closed.
    Expected<std::int32_t> size() const;
    /// Records the size after a Split (forward arrays only).
    Status setMarkedSize(std::int32_t size);
    Expected<std::int32_t> markedSize() const;
    /// What Concat reads: the marked size for gradient arrays, else the size.
    Expected<std::int32_t> packOrConcatSize() const;

    /// Once a gradient array exists the forward array may no longer grow.
    void disableDynamicSize();
    bool hasDynamicSize() const;
    /// False once a write was aggregated into an index (gradients would be ambiguous).
    bool gradientsAllowed() const;

    /// CopyShapesFrom: every index `source` has written becomes written here with its shape
    /// (`shapeToPrepend` first, when given) and no value, i.e. zeros until written or read. The sizes
    /// must match.
    Status copyShapesFrom(const TensorArrayResource& source, const TensorShape* shapeToPrepend);

    /// Frees every element and marks the array closed.
    void clearAndMarkClosed();

private:
    struct Element {
        Tensor tensor;
        bool hasTensor = false;
        TensorShape shape; ///< fully defined once written (or copied from the forward array)
        bool written = false;
        bool read = false;
        bool cleared = false;
    };

    Status checkNotClosed() const;
    Status lockedWrite(Allocator& allocator, std::int32_t index, const Tensor& value);
    Expected<Tensor> lockedRead(Allocator& allocator, std::int32_t index);
    std::string prefix() const { return "TensorArray " + m_name + ": "; }

    const std::string m_name;
    const DataType m_dtype;
    const bool m_identicalElementShapes;
    const bool m_multipleWritesAggregate;
    const bool m_isGrad;
    const bool m_clearAfterRead;
    mutable std::mutex m_mutex;
    bool m_dynamicSize;                 ///< guarded by m_mutex
    std::int32_t m_markedSize;          ///< guarded by m_mutex
    TensorShape m_elementShape;         ///< guarded by m_mutex
    bool m_closed = false;              ///< guarded by m_mutex
    bool m_gradientsDisallowed = false; ///< guarded by m_mutex
    std::vector<Element> m_elements;    ///< guarded by m_mutex
};

} // namespace tstudio
