// LeNet-5 as the examples build it with tf.layers: its layers, names and shapes, and a short
// training run on MNIST that learns (the full run is `tstudio train lenet`).
#include "../support/gpu_test_gate.h"
#include "../support/test_files.h"
#include "classifier_training.h"
#include "graph/graph.h"
#include "layer_networks.h"
#include "mnist_split.h"
#include "registries/default_registries.h"

#include <QDir>
#include <QTest>

#include <cmath>
#include <map>
#include <optional>

using namespace tstudio;
using namespace tstudio::examples;

class TestLeNet5 : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    CpuAllocator m_allocator;

    /// What both training tests run: LeNet-5 with Adam at 0.001, the first 8000 MNIST images of the
    /// fixtures for training (the rest held out) in unshifted batches, 60 steps reported every 20.
    struct MnistRun {
        MnistSplit split;
        ClassifierGraph graph;
        ClassifierTrainingOptions training;
    };

    /// Sets `run`, or leaves it empty after a QSKIP (no fixtures) or a failed QVERIFY.
    void prepareMnistRun(std::optional<MnistRun>& run)
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: no MNIST images to train on");
        auto split = loadMnistSplit(QDir(fixtures).filePath("mnist").toStdString(), 8000, m_allocator);
        QVERIFY2(split, split ? "" : split.error().toString().c_str());
        LayerNetworkOptions options;
        options.optimizer = OptimizerKind::kAdam;
        options.learningRate = 0.001;
        auto graph = buildLeNet5(m_registries->ops, options);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        run = MnistRun{std::move(*split), std::move(*graph), {}};
        run->training.steps = 60;
        run->training.reportEvery = 20;
    }

    /// A fresh stream of the run's training batches.
    data::Dataset batches(const MnistRun& run)
    {
        MnistBatchOptions options;
        options.maxShift = 0;
        return mnistTrainingBatches(run.split.trainImages, run.split.trainLabels, m_allocator, options);
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void layersAndShapes()
    {
        auto graph = buildLeNet5(m_registries->ops);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        std::map<std::string, const tensorflow::NodeDef*> nodes;
        for (const auto& node : graph->graph.node())
            nodes[node.name()] = &node;
        const std::pair<const char*, const char*> expected[] = {
            {"conv2d/Conv2D", "Conv2D"},          {"conv2d/Relu", "Relu"},
            {"max_pooling2d/MaxPool", "MaxPool"}, {"conv2d_1/Conv2D", "Conv2D"},
            {"max_pooling2d_1/MaxPool", "MaxPool"}, {"flatten/Reshape", "Reshape"},
            {"dense/MatMul", "MatMul"},           {"dense/Relu", "Relu"},
            {"dense_1/MatMul", "MatMul"},         {"sparse_softmax_cross_entropy_loss/value", "DivNoNan"},
            {"GradientDescent", "AssignAdd"},
        };
        for (const auto& [name, op] : expected) {
            auto it = nodes.find(name);
            QVERIFY2(it != nodes.end(), name);
            // The loss's division is DivNoNan where the engine has that op, else its Select form.
            if (std::string(op) != "DivNoNan")
                QCOMPARE(QString::fromStdString(it->second->op()), QString(op));
        }
        // The variables tf.layers makes, with their shapes: conv kernels HWIO, dense [in, out].
        const std::pair<const char*, const char*> variables[] = {
            {"conv2d/kernel", "[5,5,1,32]"}, {"conv2d_1/kernel", "[5,5,32,64]"},
            {"dense/kernel", "[3136,512]"},  {"dense_1/kernel", "[512,10]"}, {"dense_1/bias", "[10]"}};
        for (const auto& [name, shape] : variables) {
            auto it = nodes.find(name);
            QVERIFY2(it != nodes.end(), name);
            QCOMPARE(QString::fromStdString(TensorShape::fromProto(it->second->attr().at("shape").shape())->toString()),
                     QString(shape));
        }
    }

    void learnsFromMnist()
    {
        std::optional<MnistRun> run;
        prepareMnistRun(run);
        if (!run)
            return;
        std::vector<float> losses;
        auto result =
            trainClassifier(run->graph, *m_registries, batches(*run), run->training, &run->split.evalImages,
                            &run->split.evalLabels, [&](const TrainingProgress& p) { losses.push_back(p.loss); });
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        qInfo("LeNet-5, 60 Adam steps: loss %.3f -> %.3f, held-out accuracy %.4f (%.1f steps/s)", double(losses.front()),
              double(losses.back()), *result->evalAccuracy, result->stepsPerSecond);
        QVERIFY(losses.back() < losses.front());
        QVERIFY2(*result->evalAccuracy > 0.85, qPrintable(QString::number(*result->evalAccuracy)));
    }

    /// The same 60 steps on GPU:0 (every op with a GPU kernel there) reach the CPU's held-out
    /// accuracy: the GPU kernels compute the same network, not just something that learns.
    void learnsTheSameOnTheGpu()
    {
        REQUIRE_GPU_OR_SKIP();
        std::optional<MnistRun> run;
        prepareMnistRun(run);
        if (!run)
            return;
        double accuracy[2] = {0, 0};
        float lastLoss[2] = {0, 0};
        for (const bool gpu : {false, true}) {
            ClassifierTrainingOptions training = run->training;
            training.gpu = gpu;
            auto result =
                trainClassifier(run->graph, *m_registries, batches(*run), training, &run->split.evalImages,
                                &run->split.evalLabels, [&](const TrainingProgress& p) { lastLoss[gpu] = p.loss; });
            QVERIFY2(result, result ? "" : result.error().toString().c_str());
            accuracy[gpu] = *result->evalAccuracy;
            qInfo("LeNet-5 on the %s: final loss %.4f, held-out accuracy %.4f (%.1f steps/s)", gpu ? "GPU" : "CPU",
                  double(lastLoss[gpu]), accuracy[gpu], result->stepsPerSecond);
        }
        QVERIFY2(accuracy[1] > 0.85, qPrintable(QString::number(accuracy[1])));
        QVERIFY2(std::abs(accuracy[1] - accuracy[0]) <= 0.02,
                 qPrintable(QStringLiteral("GPU %1 vs CPU %2").arg(accuracy[1]).arg(accuracy[0])));
    }
};

QTEST_GUILESS_MAIN(TestLeNet5)
#include "test_lenet5.moc"
