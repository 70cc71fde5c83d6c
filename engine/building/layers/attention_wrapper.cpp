// AttentionWrapper: a cell step with attention over a memory.
#include "layers/attention_wrapper.h"

#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/rnn_cell_ops.h"
#include "core/try.h"
#include "layers/dense.h"

namespace tstudio::seq2seq {

using nn::RnnState;
using nn::RnnStateSize;

AttentionWrapper::AttentionWrapper(std::shared_ptr<nn::RnnCell> cell, std::shared_ptr<AttentionMechanism> mechanism,
                                   AttentionWrapperOptions options)
    : LayerRnnCell(options.name.empty() ? "attention_wrapper" : options.name), m_cell(std::move(cell)),
      m_mechanism(std::move(mechanism)), m_options(std::move(options))
{
    if (m_options.attentionLayerSize) {
        layers::DenseOptions layer;
        layer.units = *m_options.attentionLayerSize;
        layer.useBias = false;
        layer.name = "attention_layer";
        m_attentionLayer = layer;
    }
}

std::int64_t AttentionWrapper::attentionSize() const
{
    return m_options.attentionLayerSize ? *m_options.attentionLayerSize : m_mechanism->valuesDepth();
}

RnnStateSize AttentionWrapper::stateSize() const
{
    const std::int64_t alignments = m_mechanism->alignmentsSize();
    std::vector<RnnStateSize> items{m_cell->stateSize(), RnnStateSize::leaf(attentionSize()), RnnStateSize::leaf(0),
                                    RnnStateSize::leaf(alignments)};
    items.push_back(m_options.alignmentHistory ? RnnStateSize::leaf(0) : RnnStateSize::tuple({}));
    items.push_back(RnnStateSize::leaf(alignments));
    return RnnStateSize::tuple(std::move(items));
}

std::int64_t AttentionWrapper::outputSize() const
{
    return m_options.outputAttention ? attentionSize() : m_cell->outputSize();
}

std::vector<Variable> AttentionWrapper::variables() const
{
    std::vector<Variable> all = m_cell->variables();
    const std::vector<Variable> own = LayerRnnCell::variables();
    all.insert(all.end(), own.begin(), own.end());
    return all;
}

Status AttentionWrapper::build(GraphBuilder&, std::int64_t, DataType)
{
    // The cell, the mechanism's query layer and the attention layer make their variables on the
    // first step, in this layer's variable scope, as Keras layers do.
    if (!m_cell || !m_mechanism)
        return invalidArgumentError("AttentionWrapper: the cell and the attention mechanism are required");
    return {};
}

Expected<RnnState> AttentionWrapper::zeroStateInScope(GraphBuilder& b, const nn::RnnBatchSize& batchSize,
                                                      DataType dtype)
{
    if (!m_cell || !m_mechanism)
        return unexpected(invalidArgumentError("AttentionWrapper: the cell and the attention mechanism are required"));
    TSTUDIO_TRY(cellState, m_cell->zeroState(b, batchSize, dtype));
    TSTUDIO_TRY(attention, nn::rnnZeros(b, batchSize, attentionSize(), dtype));
    TSTUDIO_TRY(time, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "zeros"));
    TSTUDIO_TRY(alignments, nn::rnnZeros(b, batchSize, m_mechanism->alignmentsSize(), dtype));
    std::vector<RnnState> items{cellState, RnnState::leaf(attention), RnnState::leaf(time), RnnState::leaf(alignments)};
    if (m_options.alignmentHistory) {
        TensorArrayOptions options;
        options.dynamicSize = true;
        options.elementShape = alignments.shape();
        TSTUDIO_TRY(history, TensorArray::create(b, dtype, 0, options));
        m_history = history;
        items.push_back(RnnState::leaf(history.flow()));
    } else {
        items.push_back(RnnState::tuple({}));
    }
    TSTUDIO_TRY(attentionState, nn::rnnZeros(b, batchSize, m_mechanism->alignmentsSize(), dtype));
    items.push_back(RnnState::leaf(attentionState));
    return RnnState::tuple(std::move(items));
}

Expected<nn::RnnStep> AttentionWrapper::step(GraphBuilder& b, const Output& inputs, const RnnState& state)
{
    if (!state.sameStructure(stateSize()))
        return unexpected(invalidArgumentError("AttentionWrapper: the state is not an AttentionWrapperState of this "
                                               "wrapper (make it with zeroState)"));
    // cell_input_fn: concat([inputs, attention], -1).
    TSTUDIO_TRY(cellInputs, nn::rnn_detail::concat(b, {inputs, attention(state)}, -1));
    TSTUDIO_TRY(cellStep, m_cell->call(b, cellInputs, cellState(state)));
    TSTUDIO_TRY(cellOutput, py::genOp(b, "Identity", {cellStep.output}, {}, "checked_cell_output"));
    TSTUDIO_TRY(shapedOutput, nn::rnn_detail::withShape(b, cellOutput, cellStep.output.shape()));
    const Output& previousAttentionState = state.items().at(5).value();
    TSTUDIO_TRY(newAlignments, m_mechanism->call(b, shapedOutput, previousAttentionState));
    // _compute_attention: context = alignments . values; attention = attention_layer([output, context]).
    TSTUDIO_TRY(expanded, py::expandDims(b, newAlignments, 1));
    TSTUDIO_TRY(product, py::genOp(b, "BatchMatMulV2", {expanded, m_mechanism->values()}, {}, "MatMul"));
    TSTUDIO_TRY(context, py::genOp(b, "Squeeze", {product}, {{"squeeze_dims", attr::ints({1})}}));
    const std::int64_t batch = shapedOutput.shape().rank() == 2 ? shapedOutput.shape().dim(0) : -1;
    TSTUDIO_TRY(shapedContext, nn::rnn_detail::withShape(b, context, TensorShape({batch, m_mechanism->valuesDepth()})));
    Output attentionValue = shapedContext;
    if (m_attentionLayer) {
        TSTUDIO_TRY(both, nn::rnn_detail::concat(b, {shapedOutput, shapedContext}, 1));
        TSTUDIO_TRY(projected, layers::dense(b, both, *m_attentionLayer));
        m_attentionLayer->reuse = Reuse::kTrue;
        attentionValue = projected;
    }
    std::vector<RnnState> items{cellStep.state, RnnState::leaf(attentionValue)};
    TSTUDIO_TRY(nextTime, py::binary(b, py::Operator::kAdd, time(state), 1.0));
    items.push_back(RnnState::leaf(nextTime));
    items.push_back(RnnState::leaf(newAlignments));
    if (m_options.alignmentHistory) {
        if (!m_history)
            return unexpected(failedPreconditionError("AttentionWrapper: alignment_history needs a state made by "
                                                      "zeroState"));
        TSTUDIO_TRY(written, m_history->withFlow(state.items().at(4).value()).write(b, time(state), newAlignments));
        items.push_back(RnnState::leaf(written.flow()));
    } else {
        items.push_back(RnnState::tuple({}));
    }
    items.push_back(RnnState::leaf(newAlignments));
    return nn::RnnStep{m_options.outputAttention ? attentionValue : shapedOutput, RnnState::tuple(std::move(items))};
}

Expected<Output> AttentionWrapper::alignmentHistory(GraphBuilder& b, const RnnState& state) const
{
    if (!m_options.alignmentHistory || !m_history)
        return unexpected(failedPreconditionError("AttentionWrapper: no alignment history (alignment_history is off or "
                                                  "no zero state was made)"));
    return m_history->withFlow(state.items().at(4).value()).stack(b);
}

} // namespace tstudio::seq2seq
