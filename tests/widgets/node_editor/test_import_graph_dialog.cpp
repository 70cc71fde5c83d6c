// Tests for Edit ▸ Import Graph… in the node editor: the dialog's rows (one per placeholder, the
// document's tensors of its dtype offered), the request it makes, and NodeEditor::importGraph:
// nodes under a collapsed "import" scope wired to the chosen tensor, one undo step, errors shown.
#include "document/document_commands.h"
#include "node_editor/graph_import.h"
#include "node_editor/import_graph_dialog.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "registries/default_registries.h"

#include <QComboBox>
#include <QLineEdit>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

#include <google/protobuf/text_format.h>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

const char* kDocument = R"(
node { name: "data" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } }
    float_val: 3 float_val: 4 } } } }
node { name: "count" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 7 } } } }
)";

const char* kImported = R"(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Neg" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
)";

tensorflow::GraphDef parsed(const char* text)
{
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
        qFatal("bad test graph");
    return graph;
}

} // namespace

class TestImportGraphDialog : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void dialogOffersTensorsOfTheRightDtype()
    {
        NodeEditor editor(m_registries.get());
        QVERIFY(editor.loadGraphDef(parsed(kDocument), "doc").isOk());
        ImportGraphDialog dialog(editor.document(), m_registries.get(), parsed(kImported), "neg.pbtxt");
        QCOMPARE(dialog.windowTitle(), QString("Import neg.pbtxt"));
        QCOMPARE(dialog.inputTable()->rowCount(), 1);
        QComboBox* box = dialog.mappingBox("x:0");
        QVERIFY(box);
        // "(keep the placeholder)" and the float tensor; the int32 one is not offered.
        QCOMPARE(box->count(), 2);
        QVERIFY(box->itemText(1).startsWith("data:0"));
        QVERIFY(dialog.request().inputMap.empty());
        QCOMPARE(dialog.request().prefix, std::string("import"));
        box->setCurrentIndex(1);
        dialog.prefixEdit()->setText("negate");
        const GraphImport request = dialog.request();
        QCOMPARE(request.prefix, std::string("negate"));
        QCOMPARE(request.inputMap.size(), std::size_t{1});
        QCOMPARE(request.inputMap.at("x:0").first, editor.document()->findByName("data"));
    }

    void editorImportsAsOneUndoStep()
    {
        NodeEditor editor(m_registries.get());
        QVERIFY(editor.loadGraphDef(parsed(kDocument), "doc").isOk());
        GraphDocument* doc = editor.document();
        const std::size_t before = doc->nodeCount();
        GraphImport request;
        request.inputMap["x:0"] = {doc->findByName("data"), 0};
        QVERIFY(editor.importGraph(parsed(kImported), request).isOk());
        QCOMPARE(doc->nodeCount(), before + 2);
        const DocNodeId y = doc->findByName("import/y");
        QVERIFY(y != kNoNode);
        bool wired = false;
        for (const Connection& c : doc->connections())
            wired = wired || (c.to == y && c.from == doc->findByName("data"));
        QVERIFY(wired);
        QVERIFY(editor.scene()->collapsedScopes().count("import"));
        doc->undoStack()->undo();
        QCOMPARE(doc->nodeCount(), before);

        GraphImport wrong;
        wrong.inputMap["x:0"] = {doc->findByName("count"), 0};
        const Status refused = editor.importGraph(parsed(kImported), wrong);
        QVERIFY(!refused.isOk());
        QVERIFY2(refused.message().find("incompatible with expected float") != std::string::npos,
                 refused.message().c_str());
        QCOMPARE(doc->nodeCount(), before);
    }
};

QTEST_MAIN(TestImportGraphDialog)
#include "test_import_graph_dialog.moc"
