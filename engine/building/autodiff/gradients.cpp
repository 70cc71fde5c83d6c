// addSymbolicGradients: TensorFlow 1.15's gradients_util algorithm (reachability, pending counts,
// aggregation, gating) over a GraphBuilder, calling the registered gradient functions.
#include "autodiff/gradients.h"

#include "autodiff/control_flow_state.h"
#include "autodiff/function_grad.h"
#include "autodiff/gradient_context.h"
#include "autodiff/sparse_gradients.h"
#include "builder/indexed_slices.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "framework/op_registry.h"
#include "function/function_instantiation.h"
#include "graph/graph.h"
#include "runtime/control_flow_info.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace tstudio {
namespace {

/// Whether the gradient function registered for `opType` takes IndexedSlices for its output
/// gradients (TensorFlow's Identity, Snapshot and ReadVariableOp gradients pass them through); every
/// other op's gradient function receives the dense conversion.
bool gradientTakesIndexedSlices(std::string_view opType)
{
    return opType == "Identity" || opType == "Snapshot" || opType == "ReadVariableOp";
}

/// backprop_util.IsTrainable: the dtypes that get zero gradients for unused outputs.
bool isTrainable(DataType dtype)
{
    switch (baseType(dtype)) {
    case tensorflow::DT_HALF:
    case tensorflow::DT_FLOAT:
    case tensorflow::DT_DOUBLE:
    case tensorflow::DT_COMPLEX64:
    case tensorflow::DT_COMPLEX128:
    case tensorflow::DT_RESOURCE:
    case tensorflow::DT_VARIANT: return true;
    default: return false;
    }
}

/// gradients_util._IsBackpropagatable: gradients flow along these tensors.
bool isBackpropagatable(DataType dtype)
{
    return isTrainable(dtype) || baseType(dtype) == tensorflow::DT_BFLOAT16;
}

Status notInGraph(const Output& t)
{
    return invalidArgumentError("Tensor '" + t.name() + "' is not an element of this graph.");
}

/// The tensor as the builder knows it now (dtype and shape), or the error naming it.
Expected<Output> current(const GraphBuilder& b, const Output& t)
{
    if (!t.isValid())
        return unexpected(invalidArgumentError("an invalid (default-constructed) Output was passed to gradients"));
    auto op = b.operation(t.node());
    if (!op || t.index() < 0 || t.index() >= op->numOutputs())
        return unexpected(notInGraph(t));
    return op->output(t.index());
}

/// Positions of nodes in the GraphDef (creation order, TensorFlow's Operation._id), kept up to date
/// as nodes are appended.
class CreationOrder {
public:
    explicit CreationOrder(const GraphBuilder& b) : m_b(b) {}
    int of(const std::string& node)
    {
        const tensorflow::GraphDef& def = m_b.graphDef();
        for (; m_scanned < def.node_size(); ++m_scanned)
            m_index.emplace(def.node(m_scanned).name(), m_scanned);
        auto it = m_index.find(node);
        return it == m_index.end() ? -1 : it->second;
    }

private:
    const GraphBuilder& m_b;
    std::unordered_map<std::string, int> m_index;
    int m_scanned = 0;
};

/// control_flow_ops.tuple(grads) inside "<op>_grad": a NoOp "tuple/group_deps" waiting for every
/// gradient, and per gradient an Identity "tuple/control_dependency[_N]" colocated with it.
Expected<std::vector<std::optional<Output>>> gate(GraphBuilder& b, CreationOrder& order,
                                                  const std::vector<std::optional<Output>>& grads)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("tuple"));
    std::vector<std::string> names;
    for (const auto& g : grads) {
        if (g && std::find(names.begin(), names.end(), g->node()) == names.end())
            names.push_back(g->node());
    }
    std::sort(names.begin(), names.end(),
              [&](const std::string& a, const std::string& c) { return order.of(a) < order.of(c); });
    std::vector<Operation> gating;
    for (const std::string& name : names) {
        TSTUDIO_AD_TRY(op, b.operation(name));
        gating.push_back(op);
    }
    TSTUDIO_AD_TRY(group, ops::group(b, gating, "group_deps"));
    std::vector<std::optional<Output>> out(grads.size());
    for (std::size_t i = 0; i < grads.size(); ++i) {
        if (!grads[i])
            continue;
        TSTUDIO_AD_TRY(cd, b.nameScope("control_dependency"));
        TSTUDIO_AD_TRY(src, py::producer(b, *grads[i]));
        auto colocation = b.colocateWith(src, true);
        auto control = b.controlDependencies({group});
        TSTUDIO_AD_TRY(id, py::genOp(b, "Identity", {*grads[i]}, {}, cd.name()));
        out[i] = id;
    }
    return out;
}

/// Gates gradients some of which may be IndexedSlices: control_flow_ops.tuple gates a slices'
/// values (with_dependencies keeps its indices and dense_shape).
Expected<std::vector<std::optional<Gradient>>> gateWithSlices(GraphBuilder& b, CreationOrder& order,
                                                              const std::vector<std::optional<Gradient>>& grads)
{
    std::vector<std::optional<Output>> tensors(grads.size());
    for (std::size_t i = 0; i < grads.size(); ++i) {
        if (grads[i])
            tensors[i] = grads[i]->isSparse() ? grads[i]->sparse().values : grads[i]->dense();
    }
    TSTUDIO_AD_TRY(gated, gate(b, order, tensors));
    std::vector<std::optional<Gradient>> out(grads.size());
    for (std::size_t i = 0; i < grads.size(); ++i) {
        if (!grads[i])
            continue;
        if (grads[i]->isSparse()) {
            IndexedSlices slices = grads[i]->sparse();
            slices.values = *gated[i];
            out[i] = Gradient(std::move(slices));
        } else {
            out[i] = Gradient(*gated[i]);
        }
    }
    return out;
}

/// One call of addSymbolicGradients.
class GradientsBuilder {
public:
    GradientsBuilder(GraphBuilder& b, const GradientsOptions& options) : m_b(b), m_options(options), m_order(b) {}

    Expected<std::vector<std::optional<Gradient>>> run(std::vector<Output> ys, std::vector<Output> xs,
                                                       std::vector<std::optional<Output>> gradYs);

private:
    /// Per output: the gradients received until the op is differentiated, then their sum. A loop
    /// Switch is differentiated twice (exit branch first, then the body branch): an output summed
    /// at the first visit keeps its sum, a later gradient replaces it (TensorFlow's _SetGrad).
    struct OpGrads {
        std::vector<std::vector<Gradient>> received;
        std::vector<std::optional<Gradient>> aggregated;
        std::vector<bool> isAggregated;
    };

    Expected<std::vector<Output>> defaultGradYs(const std::vector<Output>& ys,
                                                const std::vector<std::optional<Output>>& gradYs);
    Status pendingCounts(const std::vector<NodeId>& toOps, const std::vector<NodeId>& fromOps);
    Status checkNoWhileLoops() const;
    const std::vector<DataType>& outputTypes(NodeId id);
    std::vector<NodeId> dataInputs(NodeId id) const;
    void setGrad(const Output& t, const Gradient& grad);
    Expected<std::vector<std::optional<Gradient>>> aggregate(NodeId id);
    Expected<Output> multiDeviceAddN(const std::vector<Output>& grads);
    Status differentiate(NodeId id);
    Status updatePendingAndEnqueueReady(NodeId id, std::deque<NodeId>& queue);
    bool hasAnyGrads(NodeId id) const;
    Status addLoopExits();
    Expected<NodeId> nodeIdOf(const Output& t) const;

    GraphBuilder& m_b;
    const GradientsOptions& m_options;
    CreationOrder m_order;
    GradientCallState m_state;
    std::optional<Graph> m_graph; ///< the graph as it was before the gradient ops
    std::vector<std::optional<std::vector<DataType>>> m_outputTypes;
    std::vector<bool> m_reachableTo;
    std::vector<bool> m_between;
    std::vector<NodeId> m_betweenList;
    std::vector<int> m_pending;
    std::vector<bool> m_stop;
    std::unordered_map<NodeId, OpGrads> m_grads;
    std::unique_ptr<ControlFlowState> m_loopState; ///< while loops on the path (TensorFlow's loop_state)
};

Expected<NodeId> GradientsBuilder::nodeIdOf(const Output& t) const
{
    auto id = m_graph->findNode(t.node());
    if (!id)
        return unexpected(notInGraph(t));
    return *id;
}

const std::vector<DataType>& GradientsBuilder::outputTypes(NodeId id)
{
    auto& slot = m_outputTypes[static_cast<std::size_t>(id)];
    if (!slot) {
        slot.emplace();
        if (auto op = m_b.operation(m_graph->node(id).name())) {
            for (const Output& o : op->outputs())
                slot->push_back(o.dtype());
        }
    }
    return *slot;
}

std::vector<NodeId> GradientsBuilder::dataInputs(NodeId id) const
{
    std::vector<NodeId> out;
    for (const GraphEdge& e : m_graph->inEdges(id)) {
        if (!e.isControl())
            out.push_back(e.src);
    }
    return out;
}

Expected<std::vector<Output>> GradientsBuilder::defaultGradYs(const std::vector<Output>& ys,
                                                              const std::vector<std::optional<Output>>& gradYs)
{
    std::vector<Output> out;
    for (std::size_t i = 0; i < ys.size(); ++i) {
        const Output& y = ys[i];
        const std::string suffix = std::to_string(i);
        std::optional<ScopeGuard> colocation;
        if (m_options.colocateGradientsWithOps) {
            TSTUDIO_AD_TRY(yOp, py::producer(m_b, y));
            colocation.emplace(m_b.colocateWith(yOp));
        }
        const DataType yType = y.baseDtype();
        if (i >= gradYs.size() || !gradYs[i]) {
            if (isComplex(yType))
                return unexpected(invalidArgumentError(
                    "Gradients of complex tensors must set grad_ys (y.dtype = " + dataTypeName(yType) + ")"));
            TSTUDIO_AD_TRY(dims, py::shape(m_b, y));
            TSTUDIO_AD_TRY(one, py::constant(m_b, 1.0, yType, "grad_ys_" + suffix));
            TSTUDIO_AD_TRY(filled, py::genOp(m_b, "Fill", {dims, one}));
            out.push_back(filled);
            continue;
        }
        const Output& g = *gradYs[i];
        const DataType gType = g.baseDtype();
        const std::string what = " generated for ";
        if (isFloating(yType) || isInteger(yType)) {
            if (!isFloating(gType) && !isInteger(gType))
                return unexpected(invalidArgumentError("Gradient type " + dataTypeName(gType) + what +
                                                       "real or integer-valued tensor " + y.name() + " with type " +
                                                       dataTypeName(yType) + " must be real or integer"));
        } else if (isComplex(yType)) {
            if (!isComplex(gType))
                return unexpected(invalidArgumentError("Gradient type " + dataTypeName(gType) + what +
                                                       "complex-valued tensor " + y.name() + " with type " +
                                                       dataTypeName(yType) + " must be real"));
        } else if (yType == tensorflow::DT_VARIANT) {
            if (gType != tensorflow::DT_VARIANT)
                return unexpected(invalidArgumentError("Gradient type " + dataTypeName(gType) + what +
                                                       "variant tensor " + y.name() + " with type " +
                                                       dataTypeName(yType) + " must be variant"));
        } else if (yType == tensorflow::DT_RESOURCE) {
            if (gType == tensorflow::DT_RESOURCE)
                return unexpected(invalidArgumentError("Input gradient " + g.name() + " for resource tensor " +
                                                       y.name() + " should not be a resource"));
        } else {
            return unexpected(invalidArgumentError("Tensor " + y.name() + " with type " + dataTypeName(yType) +
                                                   " must be numeric to obtain a default gradient"));
        }
        TSTUDIO_AD_TRY(id, py::genOp(m_b, "Identity", {g}, {}, "grad_ys_" + suffix));
        out.push_back(id);
    }
    return out;
}

Status GradientsBuilder::pendingCounts(const std::vector<NodeId>& toOps, const std::vector<NodeId>& fromOps)
{
    const std::size_t n = static_cast<std::size_t>(m_graph->nodeCount());
    // Ops reached from the xs along backpropagatable tensors (_MarkReachedOps).
    std::vector<bool> reached(n, false);
    std::deque<NodeId> queue(fromOps.begin(), fromOps.end());
    while (!queue.empty()) {
        const NodeId id = queue.front();
        queue.pop_front();
        if (reached[static_cast<std::size_t>(id)])
            continue;
        reached[static_cast<std::size_t>(id)] = true;
        const std::vector<DataType>& types = outputTypes(id);
        for (const GraphEdge& e : m_graph->outEdges(id)) {
            if (e.isControl() || e.srcOutput >= static_cast<int>(types.size()) ||
                !isBackpropagatable(types[static_cast<std::size_t>(e.srcOutput)]))
                continue;
            queue.push_back(e.dst);
        }
    }
    m_reachableTo.assign(n, false);
    for (NodeId id : toOps)
        m_reachableTo[static_cast<std::size_t>(id)] = reached[static_cast<std::size_t>(id)];
    // Ops on a path between the xs and the ys.
    m_between.assign(n, false);
    queue.assign(toOps.begin(), toOps.end());
    while (!queue.empty()) {
        const NodeId id = queue.front();
        queue.pop_front();
        if (!reached[static_cast<std::size_t>(id)])
            continue;
        m_between[static_cast<std::size_t>(id)] = true;
        m_betweenList.push_back(id);
        reached[static_cast<std::size_t>(id)] = false;
        for (NodeId in : dataInputs(id))
            queue.push_back(in);
    }
    TSTUDIO_AD_CHECK(checkNoWhileLoops());
    TSTUDIO_AD_CHECK(addLoopExits());
    m_pending.assign(n, 0);
    for (NodeId id : m_betweenList) {
        for (NodeId in : dataInputs(id)) {
            if (m_between[static_cast<std::size_t>(in)])
                ++m_pending[static_cast<std::size_t>(in)];
        }
    }
    return Status::ok();
}

Status GradientsBuilder::addLoopExits()
{
    // MaybeCreateControlFlowState: a GradLoopState per loop whose Exit is on the path; every exit of
    // such a loop takes part in backprop.
    for (std::size_t k = 0; k < m_betweenList.size(); ++k) {
        const std::string name = m_graph->node(m_betweenList[k]).name();
        if (!isLoopExit(m_b, name) || whileContextOf(m_b.contextOf(name)) == nullptr)
            continue;
        if (!m_loopState)
            m_loopState = std::make_unique<ControlFlowState>(m_b);
        TSTUDIO_AD_TRY(exits, m_loopState->addWhileContext(name));
        for (const Output& e : exits) {
            TSTUDIO_AD_TRY(id, nodeIdOf(e));
            if (!m_between[static_cast<std::size_t>(id)]) {
                m_between[static_cast<std::size_t>(id)] = true;
                m_betweenList.push_back(id);
            }
        }
    }
    return Status::ok();
}

bool GradientsBuilder::hasAnyGrads(NodeId id) const
{
    auto it = m_grads.find(id);
    if (it == m_grads.end())
        return false;
    const OpGrads& g = it->second;
    for (std::size_t i = 0; i < g.received.size(); ++i) {
        if (!g.received[i].empty() || (i < g.aggregated.size() && g.aggregated[i]))
            return true;
    }
    return false;
}

Status GradientsBuilder::updatePendingAndEnqueueReady(NodeId id, std::deque<NodeId>& queue)
{
    for (NodeId in : dataInputs(id)) {
        int& pending = m_pending[static_cast<std::size_t>(in)];
        --pending;
        const std::string& name = m_graph->node(in).name();
        bool ready = pending == 0;
        // A loop Switch is visited once per branch (the exit first).
        if (m_loopState && !ready)
            ready = pending > 0 && isLoopSwitch(m_b, name);
        if (!ready)
            continue;
        if (!m_loopState || !isLoopExit(m_b, name)) {
            queue.push_back(in);
            continue;
        }
        // A loop's exits are differentiated together, once all of them are ready.
        GradLoopState* state = m_loopState->gradState(name, false);
        if (state == nullptr) {
            queue.push_back(in);
            continue;
        }
        TSTUDIO_AD_TRY(exitOp, m_b.operation(name));
        state->deferredExits.push_back(exitOp.output(0));
        if (--state->pendingExitsCount != 0)
            continue;
        bool anyGrad = false;
        for (const Output& y : state->deferredExits) {
            TSTUDIO_AD_TRY(yId, nodeIdOf(y));
            if (hasAnyGrads(yId)) {
                anyGrad = true;
                queue.push_back(yId);
            } else {
                state->unusedExits.push_back(y);
            }
        }
        for (const Output& y : state->unusedExits) {
            TSTUDIO_AD_TRY(yId, nodeIdOf(y));
            if (anyGrad && isTrainable(y.dtype())) {
                TSTUDIO_AD_TRY(zeros, m_loopState->zerosLikeForExit(y));
                setGrad(y, zeros);
            }
            queue.push_back(yId);
        }
    }
    return Status::ok();
}

Status GradientsBuilder::checkNoWhileLoops() const
{
    const tensorflow::GraphDef& def = m_graph->graphDef();
    const bool hasLoops = std::any_of(def.node().begin(), def.node().end(),
                                      [](const tensorflow::NodeDef& n) { return isEnterOp(n.op()); });
    if (!hasLoops)
        return Status::ok();
    auto info = buildControlFlowInfo(*m_graph, std::vector<bool>(static_cast<std::size_t>(def.node_size()), true),
                                     [](const GraphEdge&) { return true; });
    if (!info)
        return info.error().withContext("gradients");
    for (NodeId id : m_betweenList) {
        const int frame = info->nodeFrame[static_cast<std::size_t>(id)];
        // Loops built with whileLoop carry their WhileContext; imported ones do not.
        if (frame > ControlFlowInfo::kRootFrame && m_b.contextOf(m_graph->node(id).name()) == nullptr) {
            const tensorflow::NodeDef& node = def.node(id);
            return unimplementedError("Gradients through a while loop need the loop's WhileContext, which "
                                      "graphs not built with whileLoop lack: operation '" +
                                      node.name() + "' (op type: " + node.op() + ") is inside the while loop '" +
                                      info->frames[static_cast<std::size_t>(frame)].name + "'");
        }
    }
    return Status::ok();
}

void GradientsBuilder::setGrad(const Output& t, const Gradient& grad)
{
    auto id = m_graph->findNode(t.node());
    if (!id)
        return;
    OpGrads& entry = m_grads[*id];
    const std::size_t outputs = outputTypes(*id).size();
    if (entry.received.size() < outputs) {
        entry.received.resize(outputs);
        entry.aggregated.resize(outputs);
        entry.isAggregated.resize(outputs, false);
    }
    if (t.index() < 0 || static_cast<std::size_t>(t.index()) >= outputs)
        return;
    const auto i = static_cast<std::size_t>(t.index());
    if (entry.isAggregated[i])
        entry.aggregated[i] = grad; // a loop Switch's body branch
    else
        entry.received[i].push_back(grad);
}

Expected<Output> GradientsBuilder::multiDeviceAddN(const std::vector<Output>& grads)
{
    std::map<std::string, std::vector<Output>> byDevice; // sorted by device, as TensorFlow sorts them
    for (const Output& g : grads) {
        TSTUDIO_AD_TRY(op, py::producer(m_b, g));
        byDevice[op.device()].push_back(g);
    }
    std::vector<Output> summands;
    for (const auto& [device, tensors] : byDevice) {
        if (tensors.size() == 1) {
            summands.push_back(tensors.front());
            continue;
        }
        TSTUDIO_AD_TRY(first, py::producer(m_b, tensors.front()));
        auto colocation = m_b.colocateWith(first, true);
        TSTUDIO_AD_TRY(sum, py::genOp(m_b, "AddN", {tensors}));
        summands.push_back(sum);
    }
    if (summands.size() == 1)
        return summands.front();
    return py::genOp(m_b, "AddN", {summands});
}

Expected<std::vector<std::optional<Gradient>>> GradientsBuilder::aggregate(NodeId id)
{
    const std::size_t outputs = outputTypes(id).size();
    auto it = m_grads.find(id);
    if (it == m_grads.end())
        return std::vector<std::optional<Gradient>>(outputs);
    OpGrads& entry = it->second;
    entry.received.resize(outputs);
    entry.aggregated.resize(outputs);
    entry.isAggregated.resize(outputs, false);
    for (std::size_t i = 0; i < outputs; ++i) {
        if (entry.isAggregated[i])
            continue;
        entry.isAggregated[i] = true;
        std::vector<Gradient> received = std::move(entry.received[i]);
        entry.received[i].clear();
        if (received.empty())
            continue;
        if (received.size() == 1) {
            entry.aggregated[i] = received.front();
            continue;
        }
        if (std::any_of(received.begin(), received.end(), [](const Gradient& g) { return g.isSparse(); })) {
            TSTUDIO_AD_TRY(concatenated, aggregateIndexedSlicesGradients(m_b, received));
            entry.aggregated[i] = concatenated;
            continue;
        }
        std::vector<Output> dense;
        for (const Gradient& g : received)
            dense.push_back(g.dense());
        TSTUDIO_AD_TRY(sum, multiDeviceAddN(dense));
        entry.aggregated[i] = sum;
    }
    return entry.aggregated;
}

Status GradientsBuilder::differentiate(NodeId id)
{
    const tensorflow::NodeDef& node = m_graph->node(id);
    TSTUDIO_AD_TRY(op, m_b.operation(node.name()));
    std::optional<ScopeGuard> colocation;
    if (m_options.colocateGradientsWithOps)
        colocation.emplace(m_b.colocateWith(op));
    std::optional<ScopeGuard> loopContext;
    if (m_loopState)
        loopContext = m_loopState->enterGradWhileContext(node.name(), true);
    TSTUDIO_AD_TRY(outGrads, aggregate(id));
    loopContext.reset();
    if (m_loopState)
        loopContext = m_loopState->enterGradWhileContext(node.name(), false);
    const bool hasOutGrads = std::any_of(outGrads.begin(), outGrads.end(), [](const auto& g) { return g.has_value(); });

    const GradientFunction* function = nullptr;
    // A function call differentiates to SymbolicGradient, which takes a gradient for every output.
    static const GradientFunction callByNameGradient = functionCallGradient;
    const bool callByName = m_b.registry().find(node.op()) == nullptr && isLibraryFunction(m_b, node.op());
    const bool symbolicCall = callByName || isPartitionedCallOp(node.op());
    if (hasOutGrads && !m_stop[static_cast<std::size_t>(id)]) {
        // gradient_override_map's "_gradient_op_type" names the gradient: one registered with the
        // builder (tf.RegisterGradient), else that op's.
        const auto overridden = node.attr().find("_gradient_op_type");
        const std::string gradientType = overridden != node.attr().end() ? overridden->second.s() : node.op();
        const GradientFunction* custom =
            overridden != node.attr().end() ? m_b.registeredGradient(gradientType) : nullptr;
        const OpRegistration* registration = m_b.registry().find(gradientType);
        if (custom != nullptr)
            function = custom;
        else if (registration != nullptr && registration->gradient)
            function = &registration->gradient;
        else if (callByName && overridden == node.attr().end())
            function = &callByNameGradient;
        else if (registration == nullptr || !registration->notDifferentiable)
            return notFoundError("No gradient defined for operation '" + node.name() + "' (op type: " + node.op() +
                                 ")");
    }

    std::vector<Output> inputs;
    for (const std::string& in : node.input()) {
        if (in.starts_with('^'))
            break;
        TSTUDIO_AD_TRY(t, m_b.tensor(in));
        inputs.push_back(t);
    }
    std::vector<std::optional<Gradient>> inGrads(inputs.size());
    if (function != nullptr) {
        // An output without a gradient is zero for the gradient function, if it is trainable.
        for (int i = 0; i < op.numOutputs(); ++i) {
            auto& g = outGrads[static_cast<std::size_t>(i)];
            if (g || (!isTrainable(op.output(i).dtype()) && !symbolicCall))
                continue;
            if (baseType(op.output(i).dtype()) == tensorflow::DT_RESOURCE)
                return unimplementedError("zero gradients for the resource output '" + op.output(i).name() +
                                          "' are not supported yet");
            if (m_loopState) {
                TSTUDIO_AD_TRY(zero, m_loopState->zerosLike(op, i));
                g = zero;
            } else {
                TSTUDIO_AD_TRY(zero, py::zerosLike(m_b, op.output(i), false));
                g = zero;
            }
        }
        TSTUDIO_AD_TRY(scope, m_b.nameScope(node.name() + "_grad"));
        // IndexedSlices reach only the gradient functions that take them; the others get the
        // dense conversion, made in their scope (where TensorFlow converts it, on first use).
        const bool takesSlices = gradientTakesIndexedSlices(node.op());
        std::vector<std::optional<Output>> denseGrads(outGrads.size());
        std::vector<std::optional<IndexedSlices>> sparseGrads(outGrads.size());
        for (std::size_t i = 0; i < outGrads.size(); ++i) {
            if (!outGrads[i])
                continue;
            if (!outGrads[i]->isSparse()) {
                denseGrads[i] = outGrads[i]->dense();
            } else if (takesSlices) {
                sparseGrads[i] = outGrads[i]->sparse();
            } else {
                TSTUDIO_AD_TRY(dense, indexedSlicesToTensor(m_b, outGrads[i]->sparse()));
                denseGrads[i] = dense;
            }
        }
        GradientContext context(m_b, m_state, op, node, inputs, denseGrads);
        for (std::size_t i = 0; i < sparseGrads.size(); ++i) {
            if (sparseGrads[i])
                context.setOutputIndexedSlices(static_cast<int>(i), *sparseGrads[i]);
        }
        if (Status s = (*function)(context); !s.isOk())
            return s.withContext("gradient of operation '" + node.name() + "' (op type: " + node.op() + ")");
        inGrads = context.inputGradientsWithSlices();
        const auto present = std::count_if(inGrads.begin(), inGrads.end(), [](const auto& g) { return g.has_value(); });
        if (m_options.gateGradients && present > 1) {
            // TensorFlow gates with no device and no colocation (ops.device(None), colocate_with(None)).
            colocation.reset();
            auto noDevice = m_b.clearDevice();
            TSTUDIO_AD_TRY(gated, gateWithSlices(m_b, m_order, inGrads));
            inGrads = std::move(gated);
        }
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!inGrads[i])
            continue;
        if (inGrads[i]->isSparse()) {
            setGrad(inputs[i], *inGrads[i]); // TensorFlow sets static shapes on dense gradients only
            continue;
        }
        Output g = inGrads[i]->dense();
        const Output& in = inputs[i];
        if (in.baseDtype() != tensorflow::DT_RESOURCE) {
            auto merged = g.shape().merge(in.shape());
            if (!merged) {
                return invalidArgumentError(
                    "Incompatible shapes between op input and calculated input gradient.  Forward operation: " +
                    node.name() + ".  Input index: " + std::to_string(i) + ". Original input shape: " +
                    in.shape().toString() + ".  Calculated input gradient shape: " + g.shape().toString());
            }
            g = Output(g.node(), g.index(), g.dtype(), *merged);
        }
        setGrad(in, g);
    }
    return Status::ok();
}

Expected<std::vector<std::optional<Gradient>>> GradientsBuilder::run(std::vector<Output> ys, std::vector<Output> xs,
                                                                     std::vector<std::optional<Output>> gradYs)
{
    for (auto* list : {&ys, &xs}) {
        for (Output& t : *list) {
            TSTUDIO_AD_TRY(fresh, current(m_b, t));
            t = fresh;
        }
    }
    std::vector<Output> stops;
    for (const Output& t : m_options.stopGradients) {
        TSTUDIO_AD_TRY(fresh, current(m_b, t));
        stops.push_back(fresh);
    }
    for (auto& g : gradYs) {
        if (g) {
            TSTUDIO_AD_TRY(fresh, current(m_b, *g));
            g = fresh;
        }
    }
    if (!gradYs.empty() && gradYs.size() != ys.size())
        return unexpected(invalidArgumentError("Passed " + std::to_string(gradYs.size()) + " grad_ys for " +
                                               std::to_string(ys.size()) + " ys"));

    TSTUDIO_AD_TRY(scope, m_b.nameScope(m_options.name));
    m_b.uniqueName("uid"); // gradient_uid: reserves the name, as TensorFlow does
    TSTUDIO_AD_TRY(initial, defaultGradYs(ys, gradYs));

    auto graph = Graph::fromGraphDef(m_b.graphDef());
    if (!graph)
        return unexpected(graph.error().withContext("gradients"));
    m_graph = std::move(*graph);
    m_outputTypes.assign(static_cast<std::size_t>(m_graph->nodeCount()), std::nullopt);

    std::vector<NodeId> toOps;
    std::vector<NodeId> fromOps;
    for (const Output& y : ys) {
        TSTUDIO_AD_TRY(id, nodeIdOf(y));
        toOps.push_back(id);
    }
    for (const Output& x : xs) {
        TSTUDIO_AD_TRY(id, nodeIdOf(x));
        fromOps.push_back(id);
    }
    TSTUDIO_AD_CHECK(pendingCounts(toOps, fromOps));

    for (std::size_t i = 0; i < ys.size(); ++i)
        setGrad(ys[i], initial[i]);

    // _StopOps: xs with no x upstream, and the producers of stop_gradients.
    m_stop.assign(static_cast<std::size_t>(m_graph->nodeCount()), false);
    for (NodeId id : fromOps) {
        const std::vector<NodeId> ins = dataInputs(id);
        m_stop[static_cast<std::size_t>(id)] = std::none_of(
            ins.begin(), ins.end(), [&](NodeId in) { return m_pending[static_cast<std::size_t>(in)] > 0; });
    }
    for (const Output& t : stops) {
        TSTUDIO_AD_TRY(id, nodeIdOf(t));
        m_stop[static_cast<std::size_t>(id)] = true;
    }

    std::deque<NodeId> queue;
    std::set<NodeId> queued;
    for (NodeId id : toOps) {
        if (m_pending[static_cast<std::size_t>(id)] == 0 && m_reachableTo[static_cast<std::size_t>(id)] &&
            queued.insert(id).second)
            queue.push_back(id);
    }
    if (m_loopState) {
        std::vector<std::string> toOpNames;
        for (NodeId id : queued)
            toOpNames.push_back(m_graph->node(id).name());
        const auto exits = m_loopState->processUnusedLoopExits(
            [&](const std::string& name) {
                auto id = m_graph->findNode(name);
                return id ? m_pending[static_cast<std::size_t>(*id)] : 0;
            },
            toOpNames);
        for (const Output& y : exits) {
            TSTUDIO_AD_TRY(yId, nodeIdOf(y));
            if (isTrainable(y.dtype())) {
                TSTUDIO_AD_TRY(zeros, m_loopState->zerosLikeForExit(y));
                setGrad(y, zeros);
            }
            queue.push_back(yId);
        }
    }
    while (!queue.empty()) {
        const NodeId id = queue.front();
        queue.pop_front();
        TSTUDIO_AD_CHECK(differentiate(id));
        TSTUDIO_AD_CHECK(updatePendingAndEnqueueReady(id, queue));
    }

    std::vector<std::optional<Gradient>> result;
    for (const Output& x : xs) {
        TSTUDIO_AD_TRY(id, nodeIdOf(x));
        if (m_grads.find(id) == m_grads.end()) {
            result.emplace_back();
            continue;
        }
        TSTUDIO_AD_TRY(grads, aggregate(id));
        result.push_back(grads[static_cast<std::size_t>(x.index())]);
    }
    return result;
}

} // namespace

Expected<std::vector<std::optional<Gradient>>>
addSymbolicGradientsSparse(GraphBuilder& b, const std::vector<Output>& ys, const std::vector<Output>& xs,
                           const std::vector<std::optional<Output>>& gradYs, const GradientsOptions& options)
{
    GradientsBuilder builder(b, options);
    return builder.run(ys, xs, gradYs);
}

Expected<std::vector<std::optional<Output>>> addSymbolicGradients(GraphBuilder& b, const std::vector<Output>& ys,
                                                                  const std::vector<Output>& xs,
                                                                  const std::vector<std::optional<Output>>& gradYs,
                                                                  const GradientsOptions& options)
{
    TSTUDIO_AD_TRY(grads, addSymbolicGradientsSparse(b, ys, xs, gradYs, options));
    std::vector<std::optional<Output>> out;
    for (const auto& g : grads) {
        if (!g) {
            out.emplace_back();
            continue;
        }
        if (!g->isSparse()) {
            out.emplace_back(g->dense());
            continue;
        }
        // The dense conversion sits in the scope of the op that made the slices' values (the
        // gather's "<op>_grad"), where TensorStudio always put it.
        const std::string& producer = g->sparse().values.node();
        const auto slash = producer.rfind('/');
        std::optional<ScopeGuard> scope;
        if (slash != std::string::npos) {
            TSTUDIO_AD_TRY(s, b.nameScope(producer.substr(0, slash + 1)));
            scope.emplace(std::move(s));
        }
        TSTUDIO_AD_TRY(dense, indexedSlicesToTensor(b, g->sparse()));
        out.emplace_back(dense);
    }
    return out;
}

} // namespace tstudio
