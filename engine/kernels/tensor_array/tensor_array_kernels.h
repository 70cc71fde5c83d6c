// What the tensor_array family's kernel files share: the resource names TensorFlow gives arrays in
// the step's container, handle making and lookup, and the registration function of each file.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "framework/resource_handle.h"
#include "kernels/tensor_array/tensor_array_resource.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class KernelRegistry;

/// TensorArrayV3, TensorArrayGradV3, TensorArrayGradWithShape, TensorArraySizeV3, TensorArrayCloseV3
/// (tensor_array_creation_cpu.cpp).
Status registerTensorArrayCreationKernels(KernelRegistry& registry);
/// TensorArrayWriteV3, TensorArrayReadV3, TensorArrayGatherV3, TensorArrayScatterV3,
/// TensorArrayConcatV3, TensorArraySplitV3 (tensor_array_access_cpu.cpp).
Status registerTensorArrayAccessKernels(KernelRegistry& registry);

namespace tensor_array {

/// The resource-name prefix of forward arrays ("_tensor_arrays<name>_<n>") and of gradient arrays
/// ("_tensor_array_grads<forward name>@<source>"), TensorFlow's handle(0) strings.
inline constexpr std::string_view kArrayPrefix = "_tensor_arrays";
inline constexpr std::string_view kGradPrefix = "_tensor_array_grads";

inline std::uint64_t hashCode()
{
    static const std::uint64_t hash = resourceTypeHashCode(TensorArrayResource::kTypeName);
    return hash;
}

/// Output `index` of `ctx`: a scalar handle of the array `key` in the step's container.
inline Status setHandleOutput(OpKernelContext& ctx, int index, const std::string& container, const std::string& key)
{
    auto out = ctx.allocateOutput(index, TensorShape::scalar());
    if (!out)
        return out.error();
    ResourceHandle handle;
    handle.device = ctx.device().name();
    handle.container = container;
    handle.name = key;
    handle.hashCode = hashCode();
    handle.maybeTypeName = std::string(TensorArrayResource::kTypeName);
    (*out)->scalar<ResourceHandle>() = std::move(handle);
    return Status::ok();
}

/// The handle input 0 holds: one resource handle of a TensorArray.
inline Expected<ResourceHandle> handleFromInput(const OpKernelContext& ctx)
{
    const Tensor& t = ctx.input(0);
    if (t.dtype() != tensorflow::DT_RESOURCE || t.numElements() != 1)
        return unexpected(invalidArgumentError("the TensorArray handle must be one resource handle, got a " +
                                               dataTypeString(t.dtype()) + " tensor of shape " + t.shape().toString()));
    const ResourceHandle& handle = t.values<ResourceHandle>()[0];
    if (handle.hashCode != hashCode())
        return unexpected(invalidArgumentError("Trying to access resource using the wrong type. Expected " +
                                               handle.maybeTypeName + " got " +
                                               std::string(TensorArrayResource::kTypeName)));
    return handle;
}

/// The TensorArray `container`/`name` (TensorFlow's LookupResource wording when absent).
inline Expected<std::shared_ptr<TensorArrayResource>> lookup(const OpKernelContext& ctx, const std::string& container,
                                                             const std::string& name)
{
    auto array = ctx.resources().lookup<TensorArrayResource>(container, name);
    if (!array)
        return unexpected(notFoundError("Resource " + container + "/" + name + "/" +
                                        std::string(TensorArrayResource::kTypeName) + " does not exist."));
    return array;
}

/// The TensorArray input 0 names (GetTensorArray).
inline Expected<std::shared_ptr<TensorArrayResource>> fromInput(const OpKernelContext& ctx)
{
    auto handle = handleFromInput(ctx);
    if (!handle)
        return unexpected(handle.error());
    return lookup(ctx, handle->container, handle->name);
}

/// The flow input `index` passed through as the flow output (SetupFlowControlInputs).
inline Status passFlow(OpKernelContext& ctx, int flowInput)
{
    return ctx.setOutput(0, ctx.input(flowInput));
}

/// A scalar int32 input (an index): "TensorArray index must be scalar, but had shape: [2]".
inline Expected<std::int32_t> scalarIndex(const OpKernelContext& ctx, int input)
{
    const Tensor& t = ctx.input(input);
    if (t.rank() != 0)
        return unexpected(
            invalidArgumentError("TensorArray index must be scalar, but had shape: " + t.shape().toString()));
    return t.scalar<std::int32_t>();
}

/// The int32 vector input `input` (indices): "Expected indices to be a vector, but received shape: []".
inline Expected<std::vector<std::int32_t>> indexVector(const OpKernelContext& ctx, int input)
{
    const Tensor& t = ctx.input(input);
    if (t.rank() != 1)
        return unexpected(
            invalidArgumentError("Expected indices to be a vector, but received shape: " + t.shape().toString()));
    const auto values = t.values<std::int32_t>();
    return std::vector<std::int32_t>(values.begin(), values.end());
}

/// "TensorArray dtype is float but Op requested dtype int32." (reads) or "... but Op is trying to
/// write dtype int32." (writes).
inline Status checkDtype(const TensorArrayResource& array, DataType dtype, bool writing)
{
    if (dtype == array.elemType())
        return Status::ok();
    return invalidArgumentError("TensorArray dtype is " + dataTypeString(array.elemType()) +
                                (writing ? " but Op is trying to write dtype " : " but Op requested dtype ") +
                                dataTypeString(dtype) + ".");
}

} // namespace tensor_array
} // namespace tstudio
