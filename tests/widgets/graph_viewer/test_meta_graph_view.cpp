// Tests for the graph viewer's MetaGraph tab (MetaGraphView): a .meta file written here opens with
// the tab (its saver, collections and stripped ops shown, collection members that are nodes as
// links that select them), a GraphDef opens without it, and TensorFlow 1.3's MNIST .meta
// (tf1-mnist-book; skipped without the fixtures).
#include "fixture_paths.h"
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/meta_graph_view.h"
#include "io/formats/graph_def_io.h"
#include "model/meta_graph.h"
#include "proto/variable.pb.h"
#include "registries/default_registries.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <google/protobuf/text_format.h>

using namespace tstudio;
using namespace tstudio::graph_viewer;
using tstudio::testing::fixturePath;
using tstudio::testing::missingFixture;

namespace {

QTreeWidgetItem* childNamed(QTreeWidgetItem* parent, const QString& prefix)
{
    for (int i = 0; i < parent->childCount(); ++i)
        if (parent->child(i)->text(0).startsWith(prefix))
            return parent->child(i);
    return nullptr;
}

QTreeWidgetItem* topNamed(QTreeWidget* tree, const QString& prefix)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0).startsWith(prefix))
            return tree->topLevelItem(i);
    return nullptr;
}

} // namespace

class TestMetaGraphView : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void aMetaFileShowsItsParts()
    {
        tensorflow::MetaGraphDef meta;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(R"(
            graph_def { node { name: "w" op: "VariableV2" attr { key: "dtype" value { type: DT_FLOAT } }
                               attr { key: "shape" value { shape { dim { size: 2 } } } } }
                        node { name: "train" op: "NoOp" } }
            meta_info_def { tensorflow_version: "1.15.0"
                            stripped_op_list { op { name: "NoOp" } op { name: "VariableV2" } } }
            saver_def { filename_tensor_name: "save/Const:0" restore_op_name: "save/restore_all" max_to_keep: 5
                        keep_checkpoint_every_n_hours: 10000 version: V2 }
            collection_def { key: "train_op" value { node_list { value: "train" } } })",
                                                              &meta));
        tensorflow::VariableDef variable;
        variable.set_variable_name("w:0");
        (*meta.mutable_collection_def())["trainable_variables"].mutable_bytes_list()->add_value(
            variable.SerializeAsString());
        QTemporaryDir dir;
        const QString path = dir.filePath("model.meta");
        QVERIFY(writeMetaGraphFile(path.toStdString(), meta).isOk());

        GraphViewer viewer(m_registries.get());
        viewer.resize(1000, 700);
        viewer.show();
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.open(path);
        QVERIFY(loaded.wait(20000));
        QVERIFY(loaded.at(0).at(0).toBool());
        MetaGraphView* view = viewer.metaGraphView();
        QVERIFY(view);
        QTreeWidget* tree = view->tree();
        QVERIFY(topNamed(tree, "Saver"));
        QVERIFY(childNamed(topNamed(tree, "Saver"), "V2 checkpoints"));
        QVERIFY(childNamed(topNamed(tree, "Saver"), "Restore op: save/restore_all"));
        QTreeWidgetItem* collections = topNamed(tree, "Collections (2)");
        QVERIFY(collections);
        QTreeWidgetItem* variables = childNamed(collections, "trainable_variables");
        QVERIFY(variables);
        QCOMPARE(variables->child(0)->text(0), QString("w:0"));
        QCOMPARE(variables->child(0)->data(0, MetaGraphView::kNodeNameRole).toString(), QString("w"));
        QVERIFY(topNamed(tree, "Stripped op list (2)"));
        // A member that is a node selects it.
        QSignalSpy activated(view, &MetaGraphView::nodeActivated);
        emit tree->itemClicked(childNamed(collections, "train_op")->child(0), 0);
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QString("train"));

        // A plain GraphDef has no MetaGraph tab.
        const QString pb = dir.filePath("model.pbtxt");
        QVERIFY(writeGraphDef(pb.toStdString(), meta.graph_def(), GraphDefFormat::kText).isOk());
        viewer.open(pb);
        QVERIFY(loaded.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(viewer.metaGraphView() == nullptr, 10000);
    }

    void tensorflowsMnistMeta()
    {
        const std::string path = fixturePath("tf1-mnist-book/mnist_model-29001.meta");
        if (path.empty())
            QSKIP(missingFixture("tf1-mnist-book/mnist_model-29001.meta"));
        GraphViewer viewer(m_registries.get());
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.open(QString::fromStdString(path));
        QVERIFY(loaded.wait(30000));
        QVERIFY(viewer.metaGraphView());
        QTreeWidget* tree = viewer.metaGraphView()->tree();
        QVERIFY(childNamed(topNamed(tree, "Written by"), "TensorFlow 1.3.0"));
        QVERIFY(topNamed(tree, "Collections (6)"));
        QVERIFY(topNamed(tree, "Stripped op list (44)"));
    }
};

QTEST_MAIN(TestMetaGraphView)
#include "test_meta_graph_view.moc"
