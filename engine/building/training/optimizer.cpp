// The Optimizer base: compute_gradients, apply_gradients and minimize as TensorFlow 1.15's optimizer.py.
#include "training/optimizer.h"

#include "builder/array_ops_helpers.h"
#include "autodiff/gradients.h"
#include "autodiff/sparse_gradients.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "training/slot_creator.h"

#include <algorithm>
#include <array>

namespace tstudio::training {
namespace {

/// Python's str() of a RefVariable: "<tf.Variable 'w:0' shape=(2, 3) dtype=float32_ref>".
std::string pythonVariableString(const Variable& v)
{
    return "<tf.Variable '" + v.ref().name() + "' shape=" + pythonShapeString(v.shape()) +
           " dtype=" + dataTypeName(v.ref().dtype()) + ">";
}

/// Python's repr() of a list of such strings (they hold single quotes, so they print in double ones).
std::string pythonStringList(const std::vector<std::string>& items)
{
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", \"" : "\"") + items[i] + "\"";
    return out + "]";
}

/// Python's str() of a graph tensor: Tensor("loss:0", shape=(), dtype=float32).
std::string pythonTensorString(const Output& t)
{
    return "Tensor(\"" + t.name() + "\", shape=" + pythonShapeString(t.shape()) + ", dtype=" + dataTypeName(t.dtype()) +
           ")";
}

/// Optimizer._assert_valid_dtypes: half, bfloat16, float and double.
Status checkValidDtype(const Output& t)
{
    static constexpr std::array<DataType, 4> kValid = {tensorflow::DT_HALF, tensorflow::DT_BFLOAT16,
                                                       tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE};
    if (std::find(kValid.begin(), kValid.end(), t.baseDtype()) != kValid.end())
        return Status::ok();
    return invalidArgumentError("Invalid type tf." + dataTypeName(t.baseDtype()) + " for " + t.name() +
                                ", expected: [tf.float16, tf.bfloat16, tf.float32, tf.float64].");
}

/// control_flow_ops.tuple(tensors): "tuple/group_deps" over their producers, then one
/// "tuple/control_dependency[_N]" Identity per tensor, colocated with it, after the group.
Expected<std::vector<std::optional<Output>>> gateTuple(GraphBuilder& b, const std::vector<std::optional<Output>>& grads)
{
    auto scope = b.nameScope("tuple");
    if (!scope)
        return unexpected(scope.error());
    std::vector<Operation> gating;
    for (const auto& g : grads) {
        if (!g)
            continue;
        auto op = py::producer(b, *g);
        if (!op)
            return unexpected(op.error());
        gating.push_back(*op);
    }
    auto gate = ops::group(b, gating, "group_deps");
    if (!gate)
        return unexpected(gate.error());
    std::vector<std::optional<Output>> out;
    for (const auto& g : grads) {
        if (!g) {
            out.emplace_back();
            continue;
        }
        auto inner = b.nameScope("control_dependency");
        if (!inner)
            return unexpected(inner.error());
        auto op = py::producer(b, *g);
        if (!op)
            return unexpected(op.error());
        auto colocated = b.colocateWith(*op);
        auto control = b.controlDependencies({*gate});
        auto id = ops::identity(b, *g, inner->name());
        if (!id)
            return unexpected(id.error());
        out.emplace_back(*id);
    }
    return out;
}

} // namespace

Expected<std::vector<GradAndVar>> Optimizer::computeGradients(GraphBuilder& b, const Output& loss,
                                                              std::optional<std::vector<Variable>> varList,
                                                              GateGradients gate, bool colocateGradientsWithOps,
                                                              std::optional<Output> gradLoss)
{
    auto sparse = computeGradientsWithSlices(b, loss, std::move(varList), gate, colocateGradientsWithOps,
                                             std::move(gradLoss));
    if (!sparse)
        return unexpected(sparse.error());
    std::vector<GradAndVar> out;
    for (const auto& [grad, var] : *sparse) {
        if (!grad) {
            out.emplace_back(std::nullopt, var);
            continue;
        }
        auto dense = toDenseGradient(b, *grad);
        if (!dense)
            return unexpected(dense.error());
        out.emplace_back(*dense, var);
    }
    return out;
}

Expected<std::vector<SparseGradAndVar>>
Optimizer::computeGradientsWithSlices(GraphBuilder& b, const Output& loss, std::optional<std::vector<Variable>> varList,
                                      GateGradients gate, bool colocateGradientsWithOps, std::optional<Output> gradLoss)
{
    if (Status s = checkValidDtype(loss); !s.isOk())
        return unexpected(s);
    std::vector<Variable> vars = varList ? std::move(*varList) : trainableVariables(b);
    if (vars.empty())
        return unexpected(invalidArgumentError("No variables to optimize."));
    std::vector<Output> xs;
    for (const Variable& v : vars)
        xs.push_back(v.ref());
    GradientsOptions options;
    options.gateGradients = gate == GateGradients::kOp;
    options.colocateGradientsWithOps = colocateGradientsWithOps;
    std::vector<std::optional<Output>> gradYs;
    if (gradLoss)
        gradYs.push_back(*gradLoss);
    auto grads = addSymbolicGradientsSparse(b, {loss}, xs, gradYs, options);
    if (!grads)
        return unexpected(grads.error());
    if (gate == GateGradients::kGraph) {
        // tuple() gates an IndexedSlices through its values.
        std::vector<std::optional<Output>> tensors;
        for (const auto& g : *grads)
            tensors.push_back(!g ? std::nullopt : std::optional<Output>(g->isSparse() ? g->sparse().values : g->dense()));
        auto gated = gateTuple(b, tensors);
        if (!gated)
            return unexpected(gated.error());
        for (std::size_t i = 0; i < grads->size(); ++i) {
            auto& g = (*grads)[i];
            if (!g)
                continue;
            if (g->isSparse()) {
                IndexedSlices slices = g->sparse();
                slices.values = *(*gated)[i];
                g = Gradient(std::move(slices));
            } else {
                g = Gradient(*(*gated)[i]);
            }
        }
    }
    std::vector<SparseGradAndVar> out;
    for (std::size_t i = 0; i < vars.size(); ++i) {
        if ((*grads)[i]) {
            if (Status s = checkValidDtype(vars[i].ref()); !s.isOk())
                return unexpected(s);
        }
        out.emplace_back((*grads)[i], vars[i]);
    }
    return out;
}

Expected<Operation> Optimizer::applyGradients(GraphBuilder& b, const std::vector<GradAndVar>& gradsAndVars,
                                              const std::optional<Variable>& globalStep, std::string_view name)
{
    std::vector<SparseGradAndVar> general;
    for (const auto& [grad, var] : gradsAndVars)
        general.emplace_back(grad ? std::optional<Gradient>(*grad) : std::nullopt, var);
    return applyGradientsWithSlices(b, general, globalStep, name);
}

Expected<Operation> Optimizer::applyGradientsWithSlices(GraphBuilder& b,
                                                        const std::vector<SparseGradAndVar>& gradsAndVars,
                                                        const std::optional<Variable>& globalStep,
                                                        std::string_view name)
{
    if (gradsAndVars.empty())
        return unexpected(invalidArgumentError("No variables provided."));
    std::vector<Variable> varList;
    std::vector<std::string> all;
    for (const auto& [grad, var] : gradsAndVars) {
        all.push_back(pythonVariableString(var));
        if (grad)
            varList.push_back(var);
    }
    if (varList.empty())
        return unexpected(
            invalidArgumentError("No gradients provided for any variable: " + pythonStringList(all) + "."));

    {
        // init_scope: slots are made at the root, outside control dependencies.
        auto root = b.nameScope("");
        if (!root)
            return unexpected(root.error());
        auto noControl = b.clearControlDependencies();
        if (Status s = createSlots(b, varList); !s.isOk())
            return unexpected(s);
    }

    auto scope = b.nameScope(name.empty() ? std::string_view(m_name) : name);
    if (!scope)
        return unexpected(scope.error());
    const std::string scopeName = scope->name(); // "Adam/"
    if (Status s = prepare(b); !s.isOk())
        return unexpected(s);
    std::vector<Operation> updates;
    for (const auto& [grad, var] : gradsAndVars) {
        if (!grad)
            continue;
        auto varOp = b.operation(var.name());
        if (!varOp)
            return unexpected(varOp.error());
        auto update = b.nameScope("update_" + var.name());
        if (!update)
            return unexpected(update.error());
        auto colocated = b.colocateWith(*varOp);
        auto op = grad->isSparse() ? applySparseDuplicateIndices(b, grad->sparse(), var)
                                   : applyDense(b, grad->dense(), var);
        if (!op)
            return unexpected(op.error());
        updates.push_back(*op);
    }

    Operation applyUpdates;
    if (!globalStep) {
        auto finished = finish(b, updates, scopeName);
        if (!finished)
            return unexpected(finished.error());
        applyUpdates = *finished;
    } else {
        auto finished = finish(b, updates, "update");
        if (!finished)
            return unexpected(finished.error());
        auto stepOp = b.operation(globalStep->name());
        if (!stepOp)
            return unexpected(stepOp.error());
        auto control = b.controlDependencies({*finished});
        auto colocated = b.colocateWith(*stepOp);
        // state_ops.assign_add(global_step, 1, name=name): the 1 becomes "<name>/value" of the
        // step's dtype, then the AssignAdd takes the optimizer scope's own name.
        auto one = ops::constantInts(b, {1}, TensorShape::scalar(), globalStep->dtype(), "value");
        if (!one)
            return unexpected(one.error());
        auto increment = b.op("AssignAdd", {globalStep->ref(), *one}, {}, scopeName);
        if (!increment)
            return unexpected(increment.error());
        applyUpdates = *increment;
    }
    b.collections().add(graph_keys::kTrainOp, applyUpdates);
    return applyUpdates;
}

Expected<Operation> Optimizer::minimize(GraphBuilder& b, const Output& loss, const std::optional<Variable>& globalStep,
                                        std::optional<std::vector<Variable>> varList, GateGradients gate,
                                        std::string_view name)
{
    auto grads = computeGradientsWithSlices(b, loss, std::move(varList), gate);
    if (!grads)
        return unexpected(grads.error());
    std::vector<std::string> names;
    bool any = false;
    for (const auto& [grad, var] : *grads) {
        names.push_back(pythonVariableString(var));
        any = any || grad.has_value();
    }
    if (!any)
        return unexpected(invalidArgumentError(
            "No gradients provided for any variable, check your graph for ops that do not support gradients, "
            "between variables " +
            pythonStringList(names) + " and loss " + pythonTensorString(loss) + "."));
    return applyGradientsWithSlices(b, *grads, globalStep, name);
}

std::optional<Variable> Optimizer::getSlot(const Variable& var, std::string_view slotName) const
{
    auto named = m_slots.find(slotName);
    if (named == m_slots.end())
        return std::nullopt;
    auto it = named->second.find(var.name());
    if (it == named->second.end())
        return std::nullopt;
    return it->second;
}

std::vector<std::string> Optimizer::getSlotNames() const
{
    std::vector<std::string> out;
    for (const auto& [slotName, vars] : m_slots)
        out.push_back(slotName);
    return out;
}

std::vector<Variable> Optimizer::variables() const
{
    std::vector<Variable> out;
    for (const auto& [n, v] : m_nonSlot)
        out.push_back(v);
    for (const auto& [slotName, vars] : m_slots)
        for (const auto& [varName, v] : vars)
            out.push_back(v);
    std::sort(out.begin(), out.end(), [](const Variable& x, const Variable& y) { return x.name() < y.name(); });
    return out;
}

Status Optimizer::createSlots(GraphBuilder&, const std::vector<Variable>&)
{
    return Status::ok();
}

Status Optimizer::prepare(GraphBuilder&)
{
    return Status::ok();
}

Expected<Operation> Optimizer::applySparseDuplicateIndices(GraphBuilder& b, const IndexedSlices& grad,
                                                           const Variable& var)
{
    // _deduplicate_indexed_slices: Unique(indices), then the values summed by their new position.
    auto unique = b.op("Unique", {grad.indices}, {{"out_idx", attr::type(tensorflow::DT_INT32)}});
    if (!unique)
        return unexpected(unique.error());
    auto uniqueShape = py::shape(b, unique->output(0));
    if (!uniqueShape)
        return unexpected(uniqueShape.error());
    auto count = array_ops::stridedSlice1d(b, *uniqueShape, array_ops::ListElement{std::int64_t{0}}, std::nullopt,
                                            /*shrink=*/true);
    if (!count)
        return unexpected(count.error());
    auto summed = py::genOp(b, "UnsortedSegmentSum", {grad.values, unique->output(1), *count});
    if (!summed)
        return unexpected(summed.error());
    return applySparse(b, IndexedSlices{*summed, unique->output(0), grad.denseShape}, var);
}

Expected<Operation> Optimizer::applySparse(GraphBuilder&, const IndexedSlices&, const Variable& var)
{
    return unexpected(unimplementedError("optimizer " + m_name + " has no sparse update (_apply_sparse) for the "
                                         "IndexedSlices gradient of " + var.name()));
}

Expected<Operation> Optimizer::finish(GraphBuilder& b, const std::vector<Operation>& updateOps,
                                      std::string_view nameScope)
{
    return ops::group(b, updateOps, nameScope);
}

Expected<Variable> Optimizer::zerosSlot(GraphBuilder& b, const Variable& var, const std::string& slotName)
{
    return slotWithInitializer(b, var, Initializer::zeros(), slotName);
}

Expected<Variable> Optimizer::slotWithInitializer(GraphBuilder& b, const Variable& var, const Initializer& initializer,
                                                  const std::string& slotName)
{
    auto& named = m_slots[slotName];
    if (auto it = named.find(var.name()); it != named.end())
        return it->second;
    auto made = createSlotWithInitializer(b, var, initializer, var.shape(), var.dtype(), m_name);
    if (!made)
        return unexpected(made.error());
    named.emplace(var.name(), *made);
    return made;
}

Expected<Variable> Optimizer::slot(const Variable& var, const std::string& slotName) const
{
    if (auto found = getSlot(var, slotName))
        return *found;
    return unexpected(internalError("optimizer " + m_name + " has no slot '" + slotName + "' for " + var.name()));
}

Expected<Variable> Optimizer::nonSlotVariable(GraphBuilder& b, double initialValue, const std::string& name,
                                              const Variable& colocateWith)
{
    if (auto found = findNonSlot(name))
        return *found;
    auto colocation = b.operation(colocateWith.name());
    if (!colocation)
        return unexpected(colocation.error());
    const double values[] = {initialValue};
    auto proto = makeTensorProto(tensorflow::DT_FLOAT, TensorShape::scalar(), values);
    if (!proto)
        return unexpected(proto.error());
    auto root = b.nameScope("");
    if (!root)
        return unexpected(root.error());
    auto noControl = b.clearControlDependencies();
    auto colocated = b.colocateWith(*colocation);
    auto v = tstudio::variable(b, *proto, name, false);
    if (!v)
        return unexpected(v.error());
    m_nonSlot.emplace(name, *v);
    return v;
}

std::optional<Variable> Optimizer::findNonSlot(const std::string& name) const
{
    auto it = m_nonSlot.find(name);
    return it == m_nonSlot.end() ? std::nullopt : std::optional<Variable>(it->second);
}

Expected<Output> Optimizer::toTensor(GraphBuilder& b, const Hyper& value, std::string_view name)
{
    if (const auto* t = std::get_if<Output>(&value))
        return *t;
    return ops::constant(b, std::get<double>(value), tensorflow::DT_FLOAT, name);
}

Expected<Output> Optimizer::cast(GraphBuilder& b, const Output& x, DataType dtype)
{
    return py::cast(b, x, baseType(dtype));
}

Expected<Output> Optimizer::cast(GraphBuilder& b, const Variable& x, DataType dtype)
{
    if (x.dtype() == baseType(dtype)) {
        (void)b.uniqueName("Cast");
        return x.value();
    }
    return py::cast(b, x.value(), baseType(dtype));
}

Expected<Operation> Optimizer::applyOp(GraphBuilder& b, std::string_view type, std::vector<OpInput> inputs,
                                       AttrMap attrs) const
{
    attrs["use_locking"] = attr::b(m_useLocking);
    return b.op(type, std::move(inputs), std::move(attrs));
}

} // namespace tstudio::training
