// The NCELoss, SampledSoftmaxLoss and SequenceLoss nodes: their catalogue entries, the output layer the
// sampled losses make (names, shapes), that an Embedding followed by either learns a mapping of ids to
// classes (the full logits of the trained layer then rank the right class first), SequenceLoss against
// its formula computed here, and the errors of bad ports and params.
#include "layer_test_support.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layers/layer_catalog.h"
#include "layers/sampled_loss_nodes.h"
#include "training/gradient_descent.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace tstudio;
using namespace tstudio::layers;
using tstudio::testing::hasVariable;
namespace tf = tensorflow;

class TestSampledLossNodes : public QObject {
    Q_OBJECT
private:
    const Registries* m_registries = nullptr;

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries != nullptr);
    }

    void catalogueListsThemWithTheLosses()
    {
        const auto& catalog = layerCatalog();
        const auto at = [&](const char* type) {
            return std::find_if(catalog.begin(), catalog.end(), [&](const LayerType& t) { return t.type == type; });
        };
        QVERIFY(at("NCELoss") != catalog.end() && at("SequenceLoss") != catalog.end());
        QCOMPARE(at("NCELoss") - at("MeanSquaredError"), 1);
        QCOMPARE(at("SampledSoftmaxLoss") - at("MeanSquaredError"), 2);
        QCOMPARE(at("SequenceLoss") - at("MeanSquaredError"), 3);
        QCOMPARE(at("NCELoss")->category, std::string("Losses"));
        QCOMPARE(at("NCELoss")->inputNames, (std::vector<std::string>{"inputs", "labels"}));
        QCOMPARE(at("SequenceLoss")->inputNames, (std::vector<std::string>{"logits", "targets", "weights"}));
        // TensorFlow's defaults: accidental hits kept by nce_loss, removed by sampled_softmax_loss.
        QVERIFY(!paramOrDefault(*at("NCELoss"), {}, "remove_accidental_hits").b());
        QVERIFY(paramOrDefault(*at("SampledSoftmaxLoss"), {}, "remove_accidental_hits").b());
        QVERIFY(isSampledLossType("NCELoss") && !isSampledLossType("MeanSquaredError"));
    }

    void embeddingAndASampledLossLearnAMapping_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("scope");
        QTest::newRow("nce") << "NCELoss"
                             << "nce";
        QTest::newRow("sampled softmax") << "SampledSoftmaxLoss"
                                         << "sampled_softmax";
    }

    /// Ids 0..19 map to class (3 id + 1) mod 20; 5 of 20 classes sampled a step.
    void embeddingAndASampledLossLearnAMapping()
    {
        QFETCH(QString, type);
        QFETCH(QString, scope);
        constexpr std::int64_t kClasses = 20, kDim = 8;
        GraphBuilder b(m_registries->ops);
        b.setRandomSeed(7);
        auto ids = ops::placeholder(b, tf::DT_INT32, TensorShape{-1}, "ids");
        auto labels = ops::placeholder(b, tf::DT_INT64, TensorShape{-1, 1}, "labels");
        QVERIFY(ids && labels);
        auto embedded =
            expandLayer(b, "Embedding", "", {{"vocab_size", attr::i(kClasses)}, {"dim", attr::i(kDim)}}, {*ids});
        QVERIFY(embedded);
        auto loss =
            expandLayer(b, type.toStdString(), "", {{"num_classes", attr::i(kClasses)}, {"num_sampled", attr::i(5)}},
                        {embedded->front(), *labels});
        QVERIFY2(loss, loss ? "" : loss.error().toString().c_str());
        QVERIFY(loss->front().shape().rank() == 0 || loss->front().shape().isUnknownRank()); // a scalar mean
        const std::string weights = scope.toStdString() + "/weights";
        QVERIFY(hasVariable(b, weights, TensorShape{kClasses, kDim}));
        QVERIFY(hasVariable(b, scope.toStdString() + "/biases", TensorShape{kClasses}));
        training::GradientDescentOptimizer sgd(1.0);
        auto train = sgd.minimize(b, loss->front());
        QVERIFY2(train, train ? "" : train.error().toString().c_str());
        QVERIFY(globalVariablesInitializer(b));
        auto session = testing::layerSession(*m_registries, b);
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        std::vector<std::int32_t> idList;
        std::vector<std::int64_t> labelList;
        for (std::int32_t i = 0; i < kClasses; ++i) {
            idList.push_back(i);
            labelList.push_back((3 * i + 1) % kClasses);
        }
        const Tensor idValues = *Tensor::fromVector(testing::layerTestAllocator(), TensorShape{kClasses}, idList);
        const Tensor labelValues =
            *Tensor::fromVector(testing::layerTestAllocator(), TensorShape{kClasses, 1}, labelList);
        double first = 0, last = 0;
        for (int step = 0; step < 400; ++step) {
            const Status s = session->run({{"ids", idValues}, {"labels", labelValues}}, {loss->front().name()},
                                          {train->name()}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            const double value = out[0].values<float>()[0];
            QVERIFY(std::isfinite(value));
            if (step < 20)
                first += value / 20;
            if (step >= 380)
                last += value / 20;
        }
        qInfo("%s: mean loss of the first 20 steps %.4f, of the last 20 %.4f", qPrintable(type), first, last);
        QVERIFY(last < 0.5 * first);
        // The trained output layer ranks each id's class first among all 20 (full logits).
        QVERIFY(
            session->run({}, {"embedding/embeddings:0", weights + ":0", scope.toStdString() + "/biases:0"}, {}, &out)
                .isOk());
        const auto table = out[0].values<float>(), w = out[1].values<float>(), bias = out[2].values<float>();
        int right = 0;
        for (std::int64_t i = 0; i < kClasses; ++i) {
            std::int64_t best = 0;
            double bestLogit = -1e30;
            for (std::int64_t c = 0; c < kClasses; ++c) {
                double logit = bias[static_cast<std::size_t>(c)];
                for (std::int64_t d = 0; d < kDim; ++d)
                    logit += double(table[static_cast<std::size_t>(i * kDim + d)]) *
                             w[static_cast<std::size_t>(c * kDim + d)];
                if (logit > bestLogit) {
                    bestLogit = logit;
                    best = c;
                }
            }
            right += best == labelList[static_cast<std::size_t>(i)];
        }
        QVERIFY2(right >= 18, std::to_string(right).c_str());
    }

    /// sum over positions of weight x (logsumexp(logits) - logit of the target), divided by the
    /// weights' sum (both averages, TensorFlow's default).
    void sequenceLossIsTheWeightedMeanCrossEntropy()
    {
        constexpr int kBatch = 2, kTime = 3, kClasses = 4;
        std::vector<float> logits(kBatch * kTime * kClasses);
        for (std::size_t i = 0; i < logits.size(); ++i)
            logits[i] = static_cast<float>(std::sin(0.7 * static_cast<double>(i)) * 2.0);
        const std::vector<std::int32_t> targets{0, 3, 1, 2, 2, 0};
        const std::vector<float> weights{1, 1, 0, 1, 0.5f, 0};
        GraphBuilder b(m_registries->ops);
        auto l = ops::placeholder(b, tf::DT_FLOAT, TensorShape{kBatch, kTime, kClasses}, "logits");
        auto t = ops::placeholder(b, tf::DT_INT32, TensorShape{kBatch, kTime}, "targets");
        auto w = ops::placeholder(b, tf::DT_FLOAT, TensorShape{kBatch, kTime}, "weights");
        QVERIFY(l && t && w);
        auto loss = expandLayer(b, "SequenceLoss", "", {}, {*l, *t, *w});
        QVERIFY2(loss, loss ? "" : loss.error().toString().c_str());
        auto session = testing::layerSession(*m_registries, b);
        std::vector<Tensor> out;
        CpuAllocator& a = testing::layerTestAllocator();
        const Status s = session->run({{"logits", *Tensor::fromVector(a, TensorShape{kBatch, kTime, kClasses}, logits)},
                                       {"targets", *Tensor::fromVector(a, TensorShape{kBatch, kTime}, targets)},
                                       {"weights", *Tensor::fromVector(a, TensorShape{kBatch, kTime}, weights)}},
                                      {loss->front().name()}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        double sum = 0, weightSum = 0;
        for (int p = 0; p < kBatch * kTime; ++p) {
            double top = -1e30, z = 0;
            for (int c = 0; c < kClasses; ++c)
                top = std::max(top, double(logits[static_cast<std::size_t>(p * kClasses + c)]));
            for (int c = 0; c < kClasses; ++c)
                z += std::exp(double(logits[static_cast<std::size_t>(p * kClasses + c)]) - top);
            const double ce =
                top + std::log(z) -
                double(logits[static_cast<std::size_t>(p * kClasses + targets[static_cast<std::size_t>(p)])]);
            sum += weights[static_cast<std::size_t>(p)] * ce;
            weightSum += weights[static_cast<std::size_t>(p)];
        }
        QVERIFY2(std::abs(out[0].values<float>()[0] - sum / weightSum) < 1e-5,
                 (std::to_string(out[0].values<float>()[0]) + " against " + std::to_string(sum / weightSum)).c_str());
    }

    void badPortsAndParamsAreNamed()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 8}, "x");
        auto ids = ops::placeholder(b, tf::DT_INT64, TensorShape{-1}, "ids");
        auto labels = ops::placeholder(b, tf::DT_INT64, TensorShape{-1, 1}, "labels");
        QVERIFY(x && ids && labels);
        auto flatLabels = expandLayer(b, "NCELoss", "", {}, {*x, *ids});
        QVERIFY(!flatLabels);
        QVERIFY2(flatLabels.error().message().find("port 'labels' takes integer class ids [batch, num_true = 1]; got "
                                                   "int64 [?]") != std::string::npos,
                 flatLabels.error().message().c_str());
        auto intInputs = expandLayer(b, "SampledSoftmaxLoss", "", {}, {*ids, *labels});
        QVERIFY(!intInputs);
        QVERIFY2(intInputs.error().message().find("port 'inputs' takes a floating [batch, dim]") != std::string::npos,
                 intInputs.error().message().c_str());
        auto tooMany =
            expandLayer(b, "NCELoss", "", {{"num_classes", attr::i(10)}, {"num_sampled", attr::i(10)}}, {*x, *labels});
        QVERIFY(!tooMany);
        QVERIFY2(tooMany.error().message().find("param 'num_sampled' must be in [1, num_classes = 10); got 10") !=
                     std::string::npos,
                 tooMany.error().message().c_str());
        auto both = expandLayer(b, "SequenceLoss", "", {{"sum_over_batch", attr::b(true)}}, {*x, *ids, *x});
        QVERIFY(!both);
    }
};

QTEST_GUILESS_MAIN(TestSampledLossNodes)
#include "test_sampled_loss_nodes.moc"
