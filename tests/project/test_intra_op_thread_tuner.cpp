// IntraOpThreadTuner: the warm-up, the alternating trial windows, the choice by medians with its
// margin, the hold and the trial after it, and the steps left out, on step times the test makes.
#include "project/run/intra_op_thread_tuner.h"

#include <QTest>

#include <functional>
#include <vector>

using namespace tstudio::project;

namespace {

/// Runs `steps` steps whose time is stepTime(threads()), recording threads() before each.
std::vector<int> run(IntraOpThreadTuner& tuner, int steps, const std::function<double(int)>& stepTime)
{
    std::vector<int> threads;
    for (int i = 0; i < steps; ++i) {
        threads.push_back(tuner.threads());
        tuner.stepRan(stepTime(tuner.threads()));
    }
    return threads;
}

std::vector<int> repeated(std::initializer_list<std::pair<int, int>> runs)
{
    std::vector<int> out;
    for (const auto& [value, count] : runs)
        out.insert(out.end(), static_cast<std::size_t>(count), value);
    return out;
}

} // namespace

class TestIntraOpThreadTuner : public QObject {
    Q_OBJECT
private slots:
    /// One thread: nothing to choose, whatever the steps take.
    void oneThreadHasNothingToChoose()
    {
        IntraOpThreadTuner tuner(1);
        QCOMPARE(run(tuner, 100, [](int) { return 0.05; }), repeated({{1, 100}}));
        QCOMPARE(tuner.trials(), 0);
        QCOMPARE(IntraOpThreadTuner(0).threads(), 1);
    }

    /// Three warm-up steps on every thread, then four windows of six 50 ms steps (at least six
    /// steps and 0.25 s each) alternating 2, 1, 2, 1; one thread fewer 20% faster is chosen.
    void trialAlternatesWindowsAndKeepsTheFasterCount()
    {
        IntraOpThreadTuner tuner(2);
        const auto fasterOnOne = [](int threads) { return threads == 2 ? 0.05 : 0.04; };
        // The windows on one thread need seven 40 ms steps to last 0.25 s.
        const std::vector<int> seen = run(tuner, 3 + 6 + 7 + 6 + 7 + 10, fasterOnOne);
        QCOMPARE(seen, repeated({{2, 3}, {2, 6}, {1, 7}, {2, 6}, {1, 7}, {1, 10}}));
        QCOMPARE(tuner.trials(), 1);
        QCOMPARE(tuner.chosen(), 1);
    }

    /// The full count stays unless one fewer is faster by more than the 2% margin; more threads
    /// being faster keeps them too.
    void fewerThreadsMustWinByTheMargin()
    {
        for (const double fewer : {0.0495, 0.05, 0.07}) {
            IntraOpThreadTuner tuner(4);
            run(tuner, 60, [fewer](int threads) { return threads == 4 ? 0.05 : fewer; });
            QCOMPARE(tuner.trials(), 1);
            QCOMPARE(tuner.chosen(), 4);
            QCOMPARE(tuner.threads(), 4);
        }
        IntraOpThreadTuner tuner(4);
        run(tuner, 60, [](int threads) { return threads == 4 ? 0.05 : 0.048; });
        QCOMPARE(tuner.chosen(), 3);
    }

    /// A window's outliers (a step that also saved a checkpoint) do not decide: medians do.
    void oneSlowStepDoesNotDecide()
    {
        IntraOpThreadTuner tuner(2);
        int step = 0;
        run(tuner, 60, [&step](int threads) {
            ++step;
            if (step == 6)
                return 5.0; // in the first window, on two threads
            return threads == 2 ? 0.05 : 0.06;
        });
        QCOMPARE(tuner.trials(), 1);
        QCOMPARE(tuner.chosen(), 2);
    }

    /// After the hold (30 s, or 20 trials' length when longer) the next trial starts on every
    /// thread and follows a change of load: here one fewer becomes the faster.
    void triesAgainAfterTheHold()
    {
        IntraOpThreadTuner tuner(2);
        bool loaded = false;
        const auto time = [&loaded](int threads) { return threads == 2 ? (loaded ? 0.08 : 0.05) : 0.06; };
        run(tuner, 40, time); // warm-up and the first trial (1.4 s), then holding
        QCOMPARE(tuner.trials(), 1);
        QCOMPARE(tuner.chosen(), 2);
        loaded = true;
        // 30 s of holding at 80 ms a step is 375 steps; the steps after the trial's end count.
        std::vector<int> held = run(tuner, 340, time);
        QCOMPARE(held, repeated({{2, 340}}));
        QCOMPARE(tuner.trials(), 1);
        run(tuner, 120, time);
        QCOMPARE(tuner.trials(), 2);
        QCOMPARE(tuner.chosen(), 1);
        QCOMPARE(tuner.threads(), 1);
    }

    /// Skipped steps (traced, say) are not timed: a trial of 20 s skipped steps still needs its
    /// timed ones, and its windows hold only those.
    void skippedStepsAreNotTimed()
    {
        IntraOpThreadTuner tuner(2);
        run(tuner, 3, [](int) { return 0.05; });
        for (int i = 0; i < 20; ++i)
            tuner.skipStep(0.001);
        QCOMPARE(tuner.threads(), 2); // still the first window
        run(tuner, 6 + 7 + 6 + 7, [](int threads) { return threads == 2 ? 0.05 : 0.04; });
        QCOMPARE(tuner.trials(), 1);
        QCOMPARE(tuner.chosen(), 1);
    }
};

QTEST_GUILESS_MAIN(TestIntraOpThreadTuner)
#include "test_intra_op_thread_tuner.moc"
