// seq2seq helpers: TrainingHelper (teacher forcing) and GreedyEmbeddingHelper (argmax feedback).
#include "builder/seq2seq_helpers.h"

#include "builder/attr_values.h"
#include "builder/cond.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/rnn_cell_ops.h"
#include "core/try.h"

namespace tstudio::seq2seq {
namespace {

/// math_ops.reduce_all of a vector: "All" over axis 0 ("Const").
Expected<Output> reduceAll(GraphBuilder& b, const Output& x)
{
    TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
    return py::genOp(b, "All", {x, axes});
}

/// math_ops.argmax(x, axis=-1, output_type): "ArgMax" with "ArgMax/dimension".
Expected<Output> argmax(GraphBuilder& b, const Output& logits, DataType outputType)
{
    TSTUDIO_TRY(scope, b.nameScope("ArgMax"));
    TSTUDIO_TRY(dim, ops::constantInts(b, {-1}, TensorShape::scalar(), tensorflow::DT_INT32, "dimension"));
    return py::genOp(b, "ArgMax", {logits, dim}, {{"output_type", attr::type(outputType)}}, scope.name());
}

bool isIntegral(DataType t)
{
    return t == tensorflow::DT_INT32 || t == tensorflow::DT_INT64;
}

} // namespace

// --- TrainingHelper ----------------------------------------------------------------------------------------------

TrainingHelper::TrainingHelper(TensorArray inputs, Output sequenceLength, Output zeroInputs, Output batchSize,
                               TensorShape elementShape)
    : m_inputs(std::move(inputs)), m_sequenceLength(std::move(sequenceLength)), m_zeroInputs(std::move(zeroInputs)),
      m_batchSize(std::move(batchSize)), m_elementShape(std::move(elementShape))
{
}

Expected<std::unique_ptr<TrainingHelper>> TrainingHelper::create(GraphBuilder& b, const Output& inputs,
                                                                 const Output& sequenceLength, bool timeMajor)
{
    TSTUDIO_TRY(scope, b.nameScope("TrainingHelper"));
    if (inputs.shape().rank() >= 0 && inputs.shape().rank() < 3)
        return unexpected(invalidArgumentError("TrainingHelper: inputs " + inputs.name() +
                                               " must be [batch, time, depth], got " + inputs.shape().toString()));
    if (sequenceLength.shape().rank() != 1)
        return unexpected(invalidArgumentError("Expected sequence_length to be a vector, but received shape: " +
                                               sequenceLength.shape().toString()));
    if (!isIntegral(sequenceLength.baseDtype()))
        return unexpected(invalidArgumentError("TrainingHelper: sequence_length " + sequenceLength.name() +
                                               " must be int32 or int64, got " +
                                               dataTypeString(sequenceLength.baseDtype())));
    Output timeFirst = inputs;
    if (!timeMajor) {
        TSTUDIO_TRY(t, nn::rnn_detail::transposeBatchTime(b, inputs));
        timeFirst = t;
    }
    // _unstack_ta: TensorArray(size = shape(inp)[0], element_shape = inp.shape[1:]).unstack(inp).
    TSTUDIO_TRY(shape, py::shape(b, timeFirst));
    TSTUDIO_TRY(steps, py::genOp(b, "StridedSlice",
                                 {shape, *ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "stack"),
                                  *ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "stack_1"),
                                  *ops::constantInts(b, {1}, TensorShape({1}), tensorflow::DT_INT32, "stack_2")},
                                 {{"shrink_axis_mask", attr::i(1)}}, "strided_slice"));
    TensorArrayOptions options;
    std::vector<std::int64_t> element;
    if (timeFirst.shape().rank() > 0)
        element.assign(timeFirst.shape().dims().begin() + 1, timeFirst.shape().dims().end());
    options.elementShape = timeFirst.shape().rank() > 0 ? TensorShape(element) : TensorShape::unknown();
    TSTUDIO_TRY(empty, TensorArray::create(b, timeFirst.baseDtype(), steps, options));
    TSTUDIO_TRY(unstacked, empty.unstack(b, timeFirst));
    // zeros_like(inp[0, :]).
    TSTUDIO_TRY(first,
                py::genOp(b, "StridedSlice",
                          {timeFirst, *ops::constantInts(b, {0, 0}, TensorShape({2}), tensorflow::DT_INT32, "stack_3"),
                           *ops::constantInts(b, {1, 0}, TensorShape({2}), tensorflow::DT_INT32, "stack_4"),
                           *ops::constantInts(b, {1, 1}, TensorShape({2}), tensorflow::DT_INT32, "stack_5")},
                          {{"shrink_axis_mask", attr::i(1)}, {"end_mask", attr::i(2)}, {"begin_mask", attr::i(2)}},
                          "strided_slice_1"));
    TSTUDIO_TRY(zeros, py::zerosLike(b, first));
    TSTUDIO_TRY(shapedZeros, nn::rnn_detail::withShape(b, zeros, options.elementShape));
    TSTUDIO_TRY(batch, py::size(b, sequenceLength));
    return std::unique_ptr<TrainingHelper>(
        new TrainingHelper(unstacked, sequenceLength, shapedZeros, batch, options.elementShape));
}

Expected<Output> TrainingHelper::inputsAt(GraphBuilder& b, const Output& time, const Output& finished)
{
    TSTUDIO_TRY(allFinished, reduceAll(b, finished));
    TSTUDIO_TRY(chosen, cond(
                            b, allFinished,
                            [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                                TSTUDIO_TRY(z, py::genOp(g, "Identity", {m_zeroInputs}));
                                return std::vector<Output>{z};
                            },
                            [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                                TSTUDIO_TRY(read, m_inputs.read(g, time));
                                return std::vector<Output>{read};
                            }));
    return nn::rnn_detail::withShape(b, chosen.front(), m_elementShape);
}

Expected<HelperStart> TrainingHelper::initialize(GraphBuilder& b)
{
    TSTUDIO_TRY(scope, b.nameScope("TrainingHelperInitialize"));
    TSTUDIO_TRY(zero, ops::constantInts(b, {0}, TensorShape::scalar(), m_sequenceLength.baseDtype(), "Equal/x"));
    TSTUDIO_TRY(finished, py::genOp(b, "Equal", {zero, m_sequenceLength}));
    TSTUDIO_TRY(time,
                ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "TensorArrayReadV3/index"));
    TSTUDIO_TRY(inputs, inputsAt(b, time, finished));
    return HelperStart{finished, inputs};
}

Expected<Output> TrainingHelper::sample(GraphBuilder& b, const Output&, const Output& outputs)
{
    TSTUDIO_TRY(scope, b.nameScope("TrainingHelperSample"));
    TSTUDIO_TRY(ids, argmax(b, outputs, tensorflow::DT_INT64));
    return py::cast(b, ids, tensorflow::DT_INT32);
}

Expected<HelperNext> TrainingHelper::nextInputs(GraphBuilder& b, const Output& time, const Output&, const Output&)
{
    TSTUDIO_TRY(scope, b.nameScope("TrainingHelperNextInputs"));
    TSTUDIO_TRY(next, py::binary(b, py::Operator::kAdd, time, 1.0));
    Output length = m_sequenceLength;
    if (length.baseDtype() != tensorflow::DT_INT32) {
        TSTUDIO_TRY(cast, py::cast(b, length, tensorflow::DT_INT32));
        length = cast;
    }
    TSTUDIO_TRY(finished, py::genOp(b, "GreaterEqual", {next, length}));
    TSTUDIO_TRY(inputs, inputsAt(b, next, finished));
    return HelperNext{finished, inputs};
}

// --- GreedyEmbeddingHelper ---------------------------------------------------------------------------------------

GreedyEmbeddingHelper::GreedyEmbeddingHelper(Output embedding, Output endToken, Output batchSize, Output startInputs)
    : m_embedding(std::move(embedding)), m_endToken(std::move(endToken)), m_batchSize(std::move(batchSize)),
      m_startInputs(std::move(startInputs))
{
}

Expected<std::unique_ptr<GreedyEmbeddingHelper>> GreedyEmbeddingHelper::create(GraphBuilder& b, const Output& embedding,
                                                                               const Output& startTokens,
                                                                               const Output& endToken)
{
    if (startTokens.baseDtype() != tensorflow::DT_INT32 || endToken.baseDtype() != tensorflow::DT_INT32)
        return unexpected(invalidArgumentError("GreedyEmbeddingHelper: start_tokens and end_token must be int32, got " +
                                               dataTypeString(startTokens.baseDtype()) + " and " +
                                               dataTypeString(endToken.baseDtype())));
    if (startTokens.shape().rank() != 1)
        return unexpected(invalidArgumentError("start_tokens must be a vector"));
    TSTUDIO_TRY(batch, py::size(b, startTokens));
    if (endToken.shape().rank() != 0)
        return unexpected(invalidArgumentError("end_token must be a scalar"));
    TSTUDIO_TRY(start, nn::embeddingLookup(b, embedding, startTokens));
    return std::unique_ptr<GreedyEmbeddingHelper>(new GreedyEmbeddingHelper(embedding, endToken, batch, start));
}

Expected<HelperStart> GreedyEmbeddingHelper::initialize(GraphBuilder& b)
{
    // array_ops.tile([False], [batch_size]).
    TSTUDIO_TRY(no, ops::constant(b, std::vector<double>{0}, TensorShape({1}), tensorflow::DT_BOOL, "Tile/input"));
    TSTUDIO_TRY(multiples, py::genOp(b, "Pack", {OpInput(std::vector<Output>{m_batchSize})}, {}, "Tile/multiples"));
    TSTUDIO_TRY(finished, py::genOp(b, "Tile", {no, multiples}));
    return HelperStart{finished, m_startInputs};
}

Expected<Output> GreedyEmbeddingHelper::sample(GraphBuilder& b, const Output&, const Output& outputs)
{
    if (outputs.shape().rank() >= 0 && outputs.shape().rank() < 2)
        return unexpected(invalidArgumentError("GreedyEmbeddingHelper: expected the step's outputs to be logits "
                                               "[batch, vocabulary], got " +
                                               outputs.shape().toString()));
    return argmax(b, outputs, tensorflow::DT_INT32);
}

Expected<HelperNext> GreedyEmbeddingHelper::nextInputs(GraphBuilder& b, const Output&, const Output&,
                                                       const Output& sampleIds)
{
    TSTUDIO_TRY(finished, py::genOp(b, "Equal", {sampleIds, m_endToken}));
    TSTUDIO_TRY(allFinished, reduceAll(b, finished));
    TSTUDIO_TRY(chosen, cond(
                            b, allFinished,
                            [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                                TSTUDIO_TRY(s, py::genOp(g, "Identity", {m_startInputs}));
                                return std::vector<Output>{s};
                            },
                            [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                                TSTUDIO_TRY(e, nn::embeddingLookup(g, m_embedding, sampleIds));
                                return std::vector<Output>{e};
                            }));
    TSTUDIO_TRY(inputs, nn::rnn_detail::withShape(b, chosen.front(), m_startInputs.shape()));
    return HelperNext{finished, inputs};
}

} // namespace tstudio::seq2seq
