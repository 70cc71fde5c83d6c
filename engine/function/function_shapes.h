// Shape inference through a function call: the called function's body refined with the call's
// input shapes, so that a call's outputs get the shapes its body gives them.
#pragma once

#include "core/expected.h"
#include "function/shape_refiner.h"

#include <vector>

namespace tstudio {

class Allocator;
class FunctionLibrary;

/// Calls nest at most this deep in shape inference; a deeper call's outputs stay unknown.
inline constexpr int kMaxFunctionShapeDepth = 16;

/// The outputs of call node `call` (a call by name or a partitioned call of a `library` function;
/// defaults filled in): the function is instantiated with the call's attrs, each `_Arg` replaced by
/// a Placeholder of the input's shape (a Const when the input's value is known), and the body
/// refined with inferGraphShapes (nested calls likewise, one level deeper); each result gets the
/// dtype, shape and known value of the body tensor it is. `inputs` has one entry per data input
/// (nullptr: unknown). Errors, prefixed "function 'f': ": instantiation errors, Tin/Tout that do
/// not match the function, the body's first shape error, and Unimplemented past
/// kMaxFunctionShapeDepth (options.functionDepth counts the levels).
Expected<std::vector<InferredOutput>> inferFunctionCallOutputs(const tensorflow::NodeDef& call,
                                                               const FunctionLibrary& library,
                                                               const std::vector<const InferredOutput*>& inputs,
                                                               Allocator& allocator,
                                                               const ShapeRefinerOptions& options);

} // namespace tstudio
