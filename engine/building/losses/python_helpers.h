// The TensorFlow 1.15 Python helpers that losses and metrics build on (reduce over every axis,
// div_no_nan, squeeze, weights_broadcast_ops, remove_squeezable_dimensions), with Python's node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tstudio::lossutil {

// Every helper adds its nodes under the current name scope of `b`; errors are GraphBuilder::op's
// unless said otherwise.

/// math_ops._ReductionDims + reduce_<op>(x) over every axis: the axes "Const" (np.arange(rank)),
/// or "Rank", "range/start", "range/delta" and "range" when the rank is unknown; then the reduction
/// `type` ("Sum", "Mean", ...) named `name`.
Expected<Output> reduceAll(GraphBuilder& b, std::string_view type, const Output& x, std::string_view name = {});
/// reduce_sum(x, axis) for one Python-int axis: "Sum/reduction_indices" and "Sum" (named `name`).
Expected<Output> reduceAxis(GraphBuilder& b, std::string_view type, const Output& x, std::int64_t axis,
                            std::string_view name = {});
/// math_ops.div_no_nan(x, y, name): x / y, 0 where y == 0, the DivNoNan op named `name`. Only for
/// a registry without DivNoNan (registerAllOps has it): the same values from Equal, Select and
/// RealDiv under the scope `name`, the final Select named `name`, with gradients free of NaN.
Expected<Output> divNoNan(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = "div_no_nan");
/// array_ops.squeeze(x, [axis]) "Squeeze".
Expected<Output> squeeze(GraphBuilder& b, const Output& x, std::int64_t axis);
/// array_ops.expand_dims(x, [-1]) with a list axis: "ExpandDims/dim" and "ExpandDims".
Expected<Output> expandDimsLast(GraphBuilder& b, const Output& x, std::string_view name = "ExpandDims");
/// array_ops.where(condition, x, python number y, name): "<name>/e" and the Select `name`.
Expected<Output> selectScalarElse(GraphBuilder& b, const Output& condition, const Output& x, double y,
                                  std::string_view name);
/// The InvalidArgument TensorShape.assert_is_compatible_with raises:
/// "Shapes (2, 3) and (2, 4) are incompatible".
Status assertCompatible(const TensorShape& a, const TensorShape& b);

/// weights_broadcast_ops.assert_broadcastable(weights, values): the scope "assert_broadcastable"
/// with "weights/shape", "weights/rank", "values/shape", "values/rank", then (the op to make a
/// control dependency of) the NoOp "static_scalar_check_success" or "static_dims_check_success"
/// when ranks (and, for non-scalar weights, shapes) are known while building, else TensorFlow's
/// run-time check: "is_scalar", "is_valid_shape" and the Assert "Assert", which fails the step with
/// "assertion failed: [weights can not be broadcast to values.] [weights.shape=] [w:0] [3 2]
/// [values.shape=] [v:0] [3 4] [is_scalar=] [0]" (is_valid_shape is computed without TensorFlow's
/// tf.conds and set op, to the same decision; see python_helpers.cpp). Build-time errors as
/// TensorFlow: "weights can not be broadcast to values. values.rank=2. weights.rank=1.
/// values.shape=(2, 3). weights.shape=(3,)." / "... Mismatch at dim 1. values.shape=[2 3]
/// weights.shape=[2 4]."
Expected<Operation> assertBroadcastable(GraphBuilder& b, const Output& weights, const Output& values);
/// assertBroadcastable for Python-number weights: the Const "assert_broadcastable/weights" is
/// made; returns the NoOp.
Expected<Operation> assertBroadcastableScalar(GraphBuilder& b, double weights, const Output& values);

/// weights_broadcast_ops.broadcast_weights(weights, values): `weights` itself when both shapes are
/// fully defined and compatible, else Mul(weights, ones_like(values)) named "broadcast_weights"
/// under a control dependency on assertBroadcastable.
Expected<Output> broadcastWeights(GraphBuilder& b, const Output& weights, const Output& values);

/// confusion_matrix.remove_squeezable_dimensions(labels, predictions, expected_rank_diff) with
/// static ranks: opens "remove_squeezable_dimensions" and squeezes the last dimension of one of
/// them when the ranks differ by expected_rank_diff +- 1. Unimplemented for unknown ranks (TF
/// builds a tf.cond there).
Status removeSqueezableDimensions(GraphBuilder& b, Output& labels, Output& predictions,
                                  std::int64_t expectedRankDiff = 0);

/// The fully defined int32 dims of a shape as a Python list of ints converted to a Const `name`.
Expected<Output> intListConst(GraphBuilder& b, const std::vector<std::int64_t>& values, std::string_view name);

} // namespace tstudio::lossutil
