// MonitoredTrainingSession and Scaffold: checkpoints at TensorFlow 1.15's steps with its names and
// state file, graph.pbtxt and the event file, resuming from the latest checkpoint (after close and
// after a "kill"), recovery from Aborted/Unavailable, a worker (is_chief=False) waiting for a ready
// model, the ready op, feed conflicts, and summaries written by the default scaffold.
#include "core/log.h"
#include "io/checkpoint/checkpoint_state.h"
#include "monitored_test_support.h"
#include "summary/summary.h"
#include "training/scaffold.h"
#include "training/stop_at_step_hook.h"

#include <QTemporaryDir>

#include <google/protobuf/text_format.h>

#include <fstream>
#include <set>
#include <sstream>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;

namespace {

bool exists(const std::string& path)
{
    return std::filesystem::exists(path);
}

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Trains the regression in `dir` until StopAtStepHook(lastStep) stops it; returns the number of
/// runs (-1 on error) and leaves the session open in `out`.
int trainUntil(Regression& m, const std::string& dir, std::int64_t lastStep, std::int64_t saveSteps,
               std::unique_ptr<MonitoredTrainingSession>& out,
               const std::function<void(MonitoredTrainingSession&)>& afterEachRun = {})
{
    auto stop = StopAtStepHook::create(std::nullopt, lastStep);
    if (!stop)
        return -1;
    auto o = sessionOptions(dir);
    o.saveCheckpointSteps = saveSteps;
    o.hooks = {*stop};
    auto s = MonitoredTrainingSession::create(*m.graph, o);
    if (!s) {
        qWarning("create: %s", s.error().toString().c_str());
        return -1;
    }
    out = std::move(*s);
    int runs = 0;
    while (!out->shouldStop() && runs < 10000) {
        auto r = out->run({}, regressionFeeds(), {m.train});
        if (!r) {
            qWarning("run: %s", r.error().toString().c_str());
            return -1;
        }
        ++runs;
        if (afterEachRun)
            afterEachRun(*out);
    }
    return runs;
}

std::vector<std::string> relativeList(const tensorflow::CheckpointState& state, const std::string& dir)
{
    std::vector<std::string> out;
    for (const std::string& p : state.all_model_checkpoint_paths())
        out.push_back(std::filesystem::path(p).lexically_relative(dir).string());
    return out;
}

/// Fails the run numbered `at` (counting every afterRun) with `error`, once or every time after.
class PreemptingHook : public SessionRunHook {
public:
    PreemptingHook(int at, Status error, bool always) : m_at(at), m_error(std::move(error)), m_always(always) {}
    int sessionsCreated = 0;
    Status afterCreateSession(Session&) override
    {
        ++sessionsCreated;
        return {};
    }
    Status afterRun(SessionRunContext&, const SessionRunValues&) override
    {
        ++m_runs;
        return m_runs == m_at || (m_always && m_runs > m_at) ? m_error : Status::ok();
    }

private:
    int m_at;
    Status m_error;
    bool m_always;
    int m_runs = 0;
};

} // namespace

class TestMonitoredSession : public QObject {
    Q_OBJECT

private slots:
    void checkpointsAtTheRightSteps()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        std::unique_ptr<MonitoredTrainingSession> s;
        QCOMPARE(trainUntil(*m, dir, 150, 100, s), 150);
        QCOMPARE(values(s->rawSession(), m->globalStep), std::vector<double>{150});
        QVERIFY2(s->close().isOk(), "close");

        // TensorFlow 1.15 saves the starting step in after_create_session, every 100 steps, and the
        // last step in end().
        for (const char* step : {"0", "100", "150"})
            for (const char* ext : {".index", ".data-00000-of-00001", ".meta"})
                QVERIFY2(exists(dir + "/model.ckpt-" + step + ext), (std::string(step) + ext).c_str());
        QVERIFY(!exists(dir + "/model.ckpt-50.index"));
        QVERIFY(!exists(dir + "/model.ckpt-149.index"));

        const std::string stateText = readText(dir + "/checkpoint");
        QVERIFY2(stateText.find("model_checkpoint_path: \"model.ckpt-150\"") != std::string::npos, stateText.c_str());
        auto state = readCheckpointState(dir);
        QVERIFY2(state, err(state));
        QCOMPARE(std::filesystem::path(state->model_checkpoint_path()).lexically_relative(dir).string(),
                 std::string("model.ckpt-150"));
        QCOMPARE(relativeList(*state, dir),
                 (std::vector<std::string>{"model.ckpt-0", "model.ckpt-100", "model.ckpt-150"}));

        // graph.pbtxt: the final graph in text form, with the scaffold's and the saver's nodes.
        tensorflow::GraphDef graph;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(readText(dir + "/graph.pbtxt"), &graph));
        std::set<std::string> names;
        for (const auto& n : graph.node())
            names.insert(n.name());
        for (const char* n : {"global_step", "save/SaveV2", "save/restore_all", "group_deps", "group_deps_1", "concat",
                              "concat_1", "report_uninitialized_variables/boolean_mask/GatherV2"})
            QVERIFY2(names.count(n), n);

        // The event file: version, graph, meta graph, then one CHECKPOINT session log per save.
        const std::vector<tensorflow::Event> events = readEvents(dir);
        QVERIFY(!events.empty());
        QCOMPARE(events.front().file_version(), std::string("brain.Event:2"));
        int graphs = 0;
        int metaGraphs = 0;
        std::vector<std::int64_t> checkpointSteps;
        for (const tensorflow::Event& e : events) {
            graphs += e.has_graph_def() ? 1 : 0;
            if (e.has_meta_graph_def()) {
                ++metaGraphs;
                tensorflow::MetaGraphDef meta;
                QVERIFY(meta.ParseFromString(e.meta_graph_def()));
                QCOMPARE(meta.saver_def().filename_tensor_name(), std::string("save/Const:0"));
            }
            if (e.has_session_log() && e.session_log().status() == tensorflow::SessionLog::CHECKPOINT) {
                checkpointSteps.push_back(e.step());
                QCOMPARE(e.session_log().checkpoint_path(), dir + "/model.ckpt");
            }
        }
        QVERIFY(graphs >= 1);
        QCOMPARE(metaGraphs, 1);
        QCOMPARE(checkpointSteps, (std::vector<std::int64_t>{0, 100, 150}));
    }

    void resumeContinuesFromTheRestoredStep()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        std::vector<double> w150;
        {
            auto m = buildRegression();
            QVERIFY2(m, err(m));
            std::unique_ptr<MonitoredTrainingSession> s;
            QCOMPARE(trainUntil(*m, dir, 150, 100, s), 150);
            w150 = values(s->rawSession(), m->w);
            QVERIFY(s->close().isOk());
        }
        QCOMPARE(w150.size(), std::size_t(1));
        QVERIFY(w150[0] != 0.0);

        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto stop = StopAtStepHook::create(50, std::nullopt);
        QVERIFY2(stop, err(stop));
        auto o = sessionOptions(dir);
        o.saveCheckpointSteps = 100;
        o.hooks = {*stop};
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        QVERIFY2(s, err(s));
        // Restored, not initialized: the step and the weights are those saved at 150.
        QCOMPARE(values((*s)->rawSession(), m->globalStep), std::vector<double>{150});
        QCOMPARE(values((*s)->rawSession(), m->w), w150);
        QCOMPARE((*stop)->lastStep(), std::optional<std::int64_t>(200));
        int runs = 0;
        while (!(*s)->shouldStop() && runs < 1000) {
            auto r = (*s)->run({m->loss}, regressionFeeds(), {m->train});
            QVERIFY2(r, err(r));
            ++runs;
        }
        QCOMPARE(runs, 50);
        QCOMPARE(values((*s)->rawSession(), m->globalStep), std::vector<double>{200});
        QVERIFY(values((*s)->rawSession(), m->w) != w150);
        QVERIFY((*s)->close().isOk());
        auto state = readCheckpointState(dir);
        QVERIFY2(state, err(state));
        QCOMPARE(relativeList(*state, dir),
                 (std::vector<std::string>{"model.ckpt-0", "model.ckpt-100", "model.ckpt-150", "model.ckpt-200"}));
    }

    void killWithoutCloseRestoresTheLastSavedCheckpoint()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        std::vector<double> w100;
        {
            auto m = buildRegression();
            QVERIFY2(m, err(m));
            std::unique_ptr<MonitoredTrainingSession> s;
            const int runs = trainUntil(*m, dir, 150, 100, s, [&](MonitoredTrainingSession& session) {
                if (values(session.rawSession(), m->globalStep) == std::vector<double>{100})
                    w100 = values(session.rawSession(), m->w);
            });
            QCOMPARE(runs, 150);
            // Destroyed without close(): no end(), so no checkpoint of step 150.
        }
        QVERIFY(!exists(dir + "/model.ckpt-150.index"));
        auto state = readCheckpointState(dir);
        QVERIFY2(state, err(state));
        QCOMPARE(std::filesystem::path(state->model_checkpoint_path()).filename().string(),
                 std::string("model.ckpt-100"));

        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto o = sessionOptions(dir);
        o.saveCheckpointSteps = 100;
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        QVERIFY2(s, err(s));
        QCOMPARE(values((*s)->rawSession(), m->globalStep), std::vector<double>{100});
        QCOMPARE(values((*s)->rawSession(), m->w), w100);
        QVERIFY(!w100.empty() && w100[0] != 0.0);
    }

    /// _RecoverableSession: an Aborted step closes the session and makes a new one, restored from
    /// the latest checkpoint (step 100), after which training goes on to its last step; a
    /// persistent Unavailable is returned after maxRecoveries re-creations.
    void recoversFromPreemptionByRecreatingTheSession()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto stop = StopAtStepHook::create(std::nullopt, 150);
        QVERIFY2(stop, err(stop));
        const Status aborted(StatusCode::kAborted, "the parameter server went away");
        auto preempt = std::make_shared<PreemptingHook>(130, aborted, false);
        auto o = sessionOptions(dir);
        o.saveCheckpointSteps = 100;
        o.hooks = {*stop, preempt};
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        QVERIFY2(s, err(s));
        int runs = 0;
        while (!(*s)->shouldStop() && runs < 1000) {
            auto r = (*s)->run({}, regressionFeeds(), {m->train});
            QVERIFY2(r, err(r));
            ++runs;
        }
        // Steps 1..130, then 101..150 again from the checkpoint of step 100.
        QCOMPARE((*s)->recoveries(), 1);
        QCOMPARE(preempt->sessionsCreated, 2);
        QCOMPARE(runs, 130 + 49);
        QCOMPARE(values((*s)->rawSession(), m->globalStep), std::vector<double>{150});
        QVERIFY((*s)->close().isOk());
        QVERIFY(exists(dir + "/model.ckpt-150.index"));

        auto again = buildRegression();
        QVERIFY2(again, err(again));
        auto failing = std::make_shared<PreemptingHook>(3, unavailableError("socket closed"), true);
        auto o2 = sessionOptions("");
        o2.hooks = {failing};
        o2.maxRecoveries = 2;
        auto t = MonitoredTrainingSession::create(*again->graph, o2);
        QVERIFY2(t, err(t));
        for (int i = 0; i < 2; ++i)
            QVERIFY((*t)->run({}, regressionFeeds(), {again->train}));
        auto r = (*t)->run({}, regressionFeeds(), {again->train});
        QVERIFY(!r);
        QCOMPARE(r.error().code(), StatusCode::kUnavailable);
        QCOMPARE((*t)->recoveries(), 2);
        QCOMPARE(failing->sessionsCreated, 3);
    }

    /// is_chief=False: the caller's hooks only (no chief-only hook, no checkpoint, summary or step
    /// counter), and a session waited for until the chief has made the model ready: here the variables
    /// arrive on the second try, as a parameter server would give them once the chief has initialised it.
    void workerWaitsForTheChiefAndRunsOnlyItsHooks()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto chiefOnly = std::make_shared<PreemptingHook>(1000, Status::ok(), false);
        auto own = std::make_shared<PreemptingHook>(1000, Status::ok(), false);
        auto stop = StopAtStepHook::create(std::nullopt, 20);
        QVERIFY2(stop, err(stop));
        auto o = sessionOptions(dir);
        o.summaryDir = dir;
        o.saveCheckpointSteps = 5;
        o.chiefOnlyHooks = {chiefOnly};
        o.hooks = {*stop, own};
        o.isChief = false;
        o.recoveryWaitSecs = 0.05;
        int tries = 0;
        o.workerSharedState = [&tries](Session& session) -> Status {
            if (++tries < 2)
                return Status::ok(); // the chief has not initialised the model yet
            return session.run({}, {}, {"w/Assign", "b/Assign", "global_step/Assign"}, nullptr);
        };
        std::vector<std::string> waits;
        const LogSinkId sink = addLogSink([&waits](const LogRecord& r) {
            if (r.message.find("Waiting for model to be ready") != std::string::npos)
                waits.push_back(r.message);
        });
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        removeLogSink(sink);
        QVERIFY2(s, err(s));
        QCOMPARE(tries, 2);
        QCOMPARE(waits.size(), std::size_t{1});
        // TensorFlow's message: the default ready-for-local-init op lists the global variables.
        QCOMPARE(waits[0], std::string("Waiting for model to be ready.  Ready_for_local_init_op:  Variables not "
                                       "initialized: w, b, global_step, ready: None"));
        QCOMPARE(own->sessionsCreated, 1);
        QCOMPARE(chiefOnly->sessionsCreated, 0);
        int runs = 0;
        while (!(*s)->shouldStop() && runs < 100) {
            QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
            ++runs;
        }
        QCOMPARE(runs, 20);
        QVERIFY((*s)->close().isOk());
        // Nothing written: checkpoints and summaries are the chief's.
        QVERIFY(!exists(dir + "/checkpoint"));
        QVERIFY(eventFiles(dir).empty());

        // No chief ever comes: TensorFlow's DeadlineExceeded after max_wait_secs.
        auto again = buildRegression();
        QVERIFY2(again, err(again));
        auto lonely = sessionOptions("");
        lonely.isChief = false;
        lonely.maxWaitSecs = 0.3;
        lonely.recoveryWaitSecs = 0.1;
        auto never = MonitoredTrainingSession::create(*again->graph, lonely);
        QVERIFY(!never);
        QCOMPARE(never.error().code(), StatusCode::kDeadlineExceeded);
        QCOMPARE(never.error().message(), std::string("Session was not ready after waiting 0 secs."));
    }

    void readyOpListsUninitializedVariables()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        Scaffold scaffold;
        QVERIFY(scaffold.finalize(*m->graph).isOk());
        QCOMPARE(scaffold.initOp(), std::string("group_deps"));
        QCOMPARE(scaffold.readyOp(), std::string("concat:0"));
        QCOMPARE(scaffold.readyForLocalInitOp(), std::string("concat_1:0"));
        QCOMPARE(scaffold.localInitOp(), std::string("group_deps_1"));
        QVERIFY(!scaffold.summaryOp());
        QCOMPARE(m->graph->findNode("report_uninitialized_variables/Const")->device(), std::string("/device:CPU:0"));

        auto session = TrainingRegistries::get().session(*m->graph);
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {scaffold.readyOp()}, {}, &out).isOk());
        QCOMPARE(std::vector<std::string>(out[0].strings().begin(), out[0].strings().end()),
                 (std::vector<std::string>{"w", "b", "global_step"}));
        QVERIFY(runTargets(*session, {"w/Assign"}));
        QVERIFY(session->run({}, {scaffold.readyOp()}, {}, &out).isOk());
        QCOMPARE(std::vector<std::string>(out[0].strings().begin(), out[0].strings().end()),
                 (std::vector<std::string>{"b", "global_step"}));
        QVERIFY(runTargets(*session, {scaffold.initOp()}));
        QVERIFY(session->run({}, {scaffold.readyOp()}, {}, &out).isOk());
        QCOMPARE(out[0].numElements(), std::int64_t(0));
    }

    void scaffoldRefusesTwoItemsInACollection()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto a = ops::noOp(*m->graph, "a");
        auto b = ops::noOp(*m->graph, "b");
        m->graph->collections().add(scaffold_keys::kInitOp, *a);
        m->graph->collections().add(scaffold_keys::kInitOp, *b);
        Scaffold scaffold;
        const Status s = scaffold.finalize(*m->graph);
        QCOMPARE(s.message(), std::string("More than one item in the collection \"init_op\". Please indicate which one "
                                          "to use by passing it to the tf.Scaffold constructor."));
    }

    void initOpThatLeavesVariablesUninitializedFails()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto partial = ops::group(*m->graph, {*m->graph->operation("w/Assign")}, "partial_init");
        QVERIFY(partial);
        ScaffoldOptions so;
        so.initOp = "partial_init";
        auto o = sessionOptions("");
        o.scaffold = std::make_shared<Scaffold>(so);
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        QVERIFY(!s);
        QCOMPARE(s.error().message(), std::string("Init operations did not make model ready for local_init.  Init op: "
                                                  "partial_init, init fn: None, error: Variables not initialized: b, "
                                                  "global_step"));
    }

    void feedConflicts()
    {
        struct Feeder : SessionRunHook {
            Expected<SessionRunArgs> beforeRun(SessionRunContext&) override
            {
                SessionRunArgs args;
                args.feeds = regressionFeeds();
                args.fetches = {"loss:0"};
                return args;
            }
            Status afterRun(SessionRunContext&, const SessionRunValues& v) override
            {
                loss = v.results.at(0).scalar<float>();
                return {};
            }
            float loss = -1;
        };
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto feeder = std::make_shared<Feeder>();
        auto o = sessionOptions("");
        o.hooks = {feeder};
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        QVERIFY2(s, err(s));
        // Fed by the hook only: w = b = 0, so the loss is mean(y^2) = (9 + 25 + 49 + 81) / 4.
        auto r = (*s)->run({}, {}, {m->train});
        QVERIFY2(r, err(r));
        QCOMPARE(feeder->loss, 41.0f);
        auto conflict = (*s)->run({}, regressionFeeds(), {m->train});
        QVERIFY(!conflict);
        QCOMPARE(conflict.error().message(),
                 std::string("Same tensor is fed by a SessionRunHook and user. Conflict(s): [y:0]"));
        QVERIFY((*s)->close().isOk());
        QVERIFY((*s)->shouldStop());
        auto closed = (*s)->run({}, {}, {m->train});
        QCOMPARE(closed.error().message(), std::string("Run called on a closed session."));
    }

    void summariesOfTheDefaultScaffold_data()
    {
        QTest::addColumn<bool>("callerOrdersStepRead");
        QTest::newRow("train op after the step read, as tf.estimator builds it") << true;
        // Without it, MonitoredTrainingSession orders the step's increment after the hooks' read.
        QTest::newRow("ordering left to the session") << false;
    }

    void summariesOfTheDefaultScaffold()
    {
        QFETCH(bool, callerOrdersStepRead);
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        auto m = buildRegression(callerOrdersStepRead);
        QVERIFY2(m, err(m));
        auto loss = m->graph->tensor(m->loss);
        auto summary = summary::scalar(*m->graph, "training_loss", *loss);
        QVERIFY2(summary, err(summary));
        auto stop = StopAtStepHook::create(std::nullopt, 25);
        auto o = sessionOptions(dir);
        o.saveSummariesSteps = 10;
        o.hooks = {*stop};
        auto s = MonitoredTrainingSession::create(*m->graph, o);
        QVERIFY2(s, err(s));
        QCOMPARE(*(*s)->scaffold().summaryOp(), std::string("Merge/MergeSummary:0"));
        while (!(*s)->shouldStop()) {
            auto r = (*s)->run({m->loss, m->globalStep}, regressionFeeds(), {m->train});
            QVERIFY2(r, err(r));
        }
        QVERIFY((*s)->close().isOk());
        std::vector<std::int64_t> summarySteps;
        std::vector<std::int64_t> startSteps;
        for (const tensorflow::Event& e : readEvents(dir)) {
            if (e.has_summary())
                for (const auto& v : e.summary().value())
                    if (v.tag() == "training_loss") {
                        summarySteps.push_back(e.step());
                        // The first summary comes from the first run: w = b = 0, loss = mean(y^2).
                        if (e.step() == 1)
                            QCOMPARE(v.simple_value(), 41.0f);
                        QVERIFY(v.simple_value() > 0.0f && v.simple_value() <= 41.0f);
                    }
            if (e.has_session_log() && e.session_log().status() == tensorflow::SessionLog::START)
                startSteps.push_back(e.step());
        }
        QCOMPARE(startSteps, std::vector<std::int64_t>{1});
        QCOMPARE(summarySteps, (std::vector<std::int64_t>{1, 11, 21}));
    }
};

QTEST_GUILESS_MAIN(TestMonitoredSession)
#include "test_monitored_session.moc"
