// Tests for bidirectional_dynamic_rnn (builder/rnn.h): a forward and a backward BasicLSTMCell over ragged
// sequences, in both time layouts, against NumPy (tools/golden/bidirectional_rnn_goldens.py); the whole
// time axis reversed without lengths; the gradient w.r.t. the inputs by central differences; TensorFlow
// 1.15's variable and node names; and the errors.
#include "autodiff/gradients.h"
#include "builder/lstm_cell.h"
#include "builder/ops_sugar.h"
#include "builder/rnn.h"
#include "builder/variables.h"
#include "rnn_test_support.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace tstudio;
using namespace tstudio::nn;
using testing::runGraph;
using testing::rnn::err;
using testing::rnn::pattern;
using testing::rnn::variableShapes;
namespace tf = tensorflow;

namespace {

#include "bidirectional_rnn_goldens.inc"

constexpr std::int64_t kB = 4, kT = 5, kD = 3, kU = 4;
const std::vector<std::int64_t> kLengths{5, 3, 1, 0};

/// [d0, d1, rest] -> [d1, d0, rest].
Tensor swapFirstAxes(const Tensor& t)
{
    const std::int64_t d0 = t.shape().dim(0), d1 = t.shape().dim(1), rest = t.numElements() / (d0 * d1);
    Tensor out = pattern(TensorShape{d1, d0, rest}, 0.0, 0.0);
    for (std::int64_t i = 0; i < d0; ++i)
        for (std::int64_t j = 0; j < d1; ++j)
            for (std::int64_t k = 0; k < rest; ++k)
                out.values<double>()[(j * d0 + i) * rest + k] = t.values<double>()[(i * d1 + j) * rest + k];
    return out;
}

/// The kernels and biases of both directions, fed through their "read" tensors (no initializer runs).
std::vector<std::pair<std::string, Tensor>> cellFeeds(const std::string& scope = "bidirectional_rnn")
{
    return {{scope + "/fw/basic_lstm_cell/kernel/read:0", pattern({kD + kU, 4 * kU}, 2.1, 0.4)},
            {scope + "/fw/basic_lstm_cell/bias/read:0", pattern({4 * kU}, 2.9, 0.2)},
            {scope + "/bw/basic_lstm_cell/kernel/read:0", pattern({kD + kU, 4 * kU}, 4.3, 0.5)},
            {scope + "/bw/basic_lstm_cell/bias/read:0", pattern({4 * kU}, 5.1, 0.3)}};
}

} // namespace

class TestBidirectionalRnn : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    std::vector<Tensor> run(const GraphBuilder& b, const std::vector<std::pair<std::string, Tensor>>& feeds,
                            const std::vector<Output>& fetches, bool* ok)
    {
        return testing::rnn::fetch(*m_registries, b, feeds, fetches, ok);
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
    }

    void raggedMatchesNumPy_data()
    {
        QTest::addColumn<bool>("timeMajor");
        QTest::addColumn<int>("lengthType");
        QTest::newRow("batch-major, int32 lengths") << false << int(tf::DT_INT32);
        QTest::newRow("time-major, int64 lengths") << true << int(tf::DT_INT64);
    }

    /// Batch 4 with lengths 5, 3, 1, 0: the forward outputs as dynamic_rnn's, the backward ones those of
    /// an LSTM over each example's first `length` steps reversed, put back in input order; zeros past
    /// each length; both final states. TensorFlow's scopes and the ReverseSequence nodes.
    void raggedMatchesNumPy()
    {
        QFETCH(bool, timeMajor);
        QFETCH(int, lengthType);
        GraphBuilder b(m_registries->ops);
        const TensorShape inShape = timeMajor ? TensorShape{kT, kB, kD} : TensorShape{kB, kT, kD};
        auto x = ops::placeholder(b, tf::DT_DOUBLE, inShape, "x");
        auto lengths = ops::placeholder(b, DataType(lengthType), {kB}, "lengths");
        BasicLSTMCell fwCell(kU);
        BasicLSTMCell bwCell(kU);
        BidirectionalRnnOptions options;
        options.dtype = tf::DT_DOUBLE;
        options.sequenceLength = *lengths;
        options.timeMajor = timeMajor;
        auto result = bidirectionalDynamicRnn(b, fwCell, bwCell, *x, options);
        QVERIFY2(result, err(result));
        const TensorShape outShape = timeMajor ? TensorShape{kT, kB, kU} : TensorShape{kB, kT, kU};
        QCOMPARE(result->outputsFw.shape(), outShape);
        QCOMPARE(result->outputsBw.shape(), outShape);
        QVERIFY(result->stateFw.isLstmStateTuple() && result->stateBw.isLstmStateTuple());

        const std::map<std::string, TensorShape> expectedVariables{
            {"bidirectional_rnn/fw/basic_lstm_cell/kernel", {kD + kU, 4 * kU}},
            {"bidirectional_rnn/fw/basic_lstm_cell/bias", {4 * kU}},
            {"bidirectional_rnn/bw/basic_lstm_cell/kernel", {kD + kU, 4 * kU}},
            {"bidirectional_rnn/bw/basic_lstm_cell/bias", {4 * kU}}};
        QCOMPARE(variableShapes(b), expectedVariables);
        // dynamic_rnn(scope=fw_scope) re-enters the variable scope: its ops are under ".../fw/fw/".
        QVERIFY(b.findNode("bidirectional_rnn/fw/fw/while/basic_lstm_cell/MatMul") != nullptr);
        QVERIFY(b.findNode("bidirectional_rnn/bw/bw/while/basic_lstm_cell/MatMul") != nullptr);
        const tf::NodeDef* inReverse = b.findNode("bidirectional_rnn/bw/ReverseSequence");
        QVERIFY(inReverse != nullptr);
        QCOMPARE(inReverse->op(), std::string("ReverseSequence"));
        QCOMPARE(inReverse->input(0), std::string("x"));
        QCOMPARE(inReverse->input(1), std::string("lengths"));
        QCOMPARE(inReverse->attr().at("seq_dim").i(), std::int64_t(timeMajor ? 0 : 1));
        QCOMPARE(inReverse->attr().at("batch_dim").i(), std::int64_t(timeMajor ? 1 : 0));
        QCOMPARE(inReverse->attr().at("Tlen").type(), DataType(lengthType));
        // The backward outputs are reversed back outside the scope.
        QCOMPARE(result->outputsBw.node(), std::string("ReverseSequence"));
        QVERIFY(b.findNode("ReverseSequence")->input(0).rfind("bidirectional_rnn/bw/bw/", 0) == 0);

        const Tensor batchMajor = pattern({kB, kT, kD}, 0.4, 0.8);
        Tensor lengthTensor =
            lengthType == tf::DT_INT32
                ? *Tensor::fromVector<std::int32_t>(testing::gradientTestAllocator(), {kB}, {5, 3, 1, 0})
                : *Tensor::fromVector<std::int64_t>(testing::gradientTestAllocator(), {kB}, kLengths);
        auto feeds = cellFeeds();
        feeds.push_back({"x:0", timeMajor ? swapFirstAxes(batchMajor) : batchMajor});
        feeds.push_back({"lengths:0", lengthTensor});
        bool ok = false;
        auto v = run(b, feeds,
                     {result->outputsFw, result->outputsBw, result->stateFw.c(), result->stateFw.h(),
                      result->stateBw.c(), result->stateBw.h()},
                     &ok);
        QVERIFY(ok);
        // The goldens are time-major.
        const Tensor fw = timeMajor ? v[0] : swapFirstAxes(v[0]);
        const Tensor bw = timeMajor ? v[1] : swapFirstAxes(v[1]);
        CHECK_GOLDEN_WITHIN(fw, kBiFwOutputsTimeMajor, 1e-12);
        CHECK_GOLDEN_WITHIN(bw, kBiBwOutputsTimeMajor, 1e-12);
        CHECK_GOLDEN_WITHIN(v[2], kBiFwC, 1e-12);
        CHECK_GOLDEN_WITHIN(v[3], kBiFwH, 1e-12);
        CHECK_GOLDEN_WITHIN(v[4], kBiBwC, 1e-12);
        CHECK_GOLDEN_WITHIN(v[5], kBiBwH, 1e-12);
        for (std::int64_t t = 0; t < kT; ++t)
            for (std::int64_t r = 0; r < kB; ++r)
                for (std::int64_t u = 0; u < kU; ++u) {
                    const auto at = static_cast<std::size_t>((t * kB + r) * kU + u);
                    if (t >= kLengths[static_cast<std::size_t>(r)]) {
                        QCOMPARE(fw.values<double>()[at], 0.0);
                        QCOMPARE(bw.values<double>()[at], 0.0);
                    }
                }
        // The backward direction's first output of an example of length n is its last step's
        // output over the reversed sequence: it differs from the forward one.
        QVERIFY(std::abs(bw.values<double>()[0] - fw.values<double>()[0]) > 1e-3);
    }

    /// Without sequence_length, time-major: ReverseV2 of the time axis on the way in and out.
    void wholeSequencesWithoutLengths()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {kT, 2, kD}, "x");
        BasicLSTMCell fwCell(kU);
        BasicLSTMCell bwCell(kU);
        BidirectionalRnnOptions options;
        options.dtype = tf::DT_DOUBLE;
        options.timeMajor = true;
        options.scope = "birnn";
        auto result = bidirectionalDynamicRnn(b, fwCell, bwCell, *x, options);
        QVERIFY2(result, err(result));
        QCOMPARE(testing::opOf(b, "birnn/bw/ReverseV2"), std::string("ReverseV2"));
        QCOMPARE(testing::inputsOf(b, "birnn/bw/ReverseV2"),
                 (std::vector<std::string>{"x", "birnn/bw/ReverseV2/axis"}));
        QCOMPARE(result->outputsBw.node(), std::string("ReverseV2"));
        QCOMPARE(result->outputsBw.shape(), (TensorShape{kT, 2, kU}));
        QVERIFY(b.findNode("birnn/fw/basic_lstm_cell/kernel") != nullptr);
        QVERIFY(b.findNode("ReverseSequence") == nullptr);
        auto feeds = cellFeeds("birnn");
        feeds.push_back({"x:0", pattern({kT, 2, kD}, 1.7, 0.6)});
        bool ok = false;
        auto v = run(
            b, feeds,
            {result->outputsFw, result->stateFw.h(), result->outputsBw, result->stateBw.c(), result->stateBw.h()}, &ok);
        QVERIFY(ok);
        CHECK_GOLDEN_WITHIN(v[0], kBiNoLengthFw, 1e-12);
        CHECK_GOLDEN_WITHIN(v[1], kBiNoLengthFwH, 1e-12);
        CHECK_GOLDEN_WITHIN(v[2], kBiNoLengthBw, 1e-12);
        CHECK_GOLDEN_WITHIN(v[3], kBiNoLengthBwC, 1e-12);
        CHECK_GOLDEN_WITHIN(v[4], kBiNoLengthBwH, 1e-12);
    }

    /// d loss / d x through both loops, ReverseSequence on the way in and out, against central
    /// differences (float64, step 1e-6); loss = sum(out_fw G1) + sum(out_bw G2) + sum(h_bw G3).
    void gradientByFiniteDifferences()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {kB, kT, kD}, "x");
        auto lengths = ops::constantInts(b, {4, 2, 5, 0}, TensorShape{kB}, tf::DT_INT64, "lengths");
        BasicLSTMCell fwCell(kU);
        BasicLSTMCell bwCell(kU);
        BidirectionalRnnOptions options;
        options.dtype = tf::DT_DOUBLE;
        options.sequenceLength = *lengths;
        auto result = bidirectionalDynamicRnn(b, fwCell, bwCell, *x, options);
        QVERIFY2(result, err(result));
        auto weighted = [&](const Output& t, double seed) -> Expected<Output> {
            std::vector<double> w(static_cast<std::size_t>(*t.shape().numElements()));
            for (std::size_t i = 0; i < w.size(); ++i)
                w[i] = std::sin(0.7 * double(i) + seed);
            TSTUDIO_TRY(g, ops::constant(b, w, t.shape(), tf::DT_DOUBLE));
            TSTUDIO_TRY(p, ops::mul(b, t, g));
            std::vector<std::int64_t> axes;
            for (int d = 0; d < t.shape().rank(); ++d)
                axes.push_back(d);
            TSTUDIO_TRY(a, ops::constantInts(b, axes, TensorShape{std::int64_t(axes.size())}));
            return ops::sum(b, p, a);
        };
        auto l1 = weighted(result->outputsFw, 0.3);
        auto l2 = weighted(result->outputsBw, 1.1);
        auto l3 = weighted(result->stateBw.h(), 2.3);
        QVERIFY2(l1 && l2 && l3, "loss terms");
        auto l12 = ops::add(b, *l1, *l2);
        auto loss = ops::add(b, *l12, *l3, "loss");
        QVERIFY2(loss, err(loss));
        auto grads = addSymbolicGradients(b, {*loss}, {*x});
        QVERIFY2(grads, err(grads));
        QVERIFY(b.findNode("gradients/bidirectional_rnn/bw/ReverseSequence_grad/ReverseSequence") != nullptr);
        QVERIFY(b.findNode("gradients/ReverseSequence_grad/ReverseSequence") != nullptr);

        const Tensor xv = pattern({kB, kT, kD}, 0.4, 0.8);
        auto evaluate = [&](const Tensor& xs, const std::string& fetch) {
            auto feeds = cellFeeds();
            feeds.push_back({"x:0", xs});
            return runGraph(*m_registries, b, feeds, {fetch});
        };
        auto symbolic = evaluate(xv, (*grads)[0]->name());
        QVERIFY2(symbolic, err(symbolic));
        const double eps = 1e-6;
        double worst = 0.0;
        for (std::int64_t i = 0; i < xv.numElements(); ++i) {
            Tensor plus = pattern(xv.shape(), 0.4, 0.8);
            Tensor minus = pattern(xv.shape(), 0.4, 0.8);
            plus.values<double>()[i] += eps;
            minus.values<double>()[i] -= eps;
            auto fp = evaluate(plus, loss->name());
            auto fm = evaluate(minus, loss->name());
            QVERIFY2(fp && fm, err(fp));
            const double numerical = (fp->at(0).values<double>()[0] - fm->at(0).values<double>()[0]) / (2 * eps);
            const double theoretical = symbolic->at(0).values<double>()[i];
            worst = std::max(worst, std::abs(numerical - theoretical));
            QVERIFY2(std::abs(numerical - theoretical) <= 1e-6 + 1e-5 * std::abs(numerical),
                     qPrintable(QString("d loss / d x[%1]: symbolic %2, numerical %3")
                                    .arg(i)
                                    .arg(theoretical, 0, 'g', 12)
                                    .arg(numerical, 0, 'g', 12)));
        }
        // Steps at and past an example's length never reach the loss.
        for (std::int64_t r = 0; r < kB; ++r) {
            const std::int64_t n = std::vector<std::int64_t>{4, 2, 5, 0}[static_cast<std::size_t>(r)];
            for (std::int64_t t = n; t < kT; ++t)
                for (std::int64_t d = 0; d < kD; ++d)
                    QCOMPARE(symbolic->at(0).values<double>()[(r * kT + t) * kD + d], 0.0);
        }
        qInfo("bidirectional_dynamic_rnn gradient: worst |symbolic - numerical| = %.3g", worst);
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 5, 3}, "x");
        BasicLSTMCell fwCell(kU);
        BasicLSTMCell bwCell(kU);
        BidirectionalRnnOptions options;
        options.dtype = tf::DT_FLOAT;
        auto same = bidirectionalDynamicRnn(b, fwCell, fwCell, *x, options);
        QVERIFY(!same);
        QVERIFY2(same.error().message().find("must be different cell objects") != std::string::npos, err(same));

        auto floatLengths = ops::placeholder(b, tf::DT_FLOAT, {2}, "float_lengths");
        options.sequenceLength = *floatLengths;
        auto badLengths = bidirectionalDynamicRnn(b, fwCell, bwCell, *x, options);
        QVERIFY(!badLengths);
        QVERIFY2(badLengths.error().message().find("sequence_length must be an int32 or int64 vector") !=
                     std::string::npos,
                 err(badLengths));

        auto matrix = ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "matrix");
        BidirectionalRnnOptions plain;
        plain.dtype = tf::DT_FLOAT;
        auto lowRank = bidirectionalDynamicRnn(b, fwCell, bwCell, *matrix, plain);
        QVERIFY(!lowRank);
        QVERIFY2(lowRank.error().message().find("must have rank at least 3") != std::string::npos, err(lowRank));

        BidirectionalRnnOptions noDtype;
        auto missing = bidirectionalDynamicRnn(b, fwCell, bwCell, *x, noDtype);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message().find("you must give a dtype") != std::string::npos, err(missing));
    }
};

QTEST_GUILESS_MAIN(TestBidirectionalRnn)
#include "test_bidirectional_rnn.moc"
