// The functional op family (TensorFlow 1.15's functional_ops OpDefs): PartitionedCall and
// StatefulPartitionedCall, the functional control flow If, StatelessIf, While and StatelessWhile,
// and SymbolicGradient. Calls and control flow take their functions from the graph's library; their
// registered shape functions are TensorFlow's (unknown, or attr output_shapes), and the shape
// refiner sees through them into the functions' bodies instead (function/shape_refiner.h).
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/op_families.h"

#include <functional>

namespace tstudio {
namespace {

/// Sets every output from attr output_shapes when it lists any (it must list one per output);
/// otherwise leaves the outputs to `otherwise`.
Status outputShapesOr(ShapeInferenceContext& c, const std::function<void()>& otherwise)
{
    auto shapes = c.attrShapeList("output_shapes");
    if (!shapes)
        return shapes.error();
    if (shapes->empty()) {
        otherwise();
        return Status::ok();
    }
    if (static_cast<int>(shapes->size()) != c.numOutputs())
        return invalidArgumentError("`output_shapes` must be the same length as num outputs (" +
                                    std::to_string(shapes->size()) + " vs. " + std::to_string(c.numOutputs()));
    for (int i = 0; i < c.numOutputs(); ++i)
        c.setOutput(i, (*shapes)[static_cast<std::size_t>(i)]);
    return Status::ok();
}

/// If / StatelessIf: output_shapes, else unknown.
Status ifShape(ShapeInferenceContext& c)
{
    return outputShapesOr(c, [&] {
        for (int i = 0; i < c.numOutputs(); ++i)
            c.setOutput(i, TensorShape::unknown());
    });
}

/// While / StatelessWhile: output_shapes, else the inputs' shapes.
Status whileShape(ShapeInferenceContext& c)
{
    return outputShapesOr(c, [&] {
        for (int i = 0; i < c.numOutputs() && i < c.numInputs(); ++i)
            c.setOutput(i, c.input(i));
    });
}

/// SymbolicGradient: (x..., dy...) -> (dx...), each dx shaped like its x (unknown for a resource x).
Status symbolicGradientShape(ShapeInferenceContext& c)
{
    if (c.numInputs() < c.numOutputs())
        return invalidArgumentError("len(inputs) < len(outputs)");
    for (int i = 0; i < c.numOutputs(); ++i)
        c.setOutput(i, baseType(c.inputType(i)) == tensorflow::DT_RESOURCE ? TensorShape::unknown() : c.input(i));
    return Status::ok();
}

Status registerPartitionedCalls(OpRegistry& registry)
{
    for (const bool stateful : {false, true}) {
        const std::string name = stateful ? "StatefulPartitionedCall" : "PartitionedCall";
        OpDefBuilder op(name);
        op.summary("Returns f(args), where the body of function f is placed and partitioned across devices.")
            .description(std::string("Calls the library function named by attr f (with f's attrs) on the inputs; "
                                     "Tin and Tout are the dtypes of the inputs and the outputs.") +
                         (stateful ? " The call may have side effects (variables, random numbers): it is never "
                                     "pruned or folded."
                                   : ""))
            .category(op_category::kControlFlow)
            .input("args: Tin")
            .output("output: Tout")
            .attr("Tin: list(type) >= 0")
            .attr("Tout: list(type) >= 0")
            .attr("f: func")
            .attr("config: string = ''")
            .attr("config_proto: string = ''")
            .attr("executor_type: string = ''");
        if (stateful)
            op.setIsStateful();
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(name, unknownShape); !s.isOk())
            return s;
    }
    return Status::ok();
}

Status registerIfOps(OpRegistry& registry)
{
    for (const bool stateful : {true, false}) {
        const std::string name = stateful ? "If" : "StatelessIf";
        OpDefBuilder op(name);
        op.summary("output = cond ? then_branch(input) : else_branch(input)")
            .description(std::string("Runs one of two library functions on the inputs and returns its results. "
                                     "A cond that is not a boolean counts as true when it is a non-zero number or "
                                     "a non-empty string (a scalar), or a non-empty tensor (any other shape).") +
                         (stateful ? " The branches may have side effects (variables, random numbers)."
                                   : " The branches must have no side effects."))
            .category(op_category::kControlFlow)
            .input("cond: Tcond")
            .input("input: Tin")
            .output("output: Tout")
            .attr("Tcond: type")
            .attr("Tin: list(type) >= 0")
            .attr("Tout: list(type) >= 0")
            .attr("then_branch: func")
            .attr("else_branch: func")
            .attr("output_shapes: list(shape) = []")
            .doc("cond", "Chooses the branch: then_branch when true, else_branch when false.")
            .doc("input", "The branch functions' arguments (dtypes Tin).")
            .doc("then_branch", "A function taking Tin and returning Tout, run when cond is true.")
            .doc("else_branch", "A function taking Tin and returning Tout, run when cond is false.")
            .doc("output_shapes", "The outputs' shapes when known (one per output), else empty.");
        if (stateful)
            op.setIsStateful();
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(name, ifShape); !s.isOk())
            return s;
    }
    return Status::ok();
}

Status registerWhileOps(OpRegistry& registry)
{
    for (const bool stateful : {true, false}) {
        const std::string name = stateful ? "While" : "StatelessWhile";
        OpDefBuilder op(name);
        op.summary("output = input; While (cond(output)) { output = body(output) }")
            .description(std::string("Runs the library function body on the loop variables as long as the "
                                     "function cond, called on them, returns true (a scalar that is not a boolean "
                                     "counts as true when non-zero or non-empty; another shape when non-empty). "
                                     "The loop variables may change shape from one iteration to the next.") +
                         (stateful ? " The body may have side effects (variables, random numbers)."
                                   : " The body must have no side effects."))
            .category(op_category::kControlFlow)
            .input("input: T")
            .output("output: T")
            .attr("T: list(type) >= 0")
            .attr("cond: func")
            .attr("body: func")
            .attr("output_shapes: list(shape) = []")
            .attr("parallel_iterations: int = 10")
            .doc("input", "The initial values of the loop variables.")
            .doc("output", "The loop variables after the last iteration.")
            .doc("cond", "A function taking T and returning one tensor that says whether to run body again.")
            .doc("body", "A function taking T and returning T: the loop variables of the next iteration.")
            .doc("output_shapes", "The outputs' shapes when known (one per output), else empty.")
            .doc("parallel_iterations", "How many iterations may run at once (iterations run one after the other "
                                        "here).");
        if (stateful)
            op.setIsStateful();
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(name, whileShape); !s.isOk())
            return s;
    }
    return Status::ok();
}

Status registerSymbolicGradientOp(OpRegistry& registry)
{
    OpDefBuilder op("SymbolicGradient");
    op.summary("Computes the gradient function for function f via backpropagation.")
        .description("For a function f taking N inputs x and returning M outputs y, the input is (x, dL/dy) "
                     "(N + M tensors) and the output is dL/dx (N tensors), for a scalar L of the caller. The "
                     "gradient is the function the library names as f's gradient (a GradientDef) when there is "
                     "one, else f's body differentiated. f may also name While or StatelessWhile with a loop's "
                     "attrs: the gradient of that loop.")
        .category(op_category::kControlFlow)
        .input("input: Tin")
        .output("output: Tout")
        .attr("Tin: list(type)")
        .attr("Tout: list(type)")
        .attr("f: func")
        .doc("input", "The N inputs of f, then the M gradients of its outputs.")
        .doc("output", "The N gradients of f's inputs.")
        .doc("f", "The function to differentiate, with its attrs.");
    if (Status s = registry.registerOp(op); !s.isOk())
        return s;
    return registry.setShapeFunction("SymbolicGradient", symbolicGradientShape);
}

} // namespace

Status registerFunctionOps(OpRegistry& registry)
{
    for (auto family : {registerPartitionedCalls, registerIfOps, registerWhileOps, registerSymbolicGradientOp}) {
        if (Status s = family(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
