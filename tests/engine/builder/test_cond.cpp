// Tests for cond, smartCond, case_ and assertThat (tf.cond, smart_cond, tf.case, tf.Assert of TensorFlow
// 1.15) and learningPhase: the nodes and names they build, values of both branches through a Session,
// gradients through conds against central differences, nested conds, conds in while loops, errors.
#include "autodiff/gradients.h"
#include "builder/cond.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "framework/op_registry.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "registries/default_registries.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using testing::GradientChecks;
using testing::runGraph;
namespace tf = tensorflow;

namespace {

using Results = Expected<std::vector<Output>>;

Results one(Expected<Output> t)
{
    if (!t)
        return unexpected(t.error());
    return std::vector<Output>{*t};
}

std::vector<std::string> inputsOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* n = b.findNode(node);
    if (n == nullptr)
        return {"<no node " + node + ">"};
    return {n->input().begin(), n->input().end()};
}

std::string opOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* n = b.findNode(node);
    return n == nullptr ? "<no node " + node + ">" : n->op();
}

/// A bool placeholder_with_default(value) named `name` (a pred the gradient checker need not feed).
Expected<Output> boolWithDefault(GraphBuilder& b, bool value, std::string_view name)
{
    TSTUDIO_TRY(scope, b.nameScope(name));
    TSTUDIO_TRY(input, ops::constantInts(b, {value ? 1 : 0}, TensorShape::scalar(), tf::DT_BOOL, "input"));
    TSTUDIO_TRY(op, b.op("PlaceholderWithDefault", {input},
                         {{"dtype", attr::type(tf::DT_BOOL)}, {"shape", attr::shape(TensorShape::scalar())}},
                         scope.name()));
    return op.output(0);
}

} // namespace

class TestCond : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    CpuAllocator m_allocator;

    Tensor floats(const TensorShape& shape, const std::vector<float>& v)
    {
        return *Tensor::fromVector(m_allocator, shape, v);
    }
    Tensor boolean(bool v) { return *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<bool>{v}); }

    /// Runs `fetch` of b's graph with `feeds`; the float values, or the error's text as a failure.
    std::vector<float> runFloats(const GraphBuilder& b, const std::vector<std::pair<std::string, Tensor>>& feeds,
                                 const std::string& fetch)
    {
        auto out = runGraph(*m_registries, b, feeds, {fetch});
        if (!out) {
            qWarning("%s", out.error().toString().c_str());
            return {};
        }
        auto v = out->front().values<float>();
        return {v.begin(), v.end()};
    }

    /// tf.cond(p, lambda: x * x + 2, lambda: x * 3) over placeholders p and x [2].
    Expected<Output> squareOrTriple(GraphBuilder& b, const Output& p, const Output& x, std::string_view name = "cond")
    {
        TSTUDIO_TRY(merged, cond(
                                b, p,
                                [&](GraphBuilder& g) -> Results {
                                    TSTUDIO_TRY(sq, ops::mul(g, x, x, "mul"));
                                    TSTUDIO_TRY(scope, g.nameScope("add")); // Python's `sq + 2.0`
                                    TSTUDIO_TRY(two, ops::constant(g, 2.0, tf::DT_FLOAT, "y"));
                                    return one(ops::add(g, sq, two, scope.name()));
                                },
                                [&](GraphBuilder& g) -> Results {
                                    TSTUDIO_TRY(scope, g.nameScope("mul")); // `x * 3.0`
                                    TSTUDIO_TRY(three, ops::constant(g, 3.0, tf::DT_FLOAT, "y"));
                                    return one(ops::mul(g, x, three, scope.name()));
                                },
                                name));
        return merged.front();
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// The nodes TensorFlow 1.15's tf.cond makes, with its names and inputs.
    void buildsTensorFlowsNodes()
    {
        GraphBuilder b(m_registries->ops);
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto y = squareOrTriple(b, *p, *x);
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("cond/Merge:0"));
        QCOMPARE(y->shape(), (TensorShape{2}));
        QCOMPARE(inputsOf(b, "cond/Switch"), (std::vector<std::string>{"p", "p"}));
        QCOMPARE(inputsOf(b, "cond/switch_t"), (std::vector<std::string>{"cond/Switch:1"}));
        QCOMPARE(inputsOf(b, "cond/switch_f"), (std::vector<std::string>{"cond/Switch"}));
        QCOMPARE(inputsOf(b, "cond/pred_id"), (std::vector<std::string>{"p"}));
        // True branch: x enters once, through the Switch named after its first consumer.
        QCOMPARE(opOf(b, "cond/mul/Switch"), std::string("Switch"));
        QCOMPARE(inputsOf(b, "cond/mul/Switch"), (std::vector<std::string>{"x", "cond/pred_id"}));
        QCOMPARE(b.findNode("cond/mul/Switch")->attr().at("_class").list().s(0), std::string("loc:@x"));
        QCOMPARE(inputsOf(b, "cond/mul"), (std::vector<std::string>{"cond/mul/Switch:1", "cond/mul/Switch:1"}));
        QCOMPARE(inputsOf(b, "cond/add/y"), (std::vector<std::string>{"^cond/switch_t"}));
        QCOMPARE(inputsOf(b, "cond/add"), (std::vector<std::string>{"cond/mul", "cond/add/y"}));
        // False branch: its own Switch, output 0; its constant waits for switch_f.
        QCOMPARE(inputsOf(b, "cond/mul_1/y"), (std::vector<std::string>{"^cond/switch_f"}));
        QCOMPARE(inputsOf(b, "cond/mul_1"), (std::vector<std::string>{"cond/mul_1/Switch", "cond/mul_1/y"}));
        QCOMPARE(inputsOf(b, "cond/Merge"), (std::vector<std::string>{"cond/mul_1", "cond/add"}));
        // Graph.unique_name("cond_text") for each branch context, as TensorFlow reserves them.
        QCOMPARE(b.uniqueName("cond/cond_text"), std::string("cond/cond_text_2"));
        // The branch ops belong to the branch contexts; the Merge to the outer (root) context.
        QVERIFY(b.contextOf("cond/add") != nullptr && b.contextOf("cond/add")->condContext() != nullptr);
        QCOMPARE(b.contextOf("cond/add")->condContext()->branch(), 1);
        QCOMPARE(b.contextOf("cond/mul_1")->condContext()->branch(), 0);
        QCOMPARE(b.contextOf("cond/mul/Switch"), b.contextOf("cond/add"));
        QVERIFY(b.contextOf("cond/Merge") == nullptr);
        QCOMPARE(b.contextOf("cond/add")->condContext()->pred().name(), std::string("cond/pred_id:0"));
        QCOMPARE(b.contextOf("cond/add")->condContext()->pivot().name(), std::string("cond/switch_t:0"));

        // A second cond gets "cond_1".
        auto y1 = squareOrTriple(b, *p, *x);
        QVERIFY2(y1, y1 ? "" : y1.error().toString().c_str());
        QCOMPARE(y1->name(), std::string("cond_1/Merge:0"));
    }

    void bothBranchesRun()
    {
        GraphBuilder b(m_registries->ops);
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto y = squareOrTriple(b, *p, *x);
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        const Tensor xs = floats({2}, {1.5f, -2.0f});
        QCOMPARE(runFloats(b, {{"p:0", boolean(true)}, {"x:0", xs}}, y->name()), (std::vector<float>{4.25f, 6.0f}));
        QCOMPARE(runFloats(b, {{"p:0", boolean(false)}, {"x:0", xs}}, y->name()), (std::vector<float>{4.5f, -6.0f}));
    }

    /// `lambda: x` of an outside tensor, several results, and a branch result made in the other
    /// branch's absence: each passes its own Switch in the cond's scope.
    void outsideResultsAndSeveral()
    {
        GraphBuilder b(m_registries->ops);
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto z = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "z");
        auto merged = cond(
            b, *p,
            [&](GraphBuilder&) -> Results {
                return std::vector<Output>{*x, *z};
            },
            [&](GraphBuilder& g) -> Results {
                TSTUDIO_TRY(neg, ops::firstOutput(g.op("Neg", {*x})));
                return std::vector<Output>{neg, *x};
            });
        QVERIFY2(merged, merged ? "" : merged.error().toString().c_str());
        QCOMPARE(merged->size(), std::size_t{2});
        QCOMPARE((*merged)[1].name(), std::string("cond/Merge_1:0"));
        QCOMPARE(inputsOf(b, "cond/Switch_1"), (std::vector<std::string>{"x", "cond/pred_id"}));
        QCOMPARE(inputsOf(b, "cond/Switch_2"), (std::vector<std::string>{"z", "cond/pred_id"}));
        QCOMPARE(inputsOf(b, "cond/Neg/Switch"), (std::vector<std::string>{"x", "cond/pred_id"}));
        // x as the false result was seen by the Neg already: no third Switch.
        QCOMPARE(inputsOf(b, "cond/Merge_1"), (std::vector<std::string>{"cond/Neg/Switch", "cond/Switch_2:1"}));
        QCOMPARE(inputsOf(b, "cond/Merge"), (std::vector<std::string>{"cond/Neg", "cond/Switch_1:1"}));
        const Tensor xs = floats({2}, {1.0f, 2.0f});
        const Tensor zs = floats({2}, {7.0f, 8.0f});
        auto t = runGraph(*m_registries, b, {{"p:0", boolean(true)}, {"x:0", xs}, {"z:0", zs}},
                          {"cond/Merge:0", "cond/Merge_1:0"});
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        QCOMPARE((*t)[0].values<float>()[1], 2.0f);
        QCOMPARE((*t)[1].values<float>()[0], 7.0f);
        auto f = runGraph(*m_registries, b, {{"p:0", boolean(false)}, {"x:0", xs}, {"z:0", zs}},
                          {"cond/Merge:0", "cond/Merge_1:0"});
        QVERIFY2(f, f ? "" : f.error().toString().c_str());
        QCOMPARE((*f)[0].values<float>()[1], -2.0f);
        QCOMPARE((*f)[1].values<float>()[0], 1.0f);
    }

    /// A cond in the true branch of another: the inner predicate and x pass the outer Switch first.
    void nestedCond()
    {
        GraphBuilder b(m_registries->ops);
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto q = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "q");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto y = cond(
            b, *p, [&](GraphBuilder& g) -> Results { return one(squareOrTriple(g, *q, *x)); },
            [&](GraphBuilder& g) -> Results { return one(ops::identity(g, *x, "Identity")); });
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        QCOMPARE(inputsOf(b, "cond/cond/Switch"),
                 (std::vector<std::string>{"cond/cond/Switch/Switch:1", "cond/cond/Switch/Switch:1"}));
        QCOMPARE(inputsOf(b, "cond/cond/Switch/Switch"), (std::vector<std::string>{"q", "cond/pred_id"}));
        QCOMPARE(inputsOf(b, "cond/cond/pred_id"), (std::vector<std::string>{"cond/cond/Switch/Switch:1"}));
        // x: the outer branch's Switch, then the inner one, both named after the inner consumer.
        QCOMPARE(inputsOf(b, "cond/cond/mul/Switch"), (std::vector<std::string>{"x", "cond/pred_id"}));
        QCOMPARE(inputsOf(b, "cond/cond/mul/Switch_1"),
                 (std::vector<std::string>{"cond/cond/mul/Switch:1", "cond/cond/pred_id"}));
        QCOMPARE(inputsOf(b, "cond/Merge"), (std::vector<std::string>{"cond/Identity", "cond/cond/Merge"}));
        const Tensor xs = floats({2}, {1.5f, -2.0f});
        const std::pair<bool, bool> cases[] = {{true, true}, {true, false}, {false, true}, {false, false}};
        const std::vector<float> expected[] = {{4.25f, 6.0f}, {4.5f, -6.0f}, {1.5f, -2.0f}, {1.5f, -2.0f}};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(runFloats(b, {{"p:0", boolean(cases[i].first)}, {"q:0", boolean(cases[i].second)}, {"x:0", xs}},
                               y->front().name()),
                     expected[i]);
        }
    }

    /// Gradients through both branches, and through nested conds, against central differences.
    void gradientsByFiniteDifferences()
    {
        GradientChecks checks;
        QCOMPARE(checks.start(), std::string());
        for (bool branch : {true, false}) {
            const Tensor x = testing::filled({3}, testing::signedAwayFromKinks);
            checks.check(QStringLiteral("cond, %1 branch").arg(branch), {x},
                         [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                             TSTUDIO_TRY(p, boolWithDefault(b, branch, "p"));
                             TSTUDIO_TRY(y, squareOrTriple(b, p, xs[0]));
                             return ops::mul(b, y, xs[0], "y"); // x also outside the cond
                         });
            for (bool inner : {true, false}) {
                checks.check(QStringLiteral("nested cond, outer %1, inner %2").arg(branch).arg(inner), {x},
                             [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                                 TSTUDIO_TRY(p, boolWithDefault(b, branch, "p"));
                                 TSTUDIO_TRY(q, boolWithDefault(b, inner, "q"));
                                 TSTUDIO_TRY(y, cond(
                                                    b, p,
                                                    [&](GraphBuilder& g) -> Results {
                                                        TSTUDIO_TRY(sq, ops::square(g, xs[0]));
                                                        TSTUDIO_TRY(r, cond(
                                                                           g, q,
                                                                           [&](GraphBuilder& h) -> Results {
                                                                               return one(ops::mul(h, sq, xs[0]));
                                                                           },
                                                                           [&](GraphBuilder&) -> Results {
                                                                               return std::vector<Output>{sq};
                                                                           }));
                                                        return r;
                                                    },
                                                    [&](GraphBuilder& g) -> Results {
                                                        return one(ops::firstOutput(g.op("Sin", {xs[0]})));
                                                    }));
                                 return y.front();
                             });
            }
        }
        QVERIFY2(checks.failures.isEmpty(), qPrintable(checks.failures.join(QStringLiteral("\n"))));
        QCOMPARE(checks.cases, 6);
    }

    /// smart_cond: a known predicate builds only its branch, without any cond node.
    void smartCondOfAConstant()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto yes = ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_BOOL, "yes");
        auto identity = [&](GraphBuilder& g) { return one(ops::identity(g, *x, "kept")); };
        auto negated = [&](GraphBuilder& g) { return one(ops::firstOutput(g.op("Neg", {*x}, {}, "negated"))); };
        auto r = smartCond(b, *yes, identity, negated);
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        QCOMPARE(r->front().name(), std::string("kept:0"));
        QVERIFY(b.findNode("negated") == nullptr);
        QVERIFY(b.findNode("cond/Switch") == nullptr);
        auto s = smartCond(b, false, identity, negated);
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QCOMPARE(s->front().name(), std::string("negated:0"));
        // A placeholder's value is not known: a real cond.
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto c = smartCond(b, *p, identity, negated);
        QVERIFY2(c, c ? "" : c.error().toString().c_str());
        QCOMPARE(c->front().name(), std::string("cond/Merge:0"));
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto n = ops::placeholder(b, tf::DT_INT32, TensorShape{2}, "n");
        auto ofX = [&](GraphBuilder&) -> Results { return std::vector<Output>{*x}; };
        auto message = [](const Results& r) { return r ? std::string("no error") : r.error().message(); };
        QCOMPARE(message(cond(b, *p, ofX,
                              [&](GraphBuilder&) -> Results {
                                  return std::vector<Output>{*x, *x};
                              })),
                 std::string("Incompatible return values of true_fn and false_fn: 1 and 2 tensors"));
        QCOMPARE(message(cond(b, *p, ofX, [&](GraphBuilder&) -> Results { return std::vector<Output>{*n}; })),
                 std::string("Outputs of true_fn and false_fn must have the same type: float32, int32"));
        QCOMPARE(message(cond(
                     b, *p, [](GraphBuilder&) -> Results { return std::vector<Output>{}; }, ofX)),
                 std::string("true_fn must have a return value."));
        QCOMPARE(message(cond(b, *p, ofX, {})), std::string("false_fn must be callable."));
        const std::string notBool = message(cond(b, *x, ofX, ofX));
        QVERIFY2(notBool.find("bool") != std::string::npos, notBool.c_str());
        // A branch's own error comes out as it is.
        QCOMPARE(message(cond(b, *p, ofX,
                              [](GraphBuilder&) -> Results { return unexpected(unimplementedError("branch")); })),
                 std::string("branch"));
    }

    /// tf.case: nested conds in order, the default; without a default the last pair's guarded by Asserts;
    /// exclusive.
    void caseSelectsTheFirstTruePredicate()
    {
        GraphBuilder b(m_registries->ops);
        auto p0 = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p0");
        auto p1 = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p1");
        auto constantFn = [](double v) {
            return [v](GraphBuilder& g) -> Results { return one(ops::constant(g, v, tf::DT_FLOAT)); };
        };
        auto withDefault = case_(b, {{*p0, constantFn(1.0)}, {*p1, constantFn(2.0)}}, constantFn(3.0));
        QVERIFY2(withDefault, withDefault ? "" : withDefault.error().toString().c_str());
        QCOMPARE(withDefault->front().name(), std::string("case/cond/Merge:0"));
        QCOMPARE(inputsOf(b, "case/cond/Switch"), (std::vector<std::string>{"p0", "p0"}));
        QCOMPARE(inputsOf(b, "case/cond/cond/Switch"),
                 (std::vector<std::string>{"case/cond/cond/Switch/Switch", "case/cond/cond/Switch/Switch"}));
        auto noDefault = case_(b, {{*p0, constantFn(1.0)}, {*p1, constantFn(2.0)}}, {}, false);
        QVERIFY2(noDefault, noDefault ? "" : noDefault.error().toString().c_str());
        QCOMPARE(noDefault->front().name(), std::string("case_1/cond/Merge:0"));
        for (const char* node :
             {"case_1/cond/preds_c", "case_1/cond/preds_c_1", "case_1/cond/num_true_conds", "case_1/cond/n_true_conds",
              "case_1/cond/LessEqual", "case_1/cond/Assert/AssertGuard/Merge", "case_1/cond/Assert_1/AssertGuard/Merge",
              "case_1/cond/Assert_1/AssertGuard/Assert"})
            QVERIFY2(b.findNode(node) != nullptr, node);
        QCOMPARE(opOf(b, "case_1/cond/Assert/AssertGuard/NoOp"), std::string("NoOp"));
        QCOMPARE(inputsOf(b, "case_1/cond/Assert/AssertGuard/NoOp"),
                 (std::vector<std::string>{"^case_1/cond/Assert/AssertGuard/switch_t"}));
        auto exclusive = case_(b, {{*p0, constantFn(1.0)}, {*p1, constantFn(2.0)}}, constantFn(3.0), true);
        QVERIFY2(exclusive, exclusive ? "" : exclusive.error().toString().c_str());
        QCOMPARE(opOf(b, "case_2/Assert/AssertGuard/Merge"), std::string("Merge"));
        QCOMPARE(inputsOf(b, "case_2/cond/Switch"),
                 (std::vector<std::string>{"p0", "p0", "^case_2/Assert/AssertGuard/Merge"}));

        const std::pair<bool, bool> cases[] = {{true, false}, {false, true}, {false, false}, {true, true}};
        const float withDefaultValues[] = {1.0f, 2.0f, 3.0f, 1.0f};
        for (int i = 0; i < 4; ++i) {
            const std::vector<std::pair<std::string, Tensor>> feeds = {{"p0:0", boolean(cases[i].first)},
                                                                       {"p1:0", boolean(cases[i].second)}};
            QCOMPARE(runFloats(b, feeds, withDefault->front().name()), std::vector<float>{withDefaultValues[i]});
            auto guarded = runGraph(*m_registries, b, feeds, {noDefault->front().name()});
            auto once = runGraph(*m_registries, b, feeds, {exclusive->front().name()});
            if (i == 2) { // no predicate true: the default (the last pair) asserts
                QVERIFY(!guarded);
                QVERIFY2(guarded.error().message().find("None of conditions evaluated as True") != std::string::npos,
                         guarded.error().toString().c_str());
            } else {
                QVERIFY2(guarded, guarded ? "" : guarded.error().toString().c_str());
                QCOMPARE(guarded->front().values<float>()[0], withDefaultValues[i]);
            }
            if (i == 3) { // two true predicates
                QVERIFY(!once);
                QVERIFY2(once.error().message().find("Input error: exclusive=True: more than 1 conditions (p0:0, "
                                                     "p1:0) evaluated as True:") != std::string::npos,
                         once.error().toString().c_str());
            } else {
                QVERIFY2(once, once ? "" : once.error().toString().c_str());
                QCOMPARE(once->front().values<float>()[0], withDefaultValues[i]);
            }
        }
        auto none = case_(b, {}, {});
        QVERIFY(!none);
        auto notBool = case_(b, {{*ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "f"), constantFn(1.0)}});
        QVERIFY(!notBool);
        QCOMPARE(notBool.error().message(), std::string("pred must be Tensor of type bool: f:0"));
    }

    /// tf.Assert of string and int32 data is a plain Assert; other data is guarded by a cond.
    void assertForms()
    {
        GraphBuilder b(m_registries->ops);
        auto ok = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "ok");
        auto n = ops::placeholder(b, tf::DT_INT32, TensorShape::scalar(), "n");
        auto plain = assertThat(b, *ok, {std::string("bad n:"), *n});
        QVERIFY2(plain, plain ? "" : plain.error().toString().c_str());
        QCOMPARE(plain->name(), std::string("Assert/Assert"));
        QCOMPARE(inputsOf(b, "Assert/Assert"), (std::vector<std::string>{"ok", "Assert/Const", "n"}));
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto guarded = assertThat(b, *ok, {std::string("bad x:"), *x}, 5);
        QVERIFY2(guarded, guarded ? "" : guarded.error().toString().c_str());
        QCOMPARE(guarded->name(), std::string("Assert_1/AssertGuard/Merge"));
        QCOMPARE(inputsOf(b, "Assert_1/AssertGuard/Merge"),
                 (std::vector<std::string>{"Assert_1/AssertGuard/control_dependency_1",
                                           "Assert_1/AssertGuard/control_dependency"}));
        QCOMPARE(inputsOf(b, "Assert_1/AssertGuard/control_dependency"),
                 (std::vector<std::string>{"Assert_1/AssertGuard/switch_t", "^Assert_1/AssertGuard/NoOp"}));
        QCOMPARE(b.findNode("Assert_1/AssertGuard/Assert")->attr().at("summarize").i(), std::int64_t{5});
        // Runs: passes when ok, fails with the data when not.
        ScopeGuard after = b.controlDependencies({*guarded});
        auto y = ops::identity(b, *x, "y");
        QVERIFY(y.has_value());
        auto x1 = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<float>{2.5f});
        auto passed = runGraph(*m_registries, b, {{"ok:0", boolean(true)}, {"x:0", x1}}, {"y:0"});
        QVERIFY2(passed, passed ? "" : passed.error().toString().c_str());
        auto failed = runGraph(*m_registries, b, {{"ok:0", boolean(false)}, {"x:0", x1}}, {"y:0"});
        QVERIFY(!failed);
        QVERIFY2(failed.error().message().find("bad x:") != std::string::npos, failed.error().toString().c_str());
    }

    /// A cond in a while loop body runs per iteration; its gradient there is refused clearly.
    void condInsideWhileLoop()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto i0 = ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32, "i0");
        // while i < 4: x = x * 2 if i is even else x + 1; i += 1
        auto out = whileLoop(
            b,
            [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                TSTUDIO_TRY(four, ops::constantInts(g, {4}, TensorShape::scalar(), tf::DT_INT32, "Less/y"));
                return ops::firstOutput(g.op("Less", {v[0], four}));
            },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(two, ops::constantInts(g, {2}, TensorShape::scalar(), tf::DT_INT32, "mod/y"));
                TSTUDIO_TRY(mod, ops::firstOutput(g.op("FloorMod", {v[0], two}, {}, "mod")));
                TSTUDIO_TRY(zero, ops::constantInts(g, {0}, TensorShape::scalar(), tf::DT_INT32, "Equal/y"));
                TSTUDIO_TRY(even, ops::firstOutput(g.op("Equal", {mod, zero})));
                TSTUDIO_TRY(next, cond(
                                      g, even,
                                      [&](GraphBuilder& h) -> Results {
                                          TSTUDIO_TRY(c, ops::constant(h, 2.0, tf::DT_FLOAT, "mul/y"));
                                          return one(ops::mul(h, v[1], c, "mul"));
                                      },
                                      [&](GraphBuilder& h) -> Results {
                                          TSTUDIO_TRY(c, ops::constant(h, 1.0, tf::DT_FLOAT, "add/y"));
                                          return one(ops::add(h, v[1], c, "add"));
                                      }));
                TSTUDIO_TRY(one_, ops::constantInts(g, {1}, TensorShape::scalar(), tf::DT_INT32, "add/y"));
                TSTUDIO_TRY(i, ops::add(g, v[0], one_, "add"));
                return std::vector<Output>{i, next.front()};
            },
            {*i0, *x});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        // The branch constant waits for the branch pivot (inside the loop), not the loop's.
        QCOMPARE(inputsOf(b, "while/cond/mul/y"), (std::vector<std::string>{"^while/cond/switch_t"}));
        QCOMPARE(inputsOf(b, "while/cond/mul/Switch"),
                 (std::vector<std::string>{"while/Identity_1", "while/cond/pred_id"}));
        QVERIFY(b.contextOf("while/cond/mul")->whileContext() != nullptr);
        // ((((1 * 2) + 1) * 2) + 1) = 7.
        auto x1 = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<float>{1.0f});
        QCOMPARE(runFloats(b, {{"x:0", x1}}, (*out)[1].name()), std::vector<float>{7.0f});

        // The gradient of the cond inside the loop: d/dx ((x * 2 + 1) * 2 + 1) = 4.
        auto grads = addSymbolicGradients(b, {(*out)[1]}, {*x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QVERIFY((*grads)[0].has_value());
        QCOMPARE(runFloats(b, {{"x:0", x1}}, (*grads)[0]->name()), std::vector<float>{4.0f});
    }

    /// A while loop in a cond branch: an outside tensor passes the branch's Switch, then the loop's Enter.
    void whileLoopInsideCondBranch()
    {
        GraphBuilder b(m_registries->ops);
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto y = cond(
            b, *p,
            [&](GraphBuilder& g) -> Results {
                TSTUDIO_TRY(i0, ops::constantInts(g, {0}, TensorShape::scalar(), tf::DT_INT32, "i0"));
                TSTUDIO_TRY(z0, ops::constant(g, 0.0, tf::DT_FLOAT, "z0"));
                // while i < 3: z += x
                TSTUDIO_TRY(
                    out, whileLoop(
                             g,
                             [](GraphBuilder& h, const std::vector<Output>& v) -> Expected<Output> {
                                 TSTUDIO_TRY(three,
                                             ops::constantInts(h, {3}, TensorShape::scalar(), tf::DT_INT32, "Less/y"));
                                 return ops::firstOutput(h.op("Less", {v[0], three}));
                             },
                             [&](GraphBuilder& h, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                 TSTUDIO_TRY(one_,
                                             ops::constantInts(h, {1}, TensorShape::scalar(), tf::DT_INT32, "add/y"));
                                 TSTUDIO_TRY(i, ops::add(h, v[0], one_, "add"));
                                 TSTUDIO_TRY(z, ops::add(h, v[1], *x, "add_1"));
                                 return std::vector<Output>{i, z};
                             },
                             {i0, z0}));
                return std::vector<Output>{out[1]};
            },
            [&](GraphBuilder& g) -> Results { return one(ops::identity(g, *x, "Identity")); });
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        QCOMPARE(inputsOf(b, "cond/while/add_1/Enter"), (std::vector<std::string>{"cond/while/add_1/Switch:1"}));
        QCOMPARE(inputsOf(b, "cond/while/add_1/Switch"), (std::vector<std::string>{"x", "cond/pred_id"}));
        QCOMPARE(inputsOf(b, "cond/i0"), std::vector<std::string>{"^cond/switch_t"});
        auto x1 = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<float>{1.5f});
        QCOMPARE(runFloats(b, {{"p:0", boolean(true)}, {"x:0", x1}}, y->front().name()), std::vector<float>{4.5f});
        QCOMPARE(runFloats(b, {{"p:0", boolean(false)}, {"x:0", x1}}, y->front().name()), std::vector<float>{1.5f});
    }

    void learningPhaseIsOnePlaceholderWithDefault()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto p = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "p");
        Output inside;
        {
            auto scope = b.nameScope("layer");
            QVERIFY(scope.has_value());
            auto controls = b.controlDependencies({*b.operation("x")});
            auto made = cond(
                b, *p,
                [&](GraphBuilder& g) -> Results {
                    TSTUDIO_TRY(phase, learningPhase(g));
                    inside = phase;
                    return std::vector<Output>{*x};
                },
                [&](GraphBuilder&) -> Results { return std::vector<Output>{*x}; });
            QVERIFY2(made, made ? "" : made.error().toString().c_str());
        }
        QCOMPARE(inside.name(), std::string("learning_phase:0"));
        const tf::NodeDef* node = b.findNode("learning_phase");
        QCOMPARE(node->op(), std::string("PlaceholderWithDefault"));
        QCOMPARE(node->attr().at("dtype").type(), tf::DT_BOOL);
        QCOMPARE(inputsOf(b, "learning_phase"), std::vector<std::string>{"learning_phase/input"}); // no controls
        QCOMPARE(inputsOf(b, "learning_phase/input"), std::vector<std::string>{});
        QVERIFY(b.contextOf("learning_phase") == nullptr);
        QCOMPARE(inside.shape(), TensorShape::scalar());
        auto again = learningPhase(b);
        QVERIFY(again.has_value());
        QCOMPARE(again->name(), std::string("learning_phase:0"));
        QCOMPARE(b.collections().get(graph_keys::kLearningPhase).size(), std::size_t{1});

        // Evaluation finds it in the GraphDef and feeds false; nothing fed: true.
        QCOMPARE(findLearningPhase(b.graphDef()), std::optional<std::string>("learning_phase:0"));
        auto feeds = learningPhaseFeeds(b.graphDef(), false, m_allocator);
        QVERIFY(feeds.has_value() && feeds->size() == 1);
        auto fed = runGraph(*m_registries, b, *feeds, {"learning_phase:0"});
        QVERIFY2(fed, fed ? "" : fed.error().toString().c_str());
        QCOMPARE(fed->front().values<bool>()[0], false);
        auto byDefault = runGraph(*m_registries, b, {}, {"learning_phase:0"});
        QVERIFY2(byDefault, byDefault ? "" : byDefault.error().toString().c_str());
        QCOMPARE(byDefault->front().values<bool>()[0], true);

        // A builder started from that graph adopts it; a graph without one has nothing to feed.
        GraphBuilder imported(m_registries->ops);
        QVERIFY(imported.importGraphDef(b.graphDef()).isOk());
        auto adopted = learningPhase(imported);
        QVERIFY2(adopted, adopted ? "" : adopted.error().toString().c_str());
        QCOMPARE(adopted->name(), std::string("learning_phase:0"));
        GraphBuilder other(m_registries->ops);
        QVERIFY(!findLearningPhase(other.graphDef()));
        QVERIFY(learningPhaseFeeds(other.graphDef(), false, m_allocator)->empty());
        QVERIFY(ops::placeholder(other, tf::DT_FLOAT, TensorShape::scalar(), "learning_phase").has_value());
        auto taken = learningPhase(other);
        QVERIFY(!taken);
        QCOMPARE(taken.error().message(),
                 std::string("the learning phase needs the node name 'learning_phase', which a Placeholder node "
                             "already has"));
    }
};

QTEST_GUILESS_MAIN(TestCond)
#include "test_cond.moc"
