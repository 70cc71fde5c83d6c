// Asynchronous parameter servers (project/run/parameter_server.h): the project settings and their
// errors, where the variables go (a graph's /job:ps devices, slots with their variable, round-robin),
// the graphs async replication refuses, and, run by CTest under `mpirun -np 3` (1 ps task, 2 workers),
// the spirals example trained so: every push applied once (the pushes of both workers add up to the
// servers' updates and to the global step), pushes applied stale as the workers do not wait for each
// other, the workers' "staleness" events, and a model that classifies the spirals; then point-to-point
// messages once the collectives' thread is stopped.
#include "builder/graph_builder.h"
#include "distributed/mpi_context.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/events/log_directory.h"
#include "project/format/project_file.h"
#include "project/run/parameter_server.h"
#include "project/run/project_runner.h"
#include "project/run/training_setup.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace tstudio;
using namespace tstudio::project;
using tstudio::distributed::MpiContext;

namespace {

std::filesystem::path spirals()
{
    return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "spirals.tsproj";
}

/// The spirals project's JSON with `distributed` set.
nlohmann::json spiralsWith(const nlohmann::json& distributed)
{
    std::ifstream in(spirals());
    nlohmann::json doc = nlohmann::json::parse(in);
    doc["graph"]["file"] = (spirals().parent_path() / doc["graph"]["file"].get<std::string>()).string();
    doc["distributed"] = distributed;
    return doc;
}

/// The spirals project in `dir`, its graph with variable `variable` on `device` (as
/// replica_device_setter places it).
Expected<Project> spiralsPlacing(const std::filesystem::path& dir, const std::string& variable,
                                 const std::string& device)
{
    std::ifstream in(spirals().parent_path() / "spirals_forward.pbtxt");
    std::string graph((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string node = "name: \"" + variable + "\"\n  op: \"VariableV2\"\n";
    const auto at = graph.find(node);
    if (at == std::string::npos)
        return unexpected(notFoundError(variable));
    graph.insert(at + node.size(), "  device: \"" + device + "\"\n");
    std::ofstream(dir / "g.pbtxt") << graph;
    nlohmann::json doc = spiralsWith({{"replication", "async"}, {"ps_tasks", 2}});
    doc["graph"]["file"] = (dir / "g.pbtxt").string();
    return parseProject(doc.dump(), (dir / "p.tsproj").string());
}

} // namespace

class TestAsyncParameterServers : public QObject {
    Q_OBJECT
    bool m_mpi = false;

private slots:
    void initTestCase()
    {
        if (distributed::mpiBuilt()) {
            Status s = MpiContext::instance().initialize();
            QVERIFY2(s.isOk(), s.toString().c_str());
            m_mpi = true;
        }
    }

    void cleanupTestCase()
    {
        if (m_mpi)
            QVERIFY(MpiContext::instance().finalize().isOk());
    }

    void settingsRoundTripAndErrors()
    {
        auto p = parseProject(spiralsWith({{"replication", "async"}, {"ps_tasks", 2}}).dump(), "s.tsproj");
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QVERIFY(p->distributed.asynchronous);
        QCOMPARE(p->distributed.psTasks, std::int64_t{2});
        auto again = parseProject(projectToJson(*p), "s.tsproj");
        QVERIFY(again);
        QCOMPARE(again->distributed, p->distributed);
        // The default is Horovod's synchronous replication, and it is not written.
        auto sync = parseProject(spiralsWith({{"replication", "sync"}}).dump(), "s.tsproj");
        QVERIFY(sync);
        QVERIFY(!sync->distributed.asynchronous);
        QVERIFY(projectToJson(*sync).find("\"distributed\"") == std::string::npos);

        auto bad = parseProject(spiralsWith({{"replication", "eventually"}}).dump(), "s.tsproj");
        QVERIFY(!bad);
        QVERIFY2(bad.error().message().find("distributed.replication") != std::string::npos &&
                     bad.error().message().find("'eventually'") != std::string::npos,
                 bad.error().message().c_str());
        auto psWithoutAsync = parseProject(spiralsWith({{"ps_tasks", 2}}).dump(), "s.tsproj");
        QVERIFY(!psWithoutAsync);
        QVERIFY2(psWithoutAsync.error().message().find("distributed.ps_tasks") != std::string::npos,
                 psWithoutAsync.error().message().c_str());
        auto zero = parseProject(spiralsWith({{"replication", "async"}, {"ps_tasks", 0}}).dump(), "s.tsproj");
        QVERIFY(!zero);
    }

    void layoutsAndTheirErrors()
    {
        const AsyncLayout three{2, 3, 1};
        QVERIFY(three.check().isOk());
        QCOMPARE(three.workers(), 2);
        QVERIFY(three.isPs());
        QCOMPARE(three.describe(), std::string("rank 2 of 3: ps task 0 of 1 (2 workers)"));
        QCOMPARE((AsyncLayout{0, 3, 1}.describe()), std::string("rank 0 of 3: worker 0 of 2 (the chief), 1 ps task"));
        QCOMPARE((AsyncLayout{1, 4, 2}.psRank(1)), 3);
        const Status alone = AsyncLayout{0, 1, 1}.check();
        QVERIFY(!alone.isOk());
        QCOMPARE(alone.message(), std::string("distributed.ps_tasks: 1 parameter server of 1 rank leaves no worker; "
                                              "start at least 2 ranks (mpirun -np 2)"));
        QVERIFY(!(AsyncLayout{0, 3, 3}.check().isOk()));
    }

    /// Variables with a /job:ps device stay on their task, Adam's slots follow their variable (by
    /// colocation), the rest go round-robin; the assigns write a value into the variable.
    void placementFollowsTheGraph()
    {
        QTemporaryDir dir;
        auto p = spiralsPlacing(dir.path().toStdString(), "dense_1/kernel", "/job:ps/task:1");
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        auto prepared = prepareTraining(*p, testing::sharedRegistries().ops, DataParallel{0, 2, false, true});
        QVERIFY2(prepared, prepared ? "" : prepared.error().toString().c_str());
        QVERIFY(prepared->broadcastOp.empty()); // async: no Horovod broadcast, no allreduce
        for (const tensorflow::NodeDef& n : prepared->builder->graphDef().node())
            QVERIFY2(n.op().rfind("Horovod", 0) != 0, n.name().c_str());
        // 3 dense layers: kernel and bias gradients.
        QCOMPARE(prepared->gradientTensors.size(), std::size_t{6});

        auto placement = ParameterPlacement::build(*prepared->builder, *prepared, 2);
        QVERIFY2(placement, placement ? "" : placement.error().toString().c_str());
        std::map<std::string, int> task;
        for (const auto& e : placement->entries)
            task[e.variable] = e.task;
        QCOMPARE(task.at("dense_1/kernel"), 1);
        QCOMPARE(task.at("dense_1/kernel/Adam"), 1);
        QCOMPARE(task.at("dense_1/kernel/Adam_1"), 1);
        QCOMPARE(task.at("dense/kernel/Adam"), task.at("dense/kernel"));
        QCOMPARE(task.at("dense_2/bias/Adam_1"), task.at("dense_2/bias"));
        QCOMPARE(placement->globalStep, std::string("global_step"));
        int onZero = 0;
        for (const auto& [name, t] : task)
            onZero += t == 0;
        QVERIFY2(onZero > 0 && onZero < static_cast<int>(task.size()), "round-robin uses both tasks");
        const auto lines = placement->mappingLines(AsyncLayout{0, 4, 2});
        QCOMPARE(lines.size(), std::size_t{2});
        QVERIFY2(lines[1].rfind("job:ps/task:1 -> rank 3: ", 0) == 0 &&
                     lines[1].find("dense_1/kernel") != std::string::npos,
                 lines[1].c_str());

        // A device naming a task the project does not have.
        auto wrongProject = spiralsPlacing(dir.path().toStdString(), "dense/bias", "/job:ps/task:3");
        QVERIFY(wrongProject);
        auto again = prepareTraining(*wrongProject, testing::sharedRegistries().ops, DataParallel{0, 2, false, true});
        QVERIFY(again);
        auto wrong = ParameterPlacement::build(*again->builder, *again, 2);
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().message(), std::string("distributed.ps_tasks: variable 'dense/bias' is placed on "
                                                      "/job:ps/task:3, but the project has 2 ps tasks"));
    }

    /// The graphs a parameter server cannot update: the graph's own train op (no gradients to push).
    void refusedGraphs()
    {
        auto p = loadProject(spirals());
        QVERIFY(p);
        Project own = *p;
        own.training.optimizer.reset();
        own.training.trainOp = "train";
        auto refused = prepareTraining(own, testing::sharedRegistries().ops, DataParallel{0, 2, false, true});
        QVERIFY(!refused);
        QVERIFY2(refused.error().message().find("\"async\" needs training.optimizer") != std::string::npos,
                 refused.error().message().c_str());
        Project towers = *p;
        towers.replicas = 2;
        auto refusedTowers = prepareTraining(towers, testing::sharedRegistries().ops, DataParallel{0, 2, false, true});
        QVERIFY(!refusedTowers);
        QVERIFY2(refusedTowers.error().message().find("replicas 2") != std::string::npos,
                 refusedTowers.error().message().c_str());
    }

    /// Under `mpirun -np 3`: 2 workers and 1 parameter server train the spirals example.
    void twoWorkersOneParameterServerTrainSpirals()
    {
        if (!m_mpi || MpiContext::instance().size() != 3)
            QSKIP("needs 3 ranks (run under mpirun -np 3): 1 parameter server and 2 workers");
        MpiContext& mpi = MpiContext::instance();
        const int rank = mpi.rank();
        QTemporaryDir mine;
        std::array<char, 1024> path{};
        const std::string own = mine.path().toStdString();
        std::memcpy(path.data(), own.data(), std::min(own.size(), path.size() - 1));
        QVERIFY(mpi.broadcast("async.logdir", path.data(), path.size(), 0).isOk());
        const std::string logdir = path.data();

        constexpr std::int64_t kSteps = 1500;
        auto p = loadProject(spirals(), {Override{"distributed", R"({"replication": "async"})"},
                                         Override{"steps", std::to_string(kSteps)}});
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        TrainRunOptions options;
        options.logdir = logdir;
        options.threads = 1;
        options.dataParallel = DataParallel{rank, 3};
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());

        // Every push is applied once: the workers' pushes add up to the server's updates, which are the
        // global step's increments.
        std::array<std::int64_t, 3> counts{result->parameterServer ? 0 : result->asyncUpdates,
                                           result->parameterServer ? result->asyncUpdates : 0,
                                           result->parameterServer ? result->lastStep : 0};
        QVERIFY(mpi.allreduce("async.counts", tensorflow::DT_INT64, counts.data(), 3).isOk());
        std::int64_t maxStaleness = result->maxStaleness;
        QVERIFY(mpi.allreduce("async.staleness", tensorflow::DT_INT64, &maxStaleness, 1).isOk());
        QCOMPARE(result->parameterServer, rank == 2);
        QCOMPARE(counts[0], counts[1]);
        QCOMPARE(counts[1], counts[2]);
        // The workers stop at the step limit; two workers may both push the last step (TensorFlow's
        // asynchronous workers overshoot the same way).
        QVERIFY2(counts[2] >= kSteps && counts[2] <= kSteps + 1, std::to_string(counts[2]).c_str());
        // The workers do not wait for each other: some pushes are applied after the other's.
        QVERIFY2(maxStaleness >= 1, std::to_string(maxStaleness).c_str());

        // This rank's own checks, said after the barrier: a rank that stopped early would leave the
        // others waiting in it.
        const std::string problem = [&]() -> std::string {
            if (rank == 0) {
                // The chief's last checkpoint holds the server's last values, at its global step.
                if (result->lastStep != counts[2] ||
                    !result->lastCheckpoint.ends_with("model.ckpt-" + std::to_string(counts[2])))
                    return "the chief ends at " + std::to_string(result->lastStep) + " with checkpoint '" +
                           result->lastCheckpoint + "'";
            }
            if (rank == 2)
                return {};
            // Each worker writes its pushes' staleness; the chief its loss and accuracy.
            events::LogDirectory logs(rank == 0 ? logdir : logdir + "/worker_1");
            if (!logs.reload().isOk())
                return "the event files do not read";
            std::size_t staleness = 0;
            std::vector<events::ScalarSample> losses, accuracy;
            logs.withRun(".", [&](const events::EventAccumulator& a) {
                staleness = a.scalars("staleness").size();
                losses = a.scalars("loss");
                accuracy = a.scalars("accuracy");
            });
            if (staleness == 0)
                return "no staleness events";
            if (rank == 1)
                return {};
            // One batch of 100 points per summary, and the workers' order differs from run to run: the
            // median of the last five, for the loss as for the accuracy (one batch's loss late in
            // training can jump above a quarter of the first).
            const auto lateMedian = [](const std::vector<events::ScalarSample>& samples) {
                std::vector<double> late;
                for (std::size_t k = samples.size() - 5; k < samples.size(); ++k)
                    late.push_back(samples[k].value);
                std::nth_element(late.begin(), late.begin() + 2, late.end());
                return late[2];
            };
            if (losses.size() < 6)
                return "only " + std::to_string(losses.size()) + " loss summaries";
            const double lateLoss = lateMedian(losses);
            if (!(lateLoss < losses.front().value / 4))
                return "the loss did not fall to a quarter: from " + std::to_string(losses.front().value) + " to " +
                       std::to_string(lateLoss) + " (median of the last five summaries)";
            if (accuracy.size() < 5)
                return "only " + std::to_string(accuracy.size()) + " accuracy summaries";
            if (const double lateAccuracy = lateMedian(accuracy); lateAccuracy < 0.9)
                return "accuracy " + std::to_string(lateAccuracy) + " (median of the last five summaries)";
            return {};
        }();
        QVERIFY(mpi.barrier().isOk()); // rank 0's directory stays until every rank has read it
        QVERIFY2(problem.empty(), problem.c_str());
    }

    /// What `tstudio train --distributed` does for an asynchronous project: the collectives' thread
    /// stopped on every rank, point-to-point messages (and the barrier) still go; collectives fail.
    void messagesGoOnWhenTheCollectivesStop()
    {
        if (!m_mpi)
            QSKIP("this build has no MPI (openmpi-bin, libopenmpi-dev)");
        MpiContext& mpi = MpiContext::instance();
        QVERIFY(mpi.stopCollectives().isOk());
        std::int32_t one = 1;
        const Status refused = mpi.allreduce("after.stop", tensorflow::DT_INT32, &one, 1);
        QCOMPARE(refused.code(), StatusCode::kFailedPrecondition);
        QVERIFY2(refused.message().find("collectives of this job were stopped") != std::string::npos,
                 refused.message().c_str());
        const int rank = mpi.rank(), size = mpi.size();
        QVERIFY(mpi.send((rank + 1) % size, 5, "from " + std::to_string(rank)).isOk());
        auto message = mpi.receive((rank + size - 1) % size, 5, 60);
        QVERIFY2(message, message ? "" : message.error().toString().c_str());
        QCOMPARE(message->bytes, "from " + std::to_string((rank + size - 1) % size));
        QCOMPARE(message->source, (rank + size - 1) % size);
        QVERIFY(mpi.barrier().isOk());
        // Nothing more comes: the wait ends with its deadline.
        auto none = mpi.receive(MpiContext::kAnySource, 6, 0.2);
        QVERIFY(!none);
        QCOMPARE(none.error().code(), StatusCode::kDeadlineExceeded);
    }
};

QTEST_GUILESS_MAIN(TestAsyncParameterServers)
#include "test_async_parameter_servers.moc"
