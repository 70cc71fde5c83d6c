// GradLoopState and ControlFlowState: TensorFlow 1.15's loop counters, history accumulators and
// gradient WhileContext (control_flow_state.py, WhileContext.AddForwardLoopCounter and friends).
#include "autodiff/control_flow_state.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"

#include <algorithm>

namespace tstudio {
namespace {

/// control_flow_ops.merge([x, x], name): the first output.
Expected<Output> mergeTwice(GraphBuilder& b, const Output& x, std::string_view name = "Merge")
{
    TSTUDIO_AD_TRY(m, b.op("Merge", {std::vector<Output>{x, x}}, {}, name));
    return m.output(0);
}

/// control_flow_ops.switch(data, pred), colocated with data.
Expected<Operation> switchOn(GraphBuilder& b, const Output& data, const Output& pred)
{
    TSTUDIO_AD_TRY(producer, py::producer(b, data));
    auto colocation = b.colocateWith(producer, true);
    return b.op("Switch", {data, pred}, {}, "Switch");
}

/// util.GetLoopConstantEnter: the is_constant Enter `t` passes through (Identity and Switch
/// skipped), or "".
std::string loopConstantEnter(const GraphBuilder& b, const Output& t)
{
    const tensorflow::NodeDef* node = b.findNode(t.node());
    while (node != nullptr &&
           (node->op() == "Identity" || node->op() == "RefIdentity" || node->op() == "Switch" ||
            node->op() == "RefSwitch") &&
           node->input_size() > 0) {
        auto in = b.tensor(node->input(0));
        node = in ? b.findNode(in->node()) : nullptr;
    }
    return node != nullptr && isLoopConstantEnter(b, node->name()) ? node->name() : std::string();
}

/// util.GetOutputContext: the context of `t`'s producer (the outer one for a loop Exit).
ControlFlowContext* outputContext(const GraphBuilder& b, const Output& t)
{
    ControlFlowContext* context = b.contextOf(t.node());
    if (context != nullptr && isLoopExit(b, t.node()))
        context = context->outerContext();
    return context;
}

} // namespace

GradLoopState* currentGradLoopState(const GraphBuilder& b)
{
    WhileContext* grad = whileContextOf(b.controlFlowContext());
    return grad != nullptr ? dynamic_cast<GradLoopState*>(grad->gradState()) : nullptr;
}

// --- GradLoopState -----------------------------------------------------------------------------------

Expected<std::shared_ptr<GradLoopState>> GradLoopState::create(GraphBuilder& b, WhileContext& forward,
                                                               GradLoopState* outer)
{
    WhileContext* outerForward = whileContextOf(forward.outerContext());
    if (outerForward != nullptr && (outer == nullptr || outer->m_forward != outerForward))
        return unexpected(unimplementedError("Gradients of the while loop '" + forward.name() +
                                             "' without gradients of the loop it is nested in are not supported"));
    std::shared_ptr<GradLoopState> state(new GradLoopState());
    state->m_forward = &forward;
    state->m_outer = outer;
    state->m_callContext = b.controlFlowContext();
    state->m_forwardLoopExits = forward.loopExits();
    state->pendingExitsCount = static_cast<int>(forward.loopExits().size());
    auto noControls = b.clearControlDependencies();

    // AddForwardLoopCounter: how many iterations the forward loop ran (each time it ran).
    Output count;
    {
        auto inOuter = b.controlFlowContextScope(outerForward);
        TSTUDIO_AD_TRY(n, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "f_count"));
        if (outer != nullptr) {
            // The pushes of one run of the inner loop come before those of the next run.
            TSTUDIO_AD_CHECK(b.addControlInput(n.node(), outer->m_forwardAdd.node()));
        }
        auto inForward = b.controlFlowContextScope(&forward);
        forward.addName(n.name());
        TSTUDIO_AD_TRY(enter, enterFrame(b, forward, n, false, "f_count"));
        forward.mutableLoopEnters().push_back(enter);
        TSTUDIO_AD_TRY(merge, mergeTwice(b, enter));
        TSTUDIO_AD_TRY(sw, switchOn(b, merge, forward.pivot()));
        TSTUDIO_AD_TRY(add, py::genOpScalarY(b, "Add", sw.output(1), 1));
        TSTUDIO_AD_TRY(next, py::genOp(b, "NextIteration", {add}));
        TSTUDIO_AD_CHECK(b.updateInput(merge.node(), 1, next));
        TSTUDIO_AD_TRY(exit, py::genOp(b, "Exit", {sw.output(0)}, {}, "f_count"));
        forward.mutableLoopExits().push_back(exit);
        forward.exitResult({exit});
        state->m_forwardIndex = next;
        state->m_forwardAdd = add;
        count = exit;
    }

    // The gradient loop, nested in the outer gradient loop for a nested loop, which replays the
    // inner count of each outer iteration from a history stack.
    Output realCount = count;
    WhileContext* outerGrad = outer != nullptr ? outer->m_grad : nullptr;
    if (outer != nullptr) {
        outerForward->addName(count.name());
        TSTUDIO_AD_TRY(history, outer->addForwardAccumulator(b, count));
        TSTUDIO_AD_TRY(popped, outer->addBackpropAccumulatedValue(b, history, count));
        realCount = popped;
    }
    auto inOuterGrad = b.controlFlowContextScope(outerGrad);
    const std::string frame = b.uniqueName(forward.name());
    auto* grad = static_cast<WhileContext*>(b.addControlFlowContext(
        std::make_unique<WhileContext>(outerGrad, frame, forward.parallelIterations(), forward.backProp())));
    grad->setGradState(state);
    state->m_grad = grad;

    // AddBackpropLoopCounter: as many iterations, counting down.
    TSTUDIO_AD_TRY(one, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "b_count"));
    auto inGrad = b.controlFlowContextScope(grad);
    grad->addName(realCount.name());
    TSTUDIO_AD_TRY(enter, enterFrame(b, *grad, realCount, false, "b_count"));
    grad->mutableLoopEnters().push_back(enter);
    TSTUDIO_AD_TRY(merge, mergeTwice(b, enter));
    grad->setPivotForPred(merge);
    TSTUDIO_AD_TRY(pred, py::genOp(b, "GreaterEqual", {merge, one}));
    TSTUDIO_AD_TRY(loopCond, py::genOp(b, "LoopCond", {pred}, {}, "b_count"));
    grad->setPivot(loopCond);
    TSTUDIO_AD_TRY(sw, switchOn(b, merge, loopCond));
    TSTUDIO_AD_TRY(index, py::genOp(b, "Sub", {sw.output(1), one}));
    grad->setPivotForBody(index);
    TSTUDIO_AD_TRY(next, py::genOp(b, "NextIteration", {index}));
    TSTUDIO_AD_CHECK(b.updateInput(merge.node(), 1, next));
    TSTUDIO_AD_TRY(finalZero, py::genOp(b, "Exit", {sw.output(0)}, {}, "b_count"));
    grad->mutableLoopExits().push_back(finalZero);
    grad->exitResult({finalZero});
    state->m_gradIndex = next;
    if (outer != nullptr) {
        // The pops of one run of the inner gradient loop come before those of the next run.
        TSTUDIO_AD_TRY(sync, outer->gradSync(b));
        TSTUDIO_AD_CHECK(b.addControlInput(sync.name(), finalZero.node()));
    }
    forward.setHasGradient();
    return state;
}

Expected<Operation> GradLoopState::gradSync(GraphBuilder& b)
{
    if (m_gradSync)
        return *m_gradSync;
    auto noControls = b.clearControlDependencies();
    auto inGrad = b.controlFlowContextScope(m_grad);
    TSTUDIO_AD_TRY(sync, b.op("ControlTrigger", {}, {}, "b_sync"));
    TSTUDIO_AD_CHECK(b.addControlInput(m_gradIndex.node(), sync.name()));
    m_gradSync = sync;
    return sync;
}

Expected<Operation> GradLoopState::forwardSync(GraphBuilder& b)
{
    if (m_forwardSync)
        return *m_forwardSync;
    auto noControls = b.clearControlDependencies();
    Operation sync;
    {
        auto outside = b.controlFlowContextScope(nullptr);
        TSTUDIO_AD_TRY(made, b.op("ControlTrigger", {}, {}, "f_sync"));
        sync = made;
    }
    TSTUDIO_AD_CHECK(b.setContextOf(sync.name(), m_forward));
    TSTUDIO_AD_CHECK(b.addControlInput(m_forwardIndex.node(), sync.name()));
    m_forwardSync = sync;
    return sync;
}

Expected<Output> GradLoopState::addForwardAccumulator(GraphBuilder& b, const Output& value)
{
    auto noControls = b.clearControlDependencies();
    Output acc;
    {
        // The stack lives outside both loops (the context gradients() was called in).
        auto outside = b.controlFlowContextScope(m_callContext);
        TSTUDIO_AD_TRY(producer, py::producer(b, value));
        auto colocation = b.colocateWith(producer);
        TSTUDIO_AD_TRY(maxSize, ops::constantInts(b, {-1}, TensorShape::scalar(), tensorflow::DT_INT32, "Const"));
        TSTUDIO_AD_TRY(stack,
                       py::genOp(b, "StackV2", {maxSize}, {{"elem_type", attr::type(value.baseDtype())}}, "f_acc"));
        acc = stack;
    }
    TSTUDIO_AD_TRY(enterAcc, [&]() {
        auto outside = b.controlFlowContextScope(m_callContext);
        return m_forward->addValue(b, acc);
    }());
    ControlFlowContext* valueContext = outputContext(b, value);
    if (valueContext == m_forward || valueContext == nullptr || valueContext->condContext() == nullptr) {
        auto inForward = b.controlFlowContextScope(m_forward);
        TSTUDIO_AD_TRY(push, py::genOp(b, "StackPushV2", {enterAcc, value}, {{"swap_memory", attr::b(false)}}));
        // The push of an iteration happens before the counter moves on, and after it moved to this one.
        TSTUDIO_AD_CHECK(b.addControlInput(m_forwardIndex.node(), push.node()));
        TSTUDIO_AD_CHECK(b.addControlInput(push.node(), m_forwardAdd.node()));
        return acc;
    }
    // `value` was made in a cond branch inside the loop: the push runs in that branch (the stack
    // enters it through the branch's Switch), so only when the branch is taken.
    Output push;
    {
        auto inBranch = b.controlFlowContextScope(valueContext);
        TSTUDIO_AD_TRY(made, py::genOp(b, "StackPushV2", {enterAcc, value}, {{"swap_memory", attr::b(false)}}));
        push = made;
    }
    TSTUDIO_AD_TRY(sync, forwardSync(b));
    TSTUDIO_AD_CHECK(b.addControlInput(sync.name(), push.node()));
    TSTUDIO_AD_CHECK(b.addControlInput(push.node(), m_forwardAdd.node()));
    return acc;
}

Expected<Output> GradLoopState::addBackpropAccumulatedValue(GraphBuilder& b, const Output& history, const Output& value)
{
    // The cond branch of the forward loop that made `value`, if any: its pushes happened only when
    // the branch was taken, so the pop is guarded by a Switch on the predicate of that iteration.
    CondContext* branch = nullptr;
    for (ControlFlowContext* c = b.contextOf(value.node()); c != nullptr && c != m_forward; c = c->outerContext()) {
        if (CondContext* cond = c->condContext()) {
            branch = cond;
            break;
        }
    }
    Output guardPred;
    if (branch != nullptr) {
        TSTUDIO_AD_TRY(realPred, realValue(b, branch->pred()));
        guardPred = realPred;
    }
    Output pop;
    {
        auto noControls = b.clearControlDependencies();
        auto inGrad = b.controlFlowContextScope(m_grad);
        Output stack = history;
        if (branch != nullptr) {
            TSTUDIO_AD_TRY(guard, switchOn(b, history, guardPred));
            stack = guard.output(branch->branch());
        }
        TSTUDIO_AD_TRY(p, py::genOp(b, "StackPopV2", {stack}, {{"elem_type", attr::type(value.baseDtype())}}));
        TSTUDIO_AD_CHECK(b.setShape(p, value.shape()));
        TSTUDIO_AD_TRY(fresh, b.tensor(p.name()));
        pop = fresh;
    }
    if (m_grad->parallelIterations() > 1) {
        // Every pop of an iteration happens before the gradient loop's counter moves on.
        TSTUDIO_AD_TRY(sync, gradSync(b));
        TSTUDIO_AD_CHECK(b.addControlInput(sync.name(), pop.node()));
    }
    return pop;
}

Expected<Output> GradLoopState::realValue(GraphBuilder& b, const Output& value)
{
    if (auto it = m_historyMap.find(value.name()); it != m_historyMap.end())
        return it->second;
    // Walk out through loop-invariant Enters to the loop whose history holds the value.
    Output current = value;
    GradLoopState* state = this;
    std::optional<Output> real;
    Output history;
    for (;;) {
        const std::string enterNode = loopConstantEnter(b, current);
        const tensorflow::NodeDef* node = b.findNode(current.node());
        if (!enterNode.empty()) {
            TSTUDIO_AD_TRY(outside, b.tensor(b.findNode(enterNode)->input(0)));
            current = outside;
            state = state->m_outer;
            if (state == nullptr) {
                // Invariant of every loop being differentiated: it simply enters the gradient loop.
                TSTUDIO_AD_TRY(entered, m_grad->addValue(b, current));
                real = entered;
                break;
            }
        } else if (node != nullptr && node->op() == "Const") {
            // A constant is cloned in the gradient loop rather than kept in a stack.
            auto inGrad = b.controlFlowContextScope(m_grad);
            TSTUDIO_AD_TRY(
                clone,
                py::genOp(b, "Const", {}, {{"value", node->attr().at("value")}, {"dtype", node->attr().at("dtype")}}));
            real = clone;
            break;
        } else {
            auto outside = b.controlFlowContextScope(m_callContext);
            TSTUDIO_AD_TRY(h, state->addForwardAccumulator(b, current));
            history = h;
            break;
        }
    }
    if (!real) {
        TSTUDIO_AD_TRY(popped, state->addBackpropAccumulatedValue(b, history, current));
        real = popped;
        if (state != this) {
            auto inGrad = b.controlFlowContextScope(m_grad);
            TSTUDIO_AD_TRY(entered, m_grad->addValue(b, popped));
            real = entered;
        }
    }
    m_historyMap[value.name()] = *real;
    return *real;
}

Expected<Output> GradLoopState::addBackpropAccumulator(GraphBuilder& b, const std::string& enterNode,
                                                       const Output& grad)
{
    auto noControls = b.clearControlDependencies();
    Output acc;
    {
        auto outside = b.controlFlowContextScope(m_grad->outerContext());
        if (grad.shape().isFullyDefined()) {
            TSTUDIO_AD_TRY(zeros, ops::constant(b, std::vector<double>{0.0}, grad.shape(), grad.baseDtype(), "b_acc"));
            acc = zeros;
        } else if (m_outer != nullptr) {
            return unexpected(unimplementedError("the gradient of the loop invariant '" + enterNode +
                                                 "' of a nested loop needs a statically known shape"));
        } else {
            const tensorflow::NodeDef* enter = b.findNode(enterNode);
            TSTUDIO_AD_TRY(value, b.tensor(enter->input(0)));
            TSTUDIO_AD_TRY(shape, py::shape(b, value, false));
            TSTUDIO_AD_TRY(zeros, py::zeros(b, shape, grad.baseDtype()));
            acc = zeros;
        }
    }
    auto inGrad = b.controlFlowContextScope(m_grad);
    m_grad->addName(acc.name());
    TSTUDIO_AD_TRY(enterAcc, enterFrame(b, *m_grad, acc, false, "b_acc"));
    m_grad->mutableLoopEnters().push_back(enterAcc);
    TSTUDIO_AD_TRY(merge, mergeTwice(b, enterAcc, "b_acc"));
    TSTUDIO_AD_TRY(sw, switchOn(b, merge, m_grad->pivot()));
    TSTUDIO_AD_TRY(add, py::genOp(b, "Add", {sw.output(1), grad}));
    TSTUDIO_AD_TRY(next, py::genOp(b, "NextIteration", {add}));
    TSTUDIO_AD_CHECK(b.updateInput(merge.node(), 1, next));
    TSTUDIO_AD_TRY(result, py::genOp(b, "Exit", {sw.output(0)}, {}, "b_acc"));
    m_grad->mutableLoopExits().push_back(result);
    m_grad->exitResult({result});
    return result;
}

Expected<Output> GradLoopState::enterExitGradient(GraphBuilder& b, const Output& grad)
{
    m_grad->addName(grad.name());
    TSTUDIO_AD_TRY(enter, enterFrame(b, *m_grad, grad, false, "b_exit"));
    m_grad->mutableLoopEnters().push_back(enter);
    return enter;
}

// --- ControlFlowState --------------------------------------------------------------------------------

Expected<std::vector<Output>> ControlFlowState::addWhileContext(const std::string& exitNode)
{
    WhileContext* forward = whileContextOf(m_b.contextOf(exitNode));
    if (forward == nullptr)
        return unexpected(internalError("the loop exit '" + exitNode + "' has no while context"));
    return addLoop(*forward);
}

Expected<std::vector<Output>> ControlFlowState::addLoop(WhileContext& forward)
{
    std::vector<Output> exits;
    if (m_states.count(&forward) > 0)
        return exits;
    // _ExitGrad: a gradient loop is not differentiated again.
    if (forward.gradState() != nullptr && forward.backProp())
        return unexpected(invalidArgumentError("Second-order gradient for while loops not supported (the gradient "
                                               "loop '" +
                                               forward.name() + "')."));
    GradLoopState* outer = nullptr;
    if (WhileContext* outerForward = whileContextOf(forward.outerContext())) {
        TSTUDIO_AD_TRY(outerExits, addLoop(*outerForward));
        exits = outerExits;
        outer = m_states.at(outerForward).get();
    }
    TSTUDIO_AD_TRY(state, GradLoopState::create(m_b, forward, outer));
    m_states.emplace(&forward, state);
    exits.insert(exits.end(), state->forwardLoopExits().begin(), state->forwardLoopExits().end());
    return exits;
}

GradLoopState* ControlFlowState::gradState(const std::string& node, bool before) const
{
    ControlFlowContext* context = m_b.contextOf(node);
    WhileContext* forward = nullptr;
    if (before && isLoopExit(m_b, node))
        forward = whileContextOf(context != nullptr ? context->outerContext() : nullptr);
    else
        forward = whileContextOf(context);
    auto it = m_states.find(forward);
    return it == m_states.end() ? nullptr : it->second.get();
}

std::optional<ScopeGuard> ControlFlowState::enterGradWhileContext(const std::string& node, bool before) const
{
    GradLoopState* state = gradState(node, before);
    if (state == nullptr)
        return std::nullopt;
    return m_b.controlFlowContextScope(state->gradContext());
}

std::vector<Output> ControlFlowState::processUnusedLoopExits(const std::function<int(const std::string&)>& pending,
                                                             const std::vector<std::string>& toOps)
{
    std::vector<Output> exits;
    for (auto& [forward, state] : m_states) {
        for (const Output& y : state->forwardLoopExits()) {
            if (pending(y.node()) != 0)
                continue;
            --state->pendingExitsCount;
            if (std::find(toOps.begin(), toOps.end(), y.node()) == toOps.end())
                state->unusedExits.push_back(y);
            if (state->pendingExitsCount == 0)
                exits.insert(exits.end(), state->unusedExits.begin(), state->unusedExits.end());
        }
    }
    return exits;
}

Expected<Output> ControlFlowState::zerosLikeForExit(const Output& exit)
{
    if (GradLoopState* state = gradState(exit.node(), false); state != nullptr && state->m_outer != nullptr) {
        // An exit of a nested loop: zeros in the outer gradient loop.
        if (!exit.shape().isFullyDefined())
            return unexpected(unimplementedError("zeros for the unused exit '" + exit.name() +
                                                 "' of a nested loop need a statically known shape"));
        auto inOuterGrad = m_b.controlFlowContextScope(state->m_outer->gradContext());
        return ops::zeros(m_b, exit.shape(), exit.baseDtype());
    }
    if (exit.shape().isFullyDefined())
        return ops::zeros(m_b, exit.shape(), exit.baseDtype());
    return py::zerosLike(m_b, exit, false);
}

Expected<std::optional<Output>> ControlFlowState::zerosLike(const Operation& op, int index)
{
    if (isLoopSwitch(m_b, op.name()))
        return std::optional<Output>();
    const Output& value = op.output(index);
    auto it = m_states.find(whileContextOf(m_b.contextOf(op.name())));
    if (it == m_states.end()) {
        TSTUDIO_AD_TRY(zeros, py::zerosLike(m_b, value, false));
        return std::optional<Output>(zeros);
    }
    GradLoopState& state = *it->second;
    CondContext* branch = m_b.contextOf(op.name()) != nullptr ? m_b.contextOf(op.name())->condContext() : nullptr;
    if (branch != nullptr && (op.type() == "Switch" || op.type() == "RefSwitch")) {
        // The dead output of a cond branch's Switch: zeros that pass only in the iterations where the
        // branch was not taken (the other Merge input of its gradient is live in the others).
        Output zeros;
        if (value.shape().isFullyDefined()) {
            TSTUDIO_AD_TRY(z, ops::constant(m_b, std::vector<double>{0.0}, value.shape(), value.baseDtype()));
            zeros = z;
        } else {
            // The shape of what the Switch forwards, kept per iteration (it is live either way).
            TSTUDIO_AD_TRY(input, m_b.tensor(m_b.findNode(op.name())->input(0)));
            Output inputShape;
            {
                auto inOuter = m_b.controlFlowContextScope(branch->outerContext());
                TSTUDIO_AD_TRY(s, py::shape(m_b, input, false));
                inputShape = s;
            }
            TSTUDIO_AD_TRY(shape, state.realValue(m_b, inputShape));
            TSTUDIO_AD_TRY(z, py::zeros(m_b, shape, value.baseDtype()));
            zeros = z;
        }
        TSTUDIO_AD_TRY(pred, state.realValue(m_b, branch->pred()));
        TSTUDIO_AD_TRY(guard, switchOn(m_b, zeros, pred));
        return std::optional<Output>(guard.output(1 - branch->branch()));
    }
    if (value.shape().isFullyDefined()) {
        TSTUDIO_AD_TRY(zeros, ops::constant(m_b, std::vector<double>{0.0}, value.shape(), value.baseDtype()));
        return std::optional<Output>(zeros);
    }
    // The shape is only known at run time: keep a history of it.
    Output zerosShape;
    {
        auto inForward = m_b.controlFlowContextScope(m_b.contextOf(op.name()));
        TSTUDIO_AD_TRY(s, py::shape(m_b, value, false));
        zerosShape = s;
    }
    Output history;
    {
        auto outside = m_b.controlFlowContextScope(state.m_callContext);
        TSTUDIO_AD_TRY(h, state.addForwardAccumulator(m_b, zerosShape));
        history = h;
    }
    TSTUDIO_AD_TRY(shape, state.addBackpropAccumulatedValue(m_b, history, zerosShape));
    TSTUDIO_AD_TRY(zeros, py::zeros(m_b, shape, value.baseDtype()));
    return std::optional<Output>(zeros);
}

} // namespace tstudio
