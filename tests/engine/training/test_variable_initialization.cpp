// Tests for tf.get_local_variable (builder/local_variable.h) and tf.assert_variables_initialized
// (training/assert_variables_initialized.h): the local variable is in LOCAL_VARIABLES only, not
// trainable, initialized by local_variables_initializer; the assertion's nodes as TensorFlow 1.15
// makes them ("Rank", "Rank_1" colocated with their variables, "stack"), its run failing until the
// variables are initialized and giving their ranks after; None without variables.
#include "builder/local_variable.h"
#include "builder/ops_sugar.h"
#include "graph_run.h"
#include "model_test_support.h"
#include "training/assert_variables_initialized.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestVariableInitialization : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void localVariableIsLocalAndNotTrained()
    {
        GraphBuilder b(m_registries->ops);
        auto counter = getLocalVariable(b, "counter", TensorShape::scalar(), tf::DT_INT32, Initializer::zeros());
        QVERIFY2(counter, err(counter));
        QCOMPARE(QString::fromStdString(counter->name()), QStringLiteral("counter"));
        QVERIFY(!counter->trainable());
        QCOMPARE(localVariables(b).size(), std::size_t{1});
        QVERIFY(globalVariables(b).empty());
        QVERIFY(trainableVariables(b).empty());
        auto init = localVariablesInitializer(b);
        QVERIFY2(init, err(init));
        auto out = runGraph(*m_registries, b, {}, {"counter/read:0"}, {init->name()});
        QVERIFY2(out, err(out));
        QCOMPARE(out->at(0).flat<std::int32_t>()(0), 0);
    }

    void assertionFailsUntilInitialized()
    {
        GraphBuilder b(m_registries->ops);
        auto none = training::assertVariablesInitialized(b);
        QVERIFY2(none, err(none));
        QVERIFY(!none->has_value());

        auto w = getVariable(b, "w", TensorShape{2, 3}, tf::DT_FLOAT, Initializer::ones());
        auto counter = getLocalVariable(b, "counter", TensorShape::scalar(), tf::DT_INT32, Initializer::zeros());
        QVERIFY(w && counter);
        auto check = training::assertVariablesInitialized(b);
        QVERIFY2(check, err(check));
        QVERIFY(check->has_value());
        QCOMPARE(QString::fromStdString((*check)->node()), QStringLiteral("stack"));
        QCOMPARE(QString::fromStdString(b.findNode("Rank")->input(0)), QStringLiteral("w/read"));
        QCOMPARE(QString::fromStdString(b.findNode("Rank")->attr().at("_class").list().s(0)), QStringLiteral("loc:@w"));
        QCOMPARE(QString::fromStdString(b.findNode("Rank_1")->input(0)), QStringLiteral("counter/read"));

        auto uninitialized = runGraph(*m_registries, b, {}, {"stack:0"});
        QVERIFY(!uninitialized);
        QVERIFY2(QString::fromStdString(uninitialized.error().message()).contains(QStringLiteral("uninitialized")),
                 err(uninitialized));

        auto global = globalVariablesInitializer(b);
        QVERIFY2(global, err(global));
        auto local = localVariablesInitializer(b);
        QVERIFY2(local, err(local));
        auto group = ops::group(b, {*global, *local}, "init_all");
        QVERIFY2(group, err(group));
        auto ranks = runGraph(*m_registries, b, {}, {"stack:0"}, {"init_all"});
        QVERIFY2(ranks, err(ranks));
        QCOMPARE(ranks->at(0).flat<std::int32_t>()(0), 2);
        QCOMPARE(ranks->at(0).flat<std::int32_t>()(1), 0);

        // One variable: its Rank, no stack.
        auto single = training::assertVariablesInitialized(b, std::vector<Variable>{*w});
        QVERIFY2(single, err(single));
        QCOMPARE(QString::fromStdString((*single)->node()), QStringLiteral("Rank_2"));
    }
};

QTEST_APPLESS_MAIN(TestVariableInitialization)
#include "test_variable_initialization.moc"
