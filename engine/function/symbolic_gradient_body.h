// The gradient body SymbolicGradient runs for a library function: the function's body, its
// gradient added by the engine's own autodiff, as one runnable function body.
#pragma once

#include "core/expected.h"
#include "function/function_instantiation.h"

#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class FunctionLibrary;

/// The function the library names as `function`'s gradient (a GradientDef), or an empty string.
/// (TensorFlow's SymbolicGradient runs that function instead of differentiating the body.)
std::string libraryGradientOf(const FunctionLibrary& library, std::string_view function);

/// The gradient of `target` as a FunctionBody taking (x, dy) and returning dx: the op registry's
/// symbolicGradientBody (autodiff/symbolic_gradient_body.h's differentiateFunctionBody, which
/// registerAllGradients sets; its contract and errors). Unimplemented when the registry has none.
Expected<FunctionBody> symbolicGradientBody(const FunctionLibrary& library, const FunctionCallTarget& target,
                                            const std::vector<DataType>& gradTypes);

} // namespace tstudio
