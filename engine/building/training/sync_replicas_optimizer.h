// SyncReplicasOptimizer: tf.train.SyncReplicasOptimizer of TensorFlow 1.15, synchronous data-parallel
// training with ps/worker replicas: per-variable conditional accumulators, a token queue, and the
// chief's queue runner that applies the aggregated gradients.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "proto/queue_runner.pb.h"
#include "training/optimizer.h"
#include "training/session_run_hook.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::training {

/// The node names of a SyncReplicasOptimizer graph that its hook runs: what apply_gradients built
/// (SyncReplicasOptimizer::graph()), or the same names found again in an imported graph
/// (findSyncReplicasGraph), so a graph exported as a MetaGraphDef trains again after re-import.
struct SyncReplicasGraph {
    std::string localStepInitOp;     ///< "Assign": sync_rep_local_step = global_step
    std::string chiefInitOp;         ///< "sync_replicas/group_deps": local step and accumulators' steps
    std::string readyForLocalInitOp; ///< report_uninitialized_variables(global_variables()) output
    std::string tokenQueue;          ///< "sync_token_q"
    std::string globalStep;          ///< the global step variable ("global_step")
    /// The chief's QueueRunnerDef: dummy_queue, enqueue op "sync_token_q_EnqueueMany" (the sync op),
    /// close ops "dummy_queue_Close" and "dummy_queue_Close_1".
    tensorflow::QueueRunnerDef chiefQueueRunner;
    int replicasToAggregate = 1;
    int totalNumReplicas = 1;
};

/// The SyncReplicasGraph of a graph built by SyncReplicasOptimizer with TensorFlow's names
/// (name scope `name`, default "sync_replicas"): the token queue "sync_token_q", the chief
/// queue runner over "dummy_queue" (from `queueRunners`, else rebuilt from the node names), the
/// local step "sync_rep_local_step" and its Assign from the global step, "<name>/group_deps".
/// `readyForLocalInitOp` may be given (it is not recognisable by name alone); empty: the hook
/// skips that check. NotFound naming the first missing node.
Expected<SyncReplicasGraph> findSyncReplicasGraph(const GraphBuilder& b, int replicasToAggregate, int totalNumReplicas,
                                                  const std::vector<tensorflow::QueueRunnerDef>& queueRunners = {},
                                                  const std::string& readyForLocalInitOp = {},
                                                  std::string_view name = "sync_replicas");

/// tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate, total_num_replicas, name) around a
/// TensorStudio optimizer (borrowed: it must outlive this). applyGradients builds TensorFlow 1.15's
/// graph, node for node:
///   "NoOp" (the local anchor, on the worker) and the local int64 variable "sync_rep_local_step"
///   colocated with it (LOCAL_VARIABLES); "Assign" (local_step_init_op: local step = global step);
///   report_uninitialized_variables(global_variables()) (ready_for_local_init_op);
///   under the name scope "sync_replicas", on each variable's device: per dense gradient a
///   ResourceConditionalAccumulator "conditional_accumulator[_N]" (shape the variable's, shared_name
///   "<var>:0/grad_accum") with its ResourceAccumulatorApplyGradient (local step) and
///   ResourceAccumulatorTakeGradient (replicas_to_aggregate); per IndexedSlices gradient a
///   SparseConditionalAccumulator "sparse_conditional_accumulator[_N]" (shape []) with
///   SparseAccumulatorApplyGradient / SparseAccumulatorTakeGradient;
///   at the root, on the global step's device: the inner optimizer's update of the taken gradients
///   with the global step; the FIFOQueueV2 "sync_token_q" (int64 scalars, shared) and "dummy_queue";
///   the train op "Assign_1" (local step = "sync_token_q_Dequeue", which waits for every apply);
///   the sync op "sync_token_q_EnqueueMany" of Fill([tokens_per_step], global_step) after the update;
///   the chief queue runner over dummy_queue running the sync op; "<scope>/SetGlobalStep[_N]" per
///   accumulator and the chief init op "sync_replicas/group_deps".
/// tokens_per_step = max(total_num_replicas, replicas_to_aggregate).
/// Semantics as TensorFlow's: each replica's train op adds its gradients (dropped when computed
/// before the last update) and waits for a token; the chief's queue runner takes the mean of
/// replicas_to_aggregate gradients per variable, applies it, increments the global step and
/// releases tokens_per_step tokens.
class SyncReplicasOptimizer {
public:
    /// `totalNumReplicas` defaults to `replicasToAggregate`.
    SyncReplicasOptimizer(Optimizer& inner, int replicasToAggregate, std::optional<int> totalNumReplicas = {},
                          std::string name = "sync_replicas");

    const std::string& name() const { return m_name; }
    int replicasToAggregate() const { return m_replicasToAggregate; }
    int totalNumReplicas() const { return m_totalNumReplicas; }

    /// The inner optimizer's computeGradientsWithSlices (embedding gradients stay IndexedSlices).
    Expected<std::vector<SparseGradAndVar>> computeGradients(GraphBuilder& b, const Output& loss,
                                                             std::optional<std::vector<Variable>> varList = {});
    /// apply_gradients: returns the train op (see the class comment). InvalidArgument "Must supply at
    /// least one variable" / "Global step is required to check staleness" (TensorFlow's ValueErrors);
    /// FailedPrecondition when called twice.
    Expected<Operation> applyGradients(GraphBuilder& b, const std::vector<SparseGradAndVar>& gradsAndVars,
                                       const std::optional<Variable>& globalStep);
    /// computeGradients then applyGradients.
    Expected<Operation> minimize(GraphBuilder& b, const Output& loss, const std::optional<Variable>& globalStep,
                                 std::optional<std::vector<Variable>> varList = {});

    /// What the hook runs; FailedPrecondition before applyGradients ("Should be called after
    /// apply_gradients().").
    Expected<SyncReplicasGraph> graph() const;
    /// get_chief_queue_runner(); FailedPrecondition before applyGradients.
    Expected<tensorflow::QueueRunnerDef> chiefQueueRunner() const;

    /// make_session_run_hook(is_chief, num_tokens).
    Expected<std::shared_ptr<SessionRunHook>> makeSessionRunHook(bool isChief, int numTokens = -1) const;

private:
    Optimizer& m_inner;
    int m_replicasToAggregate;
    int m_totalNumReplicas;
    std::string m_name;
    std::optional<SyncReplicasGraph> m_graph;
};

/// get_init_tokens_op(num_tokens) over a SyncReplicasGraph: at the root, on the global step's
/// device, Fill([num_tokens], global_step) ("Fill_N") enqueued into the token queue
/// ("sync_token_q_EnqueueMany_N"); num_tokens -1 means replicas_to_aggregate; 0 a NoOp
/// "no_init_tokens". InvalidArgument "Too few tokens to finish the first step: 0 (given) vs 1
/// (needed)" below replicas_to_aggregate - total_num_replicas.
Expected<Operation> initTokensOp(GraphBuilder& b, const SyncReplicasGraph& graph, int numTokens = -1);

/// _SyncReplicasOptimizerHook: begin() builds the init tokens op (chief); afterCreateSession checks
/// that the ready-for-local-init op reports no uninitialized variable (FailedPrecondition "Init
/// operations did not make model ready for SyncReplicasOptimizer local_init. Init op: <op>, error:
/// Variables not initialized: <names>"), runs the chief init op (chief) or the local step init op
/// (other replicas), then, on the chief, the init tokens op and the chief queue runner's threads on
/// the MonitoredTrainingSession's coordinator (which stops and joins them on close).
std::shared_ptr<SessionRunHook> makeSyncReplicasHook(SyncReplicasGraph graph, bool isChief, int numTokens = -1);

} // namespace tstudio::training
