// Tests for the intra-op thread pool (spinning workers, nested sections, draining) and the CPU
// parallel loops that run on it (cpuRunInParallel, cpuParallelFor).
#define EIGEN_USE_THREADS
#include "devices/cpu/cpu_device.h"
#include "devices/cpu/cpu_parallel.h"
#include "devices/cpu/intra_op_thread_pool.h"

#include <QTest>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>
#include <vector>

using namespace tstudio;

namespace {

/// Waits up to `limit` for `done`, polling.
template <typename F> bool eventually(F done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000))
{
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > end)
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

/// Keeps the calling thread (and the threads it starts) on the core it runs on now, as when every
/// other core is busy with another program; the thread's former cores come back on destruction.
class OneCore {
public:
    OneCore()
    {
        m_ok = sched_getaffinity(0, sizeof(m_former), &m_former) == 0;
        const int cpu = sched_getcpu();
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        m_ok = m_ok && cpu >= 0 && sched_setaffinity(0, sizeof(one), &one) == 0;
    }
    ~OneCore()
    {
        if (m_ok)
            sched_setaffinity(0, sizeof(m_former), &m_former);
    }
    OneCore(const OneCore&) = delete;
    OneCore& operator=(const OneCore&) = delete;
    bool ok() const { return m_ok; }

private:
    cpu_set_t m_former{};
    bool m_ok = false;
};

/// About `us` microseconds of work on this thread.
void busyFor(int us)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < end) {
    }
}

} // namespace

class TestIntraOpThreadPool : public QObject {
    Q_OBJECT
private slots:
    void runsTasksOnEveryWorkerAtOnce()
    {
        // Three tasks that each wait until all three are running: only three distinct workers
        // running at the same time let them finish.
        IntraOpThreadPool pool(3, std::chrono::microseconds(2000000));
        QCOMPARE(pool.NumThreads(), 3);
        QCOMPARE(pool.CurrentThreadId(), -1);
        Eigen::Notification awake; // wakes a worker, which then spins
        pool.Schedule([&] { awake.Notify(); });
        awake.Wait();
        std::atomic<int> inside{0};
        std::atomic<bool> met{true};
        std::mutex mutex;
        std::set<int> ids;
        Eigen::Barrier barrier(3);
        for (int i = 0; i < 3; ++i) {
            pool.Schedule([&] {
                {
                    std::lock_guard<std::mutex> lock(mutex);
                    ids.insert(pool.CurrentThreadId());
                }
                inside.fetch_add(1);
                if (!eventually([&] { return inside.load() == 3; }))
                    met = false;
                barrier.Notify();
            });
        }
        barrier.Wait();
        QVERIFY(met.load());
        QCOMPARE(ids, (std::set<int>{0, 1, 2}));
        // Many small tasks all run.
        std::atomic<int> ran{0};
        Eigen::Barrier many(500);
        for (int i = 0; i < 500; ++i)
            pool.Schedule([&] {
                ran.fetch_add(1);
                many.Notify();
            });
        many.Wait();
        QCOMPARE(ran.load(), 500);
    }

    void nestedSectionsFinish()
    {
        // Tasks that split their own work across the pool and wait for it, as Eigen's parallelFor
        // does when a kernel runs inside another's task: with every worker inside an outer task,
        // the nested sections run on the worker that asked for them.
        IntraOpThreadPool pool(2);
        Eigen::ThreadPoolDevice device(&pool, 2);
        std::vector<std::atomic<int>> hits(32);
        Eigen::Barrier outer(2);
        std::atomic<int> started{0};
        Eigen::Notification awake; // a first task wakes a worker, which then spins
        pool.Schedule([&] { awake.Notify(); });
        awake.Wait();
        for (int t = 0; t < 2; ++t) {
            pool.Schedule([&, t] {
                started.fetch_add(1);
                while (pool.CurrentThreadId() >= 0 && started.load() < 2) // both outer tasks running
                    std::this_thread::yield();
                device.parallelFor(16, Eigen::TensorOpCost(0, 0, 1e6), [&](Eigen::Index first, Eigen::Index last) {
                    for (Eigen::Index i = first; i < last; ++i)
                        hits[static_cast<std::size_t>(t * 16 + i)].fetch_add(1);
                });
                outer.Notify();
            });
        }
        outer.Wait();
        for (const auto& h : hits)
            QCOMPARE(h.load(), 1);
    }

    void workersSpinThenSleep()
    {
        // At most NumThreads() - 1 workers spin (the scheduling thread keeps a core), and they stop
        // once the spin time has passed with no work.
        // (Spinning on this thread's core too: a busy test machine may put every worker there.)
        IntraOpThreadPool pool(4, std::chrono::microseconds(300000), false);
        QCOMPARE(pool.spinningWorkers(), 0); // new workers sleep
        Eigen::Barrier barrier(8);
        for (int i = 0; i < 8; ++i)
            pool.Schedule([&] { barrier.Notify(); });
        barrier.Wait();
        // The workers that ran the tasks spin for 300 ms before they sleep.
        QVERIFY(eventually([&] { return pool.spinningWorkers() > 0; }, std::chrono::milliseconds(200)));
        QVERIFY(pool.spinningWorkers() <= 3);
        QVERIFY(eventually([&] { return pool.spinningWorkers() == 0; }));
        // Asleep again, the pool still takes work.
        std::atomic<int> ran{0};
        Eigen::Barrier again(3);
        for (int i = 0; i < 3; ++i)
            pool.Schedule([&] {
                ran.fetch_add(1);
                again.Notify();
            });
        again.Wait();
        QCOMPARE(ran.load(), 3);
    }

    void destructorRunsQueuedTasks()
    {
        std::atomic<int> ran{0};
        {
            IntraOpThreadPool pool(2);
            // Keep both workers busy so that the rest queue up behind them.
            std::atomic<bool> release{false};
            for (int i = 0; i < 2; ++i)
                pool.Schedule([&] {
                    while (!release.load())
                        std::this_thread::yield();
                    ran.fetch_add(1);
                });
            for (int i = 0; i < 50; ++i)
                pool.Schedule([&] { ran.fetch_add(1); });
            release.store(true);
        }
        QCOMPARE(ran.load(), 52);
    }

    void runInParallelTakesEveryItemOnce()
    {
        IntraOpThreadPool pool(2);
        Eigen::ThreadPoolDevice device(&pool, 2);
        for (std::size_t count : {0u, 1u, 2u, 3u, 17u, 1000u}) {
            std::vector<std::atomic<int>> hits(count);
            cpuRunInParallel(&device, count, 2, [&](std::size_t i) { hits[i].fetch_add(1); });
            for (std::size_t i = 0; i < count; ++i)
                QCOMPARE(hits[i].load(), 1);
        }
        // No device: in order, on this thread.
        std::vector<std::size_t> order;
        cpuRunInParallel(nullptr, 5, 4, [&](std::size_t i) { order.push_back(i); });
        QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
    }

    void runInParallelNeverWaitsForAWorkerThatHasNotStarted()
    {
        // The pool's only worker is held in a task (as a worker may be descheduled for
        // milliseconds on a core another program shares): the caller runs every item itself and
        // returns without waiting for it.
        IntraOpThreadPool pool(1);
        Eigen::ThreadPoolDevice device(&pool, 2);
        std::atomic<bool> release{false};
        std::atomic<bool> held{false};
        pool.Schedule([&] {
            held.store(true);
            while (!release.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        QVERIFY(eventually([&] { return held.load(); }));
        std::atomic<int> byCaller{0};
        std::atomic<bool> returned{false};
        std::thread section([&] {
            const std::thread::id me = std::this_thread::get_id();
            cpuRunInParallel(&device, 8, 2, [&](std::size_t) {
                if (std::this_thread::get_id() == me)
                    byCaller.fetch_add(1);
            });
            returned.store(true);
        });
        const bool returnedWhileHeld = eventually([&] { return returned.load(); });
        release.store(true);
        section.join();
        QVERIFY2(returnedWhileHeld, "cpuRunInParallel waited for a worker that never started its task");
        QCOMPARE(byCaller.load(), 8);
        // The late task finds the loop closed and does nothing; the pool still works.
        std::atomic<int> hits{0};
        cpuRunInParallel(&device, 100, 2, [&](std::size_t) { hits.fetch_add(1); });
        QCOMPARE(hits.load(), 100);
    }

    void aLateHelperSendsTheNextLoopsAlone()
    {
        // A helper taken off its core in the middle of an item (here: it sleeps 30 ms in it, as
        // when the scheduler gives its core to another program) keeps the caller waiting: the
        // calling thread's next loops run alone, and its helpers come back after at most 200 ms.
        // A thread of its own: the record of late helpers belongs to the calling thread.
        IntraOpThreadPool pool(2);
        Eigen::ThreadPoolDevice device(&pool, 2);
        bool late = false;
        int helpedAfterLate = -1; // -1: not checked
        bool helpersBack = false;
        std::thread([&] {
            const std::thread::id caller = std::this_thread::get_id();
            auto loopWithHelpers = [&](int items, auto&& item) {
                std::atomic<int> byHelpers{0};
                cpuRunInParallel(&device, static_cast<std::size_t>(items), 2, [&](std::size_t i) {
                    if (std::this_thread::get_id() != caller)
                        byHelpers.fetch_add(1);
                    item(i);
                });
                return byHelpers.load();
            };
            for (int attempt = 0; attempt < 20 && !late; ++attempt) {
                std::atomic<bool> helperStarted{false};
                late = loopWithHelpers(2, [&](std::size_t) {
                           if (std::this_thread::get_id() != caller) {
                               helperStarted.store(true);
                               std::this_thread::sleep_for(std::chrono::milliseconds(30));
                           } else {
                               eventually([&] { return helperStarted.load(); }, std::chrono::milliseconds(5));
                           }
                       }) > 0;
            }
            if (!late)
                return;
            const auto afterLate = std::chrono::steady_clock::now();
            const int helped = loopWithHelpers(64, [](std::size_t) { busyFor(20); });
            if (std::chrono::steady_clock::now() - afterLate < std::chrono::milliseconds(15))
                helpedAfterLate = helped;
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
            helpersBack = eventually([&] { return loopWithHelpers(64, [](std::size_t) { busyFor(20); }) > 0; });
        }).join();
        QVERIFY2(late, "no helper took an item in 20 tries");
        if (helpedAfterLate < 0)
            qInfo("the test's thread was off its core for 15 ms: the loop alone is not checked");
        else
            QCOMPARE(helpedAfterLate, 0);
        QVERIFY2(helpersBack, "the helpers did not come back");
    }

    void oneSharedCoreFinishesSectionsAndStopsSpinning()
    {
        // Every thread of this test on one core, as when the machine's other cores are busy with
        // other programs: helpers that run take turns with the caller (which sleeps rather than
        // waits awake for them), every item runs once, and the pool's workers, told to spin for
        // 10 s, stop spinning on the scheduling thread's core and sleep.
        OneCore oneCore;
        if (!oneCore.ok())
            QSKIP("this system does not let the test keep its threads on one core (sched_setaffinity)");
        IntraOpThreadPool pool(2, std::chrono::seconds(10));
        Eigen::ThreadPoolDevice device(&pool, 2);
        const std::thread::id caller = std::this_thread::get_id();
        int helpedSections = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int section = 0; section < 200; ++section) {
            std::vector<std::atomic<int>> hits(16);
            std::atomic<int> byHelpers{0};
            cpuRunInParallel(&device, hits.size(), 2, [&](std::size_t i) {
                busyFor(50);
                hits[i].fetch_add(1);
                if (std::this_thread::get_id() != caller)
                    byHelpers.fetch_add(1);
            });
            for (const auto& h : hits)
                QCOMPARE(h.load(), 1);
            helpedSections += byHelpers.load() > 0 ? 1 : 0;
        }
        // 200 sections of 0.8 ms of work: a caller that waited awake for a helper on its own core
        // would spend up to a millisecond more per helped section, spinning.
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo("200 sections on one core in %.3f s, %d with a helper", seconds, helpedSections);
        QVERIFY(eventually([&] { return pool.spinningWorkers() == 0; }, std::chrono::milliseconds(3000)));
    }

    void parallelForCoversTheRangeInAlignedParts()
    {
        IntraOpThreadPool pool(3);
        Eigen::ThreadPoolDevice device(&pool, 3);
        const Eigen::TensorOpCost heavy(4, 4, 1e6); // enough work per element to use every thread
        for (Eigen::Index n : {1, 2, 63, 64, 65, 1000, 100003}) {
            for (Eigen::Index align : {1, 64}) {
                std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
                std::mutex mutex;
                std::vector<std::pair<Eigen::Index, Eigen::Index>> ranges;
                cpuParallelFor(
                    device, n, heavy,
                    [&](Eigen::Index first, Eigen::Index last) {
                        {
                            std::lock_guard<std::mutex> lock(mutex);
                            ranges.emplace_back(first, last);
                        }
                        for (Eigen::Index i = first; i < last; ++i)
                            hits[static_cast<std::size_t>(i)].fetch_add(1);
                    },
                    align);
                for (const auto& h : hits)
                    QCOMPARE(h.load(), 1);
                QVERIFY(ranges.size() <= 3);
                if (n >= 3 * align)
                    QCOMPARE(ranges.size(), std::size_t(3));
                for (const auto& [first, last] : ranges) {
                    QVERIFY(first < last);
                    QVERIFY2(
                        first % align == 0,
                        qPrintable(QStringLiteral("n %1 align %2: range starts at %3").arg(n).arg(align).arg(first)));
                }
            }
        }
        // Cheap work stays on the calling thread as one range.
        int calls = 0;
        cpuParallelFor(device, 100, Eigen::TensorOpCost(4, 4, 1), [&](Eigen::Index first, Eigen::Index last) {
            ++calls;
            QCOMPARE(first, Eigen::Index(0));
            QCOMPARE(last, Eigen::Index(100));
        });
        QCOMPARE(calls, 1);
    }

    void eigenExpressionsGiveTheSameSumOnThePool()
    {
        IntraOpThreadPool pool(2);
        Eigen::ThreadPoolDevice device(&pool, 2);
        std::vector<float> a(1 << 20), b(a.size()), out(a.size());
        std::iota(a.begin(), a.end(), 0.0f);
        std::iota(b.begin(), b.end(), 1.0f);
        Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>> o(out.data(), Eigen::Index(out.size()));
        Eigen::TensorMap<Eigen::Tensor<const float, 1, Eigen::RowMajor>> x(a.data(), Eigen::Index(a.size()));
        Eigen::TensorMap<Eigen::Tensor<const float, 1, Eigen::RowMajor>> y(b.data(), Eigen::Index(b.size()));
        o.device(device) = x * 2.0f + y;
        for (std::size_t i = 0; i < out.size(); i += 4099)
            QCOMPARE(out[i], a[i] * 2.0f + b[i]);
    }

    /// A CPU device's active threads bound the loops of the ops that start after the change: on
    /// one, every range of a loop worth splitting runs on the calling thread; on three, the loop
    /// splits again. Out-of-range counts are clamped; the pool's size stays.
    void cpuDeviceLimitsLoopsToItsActiveThreads()
    {
        CpuDevice cpu(0, 3);
        QCOMPARE(cpu.intraOpThreads(), 3);
        QCOMPARE(cpu.activeIntraOpThreads(), 3);
        QCOMPARE(cpu.eigenCpuDevice()->numThreads(), 3);
        const Eigen::TensorOpCost heavy(4096, 4096, 100000); // worth every thread for any n > 1
        const auto ranges = [&] {
            std::mutex mutex;
            std::set<std::thread::id> threads;
            int parts = 0;
            cpuParallelFor(*cpu.eigenCpuDevice(), 3000, heavy, [&](Eigen::Index, Eigen::Index) {
                std::lock_guard lock(mutex);
                threads.insert(std::this_thread::get_id());
                ++parts;
            });
            return std::pair{parts, threads};
        };
        cpu.setActiveIntraOpThreads(1);
        QCOMPARE(cpu.activeIntraOpThreads(), 1);
        QCOMPARE(cpu.eigenCpuDevice()->numThreads(), 1);
        const auto [alone, aloneThreads] = ranges();
        QCOMPARE(alone, 1);
        QCOMPARE(aloneThreads, std::set<std::thread::id>{std::this_thread::get_id()});
        cpu.setActiveIntraOpThreads(3);
        QCOMPARE(ranges().first, 3);
        cpu.setActiveIntraOpThreads(0);
        QCOMPARE(cpu.activeIntraOpThreads(), 1);
        cpu.setActiveIntraOpThreads(8);
        QCOMPARE(cpu.activeIntraOpThreads(), 3);
        QCOMPARE(cpu.intraOpThreads(), 3);
    }
};

QTEST_GUILESS_MAIN(TestIntraOpThreadPool)
#include "test_intra_op_thread_pool.moc"
