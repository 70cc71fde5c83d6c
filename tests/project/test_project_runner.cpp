// trainProject's controls for the IDE: the start callback, pausing between steps, saving a
// checkpoint on request and stopping, on the two-spirals project (no data files needed).
#include "io/checkpoint/checkpoint_state.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"

#include "proto/config.pb.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>
#include <utility>
#include <vector>

using namespace tstudio;
using namespace tstudio::project;

namespace {

Project spirals(std::int64_t steps)
{
    auto p = loadProject(std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "spirals.tsproj");
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    p->steps = steps;
    return *p;
}

} // namespace

class TestProjectRunner : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// onStarted comes once before the first step; a pause set at step 4 holds the loop there
    /// until it is cleared, and the paused time is not counted.
    void pauseHoldsTheLoopBetweenSteps()
    {
        QTemporaryDir dir;
        std::atomic<bool> pause{false};
        std::atomic<std::int64_t> latest{-1};
        int started = 0;
        TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        options.progressEverySteps = 1;
        options.pauseRequested = &pause;
        options.onStarted = [&](const TrainProgress& p) {
            ++started;
            QCOMPARE(p.step, std::int64_t(0));
            QCOMPARE(p.lastStep, std::int64_t(8));
        };
        options.onProgress = [&](const TrainProgress& p) {
            latest = p.step;
            if (p.step == 4)
                pause = true;
        };
        std::int64_t seenWhilePaused = -1;
        std::thread release([&] {
            while (!pause.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            std::this_thread::sleep_for(std::chrono::milliseconds(400));
            seenWhilePaused = latest.load();
            pause = false;
        });
        auto result = trainProject(spirals(8), *m_registries, options);
        release.join();
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(started, 1);
        QCOMPARE(seenWhilePaused, std::int64_t(4));
        QCOMPARE(result->lastStep, std::int64_t(8));
        QCOMPARE(latest.load(), std::int64_t(8));
        QVERIFY2(result->seconds < 0.4, qPrintable(QString::number(result->seconds)));
    }

    /// A checkpoint asked for at step 3 is written as model.ckpt-3 with its .meta, becomes the
    /// latest until the next one, and the flag is cleared; the run still ends with its own final save.
    void checkpointOnRequest()
    {
        QTemporaryDir dir;
        std::atomic<bool> save{false};
        std::string saved;
        TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        options.progressEverySteps = 1;
        options.checkpointRequested = &save;
        options.onProgress = [&](const TrainProgress& p) {
            if (p.step == 3)
                save = true;
        };
        options.onCheckpoint = [&](const std::string& prefix) { saved = prefix; };
        auto result = trainProject(spirals(6), *m_registries, options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        const std::filesystem::path logdir = dir.path().toStdString();
        QCOMPARE(saved, (logdir / "model.ckpt-3").string());
        QVERIFY(!save.load());
        QVERIFY(std::filesystem::exists(logdir / "model.ckpt-3.index"));
        QVERIFY(std::filesystem::exists(logdir / "model.ckpt-3.meta"));
        auto state = readCheckpointState(logdir);
        QVERIFY2(state.has_value(), state ? "" : state.error().toString().c_str());
        const auto& all = state->all_model_checkpoint_paths();
        QVERIFY(std::find_if(all.begin(), all.end(), [](const std::string& path) {
                    return path.ends_with("model.ckpt-3");
                }) != all.end());
        QCOMPARE(result->lastCheckpoint, (logdir / "model.ckpt-6").string());
    }

    /// Two traced steps asked for after step 2 run with FULL_TRACE: onTrace gets steps 3 and 4 (the
    /// global step each ran at) with step stats that hold the train op and the loss; the other steps
    /// are not traced and the counter ends at zero.
    void tracesTheRequestedSteps()
    {
        QTemporaryDir dir;
        std::atomic<int> traceSteps{0};
        std::vector<std::int64_t> traced;
        std::vector<std::set<std::string>> nodes;
        TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        options.progressEverySteps = 1;
        options.traceStepsRequested = &traceSteps;
        options.onProgress = [&](const TrainProgress& p) {
            if (p.step == 3)
                traceSteps = 2;
        };
        options.onTrace = [&](std::int64_t step, const tensorflow::RunMetadata& metadata) {
            traced.push_back(step);
            std::set<std::string> names;
            for (const auto& device : metadata.step_stats().dev_stats())
                for (const auto& node : device.node_stats())
                    names.insert(node.node_name());
            nodes.push_back(std::move(names));
        };
        const Project project = spirals(8);
        auto result = trainProject(project, *m_registries, options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(traced, (std::vector<std::int64_t>{3, 4}));
        QCOMPARE(traceSteps.load(), 0);
        for (const auto& names : nodes) {
            QVERIFY(names.count("sparse_softmax_cross_entropy_loss/value"));
            QVERIFY(std::any_of(names.begin(), names.end(), [](const std::string& n) { return n.find("Adam") != std::string::npos; }));
            QVERIFY(names.size() > 20);
        }
    }

    /// "Profile step N" set before the run traces global step N once; a resumed run that starts past
    /// N traces its first step.
    void tracesTheStepAskedForUpFront()
    {
        QTemporaryDir dir;
        std::vector<std::int64_t> traced;
        TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        options.traceAtStep = 5;
        options.onTrace = [&](std::int64_t step, const tensorflow::RunMetadata& metadata) {
            traced.push_back(step);
            QVERIFY(metadata.step_stats().dev_stats_size() > 0);
        };
        auto result = trainProject(spirals(8), *m_registries, options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(traced, (std::vector<std::int64_t>{5}));

        traced.clear();
        options.resume = true;
        options.traceAtStep = 3;
        result = trainProject(spirals(10), *m_registries, options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(traced, (std::vector<std::int64_t>{8}));
    }

    /// A run that fails at its first step (a placeholder no source feeds) leaves no checkpoint
    /// behind, so the same start fails again with the same error instead of "already holds
    /// checkpoints"; a resumed run that fails keeps the checkpoints that were there.
    void failureBeforeTheFirstStepLeavesNoCheckpoint()
    {
        QTemporaryDir dir;
        const std::filesystem::path logdir = dir.path().toStdString();
        Project broken = spirals(5);
        broken.sources.clear();
        TrainRunOptions options;
        options.logdir = logdir;
        auto checkpointNames = [&] {
            std::set<std::string> names;
            for (const auto& e : std::filesystem::directory_iterator(logdir)) {
                const std::string n = e.path().filename().string();
                if (n == "checkpoint" || n.rfind("model.ckpt-", 0) == 0)
                    names.insert(n);
            }
            return names;
        };
        auto failed = trainProject(broken, *m_registries, options);
        QVERIFY(!failed.has_value());
        const std::string first = failed.error().message();
        QVERIFY2(first.find("inputs") != std::string::npos, first.c_str());
        QVERIFY(checkpointNames().empty());
        failed = trainProject(broken, *m_registries, options);
        QVERIFY(!failed.has_value());
        QCOMPARE(failed.error().message(), first);

        // A good run to step 3, then a resumed run that fails: step 3's checkpoint stays the latest.
        auto good = trainProject(spirals(3), *m_registries, options);
        QVERIFY2(good.has_value(), good ? "" : good.error().toString().c_str());
        const std::set<std::string> before = checkpointNames();
        QVERIFY(before.count("model.ckpt-3.index"));
        options.resume = true;
        broken.steps = 6;
        failed = trainProject(broken, *m_registries, options);
        QVERIFY(!failed.has_value());
        QCOMPARE(checkpointNames(), before);
        auto latest = latestCheckpoint(logdir);
        QVERIFY(latest.has_value());
        QCOMPARE(latest->filename().string(), std::string("model.ckpt-3"));
    }

    /// Stop requested while paused ends the run at once with a final checkpoint.
    void stopWhilePaused()
    {
        QTemporaryDir dir;
        std::atomic<bool> pause{false};
        std::atomic<bool> stop{false};
        TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        options.progressEverySteps = 1;
        options.pauseRequested = &pause;
        options.stopRequested = &stop;
        options.onProgress = [&](const TrainProgress& p) {
            if (p.step == 2)
                pause = true;
        };
        std::thread stopper([&] {
            while (!pause.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            stop = true;
        });
        auto result = trainProject(spirals(1000), *m_registries, options);
        stopper.join();
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(2));
        QCOMPARE(result->lastCheckpoint, (std::filesystem::path(dir.path().toStdString()) / "model.ckpt-2").string());
    }

    /// adaptThreads on two intra-op threads: every step's progress says which count its ops ran
    /// with (two during the warm-up, then the trial's one and two) and that it is chosen; the run
    /// trains to its end. On one thread there is nothing to choose; without adaptThreads the
    /// count is the one asked for.
    void adaptThreadsReportsTheThreadsOfEachStep()
    {
        for (const auto& [threads, adapt] : {std::pair{2, true}, std::pair{1, true}, std::pair{2, false}}) {
            QTemporaryDir dir;
            std::vector<TrainProgress> seen;
            TrainRunOptions options;
            options.logdir = dir.path().toStdString();
            options.progressEverySteps = 1;
            options.threads = threads;
            options.adaptThreads = adapt;
            options.onProgress = [&](const TrainProgress& p) { seen.push_back(p); };
            auto result = trainProject(spirals(2500), *m_registries, options);
            QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
            QCOMPARE(result->lastStep, std::int64_t(2500));
            QVERIFY(seen.size() >= 2500);
            std::set<int> counts;
            for (const TrainProgress& p : seen) {
                QCOMPARE(p.adaptingThreads, adapt && threads >= 2);
                counts.insert(p.intraOpThreads);
            }
            if (adapt && threads >= 2) {
                // 2,500 steps of spirals (a few seconds) last past the warm-up and the trial's
                // first window (at least 0.25 s).
                QCOMPARE(counts, (std::set<int>{1, 2}));
                QCOMPARE(seen.front().intraOpThreads, 2);
            } else {
                QCOMPARE(counts, std::set<int>{threads});
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestProjectRunner)
#include "test_project_runner.moc"
