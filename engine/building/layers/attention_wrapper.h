// AttentionWrapper (tf.contrib.seq2seq.AttentionWrapper of TF 1.15): an RNN cell that feeds its cell
// the inputs with the previous attention, queries an attention mechanism with the cell's output and
// mixes the context in through an attention layer.
#pragma once

#include "builder/rnn_cell.h"
#include "builder/tensor_array.h"
#include "layers/attention_mechanism.h"
#include "layers/dense.h"

#include <memory>
#include <optional>

namespace tstudio::seq2seq {

/// The AttentionWrapper's arguments beyond the cell and the mechanism.
struct AttentionWrapperOptions {
    /// attention_layer_size: the attention is attention_layer(concat(cell output, context)) (a Dense
    /// "attention_layer" without bias); nullopt: the attention is the context itself.
    std::optional<std::int64_t> attentionLayerSize;
    /// Keep every step's alignments in a TensorArray of the state (alignmentHistory()).
    bool alignmentHistory = false;
    /// The step's output is the attention (else the cell's output).
    bool outputAttention = true;
    std::string name = "attention_wrapper";
};

/// AttentionWrapper(cell, attention_mechanism, attention_layer_size, alignment_history, output_attention).
/// Its state is AttentionWrapperState (cell_state, attention [batch, attention size], time (int32
/// scalar), alignments [batch, max_time], alignment_history (the TensorArray's flow, or an empty
/// tuple), attention_state (the alignments)), flattened in that order. A step, in the layer's
/// variable scope ("<scope>/attention_wrapper": the cell's variables ".../attention_wrapper/
/// basic_lstm_cell/kernel", the mechanism's ".../attention_wrapper/bahdanau_attention/...", the
/// layer's ".../attention_wrapper/attention_layer/kernel"): the cell on concat(inputs, previous
/// attention) ("checked_cell_output"), the mechanism's alignments for the cell's output, the
/// context = alignments . values, the attention, the alignments written to the history at `time`.
/// zero_state ("AttentionWrapperZeroState"): the cell's zero state, zeros elsewhere, an empty
/// dynamic-size history.
class AttentionWrapper : public nn::LayerRnnCell {
public:
    AttentionWrapper(std::shared_ptr<nn::RnnCell> cell, std::shared_ptr<AttentionMechanism> mechanism,
                     AttentionWrapperOptions options = {});

    std::string className() const override { return "AttentionWrapper"; }
    nn::RnnStateSize stateSize() const override;
    std::int64_t outputSize() const override;
    std::vector<Variable> variables() const override;

    /// The state's parts.
    static const nn::RnnState& cellState(const nn::RnnState& state) { return state.items().at(0); }
    static const Output& attention(const nn::RnnState& state) { return state.items().at(1).value(); }
    static const Output& time(const nn::RnnState& state) { return state.items().at(2).value(); }
    static const Output& alignments(const nn::RnnState& state) { return state.items().at(3).value(); }
    /// The stacked alignment history [time, batch, max_time] of a state this wrapper made (after
    /// dynamic_decode: its final state). FailedPrecondition without alignmentHistory or before a
    /// zero state.
    Expected<Output> alignmentHistory(GraphBuilder& b, const nn::RnnState& state) const;

protected:
    Status build(GraphBuilder& b, std::int64_t inputDepth, DataType dtype) override;
    Expected<nn::RnnStep> step(GraphBuilder& b, const Output& inputs, const nn::RnnState& state) override;
    Expected<nn::RnnState> zeroStateInScope(GraphBuilder& b, const nn::RnnBatchSize& batchSize,
                                            DataType dtype) override;

private:
    std::int64_t attentionSize() const;

    std::shared_ptr<nn::RnnCell> m_cell;
    std::shared_ptr<AttentionMechanism> m_mechanism;
    AttentionWrapperOptions m_options;
    std::optional<layers::DenseOptions> m_attentionLayer;
    std::optional<TensorArray> m_history; ///< made by zeroStateInScope
};

} // namespace tstudio::seq2seq
