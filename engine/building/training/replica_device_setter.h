// ReplicaDeviceSetter: tf.train.replica_device_setter of TensorFlow 1.15, the device function that
// puts variables round-robin on the ps tasks of a cluster and every other op on the worker.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::training {

/// TensorFlow's STANDARD_PS_OPS: the ops whose device is a ps task.
const std::vector<std::string>& standardPsOps();

struct ReplicaDeviceSetterOptions {
    /// Number of ps tasks; 0 (and no "ps" job in `cluster`): no device function.
    int psTasks = 0;
    std::string psDevice = "/job:ps";
    std::string workerDevice = "/job:worker";
    /// merge_devices: an op's own device fields win over the setter's (TensorFlow's default).
    /// false: an op that already has a device keeps it untouched.
    bool mergeDevices = true;
    /// A ClusterSpec (job -> task addresses); when given, psTasks is the size of its "ps" job.
    std::optional<std::map<std::string, std::vector<std::string>>> cluster;
    /// Default: standardPsOps().
    std::optional<std::vector<std::string>> psOps;
};

/// The device function replica_device_setter returns (_ReplicaDeviceChooser) with the default
/// round-robin ps strategy. Used in three ways:
///  - deviceFunction() for `with tf.device(tf.train.replica_device_setter(...))`: GraphBuilder::device
///    with it places every op created inside as TensorFlow does;
///  - deviceFor(opType, current) is TensorFlow's device_function for one op, for code that assigns
///    devices to ops one by one (and for tests);
///  - workerScope() and variableScope() open the scopes that give a model's ops what the function
///    would: the worker device around the model, and for each variable (VariableV2 with its Assign,
///    read and initializer, which are colocated with it) the next ps task's device.
/// Not synchronised (the round-robin counter), as TensorFlow's.
class ReplicaDeviceSetter {
public:
    /// nullopt where TensorFlow returns None (no ps tasks). InvalidArgument for a device that does
    /// not parse.
    static Expected<std::optional<ReplicaDeviceSetter>> create(ReplicaDeviceSetterOptions options);

    /// device_function(op): for a ps op, the ps device with the next round-robin task (when its job
    /// is not overridden by `current`'s) merged with `current`; otherwise the worker device merged
    /// with `current`. Returns TensorFlow's string form ("/job:ps/task:1").
    Expected<std::string> deviceFor(std::string_view opType, std::string_view current);

    /// deviceFor as a device function for GraphBuilder::device (the setter must outlive the scope).
    GraphBuilder::DeviceFunction deviceFunction()
    {
        return [this](const tensorflow::NodeDef& node) { return deviceFor(node.op(), node.device()); };
    }
    /// with tf.device(worker_device).
    Expected<ScopeGuard> workerScope(GraphBuilder& b) const;
    /// The scope for the next variable: outer device scopes cleared, then the device deviceFor
    /// gives a VariableV2 (advancing the round robin).
    Expected<ScopeGuard> variableScope(GraphBuilder& b);

    int psTasks() const { return m_options.psTasks; }

private:
    explicit ReplicaDeviceSetter(ReplicaDeviceSetterOptions options) : m_options(std::move(options)) {}
    ReplicaDeviceSetterOptions m_options;
    int m_nextTask = 0;
};

} // namespace tstudio::training
