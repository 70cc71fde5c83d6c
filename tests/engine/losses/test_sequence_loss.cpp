// contrib.seq2seq.sequence_loss and contrib.legacy_seq2seq.sequence_loss(_by_example): every
// reduction against NumPy (tools/golden/losses_metrics.py "sequence_loss"), TensorFlow 1.15's
// scopes, the errors, and the gradient reaching the logits.
#include "autodiff/gradients.h"
#include "builder/array_ops_helpers.h"
#include "builder/ops_sugar.h"
#include "loss_test_support.h"
#include "losses/sequence_loss.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::losstest;
namespace tf = tensorflow;

namespace {

constexpr const char* kCase = "sequence_loss";

Output placeholder(GraphBuilder& b, const TensorShape& shape, const char* name, DataType dtype = tf::DT_FLOAT)
{
    return *ops::placeholder(b, dtype, shape, name);
}

} // namespace

class TestSequenceLoss : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_reg;
    Golden m_golden;

    Feeds feeds() const
    {
        return {{"logits:0", m_golden.tensor(kCase, "logits")},
                {"targets:0", m_golden.tensor(kCase, "targets", tf::DT_INT32)},
                {"weights:0", m_golden.tensor(kCase, "weights")}};
    }

private slots:
    void initTestCase()
    {
        auto reg = makeDefaultRegistries();
        QVERIFY(reg.has_value());
        m_reg = std::move(*reg);
        QVERIFY2(m_golden.load(), "tests/data/golden/losses_metrics.json is missing");
        QVERIFY(m_golden.has(kCase));
    }

    void reductions_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("avgTime");
        QTest::addColumn<bool>("avgBatch");
        QTest::addColumn<bool>("sumTime");
        QTest::addColumn<bool>("sumBatch");
        QTest::addColumn<bool>("unknownShapes");
        for (bool unknown : {false, true}) {
            const QString s = unknown ? " (shapes fed)" : "";
            QTest::newRow(qPrintable("mean" + s)) << "mean" << true << true << false << false << unknown;
            QTest::newRow(qPrintable("sum_sum" + s)) << "sum_sum" << false << false << true << true << unknown;
            QTest::newRow(qPrintable("avg_time" + s)) << "avg_time" << true << false << false << false << unknown;
            QTest::newRow(qPrintable("avg_batch" + s)) << "avg_batch" << false << true << false << false << unknown;
            QTest::newRow(qPrintable("sum_time" + s)) << "sum_time" << false << false << true << false << unknown;
            QTest::newRow(qPrintable("sum_batch" + s)) << "sum_batch" << false << false << false << true << unknown;
            QTest::newRow(qPrintable("none" + s)) << "none" << false << false << false << false << unknown;
        }
    }

    void reductions()
    {
        QFETCH(QString, key);
        QFETCH(bool, avgTime);
        QFETCH(bool, avgBatch);
        QFETCH(bool, sumTime);
        QFETCH(bool, sumBatch);
        QFETCH(bool, unknownShapes);
        GraphBuilder b(m_reg->ops);
        const auto shapeOf = [&](const char* k, int rank) {
            return unknownShapes ? TensorShape(std::vector<std::int64_t>(static_cast<std::size_t>(rank), -1))
                                 : m_golden.shape(kCase, k);
        };
        const Output logits = placeholder(b, shapeOf("logits", 3), "logits");
        const Output targets = placeholder(b, shapeOf("targets", 2), "targets", tf::DT_INT32);
        const Output weights = placeholder(b, shapeOf("weights", 2), "weights");
        auto loss = seq2seq::sequenceLoss(b, logits, targets, weights, {avgTime, avgBatch, sumTime, sumBatch});
        QVERIFY2(loss, loss ? "" : loss.error().toString().c_str());
        Runner run(*m_reg, b);
        QVERIFY2(run.status().isOk(), run.status().toString().c_str());
        const std::string k = key.toStdString();
        LOSS_COMPARE(run.fetch(loss->name(), feeds()), m_golden.expected(kCase, k.c_str()));
        if (key == "mean") {
            QVERIFY(loss->shape().isCompatibleWith(TensorShape::scalar()));
            const std::string xent = "sequence_loss/SparseSoftmaxCrossEntropyWithLogits/";
            QVERIFY(b.findNode(xent + "SparseSoftmaxCrossEntropyWithLogits"));
            QCOMPARE(b.findNode(loss->node())->op(), std::string("DivNoNan"));
            auto grads = addSymbolicGradients(b, {*loss}, {logits});
            QVERIFY(grads && (*grads)[0]);
        }
    }

    void legacyLists()
    {
        // The PTB model's form: one [batch, classes] logits tensor per timestep.
        GraphBuilder b(m_reg->ops);
        const Output logits = placeholder(b, m_golden.shape(kCase, "logits"), "logits");
        const Output targets = placeholder(b, m_golden.shape(kCase, "targets"), "targets", tf::DT_INT32);
        const Output weights = placeholder(b, m_golden.shape(kCase, "weights"), "weights");
        std::vector<Output> logitList, targetList, weightList;
        for (std::int64_t t = 0; t < 3; ++t) {
            auto l = array_ops::slice(b, logits, {std::int64_t{0}, t, std::int64_t{0}},
                                      {std::int64_t{-1}, std::int64_t{1}, std::int64_t{-1}});
            auto tg = array_ops::slice(b, targets, {std::int64_t{0}, t}, {std::int64_t{-1}, std::int64_t{1}});
            auto w = array_ops::slice(b, weights, {std::int64_t{0}, t}, {std::int64_t{-1}, std::int64_t{1}});
            QVERIFY(l && tg && w);
            logitList.push_back(*ops::reshape(b, *l, *ops::shapeTensor(b, TensorShape({2, 5}))));
            targetList.push_back(*tg);
            weightList.push_back(*ops::reshape(b, *w, *ops::shapeTensor(b, TensorShape({2}))));
        }
        auto byExample = legacy_seq2seq::sequenceLossByExample(b, logitList, targetList, weightList);
        auto byExampleSum = legacy_seq2seq::sequenceLossByExample(b, logitList, targetList, weightList, false);
        auto total = legacy_seq2seq::sequenceLoss(b, logitList, targetList, weightList);
        auto totalNoBatch = legacy_seq2seq::sequenceLoss(b, logitList, targetList, weightList, true, false);
        QVERIFY2(byExample && byExampleSum && total && totalNoBatch,
                 byExample ? "" : byExample.error().toString().c_str());
        QVERIFY(b.findNode("sequence_loss_by_example/AddN"));
        QVERIFY(b.findNode("sequence_loss/sequence_loss_by_example/truediv"));
        Runner run(*m_reg, b);
        QVERIFY2(run.status().isOk(), run.status().toString().c_str());
        LOSS_COMPARE(run.fetch(byExample->name(), feeds()), m_golden.expected(kCase, "by_example"));
        LOSS_COMPARE(run.fetch(byExampleSum->name(), feeds()), m_golden.expected(kCase, "by_example_sum"));
        LOSS_COMPARE(run.fetch(total->name(), feeds()), m_golden.expected(kCase, "legacy"));
        LOSS_COMPARE(run.fetch(totalNoBatch->name(), feeds()), m_golden.expected(kCase, "legacy_no_batch_avg"));
    }

    void errorsAsTensorFlow()
    {
        GraphBuilder b(m_reg->ops);
        const Output logits3 = placeholder(b, TensorShape({2, 3, 5}), "logits");
        const Output logits2 = placeholder(b, TensorShape({2, 5}), "flat");
        const Output targets = placeholder(b, TensorShape({2, 3}), "targets", tf::DT_INT32);
        const Output weights = placeholder(b, TensorShape({2, 3}), "weights");
        const Output weights1 = placeholder(b, TensorShape({6}), "weights1");
        const auto message = [](const Expected<Output>& e) { return e ? std::string() : e.error().message(); };
        QCOMPARE(message(seq2seq::sequenceLoss(b, logits2, targets, weights)),
                 std::string("Logits must be a [batch_size x sequence_length x logits] tensor"));
        QCOMPARE(message(seq2seq::sequenceLoss(b, logits3, weights1, weights)),
                 std::string("Targets must be a [batch_size x sequence_length] tensor"));
        QCOMPARE(message(seq2seq::sequenceLoss(b, logits3, targets, weights1)),
                 std::string("Weights must be a [batch_size x sequence_length] tensor"));
        QCOMPARE(message(seq2seq::sequenceLoss(b, logits3, targets, weights, {true, false, true, false})),
                 std::string("average_across_timesteps and sum_over_timesteps cannot be set to True at same time."));
        QCOMPARE(message(seq2seq::sequenceLoss(b, logits3, targets, weights, {false, true, false, true})),
                 std::string("average_across_batch and sum_over_batch cannot be set to True at same time."));
        QCOMPARE(message(legacy_seq2seq::sequenceLossByExample(b, {logits2, logits2, logits2}, {targets, targets},
                                                               {weights, weights, weights})),
                 std::string("Lengths of logits, weights, and targets must be the same 3, 3, 2."));
    }
};

QTEST_GUILESS_MAIN(TestSequenceLoss)
#include "test_sequence_loss.moc"
