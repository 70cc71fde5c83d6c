// Tests for importing a graph into the editor's document (graph_import.h): the placeholders offered,
// the document's tensors (a layer's outputs by the layer's name), nodes renamed under "import" then
// "import_1", a placeholder replaced by a document tensor (the fragment wires the document node),
// the dtype check in TensorFlow's words, and the pasted document running end to end.
#include "node_editor/graph_import.h"

#include "../../support/document_test_support.h"
#include "../../support/model_test_support.h"
#include "../../support/shared_registries.h"
#include "builder/attr_values.h"
#include "builder/tensor_proto_values.h"
#include "document/document_commands.h"
#include "document/graph_document.h"
#include "node_editor/interactive_session.h"

#include <QTest>
#include <QUndoStack>

#include <google/protobuf/text_format.h>

using namespace tstudio;
using namespace tstudio::node_editor;
namespace tf = tensorflow;

namespace {

/// y = square(x) + 1 over a float placeholder x [?, 2], and an int placeholder k.
const char* kSquarePlusOne = R"(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: -1 } dim { size: 2 } } } } }
node { name: "k" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
node { name: "sq" op: "Square" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "one" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
node { name: "y" op: "AddV2" input: "sq" input: "one" attr { key: "T" value { type: DT_FLOAT } } }
)";

DocNodeId op(GraphDocument& doc, const std::string& type, const std::string& name,
             const std::map<std::string, tf::AttrValue>& attrs = {})
{
    return testing::addDocumentNode(doc, NodeKind::kOp, type, name, attrs);
}

tf::GraphDef parsed(const char* text)
{
    tf::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
        qFatal("bad test graph");
    return graph;
}

const tf::NodeDef* findNode(const tf::GraphDef& g, const std::string& name)
{
    for (const auto& n : g.node())
        if (n.name() == name)
            return &n;
    return nullptr;
}

} // namespace

class TestGraphImport : public QObject {
    Q_OBJECT
private slots:
    void placeholdersAndDocumentTensors()
    {
        const auto inputs = importInputs(parsed(kSquarePlusOne));
        QCOMPARE(inputs.size(), std::size_t{2});
        QCOMPARE(inputs[0].name, std::string("x:0"));
        QCOMPARE(inputs[0].shape.toString(), std::string("[?,2]"));
        QCOMPARE(inputs[1].dtype, tf::DT_INT32);

        GraphDocument doc(&testing::sharedRegistries().ops);
        auto proto = makeTensorProto(tf::DT_FLOAT, TensorShape({1, 2}), std::vector<double>{3, -4});
        QVERIFY(proto);
        op(doc, "Const", "data", {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", attr::tensor(*proto)}});
        const auto tensors = documentTensors(doc, testing::sharedRegistries());
        QCOMPARE(tensors.size(), std::size_t{1});
        QCOMPARE(tensors[0].label, std::string("data:0"));
        QCOMPARE(tensors[0].shape.toString(), std::string("[1,2]"));
    }

    void importsUnderAPrefixWithAnInputMapped()
    {
        GraphDocument doc(&testing::sharedRegistries().ops);
        auto proto = makeTensorProto(tf::DT_FLOAT, TensorShape({1, 2}), std::vector<double>{3, -4});
        QVERIFY(proto);
        const DocNodeId data =
            op(doc, "Const", "data", {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", attr::tensor(*proto)}});
        GraphImport request;
        request.inputMap["x:0"] = {data, 0};
        auto first = importIntoDocument(doc, testing::sharedRegistries(), parsed(kSquarePlusOne), request);
        QVERIFY2(first, testing::err(first));
        QCOMPARE(first->prefix, std::string("import"));
        // x is still imported (as TensorFlow keeps a mapped placeholder); its consumer reads data.
        QVERIFY(findNode(first->fragment, "import/x"));
        const tf::NodeDef* sq = findNode(first->fragment, "import/sq");
        QVERIFY(sq);
        QCOMPARE(sq->input(0), std::string("data:0"));
        QCOMPARE(findNode(first->fragment, "import/y")->input(0), std::string("import/sq"));
        QCOMPARE(first->fragment.node_size(), 5);

        // Pasted, the document evaluates y = data^2 + 1 without a feed.
        auto paste = PasteCommand::create(&doc, first->fragment);
        QVERIFY2(paste, testing::err(paste));
        doc.undoStack()->push(paste->release());
        InteractiveSession session(testing::sharedRegistries());
        auto run = session.run(doc, *parseConsoleLine("import/y"));
        QVERIFY2(run, testing::err(run));
        const auto values = run->values.front().tensor.values<float>();
        QCOMPARE(std::vector<float>(values.begin(), values.end()), (std::vector<float>{10, 17}));

        // A second import gets the next scope.
        auto second = importIntoDocument(doc, testing::sharedRegistries(), parsed(kSquarePlusOne), {});
        QVERIFY2(second, testing::err(second));
        QCOMPARE(second->prefix, std::string("import_1"));
        QVERIFY(findNode(second->fragment, "import_1/y"));
    }

    void aMappingOfTheWrongDtypeIsRefused()
    {
        GraphDocument doc(&testing::sharedRegistries().ops);
        auto proto = makeTensorProto(tf::DT_INT32, TensorShape({}), std::vector<double>{3});
        QVERIFY(proto);
        const DocNodeId k =
            op(doc, "Const", "k", {{"dtype", attr::type(tf::DT_INT32)}, {"value", attr::tensor(*proto)}});
        GraphImport request;
        request.inputMap["x:0"] = {k, 0};
        auto wrong = importIntoDocument(doc, testing::sharedRegistries(), parsed(kSquarePlusOne), request);
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().message(),
                 std::string("Input 0 of node import/sq was passed int32 from k:0 incompatible with expected float."));
        GraphImport missing;
        missing.inputMap["nope:0"] = {k, 0};
        auto unknown = importIntoDocument(doc, testing::sharedRegistries(), parsed(kSquarePlusOne), missing);
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().message().find("Attempted to map inputs that were not found in graph_def: [nope:0]") !=
                     std::string::npos,
                 unknown.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestGraphImport)
#include "test_graph_import.moc"
