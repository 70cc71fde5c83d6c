// Tests for the RNN building API (builder/rnn_cell.h, lstm_cell.h, rnn_cell_wrappers.h, rnn.h): cell
// outputs and gradients against NumPy (tools/golden/rnn_goldens.py), static_rnn and dynamic_rnn
// (ragged sequence lengths, both time layouts) against NumPy, dynamic_rnn's gradient by finite
// differences, TensorFlow's variable names and shapes, and the errors.
#include "autodiff/gradient_checker.h"
#include "autodiff/gradients.h"
#include "builder/lstm_cell.h"
#include "builder/ops_sugar.h"
#include "builder/rnn.h"
#include "builder/rnn_cell.h"
#include "builder/rnn_cell_wrappers.h"
#include "builder/variables.h"
#include "rnn_test_support.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace tstudio;
using namespace tstudio::nn;
using testing::runGraph;
using testing::rnn::err;
using testing::rnn::pattern;
using testing::rnn::variableShapes;
namespace tf = tensorflow;

namespace {

#include "rnn_goldens.inc"

Expected<Output> patternConst(GraphBuilder& b, const TensorShape& shape, double seed, double scale,
                              std::string_view name)
{
    std::vector<double> v(static_cast<std::size_t>(*shape.numElements()));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = scale * std::sin(0.9 * double(i) + seed);
    return ops::constant(b, v, shape, tf::DT_DOUBLE, name);
}

/// loss = sum(a * ga) + sum(c * gc) (gc optional).
Expected<Output> weightedSum(GraphBuilder& b, const Output& a, const Output& ga, const Output& c = {},
                             const Output& gc = {})
{
    TSTUDIO_TRY(axes, ops::constantInts(b, {0, 1}, TensorShape{2}));
    TSTUDIO_TRY(pa, ops::mul(b, a, ga));
    TSTUDIO_TRY(sa, ops::sum(b, pa, axes));
    if (!c.isValid())
        return sa;
    TSTUDIO_TRY(pc, ops::mul(b, c, gc));
    TSTUDIO_TRY(sc, ops::sum(b, pc, axes));
    return ops::add(b, sa, sc);
}

} // namespace

class TestRnn : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    std::vector<Tensor> run(const GraphBuilder& b, const std::vector<std::pair<std::string, Tensor>>& feeds,
                            const std::vector<Output>& fetches, bool* ok)
    {
        return testing::rnn::fetch(*m_registries, b, feeds, fetches, ok);
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
    }

    /// BasicLSTMCell one step: h', c' and the gradients of sum(h' G1) + sum(c' G2) w.r.t. x, c, h,
    /// kernel and bias against NumPy.
    void basicLstmCellMatchesNumPy()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {2, 3}, "x");
        auto c = ops::placeholder(b, tf::DT_DOUBLE, {2, 4}, "c");
        auto h = ops::placeholder(b, tf::DT_DOUBLE, {2, 4}, "h");
        BasicLSTMCell cell(4);
        auto step = cell.call(b, *x, RnnState::lstm(*c, *h));
        QVERIFY2(step, err(step));
        QVERIFY(step->state.isLstmStateTuple());
        QCOMPARE(step->output, step->state.h());
        const auto vars = cell.variables();
        QCOMPARE(vars.size(), std::size_t(2));
        QCOMPARE(vars[0].name(), std::string("basic_lstm_cell/kernel"));
        QCOMPARE(vars[0].shape(), (TensorShape{7, 16}));
        QCOMPARE(vars[1].name(), std::string("basic_lstm_cell/bias"));
        QCOMPARE(vars[1].shape(), (TensorShape{16}));
        // TensorFlow's default initializers: glorot_uniform for the kernel, zeros for the bias.
        QCOMPARE(b.findNode("basic_lstm_cell/bias/Initializer/zeros")->op(), std::string("Const"));
        QVERIFY(b.findNode("basic_lstm_cell/kernel/Initializer/random_uniform") != nullptr);

        auto g1 = patternConst(b, {2, 4}, 3.3, 1.0, "G1");
        auto g2 = patternConst(b, {2, 4}, 3.9, 0.5, "G2");
        auto loss = weightedSum(b, step->state.h(), *g1, step->state.c(), *g2);
        QVERIFY2(loss, err(loss));
        auto grads = addSymbolicGradients(b, {*loss}, {*x, *c, *h, vars[0].value(), vars[1].value()});
        QVERIFY2(grads, err(grads));
        std::vector<Output> fetches{step->state.h(), step->state.c()};
        for (const auto& g : *grads)
            fetches.push_back(*g);
        bool ok = false;
        auto v = run(b,
                     {{"x:0", pattern({2, 3}, 0.1, 0.8)},
                      {"c:0", pattern({2, 4}, 0.7, 0.5)},
                      {"h:0", pattern({2, 4}, 1.3, 0.5)},
                      {vars[0].value().name(), pattern({7, 16}, 2.1, 0.4)},
                      {vars[1].value().name(), pattern({16}, 2.9, 0.2)}},
                     fetches, &ok);
        QVERIFY(ok);
        CHECK_GOLDEN(v[0], kBasicLstmH);
        CHECK_GOLDEN(v[1], kBasicLstmC);
        CHECK_GOLDEN(v[2], kBasicLstmGradX);
        CHECK_GOLDEN(v[3], kBasicLstmGradC);
        CHECK_GOLDEN(v[4], kBasicLstmGradH);
        CHECK_GOLDEN(v[5], kBasicLstmGradKernel);
        CHECK_GOLDEN(v[6], kBasicLstmGradBias);
    }

    /// LSTMCell with peepholes, cell_clip 0.5 and num_proj 3 with proj_clip 0.09 (both clips active
    /// on some elements): m', c' and the gradients w.r.t. every input and variable.
    void lstmCellPeepholesProjectionMatchesNumPy()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {2, 3}, "x");
        auto c = ops::placeholder(b, tf::DT_DOUBLE, {2, 4}, "c");
        auto m = ops::placeholder(b, tf::DT_DOUBLE, {2, 3}, "m");
        LSTMCellOptions options;
        options.usePeepholes = true;
        options.cellClip = 0.5;
        options.numProj = 3;
        options.projClip = 0.09;
        LSTMCell cell(4, options);
        QCOMPARE(cell.outputSize(), std::int64_t(3));
        auto step = cell.call(b, *x, RnnState::lstm(*c, *m));
        QVERIFY2(step, err(step));
        const auto vars = cell.variables();
        const std::vector<std::pair<std::string, TensorShape>> expected{
            {"lstm_cell/kernel", {6, 16}}, {"lstm_cell/bias", {16}},    {"lstm_cell/w_f_diag", {4}},
            {"lstm_cell/w_i_diag", {4}},   {"lstm_cell/w_o_diag", {4}}, {"lstm_cell/projection/kernel", {4, 3}}};
        QCOMPARE(vars.size(), expected.size());
        for (std::size_t i = 0; i < vars.size(); ++i) {
            QCOMPARE(vars[i].name(), expected[i].first);
            QCOMPARE(vars[i].shape(), expected[i].second);
        }
        auto gm = patternConst(b, {2, 3}, 3.3, 1.0, "Gm");
        auto gc = patternConst(b, {2, 4}, 3.9, 0.5, "Gc");
        auto loss = weightedSum(b, step->state.h(), *gm, step->state.c(), *gc);
        QVERIFY2(loss, err(loss));
        std::vector<Output> xs{*x, *c, *m};
        for (const Variable& v : vars)
            xs.push_back(v.value());
        auto grads = addSymbolicGradients(b, {*loss}, xs);
        QVERIFY2(grads, err(grads));
        std::vector<Output> fetches{step->state.h(), step->state.c()};
        for (const auto& g : *grads)
            fetches.push_back(*g);
        const Tensor values[] = {pattern({6, 16}, 2.1, 0.6), pattern({16}, 2.9, 0.3), pattern({4}, 4.1, 0.5),
                                 pattern({4}, 4.6, 0.5),     pattern({4}, 5.2, 0.5),  pattern({4, 3}, 5.9, 0.7)};
        std::vector<std::pair<std::string, Tensor>> feeds{{"x:0", pattern({2, 3}, 0.1, 0.8)},
                                                          {"c:0", pattern({2, 4}, 0.7, 0.9)},
                                                          {"m:0", pattern({2, 3}, 1.3, 0.5)}};
        for (std::size_t i = 0; i < vars.size(); ++i)
            feeds.emplace_back(vars[i].value().name(), values[i]);
        bool ok = false;
        auto v = run(b, feeds, fetches, &ok);
        QVERIFY(ok);
        CHECK_GOLDEN(v[0], kLstmM);
        CHECK_GOLDEN(v[1], kLstmC);
        CHECK_GOLDEN(v[2], kLstmGradX);
        CHECK_GOLDEN(v[3], kLstmGradC);
        CHECK_GOLDEN(v[4], kLstmGradM);
        CHECK_GOLDEN(v[5], kLstmGradKernel);
        CHECK_GOLDEN(v[6], kLstmGradBias);
        CHECK_GOLDEN(v[7], kLstmGradWfDiag);
        CHECK_GOLDEN(v[8], kLstmGradWiDiag);
        CHECK_GOLDEN(v[9], kLstmGradWoDiag);
        CHECK_GOLDEN(v[10], kLstmGradProjection);
    }

    /// GRUCell (output and gradients) and BasicRNNCell (output) against NumPy, with their names.
    void gruAndBasicRnnMatchNumPy()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {2, 3}, "x");
        auto h = ops::placeholder(b, tf::DT_DOUBLE, {2, 4}, "h");
        GRUCell gru(4);
        auto step = gru.call(b, *x, RnnState::leaf(*h));
        QVERIFY2(step, err(step));
        const auto vars = gru.variables();
        const std::vector<std::pair<std::string, TensorShape>> expected{{"gru_cell/gates/kernel", {7, 8}},
                                                                        {"gru_cell/gates/bias", {8}},
                                                                        {"gru_cell/candidate/kernel", {7, 4}},
                                                                        {"gru_cell/candidate/bias", {4}}};
        QCOMPARE(vars.size(), expected.size());
        for (std::size_t i = 0; i < vars.size(); ++i) {
            QCOMPARE(vars[i].name(), expected[i].first);
            QCOMPARE(vars[i].shape(), expected[i].second);
        }
        // gates/bias starts at 1.0 (TensorFlow's constant_initializer(1.0)).
        QVERIFY(b.findNode("gru_cell/gates/bias/Initializer/Const") != nullptr);

        BasicRNNCell rnn(4);
        auto rstep = rnn.call(b, *x, RnnState::leaf(*h));
        QVERIFY2(rstep, err(rstep));
        QCOMPARE(rnn.variables().at(0).name(), std::string("basic_rnn_cell/kernel"));
        QCOMPARE(rnn.variables().at(0).shape(), (TensorShape{7, 4}));
        QCOMPARE(rnn.variables().at(1).name(), std::string("basic_rnn_cell/bias"));

        auto g1 = patternConst(b, {2, 4}, 3.3, 1.0, "G1");
        auto loss = weightedSum(b, step->output, *g1);
        std::vector<Output> xs{*x, *h};
        for (const Variable& v : vars)
            xs.push_back(v.value());
        auto grads = addSymbolicGradients(b, {*loss}, xs);
        QVERIFY2(grads, err(grads));
        std::vector<Output> fetches{step->output, rstep->output};
        for (const auto& g : *grads)
            fetches.push_back(*g);
        Tensor gatesBias = pattern({8}, 2.9, 0.2);
        for (double& v : gatesBias.values<double>())
            v += 1.0;
        bool ok = false;
        auto v = run(b,
                     {{"x:0", pattern({2, 3}, 0.1, 0.8)},
                      {"h:0", pattern({2, 4}, 1.3, 0.5)},
                      {vars[0].value().name(), pattern({7, 8}, 2.1, 0.4)},
                      {vars[1].value().name(), gatesBias},
                      {vars[2].value().name(), pattern({7, 4}, 6.3, 0.4)},
                      {vars[3].value().name(), pattern({4}, 6.8, 0.2)},
                      {rnn.variables()[0].value().name(), pattern({7, 4}, 2.1, 0.4)},
                      {rnn.variables()[1].value().name(), pattern({4}, 2.9, 0.2)}},
                     fetches, &ok);
        QVERIFY(ok);
        CHECK_GOLDEN(v[0], kGruH);
        CHECK_GOLDEN(v[1], kRnnH);
        CHECK_GOLDEN(v[2], kGruGradX);
        CHECK_GOLDEN(v[3], kGruGradH);
        CHECK_GOLDEN(v[4], kGruGradGatesKernel);
        CHECK_GOLDEN(v[5], kGruGradGatesBias);
        CHECK_GOLDEN(v[6], kGruGradCandidateKernel);
        CHECK_GOLDEN(v[7], kGruGradCandidateBias);
    }

    /// static_rnn over 5 steps from zero_state: one set of variables ("rnn/basic_lstm_cell/..."),
    /// every output and the final state against NumPy.
    void staticRnnMatchesNumPy()
    {
        GraphBuilder b(m_registries->ops);
        std::vector<Output> inputs;
        for (int t = 0; t < 5; ++t)
            inputs.push_back(*ops::placeholder(b, tf::DT_DOUBLE, {2, 3}, "x" + std::to_string(t)));
        BasicLSTMCell cell(4);
        RnnOptions options;
        options.dtype = tf::DT_DOUBLE;
        auto result = staticRnn(b, cell, inputs, options);
        QVERIFY2(result, err(result));
        QCOMPARE(result->outputs.size(), std::size_t(5));
        const auto shapes = variableShapes(b);
        QCOMPARE(shapes.size(), std::size_t(2));
        QCOMPARE(shapes.at("rnn/basic_lstm_cell/kernel"), (TensorShape{7, 16}));
        QCOMPARE(shapes.at("rnn/basic_lstm_cell/bias"), (TensorShape{16}));
        QVERIFY(b.findNode("rnn/BasicLSTMCellZeroState/zeros") != nullptr);

        // Inputs: the generator's xs [T, B, D], one [B, D] slice per step.
        const Tensor all = pattern({5, 2, 3}, 0.4, 0.8);
        std::vector<std::pair<std::string, Tensor>> feeds;
        for (int t = 0; t < 5; ++t) {
            Tensor x = pattern({2, 3}, 0.0, 0.0);
            for (int i = 0; i < 6; ++i)
                x.values<double>()[i] = all.values<double>()[t * 6 + i];
            feeds.emplace_back("x" + std::to_string(t) + ":0", x);
        }
        feeds.emplace_back("rnn/basic_lstm_cell/kernel/read:0", pattern({7, 16}, 2.1, 0.4));
        feeds.emplace_back("rnn/basic_lstm_cell/bias/read:0", pattern({16}, 2.9, 0.2));
        std::vector<Output> fetches = result->outputs;
        fetches.push_back(result->state.c());
        fetches.push_back(result->state.h());
        bool ok = false;
        auto v = run(b, feeds, fetches, &ok);
        QVERIFY(ok);
        for (int t = 0; t < 5; ++t) {
            const QString m = testing::rnn::mismatch(v[t], kStaticOutputs + t * 8, 8, "kStaticOutputs", 1e-9);
            QVERIFY2(m.isEmpty(), qPrintable(QString("step %1: %2").arg(t).arg(m)));
        }
        CHECK_GOLDEN(v[5], kStaticC);
        CHECK_GOLDEN(v[6], kStaticH);
    }

    /// static_rnn with sequence lengths 5, 2, 0: zeros past each length, the state of the last
    /// valid step (TensorFlow's _rnn_step with its conds).
    void staticRnnSequenceLength()
    {
        GraphBuilder b(m_registries->ops);
        std::vector<Output> inputs;
        for (int t = 0; t < 5; ++t)
            inputs.push_back(*ops::placeholder(b, tf::DT_DOUBLE, {3, 3}, "x" + std::to_string(t)));
        auto lengths = ops::constantInts(b, {5, 2, 0}, TensorShape{3}, tf::DT_INT32, "lengths");
        BasicLSTMCell cell(4);
        RnnOptions options;
        options.dtype = tf::DT_DOUBLE;
        options.sequenceLength = *lengths;
        auto result = staticRnn(b, cell, inputs, options);
        QVERIFY2(result, err(result));
        const Tensor all = pattern({3, 5, 3}, 0.4, 0.8); // batch-major
        std::vector<std::pair<std::string, Tensor>> feeds;
        for (int t = 0; t < 5; ++t) {
            Tensor x = pattern({3, 3}, 0.0, 0.0);
            for (int r = 0; r < 3; ++r)
                for (int d = 0; d < 3; ++d)
                    x.values<double>()[r * 3 + d] = all.values<double>()[(r * 5 + t) * 3 + d];
            feeds.emplace_back("x" + std::to_string(t) + ":0", x);
        }
        feeds.emplace_back("rnn/basic_lstm_cell/kernel/read:0", pattern({7, 16}, 2.1, 0.4));
        feeds.emplace_back("rnn/basic_lstm_cell/bias/read:0", pattern({16}, 2.9, 0.2));
        std::vector<Output> fetches = result->outputs;
        fetches.push_back(result->state.c());
        fetches.push_back(result->state.h());
        bool ok = false;
        auto v = run(b, feeds, fetches, &ok);
        QVERIFY(ok);
        for (int t = 0; t < 5; ++t) {
            const QString m =
                testing::rnn::mismatch(v[t], kRaggedOutputsTimeMajor + t * 12, 12, "kRaggedOutputsTimeMajor", 1e-9);
            QVERIFY2(m.isEmpty(), qPrintable(QString("step %1: %2").arg(t).arg(m)));
        }
        CHECK_GOLDEN(v[5], kRaggedC);
        CHECK_GOLDEN(v[6], kRaggedH);
    }

    void dynamicRnnRaggedMatchesNumPy_data()
    {
        QTest::addColumn<bool>("timeMajor");
        QTest::newRow("batch-major") << false;
        QTest::newRow("time-major") << true;
    }

    /// dynamic_rnn, batch 3 with lengths 5, 2, 0: outputs zero past each length, the final state
    /// from each example's last valid step (the initial zeros for length 0), in both layouts.
    void dynamicRnnRaggedMatchesNumPy()
    {
        QFETCH(bool, timeMajor);
        GraphBuilder b(m_registries->ops);
        const TensorShape inShape = timeMajor ? TensorShape{5, 3, 3} : TensorShape{3, 5, 3};
        auto x = ops::placeholder(b, tf::DT_DOUBLE, inShape, "x");
        auto lengths = ops::placeholder(b, tf::DT_INT32, {3}, "lengths");
        BasicLSTMCell cell(4);
        DynamicRnnOptions options;
        options.dtype = tf::DT_DOUBLE;
        options.sequenceLength = *lengths;
        options.timeMajor = timeMajor;
        auto result = dynamicRnn(b, cell, *x, options);
        QVERIFY2(result, err(result));
        QCOMPARE(result->outputs.shape(), timeMajor ? (TensorShape{5, 3, 4}) : (TensorShape{3, 5, 4}));
        QCOMPARE(result->state.c().shape(), (TensorShape{3, 4}));
        const auto shapes = variableShapes(b);
        QCOMPARE(shapes.size(), std::size_t(2));
        QCOMPARE(shapes.at("rnn/basic_lstm_cell/kernel"), (TensorShape{7, 16}));
        QCOMPARE(b.findNode("rnn/basic_lstm_cell/kernel")->op(), std::string("VariableV2"));
        QCOMPARE(b.contextOf("rnn/basic_lstm_cell/kernel"), nullptr); // made outside the loop
        QVERIFY(b.findNode("rnn/while/basic_lstm_cell/MatMul") != nullptr);
        QVERIFY(b.findNode("rnn/CheckSeqLen") != nullptr);

        Tensor xs = pattern({3, 5, 3}, 0.4, 0.8); // the generator's batch-major values
        if (timeMajor) {
            Tensor t = pattern({5, 3, 3}, 0.0, 0.0);
            for (int r = 0; r < 3; ++r)
                for (int s = 0; s < 5; ++s)
                    for (int d = 0; d < 3; ++d)
                        t.values<double>()[(s * 3 + r) * 3 + d] = xs.values<double>()[(r * 5 + s) * 3 + d];
            xs = t;
        }
        bool ok = false;
        auto v = run(b,
                     {{"x:0", xs},
                      {"lengths:0", *Tensor::fromVector<std::int32_t>(testing::gradientTestAllocator(), {3}, {5, 2, 0})},
                      {"rnn/basic_lstm_cell/kernel/read:0", pattern({7, 16}, 2.1, 0.4)},
                      {"rnn/basic_lstm_cell/bias/read:0", pattern({16}, 2.9, 0.2)}},
                     {result->outputs, result->state.c(), result->state.h()}, &ok);
        QVERIFY(ok);
        // Golden outputs are time-major [T, B, U].
        for (int s = 0; s < 5; ++s)
            for (int r = 0; r < 3; ++r)
                for (int u = 0; u < 4; ++u) {
                    const std::size_t at = timeMajor ? (s * 3 + r) * 4 + u : (r * 5 + s) * 4 + u;
                    const double got = v[0].values<double>()[at];
                    const double want = kRaggedOutputsTimeMajor[(s * 3 + r) * 4 + u];
                    QVERIFY2(std::abs(got - want) <= 1e-5 * std::abs(want) + 1e-12,
                             qPrintable(QString("output t=%1 b=%2 u=%3: %4 vs %5").arg(s).arg(r).arg(u).arg(got).arg(want)));
                    if (s >= (r == 0 ? 5 : r == 1 ? 2 : 0))
                        QCOMPARE(got, 0.0);
                }
        CHECK_GOLDEN(v[1], kRaggedC);
        CHECK_GOLDEN(v[2], kRaggedH);
        for (int u = 0; u < 4; ++u) // length 0: the zero state
            QCOMPARE(v[2].values<double>()[8 + u], 0.0);
    }

    /// dynamic_rnn's gradient (through the while loop, the TensorArrays and the Selects) w.r.t. the
    /// inputs and the initial state against central differences of the same graph (float64, step
    /// 1e-6), for loss = sum(outputs * G) + sum(final state * G2), lengths 4, 2, 0.
    void dynamicRnnGradientByFiniteDifferences()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {3, 4, 2}, "x");
        auto h0 = ops::placeholder(b, tf::DT_DOUBLE, {3, 3}, "h0");
        auto lengths = ops::constantInts(b, {4, 2, 0}, TensorShape{3}, tf::DT_INT32, "lengths");
        std::vector<double> kernel(15); // the gates kernel repeats the last value
        for (std::size_t i = 0; i < kernel.size(); ++i)
            kernel[i] = 0.5 * std::sin(1.7 * double(i) + 0.3);
        GRUCellOptions gruOptions;
        gruOptions.kernelInitializer = Initializer::constant(kernel);
        GRUCell cell(3, gruOptions);
        DynamicRnnOptions options;
        options.sequenceLength = *lengths;
        options.initialState = RnnState::leaf(*h0);
        auto result = dynamicRnn(b, cell, *x, options);
        QVERIFY2(result, err(result));
        auto g = patternConst(b, {3, 4, 3}, 0.2, 1.0, "G");
        auto g2 = patternConst(b, {3, 3}, 1.9, 1.0, "G2");
        auto axes3 = ops::constantInts(b, {0, 1, 2}, TensorShape{3});
        auto po = ops::mul(b, result->outputs, *g);
        auto so = ops::sum(b, *po, *axes3);
        auto part2 = weightedSum(b, result->state.value(), *g2);
        auto loss = ops::add(b, *so, *part2, "loss");
        QVERIFY2(loss, err(loss));
        auto grads = addSymbolicGradients(b, {*loss}, {*x, *h0});
        QVERIFY2(grads, err(grads));
        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, err(init));

        const Tensor xv = pattern({3, 4, 2}, 0.4, 0.8);
        const Tensor hv = pattern({3, 3}, 1.1, 0.5);
        auto evaluate = [&](const Tensor& xs, const Tensor& hs, const std::vector<std::string>& fetches) {
            return runGraph(*m_registries, b, {{"x:0", xs}, {"h0:0", hs}}, fetches, {init->name()});
        };
        auto symbolic = evaluate(xv, hv, {(*grads)[0]->name(), (*grads)[1]->name()});
        QVERIFY2(symbolic, err(symbolic));
        const double eps = 1e-6;
        double worst = 0.0;
        for (int which = 0; which < 2; ++which) {
            const Tensor& base = which == 0 ? xv : hv;
            for (std::int64_t i = 0; i < base.numElements(); ++i) {
                Tensor plus = pattern(base.shape(), 0.0, 0.0);
                Tensor minus = pattern(base.shape(), 0.0, 0.0);
                for (std::int64_t k = 0; k < base.numElements(); ++k)
                    plus.values<double>()[k] = minus.values<double>()[k] = base.values<double>()[k];
                plus.values<double>()[i] += eps;
                minus.values<double>()[i] -= eps;
                auto fp = which == 0 ? evaluate(plus, hv, {loss->name()}) : evaluate(xv, plus, {loss->name()});
                auto fm = which == 0 ? evaluate(minus, hv, {loss->name()}) : evaluate(xv, minus, {loss->name()});
                QVERIFY2(fp && fm, err(fp));
                const double numerical = (fp->at(0).values<double>()[0] - fm->at(0).values<double>()[0]) / (2 * eps);
                const double theoretical = symbolic->at(which).values<double>()[i];
                worst = std::max(worst, std::abs(numerical - theoretical));
                QVERIFY2(std::abs(numerical - theoretical) <= 1e-6 + 1e-5 * std::abs(numerical),
                         qPrintable(QString("d loss / d %1[%2]: symbolic %3, numerical %4")
                                        .arg(which == 0 ? "x" : "h0")
                                        .arg(i)
                                        .arg(theoretical, 0, 'g', 12)
                                        .arg(numerical, 0, 'g', 12)));
            }
        }
        // Example 2 (length 0) does not depend on its inputs at all: x[2, :, :] has zero gradient.
        for (std::int64_t i = 16; i < 24; ++i)
            QCOMPARE(symbolic->at(0).values<double>()[i], 0.0);
        qInfo("dynamic_rnn gradient: worst |symbolic - numerical| = %.3g", worst);
    }

    /// TensorFlow's variable names: MultiRNNCell's cell_<k> scopes, a wrapped cell named as without
    /// the wrapper, LSTMCell and GRUCell under dynamic_rnn, a second cell in the same scope.
    void variableNamesAndShapes()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 5, 3}, "x");
        auto keep = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "keep");
        auto first = std::make_shared<BasicLSTMCell>(4);
        DropoutWrapperOptions dropOptions;
        dropOptions.outputKeepProb = *keep;
        dropOptions.stateKeepProb = 0.5;
        auto wrapped = DropoutWrapper::create(b, std::make_shared<BasicLSTMCell>(4), dropOptions);
        QVERIFY2(wrapped, err(wrapped));
        auto residual = std::make_shared<ResidualWrapper>(*wrapped);
        auto multi = MultiRNNCell::create({first, residual});
        QVERIFY2(multi, err(multi));
        DynamicRnnOptions options;
        options.dtype = tf::DT_FLOAT;
        auto result = dynamicRnn(b, **multi, *x, options);
        QVERIFY2(result, err(result));
        QCOMPARE(result->state.items().size(), std::size_t(2));
        const auto shapes = variableShapes(b);
        const std::map<std::string, TensorShape> expected{
            {"rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel", {7, 16}},
            {"rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias", {16}},
            {"rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel", {8, 16}},
            {"rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias", {16}}};
        QCOMPARE(shapes, expected);
        QCOMPARE((*multi)->variables().size(), std::size_t(4));
        // The wrapper's constants and the dropout on the output (a tensor keep probability).
        QVERIFY(b.findNode("DropoutWrapperInit/Const_1") != nullptr);
        QVERIFY(b.findNode("rnn/while/multi_rnn_cell/cell_1/dropout/random_uniform/RandomUniform") != nullptr);

        // LSTMCell with peepholes and projection, then a GRUCell in another scope, and a second
        // BasicRNNCell in the same scope as a first one.
        GraphBuilder g(m_registries->ops);
        auto y = ops::placeholder(g, tf::DT_FLOAT, {2, 5, 3}, "y");
        LSTMCellOptions lstmOptions;
        lstmOptions.usePeepholes = true;
        lstmOptions.numProj = 2;
        LSTMCell lstm(4, lstmOptions);
        DynamicRnnOptions o1;
        o1.dtype = tf::DT_FLOAT;
        QVERIFY(dynamicRnn(g, lstm, *y, o1));
        GRUCell gru(5);
        DynamicRnnOptions o2 = o1;
        o2.scope = "encoder";
        QVERIFY(dynamicRnn(g, gru, *y, o2));
        BasicRNNCell r1(2);
        BasicRNNCell r2(2);
        DynamicRnnOptions o3 = o1;
        o3.scope = "stack";
        QVERIFY(dynamicRnn(g, r1, *y, o3));
        QVERIFY(dynamicRnn(g, r2, *y, o3));
        const std::map<std::string, TensorShape> expected2{
            {"rnn/lstm_cell/kernel", {5, 16}},
            {"rnn/lstm_cell/bias", {16}},
            {"rnn/lstm_cell/w_f_diag", {4}},
            {"rnn/lstm_cell/w_i_diag", {4}},
            {"rnn/lstm_cell/w_o_diag", {4}},
            {"rnn/lstm_cell/projection/kernel", {4, 2}},
            {"encoder/gru_cell/gates/kernel", {8, 10}},
            {"encoder/gru_cell/gates/bias", {10}},
            {"encoder/gru_cell/candidate/kernel", {8, 5}},
            {"encoder/gru_cell/candidate/bias", {5}},
            {"stack/basic_rnn_cell/kernel", {5, 2}},
            {"stack/basic_rnn_cell/bias", {2}},
            {"stack/basic_rnn_cell_1/kernel", {5, 2}},
            {"stack/basic_rnn_cell_1/bias", {2}}};
        QCOMPARE(variableShapes(g), expected2);
    }

    /// The wrappers' behaviour: ResidualWrapper adds the inputs; DropoutWrapper with keep 1 given as
    /// a tensor fed 1.0 changes nothing, and rejects a probability outside [0, 1].
    void wrappersBehave()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, {2, 4}, "x");
        auto h = ops::placeholder(b, tf::DT_DOUBLE, {2, 4}, "h");
        auto keep = ops::placeholder(b, tf::DT_DOUBLE, TensorShape::scalar(), "keep");
        auto inner = std::make_shared<BasicRNNCell>(4);
        DropoutWrapperOptions dropOptions;
        dropOptions.inputKeepProb = *keep;
        auto dropped = DropoutWrapper::create(b, inner, dropOptions);
        QVERIFY2(dropped, err(dropped));
        ResidualWrapper residual(*dropped);
        auto step = residual.call(b, *x, RnnState::leaf(*h));
        QVERIFY2(step, err(step));
        QCOMPARE(inner->variables().at(0).name(), std::string("basic_rnn_cell/kernel"));
        // Output = x + tanh([x, h] W + b): with W = 0, b = 0.25: x + tanh(0.25).
        Tensor w = pattern({8, 4}, 0.0, 0.0);
        Tensor bias = pattern({4}, 0.0, 0.0);
        for (double& v : bias.values<double>())
            v = 0.25;
        bool ok = false;
        auto v = run(b,
                     {{"x:0", pattern({2, 4}, 0.3, 1.0)},
                      {"h:0", pattern({2, 4}, 0.9, 1.0)},
                      {"keep:0", *Tensor::fromVector<double>(testing::gradientTestAllocator(), TensorShape::scalar(), {1.0})},
                      {inner->variables()[0].value().name(), w},
                      {inner->variables()[1].value().name(), bias}},
                     {step->output, step->state.value()}, &ok);
        QVERIFY(ok);
        const Tensor xv = pattern({2, 4}, 0.3, 1.0);
        for (int i = 0; i < 8; ++i) {
            QVERIFY(std::abs(v[0].values<double>()[i] - (xv.values<double>()[i] + std::tanh(0.25))) < 1e-12);
            QVERIFY(std::abs(v[1].values<double>()[i] - std::tanh(0.25)) < 1e-12);
        }

        GraphBuilder g(m_registries->ops);
        DropoutWrapperOptions bad;
        bad.outputKeepProb = 2.0;
        auto rejected = DropoutWrapper::create(g, std::make_shared<BasicRNNCell>(2), bad);
        QVERIFY(!rejected);
        QCOMPARE(rejected.error().message(), std::string("Parameter output_keep_prob must be between 0 and 1: 2"));
    }

    /// Bad input: inputs of the wrong rank, a sequence length of the wrong size (TensorFlow's
    /// run-time Assert, naming the node), a missing dtype; lengths past the time axis run every step.
    void errors()
    {
        {
            GraphBuilder b(m_registries->ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "x");
            BasicLSTMCell cell(4);
            DynamicRnnOptions options;
            options.dtype = tf::DT_FLOAT;
            auto result = dynamicRnn(b, cell, *x, options);
            QVERIFY(!result);
            QCOMPARE(result.error().code(), StatusCode::kInvalidArgument);
            QVERIFY2(result.error().message().find("x:0 must have rank at least 3") != std::string::npos,
                     result.error().message().c_str());
            options.dtype = tf::DT_INVALID;
            auto x3 = ops::placeholder(b, tf::DT_FLOAT, {2, 3, 4}, "x3");
            auto noDtype = dynamicRnn(b, cell, *x3, options);
            QVERIFY(!noDtype);
            QCOMPARE(noDtype.error().message(), std::string("If there is no initial_state, you must give a dtype."));
        }
        {
            GraphBuilder b(m_registries->ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3, 4}, "x");
            auto h = ops::placeholder(b, tf::DT_FLOAT, {2, 4}, "h");
            BasicRNNCell cell(4);
            auto step = cell.call(b, *x, RnnState::leaf(*h));
            QVERIFY(!step);
            QVERIFY2(step.error().message().starts_with("Input 0 of layer basic_rnn_cell is incompatible with the "
                                                        "layer: expected ndim=2, found ndim=3. Full shape received: "
                                                        "[2, 3, 4]"),
                     step.error().message().c_str());
        }
        {
            GraphBuilder b(m_registries->ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, {3, 5, 2}, "x");
            auto lengths = ops::placeholder(b, tf::DT_INT32, TensorShape{-1}, "lengths");
            // A constant kernel: every session initializes the same weights.
            auto constantInit = variableScope(b, "", Reuse::kFalse, Initializer::constant(0.3));
            QVERIFY2(constantInit, err(constantInit));
            BasicRNNCell cell(2);
            DynamicRnnOptions options;
            options.dtype = tf::DT_FLOAT;
            options.sequenceLength = *lengths;
            auto result = dynamicRnn(b, cell, *x, options);
            QVERIFY2(result, err(result));
            const Tensor xs = pattern({3, 5, 2}, 0.1, 0.5, tf::DT_FLOAT);
            auto& alloc = testing::gradientTestAllocator();
            auto init = globalVariablesInitializer(b);
            QVERIFY2(init, err(init));
            const std::vector<std::string> targets{init->name()};
            // Two lengths for a batch of three: the Assert fails, naming itself.
            auto wrong = runGraph(*m_registries, b, {{"x:0", xs}, {"lengths:0", *Tensor::fromVector<std::int32_t>(alloc, {2}, {5, 2})}},
                                  {result->outputs.name()}, targets);
            QVERIFY(!wrong);
            QCOMPARE(wrong.error().code(), StatusCode::kInvalidArgument);
            const std::string& m = wrong.error().message();
            QVERIFY2(m.find("rnn/Assert/Assert") != std::string::npos, m.c_str());
            QVERIFY2(m.find("Expected shape for Tensor rnn/sequence_length:0 is ") != std::string::npos, m.c_str());
            QVERIFY2(m.find("but saw shape: ") != std::string::npos, m.c_str());
            // Lengths beyond the 5 steps: TensorFlow would run those examples every step; here it is an
            // error naming the check and printing the time axis and the lengths.
            auto longer = runGraph(*m_registries, b,
                                   {{"x:0", xs}, {"lengths:0", *Tensor::fromVector<std::int32_t>(alloc, {3}, {9, 5, 7})}},
                                   {result->outputs.name()}, targets);
            QVERIFY(!longer);
            const std::string& l = longer.error().message();
            QVERIFY2(l.find("rnn/sequence_length_within_time/Assert") != std::string::npos, l.c_str());
            QVERIFY2(l.find("sequence_length must not exceed the time axis (steps: ") != std::string::npos, l.c_str());
            QVERIFY2(l.find("9 5 7") != std::string::npos || l.find("[9 5 7]") != std::string::npos, l.c_str());
            auto full = runGraph(*m_registries, b,
                                 {{"x:0", xs}, {"lengths:0", *Tensor::fromVector<std::int32_t>(alloc, {3}, {5, 5, 5})}},
                                 {result->outputs.name()}, targets);
            QVERIFY2(full, err(full));
        }
    }
};

QTEST_GUILESS_MAIN(TestRnn)
#include "test_rnn.moc"
