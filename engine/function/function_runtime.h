// FunctionRuntime: a session's instantiated functions (body graph, kernels, executor plan, cached
// by name and attrs) and the running of one call on the caller's thread, resources and step.
#pragma once

#include "core/expected.h"
#include "framework/device.h"
#include "framework/tensor.h"
#include "function/function_instantiation.h"
#include "function/function_library.h"
#include "runtime/placer.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

class FunctionRuntime;
class KernelRegistry;
class OpKernel;
class OpKernelContext;
class OpRegistry;
class ResourceManager;

/// What a step tells the function-call kernels it runs (StepParams::functions, then
/// OpKernelContext::functions()): the runtime, how deep in calls the step is and the step's shared
/// record of a too-deep recursion. Owned by whoever runs the step; nested calls make their own.
struct FunctionCallScope {
    /// The first "called more than N deep" error of the step, so the outermost call can report it
    /// once instead of through every level's "node '...'" prefix. Thread-safe.
    struct RecursionRecord {
        std::mutex mutex;
        std::optional<Status> error;
    };

    FunctionRuntime* runtime = nullptr;
    int depth = 0; ///< 0: the session's graph; n: the body of the n-th nested call
    const std::atomic<bool>* sessionClosed = nullptr;
    RecursionRecord* recursion = nullptr;
};

/// The functions of one session. Instantiations are cached by (name, attrs) for the session's
/// lifetime; each holds its body Graph, placement, kernels (created once, so stateful body kernels
/// keep their state across calls) and executor plan (feeds: the `_Arg` outputs; fetches: the
/// results; targets: the control_ret nodes).
///
/// Threads: instantiate() and run() may be called from several threads at once; addLibrary() only
/// while nothing runs (Session::create/extend).
class FunctionRuntime {
public:
    /// Calls nest at most this deep; deeper is ResourceExhausted (recursion without a base case).
    static constexpr int kMaxCallDepth = 100;

    class Instance;
    using Handle = const Instance*;

    /// `ops`, `kernels` and `devices` must outlive the runtime. Bodies are placed on `devices` with
    /// `placement` (the session's options).
    FunctionRuntime(const OpRegistry& ops, const KernelRegistry& kernels, std::vector<Device*> devices,
                    PlacementOptions placement);
    ~FunctionRuntime();
    FunctionRuntime(const FunctionRuntime&) = delete;
    FunctionRuntime& operator=(const FunctionRuntime&) = delete;

    const FunctionLibrary& library() const { return m_library; }
    /// Adds a graph's functions (FunctionLibrary::add's errors).
    Status addLibrary(const tensorflow::FunctionDefLibrary& library);

    /// The instantiation of `target`, created on first use (instantiateFunction's errors, then
    /// the body's placement and kernel errors, prefixed "function 'f': ").
    Expected<Handle> instantiate(const FunctionCallTarget& target);
    /// The instantiation that call node `call` runs, checked against the node's input and output
    /// dtypes (for a partitioned call, Tin and Tout): InvalidArgument naming the function, the node
    /// and the argument, e.g. "node 'call' (op 'StatefulPartitionedCall'): function 'f' takes 2
    /// argument tensors (float, float), but Tin lists 1 (float)". NotFound for a missing function.
    Expected<Handle> instantiateCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                                     const std::vector<DataType>& outputTypes);
    /// instantiateCall's checks of the call against the function's signature (the function exists,
    /// its argument and result dtypes match the node's), without instantiating the body: what the
    /// session checks of every call node when a graph is created or extended. The body, and the ops
    /// it uses, are read when a run first reaches the call, as in TensorFlow.
    Status checkCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                     const std::vector<DataType>& outputTypes) const;
    const FunctionBody& body(Handle handle) const;
    /// The instantiation stored under `key`, built on first use from the body `make` returns: a
    /// body that is no library function's (the gradient body of SymbolicGradient). `key` must not
    /// be an instantiationKey() ("f[...]"); `make` runs at most once per key, under the runtime's
    /// lock, and must not call back into the runtime (library() is fine). Errors: make's, then the
    /// body's placement and kernel errors, prefixed "function '<body name>': ".
    Expected<Handle> instantiateBody(const std::string& key, const std::function<Expected<FunctionBody>()>& make);

    /// Runs `handle` with `args` on the calling thread, inside the caller's step: the caller's
    /// resources (so a resource argument reaches the caller's variables), per-step container, step
    /// id, deadline and session-closed flag; no tracing or observer. `scope` is the caller's;
    /// the body runs one level deeper. Errors: InvalidArgument for args of the wrong count or dtype
    /// ("function 'f' expects arg[0] to be float but double is provided") and for a result that is
    /// not computed; ResourceExhausted "function 'f' is called more than 100 deep ..." past
    /// kMaxCallDepth; the body's errors. `results` receives one tensor per result.
    Status run(Handle handle, const FunctionCallScope& scope, OpKernelContext& caller, const std::vector<Tensor>& args,
               std::vector<Tensor>* results);

    /// Runs `handle` with `args` on the calling thread without a calling kernel: for the functions
    /// of tf.data datasets (map, filter, interleave, ...), which iterators call both from
    /// IteratorGetNext and from their own background threads (ParallelMapDataset, PrefetchDataset).
    /// The body runs as a step of its own, as TensorFlow runs a dataset function: a fresh step id
    /// and per-step container in `resources` (removed when the call returns), no deadline, the
    /// session-closed flag and depth of `scope`. `callerName` names the dataset node in the
    /// too-deep error. Ref results are copied with the first device's allocator. Errors as run().
    /// `resources` and the runtime must outlive the call.
    Status runDetached(Handle handle, const FunctionCallScope& scope, ResourceManager& resources,
                       const std::string& callerName, const std::vector<Tensor>& args, std::vector<Tensor>* results);

private:
    Expected<std::unique_ptr<Instance>> build(FunctionBody body);

    const OpRegistry& m_ops;
    const KernelRegistry& m_kernels;
    std::vector<Device*> m_devices;
    PlacementOptions m_placement;
    FunctionLibrary m_library;
    std::mutex m_mutex; ///< guards m_instances
    std::map<std::string, std::unique_ptr<Instance>> m_instances;
};

/// The kernel for `node` on `device`: the function-call kernel when `node` calls a library
/// function by name, else the registry's kernel (KernelRegistry::createKernel).
Expected<std::unique_ptr<OpKernel>> createNodeKernel(const tensorflow::NodeDef& node, const FunctionLibrary& library,
                                                     const KernelRegistry& kernels, Device& device);

} // namespace tstudio
