// optimizeLoss: tf.contrib.layers.optimize_loss of TensorFlow 1.15, the one-call training op of
// many TensorFlow 1.x models: the learning rate (a variable, a tensor, or decayed), the optimizer by
// name or object, gradient noise, multipliers and clipping, the summaries, and the train tensor.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"
#include "training/optimizer.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tstudio::training {

struct OptimizeLossOptions {
    /// global_step (default: tf.train.get_global_step(); none is allowed without a decay function).
    std::optional<Variable> globalStep;
    /// learning_rate: none, a float (the non-trainable variable "<scope>/learning_rate" with that
    /// initial value) or a scalar tensor.
    std::variant<std::monostate, double, Output> learningRate;
    /// optimizer by name: "Adagrad", "Adam", "Momentum" (momentum 0.9), "RMSProp" or "SGD", made
    /// with the learning rate, as OPTIMIZER_CLS_NAMES ("Ftrl" is refused: no FtrlOptimizer here).
    std::string optimizer;
    /// Or the optimizer itself, made from the learning rate (nullopt when there is none); takes
    /// precedence over `optimizer`.
    std::function<Expected<std::unique_ptr<Optimizer>>(const std::optional<Output>& learningRate)> makeOptimizer;
    /// gradient_noise_scale: each gradient plus truncated_normal(its shape) * scale.
    std::optional<double> gradientNoiseScale;
    /// gradient_multipliers, by variable name ("dense/kernel" or "dense/kernel:0").
    std::map<std::string, double> gradientMultipliers;
    /// clip_gradients as a float: tf.clip_by_global_norm of the gradients.
    std::optional<double> clipGradients;
    /// learning_rate_decay_fn(lr, global_step).
    std::function<Expected<Output>(GraphBuilder&, const Output& learningRate, const Output& globalStep)>
        learningRateDecay;
    /// update_ops (default: the UPDATE_OPS collection): the loss is read after them.
    std::optional<std::vector<Operation>> updateOps;
    /// variables (default: the trainable variables).
    std::optional<std::vector<Variable>> variables;
    /// The variable scope's name (default "OptimizeLoss", made unique).
    std::string name;
    /// summaries among "learning_rate", "loss", "gradients", "gradient_norm" and
    /// "global_gradient_norm" (default: loss, learning_rate, global_gradient_norm).
    std::optional<std::vector<std::string>> summaries;
    bool colocateGradientsWithOps = false;
    bool incrementGlobalStep = true;
};

/// tf.contrib.layers.optimize_loss(loss, ...). In the variable scope "OptimizeLoss": the loss after
/// the update ops ("control_dependency"); the learning rate; compute_gradients; noise ("mul", "add")
/// and multipliers ("mul"); the summary "global_norm/gradient_norm" (global_gradient_norm or
/// gradient_norm); clip_by_global_norm; the summary "loss"; per variable the histogram
/// "gradients/<var>_0" and the scalar "gradient_norm/<var>_0" where asked;
/// "global_norm/clipped_gradient_norm" after clipping; apply_gradients named "train" (with the
/// global step unless incrementGlobalStep is false); and returns the train tensor, the loss after
/// the update (the Identity "OptimizeLoss/control_dependency[_1]"). The learning_rate summary is
/// written only with a decay function, as TensorFlow 1.15 does. Errors, InvalidArgument in
/// TensorFlow's words: "Expected scalar shape for loss:0, saw shape: [2]."; "Invalid learning_rate
/// -1."; "Learning rate should be 0d Tensor or float. Got ..."; "Summaries should be one of
/// [learning_rate, loss, gradients, gradient_norm, global_gradient_norm], you provided x.";
/// "global_step is required for learning_rate_decay_fn."; "Learning rate is None, but should be
/// specified if optimizer is string (Adam)."; "Optimizer name should be one of [Adagrad, Adam, Ftrl,
/// Momentum, RMSProp, SGD], you provided x."; "Empty list of (gradient, var) pairs encountered. ...";
/// and the optimizer's.
Expected<Output> optimizeLoss(GraphBuilder& b, const Output& loss, const OptimizeLossOptions& options);

} // namespace tstudio::training
