// BasicDecoder: one decoding step of an RNN cell with a helper and an optional output layer.
#include "layers/basic_decoder.h"

#include "core/try.h"

namespace tstudio::seq2seq {

BasicDecoder::BasicDecoder(std::shared_ptr<nn::RnnCell> cell, std::shared_ptr<Helper> helper, nn::RnnState initialState,
                           std::optional<layers::DenseOptions> outputLayer)
    : m_cell(std::move(cell)), m_helper(std::move(helper)), m_initialState(std::move(initialState)),
      m_outputLayer(std::move(outputLayer))
{
}

Expected<std::unique_ptr<BasicDecoder>> BasicDecoder::create(std::shared_ptr<nn::RnnCell> cell,
                                                             std::shared_ptr<Helper> helper, nn::RnnState initialState,
                                                             std::optional<layers::DenseOptions> outputLayer)
{
    if (!cell || !helper)
        return unexpected(invalidArgumentError("BasicDecoder: the cell and the helper are required"));
    if (!initialState.sameStructure(cell->stateSize()))
        return unexpected(invalidArgumentError("BasicDecoder: the initial state's structure differs from " +
                                               cell->className() + "'s state size"));
    if (outputLayer && outputLayer->name.empty())
        outputLayer->name = "dense";
    return std::unique_ptr<BasicDecoder>(
        new BasicDecoder(std::move(cell), std::move(helper), std::move(initialState), std::move(outputLayer)));
}

std::vector<TensorShape> BasicDecoder::outputShapes() const
{
    const std::int64_t size = m_outputLayer ? m_outputLayer->units : m_cell->outputSize();
    return {TensorShape({size}), TensorShape::scalar()};
}

std::vector<DataType> BasicDecoder::outputDtypes() const
{
    return {m_initialState.flatten().front().baseDtype(), tensorflow::DT_INT32};
}

Expected<DecoderStart> BasicDecoder::initialize(GraphBuilder& b)
{
    TSTUDIO_TRY(start, m_helper->initialize(b));
    return DecoderStart{start.finished, start.inputs, m_initialState};
}

Expected<DecoderStep> BasicDecoder::step(GraphBuilder& b, const Output& time, const Output& inputs,
                                         const nn::RnnState& state)
{
    TSTUDIO_TRY(scope, b.nameScope("BasicDecoderStep"));
    TSTUDIO_TRY(cellStep, m_cell->call(b, inputs, state));
    Output outputs = cellStep.output;
    if (m_outputLayer) {
        TSTUDIO_TRY(projected, layers::dense(b, outputs, *m_outputLayer));
        outputs = projected;
        m_outputLayer->reuse = Reuse::kTrue;
    }
    TSTUDIO_TRY(sampleIds, m_helper->sample(b, time, outputs));
    TSTUDIO_TRY(next, m_helper->nextInputs(b, time, outputs, sampleIds));
    return DecoderStep{{outputs, sampleIds}, cellStep.state, next.inputs, next.finished};
}

} // namespace tstudio::seq2seq
