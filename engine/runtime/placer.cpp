// Placer: colocation groups (union-find), merged device specifications, kernel support, and TF's errors.
#include "runtime/placer.h"

#include "core/log.h"
#include "framework/device_name.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "runtime/control_flow_primitives.h"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <set>

namespace tstudio {
namespace {

class UnionFind {
public:
    explicit UnionFind(int n) : m_parent(static_cast<std::size_t>(n))
    {
        std::iota(m_parent.begin(), m_parent.end(), 0);
    }
    int find(int x)
    {
        while (m_parent[static_cast<std::size_t>(x)] != x) {
            m_parent[static_cast<std::size_t>(x)] =
                m_parent[static_cast<std::size_t>(m_parent[static_cast<std::size_t>(x)])];
            x = m_parent[static_cast<std::size_t>(x)];
        }
        return x;
    }
    void unite(int a, int b)
    {
        a = find(a);
        b = find(b);
        if (a != b)
            m_parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }

private:
    std::vector<int> m_parent;
};

/// Devices of this type are preferred over others when a node could go to several (GPU first).
int typePriority(const std::string& type)
{
    if (type == "GPU")
        return 2;
    if (type == "CPU")
        return 1;
    return 0;
}

std::string specText(const DeviceName& name)
{
    std::string text = name.toString();
    return text;
}

/// Merges `other` into `target` as TensorFlow's DeviceNameUtils::MergeDevNames: a part set in
/// both must agree; with soft placement a disagreeing part is cleared instead.
Status mergeSpec(DeviceName& target, const DeviceName& other, bool soft)
{
    const DeviceName before = target;
    auto mergePart = [&](auto& mine, const auto& theirs, const char* what) -> Status {
        if (!theirs)
            return Status::ok();
        if (!mine) {
            mine = theirs;
            return Status::ok();
        }
        if (*mine == *theirs)
            return Status::ok();
        if (soft) {
            mine.reset();
            return Status::ok();
        }
        return invalidArgumentError(std::string("Cannot merge devices with incompatible ") + what + ": '" +
                                    specText(before) + "' and '" + specText(other) + "'");
    };
    for (Status s : {mergePart(target.job, other.job, "jobs"), mergePart(target.replica, other.replica, "replicas"),
                     mergePart(target.task, other.task, "tasks"), mergePart(target.type, other.type, "types"),
                     mergePart(target.id, other.id, "ids")}) {
        if (!s.isOk())
            return s;
    }
    return Status::ok();
}

struct Group {
    std::vector<NodeId> members; // in graph order
    DeviceName spec;
    NodeId firstRequester = -1; // the first member with a NodeDef.device
    int pinned = -1;
};

Status cannotAssign(const tensorflow::NodeDef& node, const std::string& why)
{
    return invalidArgumentError("Cannot assign a device for operation '" + node.name() + "': " + why);
}

/// One line per cluster task named by a newly placed node (tasks that earlier placed nodes named
/// were stated when those were placed), in the order the graph first names them.
void logClusterMapping(const std::vector<std::optional<ClusterTask>>& tasks, const std::vector<int>& placement,
                       const std::vector<PlacementDevice>& devices, const ClusterRanks& ranks,
                       const std::vector<int>& previous)
{
    auto placedBefore = [&](std::size_t id) { return id < previous.size() && previous[id] >= 0; };
    std::set<std::string> stated;
    for (std::size_t id = 0; id < tasks.size(); ++id)
        if (tasks[id] && placedBefore(id))
            stated.insert(tasks[id]->key());
    std::vector<std::pair<ClusterTask, std::vector<std::string>>> lines;
    for (std::size_t id = 0; id < tasks.size(); ++id) {
        if (!tasks[id] || placedBefore(id) || stated.count(tasks[id]->key()))
            continue;
        auto line = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == *tasks[id]; });
        if (line == lines.end()) {
            lines.emplace_back(*tasks[id], std::vector<std::string>{});
            line = std::prev(lines.end());
        }
        const std::string& device = devices[static_cast<std::size_t>(placement[id])].name;
        if (std::find(line->second.begin(), line->second.end(), device) == line->second.end())
            line->second.push_back(device);
    }
    for (const auto& [task, where] : lines)
        logInfo("placement", clusterMappingLine(task, where, ranks));
}

/// Why a group whose members ask for a device (group.firstRequester) cannot have it without soft
/// placement, in TensorFlow's words.
Status unsatisfiedSpec(const Graph& graph, const Group& group, const std::vector<DeviceName>& specs,
                       const std::vector<DeviceName>& deviceNames, const std::vector<PlacementDevice>& devices)
{
    const NodeId reporter = group.firstRequester;
    const tensorflow::NodeDef& node = graph.node(reporter);
    const DeviceName& own = specs[static_cast<std::size_t>(reporter)];
    const bool anyDeviceMatches = std::any_of(deviceNames.begin(), deviceNames.end(),
                                              [&](const DeviceName& d) { return d.matches(group.spec); });
    if (!(own == group.spec)) {
        return cannotAssign(node, "Could not satisfy explicit device specification '" + node.device() +
                                      "' because the node was colocated with a group of nodes that required "
                                      "incompatible device '" +
                                      specText(group.spec) + "'");
    }
    if (!anyDeviceMatches) {
        std::vector<std::string> names;
        for (const PlacementDevice& d : devices)
            names.push_back(d.name);
        std::sort(names.begin(), names.end());
        std::string list;
        for (const std::string& name : names)
            list += (list.empty() ? "" : ", ") + name;
        return cannotAssign(node, "Operation was explicitly assigned to " + node.device() +
                                      " but available devices are [ " + list +
                                      " ]. Make sure the device specification refers to a valid device.");
    }
    if (group.spec.type) {
        return cannotAssign(node, "Could not satisfy explicit device specification '" + node.device() +
                                      "' because no supported kernel for " + *group.spec.type +
                                      " devices is available.");
    }
    return cannotAssign(node, "Could not satisfy explicit device specification '" + node.device() + "'");
}

} // namespace

Expected<std::vector<int>> placeGraph(const Graph& graph, const OpRegistry& ops, const KernelRegistry& kernels,
                                      const std::vector<PlacementDevice>& devices, const PlacementOptions& options,
                                      const std::vector<int>& previous)
{
    const int n = graph.nodeCount();
    if (devices.empty())
        return unexpected(invalidArgumentError("No devices to place the graph on"));

    std::vector<DeviceName> specs(static_cast<std::size_t>(n));
    std::vector<std::optional<ClusterTask>> clusterTasks(static_cast<std::size_t>(n));
    UnionFind groups(n);
    for (NodeId id = 0; id < n; ++id) {
        const tensorflow::NodeDef& node = graph.node(id);
        auto spec = parseDeviceName(node.device());
        if (!spec)
            return unexpected(invalidArgumentError("Malformed device specification '" + node.device() + "' in node '" +
                                                   node.name() + "': " + spec.error().message()));
        // A cluster task's job/replica/task name no device of this process: the rest is matched.
        clusterTasks[static_cast<std::size_t>(id)] = clusterTaskOf(*spec);
        specs[static_cast<std::size_t>(id)] = localizedSpec(*spec);

        if (const tensorflow::AttrValue* cls = findAttr(node, "_class")) {
            for (const std::string& entry : cls->list().s()) {
                if (entry.rfind("loc:@", 0) != 0)
                    continue;
                const std::string other = entry.substr(5);
                auto otherId = graph.findNode(other);
                if (!otherId)
                    return unexpected(invalidArgumentError("Node '" + node.name() + "' is colocated with '" + other +
                                                           "' (_class 'loc:@" + other +
                                                           "'), but the graph has no node of that name"));
                groups.unite(id, *otherId);
            }
        }
        if (const OpRegistration* op = ops.find(node.op())) {
            auto inputTypes = inputTypesForNode(op->opDef, node);
            if (!inputTypes)
                continue;
            for (const GraphEdge& e : graph.inEdges(id)) {
                if (e.isControl() || e.dstInput >= static_cast<int>(inputTypes->size()))
                    continue;
                const DataType t = (*inputTypes)[static_cast<std::size_t>(e.dstInput)];
                if (isRefType(t) || t == tensorflow::DT_RESOURCE)
                    groups.unite(id, e.src);
            }
        }
    }

    std::vector<Group> groupList;
    std::vector<int> groupOf(static_cast<std::size_t>(n), -1);
    for (NodeId id = 0; id < n; ++id) {
        const int root = groups.find(id);
        if (groupOf[static_cast<std::size_t>(root)] < 0) {
            groupOf[static_cast<std::size_t>(root)] = static_cast<int>(groupList.size());
            groupList.emplace_back();
        }
        groupList[static_cast<std::size_t>(groupOf[static_cast<std::size_t>(root)])].members.push_back(id);
    }

    std::set<std::string> deviceTypes;
    for (const PlacementDevice& d : devices)
        deviceTypes.insert(d.type);
    std::vector<DeviceName> deviceNames;
    for (const PlacementDevice& d : devices) {
        auto parsed = parseDeviceName(d.name);
        if (!parsed)
            return unexpected(parsed.error());
        deviceNames.push_back(*parsed);
    }

    std::vector<int> placement(static_cast<std::size_t>(n), -1);
    for (Group& group : groupList) {
        // The merged specification and any earlier placement.
        for (NodeId id : group.members) {
            const tensorflow::NodeDef& node = graph.node(id);
            if (static_cast<std::size_t>(id) < previous.size() && previous[static_cast<std::size_t>(id)] >= 0 &&
                group.pinned < 0)
                group.pinned = previous[static_cast<std::size_t>(id)];
            if (node.device().empty())
                continue;
            if (Status s = mergeSpec(group.spec, specs[static_cast<std::size_t>(id)], options.allowSoftPlacement);
                !s.isOk()) {
                return unexpected(invalidArgumentError("Cannot colocate nodes '" +
                                                       graph.node(group.firstRequester).name() + "' and '" +
                                                       node.name() + "': " + s.message()));
            }
            if (group.firstRequester < 0)
                group.firstRequester = id;
        }

        // Device types with a kernel for every constrained member.
        std::set<std::string> supported = deviceTypes;
        NodeId limiting = -1;
        for (NodeId id : group.members) {
            const tensorflow::NodeDef& node = graph.node(id);
            if (primitiveKind(node.op()) != PrimitiveKind::kNone || kernels.kernelsFor(node.op()).empty())
                continue;
            for (auto it = supported.begin(); it != supported.end();) {
                if (kernels.supports(node, *it)) {
                    ++it;
                } else {
                    it = supported.erase(it);
                    if (limiting < 0)
                        limiting = id;
                }
            }
            if (supported.empty()) {
                limiting = id;
                break;
            }
        }

        int chosen = -1;
        if (group.pinned >= 0) {
            chosen = group.pinned;
            if (!options.allowSoftPlacement && !deviceNames[static_cast<std::size_t>(chosen)].matches(group.spec)) {
                const tensorflow::NodeDef& node = graph.node(group.firstRequester);
                return unexpected(
                    cannotAssign(node, "Could not satisfy explicit device specification '" + node.device() +
                                           "' because the node is colocated with a node already placed on " +
                                           devices[static_cast<std::size_t>(chosen)].name));
            }
        } else {
            auto pick = [&](bool honourSpec) {
                int best = -1;
                for (std::size_t d = 0; d < devices.size(); ++d) {
                    if (honourSpec && !deviceNames[d].matches(group.spec))
                        continue;
                    if (!supported.count(devices[d].type))
                        continue;
                    if (best < 0 ||
                        typePriority(devices[d].type) > typePriority(devices[static_cast<std::size_t>(best)].type))
                        best = static_cast<int>(d);
                }
                return best;
            };
            chosen = pick(true);
            if (chosen < 0 && group.firstRequester >= 0 && !options.allowSoftPlacement)
                return unexpected(unsatisfiedSpec(graph, group, specs, deviceNames, devices));
            if (chosen < 0) {
                chosen = pick(false);
                if (chosen >= 0 && group.firstRequester >= 0) {
                    // allow_soft_placement: say why the requested device was not used.
                    const tensorflow::NodeDef& node = graph.node(group.firstRequester);
                    const bool anyDeviceMatches =
                        std::any_of(deviceNames.begin(), deviceNames.end(),
                                    [&](const DeviceName& d) { return d.matches(group.spec); });
                    logInfo("placement",
                            node.name() + ": (" + node.op() + "): requested '" + specText(group.spec) + "' " +
                                (anyDeviceMatches ? "has no kernel for every op colocated with it"
                                                  : "matches no device of this session") +
                                "; soft placement put it on " + devices[static_cast<std::size_t>(chosen)].name);
                }
            }
            if (chosen < 0) {
                const tensorflow::NodeDef& node = graph.node(limiting >= 0 ? limiting : group.members.front());
                auto found = kernels.find(node, devices.front().type);
                return unexpected(
                    cannotAssign(node, found ? std::string("no device can run it") : found.error().message()));
            }
        }
        for (NodeId id : group.members)
            placement[static_cast<std::size_t>(id)] = chosen;
    }

    if (options.logClusterMapping)
        logClusterMapping(clusterTasks, placement, devices, options.clusterRanks, previous);
    if (options.logDevicePlacement) {
        for (NodeId id = 0; id < n; ++id) {
            if (static_cast<std::size_t>(id) < previous.size() && previous[static_cast<std::size_t>(id)] >= 0)
                continue;
            const tensorflow::NodeDef& node = graph.node(id);
            logInfo("placement", node.name() + ": (" + node.op() + "): " +
                                     devices[static_cast<std::size_t>(placement[static_cast<std::size_t>(id)])].name);
        }
    }
    return placement;
}

Expected<std::vector<int>> placeGraph(const Graph& graph, const OpRegistry& ops, const KernelRegistry& kernels,
                                      const std::vector<Device*>& devices, const PlacementOptions& options,
                                      const std::vector<int>& previous)
{
    std::vector<PlacementDevice> described;
    described.reserve(devices.size());
    for (const Device* d : devices)
        described.push_back(PlacementDevice{d->name(), d->type()});
    return placeGraph(graph, ops, kernels, described, options, previous);
}

} // namespace tstudio
