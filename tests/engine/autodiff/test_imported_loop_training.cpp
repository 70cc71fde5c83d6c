// Tests for gradients of tf.while_loop / tf.cond graphs that come back from a MetaGraphDef (the
// "while_context" and "cond_context" collections, builder/control_flow_contexts.h), and for
// whileLoop's TensorFlow 1.15 options: a model with a loop (a cond in its body) and a cond trained,
// saved as MetaGraph + checkpoint, imported into a fresh builder, given new gradients and trained on
// equals the same training continued in-process; finite differences through maximum_iterations, a
// cond in a loop body and shape_invariants; back_prop=False; second derivatives (refused, as
// TensorFlow 1.15 refuses them); the collections as written; a context naming a missing node.
#include "autodiff/gradients.h"
#include "builder/cond.h"
#include "builder/control_flow_contexts.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "builder/while_loop.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "model/meta_graph.h"
#include "model/saver.h"
#include "runtime/session.h"
#include "training/gradient_descent.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace tstudio;
using testing::GradientChecks;
using testing::outputOf;
using testing::runGraph;
using testing::scalarInt32;
using training::GradientDescentOptimizer;
namespace tf = tensorflow;

namespace {

template <typename T> std::string err(const Expected<T>& e)
{
    return e ? std::string() : e.error().toString();
}

std::string err(const Status& s)
{
    return s.toString();
}

using Results = Expected<std::vector<Output>>;

/// i % 2 == 0 for an int32 loop counter.
Expected<Output> isEven(GraphBuilder& g, const Output& i)
{
    TSTUDIO_TRY(two, scalarInt32(g, 2, "mod/y"));
    TSTUDIO_TRY(mod, outputOf(g.op("FloorMod", {i, two}, {}, "mod")));
    TSTUDIO_TRY(zero, scalarInt32(g, 0, "Equal/y"));
    return outputOf(g.op("Equal", {mod, zero}));
}

Expected<Output> plusOne(GraphBuilder& g, const Output& i)
{
    TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
    return ops::add(g, i, one, "add");
}

/// The model: h = x W; three loop iterations (maximum_iterations 3, cond i < 10) of
/// h = cond(i even, tanh(h) * 1.5 + c, h * c - 0.1); loss = cond(mse > 0.05, mse, mse * 0.5) with
/// mse = mean((h - y)^2). W [3, 1] and c are variables. Returns the loss ("loss:0").
Expected<Output> buildModel(GraphBuilder& b)
{
    TSTUDIO_TRY(x, ops::constant(b, {0.5, -0.3, 0.8, 0.1, 0.9, -0.6, -0.4, 0.2, 0.7, 0.3, -0.8, 0.5}, TensorShape{4, 3},
                                 tf::DT_FLOAT, "x"));
    TSTUDIO_TRY(y, ops::constant(b, {0.3, -0.2, 0.6, 0.1}, TensorShape{4, 1}, tf::DT_FLOAT, "y"));
    TSTUDIO_TRY(w0, ops::constant(b, {0.4, -0.7, 0.25}, TensorShape{3, 1}, tf::DT_FLOAT, "W/initial_value"));
    TSTUDIO_TRY(w, variable(b, w0, "W"));
    TSTUDIO_TRY(c0, ops::constant(b, 0.6, tf::DT_FLOAT, "c/initial_value"));
    TSTUDIO_TRY(c, variable(b, c0, "c"));
    TSTUDIO_TRY(h0, outputOf(b.op("MatMul", {x, w.value()})));
    TSTUDIO_TRY(i0, scalarInt32(b, 0, "i0"));
    WhileLoopOptions options;
    options.maximumIterationsValue = 3;
    const Output cv = c.value();
    TSTUDIO_TRY(loop, whileLoop(
                          b,
                          [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                              TSTUDIO_TRY(ten, scalarInt32(g, 10, "Less_1/y"));
                              return outputOf(g.op("Less", {v[0], ten}, {}, "Less_1"));
                          },
                          [cv](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                              TSTUDIO_TRY(even, isEven(g, v[0]));
                              TSTUDIO_TRY(next, cond(
                                                    g, even,
                                                    [&](GraphBuilder& h) -> Results {
                                                        TSTUDIO_TRY(t, outputOf(h.op("Tanh", {v[1]})));
                                                        TSTUDIO_TRY(k, ops::constant(h, 1.5, tf::DT_FLOAT, "mul/y"));
                                                        TSTUDIO_TRY(m, ops::mul(h, t, k, "mul"));
                                                        TSTUDIO_TRY(s, ops::add(h, m, cv, "add"));
                                                        return std::vector<Output>{s};
                                                    },
                                                    [&](GraphBuilder& h) -> Results {
                                                        TSTUDIO_TRY(m, ops::mul(h, v[1], cv, "mul"));
                                                        TSTUDIO_TRY(k, ops::constant(h, 0.1, tf::DT_FLOAT, "sub/y"));
                                                        TSTUDIO_TRY(s, ops::sub(h, m, k, "sub"));
                                                        return std::vector<Output>{s};
                                                    }));
                              TSTUDIO_TRY(i, plusOne(g, v[0]));
                              return std::vector<Output>{i, next.front()};
                          },
                          {i0, h0}, options));
    TSTUDIO_TRY(diff, ops::sub(b, loop[1], y, "diff"));
    TSTUDIO_TRY(sq, ops::square(b, diff));
    TSTUDIO_TRY(axes, ops::constantInts(b, {0, 1}, TensorShape{2}, tf::DT_INT32, "axes"));
    TSTUDIO_TRY(mse, outputOf(b.op("Mean", {sq, axes}, {}, "mse")));
    TSTUDIO_TRY(limit, ops::constant(b, 0.05, tf::DT_FLOAT, "limit"));
    TSTUDIO_TRY(big, outputOf(b.op("Greater", {mse, limit})));
    TSTUDIO_TRY(lossCond, cond(
                              b, big, [&](GraphBuilder&) -> Results { return std::vector<Output>{mse}; },
                              [&](GraphBuilder& h) -> Results {
                                  TSTUDIO_TRY(half, ops::constant(h, 0.5, tf::DT_FLOAT, "mul/y"));
                                  TSTUDIO_TRY(m, ops::mul(h, mse, half, "mul"));
                                  return std::vector<Output>{m};
                              },
                              "loss_cond"));
    return ops::identity(b, lossCond.front(), "loss");
}

} // namespace

class TestImportedLoopTraining : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

    double check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build)
    {
        const int failures = static_cast<int>(m_checks.failures.size());
        m_checks.resetWorst();
        m_checks.check(name, xs, build);
        qInfo("%s: worst finite-difference error %.3g", qPrintable(name), m_checks.worst.error);
        return m_checks.failures.size() > failures ? -1.0 : m_checks.worst.error;
    }

    std::unique_ptr<Session> session(const tf::GraphDef& graph)
    {
        const Registries& r = m_checks.registries();
        auto s = std::make_unique<Session>(SessionOptions{{}, &r.ops, &r.kernels});
        if (Status st = s->create(graph); !st.isOk())
            qFatal("create: %s", st.toString().c_str());
        return s;
    }

    static Status run(Session& s, const std::string& target)
    {
        std::vector<Tensor> none;
        return s.run({}, {}, {target}, &none);
    }

    static Expected<float> scalar(Session& s, const std::string& name)
    {
        std::vector<Tensor> out;
        if (Status st = s.run({}, {name}, {}, &out); !st.isOk())
            return unexpected(st);
        return out.front().values<float>()[0];
    }

    /// A fresh builder holding `meta`'s graph, its variables (as trainable) and, when
    /// `withContexts`, its control-flow contexts.
    Expected<std::unique_ptr<GraphBuilder>> importModel(const tf::MetaGraphDef& meta, bool withContexts,
                                                        const std::string& scope = {})
    {
        MetaGraphImportOptions options;
        options.importScope = scope;
        TSTUDIO_TRY(imported, importMetaGraph(meta, options));
        auto b = std::make_unique<GraphBuilder>(m_checks.registries().ops);
        if (Status s = b->importGraphDef(imported.graph); !s.isOk())
            return unexpected(s);
        for (const tf::VariableDef& def : imported.variables("trainable_variables")) {
            TSTUDIO_TRY(v, importedVariable(*b, def));
            b->collections().add(graph_keys::kGlobalVariables, v);
            b->collections().add(graph_keys::kTrainableVariables, v);
        }
        if (withContexts) {
            if (Status s = importControlFlowContexts(*b, meta, scope); !s.isOk())
                return unexpected(s);
        }
        return b;
    }

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    /// Train 3 steps in-process, save MetaGraph + checkpoint, then 5 more steps both in-process and
    /// in a fresh builder that imported the MetaGraph and added its own gradients: equal losses.
    void importedTrainingMatchesInProcess()
    {
        QTemporaryDir dir;
        GraphBuilder a(m_checks.registries().ops);
        auto loss = buildModel(a);
        QVERIFY2(loss, err(loss).c_str());
        auto saver = Saver::create(a);
        QVERIFY2(saver, err(saver).c_str());
        MetaGraphExportOptions exportOptions;
        exportOptions.saverDef = saver->saverDef();
        auto meta = exportMetaGraph(a, exportOptions);
        QVERIFY2(meta, err(meta).c_str());
        QVERIFY(meta->collection_def().count("while_context") == 1);
        QVERIFY(meta->collection_def().count("cond_context") == 1);

        GradientDescentOptimizer sgd(0.2);
        auto train = sgd.minimize(a, *loss);
        QVERIFY2(train, err(train).c_str());
        auto init = globalVariablesInitializer(a);
        QVERIFY2(init, err(init).c_str());
        auto sa = session(a.graphDef());
        QVERIFY(run(*sa, init->name()).isOk());
        for (int step = 0; step < 3; ++step)
            QVERIFY2(run(*sa, train->name()).isOk(), "train");
        auto path = saver->save(*sa, dir.filePath("model.ckpt").toStdString());
        QVERIFY2(path, err(path).c_str());

        // The same training continued in-process...
        std::vector<float> want;
        for (int step = 0; step < 5; ++step) {
            auto l = scalar(*sa, "loss:0");
            QVERIFY2(l, err(l).c_str());
            want.push_back(*l);
            QVERIFY(run(*sa, train->name()).isOk());
        }
        auto last = scalar(*sa, "loss:0");
        QVERIFY(last);
        want.push_back(*last);
        qInfo("in-process loss after 3 steps %.9g, after 8 steps %.9g", want.front(), want.back());
        QVERIFY2(want.back() < want.front() * 0.99f,
                 qPrintable(QString("loss %1 -> %2").arg(want.front()).arg(want.back())));

        // ...and in the imported graph with new gradients (as it is, and under an import scope, where
        // the loop's frame and context names get the scope).
        // A MetaGraph exported after training holds the first gradients too (their loops are not in
        // the collections; the forward loop carries its iteration counter): gradients again on top.
        auto trainedMeta = exportMetaGraph(a, exportOptions);
        QVERIFY2(trainedMeta, err(trainedMeta).c_str());
        QCOMPARE(trainedMeta->collection_def().at("while_context").bytes_list().value_size(), 1);
        const std::vector<std::pair<const tf::MetaGraphDef*, std::string>> variants = {
            {&*meta, ""}, {&*meta, "imported"}, {&*trainedMeta, ""}};
        for (const auto& [source, scope] : variants) {
            const std::string prefix = scope.empty() ? "" : scope + "/";
            auto imported = importModel(*source, true, scope);
            QVERIFY2(imported, err(imported).c_str());
            GraphBuilder& b = **imported;
            if (!scope.empty())
                QCOMPARE(b.findNode("imported/while/Enter")->attr().at("frame_name").s(),
                         std::string("imported/while/while_context"));
            if (source == &*trainedMeta) {
                const auto& nodes = b.graphDef().node();
                QVERIFY(std::any_of(nodes.begin(), nodes.end(), [](const tf::NodeDef& n) {
                    return n.op() == "Enter" && n.name().find("f_count") != std::string::npos;
                }));
            }
            auto importedLoss = b.tensor(prefix + "loss:0");
            QVERIFY2(importedLoss, err(importedLoss).c_str());
            GradientDescentOptimizer sgd2(0.2);
            auto train2 = sgd2.minimize(b, *importedLoss);
            QVERIFY2(train2, err(train2).c_str());
            auto sb = session(b.graphDef());
            auto restorer = Saver::fromSaverDef(saver->saverDef(), scope);
            QVERIFY2(restorer, err(restorer).c_str());
            const Status restored = restorer->restore(*sb, *path);
            QVERIFY2(restored.isOk(), err(restored).c_str());
            for (std::size_t step = 0; step < want.size(); ++step) {
                auto l = scalar(*sb, prefix + "loss:0");
                QVERIFY2(l, err(l).c_str());
                QVERIFY2(std::abs(*l - want[step]) <= 1e-6 * std::abs(want[step]),
                         qPrintable(QString("scope '%1' step %2: imported %3, in-process %4")
                                        .arg(QString::fromStdString(scope))
                                        .arg(step)
                                        .arg(*l, 0, 'g', 9)
                                        .arg(want[step], 0, 'g', 9)));
                if (step + 1 < want.size())
                    QVERIFY(run(*sb, train2->name()).isOk());
            }
        }

        // Without the contexts, the loop cannot be differentiated (what import gave before).
        auto bare = importModel(*meta, false);
        QVERIFY2(bare, err(bare).c_str());
        GradientDescentOptimizer sgd3(0.2);
        auto refused = sgd3.minimize(**bare, *(*bare)->tensor("loss:0"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code(), StatusCode::kUnimplemented);
    }

    /// The collections as TensorFlow writes them: the loop (maximum_iterations, pivots, enters and
    /// exits, its two body branches nested) and the two branches of the top-level cond; a round trip
    /// through import and export gives the same protos.
    void collectionsAsWritten()
    {
        GraphBuilder a(m_checks.registries().ops);
        QVERIFY(buildModel(a));
        auto collections = controlFlowContextCollections(a);
        QCOMPARE(collections.size(), std::size_t{2});
        const auto& loops = collections.at("while_context").bytes_list().value();
        QCOMPARE(loops.size(), 1);
        tf::WhileContextDef loop;
        QVERIFY(loop.ParseFromString(loops[0]));
        QCOMPARE(loop.context_name(), std::string("while/while_context"));
        QCOMPARE(loop.parallel_iterations(), 10);
        QVERIFY(loop.back_prop());
        QCOMPARE(loop.pivot_name(), std::string("while/LoopCond:0"));
        QCOMPARE(loop.pivot_for_pred_name(), std::string("while/Merge:0"));
        QCOMPARE(loop.pivot_for_body_name(), std::string("while/Identity:0"));
        QCOMPARE(loop.maximum_iterations_name(), std::string("while/maximum_iterations:0"));
        QCOMPARE(std::vector<std::string>(loop.loop_exit_names().begin(), loop.loop_exit_names().end()),
                 (std::vector<std::string>{"while/Exit:0", "while/Exit_1:0", "while/Exit_2:0"}));
        QCOMPARE(loop.loop_enter_names_size(), 3);
        QCOMPARE(loop.nested_contexts_size(), 2);
        QCOMPARE(loop.nested_contexts(0).cond_ctxt().context_name(), std::string("while/cond/cond_text"));
        QCOMPARE(loop.nested_contexts(0).cond_ctxt().branch(), 1);
        QCOMPARE(loop.nested_contexts(1).cond_ctxt().branch(), 0);
        QCOMPARE(loop.nested_contexts(0).cond_ctxt().pred_name(), std::string("while/cond/pred_id:0"));
        // The captured variable read enters once, for the loop (named after its first consumer).
        QCOMPARE(loop.values_def().external_values().at("c/read:0"), std::string("while/cond/add/Enter:0"));
        QCOMPARE(loop.values_def().external_values().at("while/maximum_iterations:0"),
                 std::string("while/Less/Enter:0"));
        const auto& conds = collections.at("cond_context").bytes_list().value();
        QCOMPARE(conds.size(), 2);
        tf::CondContextDef top;
        QVERIFY(top.ParseFromString(conds[0]));
        QCOMPARE(top.pivot_name(), std::string("loss_cond/switch_t:0"));

        tf::MetaGraphDef meta;
        for (auto& [key, def] : collections)
            (*meta.mutable_collection_def())[key] = def;
        GraphBuilder b(m_checks.registries().ops);
        QVERIFY(b.importGraphDef(a.graphDef()).isOk());
        const Status s = importControlFlowContexts(b, meta);
        QVERIFY2(s.isOk(), err(s).c_str());
        auto again = controlFlowContextCollections(b);
        QCOMPARE(again.size(), std::size_t{2});
        for (const auto& [key, def] : collections)
            QCOMPARE(again.at(key).SerializeAsString(), def.SerializeAsString());
        QVERIFY(b.contextOf("while/cond/mul") != nullptr);
        QVERIFY(b.contextOf("while/cond/mul")->condContext() != nullptr);
        QCOMPARE(b.contextOf("while/Exit_1")->whileContext()->name(), std::string("while/while_context"));
    }

    /// A while_context naming a node the graph lacks: InvalidArgument naming the context, the field
    /// and the node; a bytes item that is no WhileContextDef: DataLoss.
    void contextNamingAMissingNode()
    {
        GraphBuilder a(m_checks.registries().ops);
        QVERIFY(buildModel(a));
        auto collections = controlFlowContextCollections(a);
        tf::WhileContextDef loop;
        QVERIFY(loop.ParseFromString(collections.at("while_context").bytes_list().value(0)));
        loop.set_pivot_for_body_name("while/NoSuchIdentity:0");
        tf::CollectionDef bad;
        bad.mutable_bytes_list()->add_value(loop.SerializeAsString());
        GraphBuilder b(m_checks.registries().ops);
        QVERIFY(b.importGraphDef(a.graphDef()).isOk());
        const Status s = importControlFlowContexts(b, &bad, nullptr);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("while_context 'while/while_context'") != std::string::npos &&
                     s.message().find("pivot_for_body_name 'while/NoSuchIdentity:0'") != std::string::npos &&
                     s.message().find("node 'while/NoSuchIdentity'") != std::string::npos,
                 s.message().c_str());

        tf::CollectionDef garbage;
        garbage.mutable_bytes_list()->add_value("\xff\xff\xff");
        const Status d = importControlFlowContexts(b, &garbage, nullptr);
        QCOMPARE(d.code(), StatusCode::kDataLoss);
        QVERIFY2(d.message().find("item 0 is not a valid WhileContextDef") != std::string::npos, d.message().c_str());
    }

    /// maximum_iterations: the counter loop var, the conjunct, and x^8 after three squarings though
    /// cond alone would allow 100; its gradient by finite differences.
    void maximumIterations()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        WhileLoopOptions options;
        options.maximumIterationsValue = 3;
        auto out = whileLoop(
            b,
            [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                TSTUDIO_TRY(limit, scalarInt32(g, 100, "Less_1/y"));
                return outputOf(g.op("Less", {v[0], limit}, {}, "Less_1"));
            },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                TSTUDIO_TRY(i, plusOne(g, v[0]));
                TSTUDIO_TRY(sq, ops::mul(g, v[1], v[1], "mul"));
                return std::vector<Output>{i, sq};
            },
            {*scalarInt32(b, 0), *x}, options);
        QVERIFY2(out, err(out).c_str());
        QCOMPARE(out->size(), std::size_t{2}); // the counter's Exit is not returned
        QCOMPARE((*out)[1].name(), std::string("while/Exit_2:0"));
        QCOMPARE(b.findNode("while/iteration_counter")->op(), std::string("Const"));
        QCOMPARE(b.findNode("while/maximum_iterations")->op(), std::string("Const"));
        QCOMPARE(b.findNode("while/Less")->input(0), std::string("while/Merge"));
        QCOMPARE(b.findNode("while/LogicalAnd")->input(1), std::string("while/Less_1"));
        QCOMPARE(b.findNode("while/LoopCond")->input(0), std::string("while/LogicalAnd"));
        QCOMPARE(b.findNode("while/add")->op(), std::string("AddV2"));
        auto values = runGraph(m_checks.registries(), b,
                               {{"x", *Tensor::fromVector(testing::gradientTestAllocator(), TensorShape::scalar(),
                                                          std::vector<float>{1.1f})}},
                               {(*out)[0].name(), (*out)[1].name()});
        QVERIFY2(values, err(values).c_str());
        QCOMPARE(values->at(0).values<std::int32_t>()[0], 3);
        QCOMPARE(values->at(1).values<float>()[0], static_cast<float>(std::pow(1.1, 8)));

        const double e =
            check("maximum_iterations x^8", {testing::filled({3}, [](std::int64_t i) { return 0.7 + 0.1 * i; })},
                  [](GraphBuilder& g, const std::vector<Output>& xs) -> Expected<Output> {
                      WhileLoopOptions o;
                      o.maximumIterationsValue = 3;
                      TSTUDIO_TRY(loop, whileLoop(
                                            g,
                                            [](GraphBuilder& h, const std::vector<Output>& v) {
                                                return outputOf(h.op("Less", {v[0], *scalarInt32(h, 100)}));
                                            },
                                            [](GraphBuilder& h, const std::vector<Output>& v) -> Results {
                                                TSTUDIO_TRY(i, plusOne(h, v[0]));
                                                TSTUDIO_TRY(sq, ops::mul(h, v[1], v[1], "mul"));
                                                return std::vector<Output>{i, sq};
                                            },
                                            {*scalarInt32(g, 0), xs[0]}, o));
                      return loop[1];
                  });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));

        auto notScalar = ops::constantInts(b, {3, 4}, TensorShape{2}, tf::DT_INT32, "two_limits");
        WhileLoopOptions bad;
        bad.maximumIterations = *notScalar;
        auto refused = whileLoop(
            b,
            [](GraphBuilder& g, const std::vector<Output>& v) {
                return outputOf(g.op("Less", {v[0], *scalarInt32(g, 5)}));
            },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                return std::vector<Output>{*plusOne(g, v[0])};
            },
            {*scalarInt32(b, 0)}, bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message().find("maximum_iterations must be a scalar, saw shape: [2]") !=
                     std::string::npos,
                 refused.error().toString().c_str());
    }

    /// A cond in the loop body, reading a loop var and a captured tensor, by finite differences
    /// (the branch taken alternates with the iteration).
    void condInsideBody()
    {
        const double e =
            check("cond in body",
                  {testing::filled({3}, [](std::int64_t i) { return 0.4 + 0.2 * i; }),
                   testing::filled({3}, [](std::int64_t i) { return 0.9 - 0.25 * i; })},
                  [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                      const Output w = xs[1];
                      TSTUDIO_TRY(out, whileLoop(
                                           b,
                                           [](GraphBuilder& g, const std::vector<Output>& v) {
                                               return outputOf(g.op("Less", {v[0], *scalarInt32(g, 4)}));
                                           },
                                           [w](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                                               TSTUDIO_TRY(even, isEven(g, v[0]));
                                               TSTUDIO_TRY(
                                                   next, cond(
                                                             g, even,
                                                             [&](GraphBuilder& h) -> Results {
                                                                 TSTUDIO_TRY(s, outputOf(h.op("Sin", {v[1]})));
                                                                 TSTUDIO_TRY(m, ops::mul(h, v[1], w, "mul"));
                                                                 return std::vector<Output>{*ops::add(h, m, s, "add")};
                                                             },
                                                             [&](GraphBuilder& h) -> Results {
                                                                 TSTUDIO_TRY(ww, ops::mul(h, w, w, "mul"));
                                                                 TSTUDIO_TRY(t, outputOf(h.op("Tanh", {v[1]})));
                                                                 return std::vector<Output>{*ops::sub(h, t, ww, "sub")};
                                                             }));
                                               TSTUDIO_TRY(i, plusOne(g, v[0]));
                                               return std::vector<Output>{i, next.front()};
                                           },
                                           {*scalarInt32(b, 0), xs[0]}));
                      return out[1];
                  });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }

    /// shape_invariants: v doubles in length each iteration (concat of v and sin(v) * w); its
    /// invariant [?] allows it, and the gradient of sum(v^2) matches finite differences. Without the
    /// invariant, or with one the initial shape does not satisfy, TensorFlow's errors.
    void shapeInvariants()
    {
        auto grow = [](const Output& w) {
            return [w](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                TSTUDIO_TRY(s, outputOf(g.op("Sin", {v[1]})));
                TSTUDIO_TRY(sw, ops::mul(g, s, w, "mul"));
                TSTUDIO_TRY(axis, scalarInt32(g, 0, "concat/axis"));
                TSTUDIO_TRY(joined, outputOf(g.op("ConcatV2", {std::vector<Output>{v[1], sw}, axis}, {}, "concat")));
                TSTUDIO_TRY(i, plusOne(g, v[0]));
                return std::vector<Output>{i, joined};
            };
        };
        auto below3 = [](GraphBuilder& g, const std::vector<Output>& v) {
            return outputOf(g.op("Less", {v[0], *scalarInt32(g, 3)}));
        };
        const double e = check(
            "shape_invariants concat",
            {testing::filled({2}, [](std::int64_t i) { return 0.3 + 0.4 * i; }),
             testing::filled(TensorShape::scalar(), [](std::int64_t) { return 0.8; })},
            [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                WhileLoopOptions options;
                options.shapeInvariants = {TensorShape::scalar(), TensorShape::unknownDims(1)};
                TSTUDIO_TRY(out, whileLoop(b, below3, grow(xs[1]), {*scalarInt32(b, 0), xs[0]}, options));
                if (out[1].shape().rank() != 1 || out[1].shape().dim(0) >= 0)
                    return unexpected(internalError("the loop var should be [?], is " + out[1].shape().toString()));
                TSTUDIO_TRY(sq, ops::square(b, out[1]));
                TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape{1}, tf::DT_INT32, "axes"));
                return ops::sum(b, sq, axes);
            });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));

        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto w = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "w");
        auto noInvariant = whileLoop(b, below3, grow(*w), {*scalarInt32(b, 0), *x});
        QVERIFY(!noInvariant);
        QVERIFY2(noInvariant.error().message().find("Input tensor 'x:0' enters the loop with shape [2], but has shape "
                                                    "[4] after one iteration. To allow the shape to vary") !=
                     std::string::npos,
                 noInvariant.error().toString().c_str());
        WhileLoopOptions wrong;
        wrong.shapeInvariants = {TensorShape::scalar(), TensorShape{3}};
        auto incompatible = whileLoop(b, below3, grow(*w), {*scalarInt32(b, 0), *x}, wrong);
        QVERIFY(!incompatible);
        QVERIFY2(incompatible.error().message().find("The shape invariant specified for x:0 is not compatible with the "
                                                     "initial shape of the loop variable. It enters the loop with "
                                                     "shape [2], but the specified shape invariant is [3].") !=
                     std::string::npos,
                 incompatible.error().toString().c_str());
    }

    /// parallel_iterations reaches every Enter of the loop and of its gradient loop (the executor
    /// runs at most that many iterations at once: runtime/executor.cpp); with 1 or 10 the values and
    /// gradients of a loop with a cond in its body are the same.
    void parallelIterationsCarriedToTheGradientLoop()
    {
        std::vector<std::vector<float>> results;
        for (int parallel : {1, 10}) {
            GraphBuilder b(m_checks.registries().ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{3}, "x");
            WhileLoopOptions options;
            options.parallelIterations = parallel;
            auto out = whileLoop(
                b,
                [](GraphBuilder& g, const std::vector<Output>& v) {
                    return outputOf(g.op("Less", {v[0], *scalarInt32(g, 5)}));
                },
                [](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                    TSTUDIO_TRY(even, isEven(g, v[0]));
                    TSTUDIO_TRY(next, cond(
                                          g, even,
                                          [&](GraphBuilder& h) -> Results {
                                              return std::vector<Output>{*outputOf(h.op("Sin", {v[1]}))};
                                          },
                                          [&](GraphBuilder& h) -> Results {
                                              return std::vector<Output>{*ops::mul(h, v[1], v[1], "mul")};
                                          }));
                    return std::vector<Output>{*plusOne(g, v[0]), next.front()};
                },
                {*scalarInt32(b, 0), *x}, options);
            QVERIFY2(out, err(out).c_str());
            auto grads = addSymbolicGradients(b, {(*out)[1]}, {*x});
            QVERIFY2(grads, err(grads).c_str());
            int enters = 0;
            for (const tf::NodeDef& n : b.graphDef().node()) {
                if (n.op() != "Enter")
                    continue;
                ++enters;
                QCOMPARE(n.attr().at("parallel_iterations").i(), std::int64_t(parallel));
            }
            QVERIFY(enters > 4);
            auto values = runGraph(m_checks.registries(), b,
                                   {{"x", testing::filled({3}, [](std::int64_t i) { return 0.3 + 0.25 * i; })}},
                                   {(*out)[1].name(), (*grads)[0]->name()});
            QVERIFY2(values, err(values).c_str());
            std::vector<float> flat;
            for (const Tensor& t : *values)
                for (float v : t.values<float>())
                    flat.push_back(v);
            results.push_back(flat);
        }
        QCOMPARE(results[0], results[1]);
    }

    /// back_prop=False on an imported loop: no gradient, as in-process.
    void backPropFalseImported()
    {
        GraphBuilder a(m_checks.registries().ops);
        auto x = ops::placeholder(a, tf::DT_FLOAT, TensorShape::scalar(), "x");
        WhileLoopOptions options;
        options.backProp = false;
        auto out = whileLoop(
            a,
            [](GraphBuilder& g, const std::vector<Output>& v) {
                return outputOf(g.op("Less", {v[0], *scalarInt32(g, 2)}));
            },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                return std::vector<Output>{*plusOne(g, v[0]), *ops::mul(g, v[1], v[1], "mul")};
            },
            {*scalarInt32(a, 0), *x}, options);
        QVERIFY2(out, err(out).c_str());
        auto meta = exportMetaGraph(a);
        QVERIFY2(meta, err(meta).c_str());
        tf::WhileContextDef loop;
        QVERIFY(loop.ParseFromString(meta->collection_def().at("while_context").bytes_list().value(0)));
        QVERIFY(!loop.back_prop());
        auto b = importModel(*meta, true);
        QVERIFY2(b, err(b).c_str());
        auto y = (*b)->tensor((*out)[1].name());
        auto grads = addSymbolicGradients(**b, {*y}, {*(*b)->tensor("x:0")});
        QVERIFY2(grads, err(grads).c_str());
        QVERIFY(!(*grads)[0].has_value());
    }

    /// The gradient of a gradient through a loop, as TensorFlow 1.15's v1 loops give it: when the
    /// first gradient depends on x through the gradient loop (x is a captured loop invariant that
    /// enters it), "Second-order gradient for while loops not supported." (its _ExitGrad), whether
    /// the loop was built here or imported; when x reaches the first gradient only through history
    /// stacks (a loop var), no path at all: None, as TensorFlow returns. The first gradients stay
    /// usable either way.
    void secondDerivativesAsInTensorFlow()
    {
        for (bool imported : {false, true}) {
            GraphBuilder a(m_checks.registries().ops);
            auto x = ops::placeholder(a, tf::DT_FLOAT, TensorShape::scalar(), "x");
            auto w = ops::placeholder(a, tf::DT_FLOAT, TensorShape::scalar(), "w");
            const Output wv = *w;
            // v <- v * v * w twice: y = x^4 w^3.
            auto out = whileLoop(
                a,
                [](GraphBuilder& g, const std::vector<Output>& v) {
                    return outputOf(g.op("Less", {v[0], *scalarInt32(g, 2)}));
                },
                [wv](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                    TSTUDIO_TRY(sq, ops::mul(g, v[1], v[1], "mul"));
                    return std::vector<Output>{*plusOne(g, v[0]), *ops::mul(g, sq, wv, "mul_1")};
                },
                {*scalarInt32(a, 0), *x});
            QVERIFY2(out, err(out).c_str());
            std::unique_ptr<GraphBuilder> holder;
            GraphBuilder* b = &a;
            if (imported) {
                auto meta = exportMetaGraph(a);
                QVERIFY2(meta, err(meta).c_str());
                auto made = importModel(*meta, true);
                QVERIFY2(made, err(made).c_str());
                holder = std::move(*made);
                b = holder.get();
            }
            const Output xs = *b->tensor("x:0");
            const Output ws = *b->tensor("w:0");
            auto first = addSymbolicGradients(*b, {*b->tensor((*out)[1].name())}, {xs, ws});
            QVERIFY2(first, err(first).c_str());
            QVERIFY((*first)[0] && (*first)[1]);
            auto second = addSymbolicGradients(*b, {*(*first)[1]}, {ws});
            QVERIFY(!second);
            QCOMPARE(second.error().code(), StatusCode::kInvalidArgument);
            QVERIFY2(second.error().message().find("Second-order gradient for while loops not supported") !=
                         std::string::npos,
                     second.error().toString().c_str());
            // dy/dx = 4 x^3 w^3, dy/dw = 3 x^4 w^2.
            const float xv = 1.2f;
            const float wvv = 0.9f;
            auto values = runGraph(m_checks.registries(), *b,
                                   {{"x", *Tensor::fromVector(testing::gradientTestAllocator(), TensorShape::scalar(),
                                                              std::vector<float>{xv})},
                                    {"w", *Tensor::fromVector(testing::gradientTestAllocator(), TensorShape::scalar(),
                                                              std::vector<float>{wvv})}},
                                   {(*first)[0]->name(), (*first)[1]->name()});
            QVERIFY2(values, err(values).c_str());
            const double dx = 4 * std::pow(xv, 3) * std::pow(wvv, 3);
            const double dw = 3 * std::pow(xv, 4) * std::pow(wvv, 2);
            QVERIFY(std::abs(values->at(0).values<float>()[0] - dx) < 1e-5 * dx);
            QVERIFY(std::abs(values->at(1).values<float>()[0] - dw) < 1e-5 * dw);
        }
        // A loop var only: the first gradient reaches x through stacks, not edges: None.
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto out = whileLoop(
            b,
            [](GraphBuilder& g, const std::vector<Output>& v) {
                return outputOf(g.op("Less", {v[0], *scalarInt32(g, 2)}));
            },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Results {
                return std::vector<Output>{*plusOne(g, v[0]), *ops::mul(g, v[1], v[1], "mul")};
            },
            {*scalarInt32(b, 0), *x});
        QVERIFY2(out, err(out).c_str());
        auto first = addSymbolicGradients(b, {(*out)[1]}, {*x});
        QVERIFY2(first, err(first).c_str());
        auto second = addSymbolicGradients(b, {*(*first)[0]}, {*x});
        QVERIFY2(second, err(second).c_str());
        QVERIFY(!(*second)[0].has_value());
    }
};

QTEST_GUILESS_MAIN(TestImportedLoopTraining)
#include "test_imported_loop_training.moc"
