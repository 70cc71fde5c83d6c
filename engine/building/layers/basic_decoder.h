// BasicDecoder (tf.contrib.seq2seq.BasicDecoder of TF 1.15): an RNN cell, a helper that samples and
// feeds it, and an optional output layer (a Dense projection to the vocabulary).
#pragma once

#include "builder/seq2seq_decoder.h"
#include "builder/seq2seq_helpers.h"
#include "layers/dense.h"

#include <memory>
#include <optional>

namespace tstudio::seq2seq {

/// BasicDecoder(cell, helper, initial_state, output_layer). Outputs: rnn_output ([batch, units of
/// the output layer, else the cell's output size], the cell's dtype) and sample_id (int32 [batch]).
/// step() under name scope "BasicDecoderStep": the cell on (inputs, state), the output layer
/// (tf.layers.dense with outputLayer's options: its variables "<variable scope>/dense/kernel", made
/// once), the helper's sample and next inputs. The cell and the helper are shared with the caller.
class BasicDecoder : public Decoder {
public:
    /// InvalidArgument when the initial state's structure differs from the cell's state size.
    static Expected<std::unique_ptr<BasicDecoder>> create(std::shared_ptr<nn::RnnCell> cell,
                                                          std::shared_ptr<Helper> helper, nn::RnnState initialState,
                                                          std::optional<layers::DenseOptions> outputLayer = {});

    const Output& batchSize() const override { return m_helper->batchSize(); }
    std::vector<TensorShape> outputShapes() const override;
    std::vector<DataType> outputDtypes() const override;
    Expected<DecoderStart> initialize(GraphBuilder& b) override;
    Expected<DecoderStep> step(GraphBuilder& b, const Output& time, const Output& inputs,
                               const nn::RnnState& state) override;

private:
    BasicDecoder(std::shared_ptr<nn::RnnCell> cell, std::shared_ptr<Helper> helper, nn::RnnState initialState,
                 std::optional<layers::DenseOptions> outputLayer);

    std::shared_ptr<nn::RnnCell> m_cell;
    std::shared_ptr<Helper> m_helper;
    nn::RnnState m_initialState;
    /// After the first step the layer's options reuse its variables (a Keras layer object's).
    std::optional<layers::DenseOptions> m_outputLayer;
};

} // namespace tstudio::seq2seq
