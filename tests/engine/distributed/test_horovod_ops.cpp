// Horovod's ops on MPI (engine/distributed): run by CTest under `mpirun -np 2` (and once alone, a
// world of one). Each rank builds the same graph with rank-dependent constants and checks the
// collective's result against the sum / average / root's value computed here.
#include "autodiff/gradients.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/distributed_optimizer.h"
#include "distributed/mpi_context.h"
#include "training_test_support.h"

#include <QtTest>

#include <Eigen/Core>

using namespace tstudio;
using namespace tstudio::testing;
using tstudio::distributed::MpiContext;
namespace tf = tensorflow;

class TestHorovodOps : public QObject {
    Q_OBJECT

private:
    int m_rank = 0;
    int m_size = 1;

    /// Runs `fetches` of the graph in `b` on a session with `interOp` threads.
    Expected<std::vector<Tensor>> runGraph(const GraphBuilder& b, const std::vector<std::string>& fetches,
                                           int interOp = 1)
    {
        auto& r = TrainingRegistries::get();
        SessionOptions options;
        options.ops = &r.ops;
        options.kernels = &r.kernels;
        options.config.set_inter_op_parallelism_threads(interOp);
        Session session(options);
        if (Status s = session.create(b.graphDef()); !s.isOk())
            return tl::unexpected(s);
        std::vector<Tensor> out;
        if (Status s = session.run({}, fetches, {}, &out); !s.isOk())
            return tl::unexpected(s);
        return out;
    }

private slots:
    void initTestCase()
    {
        if (!distributed::mpiBuilt())
            QSKIP("this build has no MPI (openmpi-bin, libopenmpi-dev): Horovod's ops are not registered");
        // A request the other rank never makes fails after 10 s (stalledRequestFails), and a failed
        // check on one rank cannot hang the other for longer.
        auto settings = distributed::CollectiveSettings::fromEnvironment();
        settings.stallShutdownSeconds = 10.0;
        Status s = MpiContext::instance().initialize(settings);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(MpiContext::instance().initialize().isOk()); // again: no effect
        m_rank = MpiContext::instance().rank();
        m_size = MpiContext::instance().size();
        QVERIFY(m_size >= 1);
        QVERIFY(m_rank >= 0 && m_rank < m_size);
        qInfo("MPI rank %d of %d", m_rank, m_size);
    }

    void cleanupTestCase()
    {
        Status s = MpiContext::instance().finalize();
        QVERIFY2(s.isOk(), s.toString().c_str());
    }

    void opDefsAreHorovods()
    {
        auto& r = TrainingRegistries::get();
        auto allreduce = r.ops.lookUp("HorovodAllreduce");
        QVERIFY(allreduce);
        QCOMPARE((*allreduce)->opDef.input_arg(0).name(), std::string("tensor"));
        QCOMPARE((*allreduce)->opDef.output_arg(0).name(), std::string("sum"));
        QCOMPARE((*allreduce)->opDef.attr(0).name(), std::string("T"));
        QCOMPARE((*allreduce)->opDef.attr(0).allowed_values().list().type_size(), 5);
        QVERIFY(static_cast<bool>((*allreduce)->gradient));
        auto broadcast = r.ops.lookUp("HorovodBroadcast");
        QVERIFY(broadcast);
        QCOMPARE((*broadcast)->opDef.output_arg(0).name(), std::string("output"));
        bool hasRoot = false;
        for (const auto& a : (*broadcast)->opDef.attr())
            hasRoot = hasRoot || (a.name() == "root_rank" && a.type() == "int");
        QVERIFY(hasRoot);
    }

    void allreduceSumsEveryDtype_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("float") << int(tf::DT_FLOAT);
        QTest::newRow("double") << int(tf::DT_DOUBLE);
        QTest::newRow("int32") << int(tf::DT_INT32);
        QTest::newRow("int64") << int(tf::DT_INT64);
        QTest::newRow("half") << int(tf::DT_HALF);
    }

    void allreduceSumsEveryDtype()
    {
        QFETCH(int, dtype);
        GraphBuilder b(TrainingRegistries::get().ops);
        // rank r contributes (r + 1) * [1, 2, 3, 4, 5, 6].
        std::vector<double> mine;
        for (int i = 1; i <= 6; ++i)
            mine.push_back((m_rank + 1) * i);
        auto x = ops::constant(b, mine, {2, 3}, static_cast<DataType>(dtype), "x");
        QVERIFY(x);
        auto sum = b.op("HorovodAllreduce", {OpInput(*x)}, {}, "sum");
        QVERIFY2(sum, sum ? "" : sum.error().toString().c_str());
        QCOMPARE(sum->output(0).shape().toString(), std::string("[2,3]"));
        auto out = runGraph(b, {"sum:0"});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const double ranksTotal = m_size * (m_size + 1) / 2.0;
        std::vector<double> got;
        const Tensor& t = out->front();
        QCOMPARE(int(t.dtype()), dtype);
        for (std::int64_t i = 0; i < t.numElements(); ++i) {
            switch (t.dtype()) {
            case tf::DT_FLOAT: got.push_back(t.data<float>()[i]); break;
            case tf::DT_DOUBLE: got.push_back(t.data<double>()[i]); break;
            case tf::DT_INT32: got.push_back(t.data<std::int32_t>()[i]); break;
            case tf::DT_INT64: got.push_back(static_cast<double>(t.data<std::int64_t>()[i])); break;
            case tf::DT_HALF: got.push_back(static_cast<float>(t.data<Eigen::half>()[i])); break;
            default: QFAIL("unexpected dtype");
            }
        }
        QCOMPARE(got.size(), std::size_t{6});
        for (int i = 0; i < 6; ++i)
            QCOMPARE(got[static_cast<std::size_t>(i)], ranksTotal * (i + 1));
    }

    void allreduceAverages()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        auto x = ops::constant(b, {1.0 * m_rank, 10.0 + m_rank}, {2}, tf::DT_FLOAT, "g");
        QVERIFY(x);
        auto avg = distributed::allreduce(b, *x, m_size, true);
        QVERIFY2(avg, avg ? "" : avg.error().toString().c_str());
        QCOMPARE(avg->node(), std::string("div"));
        QVERIFY(b.operation("HorovodAllreduce_g_0"));
        auto out = runGraph(b, {avg->node() + ":0"});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const double meanRank = (m_size - 1) / 2.0;
        QCOMPARE(double(out->front().data<float>()[0]), meanRank);
        QCOMPARE(double(out->front().data<float>()[1]), 10.0 + meanRank);
    }

    void broadcastFromRoot_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("float") << int(tf::DT_FLOAT);
        QTest::newRow("int64") << int(tf::DT_INT64);
        QTest::newRow("uint8") << int(tf::DT_UINT8);
        QTest::newRow("bool") << int(tf::DT_BOOL);
    }

    void broadcastFromRoot()
    {
        QFETCH(int, dtype);
        const int root = m_size > 1 ? 1 : 0; // rank 1 when there is one
        GraphBuilder b(TrainingRegistries::get().ops);
        std::vector<double> mine;
        for (int i = 0; i < 5; ++i)
            mine.push_back(dtype == tf::DT_BOOL ? double((i + m_rank) % 2) : 10.0 * m_rank + i);
        auto x = ops::constant(b, mine, {5}, static_cast<DataType>(dtype), "x");
        QVERIFY(x);
        auto y = b.op("HorovodBroadcast", {OpInput(*x)}, {{"root_rank", attr::i(root)}}, "bcast");
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        auto out = runGraph(b, {"bcast:0"});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const Tensor& t = out->front();
        for (int i = 0; i < 5; ++i) {
            double expected = dtype == tf::DT_BOOL ? double((i + root) % 2) : 10.0 * root + i;
            double got = 0;
            switch (t.dtype()) {
            case tf::DT_FLOAT: got = t.data<float>()[i]; break;
            case tf::DT_INT64: got = static_cast<double>(t.data<std::int64_t>()[i]); break;
            case tf::DT_UINT8: got = t.data<std::uint8_t>()[i]; break;
            case tf::DT_BOOL: got = t.data<bool>()[i] ? 1 : 0; break;
            default: QFAIL("unexpected dtype");
            }
            QCOMPARE(got, expected);
        }
    }

    void broadcastRootOutOfRangeIsAnError()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        auto x = ops::constant(b, {1.0}, {1}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        QVERIFY(b.op("HorovodBroadcast", {OpInput(*x)}, {{"root_rank", attr::i(m_size)}}, "bad"));
        auto out = runGraph(b, {"bad:0"});
        QVERIFY(!out);
        QVERIFY2(out.error().message().find("root_rank") != std::string::npos, out.error().message().c_str());
    }

    /// Many independent allreduces on 4 inter-op threads reach the background thread in any order
    /// and are fused into buckets; each still gets its own sum.
    void manyAllreducesFused()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        std::vector<std::string> fetches;
        for (int k = 0; k < 12; ++k) {
            auto x = ops::constant(b, {double(k + m_rank), double(100 * k)}, {2}, tf::DT_FLOAT,
                                   "x" + std::to_string(k));
            QVERIFY(x);
            auto s = b.op("HorovodAllreduce", {OpInput(*x)}, {}, "sum" + std::to_string(k));
            QVERIFY(s);
            fetches.push_back("sum" + std::to_string(k) + ":0");
        }
        const auto before = MpiContext::instance().stats();
        auto out = runGraph(b, fetches, 4);
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const double ranksSum = m_size * (m_size - 1) / 2.0;
        for (int k = 0; k < 12; ++k) {
            QCOMPARE(double((*out)[static_cast<std::size_t>(k)].data<float>()[0]), m_size * k + ranksSum);
            QCOMPARE(double((*out)[static_cast<std::size_t>(k)].data<float>()[1]), double(m_size * 100 * k));
        }
        const auto after = MpiContext::instance().stats();
        QCOMPARE(after.tensorsReduced - before.tensorsReduced, std::int64_t{12});
        QVERIFY(after.fusedBatches - before.fusedBatches <= 12);
        qInfo("12 tensors in %lld MPI_Allreduce calls", static_cast<long long>(after.fusedBatches - before.fusedBatches));
    }

    /// Ranks that ask for one name with different shapes get an error on every rank, not a hang.
    void mismatchedShapesFailOnEveryRank()
    {
        if (m_size < 2)
            QSKIP("needs 2 ranks (run under mpirun -np 2)");
        GraphBuilder b(TrainingRegistries::get().ops);
        std::vector<double> values(static_cast<std::size_t>(2 + m_rank), 1.0);
        auto x = ops::constant(b, values, {2 + m_rank}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        QVERIFY(b.op("HorovodAllreduce", {OpInput(*x)}, {}, "mismatch"));
        auto out = runGraph(b, {"mismatch:0"});
        QVERIFY(!out);
        QVERIFY2(out.error().message().find("ranks disagree on 'mismatch'") != std::string::npos,
                 out.error().message().c_str());
    }

    /// A name only rank 1 asks for fails there with DeadlineExceeded naming rank 0 once the stall
    /// limit passes, instead of hanging; afterwards both ranks reduce normally again.
    void stalledRequestFails()
    {
        if (m_size < 2)
            QSKIP("needs 2 ranks (run under mpirun -np 2)");
        float value = 1.0f;
        if (m_rank == 1) {
            Status s = MpiContext::instance().allreduce("only_on_rank_1", tensorflow::DT_FLOAT, &value, 1);
            QCOMPARE(int(s.code()), int(StatusCode::kDeadlineExceeded));
            QVERIFY2(s.message().find("'only_on_rank_1' waited") != std::string::npos, s.message().c_str());
            QVERIFY2(s.message().find("rank(s) 0 ") != std::string::npos, s.message().c_str());
        }
        // Rank 0 waits outside the negotiation until rank 1 has its answer (a request of rank 0
        // made meanwhile could time out itself while rank 1 is still stalled).
        QVERIFY(MpiContext::instance().barrier().isOk());
        value = 2.0f;
        Status s = MpiContext::instance().allreduce("after_stall", tensorflow::DT_FLOAT, &value, 1);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(value, 2.0f * m_size);
    }

    /// HorovodAllreduce's gradient is itself an allreduce (Horovod's _allreduce_grad).
    void allreduceGradientIsAnAllreduce()
    {
        auto& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        auto x = ops::constant(b, {1.0, 2.0}, {2}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        auto y = b.op("HorovodAllreduce", {OpInput(*x)}, {}, "y");
        QVERIFY(y);
        auto grads = addSymbolicGradients(b, {y->output(0)}, {*x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QVERIFY(grads->front());
        auto gradOp = b.operation(grads->front()->node());
        QVERIFY(gradOp);
        QCOMPARE(gradOp->type(), std::string("HorovodAllreduce"));
        auto out = runGraph(b, {grads->front()->node() + ":0"});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE(double(out->front().data<float>()[0]), double(m_size));
    }
};

QTEST_GUILESS_MAIN(TestHorovodOps)
#include "test_horovod_ops.moc"
