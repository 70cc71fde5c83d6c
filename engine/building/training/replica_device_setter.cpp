// ReplicaDeviceSetter: TensorFlow 1.15's _ReplicaDeviceChooser (device merging, round-robin ps
// tasks) and the device scopes that give a built model the same devices.
#include "training/replica_device_setter.h"

#include "framework/device_name.h"

#include <algorithm>
#include <memory>

namespace tstudio::training {
namespace {

/// DeviceSpec.make_merged_spec: `over`'s set fields replace `base`'s.
DeviceName merged(DeviceName base, const DeviceName& over)
{
    if (over.job)
        base.job = over.job;
    if (over.replica)
        base.replica = over.replica;
    if (over.task)
        base.task = over.task;
    if (over.type)
        base.type = over.type;
    if (over.id)
        base.id = over.id;
    return base;
}

/// DeviceSpec.to_string: "/job:ps/replica:0/task:1/device:CPU:0", the parts set.
std::string specString(const DeviceName& name)
{
    return name.toString();
}

} // namespace

const std::vector<std::string>& standardPsOps()
{
    static const std::vector<std::string> ops = {"Variable",
                                                 "VariableV2",
                                                 "AutoReloadVariable",
                                                 "MutableHashTable",
                                                 "MutableHashTableV2",
                                                 "MutableHashTableOfTensors",
                                                 "MutableHashTableOfTensorsV2",
                                                 "MutableDenseHashTable",
                                                 "MutableDenseHashTableV2",
                                                 "VarHandleOp",
                                                 "BoostedTreesEnsembleResourceHandleOp",
                                                 "BoostedTreesQuantileStreamResourceHandleOp"};
    return ops;
}

Expected<std::optional<ReplicaDeviceSetter>> ReplicaDeviceSetter::create(ReplicaDeviceSetterOptions options)
{
    if (options.cluster) {
        const auto ps = options.cluster->find("ps");
        options.psTasks = ps == options.cluster->end() ? 0 : static_cast<int>(ps->second.size());
    }
    if (options.psTasks <= 0)
        return std::optional<ReplicaDeviceSetter>();
    for (const std::string* device : {&options.psDevice, &options.workerDevice})
        if (auto parsed = parseDeviceName(*device); !parsed)
            return unexpected(parsed.error());
    if (!options.psOps)
        options.psOps = standardPsOps();
    return std::optional<ReplicaDeviceSetter>(ReplicaDeviceSetter(std::move(options)));
}

Expected<std::string> ReplicaDeviceSetter::deviceFor(std::string_view opType, std::string_view current)
{
    if (!m_options.mergeDevices && !current.empty())
        return std::string(current);
    auto currentSpec = parseDeviceName(current);
    if (!currentSpec)
        return unexpected(currentSpec.error());
    const auto& psOps = *m_options.psOps;
    if (!m_options.psDevice.empty() && std::find(psOps.begin(), psOps.end(), opType) != psOps.end()) {
        auto ps = parseDeviceName(m_options.psDevice);
        if (!ps)
            return unexpected(ps.error());
        if (ps->job && (!currentSpec->job || currentSpec->job == ps->job)) {
            ps->task = m_nextTask;
            m_nextTask = (m_nextTask + 1) % m_options.psTasks;
        }
        return specString(merged(*ps, *currentSpec));
    }
    auto worker = parseDeviceName(m_options.workerDevice);
    if (!worker)
        return unexpected(worker.error());
    return specString(merged(*worker, *currentSpec));
}

Expected<ScopeGuard> ReplicaDeviceSetter::workerScope(GraphBuilder& b) const
{
    return b.device(m_options.workerDevice);
}

Expected<ScopeGuard> ReplicaDeviceSetter::variableScope(GraphBuilder& b)
{
    auto device = deviceFor("VariableV2", "");
    if (!device)
        return unexpected(device.error());
    auto cleared = std::make_shared<ScopeGuard>(b.clearDevice());
    auto scope = b.device(*device);
    if (!scope)
        return unexpected(scope.error());
    auto inner = std::make_shared<ScopeGuard>(std::move(*scope));
    return ScopeGuard("", [inner, cleared] {
        inner->close();
        cleared->close();
    });
}

} // namespace tstudio::training
