// LocalFunctionRuntime: the session's FunctionRuntime. Each instantiation holds its body Graph,
// placement, kernels (created once, so stateful body kernels keep their state across calls) and
// executor plan (feeds: the `_Arg` outputs; fetches: the results; targets: the control_ret nodes),
// and runs as a nested executor step of its caller.
#pragma once

#include "function/function_runtime.h"
#include "runtime/placer.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tstudio {

class KernelRegistry;
class OpKernel;
class OpRegistry;

class LocalFunctionRuntime final : public FunctionRuntime {
public:
    /// `ops`, `kernels` and `devices` must outlive the runtime. Bodies are placed on `devices` with
    /// `placement` (the session's options).
    LocalFunctionRuntime(const OpRegistry& ops, const KernelRegistry& kernels, std::vector<Device*> devices,
                         PlacementOptions placement);
    ~LocalFunctionRuntime() override;
    LocalFunctionRuntime(const LocalFunctionRuntime&) = delete;
    LocalFunctionRuntime& operator=(const LocalFunctionRuntime&) = delete;

    const FunctionLibrary& library() const override { return m_library; }
    Status addLibrary(const tensorflow::FunctionDefLibrary& library) override;
    Expected<Handle> instantiate(const FunctionCallTarget& target) override;
    Expected<Handle> instantiateCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                                     const std::vector<DataType>& outputTypes) override;
    Status checkCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                     const std::vector<DataType>& outputTypes) const override;
    const FunctionBody& body(Handle handle) const override;
    Expected<Handle> instantiateBody(const std::string& key,
                                     const std::function<Expected<FunctionBody>()>& make) override;
    Status run(Handle handle, const FunctionCallScope& scope, OpKernelContext& caller, const std::vector<Tensor>& args,
               std::vector<Tensor>* results) override;
    Status runDetached(Handle handle, const FunctionCallScope& scope, ResourceManager& resources,
                       const std::string& callerName, const std::vector<Tensor>& args,
                       std::vector<Tensor>* results) override;

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
