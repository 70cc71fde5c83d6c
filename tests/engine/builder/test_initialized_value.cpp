// Tests for Variable.initialized_value() (builder/initialized_value.h): a second variable
// initialised from the first's initialized_value runs whichever initializer goes first, the value is
// the variable's current one once initialised (not the initial one), and TensorFlow's ops.
#include "builder/initialized_value.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "graph_run.h"
#include "model_test_support.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestInitializedValue : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void dependsOnAVariableInAnyOrder()
    {
        GraphBuilder b(m_registries->ops);
        auto w = variable(b, *ops::constant(b, {1.0, 2.0}, TensorShape{2}, tf::DT_FLOAT, "w_init"), "w");
        QVERIFY2(w, err(w));
        auto value = initializedValue(b, *w);
        QVERIFY2(value, err(value));
        QCOMPARE(b.findNode("IsVariableInitialized")->op(), std::string("IsVariableInitialized"));
        QCOMPARE(b.findNode(value->node())->op(), std::string("Merge"));
        auto doubled = ops::mul(b, *value, *ops::constant(b, 2.0, tf::DT_FLOAT, "two"), "doubled");
        QVERIFY(doubled);
        auto v = variable(b, *doubled, "v");
        QVERIFY2(v, err(v));

        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        QVERIFY(session.create(b.graphDef()).isOk());
        std::vector<Tensor> out;
        // v's initializer first, w still uninitialised: the initial value is used.
        Status s = session.run({}, {}, {v->initializer().name()}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(session.run({}, {"v:0"}, {}, &out).isOk());
        QCOMPARE(floatValuesOf(out[0]), (std::vector<float>{2, 4}));
        // Once w is initialised and changed, initialized_value reads the variable.
        QVERIFY(session.run({}, {}, {w->initializer().name()}, &out).isOk());
        auto assign = ops::constant(b, {5.0, 6.0}, TensorShape{2}, tf::DT_FLOAT, "five_six");
        QVERIFY(assign);
        auto assignOp = b.op("Assign", {w->ref(), *assign}, {}, "set_w");
        QVERIFY(assignOp);
        tf::GraphDef extension;
        for (const auto& node : b.graphDef().node())
            if (node.name() == "five_six" || node.name() == "set_w")
                *extension.add_node() = node;
        QVERIFY(session.extend(extension).isOk());
        QVERIFY(session.run({}, {}, {"set_w"}, &out).isOk());
        QVERIFY(session.run({}, {value->name()}, {}, &out).isOk());
        QCOMPARE(floatValuesOf(out[0]), (std::vector<float>{5, 6}));
    }

    void insideControlDependenciesItIsLifted()
    {
        GraphBuilder b(m_registries->ops);
        auto w = variable(b, *ops::constant(b, 1.0, tf::DT_FLOAT, "w_init"), "w");
        QVERIFY(w);
        auto gate = ops::noOp(b, "gate");
        QVERIFY(gate);
        auto scope = b.controlDependencies({*gate});
        auto value = initializedValue(b, *w);
        QVERIFY2(value, err(value));
        for (const auto& input : b.findNode("IsVariableInitialized")->input())
            QVERIFY(input != "^gate");
    }
};

QTEST_GUILESS_MAIN(TestInitializedValue)
#include "test_initialized_value.moc"
