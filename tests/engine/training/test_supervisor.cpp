// tf.train.Supervisor: the ops it settles and adds to the collections, the finalized graph,
// managed_session with its checkpoint, summary and step-counter services (files and events as
// TensorFlow writes them), restoring on a second run, clean and failed ends (the body's and a
// service's errors), summary_computed, loop, a task that is not the chief, and SessionManager's
// errors.
#include "io/checkpoint/checkpoint_state.h"
#include "monitored_test_support.h"
#include "summary/summary.h"
#include "training/scaffold.h"
#include "training/supervisor.h"

#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <thread>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;

namespace {

SupervisorOptions supervisorOptions(const std::string& logdir)
{
    TrainingRegistries& r = TrainingRegistries::get();
    SupervisorOptions o;
    o.session.ops = &r.ops;
    o.session.kernels = &r.kernels;
    o.logdir = logdir;
    return o;
}

/// The regression with a "weights" histogram summary (a summary of the loss would need the fed targets,
/// which the summary service does not feed: TensorFlow's Supervisor fails the same way).
Expected<Regression> regressionWithSummary()
{
    auto m = buildRegression(false);
    if (!m)
        return m;
    auto w = m->graph->tensor(m->w);
    if (!w)
        return unexpected(w.error());
    auto summary = summary::histogram(*m->graph, "weights", *w);
    if (!summary)
        return unexpected(summary.error());
    return m;
}

/// Runs train steps for about `seconds` (a millisecond apart) unless the supervisor stops.
Status trainFor(Supervisor& sv, Session& session, const Regression& m, double seconds, int* steps = nullptr)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!sv.shouldStop() && std::chrono::steady_clock::now() < end) {
        std::vector<Tensor> none;
        if (Status s = session.run(regressionFeeds(), {}, {m.train}, &none); !s.isOk())
            return s;
        if (steps)
            ++*steps;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return {};
}

template <typename Pred> int countEvents(const std::vector<tensorflow::Event>& events, Pred pred)
{
    return static_cast<int>(std::count_if(events.begin(), events.end(), pred));
}

} // namespace

class TestSupervisor : public QObject {
    Q_OBJECT

private slots:
    void defaultsGoIntoTheCollectionsAndTheGraphIsFinalized()
    {
        auto m = regressionWithSummary();
        QVERIFY2(m, err(m));
        auto sv = Supervisor::create(*m->graph, supervisorOptions(""));
        QVERIFY2(sv, err(sv));
        QCOMPARE((*sv)->initOp(), std::string("init"));
        QCOMPARE((*sv)->readyOp(), std::string("report_uninitialized_variables/boolean_mask/GatherV2:0"));
        QCOMPARE((*sv)->readyForLocalInitOp(), std::string()); // None unless the collection has one
        QCOMPARE((*sv)->localInitOp(), std::string("group_deps"));
        QCOMPARE((*sv)->summaryOp(), std::string("Merge/MergeSummary:0"));
        QCOMPARE((*sv)->globalStep(), std::string("global_step/read:0"));
        QVERIFY((*sv)->saver() != nullptr);
        QVERIFY(!(*sv)->saver()->isEmpty());
        QVERIFY((*sv)->summaryWriter() == nullptr); // no logdir
        QCOMPARE((*sv)->savePath(), std::string());
        const Collections& c = m->graph->collections();
        QCOMPARE(collectionItemName(c.get(scaffold_keys::kInitOp).at(0)), std::string("init"));
        QCOMPARE(collectionItemName(c.get(scaffold_keys::kLocalInitOp).at(0)), std::string("group_deps"));
        QCOMPARE(collectionItemName(c.get(scaffold_keys::kReadyOp).at(0)), (*sv)->readyOp());
        QCOMPARE(collectionItemName(c.get(scaffold_keys::kSummaryOp).at(0)), (*sv)->summaryOp());
        // The local init op groups local_variables_initializer "init_1" and tables_initializer.
        const tensorflow::NodeDef* group = m->graph->findNode("group_deps");
        QVERIFY(group);
        QCOMPARE(group->input_size(), 2);
        QCOMPARE(group->input(0), std::string("^init_1"));
        QCOMPARE(group->input(1), std::string("^init_all_tables"));
        QVERIFY(m->graph->finalized());
        auto late = ops::noOp(*m->graph, "late");
        QVERIFY(!late);
        QCOMPARE(late.error().message(), std::string("Graph is finalized and cannot be modified."));

        // The first item of a collection wins over building (TensorFlow logs that there are several).
        auto other = regressionWithSummary();
        QVERIFY2(other, err(other));
        auto mine = ops::noOp(*other->graph, "my_init");
        QVERIFY(mine);
        other->graph->collections().add(scaffold_keys::kInitOp, *mine);
        auto given = supervisorOptions("");
        given.summaryOp = "";                   // None
        given.saver = std::shared_ptr<Saver>(); // None
        auto sv2 = Supervisor::create(*other->graph, given);
        QVERIFY2(sv2, err(sv2));
        QCOMPARE((*sv2)->initOp(), std::string("my_init"));
        QCOMPARE((*sv2)->summaryOp(), std::string());
        QVERIFY((*sv2)->saver() == nullptr);
        // No global_variables_initializer was built: the local one is the graph's first "init".
        QCOMPARE(other->graph->collections().get(scaffold_keys::kInitOp).size(), std::size_t(1));
        QCOMPARE(other->graph->findNode("group_deps")->input(0), std::string("^init"));
        QVERIFY(other->graph->collections().get(scaffold_keys::kSummaryOp).empty());
    }

    void managedSessionCheckpointsSummariesAndRestores()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString() + "/train";
        std::vector<double> savedW;
        std::int64_t lastSaved = -1;
        int steps = 0;
        {
            auto m = regressionWithSummary();
            QVERIFY2(m, err(m));
            auto o = supervisorOptions(dir);
            o.saveModelSecs = 0.25;
            o.saveSummariesSecs = 0.2;
            auto sv = Supervisor::create(*m->graph, o);
            QVERIFY2(sv, err(sv));
            QCOMPARE((*sv)->savePath(), dir + "/model.ckpt");
            QVERIFY((*sv)->summaryWriter() != nullptr);
            Status s =
                (*sv)->managedSession([&](Session& session) { return trainFor(**sv, session, *m, 1.2, &steps); });
            QVERIFY2(s.isOk(), s.toString().c_str());
            QVERIFY(steps > 20);

            // Checkpoints at once (step 0) and every 0.25 s after; none at the stop (as TensorFlow).
            auto state = readCheckpointState(dir);
            QVERIFY2(state, err(state));
            const std::string latest = state->model_checkpoint_path();
            QVERIFY2(latest.rfind(dir + "/model.ckpt-", 0) == 0, latest.c_str());
            lastSaved = std::stoll(latest.substr(latest.rfind('-') + 1));
            QVERIFY(lastSaved > 0);
            QVERIFY(lastSaved <= steps);
            QVERIFY(state->all_model_checkpoint_paths_size() >= 3);
            QVERIFY(std::filesystem::exists(latest + ".index"));
            QVERIFY(std::filesystem::exists(latest + ".meta"));
            QVERIFY(std::filesystem::exists(dir + "/graph.pbtxt"));

            const auto events = readEvents(dir);
            QVERIFY(!events.empty());
            QCOMPARE(countEvents(events, [](const auto& e) { return !e.graph_def().empty(); }), 1);
            QCOMPARE(countEvents(events, [](const auto& e) { return !e.meta_graph_def().empty(); }), 1);
            QCOMPARE(countEvents(events,
                                 [](const auto& e) {
                                     return e.has_session_log() &&
                                            e.session_log().status() == tensorflow::SessionLog::START;
                                 }),
                     1);
            const int checkpoints = countEvents(events, [&](const auto& e) {
                return e.has_session_log() && e.session_log().status() == tensorflow::SessionLog::CHECKPOINT &&
                       e.session_log().checkpoint_path() == dir + "/model.ckpt";
            });
            QVERIFY(checkpoints >= 3);
            QVERIFY(events.back().has_session_log());
            QCOMPARE(events.back().session_log().status(), tensorflow::SessionLog::STOP);
            int histograms = 0, rates = 0;
            std::int64_t lastHistogramStep = -1;
            for (const auto& e : events)
                for (const auto& v : e.summary().value()) {
                    if (v.tag() == "weights") {
                        ++histograms;
                        QVERIFY(e.step() >= lastHistogramStep);
                        lastHistogramStep = e.step();
                    }
                    if (v.tag() == "global_step/sec") {
                        ++rates;
                        QVERIFY(v.simple_value() >= 0);
                    }
                }
            QVERIFY2(histograms >= 3, std::to_string(histograms).c_str());
            QVERIFY2(rates >= 3, std::to_string(rates).c_str());
            QVERIFY(lastHistogramStep > 0);
        }
        {
            // A second supervisor on the same logdir restores the latest checkpoint.
            auto m = regressionWithSummary();
            QVERIFY2(m, err(m));
            auto o = supervisorOptions(dir);
            o.saveModelSecs = 0;
            o.saveSummariesSecs = 0;
            auto sv = Supervisor::create(*m->graph, o);
            QVERIFY2(sv, err(sv));
            std::int64_t restoredStep = -1;
            Status s = (*sv)->managedSession([&](Session& session) -> Status {
                auto step = fetchInt64(session, "global_step/read:0");
                if (!step)
                    return step.error();
                restoredStep = *step;
                savedW = values(session, m->w);
                return {};
            });
            QVERIFY2(s.isOk(), s.toString().c_str());
            // The service names the checkpoint by the step it read; training goes on while it saves
            // (as in TensorFlow), so the variables saved may be a few steps later.
            QVERIFY2(restoredStep >= lastSaved && restoredStep <= steps, std::to_string(restoredStep).c_str());
            QCOMPARE(savedW.size(), std::size_t(1));
            QVERIFY(savedW[0] > 0.01);                        // trained, not the initial 0
            QCOMPARE(eventFiles(dir).size(), std::size_t(2)); // a new event file per supervisor
        }
    }

    void cleanAndFailedEnds()
    {
        auto m = regressionWithSummary();
        QVERIFY2(m, err(m));
        auto o = supervisorOptions("");
        auto sv = Supervisor::create(*m->graph, o);
        QVERIFY2(sv, err(sv));
        // OutOfRange (the input's end) is a clean stop.
        Status s = (*sv)->managedSession([](Session&) { return outOfRangeError("End of sequence"); });
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY((*sv)->shouldStop());
        // Any other error is returned; the supervisor can prepare a new session afterwards.
        s = (*sv)->managedSession([](Session&) { return invalidArgumentError("bad batch"); });
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(), std::string("bad batch"));
        int steps = 0;
        s = (*sv)->managedSession([&](Session& session) { return trainFor(**sv, session, *m, 0.05, &steps); });
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(steps > 0);
    }

    void aServiceErrorStopsTraining()
    {
        QTemporaryDir tmp;
        auto m = regressionWithSummary();
        QVERIFY2(m, err(m));
        auto o = supervisorOptions(tmp.path().toStdString());
        o.summaryOp = m->y; // a placeholder the service does not feed
        o.saveSummariesSecs = 0.05;
        auto sv = Supervisor::create(*m->graph, o);
        QVERIFY2(sv, err(sv));
        bool stopped = false;
        Status s = (*sv)->managedSession([&](Session& session) -> Status {
            if (Status t = trainFor(**sv, session, *m, 5.0); !t.isOk())
                return t;
            stopped = (*sv)->shouldStop();
            return {};
        });
        QVERIFY(stopped);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("y") != std::string::npos, s.toString().c_str());
    }

    void summaryComputedAndLoop()
    {
        auto m = regressionWithSummary();
        QVERIFY2(m, err(m));
        auto sv = Supervisor::create(*m->graph, supervisorOptions(""));
        QVERIFY2(sv, err(sv));
        auto session = (*sv)->prepareOrWaitForSession();
        QVERIFY2(session, err(session));
        Status s = (*sv)->summaryComputed(**session, "");
        QCOMPARE(s.code(), StatusCode::kFailedPrecondition);
        QCOMPARE(s.message(), std::string("Writing a summary requires a summary writer."));
        std::atomic<int> calls{0};
        (*sv)->loop(0.02, [&] {
            ++calls;
            return Status::ok();
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        QVERIFY(calls.load() >= 3);
        QVERIFY((*sv)->stop().isOk());
        const int after = calls.load();
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        QCOMPARE(calls.load(), after); // joined

        QTemporaryDir tmp;
        auto m2 = regressionWithSummary();
        QVERIFY2(m2, err(m2));
        auto o = supervisorOptions(tmp.path().toStdString());
        o.saveModelSecs = 0;
        o.saveSummariesSecs = 0;
        auto sv2 = Supervisor::create(*m2->graph, o);
        QVERIFY2(sv2, err(sv2));
        s = (*sv2)->managedSession([&](Session& session) -> Status {
            if (Status t = trainFor(**sv2, session, *m2, 0.02); !t.isOk())
                return t;
            std::vector<Tensor> out;
            if (Status t = session.run({}, {(*sv2)->summaryOp()}, {}, &out); !t.isOk())
                return t;
            return (*sv2)->summaryComputed(session, out.at(0).strings().front());
        });
        QVERIFY2(s.isOk(), s.toString().c_str());
        const auto events = readEvents(tmp.path().toStdString());
        std::int64_t step = -1;
        for (const auto& e : events)
            for (const auto& v : e.summary().value())
                if (v.tag() == "weights")
                    step = e.step();
        QVERIFY(step > 0); // at the global step read from the session
        // No services: no checkpoint, START written only by the services.
        QVERIFY(!std::filesystem::exists(tmp.path().toStdString() + "/checkpoint"));
    }

    void aTaskThatIsNotTheChief()
    {
        // Every variable must be placed.
        auto unplaced = regressionWithSummary();
        QVERIFY2(unplaced, err(unplaced));
        auto o = supervisorOptions("");
        o.isChief = false;
        auto refused = Supervisor::create(*unplaced->graph, o);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(refused.error().message(),
                 std::string("When using replicas, all Variables must have their device set: w"));

        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder g(r.ops);
        {
            auto placed = g.device("/job:ps/task:0");
            QVERIFY(placed);
            auto v = getVariable(g, "v", TensorShape({2}), tensorflow::DT_FLOAT, Initializer::zeros());
            QVERIFY2(v, err(v));
        }
        o.logdir = "/nonexistent/never/written";
        o.recoveryWaitSecs = 0.01;
        auto sv = Supervisor::create(g, o);
        QVERIFY2(sv, err(sv));
        QVERIFY((*sv)->summaryWriter() == nullptr); // a task that is not the chief writes nothing
        QCOMPARE((*sv)->savePath(), std::string());
        // Nothing in this process initialises the model for it: it waits, then gives up.
        auto session = (*sv)->prepareOrWaitForSession(true, 0.1);
        QVERIFY(!session);
        QCOMPARE(session.error().code(), StatusCode::kDeadlineExceeded);
        QCOMPARE(session.error().message(), std::string("Session was not ready after waiting 0 secs."));
        QVERIFY(!std::filesystem::exists("/nonexistent/never/written"));
        Status s = (*sv)->startStandardServices(nullptr);
        QCOMPARE(s.code(), StatusCode::kFailedPrecondition);
        QCOMPARE(s.message(), std::string("Only chief supervisor can start standard services. Because only chief "
                                          "supervisors can write events."));
    }

    void sessionManagerErrors()
    {
        auto m = regressionWithSummary();
        QVERIFY2(m, err(m));
        auto o = supervisorOptions("");
        o.initOp = "";
        o.localInitOp = "";
        auto sv = Supervisor::create(*m->graph, o);
        QVERIFY2(sv, err(sv));
        auto session = (*sv)->prepareOrWaitForSession();
        QVERIFY(!session);
        QCOMPARE(session.error().code(), StatusCode::kFailedPrecondition);
        QCOMPARE(session.error().message(),
                 std::string("Model is not initialized and no init_op or init_fn or local_init_op was given"));

        // An init fn that initialises part of the model: the ready op names the rest.
        auto m2 = regressionWithSummary();
        QVERIFY2(m2, err(m2));
        auto partial = ops::group(*m2->graph, {*m2->graph->operation("w/Assign")}, "partial_init");
        QVERIFY(partial);
        auto o2 = supervisorOptions("");
        o2.initOp = "partial_init";
        auto sv2 = Supervisor::create(*m2->graph, o2);
        QVERIFY2(sv2, err(sv2));
        session = (*sv2)->prepareOrWaitForSession();
        QVERIFY(!session);
        QCOMPARE(session.error().message(),
                 std::string("Init operations did not make model ready.  Init op: partial_init, init fn: None, "
                             "local_init_op: group_deps, error: Variables not initialized: b, global_step"));
    }
};

QTEST_GUILESS_MAIN(TestSupervisor)
#include "test_supervisor.moc"
