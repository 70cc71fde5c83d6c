// Tests for addSymbolicGradients: the gradient graph of TensorFlow's MNIST model node for node,
// default and given grad_ys, AddN aggregation, StopGradient and not-differentiable ops, unconnected
// xs, gating, colocation, ref variables, zeros for unused outputs, and the errors.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/initializers.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "gradient_test_support.h"
#include "kernels/kernels.h"
#include "model_test_support.h"
#include "registries/register_all_ops.h"
#include "proto/meta_graph.pb.h"
#include "runtime/session.h"
#include "test_files.h"

#include <google/protobuf/util/message_differencer.h>

#include <QFile>
#include <QtTest>

#include <set>

using namespace tstudio;
using testing::err;
using testing::inputsOf;
using testing::opOf;
namespace tf = tensorflow;

namespace {

std::vector<std::string> nodesUnder(const GraphBuilder& b, const std::string& prefix)
{
    std::vector<std::string> out;
    for (const tf::NodeDef& n : b.graphDef().node())
        if (n.name().starts_with(prefix))
            out.push_back(n.name());
    return out;
}

/// The attrs of `ours` that `theirs` (TensorFlow 1.3) lacks must hold the OpDef's default (attrs
/// added to ops since then, e.g. Fill's index_type, Cast's Truncate); the others must be equal.
QString diffAttrs(const OpRegistry& ops, const tf::NodeDef& ours, const tf::NodeDef& theirs)
{
    const OpRegistration* r = ops.find(ours.op());
    for (const auto& [key, value] : ours.attr()) {
        if (key == "_output_shapes")
            continue;
        auto it = theirs.attr().find(key);
        if (it != theirs.attr().end()) {
            if (!google::protobuf::util::MessageDifferencer::Equals(value, it->second))
                return QString::fromStdString("attr " + key + " differs: ours " + value.DebugString() + " theirs " +
                                              it->second.DebugString());
            continue;
        }
        bool isDefault = false;
        for (const auto& a : r->opDef.attr())
            if (a.name() == key && a.has_default_value())
                isDefault = google::protobuf::util::MessageDifferencer::Equals(a.default_value(), value);
        if (!isDefault)
            return QString::fromStdString("attr " + key + " is not in TensorFlow's node");
    }
    for (const auto& [key, value] : theirs.attr())
        if (key != "_output_shapes" && ours.attr().count(key) == 0)
            return QString::fromStdString("attr " + key + " is missing");
    return {};
}

} // namespace

class TestGradients : public QObject {
    Q_OBJECT

private:
    OpRegistry m_ops;         ///< every op and every registered gradient
    KernelRegistry m_kernels; ///< every CPU kernel

    /// Runs `fetch` with `feeds` in a fresh session over b's graph (after running `targets`).
    std::vector<float> run(const GraphBuilder& b, const std::vector<std::pair<std::string, Tensor>>& feeds,
                           const std::string& fetch, const std::vector<std::string>& targets = {})
    {
        SessionOptions options;
        options.ops = &m_ops;
        options.kernels = &m_kernels;
        Session session(options);
        Status s = session.create(b.graphDef());
        if (!s.isOk()) {
            qWarning("%s", s.toString().c_str());
            return {};
        }
        std::vector<Tensor> out;
        if (!targets.empty() && !(s = session.run(feeds, {}, targets, &out)).isOk()) {
            qWarning("%s", s.toString().c_str());
            return {};
        }
        if (!(s = session.run(feeds, {fetch}, {}, &out)).isOk()) {
            qWarning("%s", s.toString().c_str());
            return {};
        }
        auto v = out.front().values<float>();
        return {v.begin(), v.end()};
    }

    Tensor floats(const TensorShape& shape, const std::vector<float>& values)
    {
        static CpuAllocator allocator;
        return *Tensor::fromVector(allocator, shape, values);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(registerAllOps(m_ops).isOk());
        const Status s = registerAllGradients(m_ops);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(registerCpuKernels(m_kernels).isOk());
    }

    /// The book's MNIST model (TensorFlow 1.3) trained with GradientDescentOptimizer.minimize, which
    /// calls tf.gradients with gate_gradients: every node under gradients/ must be TensorFlow's
    /// (name, op, inputs, device, attrs), in TensorFlow's order, except where TensorFlow 1.15 (whose
    /// behaviour we follow) builds differently from 1.3: the default grad_y constant is named
    /// "grad_ys_0" instead of "Const", and the gradients of Add and Mul of two equal, fully defined
    /// shapes are returned directly (add_grad and the scalar l2_regularizer_grad).
    void mnistGradientGraphMatchesTensorFlow()
    {
        auto meta = tstudio::testing::readMetaGraphFixture("tf1-mnist-book/mnist_model-29001.meta");
        if (!meta)
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES (or no tf1-mnist-book/mnist_model-29001.meta): "
                  "the comparison with TensorFlow's MNIST gradient graph is not checked");
        const tf::GraphDef& theirs = meta->graph_def();
        std::map<std::string, const tf::NodeDef*> theirNodes;
        std::map<std::string, int> theirOrder;
        for (int i = 0; i < theirs.node_size(); ++i) {
            theirNodes[theirs.node(i).name()] = &theirs.node(i);
            theirOrder[theirs.node(i).name()] = i;
        }
        const std::string preventName =
            "gradients/SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits_grad/PreventGradient";
        QVERIFY(theirNodes.count(preventName));
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        QVERIFY(registerAllGradients(ops).isOk());

        // The forward graph, as test_variables builds it (its first 43 nodes are TensorFlow's).
        GraphBuilder b(ops);
        Output x = *ops::placeholder(b, tf::DT_FLOAT, {-1, 784}, "x-input");
        Output yInput = *ops::placeholder(b, tf::DT_FLOAT, {-1, 10}, "y-input");
        Output input = x;
        std::vector<Output> losses;
        std::vector<Output> vars;
        const std::int64_t dims[] = {784, 500, 10};
        Output logits;
        for (int layer = 0; layer < 2; ++layer) {
            auto scope = variableScope(b, layer == 0 ? "layer1" : "layer2");
            auto weights = getVariable(b, "weights", {dims[layer], dims[layer + 1]}, tf::DT_FLOAT,
                                       Initializer::truncatedNormal(0.0, 0.1));
            QVERIFY2(weights, err(weights));
            {
                auto reg = b.nameScope("l2_regularizer");
                auto scale = ops::constant(b, 0.0001, tf::DT_FLOAT, "scale");
                auto l2 = b.op("L2Loss", {weights->value()});
                auto loss = ops::mul(b, *scale, l2->output(0), reg->name());
                QVERIFY2(loss, err(loss));
                losses.push_back(*loss);
            }
            auto biases = getVariable(b, "biases", {dims[layer + 1]}, tf::DT_FLOAT, Initializer::constant(0.0));
            QVERIFY2(biases, err(biases));
            vars.push_back(weights->ref());
            vars.push_back(biases->ref());
            auto mm = ops::matMul(b, input, weights->value());
            auto sum = ops::add(b, *mm, biases->value(), "add");
            QVERIFY2(sum, err(sum));
            if (layer == 0)
                input = *ops::relu(b, *sum);
            else
                logits = *sum;
        }
        // cross_entropy_mean + tf.add_n(tf.get_collection('losses')).
        auto dimension = ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "ArgMax/dimension");
        auto labels = b.op("ArgMax", {yInput, *dimension});
        QVERIFY2(labels, err(labels));
        Output xent;
        {
            auto scope = b.nameScope("SparseSoftmaxCrossEntropyWithLogits");
            QVERIFY(b.op("Shape", {labels->output(0)}));
            auto op = b.op("SparseSoftmaxCrossEntropyWithLogits", {logits, labels->output(0)});
            QVERIFY2(op, err(op));
            xent = op->output(0);
        }
        auto axes = ops::constantInts(b, {0}, TensorShape{1}, tf::DT_INT32, "Const");
        auto mean = b.op("Mean", {xent, *axes});
        auto addN = b.op("AddN", {losses});
        auto loss = ops::add(b, mean->output(0), addN->output(0), "add");
        QVERIFY2(loss, err(loss));

        GradientsOptions options;
        options.gateGradients = true;
        auto grads = addSymbolicGradients(b, {*loss}, vars, {}, options);
        QVERIFY2(grads, err(grads));
        QCOMPARE(grads->size(), std::size_t(4));
        QCOMPARE((*grads)[0]->name(), std::string("gradients/AddN_1:0"));
        QCOMPARE((*grads)[1]->name(), std::string("gradients/layer1/add_grad/tuple/control_dependency_1:0"));
        QCOMPARE((*grads)[2]->name(), std::string("gradients/AddN:0"));
        QCOMPARE((*grads)[3]->name(), std::string("gradients/layer2/add_grad/tuple/control_dependency_1:0"));

        // TensorFlow 1.3 vs 1.15: the nodes that only one of them builds.
        auto versionSpecific = [](const std::string& name) {
            return name == "gradients/Const" || name == "gradients/grad_ys_0" ||
                   name.starts_with("gradients/add_grad/") ||
                   name.starts_with("gradients/layer1/l2_regularizer_grad/") ||
                   name.starts_with("gradients/layer2/l2_regularizer_grad/");
        };
        std::vector<std::string> ours = nodesUnder(b, "gradients/");
        std::set<std::string> oursSet(ours.begin(), ours.end());
        int compared = 0;
        int lastOrder = -1;
        for (const std::string& name : ours) {
            if (versionSpecific(name))
                continue;
            QVERIFY2(theirNodes.count(name), qPrintable(QString::fromStdString("TensorFlow has no node " + name)));
            const tf::NodeDef& t = *theirNodes[name];
            const tf::NodeDef& o = *b.findNode(name);
            QVERIFY2(o.op() == t.op(), qPrintable(QString::fromStdString(name + ": op " + o.op() + ", not " + t.op())));
            std::string theirInputs;
            for (const std::string& in : t.input())
                theirInputs += (in == "gradients/Const" ? std::string("gradients/grad_ys_0") : in) + " ";
            std::string ourInputs;
            for (const std::string& in : o.input())
                ourInputs += in + " ";
            QVERIFY2(ourInputs == theirInputs,
                     qPrintable(QString::fromStdString(name + ": inputs " + ourInputs + "instead of " + theirInputs)));
            QCOMPARE(o.device(), t.device());
            tf::NodeDef expected = t;
            if (name.starts_with("gradients/AddN_grad/tuple/control_dependency")) {
                // Colocated with add_grad's gradient, which in 1.15 is the Identity of gradients/Fill.
                QCOMPARE(std::string(t.attr().at("_class").list().s(0)),
                         std::string("loc:@gradients/add_grad/Reshape_1"));
                (*expected.mutable_attr())["_class"].mutable_list()->set_s(0, "loc:@gradients/Fill");
            }
            const QString diff = diffAttrs(ops, o, expected);
            QVERIFY2(diff.isEmpty(), qPrintable(QString::fromStdString(name + ": ") + diff));
            QVERIFY2(theirOrder[name] > lastOrder, qPrintable(QString::fromStdString(name + " is out of order")));
            lastOrder = theirOrder[name];
            ++compared;
        }
        for (const auto& [name, node] : theirNodes) {
            if (name.starts_with("gradients/") && !versionSpecific(name))
                QVERIFY2(oursSet.count(name), qPrintable(QString::fromStdString("we do not build " + name)));
        }
        QCOMPARE(compared, 60);

        // The 1.15 forms of the version-specific parts.
        QCOMPARE(nodesUnder(b, "gradients/add_grad/"),
                 (std::vector<std::string>{"gradients/add_grad/tuple/group_deps",
                                           "gradients/add_grad/tuple/control_dependency",
                                           "gradients/add_grad/tuple/control_dependency_1"}));
        QCOMPARE(inputsOf(b, "gradients/add_grad/tuple/group_deps"), std::vector<std::string>{"^gradients/Fill"});
        QCOMPARE(inputsOf(b, "gradients/Fill"), (std::vector<std::string>{"gradients/Shape", "gradients/grad_ys_0"}));
        QCOMPARE(inputsOf(b, "gradients/layer2/l2_regularizer_grad/Mul"),
                 (std::vector<std::string>{"gradients/AddN_grad/tuple/control_dependency_1",
                                           "layer2/l2_regularizer/L2Loss"}));
        QCOMPARE(inputsOf(b, "gradients/layer2/l2_regularizer_grad/Mul_1"),
                 (std::vector<std::string>{"gradients/AddN_grad/tuple/control_dependency_1",
                                           "layer2/l2_regularizer/scale"}));
    }

    void defaultAndGivenGradYs()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto y = ops::square(b, *x);
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, err(grads));
        QCOMPARE(opOf(b, "gradients/Shape"), std::string("Const"));
        QCOMPARE(opOf(b, "gradients/grad_ys_0"), std::string("Const"));
        QCOMPARE(inputsOf(b, "gradients/Fill"), (std::vector<std::string>{"gradients/Shape", "gradients/grad_ys_0"}));
        // Square's gradient: 2 * x gated on the incoming gradient, times it.
        QCOMPARE(inputsOf(b, "gradients/Square_grad/Const"), std::vector<std::string>{"^gradients/Fill"});
        QCOMPARE(inputsOf(b, "gradients/Square_grad/Mul"),
                 (std::vector<std::string>{"x", "gradients/Square_grad/Const"}));
        QCOMPARE(inputsOf(b, "gradients/Square_grad/Mul_1"),
                 (std::vector<std::string>{"gradients/Fill", "gradients/Square_grad/Mul"}));
        QCOMPARE((*grads)[0]->name(), std::string("gradients/Square_grad/Mul_1:0"));
        QCOMPARE(run(b, {{"x:0", floats({2}, {1.5f, -2.0f})}}, (*grads)[0]->name()), (std::vector<float>{3.0f, -4.0f}));

        // A second call gets its own scope; given grad_ys pass through "grad_ys_0".
        auto dy = ops::placeholder(b, tf::DT_FLOAT, {2}, "dy");
        auto again = addSymbolicGradients(b, {*y}, {*x}, {*dy});
        QVERIFY2(again, err(again));
        QCOMPARE(inputsOf(b, "gradients_1/grad_ys_0"), std::vector<std::string>{"dy"});
        QCOMPARE(opOf(b, "gradients_1/grad_ys_0"), std::string("Identity"));
        QCOMPARE(
            run(b, {{"x:0", floats({2}, {1.5f, -2.0f})}, {"dy:0", floats({2}, {10.0f, 0.5f})}}, (*again)[0]->name()),
            (std::vector<float>{30.0f, -2.0f}));

        auto ints = ops::placeholder(b, tf::DT_STRING, {2}, "s");
        auto bad = addSymbolicGradients(b, {*y}, {*x}, {*ints});
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("Gradient type string generated for real or integer-valued tensor "
                                                    "Square:0 with type float32 must be real or integer"));
        auto wrongCount = addSymbolicGradients(b, {*y}, {*x}, {*dy, *dy});
        QVERIFY(!wrongCount);
        QCOMPARE(wrongCount.error().message(), std::string("Passed 2 grad_ys for 1 ys"));
    }

    /// Two consumers of x: their gradients are summed by AddN in the gradients scope, colocated with
    /// the first.
    void gradientsOfSeveralConsumersAreSummedWithAddN()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {3}, "x");
        auto twice = py::binary(b, py::Operator::kMul, *x, 2.0);
        auto sq = ops::square(b, *x);
        auto y = ops::add(b, *twice, *sq);
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, err(grads));
        QCOMPARE((*grads)[0]->name(), std::string("gradients/AddN:0"));
        QCOMPARE(opOf(b, "gradients/AddN"), std::string("AddN"));
        QCOMPARE(inputsOf(b, "gradients/AddN"),
                 (std::vector<std::string>{"gradients/mul_grad/Reshape", "gradients/Square_grad/Mul_1"}));
        const auto& cls = b.findNode("gradients/AddN")->attr().at("_class").list().s();
        QCOMPARE(std::string(cls.Get(0)), std::string("loc:@gradients/mul_grad/Reshape"));
        // d/dx (2x + x^2) = 2 + 2x.
        QCOMPARE(run(b, {{"x:0", floats({3}, {0.0f, 1.0f, -3.0f})}}, "gradients/AddN:0"),
                 (std::vector<float>{2.0f, 4.0f, -4.0f}));
    }

    void stopGradientAndStopGradientsOption()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto stopped = b.op("StopGradient", {*x});
        auto y = ops::mul(b, *x, stopped->output(0));
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, err(grads));
        // Only the first factor's path counts: d/dx (x * c) = c = x.
        QCOMPARE(run(b, {{"x:0", floats({2}, {3.0f, -1.0f})}}, (*grads)[0]->name()), (std::vector<float>{3.0f, -1.0f}));
        QVERIFY(nodesUnder(b, "gradients/StopGradient_grad").empty());

        // stop_gradients: the sum's producer is treated as a constant, so y = a + b has no path back.
        GraphBuilder c(m_ops);
        auto a = ops::placeholder(c, tf::DT_FLOAT, {2}, "a");
        auto s = ops::square(c, *a);
        auto z = c.op("Neg", {*s});
        GradientsOptions options;
        options.stopGradients = {*s};
        auto none = addSymbolicGradients(c, {z->output(0)}, {*a}, {}, options);
        QVERIFY2(none, err(none));
        QVERIFY(!(*none)[0].has_value());
    }

    void notDifferentiableOpsStopTheFlowAndMissingGradientsAreErrors()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        QVERIFY(registerCoreGradients(ops).isOk());
        QVERIFY(registerMathGradients(ops).isOk());
        QCOMPARE(ops.setNotDifferentiable("Neg").code(), StatusCode::kAlreadyExists); // it has a gradient
        QCOMPARE(ops.setNotDifferentiable("NoSuchOp").code(), StatusCode::kNotFound);
        GraphBuilder b(ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        // Greater is not differentiable; the Cast after it only sees a bool.
        auto mask = b.op("Greater", {*x, *ops::constant(b, 0.0)});
        auto asFloat = b.op("Cast", {mask->output(0)}, {{"DstT", attr::type(tf::DT_FLOAT)}});
        auto y = ops::add(b, asFloat->output(0), *x);
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, err(grads));
        QVERIFY((*grads)[0].has_value());

        // An op on the path without any registration: TensorFlow's LookupError text.
        auto t = ops::transpose(b, *x, *ops::constantInts(b, {0}, {1}));
        auto z = ops::square(b, *t);
        auto missing = addSymbolicGradients(b, {*z}, {*x});
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kNotFound);
        QCOMPARE(missing.error().message(),
                 std::string("No gradient defined for operation 'Transpose' (op type: Transpose)"));

        // PreventGradient refuses with its message.
        auto p = b.op("PreventGradient", {*x}, {{"message", attr::s("no second derivative")}});
        auto w = ops::square(b, p->output(0));
        auto prevented = addSymbolicGradients(b, {*w}, {*x});
        QVERIFY(!prevented);
        QVERIFY2(prevented.error().message().find("Gradient explicitly disabled. Reason: no second derivative") !=
                     std::string::npos,
                 prevented.error().message().c_str());
    }

    void unconnectedXsGetNoGradient()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto other = ops::placeholder(b, tf::DT_FLOAT, {2}, "other");
        auto y = ops::square(b, *x);
        // A path through integers carries no gradient either.
        auto asInt = b.op("Cast", {*other}, {{"DstT", attr::type(tf::DT_INT32)}});
        auto back = b.op("Cast", {asInt->output(0)}, {{"DstT", attr::type(tf::DT_FLOAT)}});
        auto z = ops::add(b, *y, back->output(0));
        auto grads = addSymbolicGradients(b, {*z}, {*x, *other});
        QVERIFY2(grads, err(grads));
        QCOMPARE(grads->size(), std::size_t(2));
        QVERIFY((*grads)[0].has_value());
        QVERIFY(!(*grads)[1].has_value());
        // No y at all: every x unconnected, and the graph only gains the grad_ys nodes.
        auto none = addSymbolicGradients(b, {*y}, {*other});
        QVERIFY2(none, err(none));
        QVERIFY(!(*none)[0].has_value());
        QCOMPARE(nodesUnder(b, "gradients_1/"),
                 (std::vector<std::string>{"gradients_1/Shape", "gradients_1/grad_ys_0", "gradients_1/Fill"}));
        // A tensor of another graph.
        auto bad = addSymbolicGradients(b, {Output("nowhere", 0, tf::DT_FLOAT, {})}, {*x});
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("Tensor 'nowhere:0' is not an element of this graph."));
    }

    /// Gating: an op whose inputs both get gradients passes them through tuple/control_dependency
    /// Identities that wait for both; colocation puts the gradient ops with the forward op.
    void gateAndColocateGradients()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "x");
        auto w = ops::placeholder(b, tf::DT_FLOAT, {3}, "w");
        auto y = ops::mul(b, *x, *w);
        GradientsOptions options;
        options.gateGradients = true;
        options.colocateGradientsWithOps = true;
        auto grads = addSymbolicGradients(b, {*y}, {*x, *w}, {}, options);
        QVERIFY2(grads, err(grads));
        QCOMPARE((*grads)[0]->name(), std::string("gradients/Mul_grad/tuple/control_dependency:0"));
        QCOMPARE((*grads)[1]->name(), std::string("gradients/Mul_grad/tuple/control_dependency_1:0"));
        QCOMPARE(inputsOf(b, "gradients/Mul_grad/tuple/group_deps"),
                 (std::vector<std::string>{"^gradients/Mul_grad/Reshape", "^gradients/Mul_grad/Reshape_1"}));
        QCOMPARE(inputsOf(b, "gradients/Mul_grad/tuple/control_dependency_1"),
                 (std::vector<std::string>{"gradients/Mul_grad/Reshape_1", "^gradients/Mul_grad/tuple/group_deps"}));
        auto classOf = [&](const std::string& node) {
            const tf::NodeDef* def = b.findNode(node);
            return def && def->attr().count("_class") ? std::string(def->attr().at("_class").list().s(0))
                                                      : std::string();
        };
        QCOMPARE(classOf("gradients/Mul_grad/Sum"), std::string("loc:@Mul"));
        QCOMPARE(classOf("gradients/Mul_grad/mul"), std::string("loc:@Mul"));
        QCOMPARE(classOf("gradients/Mul_grad/tuple/group_deps"), std::string());
        // Colocated with Reshape, which is itself in Mul's group.
        QCOMPARE(classOf("gradients/Mul_grad/tuple/control_dependency"), std::string("loc:@Mul"));
        QCOMPARE(classOf("gradients/Fill"), std::string("loc:@Mul"));
        // d(sum x*w)/dw = column sums of x.
        const auto dw =
            run(b, {{"x:0", floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"w:0", floats({3}, {1, 1, 1})}}, (*grads)[1]->name());
        QCOMPARE(dw, (std::vector<float>{5, 7, 9}));
    }

    /// A VariableV2 as x, as Optimizer.minimize passes it: the gradient reaches it through "read".
    void refVariableAsX()
    {
        GraphBuilder b(m_ops);
        auto v = getVariable(b, "v", {3}, tf::DT_FLOAT, Initializer::constant(2.0));
        QVERIFY2(v, err(v));
        auto y = ops::mul(b, v->value(), v->value());
        auto grads = addSymbolicGradients(b, {*y}, {v->ref()});
        QVERIFY2(grads, err(grads));
        // v * v: both inputs of Mul are the read, so its two gradients are summed.
        QCOMPARE((*grads)[0]->name(), std::string("gradients/AddN:0"));
        QCOMPARE(inputsOf(b, "gradients/AddN"),
                 (std::vector<std::string>{"gradients/Mul_grad/Mul", "gradients/Mul_grad/Mul_1"}));
        QCOMPARE(run(b, {}, (*grads)[0]->name(), {v->initializer().name()}), (std::vector<float>{4, 4, 4}));
    }

    /// An unused float output of an op being differentiated gets ZerosLike "gradients/zeros_like".
    void unusedTrainableOutputsGetZeros()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        QVERIFY(registerAllGradients(ops).isOk());
        if (!ops.find("Unpack")->gradient) {
            QVERIFY(ops.setGradient(
                           "Unpack",
                           [](GradientContext& c) -> Status {
                               // Both output gradients must be there, the unused one as zeros.
                               TSTUDIO_AD_TRY(g0, c.grad(0));
                               TSTUDIO_AD_TRY(g1, c.grad(1));
                               TSTUDIO_AD_TRY(packed, py::genOp(c.builder(), "Pack", {std::vector<Output>{g0, g1}}));
                               return c.setInputGradient(0, packed);
                           })
                        .isOk());
        }
        GraphBuilder b(ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 2}, "x");
        auto parts = b.op("Unpack", {*x}, {{"num", attr::i(2)}});
        QVERIFY2(parts, err(parts));
        auto y = ops::square(b, parts->output(0));
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, err(grads));
        QCOMPARE(opOf(b, "gradients/zeros_like"), std::string("ZerosLike"));
        QCOMPARE(inputsOf(b, "gradients/zeros_like"), std::vector<std::string>{"Unpack:1"});
        QCOMPARE(run(b, {{"x:0", floats({2, 2}, {1, 2, 3, 4})}}, (*grads)[0]->name()),
                 (std::vector<float>{2, 4, 0, 0}));
    }

    /// _SumGrad with statically known shapes: TensorFlow builds reduced_shape and _safe_shape_div on
    /// Python tuples and folds them into constants; the folded nodes stay in the graph once per
    /// (shape, axes) and call, and the live part is Reshape and Tile of constants.
    void sumGradientOfStaticShapes()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3, 4}, "x");
        auto axes = ops::constantInts(b, {1}, {1}, tf::DT_INT32, "axes");
        auto s1 = ops::sum(b, *x, *axes, false, "s1");
        auto s2 = ops::sum(b, *x, *axes, false, "s2");
        // constant_value sees through Identity, but not through Sub.
        auto s3 = ops::sum(b, *x, *ops::identity(b, *axes), false, "s3");
        auto s4 = ops::sum(b, *x, *ops::sub(b, *axes, *ops::constantInts(b, {0}, {1})), false, "s4");
        auto y = b.op("AddN", {std::vector<Output>{*s1, *s2, *s3, *s4}});
        QVERIFY2(y, err(y));
        auto grads = addSymbolicGradients(b, {y->output(0)}, {*x});
        QVERIFY2(grads, err(grads));
        const std::vector<std::string> first = nodesUnder(b, "gradients/s1_grad/");
        const std::vector<std::string> second = nodesUnder(b, "gradients/s2_grad/");
        // The queue reaches s1 first (Add's first input), so s1's gradient builds the folded nodes.
        auto names = [](const std::string& scope, std::vector<std::string> rel) {
            for (std::string& r : rel)
                r = "gradients/" + scope + "_grad/" + r;
            return rel;
        };
        QCOMPARE(first,
                 names("s1", {"Cast/x",      "Cast_1/x",       "Size",    "add",        "mod",      "Shape",
                              "range/start", "range/delta",    "range",   "Fill/value", "Fill",     "DynamicStitch",
                              "Maximum/x",   "Maximum/y",      "Maximum", "floordiv/x", "floordiv", "Reshape/shape",
                              "Reshape",     "Tile/multiples", "Tile"}));
        QCOMPARE(second, names("s2", {"Reshape/shape", "Reshape", "Tile/multiples", "Tile"}));
        QCOMPARE(nodesUnder(b, "gradients/s3_grad/"),
                 names("s3", {"Reshape/shape", "Reshape", "Tile/multiples", "Tile"}));
        // Axes unknown while building: reduced_shape at run time, colocated with the input's shape.
        QCOMPARE(
            nodesUnder(b, "gradients/s4_grad/"),
            names("s4", {"Shape", "Size", "add", "mod", "Shape_1", "range/start", "range/delta", "range", "Fill/value",
                         "Fill", "DynamicStitch", "Maximum/y", "Maximum", "floordiv", "Reshape", "Tile"}));
        QCOMPARE(std::string(b.findNode("gradients/s4_grad/DynamicStitch")->attr().at("_class").list().s(0)),
                 std::string("loc:@gradients/s4_grad/Shape"));
        QCOMPARE(inputsOf(b, "gradients/s4_grad/Tile"),
                 (std::vector<std::string>{"gradients/s4_grad/Reshape", "gradients/s4_grad/floordiv"}));
        const tf::NodeDef* multiples = b.findNode("gradients/s2_grad/Tile/multiples");
        QVERIFY(multiples);
        static CpuAllocator allocator;
        Tensor t = *Tensor::fromProto(allocator, multiples->attr().at("value").tensor());
        QCOMPARE(std::vector<std::int32_t>(t.values<std::int32_t>().begin(), t.values<std::int32_t>().end()),
                 (std::vector<std::int32_t>{1, 3, 1}));
    }

    void whileLoopsAreNotSupportedYet()
    {
        GraphBuilder b(m_ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto enter = b.op("Enter", {*x}, {{"frame_name", attr::s("loop")}});
        QVERIFY2(enter, err(enter));
        auto body = ops::square(b, enter->output(0));
        auto exit = b.op("Exit", {*body});
        QVERIFY2(exit, err(exit));
        auto grads = addSymbolicGradients(b, {exit->output(0)}, {*x});
        QVERIFY(!grads);
        QCOMPARE(grads.error().code(), StatusCode::kUnimplemented);
        QVERIFY2(grads.error().message().find("is inside the while loop 'loop'") != std::string::npos,
                 grads.error().message().c_str());
    }

    void shapeMismatchOfAGradientIsAnError()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        QVERIFY(registerCoreGradients(ops).isOk());
        QVERIFY(
            ops.setGradient(
                   "Neg",
                   [](GradientContext& c) -> Status {
                       TSTUDIO_AD_TRY(wrong, ops::constant(c.builder(), std::vector<double>{1, 2, 3}, TensorShape{3}));
                       return c.setInputGradient(0, wrong);
                   })
                .isOk());
        GraphBuilder b(ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto y = b.op("Neg", {*x});
        auto grads = addSymbolicGradients(b, {y->output(0)}, {*x});
        QVERIFY(!grads);
        QCOMPARE(grads.error().message(),
                 std::string("Incompatible shapes between op input and calculated input gradient.  Forward operation: "
                             "Neg.  Input index: 0. Original input shape: [2].  Calculated input gradient shape: [3]"));
    }
};

QTEST_GUILESS_MAIN(TestGradients)
#include "test_gradients.moc"
