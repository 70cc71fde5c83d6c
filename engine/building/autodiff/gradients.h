// addSymbolicGradients: adds the ops computing d(sum of ys)/d(xs) to a graph, as tf.gradients does.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio {

/// The keyword arguments of tf.gradients (TensorFlow 1.15) that TensorStudio supports.
struct GradientsOptions {
    /// The name scope of every op added ("gradients", made unique: "gradients_1" the second time).
    std::string name = "gradients";
    /// Place each gradient op with the forward op it differentiates (colocate_gradients_with_ops).
    bool colocateGradientsWithOps = false;
    /// Make all gradients of an op's inputs available together (gate_gradients; what
    /// Optimizer.minimize asks for with GATE_OP): each op's input gradients pass through
    /// "<op>_grad/tuple/control_dependency[_N]" Identity ops that wait for all of them.
    bool gateGradients = false;
    /// Tensors treated as constants: no gradient flows through their producers (stop_gradients).
    std::vector<Output> stopGradients;
};

/// tf.gradients(ys, xs, grad_ys) for a graph under construction. Returns one entry per x: the
/// symbolic sum over ys of d(y)/d(x), weighted by grad_ys, or nullopt when x is not connected to
/// any y (TensorFlow's None; UnconnectedGradients.NONE).
///
/// As TensorFlow 1.15's gradients_util does it:
///  - every op goes under a name scope `options.name`; `grad_ys` default to ones ("Shape",
///    "grad_ys_0", "Fill"); given grad_ys pass through an Identity "grad_ys_<i>";
///  - only the ops on a path of float-like tensors (half, bfloat16, float, double, complex,
///    resource, variant) from the xs to the ys are differentiated, in TensorFlow's order (pending
///    counts), each by its registered gradient function (OpRegistration::gradient) inside the
///    name scope "<op name>_grad";
///  - gradients arriving at one tensor from several consumers are summed with AddN ("AddN",
///    "AddN_1", ..., colocated with the first of them);
///  - an unused float output of an op being differentiated gets zeros ("zeros_like");
///  - ops registered as not differentiable, StopGradient, the producers of `stopGradients`, and the
///    xs themselves stop the flow;
///  - the gradient of an input gets that input's static shape where it is less specific.
/// A VariableV2's ref output can be an x: the gradient reaches it through the variable's read
/// (Identity), as TensorFlow's optimizers use it.
///
/// Errors (the graph keeps the nodes added before the error, as TensorFlow's does):
/// InvalidArgument "Tensor 'a:0' is not an element of this graph.", "Passed 2 grad_ys for 1 ys",
/// a grad_y whose dtype does not fit its y (TensorFlow's TypeError texts), "Incompatible shapes
/// between op input and calculated input gradient. ..."; NotFound "No gradient defined for operation
/// 'a' (op type: Foo)" for an op on the path with neither a gradient nor a not-differentiable
/// registration; Unimplemented for ops inside a while frame of a graph not built with whileLoop
/// (imported loops carry no WhileContext), for loops nested in loops, and for complex ys without
/// grad_ys; a gradient function's own error, with the op.
///
/// While loops built with whileLoop (builder/while_loop.h) are differentiated as TensorFlow 1.15's
/// v1 control flow does it (autodiff/control_flow_state.h): forward and backward iteration counters
/// ("f_count", "b_count"), a gradient loop with frame "<name>/<forward frame>", history stacks for
/// the forward values gradient functions read, loop invariants' gradients summed over the
/// iterations, zeros for exits without a gradient. A loop built with back_prop=false passes no
/// gradient (nullopt, as TensorFlow's None).
Expected<std::vector<std::optional<Output>>> addSymbolicGradients(GraphBuilder& b, const std::vector<Output>& ys,
                                                                  const std::vector<Output>& xs,
                                                                  const std::vector<std::optional<Output>>& gradYs = {},
                                                                  const GradientsOptions& options = {});

} // namespace tstudio
