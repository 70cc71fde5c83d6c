// Tests for the graph viewer's loader: every fixture graph opens, choices and checkpoints are found, bad files fail clearly.
#include "graph_viewer/graph_loader.h"
#include "io/events/event_file_writer.h"
#include "proto/event.pb.h"
#include "proto/saved_model.pb.h"

#include "../../support/test_files.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace tstudio;
using namespace tstudio::graph_viewer;

namespace {

Expected<LoadedGraph> load(const QString& path, int choice = -1)
{
    GraphLoadRequest request;
    request.path = path.toStdString();
    request.choice = choice;
    return loadGraph(request);
}

class TestGraphLoader : public QObject {
    Q_OBJECT

private slots:
    void everyFixtureGraphOpens_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("minNodes");
        QTest::addColumn<bool>("checkpoint");
        QTest::newRow("book meta 28001") << "tf1-mnist-book/mnist_model-28001.meta" << int(FileKind::kMetaGraphDef) << 331 << true;
        QTest::newRow("book meta 29001") << "tf1-mnist-book/mnist_model-29001.meta" << int(FileKind::kMetaGraphDef) << 331 << true;
        QTest::newRow("book checkpoint prefix") << "tf1-mnist-book/mnist_model-29001.index" << int(FileKind::kCheckpoint) << 331 << true;
        QTest::newRow("lstm") << "tf2onnx/lstm/frozen.pb" << int(FileKind::kGraphDef) << 50 << false;
        QTest::newRow("ae0") << "tf2onnx/ae0/frozen.pb" << int(FileKind::kGraphDef) << 10 << false;
        QTest::newRow("fc-layers") << "tf2onnx/fc-layers/frozen.pb" << int(FileKind::kGraphDef) << 10 << false;
        QTest::newRow("regression frozen") << "tf2onnx/regression/graphdef/frozen.pb" << int(FileKind::kGraphDef) << 4 << false;
        QTest::newRow("regression meta") << "tf2onnx/regression/checkpoint/model.meta" << int(FileKind::kMetaGraphDef) << 4 << true;
        QTest::newRow("regression saved model") << "tf2onnx/regression/saved_model" << int(FileKind::kSavedModel) << 4 << true;
        QTest::newRow("keras events train") << "tfevents-keras/MNIST-extra-metrics1690486849/train/events.out.tfevents.1690486852.e-bnbobg-f77fv-0.244.0.v2"
                                           << int(FileKind::kEventFile) << 5 << false;
        QTest::newRow("imdb events train") << "tfevents-keras/imdb-model-1690485351/train/events.out.tfevents.1690485354.e-bnbobg-5l77j-0.80091.0.v2"
                                           << int(FileKind::kEventFile) << 5 << false;
    }

    void everyFixtureGraphOpens()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("fixtures not found: set TSTUDIO_FIXTURES or provide ../shared/fixtures");
        QFETCH(QString, path);
        QFETCH(int, kind);
        QFETCH(int, minNodes);
        QFETCH(bool, checkpoint);
        auto loaded = load(QDir(fixtures).filePath(path));
        QVERIFY2(loaded.has_value(), loaded ? "" : loaded.error().message().c_str());
        QCOMPARE(int(loaded->kind), kind);
        QVERIFY2(loaded->graph->node_size() >= minNodes, qPrintable(QString::number(loaded->graph->node_size())));
        if (minNodes == 331)
            QCOMPARE(loaded->graph->node_size(), 331); // the fixture README's count
        QCOMPARE(!loaded->checkpointPrefix.empty(), checkpoint);
        // The hierarchy covers every node not drawn as an embedding: the graph's own and its functions' (the
        // Keras event graphs carry a function library).
        std::int64_t ops = loaded->hierarchy->node(loaded->hierarchy->root()).opCount;
        QCOMPARE(ops + loaded->hierarchy->embeddedCount(), std::int64_t(loaded->viewGraph->node_size()));
        int functionNodes = 0;
        for (const auto& function : loaded->functions->functions())
            functionNodes += function.nodeCount;
        QCOMPARE(loaded->viewGraph->node_size(), loaded->graph->node_size() + functionNodes);
        QCOMPARE(loaded->functions->functions().size(), std::size_t(loaded->graph->library().function_size()));
    }

    void eventFileChoicesPickAGraph()
    {
        QTemporaryDir dir;
        events::EventFileWriterOptions options;
        auto writer = events::EventFileWriter::open(dir.path().toStdString(), options);
        QVERIFY(writer.has_value());
        for (int version = 1; version <= 2; ++version) {
            tensorflow::GraphDef g;
            for (int i = 0; i < version * 3; ++i) {
                auto* n = g.add_node();
                n->set_name("n" + std::to_string(i));
                n->set_op("NoOp");
            }
            tensorflow::Event event;
            event.set_step(version);
            event.set_graph_def(g.SerializeAsString());
            QVERIFY((*writer)->addEvent(event).isOk());
        }
        QVERIFY((*writer)->close().isOk());
        const QString file = QString::fromStdString((*writer)->path());
        auto latest = load(file);
        QVERIFY2(latest.has_value(), latest ? "" : latest.error().message().c_str());
        QCOMPARE(latest->choices.size(), std::size_t(2));
        QCOMPARE(latest->chosen, 1);
        QCOMPARE(latest->graph->node_size(), 6); // the last graph written, as TensorBoard shows
        auto first = load(file, 0);
        QVERIFY(first.has_value());
        QCOMPARE(first->graph->node_size(), 3);
        QVERIFY(first->choices[0].find("step 1") != std::string::npos);
    }

    void savedModelMetaGraphsAreChoices()
    {
        QTemporaryDir dir;
        tensorflow::SavedModel model;
        model.set_saved_model_schema_version(1);
        for (int m = 0; m < 2; ++m) {
            auto* meta = model.add_meta_graphs();
            meta->mutable_meta_info_def()->add_tags(m == 0 ? "serve" : "train");
            for (int i = 0; i < 2 + 3 * m; ++i) {
                auto* n = meta->mutable_graph_def()->add_node();
                n->set_name("n" + std::to_string(i));
                n->set_op("NoOp");
            }
        }
        QVERIFY(tstudio::testing::writeFile(QDir(dir.path()).filePath("saved_model.pb"), model.SerializeAsString()));
        auto first = load(dir.path());
        QVERIFY2(first.has_value(), first ? "" : first.error().message().c_str());
        QCOMPARE(first->kind, FileKind::kSavedModel);
        QCOMPARE(first->choices, (std::vector<std::string>{"{serve}", "{train}"}));
        QCOMPARE(first->chosen, 0);
        QCOMPARE(first->graph->node_size(), 2);
        auto train = load(dir.path(), 1);
        QVERIFY(train.has_value());
        QCOMPARE(train->chosen, 1);
        QCOMPARE(train->graph->node_size(), 5);
        QVERIFY(train->checkpointPrefix.empty()); // no variables/ directory
    }

    void badFilesFailClearly()
    {
        QTemporaryDir dir;
        const QString truncated = dir.filePath("model.pb");
        QVERIFY(tstudio::testing::writeFile(truncated, tstudio::testing::fromHex("0a 40 0a 01 61")));
        auto a = load(truncated);
        QVERIFY(!a.has_value());
        QVERIFY2(QString::fromStdString(a.error().message()).contains("model.pb"), a.error().message().c_str());

        auto missing = load(dir.filePath("missing.pbtxt"));
        QVERIFY(!missing.has_value());

        // An event file without a graph says so.
        events::EventFileWriterOptions options;
        auto writer = events::EventFileWriter::open(dir.path().toStdString(), options);
        QVERIFY(writer.has_value());
        QVERIFY((*writer)->close().isOk());
        auto empty = load(QString::fromStdString((*writer)->path()));
        QVERIFY(!empty.has_value());
        QVERIFY2(QString::fromStdString(empty.error().message()).contains("holds no graph"), empty.error().message().c_str());
    }
};

} // namespace

QTEST_GUILESS_MAIN(TestGraphLoader)
#include "test_graph_loader.moc"
