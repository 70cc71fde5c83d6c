// Shape inference through the functional control flow ops (If, StatelessIf, While, StatelessWhile):
// their branch and body functions refined with the node's input shapes.
#pragma once

#include "core/expected.h"
#include "function/shape_refiner.h"

#include <string_view>
#include <vector>

namespace tstudio {

class Allocator;
class FunctionLibrary;

/// True for If, StatelessIf, While and StatelessWhile (ops that run library functions named by
/// func attrs; they are re-entrant, as function calls are).
bool isFunctionalControlFlowOp(std::string_view op);

/// A shape that both `a` and `b` have: equal dims kept, differing ones unknown, unknown rank when
/// the ranks differ or one is unknown (TensorFlow's most specific compatible shape).
TensorShape relaxShapes(const TensorShape& a, const TensorShape& b);

/// The outputs of `node` (an op isFunctionalControlFlowOp accepts, defaults filled in):
///  - If / StatelessIf: both branches refined with inputs 1.. (inferFunctionCallOutputs), their
///    shapes relaxed into one (relaxShapes); when cond's value is known, the taken branch's outputs,
///    known values included;
///  - While / StatelessWhile: attr output_shapes when it lists shapes; else the input shapes, each
///    relaxed with what the body makes of it until nothing changes (a dim the body changes becomes
///    unknown; a rank it changes, unknown rank).
/// attr output_shapes, when set, is merged in (it wins where the two disagree). `inputs` has one
/// entry per data input (nullptr: unknown). Errors name the attr and function: instantiation errors
/// ("body: function 'b' is not in the graph's library"), a body returning other dtypes than T, a
/// cond that does not return one tensor, the functions' first shape error.
Expected<std::vector<InferredOutput>>
inferFunctionalControlFlowOutputs(const tensorflow::NodeDef& node, const FunctionLibrary& library,
                                  const std::vector<const InferredOutput*>& inputs, Allocator& allocator,
                                  const ShapeRefinerOptions& options);

} // namespace tstudio
