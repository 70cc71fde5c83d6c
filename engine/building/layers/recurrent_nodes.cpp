// The Embedding and RNN nodes: their catalogue entries and their expansion through the RNN building API.
#include "layers/recurrent_nodes.h"

#include "builder/attr_values.h"
#include "builder/initializers.h"
#include "builder/lstm_cell.h"
#include "builder/nn_functions.h"
#include "builder/rnn.h"
#include "builder/rnn_cell.h"
#include "builder/rnn_cell_wrappers.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "framework/data_type.h"

#include <memory>

namespace tstudio::layers {
namespace {

LayerParam param(std::string name, tensorflow::AttrValue value, std::string doc, std::vector<std::string> choices = {})
{
    return LayerParam{std::move(name), std::move(value), std::move(doc), std::move(choices)};
}

std::string describe(const Output& t)
{
    return dataTypeName(t.baseDtype()) + " " + t.shape().toString();
}

using ParamMap = std::map<std::string, tensorflow::AttrValue>;

Expected<LayerExpansion> expandEmbedding(GraphBuilder& b, const LayerType& type, std::string_view name,
                                         const ParamMap& params, const Output& ids)
{
    const DataType dtype = ids.baseDtype();
    if (dtype != tensorflow::DT_INT32 && dtype != tensorflow::DT_INT64)
        return unexpected(invalidArgumentError("port 'ids' takes int32 or int64 ids; got " + describe(ids)));
    const std::int64_t vocab = paramOrDefault(type, params, "vocab_size").i();
    const std::int64_t dim = paramOrDefault(type, params, "dim").i();
    const double scale = paramOrDefault(type, params, "init_scale").f();
    TSTUDIO_TRY(scope, variableScope(b, name.empty() ? std::string_view("embedding") : name));
    TSTUDIO_TRY(table, getVariable(b, "embeddings", TensorShape({vocab, dim}), tensorflow::DT_FLOAT,
                                   Initializer::randomUniform(-scale, scale)));
    TSTUDIO_TRY(looked, nn::embeddingLookup(b, table.value(), ids));
    return LayerExpansion{{looked}, {}};
}

Expected<std::shared_ptr<nn::RnnCell>> makeCell(const std::string& kind, std::int64_t units, double forgetBias)
{
    if (kind == "basic_lstm")
        return std::shared_ptr<nn::RnnCell>(std::make_shared<nn::BasicLSTMCell>(units, forgetBias));
    if (kind == "lstm") {
        nn::LSTMCell::Options options;
        options.forgetBias = forgetBias;
        return std::shared_ptr<nn::RnnCell>(std::make_shared<nn::LSTMCell>(units, options));
    }
    if (kind == "gru")
        return std::shared_ptr<nn::RnnCell>(std::make_shared<nn::GRUCell>(units));
    if (kind == "basic_rnn")
        return std::shared_ptr<nn::RnnCell>(std::make_shared<nn::BasicRNNCell>(units));
    return unexpected(
        invalidArgumentError("param 'cell' must be one of basic_lstm, lstm, gru, basic_rnn; got '" + kind + "'"));
}

Expected<LayerExpansion> expandRnn(GraphBuilder& b, const LayerType& type, std::string_view name,
                                   const ParamMap& params, const Output& inputs)
{
    if (!isFloating(inputs.baseDtype()) || inputs.shape().rank() != 3 || inputs.shape().dim(2) < 0)
        return unexpected(invalidArgumentError(
            "port 'inputs' takes a floating [batch, time, depth] tensor with a known depth; got " + describe(inputs)));
    const std::string kind = paramOrDefault(type, params, "cell").s();
    const std::int64_t units = paramOrDefault(type, params, "units").i();
    const std::int64_t layers = paramOrDefault(type, params, "layers").i();
    const double forgetBias = paramOrDefault(type, params, "forget_bias").f();
    std::shared_ptr<nn::RnnCell> cell;
    if (layers == 1) {
        TSTUDIO_TRY(one, makeCell(kind, units, forgetBias));
        cell = one;
    } else {
        std::vector<std::shared_ptr<nn::RnnCell>> cells;
        for (std::int64_t k = 0; k < layers; ++k) {
            TSTUDIO_TRY(made, makeCell(kind, units, forgetBias));
            cells.push_back(made);
        }
        TSTUDIO_TRY(stacked, nn::MultiRNNCell::create(std::move(cells)));
        cell = stacked;
    }
    nn::DynamicRnnOptions options;
    options.dtype = inputs.baseDtype();
    options.scope = name.empty() ? std::string("rnn") : std::string(name);
    TSTUDIO_TRY(run, nn::dynamicRnn(b, *cell, inputs, options));
    if (paramOrDefault(type, params, "output").s() == "last") {
        // The last leaf of the state is the last layer's h (an LSTMStateTuple flattens to c, h).
        const std::vector<Output> leaves = run.state.flatten();
        return LayerExpansion{{leaves.back()}, {}};
    }
    return LayerExpansion{{run.outputs}, {}};
}

} // namespace

std::vector<LayerType> recurrentLayerTypes()
{
    LayerType embedding;
    embedding.type = "Embedding";
    embedding.category = "Layers";
    embedding.doc = "tf.nn.embedding_lookup(embeddings, ids): one learned row of a [vocab_size, dim] table per id; "
                    "its gradient updates only the rows looked up.";
    embedding.inputs = 1;
    embedding.outputs = 1;
    embedding.params = {param("vocab_size", attr::i(10000), "Number of ids (rows of the table)."),
                        param("dim", attr::i(200), "Width of each row."),
                        param("init_scale", attr::f(0.1f), "Rows start uniform in [-init_scale, init_scale].")};
    embedding.inputNames = {"ids"};
    embedding.outputNames = {"output"};

    LayerType rnn;
    rnn.type = "RNN";
    rnn.category = "Layers";
    rnn.doc = "tf.nn.dynamic_rnn over a recurrent cell (stacked by MultiRNNCell for several layers): "
              "[batch, time, depth] in, every step's output or the last one out.";
    rnn.inputs = 1;
    rnn.outputs = 1;
    rnn.params = {param("cell", attr::s("basic_lstm"), "The cell: BasicLSTMCell, LSTMCell, GRUCell or BasicRNNCell.",
                        {"basic_lstm", "lstm", "gru", "basic_rnn"}),
                  param("units", attr::i(200), "Units of each cell."),
                  param("layers", attr::i(1), "Cells stacked (MultiRNNCell when more than one)."),
                  param("forget_bias", attr::f(1.0f), "Added to the LSTM cells' forget gate."),
                  param("output", attr::s("sequence"), "Every step's output, or the last layer's final h.",
                        {"sequence", "last"})};
    rnn.inputNames = {"inputs"};
    rnn.outputNames = {"outputs"};
    return {embedding, rnn};
}

bool isRecurrentType(std::string_view type)
{
    return type == "Embedding" || type == "RNN";
}

Expected<LayerExpansion> expandRecurrentNode(GraphBuilder& b, const LayerType& type, std::string_view name,
                                             const ParamMap& params, const std::vector<Output>& inputs)
{
    if (inputs.size() != 1)
        return unexpected(invalidArgumentError("expected 1 input, got " + std::to_string(inputs.size())));
    if (type.type == "Embedding")
        return expandEmbedding(b, type, name, params, inputs[0]);
    return expandRnn(b, type, name, params, inputs[0]);
}

} // namespace tstudio::layers
