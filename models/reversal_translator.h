// A small translation model: an LSTM encoder and an LSTM decoder with Luong attention
// (tf.contrib.seq2seq: AttentionWrapper, TrainingHelper, BasicDecoder, dynamic_decode, sequence_loss)
// that learns to "translate" a sequence of symbols into the same symbols reversed. The graph draws
// its own training sentences, so the example project needs no data; its attention is written as
// images, as TensorFlow's NMT tutorial writes them. examples/projects/seq2seq-reverse.tsproj
// adds the optimizer.
#pragma once

#include "core/expected.h"
#include "proto/meta_graph.pb.h"

#include <cstdint>
#include <optional>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::examples {

struct ReversalTranslatorOptions {
    std::int64_t vocabSize = 12; ///< symbols 1..vocab_size-1; 0 is the decoder's start symbol
    std::int64_t length = 8;     ///< symbols a sentence
    std::int64_t batchSize = 64; ///< sentences the graph draws a step
    std::int64_t embeddingSize = 16;
    std::int64_t units = 64;      ///< LSTM units of encoder and decoder, and attention units
    std::int64_t imageScale = 16; ///< attention images: each alignment a square of this many pixels
    std::optional<std::int64_t> seed = 1;
};

/// "source": int32 [?, length], a PlaceholderWithDefault whose default is batch_size sentences drawn
/// uniformly from the symbols 1..vocab_size-1 each step (RandomUniformInt; feed your own to test
/// the model); "target" = ReverseV2(source, [1]), what the decoder must emit; the decoder's inputs
/// are the start symbol 0 and then the target shifted right (teacher forcing). Encoder: embedding
/// "encoder/embedding" [vocab, embedding], dynamic_rnn of a BasicLSTMCell in scope "encoder".
/// Decoder: embedding "decoder/embedding", AttentionWrapper(BasicLSTMCell, LuongAttention over the
/// encoder's outputs, attention_layer_size units, alignment_history) run by BasicDecoder with a
/// TrainingHelper and an output layer Dense(vocab) through dynamic_decode (scope "decoder").
/// "loss": sequence_loss of the logits against the target (every position weight 1).
/// "evaluation/accuracy": the share of symbols whose argmax is the target's. "predictions": the
/// argmax, int32 [?, length] (teacher forced). "translation": the same variables reused to decode
/// greedily (GreedyEmbeddingHelper from the start symbol, no end symbol, length steps: inference),
/// int32 [?, length]; "evaluation/translation_accuracy" its share of right symbols. Summaries:
/// scalars "accuracy" and "translation_accuracy", and the image "attention_images" (the alignment
/// history of the first three sentences, decoder steps down and source positions across, each
/// alignment a square of image_scale pixels, white = 1). Returned as the MetaGraphDef
/// tf.train.export_meta_graph writes: its while-loop contexts (WHILE_CONTEXT) are what gradients
/// through the decoder's and encoder's loops need, as in TensorFlow.
Expected<tensorflow::MetaGraphDef> buildReversalTranslator(const OpRegistry& ops,
                                                           const ReversalTranslatorOptions& options = {});

} // namespace tstudio::examples
