// Tests for buildDocument / documentGraphDef / documentMetaGraph: raw-op and layer-node documents built
// into one GraphBuilder, real tensor names across layers, per-node problems, cycles, savers, the book's
// MNIST network from layer nodes (against TensorFlow's meta graph, and trained), and a 2,000-node timing.
#include "../../support/book_training.h"
#include "../../support/document_test_support.h"
#include "../../support/graph_def_nodes.h"
#include "node_editor/document_builder.h"

#include "../../support/model_test_support.h"
#include "../../support/test_files.h"
#include "builder/attr_values.h"
#include "builder/tensor_proto_values.h"
#include "data/mnist.h"
#include "document/document_commands.h"
#include "document/graph_document.h"
#include "graph_viewer/graph_facts.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "../../support/shared_registries.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <set>

using namespace tstudio;
namespace tf = tensorflow;
using Params = std::map<std::string, tf::AttrValue>;

using tstudio::testing::dependenciesOf;
using tstudio::testing::describeGraph;

namespace {

constexpr auto* registries = &testing::sharedRegistries;

DocNodeId add(GraphDocument& doc, NodeKind kind, const std::string& type, const std::string& name,
              const Params& attrs = {})
{
    return testing::addDocumentNode(doc, kind, type, name, attrs);
}

DocNodeId op(GraphDocument& doc, const std::string& type, const std::string& name, const Params& attrs = {})
{
    return add(doc, NodeKind::kOp, type, name, attrs);
}

DocNodeId layer(GraphDocument& doc, const std::string& type, const std::string& name, const Params& params = {})
{
    return add(doc, NodeKind::kLayer, type, name, params);
}

bool link(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot)
{
    return testing::connectDocumentPorts(doc, from, output, to, slot);
}

bool control(GraphDocument& doc, DocNodeId from, DocNodeId to)
{
    auto command = ConnectCommand::create(&doc, Connection::control(from, to));
    if (!command)
        return false;
    doc.undoStack()->push(command->release());
    return true;
}

tf::AttrValue floats(const TensorShape& shape, const std::vector<double>& values)
{
    auto proto = makeTensorProto(tf::DT_FLOAT, shape, values);
    if (!proto)
        qFatal("%s", proto.error().toString().c_str());
    return attr::tensor(*proto);
}

Params placeholder(const TensorShape& shape, DataType dtype = tf::DT_FLOAT)
{
    return {{"dtype", attr::type(dtype)}, {"shape", attr::shape(shape)}};
}

const tf::NodeDef* findNode(const tf::GraphDef& graph, const std::string& name)
{
    for (const tf::NodeDef& n : graph.node())
        if (n.name() == name)
            return &n;
    return nullptr;
}

std::vector<std::string> inputsOf(const tf::GraphDef& graph, const std::string& name)
{
    const tf::NodeDef* n = findNode(graph, name);
    return n ? std::vector<std::string>(n->input().begin(), n->input().end()) : std::vector<std::string>{"<none>"};
}

std::vector<std::string> trainableNames(const tf::MetaGraphDef& g)
{
    std::vector<std::string> out;
    if (!g.collection_def().count("trainable_variables"))
        return out;
    for (const std::string& bytes : g.collection_def().at("trainable_variables").bytes_list().value()) {
        tf::VariableDef def;
        def.ParseFromString(bytes);
        out.push_back(def.variable_name());
    }
    return out;
}

/// The book's network (models/book_mnist.cpp's inference and training) from layer nodes.
struct BookDocument {
    DocNodeId x = kNoNode, y = kNoNode, layer1 = kNoNode, layer2 = kNoNode, loss = kNoNode, optimizer = kNoNode;
};

BookDocument makeBookDocument(GraphDocument& doc)
{
    BookDocument ids;
    ids.x = layer(doc, "Input", "x-input", placeholder(TensorShape{-1, 784}));
    ids.y = layer(doc, "Input", "y-input", placeholder(TensorShape{-1, 10}));
    ids.layer1 = layer(doc, "Dense", "layer1", testing::bookDenseParams(500, "relu"));
    ids.layer2 = layer(doc, "Dense", "layer2", testing::bookDenseParams(10, "none"));
    ids.loss = layer(doc, "SoftmaxCrossEntropy", "softmax_cross_entropy_loss");
    ids.optimizer = layer(doc, "GradientDescent", "GradientDescent", testing::bookOptimizerParams());
    link(doc, ids.x, 0, ids.layer1, 0);
    link(doc, ids.layer1, 0, ids.layer2, 0);
    link(doc, ids.y, 0, ids.loss, 0);
    link(doc, ids.layer2, 0, ids.loss, 1);
    link(doc, ids.loss, 0, ids.optimizer, 0);
    return ids;
}

} // namespace

class TestDocumentBuilder : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(registries().ops.size() > 100); }

    /// Placeholder -> MatMul(Const) -> BiasAdd(Const) -> Relu, built as the document's own GraphDef
    /// says, with shapes inferred, and the numbers right.
    void rawOpMlp()
    {
        GraphDocument doc(&registries().ops);
        const DocNodeId x = op(doc, "Placeholder", "x", placeholder(TensorShape{-1, 2}));
        const DocNodeId w =
            op(doc, "Const", "w",
               {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", floats(TensorShape{2, 3}, {1, 2, 3, 4, 5, 6})}});
        const DocNodeId mm = op(doc, "MatMul", "mm");
        const DocNodeId bias =
            op(doc, "Const", "bias",
               {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", floats(TensorShape{3}, {-20, 0, 1})}});
        const DocNodeId add = op(doc, "BiasAdd", "add");
        const DocNodeId relu = op(doc, "Relu", "relu");
        QVERIFY(link(doc, x, 0, mm, 0) && link(doc, w, 0, mm, 1));
        QVERIFY(link(doc, mm, 0, add, 0) && link(doc, bias, 0, add, 1) && link(doc, add, 0, relu, 0));

        DocumentBuild build = buildDocument(doc, registries().ops, true);
        QVERIFY(build.problems.empty());
        QCOMPARE(build.tensors.at(relu), std::vector<std::string>{"relu:0"});
        QCOMPARE(build.tensors.at(mm), std::vector<std::string>{"mm:0"});
        QCOMPARE(build.builder->tensor("relu:0")->shape(), (TensorShape{-1, 3}));
        QCOMPARE(build.opNames.at(add), std::string("add"));

        // The same nodes and inputs as the document's own export.
        auto mine = documentGraphDef(doc, registries().ops);
        QVERIFY2(mine, testing::err(mine));
        auto theirs = doc.toGraphDef();
        QVERIFY2(theirs, testing::err(theirs));
        QCOMPARE(describeGraph(*mine), describeGraph(*theirs));
        QVERIFY(!findNode(*mine, "init")); // no layer variables: nothing to initialise
        QVERIFY(!findNode(*mine, "relu")->attr().count("_output_shapes"));

        // [1, 2] x [[1,2,3],[4,5,6]] = [9, 12, 15]; + [-20, 0, 1] = [-11, 12, 16]; relu -> [0, 12, 16].
        SessionOptions options;
        options.ops = &registries().ops;
        options.kernels = &registries().kernels;
        Session session(options);
        QVERIFY(session.create(*mine).isOk());
        CpuAllocator allocator;
        auto feed = Tensor::fromVector<float>(allocator, TensorShape{1, 2}, {1.0f, 2.0f});
        QVERIFY(feed);
        std::vector<Tensor> out;
        const Status s = session.run({{"x", *feed}}, {"relu:0"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        auto values = out.at(0).values<float>();
        QCOMPARE(std::vector<float>(values.begin(), values.end()), (std::vector<float>{0.0f, 12.0f, 16.0f}));
    }

    /// A raw op consuming a layer's output reads the tensor the expansion made; control edges from and
    /// to layer nodes reach their ops.
    void rawNodeConsumesTheLayersRealTensor()
    {
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const DocNodeId x = layer(doc, "Input", "x", placeholder(TensorShape{-1, 4}));
        const DocNodeId fc = layer(doc, "Dense", "fc", {{"units", attr::i(3)}, {"activation", attr::s("relu")}});
        const DocNodeId id = op(doc, "Identity", "id");
        const DocNodeId gate = op(doc, "NoOp", "gate");
        const DocNodeId after = layer(doc, "Relu", "after");
        QVERIFY(link(doc, x, 0, fc, 0) && link(doc, fc, 0, id, 0) && link(doc, id, 0, after, 0));
        QVERIFY(control(doc, fc, gate) && control(doc, gate, after));

        DocumentBuild build = buildDocument(doc, registries().ops, true);
        QVERIFY(build.problems.empty());
        QCOMPARE(build.tensors.at(fc), std::vector<std::string>{"fc/Relu:0"});
        QCOMPARE(build.tensors.at(id), std::vector<std::string>{"id:0"});
        const tf::GraphDef& g = build.builder->graphDef();
        QCOMPARE(inputsOf(g, "id"), std::vector<std::string>{"fc/Relu"});
        QCOMPARE(inputsOf(g, "gate"), std::vector<std::string>{"^fc/Relu"});
        QCOMPARE(inputsOf(g, "after"), (std::vector<std::string>{"id", "^gate"}));
        QCOMPARE(build.builder->tensor("id:0")->shape(), (TensorShape{-1, 3}));

        // Renaming the layer renames what the consumer reads.
        auto rename = RenameCommand::create(&doc, fc, "hidden");
        QVERIFY(rename);
        doc.undoStack()->push(rename->release());
        build = buildDocument(doc, registries().ops, true);
        QCOMPARE(inputsOf(build.builder->graphDef(), "id"), std::vector<std::string>{"hidden/Relu"});
        QVERIFY(build.builder->findNode("hidden/kernel"));
    }

    /// One empty slot, one unknown op and one bad layer param give exactly those problems (and their
    /// consumer says which input failed); every other node builds.
    void problemsAreKeptPerNode()
    {
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const DocNodeId x = op(doc, "Placeholder", "x", placeholder(TensorShape{-1, 4}));
        const DocNodeId mm = op(doc, "MatMul", "mm");
        NodeSpec foo;
        foo.type = "Foo";
        foo.name = "foo";
        foo.ports = PortCounts{1, 1};
        auto fooId = doc.addNode(foo);
        QVERIFY(fooId);
        const DocNodeId fc = layer(doc, "Dense", "fc", {{"units", attr::i(0)}});
        const DocNodeId below = op(doc, "Relu", "below");
        const DocNodeId good = op(doc, "Tanh", "good");
        const DocNodeId fine = layer(doc, "Dense", "fine", {{"units", attr::i(2)}});
        QVERIFY(link(doc, x, 0, mm, 0));
        QVERIFY(link(doc, x, 0, *fooId, 0) && link(doc, x, 0, fc, 0) && link(doc, mm, 0, below, 0));
        QVERIFY(link(doc, x, 0, good, 0) && link(doc, good, 0, fine, 0));

        DocumentBuild build = buildDocument(doc, registries().ops, true);
        const std::map<DocNodeId, std::string> expected{
            {mm, "input 'b' is not connected"},
            {*fooId, "Op type not registered 'Foo'"},
            {fc, "layer 'fc' (Dense): param 'units' must be positive, got 0"},
            {below, "input 'features' comes from 'mm', which has a problem"}};
        QCOMPARE(build.problems, expected);
        QCOMPARE(build.tensors.at(good), std::vector<std::string>{"good:0"});
        QCOMPARE(build.tensors.at(fine), std::vector<std::string>{"fine/BiasAdd:0"});
        QCOMPARE(build.builder->tensor("fine/BiasAdd:0")->shape(), (TensorShape{-1, 2}));
        QVERIFY(!build.tensors.count(mm) && !build.tensors.count(below));

        // Saving stops at the first problem and names the node.
        DocumentBuild first = buildDocument(doc, registries().ops, false);
        QCOMPARE(first.problems.size(), std::size_t(1));
        QCOMPARE(first.problems.begin()->first, mm);
        auto graph = documentGraphDef(doc, registries().ops);
        QVERIFY(!graph);
        QCOMPARE(graph.error().toString(),
                 std::string("InvalidArgument: node 'mm' cannot be built: input 'b' is not connected"));
        QVERIFY(!documentMetaGraph(doc, registries().ops));

        // A bad device is the node's problem too.
        auto device = SetDeviceCommand::create(&doc, good, "/gpu:zero");
        QVERIFY(device);
        doc.undoStack()->push(device->release());
        build = buildDocument(doc, registries().ops, true);
        QVERIFY2(build.problems.count(good), "a device that does not parse is not reported");
        QCOMPARE(build.problems.at(fine), std::string("input 'inputs' comes from 'good', which has a problem"));
    }

    /// A loop (Merge fed back by NextIteration) builds: the back edge is connected after its source.
    /// A layer node on a cycle cannot be built.
    void cyclesBuildWithBackEdges()
    {
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const DocNodeId start =
            op(doc, "Const", "start", {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", floats(TensorShape{2}, {1, 2})}});
        const DocNodeId merge = op(doc, "Merge", "merge", {{"N", attr::i(2)}});
        const DocNodeId body = op(doc, "Identity", "body");
        const DocNodeId next = op(doc, "NextIteration", "next");
        const DocNodeId out = op(doc, "Neg", "out");
        QCOMPARE(doc.node(merge)->inputs.size(), std::size_t(2));
        QVERIFY(doc.connect({start, 0, merge, 0}).isOk() && doc.connect({next, 0, merge, 1}).isOk());
        QVERIFY(doc.connect({merge, 0, body, 0}).isOk() && doc.connect({body, 0, next, 0}).isOk());
        QVERIFY(doc.connect({body, 0, out, 0}).isOk());

        DocumentBuild build = buildDocument(doc, registries().ops, true);
        QVERIFY(build.problems.empty());
        const tf::GraphDef& g = build.builder->graphDef();
        QCOMPARE(inputsOf(g, "merge"), (std::vector<std::string>{"start", "next"}));
        QCOMPARE(inputsOf(g, "out"), std::vector<std::string>{"body"});
        QCOMPARE(build.tensors.at(merge), (std::vector<std::string>{"merge:0", "merge:1"}));

        // A layer inside the loop builds: the cycle is broken at the Merge, not at the layer.
        const DocNodeId act = layer(doc, "Relu", "act");
        QVERIFY(doc.disconnect({merge, 0, body, 0}).isOk());
        QVERIFY(doc.connect({merge, 0, act, 0}).isOk() && doc.connect({act, 0, body, 0}).isOk());
        build = buildDocument(doc, registries().ops, true);
        QVERIFY(build.problems.empty());
        QCOMPARE(inputsOf(build.builder->graphDef(), "act"), std::vector<std::string>{"merge"});
        QCOMPARE(inputsOf(build.builder->graphDef(), "merge"), (std::vector<std::string>{"start", "next"}));

        // A cycle of layer nodes only cannot be built; what hangs off it says why.
        const DocNodeId l1 = layer(doc, "Relu", "l1");
        const DocNodeId l2 = layer(doc, "Relu", "l2");
        const DocNodeId tail = op(doc, "Neg", "tail");
        QVERIFY(doc.connect({l1, 0, l2, 0}).isOk() && doc.connect({l2, 0, l1, 0}).isOk());
        QVERIFY(doc.connect({l2, 0, tail, 0}).isOk());
        build = buildDocument(doc, registries().ops, true);
        const std::map<DocNodeId, std::string> expected{
            {l1, "layer nodes cannot be on a cycle: input 'features' comes from 'l2', which depends on this node"},
            {l2, "input 'features' comes from 'l1', which has a problem"},
            {tail, "input 'x' comes from 'l2', which has a problem"}};
        QCOMPARE(build.problems, expected);
        QCOMPARE(build.tensors.at(out), std::vector<std::string>{"out:0"});
    }

    void layerPortsComeFromTheCatalogue()
    {
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const DocNodeId concat = layer(doc, "Concat", "c");
        const DocNodeId concat3 = layer(doc, "Concat", "c3", {{"N", attr::i(3)}});
        const DocNodeId loss = layer(doc, "SoftmaxCrossEntropy", "l");
        const DocNodeId opt = layer(doc, "Adam", "a");
        const DocNodeId data = layer(doc, "Dataset", "d");
        QCOMPARE(doc.node(concat)->inputs.size(), std::size_t(2));
        QCOMPARE(doc.node(concat3)->inputs.size(), std::size_t(3));
        QCOMPARE(doc.node(loss)->inputs.size(), std::size_t(2));
        QCOMPARE(doc.node(opt)->outputs, 0);
        QCOMPARE(doc.node(data)->outputs, 2);

        // "N" is a port count, not a param: three inputs concatenated.
        const DocNodeId x = layer(doc, "Input", "x", placeholder(TensorShape{-1, 4}));
        for (int slot = 0; slot < 3; ++slot)
            QVERIFY(link(doc, x, 0, concat3, slot));
        DocumentBuild build = buildDocument(doc, registries().ops, true);
        QVERIFY2(!build.problems.count(concat3), build.problems[concat3].c_str());
        QCOMPARE(build.builder->tensor(build.tensors.at(concat3).at(0))->shape(), (TensorShape{-1, 12}));
    }

    /// A Cond node: three slots named after the catalogue; built, it is tf.cond's Switch / Merge nodes and
    /// its consumer reads "cond/Merge"; a float pred is the node's problem, in words that name it.
    void condNodeBuildsTfCond()
    {
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const DocNodeId p = layer(doc, "Input", "p", placeholder(TensorShape::scalar(), tf::DT_BOOL));
        const DocNodeId a = layer(doc, "Input", "a", placeholder(TensorShape{-1, 3}));
        const DocNodeId b = layer(doc, "Input", "b", placeholder(TensorShape{-1, 3}));
        const DocNodeId cond = layer(doc, "Cond", "cond");
        QCOMPARE(doc.node(cond)->inputs.size(), std::size_t(3));
        QCOMPARE(doc.slotName(cond, 0) + "," + doc.slotName(cond, 1) + "," + doc.slotName(cond, 2),
                 std::string("pred,true,false"));
        QVERIFY(link(doc, p, 0, cond, 0) && link(doc, a, 0, cond, 1) && link(doc, b, 0, cond, 2));
        const DocNodeId relu = op(doc, "Relu", "relu");
        QVERIFY(link(doc, cond, 0, relu, 0));
        DocumentBuild build = buildDocument(doc, registries().ops, true);
        QVERIFY2(build.problems.empty(), build.problems.empty() ? "" : build.problems.begin()->second.c_str());
        QCOMPARE(build.tensors.at(cond), std::vector<std::string>{"cond/Merge:0"});
        QCOMPARE(build.builder->tensor("cond/Merge:0")->shape(), (TensorShape{-1, 3}));
        auto graph = documentGraphDef(doc, registries().ops);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        QCOMPARE(inputsOf(*graph, "cond/Switch"), (std::vector<std::string>{"p", "p"}));
        QCOMPARE(inputsOf(*graph, "cond/Merge"), (std::vector<std::string>{"cond/Switch_2", "cond/Switch_1:1"}));
        QCOMPARE(inputsOf(*graph, "relu"), std::vector<std::string>{"cond/Merge"});

        const DocNodeId f = layer(doc, "Input", "f", placeholder(TensorShape::scalar()));
        const DocNodeId gate = layer(doc, "Cond", "gate");
        QVERIFY(link(doc, f, 0, gate, 0) && link(doc, a, 0, gate, 1) && link(doc, b, 0, gate, 2));
        build = buildDocument(doc, registries().ops, true);
        const std::map<DocNodeId, std::string> expected{
            {gate, "layer 'gate' (Cond): port 'pred' takes a bool scalar; got float32 []"}};
        QCOMPARE(build.problems, expected);
    }

    /// A raw graph with a variable gets a saver over it; saving what was loaded back does not add a
    /// second one.
    void rawVariablesGetOneSaver()
    {
        GraphDocument doc(&registries().ops);
        const DocNodeId v =
            op(doc, "VariableV2", "v", {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(TensorShape{2})}});
        const DocNodeId init = op(doc, "Const", "v/initial_value",
                                  {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", floats(TensorShape{2}, {3, 4})}});
        const DocNodeId assign = op(doc, "Assign", "v/Assign");
        QVERIFY(link(doc, v, 0, assign, 0) && link(doc, init, 0, assign, 1));
        auto meta = documentMetaGraph(doc, registries().ops);
        QVERIFY2(meta, testing::err(meta));
        QCOMPARE(meta->saver_def().restore_op_name(), std::string("save/restore_all"));
        QCOMPARE(inputsOf(meta->graph_def(), "save/Assign"), (std::vector<std::string>{"v", "save/RestoreV2"}));
        QVERIFY(findNode(meta->graph_def(), "v/Assign")->attr().at("_output_shapes").list().shape_size() == 1);

        GraphDocument again(&registries().ops);
        QVERIFY(again.fromGraphDef(meta->graph_def()));
        auto meta2 = documentMetaGraph(again, registries().ops);
        QVERIFY2(meta2, testing::err(meta2));
        QCOMPARE(meta2->graph_def().node_size(), meta->graph_def().node_size());
        QCOMPARE(meta2->saver_def().SerializeAsString(), meta->saver_def().SerializeAsString());
        QVERIFY(!findNode(meta2->graph_def(), "save_1/SaveV2"));
    }

    /// Issue #8's check: the book's network from layer nodes, saved as a MetaGraphDef, has the forward
    /// part of TensorFlow's tf1-mnist-book meta graph (names, ops, inputs, dtypes, shapes, variables).
    void bookMnistForwardMatchesTheFixture()
    {
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const BookDocument ids = makeBookDocument(doc);
        QCOMPARE(doc.nodeCount(), std::size_t(6));
        auto meta = documentMetaGraph(doc, registries().ops);
        QVERIFY2(meta, testing::err(meta));
        QCOMPARE(trainableNames(*meta), (std::vector<std::string>{"layer1/weights:0", "layer1/biases:0",
                                                                  "layer2/weights:0", "layer2/biases:0"}));
        QVERIFY(findNode(meta->graph_def(), "init"));
        QCOMPARE(meta->saver_def().filename_tensor_name(), std::string("save/Const:0"));
        DocumentBuild build = buildDocument(doc, registries().ops, true);
        QCOMPARE(build.tensors.at(ids.layer2), std::vector<std::string>{"layer2/add:0"});
        QCOMPARE(build.tensors.at(ids.loss), std::vector<std::string>{"total_loss:0"});
        QCOMPARE(build.targets, std::vector<std::string>{"GradientDescent"});
        QVERIFY(build.tensors.at(ids.optimizer).empty());

        auto fixture = testing::readMetaGraphFixture("tf1-mnist-book/mnist_model-29001.meta");
        if (!fixture)
            QSKIP("no ../shared/fixtures (or $TSTUDIO_FIXTURES) with tf1-mnist-book: not compared with TensorFlow's");
        const std::set<std::string> theirs = dependenciesOf(fixture->graph_def(), "layer2/add");
        QCOMPARE(theirs.size(), std::size_t(14));
        QCOMPARE(dependenciesOf(meta->graph_def(), "layer2/add"), theirs);
        for (const tf::NodeDef& n : fixture->graph_def().node()) {
            if (!theirs.count(n.name()))
                continue;
            const tf::NodeDef* m = findNode(meta->graph_def(), n.name());
            QVERIFY(m);
            QCOMPARE(m->op(), n.op());
            QCOMPARE(inputsOf(meta->graph_def(), n.name()), inputsOf(fixture->graph_def(), n.name()));
            for (const char* key : {"shape", "dtype", "T", "transpose_a", "transpose_b", "_output_shapes"}) {
                if (!n.attr().count(key))
                    continue;
                QVERIFY2(m->attr().count(key), qPrintable(QString::fromStdString(n.name()) + " lacks " + key));
                QVERIFY2(m->attr().at(key).SerializeAsString() == n.attr().at(key).SerializeAsString(),
                         qPrintable(QString::fromStdString(n.name()) + ": attr " + key + " differs"));
            }
        }
        QCOMPARE(trainableNames(*meta), trainableNames(*fixture));
    }

    /// The same document trains with the engine on MNIST test images: the loss falls.
    void bookMnistDocumentTrains()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: no MNIST images to train on");
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const BookDocument ids = makeBookDocument(doc);
        auto meta = documentMetaGraph(doc, registries().ops);
        QVERIFY2(meta, testing::err(meta));
        DocumentBuild build = buildDocument(doc, registries().ops, false);
        const std::string loss = build.tensors.at(ids.loss).at(0);
        const std::string train = build.targets.at(0);

        auto run = testing::trainBookMnist(meta->graph_def(), loss, train, registries(),
                                           QDir(fixtures).filePath("mnist").toStdString());
        QVERIFY2(run, testing::err(run));
        const std::vector<float>& losses = run->losses;
        QCOMPARE(run->globalStep, 30);
        qInfo("loss %.4f -> %.4f after 30 steps", losses.front(), losses.back());
        QVERIFY(std::isfinite(losses.back()));
        QVERIFY2(losses.back() < 0.5f * losses.front(), "the loss did not fall");
    }

    /// A 2,000-node raw chain: built and its facts computed (the figures are reported, not asserted:
    /// timing targets belong in `tstudio bench`).
    void twoThousandNodeChain()
    {
        GraphDocument doc(&registries().ops);
        NodeSpec input;
        input.type = "Placeholder";
        input.name = "x";
        input.attrs = placeholder(TensorShape{-1, 16});
        auto previous = doc.addNode(input);
        QVERIFY(previous);
        const char* types[] = {"Relu", "Tanh", "Sigmoid", "Identity"};
        DocNodeId last = *previous;
        for (int i = 1; i < 2000; ++i) {
            NodeSpec spec;
            spec.type = types[i % 4];
            spec.name = "n" + std::to_string(i);
            auto id = doc.addNode(spec);
            QVERIFY(id);
            QVERIFY(doc.connect({last, 0, *id, 0}).isOk());
            last = *id;
        }
        QElapsedTimer timer;
        timer.start();
        DocumentBuild build = buildDocument(doc, registries().ops, true);
        const qint64 buildNs = timer.nsecsElapsed();
        timer.restart();
        const graph_viewer::GraphFacts facts = graph_viewer::computeGraphFacts(build.builder->graphDef(), registries());
        const qint64 factsNs = timer.nsecsElapsed();
        qInfo("2,000-node chain: buildDocument %.1f ms, computeGraphFacts %.1f ms, together %.1f ms", buildNs / 1e6,
              factsNs / 1e6, (buildNs + factsNs) / 1e6);
        QVERIFY(build.problems.empty());
        QCOMPARE(build.builder->graphDef().node_size(), 2000);
        QCOMPARE(build.tensors.at(last), std::vector<std::string>{"n1999:0"});
        QCOMPARE(facts.nodes.size(), std::size_t(2000));
        QCOMPARE(facts.nodes.back().outputs.at(0).shape, (TensorShape{-1, 16}));
        QVERIFY(facts.nodes.back().problem.empty());
    }
};

QTEST_GUILESS_MAIN(TestDocumentBuilder)
#include "test_document_builder.moc"
