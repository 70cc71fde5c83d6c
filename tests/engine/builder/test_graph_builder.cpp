// Tests for GraphBuilder: TensorFlow's naming, attr inference and validation, shapes, scopes and export.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/random_seed.h"
#include "builder/tensor_proto_values.h"
#include "framework/op_registry.h"
#include "graph/graph.h"
#include "function/shape_refiner.h"
#include "registries/register_all_ops.h"
#include "model_test_support.h"

#include <QtTest>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

using tstudio::testing::err;

std::vector<std::string> inputsOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* def = b.findNode(node);
    return def ? std::vector<std::string>(def->input().begin(), def->input().end())
               : std::vector<std::string>{"<none>"};
}

std::vector<std::string> classOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* def = b.findNode(node);
    if (!def || def->attr().count("_class") == 0)
        return {};
    const auto& s = def->attr().at("_class").list().s();
    return {s.begin(), s.end()};
}

} // namespace

class TestGraphBuilder : public QObject {
    Q_OBJECT

private:
    OpRegistry m_ops;

    Output placeholder(GraphBuilder& b, const TensorShape& shape, const char* name, DataType dtype = tf::DT_FLOAT)
    {
        auto p = ops::placeholder(b, dtype, shape, name);
        if (!p)
            qFatal("placeholder: %s", p.error().toString().c_str());
        return *p;
    }

private slots:
    void initTestCase() { QVERIFY(registerAllOps(m_ops).isOk()); }

    void namesAreMadeUniqueLikeTensorFlow()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {2, 2}, "x");
        auto a = b.op("Add", {x, x});
        QVERIFY2(a, err(a));
        QCOMPARE(a->name(), std::string("Add"));
        auto a1 = b.op("Add", {x, x});
        QCOMPARE(a1->name(), std::string("Add_1"));
        // Case-insensitive, as Graph.unique_name: "add" collides with "Add" and "Add_1".
        auto a2 = ops::add(b, x, x, "add");
        QCOMPARE(a2->node(), std::string("add_2"));
        // A name taken explicitly is skipped: foo_1 exists, so the second "foo" is foo_2.
        QCOMPARE(ops::identity(b, x, "foo_1")->node(), std::string("foo_1"));
        QCOMPARE(ops::identity(b, x, "foo")->node(), std::string("foo"));
        QCOMPARE(ops::identity(b, x, "foo")->node(), std::string("foo_2"));
    }

    void nameScopesNestReenterAndReset()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {2, 2}, "x");
        {
            auto s = b.nameScope("layer1");
            QVERIFY2(s, err(s));
            QCOMPARE(s->name(), std::string("layer1/"));
            QCOMPARE(b.op("Add", {x, x})->name(), std::string("layer1/Add"));
        }
        QCOMPARE(b.currentNameScope(), std::string());
        {
            auto s = b.nameScope("layer1"); // re-entered: a new unique scope
            QCOMPARE(s->name(), std::string("layer1_1/"));
            auto inner = b.nameScope("inner");
            QCOMPARE(inner->name(), std::string("layer1_1/inner/"));
            QCOMPARE(b.op("Add", {x, x})->name(), std::string("layer1_1/inner/Add"));
            {
                auto root = b.nameScope(""); // back to the root inside a scope
                QCOMPARE(b.op("Add", {x, x})->name(), std::string("Add"));
            }
            QCOMPARE(b.currentNameScope(), std::string("layer1_1/inner"));
        }
        {
            auto absolute = b.nameScope("layer1/"); // absolute: used as is
            QCOMPARE(absolute->name(), std::string("layer1/"));
            QCOMPARE(b.op("Add", {x, x})->name(), std::string("layer1/Add_1"));
        }
        // A scope name given to op() names the op after the scope.
        {
            auto s = b.nameScope("truncated_normal");
            QCOMPARE(b.op("Add", {x, x}, {}, s->name())->name(), std::string("truncated_normal"));
        }
        // The scope reserved the name: a later op called truncated_normal is made unique.
        QCOMPARE(ops::identity(b, x, "truncated_normal")->node(), std::string("truncated_normal_1"));
    }

    void badNamesAreRejected()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {2}, "x");
        auto bad = b.nameScope("a b");
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("'a b' is not a valid scope name"));
        QVERIFY(!b.nameScope("_x")); // a root scope must be a valid op name
        {
            auto s = b.nameScope("outer");
            QVERIFY(b.nameScope("_x")); // nested scopes may start with '_'
        }
        auto dup = b.op("Add", {x, x}, {}, "x/");
        QVERIFY(!dup);
        QCOMPARE(dup.error().message(), std::string("Duplicate node name in graph: 'x'"));
        auto badNode = ops::identity(b, x, "-y");
        QVERIFY(!badNode);
        QCOMPARE(badNode.error().message(), std::string("'-y' is not a valid node name"));
    }

    void attrsAreInferredDefaultedAndValidated()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {2, 3}, "x");
        const Output i = placeholder(b, {2, 3}, "i", tf::DT_INT32);
        const Output flags = placeholder(b, {2, 3}, "flags", tf::DT_BOOL);
        auto add = b.op("Add", {x, x});
        QVERIFY2(add, err(add));
        const tf::NodeDef* node = b.findNode("Add");
        QCOMPARE(node->attr().at("T").type(), tf::DT_FLOAT);
        auto mm = ops::matMul(b, x, x, false, true);
        QVERIFY2(mm, err(mm));
        QCOMPARE(mm->shape(), (TensorShape{2, 2}));
        auto addN = b.op("AddN", {std::vector<Output>{x, x, x}});
        QVERIFY2(addN, err(addN));
        QCOMPARE(b.findNode(addN->name())->attr().at("N").i(), std::int64_t(3));
        const int before = b.nodeCount();

        auto mismatch = b.op("Add", {x, i});
        QVERIFY(!mismatch);
        QCOMPARE(mismatch.error().message(),
                 std::string("node 'Add_1' (op 'Add'): Input 'y' of 'Add' Op has type int32 that does not match "
                             "type float32 of argument 'x'."));
        auto explicitT = b.op("Add", {x, x}, {{"T", attr::type(tf::DT_INT32)}});
        QVERIFY(!explicitT);
        QVERIFY2(explicitT.error().message().ends_with(
                     "Input 'x' of 'Add' Op has type float32 that does not match expected type of int32."),
                 err(explicitT));
        auto mixedList = b.op("AddN", {std::vector<Output>{x, i}});
        QVERIFY(!mixedList);
        QVERIFY2(mixedList.error().message().ends_with("All tensors passed to 'inputs' of 'AddN' Op must have the "
                                                       "same type."),
                 err(mixedList));
        auto count = b.op("Add", {x});
        QVERIFY(!count);
        QVERIFY2(count.error().message().ends_with("expected 2 inputs (x, y) but got 1"), err(count));
        auto unknown = b.op("Foo", {});
        QCOMPARE(unknown.error().code(), StatusCode::kNotFound);
        QVERIFY2(unknown.error().message().ends_with("Op type not registered 'Foo'"), err(unknown));
        auto notRef = b.op("Assign", {x, x});
        QVERIFY(!notRef);
        QVERIFY2(notRef.error().message().ends_with("Input 'ref' of 'Assign' Op requires l-value input"), err(notRef));
        auto foreign = b.op("Identity", {Output("nowhere", 0, tf::DT_FLOAT, TensorShape{})});
        QVERIFY(!foreign);
        QVERIFY2(foreign.error().message().ends_with("Tensor 'nowhere:0' is not an element of this graph."),
                 err(foreign));
        auto disallowed = b.op("MatMul", {flags, flags}, {{"transpose_b", attr::b(true)}}); // bool: not allowed
        QVERIFY(!disallowed);
        QVERIFY2(disallowed.error().message().find("Value for attr 'T' of bool is not in the list of allowed "
                                                   "values") != std::string::npos,
                 err(disallowed));
        QVERIFY2(disallowed.error().message().find("{{node MatMul_1}}") != std::string::npos, err(disallowed));
        QCOMPARE(b.nodeCount(), before); // failed nodes are not added
    }

    void shapesAreInferredWithConstValues()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {-1, 784}, "x");
        auto w = ops::zeros(b, {784, 10});
        QVERIFY2(w, err(w));
        QCOMPARE(b.findNode("zeros/shape_as_tensor")->op(), std::string("Const")); // 7840 elements: Fill
        QCOMPARE(b.findNode("zeros")->op(), std::string("Fill"));
        QCOMPARE(w->shape(), (TensorShape{784, 10})); // the Fill saw the value of its shape input
        auto logits = ops::matMul(b, x, *w);
        QCOMPARE(logits->shape(), (TensorShape{-1, 10}));
        auto target = ops::constantInts(b, {-1, 28, 28}, TensorShape{3});
        QVERIFY(b.constantValue(*target) != nullptr);
        auto image = ops::reshape(b, x, *target);
        QCOMPARE(image->shape(), (TensorShape{-1, 28, 28}));

        const Output cube = placeholder(b, {2, 3, 4}, "cube");
        const Output m = placeholder(b, {4, 5}, "m");
        auto bad = ops::matMul(b, cube, m);
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("Shape must be rank 2 but is rank 3 for 'MatMul_1' (op: "
                                                    "'MatMul') with input shapes: [2,3,4], [4,5]."));

        // The whole-graph shape refiner agrees with what the builder inferred node by node.
        auto graph = Graph::fromGraphDef(b.toGraphDef());
        QVERIFY2(graph, err(graph));
        CpuAllocator allocator;
        auto shapes = inferGraphShapes(*graph, m_ops, allocator);
        QVERIFY2(shapes, err(shapes));
        QVERIFY(shapes->status().isOk());
        for (const char* name : {"zeros:0", "MatMul:0", "Reshape:0", "x:0"}) {
            auto built = b.tensor(name);
            QVERIFY2(built, err(built));
            QCOMPARE(shapes->find(*graph, name)->shape, built->shape());
        }
    }

    void shapesSeePartialShapeTensorsAndShapeFacts()
    {
        // The builder runs the shape refiner's own node step, so what TensorFlow's
        // ConstantPartialShape knows reaches it too: Reshape(x, Pack(batch, 28, 28)), with the batch
        // read from Shape(x) by a StridedSlice, is [?,28,28], not [?,?,?].
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {-1, 784}, "x");
        auto shape = b.op("Shape", {x});
        QVERIFY2(shape, err(shape));
        QVERIFY(b.constantValue(shape->output(0)) == nullptr); // [?,784]: no value, a partial shape
        auto begin = ops::constantInts(b, {0}, TensorShape{1});
        auto end = ops::constantInts(b, {1}, TensorShape{1});
        auto strides = ops::constantInts(b, {1}, TensorShape{1});
        QVERIFY(begin && end && strides);
        auto batch = b.op("StridedSlice", {shape->output(0), *begin, *end, *strides},
                          {{"shrink_axis_mask", attr::i(1)}, {"Index", attr::type(tf::DT_INT32)}});
        QVERIFY2(batch, err(batch));
        QCOMPARE(batch->output(0).shape(), TensorShape::scalar());
        auto side = ops::constantInts(b, {28}, TensorShape::scalar());
        QVERIFY(side);
        auto dims = b.op("Pack", {std::vector<Output>{batch->output(0), *side, *side}});
        QVERIFY2(dims, err(dims));
        QCOMPARE(dims->output(0).shape(), (TensorShape{3}));
        auto image = ops::reshape(b, x, dims->output(0));
        QVERIFY2(image, err(image));
        QCOMPARE(image->shape(), (TensorShape{-1, 28, 28}));

        // The Shape of a fully defined shape is a known value, as the refiner folds it.
        const Output z = placeholder(b, {2, 3}, "z");
        auto zShape = b.op("Shape", {z});
        QVERIFY2(zShape, err(zShape));
        const Tensor* folded = b.constantValue(zShape->output(0));
        QVERIFY(folded != nullptr);
        QCOMPARE(
            std::vector<std::int32_t>(folded->values<std::int32_t>().begin(), folded->values<std::int32_t>().end()),
            (std::vector<std::int32_t>{2, 3}));
        const Output flat = placeholder(b, {-1}, "flat");
        auto reshaped = ops::reshape(b, flat, zShape->output(0));
        QVERIFY2(reshaped, err(reshaped));
        QCOMPARE(reshaped->shape(), (TensorShape{2, 3}));

        // The whole-graph refiner gives the same shapes for every output of the built graph.
        auto graph = Graph::fromGraphDef(b.toGraphDef());
        QVERIFY2(graph, err(graph));
        CpuAllocator allocator;
        auto shapes = inferGraphShapes(*graph, m_ops, allocator);
        QVERIFY2(shapes, err(shapes));
        QVERIFY(shapes->status().isOk());
        for (const tf::NodeDef& node : b.graphDef().node()) {
            auto op = b.operation(node.name());
            QVERIFY2(op, err(op));
            for (int i = 0; i < op->numOutputs(); ++i)
                QCOMPARE(shapes->outputs(*graph->findNode(node.name()))[static_cast<std::size_t>(i)].shape,
                         op->output(i).shape());
        }
    }

    void constantsAreLaidOutAsTensorFlowWritesThem()
    {
        // A broadcast scalar keeps one typed value (TensorFlow's "float_val: 0" for a [500] Const).
        auto broadcast = makeTensorProto(tf::DT_FLOAT, TensorShape{500}, std::vector<double>{0.0});
        QVERIFY2(broadcast, err(broadcast));
        QCOMPARE(broadcast->float_val_size(), 1);
        QVERIFY(broadcast->tensor_content().empty());
        // Every element given (more than one): raw little-endian tensor_content.
        auto full = makeTensorProtoFromInts(tf::DT_INT32, TensorShape{2}, std::vector<std::int64_t>{784, 500});
        QCOMPARE(full->tensor_content(), std::string("\x10\x03\x00\x00\xf4\x01\x00\x00", 8));
        QCOMPARE(full->int_val_size(), 0);
        // One element: the typed field even when complete.
        auto one = makeTensorProtoFromInts(tf::DT_INT32, TensorShape{1}, std::vector<std::int64_t>{1});
        QCOMPARE(one->int_val_size(), 1);
        QVERIFY(one->tensor_content().empty());
        // Half values are stored as bit patterns in half_val; bool in bool_val (never raw).
        auto half = makeTensorProto(tf::DT_HALF, TensorShape::scalar(), std::vector<double>{1.0});
        QCOMPARE(half->half_val(0), 0x3c00);
        auto flags = makeTensorProtoFromInts(tf::DT_BOOL, TensorShape{2}, std::vector<std::int64_t>{1, 0});
        QCOMPARE(flags->bool_val_size(), 2);

        auto tooMany = makeTensorProto(tf::DT_FLOAT, TensorShape{2, 3}, std::vector<double>(8, 1.0));
        QVERIFY(!tooMany);
        QCOMPARE(tooMany.error().message(),
                 std::string("Too many elements provided. Needed at most 6, but received 8"));
        auto fraction = makeTensorProto(tf::DT_INT32, TensorShape::scalar(), std::vector<double>{0.5});
        QVERIFY(!fraction);
        QCOMPARE(fraction.error().message(), std::string("Expected int32, got 0.5 instead."));
        QVERIFY(!makeTensorProto(tf::DT_INT8, TensorShape::scalar(), std::vector<double>{300}));
        QVERIFY(!makeTensorProto(tf::DT_FLOAT, TensorShape{-1}, std::vector<double>{1}));
    }

    void controlDependenciesFollowTensorFlowsRules()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {2}, "x");
        auto c1 = ops::noOp(b, "c1");
        auto c2 = ops::noOp(b, "c2");
        auto k = ops::constant(b, 1.0, tf::DT_FLOAT, "k");
        {
            auto deps = b.controlDependencies({*c1});
            auto a = ops::add(b, x, x, "a");
            QCOMPARE(inputsOf(b, "a"), (std::vector<std::string>{"x", "x", "^c1"}));
            // An op fed by an op created inside the same scope already depends on c1.
            auto a2 = ops::add(b, *a, x, "a2");
            QCOMPARE(inputsOf(b, "a2"), (std::vector<std::string>{"a", "x"}));
            {
                auto inner = b.controlDependencies({*c2, *c1});
                auto a3 = ops::add(b, x, x, "a3");
                QCOMPARE(inputsOf(b, "a3"), (std::vector<std::string>{"x", "x", "^c1", "^c2"}));
                auto none = b.clearControlDependencies();
                auto a4 = ops::add(b, x, x, "a4");
                QCOMPARE(inputsOf(b, "a4"), (std::vector<std::string>{"x", "x"}));
            }
        }
        {
            // No control input on an op that is already a data input.
            auto deps = b.controlDependencies({*b.operation("k"), *c1});
            auto a5 = ops::add(b, *k, *k, "a5");
            QCOMPARE(inputsOf(b, "a5"), (std::vector<std::string>{"k", "k", "^c1"}));
        }
        auto after = ops::add(b, x, x, "after");
        QCOMPARE(inputsOf(b, "after"), (std::vector<std::string>{"x", "x"}));
    }

    void devicesMergeAndColocationWins()
    {
        GraphBuilder b(m_ops);
        Output v;
        {
            auto cpu = b.device("/cpu:0");
            QVERIFY2(cpu, err(cpu));
            v = placeholder(b, {2}, "v");
            QCOMPARE(b.findNode("v")->device(), std::string("/device:CPU:0"));
            {
                auto job = b.device("/job:worker/task:1");
                const Output w = placeholder(b, {2}, "w");
                QCOMPARE(b.findNode("w")->device(), std::string("/job:worker/task:1/device:CPU:0"));
                auto gpu = b.device("/gpu:1"); // the inner scope wins where both set a field
                const Output g = placeholder(b, {2}, "g");
                QCOMPARE(b.findNode("g")->device(), std::string("/job:worker/task:1/device:GPU:1"));
                auto none = b.clearDevice();
                const Output n = placeholder(b, {2}, "n");
                QCOMPARE(b.findNode("n")->device(), std::string());
            }
        }
        {
            auto gpu = b.device("/gpu:0");
            auto colocated = b.colocateWith(*b.operation("v"));
            auto id = ops::identity(b, v, "near_v");
            QCOMPARE(b.findNode("near_v")->device(), std::string("/device:CPU:0"));
            QCOMPARE(classOf(b, "near_v"), (std::vector<std::string>{"loc:@v"}));
        }
        auto bad = b.device("/nonsense:x");
        QVERIFY(!bad);

        // Ops with ref inputs are colocated with them (Assign with its variable).
        auto var = b.op("VariableV2", {}, {{"shape", attr::shape({2})}, {"dtype", attr::type(tf::DT_FLOAT)}}, "var");
        QVERIFY2(var, err(var));
        QCOMPARE(var->output(0).dtype(), tf::DT_FLOAT_REF);
        auto assign = b.op("Assign", {var->output(0), v});
        QVERIFY2(assign, err(assign));
        QCOMPARE(classOf(b, "Assign"), (std::vector<std::string>{"loc:@var"}));
        QCOMPARE(b.findNode("Assign")->attr().at("use_locking").b(), true); // default filled
        QCOMPARE(b.findNode("var")->attr().at("container").s(), std::string());
    }

    void attrScopesAddMissingAttrs()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {2}, "x");
        auto scope = b.attrScope({{"_class", attr::strings({"loc:@x"})}, {"T", attr::type(tf::DT_DOUBLE)}});
        auto id = ops::identity(b, x, "id");
        QVERIFY2(id, err(id)); // T came from the input; the scope does not override it
        QCOMPARE(b.findNode("id")->attr().at("T").type(), tf::DT_FLOAT);
        QCOMPARE(classOf(b, "id"), (std::vector<std::string>{"loc:@x"}));
    }

    void groupMakesOneNoOpPerDevice()
    {
        GraphBuilder b(m_ops);
        std::vector<Operation> deps;
        for (const char* device : {"/cpu:0", "/gpu:0", "/cpu:0"}) {
            auto d = b.device(device);
            deps.push_back(*ops::noOp(b, "n"));
        }
        auto g = ops::group(b, deps, "init");
        QVERIFY2(g, err(g));
        QCOMPARE(g->name(), std::string("init"));
        QCOMPARE(inputsOf(b, "init"), (std::vector<std::string>{"^init/NoOp", "^init/NoOp_1"}));
        QCOMPARE(inputsOf(b, "init/NoOp"), (std::vector<std::string>{"^n", "^n_2"}));
        QCOMPARE(b.findNode("init/NoOp")->device(), std::string("/device:CPU:0"));
        QCOMPARE(inputsOf(b, "init/NoOp_1"), (std::vector<std::string>{"^n_1"}));

        auto single = ops::group(b, {deps[0], deps[2]}, "init");
        QCOMPARE(single->name(), std::string("init_1"));
        QCOMPARE(inputsOf(b, "init_1"), (std::vector<std::string>{"^n", "^n_2"}));
    }

    void exportCarriesVersionsAndShapes()
    {
        GraphBuilder b(m_ops);
        const Output x = placeholder(b, {-1, 3}, "x");
        auto noop = ops::noOp(b);
        const tf::GraphDef plain = b.toGraphDef();
        QCOMPARE(plain.versions().producer(), kGraphDefProducer);
        QCOMPARE(plain.node(0).attr().count("_output_shapes"), std::size_t(0));
        const tf::GraphDef shaped = b.toGraphDef(true);
        const auto& shapes = shaped.node(0).attr().at("_output_shapes").list();
        QCOMPARE(shapes.shape_size(), 1);
        QCOMPARE(*TensorShape::fromProto(shapes.shape(0)), (TensorShape{-1, 3}));
        QCOMPARE(shaped.node(1).attr().count("_output_shapes"), std::size_t(0)); // NoOp: no outputs

        auto t = b.tensor("x:0");
        QVERIFY2(t, err(t));
        QCOMPARE(t->shape(), (TensorShape{-1, 3}));
        QVERIFY(!b.tensor("x:1"));
        QCOMPARE(b.operation("nope").error().code(), StatusCode::kNotFound);
    }

    void randomSeedsFollowGetSeed()
    {
        QCOMPARE(randomSeeds(std::nullopt, std::nullopt, 9), (RandomSeeds{0, 0}));
        QCOMPARE(randomSeeds(42, std::nullopt, 7), (RandomSeeds{42, 7}));
        QCOMPARE(randomSeeds(std::nullopt, 5, 7), (RandomSeeds{87654321, 5}));
        QCOMPARE(randomSeeds(0, 0, 7), (RandomSeeds{0, 2147483647}));           // (0, 0) is avoided
        QCOMPARE(randomSeeds(-1, 2147483647, 7), (RandomSeeds{2147483646, 0})); // Python's modulo
        GraphBuilder b(m_ops);
        b.setRandomSeed(1234);
        placeholder(b, {2}, "x");
        QCOMPARE(b.seedsFor(std::nullopt), (RandomSeeds{1234, 1})); // one op created so far
        QCOMPARE(b.seedsFor(77), (RandomSeeds{1234, 77}));
    }
};

QTEST_GUILESS_MAIN(TestGraphBuilder)
#include "test_graph_builder.moc"
