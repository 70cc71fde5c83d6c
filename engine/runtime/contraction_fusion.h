// Contraction fusion: Grappler's remapper folding a convolution's bias and activation into it.
// TensorFlow 1.x's remapper (on by default) turns Conv2D -> BiasAdd [-> Relu | Relu6 | Elu] on the
// CPU into one _FusedConv2D node named as the last op of the pattern; the plan does the same
// (kernels/nn/fused_conv2d.h), so the two element-wise passes over the convolution's output do not
// happen. The GraphDef is not changed.
#pragma once

#include "runtime/plan_fusion.h"

namespace tstudio {

/// Finds every Conv2D (T float, NHWC) whose output is read only by a BiasAdd (NHWC) as its value, or
/// by a FusedBatchNorm(V2, V3) in inference (is_training false, float, NHWC; its other outputs read
/// by nothing: fused_ops [FusedBatchNorm], its scale, offset, mean and variance the four arguments,
/// its epsilon), that node's output read only by a Relu, Relu6 or Elu (optional: the pattern may end
/// at the BiasAdd or batch norm), within `scope`'s rules (no member's output fed, the Conv2D and BiasAdd not fetched or
/// targets, all on one CPU device, in one frame; the input, filter and bias may be fed). Each
/// becomes a PlanFusion of op _FusedConv2D anchored at the pattern's last op, which may be
/// fetched: inputs (Conv2D's input, filter, BiasAdd's bias), attrs the Conv2D's with num_args 1
/// and fused_ops [BiasAdd(, activation)].
void findContractionFusions(const FusionScope& scope, PlanFusions& into);

} // namespace tstudio
