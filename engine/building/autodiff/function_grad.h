// Gradients through function calls and functional control flow (function_grad.cpp): what the
// gradient driver calls for a node that calls a library function by name.
#pragma once

#include "core/status.h"

#include <string_view>

namespace tstudio {

class GradientContext;
class GraphBuilder;

/// True when `op` is the name of a function in the library of the graph `b` builds (such a node
/// calls the function by name; it has no OpRegistration).
bool isLibraryFunction(const GraphBuilder& b, std::string_view op);

/// The gradient of a function call (by name, PartitionedCall, StatefulPartitionedCall), as
/// TensorFlow 1.15's _SymGrad builds it: one node "SymbolicGradient" in the "<call>_grad" scope
/// with input = the call's inputs + the gradients of its outputs (every output has one: the driver
/// gives calls zeros even for integer outputs), Tin inferred, Tout = the inputs' dtypes (float for a
/// resource), f = NameAttrList{name: the function (attr f's name for a partitioned call, the op for
/// a call by name), attr: every attr of the call node}. Output i is the gradient of input i. At run
/// time the kernel uses the library's gradient function of f when a GradientDef names one.
Status functionCallGradient(GradientContext& ctx);

} // namespace tstudio
