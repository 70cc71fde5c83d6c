// The Cond node: its catalogue entry, the nodes it builds (exactly what the builder's cond writes for
// tf.cond(pred, lambda: a, lambda: b), with TensorFlow's names), the value it gives for either pred
// through a Session, and the errors of a pred that is not a bool scalar or values of two dtypes.
#include "layer_test_support.h"

#include "../../support/graph_def_nodes.h"
#include "../../support/model_test_support.h"
#include "builder/attr_values.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layers/cond_node.h"
#include "layers/layer_catalog.h"

#include <google/protobuf/util/message_differencer.h>

#include <QTest>

using namespace tstudio;
using namespace tstudio::layers;
namespace tf = tensorflow;

namespace {

/// A bool scalar placeholder "p" and float placeholders "a" and "b" of `shape`.
struct CondInputs {
    Output p, a, b;
};

CondInputs addCondInputs(GraphBuilder& g, const TensorShape& shape = TensorShape{-1, 2})
{
    CondInputs in;
    in.p = *ops::placeholder(g, tf::DT_BOOL, TensorShape::scalar(), "p");
    in.a = *ops::placeholder(g, tf::DT_FLOAT, shape, "a");
    in.b = *ops::placeholder(g, tf::DT_FLOAT, shape, "b");
    return in;
}

std::vector<std::string> inputsOf(const GraphBuilder& g, const std::string& node)
{
    const tf::NodeDef* n = g.findNode(node);
    if (n == nullptr)
        return {"<no node " + node + ">"};
    return {n->input().begin(), n->input().end()};
}

} // namespace

class TestCondNode : public QObject {
    Q_OBJECT
private:
    const Registries* m_registries = nullptr;

    Tensor floats(const TensorShape& shape, const std::vector<float>& v)
    {
        return *Tensor::fromVector(testing::layerTestAllocator(), shape, v);
    }
    Tensor boolean(bool v)
    {
        return *Tensor::fromVector(testing::layerTestAllocator(), TensorShape::scalar(), std::vector<bool>{v});
    }

    /// The error text of a Cond node "gate" fed placeholders of these dtypes and shapes ("built" when it builds).
    std::string condError(tf::DataType predType, const TensorShape& predShape, tf::DataType falseType,
                          int inputCount = 3)
    {
        GraphBuilder g(m_registries->ops);
        auto p = ops::placeholder(g, predType, predShape, "p");
        auto a = ops::placeholder(g, tf::DT_FLOAT, TensorShape{-1, 4}, "a");
        auto b = ops::placeholder(g, falseType, TensorShape{-1, 4}, "b");
        if (!p || !a || !b)
            return "placeholders: " + std::string(testing::err(!p ? p : !a ? a : b));
        std::vector<Output> inputs{*p, *a, *b};
        inputs.resize(static_cast<std::size_t>(inputCount), *a);
        auto out = expandLayerNode(g, "Cond", "gate", {}, inputs);
        if (out)
            return "built";
        // Nothing is added before the ports are checked.
        if (g.graphDef().node_size() != 3)
            return "nodes were added: " + out.error().toString();
        return out.error().toString();
    }

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries);
    }

    /// Three named inputs, one output, no params, in the Layers group after Add.
    void catalogue()
    {
        const LayerType* t = findLayerType("Cond");
        QVERIFY(t != nullptr);
        QCOMPARE(t->category, std::string("Layers"));
        QCOMPARE(t->inputs, 3);
        QCOMPARE(t->inputNames, (std::vector<std::string>{"pred", "true", "false"}));
        QCOMPARE(t->outputNames, std::vector<std::string>{"output"});
        QVERIFY(t->params.empty());
        QVERIFY(!t->doc.empty());
        QCOMPARE((t - 1)->type, std::string("Add"));
    }

    /// The node writes the nodes of tf.cond(p, lambda: a, lambda: b): byte for byte what the builder's
    /// cond writes, with TensorFlow's names and inputs.
    void buildsWhatCondBuilds()
    {
        GraphBuilder viaNode(m_registries->ops);
        const CondInputs n = addCondInputs(viaNode);
        auto out = expandLayer(viaNode, "Cond", "", {}, {n.p, n.a, n.b});
        QVERIFY2(out, testing::err(out));
        QCOMPARE(out->size(), std::size_t(1));
        QCOMPARE(out->front().name(), std::string("cond/Merge:0"));
        QCOMPARE(out->front().shape(), (TensorShape{-1, 2}));
        QCOMPARE(out->front().dtype(), tf::DT_FLOAT);

        GraphBuilder viaApi(m_registries->ops);
        const CondInputs c = addCondInputs(viaApi);
        auto merged = cond(
            viaApi, c.p, [&](GraphBuilder&) -> Expected<std::vector<Output>> { return std::vector{c.a}; },
            [&](GraphBuilder&) -> Expected<std::vector<Output>> { return std::vector{c.b}; });
        QVERIFY2(merged, testing::err(merged));
        QCOMPARE(merged->front().name(), out->front().name());
        QCOMPARE(testing::describeGraph(viaNode.graphDef()), testing::describeGraph(viaApi.graphDef()));
        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(viaNode.graphDef(), viaApi.graphDef()));

        // TensorFlow 1.15's node names and wiring for tf.cond(p, lambda: a, lambda: b).
        const QStringList expected{"p Placeholder ",
                                   "a Placeholder ",
                                   "b Placeholder ",
                                   "cond/Switch Switch p,p",
                                   "cond/switch_t Identity cond/Switch:1",
                                   "cond/switch_f Identity cond/Switch",
                                   "cond/pred_id Identity p",
                                   "cond/Switch_1 Switch a,cond/pred_id",
                                   "cond/Switch_2 Switch b,cond/pred_id",
                                   "cond/Merge Merge cond/Switch_2,cond/Switch_1:1"};
        QCOMPARE(testing::describeGraph(viaNode.graphDef()), expected);
        QCOMPARE(viaNode.findNode("cond/Switch_1")->attr().at("_class").list().s(0), std::string("loc:@a"));
    }

    /// A named node opens its own scope; a second unnamed one is made unique as tf.cond's.
    void namesAreTheScope()
    {
        GraphBuilder g(m_registries->ops);
        const CondInputs in = addCondInputs(g);
        auto gate = expandLayer(g, "Cond", "gate", {}, {in.p, in.a, in.b});
        auto first = expandLayer(g, "Cond", "", {}, {in.p, in.a, in.b});
        auto second = expandLayer(g, "Cond", "", {}, {in.p, in.b, in.a});
        QVERIFY2(gate && first && second, testing::err(!gate ? gate : !first ? first : second));
        QCOMPARE(gate->front().name(), std::string("gate/Merge:0"));
        QCOMPARE(first->front().name(), std::string("cond/Merge:0"));
        QCOMPARE(second->front().name(), std::string("cond_1/Merge:0"));
        QCOMPARE(inputsOf(g, "cond_1/Switch_1"), (std::vector<std::string>{"b", "cond_1/pred_id"}));
    }

    /// Run in a session: pred true gives 'true', false gives 'false'; a consumer after the node reads it.
    void evaluatesTheBranchPredSays()
    {
        GraphBuilder g(m_registries->ops);
        const CondInputs in = addCondInputs(g);
        auto out = expandLayer(g, "Cond", "gate", {}, {in.p, in.a, in.b});
        QVERIFY2(out, testing::err(out));
        auto doubled = ops::add(g, out->front(), out->front(), "doubled");
        QVERIFY2(doubled, testing::err(doubled));
        const Tensor a = floats(TensorShape{2, 2}, {1, 2, 3, 4});
        const Tensor b = floats(TensorShape{2, 2}, {-5, -6, -7, -8});
        for (bool pred : {true, false}) {
            const std::vector<std::pair<std::string, Tensor>> feeds{{"p", boolean(pred)}, {"a", a}, {"b", b}};
            auto value = testing::runLayerGraph(*m_registries, g, "gate/Merge:0", feeds);
            QVERIFY2(value, testing::err(value));
            QCOMPARE(value->shape(), (TensorShape{2, 2}));
            QCOMPARE(testing::floatValues(*value),
                     pred ? (std::vector<double>{1, 2, 3, 4}) : (std::vector<double>{-5, -6, -7, -8}));
            auto twice = testing::runLayerGraph(*m_registries, g, "doubled:0", feeds);
            QVERIFY2(twice, testing::err(twice));
            QCOMPARE(testing::floatValues(*twice),
                     pred ? (std::vector<double>{2, 4, 6, 8}) : (std::vector<double>{-10, -12, -14, -16}));
        }
    }

    /// An optimizer trains through the node (Switch and Merge gradients): a Dense layer on the 'true'
    /// port learns in a step where pred is true and is left alone in a step where it is false.
    void trainsThroughTheBranchPredSays()
    {
        GraphBuilder g(m_registries->ops);
        auto p = ops::placeholder(g, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto x = ops::placeholder(g, tf::DT_FLOAT, TensorShape{-1, 2}, "x");
        auto y = ops::placeholder(g, tf::DT_FLOAT, TensorShape{-1, 2}, "y");
        QVERIFY(p && x && y);
        auto dense = expandLayer(g, "Dense", "fc", {{"units", attr::i(2)}}, {*x});
        QVERIFY2(dense, testing::err(dense));
        auto chosen = expandLayer(g, "Cond", "", {}, {*p, dense->front(), *x});
        QVERIFY2(chosen, testing::err(chosen));
        auto loss = expandLayer(g, "MeanSquaredError", "", {}, {*y, chosen->front()});
        QVERIFY2(loss, testing::err(loss));
        auto train = expandLayerNode(g, "GradientDescent", "", {{"learning_rate", attr::f(0.5f)}}, {loss->front()});
        QVERIFY2(train, testing::err(train));
        auto init = globalVariablesInitializer(g);
        QVERIFY2(init, testing::err(init));

        auto session = testing::layerSession(*m_registries, g);
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {init->name()}, &out).isOk());
        const auto kernel = [&] {
            std::vector<Tensor> value;
            const Status s = session->run({}, {"fc/kernel/read:0"}, {}, &value);
            return s.isOk() ? testing::floatValues(value.front()) : std::vector<double>{};
        };
        const std::vector<double> start = kernel();
        QCOMPARE(start.size(), std::size_t(4));
        const Tensor xs = floats(TensorShape{2, 2}, {1, 2, 3, 4});
        const Tensor ys = floats(TensorShape{2, 2}, {1, 0, 0, 1});
        const auto step = [&](bool pred) {
            return session->run({{"p", boolean(pred)}, {"x", xs}, {"y", ys}}, {}, {train->targets.front().name()},
                                &out);
        };
        const Status falseStep = step(false);
        QVERIFY2(falseStep.isOk(), falseStep.toString().c_str());
        QCOMPARE(kernel(), start); // the false branch reads x: no gradient reaches fc
        QVERIFY(step(true).isOk());
        QVERIFY(kernel() != start);
    }

    /// Values of two shapes build, as tf.cond allows: the output's differing dimensions are unknown.
    void valuesMayDifferInShape()
    {
        GraphBuilder g(m_registries->ops);
        auto p = ops::placeholder(g, tf::DT_BOOL, TensorShape::unknown(), "p");
        auto a = ops::placeholder(g, tf::DT_INT32, TensorShape{2, 3}, "a");
        auto b = ops::placeholder(g, tf::DT_INT32, TensorShape{2, 5}, "b");
        QVERIFY(p && a && b);
        auto out = expandLayer(g, "Cond", "", {}, {*p, *a, *b});
        QVERIFY2(out, testing::err(out));
        QCOMPARE(out->front().dtype(), tf::DT_INT32);
        QCOMPARE(out->front().shape(), (TensorShape{2, -1}));
    }

    /// A pred that is not a bool scalar and values of two dtypes are refused before anything is
    /// built, naming the node and the port.
    void badPortsAreRefused()
    {
        QCOMPARE(condError(tf::DT_FLOAT, TensorShape::scalar(), tf::DT_FLOAT),
                 std::string("InvalidArgument: layer 'gate' (Cond): port 'pred' takes a bool scalar; got float32 []"));
        QCOMPARE(condError(tf::DT_BOOL, TensorShape{-1}, tf::DT_FLOAT),
                 std::string("InvalidArgument: layer 'gate' (Cond): port 'pred' takes a bool scalar; got bool [?]: "
                             "reduce it to one value first (tf.reduce_any, tf.reduce_all)"));
        QCOMPARE(condError(tf::DT_BOOL, TensorShape{1}, tf::DT_FLOAT),
                 std::string("InvalidArgument: layer 'gate' (Cond): port 'pred' takes a bool scalar; got bool [1]: "
                             "reduce it to one value first (tf.reduce_any, tf.reduce_all)"));
        QCOMPARE(condError(tf::DT_BOOL, TensorShape::scalar(), tf::DT_INT32),
                 std::string("InvalidArgument: layer 'gate' (Cond): ports 'true' and 'false' take tensors of one "
                             "dtype; got float32 [?,4] and int32 [?,4]"));
        QCOMPARE(condError(tf::DT_BOOL, TensorShape::scalar(), tf::DT_FLOAT, 2),
                 std::string("InvalidArgument: layer 'gate' (Cond): expected 3 inputs, got 2"));
        QCOMPARE(condError(tf::DT_BOOL, TensorShape::scalar(), tf::DT_FLOAT), std::string("built"));
        QCOMPARE(condError(tf::DT_BOOL, TensorShape::unknown(), tf::DT_FLOAT), std::string("built"));
    }
};

QTEST_GUILESS_MAIN(TestCondNode)
#include "test_cond_node.moc"
