// The seeds' book's MNIST network built with the building API: its graph against the one
// TensorFlow wrote (tf1-mnist-book), and issue #5's check: trained on the first 8,000 t10k images
// it classifies >= 97% of the last 2,000 right.
#include "../support/model_test_support.h"
#include "../support/test_files.h"
#include "book_mnist.h"
#include "classifier_training.h"
#include "mnist_split.h"
#include "registries/default_registries.h"

#include <QDir>
#include <QTest>

#include <set>

using namespace tstudio;
using namespace tstudio::examples;

class TestBookMnist : public QObject {
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

    /// Every node of TensorFlow's graph outside the parts that changed between TensorFlow 1.3 (the
    /// fixture) and 1.15 (what we follow) exists in ours with the same op. Left out: the Saver
    /// ("save/"), the moving averages' tf.cond initialisers ("cond*", IsVariableInitialized), the
    /// gradients (1.15 skips BroadcastGradientArgs for equal static shapes and names grad_ys
    /// differently) and exponential_decay's helpers (renamed in 1.15); 1.15 writes AddV2 for Add.
    void graphMatchesTensorFlows()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the graph is not compared with TensorFlow's");
        auto built = buildBookMnist(m_registries->ops);
        QVERIFY2(built, built ? "" : built.error().toString().c_str());
        auto meta = testing::readMetaGraphFixture("tf1-mnist-book/mnist_model-29001.meta");
        QVERIFY2(meta, "tf1-mnist-book/mnist_model-29001.meta unreadable");
        std::map<std::string, std::string> ours;
        for (const auto& node : built->graph.node())
            ours[node.name()] = node.op();
        QStringList missing, differentOp;
        int compared = 0;
        for (const auto& node : meta->graph_def().node()) {
            const std::string& name = node.name();
            const auto startsWith = [&](std::string_view prefix) { return name.rfind(prefix, 0) == 0; };
            if (startsWith("save/") || startsWith("cond") || startsWith("gradients/") || startsWith("ExponentialDecay/") ||
                name.find("/cond") != std::string::npos || node.op() == "IsVariableInitialized")
                continue;
            auto it = ours.find(name);
            if (it == ours.end()) {
                missing << QString::fromStdString(name);
                continue;
            }
            ++compared;
            const bool addV2 = node.op() == "Add" && it->second == "AddV2";
            if (it->second != node.op() && !addV2)
                differentOp << QString::fromStdString(name + ": " + node.op() + " vs " + it->second);
        }
        qInfo("%d of TensorFlow's nodes compared", compared);
        QVERIFY2(differentOp.isEmpty(), qPrintable(differentOp.join('\n')));
        QVERIFY2(missing.isEmpty(), qPrintable("missing: " + missing.join(", ")));
        QVERIFY(compared >= 100);
    }

    void reaches97PercentOnHeldOutImages()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: no MNIST images to train on");
        CpuAllocator allocator;
        auto split = loadMnistSplit(QDir(fixtures).filePath("mnist").toStdString(), 8000, allocator);
        QVERIFY2(split, split ? "" : split.error().toString().c_str());
        BookMnistOptions options;
        options.trainingExamples = 8000;
        options.seed = 1;
        auto graph = buildBookMnist(m_registries->ops, options);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        MnistBatchOptions batches;
        batches.seed = 1;
        ClassifierTrainingOptions training;
        training.steps = 4000;
        training.reportEvery = 1000;
        auto result = trainClassifier(*graph, *m_registries,
                                      mnistTrainingBatches(split->trainImages, split->trainLabels, allocator, batches),
                                      training, &split->evalImages, &split->evalLabels, [](const TrainingProgress& p) {
                                          qInfo("step %lld: loss %.4f, batch accuracy %.3f (%.1f s)",
                                                static_cast<long long>(p.step), double(p.loss), double(p.batchAccuracy),
                                                p.seconds);
                                      });
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        qInfo("accuracy on t10k images 8000-9999 with the moving averages: %.4f (%.0f steps/s)", *result->evalAccuracy,
              result->stepsPerSecond);
        QCOMPARE(result->last.globalStep, training.steps);
        QVERIFY2(*result->evalAccuracy >= 0.97, qPrintable(QString::number(*result->evalAccuracy)));
    }
};

QTEST_GUILESS_MAIN(TestBookMnist)
#include "test_book_mnist.moc"
