// tf.gradients as TensorFlow 1.15 returns it: IndexedSlices where a Gather's gradient reaches a
// variable, tensors elsewhere (gradients.h's addSymbolicGradients is this made dense).
#pragma once

#include "autodiff/gradients.h"
#include "builder/indexed_slices.h"
#include "core/expected.h"

#include <optional>
#include <vector>

namespace tstudio {

/// tf.gradients(ys, xs, grad_ys) with TensorFlow's gradient forms: one entry per x, nullopt when x
/// is not connected, IndexedSlices where they reach x (the gradient of a Gather of a variable's
/// read, summed over several lookups by aggregateIndexedSlicesGradients), a tensor otherwise.
/// Everything else (names, errors, options) as addSymbolicGradients (gradients.h), which is this
/// with every IndexedSlices converted by indexedSlicesToTensor. Only the Identity, Snapshot and
/// ReadVariableOp gradients receive IndexedSlices (they pass them through); every other op's
/// gradient function receives the dense conversion.
Expected<std::vector<std::optional<Gradient>>>
addSymbolicGradientsSparse(GraphBuilder& b, const std::vector<Output>& ys, const std::vector<Output>& xs,
                           const std::vector<std::optional<Output>>& gradYs, const GradientsOptions& options);

} // namespace tstudio
