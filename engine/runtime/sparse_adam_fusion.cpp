// Sparse Adam fusion: finding TensorFlow 1.x's sparse Adam update in a plan (see sparse_adam_fusion.h).
#include "runtime/sparse_adam_fusion.h"

#include "framework/node_attrs.h"

#include <algorithm>
#include <optional>
#include <string>

namespace tstudio {

bool SparseAdamFusions::isAbsorbed(NodeId id) const
{
    const SparseAdamFusion* f = of(id);
    return f && f->anchor != id;
}

const SparseAdamFusion* SparseAdamFusions::of(NodeId id) const
{
    if (id < 0 || static_cast<std::size_t>(id) >= fusionOf.size() || fusionOf[static_cast<std::size_t>(id)] < 0)
        return nullptr;
    return &fusions[static_cast<std::size_t>(fusionOf[static_cast<std::size_t>(id)])];
}

int SparseAdamFusions::fusedInput(const SparseAdamFusion& fusion, NodeId member, int slot)
{
    for (std::size_t i = 0; i < fusion.inputs.size(); ++i)
        if (fusion.inputs[i] == std::make_pair(member, slot))
            return static_cast<int>(i);
    return -1;
}

int SparseAdamFusions::fusedOutput(const SparseAdamFusion& fusion, NodeId member)
{
    for (std::size_t i = 0; i < fusion.outputs.size(); ++i)
        if (fusion.outputs[i] == member)
            return static_cast<int>(i);
    return -1;
}

namespace {

using Source = std::pair<NodeId, int>; // a tensor: (producer, output)

class Matcher {
public:
    Matcher(const Graph& graph, const std::vector<bool>& needed) : m_graph(graph), m_needed(needed) {}

    const std::string& op(NodeId id) const { return m_graph.node(id).op(); }

    /// The data in-edge of `id` at input `slot`.
    std::optional<Source> input(NodeId id, int slot) const
    {
        for (const GraphEdge& e : m_graph.inEdges(id))
            if (!e.isControl() && e.dstInput == slot)
                return Source{e.src, e.srcOutput};
        return std::nullopt;
    }

    /// Whether the needed data consumers of `id` are exactly one edge into `consumer`.
    bool readOnlyBy(NodeId id, NodeId consumer) const
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

    /// Whether no needed node reads a value of `id` (control edges may leave it).
    bool unread(NodeId id) const
    {
        return std::none_of(m_graph.outEdges(id).begin(), m_graph.outEdges(id).end(), [&](const GraphEdge& e) {
            return !e.isControl() && m_needed[static_cast<std::size_t>(e.dst)];
        });
    }

    /// For a binary op: the input slot fed by output 0 of a node with op `wanted` (either side), or -1.
    int slotFrom(NodeId id, std::initializer_list<const char*> wanted) const
    {
        for (int slot : {0, 1}) {
            auto in = input(id, slot);
            if (in && in->second == 0 && std::any_of(wanted.begin(), wanted.end(), [&](const char* w) {
                    return op(in->first) == w;
                }))
                return slot;
        }
        return -1;
    }

    /// The Assign(slot, Mul(slot's value, decay)) that ScatterAdd `scatter` waits on: (assign, mul,
    /// decay slot of mul).
    std::optional<std::tuple<NodeId, NodeId, int>> decayOf(NodeId scatter, Source slotRef) const
    {
        for (const GraphEdge& e : m_graph.inEdges(scatter)) {
            if (!e.isControl() || op(e.src) != "Assign" || input(e.src, 0) != slotRef || !unread(e.src))
                continue;
            auto mul = input(e.src, 1);
            if (!mul || mul->second != 0 || op(mul->first) != "Mul" || !readOnlyBy(mul->first, e.src))
                continue;
            for (int valueSlot : {0, 1}) {
                auto value = input(mul->first, valueSlot);
                if (value && (*value == slotRef || (op(value->first) == "Identity" && value->second == 0 &&
                                                    input(value->first, 0) == slotRef)))
                    return std::make_tuple(e.src, mul->first, 1 - valueSlot);
            }
        }
        return std::nullopt;
    }

private:
    const Graph& m_graph;
    const std::vector<bool>& m_needed;
};

std::optional<SparseAdamFusion> matchAt(const Matcher& g, NodeId a)
{
    // AssignSub(var, RealDiv(Mul(lr, mT), Add(Sqrt(vT), epsilon)))
    auto varRef = g.input(a, 0);
    auto div = g.input(a, 1);
    if (!varRef || !div || div->second != 0 || g.op(div->first) != "RealDiv" || !g.readOnlyBy(div->first, a))
        return std::nullopt;
    const NodeId d = div->first;
    auto lrM = g.input(d, 0);
    auto denominator = g.input(d, 1);
    if (!lrM || !denominator || lrM->second != 0 || denominator->second != 0 || lrM->first == denominator->first)
        return std::nullopt;
    const NodeId l = lrM->first, e = denominator->first;
    if (g.op(l) != "Mul" || (g.op(e) != "Add" && g.op(e) != "AddV2") || !g.readOnlyBy(l, d) || !g.readOnlyBy(e, d))
        return std::nullopt;
    const int mSlotInL = g.slotFrom(l, {"ScatterAdd"});
    const int sqrtSlotInE = g.slotFrom(e, {"Sqrt"});
    if (mSlotInL < 0 || sqrtSlotInE < 0)
        return std::nullopt;
    const NodeId sm = g.input(l, mSlotInL)->first;
    const NodeId q = g.input(e, sqrtSlotInE)->first;
    auto vT = g.input(q, 0);
    if (!vT || vT->second != 0 || g.op(vT->first) != "ScatterAdd" || !g.readOnlyBy(q, e) || !g.readOnlyBy(sm, l))
        return std::nullopt;
    const NodeId sv = vT->first;
    if (!g.readOnlyBy(sv, q))
        return std::nullopt;
    auto mRef = g.input(sm, 0), vRef = g.input(sv, 0);
    auto indices = g.input(sm, 1);
    if (!mRef || !vRef || !indices || g.input(sv, 1) != indices || *mRef == *vRef || *mRef == *varRef ||
        *vRef == *varRef)
        return std::nullopt;
    auto mDecay = g.decayOf(sm, *mRef);
    auto vDecay = g.decayOf(sv, *vRef);
    if (!mDecay || !vDecay)
        return std::nullopt;
    const auto [am, mm, beta1Slot] = *mDecay;
    const auto [av, mv, beta2Slot] = *vDecay;

    SparseAdamFusion f;
    f.anchor = a;
    f.members = {a, d, l, e, q, sm, sv, am, mm, av, mv};
    std::vector<NodeId> distinct = f.members;
    std::sort(distinct.begin(), distinct.end());
    if (std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end())
        return std::nullopt;
    f.inputs[training::kFusedVar] = {a, 0};
    f.inputs[training::kFusedM] = {sm, 0};
    f.inputs[training::kFusedV] = {sv, 0};
    f.inputs[training::kFusedIndices] = {sm, 1};
    f.inputs[training::kFusedMUpdates] = {sm, 2};
    f.inputs[training::kFusedVUpdates] = {sv, 2};
    f.inputs[training::kFusedBeta1] = {mm, beta1Slot};
    f.inputs[training::kFusedBeta2] = {mv, beta2Slot};
    f.inputs[training::kFusedLr] = {l, 1 - mSlotInL};
    f.inputs[training::kFusedEpsilon] = {e, 1 - sqrtSlotInE};
    f.outputs = {a, sm, sv};
    return f;
}

/// The attributes the fused kernel needs, all members agreeing: T (float or double) and use_locking;
/// Tindices from the ScatterAdds.
bool fillDef(const Graph& graph, SparseAdamFusion& f)
{
    std::optional<DataType> t;
    std::optional<bool> locking;
    for (NodeId id : f.members) {
        const tensorflow::NodeDef& node = graph.node(id);
        auto type = attrType(node, "T");
        if (!type || (*type != tensorflow::DT_FLOAT && *type != tensorflow::DT_DOUBLE) || (t && *t != *type))
            return false;
        t = *type;
        if (node.attr().count("use_locking")) {
            auto value = attrBool(node, "use_locking");
            if (!value || (locking && *locking != *value))
                return false;
            locking = *value;
        }
    }
    const tensorflow::NodeDef& anchor = graph.node(f.anchor);
    const tensorflow::NodeDef& scatterM = graph.node(f.outputs[1]);
    auto tindices = attrType(scatterM, "Tindices");
    if (!tindices || !locking)
        return false;
    f.def.set_name(anchor.name());
    f.def.set_op(training::kFusedSparseAdamOp);
    f.def.set_device(anchor.device());
    for (const auto& [member, slot] : f.inputs)
        f.def.add_input(graph.node(member).input(slot));
    (*f.def.mutable_attr())["T"].set_type(*t);
    (*f.def.mutable_attr())["Tindices"].set_type(*tindices);
    (*f.def.mutable_attr())["use_locking"].set_b(*locking);
    (*f.def.mutable_attr())["_scatter_m"].set_s(scatterM.name());
    return true;
}

} // namespace

SparseAdamFusions findSparseAdamFusions(const Graph& graph, const std::vector<bool>& needed,
                                        const std::vector<int>& nodeFrame, const std::set<TensorRef>& fed,
                                        const std::vector<TensorRef>& fetches, const std::vector<NodeId>& keep,
                                        const NodeRuntimeLookup& lookup, const std::vector<bool>* mergedOrMerging)
{
    SparseAdamFusions result;
    result.fusionOf.assign(static_cast<std::size_t>(graph.nodeCount()), -1);
    const Matcher matcher(graph, needed);
    auto named = [&](NodeId id) {
        if (std::find(keep.begin(), keep.end(), id) != keep.end())
            return true;
        if (std::any_of(fetches.begin(), fetches.end(), [&](const TensorRef& t) { return t.first == id; }))
            return true;
        if (std::any_of(fed.begin(), fed.end(), [&](const TensorRef& t) { return t.first == id; }))
            return true;
        const auto& in = graph.inEdges(id);
        return std::any_of(in.begin(), in.end(),
                           [&](const GraphEdge& e) { return !e.isControl() && fed.count({e.src, e.srcOutput}) > 0; });
    };
    for (NodeId a = 0; a < graph.nodeCount(); ++a) {
        if (!needed[static_cast<std::size_t>(a)] || graph.node(a).op() != "AssignSub" ||
            result.fusionOf[static_cast<std::size_t>(a)] >= 0)
            continue;
        auto fusion = matchAt(matcher, a);
        if (!fusion || !fillDef(graph, *fusion))
            continue;
        bool ok = true;
        int device = -1;
        for (NodeId id : fusion->members) {
            const auto index = static_cast<std::size_t>(id);
            if (!needed[index] || result.fusionOf[index] >= 0 || nodeFrame[index] < 0 ||
                nodeFrame[index] != nodeFrame[static_cast<std::size_t>(a)] || named(id) ||
                (mergedOrMerging && (*mergedOrMerging)[index])) {
                ok = false;
                break;
            }
            auto runtime = lookup(id);
            if (!runtime || !runtime->kernel || !runtime->device || !runtime->device->hostMemory() ||
                (device >= 0 && runtime->deviceIndex != device)) {
                ok = false;
                break;
            }
            device = runtime->deviceIndex;
        }
        if (!ok)
            continue;
        for (NodeId id : fusion->members)
            result.fusionOf[static_cast<std::size_t>(id)] = static_cast<int>(result.fusions.size());
        result.fusions.push_back(std::move(*fusion));
    }
    return result;
}

} // namespace tstudio
