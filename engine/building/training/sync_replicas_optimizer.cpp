// SyncReplicasOptimizer: TensorFlow 1.15's sync_replicas_optimizer.py graph (accumulators beside the
// variables, token queue, chief queue runner, init ops) built with the building API.
#include "training/sync_replicas_optimizer.h"

#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/report_uninitialized_variables.h"

#include <algorithm>

namespace tstudio::training {
namespace {

tensorflow::AttrValue scalarShapes(int count)
{
    tensorflow::AttrValue value;
    for (int i = 0; i < count; ++i)
        *value.mutable_list()->add_shape() = TensorShape::scalar().toProto();
    return value;
}

/// data_flow_ops.FIFOQueue(capacity, dtype, shapes=(), name, shared_name=name): a FIFOQueueV2.
Expected<Operation> fifoQueue(GraphBuilder& b, std::int64_t capacity, DataType dtype, const std::string& name)
{
    return b.op("FIFOQueueV2", {},
                {{"component_types", attr::types({dtype})},
                 {"shapes", scalarShapes(1)},
                 {"capacity", attr::i(capacity)},
                 {"shared_name", attr::s(name)}},
                name);
}

/// array_ops.fill([count], value): "Fill[_N]" with its dims Const "Fill[_N]/dims".
Expected<Output> fillVector(GraphBuilder& b, std::int64_t count, const Output& value)
{
    auto scope = b.nameScope("Fill");
    if (!scope)
        return unexpected(scope.error());
    auto dims = ops::constantInts(b, {count}, TensorShape({1}), tensorflow::DT_INT32, "dims");
    if (!dims)
        return unexpected(dims.error());
    return ops::fill(b, *dims, value, scope->name());
}

/// The device a node was built on ("" when none).
std::string deviceOf(const GraphBuilder& b, const std::string& node)
{
    const tensorflow::NodeDef* def = b.findNode(node);
    return def ? def->device() : std::string();
}

/// queue.close(cancel_pending_enqueues): "<queue>_Close[_N]".
Expected<Operation> closeQueue(GraphBuilder& b, const Output& queue, bool cancel)
{
    return b.op("QueueCloseV2", {queue}, {{"cancel_pending_enqueues", attr::b(cancel)}}, queue.node() + "_Close");
}

/// A gradient's accumulator: the op that applies a worker's gradient, the mean of
/// `replicas` of them that the chief takes, and the accumulator's handle.
struct Accumulated {
    Operation apply;
    Gradient gradient;
    Output handle;
};

/// The chief's take of the mean of `replicas` gradients: op `takeOp` on `handle`, named as its own
/// name scope, with its "num_required" Const inside.
Expected<Operation> takeGradient(GraphBuilder& b, const char* takeOp, const Output& handle, DataType dtype, int replicas)
{
    auto scope = b.nameScope(takeOp);
    if (!scope)
        return unexpected(scope.error());
    auto required = ops::constant(b, replicas, tensorflow::DT_INT32, "num_required");
    if (!required)
        return unexpected(required.error());
    return b.op(takeOp, {handle, *required}, {{"dtype", attr::type(dtype)}}, scope->name());
}

/// A dense gradient through a ResourceConditionalAccumulator (MEAN) shared as `sharedName`.
Expected<Accumulated> accumulateDense(GraphBuilder& b, const Output& grad, const Variable& var, const Output& localStep,
                                      const std::string& sharedName, int replicas)
{
    auto accumulator = b.op("ResourceConditionalAccumulator", {},
                            {{"dtype", attr::type(grad.dtype())},
                             {"shape", attr::shape(var.shape())},
                             {"shared_name", attr::s(sharedName)},
                             {"reduction_type", attr::s("MEAN")}},
                            "conditional_accumulator");
    if (!accumulator)
        return unexpected(accumulator.error());
    const Output handle = accumulator->output(0);
    auto apply = b.op("ResourceAccumulatorApplyGradient", {handle, localStep, grad});
    if (!apply)
        return unexpected(apply.error());
    auto take = takeGradient(b, "ResourceAccumulatorTakeGradient", handle, grad.dtype(), replicas);
    if (!take)
        return unexpected(take.error());
    Output mean = take->output(0);
    if (Status s = b.setShape(mean, var.shape()); !s.isOk())
        return unexpected(s);
    mean = Output(mean.node(), mean.index(), mean.dtype(), var.shape());
    return Accumulated{*apply, Gradient(mean), handle};
}

/// IndexedSlices through a SparseConditionalAccumulator (MEAN) shared as `sharedName`.
Expected<Accumulated> accumulateSparse(GraphBuilder& b, const IndexedSlices& slices, const Output& localStep,
                                       const std::string& sharedName, int replicas)
{
    auto accumulator = b.op("SparseConditionalAccumulator", {},
                            {{"dtype", attr::type(slices.dtype())},
                             {"shape", attr::shape(TensorShape::scalar())},
                             {"shared_name", attr::s(sharedName)},
                             {"reduction_type", attr::s("MEAN")}},
                            "sparse_conditional_accumulator");
    if (!accumulator)
        return unexpected(accumulator.error());
    const Output handle = accumulator->output(0);
    auto toInt64 = [&](const Output& x) -> Expected<Output> {
        if (x.baseDtype() == tensorflow::DT_INT64)
            return x;
        auto cast = b.op("Cast", {x}, {{"DstT", attr::type(tensorflow::DT_INT64)}}, "Cast");
        if (!cast)
            return unexpected(cast.error());
        return cast->output(0);
    };
    auto indices = toInt64(slices.indices);
    if (!indices)
        return unexpected(indices.error());
    Expected<Output> shape = slices.denseShape
                                 ? toInt64(*slices.denseShape)
                                 : ops::constantInts(b, {}, TensorShape({0}), tensorflow::DT_INT64, "Const");
    if (!shape)
        return unexpected(shape.error());
    auto apply =
        b.op("SparseAccumulatorApplyGradient", {handle, localStep, *indices, slices.values, *shape},
             {{"has_known_shape", attr::b(slices.denseShape.has_value())}});
    if (!apply)
        return unexpected(apply.error());
    auto take = takeGradient(b, "SparseAccumulatorTakeGradient", handle, slices.dtype(), replicas);
    if (!take)
        return unexpected(take.error());
    return Accumulated{*apply, Gradient(IndexedSlices{take->output(1), take->output(0), take->output(2)}), handle};
}

} // namespace

SyncReplicasOptimizer::SyncReplicasOptimizer(Optimizer& inner, int replicasToAggregate,
                                             std::optional<int> totalNumReplicas, std::string name)
    : m_inner(inner), m_replicasToAggregate(replicasToAggregate),
      m_totalNumReplicas(totalNumReplicas.value_or(replicasToAggregate)), m_name(std::move(name))
{
}

Expected<std::vector<SparseGradAndVar>>
SyncReplicasOptimizer::computeGradients(GraphBuilder& b, const Output& loss,
                                        std::optional<std::vector<Variable>> varList)
{
    return m_inner.computeGradientsWithSlices(b, loss, std::move(varList));
}

Expected<Operation> SyncReplicasOptimizer::minimize(GraphBuilder& b, const Output& loss,
                                                    const std::optional<Variable>& globalStep,
                                                    std::optional<std::vector<Variable>> varList)
{
    auto grads = computeGradients(b, loss, std::move(varList));
    if (!grads)
        return unexpected(grads.error());
    return applyGradients(b, *grads, globalStep);
}

Expected<Operation> SyncReplicasOptimizer::applyGradients(GraphBuilder& b,
                                                          const std::vector<SparseGradAndVar>& gradsAndVars,
                                                          const std::optional<Variable>& globalStep)
{
    if (gradsAndVars.empty())
        return unexpected(invalidArgumentError("Must supply at least one variable"));
    if (!globalStep)
        return unexpected(invalidArgumentError("Global step is required to check staleness"));
    if (m_graph)
        return unexpected(failedPreconditionError("SyncReplicasOptimizer '" + m_name +
                                                  "': apply_gradients was called already (one graph per optimizer)"));
    const DataType stepType = globalStep->dtype();
    const std::string stepDevice = deviceOf(b, globalStep->name());
    SyncReplicasGraph graph;
    graph.replicasToAggregate = m_replicasToAggregate;
    graph.totalNumReplicas = m_totalNumReplicas;
    graph.globalStep = globalStep->name();

    // The local step lives on the worker, beside a NoOp the worker's device scopes place.
    auto anchor = ops::noOp(b);
    if (!anchor)
        return unexpected(anchor.error());
    std::optional<Variable> localStep;
    {
        auto colocated = b.colocateWith(*anchor);
        tensorflow::TensorProto zero;
        zero.set_dtype(stepType);
        zero.mutable_tensor_shape();
        if (stepType == tensorflow::DT_INT64)
            zero.add_int64_val(0);
        else
            zero.add_int_val(0);
        auto made = variable(b, zero, "sync_rep_local_step", false,
                             std::vector<std::string>{std::string(graph_keys::kLocalVariables)});
        if (!made)
            return unexpected(made.error());
        localStep = *made;
    }
    auto localStepInit = b.op("Assign", {localStep->ref(), globalStep->value()}, {}, "Assign");
    if (!localStepInit)
        return unexpected(localStepInit.error());
    graph.localStepInitOp = localStepInit->name();
    std::vector<Operation> chiefInitOps = {*localStepInit};
    auto ready = reportUninitializedVariables(b, globalVariables(b));
    if (!ready)
        return unexpected(ready.error());
    graph.readyForLocalInitOp = ready->name();

    auto scope = b.nameScope(m_name);
    if (!scope)
        return unexpected(scope.error());
    std::vector<Operation> trainOps;
    std::vector<SparseGradAndVar> aggregated;
    std::vector<std::pair<Output, std::string>> accumulators; // handle, device
    for (const auto& [grad, var] : gradsAndVars) {
        const std::string varDevice = deviceOf(b, var.name());
        auto onVariable = b.device(varDevice);
        if (!onVariable)
            return unexpected(onVariable.error());
        if (!grad) {
            aggregated.push_back({std::nullopt, var});
            continue;
        }
        const std::string sharedName = var.name() + ":0/grad_accum";
        auto taken = grad->isSparse() ? accumulateSparse(b, grad->sparse(), localStep->value(), sharedName,
                                                         m_replicasToAggregate)
                                      : accumulateDense(b, grad->dense(), var, localStep->value(), sharedName,
                                                        m_replicasToAggregate);
        if (!taken)
            return unexpected(taken.error());
        trainOps.push_back(taken->apply);
        aggregated.push_back({taken->gradient, var});
        accumulators.push_back({taken->handle, varDevice});
    }

    Operation update;
    Operation syncOp;
    Operation trainOp;
    {
        auto root = b.nameScope("");
        if (!root)
            return unexpected(root.error());
        auto onStep = b.device(stepDevice);
        if (!onStep)
            return unexpected(onStep.error());
        auto applied = m_inner.applyGradientsWithSlices(b, aggregated, *globalStep);
        if (!applied)
            return unexpected(applied.error());
        update = *applied;

        auto tokenQueue = fifoQueue(b, -1, stepType, "sync_token_q");
        if (!tokenQueue)
            return unexpected(tokenQueue.error());
        auto dummyQueue = fifoQueue(b, 1, tensorflow::DT_INT32, "dummy_queue");
        if (!dummyQueue)
            return unexpected(dummyQueue.error());
        graph.tokenQueue = tokenQueue->name();
        Output token;
        {
            auto afterApplies = b.controlDependencies(trainOps);
            auto dequeue = b.op("QueueDequeueV2", {tokenQueue->output(0)},
                                {{"component_types", attr::types({stepType})}}, "sync_token_q_Dequeue");
            if (!dequeue)
                return unexpected(dequeue.error());
            token = Output(dequeue->name(), 0, stepType, TensorShape::scalar());
        }
        auto assign = b.op("Assign", {localStep->ref(), token}, {}, "Assign");
        if (!assign)
            return unexpected(assign.error());
        trainOp = *assign;
        {
            auto afterUpdate = b.controlDependencies({update});
            auto tokens = fillVector(b, std::max(m_totalNumReplicas, m_replicasToAggregate), globalStep->value());
            if (!tokens)
                return unexpected(tokens.error());
            auto enqueue = b.op("QueueEnqueueManyV2", {tokenQueue->output(0), std::vector<Output>{*tokens}}, {},
                                "sync_token_q_EnqueueMany");
            if (!enqueue)
                return unexpected(enqueue.error());
            syncOp = *enqueue;
        }
        auto close = closeQueue(b, dummyQueue->output(0), false);
        if (!close)
            return unexpected(close.error());
        auto cancel = closeQueue(b, dummyQueue->output(0), true);
        if (!cancel)
            return unexpected(cancel.error());
        graph.chiefQueueRunner.set_queue_name(dummyQueue->name());
        graph.chiefQueueRunner.add_enqueue_op_name(syncOp.name());
        graph.chiefQueueRunner.set_close_op_name(close->name());
        graph.chiefQueueRunner.set_cancel_op_name(cancel->name());
    }
    for (const auto& [handle, device] : accumulators) {
        auto onDevice = b.device(device);
        if (!onDevice)
            return unexpected(onDevice.error());
        const bool resource = handle.baseDtype() == tensorflow::DT_RESOURCE;
        auto set = b.op(resource ? "ResourceAccumulatorSetGlobalStep" : "AccumulatorSetGlobalStep",
                        {handle, globalStep->value()}, {}, "SetGlobalStep");
        if (!set)
            return unexpected(set.error());
        chiefInitOps.push_back(*set);
    }
    auto chiefInit = ops::group(b, chiefInitOps);
    if (!chiefInit)
        return unexpected(chiefInit.error());
    graph.chiefInitOp = chiefInit->name();
    m_graph = std::move(graph);
    return trainOp;
}

Expected<SyncReplicasGraph> SyncReplicasOptimizer::graph() const
{
    if (!m_graph)
        return unexpected(failedPreconditionError("Should be called after apply_gradients()."));
    return *m_graph;
}

Expected<tensorflow::QueueRunnerDef> SyncReplicasOptimizer::chiefQueueRunner() const
{
    if (!m_graph)
        return unexpected(failedPreconditionError("Should be called after apply_gradients()."));
    return m_graph->chiefQueueRunner;
}

Expected<std::shared_ptr<SessionRunHook>> SyncReplicasOptimizer::makeSessionRunHook(bool isChief, int numTokens) const
{
    if (!m_graph)
        return unexpected(
            failedPreconditionError("SyncReplicasOptimizer.apply_gradient should be called before using the hook."));
    return makeSyncReplicasHook(*m_graph, isChief, numTokens);
}

Expected<Operation> initTokensOp(GraphBuilder& b, const SyncReplicasGraph& graph, int numTokens)
{
    const int needed = graph.replicasToAggregate - graph.totalNumReplicas;
    if (numTokens == -1)
        numTokens = graph.replicasToAggregate;
    else if (numTokens < needed)
        return unexpected(invalidArgumentError("Too few tokens to finish the first step: " + std::to_string(numTokens) +
                                               " (given) vs " + std::to_string(needed) + " (needed)"));
    auto root = b.nameScope("");
    if (!root)
        return unexpected(root.error());
    if (numTokens <= 0)
        return ops::noOp(b, "no_init_tokens");
    auto onStep = b.device(deviceOf(b, graph.globalStep));
    if (!onStep)
        return unexpected(onStep.error());
    auto step = b.tensor(graph.globalStep + "/read");
    if (!step)
        return unexpected(step.error());
    auto queue = b.tensor(graph.tokenQueue);
    if (!queue)
        return unexpected(queue.error());
    auto tokens = fillVector(b, numTokens, *step);
    if (!tokens)
        return unexpected(tokens.error());
    return b.op("QueueEnqueueManyV2", {*queue, std::vector<Output>{*tokens}}, {}, graph.tokenQueue + "_EnqueueMany");
}

Expected<SyncReplicasGraph> findSyncReplicasGraph(const GraphBuilder& b, int replicasToAggregate, int totalNumReplicas,
                                                  const std::vector<tensorflow::QueueRunnerDef>& queueRunners,
                                                  const std::string& readyForLocalInitOp, std::string_view name)
{
    SyncReplicasGraph graph;
    graph.replicasToAggregate = replicasToAggregate;
    graph.totalNumReplicas = totalNumReplicas;
    graph.readyForLocalInitOp = readyForLocalInitOp;
    graph.tokenQueue = "sync_token_q";
    graph.chiefInitOp = std::string(name) + "/group_deps";
    auto require = [&](const std::string& node) -> Status {
        return b.findNode(node) ? Status::ok()
                                : notFoundError("not a SyncReplicasOptimizer graph: it has no node '" + node + "'");
    };
    for (const std::string& node : {graph.tokenQueue, graph.chiefInitOp, std::string("sync_rep_local_step")})
        if (Status s = require(node); !s.isOk())
            return unexpected(s);
    // local_step_init_op: the Assign of the global step's value to the local step.
    for (const tensorflow::NodeDef& node : b.graphDef().node()) {
        if (node.op() == "Assign" && node.input_size() == 2 && node.input(0) == "sync_rep_local_step" &&
            node.input(1).ends_with("/read")) {
            graph.localStepInitOp = node.name();
            graph.globalStep = node.input(1).substr(0, node.input(1).size() - 5);
            break;
        }
    }
    if (graph.localStepInitOp.empty())
        return unexpected(notFoundError("not a SyncReplicasOptimizer graph: no Assign of the global step to "
                                        "'sync_rep_local_step'"));
    const auto runner = std::find_if(queueRunners.begin(), queueRunners.end(),
                                     [](const auto& r) { return r.queue_name() == "dummy_queue"; });
    if (runner != queueRunners.end()) {
        graph.chiefQueueRunner = *runner;
    } else {
        for (const std::string& node : {std::string("dummy_queue"), graph.tokenQueue + "_EnqueueMany",
                                        std::string("dummy_queue_Close"), std::string("dummy_queue_Close_1")})
            if (Status s = require(node); !s.isOk())
                return unexpected(s);
        graph.chiefQueueRunner.set_queue_name("dummy_queue");
        graph.chiefQueueRunner.add_enqueue_op_name(graph.tokenQueue + "_EnqueueMany");
        graph.chiefQueueRunner.set_close_op_name("dummy_queue_Close");
        graph.chiefQueueRunner.set_cancel_op_name("dummy_queue_Close_1");
    }
    return graph;
}

} // namespace tstudio::training
