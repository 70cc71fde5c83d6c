// Sparse Adam fusion: finding TensorFlow 1.x's sparse Adam update in a plan (see sparse_adam_fusion.h).
#include "runtime/sparse_adam_fusion.h"

#include "framework/node_attrs.h"
#include "kernels/training/fused_sparse_adam_cpu.h"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

namespace tstudio {

namespace {

using Source = PatternReader::Source;

class Matcher : public PatternReader {
public:
    using PatternReader::PatternReader;

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
        for (const GraphEdge& e : graph().inEdges(scatter)) {
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

};

std::optional<PlanFusion> matchAt(const Matcher& g, NodeId a)
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

    PlanFusion f;
    f.anchor = a;
    f.members = {a, d, l, e, q, sm, sv, am, mm, av, mv};
    f.inputs.resize(training::kFusedInputCount);
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
bool fillDef(const Graph& graph, PlanFusion& f)
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
    f.makeKernel = training::makeFusedSparseAdamKernel;
    return true;
}

} // namespace

void findSparseAdamFusions(const FusionScope& scope, PlanFusions& into)
{
    const Graph& graph = scope.graph();
    const Matcher matcher(graph, scope.neededNodes());
    for (NodeId a = 0; a < graph.nodeCount(); ++a) {
        if (!scope.needed(a) || graph.node(a).op() != "AssignSub" || into.of(a))
            continue;
        auto fusion = matchAt(matcher, a);
        if (fusion && fillDef(graph, *fusion))
            scope.admit(std::move(*fusion), into);
    }
}

} // namespace tstudio
