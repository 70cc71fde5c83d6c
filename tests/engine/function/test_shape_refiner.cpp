// Tests for whole-graph shape inference (function/shape_refiner.h) and the kernel-backed constant
// evaluator it uses to see through small constant subgraphs.
#include "framework/allocator.h"
#include "framework/op_registry.h"
#include "graph/graph.h"
#include "io/formats/graph_file.h"
#include "function/shape_refiner.h"
#include "registries/default_registries.h"
#include "runtime/kernel_constant_evaluator.h"
#include "test_files.h"

#include <google/protobuf/text_format.h>

#include <QtTest>

using namespace tstudio;

namespace {

tensorflow::GraphDef parseGraph(const char* text)
{
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
        qFatal("test graph does not parse");
    return graph;
}

// x: float [?,784]; w: Const [784,10]; m = MatMul(x, w); b: Const [10]; y = BiasAdd(m, b);
// r = Reshape(x, Pack(StridedSlice(Shape(x), [0], [1], [1]) shrink, 28, 28)).
const char* kDenseGraph = R"pb(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 784 } } } } }
node { name: "w" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 784 } dim { size: 10 } }
                                            float_val: 0.5 } } } }
node { name: "m" op: "MatMul" input: "x" input: "w" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "b" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 10 } } float_val: 0 } } } }
node { name: "y" op: "BiasAdd" input: "m" input: "b" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "shape" op: "Shape" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "s0" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 0 } } } }
node { name: "s1" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 } } } }
node { name: "batch" op: "StridedSlice" input: "shape" input: "s0" input: "s1" input: "s1"
       attr { key: "T" value { type: DT_INT32 } } attr { key: "Index" value { type: DT_INT32 } }
       attr { key: "shrink_axis_mask" value { i: 1 } } }
node { name: "d28" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 28 } } } }
node { name: "dims" op: "Pack" input: "batch" input: "d28" input: "d28"
       attr { key: "T" value { type: DT_INT32 } } attr { key: "N" value { i: 3 } } }
node { name: "r" op: "Reshape" input: "x" input: "dims"
       attr { key: "T" value { type: DT_FLOAT } } attr { key: "Tshape" value { type: DT_INT32 } } }
node { name: "two" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: 5 int_val: 2 } } } }
node { name: "sum" op: "Add" input: "two" input: "two" attr { key: "T" value { type: DT_INT32 } } }
node { name: "filled" op: "Fill" input: "sum" input: "d28" attr { key: "T" value { type: DT_INT32 } } }
)pb";

} // namespace

class TestShapeRefiner : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    struct Inferred {
        std::unique_ptr<KernelConstantEvaluator> evaluator;
        std::optional<Graph> graph;
        std::optional<GraphShapes> shapes;
        QString shape(const char* name) const
        {
            const InferredOutput* out = shapes->find(*graph, name);
            return out ? QString::fromStdString(out->shape.toString()) : QStringLiteral("<no such output>");
        }
    };

    Inferred infer(tensorflow::GraphDef def, bool withEvaluator = true, ShapeRefinerOptions options = {})
    {
        Inferred r;
        r.evaluator = std::make_unique<KernelConstantEvaluator>(m_registries->ops, m_registries->kernels);
        auto graph = Graph::fromGraphDef(std::move(def));
        if (!graph)
            qFatal("%s", graph.error().toString().c_str());
        r.graph = std::move(*graph);
        if (withEvaluator)
            options.evaluator = r.evaluator->function();
        auto shapes = inferGraphShapes(*r.graph, m_registries->ops, r.evaluator->allocator(), options);
        if (!shapes)
            qFatal("%s", shapes.error().toString().c_str());
        r.shapes = std::move(*shapes);
        return r;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, registries ? "" : registries.error().toString().c_str());
        m_registries = std::move(*registries);
    }

    void denseLayerShapes()
    {
        Inferred r = infer(parseGraph(kDenseGraph));
        QVERIFY2(r.shapes->status().isOk(), r.shapes->status().toString().c_str());
        QCOMPARE(r.shape("m"), QStringLiteral("[?,10]"));
        QCOMPARE(r.shape("y:0"), QStringLiteral("[?,10]"));
        QCOMPARE(r.shape("shape"), QStringLiteral("[2]"));
        QCOMPARE(r.shapes->find(*r.graph, "y")->dtype, tensorflow::DT_FLOAT);
        QCOMPARE(r.shapes->find(*r.graph, "shape")->dtype, tensorflow::DT_INT32);
        QVERIFY(r.shapes->find(*r.graph, "w")->value.has_value());
        QVERIFY(!r.shapes->find(*r.graph, "m")->value.has_value());
        QVERIFY(r.shapes->find(*r.graph, "y:1") == nullptr);
        QVERIFY(r.shapes->find(*r.graph, "nope") == nullptr);
    }

    void partialShapeTensorsAsTensorFlowSeesThem()
    {
        // Pack(unknown batch, 28, 28) is the partial shape [?,28,28], as TensorFlow's
        // ConstantPartialShape reads it, so the Reshape is [?,28,28] and not [?,?,?].
        Inferred r = infer(parseGraph(kDenseGraph), /*withEvaluator=*/false);
        QCOMPARE(r.shape("r"), QStringLiteral("[?,28,28]"));
        QCOMPARE(QString::fromStdString(r.shapes->find(*r.graph, "dims")->valueAsShape.toString()),
                 QStringLiteral("[?,28,28]"));
        QCOMPARE(QString::fromStdString(r.shapes->find(*r.graph, "shape")->valueAsShape.toString()),
                 QStringLiteral("[?,784]"));
    }

    void constantSubgraphsAreEvaluatedWithKernels()
    {
        // Fill(Add(two, two), 28): the dims are only known by running Add.
        Inferred with = infer(parseGraph(kDenseGraph), true);
        QCOMPARE(with.shape("filled"), QStringLiteral("[10,4]"));
        const InferredOutput* sum = with.shapes->find(*with.graph, "sum");
        QVERIFY(sum->value.has_value());
        QCOMPARE(sum->value->values<std::int32_t>()[0], 10);
        Inferred without = infer(parseGraph(kDenseGraph), false);
        QCOMPARE(without.shape("filled"), QStringLiteral("[?,?]"));
    }

    void assumedShapesRefineTheGraph()
    {
        ShapeRefinerOptions options;
        options.assumedShapes["x:0"] = TensorShape{3, 784};
        Inferred r = infer(parseGraph(kDenseGraph), true, options);
        QCOMPARE(r.shape("y"), QStringLiteral("[3,10]"));
        QCOMPARE(r.shape("r"), QStringLiteral("[3,28,28]"));
        // The batch size is now known, so Shape(x) is a constant.
        QVERIFY(r.shapes->find(*r.graph, "shape")->value.has_value());

        auto graph = Graph::fromGraphDef(parseGraph(kDenseGraph));
        QVERIFY(graph);
        KernelConstantEvaluator evaluator(m_registries->ops, m_registries->kernels);
        ShapeRefinerOptions bad;
        bad.assumedShapes["x:0"] = TensorShape{3, 785};
        auto contradicted = inferGraphShapes(*graph, m_registries->ops, evaluator.allocator(), bad);
        QVERIFY(!contradicted);
        QVERIFY2(contradicted.error().message().find("cannot assume shape [3,785] for 'x:0'") != std::string::npos,
                 contradicted.error().message().c_str());
        ShapeRefinerOptions missing;
        missing.assumedShapes["nope:0"] = TensorShape{1};
        auto absent = inferGraphShapes(*graph, m_registries->ops, evaluator.allocator(), missing);
        QVERIFY(!absent);
        QVERIFY(absent.error().message().find("'nope:0'") != std::string::npos);
    }

    void shapeErrorsUseTensorFlowsWordsAndInferenceGoesOn()
    {
        Inferred r = infer(parseGraph(R"pb(
            node { name: "v" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
                   attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: 1 } } } }
            node { name: "w" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
                   attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 4 } } float_val: 1 } } } }
            node { name: "mm" op: "MatMul" input: "v" input: "w" attr { key: "T" value { type: DT_FLOAT } } }
            node { name: "after" op: "Relu" input: "mm" attr { key: "T" value { type: DT_FLOAT } } }
            node { name: "odd" op: "NoSuchOp" input: "w" }
            node { name: "fine" op: "Relu" input: "w" attr { key: "T" value { type: DT_FLOAT } } }
        )pb"));
        QCOMPARE(r.shapes->errors().size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(r.shapes->status().message()),
                 QStringLiteral("Shape must be rank 2 but is rank 1 for 'mm' (op: 'MatMul') with input shapes: [3], [3,4]."));
        QCOMPARE(QString::fromStdString(r.shapes->errors()[1].status.message()),
                 QStringLiteral("node 'odd': Op type not registered 'NoSuchOp'"));
        QCOMPARE(r.shape("after"), QStringLiteral("<unknown>"));
        QCOMPARE(r.shape("fine"), QStringLiteral("[3,4]"));
    }

    void whileLoopBackEdgesCountAsUnknown()
    {
        // i = 0; while i < 10: i = i + 1 (TensorFlow 1.x control flow v1).
        Inferred r = infer(parseGraph(R"pb(
            node { name: "zero" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 0 } } } }
            node { name: "w/Enter" op: "Enter" input: "zero" attr { key: "T" value { type: DT_INT32 } }
                   attr { key: "frame_name" value { s: "w" } } }
            node { name: "w/Merge" op: "Merge" input: "w/Enter" input: "w/NextIteration"
                   attr { key: "T" value { type: DT_INT32 } } attr { key: "N" value { i: 2 } } }
            node { name: "w/limit" op: "Const" input: "^w/Merge" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 10 } } } }
            node { name: "w/Less" op: "Less" input: "w/Merge" input: "w/limit" attr { key: "T" value { type: DT_INT32 } } }
            node { name: "w/LoopCond" op: "LoopCond" input: "w/Less" }
            node { name: "w/Switch" op: "Switch" input: "w/Merge" input: "w/LoopCond" attr { key: "T" value { type: DT_INT32 } } }
            node { name: "w/Identity" op: "Identity" input: "w/Switch:1" attr { key: "T" value { type: DT_INT32 } } }
            node { name: "w/one" op: "Const" input: "^w/Identity" attr { key: "dtype" value { type: DT_INT32 } }
                   attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
            node { name: "w/add" op: "Add" input: "w/Identity" input: "w/one" attr { key: "T" value { type: DT_INT32 } } }
            node { name: "w/NextIteration" op: "NextIteration" input: "w/add" attr { key: "T" value { type: DT_INT32 } } }
            node { name: "w/Exit" op: "Exit" input: "w/Switch" attr { key: "T" value { type: DT_INT32 } } }
        )pb"));
        QVERIFY2(r.shapes->status().isOk(), r.shapes->status().toString().c_str());
        QCOMPARE(r.shape("w/Merge:1"), QStringLiteral("[]"));
        QCOMPARE(r.shape("w/LoopCond"), QStringLiteral("[]"));
        // A loop variable is never a constant, even though every input it starts from is.
        QVERIFY(!r.shapes->find(*r.graph, "w/Exit")->value.has_value());
        QVERIFY(!r.shapes->find(*r.graph, "w/add")->value.has_value());
        QCOMPARE(r.shapes->find(*r.graph, "w/NextIteration")->dtype, tensorflow::DT_INT32);
    }

    void oneNodeStepByItself()
    {
        // inferNodeOutputs is the step inferGraphShapes takes per node (and GraphBuilder per node
        // added): inputs come as InferredOutputs, nullptr for one not known yet.
        const OpRegistration& reshape = **m_registries->ops.lookUp("Reshape");
        tensorflow::NodeDef node;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(
            R"pb(name: "r" op: "Reshape" input: "x" input: "dims"
                 attr { key: "T" value { type: DT_FLOAT } } attr { key: "Tshape" value { type: DT_INT32 } })pb",
            &node));
        CpuAllocator allocator;
        InferredOutput x{tensorflow::DT_FLOAT, TensorShape{-1, 784}, std::nullopt, TensorShape::unknown()};
        // Pack(batch, 28, 28): no value, but the partial shape [?,28,28].
        InferredOutput dims{tensorflow::DT_INT32, TensorShape{3}, std::nullopt, TensorShape{-1, 28, 28}};
        auto out = inferNodeOutputs(node, reshape, {&x, &dims}, allocator);
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE(out->size(), std::size_t{1});
        QCOMPARE((*out)[0].shape, (TensorShape{-1, 28, 28}));
        QCOMPARE((*out)[0].dtype, tensorflow::DT_FLOAT);
        // Without the partial shape only the rank is known; an input not known yet is unknown.
        dims.valueAsShape = TensorShape::unknown();
        QCOMPARE((*inferNodeOutputs(node, reshape, {&x, &dims}, allocator))[0].shape, TensorShape::unknownDims(3));
        QCOMPARE((*inferNodeOutputs(node, reshape, {&x, nullptr}, allocator))[0].shape, TensorShape::unknown());

        // Shape of a fully defined input is a value, and its partial shape follows from it.
        const OpRegistration& shapeOp = **m_registries->ops.lookUp("Shape");
        tensorflow::NodeDef shapeNode;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(
            R"pb(name: "s" op: "Shape" input: "z" attr { key: "T" value { type: DT_FLOAT } }
                 attr { key: "out_type" value { type: DT_INT32 } })pb",
            &shapeNode));
        InferredOutput z{tensorflow::DT_FLOAT, TensorShape{2, 5}, std::nullopt, TensorShape::unknown()};
        auto s = inferNodeOutputs(shapeNode, shapeOp, {&z}, allocator);
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QVERIFY((*s)[0].value.has_value());
        QCOMPARE((*s)[0].valueAsShape, (TensorShape{2, 5}));

        // Errors: the shape function's in TensorFlow's form, and a wrong number of inputs.
        InferredOutput vector{tensorflow::DT_INT32, TensorShape{3, 1}, std::nullopt, TensorShape::unknown()};
        auto bad = inferNodeOutputs(node, reshape, {&x, &vector}, allocator);
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.error().message()),
                 QStringLiteral("Shape must be rank 1 but is rank 2 for 'r' (op: 'Reshape') with input shapes: "
                                "[?,784], [3,1]."));
        auto missing = inferNodeOutputs(node, reshape, {&x}, allocator);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kInvalidArgument);
    }

    void tensorflowGraphsInferWithoutErrors()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("TensorFlow fixtures not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        auto lstm = readGraphFromFile((fixtures + "/tf2onnx/lstm/frozen.pb").toStdString());
        QVERIFY2(lstm, lstm ? "" : lstm.error().toString().c_str());
        Inferred r = infer(std::move(lstm->graph));
        QVERIFY2(r.shapes->status().isOk(), r.shapes->status().toString().c_str());
        QCOMPARE(r.shape("model/Reshape"), QStringLiteral("[?,28,28]"));
        QCOMPARE(r.shape("model/unstack:27"), QStringLiteral("[?,28]"));
        QCOMPARE(r.shape("output"), QStringLiteral("[?,10]"));
    }
};

QTEST_GUILESS_MAIN(TestShapeRefiner)
#include "test_shape_refiner.moc"
