// The skip-gram word2vec model of TensorFlow's word2vec tutorial (word2vec_basic.py): an embedding
// of every word trained with noise-contrastive estimation to predict a word's neighbours. The
// project (examples/projects/word2vec.tsproj) adds the optimizer and its skip_gram data.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"

#include <cstdint>
#include <optional>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::examples {

/// The tutorial's settings.
struct Word2VecOptions {
    std::int64_t vocabSize = 10000;
    std::int64_t embeddingSize = 128;
    std::int64_t numSampled = 64; ///< negative classes nce_loss samples per batch
    std::optional<std::int64_t> seed = 1;
};

/// "train_inputs" int32 [?] and "train_labels" int64 [?, 1] placeholders; "embeddings" [vocab,
/// embedding] ~ uniform(-1, 1) and its embedding_lookup; "nce_weights" [vocab, embedding] ~
/// truncated_normal(stddev 1 / sqrt(embedding)) and "nce_biases" [vocab] zeros; "loss" = mean of
/// tf.nn.nce_loss(nce_weights, nce_biases, train_labels, embed, num_sampled, vocab) (the
/// log-uniform sampler, unique). "normalized_embeddings" = embeddings / their rows' L2 norms, what
/// the tutorial's nearest neighbours are measured on.
Expected<tensorflow::GraphDef> buildWord2Vec(const OpRegistry& ops, const Word2VecOptions& options = {});

} // namespace tstudio::examples
