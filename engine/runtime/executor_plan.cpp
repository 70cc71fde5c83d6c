// ExecutorPlan: pruning, frames, input slots, pending counts and edges of one run signature.
#include "runtime/executor_plan.h"

#include "runtime/control_flow_info.h"
#include "runtime/equivalent_nodes.h"
#include "runtime/contraction_fusion.h"
#include "runtime/matmul_sum_fusion.h"
#include "runtime/sparse_adam_fusion.h"

#include <algorithm>
#include <optional>
#include <set>

namespace tstudio {

std::vector<bool> pruneForRun(const Graph& graph, const std::vector<TensorRef>& feeds,
                              const std::vector<NodeId>& fetchNodes, const std::vector<NodeId>& targets)
{
    const std::set<TensorRef> fed(feeds.begin(), feeds.end());
    std::vector<bool> seen(static_cast<std::size_t>(graph.nodeCount()), false);
    std::vector<NodeId> stack;
    auto visit = [&](NodeId id) {
        if (!seen[static_cast<std::size_t>(id)]) {
            seen[static_cast<std::size_t>(id)] = true;
            stack.push_back(id);
        }
    };
    for (NodeId id : fetchNodes)
        visit(id);
    for (NodeId id : targets)
        visit(id);
    while (!stack.empty()) {
        const NodeId id = stack.back();
        stack.pop_back();
        for (const GraphEdge& e : graph.inEdges(id)) {
            if (!e.isControl() && fed.count({e.src, e.srcOutput}))
                continue;
            // A fed Placeholder is replaced by its feed, control edges included (TensorFlow moves
            // them to the node that receives the feed): it need not, and cannot, run.
            if (e.isControl() && fed.count({e.src, 0}) &&
                (graph.node(e.src).op() == "Placeholder" || graph.node(e.src).op() == "PlaceholderV2"))
                continue;
            visit(e.src);
        }
    }
    return seen;
}

namespace {

/// The remapper's fusions of a plan (sparse_adam_fusion.h, contraction_fusion.h,
/// matmul_sum_fusion.h): none among nodes
/// that `equivalent` merges.
PlanFusions planFusions(const Graph& graph, const std::vector<bool>& needed, const std::vector<int>& nodeFrame,
                        const std::set<TensorRef>& fed, const std::vector<TensorRef>& fetches,
                        const std::vector<NodeId>& keep, const NodeRuntimeLookup& lookup,
                        const std::optional<EquivalentNodes>& equivalent)
{
    std::vector<bool> merging;
    if (equivalent) {
        merging.resize(static_cast<std::size_t>(graph.nodeCount()));
        for (NodeId id = 0; id < graph.nodeCount(); ++id)
            merging[static_cast<std::size_t>(id)] =
                equivalent->isMergedAway(id) || !equivalent->merged[static_cast<std::size_t>(id)].empty();
    }
    const FusionScope scope(graph, needed, nodeFrame, fed, fetches, keep, lookup, equivalent ? &merging : nullptr);
    PlanFusions fusions;
    findSparseAdamFusions(scope, fusions);
    findContractionFusions(scope, fusions);
    findMatMulSumFusions(scope, fusions);
    return fusions;
}

/// Makes `node` (a fusion's anchor) run the fused kernel, which the plan keeps.
Status runFused(PlanNode& node, const PlanFusion& fusion, ExecutorPlan& plan)
{
    auto kernel = fusion.makeKernel(fusion.def, *node.runtime.device);
    if (!kernel)
        return kernel.error();
    std::shared_ptr<OpKernel> owned = std::move(*kernel);
    node.def = &owned->node();
    node.runtime.kernel = owned.get();
    node.runtime.kernelMutex = nullptr;
    node.runtime.inputTypes = &owned->inputTypes();
    node.runtime.outputTypes = &owned->outputTypes();
    plan.ownedKernels.push_back(std::move(owned));
    return Status::ok();
}

/// Puts `node.outEdges` in the order TensorFlow activates them in (data edges first, then control
/// edges) and marks each output slot's last data edge (PlanEdge::lastReader).
void orderOutEdges(PlanNode& node)
{
    std::stable_partition(node.outEdges.begin(), node.outEdges.end(), [](const PlanEdge& e) { return !e.isControl(); });
    std::vector<bool> slotRead(static_cast<std::size_t>(std::max(node.numOutputs, 0)), false);
    for (auto e = node.outEdges.rbegin(); e != node.outEdges.rend(); ++e)
        if (!e->isControl() && e->srcSlot >= 0 && static_cast<std::size_t>(e->srcSlot) < slotRead.size() &&
            !slotRead[static_cast<std::size_t>(e->srcSlot)])
            e->lastReader = slotRead[static_cast<std::size_t>(e->srcSlot)] = true;
}

} // namespace

Expected<ExecutorPlan> buildExecutorPlan(const Graph& graph, const std::vector<bool>& needed,
                                         const std::vector<TensorRef>& feeds, const std::vector<TensorRef>& fetches,
                                         const NodeRuntimeLookup& lookup, const PlanRewrites& rewrites)
{
    auto feedIndexOf = [&](const TensorRef& t) -> int {
        const auto it = std::find(feeds.begin(), feeds.end(), t);
        return it == feeds.end() ? -1 : static_cast<int>(it - feeds.begin());
    };
    const std::set<TensorRef> fedSet(feeds.begin(), feeds.end());
    auto isFed = [&](const GraphEdge& e) { return !e.isControl() && fedSet.count({e.src, e.srcOutput}) > 0; };

    auto cf = buildControlFlowInfo(graph, needed, [&](const GraphEdge& e) { return !isFed(e); });
    if (!cf)
        return unexpected(cf.error());

    std::optional<EquivalentNodes> equivalent;
    if (rewrites.mergeEquivalentNodes)
        equivalent = findEquivalentNodes(graph, needed, cf->nodeFrame, fedSet, fetches, rewrites.targets, lookup);

    const PlanFusions fusions =
        rewrites.remapping
            ? planFusions(graph, needed, cf->nodeFrame, fedSet, fetches, rewrites.targets, lookup, equivalent)
            : PlanFusions{};

    ExecutorPlan plan;
    plan.mergedNodes = equivalent ? equivalent->mergedCount : 0;
    plan.fusedNodes = static_cast<int>(fusions.fusions.size());
    for (const ControlFlowFrame& frame : cf->frames)
        plan.frames.push_back(PlanFrame{frame.name, frame.parent, frame.parallelIterations, 0, 0, 0, {}});
    plan.planIndex.assign(static_cast<std::size_t>(graph.nodeCount()), -1);

    const auto& order = graph.topologicalOrder();
    for (std::size_t position = 0; position < order.size(); ++position) {
        const NodeId id = order[position];
        if (!needed[static_cast<std::size_t>(id)] || cf->nodeFrame[static_cast<std::size_t>(id)] < 0 ||
            (equivalent && equivalent->isMergedAway(id)) || fusions.isAbsorbed(id))
            continue;
        const PlanFusion* fusion = fusions.of(id); // set for the anchor of a fused update
        PlanNode node;
        node.id = id;
        node.def = &graph.node(id);
        node.topoIndex = static_cast<int>(position);
        node.primitive = primitiveKind(node.def->op());
        node.frame = cf->nodeFrame[static_cast<std::size_t>(id)];
        node.enterFrame = cf->enterFrame[static_cast<std::size_t>(id)];
        node.outputFrame = node.primitive == PrimitiveKind::kEnter ? node.enterFrame
                           : node.primitive == PrimitiveKind::kExit
                               ? plan.frames[static_cast<std::size_t>(node.frame)].parent
                               : node.frame;
        if (node.primitive == PrimitiveKind::kEnter) {
            const auto it = node.def->attr().find("is_constant");
            node.isConstantEnter = it != node.def->attr().end() && it->second.b();
            ++plan.frames[static_cast<std::size_t>(node.enterFrame)].enterCount;
        }
        auto runtime = lookup(id);
        if (!runtime)
            return unexpected(runtime.error());
        node.runtime = *runtime;
        if (fusion) {
            if (Status s = runFused(node, *fusion, plan); !s.isOk())
                return unexpected(s);
        }
        node.numOutputs = static_cast<int>(node.runtime.outputTypes->size());

        int controlInputs = 0;
        int waitFor = 0;
        // A fused node waits for its fused inputs and for every control edge into its members from
        // outside the fusion; the members' other inputs are not delivered.
        const std::vector<NodeId> self{id};
        for (NodeId member : fusion ? fusion->members : self)
        for (const GraphEdge& e : graph.inEdges(member)) {
            if (fusions.ignores(e))
                continue;
            if (fusion && (fusions.of(e.src) == fusion ||
                           (!e.isControl() && PlanFusions::fusedInput(*fusion, member, e.dstInput) < 0)))
                continue;
            if (e.isControl()) {
                if (needed[static_cast<std::size_t>(e.src)]) {
                    ++controlInputs;
                    ++waitFor;
                }
                continue;
            }
            ++node.numInputs;
            ++waitFor;
            if (!isFed(e) && isNextIterationOp(graph.node(e.src).op()))
                ++node.numBackInputs;
            else
                ++node.numForwardInputs;
        }
        if (node.numInputs != static_cast<int>(node.runtime.inputTypes->size()))
            return unexpected(internalError("Node '" + node.def->name() + "' has " + std::to_string(node.numInputs) +
                                            " data inputs but its op expects " +
                                            std::to_string(node.runtime.inputTypes->size())));
        node.initialPending = node.primitive == PrimitiveKind::kMerge ? 1 + 2 * controlInputs : waitFor;
        if (node.runtime.device && !node.runtime.device->hostMemory()) {
            node.onDeviceMemory = true;
            plan.hasDeviceMemory = true;
            for (int slot = 0; slot < node.numInputs; ++slot)
                node.inputInHostMemory.push_back(node.runtime.kernel && node.runtime.kernel->inputInHostMemory(slot));
        }

        PlanFrame& frame = plan.frames[static_cast<std::size_t>(node.frame)];
        node.localIndex = frame.numNodes++;
        frame.initialPending.push_back(node.initialPending);
        node.inputStart = frame.totalInputs;
        frame.totalInputs += node.numInputs;
        plan.planIndex[static_cast<std::size_t>(id)] = static_cast<int>(plan.nodes.size());
        plan.nodes.push_back(std::move(node));
    }

    // Edges, fed inputs and roots, now that every plan node has its index and device.
    for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
        PlanNode& node = plan.nodes[i];
        // The node's own out edges, then those of the nodes merged into it (their consumers read it).
        // A fused node: the out edges of all its members that leave the fusion.
        std::vector<NodeId> sources{node.id};
        if (equivalent) {
            const auto& merged = equivalent->merged[static_cast<std::size_t>(node.id)];
            sources.insert(sources.end(), merged.begin(), merged.end());
        }
        const PlanFusion* fusion = fusions.of(node.id);
        if (fusion)
            sources = fusion->members;
        for (NodeId source : sources) {
            for (const GraphEdge& e : graph.outEdges(source)) {
                if ((fusion && fusions.of(e.dst) == fusion) || fusions.ignores(e))
                    continue;
                int dst = plan.planIndex[static_cast<std::size_t>(e.dst)];
                int dstSlot = e.dstInput;
                if (const PlanFusion* into = fusions.of(e.dst)) {
                    // Into a fused node: a control edge waits for it, a data edge is one of its
                    // inputs or is not delivered.
                    dst = plan.planIndex[static_cast<std::size_t>(into->anchor)];
                    if (!e.isControl() && (dstSlot = PlanFusions::fusedInput(*into, e.dst, e.dstInput)) < 0)
                        continue;
                }
                if (dst < 0 || isFed(e))
                    continue;
                int srcSlot = e.srcOutput;
                if (fusion && !e.isControl()) {
                    srcSlot = PlanFusions::fusedOutput(*fusion, source);
                    if (srcSlot < 0 || e.srcOutput != 0)
                        return unexpected(internalError("fused node '" + node.def->name() + "': output " +
                                                        std::to_string(e.srcOutput) + " of '" +
                                                        graph.node(source).name() + "' is read outside the fusion"));
                }
                if (!e.isControl() && srcSlot >= node.numOutputs)
                    return unexpected(invalidArgumentError(
                        "Node '" + graph.node(e.dst).name() + "' reads output " + std::to_string(e.srcOutput) +
                        " of '" + graph.node(source).name() + "', which has " + std::to_string(node.numOutputs) +
                        " outputs"));
                PlanEdge edge{dst, srcSlot, dstSlot, false};
                edge.crossDevice =
                    plan.nodes[static_cast<std::size_t>(dst)].runtime.deviceIndex != node.runtime.deviceIndex;
                node.outEdges.push_back(edge);
            }
        }
        orderOutEdges(node);
        for (NodeId member : fusion ? fusion->members : std::vector<NodeId>{node.id})
        for (const GraphEdge& e : graph.inEdges(member)) {
            if (!isFed(e))
                continue;
            // A fed input of a fused node is one of its fused inputs (members read no fed value inside).
            const int dstSlot = fusion ? PlanFusions::fusedInput(*fusion, member, e.dstInput) : e.dstInput;
            if (dstSlot < 0)
                return unexpected(internalError("fused node '" + node.def->name() + "': input " +
                                                std::to_string(e.dstInput) + " of '" + graph.node(member).name() +
                                                "' is fed but is not an input of the fusion"));
            if (node.frame != ControlFlowInfo::kRootFrame)
                return unexpected(invalidArgumentError(
                    "Cannot feed '" + TensorId{graph.node(e.src).name(), e.srcOutput}.toString(false) +
                    "': its consumer '" + node.def->name() + "' is inside the while loop frame '" +
                    plan.frames[static_cast<std::size_t>(node.frame)].name + "'"));
            plan.feedEdges.push_back(PlanFeedEdge{feedIndexOf({e.src, e.srcOutput}), static_cast<int>(i), dstSlot});
        }
        if (node.initialPending == 0)
            plan.roots.push_back(static_cast<int>(i));
    }

    for (std::size_t f = 0; f < fetches.size(); ++f) {
        PlanFetch fetch;
        fetch.slot = fetches[f].second;
        fetch.feedIndex = feedIndexOf(fetches[f]);
        if (fetch.feedIndex < 0) {
            fetch.node = plan.planIndex[static_cast<std::size_t>(fetches[f].first)];
            if (fetch.node >= 0) {
                PlanNode& node = plan.nodes[static_cast<std::size_t>(fetch.node)];
                if (node.outputFrame != ControlFlowInfo::kRootFrame)
                    return unexpected(
                        invalidArgumentError("Cannot fetch '" + TensorId{node.def->name(), fetch.slot}.toString(false) +
                                             "': it is computed inside the while loop frame '" +
                                             plan.frames[static_cast<std::size_t>(node.outputFrame)].name +
                                             "' (fetch the loop's Exit, or watch the node with an ExecutionObserver)"));
                node.fetches.emplace_back(fetch.slot, static_cast<int>(f));
            }
        }
        plan.fetches.push_back(fetch);
    }
    return plan;
}

bool hasRefOrResourceType(const std::vector<DataType>* types)
{
    return types && std::any_of(types->begin(), types->end(),
                                [](DataType t) { return isRefType(t) || t == tensorflow::DT_RESOURCE; });
}

int markControlOnlyNodes(ExecutorPlan& plan, const std::vector<NodeId>& targets)
{
    int marked = 0;
    for (PlanNode& node : plan.nodes) {
        if (node.primitive != PrimitiveKind::kNone || node.frame != 0 || node.runtime.kernelMutex != nullptr ||
            !node.fetches.empty() || node.outEdges.empty())
            continue;
        if (std::find(targets.begin(), targets.end(), node.id) != targets.end())
            continue;
        // Ops whose point is their error or their ordering, kept as Grappler keeps them.
        const std::string& op = node.def->op();
        if (op == "CheckNumerics" || op == "Assert" || op == "ControlTrigger")
            continue;
        // An op that takes a reference writes through it (Assign is not marked stateful): it has
        // an effect even when nothing reads its outputs (Grappler's IsFreeOfSideEffect). So may an op
        // on a resource: the TensorArray ops are not marked stateful either, yet a read frees its
        // element (clear_after_read), and TensorFlow runs one that only orders another.
        if (hasRefOrResourceType(node.runtime.inputTypes))
            continue;
        const bool onlyControl =
            std::all_of(node.outEdges.begin(), node.outEdges.end(), [](const PlanEdge& e) { return e.isControl(); });
        if (!onlyControl)
            continue;
        node.controlOnly = true;
        ++marked;
    }
    return marked;
}

} // namespace tstudio
