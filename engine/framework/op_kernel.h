// OpKernel: the code that computes one node on one device, and the contexts it is built and run with.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/device.h"
#include "framework/node_attrs.h"
#include "framework/resource_manager.h"
#include "framework/tensor.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

#include <atomic>
#include <chrono>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace tstudio {

struct FunctionCallScope;

/// An input or output slot's value. A ref slot (TensorFlow's "Ref(T)", used by VariableV2 and
/// the Assign and Apply ops) points at the variable's own Tensor, guarded by its mutex; a plain
/// slot holds a Tensor (which shares its buffer cheaply).
struct TensorValue {
    Tensor tensor;
    Tensor* ref = nullptr;
    std::mutex* refMutex = nullptr;
    /// For a ref to a variable: the shape its node declares (VariableV2's `shape`), which
    /// TensorFlow's uninitialized variable tensor carries and a first Assign is checked against.
    const TensorShape* refDeclaredShape = nullptr;

    bool isRef() const { return ref != nullptr; }
    /// The value: the referenced tensor for a ref slot (callers hold refMutex when it may change).
    const Tensor& get() const { return ref ? *ref : tensor; }
};

/// What a kernel's constructor may read: its node, op definition, device and the dtypes of its
/// inputs and outputs (attrs resolved).
class OpKernelConstruction {
public:
    OpKernelConstruction(const tensorflow::NodeDef& node, const tensorflow::OpDef& opDef, Device& device,
                         std::vector<DataType> inputTypes, std::vector<DataType> outputTypes);

    const tensorflow::NodeDef& node() const { return m_node; }
    const tensorflow::OpDef& opDef() const { return m_opDef; }
    Device& device() const { return m_device; }
    const std::vector<DataType>& inputTypes() const { return m_inputTypes; }
    const std::vector<DataType>& outputTypes() const { return m_outputTypes; }
    /// Per input and output: kept in host memory on a device whose own memory the host cannot
    /// read (KernelDef::hostMemoryArgs: shapes, axes, ...). Empty means none.
    const std::vector<bool>& hostMemoryInputs() const { return m_hostInputs; }
    const std::vector<bool>& hostMemoryOutputs() const { return m_hostOutputs; }
    void setHostMemory(std::vector<bool> inputs, std::vector<bool> outputs)
    {
        m_hostInputs = std::move(inputs);
        m_hostOutputs = std::move(outputs);
    }

private:
    const tensorflow::NodeDef& m_node;
    const tensorflow::OpDef& m_opDef;
    Device& m_device;
    std::vector<DataType> m_inputTypes;
    std::vector<DataType> m_outputTypes;
    std::vector<bool> m_hostInputs;
    std::vector<bool> m_hostOutputs;
};

class OpKernel;

/// What a kernel's compute() sees for one execution: inputs, a place for outputs, the device,
/// and the session's resources. Created by the executor per node execution; not thread-safe
/// itself, but the device's thread pool may be used from inside compute().
class OpKernelContext {
public:
    struct Params {
        const OpKernel* kernel = nullptr;
        Device* device = nullptr;
        std::vector<TensorValue>* inputs = nullptr;
        ResourceManager* resources = nullptr;
        std::int64_t stepId = 0;
        /// The step's per-step container (in `resources`); null outside an executor step.
        const ScopedStepContainer* stepContainer = nullptr;
        /// For kernels that wait for another run (a dequeue on an empty queue): the step's
        /// RunOptions.timeout_in_ms deadline, and the session's flag set by Session::close().
        std::optional<std::chrono::steady_clock::time_point> deadline;
        const std::atomic<bool>* sessionClosed = nullptr;
        /// For function-call kernels: the session's function runtime and the call depth
        /// (function/function_runtime.h). Null outside a session step.
        const FunctionCallScope* functions = nullptr;
        /// Whether outputs may take over the buffer of an input nothing else holds
        /// (forwardInputOrAllocateOutput). The executor allows it for host-memory nodes of steps
        /// without an observer: the debugger shows a node's inputs after it ran.
        bool inputForwarding = false;
        /// Vectors the caller keeps between kernels for the outputs and their set flags (cleared and
        /// sized here), so that a context allocates nothing; null: the context's own.
        std::vector<TensorValue>* outputStorage = nullptr;
        std::vector<bool>* setStorage = nullptr;
    };

    explicit OpKernelContext(Params params);

    const OpKernel& kernel() const { return *m_params.kernel; }
    Device& device() const { return *m_params.device; }
    Allocator& allocator() const { return m_params.device->allocator(); }
    ResourceManager& resources() const { return *m_params.resources; }
    std::int64_t stepId() const { return m_params.stepId; }
    /// Where per-step resources (stacks) go; they are removed when the step ends. Null when the
    /// kernel runs outside a session step (runKernelOnce): such kernels fail with Internal.
    const ScopedStepContainer* stepContainer() const { return m_params.stepContainer; }
    /// When a waiting kernel must give up with DeadlineExceeded (nullopt: never).
    const std::optional<std::chrono::steady_clock::time_point>& deadline() const { return m_params.deadline; }
    /// True once the session is closing: a waiting kernel returns Cancelled.
    bool sessionClosed() const { return m_params.sessionClosed && m_params.sessionClosed->load(); }
    /// Whether sessionClosed() can ever become true (a waiter then checks it periodically).
    bool canBeClosed() const { return m_params.sessionClosed != nullptr; }
    /// The function runtime of the step (function-call kernels), or nullptr.
    const FunctionCallScope* functions() const { return m_params.functions; }

    int numInputs() const { return static_cast<int>(m_params.inputs->size()); }
    /// Input `i`'s value (for a ref input: the variable's tensor as it is now).
    const Tensor& input(int i) const { return (*m_params.inputs)[static_cast<std::size_t>(i)].get(); }
    bool inputIsRef(int i) const { return (*m_params.inputs)[static_cast<std::size_t>(i)].isRef(); }
    /// The referenced tensor of ref input `i` and its mutex (nullptr for a plain input).
    Tensor* mutableRefInput(int i) const { return (*m_params.inputs)[static_cast<std::size_t>(i)].ref; }
    std::mutex* refInputMutex(int i) const { return (*m_params.inputs)[static_cast<std::size_t>(i)].refMutex; }

    int numOutputs() const { return static_cast<int>(m_outputs.size()); }
    /// Allocates output `i` with the output's dtype on this device; in host memory when the
    /// kernel keeps that output there (OpKernel::outputInHostMemory). As TensorFlow's
    /// allocate_output, the elements are uninitialised (strings empty, handles default): the
    /// kernel writes every one of them (TSTUDIO_POISON_UNINITIALIZED shows when one does not).
    Expected<Tensor*> allocateOutput(int i, const TensorShape& shape);
    /// As allocateOutput, with every element zero: for kernels that write only some of them
    /// (scatters, the gradients of slicing and pooling ops).
    Expected<Tensor*> allocateZeroedOutput(int i, const TensorShape& shape);
    /// TensorFlow's forward_input_or_allocate_output: output `out` with `shape` in the buffer of the
    /// first of `candidates` that can give it up (a plain input, not a ref, of the output's dtype
    /// with numbers for elements, exactly this shape, in the memory the output goes to, and held by
    /// no other Tensor), else allocated as allocateOutput. Only when Params::inputForwarding allows.
    /// For kernels that compute element i from element i of their inputs (cwise ops): they then
    /// compute in place, reading the input through context.input() as it is overwritten.
    Expected<Tensor*> forwardInputOrAllocateOutput(std::initializer_list<int> candidates, int out,
                                                   const TensorShape& shape);
    /// Sets output `i`; InvalidArgument if its dtype is not the output's.
    Status setOutput(int i, Tensor value);
    /// Makes output `i` a ref to `ref` (VariableV2, Assign's output_ref).
    void setOutputRef(int i, Tensor* ref, std::mutex* mutex, const TensorShape* declaredShape = nullptr);
    /// The declared shape of the variable ref input `i` refers to, or nullptr.
    const TensorShape* refInputDeclaredShape(int i) const
    {
        return (*m_params.inputs)[static_cast<std::size_t>(i)].refDeclaredShape;
    }
    /// Passes ref input `in` through as ref output `out` (Assign, ApplyGradientDescent, RefSwitch...).
    void forwardRefInput(int in, int out);

    std::vector<TensorValue>& outputs() { return m_outputs; }
    /// True for the outputs set so far (control flow ops leave dead branches unset).
    bool outputIsSet(int i) const
    {
        return i >= 0 && static_cast<std::size_t>(i) < m_set.size() && m_set[static_cast<std::size_t>(i)];
    }

private:
    Expected<Tensor*> allocateOutput(int i, const TensorShape& shape, bool zeroFill);

    Params m_params;
    std::vector<TensorValue> m_ownOutputs;
    std::vector<bool> m_ownSet;
    std::vector<TensorValue>& m_outputs; ///< m_ownOutputs or Params::outputStorage
    std::vector<bool>& m_set;            ///< m_ownSet or Params::setStorage
};

/// The computation of one node on one device. Kernels are created once per node and session and
/// may keep state (a VariableV2 keeps its variable); the session never runs the kernel of a
/// stateful op (OpDef.is_stateful) concurrently with itself, other kernels may run concurrently.
class OpKernel {
public:
    explicit OpKernel(OpKernelConstruction& construction);
    virtual ~OpKernel();
    OpKernel(const OpKernel&) = delete;
    OpKernel& operator=(const OpKernel&) = delete;

    /// Computes the outputs. Errors are returned, never thrown; the executor prefixes the node
    /// name and op. Outputs left unset are "dead" (only control-flow ops do that on purpose).
    virtual Status compute(OpKernelContext& context) = 0;

    const tensorflow::NodeDef& node() const { return m_node; }
    const std::string& name() const { return m_node.name(); }
    const std::string& op() const { return m_node.op(); }
    const std::vector<DataType>& inputTypes() const { return m_inputTypes; }
    const std::vector<DataType>& outputTypes() const { return m_outputTypes; }
    int numOutputs() const { return static_cast<int>(m_outputTypes.size()); }
    /// Whether input/output `i` lives in host memory on a device with memory of its own (always
    /// true in effect on CPU devices, whose memory is host memory).
    bool inputInHostMemory(int i) const { return flagAt(m_hostInputs, i); }
    bool outputInHostMemory(int i) const { return flagAt(m_hostOutputs, i); }

private:
    static bool flagAt(const std::vector<bool>& flags, int i)
    {
        return i >= 0 && static_cast<std::size_t>(i) < flags.size() && flags[static_cast<std::size_t>(i)];
    }

    tensorflow::NodeDef m_node;
    std::vector<DataType> m_inputTypes;
    std::vector<DataType> m_outputTypes;
    std::vector<bool> m_hostInputs;
    std::vector<bool> m_hostOutputs;
};

} // namespace tstudio
