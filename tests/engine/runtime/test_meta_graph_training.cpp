// A MetaGraphDef written by TensorFlow 1.3 (the book's MNIST model: 784-500-10, L2 regularisation,
// exponential decay, moving averages, GradientDescent) imports, infers its shapes, initialises
// (its moving-average initialisers use tf.cond: Switch, RefSwitch, Merge), predicts and trains.
#include "runtime_test_support.h"

#include "../../support/test_files.h"
#include "io/formats/graph_file.h"
#include "function/shape_refiner.h"
#include "io/idx_file.h"
#include "model/restore_variables.h"
#include "registries/default_registries.h"
#include "runtime/kernel_constant_evaluator.h"

#include <QDir>
#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::testing;

class TestMetaGraphTraining : public QObject {
    Q_OBJECT

private:
    static constexpr int kBatch = 16;
    QString m_fixtures;
    std::unique_ptr<Registries> m_registries;
    std::optional<tensorflow::GraphDef> m_graph;
    std::vector<float> m_images;  ///< kBatch x 784, pixel / 255
    std::vector<float> m_oneHot;  ///< kBatch x 10
    std::vector<int> m_labels;

    std::unique_ptr<Session> initialisedSession()
    {
        auto session = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        if (Status s = session->create(*m_graph); !s.isOk())
            qFatal("create: %s", s.toString().c_str());
        std::vector<Tensor> none;
        if (Status s = session->run({}, {}, {"init"}, &none); !s.isOk())
            qFatal("init: %s", s.toString().c_str());
        return session;
    }

    std::vector<std::pair<std::string, Tensor>> batchFeeds()
    {
        return {{"x-input:0", floatTensor({kBatch, 784}, m_images)}, {"y-input:0", floatTensor({kBatch, 10}, m_oneHot)}};
    }

private slots:
    void initTestCase()
    {
        m_fixtures = fixturesDir();
        if (m_fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the TensorFlow 1.3 MetaGraphDef is not checked");
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
        auto file = readGraphFromFile(QDir(m_fixtures).filePath("tf1-mnist-book/mnist_model-29001.meta").toStdString());
        QVERIFY2(file, file ? "" : file.error().toString().c_str());
        QCOMPARE(file->kind, FileKind::kMetaGraphDef);
        QCOMPARE(file->graph.node_size(), 331);
        m_graph = std::move(file->graph);

        auto images = readIdxFile(QDir(m_fixtures).filePath("mnist/t10k-images-idx3-ubyte.gz").toStdString(),
                                  testAllocator(), kBatch);
        auto labels = readIdxFile(QDir(m_fixtures).filePath("mnist/t10k-labels-idx1-ubyte.gz").toStdString(),
                                  testAllocator(), kBatch);
        QVERIFY2(images && labels, "MNIST test files unreadable");
        for (std::uint8_t p : images->values<std::uint8_t>())
            m_images.push_back(static_cast<float>(p) / 255.0f);
        m_oneHot.assign(kBatch * 10, 0.0f);
        for (int i = 0; i < kBatch; ++i) {
            m_labels.push_back(labels->values<std::uint8_t>()[static_cast<std::size_t>(i)]);
            m_oneHot[static_cast<std::size_t>(i * 10 + m_labels.back())] = 1.0f;
        }
    }

    void shapesInferWithoutErrors()
    {
        auto graph = Graph::fromGraphDef(*m_graph);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        KernelConstantEvaluator evaluator(m_registries->ops, m_registries->kernels);
        ShapeRefinerOptions options;
        options.evaluator = evaluator.function();
        auto shapes = inferGraphShapes(*graph, m_registries->ops, evaluator.allocator(), options);
        QVERIFY(shapes);
        QVERIFY2(shapes->status().isOk(), shapes->status().toString().c_str());
        QCOMPARE(QString::fromStdString(shapes->find(*graph, "layer2/add:0")->shape.toString()), QStringLiteral("[?,10]"));
        QCOMPARE(QString::fromStdString(shapes->find(*graph, "layer1/Relu:0")->shape.toString()), QStringLiteral("[?,500]"));
        QCOMPARE(QString::fromStdString(shapes->find(*graph, "cond/Merge:0")->shape.toString()),
                 QStringLiteral("[784,500]"));
        QCOMPARE(shapes->find(*graph, "add:0")->dtype, tensorflow::DT_FLOAT);
    }

    void initialisesThroughTfCondAndPredicts()
    {
        auto session = initialisedSession();
        std::vector<Tensor> out;
        Status s = session->run({{"x-input:0", floatTensor({kBatch, 784}, m_images)}},
                                {"layer2/add:0", "layer1/weights:0", "layer1/weights/ExponentialMovingAverage:0",
                                 "Variable:0"},
                                {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].shape().toString(), std::string("[16,10]"));
        for (float v : out[0].values<float>())
            QVERIFY(std::isfinite(v));
        // truncated_normal(stddev 0.1): within two standard deviations, not all equal.
        float lo = 1, hi = -1;
        for (float w : out[1].values<float>()) {
            lo = std::min(lo, w);
            hi = std::max(hi, w);
        }
        QVERIFY(lo >= -0.2f && hi <= 0.2f && hi - lo > 0.3f);
        // The moving average starts from the variable's value: its initialiser is
        // tf.cond(is_variable_initialized(w), w.read_value, w.initial_value).
        QCOMPARE(out[2].shape(), out[1].shape());
        QVERIFY(std::equal(out[1].values<float>().begin(), out[1].values<float>().end(), out[2].values<float>().begin()));
        QCOMPARE(out[3].values<std::int32_t>()[0], 0);
    }

    void trainingLowersTheLoss()
    {
        auto session = initialisedSession();
        std::vector<Tensor> out;
        QVERIFY(session->run(batchFeeds(), {"add:0"}, {}, &out).isOk());
        const float before = out[0].values<float>()[0];
        for (int step = 0; step < 20; ++step) {
            const Status s = session->run(batchFeeds(), {}, {"train"}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
        }
        QVERIFY(session->run(batchFeeds(), {"add:0", "Variable:0", "layer2/add:0"}, {}, &out).isOk());
        const float after = out[0].values<float>()[0];
        qInfo("loss on the batch: %.4f before, %.4f after 20 steps", double(before), double(after));
        QVERIFY2(after < before * 0.7f, qPrintable(QString("loss %1 -> %2").arg(before).arg(after)));
        QCOMPARE(out[1].values<std::int32_t>()[0], 20);  // the global step
        // The batch it trained on is now mostly classified right.
        int correct = 0;
        for (int i = 0; i < kBatch; ++i) {
            const auto row = out[2].values<float>().subspan(static_cast<std::size_t>(i) * 10, 10);
            correct += std::max_element(row.begin(), row.end()) - row.begin() == m_labels[static_cast<std::size_t>(i)];
        }
        QVERIFY2(correct >= kBatch * 3 / 4, qPrintable(QString("%1 of %2 right").arg(correct).arg(kBatch)));
    }

    /// Issue #5's check: the graph restored from mnist_model-29001 keeps training with its own `train`
    /// op, fed 200 batches of 100 from the first 2,000 t10k images: the global step goes 29001 ->
    /// 29201 and the loss on those images goes down.
    void restoredModelKeepsTraining()
    {
        constexpr int kImages = 2000;
        constexpr int kTrainBatch = 100;
        auto images = readIdxFile(QDir(m_fixtures).filePath("mnist/t10k-images-idx3-ubyte.gz").toStdString(),
                                  testAllocator(), kImages);
        auto labels = readIdxFile(QDir(m_fixtures).filePath("mnist/t10k-labels-idx1-ubyte.gz").toStdString(),
                                  testAllocator(), kImages);
        QVERIFY2(images && labels, "MNIST test files unreadable");
        std::vector<float> pixels;
        for (std::uint8_t p : images->values<std::uint8_t>())
            pixels.push_back(static_cast<float>(p) / 255.0f);
        std::vector<float> oneHot(kImages * 10, 0.0f);
        for (int i = 0; i < kImages; ++i)
            oneHot[static_cast<std::size_t>(i * 10 + labels->values<std::uint8_t>()[static_cast<std::size_t>(i)])] = 1.0f;
        auto batch = [&](int first, int count) -> std::vector<std::pair<std::string, Tensor>> {
            const auto begin = static_cast<std::size_t>(first);
            const auto n = static_cast<std::size_t>(count);
            return {{"x-input:0", floatTensor({count, 784}, std::vector<float>(pixels.begin() + static_cast<std::ptrdiff_t>(begin * 784),
                                                                             pixels.begin() + static_cast<std::ptrdiff_t>((begin + n) * 784)))},
                    {"y-input:0", floatTensor({count, 10}, std::vector<float>(oneHot.begin() + static_cast<std::ptrdiff_t>(begin * 10),
                                                                            oneHot.begin() + static_cast<std::ptrdiff_t>((begin + n) * 10)))}};
        };

        auto session = initialisedSession();
        auto restored = restoreVariablesByName(*session, QDir(m_fixtures).filePath("tf1-mnist-book/mnist_model-29001").toStdString());
        QVERIFY2(restored, restored ? "" : restored.error().toString().c_str());
        std::vector<Tensor> out;
        // "add:0" is the book's loss: mean cross entropy plus the L2 regularisation of the weights.
        QVERIFY(session->run(batch(0, kImages), {"add:0", "Variable:0"}, {}, &out).isOk());
        const float before = out[0].values<float>()[0];
        QCOMPARE(out[1].values<std::int32_t>()[0], 29001);
        for (int step = 0; step < 200; ++step) {
            const Status s = session->run(batch((step * kTrainBatch) % kImages, kTrainBatch), {}, {"train"}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
        }
        QVERIFY(session->run(batch(0, kImages), {"add:0", "Variable:0"}, {}, &out).isOk());
        const float after = out[0].values<float>()[0];
        qInfo("restored at step 29001: loss on 2000 t10k images %.4f, after 200 steps %.4f", double(before), double(after));
        QCOMPARE(out[1].values<std::int32_t>()[0], 29201);
        QVERIFY2(std::isfinite(after) && after < before, qPrintable(QString("loss %1 -> %2").arg(before).arg(after)));
    }
};

QTEST_GUILESS_MAIN(TestMetaGraphTraining)
#include "test_meta_graph_training.moc"
