// tf.contrib.seq2seq's BasicDecoder and dynamic_decode with TrainingHelper and
// GreedyEmbeddingHelper: teacher-forced decoding equals dynamic_rnn plus the projection with the
// same weights (ragged lengths with impute_finished too: zeros past the end, the state at each
// entry's length); greedy decoding equals the same cell unrolled by hand with argmax feedback,
// stops at end_token or maximum_iterations with TensorFlow's sequence lengths; the variables'
// names; a small copy task trains through the loop; TensorFlow's errors.
#include "builder/lstm_cell.h"
#include "builder/nn_functions.h"
#include "builder/rnn.h"
#include "builder/variable_scope.h"
#include "layers/basic_decoder.h"
#include "losses/sequence_loss.h"
#include "rnn_test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace tstudio;
using namespace tstudio::nn;
using namespace tstudio::seq2seq;
using namespace tstudio::testing::rnn;
namespace tf = tensorflow;

namespace {

Tensor ints(const TensorShape& shape, std::vector<std::int32_t> values)
{
    return *Tensor::fromVector<std::int32_t>(testing::gradientTestAllocator(), shape, values);
}

double at(const Tensor& t, std::int64_t i)
{
    return t.dtype() == tf::DT_FLOAT ? double(t.values<float>()[i]) : t.values<double>()[i];
}

std::vector<std::int32_t> int32s(const Tensor& t)
{
    const auto values = t.values<std::int32_t>();
    return {values.begin(), values.end()};
}

/// The index of the largest of n values from `first` (the first on ties, as ArgMax).
std::int32_t argmaxOf(const Tensor& t, std::int64_t first, std::int64_t n)
{
    std::int64_t best = 0;
    for (std::int64_t k = 1; k < n; ++k)
        if (at(t, first + k) > at(t, first + best))
            best = k;
    return static_cast<std::int32_t>(best);
}

} // namespace

class TestSeq2SeqDecoder : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

    std::vector<Tensor> run(const GraphBuilder& b, const std::vector<std::pair<std::string, Tensor>>& feeds,
                            const std::vector<Output>& fetches, bool* ok)
    {
        return fetch(*m_registries, b, feeds, fetches, ok);
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
    }

    void trainingHelperEqualsDynamicRnn_data()
    {
        QTest::addColumn<bool>("ragged");
        QTest::newRow("full lengths") << false;
        QTest::newRow("ragged, impute_finished") << true;
    }

    void trainingHelperEqualsDynamicRnn()
    {
        QFETCH(bool, ragged);
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {3, 5, 3}, "x");
        auto lengths = ops::placeholder(b, tf::DT_INT32, {3}, "lengths");
        QVERIFY(x && lengths);
        auto cell = std::make_shared<BasicLSTMCell>(4);
        auto helper = TrainingHelper::create(b, *x, *lengths);
        QVERIFY2(helper, err(helper));
        auto zero = cell->zeroState(b, 3, tf::DT_DOUBLE);
        QVERIFY2(zero, err(zero));
        layers::DenseOptions projection;
        projection.units = 6;
        projection.useBias = false;
        auto decoder = BasicDecoder::create(cell, std::shared_ptr<Helper>(std::move(*helper)), *zero, projection);
        QVERIFY2(decoder, err(decoder));
        DynamicDecodeOptions options;
        options.imputeFinished = ragged;
        auto decoded = dynamicDecode(b, **decoder, options);
        QVERIFY2(decoded, err(decoded));
        QCOMPARE(decoded->outputs.size(), std::size_t(2));
        QCOMPARE(decoded->outputs[0].shape(), (TensorShape{3, -1, 6}));
        QCOMPARE(decoded->outputs[1].shape(), (TensorShape{3, -1}));
        QCOMPARE(decoded->outputs[1].baseDtype(), tf::DT_INT32);
        // TensorFlow's variable names: the cell and the output layer in the "decoder" scope.
        const auto shapes = variableShapes(b);
        QCOMPARE(shapes.size(), std::size_t(3));
        QCOMPARE(shapes.at("decoder/basic_lstm_cell/kernel"), (TensorShape{7, 16}));
        QCOMPARE(shapes.at("decoder/basic_lstm_cell/bias"), (TensorShape{16}));
        QCOMPARE(shapes.at("decoder/dense/kernel"), (TensorShape{4, 6}));
        QVERIFY(b.findNode("decoder/while/BasicDecoderStep/TrainingHelperNextInputs/GreaterEqual"));

        // The reference: dynamic_rnn with the same cell object (its variables), then the projection.
        DynamicRnnOptions rnnOptions;
        rnnOptions.dtype = tf::DT_DOUBLE;
        if (ragged)
            rnnOptions.sequenceLength = *lengths;
        auto reference = dynamicRnn(b, *cell, *x, rnnOptions);
        QVERIFY2(reference, err(reference));
        QCOMPARE(variableShapes(b).size(), std::size_t(3)); // no new variables

        const std::vector<std::int32_t> lengthValues =
            ragged ? std::vector<std::int32_t>{5, 2, 0} : std::vector<std::int32_t>{5, 5, 5};
        bool ok = false;
        auto v = run(b,
                     {{"x:0", pattern({3, 5, 3}, 0.4, 0.8)},
                      {"lengths:0", ints({3}, lengthValues)},
                      {"decoder/basic_lstm_cell/kernel/read:0", pattern({7, 16}, 2.1, 0.4)},
                      {"decoder/basic_lstm_cell/bias/read:0", pattern({16}, 2.9, 0.2)},
                      {"decoder/dense/kernel/read:0", pattern({4, 6}, 1.3, 0.7)}},
                     {decoded->outputs[0], decoded->outputs[1], decoded->finalSequenceLengths, decoded->finalState.c(),
                      decoded->finalState.h(), reference->outputs, reference->state.c(), reference->state.h()},
                     &ok);
        QVERIFY(ok);
        const Tensor& logits = v[0];
        const Tensor& ids = v[1];
        QCOMPARE(logits.shape(), (TensorShape{3, 5, 6}));
        const Tensor w = pattern({4, 6}, 1.3, 0.7);
        for (int r = 0; r < 3; ++r)
            for (int t = 0; t < 5; ++t) {
                const bool past = ragged && t >= lengthValues[std::size_t(r)];
                for (int k = 0; k < 6; ++k) {
                    double expected = 0;
                    for (int u = 0; u < 4; ++u)
                        expected += at(v[5], (r * 5 + t) * 4 + u) * at(w, u * 6 + k);
                    if (past)
                        expected = 0; // impute_finished: zeros past the end (as dynamic_rnn's zero outputs)
                    const double got = at(logits, (r * 5 + t) * 6 + k);
                    QVERIFY2(
                        std::abs(got - expected) <= 1e-12,
                        qPrintable(
                            QString("logits[%1,%2,%3] = %4, expected %5").arg(r).arg(t).arg(k).arg(got).arg(expected)));
                }
                const std::int32_t id = ids.values<std::int32_t>()[r * 5 + t];
                QCOMPARE(id, argmaxOf(logits, (r * 5 + t) * 6, 6));
            }
        QCOMPARE(int32s(v[2]), lengthValues);
        // The final state: dynamic_rnn's (each entry's state at its length, with impute_finished).
        for (std::int64_t i = 0; i < 12; ++i) {
            QVERIFY(std::abs(at(v[3], i) - at(v[6], i)) <= 1e-12);
            QVERIFY(std::abs(at(v[4], i) - at(v[7], i)) <= 1e-12);
        }
    }

    void greedyEmbeddingEqualsTheUnrolledCell()
    {
        GraphBuilder b(m_registries->ops);
        auto embedding = ops::placeholder(b, tf::DT_DOUBLE, {7, 3}, "embedding");
        auto start = ops::placeholder(b, tf::DT_INT32, {2}, "start");
        auto end = ops::placeholder(b, tf::DT_INT32, TensorShape::scalar(), "end");
        QVERIFY(embedding && start && end);
        auto cell = std::make_shared<BasicLSTMCell>(5);
        auto helper = GreedyEmbeddingHelper::create(b, *embedding, *start, *end);
        QVERIFY2(helper, err(helper));
        auto zero = cell->zeroState(b, 2, tf::DT_DOUBLE);
        QVERIFY2(zero, err(zero));
        layers::DenseOptions projection;
        projection.units = 7;
        auto decoder = BasicDecoder::create(cell, std::shared_ptr<Helper>(std::move(*helper)), *zero, projection);
        QVERIFY2(decoder, err(decoder));
        DynamicDecodeOptions options;
        options.maximumIterationsValue = 4;
        auto decoded = dynamicDecode(b, **decoder, options);
        QVERIFY2(decoded, err(decoded));
        QVERIFY(b.findNode("decoder/maximum_iterations"));

        // The same cell and layer unrolled: x0 = E[start]; logits = dense(cell(x, s)); x = E[argmax].
        std::vector<Output> unrolledLogits, unrolledIds;
        {
            auto scope = variableScope(b, "decoder", Reuse::kTrue);
            QVERIFY2(scope, err(scope));
            auto x = embeddingLookup(b, *embedding, *start);
            QVERIFY(x);
            Output input = *x;
            RnnState state = *zero;
            for (int t = 0; t < 4; ++t) {
                auto step = cell->call(b, input, state);
                QVERIFY2(step, err(step));
                layers::DenseOptions reuse = projection;
                reuse.name = "dense";
                reuse.reuse = Reuse::kTrue;
                auto logits = layers::dense(b, step->output, reuse);
                QVERIFY2(logits, err(logits));
                auto dim = ops::constantInts(b, {-1}, TensorShape::scalar(), tf::DT_INT32);
                auto ids = b.op("ArgMax", {*logits, *dim}, {{"output_type", attr::type(tf::DT_INT32)}});
                QVERIFY2(ids, err(ids));
                auto next = embeddingLookup(b, *embedding, Output(ids->name(), 0, tf::DT_INT32, TensorShape{2}));
                QVERIFY2(next, err(next));
                unrolledLogits.push_back(*logits);
                unrolledIds.push_back(Output(ids->name(), 0, tf::DT_INT32, TensorShape{2}));
                input = *next;
                state = step->state;
            }
        }
        QCOMPARE(variableShapes(b).size(), std::size_t(4)); // kernel, bias of the cell and of the layer

        const std::vector<std::pair<std::string, Tensor>> weights = {
            {"embedding:0", pattern({7, 3}, 0.2, 1.1)},
            {"start:0", ints({2}, {1, 4})},
            {"decoder/basic_lstm_cell/kernel/read:0", pattern({8, 20}, 1.7, 0.9)},
            {"decoder/basic_lstm_cell/bias/read:0", pattern({20}, 0.3, 0.3)},
            {"decoder/dense/kernel/read:0", pattern({5, 7}, 2.6, 1.5)},
            {"decoder/dense/bias/read:0", pattern({7}, 0.9, 0.2)}};
        std::vector<Output> fetches{decoded->outputs[0], decoded->outputs[1], decoded->finalSequenceLengths};
        fetches.insert(fetches.end(), unrolledLogits.begin(), unrolledLogits.end());
        fetches.insert(fetches.end(), unrolledIds.begin(), unrolledIds.end());
        for (std::int32_t endToken = 0; endToken < 7; ++endToken) {
            auto feeds = weights;
            feeds.emplace_back("end:0", *Tensor::fromVector<std::int32_t>(testing::gradientTestAllocator(),
                                                                          TensorShape::scalar(), {endToken}));
            bool ok = false;
            auto v = run(b, feeds, fetches, &ok);
            QVERIFY(ok);
            // Expected lengths: the step at which each entry first emits end_token, plus one, else 4;
            // decoding stops once every entry is finished.
            std::vector<std::int32_t> lengths(2, 4);
            for (int r = 0; r < 2; ++r)
                for (int t = 0; t < 4; ++t)
                    if (v[7 + std::size_t(t)].values<std::int32_t>()[r] == endToken) {
                        lengths[std::size_t(r)] = t + 1;
                        break;
                    }
            const int steps = *std::max_element(lengths.begin(), lengths.end());
            QCOMPARE(v[0].shape(), (TensorShape{2, steps, 7}));
            QCOMPARE(int32s(v[2]), lengths);
            for (int r = 0; r < 2; ++r)
                for (int t = 0; t < steps; ++t) {
                    for (int k = 0; k < 7; ++k)
                        QVERIFY(std::abs(at(v[0], (r * steps + t) * 7 + k) - at(v[3 + std::size_t(t)], r * 7 + k)) <=
                                1e-12);
                    QCOMPARE(v[1].values<std::int32_t>()[r * steps + t],
                             v[7 + std::size_t(t)].values<std::int32_t>()[r]);
                }
        }
    }

    void aCopyTaskTrainsThroughTheLoop()
    {
        // Decoder inputs are one-hot tokens; the targets are the same tokens: learn to copy.
        GraphBuilder b(m_registries->ops);
        const int batch = 4, time = 5, vocabulary = 6;
        auto inputs = ops::placeholder(b, tf::DT_FLOAT, {batch, time, vocabulary}, "inputs");
        auto targets = ops::placeholder(b, tf::DT_INT32, {batch, time}, "targets");
        auto lengths = ops::placeholder(b, tf::DT_INT32, {batch}, "lengths");
        QVERIFY(inputs && targets && lengths);
        auto cell = std::make_shared<BasicLSTMCell>(16);
        auto helper = TrainingHelper::create(b, *inputs, *lengths);
        QVERIFY2(helper, err(helper));
        auto zero = cell->zeroState(b, batch, tf::DT_FLOAT);
        layers::DenseOptions projection;
        projection.units = vocabulary;
        auto decoder = BasicDecoder::create(cell, std::shared_ptr<Helper>(std::move(*helper)), *zero, projection);
        QVERIFY2(decoder, err(decoder));
        DynamicDecodeOptions options;
        options.imputeFinished = true;
        auto decoded = dynamicDecode(b, **decoder, options);
        QVERIFY2(decoded, err(decoded));
        auto mask = ops::placeholder(b, tf::DT_FLOAT, {batch, time}, "mask"); // tf.sequence_mask(lengths)
        QVERIFY(mask);
        auto loss = sequenceLoss(b, decoded->outputs[0], *targets, *mask);
        QVERIFY2(loss, err(loss));
        std::vector<std::int32_t> tokens(batch * time);
        for (std::size_t i = 0; i < tokens.size(); ++i)
            tokens[i] = static_cast<std::int32_t>((i * 7 + i / 3) % vocabulary);
        Tensor oneHot = testing::filled(tf::DT_FLOAT, {batch, time, vocabulary}, [&](std::int64_t i) {
            return tokens[std::size_t(i / vocabulary)] == i % vocabulary ? 1.0 : 0.0;
        });
        const std::vector<std::pair<std::string, Tensor>> feeds = {
            {"inputs:0", oneHot},
            {"targets:0", ints({batch, time}, tokens)},
            {"lengths:0", ints({batch}, {5, 4, 3, 5})},
            {"mask:0", testing::filled(tf::DT_FLOAT, {batch, time}, [](std::int64_t i) {
                 const std::int64_t length[] = {5, 4, 3, 5};
                 return i % 5 < length[i / 5] ? 1.0 : 0.0;
             })}};
        auto losses = trainWithAdam(*m_registries, b, *loss, feeds, 60);
        QVERIFY2(losses, err(losses));
        QVERIFY2(losses->first > 1.5 && losses->second < 0.1 * losses->first,
                 qPrintable(QString("loss %1 -> %2").arg(losses->first).arg(losses->second)));
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3, 4}, "x");
        auto matrix = ops::placeholder(b, tf::DT_INT32, {2, 3}, "m");
        auto vector = ops::placeholder(b, tf::DT_INT32, {2}, "v");
        auto scalar = ops::placeholder(b, tf::DT_INT32, TensorShape::scalar(), "s");
        auto training = TrainingHelper::create(b, *x, *matrix);
        QVERIFY(!training);
        QCOMPARE(training.error().message(),
                 std::string("Expected sequence_length to be a vector, but received shape: [2,3]"));
        auto e = ops::placeholder(b, tf::DT_FLOAT, {5, 4}, "e");
        auto greedy = GreedyEmbeddingHelper::create(b, *e, *matrix, *scalar);
        QVERIFY(!greedy);
        QCOMPARE(greedy.error().message(), std::string("start_tokens must be a vector"));
        greedy = GreedyEmbeddingHelper::create(b, *e, *vector, *vector);
        QVERIFY(!greedy);
        QCOMPARE(greedy.error().message(), std::string("end_token must be a scalar"));

        auto cell = std::make_shared<BasicLSTMCell>(3);
        auto helper = TrainingHelper::create(b, *x, *vector);
        QVERIFY2(helper, err(helper));
        auto zero = cell->zeroState(b, 2, tf::DT_FLOAT);
        auto decoder = BasicDecoder::create(cell, std::shared_ptr<Helper>(std::move(*helper)), *zero);
        QVERIFY2(decoder, err(decoder));
        DynamicDecodeOptions options;
        options.maximumIterations = *vector;
        auto decoded = dynamicDecode(b, **decoder, options);
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().message(), std::string("maximum_iterations must be a scalar"));
        // The state's structure must be the cell's (an LSTM state is a (c, h) tuple).
        auto wrong = BasicDecoder::create(cell, nullptr, RnnState::leaf(*x));
        QVERIFY(!wrong);
    }
};

QTEST_GUILESS_MAIN(TestSeq2SeqDecoder)
#include "test_seq2seq_decoder.moc"
