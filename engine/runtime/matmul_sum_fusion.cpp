// Weight-gradient sum fusion: finding AddN over transposed MatMuls in a plan (see matmul_sum_fusion.h).
#include "runtime/matmul_sum_fusion.h"

#include "framework/node_attrs.h"
#include "kernels/linalg/matmul_sum_cpu.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

bool flagIs(const tensorflow::NodeDef& node, const char* name, bool wanted)
{
    if (!node.attr().count(name))
        return !wanted; // MatMul's transpose attrs default to false
    auto value = attrBool(node, name);
    return value && *value == wanted;
}

bool typeIs(const tensorflow::NodeDef& node, DataType type)
{
    auto t = attrType(node, "T");
    return t && *t == type;
}

/// One summand of the AddN found to be a product: the MatMul, the tuple Identity between it and
/// the AddN (or -1), and the gate edges to leave out.
struct Product {
    NodeId matmul = -1;
    NodeId identity = -1;
    std::vector<std::pair<NodeId, NodeId>> gates;
};

class Finder {
public:
    Finder(const FusionScope& scope, const PlanFusions& into)
        : m_graph(scope.graph()), m_scope(scope), m_reader(scope.graph(), scope.neededNodes()), m_into(into)
    {
    }

    /// The summand at input `slot` of AddN `sum` as a product, or nullopt.
    std::optional<Product> productAt(NodeId sum, int slot, DataType type) const
    {
        auto in = m_reader.input(sum, slot);
        if (!in || in->second != 0)
            return std::nullopt;
        Product p;
        NodeId reader = sum;
        if (m_reader.op(in->first) == "Identity") {
            // tf.gradients' gate (GATE_OP, the optimizers' default): control_flow_ops.tuple makes
            // each gradient of a MatMul an Identity waiting on a NoOp that waits on both MatMuls.
            p.identity = in->first;
            if (!typeIs(m_graph.node(p.identity), type) || !m_reader.readOnlyBy(p.identity, sum) ||
                !noControlOut(p.identity))
                return std::nullopt;
            reader = p.identity;
            in = m_reader.input(p.identity, 0);
            if (!in || in->second != 0)
                return std::nullopt;
        }
        p.matmul = in->first;
        const tensorflow::NodeDef& m = m_graph.node(p.matmul);
        if (m.op() != "MatMul" || !typeIs(m, type) || !flagIs(m, "transpose_a", true) ||
            !flagIs(m, "transpose_b", false) || m_into.of(p.matmul) || !m_reader.readOnlyBy(p.matmul, reader) ||
            !m_reader.input(p.matmul, 0) || !m_reader.input(p.matmul, 1))
            return std::nullopt;
        // Control edges: into the Identity only from gates, out of the MatMul only to those gates,
        // none into the MatMul or out of the Identity (a node waiting on a summand would otherwise
        // wait for the whole sum, which may wait for it).
        for (const GraphEdge& e : m_graph.inEdges(p.matmul))
            if (e.isControl() && m_scope.needed(e.src))
                return std::nullopt;
        if (p.identity >= 0) {
            for (const GraphEdge& e : m_graph.inEdges(p.identity)) {
                if (!e.isControl() || !m_scope.needed(e.src))
                    continue;
                if (!isGateOf(e.src, p.matmul))
                    return std::nullopt;
                p.gates.emplace_back(e.src, p.identity);
                p.gates.emplace_back(p.matmul, e.src);
            }
        }
        for (const GraphEdge& e : m_graph.outEdges(p.matmul)) {
            if (!e.isControl() || !m_scope.needed(e.dst))
                continue;
            if (std::find(p.gates.begin(), p.gates.end(), std::make_pair(p.matmul, e.dst)) == p.gates.end())
                return std::nullopt;
        }
        return p;
    }

private:
    /// Whether no needed node waits on `id` through a control edge.
    bool noControlOut(NodeId id) const
    {
        for (const GraphEdge& e : m_graph.outEdges(id))
            if (e.isControl() && m_scope.needed(e.dst))
                return false;
        return true;
    }

    /// Whether `gate` is a NoOp outside every fusion whose inputs are all control edges, one of them
    /// from `matmul` (control_flow_ops.tuple's group_deps).
    bool isGateOf(NodeId gate, NodeId matmul) const
    {
        if (m_reader.op(gate) != "NoOp" || m_into.of(gate))
            return false;
        bool fromMatmul = false;
        for (const GraphEdge& e : m_graph.inEdges(gate)) {
            if (!e.isControl())
                return false;
            fromMatmul = fromMatmul || e.src == matmul;
        }
        return fromMatmul;
    }

    const Graph& m_graph;
    const FusionScope& m_scope;
    const PatternReader m_reader;
    const PlanFusions& m_into;
};

} // namespace

void findMatMulSumFusions(const FusionScope& scope, PlanFusions& into)
{
    const Graph& graph = scope.graph();
    const Finder finder(scope, into);
    for (NodeId sum = 0; sum < graph.nodeCount(); ++sum) {
        const tensorflow::NodeDef& sumDef = graph.node(sum);
        if (!scope.needed(sum) || sumDef.op() != "AddN" || into.of(sum))
            continue;
        auto type = attrType(sumDef, "T");
        auto count = attrInt(sumDef, "N");
        if (!type || (*type != tensorflow::DT_FLOAT && *type != tensorflow::DT_DOUBLE) || !count || *count < 2 ||
            *count > sumDef.input_size())
            continue;
        std::vector<Product> products;
        std::vector<int> productSlots, otherSlots;
        for (int slot = 0; slot < *count; ++slot) {
            auto product = finder.productAt(sum, slot, *type);
            (product ? productSlots : otherSlots).push_back(slot);
            if (product)
                products.push_back(std::move(*product));
        }
        // At most one further summand (a weight decay's gradient): the fused node's inputs are then
        // pairs and perhaps one more, which the profiler reads without its attrs.
        if (products.size() < 2 || otherSlots.size() > 1)
            continue;
        PlanFusion f;
        f.anchor = sum;
        f.members.push_back(sum);
        f.outputs = {sum};
        f.def.set_name(sumDef.name());
        f.def.set_op(linalg::kFusedMatMulSumOp);
        f.def.set_device(sumDef.device());
        auto& attrs = *f.def.mutable_attr();
        attrs["T"].set_type(*type);
        attrs["N"].set_i(static_cast<std::int64_t>(products.size()));
        auto* names = attrs["_products"].mutable_list();
        auto* slots = attrs["_slots"].mutable_list();
        for (const Product& p : products) {
            f.members.push_back(p.matmul);
            if (p.identity >= 0)
                f.members.push_back(p.identity);
            f.ignoredControl.insert(f.ignoredControl.end(), p.gates.begin(), p.gates.end());
            f.inputs.push_back({p.matmul, 0});
            f.inputs.push_back({p.matmul, 1});
            f.def.add_input(graph.node(p.matmul).input(0));
            f.def.add_input(graph.node(p.matmul).input(1));
            names->add_s(graph.node(p.matmul).name());
        }
        for (int slot : productSlots)
            slots->add_i(slot);
        for (int slot : otherSlots) {
            f.inputs.push_back({sum, slot});
            f.def.add_input(sumDef.input(slot));
            slots->add_i(slot);
        }
        f.makeKernel = linalg::makeMatMulSumKernel;
        scope.admit(std::move(f), into, true);
    }
}

} // namespace tstudio
