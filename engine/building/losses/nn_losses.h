// The loss ops of tf.nn in TensorFlow 1.15: softmax and sparse softmax cross entropy with logits,
// sigmoid cross entropy with logits and l2_loss, built with Python's reshapes and node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <string_view>

namespace tstudio::nn {

/// tf.nn.softmax_cross_entropy_with_logits_v2(labels, logits, axis=-1, name): in the scope `name`
/// (default "softmax_cross_entropy_with_logits"): "Rank", "Shape", the flattening of logits and
/// labels to matrices ("Rank_1", "Shape_1", "Sub/y", "Sub", "Slice/begin", "Slice/size", "Slice",
/// "concat/values_0", "concat/axis", "concat", "Reshape", then "_1"/"_2" for the labels), the
/// SoftmaxCrossEntropyWithLogits named after the scope, and the final Reshape to the logits' shape
/// without its last dimension ("Sub_2", "Slice_2", "Reshape_2"). Labels are cast to the logits'
/// dtype; float16 logits are computed in float32 and cast back. Gradients flow into both inputs.
/// `axis` other than -1 / rank-1 is Unimplemented. Shape errors are the op's shape function's
/// ("logits and labels must be same size: logits_size=[2,3] labels_size=[2,4]").
Expected<Output> softmaxCrossEntropyWithLogitsV2(GraphBuilder& b, const Output& labels, const Output& logits,
                                                 int axis = -1, std::string_view name = {});
/// tf.nn.softmax_cross_entropy_with_logits (deprecated v1): scope "softmax_cross_entropy_with_logits_sg"
/// holding the StopGradient "labels_stop_gradient" on the labels, then the v2 function in the same
/// scope (so the op is named "softmax_cross_entropy_with_logits_sg").
Expected<Output> softmaxCrossEntropyWithLogits(GraphBuilder& b, const Output& labels, const Output& logits,
                                               int axis = -1, std::string_view name = {});
/// tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits, name): scope `name` (default
/// "SparseSoftmaxCrossEntropyWithLogits") holding "Shape" (of the labels) and, for rank-2 logits,
/// the op itself named `name` again ("SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits",
/// "xentropy/xentropy"); for higher ranks (fully defined shapes) logits and labels are reshaped to
/// [-1, classes] / [-1] and the cost back to the labels' shape. Errors as TensorFlow:
/// "Logits cannot be scalars - received shape ()."; "Rank mismatch: Rank of labels (received 2)
/// should equal rank of logits minus 1 (received 2)."; "Shape mismatch: The shape of labels
/// (received (3,)) should equal the shape of logits except for the last dimension (received (2, 5))."
Expected<Output> sparseSoftmaxCrossEntropyWithLogits(GraphBuilder& b, const Output& labels, const Output& logits,
                                                     std::string_view name = {});
/// tf.nn.sigmoid_cross_entropy_with_logits(labels, logits, name): the numerically stable
/// max(x, 0) - x * z + log(1 + exp(-|x|)) in the scope `name` (default "logistic_loss"):
/// "zeros_like", "GreaterEqual", "Select", "Neg", "Select_1", "mul", "sub", "Exp", "Log1p" and
/// the Add named after the scope. InvalidArgument "logits and labels must have the same shape
/// ((2, 3) vs (2, 4))" when the static shapes do not merge.
Expected<Output> sigmoidCrossEntropyWithLogits(GraphBuilder& b, const Output& labels, const Output& logits,
                                               std::string_view name = {});
/// tf.nn.l2_loss(t): sum(t^2) / 2, the op "L2Loss".
Expected<Output> l2Loss(GraphBuilder& b, const Output& t, std::string_view name = "L2Loss");

} // namespace tstudio::nn
