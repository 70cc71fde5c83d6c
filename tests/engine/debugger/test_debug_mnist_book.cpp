// Stepping through the forward pass of the book's MNIST model as TensorFlow 1.3 saved it
// (tf1-mnist-book/mnist_model-29001, restored through its MetaGraphDef's saver): at every node the
// debugger pauses at, the inputs it shows, and afterwards the output of every executed node, equal
// an independent NumPy evaluation from the checkpoint's bytes (tools/golden/mnist_book_debugger.py).
#include "../../support/test_files.h"
#include "debugger/debug_controller.h"
#include "io/idx_file.h"
#include "io/npy.h"
#include "model/saver.h"
#include "proto/meta_graph.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <chrono>
#include <cmath>
#include <future>
#include <map>

using namespace tstudio;
using namespace tstudio::testing;
using namespace std::chrono_literals;

namespace {

const QString kGoldenDir = QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/mnist_book_debugger");

/// Outlives every tensor of the test.
CpuAllocator& testCpu()
{
    static CpuAllocator cpu;
    return cpu;
}

/// max |a - b| / max |b|.
double relativeDifference(const Tensor& actual, const Tensor& expected)
{
    if (actual.dtype() != tensorflow::DT_FLOAT || actual.shape() != expected.shape())
        return std::numeric_limits<double>::infinity();
    const auto a = actual.values<float>();
    const auto e = expected.values<float>();
    double scale = std::numeric_limits<float>::min();
    double worst = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {
        scale = std::max(scale, std::abs(double(e[i])));
        const double d = std::abs(double(a[i]) - double(e[i]));
        worst = std::max(worst, std::isnan(d) ? std::numeric_limits<double>::infinity() : d);
    }
    return worst / scale;
}

std::string nodeOf(const std::string& input)
{
    const auto colon = input.rfind(':');
    return colon == std::string::npos ? input : input.substr(0, colon);
}

} // namespace

class TestDebugMnistBook : public QObject {
    Q_OBJECT

private slots:
    void steppingShowsNumPysValuesAtEveryNode()
    {
        QFile manifestFile(kGoldenDir + "/manifest.json");
        QVERIFY2(manifestFile.open(QIODevice::ReadOnly), qPrintable("no " + kGoldenDir + "/manifest.json"));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        const double rtol = manifest.value("rtol").toDouble();
        const int count = manifest.value("images").toObject().value("count").toInt();
        QVERIFY(rtol > 0 && rtol <= 1e-5 && count > 0);
        std::map<std::string, Tensor> golden;
        const QJsonObject files = manifest.value("nodes").toObject();
        for (auto it = files.begin(); it != files.end(); ++it) {
            auto t = readNpy((kGoldenDir + "/" + it.value().toString()).toStdString(), testCpu());
            QVERIFY2(t, t ? "" : t.error().toString().c_str());
            golden.emplace(it.key().toStdString(), std::move(*t));
        }
        QCOMPARE(golden.size(), std::size_t(5));

        const QString fixtures = fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the tf1-mnist-book model is not stepped through");
        const QString meta = QDir(fixtures).filePath("tf1-mnist-book/mnist_model-29001.meta");
        const QString images = QDir(fixtures).filePath("mnist/t10k-images-idx3-ubyte.gz");
        if (!QFile::exists(meta) || !QFile::exists(images))
            QSKIP("tf1-mnist-book/mnist_model-29001 or mnist/t10k-images are absent from the fixtures");

        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        tensorflow::MetaGraphDef metaGraph;
        QFile metaFile(meta);
        QVERIFY(metaFile.open(QIODevice::ReadOnly));
        QVERIFY(metaGraph.ParseFromString(metaFile.readAll().toStdString()));
        Session session(SessionOptions{{}, &(*registries)->ops, &(*registries)->kernels});
        QVERIFY(session.create(metaGraph.graph_def()).isOk());
        auto saver = Saver::fromSaverDef(metaGraph.saver_def());
        QVERIFY(saver);
        const std::string prefix = QDir(fixtures).filePath("tf1-mnist-book/mnist_model-29001").toStdString();
        QVERIFY(saver->restore(session, prefix).isOk());

        auto pixels = readIdxFile(images.toStdString(), testCpu(), count);
        QVERIFY2(pixels, pixels ? "" : pixels.error().toString().c_str());
        std::vector<float> x;
        for (std::uint8_t p : pixels->values<std::uint8_t>())
            x.push_back(static_cast<float>(p) / 255.0f);
        const Tensor input = Tensor::fromVector<float>(testCpu(), TensorShape{count, 784}, x).value();

        std::map<std::string, const tensorflow::NodeDef*> nodes;
        for (const tensorflow::NodeDef& node : metaGraph.graph_def().node())
            nodes[node.name()] = &node;

        DebugController controller;
        controller.pause();
        auto run = std::async(std::launch::async, [&] {
            std::vector<Tensor> out;
            return session.run(tensorflow::RunOptions(), {{"x-input:0", input}}, {"layer2/add:0"}, {}, &out, nullptr,
                               &controller);
        });
        // Step node by node; at each pause compare the inputs the debugger shows with NumPy's.
        std::vector<std::string> visited;
        int comparedInputs = 0;
        while (run.wait_for(0s) != std::future_status::ready) {
            if (!controller.waitUntilPaused(100ms))
                continue;
            const std::optional<PausePoint> point = controller.pausePoint();
            if (!point)
                continue;
            visited.push_back(point->node);
            const tensorflow::NodeDef* node = nodes.at(point->node);
            for (int i = 0; i < node->input_size() && static_cast<std::size_t>(i) < point->values.size(); ++i) {
                const auto expected = golden.find(nodeOf(node->input(i)));
                if (expected == golden.end())
                    continue;
                const double d = relativeDifference(point->values[static_cast<std::size_t>(i)], expected->second);
                QVERIFY2(d <= rtol, qPrintable(QString("input %1 of %2 differs from NumPy by %3")
                                                   .arg(i)
                                                   .arg(QString::fromStdString(point->node))
                                                   .arg(d)));
                ++comparedInputs;
            }
            controller.step();
        }
        const Status status = run.get();
        QVERIFY2(status.isOk(), status.toString().c_str());
        // The forward pass: its ops in order, each paused at once.
        const std::vector<std::string> forward = {"layer1/MatMul", "layer1/add", "layer1/Relu", "layer2/MatMul",
                                                  "layer2/add"};
        std::size_t next = 0;
        for (const std::string& node : visited)
            if (next < forward.size() && node == forward[next])
                ++next;
        QCOMPARE(next, forward.size());
        QCOMPARE(comparedInputs, 4); // add <- MatMul, Relu <- add, MatMul <- Relu, add <- MatMul

        // Every node's output, as the execution list keeps it.
        for (const auto& [name, expected] : golden) {
            auto value = controller.tensorValue(name);
            QVERIFY2(value, value ? "" : value.error().toString().c_str());
            const double d = relativeDifference(*value, expected);
            QVERIFY2(d <= rtol, qPrintable(QString("%1 differs from NumPy by %2").arg(QString::fromStdString(name)).arg(d)));
        }
        qInfo("stepped through %zu nodes; 5 node outputs and 4 shown inputs equal NumPy (rtol %g)", visited.size(), rtol);
    }
};

QTEST_GUILESS_MAIN(TestDebugMnistBook)
#include "test_debug_mnist_book.moc"
