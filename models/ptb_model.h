// The word-level language model of TensorFlow's PTB tutorial (ptb_word_lm.py, Zaremba et al. 2014)
// as a forward graph: embedding, stacked BasicLSTMCells unrolled by static_rnn, softmax over the
// vocabulary, with its state as placeholders so a project can carry it from step to step. The
// project (examples/projects/ptb-small.tsproj) adds the optimizer and the evaluation.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"

#include <cstdint>
#include <optional>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::examples {

/// The tutorial's configuration (defaults: SmallConfig).
struct PtbModelOptions {
    std::int64_t vocabSize = 10000;
    std::int64_t hiddenSize = 200; ///< LSTM units and embedding width
    std::int64_t numLayers = 2;
    std::int64_t numSteps = 20;
    double initScale = 0.1; ///< every variable ~ uniform(-init_scale, init_scale)
    double forgetBias = 0.0;
    std::optional<std::int64_t> seed = 1; ///< tf.set_random_seed
};

/// inputs, targets: int32 [?, num_steps] placeholders. In variable scope "Model" (initializer
/// random_uniform(-init_scale, init_scale)): "Model/embedding" [vocab, hidden] and
/// embedding_lookup; MultiRNNCell of num_layers BasicLSTMCell(hidden, forget_bias) run by
/// static_rnn over the num_steps inputs (unstack along axis 1) from the initial state; the outputs
/// concatenated to [batch * num_steps, hidden] and "Model/softmax_w" [hidden, vocab],
/// "Model/softmax_b" [vocab] give the logits. Loss: "per_word_loss" = mean of
/// sparse_softmax_cross_entropy_with_logits over every word of the batch; "cost" = per_word_loss *
/// num_steps, the tutorial's cost (sequence_loss averaged over the batch, summed over time) that
/// its optimizer minimises. State: for layer k the PlaceholderWithDefault "initial_state_c<k>" and
/// "initial_state_h<k>" (float [?, hidden], default the cell's zero_state for the batch) and the
/// Identity "final_state_c<k>", "final_state_h<k>" of the final state.
Expected<tensorflow::GraphDef> buildPtbModel(const OpRegistry& ops, const PtbModelOptions& options = {});

} // namespace tstudio::examples
