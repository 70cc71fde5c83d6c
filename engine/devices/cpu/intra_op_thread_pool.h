// IntraOpThreadPool: the CPU device's worker threads, kept awake between the short parallel
// sections of a training step.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace tstudio {

/// An Eigen::ThreadPoolInterface for intra-op work (Eigen's ThreadPoolDevice::parallelFor and
/// cpuGemm hand it their tasks).
///
/// Why not Eigen's own non-blocking pool: a training step of a small network is a chain of ops of
/// 10 to 800 microseconds, each split across the threads. Eigen's workers spin only a few tens of
/// microseconds after their last task and then sleep; on a virtual machine, waking a sleeping
/// thread on an idle core costs 30 to 50 microseconds (measured on this project's 2-core VM), paid
/// at nearly every op. Here a worker that runs out of tasks spins for `spinFor` (default
/// kDefaultSpin, about a step's gap between parallel ops) before it sleeps, so the next op's tasks
/// start within a microsecond or two.
///
/// Spinning never takes the caller's core: a worker spins only while fewer than NumThreads() - 1
/// workers are running tasks or spinning (the thread that schedules work, usually the executor's,
/// has the N-th core), a spinner yields its core now and then, and it stops spinning (and sleeps)
/// when it finds itself on the core of the thread that schedules the work: on a machine whose
/// other cores are busy with other programs, its spinning would only take that thread's time.
/// Tasks run in the order scheduled (one shared queue); a sleeping worker is woken only when there
/// are more queued tasks than spinning workers.
///
/// Threads: Schedule may be called from any thread, including the pool's own. A task scheduled by
/// a worker while every worker is inside a task runs at once on that worker (a nested parallel
/// section would otherwise wait for a worker that is waiting for it). The destructor runs every
/// task already scheduled, then joins the workers.
class IntraOpThreadPool final : public Eigen::ThreadPoolInterface {
public:
    static constexpr std::chrono::microseconds kDefaultSpin{500};

    /// `threads` workers (at least 1). `sleepOnSchedulerCore` false keeps a worker spinning even on
    /// the core of the thread that schedules the work (for tests of the spinning itself).
    explicit IntraOpThreadPool(int threads, std::chrono::microseconds spinFor = kDefaultSpin,
                               bool sleepOnSchedulerCore = true);
    ~IntraOpThreadPool() override;
    IntraOpThreadPool(const IntraOpThreadPool&) = delete;
    IntraOpThreadPool& operator=(const IntraOpThreadPool&) = delete;

    void Schedule(std::function<void()> fn) override;
    int NumThreads() const override { return static_cast<int>(m_workers.size()); }
    /// The worker's index in [0, NumThreads()), or -1 on a thread that is not this pool's.
    int CurrentThreadId() const override;

    /// Workers spinning right now (for tests and diagnostics).
    int spinningWorkers() const { return m_spinning.load(std::memory_order_relaxed); }

private:
    void workerLoop(int index);
    /// Spins until a task is queued, the pool stops or `spinFor` has passed; true if a task is there.
    bool spinForWork() const;

    const std::chrono::microseconds m_spinFor;
    const bool m_sleepOnSchedulerCore;
    const int m_maxSpinning;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_tasks; ///< guarded by m_mutex
    int m_sleeping = 0;                        ///< guarded by m_mutex
    int m_running = 0;                         ///< workers inside a task; guarded by m_mutex
    bool m_stop = false;                       ///< guarded by m_mutex
    /// Mirrors of m_tasks.size() and m_stop that spinners read without the lock; written under it.
    std::atomic<int> m_queued{0};
    std::atomic<bool> m_stopping{false};
    std::atomic<int> m_spinning{0}; ///< changed under m_mutex
    /// The core of the last thread outside the pool that scheduled a task (-1: unknown).
    std::atomic<int> m_schedulerCpu{-1};
    std::vector<std::thread> m_workers;
};

} // namespace tstudio
