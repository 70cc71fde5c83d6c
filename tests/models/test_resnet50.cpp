// ResNet-50 as the examples build it (what `tstudio bench resnet50` trains for docs/scaling.md): its
// layer counts, parameter count and output shape as the published network, and a training step
// that learns on one batch the test makes.
#include "classifier_training.h"
#include "layer_networks.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QTest>

#include <cmath>
#include <map>
#include <random>

using namespace tstudio;
using namespace tstudio::examples;

class TestResNet50 : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void layersAndParameters()
    {
        auto graph = buildResNet50(m_registries->ops);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        // 25,557,032: the published ResNet-50's trainable parameters (convolutions without biases,
        // batch norm's gamma and beta, the 2048 x 1000 classifier with its bias).
        QCOMPARE(graph->trainableParameters, std::int64_t{25557032});
        std::map<std::string, int> forwardOps;
        for (const auto& node : graph->graph.node())
            if (node.name().rfind("gradients/", 0) != 0)
                ++forwardOps[node.op()];
        // 1 stem + 16 blocks x 3 + 4 projection shortcuts; one batch norm each; 1 max pool.
        QCOMPARE(forwardOps["Conv2D"], 53);
        QCOMPARE(forwardOps["FusedBatchNorm"] + forwardOps["FusedBatchNormV3"], 53);
        QCOMPARE(forwardOps["MaxPool"], 1);
    }

    void aStepLearnsOnOneBatch()
    {
        LayerNetworkOptions options;
        options.learningRate = 0.001;
        auto graph = buildResNet50(m_registries->ops, options);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        auto session = startClassifierSession(*graph, *m_registries, 0);
        QVERIFY2(session, session ? "" : session.error().toString().c_str());
        CpuAllocator allocator;
        constexpr std::int64_t kBatch = 2;
        auto images = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({kBatch, 224 * 224 * 3}));
        auto labels = Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({kBatch}));
        QVERIFY(images && labels);
        std::mt19937 random(7);
        std::uniform_real_distribution<float> unit(0.0f, 1.0f);
        for (float& v : images->values<float>())
            v = unit(random);
        labels->values<std::int64_t>()[0] = 3;
        labels->values<std::int64_t>()[1] = 917;
        const std::vector<std::pair<std::string, Tensor>> feeds = {{graph->inputs, *images}, {graph->labels, *labels}};
        std::vector<float> losses;
        for (int step = 0; step < 3; ++step) {
            std::vector<Tensor> out;
            Status s = (*session)->run(feeds, {graph->loss}, {graph->train}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            losses.push_back(out.at(0).values<float>()[0]);
            QVERIFY2(std::isfinite(losses.back()), "the loss is not finite");
        }
        qInfo("losses over three steps on one batch: %.4f %.4f %.4f", losses[0], losses[1], losses[2]);
        // Near ln(1000) at the start; SGD on the same batch lowers it.
        QVERIFY2(losses[0] > 4.0f && losses[0] < 12.0f, std::to_string(losses[0]).c_str());
        QVERIFY2(losses[2] < losses[0], (std::to_string(losses[0]) + " -> " + std::to_string(losses[2])).c_str());
    }
};

QTEST_GUILESS_MAIN(TestResNet50)
#include "test_resnet50.moc"
