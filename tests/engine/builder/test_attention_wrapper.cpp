// tf.contrib.seq2seq's AttentionWrapper over BahdanauAttention (plain and normalized) and
// LuongAttention (plain and scaled), decoded with teacher forcing by dynamic_decode: the attention
// outputs, the alignment history and the final cell state against NumPy
// (tools/golden/attention_goldens.py), memory masked beyond its lengths (zero alignments there),
// TensorFlow's variable names, a decoder that trains through attention, and the errors.
#include "builder/lstm_cell.h"
#include "builder/seq2seq_helpers.h"
#include "layers/attention_wrapper.h"
#include "layers/basic_decoder.h"
#include "losses/sequence_loss.h"
#include "rnn_test_support.h"

#include <QtTest>

#include <cmath>
#include <memory>

using namespace tstudio;
using namespace tstudio::nn;
using namespace tstudio::seq2seq;
using namespace tstudio::testing::rnn;
namespace tf = tensorflow;

namespace {

#include "attention_goldens.inc"

constexpr int kB = 2, kT = 4, kIn = 3, kM = 5, kDm = 4, kUnits = 4, kNum = 3, kA = 3;

Tensor ints(const TensorShape& shape, std::vector<std::int32_t> values)
{
    return *Tensor::fromVector<std::int32_t>(testing::gradientTestAllocator(), shape, values);
}

Tensor scalar(double value)
{
    return testing::filled(tf::DT_DOUBLE, TensorShape::scalar(), [=](std::int64_t) { return value; });
}

/// The decoder over an attention-wrapped BasicLSTMCell, teacher forced on "x:0".
struct AttentionDecode {
    std::shared_ptr<AttentionWrapper> wrapper;
    DynamicDecodeResult result;
    Output history;
};

Expected<AttentionDecode> build(GraphBuilder& b, bool luong, bool option)
{
    auto x = ops::placeholder(b, tf::DT_DOUBLE, {kB, kT, kIn}, "x");
    auto memory = ops::placeholder(b, tf::DT_DOUBLE, {kB, kM, kDm}, "memory");
    auto lengths = ops::placeholder(b, tf::DT_INT32, {kB}, "memory_lengths");
    auto steps = ops::placeholder(b, tf::DT_INT32, {kB}, "steps");
    if (!x || !memory || !lengths || !steps)
        return unexpected(internalError("placeholders"));
    AttentionMechanismOptions options;
    options.numUnits = luong ? kUnits : kNum;
    options.memory = *memory;
    options.memorySequenceLength = *lengths;
    std::shared_ptr<AttentionMechanism> mechanism;
    if (luong) {
        auto m = LuongAttention::create(b, options, option);
        if (!m)
            return unexpected(m.error());
        mechanism = *m;
    } else {
        auto m = BahdanauAttention::create(b, options, option);
        if (!m)
            return unexpected(m.error());
        mechanism = *m;
    }
    AttentionWrapperOptions wrapperOptions;
    wrapperOptions.attentionLayerSize = kA;
    wrapperOptions.alignmentHistory = true;
    auto wrapper =
        std::make_shared<AttentionWrapper>(std::make_shared<BasicLSTMCell>(kUnits), mechanism, wrapperOptions);
    auto helper = TrainingHelper::create(b, *x, *steps);
    if (!helper)
        return unexpected(helper.error());
    auto zero = wrapper->zeroState(b, kB, tf::DT_DOUBLE);
    if (!zero)
        return unexpected(zero.error());
    auto decoder = BasicDecoder::create(wrapper, std::shared_ptr<Helper>(std::move(*helper)), *zero);
    if (!decoder)
        return unexpected(decoder.error());
    auto decoded = dynamicDecode(b, **decoder);
    if (!decoded)
        return unexpected(decoded.error());
    auto history = wrapper->alignmentHistory(b, decoded->finalState);
    if (!history)
        return unexpected(history.error());
    return AttentionDecode{wrapper, *decoded, *history};
}

} // namespace

class TestAttentionWrapper : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
    }

    void decodingMatchesNumPy_data()
    {
        QTest::addColumn<bool>("luong");
        QTest::addColumn<bool>("option");
        QTest::newRow("Bahdanau") << false << false;
        QTest::newRow("Bahdanau, normalize") << false << true;
        QTest::newRow("Luong") << true << false;
        QTest::newRow("Luong, scale") << true << true;
    }

    void decodingMatchesNumPy()
    {
        QFETCH(bool, luong);
        QFETCH(bool, option);
        GraphBuilder b(m_registries->ops);
        auto decode = build(b, luong, option);
        QVERIFY2(decode, err(decode));
        const std::string mechanism = luong ? "luong_attention" : "bahdanau_attention";
        const auto shapes = variableShapes(b);
        QCOMPARE(shapes.at("memory_layer/kernel"), (TensorShape{kDm, luong ? kUnits : kNum}));
        QCOMPARE(shapes.at("decoder/attention_wrapper/basic_lstm_cell/kernel"),
                 (TensorShape{kIn + kA + kUnits, 4 * kUnits}));
        QCOMPARE(shapes.at("decoder/attention_wrapper/attention_layer/kernel"), (TensorShape{kUnits + kDm, kA}));
        std::vector<std::pair<std::string, Tensor>> feeds = {
            {"x:0", pattern({kB, kT, kIn}, 0.4, 0.8)},
            {"memory:0", pattern({kB, kM, kDm}, 1.1, 0.9)},
            {"memory_lengths:0", ints({kB}, {5, 3})},
            {"steps:0", ints({kB}, {kT, kT})},
            {"memory_layer/kernel/read:0", pattern({kDm, luong ? kUnits : kNum}, 0.7, 0.6)},
            {"decoder/attention_wrapper/basic_lstm_cell/kernel/read:0",
             pattern({kIn + kA + kUnits, 4 * kUnits}, 2.1, 0.4)},
            {"decoder/attention_wrapper/basic_lstm_cell/bias/read:0", pattern({4 * kUnits}, 2.9, 0.2)},
            {"decoder/attention_wrapper/attention_layer/kernel/read:0", pattern({kUnits + kDm, kA}, 1.9, 0.5)}};
        const std::string prefix = "decoder/attention_wrapper/" + mechanism + "/";
        std::size_t expectedVariables = 4;
        if (!luong) {
            QCOMPARE(shapes.at(prefix + "query_layer/kernel"), (TensorShape{kUnits, kNum}));
            QCOMPARE(shapes.at(prefix + "attention_v"), (TensorShape{kNum}));
            feeds.emplace_back(prefix + "query_layer/kernel/read:0", pattern({kUnits, kNum}, 0.3, 0.7));
            feeds.emplace_back(prefix + "attention_v/read:0", pattern({kNum}, 2.4, 0.8));
            expectedVariables += 2;
            if (option) {
                QCOMPARE(shapes.at(prefix + "attention_g"), TensorShape::scalar());
                QCOMPARE(shapes.at(prefix + "attention_b"), (TensorShape{kNum}));
                feeds.emplace_back(prefix + "attention_g/read:0", scalar(std::sqrt(1.0 / kNum)));
                feeds.emplace_back(prefix + "attention_b/read:0", pattern({kNum}, 0, 0));
                expectedVariables += 2;
            }
        } else if (option) {
            QCOMPARE(shapes.at(prefix + "attention_g"), TensorShape::scalar());
            feeds.emplace_back(prefix + "attention_g/read:0", scalar(1.0));
            expectedVariables += 1;
        }
        QCOMPARE(shapes.size(), expectedVariables);

        bool ok = false;
        auto v =
            fetch(*m_registries, b, feeds,
                  {decode->result.outputs[0], decode->history,
                   AttentionWrapper::cellState(decode->result.finalState).h(), decode->result.finalSequenceLengths},
                  &ok);
        QVERIFY(ok);
        QCOMPARE(v[0].shape(), (TensorShape{kB, kT, kA}));
        QCOMPARE(v[1].shape(), (TensorShape{kT, kB, kM}));
        const double* outputs = luong ? (option ? kLuongScaledOutputs : kLuongOutputs)
                                      : (option ? kBahdanauNormalizedOutputs : kBahdanauOutputs);
        const double* alignments = luong ? (option ? kLuongScaledAlignments : kLuongAlignments)
                                         : (option ? kBahdanauNormalizedAlignments : kBahdanauAlignments);
        const double* h = luong ? (option ? kLuongScaledH : kLuongH) : (option ? kBahdanauNormalizedH : kBahdanauH);
        for (const QString& m : {mismatch(v[0], outputs, kB * kT * kA, "outputs", 1e-12),
                                 mismatch(v[1], alignments, kT * kB * kM, "alignments", 1e-12),
                                 mismatch(v[2], h, kB * kUnits, "h", 1e-12)})
            QVERIFY2(m.isEmpty(), qPrintable(m));
        // The second entry's memory ends at 3: no attention past it.
        for (int t = 0; t < kT; ++t)
            for (int m = 3; m < kM; ++m)
                QCOMPARE(v[1].values<double>()[(t * kB + 1) * kM + m], 0.0);
    }

    void trainsThroughAttention()
    {
        GraphBuilder b(m_registries->ops);
        auto decode = build(b, false, false);
        QVERIFY2(decode, err(decode));
        auto targets = ops::placeholder(b, tf::DT_INT32, {kB, kT}, "targets");
        auto weights = ops::placeholder(b, tf::DT_DOUBLE, {kB, kT}, "weights");
        auto loss = sequenceLoss(b, decode->result.outputs[0], *targets, *weights);
        QVERIFY2(loss, err(loss));
        const std::vector<std::pair<std::string, Tensor>> feeds = {
            {"x:0", pattern({kB, kT, kIn}, 0.4, 0.8)},
            {"memory:0", pattern({kB, kM, kDm}, 1.1, 0.9)},
            {"memory_lengths:0", ints({kB}, {5, 3})},
            {"steps:0", ints({kB}, {kT, kT})},
            {"targets:0", ints({kB, kT}, {0, 1, 2, 1, 2, 0, 1, 2})},
            {"weights:0", testing::filled(tf::DT_DOUBLE, {kB, kT}, [](std::int64_t) { return 1.0; })}};
        auto losses = trainWithAdam(*m_registries, b, *loss, feeds, 80);
        QVERIFY2(losses, err(losses));
        QVERIFY2(losses->second < 0.2 * losses->first,
                 qPrintable(QString("loss %1 -> %2").arg(losses->first).arg(losses->second)));
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        auto memory = ops::placeholder(b, tf::DT_FLOAT, {2, 5, 4}, "memory");
        auto flat = ops::placeholder(b, tf::DT_FLOAT, {2, 4}, "flat");
        AttentionMechanismOptions options;
        options.numUnits = 3;
        options.memory = *flat;
        auto bad = BahdanauAttention::create(b, options);
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("BahdanauAttention: memory flat:0 must be [batch, max_time, depth] "
                                                    "with a known depth, got [2,4]"));
        options.memory = *memory;
        auto luong = LuongAttention::create(b, options);
        QVERIFY2(luong, err(luong));
        auto query = ops::placeholder(b, tf::DT_FLOAT, {2, 5}, "q");
        auto state = ops::placeholder(b, tf::DT_FLOAT, {2, 5}, "s");
        auto alignments = (*luong)->call(b, *query, *state);
        QVERIFY(!alignments);
        QCOMPARE(
            alignments.error().message(),
            std::string(
                "Incompatible or unknown inner dimensions between query and keys.  Query (q:0) has "
                "units: 5.  Keys (LuongAttention/memory_layer/Tensordot:0) have units: 3.  Perhaps you need to set "
                "num_units to the keys' dimension (3)?"));
        auto wrapper = std::make_shared<AttentionWrapper>(std::make_shared<BasicLSTMCell>(3), *luong);
        auto history = wrapper->alignmentHistory(b, RnnState::tuple({}));
        QVERIFY(!history);
        QCOMPARE(history.error().code(), StatusCode::kFailedPrecondition);
    }
};

QTEST_GUILESS_MAIN(TestAttentionWrapper)
#include "test_attention_wrapper.moc"
