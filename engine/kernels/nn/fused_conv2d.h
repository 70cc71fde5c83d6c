// _FusedConv2D: a Conv2D followed by the ops Grappler's remapper folds into it (TensorFlow 1.15's
// fused_ops: BiasAdd or FusedBatchNorm, then optionally Relu, Relu6 or Elu). Graphs that Grappler
// optimised carry the op; execution plans make it from Conv2D -> BiasAdd -> activation
// (runtime/contraction_fusion.h). CPU, NHWC, float and double, as TensorFlow registers it.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"

#include <memory>

namespace tstudio::nn {

inline constexpr const char* kFusedConv2DOp = "_FusedConv2D";

/// What fused_ops asks for after the convolution.
struct FusedConvEpilogue {
    enum class Shift { kBiasAdd, kBatchNorm };
    enum class Activation { kNone, kRelu, kRelu6, kElu };
    Shift shift = Shift::kBiasAdd;
    Activation activation = Activation::kNone;
    float epsilon = 0.0001f; ///< FusedBatchNorm's
};

/// Reads fused_ops, num_args and epsilon with TensorFlow's checks: "Fused Conv2D must have at least
/// one fused op.", "Fused Conv2D must have one extra argument: bias.", "Fused Conv2D with batch
/// norm must have four extra arguments: scale, offset, mean, variance.", and Unimplemented
/// "Fusion is not implemented: [BiasAdd,Tanh]" for any other list.
Expected<FusedConvEpilogue> fusedConvEpilogue(const tensorflow::NodeDef& node);

/// The CPU kernel for `def` (op _FusedConv2D, T float or double, num_args tensors after input and
/// filter): the convolution, then per output channel the bias (or (x - mean) * scale /
/// sqrt(variance + epsilon) + offset), then the activation, each with the formula of the op it
/// replaces. Float convolutions with a bias and no activation or Relu run as one oneDNN primitive.
Expected<std::unique_ptr<OpKernel>> makeFusedConv2DKernel(const tensorflow::NodeDef& def, Device& device);

} // namespace tstudio::nn
