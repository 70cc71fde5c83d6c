// FeedFnHook and GlobalStepWaiterHook under MonitoredTrainingSession: the function's feeds reach
// the run (and its error aborts it), a worker held back until another advances the global step, no
// wait at step 0, a closed session ending the wait, and TensorFlow's error without a global step.
#include "monitored_test_support.h"
#include "training/feed_fn_hook.h"
#include "training/global_step_waiter_hook.h"

#include <QtTest>

#include <chrono>
#include <thread>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;

class TestFeedAndWaitHooks : public QObject {
    Q_OBJECT

private slots:
    void feedFnFeedsEveryRun()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        int calls = 0;
        auto hook = std::make_shared<FeedFnHook>([&calls]() -> Expected<Feeds> {
            ++calls;
            return regressionFeeds();
        });
        auto s = plainSession(*m, {hook});
        QVERIFY2(s, err(s));
        // No feeds from the caller: the hook's reach the placeholders.
        for (int i = 0; i < 3; ++i) {
            auto run = (*s)->run({m->loss}, {}, {m->train});
            QVERIFY2(run, err(run));
        }
        QCOMPARE(calls, 3);
        QCOMPARE(values((*s)->rawSession(), m->globalStep), std::vector<double>{3});
        // The same tensor fed by the caller too is TensorFlow's conflict error.
        auto conflict = (*s)->run({m->loss}, regressionFeeds(), {m->train});
        QVERIFY(!conflict);
        const std::string& message = conflict.error().message();
        QVERIFY2(message.find("Same tensor is fed by a SessionRunHook and user") != std::string::npos, message.c_str());
    }

    void feedFnErrorsAbortTheRun()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto hook = std::make_shared<FeedFnHook>(
            []() -> Expected<Feeds> { return unexpected(outOfRangeError("the input is exhausted")); });
        auto s = plainSession(*m, {hook});
        QVERIFY2(s, err(s));
        auto run = (*s)->run({m->loss}, {}, {m->train});
        QVERIFY(!run);
        QCOMPARE(run.error().message(), std::string("the input is exhausted"));
    }

    void waiterHoldsTheWorkerBackUntilTheStep()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto waiter = std::make_shared<GlobalStepWaiterHook>(3, std::chrono::milliseconds(5));
        auto s = plainSession(*m, {waiter});
        QVERIFY2(s, err(s));
        // Another worker (here a thread on the same session) makes three steps after a while.
        Session& raw = (*s)->rawSession();
        std::thread chief([&raw, &m] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            std::vector<Tensor> out;
            for (int i = 0; i < 3; ++i)
                (void)raw.run(regressionFeeds(), {}, {m->train}, &out);
        });
        const auto started = std::chrono::steady_clock::now();
        auto run = (*s)->run({m->globalStep}, regressionFeeds(), {m->train});
        const auto waited = std::chrono::steady_clock::now() - started;
        chief.join();
        QVERIFY2(run, err(run));
        QVERIFY(waiter->workerStarted());
        QVERIFY(waited >= std::chrono::milliseconds(90));
        QCOMPARE(values(raw, m->globalStep), std::vector<double>{4});
        // Later runs do not wait.
        QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
    }

    void noWaitAtStepZeroAndAClosedSessionEndsTheWait()
    {
        auto m = buildRegression();
        QVERIFY2(m, err(m));
        auto immediate = std::make_shared<GlobalStepWaiterHook>(0);
        auto s = plainSession(*m, {immediate});
        QVERIFY2(s, err(s));
        QVERIFY((*s)->run({}, regressionFeeds(), {m->train}));
        QVERIFY(immediate->workerStarted());

        auto m2 = buildRegression();
        QVERIFY2(m2, err(m2));
        auto neverReached = std::make_shared<GlobalStepWaiterHook>(1000000, std::chrono::milliseconds(5));
        auto s2 = plainSession(*m2, {neverReached});
        QVERIFY2(s2, err(s2));
        Session& raw = (*s2)->rawSession();
        std::thread closer([&raw] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            raw.close();
        });
        auto run = (*s2)->run({}, regressionFeeds(), {m2->train});
        closer.join();
        QVERIFY(!run);
        QCOMPARE(run.error().code(), StatusCode::kCancelled);
    }

    void aGlobalStepIsNeeded()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        GlobalStepWaiterHook hook(5);
        const Status s = hook.begin(b);
        QCOMPARE(s.message(), std::string("Global step should be created to use _GlobalStepWaiterHook."));
    }
};

QTEST_GUILESS_MAIN(TestFeedAndWaitHooks)
#include "test_feed_and_wait_hooks.moc"
