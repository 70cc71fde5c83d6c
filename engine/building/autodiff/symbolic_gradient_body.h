// The autodiff's side of SymbolicGradient: a library function's body differentiated with
// addSymbolicGradients, as the body that function/symbolic_gradient_body.h's symbolicGradientBody
// runs (registerAllGradients puts it in the op registry).
#pragma once

#include "core/expected.h"
#include "function/function_instantiation.h"

#include <vector>

namespace tstudio {

class FunctionLibrary;

/// The gradient of `target` (f taking N tensors x and returning M tensors y) as a FunctionBody
/// taking (x, dy) and returning dx, N + M arguments and N results: f's body instantiated with the
/// target's attrs, each `_Arg` a Placeholder of unknown shape, imported into a GraphBuilder, and
/// addSymbolicGradients(ys = f's results, xs = its arguments, grad_ys = M more Placeholders "dy");
/// then the Placeholders become the `_Arg` nodes and the gradients the `_Retval` nodes
/// ("dx_RetVal", "dx_RetVal_1", ...). Calls inside f differentiate to SymbolicGradient nodes of
/// their own (nested calls). An x the ys do not depend on gets zeros (ZerosLike; for a resource x,
/// zeros like the variable's value). The body recomputes f's forward values it needs; f's control
/// outputs are not run again.
/// `gradTypes` (SymbolicGradient's Tout; may be empty) fixes each result's dtype: an x's own dtype,
/// float for a resource (TensorFlow 1.15's _SymGrad choice), or the variable's dtype.
/// Errors, prefixed "gradient of function 'f': ": instantiation errors, the autodiff's (NotFound
/// "No gradient defined for operation 'n' (op type: Foo)"), a gradient of another dtype than
/// gradTypes asks for, gradTypes of the wrong length.
Expected<FunctionBody> differentiateFunctionBody(const FunctionLibrary& library, const FunctionCallTarget& target,
                                                 const std::vector<DataType>& gradTypes);

} // namespace tstudio
