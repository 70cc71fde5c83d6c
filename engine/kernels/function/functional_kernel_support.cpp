// The functional control-flow kernels' shared pieces: func attrs, truthiness, calls and handles.
#include "kernels/function/functional_kernel_support.h"

#include "framework/node_def_validation.h"

namespace tstudio {

Expected<FunctionCallTarget> funcAttrTarget(const tensorflow::NodeDef& node, const std::string& attr)
{
    const tensorflow::AttrValue* value = findAttr(node, attr);
    if (!value || value->value_case() != tensorflow::AttrValue::kFunc || value->func().name().empty())
        return unexpected(invalidArgumentError("attr '" + attr + "' must name a function (a func value)"));
    FunctionCallTarget target;
    target.name = value->func().name();
    for (const auto& [name, inner] : value->func().attr())
        target.attrs.emplace(name, inner);
    return target;
}

Expected<AttrFunction> instantiateAttrFunction(FunctionRuntime& runtime, const tensorflow::NodeDef& node,
                                               const std::string& attr)
{
    auto target = funcAttrTarget(node, attr);
    if (!target)
        return unexpected(target.error());
    auto handle = runtime.instantiate(*target);
    if (!handle)
        return unexpected(handle.error().withContext(attr));
    return AttrFunction{target->name, *handle, &runtime.body(*handle)};
}

Expected<bool> tensorToBool(const Tensor& t)
{
    if (t.shape().rank() != 0)
        return t.numElements() > 0;
    switch (t.dtype()) {
    case tensorflow::DT_BOOL: return t.values<bool>()[0];
    case tensorflow::DT_FLOAT: return t.values<float>()[0] != 0.0f;
    case tensorflow::DT_DOUBLE: return t.values<double>()[0] != 0.0;
    case tensorflow::DT_INT32: return t.values<std::int32_t>()[0] != 0;
    case tensorflow::DT_INT64: return t.values<std::int64_t>()[0] != 0;
    case tensorflow::DT_INT16: return t.values<std::int16_t>()[0] != 0;
    case tensorflow::DT_INT8: return t.values<std::int8_t>()[0] != 0;
    case tensorflow::DT_UINT8: return t.values<std::uint8_t>()[0] != 0;
    case tensorflow::DT_STRING: return !t.strings()[0].empty();
    default: return unexpected(invalidArgumentError(dataTypeName(t.dtype()) + " cannot be converted to a boolean"));
    }
}

std::vector<Tensor> kernelInputs(OpKernelContext& context, int first)
{
    std::vector<Tensor> args;
    for (int i = first; i < context.numInputs(); ++i) {
        std::unique_lock<std::mutex> lock;
        if (std::mutex* mutex = context.refInputMutex(i))
            lock = std::unique_lock(*mutex);
        args.push_back(context.input(i));
    }
    return args;
}

Status callFunction(OpKernelContext& context, FunctionRuntime::Handle handle, const std::vector<Tensor>& args,
                    std::vector<Tensor>* results)
{
    const FunctionCallScope* scope = context.functions();
    Status status = scope->runtime->run(handle, *scope, context, args, results);
    if (!status.isOk() && scope->depth == 0 && scope->recursion) {
        std::lock_guard lock(scope->recursion->mutex);
        if (scope->recursion->error)
            return *scope->recursion->error;
    }
    return status;
}

Expected<FunctionRuntime*> stepRuntime(OpKernelContext& context)
{
    const FunctionCallScope* scope = context.functions();
    if (!scope || !scope->runtime)
        return unexpected(
            failedPreconditionError(context.kernel().op() + " runs only inside a session step (no function runtime)"));
    return scope->runtime;
}

Expected<std::vector<FunctionRuntime::Handle>> FunctionHandles::get(FunctionRuntime& runtime, const Resolver& resolve)
{
    std::lock_guard lock(m_mutex);
    if (m_runtime != &runtime) {
        auto handles = resolve(runtime);
        if (!handles)
            return unexpected(handles.error());
        m_runtime = &runtime;
        m_handles = std::move(*handles);
    }
    return m_handles;
}

Status checkFunctionTypes(const std::string& role, const std::string& function, const std::string& what,
                          const std::vector<DataType>& functionTypes, const std::string& nodeSide,
                          const std::vector<DataType>& nodeTypes)
{
    const std::string subject = role + " function '" + function + "' " + what + " ";
    if (functionTypes.size() != nodeTypes.size())
        return invalidArgumentError(subject + std::to_string(functionTypes.size()) + " tensors (" +
                                    dataTypeListString(functionTypes) + "), but " + nodeSide + " lists " +
                                    std::to_string(nodeTypes.size()) + " (" + dataTypeListString(nodeTypes) + ")");
    for (std::size_t i = 0; i < nodeTypes.size(); ++i)
        if (functionTypes[i] != baseType(nodeTypes[i]))
            return invalidArgumentError(subject + "tensor " + std::to_string(i) + " as " +
                                        dataTypeString(functionTypes[i]) + ", but " + nodeSide + "[" +
                                        std::to_string(i) + "] is " + dataTypeString(baseType(nodeTypes[i])));
    return Status::ok();
}

} // namespace tstudio
