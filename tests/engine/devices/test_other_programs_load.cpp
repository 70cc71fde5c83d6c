// Tests for coresLeftByOtherPrograms' pieces: reading /proc/stat's per-core busy time and turning
// other programs' busy cores into the cores left; and for the affinity those cores come from.
#include "devices/cpu/other_programs_load.h"

#include "core/affinity_cores.h"
#include "devices/cpu/cpu_device.h"

#include <QTest>

#include <sched.h>

#include <string>
#include <vector>

using namespace tstudio;

namespace {

// user nice system idle iowait irq softirq steal guest guest_nice
const char* const kStat = "cpu  300 70 60 900 9 3 2 40 0 0\n"
                          "cpu0 100 50 20 300 3 1 1 10 0 0\n"
                          "cpu1 200 20 40 600 6 2 1 30 0 0\n"
                          "cpu12 7 0 0 0 0 0 0 0 0 0\n"
                          "intr 1677283 0 0 0\n"
                          "ctxt 4880708\n";

} // namespace

class TestOtherProgramsLoad : public QObject {
    Q_OBJECT
private slots:
    void busyTicksOfTheChosenCores()
    {
        // cpu0: user 100 + system 20 + irq 1 + softirq 1; idle, iowait and steal are not busy.
        CoreTimes times = parseProcStat(kStat, {0}, false);
        QVERIFY(times.ok);
        QCOMPARE(times.busyTicks, std::uint64_t(122));
        // Nice time counts only when asked (this process is niced itself).
        QCOMPARE(parseProcStat(kStat, {0}, true).busyTicks, std::uint64_t(172));
        // Two cores; the aggregate "cpu" line and a two-digit core that was not asked for are left out.
        times = parseProcStat(kStat, {0, 1}, false);
        QVERIFY(times.ok);
        QCOMPARE(times.busyTicks, std::uint64_t(122 + 243));
        QCOMPARE(parseProcStat(kStat, {12}, false).busyTicks, std::uint64_t(7));
    }

    void missingOrDamagedLinesAreNotAReading()
    {
        QVERIFY(!parseProcStat(kStat, {0, 3}, false).ok);                      // no cpu3 line
        QVERIFY(!parseProcStat("cpu0 100 50 20\n", {0}, false).ok);            // too few fields
        QVERIFY(!parseProcStat("cpu0 100 x 20 300 3 1 1 10\n", {0}, false).ok); // not a number
        QVERIFY(!parseProcStat("", {0}, false).ok);
        QVERIFY(!parseProcStat(kStat, {}, false).ok);
    }

    void coresLeftRoundsToWholeCores()
    {
        QCOMPARE(coresLeft(2, 0.0), 2);
        QCOMPARE(coresLeft(2, 0.4), 2);  // a core mostly idle is still ours
        QCOMPARE(coresLeft(2, 0.6), 1);  // a core mostly busy is not
        QCOMPARE(coresLeft(2, 1.0), 1);  // a busy loop pinned to one of two cores
        QCOMPARE(coresLeft(2, 7.5), 1);  // never fewer than one
        QCOMPARE(coresLeft(8, 2.2), 6);
        QCOMPARE(coresLeft(8, -0.3), 8); // tick rounding can make the difference negative
    }

    void liveAnswerIsWithinTheAffinity()
    {
        cpu_set_t set;
        CPU_ZERO(&set);
        QCOMPARE(sched_getaffinity(0, sizeof(set), &set), 0);
        const int cores = CPU_COUNT(&set);
        // The first call has no earlier reading to compare with; the second (over 100 ms later) does.
        for (int i = 0; i < 2; ++i) {
            const int left = coresLeftByOtherPrograms();
            QVERIFY2(left >= 1 && left <= cores, qPrintable(QString::number(left)));
            QTest::qWait(120);
        }
    }

    void affinityCoresFollowTheMask()
    {
        // This thread's mask narrowed to its last core, then one core more where there is one:
        // affinityCores names exactly those, ascending; the mask is restored afterwards.
        cpu_set_t saved;
        CPU_ZERO(&saved);
        QCOMPARE(sched_getaffinity(0, sizeof(saved), &saved), 0);
        std::vector<int> all;
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &saved))
                all.push_back(cpu);
        QCOMPARE(affinityCores(), all);
        QVERIFY(!all.empty());
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(all.back(), &one);
        QCOMPARE(sched_setaffinity(0, sizeof(one), &one), 0);
        const std::vector<int> narrowed = affinityCores();
        std::vector<int> twoCores;
        if (all.size() > 1) {
            CPU_SET(all.front(), &one);
            QCOMPARE(sched_setaffinity(0, sizeof(one), &one), 0);
            twoCores = affinityCores();
        }
        QCOMPARE(sched_setaffinity(0, sizeof(saved), &saved), 0);
        QCOMPARE(narrowed, std::vector<int>{all.back()});
        if (all.size() > 1)
            QCOMPARE(twoCores, (std::vector<int>{all.front(), all.back()}));
        QCOMPARE(affinityCores(), all);
    }

    void defaultIntraOpThreadsAreTheSchedulableCores()
    {
        // As TensorFlow's intra_op_parallelism_threads = 0: one thread per core of the affinity, so
        // `taskset -c N` gets one intra-op thread, not one per hardware thread of the machine.
        cpu_set_t saved;
        CPU_ZERO(&saved);
        QCOMPARE(sched_getaffinity(0, sizeof(saved), &saved), 0);
        QCOMPARE(schedulableCores(), CPU_COUNT(&saved));
        QCOMPARE(CpuDevice(0, 0).intraOpThreads(), CPU_COUNT(&saved));
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(affinityCores().front(), &one);
        QCOMPARE(sched_setaffinity(0, sizeof(one), &one), 0);
        const int narrowed = schedulableCores();
        const int threads = CpuDevice(0, 0).intraOpThreads();
        const int asked = CpuDevice(0, 3).intraOpThreads();
        QCOMPARE(sched_setaffinity(0, sizeof(saved), &saved), 0);
        QCOMPARE(narrowed, 1);
        QCOMPARE(threads, 1);
        QCOMPARE(asked, 3); // an explicit count is kept
    }
};

QTEST_GUILESS_MAIN(TestOtherProgramsLoad)
#include "test_other_programs_load.moc"
