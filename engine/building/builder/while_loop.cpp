// whileLoop and WhileContext: TensorFlow 1.15's WhileContext._BuildLoop, AddValue and _AddOpInternal.
#include "builder/while_loop.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "core/try.h"

namespace tstudio {
namespace {

bool isEnterOpType(const std::string& op)
{
    return op == "Enter" || op == "RefEnter";
}

/// _ShapeLessThanOrEqual: `a` is at least as specific as `b` (b of unknown rank takes anything;
/// else the same rank, and every dimension b knows is a's).
bool shapeLessThanOrEqual(const TensorShape& a, const TensorShape& b)
{
    if (b.rank() < 0)
        return true;
    if (a.rank() != b.rank())
        return false;
    for (int i = 0; i < b.rank(); ++i) {
        if (b.dim(i) >= 0 && a.dim(i) != b.dim(i))
            return false;
    }
    return true;
}

/// The data inputs and whether there is a control input, of a node as built.
void inputsOf(const tensorflow::NodeDef& node, std::vector<std::string>* data, bool* hasControl)
{
    *hasControl = false;
    for (const std::string& in : node.input()) {
        if (in.starts_with('^'))
            *hasControl = true;
        else
            data->push_back(in);
    }
}

} // namespace

WhileContext* whileContextOf(ControlFlowContext* context)
{
    return context != nullptr ? context->whileContext() : nullptr;
}

bool isLoopExit(const GraphBuilder& b, const std::string& node)
{
    const tensorflow::NodeDef* def = b.findNode(node);
    return def != nullptr && (def->op() == "Exit" || def->op() == "RefExit");
}

bool isLoopSwitch(const GraphBuilder& b, const std::string& node)
{
    const tensorflow::NodeDef* def = b.findNode(node);
    WhileContext* context = whileContextOf(b.contextOf(node));
    if (def == nullptr || context == nullptr || (def->op() != "Switch" && def->op() != "RefSwitch") ||
        def->input_size() < 2)
        return false;
    return def->input(1) == context->pivot().inputString();
}

bool isLoopMerge(const GraphBuilder& b, const std::string& node)
{
    const tensorflow::NodeDef* def = b.findNode(node);
    if (def == nullptr || (def->op() != "Merge" && def->op() != "RefMerge") || def->input_size() < 1)
        return false;
    auto in = b.tensor(def->input(0));
    const tensorflow::NodeDef* producer = in ? b.findNode(in->node()) : nullptr;
    return producer != nullptr && isEnterOpType(producer->op());
}

bool isLoopConstantEnter(const GraphBuilder& b, const std::string& node)
{
    const tensorflow::NodeDef* def = b.findNode(node);
    if (def == nullptr || !isEnterOpType(def->op()))
        return false;
    auto it = def->attr().find("is_constant");
    return it != def->attr().end() && it->second.b();
}

WhileContext* outputWhileContext(const GraphBuilder& b, const Output& t)
{
    ControlFlowContext* context = b.contextOf(t.node());
    if (context != nullptr && isLoopExit(b, t.node()))
        context = context->outerContext();
    return whileContextOf(context);
}

namespace {

/// _Enter: with `shape` the Enter's shape is that (a shape invariant); else that of what enters.
Expected<Output> enterFrameWithShape(GraphBuilder& b, WhileContext& context, const Output& data, bool isConstant,
                                     std::string_view name, const TensorShape* shape)
{
    auto noControls = b.clearControlDependencies();
    auto noContext = b.controlFlowContextScope(nullptr);
    TSTUDIO_TRY(op, b.op(isRefType(data.dtype()) ? "RefEnter" : "Enter", {data},
                    {{"frame_name", attr::s(context.name())},
                     {"is_constant", attr::b(isConstant)},
                     {"parallel_iterations", attr::i(context.parallelIterations())}},
                    name));
    if (Status s = b.setContextOf(op.name(), &context); !s.isOk())
        return unexpected(s);
    // _Enter(use_input_shape=True): the Enter has the shape of what enters; a shape invariant
    // replaces it (a non-constant Enter's own inferred shape is unknown).
    if (Status s = b.setShape(op.output(0), shape != nullptr ? *shape : data.shape()); !s.isOk())
        return unexpected(s);
    context.addOpOutputs(op);
    TSTUDIO_TRY(entered, b.tensor(op.output(0).name()));
    return entered;
}

} // namespace

Expected<Output> enterFrame(GraphBuilder& b, WhileContext& context, const Output& data, bool isConstant,
                            std::string_view name)
{
    return enterFrameWithShape(b, context, data, isConstant, name, nullptr);
}

WhileContext::WhileContext(ControlFlowContext* outer, std::string frameName, int parallelIterations, bool backProp)
    : ControlFlowContext(outer), m_name(std::move(frameName)), m_parallelIterations(parallelIterations),
      m_backProp(backProp)
{
}

void WhileContext::addOpOutputs(const Operation& op)
{
    for (const Output& o : op.outputs())
        m_values.insert(o.name());
}

void WhileContext::initializeValues(const std::vector<Output>& values)
{
    m_values.clear();
    for (const Output& v : values)
        m_values.insert(v.name());
}

void WhileContext::exitResult(const std::vector<Output>& exits)
{
    if (ControlFlowContext* outer = outerContext()) {
        for (const Output& e : exits)
            outer->addName(e.name());
    }
}

Expected<Output> WhileContext::addValue(GraphBuilder& b, const Output& value)
{
    const bool isNew = m_values.count(value.name()) == 0 && b.contextOf(value.node()) != this;
    if (!isNew) {
        auto it = m_externalValues.find(value.name());
        return it != m_externalValues.end() ? it->second : value;
    }
    m_values.insert(value.name());
    // In a gradient loop, a tensor of the forward loop is replaced by its value for the iteration.
    if (WhileContext* grad = whileContextOf(b.controlFlowContext()); grad != nullptr && grad->gradState()) {
        if (outputWhileContext(b, value) == grad->gradState()->forwardContext()) {
            TSTUDIO_TRY(real, grad->gradState()->realValue(b, value));
            m_externalValues[value.name()] = real;
            return real;
        }
    }
    Output result = value;
    if (ControlFlowContext* outer = outerContext()) { // a loop or a cond branch the loop is in
        TSTUDIO_TRY(outerValue, outer->addValue(b, value));
        result = outerValue;
    }
    TSTUDIO_TRY(enter, enterFrame(b, *this, result, true));
    m_externalValues[value.name()] = enter;
    return enter;
}

Expected<ControlFlowContext*> WhileContext::prepareOp(GraphBuilder& b, const std::string& type,
                                                      std::vector<std::vector<Output>>& inputs)
{
    // A shape of a forward value, asked for in a gradient loop, is computed in the forward loop, so
    // that the (small) shape is kept in the history rather than the value (WhileContext.AddOp).
    if ((type == "Shape" || type == "Size" || type == "Rank") && gradState() != nullptr && inputs.size() == 1 &&
        inputs.front().size() == 1) {
        const Output& x = inputs.front().front();
        ControlFlowContext* inputContext = b.contextOf(x.node());
        if (!isLoopExit(b, x.node()) && whileContextOf(inputContext) == gradState()->forwardContext())
            return inputContext;
    }
    for (auto& argument : inputs) {
        for (Output& x : argument) {
            TSTUDIO_TRY(real, addValue(b, x));
            x = real;
        }
    }
    return static_cast<ControlFlowContext*>(this);
}

Status WhileContext::opAdded(GraphBuilder& b, const Operation& op)
{
    addOpOutputs(op);
    const tensorflow::NodeDef* node = b.findNode(op.name());
    const Output& pivot = controlPivot();
    if (node == nullptr || !pivot.isValid())
        return Status::ok();
    std::vector<std::string> data;
    bool hasControl = false;
    inputsOf(*node, &data, &hasControl);
    if (hasControl)
        return Status::ok();
    // An op with no inputs, or only loop invariants, would otherwise run once and not per iteration
    // (and run again after the loop ends); it waits for the pivot (_MaybeAddControlDependency).
    bool free = true;
    for (const std::string& in : data) {
        auto t = b.tensor(in);
        if (!t || !isLoopConstantEnter(b, t->node()))
            free = false;
    }
    if (free)
        return b.addControlInput(op.name(), pivot.node());
    return Status::ok();
}

Expected<std::vector<Output>> whileLoop(GraphBuilder& b, const WhileCondFunction& cond, const WhileBodyFunction& body,
                                        const std::vector<Output>& loopVars, const WhileLoopOptions& options)
{
    if (loopVars.empty())
        return unexpected(invalidArgumentError("No loop variables provided"));
    if (!cond || !body)
        return unexpected(invalidArgumentError("while_loop: cond and body must be callable"));
    if (!options.shapeInvariants.empty() && options.shapeInvariants.size() != loopVars.size())
        return unexpected(invalidArgumentError(
            "shape_invariants must have the same structure as loop_vars: " + std::to_string(loopVars.size()) +
            " loop vars but " + std::to_string(options.shapeInvariants.size()) + " shapes"));
    if (options.maximumIterations && options.maximumIterationsValue)
        return unexpected(
            invalidArgumentError("while_loop: give maximum_iterations as a tensor or as a number, not both"));
    TSTUDIO_TRY(scope, b.nameScope(options.name.empty() ? "while" : options.name));

    // maximum_iterations: a counter loop var in front of the others, and an extra conjunct.
    std::vector<Output> allVars = loopVars;
    std::vector<TensorShape> invariants = options.shapeInvariants;
    Output maximum;
    if (options.maximumIterations || options.maximumIterationsValue) {
        if (options.maximumIterations) {
            maximum = *options.maximumIterations;
        } else {
            TSTUDIO_TRY(made, ops::constantInts(b, {*options.maximumIterationsValue}, TensorShape::scalar(),
                                                tensorflow::DT_INT32, "maximum_iterations"));
            maximum = made;
        }
        if (!maximum.isValid())
            return unexpected(invalidArgumentError("while_loop: maximum_iterations is not a tensor"));
        if (maximum.shape().rank() != 0)
            return unexpected(
                invalidArgumentError("maximum_iterations must be a scalar, saw shape: " + maximum.shape().toString()));
        TSTUDIO_TRY(counter, ops::constant(b, std::vector<double>{0.0}, TensorShape::scalar(), maximum.baseDtype(),
                                           "iteration_counter"));
        allVars.insert(allVars.begin(), counter);
        if (!invariants.empty())
            invariants.insert(invariants.begin(), TensorShape::scalar());
    }

    ControlFlowContext* outer = b.controlFlowContext();
    const std::string frame = b.uniqueName("while_context");
    auto* context = static_cast<WhileContext*>(b.addControlFlowContext(
        std::make_unique<WhileContext>(outer, frame, options.parallelIterations, options.backProp)));
    context->setMaximumIterations(maximum);
    context->setSwapMemory(options.swapMemory);
    auto current = b.controlFlowContextScope(context);

    // The loop vars, as the outer loop sees them, enter the frame.
    std::vector<Output> enters;
    context->initializeValues(allVars);
    for (std::size_t i = 0; i < allVars.size(); ++i) {
        const Output& x = allVars[i];
        Output real = x;
        if (outer != nullptr) {
            TSTUDIO_TRY(v, outer->addValue(b, x));
            real = v;
        }
        // _SetShapeInvariants: the initial shape must be at least as specific as the invariant.
        const TensorShape* invariant = invariants.empty() ? nullptr : &invariants[i];
        if (invariant != nullptr && !shapeLessThanOrEqual(real.shape(), *invariant))
            return unexpected(invalidArgumentError(
                "The shape invariant specified for " + real.name() +
                " is not compatible with the initial shape of the loop variable. It enters the loop with shape " +
                real.shape().toString() + ", but the specified shape invariant is " + invariant->toString() + "."));
        TSTUDIO_TRY(enter, enterFrameWithShape(b, *context, real, false, "Enter", invariant));
        enters.push_back(enter);
    }
    // Enters of outer loop invariants wait for the outer loop's pivot.
    for (ControlFlowContext* c = outer; c != nullptr; c = c->outerContext()) {
        WhileContext* w = whileContextOf(c);
        if (w == nullptr || !w->controlPivot().isValid())
            continue;
        for (std::size_t i = 0; i < enters.size(); ++i) {
            const tensorflow::NodeDef* def = b.findNode(enters[i].node());
            auto in = b.tensor(def->input(0));
            if (in && isLoopConstantEnter(b, in->node())) {
                if (Status s = b.addControlInput(enters[i].node(), w->controlPivot().node()); !s.isOk())
                    return unexpected(s);
            }
        }
        break;
    }
    context->initializeValues(enters);
    context->mutableLoopEnters() = enters;

    std::vector<Output> merges;
    for (const Output& e : enters) {
        TSTUDIO_TRY(m, b.op(isRefType(e.dtype()) ? "RefMerge" : "Merge", {std::vector<Output>{e, e}}, {}, "Merge"));
        merges.push_back(m.output(0));
    }
    context->setPivotForPred(merges.front());

    Output predicate;
    if (maximum.isValid()) {
        // logical_and(i < maximum_iterations, cond(loop vars)).
        TSTUDIO_TRY(less, b.op("Less", {merges.front(), maximum}, {}, "Less"));
        TSTUDIO_TRY(userPredicate, cond(b, std::vector<Output>(merges.begin() + 1, merges.end())));
        TSTUDIO_TRY(both, b.op("LogicalAnd", {less.output(0), userPredicate}, {}, "LogicalAnd"));
        predicate = both.output(0);
    } else {
        TSTUDIO_TRY(userPredicate, cond(b, merges));
        predicate = userPredicate;
    }
    if (!predicate.isValid() || predicate.baseDtype() != tensorflow::DT_BOOL || predicate.shape().rank() > 0)
        return unexpected(invalidArgumentError(
            "while_loop: cond must return a scalar bool tensor, got " +
            (predicate.isValid() ? dataTypeName(predicate.dtype()) + " " + predicate.shape().toString()
                                 : std::string("an invalid tensor"))));
    TSTUDIO_TRY(loopCond, b.op("LoopCond", {predicate}, {}, "LoopCond"));
    context->setPivot(loopCond.output(0));
    std::vector<Operation> switches;
    for (const Output& m : merges) {
        TSTUDIO_TRY(producer, b.operation(m.node()));
        auto colocation = b.colocateWith(producer, true);
        TSTUDIO_TRY(sw, b.op(isRefType(m.dtype()) ? "RefSwitch" : "Switch", {m, loopCond.output(0)}, {}, "Switch"));
        switches.push_back(sw);
    }
    std::vector<Output> identities;
    for (const Operation& sw : switches) {
        TSTUDIO_TRY(id, b.op(isRefType(sw.output(1).dtype()) ? "RefIdentity" : "Identity", {sw.output(1)}, {}, "Identity"));
        identities.push_back(id.output(0));
    }
    context->setPivotForBody(identities.front());

    std::vector<Output> results;
    if (maximum.isValid()) {
        // (i + 1, body(loop vars)).
        TSTUDIO_TRY(addScope, b.nameScope("add"));
        TSTUDIO_TRY(one, ops::constant(b, std::vector<double>{1.0}, TensorShape::scalar(), maximum.baseDtype(), "y"));
        TSTUDIO_TRY(next, b.op("AddV2", {identities.front(), one}, {}, addScope.name()));
        addScope.close();
        TSTUDIO_TRY(userResults, body(b, std::vector<Output>(identities.begin() + 1, identities.end())));
        results.push_back(next.output(0));
        results.insert(results.end(), userResults.begin(), userResults.end());
    } else {
        TSTUDIO_TRY(userResults, body(b, identities));
        results = std::move(userResults);
    }
    if (results.size() != merges.size())
        return unexpected(invalidArgumentError("Number of inputs and outputs of body must match loop_vars: " +
                                               std::to_string(merges.size()) + ", " + std::to_string(results.size())));
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Output& v = results[i];
        if (v.baseDtype() != merges[i].baseDtype())
            return unexpected(invalidArgumentError("body returned " + v.name() + " of type " +
                                                   dataTypeName(v.baseDtype()) + " for loop var " + std::to_string(i) +
                                                   " of type " + dataTypeName(merges[i].baseDtype())));
        TSTUDIO_TRY(next, b.op(isRefType(v.dtype()) ? "RefNextIteration" : "NextIteration", {v}, {}, "NextIteration"));
        // _EnforceShapeInvariant: the next value is at least as specific as the Merge (the loop
        // var's shape, or its invariant).
        if (!shapeLessThanOrEqual(next.output(0).shape(), merges[i].shape()))
            return unexpected(invalidArgumentError(
                "Input tensor '" + allVars[i].name() + "' enters the loop with shape " + allVars[i].shape().toString() +
                ", but has shape " + next.output(0).shape().toString() +
                " after one iteration. To allow the shape to vary across iterations, use the `shape_invariants` "
                "argument of tf.while_loop to specify a less-specific shape."));
        if (Status s = b.updateInput(merges[i].node(), 1, next.output(0)); !s.isOk())
            return unexpected(s);
    }
    std::vector<Output> exits;
    for (const Operation& sw : switches) {
        TSTUDIO_TRY(exit, b.op(isRefType(sw.output(0).dtype()) ? "RefExit" : "Exit", {sw.output(0)}, {}, "Exit"));
        exits.push_back(exit.output(0));
    }
    context->mutableLoopExits() = exits;
    context->exitResult(exits);
    if (maximum.isValid())
        exits.erase(exits.begin());
    return exits;
}

} // namespace tstudio
