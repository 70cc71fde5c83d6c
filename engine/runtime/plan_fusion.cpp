// Plan fusions: lookups, the rules every fusion obeys, and pattern reading (see plan_fusion.h).
#include "runtime/plan_fusion.h"

#include <algorithm>

namespace tstudio {

int PlanFusions::count(const std::string& op) const
{
    return static_cast<int>(
        std::count_if(fusions.begin(), fusions.end(), [&](const PlanFusion& f) { return f.def.op() == op; }));
}

bool PlanFusions::isAbsorbed(NodeId id) const
{
    const PlanFusion* f = of(id);
    return f && f->anchor != id;
}

const PlanFusion* PlanFusions::of(NodeId id) const
{
    if (id < 0 || static_cast<std::size_t>(id) >= fusionOf.size() || fusionOf[static_cast<std::size_t>(id)] < 0)
        return nullptr;
    return &fusions[static_cast<std::size_t>(fusionOf[static_cast<std::size_t>(id)])];
}

int PlanFusions::fusedInput(const PlanFusion& fusion, NodeId member, int slot)
{
    for (std::size_t i = 0; i < fusion.inputs.size(); ++i)
        if (fusion.inputs[i] == std::make_pair(member, slot))
            return static_cast<int>(i);
    return -1;
}

int PlanFusions::fusedOutput(const PlanFusion& fusion, NodeId member)
{
    for (std::size_t i = 0; i < fusion.outputs.size(); ++i)
        if (fusion.outputs[i] == member)
            return static_cast<int>(i);
    return -1;
}

FusionScope::FusionScope(const Graph& graph, const std::vector<bool>& needed, const std::vector<int>& nodeFrame,
                         const std::set<TensorRef>& fed, const std::vector<TensorRef>& fetches,
                         const std::vector<NodeId>& keep, const NodeRuntimeLookup& lookup,
                         const std::vector<bool>* mergedOrMerging)
    : m_graph(graph), m_needed(needed), m_nodeFrame(nodeFrame), m_fed(fed), m_fetches(fetches), m_keep(keep),
      m_lookup(lookup), m_mergedOrMerging(mergedOrMerging)
{
}

bool FusionScope::named(NodeId id, bool allowFetchedOrTarget) const
{
    if (!allowFetchedOrTarget) {
        if (std::find(m_keep.begin(), m_keep.end(), id) != m_keep.end())
            return true;
        if (std::any_of(m_fetches.begin(), m_fetches.end(), [&](const TensorRef& t) { return t.first == id; }))
            return true;
    }
    return std::any_of(m_fed.begin(), m_fed.end(), [&](const TensorRef& t) { return t.first == id; });
}

bool FusionScope::admit(PlanFusion fusion, PlanFusions& into, bool anchorMayBeNamed) const
{
    if (into.fusionOf.empty())
        into.fusionOf.assign(static_cast<std::size_t>(m_graph.nodeCount()), -1);
    std::vector<NodeId> distinct = fusion.members;
    std::sort(distinct.begin(), distinct.end());
    if (fusion.members.empty() || fusion.members.front() != fusion.anchor ||
        std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end())
        return false;
    const int frame = m_nodeFrame[static_cast<std::size_t>(fusion.anchor)];
    int device = -1;
    for (NodeId id : fusion.members) {
        const auto index = static_cast<std::size_t>(id);
        if (!m_needed[index] || into.fusionOf[index] >= 0 || m_nodeFrame[index] < 0 || m_nodeFrame[index] != frame ||
            named(id, anchorMayBeNamed && id == fusion.anchor) || (m_mergedOrMerging && (*m_mergedOrMerging)[index]))
            return false;
        for (const GraphEdge& e : m_graph.inEdges(id))
            if (!e.isControl() && m_fed.count({e.src, e.srcOutput}) &&
                PlanFusions::fusedInput(fusion, id, e.dstInput) < 0)
                return false;
        auto runtime = m_lookup(id);
        if (!runtime || !runtime->kernel || !runtime->device || !runtime->device->hostMemory() ||
            (device >= 0 && runtime->deviceIndex != device))
            return false;
        device = runtime->deviceIndex;
    }
    for (NodeId id : fusion.members)
        into.fusionOf[static_cast<std::size_t>(id)] = static_cast<int>(into.fusions.size());
    into.ignoredControl.insert(fusion.ignoredControl.begin(), fusion.ignoredControl.end());
    into.fusions.push_back(std::move(fusion));
    return true;
}

std::optional<PatternReader::Source> PatternReader::input(NodeId id, int slot) const
{
    for (const GraphEdge& e : m_graph.inEdges(id))
        if (!e.isControl() && e.dstInput == slot)
            return Source{e.src, e.srcOutput};
    return std::nullopt;
}

bool PatternReader::readOnlyBy(NodeId id, NodeId consumer) const
{
    int edges = 0;
    for (const GraphEdge& e : m_graph.outEdges(id)) {
        if (e.isControl() || !m_needed[static_cast<std::size_t>(e.dst)])
            continue;
        if (e.dst != consumer || e.srcOutput != 0)
            return false;
        ++edges;
    }
    return edges == 1;
}

bool PatternReader::unread(NodeId id) const
{
    return std::none_of(m_graph.outEdges(id).begin(), m_graph.outEdges(id).end(), [&](const GraphEdge& e) {
        return !e.isControl() && m_needed[static_cast<std::size_t>(e.dst)];
    });
}

NodeId PatternReader::soleConsumer(NodeId id) const
{
    NodeId consumer = -1;
    for (const GraphEdge& e : m_graph.outEdges(id)) {
        if (e.isControl() || !m_needed[static_cast<std::size_t>(e.dst)])
            continue;
        if (consumer >= 0 || e.srcOutput != 0 || e.dstInput != 0)
            return -1;
        consumer = e.dst;
    }
    return consumer;
}

} // namespace tstudio
