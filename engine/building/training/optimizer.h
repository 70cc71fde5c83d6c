// Optimizer: the base of TensorFlow 1.x's optimizers (tf.train.Optimizer): gradients, slots, Apply* updates.
#pragma once

#include "builder/indexed_slices.h"
#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tstudio::training {

/// A hyper-parameter as TensorFlow's optimizers take it: a Python number (a float32 Const named
/// after the parameter, e.g. "Adam/learning_rate") or a tensor used as is (a schedule's output).
using Hyper = std::variant<double, Output>;

/// One gradient and its variable; the gradient is nullopt when the loss does not depend on it.
using GradAndVar = std::pair<std::optional<Output>, Variable>;

/// One gradient as tf.gradients returns it (a tensor or IndexedSlices) and its variable.
using SparseGradAndVar = std::pair<std::optional<Gradient>, Variable>;

/// Optimizer.GATE_NONE / GATE_OP / GATE_GRAPH.
enum class GateGradients { kNone = 0, kOp = 1, kGraph = 2 };

/// tf.train.Optimizer of TensorFlow 1.15 for ref variables (dense gradients). A subclass creates
/// its slots, converts its hyper-parameters and emits one Apply* op per variable; the base class
/// does the rest with TensorFlow's names:
///   applyGradients(grads, step, "Adam"): slots first (outside any scope), then under the name
///   scope "Adam" (made unique): the hyper-parameter Consts, for each variable with a gradient
///   "Adam/update_<var>/<Apply op>" colocated with the variable, then finish(): a NoOp grouping the
///   updates, named "Adam/update" with a global step (then "Adam/value" and the AssignAdd "Adam",
///   both after "Adam/update" and colocated with the step), else the NoOp "Adam" itself. The train
///   op is added to the TRAIN_OP collection.
/// Errors are InvalidArgument in TensorFlow's words (its ValueErrors), or the builder's.
/// An optimizer object keeps its slots between calls (getSlot); one graph per optimizer object.
class Optimizer {
public:
    virtual ~Optimizer() = default;
    Optimizer(const Optimizer&) = delete;
    Optimizer& operator=(const Optimizer&) = delete;

    /// The default name scope ("GradientDescent", "Adam", ...), also the slots' name suffix.
    const std::string& name() const { return m_name; }

    /// Optimizer.compute_gradients(loss, var_list, gate_gradients): tf.gradients of `loss` with
    /// respect to each variable's ref (gate_gradients when `gate` is kOp; kGraph adds TensorFlow's
    /// control_flow_ops.tuple "tuple/group_deps" + "tuple/control_dependency[_N]" over them). The
    /// variables default to TRAINABLE_VARIABLES. Errors: "No variables to optimize."; a loss or a
    /// variable with a gradient that is not half/bfloat16/float/double: "Invalid type tf.int32 for
    /// x:0, expected: [tf.float16, tf.bfloat16, tf.float32, tf.float64]."; addSymbolicGradients'.
    Expected<std::vector<GradAndVar>> computeGradients(GraphBuilder& b, const Output& loss,
                                                       std::optional<std::vector<Variable>> varList = {},
                                                       GateGradients gate = GateGradients::kOp,
                                                       bool colocateGradientsWithOps = false,
                                                       std::optional<Output> gradLoss = {});

    /// computeGradients keeping TensorFlow's gradient forms: a variable read through a Gather
    /// (embedding_lookup) gets IndexedSlices, which applyGradientsWithSlices applies sparsely.
    Expected<std::vector<SparseGradAndVar>> computeGradientsWithSlices(GraphBuilder& b, const Output& loss,
                                                                       std::optional<std::vector<Variable>> varList = {},
                                                                       GateGradients gate = GateGradients::kOp,
                                                                       bool colocateGradientsWithOps = false,
                                                                       std::optional<Output> gradLoss = {});

    /// applyGradients for gradients that may be IndexedSlices: those go through
    /// applySparseDuplicateIndices (TensorFlow's _RefVariableProcessor.update_op), the others
    /// through applyDense. Same names, errors and train op as applyGradients.
    Expected<Operation> applyGradientsWithSlices(GraphBuilder& b, const std::vector<SparseGradAndVar>& gradsAndVars,
                                                 const std::optional<Variable>& globalStep = {},
                                                 std::string_view name = {});

    /// Optimizer.apply_gradients(grads_and_vars, global_step, name). `name` empty: name(). Errors:
    /// "No variables provided."; "No gradients provided for any variable: ['x', ...]." when every
    /// gradient is nullopt; a gradient whose dtype differs from its variable's; the subclass's.
    Expected<Operation> applyGradients(GraphBuilder& b, const std::vector<GradAndVar>& gradsAndVars,
                                       const std::optional<Variable>& globalStep = {}, std::string_view name = {});

    /// Optimizer.minimize: computeGradientsWithSlices then applyGradientsWithSlices (so gathered
    /// variables get sparse updates, as in TensorFlow). "No gradients provided for any
    /// variable, check your graph for ops that do not support gradients, between variables ['w',
    /// ...] and loss Tensor("loss:0", shape=(), dtype=float32)." when none of the variables has one.
    Expected<Operation> minimize(GraphBuilder& b, const Output& loss, const std::optional<Variable>& globalStep = {},
                                 std::optional<std::vector<Variable>> varList = {},
                                 GateGradients gate = GateGradients::kOp, std::string_view name = {});

    /// Optimizer.get_slot(var, name): the slot made for `var`, or nullopt.
    std::optional<Variable> getSlot(const Variable& var, std::string_view slotName) const;
    /// Optimizer.get_slot_names(), sorted.
    std::vector<std::string> getSlotNames() const;
    /// Optimizer.variables(): the non-slot variables (e.g. beta1_power) and every slot, by name.
    std::vector<Variable> variables() const;

protected:
    Optimizer(std::string name, bool useLocking) : m_name(std::move(name)), m_useLocking(useLocking) {}

    bool useLocking() const { return m_useLocking; }

    /// _create_slots(var_list): called outside any name scope before the updates are built.
    virtual Status createSlots(GraphBuilder& b, const std::vector<Variable>& vars);
    /// _prepare(): converts the hyper-parameters inside the optimizer's name scope.
    virtual Status prepare(GraphBuilder& b);
    /// _apply_dense(grad, var): the update of one variable, inside "update_<var>".
    virtual Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) = 0;
    /// _apply_sparse_duplicate_indices(grad, var): by default sums the values of repeated indices
    /// (Unique, then UnsortedSegmentSum by the Unique's idx over Shape(unique)[0], as
    /// _deduplicate_indexed_slices) and calls applySparse; GradientDescent overrides it.
    virtual Expected<Operation> applySparseDuplicateIndices(GraphBuilder& b, const IndexedSlices& grad,
                                                            const Variable& var);
    /// _apply_sparse(grad, var) with unique indices: by default Unimplemented naming the optimizer
    /// (TensorFlow's NotImplementedError).
    virtual Expected<Operation> applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var);
    /// _finish(update_ops, name): by default tf.group(update_ops, name=name).
    virtual Expected<Operation> finish(GraphBuilder& b, const std::vector<Operation>& updateOps,
                                       std::string_view nameScope);

    /// _zeros_slot(var, slot_name, self._name): the slot, made once per variable.
    Expected<Variable> zerosSlot(GraphBuilder& b, const Variable& var, const std::string& slotName);
    /// _get_or_make_slot_with_initializer(var, initializer, shape, dtype, slot_name, self._name).
    Expected<Variable> slotWithInitializer(GraphBuilder& b, const Variable& var, const Initializer& initializer,
                                           const std::string& slotName);
    /// The slot `slotName` of `var` made earlier (Internal when missing: a broken invariant).
    Expected<Variable> slot(const Variable& var, const std::string& slotName) const;
    /// _create_non_slot_variable(initial_value, name, colocate_with): a float32 scalar tf.Variable
    /// "name" (made unique) at the root, colocated with `colocateWith`, not trainable; once per name.
    Expected<Variable> nonSlotVariable(GraphBuilder& b, double initialValue, const std::string& name,
                                       const Variable& colocateWith);
    std::optional<Variable> findNonSlot(const std::string& name) const;

    /// ops.convert_to_tensor(value, name=name): a float32 Const for a number, the tensor itself.
    static Expected<Output> toTensor(GraphBuilder& b, const Hyper& value, std::string_view name);
    /// math_ops.cast(x, dtype) of a tensor: x itself when it has that dtype, else a Cast "Cast".
    static Expected<Output> cast(GraphBuilder& b, const Output& x, DataType dtype);
    /// math_ops.cast(variable, dtype): a variable is no Tensor, so TensorFlow always opens the
    /// "Cast" name scope (using up the name) and reads "<var>/read", adding a Cast only when needed.
    static Expected<Output> cast(GraphBuilder& b, const Variable& x, DataType dtype);
    /// The first output of an Apply* op named after its type, with T and use_locking (and `attrs`).
    Expected<Operation> applyOp(GraphBuilder& b, std::string_view type, std::vector<OpInput> inputs,
                                AttrMap attrs = {}) const;

private:
    std::string m_name;
    bool m_useLocking = false;
    std::map<std::string, std::map<std::string, Variable>, std::less<>> m_slots; ///< slot -> var name -> slot var
    std::map<std::string, Variable, std::less<>> m_nonSlot;
};

} // namespace tstudio::training
