// Shared pieces of the math family's gradient functions (math_grad.cpp, math_grad_reductions.cpp).
#pragma once

#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "framework/op_registry.h"

#include <string_view>
#include <utility>
#include <vector>

namespace tstudio::math_grad {

/// Sum, Mean, Max, Min, MatMul, BatchMatMul, BatchMatMulV2 (math_grad_reductions.cpp).
GradientTable reductionAndMatMulGradients();

/// The ops of `t`'s producer gate the ops created while the guard lives (ops.control_dependencies([t])).
Expected<ScopeGuard> controlDependenciesOn(GraphBuilder& b, const Output& t);

/// TensorFlow's _ShapesFullySpecifiedAndEqual(x, y, grad).
bool shapesFullySpecifiedAndEqual(const Output& x, const Output& y, const Output& grad);

} // namespace tstudio::math_grad
