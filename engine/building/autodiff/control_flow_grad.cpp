// The gradients of tf.cond's control-flow ops, as TensorFlow 1.15's control_flow_grad.py builds them.
// When the builder knows the cond's CondContext (conds built with cond(), or imported with their
// "cond_context" collection: builder/control_flow_contexts.h), TensorFlow's rules apply as they are:
//  - a Switch made in a branch: Merge([false grad, true grad]) "cond_grad" (the dead side's zeros
//    come from the driver, or in a gradient loop from ControlFlowState::zerosLike);
//  - a Merge whose first input was made in a branch: Switch(grad, pred) "cond_grad", with pred the
//    branch's pred_id, or in a gradient loop its value for the matching forward iteration (popped
//    from a history stack), so that a tf.cond in a tf.while_loop body is differentiated too.
// Without a context (a GraphDef imported without collections) the cond is read from the graph:
//  - a Switch is a cond branch switch when the driver had to give one of its outputs zeros (the
//    zeros_like of an output nothing consumes: tf.cond uses only the branch output of the Switch it
//    makes for an outer tensor); its gradient is Merge([false grad, true grad]) "cond_grad";
//  - a Merge is a cond merge when walking back from its first input reaches a Switch at the same
//    nesting depth (inner Merge/Switch pairs are skipped); that Switch's predicate (cond/pred_id in a
//    tf.cond, or the predicate itself for the pivot Switch that guards constants) is the cond's, and
//    the gradient is Switch(grad, predicate) "cond_grad", colocated with the gradient.
//    Such a cond inside a while loop has no gradient (Unimplemented, see refuseCondInGradientLoop).
// In a while loop (the op's context is a WhileContext, see builder/while_loop.h), the gradients are
// those of TensorFlow's v1 loops, built in the gradient loop of autodiff/control_flow_state.h:
//  - Exit: the gradient enters the gradient loop ("b_exit"); nothing when back_prop is false;
//  - Switch: first visit (exit branch) Merge([g, g]) "b_switch", whose second input becomes the
//    NextIteration of the body-branch gradient at the second visit;
//  - Merge: Switch(grad, gradient loop's LoopCond): the exit branch to the Enter, the other to the
//    NextIteration;
//  - NextIteration: the gradient as is; Enter: an Exit of the gradient loop, or for a loop invariant
//    (is_constant) the sum over the iterations ("b_acc").
// LoopCond gets TensorFlow's gradient function, which gives nothing.
#include "autodiff/control_flow_state.h"
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"
#include "framework/op_registry.h"

namespace tstudio {
namespace {

bool isSwitch(const std::string& op)
{
    return op == "Switch" || op == "RefSwitch";
}

bool isMerge(const std::string& op)
{
    return op == "Merge" || op == "RefMerge";
}

/// True when `grad` is the zeros_like the driver made for output `index` of `op` (nothing consumed it).
bool isDriverZeros(const GraphBuilder& b, const std::optional<Output>& grad, const Operation& op, int index)
{
    if (!grad)
        return false;
    const tensorflow::NodeDef* node = b.findNode(grad->node());
    return node != nullptr && node->op() == "ZerosLike" && node->input_size() >= 1 &&
           node->input(0) == op.output(index).inputString();
}

/// The predicate of the cond whose branch produced `t`: the first Switch met walking back from t's
/// producer (data input 0, else the first control input) with as many Switches as Merges on the way.
/// nullopt when the walk leaves the graph without one (t is outside any cond).
Expected<std::optional<Output>> condPredicate(const GraphBuilder& b, const Output& t)
{
    const tensorflow::NodeDef* node = b.findNode(t.node());
    int depth = 0;
    for (int steps = 0; node != nullptr && steps < b.nodeCount(); ++steps) {
        if (isSwitch(node->op())) {
            if (depth == 0) {
                if (node->input_size() < 2)
                    return unexpected(internalError("Switch '" + node->name() + "' has no predicate input"));
                TSTUDIO_AD_TRY(pred, b.tensor(node->input(1)));
                return std::optional<Output>(pred);
            }
            --depth;
        } else if (isMerge(node->op())) {
            ++depth;
        }
        if (node->input_size() == 0)
            break;
        std::string next = node->input(0);
        if (next.starts_with('^'))
            next = next.substr(1);
        TSTUDIO_AD_TRY(in, b.tensor(next));
        node = b.findNode(in.node());
    }
    return std::optional<Output>();
}

/// Gradients of a tf.cond inside a while loop, built in the gradient loop, would need the values of
/// the taken branch kept per iteration by history pushes and pops made inside the branches (TensorFlow's
/// cond-aware GradLoopState); control_flow_state.h keeps histories for loop bodies only.
Status refuseCondInGradientLoop(const GraphBuilder& b, const Operation& op)
{
    if (whileContextOf(b.contextOf(op.name())) == nullptr || currentGradLoopState(b) == nullptr)
        return Status::ok();
    return unimplementedError("gradients of a tf.cond inside a tf.while_loop are not supported ('" + op.name() +
                              "'): the branch values would need per-iteration histories inside the branches");
}

/// util.GetOutputContext(t.op) as a cond branch: the CondContext `t` was made in (for a loop Exit,
/// the one the loop is in), or nullptr.
CondContext* outputCondContext(const GraphBuilder& b, const Output& t)
{
    ControlFlowContext* context = b.contextOf(t.node());
    if (context != nullptr && isLoopExit(b, t.node()))
        context = context->outerContext();
    return context != nullptr ? context->condContext() : nullptr;
}

/// control_flow_ops.merge(inputs, name).
Expected<Output> merge(GraphBuilder& b, const std::vector<Output>& inputs, std::string_view name = "Merge")
{
    return py::genOp(b, "Merge", {inputs}, {}, name);
}

/// control_flow_ops._SwitchRefOrTensor(data, pred, name): a Switch colocated with data.
Expected<Operation> switchColocated(GraphBuilder& b, const Output& data, const Output& pred,
                                    std::string_view name = "Switch")
{
    TSTUDIO_AD_TRY(producer, py::producer(b, data));
    auto colocation = b.colocateWith(producer, true);
    return b.op(isRefType(data.dtype()) ? "RefSwitch" : "Switch", {data, pred}, {}, name);
}

/// _SwitchGrad of a loop Switch.
Status loopSwitchGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    GradLoopState* state = currentGradLoopState(b);
    if (state == nullptr)
        return internalError("the loop Switch '" + ctx.op().name() + "' is differentiated outside its gradient loop");
    if (auto it = state->switchMap.find(ctx.op().name()); it != state->switchMap.end()) {
        // Second visit, from the body branch: close the gradient loop's back edge.
        if (const auto& bodyGrad = ctx.outputGradient(1)) {
            TSTUDIO_AD_TRY(next, py::genOp(b, "NextIteration", {*bodyGrad}));
            TSTUDIO_AD_CHECK(b.updateInput(it->second.node(), 1, next));
        }
        return Status::ok();
    }
    const auto& exitGrad = ctx.outputGradient(0);
    if (!exitGrad)
        return Status::ok(); // the exit branch is not differentiable
    TSTUDIO_AD_TRY(m, b.op("Merge", {std::vector<Output>{*exitGrad, *exitGrad}}, {}, "b_switch"));
    state->switchMap[ctx.op().name()] = m.output(0);
    return ctx.setInputGradient(0, m.output(0));
}

/// _SwitchGrad (Switch and RefSwitch).
Status switchGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    if (isLoopSwitch(b, ctx.op().name()))
        return loopSwitchGrad(ctx);
    const auto& falseGrad = ctx.outputGradient(0);
    const auto& trueGrad = ctx.outputGradient(1);
    if (ControlFlowContext* own = b.contextOf(ctx.op().name()); own != nullptr && own->condContext() != nullptr) {
        const int branch = own->condContext()->branch();
        const auto& zeroGrad = branch == 1 ? falseGrad : trueGrad;
        const auto& liveGrad = branch == 1 ? trueGrad : falseGrad;
        if (!zeroGrad || !liveGrad) {
            // Not trainable (TensorFlow's None zero_grad); a resource gets the live branch twice.
            if (!liveGrad || ctx.input(0).baseDtype() != tensorflow::DT_RESOURCE)
                return Status::ok();
            TSTUDIO_AD_TRY(merged, merge(b, {*liveGrad, *liveGrad}, "cond_resource_grad"));
            return ctx.setInputGradient(0, merged);
        }
        TSTUDIO_AD_TRY(merged, merge(b, {*falseGrad, *trueGrad}, "cond_grad"));
        return ctx.setInputGradient(0, merged);
    }
    const bool falseIsZeros = isDriverZeros(b, falseGrad, ctx.op(), 0);
    const bool trueIsZeros = isDriverZeros(b, trueGrad, ctx.op(), 1);
    if (falseIsZeros != trueIsZeros) {
        // A cond branch switch: the zeros are dead exactly when the branch gradient is live.
        TSTUDIO_AD_CHECK(refuseCondInGradientLoop(b, ctx.op()));
        TSTUDIO_AD_TRY(merged, merge(b, {*falseGrad, *trueGrad}, "cond_grad"));
        return ctx.setInputGradient(0, merged);
    }
    if (!falseGrad || !trueGrad) {
        // Not trainable (TensorFlow's None zero_grad); a resource gets the live branch twice.
        const auto& live = falseGrad ? falseGrad : trueGrad;
        if (!live || ctx.input(0).baseDtype() != tensorflow::DT_RESOURCE)
            return Status::ok();
        TSTUDIO_AD_TRY(merged, merge(b, {*live, *live}, "cond_resource_grad"));
        return ctx.setInputGradient(0, merged);
    }
    // Outside any cond: each gradient passes only on its own side of the predicate.
    const Output& pred = ctx.input(1);
    TSTUDIO_AD_TRY(f, b.op("Switch", {*falseGrad, pred}));
    TSTUDIO_AD_TRY(t, b.op("Switch", {*trueGrad, pred}));
    TSTUDIO_AD_TRY(merged, merge(b, {f.output(0), t.output(1)}));
    return ctx.setInputGradient(0, merged);
}

/// _MergeGrad (Merge and RefMerge).
Status mergeGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad(0));
    if (isLoopMerge(b, ctx.op().name())) {
        WhileContext* gradLoop = whileContextOf(b.controlFlowContext());
        if (gradLoop == nullptr || gradLoop->gradState() == nullptr)
            return internalError("the loop Merge '" + ctx.op().name() +
                                 "' is differentiated outside its gradient loop");
        TSTUDIO_AD_TRY(sw, switchColocated(b, grad, gradLoop->pivot()));
        TSTUDIO_AD_CHECK(ctx.setInputGradient(0, sw.output(0)));
        return ctx.setInputGradient(1, sw.output(1));
    }
    if (CondContext* branch = outputCondContext(b, ctx.input(0))) {
        if (ctx.numInputs() != 2)
            return invalidArgumentError("the cond Merge '" + ctx.op().name() + "' has " +
                                        std::to_string(ctx.numInputs()) + " inputs; a cond merges 2");
        Output pred = branch->pred();
        if (GradLoopState* state = currentGradLoopState(b)) {
            // A cond in a loop body: the predicate of the matching forward iteration.
            TSTUDIO_AD_TRY(real, state->realValue(b, pred));
            pred = real;
        }
        TSTUDIO_AD_TRY(sw, switchColocated(b, grad, pred, "cond_grad"));
        TSTUDIO_AD_CHECK(ctx.setInputGradient(0, sw.output(0)));
        return ctx.setInputGradient(1, sw.output(1));
    }
    TSTUDIO_AD_TRY(pred, condPredicate(b, ctx.input(0)));
    if (pred) {
        TSTUDIO_AD_CHECK(refuseCondInGradientLoop(b, ctx.op()));
        if (ctx.numInputs() != 2)
            return invalidArgumentError("the cond Merge '" + ctx.op().name() + "' has " +
                                        std::to_string(ctx.numInputs()) + " inputs; a cond merges 2");
        TSTUDIO_AD_TRY(sw, switchColocated(b, grad, *pred, "cond_grad"));
        TSTUDIO_AD_CHECK(ctx.setInputGradient(0, sw.output(0)));
        return ctx.setInputGradient(1, sw.output(1));
    }
    // Outside any cond: input i gets the gradient when value_index == i.
    for (int i = 0; i < ctx.numInputs(); ++i) {
        Output chosen;
        {
            TSTUDIO_AD_TRY(scope, b.nameScope("Equal"));
            TSTUDIO_AD_TRY(index, ops::constantInts(b, {i}, TensorShape::scalar(), tensorflow::DT_INT32, "y"));
            TSTUDIO_AD_TRY(c, py::genOp(b, "Equal", {ctx.output(1), index}, {}, scope.name()));
            chosen = c;
        }
        TSTUDIO_AD_TRY(sw, switchColocated(b, grad, chosen));
        TSTUDIO_AD_CHECK(ctx.setInputGradient(i, sw.output(1)));
    }
    return Status::ok();
}

/// _ExitGrad: the gradient becomes a loop var of the gradient loop.
Status exitGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    WhileContext* gradLoop = whileContextOf(b.controlFlowContext());
    if (gradLoop == nullptr || !gradLoop->backProp())
        return Status::ok(); // back_prop=False: no gradient, as in TensorFlow
    GradLoopState* state = currentGradLoopState(b);
    if (state == nullptr)
        return internalError("the loop Exit '" + ctx.op().name() + "' is differentiated outside a gradient loop");
    TSTUDIO_AD_TRY(grad, ctx.grad(0));
    TSTUDIO_AD_TRY(entered, state->enterExitGradient(b, grad));
    return ctx.setInputGradient(0, entered);
}

/// _NextIterationGrad: the gradient passes through.
Status nextIterationGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad(0));
    return ctx.setInputGradient(0, grad);
}

/// _EnterGrad: out of the gradient loop through an Exit; a loop invariant's gradient is summed over
/// the iterations first. Outside a gradient loop (or with back_prop=False) it passes through.
Status enterGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad(0));
    WhileContext* gradLoop = whileContextOf(b.controlFlowContext());
    GradLoopState* state = currentGradLoopState(b);
    if (gradLoop == nullptr || !gradLoop->backProp() || state == nullptr)
        return ctx.setInputGradient(0, grad);
    auto isConstant = ctx.node().attr().find("is_constant");
    if (isConstant != ctx.node().attr().end() && isConstant->second.b()) {
        TSTUDIO_AD_TRY(sum, state->addBackpropAccumulator(b, ctx.op().name(), grad));
        return ctx.setInputGradient(0, sum);
    }
    TSTUDIO_AD_TRY(exit, py::genOp(b, isRefType(grad.dtype()) ? "RefExit" : "Exit", {grad}));
    gradLoop->mutableLoopExits().push_back(exit);
    gradLoop->exitResult({exit});
    return ctx.setInputGradient(0, exit);
}

/// _LoopCondGrad: the predicate of a while loop gets no gradient.
Status loopCondGrad(GradientContext&)
{
    return Status::ok();
}

} // namespace

Status registerControlFlowGradients(OpRegistry& registry)
{
    const std::vector<std::pair<const char*, GradientFunction>> functions = {{"Switch", switchGrad},
                                                                             {"RefSwitch", switchGrad},
                                                                             {"Merge", mergeGrad},
                                                                             {"RefMerge", mergeGrad},
                                                                             {"LoopCond", loopCondGrad},
                                                                             {"Exit", exitGrad},
                                                                             {"RefExit", exitGrad},
                                                                             {"NextIteration", nextIterationGrad},
                                                                             {"RefNextIteration", nextIterationGrad},
                                                                             {"Enter", enterGrad},
                                                                             {"RefEnter", enterGrad}};
    for (const auto& [name, function] : functions) {
        if (Status s = registry.setGradient(name, function); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
