// ResourceVariable: copy-on-write, handle validation and lookup in TensorFlow's words, ordered locking.
#include "kernels/state/resource_variable.h"

#include <algorithm>

namespace tstudio {

std::uint64_t ResourceVariable::typeHashCode()
{
    static const std::uint64_t hash = resourceTypeHashCode(kTypeName);
    return hash;
}

std::string ResourceVariable::debugString() const
{
    std::lock_guard lock(mutex);
    return dataTypeName(value.dtype()) + " " + value.shape().toString();
}

Status ResourceVariable::prepareToUpdate(OpKernelContext& ctx, const DeviceCopy& copier)
{
    if (!value.bufferIsShared())
        return Status::ok();
    auto copy = copier.clone(ctx, value);
    if (!copy)
        return copy.error();
    value = std::move(*copy);
    ctx.resources().noteVariableStorageReplaced();
    return Status::ok();
}

Expected<const ResourceHandle*> handleFromInput(const OpKernelContext& ctx, int i)
{
    const Tensor& t = ctx.input(i);
    if (t.dtype() != tensorflow::DT_RESOURCE || t.numElements() < 1) {
        return unexpected(invalidArgumentError("input " + std::to_string(i) + " must be a resource handle, got a " +
                                               dataTypeName(t.dtype()) + " tensor of shape " + t.shape().toString()));
    }
    return &t.values<ResourceHandle>()[0];
}

Status validateHandleDevice(const OpKernelContext& ctx, const ResourceHandle& handle)
{
    if (handle.device == ctx.device().name())
        return Status::ok();
    return invalidArgumentError("Trying to access resource " + handle.name + " located in device " + handle.device +
                                " from device " + ctx.device().name());
}

Status validateVariableHandle(const OpKernelContext& ctx, const ResourceHandle& handle)
{
    if (Status s = validateHandleDevice(ctx, handle); !s.isOk())
        return s;
    if (handle.hashCode != ResourceVariable::typeHashCode()) {
        return invalidArgumentError("Trying to access resource using the wrong type. Expected " + handle.maybeTypeName +
                                    " got " + std::string(ResourceVariable::kTypeName));
    }
    return Status::ok();
}

Expected<std::shared_ptr<ResourceVariable>> lookupVariable(const OpKernelContext& ctx, const ResourceHandle& handle)
{
    if (Status s = validateVariableHandle(ctx, handle); !s.isOk())
        return unexpected(s);
    auto variable = ctx.resources().lookup<ResourceVariable>(handle.container, handle.name);
    if (!variable) {
        return unexpected(notFoundError("Resource " + ResourceManager::containerOrDefault(handle.container) + "/" +
                                        handle.name + "/" + std::string(ResourceVariable::kTypeName) +
                                        " does not exist."));
    }
    return variable;
}

ResourceHandle makeVariableHandle(const Device& device, const std::string& container, const std::string& name,
                                  DataType dtype, const TensorShape& shape)
{
    ResourceHandle handle;
    handle.device = device.name();
    handle.container = ResourceManager::containerOrDefault(container);
    handle.name = name;
    handle.hashCode = ResourceVariable::typeHashCode();
    handle.maybeTypeName = std::string(ResourceVariable::kTypeName);
    handle.dtypesAndShapes = {{dtype, shape}};
    return handle;
}

std::string tensorflowStatusString(const Status& status)
{
    const char* name = "Unknown";
    switch (status.code()) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: name = "Cancelled"; break;
    case StatusCode::kUnknown: name = "Unknown"; break;
    case StatusCode::kInvalidArgument: name = "Invalid argument"; break;
    case StatusCode::kDeadlineExceeded: name = "Deadline exceeded"; break;
    case StatusCode::kNotFound: name = "Not found"; break;
    case StatusCode::kAlreadyExists: name = "Already exists"; break;
    case StatusCode::kPermissionDenied: name = "Permission denied"; break;
    case StatusCode::kResourceExhausted: name = "Resource exhausted"; break;
    case StatusCode::kFailedPrecondition: name = "Failed precondition"; break;
    case StatusCode::kAborted: name = "Aborted"; break;
    case StatusCode::kOutOfRange: name = "Out of range"; break;
    case StatusCode::kUnimplemented: name = "Unimplemented"; break;
    case StatusCode::kInternal: name = "Internal"; break;
    case StatusCode::kUnavailable: name = "Unavailable"; break;
    case StatusCode::kDataLoss: name = "Data loss"; break;
    }
    return std::string(name) + ": " + status.message();
}

Expected<LockedVariables> LockedVariables::lock(std::vector<std::shared_ptr<ResourceVariable>> variables,
                                                DataType dtype, OpKernelContext& ctx, const DeviceCopy& copier)
{
    LockedVariables result;
    std::vector<ResourceVariable*> distinct;
    for (const auto& v : variables)
        distinct.push_back(v.get());
    std::sort(distinct.begin(), distinct.end(),
              [](const ResourceVariable* a, const ResourceVariable* b) { return &a->mutex < &b->mutex; });
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (ResourceVariable* v : distinct)
        result.m_locks.emplace_back(v->mutex);

    for (ResourceVariable* v : distinct) {
        if (v->value.dtype() != dtype) {
            return unexpected(invalidArgumentError("Trying to update variable " + v->name() +
                                                   " with wrong dtype. Expected " + dataTypeString(dtype) + " got " +
                                                   dataTypeString(v->value.dtype())));
        }
        if (Status s = v->prepareToUpdate(ctx, copier); !s.isOk())
            return unexpected(s);
    }
    for (const auto& v : variables)
        result.m_values.push_back(v->value); // shares the variable's (now private) buffer
    result.m_variables = std::move(variables);
    return result;
}

} // namespace tstudio
