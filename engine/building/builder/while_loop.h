// whileLoop: tf.while_loop of TensorFlow 1.15 (v1 control flow), and WhileContext, the record of one
// loop's frame that gradients of the loop need.
#pragma once

#include "builder/control_flow_context.h"
#include "builder/graph_builder.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tstudio {

/// What the gradient machinery (autodiff/control_flow_state.h) attaches to the WhileContext of a
/// gradient loop (TensorFlow's GradLoopState as seen from WhileContext.AddValue).
class WhileGradState {
public:
    virtual ~WhileGradState() = default;
    /// The forward loop this gradient loop differentiates.
    virtual WhileContext* forwardContext() const = 0;
    /// GradLoopState.GetRealValue: the value of forward tensor `value` for the current gradient
    /// iteration (a popped history value, a cloned constant, or an entered loop invariant).
    virtual Expected<Output> realValue(GraphBuilder& b, const Output& value) = 0;
};

/// TensorFlow's WhileContext: the frame name ("while/while_context"), parallel_iterations,
/// back_prop, the pivots, the loop's Enter and Exit tensors, and the tensors known inside the loop.
/// While it is current, ops created with the builder get tensors from outside the loop through an
/// is_constant Enter (made once per tensor), and ops without data inputs (or with only loop
/// invariants) a control input on the pivot, so that they run once per iteration.
class WhileContext : public ControlFlowContext {
public:
    WhileContext(ControlFlowContext* outer, std::string frameName, int parallelIterations, bool backProp);

    WhileContext* whileContext() override { return this; }
    Expected<ControlFlowContext*> prepareOp(GraphBuilder& b, const std::string& type,
                                            std::vector<std::vector<Output>>& inputs) override;
    Status opAdded(GraphBuilder& b, const Operation& op) override;

    /// The frame_name of the loop's Enter nodes.
    const std::string& name() const { return m_name; }
    int parallelIterations() const { return m_parallelIterations; }
    bool backProp() const { return m_backProp; }
    /// The LoopCond (forward loops) or the b_count LoopCond (gradient loops).
    const Output& pivot() const { return m_pivot; }
    void setPivot(Output pivot) { m_pivot = std::move(pivot); }
    void setPivotForBody(Output pivot) { m_pivotForBody = std::move(pivot); }
    void setPivotForPred(Output pivot) { m_pivotForPred = std::move(pivot); }
    /// The first loop var's Merge (pivot_for_pred) and Identity (pivot_for_body).
    const Output& pivotForPred() const { return m_pivotForPred; }
    const Output& pivotForBody() const { return m_pivotForBody; }
    /// The maximum_iterations tensor of tf.while_loop (invalid when the loop has none).
    const Output& maximumIterations() const { return m_maximumIterations; }
    void setMaximumIterations(Output t) { m_maximumIterations = std::move(t); }
    /// swap_memory (kept for the WhileContextDef; TensorStudio's stacks do not swap).
    bool swapMemory() const { return m_swapMemory; }
    void setSwapMemory(bool swap) { m_swapMemory = swap; }
    /// GetControlPivot: the op new input-less ops of the loop wait for.
    const Output& controlPivot() const { return m_pivotForBody.isValid() ? m_pivotForBody : m_pivotForPred; }
    const std::vector<Output>& loopEnters() const { return m_loopEnters; }
    const std::vector<Output>& loopExits() const { return m_loopExits; }
    std::vector<Output>& mutableLoopEnters() { return m_loopEnters; }
    std::vector<Output>& mutableLoopExits() { return m_loopExits; }

    /// Makes `tensor` known inside the loop without an Enter (AddName).
    void addName(const std::string& tensorName) override { m_values.insert(tensorName); }
    /// _InitializeValues: exactly `values` are known inside the loop (the loop vars while their
    /// Enters are made, then the Enters: the loop vars themselves are outside tensors again).
    void initializeValues(const std::vector<Output>& values);
    /// ExitResult: the exits become known to the outer context.
    void exitResult(const std::vector<Output>& exits);
    /// WhileContext.AddValue: `value` as seen inside this loop (itself, the Enter made for it, or
    /// in a gradient loop the real value of a forward tensor).
    Expected<Output> addValue(GraphBuilder& b, const Output& value) override;
    /// Records `op` as created in this context (the outputs become known values).
    void addOpOutputs(const Operation& op);
    /// The tensor names known inside (ValuesDef.values).
    const std::set<std::string>& values() const { return m_values; }
    /// Outside tensor name -> the tensor standing for it inside (ValuesDef.external_values).
    const std::map<std::string, Output>& externalValues() const { return m_externalValues; }
    /// Records that outside tensor `name` is `inside` in this loop (a context read from a
    /// WhileContextDef).
    void addExternalValue(const std::string& name, const Output& inside) { m_externalValues[name] = inside; }

    /// The gradient state of a gradient loop (nullptr for a forward loop).
    WhileGradState* gradState() const { return m_gradState.get(); }
    void setGradState(std::shared_ptr<WhileGradState> state) { m_gradState = std::move(state); }
    /// True once a gradient of this forward loop was built (second-order loop gradients are refused).
    bool hasGradient() const { return m_hasGradient; }
    void setHasGradient() { m_hasGradient = true; }

private:
    std::string m_name;
    int m_parallelIterations;
    bool m_backProp;
    Output m_pivot;
    Output m_pivotForPred;
    Output m_pivotForBody;
    std::vector<Output> m_loopEnters;
    std::vector<Output> m_loopExits;
    std::set<std::string> m_values;                 ///< tensor names known inside
    std::map<std::string, Output> m_externalValues; ///< outside tensor name -> its value inside
    std::shared_ptr<WhileGradState> m_gradState;
    bool m_hasGradient = false;
    Output m_maximumIterations;
    bool m_swapMemory = false;
};

/// The while context a context belongs to (GetWhileContext), or nullptr.
WhileContext* whileContextOf(ControlFlowContext* context);
/// The while context of the node producing `t` (the outer one for an Exit: util.GetOutputContext).
WhileContext* outputWhileContext(const GraphBuilder& b, const Output& t);
/// True for an Enter or RefEnter with is_constant (util.IsLoopConstantEnter).
bool isLoopConstantEnter(const GraphBuilder& b, const std::string& node);
/// True for Exit / RefExit.
bool isLoopExit(const GraphBuilder& b, const std::string& node);
/// True for the Switch of a loop var (util.IsLoopSwitch): a Switch in a while context whose
/// predicate is the loop's LoopCond (a Switch of a cond inside a loop body is not one).
bool isLoopSwitch(const GraphBuilder& b, const std::string& node);
/// True for the Merge of a loop var: a Merge whose first input is a loop Enter.
bool isLoopMerge(const GraphBuilder& b, const std::string& node);

/// control_flow_ops._Enter: an Enter (RefEnter for a ref tensor) of `data` into frame `context`
/// named `name`, created outside any control dependency and recorded as part of `context`.
Expected<Output> enterFrame(GraphBuilder& b, WhileContext& context, const Output& data, bool isConstant,
                            std::string_view name = "Enter");

/// The keyword arguments of tf.while_loop that TensorStudio supports.
struct WhileLoopOptions {
    int parallelIterations = 10;
    bool backProp = true;
    std::string name = "while";
    /// shape_invariants: one shape per loop var (empty: none given). A loop var's Enter, Merge,
    /// Switch and Identity get its invariant, which may be less specific than the initial shape
    /// (an unknown dimension lets the size change across iterations).
    std::vector<TensorShape> shapeInvariants;
    /// maximum_iterations as a scalar tensor (int32 or int64, normally), or as a number (made an
    /// int32 Const "<scope>/maximum_iterations"); at most one of the two.
    std::optional<Output> maximumIterations;
    std::optional<std::int64_t> maximumIterationsValue;
    /// swap_memory: recorded in the WhileContextDef only.
    bool swapMemory = false;
};

/// cond(b, loop vars) -> a scalar bool; body(b, loop vars) -> the next loop vars (same count, dtypes).
using WhileCondFunction = std::function<Expected<Output>(GraphBuilder&, const std::vector<Output>&)>;
using WhileBodyFunction = std::function<Expected<std::vector<Output>>(GraphBuilder&, const std::vector<Output>&)>;

/// tf.while_loop(cond, body, loop_vars, shape_invariants, parallel_iterations, back_prop,
/// swap_memory, name, maximum_iterations) as TensorFlow 1.15 builds it: under name scope `name`
/// ("while", "while_1", ...), a WhileContext with frame "<scope>/while_context"; per loop var an
/// Enter, a Merge (its second input the NextIteration of the body's result), a Switch on the
/// LoopCond of cond's result, an Identity passed to body, and an Exit, which is what is returned.
/// Tensors from outside that cond or body use enter the frame through
/// is_constant Enters. Loops nest (a whileLoop inside a body).
/// With maximum_iterations, a counter "iteration_counter" (a Const 0 of the maximum's dtype made
/// in the loop's scope) is an extra first loop var: the predicate is LogicalAnd(Less(counter,
/// maximum), cond(...)) and the body adds 1 to it ("add") before running body; its Exit is not
/// returned. With shape_invariants, each loop var's shape must be at least as specific as its
/// invariant, and after one iteration the body's result at least as specific as the invariant
/// (TensorFlow's _ShapeLessThanOrEqual).
/// Errors: InvalidArgument when there are no loop vars, cond does not give a scalar bool, or body
/// gives the wrong number of tensors or a dtype that differs from its loop var; "The shape
/// invariant specified for x:0 is not compatible with the initial shape of the loop variable. ..."
/// and "Input tensor 'x:0' enters the loop with shape [2], but has shape [3] after one iteration.
/// ..." for shapes; "maximum_iterations must be a scalar, saw shape: [2]"; cond's and body's own
/// errors; the builder's errors.
Expected<std::vector<Output>> whileLoop(GraphBuilder& b, const WhileCondFunction& cond, const WhileBodyFunction& body,
                                        const std::vector<Output>& loopVars, const WhileLoopOptions& options = {});

} // namespace tstudio
