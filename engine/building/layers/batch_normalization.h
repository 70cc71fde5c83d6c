// tf.layers.batch_normalization: batch norm with moving statistics, built as TensorFlow 1.15 builds it
// (keras BatchNormalization V1 through tf.layers: FusedBatchNormV3 where it can, else moments).
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable_scope.h"
#include "core/expected.h"
#include "losses/regularizers.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::layers {

/// The arguments of tf.layers.batch_normalization, with TensorFlow's defaults (renorm,
/// virtual_batch_size, adjustment and constraints are not supported).
struct BatchNormalizationOptions {
    std::vector<int> axis{-1}; ///< the normalised (feature) axes; negative counts from the end
    double momentum = 0.99;
    double epsilon = 1e-3;
    bool center = true; ///< beta
    bool scale = true;  ///< gamma
    Initializer betaInitializer = Initializer::zeros();
    Initializer gammaInitializer = Initializer::ones();
    Initializer movingMeanInitializer = Initializer::zeros();
    Initializer movingVarianceInitializer = Initializer::ones();
    Regularizer betaRegularizer;
    Regularizer gammaRegularizer;
    bool trainable = true;
    std::string name; ///< empty: "batch_normalization", "batch_normalization_1", ...
    Reuse reuse = Reuse::kFalse;
    /// nullopt or true: fused where TensorFlow 1.15's V1 layer fuses (4-D input, one axis that is 1
    /// or 3, float16/bfloat16/float32; NCHW for axis 1); false: never.
    std::optional<bool> fused;
};

/// tf.layers.batch_normalization(inputs, ..., training) with `training` a Python bool (for a
/// tensor see the overload below). Variables in the layer's scope:
/// "gamma" (ones, if scale), "beta" (zeros, if center), "moving_mean" (zeros) and "moving_variance"
/// (ones), the last two not trainable; shape [C] for one axis, else the input's rank with 1s.
///  Fused (see `fused`): "FusedBatchNormV3" (is_training = training; epsilon at least 1.001e-5;
///  in training the empty Consts "Const", "Const_1" stand for mean and variance) and the momentum
///  Const. Without scale / center a Const of ones / zeros is built instead of the variable.
///  Otherwise: "moments/..." (mean, StopGradient, SquaredDifference, variance, Squeeze) in training
///  or the moving statistics, Reshapes for a single axis that is not last, then
///  "batchnorm/{add,Rsqrt,mul,mul_1,mul_2,sub,add_1}".
/// In training the moving statistics are updated by "AssignMovingAvg" and "AssignMovingAvg_1"
/// (AssignSub of (moving - batch) * (1 - momentum), colocated with the variable), which are added
/// to UPDATE_OPS: run them with the train op (tf.control_dependencies) as TensorFlow requires. The
/// fused path's batch variance is Bessel-corrected (n / (n - 1)), the moments path's is not, as in
/// TensorFlow. Errors (InvalidArgument): "Input has undefined rank: <unknown>", "Invalid axis: 4",
/// "Duplicate axis: [1, 1]", "Input has undefined `axis` dimension. Input shape: [...]", and
/// getVariable's.
Expected<Output> batchNormalization(GraphBuilder& b, const Output& inputs,
                                    const BatchNormalizationOptions& options = {}, bool training = false);

/// The same with `training` a scalar bool tensor (the graph's learning phase, builder/learning_phase.h,
/// or any), as TensorFlow 1.15 builds it: a value known while building (a Const) acts as the bool;
/// otherwise smart_cond (builder/cond.h) picks at run time, and the updates run in both modes:
///  Fused: "cond/..." with the training FusedBatchNormV3 ("cond/FusedBatchNormV3", its empty Consts
///  "cond/Const", "cond/Const_1") and the inference one ("cond/FusedBatchNormV3_1", reading the moving
///  statistics), the inputs entering through "cond/FusedBatchNormV3/Switch", ...; y, mean and
///  variance from "cond/Merge", "cond/Merge_1", "cond/Merge_2"; the momentum from "cond_1/Merge"
///  (`momentum` when training, 1.0 otherwise, so "AssignMovingAvg" and "AssignMovingAvg_1", in
///  UPDATE_OPS, leave the moving statistics unchanged in inference).
///  Otherwise: "moments/..." always, the statistics used from "cond/Merge" (mean) and "cond_1/Merge"
///  (variance), the updates "cond_2/AssignMovingAvg" and "cond_3/AssignMovingAvg" in the true
///  branches of conds whose false branches return the moving value; the Merges "cond_2/Merge" and
///  "cond_3/Merge" are the UPDATE_OPS entries.
/// Errors: as above, and InvalidArgument when `training` is not a bool tensor.
Expected<Output> batchNormalization(GraphBuilder& b, const Output& inputs, const BatchNormalizationOptions& options,
                                    const Output& training);

} // namespace tstudio::layers
