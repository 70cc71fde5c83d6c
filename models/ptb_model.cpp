// buildPtbModel: the PTB tutorial's LSTM language model with its state as placeholders.
#include "ptb_model.h"

#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/lstm_cell.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/rnn.h"
#include "builder/rnn_cell_wrappers.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "losses/nn_losses.h"

#include <memory>
#include <string>
#include <vector>

namespace tstudio::examples {

Expected<tensorflow::GraphDef> buildPtbModel(const OpRegistry& ops, const PtbModelOptions& options)
{
    if (options.vocabSize < 2 || options.hiddenSize < 1 || options.numLayers < 1 || options.numSteps < 1)
        return unexpected(invalidArgumentError("buildPtbModel: vocab_size >= 2, hidden_size, num_layers and "
                                               "num_steps >= 1 expected"));
    GraphBuilder b(ops);
    b.setRandomSeed(options.seed);
    const std::int64_t steps = options.numSteps;
    const std::int64_t hidden = options.hiddenSize;
    TSTUDIO_TRY(inputs, ops::placeholder(b, tensorflow::DT_INT32, TensorShape({-1, steps}), "inputs"));
    TSTUDIO_TRY(targets, ops::placeholder(b, tensorflow::DT_INT32, TensorShape({-1, steps}), "targets"));

    // The batch size as a scalar tensor: zero_state's (and so the default state's) first dimension.
    Output batch;
    {
        TSTUDIO_TRY(scope, b.nameScope("batch_size"));
        TSTUDIO_TRY(shape, ops::firstOutput(
                               b.op("Shape", {inputs}, {{"out_type", attr::type(tensorflow::DT_INT32)}}, "Shape")));
        TSTUDIO_TRY(begin, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "begin"));
        TSTUDIO_TRY(end, ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "end"));
        TSTUDIO_TRY(stride, ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "stride"));
        TSTUDIO_TRY(slice, ops::firstOutput(b.op("StridedSlice", {shape, begin, end, stride},
                                                 {{"shrink_axis_mask", attr::i(1)}}, "strided_slice")));
        batch = slice;
    }

    std::vector<std::shared_ptr<nn::RnnCell>> layers;
    for (std::int64_t k = 0; k < options.numLayers; ++k)
        layers.push_back(std::make_shared<nn::BasicLSTMCell>(hidden, options.forgetBias));
    TSTUDIO_TRY(cell, nn::MultiRNNCell::create(layers));

    // The initial state: placeholders whose default is the cell's zero state, so a step that feeds
    // nothing starts from zeros, as the tutorial's session.run(model.initial_state) does.
    TSTUDIO_TRY(zeroState, cell->zeroState(b, nn::RnnBatchSize(batch), tensorflow::DT_FLOAT));
    std::vector<Output> initial;
    const std::vector<Output> zeros = zeroState.flatten();
    for (std::size_t i = 0; i < zeros.size(); ++i) {
        const std::string name = std::string("initial_state_") + (i % 2 == 0 ? "c" : "h") + std::to_string(i / 2);
        TSTUDIO_TRY(state, ops::firstOutput(b.op("PlaceholderWithDefault", {zeros[i]},
                                                 {{"dtype", attr::type(tensorflow::DT_FLOAT)},
                                                  {"shape", attr::shape(TensorShape({-1, hidden}))}},
                                                 name)));
        initial.push_back(state);
    }

    Output logits;
    nn::RnnState finalState;
    {
        TSTUDIO_TRY(model, variableScope(b, "Model", Reuse::kFalse,
                                         Initializer::randomUniform(-options.initScale, options.initScale)));
        TSTUDIO_TRY(embedding, getVariable(b, "embedding", TensorShape({options.vocabSize, hidden})));
        TSTUDIO_TRY(embedded, nn::embeddingLookup(b, embedding.value(), inputs));
        TSTUDIO_TRY(unstacked, b.op("Unpack", {embedded}, {{"num", attr::i(steps)}, {"axis", attr::i(1)}}, "unstack"));
        nn::RnnOptions rnn;
        rnn.initialState = zeroState.packAs(initial);
        TSTUDIO_TRY(run, nn::staticRnn(b, *cell, unstacked.outputs(), rnn));
        finalState = run.state;
        TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "concat/axis"));
        TSTUDIO_TRY(concat, ops::firstOutput(b.op("ConcatV2", {OpInput(run.outputs), axis}, {}, "concat")));
        TSTUDIO_TRY(rows, ops::constantInts(b, {-1, hidden}, TensorShape({2}), tensorflow::DT_INT32, "Reshape/shape"));
        TSTUDIO_TRY(output, ops::firstOutput(b.op("Reshape", {concat, rows}, {}, "Reshape")));
        TSTUDIO_TRY(softmaxW, getVariable(b, "softmax_w", TensorShape({hidden, options.vocabSize})));
        TSTUDIO_TRY(softmaxB, getVariable(b, "softmax_b", TensorShape({options.vocabSize})));
        TSTUDIO_TRY(out, nn::xwPlusB(b, output, softmaxW.value(), softmaxB.value()));
        logits = out;
    }

    const std::vector<Output> finals = finalState.flatten();
    for (std::size_t i = 0; i < finals.size(); ++i) {
        const std::string name = std::string("final_state_") + (i % 2 == 0 ? "c" : "h") + std::to_string(i / 2);
        TSTUDIO_TRY(named, ops::identity(b, finals[i], name));
        (void)named;
    }

    Output xent;
    {
        TSTUDIO_TRY(scope, b.nameScope("loss"));
        TSTUDIO_TRY(flat, ops::constantInts(b, {-1}, TensorShape({1}), tensorflow::DT_INT32, "Reshape/shape"));
        TSTUDIO_TRY(labels, ops::firstOutput(b.op("Reshape", {targets, flat}, {}, "Reshape")));
        TSTUDIO_TRY(perWordXent, nn::sparseSoftmaxCrossEntropyWithLogits(b, labels, logits, "xentropy"));
        xent = perWordXent;
    }
    TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "per_word_loss/axes"));
    TSTUDIO_TRY(perWord, ops::firstOutput(b.op("Mean", {xent, axes}, {}, "per_word_loss")));
    TSTUDIO_TRY(numSteps, ops::constant(b, static_cast<double>(steps), tensorflow::DT_FLOAT, "cost/num_steps"));
    TSTUDIO_TRY(cost, ops::mul(b, perWord, numSteps, "cost"));
    (void)cost;
    return b.toGraphDef();
}

} // namespace tstudio::examples
