// tf.nn.nce_loss and tf.nn.sampled_softmax_loss of TensorFlow 1.15 (nn_impl.py): a loss over the
// true classes and a few sampled negative classes instead of every class, for large vocabularies
// (word2vec, language models). Both build _compute_sampled_logits: the true and sampled rows of
// the output weights and biases looked up (embedding_lookup, sharded tables allowed), their
// logits, accidental hits removed on request, log Q subtracted, then sigmoid (NCE) or softmax
// cross entropy.
#pragma once

#include "builder/candidate_sampling.h"
#include "builder/graph_builder.h"
#include "builder/nn_functions.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tstudio::nn {

/// The arguments both losses take beyond the tensors.
struct SampledLossOptions {
    std::int64_t numTrue = 1;
    /// The sampler's three outputs; when absent, log_uniform_candidate_sampler(labels, num_true,
    /// num_sampled, unique=True, range_max=num_classes, seed) is built.
    std::optional<SampledValues> sampledValues;
    /// Whether sampled classes that are a row's true class get logit -FLT_MAX added (TensorFlow's
    /// defaults: false for nce_loss, true for sampled_softmax_loss; nullopt takes the default).
    std::optional<bool> removeAccidentalHits;
    PartitionStrategy partitionStrategy = PartitionStrategy::kMod;
    std::optional<std::int64_t> seed; ///< sampled_softmax_loss's seed (nce_loss has none)
};

/// The sampled logits and their target distribution ([batch, num_true + num_sampled] each, true
/// columns first), as _compute_sampled_logits returns them.
struct SampledLogits {
    Output logits;
    Output labels;
};

/// _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, ...) in the
/// scope `name` (default "compute_sampled_logits"): labels cast to int64 and flattened, the
/// sampler's outputs behind StopGradient, the true and sampled rows gathered from `weights` (one
/// tensor or the shards of a partitioned table, [num_classes, dim]) and `biases` [num_classes],
/// true logits as row-wise dot products plus biases, sampled logits inputs @ sampled_w^T plus
/// biases, then log(expected count) subtracted when `subtractLogQ`. Labels of the result: 1 /
/// num_true for the true columns, 0 for the sampled ones. Errors are the ops' (dtypes and shapes).
Expected<SampledLogits> computeSampledLogits(GraphBuilder& b, const std::vector<Output>& weights, const Output& biases,
                                             const Output& labels, const Output& inputs, std::int64_t numSampled,
                                             std::int64_t numClasses, const SampledLossOptions& options,
                                             bool subtractLogQ, bool removeAccidentalHits, std::string_view name = {});

/// tf.nn.nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
/// sampled_values=None, remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
/// the sampled logits in the scope `name`, sigmoid cross entropy "sampled_losses" against the
/// sampled labels, each row summed (_sum_rows: a MatMul by ones). Returns the per-example loss
/// [batch]. labels [batch, num_true] int, inputs [batch, dim].
Expected<Output> nceLoss(GraphBuilder& b, const std::vector<Output>& weights, const Output& biases,
                         const Output& labels, const Output& inputs, std::int64_t numSampled, std::int64_t numClasses,
                         const SampledLossOptions& options = {}, std::string_view name = "nce_loss");

/// tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
/// sampled_values=None, remove_accidental_hits=True, partition_strategy="mod",
/// name="sampled_softmax_loss", seed=None): the sampled logits in the scope `name`, the labels
/// behind StopGradient "labels_stop_gradient", then softmax_cross_entropy_with_logits_v2. Returns
/// the per-example loss [batch].
Expected<Output> sampledSoftmaxLoss(GraphBuilder& b, const std::vector<Output>& weights, const Output& biases,
                                    const Output& labels, const Output& inputs, std::int64_t numSampled,
                                    std::int64_t numClasses, const SampledLossOptions& options = {},
                                    std::string_view name = "sampled_softmax_loss");

} // namespace tstudio::nn
