// The sparse Adam fusion (runtime/sparse_adam_fusion.h, kernels/training/fused_sparse_adam_cpu.h):
// an embedding trained with AdamOptimizer's sparse update gives the same table and slots, bit for
// bit, whether the plan runs the update as one fused node (the default, as Grappler's remapper is
// on) or op by op (remapping OFF); the fused node shows in the trace; a run that fetches a value
// inside the update, an observed run, and a session without the remapper run it op by op.
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/adam.h"
#include "fusion_test_support.h"

#include <QtTest>

#include <cstring>
#include <random>
#include <set>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

constexpr int kVocabulary = 50;
constexpr int kDimension = 12; // not a multiple of a packet: the rows' tails run element by element
constexpr int kIds = 9;

struct Model {
    explicit Model(const OpRegistry& ops) : b(ops) {}
    GraphBuilder b;
    std::string train;
    std::string init;
    std::vector<std::string> variables; ///< the table and its slots, every VariableV2
};

std::unique_ptr<Model> buildModel(tf::DataType dtype, bool useLocking)
{
    auto model = std::make_unique<Model>(TrainingRegistries::get().ops);
    GraphBuilder& b = model->b;
    auto table = getVariable(b, "emb", TensorShape{kVocabulary, kDimension}, dtype,
                             Initializer::randomUniform(-0.5, 0.5, 11));
    auto ids = ops::placeholder(b, tf::DT_INT32, TensorShape{kIds}, "ids");
    if (!table || !ids)
        return nullptr;
    auto lookup = nn::embeddingLookup(b, table->value(), *ids);
    auto sq = lookup ? ops::square(b, *lookup) : lookup;
    auto axes = ops::constantInts(b, {0, 1}, {2});
    if (!sq || !axes)
        return nullptr;
    auto loss = b.op("Sum", {*sq, *axes}, {}, "loss");
    if (!loss)
        return nullptr;
    AdamOptimizer opt(0.05, 0.9, 0.999, 1e-8, useLocking);
    auto train = opt.minimize(b, loss->output(0));
    auto init = globalVariablesInitializer(b);
    if (!train || !init)
        return nullptr;
    model->train = train->name();
    model->init = init->name();
    model->variables = variableTensors(b.graphDef());
    return model;
}

std::unique_ptr<Session> session(const Model& m, bool remapping)
{
    return remapperSession(m.b.graphDef(), m.init, remapping);
}

Tensor idsTensor(const std::vector<std::int32_t>& ids)
{
    auto t = Tensor::fromVector<std::int32_t>(gradientTestAllocator(), TensorShape{kIds}, ids);
    if (!t)
        qFatal("ids");
    return *t;
}

/// Runs the train op once; with `trace`, returns the timeline labels of the nodes that ran.
std::vector<std::string> step(Session& s, const Model& m, const Tensor& ids, bool trace,
                              const std::vector<std::string>& fetches = {}, ExecutionObserver* observer = nullptr)
{
    tf::RunOptions options;
    if (trace)
        options.set_trace_level(tf::RunOptions::FULL_TRACE);
    tf::RunMetadata metadata;
    std::vector<Tensor> out;
    if (Status status = s.run(options, {{"ids:0", ids}}, fetches, {m.train}, &out, &metadata, observer);
        !status.isOk())
        qFatal("step: %s", status.toString().c_str());
    std::vector<std::string> labels;
    for (const auto& device : metadata.step_stats().dev_stats())
        for (const auto& node : device.node_stats())
            labels.push_back(node.timeline_label());
    return labels;
}

bool ranFused(const std::vector<std::string>& labels)
{
    return std::any_of(labels.begin(), labels.end(),
                       [](const std::string& l) { return l.find(" = _FusedSparseAdam(") != std::string::npos; });
}

/// Whether every variable holds the same bytes in both sessions; the first difference otherwise.
QString compareVariables(Session& a, Session& b, const Model& m)
{
    std::vector<Tensor> va, vb;
    if (!a.run({}, m.variables, {}, &va).isOk() || !b.run({}, m.variables, {}, &vb).isOk())
        return "fetching the variables failed";
    for (std::size_t i = 0; i < va.size(); ++i) {
        if (va[i].shape() != vb[i].shape() || va[i].dtype() != vb[i].dtype())
            return QString::fromStdString(m.variables[i]) + ": shape or dtype differs";
        const auto da = va[i].tensorData(), db = vb[i].tensorData();
        if (da.size() != db.size() || std::memcmp(da.data(), db.data(), da.size()) != 0)
            return QString::fromStdString(m.variables[i]) + ": values differ";
    }
    return {};
}


} // namespace

class TestSparseAdamFusion : public QObject {
    Q_OBJECT

private slots:
    void fusedUpdateEqualsOpByOp_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<bool>("useLocking");
        QTest::newRow("float") << int(tf::DT_FLOAT) << false;
        QTest::newRow("float, use_locking") << int(tf::DT_FLOAT) << true;
        QTest::newRow("double") << int(tf::DT_DOUBLE) << false;
    }

    void fusedUpdateEqualsOpByOp()
    {
        QFETCH(int, dtype);
        QFETCH(bool, useLocking);
        auto model = buildModel(static_cast<tf::DataType>(dtype), useLocking);
        QVERIFY(model);
        QCOMPARE(model->variables.size(), std::size_t{5}); // the table, m, v, beta1_power, beta2_power
        auto fused = session(*model, true);
        auto opByOp = session(*model, false);
        std::mt19937 rng(5);
        for (int i = 0; i < 6; ++i) {
            // Repeated ids (summed before the update), first and last rows, rows never named.
            std::vector<std::int32_t> ids(kIds);
            for (auto& id : ids)
                id = static_cast<std::int32_t>(rng() % 20);
            ids[0] = 0;
            ids[1] = kVocabulary - 1;
            ids[2] = ids[3];
            const Tensor t = idsTensor(ids);
            const auto fusedLabels = step(*fused, *model, t, i == 0);
            const auto plainLabels = step(*opByOp, *model, t, i == 0);
            if (i == 0) {
                QVERIFY2(ranFused(fusedLabels), "the default session runs the fused update");
                QVERIFY2(!ranFused(plainLabels), "remapping OFF runs the update op by op");
            }
            const QString difference = compareVariables(*fused, *opByOp, *model);
            QVERIFY2(difference.isEmpty(), qPrintable(QString("step %1: %2").arg(i).arg(difference)));
        }
    }

    void namedValuesInsideTheUpdateKeepItOpByOp()
    {
        auto model = buildModel(tf::DT_FLOAT, false);
        QVERIFY(model);
        std::string sqrt;
        for (const auto& node : model->b.graphDef().node())
            if (node.op() == "Sqrt" && node.name().starts_with("Adam/update_emb/"))
                sqrt = node.name();
        QVERIFY(!sqrt.empty());
        auto fused = session(*model, true);
        auto opByOp = session(*model, false);
        const Tensor ids = idsTensor({1, 2, 3, 4, 5, 6, 7, 8, 9});
        // Fetching the square root of v: that run's plan cannot drop the node.
        const auto labels = step(*fused, *model, ids, true, {sqrt + ":0"});
        QVERIFY(!ranFused(labels));
        step(*opByOp, *model, ids, false, {sqrt + ":0"});
        QVERIFY(compareVariables(*fused, *opByOp, *model).isEmpty());
        // An observed run (the debugger) sees every op of the update.
        OpTypeObserver observer;
        step(*fused, *model, ids, false, {}, &observer);
        step(*opByOp, *model, ids, false);
        QVERIFY(observer.ops.count("ScatterAdd") && observer.ops.count("AssignSub") && observer.ops.count("Sqrt"));
        QVERIFY(!observer.ops.count("_FusedSparseAdam"));
        QVERIFY(compareVariables(*fused, *opByOp, *model).isEmpty());
        // And the plain run after them is fused again.
        QVERIFY(ranFused(step(*fused, *model, ids, true)));
    }
};

QTEST_GUILESS_MAIN(TestSparseAdamFusion)
#include "test_sparse_adam_fusion.moc"
