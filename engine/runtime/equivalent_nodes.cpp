// findEquivalentNodes: Grappler's dedup of equivalent side-effect-free nodes, at plan time.
#include "runtime/equivalent_nodes.h"

#include "runtime/control_flow_info.h"

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tstudio {
namespace {

bool hasFunctionAttr(const tensorflow::NodeDef& node)
{
    return std::any_of(node.attr().begin(), node.attr().end(), [](const auto& entry) {
        const tensorflow::AttrValue& value = entry.second;
        return value.has_func() || (value.has_list() && value.list().func_size() > 0);
    });
}

/// The attributes sorted by name, each as its wire bytes: AttrValues (no maps once function
/// attributes are excluded) serialise the same way whenever they are equal.
std::vector<std::pair<std::string, std::string>> attrBytes(const tensorflow::NodeDef& node)
{
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(static_cast<std::size_t>(node.attr_size()));
    for (const auto& [name, value] : node.attr())
        out.emplace_back(name, value.SerializeAsString());
    std::sort(out.begin(), out.end());
    return out;
}

/// Whether `node` may be merged with an equivalent one at all (see the header).
bool mayMerge(const Graph& graph, NodeId id, const NodeRuntime& runtime,
              const std::unordered_set<std::string>& libraryFunctions)
{
    const tensorflow::NodeDef& node = graph.node(id);
    if (runtime.kernel == nullptr || runtime.kernelMutex != nullptr)
        return false; // a control-flow primitive, or a stateful op
    if (node.op().rfind("Placeholder", 0) == 0 || libraryFunctions.count(node.op()) || hasFunctionAttr(node))
        return false;
    return !hasRefOrResourceType(runtime.inputTypes) && !hasRefOrResourceType(runtime.outputTypes);
}

} // namespace

EquivalentNodes findEquivalentNodes(const Graph& graph, const std::vector<bool>& needed,
                                    const std::vector<int>& nodeFrame, const std::set<TensorRef>& fed,
                                    const std::vector<TensorRef>& fetches, const std::vector<NodeId>& keep,
                                    const NodeRuntimeLookup& lookup)
{
    const std::size_t count = static_cast<std::size_t>(graph.nodeCount());
    EquivalentNodes result;
    result.representative.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        result.representative[i] = static_cast<NodeId>(i);
    result.merged.resize(count);

    std::vector<bool> named(count, false); // fetched, fed or kept: the run refers to it by name
    for (const TensorRef& t : fetches)
        named[static_cast<std::size_t>(t.first)] = true;
    for (const TensorRef& t : fed)
        named[static_cast<std::size_t>(t.first)] = true;
    for (NodeId id : keep)
        named[static_cast<std::size_t>(id)] = true;
    std::unordered_set<std::string> libraryFunctions;
    for (const auto& function : graph.graphDef().library().function())
        libraryFunctions.insert(function.signature().name());

    // Candidates by a signature that equal nodes share (op, device, inputs, attribute names and a
    // hash of their values); attribute values are compared in full only within a bucket.
    std::unordered_map<std::string, std::vector<NodeId>> buckets;
    std::vector<NodeId> controls;
    for (NodeId id : graph.topologicalOrder()) {
        const std::size_t i = static_cast<std::size_t>(id);
        if (!needed[i] || named[i] || nodeFrame[i] != ControlFlowInfo::kRootFrame)
            continue;
        auto runtime = lookup(id);
        if (!runtime || !mayMerge(graph, id, *runtime, libraryFunctions))
            continue;
        const tensorflow::NodeDef& node = graph.node(id);
        std::string signature = node.op() + '|' + std::to_string(runtime->deviceIndex) + '|';
        std::vector<const GraphEdge*> data;
        controls.clear();
        for (const GraphEdge& e : graph.inEdges(id)) {
            if (!e.isControl())
                data.push_back(&e);
            else if (needed[static_cast<std::size_t>(e.src)])
                controls.push_back(result.representative[static_cast<std::size_t>(e.src)]);
        }
        std::sort(data.begin(), data.end(),
                  [](const GraphEdge* a, const GraphEdge* b) { return a->dstInput < b->dstInput; });
        for (const GraphEdge* e : data) {
            if (fed.count({e->src, e->srcOutput}))
                signature += 'F' + std::to_string(e->src);
            else
                signature += std::to_string(result.representative[static_cast<std::size_t>(e->src)]);
            signature += ':' + std::to_string(e->srcOutput) + ',';
        }
        std::sort(controls.begin(), controls.end());
        controls.erase(std::unique(controls.begin(), controls.end()), controls.end());
        signature += '|';
        for (NodeId c : controls)
            signature += '^' + std::to_string(c) + ',';
        signature += '|';
        const std::vector<std::pair<std::string, std::string>> attrs = attrBytes(node);
        for (const auto& [name, bytes] : attrs)
            signature += name + '=' + std::to_string(std::hash<std::string>{}(bytes)) + ',';

        std::vector<NodeId>& bucket = buckets[signature];
        const auto same = std::find_if(bucket.begin(), bucket.end(),
                                       [&](NodeId other) { return attrBytes(graph.node(other)) == attrs; });
        if (same == bucket.end()) {
            bucket.push_back(id);
            continue;
        }
        result.representative[i] = *same;
        result.merged[static_cast<std::size_t>(*same)].push_back(id);
        ++result.mergedCount;
    }
    return result;
}

} // namespace tstudio
