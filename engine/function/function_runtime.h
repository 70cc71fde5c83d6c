// FunctionRuntime: a session's functions as the kernels that call them see them (instantiate, run on
// the caller's thread, resources and step); runtime/local_function_runtime.h implements it.
#pragma once

#include "core/expected.h"
#include "framework/device.h"
#include "framework/tensor.h"
#include "function/function_instantiation.h"
#include "function/function_library.h"

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
class OpKernelContext;
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

/// The functions of one session, as the function-call kernels and tf.data's dataset functions reach
/// them (TensorFlow's FunctionLibraryRuntime): instantiations cached by (name, attrs) for the
/// session's lifetime and run as nested steps of their caller. The runtime that builds and runs them
/// on the executor is runtime/local_function_runtime.h (LocalFunctionRuntime), made by the session.
///
/// Threads: instantiate() and run() may be called from several threads at once; addLibrary() only
/// while nothing runs (Session::create/extend).
class FunctionRuntime {
public:
    /// Calls nest at most this deep; deeper is ResourceExhausted (recursion without a base case).
    static constexpr int kMaxCallDepth = 100;

    /// One instantiated function (defined by the implementation).
    class Instance;
    using Handle = const Instance*;

    virtual ~FunctionRuntime() = default;

    virtual const FunctionLibrary& library() const = 0;
    /// Adds a graph's functions (FunctionLibrary::add's errors).
    virtual Status addLibrary(const tensorflow::FunctionDefLibrary& library) = 0;

    /// The instantiation of `target`, created on first use (instantiateFunction's errors, then
    /// the body's placement and kernel errors, prefixed "function 'f': ").
    virtual Expected<Handle> instantiate(const FunctionCallTarget& target) = 0;
    /// The instantiation that call node `call` runs, checked against the node's input and output
    /// dtypes (for a partitioned call, Tin and Tout): InvalidArgument naming the function, the node
    /// and the argument, e.g. "node 'call' (op 'StatefulPartitionedCall'): function 'f' takes 2
    /// argument tensors (float, float), but Tin lists 1 (float)". NotFound for a missing function.
    virtual Expected<Handle> instantiateCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                                             const std::vector<DataType>& outputTypes) = 0;
    /// instantiateCall's checks of the call against the function's signature (the function exists,
    /// its argument and result dtypes match the node's), without instantiating the body: what the
    /// session checks of every call node when a graph is created or extended. The body, and the ops
    /// it uses, are read when a run first reaches the call, as in TensorFlow.
    virtual Status checkCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                             const std::vector<DataType>& outputTypes) const = 0;
    virtual const FunctionBody& body(Handle handle) const = 0;
    /// The instantiation stored under `key`, built on first use from the body `make` returns: a
    /// body that is no library function's (the gradient body of SymbolicGradient). `key` must not
    /// be an instantiationKey() ("f[...]"); `make` runs at most once per key, under the runtime's
    /// lock, and must not call back into the runtime (library() is fine). Errors: make's, then the
    /// body's placement and kernel errors, prefixed "function '<body name>': ".
    virtual Expected<Handle> instantiateBody(const std::string& key,
                                             const std::function<Expected<FunctionBody>()>& make) = 0;

    /// Runs `handle` with `args` on the calling thread, inside the caller's step: the caller's
    /// resources (so a resource argument reaches the caller's variables), per-step container, step
    /// id, deadline and session-closed flag; no tracing or observer. `scope` is the caller's;
    /// the body runs one level deeper. Errors: InvalidArgument for args of the wrong count or dtype
    /// ("function 'f' expects arg[0] to be float but double is provided") and for a result that is
    /// not computed; ResourceExhausted "function 'f' is called more than 100 deep ..." past
    /// kMaxCallDepth; the body's errors. `results` receives one tensor per result.
    virtual Status run(Handle handle, const FunctionCallScope& scope, OpKernelContext& caller,
                       const std::vector<Tensor>& args, std::vector<Tensor>* results) = 0;

    /// Runs `handle` with `args` on the calling thread without a calling kernel: for the functions
    /// of tf.data datasets (map, filter, interleave, ...), which iterators call both from
    /// IteratorGetNext and from their own background threads (ParallelMapDataset, PrefetchDataset).
    /// The body runs as a step of its own, as TensorFlow runs a dataset function: a fresh step id
    /// and per-step container in `resources` (removed when the call returns), no deadline, the
    /// session-closed flag and depth of `scope`. `callerName` names the dataset node in the
    /// too-deep error. Ref results are copied with the first device's allocator. Errors as run().
    /// `resources` and the runtime must outlive the call.
    virtual Status runDetached(Handle handle, const FunctionCallScope& scope, ResourceManager& resources,
                               const std::string& callerName, const std::vector<Tensor>& args,
                               std::vector<Tensor>* results) = 0;
};

} // namespace tstudio
