// The function family's gradients: function calls differentiate to SymbolicGradient (TensorFlow
// 1.15's _SymGrad); If / StatelessIf to an If of the same kind over the branches' gradient functions
// (cond_v2's gradient in spirit: each gradient branch is a library function whose one node is the
// SymbolicGradient of the forward branch); While / StatelessWhile to a SymbolicGradient of the loop
// op itself, whose kernel replays the loop and runs the body's gradient backwards.
#include "autodiff/function_grad.h"

#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/graph_builder.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"
#include "function/function_instantiation.h"

#include <set>

namespace tstudio {
namespace {

/// The dtype of the gradient of an input of dtype `dtype` (TensorFlow 1.15: float for a resource).
DataType gradientType(DataType dtype)
{
    const DataType base = baseType(dtype);
    return base == tensorflow::DT_RESOURCE ? tensorflow::DT_FLOAT : base;
}

/// The gradient of every output: the driver's, or zeros like the output when it has none.
Expected<std::vector<Output>> outputGradients(GradientContext& ctx)
{
    std::vector<Output> grads;
    for (int j = 0; j < ctx.numOutputs(); ++j) {
        if (const auto& g = ctx.outputGradient(j)) {
            grads.push_back(*g);
            continue;
        }
        TSTUDIO_AD_TRY(zeros, py::zerosLike(ctx.builder(), ctx.output(j), false));
        grads.push_back(zeros);
    }
    return grads;
}

/// A function name based on `base` that the builder's library does not use yet.
std::string unusedFunctionName(const GraphBuilder& b, const std::string& base)
{
    std::set<std::string> used;
    for (const tensorflow::FunctionDef& f : b.graphDef().library().function())
        used.insert(f.signature().name());
    std::string name = base;
    for (int k = 1; used.count(name); ++k)
        name = base + "_" + std::to_string(k);
    return name;
}

/// The gradient function of branch `branch` (taking tin, returning tout): (x..., dy...) -> dx...,
/// whose one node is "SymbolicGradient" of the branch.
tensorflow::FunctionDef branchGradient(const std::string& name, const tensorflow::NameAttrList& branch,
                                       const std::vector<DataType>& tin, const std::vector<DataType>& tout,
                                       const std::vector<DataType>& gradTypes)
{
    tensorflow::FunctionDef f;
    tensorflow::OpDef& signature = *f.mutable_signature();
    signature.set_name(name);
    tensorflow::NodeDef& grad = *f.add_node_def();
    grad.set_name("SymbolicGradient");
    grad.set_op("SymbolicGradient");
    auto& attrs = *grad.mutable_attr();
    attrs["Tin"].mutable_list();
    attrs["Tout"].mutable_list();
    for (std::size_t i = 0; i < tin.size(); ++i) {
        auto& arg = *signature.add_input_arg();
        arg.set_name("x_" + std::to_string(i));
        arg.set_type(tin[i]);
        grad.add_input(arg.name());
        attrs["Tin"].mutable_list()->add_type(tin[i]);
    }
    for (std::size_t j = 0; j < tout.size(); ++j) {
        auto& arg = *signature.add_input_arg();
        arg.set_name("dy_" + std::to_string(j));
        arg.set_type(tout[j]);
        grad.add_input(arg.name());
        attrs["Tin"].mutable_list()->add_type(tout[j]);
    }
    for (std::size_t i = 0; i < gradTypes.size(); ++i) {
        auto& out = *signature.add_output_arg();
        out.set_name("dx_" + std::to_string(i));
        out.set_type(gradTypes[i]);
        attrs["Tout"].mutable_list()->add_type(gradTypes[i]);
        (*f.mutable_ret())[out.name()] = "SymbolicGradient:output:" + std::to_string(i);
    }
    *attrs["f"].mutable_func() = branch;
    return f;
}

Expected<tensorflow::NameAttrList> funcAttr(const tensorflow::NodeDef& node, const std::string& name)
{
    const tensorflow::AttrValue* value = findAttr(node, name);
    if (!value || value->value_case() != tensorflow::AttrValue::kFunc || value->func().name().empty())
        return unexpected(
            invalidArgumentError("attr '" + name + "' of '" + node.name() + "' must name a function (a func value)"));
    return value->func();
}

/// If / StatelessIf: If(cond, x + dy) over "<then>_grad" and "<else>_grad"; cond gets none.
Status ifGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const tensorflow::NodeDef& node = ctx.node();
    TSTUDIO_AD_TRY(tin, attrTypeList(node, "Tin"));
    TSTUDIO_AD_TRY(tout, attrTypeList(node, "Tout"));
    TSTUDIO_AD_TRY(thenBranch, funcAttr(node, "then_branch"));
    TSTUDIO_AD_TRY(elseBranch, funcAttr(node, "else_branch"));
    TSTUDIO_AD_CHECK(ctx.setNoGradient(0));
    if (tin.empty())
        return Status::ok();
    std::vector<DataType> gradTypes;
    for (DataType t : tin)
        gradTypes.push_back(gradientType(t));

    tensorflow::FunctionDefLibrary functions;
    const std::string thenName = unusedFunctionName(b, thenBranch.name() + "_grad");
    *functions.add_function() = branchGradient(thenName, thenBranch, tin, tout, gradTypes);
    // Both branches may be the same function: one gradient function serves both.
    std::string elseName = thenName;
    if (elseBranch.name() != thenBranch.name() || elseBranch.SerializeAsString() != thenBranch.SerializeAsString()) {
        TSTUDIO_AD_CHECK(b.addFunctions(functions));
        elseName = unusedFunctionName(b, elseBranch.name() + "_grad");
        functions.Clear();
        *functions.add_function() = branchGradient(elseName, elseBranch, tin, tout, gradTypes);
    }
    TSTUDIO_AD_CHECK(b.addFunctions(functions));

    std::vector<Output> args;
    for (int i = 1; i < ctx.numInputs(); ++i)
        args.push_back(ctx.input(i));
    TSTUDIO_AD_TRY(dys, outputGradients(ctx));
    args.insert(args.end(), dys.begin(), dys.end());
    tensorflow::AttrValue thenAttr;
    thenAttr.mutable_func()->set_name(thenName);
    tensorflow::AttrValue elseAttr;
    elseAttr.mutable_func()->set_name(elseName);
    AttrMap attrs{{"Tcond", node.attr().at("Tcond")},
                  {"Tout", attr::types(gradTypes)},
                  {"then_branch", thenAttr},
                  {"else_branch", elseAttr}};
    TSTUDIO_AD_TRY(grad, b.op(node.op(), {ctx.input(0), OpInput(args)}, std::move(attrs)));
    for (std::size_t i = 0; i < tin.size(); ++i)
        TSTUDIO_AD_CHECK(ctx.setInputGradient(static_cast<int>(i) + 1, grad.output(static_cast<int>(i))));
    return Status::ok();
}

/// While / StatelessWhile: SymbolicGradient(x + dy) of f = {the loop's op, its attrs}. Its kernel runs
/// the loop again, keeping each iteration's loop variables, then the body's gradient backwards.
Status whileGrad(GradientContext& ctx)
{
    const tensorflow::NodeDef& node = ctx.node();
    TSTUDIO_AD_TRY(types, attrTypeList(node, "T"));
    for (std::size_t i = 0; i < types.size(); ++i)
        if (baseType(types[i]) == tensorflow::DT_RESOURCE)
            return unimplementedError("gradients of the functional loop '" + node.name() + "' (op " + node.op() +
                                      ") with a resource loop variable (loop variable " + std::to_string(i) +
                                      ") are not implemented yet");
    if (types.empty())
        return Status::ok();
    std::vector<Output> args;
    for (int i = 0; i < ctx.numInputs(); ++i)
        args.push_back(ctx.input(i));
    TSTUDIO_AD_TRY(dys, outputGradients(ctx));
    args.insert(args.end(), dys.begin(), dys.end());
    tensorflow::AttrValue f;
    f.mutable_func()->set_name(node.op());
    for (const auto& [name, value] : node.attr())
        (*f.mutable_func()->mutable_attr())[name] = value;
    std::vector<DataType> gradTypes;
    for (DataType t : types)
        gradTypes.push_back(baseType(t));
    TSTUDIO_AD_TRY(grad,
                   ctx.builder().op("SymbolicGradient", {OpInput(args)}, {{"Tout", attr::types(gradTypes)}, {"f", f}}));
    for (int i = 0; i < ctx.numInputs(); ++i)
        TSTUDIO_AD_CHECK(ctx.setInputGradient(i, grad.output(i)));
    return Status::ok();
}

} // namespace

bool isLibraryFunction(const GraphBuilder& b, std::string_view op)
{
    for (const tensorflow::FunctionDef& f : b.graphDef().library().function())
        if (f.signature().name() == op)
            return true;
    return false;
}

Status functionCallGradient(GradientContext& ctx)
{
    const tensorflow::NodeDef& node = ctx.node();
    tensorflow::AttrValue f;
    if (isPartitionedCallOp(node.op())) {
        TSTUDIO_AD_TRY(called, funcAttr(node, "f"));
        f.mutable_func()->set_name(called.name());
    } else {
        f.mutable_func()->set_name(node.op());
    }
    for (const auto& [name, value] : node.attr())
        (*f.mutable_func()->mutable_attr())[name] = value;
    std::vector<Output> args;
    std::vector<DataType> gradTypes;
    for (int i = 0; i < ctx.numInputs(); ++i) {
        args.push_back(ctx.input(i));
        gradTypes.push_back(gradientType(ctx.input(i).dtype()));
    }
    if (args.empty())
        return Status::ok();
    TSTUDIO_AD_TRY(dys, outputGradients(ctx));
    args.insert(args.end(), dys.begin(), dys.end());
    TSTUDIO_AD_TRY(grad,
                   ctx.builder().op("SymbolicGradient", {OpInput(args)}, {{"Tout", attr::types(gradTypes)}, {"f", f}}));
    for (int i = 0; i < ctx.numInputs(); ++i)
        TSTUDIO_AD_CHECK(ctx.setInputGradient(i, grad.output(i)));
    return Status::ok();
}

Status registerFunctionGradients(OpRegistry& registry)
{
    return registerGradientTables(registry, {GradientTable{{"PartitionedCall", functionCallGradient},
                                                           {"StatefulPartitionedCall", functionCallGradient},
                                                           {"If", ifGrad},
                                                           {"StatelessIf", ifGrad},
                                                           {"While", whileGrad},
                                                           {"StatelessWhile", whileGrad}}});
}

} // namespace tstudio
