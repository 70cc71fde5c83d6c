// cond and CondContext: TensorFlow 1.15's control_flow_ops.cond, CondContext (AddValue, _AddOpInternal,
// _ProcessOutputTensor, BuildCondBranch), smart_cond, case and Assert.
#include "builder/cond.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/while_loop.h"
#include "core/try.h"

namespace tstudio {
namespace {

/// control_flow_ops._SwitchRefOrTensor(data, pred): "Switch" (RefSwitch for a ref) in the current name
/// scope, colocated with data.
Expected<Operation> switchRefOrTensor(GraphBuilder& b, const Output& data, const Output& pred)
{
    TSTUDIO_TRY(producer, b.operation(data.node()));
    ScopeGuard colocation = b.colocateWith(producer, true);
    return b.op(isRefType(data.dtype()) ? "RefSwitch" : "Switch", {data, pred}, {}, "Switch");
}

/// util.OpInContext: node `name` was made in `context` or in a context nested in it.
bool inContext(const GraphBuilder& b, const std::string& name, const ControlFlowContext* context)
{
    for (ControlFlowContext* c = b.contextOf(name); c != nullptr; c = c->outerContext())
        if (c == context)
            return true;
    return false;
}

/// BuildCondBranch in a new CondContext (TensorFlow names it "cond_text" when it is made).
Expected<std::vector<Output>> buildBranch(GraphBuilder& b, const Output& pred, const Output& pivot, int branch,
                                          const CondBranchFunction& fn)
{
    const char* fnName = branch == 1 ? "true_fn" : "false_fn";
    ControlFlowContext* outer = b.controlFlowContext();
    auto* context = static_cast<CondContext*>(
        b.addControlFlowContext(std::make_unique<CondContext>(outer, pred, pivot, branch, b.uniqueName("cond_text"))));
    if (Status s = b.setContextOf(pivot.node(), context); !s.isOk())
        return unexpected(s);
    auto current = b.controlFlowContextScope(context);
    TSTUDIO_TRY(original, fn(b));
    if (original.empty())
        return unexpected(invalidArgumentError(std::string(fnName) + " must have a return value."));
    std::vector<Output> results;
    for (const Output& v : original) {
        if (!v.isValid())
            return unexpected(invalidArgumentError(std::string(fnName) + " returned an invalid tensor"));
        TSTUDIO_TRY(real, context->processOutputTensor(b, v));
        results.push_back(real);
    }
    context->exitResult(results);
    return results;
}

/// _assert_at_most_n_true(predicates, n, msg) of tf.case, in the current name scope.
Expected<Operation> assertAtMostNTrue(GraphBuilder& b, const std::vector<Output>& predicates, int n,
                                      const std::string& message)
{
    // array_ops.stack(predicates, name="preds_c"); an empty list converts to a float32 Const [0].
    Output stacked;
    if (predicates.empty()) {
        TSTUDIO_TRY(empty, ops::constant(b, std::vector<double>{}, TensorShape{0}, tensorflow::DT_FLOAT, "preds_c"));
        stacked = empty;
    } else {
        TSTUDIO_TRY(pack, ops::firstOutput(b.op("Pack", {OpInput(predicates)}, {{"axis", attr::i(0)}}, "preds_c")));
        stacked = pack;
    }
    TSTUDIO_TRY(castScope, b.nameScope("Cast"));
    TSTUDIO_TRY(asInts,
                ops::firstOutput(b.op("Cast", {stacked},
                                      {{"DstT", attr::type(tensorflow::DT_INT32)}, {"Truncate", attr::b(false)}},
                                      castScope.name())));
    castScope.close();
    TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape{1}, tensorflow::DT_INT32, "Const"));
    TSTUDIO_TRY(count, ops::sum(b, asInts, axes, false, "num_true_conds"));
    TSTUDIO_TRY(limit, ops::constantInts(b, {n}, TensorShape::scalar(), tensorflow::DT_INT32, "n_true_conds"));
    TSTUDIO_TRY(condition, ops::firstOutput(b.op("LessEqual", {count, limit})));
    std::string names;
    for (const Output& p : predicates)
        names += (names.empty() ? "" : ", ") + p.name();
    const std::string text =
        message + ": more than " + std::to_string(n) + " conditions (" + names + ") evaluated as True:";
    return assertThat(b, condition, {text, stacked}, static_cast<std::int64_t>(predicates.size()));
}

} // namespace

// --- CondContext ------------------------------------------------------------------------------------

CondContext::CondContext(ControlFlowContext* outer, Output pred, Output pivot, int branch, std::string name)
    : ControlFlowContext(outer), m_name(std::move(name)), m_pred(std::move(pred)), m_pivot(std::move(pivot)),
      m_branch(branch)
{
    // pred_id is known without a Switch; the pivot belongs to the branch.
    m_values.insert(m_pred.name());
    m_externalValues[m_pred.name()] = m_pred;
    m_values.insert(m_pivot.name());
}

WhileContext* CondContext::whileContext()
{
    return whileContextOf(outerContext());
}

void CondContext::markKnown(const std::string& tensorName)
{
    for (ControlFlowContext* c = this; c != nullptr; c = c->outerContext())
        c->addName(tensorName);
}

Expected<Output> CondContext::addValue(GraphBuilder& b, const Output& value)
{
    if (m_values.count(value.name()) > 0) {
        // A tensor seen before: the Switch made for it (nested conds), or itself.
        auto it = m_externalValues.find(value.name());
        return it != m_externalValues.end() ? it->second : value;
    }
    m_values.insert(value.name());
    Output result = value;
    if (ControlFlowContext* outer = outerContext()) {
        TSTUDIO_TRY(outerValue, outer->addValue(b, value));
        result = outerValue;
        m_values.insert(result.name());
        m_externalValues[result.name()] = result;
    }
    Operation sw;
    {
        ScopeGuard noControls = b.clearControlDependencies();
        // The Switch's inputs are known here already; it is recorded as part of this branch below.
        ScopeGuard noContext = b.controlFlowContextScope(nullptr);
        TSTUDIO_TRY(made, switchRefOrTensor(b, result, m_pred));
        sw = made;
    }
    if (Status s = b.setContextOf(sw.name(), this); !s.isOk())
        return unexpected(s);
    for (const Output& o : sw.outputs())
        markKnown(o.name());
    const Output& entered = sw.output(m_branch);
    m_externalValues[value.name()] = entered;
    return entered;
}

Expected<ControlFlowContext*> CondContext::prepareOp(GraphBuilder& b, const std::string& type,
                                                     std::vector<std::vector<Output>>& inputs)
{
    for (auto& argument : inputs) {
        for (Output& x : argument) {
            // A while loop imported into the branch: its Merge's back edge joins the context later.
            if (type == "Merge" || type == "RefMerge") {
                const tensorflow::NodeDef* producer = b.findNode(x.node());
                if (producer != nullptr && (producer->op() == "NextIteration" || producer->op() == "RefNextIteration"))
                    continue;
            }
            TSTUDIO_TRY(real, addValue(b, x));
            x = real;
        }
    }
    return static_cast<ControlFlowContext*>(this);
}

Status CondContext::opAdded(GraphBuilder& b, const Operation& op)
{
    const tensorflow::NodeDef* node = b.findNode(op.name());
    if (node == nullptr)
        return internalError("node '" + op.name() + "' was added to a cond branch but is not in the graph");
    bool hasData = false;
    bool controlInside = false;
    for (const std::string& in : node->input()) {
        if (!in.starts_with('^'))
            hasData = true;
        else if (inContext(b, in.substr(1), this))
            controlInside = true;
    }
    // An op without inputs would run whichever branch is taken; the pivot makes it run only in this one.
    if (!hasData && !controlInside) {
        if (Status s = b.addControlInput(op.name(), m_pivot.node()); !s.isOk())
            return s;
    }
    for (const Output& o : op.outputs())
        markKnown(o.name());
    return Status::ok();
}

Expected<Output> CondContext::processOutputTensor(GraphBuilder& b, const Output& value)
{
    if (m_values.count(value.name()) > 0) {
        auto it = m_externalValues.find(value.name());
        return it != m_externalValues.end() ? it->second : value;
    }
    // `lambda: x` of a tensor from outside: the branch passes it on through its own Switch.
    m_values.insert(value.name());
    Output real = value;
    if (ControlFlowContext* outer = outerContext()) {
        TSTUDIO_TRY(outerValue, outer->addValue(b, value));
        real = outerValue;
        m_values.insert(real.name());
        m_externalValues[real.name()] = real;
    }
    TSTUDIO_TRY(sw, switchRefOrTensor(b, real, m_pred));
    const Output& entered = sw.output(m_branch);
    m_externalValues[value.name()] = entered;
    return entered;
}

void CondContext::exitResult(const std::vector<Output>& results)
{
    if (ControlFlowContext* outer = outerContext())
        for (const Output& r : results)
            outer->addName(r.name());
}

// --- cond, smart_cond, case ---------------------------------------------------------------------------

Expected<std::vector<Output>> cond(GraphBuilder& b, const Output& pred, const CondBranchFunction& trueFn,
                                   const CondBranchFunction& falseFn, std::string_view name)
{
    if (!trueFn)
        return unexpected(invalidArgumentError("true_fn must be callable."));
    if (!falseFn)
        return unexpected(invalidArgumentError("false_fn must be callable."));
    if (!pred.isValid())
        return unexpected(invalidArgumentError("cond: pred is not a tensor"));
    TSTUDIO_TRY(scope, b.nameScope(name.empty() ? "cond" : name));
    TSTUDIO_TRY(predSwitch, b.op("Switch", {pred, pred}, {}, "Switch"));
    TSTUDIO_TRY(pivotT, ops::identity(b, predSwitch.output(1), "switch_t"));
    TSTUDIO_TRY(pivotF, ops::identity(b, predSwitch.output(0), "switch_f"));
    TSTUDIO_TRY(predId, ops::identity(b, pred, "pred_id"));

    TSTUDIO_TRY(resultsT, buildBranch(b, predId, pivotT, 1, trueFn));
    TSTUDIO_TRY(resultsF, buildBranch(b, predId, pivotF, 0, falseFn));
    if (resultsT.size() != resultsF.size())
        return unexpected(invalidArgumentError(
            "Incompatible return values of true_fn and false_fn: " + std::to_string(resultsT.size()) + " and " +
            std::to_string(resultsF.size()) + " tensors"));
    for (std::size_t i = 0; i < resultsT.size(); ++i) {
        if (resultsT[i].baseDtype() != resultsF[i].baseDtype())
            return unexpected(invalidArgumentError(
                "Outputs of true_fn and false_fn must have the same type: " + dataTypeName(resultsT[i].baseDtype()) +
                ", " + dataTypeName(resultsF[i].baseDtype())));
    }
    std::vector<Output> merges;
    for (std::size_t i = 0; i < resultsT.size(); ++i) {
        const bool refs = isRefType(resultsT[i].dtype()) && isRefType(resultsF[i].dtype());
        TSTUDIO_TRY(merge, ops::firstOutput(b.op(refs ? "RefMerge" : "Merge",
                                                 {std::vector<Output>{resultsF[i], resultsT[i]}}, {}, "Merge")));
        merges.push_back(merge);
    }
    return merges;
}

Expected<std::vector<Output>> smartCond(GraphBuilder& b, bool pred, const CondBranchFunction& trueFn,
                                        const CondBranchFunction& falseFn)
{
    const CondBranchFunction& fn = pred ? trueFn : falseFn;
    if (!fn)
        return unexpected(invalidArgumentError(pred ? "true_fn must be callable." : "false_fn must be callable."));
    return fn(b);
}

Expected<std::vector<Output>> smartCond(GraphBuilder& b, const Output& pred, const CondBranchFunction& trueFn,
                                        const CondBranchFunction& falseFn, std::string_view name)
{
    if (pred.isValid() && pred.baseDtype() == tensorflow::DT_BOOL) {
        if (const Tensor* known = b.constantValue(pred); known != nullptr && known->shape().rank() == 0)
            return smartCond(b, known->values<bool>()[0], trueFn, falseFn);
    }
    return cond(b, pred, trueFn, falseFn, name);
}

Expected<std::vector<Output>> case_(GraphBuilder& b, const std::vector<CaseBranch>& pairs,
                                    const CondBranchFunction& defaultFn, bool exclusive, std::string_view name)
{
    for (const CaseBranch& pair : pairs) {
        if (!pair.pred.isValid())
            return unexpected(invalidArgumentError("pred must be a Tensor, got an invalid Output"));
        if (pair.pred.baseDtype() != tensorflow::DT_BOOL)
            return unexpected(invalidArgumentError("pred must be Tensor of type bool: " + pair.pred.name()));
        if (!pair.fn)
            return unexpected(invalidArgumentError("fn for pred " + pair.pred.name() + " must be callable."));
    }
    if (pairs.empty() && !defaultFn)
        return unexpected(invalidArgumentError("tf.case needs at least one (pred, fn) pair or a default"));
    TSTUDIO_TRY(scope, b.nameScope(name.empty() ? "case" : name));
    std::vector<Output> predicates;
    std::vector<CondBranchFunction> actions;
    for (const CaseBranch& pair : pairs) {
        predicates.push_back(pair.pred);
        actions.push_back(pair.fn);
    }

    CondBranchFunction fallback = defaultFn;
    if (!fallback) {
        // _case_create_default_action: the last pair runs by default, asserting that its predicate
        // holds and that no other does.
        const std::size_t k = predicates.size() - 1;
        const std::vector<Output> all = predicates;
        const Output lastPred = predicates[k];
        const CondBranchFunction lastAction = actions[k];
        predicates.pop_back();
        actions.pop_back();
        const std::vector<Output> others = predicates;
        fallback = [all, others, lastPred, lastAction, k](GraphBuilder& g) -> Expected<std::vector<Output>> {
            const std::string othersMessage = "Implementation error: selected default action #" + std::to_string(k) +
                                              " was called, but some of other predicates are True: ";
            TSTUDIO_TRY(stacked, ops::firstOutput(g.op("Pack", {OpInput(all)}, {{"axis", attr::i(0)}}, "preds_c")));
            TSTUDIO_TRY(noOthers, assertAtMostNTrue(g, others, 0, othersMessage));
            TSTUDIO_TRY(
                selected,
                assertThat(g, lastPred, {std::string("Input error: None of conditions evaluated as True:"), stacked}));
            ScopeGuard after = g.controlDependencies({noOthers, selected});
            return lastAction(g);
        };
    }
    // Nested conds built in reverse, so that the predicates are tested in order.
    CondBranchFunction fn = fallback;
    for (std::size_t i = predicates.size(); i-- > 0;) {
        const Output predicate = predicates[i];
        const CondBranchFunction action = actions[i];
        const CondBranchFunction inner = fn;
        fn = [predicate, action, inner](GraphBuilder& g) { return cond(g, predicate, action, inner); };
    }
    if (!exclusive)
        return fn(b);
    TSTUDIO_TRY(atMostOne, assertAtMostNTrue(b, predicates, 1, "Input error: exclusive=True"));
    ScopeGuard after = b.controlDependencies({atMostOne});
    return fn(b);
}

// --- Assert ------------------------------------------------------------------------------------------

Expected<Output> withDependencies(GraphBuilder& b, const std::vector<Operation>& dependencies, const Output& t,
                                  std::string_view name)
{
    TSTUDIO_TRY(scope, b.nameScope(name));
    TSTUDIO_TRY(producer, b.operation(t.node()));
    ScopeGuard colocation = b.colocateWith(producer);
    ScopeGuard controls = b.controlDependencies(dependencies);
    return ops::firstOutput(b.op(isRefType(t.dtype()) ? "RefIdentity" : "Identity", {t}, {}, scope.name()));
}

Expected<Operation> assertThat(GraphBuilder& b, const Output& condition, const std::vector<AssertDatum>& data,
                               std::optional<std::int64_t> summarize, std::string_view name)
{
    TSTUDIO_TRY(scope, b.nameScope(name.empty() ? "Assert" : name));
    std::vector<Output> tensors;
    bool hostOnly = true; // string and int32 data: TensorFlow assumes they are on the host, no guard
    for (const AssertDatum& datum : data) {
        if (const std::string* text = std::get_if<std::string>(&datum)) {
            TSTUDIO_TRY(proto, makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(text, 1)));
            TSTUDIO_TRY(c, ops::constant(b, proto, "Const"));
            tensors.push_back(c);
            continue;
        }
        const Output& t = std::get<Output>(datum);
        if (!t.isValid())
            return unexpected(invalidArgumentError("Assert: a datum is not a tensor"));
        hostOnly = hostOnly && (t.baseDtype() == tensorflow::DT_STRING || t.baseDtype() == tensorflow::DT_INT32);
        tensors.push_back(t);
    }
    AttrMap attrs;
    if (summarize)
        attrs.emplace("summarize", attr::i(*summarize));
    if (hostOnly)
        return b.op("Assert", {condition, tensors}, attrs, "Assert");

    auto passes = [](GraphBuilder& g) -> Expected<std::vector<Output>> {
        TSTUDIO_TRY(noOp, ops::noOp(g));
        TSTUDIO_TRY(done, withDependencies(g, {noOp}, g.controlFlowContext()->condContext()->pivot()));
        return std::vector<Output>{done};
    };
    auto fails = [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
        TSTUDIO_TRY(check, g.op("Assert", {condition, tensors}, attrs, "Assert"));
        TSTUDIO_TRY(done, withDependencies(g, {check}, g.controlFlowContext()->condContext()->pivot()));
        return std::vector<Output>{done};
    };
    TSTUDIO_TRY(guarded, cond(b, condition, passes, fails, "AssertGuard"));
    return b.operation(guarded.front().node());
}

} // namespace tstudio
