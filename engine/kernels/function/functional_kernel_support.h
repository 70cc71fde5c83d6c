// What the functional control-flow kernels (If, While, SymbolicGradient) share: the functions named
// by their func attrs, instantiated once per runtime, and calls of them on the kernel's thread.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "function/function_runtime.h"

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace tstudio {

/// The function a func-valued attr of `node` names, with the attr's own attrs (an If's
/// then_branch, a While's body). InvalidArgument "attr 'body' must name a function (a func value)".
Expected<FunctionCallTarget> funcAttrTarget(const tensorflow::NodeDef& node, const std::string& attr);

/// A function a func attr names, instantiated on a runtime.
struct AttrFunction {
    std::string name;                ///< the function's name (the attr's func value)
    FunctionRuntime::Handle handle = nullptr;
    const FunctionBody* body = nullptr; ///< runtime.body(handle): its argument and result dtypes
};

/// The function func attr `attr` of `node` names, instantiated on `runtime` (If's branches, While's
/// cond and body): funcAttrTarget's errors, then instantiate's prefixed with the attr's name.
Expected<AttrFunction> instantiateAttrFunction(FunctionRuntime& runtime, const tensorflow::NodeDef& node,
                                               const std::string& attr);

/// TensorFlow's truthiness of a cond tensor: a scalar bool is itself; a scalar number (float,
/// double, int8/16/32/64, uint8) is true when non-zero; a scalar string when non-empty; a tensor of
/// any other shape when it has elements. InvalidArgument "<dtype> cannot be converted to a boolean"
/// for a scalar of another dtype.
Expected<bool> tensorToBool(const Tensor& t);

/// The kernel's inputs [first, numInputs()) as function arguments (a ref input read under its mutex).
std::vector<Tensor> kernelInputs(OpKernelContext& context, int first = 0);

/// Runs `handle` with `args` through the step's runtime, as a call from `context`'s node. A runaway
/// recursion is reported once by the outermost call (as the function-call kernel does).
Status callFunction(OpKernelContext& context, FunctionRuntime::Handle handle, const std::vector<Tensor>& args,
                    std::vector<Tensor>* results);

/// The step's function runtime, or FailedPrecondition "<op> runs only inside a session step".
Expected<FunctionRuntime*> stepRuntime(OpKernelContext& context);

/// Handles a kernel resolves once per runtime (a session has one; a kernel is created per session,
/// but a function body's kernel is shared by every call of that body). Thread-safe; the lock is not
/// held while functions run, so a recursive call of the same kernel finds the handles.
class FunctionHandles {
public:
    using Resolver = std::function<Expected<std::vector<FunctionRuntime::Handle>>(FunctionRuntime&)>;
    Expected<std::vector<FunctionRuntime::Handle>> get(FunctionRuntime& runtime, const Resolver& resolve);

private:
    std::mutex m_mutex;
    FunctionRuntime* m_runtime = nullptr;
    std::vector<FunctionRuntime::Handle> m_handles;
};

/// Checks the dtypes a function takes or returns against what the node gives or expects:
/// InvalidArgument "then_branch function 'f' takes 2 tensors (float, int32), but Tin lists 1
/// (float)" / "... argument 1 is int32, but Tin[1] is float". `role` names the attr ("body"),
/// `what` "takes"/"returns", `nodeSide` the node's list ("Tin", "T").
Status checkFunctionTypes(const std::string& role, const std::string& function, const std::string& what,
                          const std::vector<DataType>& functionTypes, const std::string& nodeSide,
                          const std::vector<DataType>& nodeTypes);

} // namespace tstudio
