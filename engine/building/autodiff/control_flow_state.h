// ControlFlowState and GradLoopState: what gradients of tf.while_loop need, as TensorFlow 1.15's
// control_flow_state.py keeps it (forward and backward iteration counters, history stacks, the
// gradient loop's WhileContext).
#pragma once

#include "builder/graph_builder.h"
#include "builder/while_loop.h"
#include "core/expected.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

/// The gradient of one forward while loop (TensorFlow's GradLoopState). Creating it adds to the graph:
///  - in the forward loop, the iteration counter "f_count" (Enter, Merge, Switch, Add, NextIteration,
///    Exit "f_count_N");
///  - the gradient loop, a WhileContext with frame "<gradients scope>/<forward frame>" that runs as
///    many iterations as the forward loop did, counting down from the forward count ("b_count":
///    Enter, Merge, GreaterEqual, LoopCond, Switch, Sub, NextIteration, Exit).
/// While the gradient loop is the builder's current context, every op a gradient function creates
/// that reads a tensor of the forward loop reads its value for the matching forward iteration
/// (realValue): a StackV2 "f_acc" made outside the loops, a StackPushV2 in the forward loop and a
/// StackPopV2 in the gradient loop; loop invariants enter the gradient loop; constants are cloned.
/// For a loop nested in another, the inner counts are kept per outer iteration in a stack of the outer
/// loop, and the inner gradient loop runs inside the outer one.
class GradLoopState : public WhileGradState {
public:
    /// Builds the counters and the gradient loop for `forward` (the builder's current name scope is
    /// the gradients scope, its current context the one gradients() was called in). `outer` is the
    /// state of the loop `forward` is nested in (nullptr for a loop at the top); Unimplemented when
    /// the outer loop has none.
    static Expected<std::shared_ptr<GradLoopState>> create(GraphBuilder& b, WhileContext& forward,
                                                           GradLoopState* outer);

    WhileContext* forwardContext() const override { return m_forward; }
    Expected<Output> realValue(GraphBuilder& b, const Output& value) override;

    WhileContext* gradContext() const { return m_grad; }
    /// The forward loop's exits as they were before the counter was added.
    const std::vector<Output>& forwardLoopExits() const { return m_forwardLoopExits; }

    /// _EnterGrad of an is_constant Enter: the gradient of a loop invariant, summed over the
    /// iterations in a "b_acc" loop var of the gradient loop, out of its Exit.
    Expected<Output> addBackpropAccumulator(GraphBuilder& b, const std::string& enterNode, const Output& grad);
    /// _ExitGrad: `grad` enters the gradient loop as a loop var ("b_exit").
    Expected<Output> enterExitGradient(GraphBuilder& b, const Output& grad);

    // Bookkeeping of the driver (gradients.cpp) and of _SwitchGrad.
    int pendingExitsCount = 0;
    std::vector<Output> deferredExits;
    std::vector<Output> unusedExits;
    /// Forward loop Switch node -> the "b_switch" Merge its exit-branch gradient made.
    std::map<std::string, Output> switchMap;

private:
    friend class ControlFlowState;
    GradLoopState() = default;
    /// AddForwardAccumulator: a stack "f_acc" of `value`'s history, pushed in the forward loop (in
    /// the cond branch of the forward loop that made `value`, when a branch did: the push then runs
    /// only when the branch is taken, and the counter waits for it through "f_sync").
    Expected<Output> addForwardAccumulator(GraphBuilder& b, const Output& value);
    /// AddBackpropAccumulatedValue: the pop of `history` in the gradient loop (guarded by a Switch on
    /// the popped predicate when `value` was made in a cond branch of the forward loop).
    Expected<Output> addBackpropAccumulatedValue(GraphBuilder& b, const Output& history, const Output& value);
    Expected<Operation> gradSync(GraphBuilder& b);
    /// forward_sync: a ControlTrigger "f_sync" in the forward loop that the counter's NextIteration
    /// waits for; pushes made in cond branches are its control inputs (a dead push does not stop it).
    Expected<Operation> forwardSync(GraphBuilder& b);

    WhileContext* m_forward = nullptr;
    GradLoopState* m_outer = nullptr;
    ControlFlowContext* m_callContext = nullptr; ///< the context gradients() was called in
    WhileContext* m_grad = nullptr;
    std::vector<Output> m_forwardLoopExits;
    Output m_forwardIndex; ///< NextIteration of f_count
    Output m_forwardAdd;   ///< the Add of f_count (its input)
    Output m_gradIndex;    ///< NextIteration of b_count
    std::optional<Operation> m_gradSync;
    std::optional<Operation> m_forwardSync;
    std::map<std::string, Output> m_historyMap;
};

/// TensorFlow's ControlFlowState: the GradLoopState of every while loop one gradients() call goes
/// through, keyed by forward loop.
class ControlFlowState {
public:
    explicit ControlFlowState(GraphBuilder& b) : m_b(b) {}

    /// AddWhileContext for the loop of Exit `exitNode`: makes its GradLoopState on first sight (and
    /// those of the loops it is nested in, outer first) and returns every exit of those loops (the
    /// driver treats them all as between the xs and ys); an empty list when they were seen already.
    Expected<std::vector<Output>> addWhileContext(const std::string& exitNode);
    /// GetGradState: the state of the loop `node` belongs to (before: an Exit counts as outside).
    GradLoopState* gradState(const std::string& node, bool before) const;
    /// The current builder context to use around `node`'s gradient (EnterGradWhileContext), or none.
    std::optional<ScopeGuard> enterGradWhileContext(const std::string& node, bool before) const;
    /// ProcessUnusedLoopExits: the exits whose loops have no pending exit left and that got no
    /// gradient. `pending(node)` is the driver's pending count.
    std::vector<Output> processUnusedLoopExits(const std::function<int(const std::string&)>& pending,
                                               const std::vector<std::string>& toOps);
    /// ZerosLikeForExit: zeros for an exit that received no gradient.
    Expected<Output> zerosLikeForExit(const Output& exit);
    /// ZerosLike(op, index) for an unused output of an op in a loop; nullopt for a loop Switch. For
    /// the dead output of a cond branch's Switch in the loop the zeros pass only when that branch was
    /// not taken in the matching forward iteration (a Switch on the popped predicate).
    Expected<std::optional<Output>> zerosLike(const Operation& op, int index);
    bool empty() const { return m_states.empty(); }
    const std::map<WhileContext*, std::shared_ptr<GradLoopState>>& states() const { return m_states; }

private:
    Expected<std::vector<Output>> addLoop(WhileContext& forward);

    GraphBuilder& m_b;
    std::map<WhileContext*, std::shared_ptr<GradLoopState>> m_states;
};

/// The GradLoopState of the gradient loop the builder is in now, or nullptr.
GradLoopState* currentGradLoopState(const GraphBuilder& b);

} // namespace tstudio
