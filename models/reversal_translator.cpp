// buildReversalTranslator: an attention seq2seq model that learns to reverse sequences.
#include "reversal_translator.h"

#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/lstm_cell.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/rnn.h"
#include "builder/seq2seq_decoder.h"
#include "builder/seq2seq_helpers.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "layers/attention_mechanism.h"
#include "layers/attention_wrapper.h"
#include "layers/basic_decoder.h"
#include "losses/sequence_loss.h"
#include "model/meta_graph.h"
#include "summary/summary.h"

#include <memory>

namespace tstudio::examples {

namespace tf = tensorflow;

namespace {

/// The share of `predicted`'s symbols equal to `target`'s: "<scope>/Equal", "<scope>/Cast" (float),
/// "<scope>/axes" and their Mean `name`.
Expected<Output> shareRight(GraphBuilder& b, const Output& predicted, const Output& target, const std::string& scope,
                            const std::string& name)
{
    TSTUDIO_TRY(equal, ops::firstOutput(b.op("Equal", {predicted, target}, {}, scope + "/Equal")));
    TSTUDIO_TRY(right, ops::firstOutput(b.op("Cast", {equal},
                                             {{"SrcT", attr::type(tf::DT_BOOL)}, {"DstT", attr::type(tf::DT_FLOAT)}},
                                             scope + "/Cast")));
    TSTUDIO_TRY(axes, ops::constantInts(b, {0, 1}, TensorShape({2}), tf::DT_INT32, scope + "/axes"));
    return ops::firstOutput(b.op("Mean", {right, axes}, {}, name));
}

} // namespace

Expected<tensorflow::MetaGraphDef> buildReversalTranslator(const OpRegistry& ops, const ReversalTranslatorOptions& o)
{
    if (o.vocabSize < 3 || o.length < 2 || o.batchSize < 1 || o.embeddingSize < 1 || o.units < 1 || o.imageScale < 1)
        return unexpected(invalidArgumentError("buildReversalTranslator: vocab_size >= 3, length >= 2 and positive "
                                               "sizes expected"));
    GraphBuilder b(ops);
    b.setRandomSeed(o.seed);
    const std::int64_t T = o.length;

    // The sentences of a step, drawn by the graph unless fed.
    TSTUDIO_TRY(drawShape, ops::constantInts(b, {o.batchSize, T}, TensorShape({2}), tf::DT_INT32, "sentences/shape"));
    TSTUDIO_TRY(low, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "sentences/minval"));
    TSTUDIO_TRY(high, ops::constantInts(b, {o.vocabSize}, TensorShape::scalar(), tf::DT_INT32, "sentences/maxval"));
    TSTUDIO_TRY(drawn, ops::firstOutput(b.op("RandomUniformInt", {drawShape, low, high},
                                             {{"Tout", attr::type(tf::DT_INT32)}, {"T", attr::type(tf::DT_INT32)}},
                                             "sentences")));
    TSTUDIO_TRY(source,
                ops::firstOutput(b.op(
                    "PlaceholderWithDefault", {drawn},
                    {{"dtype", attr::type(tf::DT_INT32)}, {"shape", attr::shape(TensorShape({-1, T}))}}, "source")));
    TSTUDIO_TRY(reverseAxis, ops::constantInts(b, {1}, TensorShape({1}), tf::DT_INT32, "target/axis"));
    TSTUDIO_TRY(target, ops::firstOutput(b.op("ReverseV2", {source, reverseAxis}, {}, "target")));

    // The batch size and the decoder's inputs: the start symbol, then the target without its last.
    Output batch, decoderInputs, lengths;
    {
        TSTUDIO_TRY(scope, b.nameScope("decoder_inputs"));
        TSTUDIO_TRY(shape,
                    ops::firstOutput(b.op("Shape", {source}, {{"out_type", attr::type(tf::DT_INT32)}}, "Shape")));
        TSTUDIO_TRY(begin, ops::constantInts(b, {0}, TensorShape({1}), tf::DT_INT32, "begin"));
        TSTUDIO_TRY(end, ops::constantInts(b, {1}, TensorShape({1}), tf::DT_INT32, "end"));
        TSTUDIO_TRY(stride, ops::constantInts(b, {1}, TensorShape({1}), tf::DT_INT32, "stride"));
        TSTUDIO_TRY(first, ops::firstOutput(b.op("StridedSlice", {shape, begin, end, stride},
                                                 {{"shrink_axis_mask", attr::i(1)}}, "batch_size")));
        batch = first;
        TSTUDIO_TRY(one, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "one"));
        TSTUDIO_TRY(goShape, ops::firstOutput(b.op("Pack", {OpInput(std::vector<Output>{batch, one})},
                                                   {{"N", attr::i(2)}, {"axis", attr::i(0)}}, "go/shape")));
        TSTUDIO_TRY(zero, ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32, "go/value"));
        TSTUDIO_TRY(go, ops::firstOutput(b.op("Fill", {goShape, zero}, {}, "go")));
        TSTUDIO_TRY(sliceBegin, ops::constantInts(b, {0, 0}, TensorShape({2}), tf::DT_INT32, "shifted/begin"));
        TSTUDIO_TRY(sliceSize, ops::constantInts(b, {-1, T - 1}, TensorShape({2}), tf::DT_INT32, "shifted/size"));
        TSTUDIO_TRY(shifted, ops::firstOutput(b.op("Slice", {target, sliceBegin, sliceSize}, {}, "shifted")));
        TSTUDIO_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "concat/axis"));
        TSTUDIO_TRY(joined, ops::firstOutput(
                                b.op("ConcatV2", {OpInput(std::vector<Output>{go, shifted}), axis}, {}, "concat")));
        decoderInputs = joined;
        TSTUDIO_TRY(steps, ops::constantInts(b, {T}, TensorShape::scalar(), tf::DT_INT32, "lengths/value"));
        TSTUDIO_TRY(batchVector, ops::firstOutput(b.op("Pack", {OpInput(std::vector<Output>{batch})},
                                                       {{"N", attr::i(1)}, {"axis", attr::i(0)}}, "lengths/shape")));
        TSTUDIO_TRY(filled, ops::firstOutput(b.op("Fill", {batchVector, steps}, {}, "lengths")));
        lengths = filled;
    }

    // Encoder.
    Output memory;
    {
        TSTUDIO_TRY(embedding, getVariable(b, "encoder/embedding", TensorShape({o.vocabSize, o.embeddingSize})));
        TSTUDIO_TRY(embedded, nn::embeddingLookup(b, embedding.value(), source));
        nn::BasicLSTMCell cell(o.units);
        nn::DynamicRnnOptions rnn;
        rnn.dtype = tf::DT_FLOAT;
        rnn.scope = "encoder";
        TSTUDIO_TRY(encoded, nn::dynamicRnn(b, cell, embedded, rnn));
        memory = encoded.outputs;
    }

    // Decoder with attention over the encoder's outputs.
    TSTUDIO_TRY(decoderEmbedding, getVariable(b, "decoder/embedding", TensorShape({o.vocabSize, o.embeddingSize})));
    TSTUDIO_TRY(decoderEmbedded, nn::embeddingLookup(b, decoderEmbedding.value(), decoderInputs));
    seq2seq::AttentionMechanismOptions attention;
    attention.numUnits = o.units;
    attention.memory = memory;
    TSTUDIO_TRY(mechanism, seq2seq::LuongAttention::create(b, attention));
    seq2seq::AttentionWrapperOptions wrapperOptions;
    wrapperOptions.attentionLayerSize = o.units;
    wrapperOptions.alignmentHistory = true;
    auto wrapper = std::make_shared<seq2seq::AttentionWrapper>(std::make_shared<nn::BasicLSTMCell>(o.units), mechanism,
                                                               wrapperOptions);
    TSTUDIO_TRY(helper, seq2seq::TrainingHelper::create(b, decoderEmbedded, lengths));
    TSTUDIO_TRY(initial, wrapper->zeroState(b, nn::RnnBatchSize(batch), tf::DT_FLOAT));
    layers::DenseOptions projection;
    projection.units = o.vocabSize;
    projection.useBias = false;
    projection.name = "output_projection";
    TSTUDIO_TRY(decoder, seq2seq::BasicDecoder::create(wrapper, std::shared_ptr<seq2seq::Helper>(std::move(helper)),
                                                       initial, projection));
    seq2seq::DynamicDecodeOptions decodeOptions;
    decodeOptions.scope = "decoder";
    TSTUDIO_TRY(decoded, seq2seq::dynamicDecode(b, *decoder, decodeOptions));
    const Output logits = decoded.outputs.at(0);

    // Loss, predictions, accuracy.
    TSTUDIO_TRY(weights, ops::firstOutput(b.op("OnesLike", {target}, {}, "weights/ones")));
    TSTUDIO_TRY(
        floatWeights,
        ops::firstOutput(b.op("Cast", {weights},
                              {{"SrcT", attr::type(tf::DT_INT32)}, {"DstT", attr::type(tf::DT_FLOAT)}}, "weights")));
    TSTUDIO_TRY(loss, seq2seq::sequenceLoss(b, logits, target, floatWeights));
    TSTUDIO_TRY(namedLoss, ops::identity(b, loss, "loss"));
    (void)namedLoss;
    TSTUDIO_TRY(argmaxAxis, ops::constantInts(b, {2}, TensorShape::scalar(), tf::DT_INT32, "predictions/dimension"));
    TSTUDIO_TRY(predictions, ops::firstOutput(b.op("ArgMax", {logits, argmaxAxis},
                                                   {{"output_type", attr::type(tf::DT_INT32)}}, "predictions")));
    TSTUDIO_TRY(accuracy, shareRight(b, predictions, target, "evaluation", "evaluation/accuracy"));
    TSTUDIO_TRY(accuracySummary, summary::scalar(b, "accuracy", accuracy));
    (void)accuracySummary;

    // Translation as at inference: the same variables (reused), greedy decoding from the start
    // symbol, each step fed the embedding of its own last output (GreedyEmbeddingHelper).
    {
        reuseVariables(b);
        seq2seq::AttentionMechanismOptions inferAttention;
        inferAttention.numUnits = o.units;
        inferAttention.memory = memory;
        TSTUDIO_TRY(inferMechanism, seq2seq::LuongAttention::create(b, inferAttention));
        seq2seq::AttentionWrapperOptions inferOptions;
        inferOptions.attentionLayerSize = o.units;
        auto inferWrapper = std::make_shared<seq2seq::AttentionWrapper>(std::make_shared<nn::BasicLSTMCell>(o.units),
                                                                        inferMechanism, inferOptions);
        TSTUDIO_TRY(startShape,
                    ops::firstOutput(b.op("Pack", {OpInput(std::vector<Output>{batch})},
                                          {{"N", attr::i(1)}, {"axis", attr::i(0)}}, "start_tokens/shape")));
        TSTUDIO_TRY(startValue, ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32, "start_tokens/value"));
        TSTUDIO_TRY(startTokens, ops::firstOutput(b.op("Fill", {startShape, startValue}, {}, "start_tokens")));
        // No end symbol: every sentence is decoded to its full length.
        TSTUDIO_TRY(endToken, ops::constantInts(b, {-1}, TensorShape::scalar(), tf::DT_INT32, "end_token"));
        TSTUDIO_TRY(greedy, seq2seq::GreedyEmbeddingHelper::create(b, decoderEmbedding.value(), startTokens, endToken));
        TSTUDIO_TRY(inferInitial, inferWrapper->zeroState(b, nn::RnnBatchSize(batch), tf::DT_FLOAT));
        TSTUDIO_TRY(inferDecoder,
                    seq2seq::BasicDecoder::create(inferWrapper, std::shared_ptr<seq2seq::Helper>(std::move(greedy)),
                                                  inferInitial, projection));
        seq2seq::DynamicDecodeOptions inferDecode;
        inferDecode.scope = "decoder";
        inferDecode.maximumIterationsValue = T;
        TSTUDIO_TRY(inferred, seq2seq::dynamicDecode(b, *inferDecoder, inferDecode));
        TSTUDIO_TRY(translation, ops::identity(b, inferred.outputs.at(1), "translation"));
        TSTUDIO_TRY(translated,
                    shareRight(b, translation, target, "evaluation/translation", "evaluation/translation_accuracy"));
        TSTUDIO_TRY(translatedSummary, summary::scalar(b, "translation_accuracy", translated));
        (void)translatedSummary;
    }

    // The attention as images: [decoder steps, batch, source] -> [batch, steps, source, 1], scaled up.
    Output scaledImages;
    {
        TSTUDIO_TRY(history, wrapper->alignmentHistory(b, decoded.finalState));
        TSTUDIO_TRY(scope, b.nameScope("attention_history"));
        TSTUDIO_TRY(perm, ops::constantInts(b, {1, 0, 2}, TensorShape({3}), tf::DT_INT32, "perm"));
        TSTUDIO_TRY(batchMajor, ops::firstOutput(b.op("Transpose", {history, perm}, {}, "transpose")));
        TSTUDIO_TRY(channel, ops::constantInts(b, {-1}, TensorShape::scalar(), tf::DT_INT32, "channel"));
        TSTUDIO_TRY(expanded, ops::firstOutput(b.op("ExpandDims", {batchMajor, channel}, {}, "ExpandDims")));
        TSTUDIO_TRY(size,
                    ops::constantInts(b, {T * o.imageScale, T * o.imageScale}, TensorShape({2}), tf::DT_INT32, "size"));
        TSTUDIO_TRY(scaled, ops::firstOutput(b.op("ResizeNearestNeighbor", {expanded, size}, {}, "scaled")));
        scaledImages = scaled;
    }
    TSTUDIO_TRY(image, summary::image(b, "attention_images", scaledImages, 3));
    (void)image;
    return exportMetaGraph(b);
}

} // namespace tstudio::examples
