// tf.losses of TensorFlow 1.15 (losses_impl.py, losses/util.py): weighted losses with their
// reductions, the LOSSES collection, get_total_loss and get_regularization_loss.
#pragma once

#include "builder/collections.h"
#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio::losses {

/// tf.losses.Reduction. kSumByNonzeroWeights (TensorFlow's default, "weighted_sum_by_nonzero_weights",
/// also called SUM_OVER_NONZERO_WEIGHTS) divides the weighted sum by the number of non-zero weights.
enum class Reduction {
    kNone,                ///< "none": the weighted losses, unreduced
    kSum,                 ///< "weighted_sum"
    kSumOverBatchSize,    ///< "weighted_sum_over_batch_size": divided by the number of elements
    kMean,                ///< "weighted_mean": divided by the sum of the (broadcast) weights
    kSumByNonzeroWeights, ///< "weighted_sum_by_nonzero_weights"
};

/// The `weights` argument: a Python number (default 1.0) or a tensor whose rank is 0 or the
/// losses' rank, broadcastable to the losses (each dimension 1 or equal).
using Weights = std::variant<double, Output>;

/// The arguments every tf.losses function shares. `scope` empty: the function's default scope.
/// `lossCollection` empty: the loss is added to no collection (Python's loss_collection=None).
struct LossOptions {
    Weights weights = 1.0;
    std::string scope;
    std::string lossCollection = std::string(graph_keys::kLosses);
    Reduction reduction = Reduction::kSumByNonzeroWeights;
};

/// tf.losses.compute_weighted_loss(losses, weights, scope, loss_collection, reduction): in the
/// scope `scope` (default "weighted_loss"; a scope returned by nameScope(), with its slash, is
/// re-entered): assert_broadcastable (static checks, see python_helpers.h) as a control dependency
/// of the rest; Mul by the weights (a Python number becomes "Cast/x"); then per reduction Sum,
/// "num_present" or "num_elements" or the weights' sum, and DivNoNan "value"; cast back to the
/// losses' dtype; added to the collection. Errors: assert_broadcastable's.
Expected<Output> computeWeightedLoss(GraphBuilder& b, const Output& losses, const LossOptions& options = {});

/// tf.losses.mean_squared_error(labels, predictions): SquaredDifference(predictions, labels),
/// scope "mean_squared_error". InvalidArgument "Shapes (2, 3) and (2, 4) are incompatible".
Expected<Output> meanSquaredError(GraphBuilder& b, const Output& labels, const Output& predictions,
                                  const LossOptions& options = {});
/// tf.losses.absolute_difference: Abs(Sub(predictions, labels)), scope "absolute_difference".
Expected<Output> absoluteDifference(GraphBuilder& b, const Output& labels, const Output& predictions,
                                    const LossOptions& options = {});
/// tf.losses.huber_loss(..., delta=1.0): 0.5 * q^2 + delta * (|e| - q), q = min(|e|, delta),
/// scope "huber_loss".
Expected<Output> huberLoss(GraphBuilder& b, const Output& labels, const Output& predictions, double delta = 1.0,
                           const LossOptions& options = {});
/// tf.losses.hinge_loss(labels in {0, 1}, logits): relu(1 - (2 * labels - 1) * logits), scope "hinge_loss".
Expected<Output> hingeLoss(GraphBuilder& b, const Output& labels, const Output& logits,
                           const LossOptions& options = {});
/// tf.losses.log_loss(..., epsilon=1e-7): -y log(p + eps) - (1 - y) log(1 - p + eps), scope "log_loss".
Expected<Output> logLoss(GraphBuilder& b, const Output& labels, const Output& predictions, double epsilon = 1e-7,
                         const LossOptions& options = {});
/// tf.losses.sigmoid_cross_entropy(multi_class_labels, logits, label_smoothing=0): labels cast to
/// the logits' dtype, smoothed to y (1 - s) + s / 2 when s > 0, then
/// nn::sigmoidCrossEntropyWithLogits named "xentropy"; scope "sigmoid_cross_entropy_loss".
Expected<Output> sigmoidCrossEntropy(GraphBuilder& b, const Output& multiClassLabels, const Output& logits,
                                     double labelSmoothing = 0.0, const LossOptions& options = {});
/// tf.losses.softmax_cross_entropy(onehot_labels, logits, label_smoothing=0): labels cast to the
/// logits' dtype, smoothed to y (1 - s) + s / classes when s > 0, StopGradient "labels_stop_gradient",
/// nn::softmaxCrossEntropyWithLogitsV2 named "xentropy"; scope "softmax_cross_entropy_loss".
Expected<Output> softmaxCrossEntropy(GraphBuilder& b, const Output& onehotLabels, const Output& logits,
                                     double labelSmoothing = 0.0, const LossOptions& options = {});
/// tf.losses.sparse_softmax_cross_entropy(labels, logits): scope "sparse_softmax_cross_entropy_loss";
/// a trailing dimension of 1 on the labels is squeezed (remove_squeezable_dimensions with
/// expected_rank_diff 1), Python-number weights become a "Const" there, and
/// nn::sparseSoftmaxCrossEntropyWithLogits is named "xentropy".
Expected<Output> sparseSoftmaxCrossEntropy(GraphBuilder& b, const Output& labels, const Output& logits,
                                           const LossOptions& options = {});

/// tf.losses.get_losses(scope, loss_collection): the tensors of the collection.
std::vector<Output> getLosses(const GraphBuilder& b, std::string_view scope = {},
                              std::string_view lossCollection = graph_keys::kLosses);
/// tf.losses.get_regularization_losses(scope).
std::vector<Output> getRegularizationLosses(const GraphBuilder& b, std::string_view scope = {});
/// tf.losses.get_regularization_loss(scope, name="total_regularization_loss"): AddN of the
/// regularization losses (an Identity named `name` for a single one), or a float32 Const 0.0
/// "Const" when there are none.
Expected<Output> getRegularizationLoss(GraphBuilder& b, std::string_view scope = {},
                                       std::string_view name = "total_regularization_loss");
/// tf.losses.get_total_loss(add_regularization_losses=True, name="total_loss", scope): AddN of
/// the losses and regularization losses (Identity named `name` for one). InvalidArgument
/// "inputs must be a list of at least one Tensor/IndexedSlices with the same dtype and shape"
/// when there are none.
Expected<Output> getTotalLoss(GraphBuilder& b, bool addRegularizationLosses = true,
                              std::string_view name = "total_loss", std::string_view scope = {});

} // namespace tstudio::losses
