// Tests for tf.tuple (builder/tuple.h): TensorFlow 1.15's nodes (the gate "tuple/group_deps" on each
// op once in creation order, "tuple/control_dependency[_N]" per tensor, "tuple/group_deps_N" per
// operation, None kept), control inputs, a second tuple's scope, the values passed through, and the
// errors.
#include "builder/ops_sugar.h"
#include "builder/tuple.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "model_test_support.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestTuple : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    /// Two tensors (given last-made first, one of them twice), a None and an operation, with a
    /// control input: one gate on each op once, in the order the graph made them.
    void gatesEveryElement()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::constant(b, {1.0, 2.0}, TensorShape{2}, tf::DT_FLOAT, "x");
        auto y = ops::constant(b, {10.0, 20.0}, TensorShape{2}, tf::DT_FLOAT, "y");
        auto sum = ops::add(b, *x, *y, "sum");
        auto side = ops::noOp(b, "side");
        auto extra = ops::noOp(b, "extra");
        QVERIFY(x && y && sum && side && extra);
        auto gated = tuple(
            b, {TupleElement{*sum}, TupleElement{*x}, std::nullopt, TupleElement{*side}, TupleElement{*sum}}, {*extra});
        QVERIFY2(gated, err(gated));
        QCOMPARE(inputsOf(b, "tuple/group_deps"), (std::vector<std::string>{"^x", "^sum", "^side", "^extra"}));
        QCOMPARE(QString::fromStdString(b.findNode("tuple/group_deps")->op()), QStringLiteral("NoOp"));
        QCOMPARE(gated->size(), std::size_t{5});
        const Output first = std::get<Output>(*gated->at(0));
        QCOMPARE(QString::fromStdString(first.name()), QStringLiteral("tuple/control_dependency:0"));
        QCOMPARE(inputsOf(b, "tuple/control_dependency"), (std::vector<std::string>{"sum", "^tuple/group_deps"}));
        QCOMPARE(QString::fromStdString(b.findNode("tuple/control_dependency")->attr().at("_class").list().s(0)),
                 QStringLiteral("loc:@sum"));
        QCOMPARE(QString::fromStdString(std::get<Output>(*gated->at(1)).node()),
                 QStringLiteral("tuple/control_dependency_1"));
        QVERIFY(!gated->at(2).has_value());
        const Operation op = std::get<Operation>(*gated->at(3));
        QCOMPARE(QString::fromStdString(op.name()), QStringLiteral("tuple/group_deps_1"));
        const std::vector<std::string> opInputs = inputsOf(b, "tuple/group_deps_1");
        QVERIFY(std::find(opInputs.begin(), opInputs.end(), "^side") != opInputs.end());
        QVERIFY(std::find(opInputs.begin(), opInputs.end(), "^tuple/group_deps") != opInputs.end());
        QCOMPARE(QString::fromStdString(std::get<Output>(*gated->at(4)).node()),
                 QStringLiteral("tuple/control_dependency_2"));

        auto again = tuple(b, {TupleElement{*x}});
        QVERIFY2(again, err(again));
        QCOMPARE(QString::fromStdString(std::get<Output>(*again->at(0)).node()),
                 QStringLiteral("tuple_1/control_dependency"));

        auto out = runGraph(*m_registries, b, {}, {"tuple/control_dependency:0", "tuple/control_dependency_1:0"},
                            {"tuple/group_deps_1"});
        QVERIFY2(out, err(out));
        QCOMPARE(out->at(0).flat<float>()(0), 11.0f);
        QCOMPARE(out->at(0).flat<float>()(1), 22.0f);
        QCOMPARE(out->at(1).flat<float>()(1), 2.0f);
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        auto none = tuple(b, {std::nullopt, std::nullopt});
        QVERIFY(!none);
        QCOMPARE(QString::fromStdString(none.error().message()),
                 QStringLiteral("Must have at least one Tensor: [None, None]"));
        auto stranger = tuple(b, {TupleElement{Output("ghost", 0, tf::DT_FLOAT, TensorShape{})}});
        QVERIFY(!stranger);
        QVERIFY(QString::fromStdString(stranger.error().message()).contains(QStringLiteral("'ghost'")));
    }
};

QTEST_APPLESS_MAIN(TestTuple)
#include "test_tuple.moc"
