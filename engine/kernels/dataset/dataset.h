// The tf.data base: an immutable dataset carried in a DT_VARIANT tensor, the iterators it makes, what
// they need from the session, and the kernel base of the ops that build datasets.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "framework/tensor.h"
#include "framework/variant.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

class FunctionRuntime;

namespace tfdata {

struct ParsingMap;

/// One element of a dataset: one tensor per component (output_types).
using Element = std::vector<Tensor>;
/// What DatasetIterator::next() gives: an element, nullopt at the end of the sequence, or an error.
using NextResult = Expected<std::optional<Element>>;

/// What iterators need of the session that runs them. Copied into every iterator of a tree; the
/// pointees belong to the session and outlive the iterators (the kernels that own iterator state
/// shut it down before the session's functions and resources go away).
struct IteratorEnv {
    Allocator* allocator = nullptr;                   ///< host memory for produced tensors
    ResourceManager* resources = nullptr;             ///< where dataset functions' per-step containers go
    FunctionRuntime* runtime = nullptr;               ///< null when the step had none (no dataset functions then)
    const std::atomic<bool>* sessionClosed = nullptr; ///< Session::close() (may be null)
    /// Set when the iterator tree is being shut down (its IteratorResource is reset or destroyed).
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);

    /// True once the session is closing or the tree is shut down: waiting iterators stop.
    bool stopping() const { return cancelled->load() || (sessionClosed && sessionClosed->load()); }
    /// Cancelled "Session has been closed." or "Iterator was cancelled", for whichever applies.
    Status stopStatus() const;

    /// The environment of the step `ctx` belongs to (its device's allocator, resources, runtime).
    static IteratorEnv fromContext(OpKernelContext& ctx);
};

/// A position in a dataset. next() returns the next element, nullopt at the end, or an error;
/// after the end it keeps returning nullopt. One thread at a time calls next(); an iterator may
/// run threads of its own (prefetch, parallel map), which its destructor stops and joins.
class DatasetIterator {
public:
    virtual ~DatasetIterator() = default;
    virtual NextResult next() = 0;
};

/// A tf.data dataset: immutable once made, shared by the variant tensors that carry it and by the
/// iterators made from it (so it may be used from any thread). `nodeName` and `op` name the node
/// that made it, for error messages ("MapDataset 'map': ...").
class DatasetBase : public VariantValue, public std::enable_shared_from_this<DatasetBase> {
public:
    DatasetBase(std::string op, std::string nodeName, std::vector<DataType> types, std::vector<TensorShape> shapes);

    const std::string& op() const { return m_op; }
    const std::string& nodeName() const { return m_nodeName; }
    const std::vector<DataType>& outputTypes() const { return m_types; }
    const std::vector<TensorShape>& outputShapes() const { return m_shapes; }
    /// "MapDataset 'map'".
    std::string describe() const { return m_op + " '" + m_nodeName + "'"; }

    /// A fresh iterator at the start of the dataset. Errors for bad arguments found only now
    /// (files that cannot be opened are reported by next()).
    virtual Expected<std::unique_ptr<DatasetIterator>> makeIterator(const IteratorEnv& env) const = 0;

    /// For the batched-parse rewrite (batch_parse.h). A map whose function parses Examples says so; a
    /// dataset that only reorders its input's elements (shuffle) gives its input and makes its copy over
    /// another input (of any structure), drawing the same order.
    virtual std::shared_ptr<const ParsingMap> parsingMap() const { return nullptr; }
    virtual std::shared_ptr<const DatasetBase> reorderedInput() const { return nullptr; }
    virtual std::shared_ptr<const DatasetBase> reorderingOver(std::shared_ptr<const DatasetBase> input) const
    {
        (void)input;
        return nullptr;
    }

    std::string typeName() const override { return "tensorflow::data::WrappedDatasetVariant"; }
    std::string debugString() const override { return "<" + describe() + ">"; }

protected:
    template <typename D> std::shared_ptr<const D> self() const
    {
        return std::static_pointer_cast<const D>(shared_from_this());
    }

private:
    std::string m_op;
    std::string m_nodeName;
    std::vector<DataType> m_types;
    std::vector<TensorShape> m_shapes;
};

using DatasetPtr = std::shared_ptr<const DatasetBase>;

/// The dataset input `i` of `ctx` holds: a scalar DT_VARIANT tensor whose value is a dataset;
/// InvalidArgument naming the input otherwise.
Expected<DatasetPtr> datasetInput(OpKernelContext& ctx, int i);
/// The dataset held by a variant tensor `t` (`what` names it in errors).
Expected<DatasetPtr> datasetFromTensor(const Tensor& t, const std::string& what);
/// A scalar DT_VARIANT tensor holding `dataset`.
Expected<Tensor> datasetTensor(Allocator& allocator, DatasetPtr dataset);

/// Checks an element against a structure: as many components as `types`, each of that dtype and
/// of a shape compatible with `shapes[i]`. InvalidArgument "<where>: ... component 1 has dtype int64
/// but output_types[1] is float" / "... has shape [3] but output_shapes[1] is [2]".
Status checkElement(const Element& element, const std::vector<DataType>& types, const std::vector<TensorShape>& shapes,
                    const std::string& where);

/// Scalar inputs of dataset ops (count, buffer_size, seeds, ...): InvalidArgument naming `name`
/// when input `i` is not a scalar of the expected dtype.
Expected<std::int64_t> int64Input(OpKernelContext& ctx, int i, const std::string& name);
Expected<bool> boolInput(OpKernelContext& ctx, int i, const std::string& name);
Expected<std::string> stringInput(OpKernelContext& ctx, int i, const std::string& name);

/// The kernel base of every op that outputs a dataset: reads `output_types` (or `typesAttr`) and
/// `output_shapes`, calls makeDataset() and outputs its result as a scalar variant.
class DatasetOpKernel : public OpKernel {
public:
    explicit DatasetOpKernel(OpKernelConstruction& c, const char* typesAttr = "output_types");
    Status compute(OpKernelContext& ctx) final;

protected:
    virtual Expected<DatasetPtr> makeDataset(OpKernelContext& ctx) = 0;

    const std::vector<DataType>& types() const { return m_types; }
    const std::vector<TensorShape>& shapes() const { return m_shapes; }

private:
    Status m_init;
    std::vector<DataType> m_types;
    std::vector<TensorShape> m_shapes;
};

/// Makes a dataset of type D from (op, node name, types, shapes, args...).
template <typename D, typename... Args>
DatasetPtr makeDatasetOf(const OpKernel& kernel, std::vector<DataType> types, std::vector<TensorShape> shapes,
                         Args&&... args)
{
    return std::make_shared<const D>(kernel.op(), kernel.name(), std::move(types), std::move(shapes),
                                     std::forward<Args>(args)...);
}

} // namespace tfdata
} // namespace tstudio
