// Tests for tf.import_graph_def into a graph that has nodes (GraphBuilder::importGraphDef with
// ImportGraphDefOptions): the prefix as tf.name_scope makes it ("import", "import_1", under the current
// scope, none for ""), inputs, control inputs and colocation groups renamed with their nodes,
// input_map for tensors and control inputs (with the dtype check), return_elements, the errors of
// TensorFlow 1.15's importer, the builder unchanged after a failed import, and the merged graph run;
// TensorFlow's own training graph (tf1-mnist-book's .meta) imported twice beside a new input.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "fixture_paths.h"
#include "graph/tensor_id.h"
#include "model/meta_graph.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "model_test_support.h"

#include <QtTest>

#include <algorithm>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestImportGraphDef : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

    /// x: float [2] placeholder; c: [1, 2]; y = x + c; z = y * y; ident: Identity(x) colocated with x;
    /// done: NoOp after z.
    tf::GraphDef sourceGraph()
    {
        GraphBuilder src(m_registries->ops);
        auto x = ops::placeholder(src, tf::DT_FLOAT, TensorShape{2}, "x");
        auto c = ops::constant(src, {1.0, 2.0}, TensorShape{2}, tf::DT_FLOAT, "c");
        auto y = ops::add(src, *x, *c, "y");
        auto z = ops::mul(src, *y, *y, "z");
        auto xOp = src.operation("x");
        {
            auto colocated = src.colocateWith(*xOp);
            (void)ops::identity(src, *x, "ident");
        }
        auto zOp = src.operation("z");
        {
            auto after = src.controlDependencies({*zOp});
            (void)src.op("NoOp", {}, {}, "done");
        }
        return src.graphDef();
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    /// The default name is "import", then "import_1": nodes, inputs, control inputs and "loc:@"
    /// groups under it; shapes inferred.
    void prefixesEveryNameAndReference()
    {
        const tf::GraphDef source = sourceGraph();
        GraphBuilder b(m_registries->ops);
        QVERIFY(ops::constant(b, {10.0, 20.0}, TensorShape{2}, tf::DT_FLOAT, "a"));
        auto first = b.importGraphDef(source, {});
        QVERIFY2(first, err(first));
        QCOMPARE(QString::fromStdString(first->prefix), QStringLiteral("import"));
        QCOMPARE(b.nodeCount(), 1 + source.node_size());
        QCOMPARE(inputsOf(b, "import/y"), (std::vector<std::string>{"import/x", "import/c"}));
        QCOMPARE(inputsOf(b, "import/done"), (std::vector<std::string>{"^import/z"}));
        const tf::NodeDef* ident = b.findNode("import/ident");
        QVERIFY(ident);
        QCOMPARE(QString::fromStdString(ident->attr().at("_class").list().s(0)), QStringLiteral("loc:@import/x"));
        auto y = b.tensor("import/y:0");
        QVERIFY2(y, err(y));
        QCOMPARE(y->dtype(), tf::DT_FLOAT);
        QCOMPARE(y->shape(), TensorShape{2});

        auto second = b.importGraphDef(source, {});
        QVERIFY2(second, err(second));
        QCOMPARE(QString::fromStdString(second->prefix), QStringLiteral("import_1"));
        QVERIFY(b.findNode("import_1/z"));
        // Nodes built afterwards do not take an imported name.
        auto more = ops::identity(b, *b.tensor("a:0"), "import");
        QVERIFY2(more, err(more));
        QCOMPARE(QString::fromStdString(more->node()), QStringLiteral("import_2"));
    }

    /// input_map wires this graph's tensor in place of x, "^z" moves done's control input;
    /// return_elements come back as an Output and an Operation; the merged graph runs.
    void inputMapAndReturnElements()
    {
        GraphBuilder b(m_registries->ops);
        auto a = ops::constant(b, {10.0, 20.0}, TensorShape{2}, tf::DT_FLOAT, "a");
        QVERIFY2(a, err(a));
        ImportGraphDefOptions options;
        options.name = "model";
        options.inputMap = {{"x", *a}, {"^z", *a}};
        options.returnElements = {"z:0", "done", "x"};
        auto imported = b.importGraphDef(sourceGraph(), options);
        QVERIFY2(imported, err(imported));
        QCOMPARE(QString::fromStdString(imported->prefix), QStringLiteral("model"));
        QCOMPARE(inputsOf(b, "model/y"), (std::vector<std::string>{"a", "model/c"}));
        QCOMPARE(inputsOf(b, "model/done"), (std::vector<std::string>{"^a"}));
        QVERIFY(b.findNode("model/x")); // still imported, read by nothing but ident
        QCOMPARE(imported->returned.size(), std::size_t{3});
        QVERIFY(std::holds_alternative<Output>(imported->returned[0]));
        const Output z = std::get<Output>(imported->returned[0]);
        QCOMPARE(QString::fromStdString(z.name()), QStringLiteral("model/z:0"));
        QCOMPARE(z.shape(), TensorShape{2});
        QVERIFY(std::holds_alternative<Operation>(imported->returned[1]));
        QCOMPARE(QString::fromStdString(std::get<Operation>(imported->returned[1]).name()),
                 QStringLiteral("model/done"));
        QCOMPARE(QString::fromStdString(std::get<Operation>(imported->returned[2]).type()),
                 QStringLiteral("Placeholder"));

        // (a + c)^2 with a = [10, 20], c = [1, 2]: [121, 484], x never fed.
        auto out = runGraph(*m_registries, b, {}, {"model/z:0"}, {"model/done"});
        QVERIFY2(out, err(out));
        QCOMPARE(out->at(0).flat<float>()(0), 121.0f);
        QCOMPARE(out->at(0).flat<float>()(1), 484.0f);
    }

    /// name "" keeps the names, making those the graph has unique; the current name scope holds a
    /// named prefix.
    void emptyNameAndNameScope()
    {
        GraphBuilder b(m_registries->ops);
        QVERIFY(ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x"));
        ImportGraphDefOptions none;
        none.name = "";
        auto imported = b.importGraphDef(sourceGraph(), none);
        QVERIFY2(imported, err(imported));
        QCOMPARE(QString::fromStdString(imported->prefix), QString());
        QVERIFY(b.findNode("x_1"));
        QCOMPARE(inputsOf(b, "y"), (std::vector<std::string>{"x_1", "c"}));
        QCOMPARE(QString::fromStdString(b.findNode("ident")->attr().at("_class").list().s(0)),
                 QStringLiteral("loc:@x_1"));

        auto outer = b.nameScope("outer");
        QVERIFY2(outer, err(outer));
        ImportGraphDefOptions named;
        named.name = "sub";
        auto nested = b.importGraphDef(sourceGraph(), named);
        QVERIFY2(nested, err(nested));
        QCOMPARE(QString::fromStdString(nested->prefix), QStringLiteral("outer/sub"));
        QVERIFY(b.findNode("outer/sub/z"));
        QCOMPARE(QString::fromStdString(b.currentNameScope()), QStringLiteral("outer"));
    }

    /// The GraphDef TensorFlow 1.x wrote for the MNIST book's model (training graph: variables,
    /// gradients, saver) imported twice under prefixes beside this graph's own input, mapped in place
    /// of "x-input": every node there, every reference renamed or mapped, the logits' shape inferred.
    void tensorFlowsTrainingGraph()
    {
        const std::string path = fixturePath("tf1-mnist-book/mnist_model-29001.meta");
        if (path.empty())
            QSKIP(missingFixture("tf1-mnist-book/mnist_model-29001.meta").constData());
        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta, err(meta));
        const tf::GraphDef& source = meta->graph_def();
        GraphBuilder b(m_registries->ops);
        auto images = ops::placeholder(b, tf::DT_FLOAT, TensorShape{32, 784}, "images");
        QVERIFY2(images, err(images));
        ImportGraphDefOptions options;
        options.name = "book";
        options.inputMap = {{"x-input:0", *images}};
        options.returnElements = {"x-input"};
        auto imported = b.importGraphDef(source, options);
        QVERIFY2(imported, err(imported));
        QCOMPARE(b.nodeCount(), 1 + source.node_size());
        int mapped = 0;
        for (const tf::NodeDef& node : source.node()) {
            const tf::NodeDef* copy = b.findNode("book/" + node.name());
            QVERIFY2(copy, node.name().c_str());
            QCOMPARE(copy->input_size(), node.input_size());
            for (int i = 0; i < node.input_size(); ++i) {
                auto id = parseTensorId(node.input(i));
                QVERIFY(id);
                if (!id->isControl() && id->node == "x-input") {
                    QCOMPARE(QString::fromStdString(copy->input(i)), QStringLiteral("images"));
                    ++mapped;
                } else {
                    QVERIFY2(copy->input(i).starts_with(id->isControl() ? "^book/" : "book/"), copy->input(i).c_str());
                }
            }
        }
        QVERIFY(mapped > 0);
        // The first layer now sees the batch of 32 the new input fixes (not the weights' gradient,
        // images^T x grad, which reads it transposed).
        int layers = 0;
        for (const tf::NodeDef& node : b.graphDef().node())
            if (node.op() == "MatMul" && node.input(0) == "images" && !node.attr().at("transpose_a").b()) {
                ++layers;
                auto product = b.tensor(node.name() + ":0");
                QVERIFY2(product, err(product));
                QCOMPARE(product->shape().dim(0), std::int64_t{32});
            }
        QCOMPARE(layers, 1);
        auto again = b.importGraphDef(source, {});
        QVERIFY2(again, err(again));
        QCOMPARE(QString::fromStdString(again->prefix), QStringLiteral("import"));
        QCOMPARE(b.nodeCount(), 1 + 2 * source.node_size());
    }

    /// TensorFlow's errors; the builder keeps its nodes as they were.
    void errorsLeaveTheGraphAsItWas()
    {
        GraphBuilder b(m_registries->ops);
        auto a = ops::constant(b, {10.0, 20.0}, TensorShape{2}, tf::DT_FLOAT, "a");
        auto k = ops::constantInts(b, {1, 2}, TensorShape{2}, tf::DT_INT32, "k");
        QVERIFY(a && k);
        const int before = b.nodeCount();
        const tf::GraphDef source = sourceGraph();
        auto fails = [&](const ImportGraphDefOptions& options, const QString& expected,
                         const tf::GraphDef* graph = nullptr) {
            auto imported = b.importGraphDef(graph ? *graph : source, options);
            QVERIFY(!imported);
            QVERIFY2(QString::fromStdString(imported.error().message()).contains(expected),
                     qPrintable(QString::fromStdString(imported.error().message())));
            QCOMPARE(b.nodeCount(), before);
        };
        ImportGraphDefOptions unused;
        unused.inputMap = {{"nope:0", *a}, {"x:0", *a}};
        fails(unused, QStringLiteral("Attempted to map inputs that were not found in graph_def: [nope:0]"));
        ImportGraphDefOptions node;
        node.returnElements = {"missing"};
        fails(node, QStringLiteral("Requested return node 'missing' not found in graph def"));
        ImportGraphDefOptions tensor;
        tensor.returnElements = {"y:3"};
        fails(tensor, QStringLiteral("Requested return tensor 'y:3' not found in graph def"));
        ImportGraphDefOptions dtype;
        dtype.name = "typed";
        dtype.inputMap = {{"x:0", *k}};
        fails(dtype,
              QStringLiteral("Input 0 of node typed/y was passed int32 from k:0 incompatible with expected float."));

        tf::GraphDef dangling = source;
        dangling.mutable_node(2)->add_input("ghost");
        fails({}, QStringLiteral("Node 'y': Unknown input node 'ghost'"), &dangling);
        // The prefixes the failed imports entered stay taken, as tf.name_scope leaves them.
        auto after = b.importGraphDef(source, {});
        QVERIFY2(after, err(after));
        QVERIFY(after->prefix != "import");
    }
};

QTEST_APPLESS_MAIN(TestImportGraphDef)
#include "test_import_graph_def.moc"
