// ControlFlowContext: what a GraphBuilder asks of the control-flow construct (a while loop or a cond
// branch) that the ops being created belong to, as TensorFlow's ops.Graph asks its _control_flow_context.
#pragma once

#include "builder/output.h"
#include "core/expected.h"

#include <string>
#include <vector>

namespace tstudio {

class CondContext;
class GraphBuilder;
class WhileContext;

/// A control-flow context (TensorFlow's ControlFlowContext). The GraphBuilder owns every context
/// (addControlFlowContext) and remembers, for every node, the context that was current when it was
/// created (contextOf). While a context is current, GraphBuilder::op lets it rewrite the new node's
/// data inputs (a tensor from outside a while loop enters the loop frame) and, once the node is
/// added, add control inputs (a node without inputs waits for the loop's or the branch's pivot).
/// Not synchronised, like the builder.
class ControlFlowContext {
public:
    explicit ControlFlowContext(ControlFlowContext* outer) : m_outer(outer) {}
    virtual ~ControlFlowContext() = default;
    ControlFlowContext(const ControlFlowContext&) = delete;
    ControlFlowContext& operator=(const ControlFlowContext&) = delete;

    /// The context this one is nested in (nullptr: the graph's root).
    ControlFlowContext* outerContext() const { return m_outer; }
    /// The while context this context is or is nested in, or nullptr (GetWhileContext).
    virtual WhileContext* whileContext() = 0;
    /// This context as a cond context (builder/cond.h), or nullptr.
    virtual CondContext* condContext() { return nullptr; }

    /// AddValue: `value` as ops created in this context see it (itself when it was made here; else the
    /// loop Enter or the branch Switch made for it on first use, through the outer contexts first).
    virtual Expected<Output> addValue(GraphBuilder& b, const Output& value) = 0;
    /// AddName: `tensorName` is known in this context without an Enter or a Switch (an op of an inner
    /// context made it, or a nested construct's result comes out to this one).
    virtual void addName(const std::string& tensorName) = 0;

    /// Called before a node of `type` with `inputs` is added while this context is current; the
    /// builder's name scope is the node's own ("<node name>/"), as TensorFlow's op creation has it.
    /// May replace tensors of `inputs`. Returns the context the node will belong to (normally this).
    virtual Expected<ControlFlowContext*> prepareOp(GraphBuilder& b, const std::string& type,
                                                    std::vector<std::vector<Output>>& inputs) = 0;
    /// Called after the node was added to context `owner` (what prepareOp returned).
    virtual Status opAdded(GraphBuilder& b, const Operation& op) = 0;

private:
    ControlFlowContext* m_outer;
};

} // namespace tstudio
