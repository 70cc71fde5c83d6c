// A project trained data-parallel through trainProject (project/data_parallel.h), run by CTest
// alone (a world of one) and under `mpirun -np 2`. Each rank makes the same CSV data and a small
// MLP whose initial values depend on the rank; trained with batch B = 16 / N per rank (no shuffle,
// SGD), the ranks' mean loss must follow the one-process run with batch 16 from rank 0's initial
// values (rel 1e-5 at each of 200 steps); the variables must be bit-identical on every rank after
// the broadcast and after training; rank 0 alone writes checkpoints, rank 1 its event files under
// worker_1/.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "distributed/mpi_context.h"
#include "framework/allocator.h"
#include "io/formats/graph_def_io.h"
#include "io/atomic_file.h"
#include "io/checkpoint/checkpoint_state.h"
#include "model/meta_graph.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "project/run/training_setup.h"

#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

using namespace tstudio;
using namespace tstudio::project;
using tstudio::distributed::MpiContext;

namespace {

constexpr int kInputs = 4;
constexpr int kHidden = 8;
constexpr int kExamples = 96;
constexpr int kGlobalBatch = 16;
constexpr int kSteps = 200;
const std::vector<std::string> kVariables = {"w1", "b1", "w2", "b2"};

/// y = sin(x0) + 0.5 x1 x2 - 0.3 x3, x uniform in [-1, 1], written with 9 digits (exact floats).
std::string makeCsv()
{
    std::mt19937 random(1234);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::string text = "x0,x1,x2,x3,y\n";
    char field[32];
    for (int i = 0; i < kExamples; ++i) {
        float x[kInputs];
        for (float& v : x)
            v = u(random);
        const float y = std::sin(x[0]) + 0.5f * x[1] * x[2] - 0.3f * x[3];
        for (float v : x) {
            std::snprintf(field, sizeof field, "%.9g,", static_cast<double>(v));
            text += field;
        }
        std::snprintf(field, sizeof field, "%.9g\n", static_cast<double>(y));
        text += field;
    }
    return text;
}

std::vector<double> initialValues(int count, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<double> n(0.0, 0.5);
    std::vector<double> values;
    for (int i = 0; i < count; ++i)
        values.push_back(n(random));
    return values;
}

/// loss = mean((tanh(x w1 + b1) w2 + b2 - y)^2), x [?, 4], y [?]; initial values from `seed`.
Expected<std::string> mlpPbtxt(const OpRegistry& ops, unsigned seed)
{
    GraphBuilder g(ops);
    auto x = ops::placeholder(g, tensorflow::DT_FLOAT, TensorShape({-1, kInputs}), "x");
    auto y = ops::placeholder(g, tensorflow::DT_FLOAT, TensorShape({-1}), "y");
    auto w1 = getVariable(g, "w1", {kInputs, kHidden}, tensorflow::DT_FLOAT,
                          Initializer::constant(initialValues(kInputs * kHidden, seed)));
    auto b1 = getVariable(g, "b1", {kHidden}, tensorflow::DT_FLOAT,
                          Initializer::constant(initialValues(kHidden, seed + 100)));
    auto w2 = getVariable(g, "w2", {kHidden, 1}, tensorflow::DT_FLOAT,
                          Initializer::constant(initialValues(kHidden, seed + 200)));
    auto b2 = getVariable(g, "b2", {1}, tensorflow::DT_FLOAT, Initializer::constant(initialValues(1, seed + 300)));
    if (!x || !y || !w1 || !b1 || !w2 || !b2)
        return unexpected(internalError("MLP inputs or variables"));
    auto h = ops::matMul(g, *x, w1->value());
    auto hb = ops::add(g, *h, b1->value());
    auto act = ops::firstOutput(g.op("Tanh", {OpInput(*hb)}));
    auto o = ops::matMul(g, *act, w2->value());
    auto ob = ops::add(g, *o, b2->value());
    auto flatShape = ops::constantInts(g, {-1}, {1});
    auto flat = ops::reshape(g, *ob, *flatShape);
    auto diff = ops::sub(g, *flat, *y);
    auto sq = ops::square(g, *diff);
    auto axes = ops::constantInts(g, {0}, {1});
    auto mean = g.op("Mean", {*sq, *axes}, {}, "loss");
    if (!mean)
        return unexpected(mean.error());
    auto meta = exportMetaGraph(g);
    if (!meta)
        return unexpected(meta.error());
    return serializeGraphDef(meta->graph_def(), GraphDefFormat::kText);
}

/// The project: the MLP of `seed`, the CSV in order (shuffle_buffer 1), SGD 0.2, `batch` per rank.
nlohmann::json projectJson(const std::string& pbtxt, const std::string& dataDir, int batch)
{
    nlohmann::json columns = nlohmann::json::array();
    for (const char* c : {"x0", "x1", "x2", "x3", "y"})
        columns.push_back({{"name", c}, {"dtype", "float32"}});
    return {
        {"format", "tensorstudio-project"},
        {"version", 1},
        {"graph", {{"pbtxt", pbtxt}}},
        {"data",
         {{"dir", dataDir},
          {"sources",
           {{{"type", "csv"},
             {"files", {"data.csv"}},
             {"header", true},
             {"columns", columns},
             {"shuffle_buffer", 1},
             {"feeds", {{"x", {"x0", "x1", "x2", "x3"}}, {"y", {"y"}}}}}}}}},
        {"training",
         {{"loss", "loss"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", {{"learning_rate", 0.2}}}}}}},
        {"batch_size", batch},
        {"steps", kSteps},
        {"hooks", {{"checkpoint_every_steps", 100}, {"summary_every_steps", 50}, {"log_every_steps", 100}}}};
}

/// The variables' bytes, concatenated in kVariables' order.
std::vector<std::byte> variableBytes(Session& session)
{
    std::vector<std::string> fetches;
    for (const std::string& v : kVariables)
        fetches.push_back(v + "/read:0");
    std::vector<Tensor> out;
    if (Status s = session.run({}, fetches, {}, &out); !s.isOk())
        qFatal("reading the variables: %s", s.toString().c_str());
    std::vector<std::byte> bytes;
    for (const Tensor& t : out)
        bytes.insert(bytes.end(), t.tensorData().begin(), t.tensorData().end());
    return bytes;
}

bool hasEventFile(const std::filesystem::path& dir)
{
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind("events.out.tfevents.", 0) == 0)
            return true;
    return false;
}

bool hasCheckpointFiles(const std::filesystem::path& dir)
{
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name == "checkpoint" || name.rfind("model.ckpt-", 0) == 0)
            return true;
    }
    return false;
}

} // namespace

class TestDistributedProject : public QObject {
    Q_OBJECT

private:
    int m_rank = 0;
    int m_size = 1;
    std::unique_ptr<Registries> m_registries;

    /// Whether `mine` equals rank 0's bytes exactly, agreed by every rank (rank 0's bytes
    /// broadcast and compared, then the mismatches summed over the ranks).
    bool sameOnEveryRank(const std::vector<std::byte>& mine, const std::string& name)
    {
        std::vector<std::byte> root = mine;
        MpiContext& mpi = MpiContext::instance();
        if (Status s = mpi.broadcast(name + ".bytes", root.data(), root.size(), 0); !s.isOk())
            qFatal("%s", s.toString().c_str());
        std::int32_t differs = std::memcmp(root.data(), mine.data(), mine.size()) != 0 ? 1 : 0;
        if (Status s = mpi.allreduce(name + ".differs", tensorflow::DT_INT32, &differs, 1); !s.isOk())
            qFatal("%s", s.toString().c_str());
        return differs == 0;
    }

    /// The same path on every rank: rank 0's.
    std::string rankZeroPath(const std::string& mine, const std::string& name)
    {
        std::array<char, 1024> buffer{};
        std::memcpy(buffer.data(), mine.data(), std::min(mine.size(), buffer.size() - 1));
        if (Status s = MpiContext::instance().broadcast(name, buffer.data(), buffer.size(), 0); !s.isOk())
            qFatal("%s", s.toString().c_str());
        return buffer.data();
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
        QVERIFY2(kExamples % kGlobalBatch == 0, "whole global batches per epoch");
        auto r = makeDefaultRegistries();
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    void cleanupTestCase()
    {
        Status s = MpiContext::instance().finalize();
        QVERIFY2(s.isOk(), s.toString().c_str());
    }

    /// --scale-lr and distributed.scale_learning_rate multiply the rate by the ranks; every gradient
    /// gets its HorovodAllreduce and every global variable its HorovodBroadcast (graphs only: nothing
    /// runs, so no collective is asked for).
    void dataParallelGraph()
    {
        QTemporaryDir dir;
        const std::filesystem::path root(dir.path().toStdString());
        std::filesystem::create_directories(root / "data");
        QVERIFY(writeFileAtomically(root / "data" / "data.csv", makeCsv()).isOk());
        auto graph = mlpPbtxt(m_registries->ops, 1000u);
        QVERIFY(graph.has_value());
        auto rateOf = [&](const DataParallel& parallel, bool projectKey) -> float {
            nlohmann::json doc = projectJson(*graph, (root / "data").string(), 8);
            if (projectKey)
                doc["distributed"] = {{"scale_learning_rate", true}};
            if (!writeFileAtomically(root / "p.tsproj", doc.dump()).isOk())
                return -1;
            auto p = loadProject(root / "p.tsproj");
            if (!p)
                qFatal("%s", p.error().toString().c_str());
            if (projectKey && !p->distributed.scaleLearningRate)
                return -2;
            auto prepared = prepareTraining(*p, m_registries->ops, parallel);
            if (!prepared)
                qFatal("%s", prepared.error().toString().c_str());
            std::map<std::string, const tensorflow::NodeDef*> byName;
            int allreduces = 0;
            int broadcasts = 0;
            std::string apply;
            for (const tensorflow::NodeDef& n : prepared->graph.node()) {
                byName[n.name()] = &n;
                allreduces += n.op() == "HorovodAllreduce";
                broadcasts += n.op() == "HorovodBroadcast";
            }
            const int expected = parallel.size > 1 ? 4 : 0;
            if (allreduces != expected || (parallel.size > 1 && broadcasts < 5) || (parallel.size == 1 && broadcasts))
                qFatal("%d allreduces, %d broadcasts for %d ranks", allreduces, broadcasts, parallel.size);
            if (prepared->broadcastOp.empty() != (parallel.size == 1))
                qFatal("broadcastOp '%s' for %d ranks", prepared->broadcastOp.c_str(), parallel.size);
            for (const tensorflow::NodeDef& n : prepared->graph.node()) {
                if (n.op() != "ApplyGradientDescent")
                    continue;
                std::string input = n.input(1);
                for (int hop = 0; hop < 4; ++hop) {
                    const tensorflow::NodeDef* node = byName.at(input.substr(0, input.find(':')));
                    if (node->op() == "Const") {
                        CpuAllocator allocator;
                        auto value = Tensor::fromProto(allocator, node->attr().at("value").tensor());
                        return value ? value->data<float>()[0] : -3.0f;
                    }
                    input = node->input(0);
                }
            }
            return -4;
        };
        QCOMPARE(rateOf(DataParallel{0, 1, false}, false), 0.2f);
        QCOMPARE(rateOf(DataParallel{0, 1, true}, false), 0.2f); // one rank: nothing to scale
        QCOMPARE(rateOf(DataParallel{0, 2, false}, false), 0.2f);
        QCOMPARE(rateOf(DataParallel{1, 2, true}, false), 0.4f);
        QCOMPARE(rateOf(DataParallel{0, 4, false}, true), 0.8f);
    }

    /// The project's "distributed" section: read, written only when not the default, checked.
    void distributedProjectKey()
    {
        auto graph = mlpPbtxt(m_registries->ops, 1000u);
        QVERIFY(graph.has_value());
        nlohmann::json doc = projectJson(*graph, "data", 8);
        auto plain = parseProject(doc.dump(), "p.tsproj");
        QVERIFY2(plain, plain ? "" : plain.error().toString().c_str());
        QVERIFY(!plain->distributed.scaleLearningRate);
        QVERIFY(projectToJson(*plain).find("\"distributed\"") == std::string::npos);
        doc["distributed"] = {{"scale_learning_rate", true}};
        auto scaled = parseProject(doc.dump(), "p.tsproj");
        QVERIFY2(scaled, scaled ? "" : scaled.error().toString().c_str());
        QVERIFY(scaled->distributed.scaleLearningRate);
        auto again = parseProject(projectToJson(*scaled), "p.tsproj");
        QVERIFY2(again, again ? "" : again.error().toString().c_str());
        QVERIFY(again->distributed.scaleLearningRate);
        doc["distributed"] = {{"scale_lr", true}};
        auto unknown = parseProject(doc.dump(), "p.tsproj");
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().message(),
                 std::string("p.tsproj: distributed.scale_lr: unknown key (expected one of scale_learning_rate, replication, ps_tasks)"));
    }

    /// The curve, the broadcast and the files of each rank (see the file's comment).
    void ranksFollowTheOneProcessCurve()
    {
        QTemporaryDir local;
        QVERIFY(local.isValid());
        const std::filesystem::path mine(local.path().toStdString());
        // Rank 0's directory holds the shared log directory (the ranks run on one machine here).
        const std::filesystem::path shared(rankZeroPath(mine.string(), "test.shared_dir"));
        std::filesystem::create_directories(mine / "data");
        QVERIFY(writeFileAtomically(mine / "data" / "data.csv", makeCsv()).isOk());
        auto ownGraph = mlpPbtxt(m_registries->ops, 1000u + static_cast<unsigned>(m_rank));
        auto rootGraph = mlpPbtxt(m_registries->ops, 1000u);
        QVERIFY2(ownGraph && rootGraph, "building the MLP");

        // The data-parallel run: batch B per rank, the rank's own initial values.
        const int batch = kGlobalBatch / m_size;
        QVERIFY(writeFileAtomically(mine / "parallel.tsproj",
                                    projectJson(*ownGraph, (mine / "data").string(), batch).dump())
                    .isOk());
        auto parallelProject = loadProject(mine / "parallel.tsproj");
        QVERIFY2(parallelProject, parallelProject ? "" : parallelProject.error().toString().c_str());
        std::vector<double> losses(kSteps, std::nan(""));
        std::vector<std::byte> afterBroadcast;
        std::vector<std::byte> afterTraining;
        TrainRunOptions options;
        options.logdir = shared / "run";
        options.dataParallel = DataParallel{m_rank, m_size, false};
        options.progressEverySteps = 1;
        options.onProgress = [&](const TrainProgress& p) {
            if (p.step >= 1 && p.step <= kSteps && p.loss)
                losses[static_cast<std::size_t>(p.step - 1)] = *p.loss;
        };
        options.onSessionVariables = [&](Session& session, bool finished) {
            (finished ? afterTraining : afterBroadcast) = variableBytes(session);
        };
        auto result = trainProject(*parallelProject, *m_registries, options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QCOMPARE(result->firstStep, std::int64_t(0));
        QCOMPARE(result->lastStep, std::int64_t(kSteps));
        QVERIFY(!afterBroadcast.empty() && !afterTraining.empty());

        // Bit-identical variables on every rank after the broadcast and after training.
        QVERIFY2(sameOnEveryRank(afterBroadcast, "test.after_broadcast"), "variables differ after the broadcast");
        QVERIFY2(sameOnEveryRank(afterTraining, "test.after_training"), "variables differ after training");

        // The ranks' mean loss at each step.
        std::vector<double> mean = losses;
        QVERIFY(MpiContext::instance().allreduce("test.losses", tensorflow::DT_DOUBLE, mean.data(), kSteps).isOk());
        for (double& v : mean)
            v /= m_size;

        // One process, batch 16, rank 0's initial values.
        QVERIFY(writeFileAtomically(mine / "single.tsproj",
                                    projectJson(*rootGraph, (mine / "data").string(), kGlobalBatch).dump())
                    .isOk());
        auto singleProject = loadProject(mine / "single.tsproj");
        QVERIFY2(singleProject, singleProject ? "" : singleProject.error().toString().c_str());
        std::vector<double> reference(kSteps, std::nan(""));
        std::vector<std::byte> referenceStart;
        TrainRunOptions single;
        single.logdir = mine / "single";
        single.progressEverySteps = 1;
        single.onProgress = [&](const TrainProgress& p) {
            if (p.step >= 1 && p.step <= kSteps && p.loss)
                reference[static_cast<std::size_t>(p.step - 1)] = *p.loss;
        };
        single.onSessionVariables = [&](Session& session, bool finished) {
            if (!finished)
                referenceStart = variableBytes(session);
        };
        auto singleResult = trainProject(*singleProject, *m_registries, single);
        QVERIFY2(singleResult, singleResult ? "" : singleResult.error().toString().c_str());
        // The broadcast gave every rank rank 0's initial values.
        QVERIFY(afterBroadcast == referenceStart);
        double worst = 0;
        for (int step = 0; step < kSteps; ++step) {
            const double rel = std::abs(mean[step] - reference[step]) / std::max(std::abs(reference[step]), 1e-12);
            worst = std::max(worst, rel);
            if (!(rel <= 1e-5))
                QFAIL(qPrintable(QStringLiteral("step %1: the ranks' mean loss %2, one process %3 (rel %4)")
                                     .arg(step + 1)
                                     .arg(mean[step], 0, 'g', 10)
                                     .arg(reference[step], 0, 'g', 10)
                                     .arg(rel)));
        }
        qInfo("rank %d of %d: batch %d per rank, %d steps, worst relative loss difference %.3g (first %.6f, last %.6f)",
              m_rank, m_size, batch, kSteps, worst, reference.front(), reference.back());
        QVERIFY2(reference.back() < reference.front() * 0.5, "the MLP learns");

        // Rank 0 alone writes checkpoints; rank r > 0 its event files under worker_r/.
        QVERIFY(MpiContext::instance().barrier().isOk());
        const std::filesystem::path logdir = shared / "run";
        if (m_rank == 0) {
            QVERIFY(latestCheckpoint(logdir).has_value());
            QCOMPARE(latestCheckpoint(logdir)->filename().string(), std::string("model.ckpt-200"));
            QVERIFY(hasEventFile(logdir));
            QVERIFY(!result->lastCheckpoint.empty());
        } else {
            const std::filesystem::path worker = logdir / ("worker_" + std::to_string(m_rank));
            QVERIFY2(hasEventFile(worker), worker.c_str());
            QVERIFY(!hasCheckpointFiles(worker));
            QVERIFY(result->lastCheckpoint.empty());
        }
        if (m_size == 1)
            QVERIFY(!std::filesystem::exists(logdir / "worker_1"));
        // Keep rank 0's directory until every rank is done with it.
        QVERIFY(MpiContext::instance().barrier().isOk());
    }
};

QTEST_GUILESS_MAIN(TestDistributedProject)
#include "test_distributed_project.moc"
