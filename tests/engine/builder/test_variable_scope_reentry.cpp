// Tests for tf.variable_scope's default_name, re-entry of a captured scope and original_name_scope
// (builder/variable_scope.h), against TensorFlow 1.15's naming: default names made unique per
// enclosing variable scope and started again when that scope is re-entered (how tf.layers reuse
// variables), a captured scope re-entered from elsewhere with its own name, ops in its first name
// scope, reuse and the error for reuse=True without a name.
#include "builder/initializers.h"
#include "builder/ops_sugar.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "model_test_support.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::string variableNamed(GraphBuilder& b, std::string_view name, Reuse reuse = Reuse::kFalse)
{
    (void)reuse;
    auto v = getVariable(b, name, TensorShape{2});
    return v ? v->ref().node() : "error: " + v.error().message();
}

} // namespace

class TestVariableScopeReentry : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void defaultNamesAreUniquePerEnclosingScope()
    {
        GraphBuilder b(m_registries->ops);
        {
            auto first = variableScopeWithDefaultName(b, "dense");
            QVERIFY(first);
            QCOMPARE(first->name(), std::string("dense"));
            QCOMPARE(variableNamed(b, "kernel"), std::string("dense/kernel"));
        }
        {
            auto second = variableScopeWithDefaultName(b, "dense");
            QVERIFY(second);
            QCOMPARE(second->name(), std::string("dense_1"));
            QCOMPARE(currentVariableScope(b).originalNameScope, std::string("dense_1/"));
        }
        // Inside a named scope the counts start again; re-entering it with reuse starts them again
        // too, so the same default names reach the same variables.
        {
            auto tower = variableScope(b, "tower");
            QVERIFY(tower);
            auto d = variableScopeWithDefaultName(b, "dense");
            QVERIFY(d);
            QCOMPARE(d->name(), std::string("tower/dense"));
            QCOMPARE(variableNamed(b, "kernel"), std::string("tower/dense/kernel"));
        }
        {
            auto tower = variableScope(b, "tower", Reuse::kTrue);
            QVERIFY(tower);
            auto d = variableScopeWithDefaultName(b, "dense");
            QVERIFY(d);
            QCOMPARE(d->name(), std::string("tower/dense"));
            QCOMPARE(currentVariableScope(b).originalNameScope, std::string("tower_1/dense/"));
            // Reused: the same variable, no new node.
            auto again = getVariable(b, "kernel", TensorShape{2});
            QVERIFY2(again, err(again));
            QCOMPARE(again->ref().node(), std::string("tower/dense/kernel"));
        }
        auto refused = variableScopeWithDefaultName(b, "dense", Reuse::kTrue);
        QVERIFY(!refused);
        QCOMPARE(refused.error().message(), std::string("reuse=True cannot be used without a name_or_scope"));
    }

    void aCapturedScopeIsReenteredWhereItWas()
    {
        GraphBuilder b(m_registries->ops);
        VariableScopeState captured;
        {
            auto model = variableScope(b, "model");
            QVERIFY(model);
            QCOMPARE(variableNamed(b, "w"), std::string("model/w"));
            QVERIFY(ops::constant(b, 1.0, tf::DT_FLOAT, "c"));
            captured = currentVariableScope(b);
        }
        QCOMPARE(captured.name, std::string("model"));
        QCOMPARE(captured.originalNameScope, std::string("model/"));
        {
            auto elsewhere = variableScope(b, "elsewhere");
            QVERIFY(elsewhere);
            // with tf.variable_scope(captured, reuse=True): its own name, not "elsewhere/model".
            auto back = variableScope(b, captured, Reuse::kTrue);
            QVERIFY(back);
            QCOMPARE(back->name(), std::string("model"));
            auto w = getVariable(b, "w", TensorShape{2});
            QVERIFY2(w, err(w));
            QCOMPARE(w->ref().node(), std::string("model/w"));
            // Ops in the original name scope itself, made unique there.
            auto c = ops::constant(b, 2.0, tf::DT_FLOAT, "c");
            QVERIFY(c);
            QCOMPARE(c->node(), std::string("model/c_1"));
            // A new variable without reuse in a captured scope that does not reuse.
        }
        {
            auto plain = variableScope(b, captured);
            QVERIFY(plain);
            QCOMPARE(variableNamed(b, "v"), std::string("model/v"));
            auto duplicate = getVariable(b, "w", TensorShape{2});
            QVERIFY(!duplicate);
            QVERIFY2(duplicate.error().message().find("Variable model/w already exists") != std::string::npos,
                     duplicate.error().message().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestVariableScopeReentry)
#include "test_variable_scope_reentry.moc"
