// tf.nn.nce_loss and tf.nn.sampled_softmax_loss: values and input gradients against NumPy
// (tools/golden/losses_metrics.py, sampler outputs given as sampled_values), TensorFlow 1.15's
// scopes and ops, the built-in log-uniform sampler, and a small skip-gram model trained with
// nce_loss whose loss falls.
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/variables.h"
#include "loss_test_support.h"
#include "losses/sampled_losses.h"
#include "training/gradient_descent.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::losstest;
namespace tf = tensorflow;

namespace {

Output placeholder(GraphBuilder& b, const TensorShape& shape, const char* name, DataType dtype = tf::DT_FLOAT)
{
    return *ops::placeholder(b, dtype, shape, name);
}

enum class Loss { kNce, kSoftmax };

} // namespace

class TestSampledLosses : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_reg;
    Golden m_golden;

private slots:
    void initTestCase()
    {
        auto reg = makeDefaultRegistries();
        QVERIFY(reg.has_value());
        m_reg = std::move(*reg);
        QVERIFY2(m_golden.load(), "tests/data/golden/losses_metrics.json is missing");
    }

    void againstNumPy_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("loss");
        QTest::addColumn<bool>("removeHits");
        for (const char* c : {"sampled_true1", "sampled_true2"}) {
            QTest::newRow((std::string(c) + " nce").c_str()) << c << "nce" << int(Loss::kNce) << false;
            QTest::newRow((std::string(c) + " nce hits").c_str()) << c << "nce_hits" << int(Loss::kNce) << true;
            QTest::newRow((std::string(c) + " softmax").c_str()) << c << "softmax" << int(Loss::kSoftmax) << true;
            QTest::newRow((std::string(c) + " softmax no hits").c_str())
                << c << "softmax_no_hits" << int(Loss::kSoftmax) << false;
        }
    }

    /// The per-example loss and d(sum of it)/d(inputs), with the sampler's outputs fed.
    void againstNumPy()
    {
        QFETCH(QString, caseName);
        QFETCH(QString, key);
        QFETCH(int, loss);
        QFETCH(bool, removeHits);
        const std::string c = caseName.toStdString();
        const char* cn = c.c_str();
        QVERIFY(m_golden.has(cn));
        GraphBuilder b(m_reg->ops);
        const Output weights = placeholder(b, m_golden.shape(cn, "weights"), "weights");
        const Output biases = placeholder(b, m_golden.shape(cn, "biases"), "biases");
        const Output labels = placeholder(b, m_golden.shape(cn, "labels"), "labels", tf::DT_INT64);
        const Output inputs = placeholder(b, m_golden.shape(cn, "inputs"), "inputs");
        const Output sampled = placeholder(b, m_golden.shape(cn, "sampled"), "sampled", tf::DT_INT64);
        const Output trueQ = placeholder(b, m_golden.shape(cn, "true_expected_count"), "true_q");
        const Output sampledQ = placeholder(b, m_golden.shape(cn, "sampled_expected_count"), "sampled_q");
        nn::SampledLossOptions options;
        options.numTrue = labels.shape().dim(1);
        options.sampledValues = nn::SampledValues{sampled, trueQ, sampledQ};
        options.removeAccidentalHits = removeHits;
        const std::int64_t numSampled = sampled.shape().dim(0);
        auto out = loss == int(Loss::kNce)
                       ? nn::nceLoss(b, {weights}, biases, labels, inputs, numSampled, 10, options)
                       : nn::sampledSoftmaxLoss(b, {weights}, biases, labels, inputs, numSampled, 10, options);
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE(out->shape(), TensorShape({3}));
        auto grads = addSymbolicGradients(b, {*out}, {inputs});
        QVERIFY2(grads && (*grads)[0], grads ? "inputs unconnected" : grads.error().toString().c_str());

        const Feeds feeds{{"weights:0", m_golden.tensor(cn, "weights")},
                          {"biases:0", m_golden.tensor(cn, "biases")},
                          {"labels:0", m_golden.tensor(cn, "labels", tf::DT_INT64)},
                          {"inputs:0", m_golden.tensor(cn, "inputs")},
                          {"sampled:0", m_golden.tensor(cn, "sampled", tf::DT_INT64)},
                          {"true_q:0", m_golden.tensor(cn, "true_expected_count")},
                          {"sampled_q:0", m_golden.tensor(cn, "sampled_expected_count")}};
        Runner run(*m_reg, b);
        QVERIFY2(run.status().isOk(), run.status().toString().c_str());
        const std::string k = key.toStdString();
        LOSS_COMPARE(run.fetch(out->name(), feeds), m_golden.expected(cn, k.c_str()));
        LOSS_COMPARE(run.fetch((*grads)[0]->name(), feeds), m_golden.expected(cn, (k + "_dinputs").c_str()));
    }

    void scopesAndOpsAsTensorFlow()
    {
        GraphBuilder b(m_reg->ops);
        const Output weights = placeholder(b, TensorShape({100, 8}), "weights");
        const Output biases = placeholder(b, TensorShape({100}), "biases");
        const Output labels = placeholder(b, TensorShape({4, 1}), "labels", tf::DT_INT32);
        const Output inputs = placeholder(b, TensorShape({4, 8}), "inputs");
        auto nce = nn::nceLoss(b, {weights}, biases, labels, inputs, 5, 100);
        QVERIFY2(nce, nce ? "" : nce.error().toString().c_str());
        // The sampler draws from the labels cast to int64, inside the loss's scope.
        const tf::NodeDef* sampler = b.findNode("nce_loss/LogUniformCandidateSampler");
        QVERIFY(sampler);
        QCOMPARE(sampler->attr().at("range_max").i(), std::int64_t{100});
        QCOMPARE(sampler->attr().at("num_sampled").i(), std::int64_t{5});
        QVERIFY(sampler->attr().at("unique").b());
        QCOMPARE(sampler->input(0), std::string("nce_loss/Cast"));
        QVERIFY(b.findNode("nce_loss/StopGradient") && b.findNode("nce_loss/StopGradient_2"));
        QVERIFY(b.findNode("nce_loss/embedding_lookup") && b.findNode("nce_loss/embedding_lookup_1"));
        // nce_loss keeps accidental hits by default; the sigmoid loss is outside the scope.
        QVERIFY(!b.findNode("nce_loss/ComputeAccidentalHits"));
        QVERIFY(b.findNode("sampled_losses"));
        QCOMPARE(nce->shape(), TensorShape({4}));

        auto softmax = nn::sampledSoftmaxLoss(b, {weights}, biases, labels, inputs, 5, 100);
        QVERIFY2(softmax, softmax ? "" : softmax.error().toString().c_str());
        QVERIFY(b.findNode("sampled_softmax_loss/ComputeAccidentalHits"));
        QVERIFY(b.findNode("sampled_softmax_loss/sparse_indices"));
        QCOMPARE(b.findNode("labels_stop_gradient")->op(), std::string("StopGradient"));
        QCOMPARE(softmax->shape(), TensorShape({4}));

        // Seeds as tf.get_seed: the graph seed and the op's position.
        b.setRandomSeed(7);
        nn::SampledLossOptions seeded;
        seeded.seed = 3;
        auto again = nn::sampledSoftmaxLoss(b, {weights}, biases, labels, inputs, 5, 100, seeded);
        QVERIFY(again);
        const tf::NodeDef* seededSampler = b.findNode("sampled_softmax_loss_1/LogUniformCandidateSampler");
        QVERIFY(seededSampler);
        QCOMPARE(seededSampler->attr().at("seed").i(), std::int64_t{7});
        QCOMPARE(seededSampler->attr().at("seed2").i(), std::int64_t{3});
    }

    void shardedWeightsGiveTheSameLoss()
    {
        // A table split in two shards ("mod": even ids in shard 0, odd in shard 1) gives the same
        // loss as the whole table.
        const char* cn = "sampled_true1";
        GraphBuilder b(m_reg->ops);
        const std::vector<double> w = m_golden.values(cn, "weights");
        std::vector<double> even, odd;
        for (int row = 0; row < 10; ++row)
            for (int col = 0; col < 4; ++col)
                (row % 2 ? odd : even).push_back(w[static_cast<std::size_t>(row * 4 + col)]);
        const Output whole = *ops::constant(b, w, TensorShape({10, 4}));
        const Output shard0 = *ops::constant(b, even, TensorShape({5, 4}));
        const Output shard1 = *ops::constant(b, odd, TensorShape({5, 4}));
        const Output biases = *ops::constant(b, m_golden.values(cn, "biases"), TensorShape({10}));
        const Output labels = placeholder(b, TensorShape({3, 1}), "labels", tf::DT_INT64);
        const Output inputs = placeholder(b, TensorShape({3, 4}), "inputs");
        const Output sampled = placeholder(b, TensorShape({4}), "sampled", tf::DT_INT64);
        const Output trueQ = placeholder(b, TensorShape({3, 1}), "true_q");
        const Output sampledQ = placeholder(b, TensorShape({4}), "sampled_q");
        nn::SampledLossOptions options;
        options.sampledValues = nn::SampledValues{sampled, trueQ, sampledQ};
        auto one = nn::nceLoss(b, {whole}, biases, labels, inputs, 4, 10, options);
        auto two = nn::nceLoss(b, {shard0, shard1}, biases, labels, inputs, 4, 10, options);
        QVERIFY(one && two);
        const Feeds feeds{{"labels:0", m_golden.tensor(cn, "labels", tf::DT_INT64)},
                          {"inputs:0", m_golden.tensor(cn, "inputs")},
                          {"sampled:0", m_golden.tensor(cn, "sampled", tf::DT_INT64)},
                          {"true_q:0", m_golden.tensor(cn, "true_expected_count")},
                          {"sampled_q:0", m_golden.tensor(cn, "sampled_expected_count")}};
        Runner run(*m_reg, b);
        QVERIFY2(run.status().isOk(), run.status().toString().c_str());
        LOSS_COMPARE(run.fetch(two->name(), feeds), m_golden.expected(cn, "nce"));
        LOSS_COMPARE(run.fetch(one->name(), feeds), m_golden.expected(cn, "nce"));
    }

    void skipGramTrainsWithNce()
    {
        // word2vec's shape: 40 words, each predicting the next one (mod 40); embeddings and NCE
        // weights trained with the built-in sampler (8 negatives). The mean loss must fall well
        // below where it started.
        GraphBuilder b(m_reg->ops);
        b.setRandomSeed(1);
        const std::int64_t vocab = 40, dim = 8, batch = 40;
        auto embeddings = variable(b, *ops::randomUniform(b, TensorShape({vocab, dim}), -1.0, 1.0), "embeddings");
        auto nceWeights =
            variable(b, *ops::truncatedNormal(b, TensorShape({vocab, dim}), 0.0, 1.0 / std::sqrt(double(dim))),
                     "nce_weights");
        auto nceBiases = variable(b, *ops::zeros(b, TensorShape({vocab})), "nce_biases");
        QVERIFY(embeddings && nceWeights && nceBiases);
        const Output centers = placeholder(b, TensorShape({batch}), "centers", tf::DT_INT32);
        const Output contexts = placeholder(b, TensorShape({batch, 1}), "contexts", tf::DT_INT32);
        auto embedded = nn::embeddingLookup(b, embeddings->value(), centers);
        QVERIFY(embedded);
        auto perExample = nn::nceLoss(b, {nceWeights->value()}, nceBiases->value(), contexts, *embedded, 8, vocab);
        QVERIFY2(perExample, perExample ? "" : perExample.error().toString().c_str());
        auto axes = ops::constantInts(b, {0}, TensorShape({1}), tf::DT_INT32, "axes");
        auto loss = py::genOp(b, "Mean", {*perExample, *axes}, {}, "loss");
        QVERIFY(loss);
        training::GradientDescentOptimizer sgd(1.0);
        auto train = sgd.minimize(b, *loss);
        QVERIFY2(train, train ? "" : train.error().toString().c_str());
        auto init = globalVariablesInitializer(b);
        QVERIFY(init);

        CpuAllocator allocator;
        std::vector<std::int32_t> c(batch), n(batch);
        for (std::int32_t i = 0; i < batch; ++i) {
            c[static_cast<std::size_t>(i)] = i;
            n[static_cast<std::size_t>(i)] = (i + 1) % vocab;
        }
        const Feeds feeds{{"centers:0", *Tensor::fromVector(allocator, TensorShape({batch}), c)},
                          {"contexts:0", *Tensor::fromVector(allocator, TensorShape({batch, 1}), n)}};
        Runner run(*m_reg, b);
        QVERIFY2(run.status().isOk(), run.status().toString().c_str());
        QVERIFY(run.runTargets({init->name()}).isOk());
        const std::vector<double> before = run.fetch(loss->name(), feeds);
        QCOMPARE(before.size(), std::size_t{1});
        for (int step = 0; step < 300; ++step)
            QVERIFY(run.runTargets({train->name()}, feeds).isOk());
        double after = 0;
        for (int i = 0; i < 10; ++i)
            after += run.fetch(loss->name(), feeds).at(0) / 10;
        QVERIFY2(std::isfinite(after) && after < 0.5 * before[0],
                 qPrintable(QString("loss %1 -> %2").arg(before[0]).arg(after)));
    }

    void errors()
    {
        GraphBuilder b(m_reg->ops);
        const Output biases = placeholder(b, TensorShape({10}), "biases");
        const Output labels = placeholder(b, TensorShape({3, 1}), "labels", tf::DT_INT64);
        const Output inputs = placeholder(b, TensorShape({3, 4}), "inputs");
        auto none = nn::nceLoss(b, {}, biases, labels, inputs, 2, 10);
        QVERIFY(!none);
        QVERIFY(none.error().message().find("weights") != std::string::npos);
        // Inputs whose width differs from the weights' rows: MatMul's shape error.
        const Output weights = placeholder(b, TensorShape({10, 5}), "weights");
        auto mismatch = nn::sampledSoftmaxLoss(b, {weights}, biases, labels, inputs, 2, 10);
        QVERIFY(!mismatch);
        QVERIFY2(mismatch.error().message().find("Dimensions must be equal") != std::string::npos,
                 mismatch.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestSampledLosses)
#include "test_sampled_losses.moc"
