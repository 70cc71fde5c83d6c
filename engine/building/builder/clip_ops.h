// Gradient clipping as TensorFlow 1.x's clip_ops: clip_by_value, clip_by_norm, global_norm, clip_by_global_norm.
#pragma once

#include "builder/indexed_slices.h"
#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <variant>
#include <vector>

namespace tstudio::training {

/// A clipping bound: a Python number (converted to the clipped tensor's dtype) or a tensor.
using ClipValue = std::variant<double, Output>;

/// tf.clip_by_value(t, min, max): under "clip_by_value/": "Minimum" (with "Minimum/y" for a
/// number) and the Maximum named "clip_by_value" (with "clip_by_value/y"). NaN stays NaN (Eigen's
/// min/max keep the first operand's NaN). InvalidArgument "Shapes (2,) and (3,) are not
/// compatible" when a bound would broadcast the result to another shape.
Expected<Output> clipByValue(GraphBuilder& b, const Output& t, const ClipValue& clipValueMin,
                             const ClipValue& clipValueMax, std::string_view name = "clip_by_value");

/// tf.clip_by_norm(t, clip_norm, axes): t * clip_norm / max(l2norm(t, axes), clip_norm), with
/// TensorFlow 1.15's nodes under "clip_by_norm/": "mul" (t*t), "Const" (all axes when `axes` is
/// empty) + "Sum" (keepdims), "Greater" (> 0), "ones_like", "Select" (safe sum), "Sqrt",
/// "Select_1" (norm, 0 where the sum is 0), "mul_1" (t * clip_norm), "Maximum", "truediv" and the
/// Identity "clip_by_norm". A zero tensor stays zero; inf in t gives NaN as in TensorFlow.
Expected<Output> clipByNorm(GraphBuilder& b, const Output& t, const ClipValue& clipNorm,
                            const std::vector<std::int64_t>& axes = {}, std::string_view name = "clip_by_norm");

/// tf.global_norm(t_list): sqrt(sum of L2Loss(t) * 2) under "global_norm/": one "L2Loss[_N]" per
/// tensor (colocated with it), "stack", "Const" + "Sum", "Const_1" (2.0), "mul" and the Sqrt
/// "global_norm/global_norm". nullopt entries are skipped. InvalidArgument for an empty list.
Expected<Output> globalNorm(GraphBuilder& b, const std::vector<std::optional<Output>>& tensors,
                            std::string_view name = "global_norm");

/// tf.clip_by_global_norm(t_list, clip_norm, use_norm): returns the clipped list (nullopt kept)
/// and the global norm. scale = clip_norm * min(1 / norm, 1 / clip_norm) where the norm is finite,
/// NaN where it is not (inf or NaN), so such a norm makes every clipped tensor NaN, as in
/// TensorFlow 1.15. Nodes under "clip_by_global_norm/": "truediv/x" + "truediv", "Const",
/// "truediv_1", "Minimum", "mul/x" + "mul", "IsFinite", "Const_1" (NaN), "Select", and per tensor
/// i "mul_<i+1>" and the Identity "clip_by_global_norm/clip_by_global_norm/_<i>", colocated with
/// the tensor.
Expected<std::pair<std::vector<std::optional<Output>>, Output>>
clipByGlobalNorm(GraphBuilder& b, const std::vector<std::optional<Output>>& tensors, const ClipValue& clipNorm,
                 std::optional<Output> useNorm = {}, std::string_view name = "clip_by_global_norm");

/// clipByGlobalNorm for gradients that may be IndexedSlices, as TensorFlow 1.15 takes them: the
/// norm and the clipping use the slices' values (repeated indices count once per occurrence), and
/// a clipped IndexedSlices keeps its indices and dense_shape. Same nodes as clipByGlobalNorm.
Expected<std::pair<std::vector<std::optional<Gradient>>, Output>>
clipByGlobalNormWithSlices(GraphBuilder& b, const std::vector<std::optional<Gradient>>& tensors,
                           const ClipValue& clipNorm, std::optional<Output> useNorm = {},
                           std::string_view name = "clip_by_global_norm");

} // namespace tstudio::training
