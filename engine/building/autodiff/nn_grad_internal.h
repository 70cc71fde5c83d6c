// Shared pieces of the nn family's gradient functions (nn_grad.cpp, nn_grad_conv_pool_norm.cpp).
#pragma once

#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "framework/op_registry.h"

#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio::nn_grad {

/// Conv2D, its backprops, DepthwiseConv2dNative and its backprops, MaxPool, AvgPool, AvgPoolGrad,
/// LRN, FusedBatchNorm, V2 and V3 (nn_grad_conv_pool_norm.cpp).
GradientTable convPoolNormGradients();

/// The attrs `names` of the forward node (defaults filled), to pass on to a gradient op as
/// op.get_attr(...) does in TensorFlow; attrs the node lacks are left out.
AttrMap forwardAttrs(const tensorflow::NodeDef& node, std::initializer_list<std::string_view> names);

/// array_ops.zeros(shape=array_ops.shape(x), dtype=x.dtype): "Shape" (a Const when x's shape is
/// fully defined), then "zeros/Const" and the Fill "zeros".
Expected<Output> zerosOfShapeOf(GraphBuilder& b, const Output& x);

} // namespace tstudio::nn_grad
