// Data-parallel training (engine/distributed): run by CTest under `mpirun -np 2` (and alone). Each
// rank starts a small MLP from its own random initial values, broadcasts rank 0's
// (broadcastGlobalVariables), then trains 200 steps with DistributedOptimizer on its shard of each
// global batch (every size-th row, offset rank). The same process also trains the MLP alone on the
// whole global batch from rank 0's initial values: the averaged loss of the ranks must follow that
// curve (rel 1e-5 at each step), and every variable must be bit-identical on every rank after the
// broadcast and after training (rank 0's bytes broadcast and compared with memcmp).
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/distributed_optimizer.h"
#include "distributed/mpi_context.h"
#include "training/gradient_descent.h"
#include "training/momentum.h"
#include "training_test_support.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace tstudio;
using namespace tstudio::testing;
using tstudio::distributed::MpiContext;
namespace tf = tensorflow;

namespace {

constexpr int kInputs = 4;
constexpr int kHidden = 8;
constexpr int kExamples = 96;
constexpr int kGlobalBatch = 16;
constexpr int kSteps = 200;

/// The data set the test makes: y = sin(x0) + 0.5 x1 x2 - 0.3 x3, x uniform in [-1, 1].
struct DataSet {
    std::vector<float> x; ///< kExamples x kInputs
    std::vector<float> y; ///< kExamples
};

DataSet makeData()
{
    DataSet d;
    std::mt19937 random(1234);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < kExamples; ++i) {
        float row[kInputs];
        for (float& v : row)
            v = u(random);
        d.x.insert(d.x.end(), row, row + kInputs);
        d.y.push_back(std::sin(row[0]) + 0.5f * row[1] * row[2] - 0.3f * row[3]);
    }
    return d;
}

/// Initial values drawn from `seed` (each rank its own, so the broadcast has work to do).
std::vector<double> initialValues(int count, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<double> n(0.0, 0.5);
    std::vector<double> values;
    for (int i = 0; i < count; ++i)
        values.push_back(n(random));
    return values;
}

struct Mlp {
    std::vector<Variable> vars;
    Output loss;
    std::string trainOp;
    std::string broadcastOp;
    std::string globalLoss; ///< the loss averaged over the ranks (distributed), else the loss
};

enum class Optim { kSgd, kMomentum };

/// loss = mean((dense(tanh(dense(x))) - y)^2) on placeholders "x" [?, 4] and "y" [?, 1].
Expected<Mlp> buildMlp(GraphBuilder& g, unsigned seed, int size, bool distributedRun, Optim optim,
                       std::unique_ptr<training::Optimizer>& inner)
{
    auto x = ops::placeholder(g, tf::DT_FLOAT, TensorShape({-1, kInputs}), "x");
    auto y = ops::placeholder(g, tf::DT_FLOAT, TensorShape({-1, 1}), "y");
    auto w1 = getVariable(g, "w1", {kInputs, kHidden}, tf::DT_FLOAT,
                          Initializer::constant(initialValues(kInputs * kHidden, seed)));
    auto b1 = getVariable(g, "b1", {kHidden}, tf::DT_FLOAT, Initializer::constant(initialValues(kHidden, seed + 100)));
    auto w2 = getVariable(g, "w2", {kHidden, 1}, tf::DT_FLOAT, Initializer::constant(initialValues(kHidden, seed + 200)));
    auto b2 = getVariable(g, "b2", {1}, tf::DT_FLOAT, Initializer::constant(initialValues(1, seed + 300)));
    if (!x || !y || !w1 || !b1 || !w2 || !b2)
        return tl::unexpected(internalError("MLP inputs or variables"));
    auto h = ops::matMul(g, *x, w1->value());
    if (!h)
        return tl::unexpected(h.error());
    auto hb = ops::add(g, *h, b1->value());
    auto act = ops::firstOutput(g.op("Tanh", {OpInput(*hb)}));
    if (!hb || !act)
        return tl::unexpected(internalError("hidden layer"));
    auto o = ops::matMul(g, *act, w2->value());
    auto ob = ops::add(g, *o, b2->value());
    auto diff = ops::sub(g, *ob, *y);
    auto sq = ops::square(g, *diff);
    auto axes = ops::constantInts(g, {0, 1}, {2});
    auto mean = g.op("Mean", {*sq, *axes}, {}, "loss");
    if (!mean)
        return tl::unexpected(mean.error());
    Mlp m;
    m.vars = {*w1, *b1, *w2, *b2};
    m.loss = mean->output(0);
    m.globalLoss = "loss:0";
    if (optim == Optim::kSgd)
        inner = std::make_unique<training::GradientDescentOptimizer>(0.2);
    else
        inner = std::make_unique<training::MomentumOptimizer>(0.05, 0.9);
    if (distributedRun) {
        distributed::DistributedOptimizer opt(*inner, size);
        auto train = opt.minimize(g, m.loss);
        if (!train)
            return tl::unexpected(train.error());
        m.trainOp = train->name();
        auto bcast = distributed::broadcastGlobalVariables(g, 0);
        if (!bcast)
            return tl::unexpected(bcast.error());
        m.broadcastOp = bcast->name();
        auto avgLoss = distributed::allreduce(g, m.loss, size, true);
        if (!avgLoss)
            return tl::unexpected(avgLoss.error());
        m.globalLoss = avgLoss->node() + ":0";
    } else {
        auto train = inner->minimize(g, m.loss);
        if (!train)
            return tl::unexpected(train.error());
        m.trainOp = train->name();
    }
    if (auto init = globalVariablesInitializer(g); !init)
        return tl::unexpected(init.error());
    return m;
}

/// Rows `first`, `first + stride`, ... of the global batch of step `step`.
std::pair<std::vector<float>, std::vector<float>> batch(const DataSet& d, int step, int first, int stride)
{
    std::vector<float> x;
    std::vector<float> y;
    for (int i = first; i < kGlobalBatch; i += stride) {
        const int row = (step * kGlobalBatch + i) % kExamples;
        x.insert(x.end(), d.x.begin() + row * kInputs, d.x.begin() + (row + 1) * kInputs);
        y.push_back(d.y[static_cast<std::size_t>(row)]);
    }
    return {x, y};
}

} // namespace

class TestDistributedTraining : public QObject {
    Q_OBJECT

private:
    int m_rank = 0;
    int m_size = 1;

    /// The variables' bytes, concatenated.
    static Expected<std::vector<std::byte>> variableBytes(Session& session, const std::vector<Variable>& vars)
    {
        std::vector<std::string> fetches;
        for (const Variable& v : vars)
            fetches.push_back(v.value().node() + ":0");
        std::vector<Tensor> out;
        if (Status s = session.run({}, fetches, {}, &out); !s.isOk())
            return tl::unexpected(s);
        std::vector<std::byte> bytes;
        for (const Tensor& t : out)
            bytes.insert(bytes.end(), t.tensorData().begin(), t.tensorData().end());
        return bytes;
    }

    /// Whether `mine` equals rank 0's bytes exactly (rank 0's broadcast to every rank).
    bool sameAsRankZero(const std::vector<std::byte>& mine, const std::string& name)
    {
        std::vector<std::byte> root = mine;
        Status s = MpiContext::instance().broadcast(name, root.data(), root.size(), 0);
        if (!s.isOk()) {
            qWarning("%s", s.toString().c_str());
            return false;
        }
        return std::memcmp(root.data(), mine.data(), mine.size()) == 0;
    }

private slots:
    void initTestCase()
    {
        if (!distributed::mpiBuilt())
            QSKIP("this build has no MPI (openmpi-bin, libopenmpi-dev): no data-parallel training");
        Status s = MpiContext::instance().initialize();
        QVERIFY2(s.isOk(), s.toString().c_str());
        m_rank = MpiContext::instance().rank();
        m_size = MpiContext::instance().size();
        QVERIFY2(kGlobalBatch % m_size == 0, "the global batch must split evenly over the ranks");
        qInfo("MPI rank %d of %d: per-rank batch %d x %d ranks = global batch %d", m_rank, m_size,
              kGlobalBatch / m_size, m_size, kGlobalBatch);
    }

    void cleanupTestCase()
    {
        Status s = MpiContext::instance().finalize();
        QVERIFY2(s.isOk(), s.toString().c_str());
    }

    void ranksFollowOneProcess_data()
    {
        QTest::addColumn<int>("optim");
        QTest::addColumn<int>("interOp");
        QTest::newRow("sgd") << int(Optim::kSgd) << 1;
        QTest::newRow("momentum") << int(Optim::kMomentum) << 1;
        // Gradients reach the background thread while the backward pass goes on, and are fused.
        QTest::newRow("momentum, 4 inter-op threads") << int(Optim::kMomentum) << 4;
    }

    void ranksFollowOneProcess()
    {
        QFETCH(int, optim);
        QFETCH(int, interOp);
        auto& r = TrainingRegistries::get();
        const DataSet data = makeData();
        CpuAllocator& allocator = gradientTestAllocator();

        // The reference: one process, the whole global batch, rank 0's initial values.
        GraphBuilder single(r.ops);
        std::unique_ptr<training::Optimizer> singleInner;
        auto ref = buildMlp(single, 1, 1, false, static_cast<Optim>(optim), singleInner);
        QVERIFY2(ref, ref ? "" : ref.error().toString().c_str());
        auto refSession = r.session(single);
        QVERIFY(runTargets(*refSession, {"init"}));
        std::vector<double> refLoss;
        for (int step = 0; step < kSteps; ++step) {
            auto [x, y] = batch(data, step, 0, 1);
            auto xt = Tensor::fromVector<float>(allocator, {kGlobalBatch, kInputs}, x);
            auto yt = Tensor::fromVector<float>(allocator, {kGlobalBatch, 1}, y);
            QVERIFY(xt && yt);
            std::vector<Tensor> out;
            Status s = refSession->run({{"x:0", *xt}, {"y:0", *yt}}, {"loss:0"}, {ref->trainOp}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            refLoss.push_back(out.front().data<float>()[0]);
        }
        QVERIFY2(refLoss.back() < 0.5 * refLoss.front(), "the reference MLP does not learn");

        // Data-parallel: this rank's own initial values, then rank 0's through the broadcast.
        GraphBuilder dist(r.ops);
        std::unique_ptr<training::Optimizer> distInner;
        auto mlp = buildMlp(dist, 1 + static_cast<unsigned>(m_rank) * 7919, m_size, true, static_cast<Optim>(optim),
                            distInner);
        QVERIFY2(mlp, mlp ? "" : mlp.error().toString().c_str());
        if (m_size > 1) {
            // One allreduce per gradient, under "Distributed<optimizer>_Allreduce/", and the loss's.
            int gradientAllreduces = 0;
            int allreduces = 0;
            for (const auto& node : dist.graphDef().node()) {
                if (node.op() != "HorovodAllreduce")
                    continue;
                ++allreduces;
                if (node.name().rfind("Distributed", 0) == 0 && node.name().find("_Allreduce/HorovodAllreduce_") != std::string::npos)
                    ++gradientAllreduces;
            }
            QCOMPARE(gradientAllreduces, 4);
            QCOMPARE(allreduces, 5);
        }
        SessionOptions options;
        options.ops = &r.ops;
        options.kernels = &r.kernels;
        options.config.set_inter_op_parallelism_threads(interOp);
        auto session = std::make_unique<Session>(options);
        QVERIFY(session->create(dist.graphDef()).isOk());
        QVERIFY(runTargets(*session, {"init"}));
        const auto statsBefore = MpiContext::instance().stats();
        auto before = variableBytes(*session, mlp->vars);
        QVERIFY(before);
        const bool sameBefore = sameAsRankZero(*before, "check/initial/" + std::to_string(optim) + "/" + std::to_string(interOp));
        if (m_rank != 0)
            QVERIFY2(!sameBefore, "the ranks' own initial values should differ before the broadcast");
        QVERIFY(runTargets(*session, {mlp->broadcastOp}));
        auto after = variableBytes(*session, mlp->vars);
        QVERIFY(after);
        QVERIFY2(sameAsRankZero(*after, "check/broadcast/" + std::to_string(optim) + "/" + std::to_string(interOp)),
                 "variables differ between ranks after broadcastGlobalVariables");
        const int perRank = kGlobalBatch / m_size;
        double worst = 0.0;
        for (int step = 0; step < kSteps; ++step) {
            auto [x, y] = batch(data, step, m_rank, m_size); // this rank's shard: every size-th row
            auto xt = Tensor::fromVector<float>(allocator, {perRank, kInputs}, x);
            auto yt = Tensor::fromVector<float>(allocator, {perRank, 1}, y);
            QVERIFY(xt && yt);
            std::vector<Tensor> out;
            Status s = session->run({{"x:0", *xt}, {"y:0", *yt}}, {mlp->globalLoss}, {mlp->trainOp}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            const double loss = out.front().data<float>()[0];
            const double expected = refLoss[static_cast<std::size_t>(step)];
            const double rel = std::abs(loss - expected) / std::abs(expected);
            worst = std::max(worst, rel);
            if (!(rel <= 1e-5))
                QFAIL(qPrintable(QString("step %1: loss %2 of %3 ranks, %4 in one process (rel %5)")
                                     .arg(step)
                                     .arg(loss, 0, 'g', 9)
                                     .arg(m_size)
                                     .arg(expected, 0, 'g', 9)
                                     .arg(rel)));
        }
        qInfo("rank %d: %d steps, loss %.6g -> %.6g, worst relative difference to one process %.3g", m_rank, kSteps,
              refLoss.front(), refLoss.back(), worst);
        const auto statsAfter = MpiContext::instance().stats();
        qInfo("rank %d, %d inter-op thread(s): %lld tensors allreduced in %lld MPI_Allreduce calls", m_rank, interOp,
              static_cast<long long>(statsAfter.tensorsReduced - statsBefore.tensorsReduced),
              static_cast<long long>(statsAfter.fusedBatches - statsBefore.fusedBatches));
        auto trained = variableBytes(*session, mlp->vars);
        QVERIFY(trained);
        QVERIFY2(sameAsRankZero(*trained, "check/trained/" + std::to_string(optim) + "/" + std::to_string(interOp)),
                 "variables differ between ranks after training");
    }
};

QTEST_GUILESS_MAIN(TestDistributedTraining)
#include "test_distributed_training.moc"
