// cond, smartCond, case_ and assertThat: tf.cond, Keras's smart_cond, tf.case and tf.Assert of
// TensorFlow 1.15 (v1 control flow), and CondContext, the record of one cond branch.
#pragma once

#include "builder/control_flow_context.h"
#include "builder/graph_builder.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio {

/// TensorFlow's CondContext: one branch of a tf.cond. `pred` is the cond's "pred_id", `pivot` the
/// branch's "switch_t" (branch 1) or "switch_f" (branch 0). While it is current, a tensor from
/// outside the branch that an op uses enters through a Switch(tensor, pred_id) made on first use
/// (named "<consumer>/Switch", colocated with the tensor, outside control dependencies; RefSwitch
/// for a ref) whose branch output the op reads, and an op without data inputs gets a control input
/// on the pivot unless one of its control inputs is already inside the branch. Values made in the
/// branch become known to every outer context, so a cond nests in a cond or a while loop body.
/// Owned by the GraphBuilder (addControlFlowContext); not synchronised, like the builder.
class CondContext : public ControlFlowContext {
public:
    /// `name` is the context's name ("cond/cond_text", Graph.unique_name as TensorFlow takes it).
    CondContext(ControlFlowContext* outer, Output pred, Output pivot, int branch, std::string name);

    WhileContext* whileContext() override;
    CondContext* condContext() override { return this; }
    Expected<ControlFlowContext*> prepareOp(GraphBuilder& b, const std::string& type,
                                            std::vector<std::vector<Output>>& inputs) override;
    Status opAdded(GraphBuilder& b, const Operation& op) override;
    Expected<Output> addValue(GraphBuilder& b, const Output& value) override;
    void addName(const std::string& tensorName) override { m_values.insert(tensorName); }

    const std::string& name() const { return m_name; }
    /// The cond's "pred_id".
    const Output& pred() const { return m_pred; }
    /// "switch_t" or "switch_f".
    const Output& pivot() const { return m_pivot; }
    /// 1 for the true branch, 0 for the false branch (the Switch output the branch reads).
    int branch() const { return m_branch; }

    /// _ProcessOutputTensor: a branch result as the Merge takes it (a tensor from outside the branch,
    /// as `lambda: x` returns, goes through a Switch "Switch_<n>" in the cond's name scope).
    Expected<Output> processOutputTensor(GraphBuilder& b, const Output& value);
    /// ExitResult: the branch results become known to the outer context.
    void exitResult(const std::vector<Output>& results);

    /// The tensor names known inside (ValuesDef.values).
    const std::set<std::string>& values() const { return m_values; }
    /// Outside tensor name -> the Switch output standing for it (ValuesDef.external_values).
    const std::map<std::string, Output>& externalValues() const { return m_externalValues; }
    /// Records that outside tensor `name` is `inside` in this branch (a context read from a
    /// CondContextDef).
    void addExternalValue(const std::string& name, const Output& inside) { m_externalValues[name] = inside; }

private:
    /// `tensorName` is known here and in every outer context (_AddOpInternal's marking).
    void markKnown(const std::string& tensorName);

    std::string m_name;
    Output m_pred;
    Output m_pivot;
    int m_branch;
    std::set<std::string> m_values;                 ///< tensor names known inside
    std::map<std::string, Output> m_externalValues; ///< outside tensor name -> its value inside
};

/// A branch of cond: builds its ops with `b` (the branch's CondContext is current, the name scope
/// is the cond's) and returns its results (at least one).
using CondBranchFunction = std::function<Expected<std::vector<Output>>(GraphBuilder&)>;

/// tf.cond(pred, true_fn, false_fn, name) as TensorFlow 1.15 builds it: under name scope `name`
/// ("cond", "cond_1", ...) the Switch(pred, pred) "Switch", the pivots "switch_t" (Identity of its
/// output 1) and "switch_f" (output 0), "pred_id" (Identity of pred), the true branch in one
/// CondContext, then the false branch in another (see CondContext), and per result a
/// Merge([false result, true result]) "Merge", "Merge_1", ... (RefMerge when both are refs), whose
/// outputs 0 are returned. `pred` is a scalar bool tensor (a known value builds a cond all the same:
/// see smartCond). Conds nest, and work inside while loop bodies (with gradients there too:
/// autodiff/control_flow_grad.cpp).
/// Differences from TensorFlow: a Switch made for an outside tensor precedes its consumer in the
/// GraphDef (TensorFlow adds it after); branches return tensors only (no nested structures, no
/// operations: return an Identity made under controlDependencies instead); fetching branch tensors
/// is not prevented. The COND_CONTEXT collection is written by exportMetaGraph from the builder's
/// contexts (builder/control_flow_contexts.h).
/// Errors (InvalidArgument): "true_fn must be callable." / "false_fn ..."; "true_fn must have a
/// return value." (an empty result) / "false_fn ..."; "Incompatible return values of true_fn and
/// false_fn: 2 and 1 tensors"; "Outputs of true_fn and false_fn must have the same type: float32,
/// int32"; the builder's (a pred that is not a scalar bool: Switch's errors) and the branches' own.
Expected<std::vector<Output>> cond(GraphBuilder& b, const Output& pred, const CondBranchFunction& trueFn,
                                   const CondBranchFunction& falseFn, std::string_view name = "cond");

/// Keras's tf_utils.smart_cond: when `pred`'s value is known while building (a Const, see
/// GraphBuilder::constantValue) only the branch it selects is built, in the current context and
/// scope, and its results are returned; otherwise cond(b, pred, trueFn, falseFn, name).
Expected<std::vector<Output>> smartCond(GraphBuilder& b, const Output& pred, const CondBranchFunction& trueFn,
                                        const CondBranchFunction& falseFn, std::string_view name = "cond");
/// The same for a Python bool: builds and returns the branch `pred` selects.
Expected<std::vector<Output>> smartCond(GraphBuilder& b, bool pred, const CondBranchFunction& trueFn,
                                        const CondBranchFunction& falseFn);

/// One (predicate, function) pair of tf.case.
struct CaseBranch {
    Output pred; ///< a scalar bool tensor
    CondBranchFunction fn;
};

/// tf.case(pred_fn_pairs, default, exclusive, name) as TensorFlow 1.15 builds it: under name scope
/// `name`, nested conds built in reverse so the predicates are tested in order: cond(p0, f0, lambda:
/// cond(p1, f1, ... default)) ("case/cond", "case/cond/cond", ...). Without a default the last
/// pair's function is the default, guarded by tf.Asserts that its predicate is true and no other is
/// ("preds_c", "Cast", "num_true_conds", "n_true_conds", "LessEqual", "Assert/AssertGuard/..."). With
/// `exclusive` the conds run after an Assert that at most one predicate is true (a step where more
/// are fails with "Input error: exclusive=True: more than 1 conditions (p:0, q:0) evaluated as
/// True:"). With no pairs, the default's results. Errors (InvalidArgument): "pred must be Tensor of
/// type bool: x:0", "fn for pred p:0 must be callable.", no pairs and no default; cond's errors.
Expected<std::vector<Output>> case_(GraphBuilder& b, const std::vector<CaseBranch>& pairs,
                                    const CondBranchFunction& defaultFn = {}, bool exclusive = false,
                                    std::string_view name = "case");

/// One element of tf.Assert's data: a Python string (a string Const) or a tensor.
using AssertDatum = std::variant<std::string, Output>;

/// tf.Assert(condition, data, summarize, name) as TensorFlow 1.15 builds it in a graph: under name
/// scope `name` each string of `data` becomes a Const "Const", "Const_1", ...; when every datum is a
/// string or int32 the Assert op "Assert" is returned; otherwise the Assert is guarded by
/// cond(condition, no_op, assert, name="AssertGuard") ("AssertGuard/NoOp", "AssertGuard/Assert",
/// "AssertGuard/control_dependency", "AssertGuard/control_dependency_1") and its Merge op
/// "AssertGuard/Merge" is returned. Run after it (controlDependencies) what must not run when the
/// condition is false: the step then fails with "assertion failed: [...]".
/// Errors: the builder's (a condition that is not a scalar bool), InvalidArgument for a datum that
/// is an invalid Output.
Expected<Operation> assertThat(GraphBuilder& b, const Output& condition, const std::vector<AssertDatum>& data,
                               std::optional<std::int64_t> summarize = std::nullopt, std::string_view name = "Assert");

/// control_flow_ops.with_dependencies(dependencies, t): an Identity of `t` named `name` (made
/// unique) that runs after `dependencies`, colocated with t.
Expected<Output> withDependencies(GraphBuilder& b, const std::vector<Operation>& dependencies, const Output& t,
                                  std::string_view name = "control_dependency");

} // namespace tstudio
