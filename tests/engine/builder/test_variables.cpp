// Tests for variables as tf.get_variable / tf.Variable build them: reuse rules and their errors,
// variable scopes, collections, initializer ops, and the graphs of real TensorFlow programs.
#include "builder/collections.h"
#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "framework/op_registry.h"
#include "registries/register_all_ops.h"
#include "proto/meta_graph.pb.h"
#include "model_test_support.h"
#include "test_files.h"

#include <google/protobuf/util/message_differencer.h>

#include <QFile>
#include <QtTest>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

using tstudio::testing::err;
using tstudio::testing::readMetaGraphFixture;

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

std::vector<std::string> names(const std::vector<Variable>& vars)
{
    std::vector<std::string> out;
    for (const Variable& v : vars)
        out.push_back(v.name());
    return out;
}

/// Compares our node with TensorFlow's (name, op, inputs, device, every attr); "" when equal.
QString diffNode(const tf::NodeDef& ours, const tf::NodeDef& theirs)
{
    if (google::protobuf::util::MessageDifferencer::Equals(ours, theirs))
        return {};
    return QString::fromStdString("node " + theirs.name() + " differs.\nTensorFlow:\n" + theirs.DebugString() +
                                  "\nours:\n" + ours.DebugString());
}

} // namespace

class TestVariables : public QObject {
    Q_OBJECT

private:
    OpRegistry m_ops;

private slots:
    void initTestCase() { QVERIFY(registerAllOps(m_ops).isOk()); }

    void getVariableBuildsTensorFlowsNodes()
    {
        GraphBuilder b(m_ops);
        auto scope = variableScope(b, "dense");
        QVERIFY2(scope, err(scope));
        auto kernel = getVariable(b, "kernel", {4, 5});
        QVERIFY2(kernel, err(kernel));
        QCOMPARE(kernel->name(), std::string("dense/kernel"));
        QCOMPARE(kernel->ref().name(), std::string("dense/kernel:0"));
        QCOMPARE(kernel->ref().dtype(), tf::DT_FLOAT_REF);
        QCOMPARE(kernel->value().name(), std::string("dense/kernel/read:0"));
        QCOMPARE(kernel->initializer().name(), std::string("dense/kernel/Assign"));
        QCOMPARE(kernel->initialValue().name(), std::string("dense/kernel/Initializer/random_uniform:0"));
        QCOMPARE(kernel->shape(), (TensorShape{4, 5}));

        // The nodes of a TensorFlow 1.x graph with a dense layer (glorot_uniform by default), in order.
        const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> expected = {
            {"dense/kernel/Initializer/random_uniform/shape", "Const", {}},
            {"dense/kernel/Initializer/random_uniform/min", "Const", {}},
            {"dense/kernel/Initializer/random_uniform/max", "Const", {}},
            {"dense/kernel/Initializer/random_uniform/RandomUniform",
             "RandomUniform",
             {"dense/kernel/Initializer/random_uniform/shape"}},
            {"dense/kernel/Initializer/random_uniform/sub",
             "Sub",
             {"dense/kernel/Initializer/random_uniform/max", "dense/kernel/Initializer/random_uniform/min"}},
            {"dense/kernel/Initializer/random_uniform/mul",
             "Mul",
             {"dense/kernel/Initializer/random_uniform/RandomUniform", "dense/kernel/Initializer/random_uniform/sub"}},
            {"dense/kernel/Initializer/random_uniform",
             "Add",
             {"dense/kernel/Initializer/random_uniform/mul", "dense/kernel/Initializer/random_uniform/min"}},
            {"dense/kernel", "VariableV2", {}},
            {"dense/kernel/Assign", "Assign", {"dense/kernel", "dense/kernel/Initializer/random_uniform"}},
            {"dense/kernel/read", "Identity", {"dense/kernel"}},
        };
        const tf::GraphDef graph = b.toGraphDef();
        QCOMPARE(graph.node_size(), static_cast<int>(expected.size()));
        for (int i = 0; i < graph.node_size(); ++i) {
            const auto& [name, op, inputs] = expected[static_cast<std::size_t>(i)];
            QCOMPARE(graph.node(i).name(), name);
            QCOMPARE(graph.node(i).op(), op);
            QCOMPARE(inputsOf(b, name), inputs);
            QCOMPARE(classOf(b, name), (std::vector<std::string>{"loc:@dense/kernel"})); // all colocated
        }
        // TensorFlow wrote min -0.816496610641 for this [4, 5] kernel: -sqrt(3 / ((4 + 5) / 2)) in float32.
        QCOMPARE(b.findNode("dense/kernel/Initializer/random_uniform/min")->attr().at("value").tensor().float_val(0),
                 -0.816496610641f);
        QCOMPARE(
            b.findNode("dense/kernel/Initializer/random_uniform/shape")->attr().at("value").tensor().tensor_content(),
            std::string("\x04\x00\x00\x00\x05\x00\x00\x00", 8));
        const tf::NodeDef& assign = *b.findNode("dense/kernel/Assign");
        QCOMPARE(assign.attr().at("validate_shape").b(), true);
        QCOMPARE(assign.attr().at("use_locking").b(), true);
        const tf::NodeDef& var = *b.findNode("dense/kernel");
        QCOMPARE(var.attr().at("container").s(), std::string());
        QCOMPARE(var.attr().at("shared_name").s(), std::string());
        QCOMPARE(*TensorShape::fromProto(var.attr().at("shape").shape()), (TensorShape{4, 5}));
        // Unseeded: seed and seed2 are 0.
        const tf::NodeDef& rnd = *b.findNode("dense/kernel/Initializer/random_uniform/RandomUniform");
        QCOMPARE(rnd.attr().at("seed").i(), std::int64_t(0));
        QCOMPARE(rnd.attr().at("seed2").i(), std::int64_t(0));
        // A second layer gets TensorFlow's value for its [5, 3] kernel: sqrt(3 / 4).
        scope->close();
        auto scope2 = variableScope(b, "dense_1");
        auto k2 = getVariable(b, "kernel", {5, 3});
        QCOMPARE(b.findNode("dense_1/kernel/Initializer/random_uniform/max")->attr().at("value").tensor().float_val(0),
                 0.866025388241f);
    }

    void reuseRulesAndTheirErrors()
    {
        GraphBuilder b(m_ops);
        {
            auto s = variableScope(b, "dense");
            QVERIFY2(getVariable(b, "kernel", {3, 4}), "first creation");
            auto again = getVariable(b, "kernel", {3, 4});
            QVERIFY(!again);
            QCOMPARE(again.error().code(), StatusCode::kInvalidArgument);
            QCOMPARE(again.error().message(),
                     std::string("Variable dense/kernel already exists, disallowed. Did you mean to set reuse=True or "
                                 "reuse=tf.AUTO_REUSE in VarScope?"));
        }
        {
            auto s = variableScope(b, "dense", Reuse::kTrue);
            auto shared = getVariable(b, "kernel", {3, 4});
            QVERIFY2(shared, err(shared));
            QCOMPARE(shared->name(), std::string("dense/kernel"));
            auto unknownShape = getVariable(b, "kernel"); // no shape given: fine when reusing
            QVERIFY2(unknownShape, err(unknownShape));
            auto wrongShape = getVariable(b, "kernel", {4, 3});
            QCOMPARE(wrongShape.error().message(), std::string("Trying to share variable dense/kernel, but specified "
                                                               "shape (4, 3) and found shape (3, 4)."));
            auto wrongType = getVariable(b, "kernel", {3, 4}, tf::DT_INT32);
            QCOMPARE(wrongType.error().message(), std::string("Trying to share variable dense/kernel, but specified "
                                                              "dtype int32 and found dtype float32_ref."));
            auto missing = getVariable(b, "bias", {4});
            QCOMPARE(missing.error().message(),
                     std::string("Variable dense/bias does not exist, or was not created with tf.get_variable(). Did "
                                 "you mean to set reuse=tf.AUTO_REUSE in VarScope?"));
            // reuse=True is sticky: a nested scope asking for False still reuses.
            auto inner = variableScope(b, "inner", Reuse::kFalse);
            QCOMPARE(b.variableStore().current().reuse, Reuse::kTrue);
            QVERIFY(!getVariable(b, "w", {1}));
        }
        {
            auto s = variableScope(b, "auto", Reuse::kAutoReuse);
            auto first = getVariable(b, "w", {2});
            auto second = getVariable(b, "w", {2});
            QVERIFY2(first && second, err(second));
            QCOMPARE(first->name(), second->name());
            auto nested = variableScope(b, "nested");
            QCOMPARE(b.variableStore().current().reuse, Reuse::kAutoReuse);
        }
        {
            auto s = variableScope(b, "later");
            QVERIFY(getVariable(b, "v", {2}));
            reuseVariables(b);
            QVERIFY(getVariable(b, "v", {2}));
        }
        auto partial = getVariable(b, "p", {-1, 4});
        QCOMPARE(partial.error().message(),
                 std::string("Shape of a new variable (p) must be fully defined, but instead was (?, 4)."));
        auto complexVar = getVariable(b, "c", {2}, tf::DT_COMPLEX64);
        QCOMPARE(complexVar.error().message(),
                 std::string("An initializer for variable c of <dtype: 'complex64'> is required"));
        QCOMPARE(pythonShapeString(TensorShape{3}), std::string("(3,)"));
        QCOMPARE(pythonShapeString(TensorShape::scalar()), std::string("()"));
        QCOMPARE(pythonShapeString(TensorShape::unknown()), std::string("<unknown>"));
    }

    void variableScopesOpenNameScopesAndCarryInitializers()
    {
        GraphBuilder b(m_ops);
        const Output x = *ops::placeholder(b, tf::DT_FLOAT, {-1, 3}, "x");
        for (int layer = 0; layer < 2; ++layer) {
            auto s = variableScope(b, "dense", layer == 0 ? Reuse::kFalse : Reuse::kTrue);
            QVERIFY2(s, err(s));
            QCOMPARE(s->name(), std::string("dense"));
            auto w = getVariable(b, "kernel", {3, 2});
            QVERIFY2(w, err(w));
            auto y = ops::matMul(b, x, w->value());
            // Ops follow the name scope (re-entered: dense_1), variables the variable scope.
            QCOMPARE(y->node(), layer == 0 ? std::string("dense/MatMul") : std::string("dense_1/MatMul"));
            QCOMPARE(w->name(), std::string("dense/kernel"));
        }
        {
            auto s = variableScope(b, "outer", Reuse::kFalse, Initializer::constant(0.5));
            auto inner = variableScope(b, "inner");
            QCOMPARE(inner->name(), std::string("outer/inner"));
            auto v = getVariable(b, "v", {2});
            QVERIFY2(v, err(v));
            QCOMPARE(b.findNode("outer/inner/v/Initializer/Const")->op(), std::string("Const"));
            auto ints = getVariable(b, "step", TensorShape::scalar(), tf::DT_INT32, Initializer::zeros());
            QCOMPARE(b.findNode("outer/inner/step/Initializer/zeros")->attr().at("dtype").type(), tf::DT_INT32);
        }
        // Default initializers: glorot_uniform for floats, zeros for integers.
        auto count = getVariable(b, "count", {3}, tf::DT_INT64);
        QVERIFY2(count, err(count));
        QVERIFY(b.findNode("count/Initializer/zeros") != nullptr);

        // Variable creation ignores control dependencies and name scopes around it.
        auto dep = ops::noOp(b, "dep");
        auto ns = b.nameScope("somewhere");
        auto deps = b.controlDependencies({*dep});
        auto v = getVariable(b, "free", {2});
        QVERIFY2(v, err(v));
        QCOMPARE(inputsOf(b, "free/Assign"), (std::vector<std::string>{"free", "free/Initializer/random_uniform"}));
        QCOMPARE(inputsOf(b, "free/Initializer/random_uniform/RandomUniform"),
                 (std::vector<std::string>{"free/Initializer/random_uniform/shape"}));
    }

    void variablesHonourDevicesAsTensorFlowDoes()
    {
        GraphBuilder b(m_ops);
        auto gpu = b.device("/gpu:0");
        auto v = getVariable(b, "v", {2});
        QVERIFY2(v, err(v));
        QCOMPARE(b.findNode("v")->device(), std::string("/device:GPU:0"));
        QCOMPARE(b.findNode("v/Assign")->device(), std::string("/device:GPU:0"));
        QCOMPARE(b.findNode("v/read")->device(), std::string("/device:GPU:0"));
        // The initializer is built under device(None), colocated through "_class" only.
        QCOMPARE(b.findNode("v/Initializer/random_uniform")->device(), std::string());
    }

    void tfVariableForms()
    {
        GraphBuilder b(m_ops);
        auto zero = makeTensorProtoFromInts(tf::DT_INT32, TensorShape::scalar(), std::vector<std::int64_t>{0});
        auto step = variable(b, *zero, "Variable", false);
        QVERIFY2(step, err(step));
        QCOMPARE(step->name(), std::string("Variable"));
        QCOMPARE(b.graphDef().node(0).name(), std::string("Variable/initial_value"));
        QCOMPARE(classOf(b, "Variable"), std::vector<std::string>{}); // no attr scope for tf.Variable(value)
        QCOMPARE(classOf(b, "Variable/Assign"), (std::vector<std::string>{"loc:@Variable"}));
        QCOMPARE(classOf(b, "Variable/read"), (std::vector<std::string>{"loc:@Variable"}));
        auto again = variable(b, *zero);
        QCOMPARE(again->name(), std::string("Variable_1"));
        auto fromTensor = variable(b, *ops::zeros(b, {3}), "z");
        QVERIFY2(fromTensor, err(fromTensor));
        QCOMPARE(fromTensor->initialValue().name(), std::string("zeros:0"));
        auto unknown = variable(b, *ops::placeholder(b, tf::DT_FLOAT), "u");
        QCOMPARE(unknown.error().message(), std::string("initial_value must have a shape specified: <unknown>"));
        auto fromFn = variable(
            b,
            [](GraphBuilder& g) {
                return ops::ones(g, {2, 2});
            },
            "f");
        QVERIFY2(fromFn, err(fromFn));
        QCOMPARE(b.findNode("f/Initializer/ones")->op(), std::string("Const"));
        QCOMPARE(classOf(b, "f/Initializer/ones"), (std::vector<std::string>{"loc:@f"}));
    }

    void collectionsAndInitializers()
    {
        GraphBuilder b(m_ops);
        auto w = getVariable(b, "w", {2, 2});
        auto frozen = getVariable(b, "frozen", {2}, tf::DT_FLOAT, Initializer::zeros(), false);
        auto local = getVariable(b, "local", {2}, tf::DT_FLOAT, Initializer::zeros(), false,
                                 std::vector<std::string>{std::string(graph_keys::kLocalVariables)});
        auto model = getVariable(b, "m", {1}, tf::DT_FLOAT, Initializer::ones(), true,
                                 std::vector<std::string>{std::string(graph_keys::kGlobalVariables),
                                                          std::string(graph_keys::kModelVariables)});
        QVERIFY2(w && frozen && local && model, "variables");
        QCOMPARE(names(globalVariables(b)), (std::vector<std::string>{"w", "frozen", "m"}));
        QCOMPARE(names(trainableVariables(b)), (std::vector<std::string>{"w", "m"}));
        QCOMPARE(names(localVariables(b)), (std::vector<std::string>{"local"}));
        QCOMPARE(names(b.collections().variables(graph_keys::kModelVariables)), (std::vector<std::string>{"m"}));
        QCOMPARE(b.collections().keys(),
                 (std::vector<std::string>{"local_variables", "model_variables", "trainable_variables", "variables"}));
        auto loss = ops::constant(b, 1.5, tf::DT_FLOAT, "loss");
        b.collections().add(graph_keys::kLosses, *loss);
        b.collections().add(graph_keys::kUpdateOps, *b.operation("w/Assign"));

        auto vars = b.collections().toCollectionDef(graph_keys::kGlobalVariables);
        QVERIFY2(vars, err(vars));
        QCOMPARE(vars->bytes_list().value_size(), 3);
        tf::VariableDef def;
        QVERIFY(def.ParseFromString(vars->bytes_list().value(0)));
        QCOMPARE(def.variable_name(), std::string("w:0"));
        QCOMPARE(def.initializer_name(), std::string("w/Assign"));
        QCOMPARE(def.snapshot_name(), std::string("w/read:0"));
        QCOMPARE(def.initial_value_name(), std::string("w/Initializer/random_uniform:0"));
        QCOMPARE(def.trainable(), true);
        QCOMPARE(b.collections().toCollectionDef(graph_keys::kLosses)->node_list().value(0), std::string("loss:0"));
        QCOMPARE(b.collections().toCollectionDef(graph_keys::kUpdateOps)->node_list().value(0),
                 std::string("w/Assign"));
        QCOMPARE(b.collections().toCollectionDef(graph_keys::kSummaries).error().code(), StatusCode::kNotFound);
        b.collections().add(graph_keys::kLosses, *w);
        QCOMPARE(b.collections().toCollectionDef(graph_keys::kLosses).error().code(), StatusCode::kInvalidArgument);

        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, err(init));
        QCOMPARE(init->name(), std::string("init"));
        QCOMPARE(b.findNode("init")->op(), std::string("NoOp"));
        QCOMPARE(inputsOf(b, "init"), (std::vector<std::string>{"^w/Assign", "^frozen/Assign", "^m/Assign"}));
        auto localInit = localVariablesInitializer(b);
        QCOMPARE(localInit->name(), std::string("init_1"));
        QCOMPARE(inputsOf(b, "init_1"), (std::vector<std::string>{"^local/Assign"}));
        auto empty = variablesInitializer(b, {}, "nothing");
        QCOMPARE(inputsOf(b, "nothing"), std::vector<std::string>{});
    }

    void graphSeedGivesOpSeedsFromTheOpCount()
    {
        GraphBuilder b(m_ops);
        b.setRandomSeed(5);
        auto w = getVariable(b, "w", {2, 2});
        // shape, min and max exist when RandomUniform asks for its seed: op seed 3.
        const tf::NodeDef& rnd = *b.findNode("w/Initializer/random_uniform/RandomUniform");
        QCOMPARE(rnd.attr().at("seed").i(), std::int64_t(5));
        QCOMPARE(rnd.attr().at("seed2").i(), std::int64_t(3));
        auto v = getVariable(b, "v", {2}, tf::DT_FLOAT, Initializer::truncatedNormal(0, 1, 9));
        const tf::NodeDef& tn = *b.findNode("v/Initializer/truncated_normal/TruncatedNormal");
        QCOMPARE(tn.attr().at("seed").i(), std::int64_t(5));
        QCOMPARE(tn.attr().at("seed2").i(), std::int64_t(9));
    }

    /// The first 43 nodes of the book's MNIST model (TensorFlow 1.3): two layers built with
    /// variable scopes, get_variable, truncated_normal and constant initializers, an L2 regularizer
    /// and tf.Variable(0, trainable=False). Every node must be identical, attrs and shapes included.
    void mnistBookGraphMatchesTensorFlow()
    {
        auto meta = readMetaGraphFixture("tf1-mnist-book/mnist_model-29001.meta");
        if (!meta)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES (or no tf1-mnist-book/mnist_model-29001.meta): "
                  "the comparison with TensorFlow's MNIST graph is not checked");
        GraphBuilder b(m_ops);
        Output x = *ops::placeholder(b, tf::DT_FLOAT, {-1, 784}, "x-input");
        QVERIFY(ops::placeholder(b, tf::DT_FLOAT, {-1, 10}, "y-input"));
        Output input = x;
        const std::int64_t dims[] = {784, 500, 10};
        for (int layer = 0; layer < 2; ++layer) {
            auto scope = variableScope(b, layer == 0 ? "layer1" : "layer2");
            auto weights = getVariable(b, "weights", {dims[layer], dims[layer + 1]}, tf::DT_FLOAT,
                                       Initializer::truncatedNormal(0.0, 0.1));
            QVERIFY2(weights, err(weights));
            {
                // tf.contrib.layers.l2_regularizer(0.0001)(weights), added to "losses".
                auto reg = b.nameScope("l2_regularizer");
                auto scale = ops::constant(b, 0.0001, tf::DT_FLOAT, "scale");
                auto l2 = b.op("L2Loss", {weights->value()});
                auto loss = ops::mul(b, *scale, l2->output(0), reg->name());
                QVERIFY2(loss, err(loss));
                b.collections().add("losses", *loss);
            }
            auto biases = getVariable(b, "biases", {dims[layer + 1]}, tf::DT_FLOAT, Initializer::constant(0.0));
            QVERIFY2(biases, err(biases));
            auto mm = ops::matMul(b, input, weights->value());
            auto sum = ops::add(b, *mm, biases->value(), "add");
            QVERIFY2(sum, err(sum));
            if (layer == 0)
                input = *ops::relu(b, *sum);
        }
        auto zero = makeTensorProtoFromInts(tf::DT_INT32, TensorShape::scalar(), std::vector<std::int64_t>{0});
        QVERIFY(variable(b, *zero, "Variable", false));

        const tf::GraphDef ours = b.toGraphDef(true);
        const tf::GraphDef& theirs = meta->graph_def();
        QCOMPARE(ours.node_size(), 43);
        for (int i = 0; i < ours.node_size(); ++i) {
            const QString diff = diffNode(ours.node(i), theirs.node(i));
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        // Collections: the same variables in the same order, and the same losses.
        const auto& stored = meta->collection_def().at("trainable_variables").bytes_list();
        auto built = b.collections().toCollectionDef(graph_keys::kTrainableVariables);
        QCOMPARE(built->bytes_list().value_size(), stored.value_size());
        for (int i = 0; i < stored.value_size(); ++i) {
            tf::VariableDef a;
            tf::VariableDef e;
            QVERIFY(a.ParseFromString(built->bytes_list().value(i)) && e.ParseFromString(stored.value(i)));
            QCOMPARE(a.variable_name(), e.variable_name());
            QCOMPARE(a.initializer_name(), e.initializer_name());
            QCOMPARE(a.snapshot_name(), e.snapshot_name());
        }
        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(*b.collections().toCollectionDef("losses"),
                                                                   meta->collection_def().at("losses")));
    }

    /// tf2onnx's regression model (TensorFlow 1.11): two tf.Variable scalars and pred = X * W + b. The
    /// nodes and the variable collections (TensorFlow 1.11 writes initial_value_name and trainable)
    /// must be byte-identical.
    void regressionGraphMatchesTensorFlow()
    {
        auto meta = readMetaGraphFixture("tf2onnx/regression/checkpoint/model.meta");
        if (!meta)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES (or no tf2onnx/regression/checkpoint/model.meta): "
                  "the comparison with TensorFlow's regression graph is not checked");
        const tf::GraphDef& theirs = meta->graph_def();
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "X");
        QVERIFY(ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "Y"));
        std::vector<Variable> vars;
        for (const char* name : {"W", "b"}) {
            // The program's literal initial values, as TensorFlow stored them.
            const tf::NodeDef* literal = nullptr;
            for (const tf::NodeDef& n : theirs.node())
                if (n.name() == std::string(name) + "/initial_value")
                    literal = &n;
            QVERIFY(literal);
            auto v = variable(b, literal->attr().at("value").tensor(), name);
            QVERIFY2(v, err(v));
            vars.push_back(*v);
        }
        auto product = ops::mul(b, *x, vars[0].value());
        auto sum = ops::add(b, *product, vars[1].value());
        QVERIFY(ops::identity(b, *sum, "pred"));
        const tf::GraphDef ours = b.toGraphDef(true);
        QCOMPARE(ours.node_size(), 13);
        for (int i = 0; i < ours.node_size(); ++i) {
            const QString diff = diffNode(ours.node(i), theirs.node(i));
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        for (auto key : {graph_keys::kGlobalVariables, graph_keys::kTrainableVariables}) {
            auto built = b.collections().toCollectionDef(key);
            QVERIFY2(built, err(built));
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(*built,
                                                                       meta->collection_def().at(std::string(key))));
        }
    }
};

QTEST_GUILESS_MAIN(TestVariables)
#include "test_variables.moc"
