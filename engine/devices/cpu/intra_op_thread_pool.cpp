// IntraOpThreadPool: one shared task queue, workers that spin a while before they sleep.
#include "devices/cpu/intra_op_thread_pool.h"
#include "devices/cpu/current_cpu.h"

#include <algorithm>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <pthread.h>
#endif

namespace tstudio {

namespace {

struct CurrentWorker {
    const IntraOpThreadPool* pool = nullptr;
    int index = -1;
};
thread_local CurrentWorker t_current;

inline void cpuRelax()
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

} // namespace

IntraOpThreadPool::IntraOpThreadPool(int threads, std::chrono::microseconds spinFor, bool sleepOnSchedulerCore)
    : m_spinFor(spinFor), m_sleepOnSchedulerCore(sleepOnSchedulerCore), m_maxSpinning(std::max(1, threads - 1))
{
    const int count = std::max(1, threads);
    m_workers.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

IntraOpThreadPool::~IntraOpThreadPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_stopping.store(true, std::memory_order_relaxed);
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers)
        worker.join();
}

void IntraOpThreadPool::Schedule(std::function<void()> fn)
{
    if (t_current.pool != this)
        m_schedulerCpu.store(currentCpu(), std::memory_order_relaxed);
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        // A worker's nested section while every worker is inside a task: nobody would take it
        // before one of them finished, and the scheduling worker is about to wait for it (a
        // nested parallelFor). It runs here, as part of its parent.
        if (t_current.pool == this && m_running >= static_cast<int>(m_workers.size())) {
            lock.unlock();
            fn();
            return;
        }
        m_tasks.push_back(std::move(fn));
        const int queued = m_queued.fetch_add(1, std::memory_order_release) + 1;
        // Spinners take up to one task each within a microsecond or two; wake a sleeper only for
        // the tasks beyond them.
        if (m_sleeping > 0 && queued > m_spinning.load(std::memory_order_relaxed))
            m_wake.notify_one();
    }
}

int IntraOpThreadPool::CurrentThreadId() const
{
    return t_current.pool == this ? t_current.index : -1;
}

bool IntraOpThreadPool::spinForWork() const
{
    const auto deadline = std::chrono::steady_clock::now() + m_spinFor;
    for (unsigned i = 1;; ++i) {
        if (m_queued.load(std::memory_order_acquire) > 0 || m_stopping.load(std::memory_order_relaxed))
            return true;
        cpuRelax();
        if ((i & 255u) == 0) {
            if (std::chrono::steady_clock::now() >= deadline)
                return false;
            // A spinner on the core of the thread that schedules the work (the machine's other
            // cores are busy with other programs) only delays that thread: sleep instead.
            if (m_sleepOnSchedulerCore) {
                const int cpu = currentCpu();
                if (cpu >= 0 && cpu == m_schedulerCpu.load(std::memory_order_relaxed))
                    return false;
            }
            // Let another thread that wants this core have it now and then (a spinner must
            // never hold up real work when the machine is busier than the pool expects).
            if ((i & 4095u) == 0)
                std::this_thread::yield();
        }
    }
}

void IntraOpThreadPool::workerLoop(int index)
{
    t_current = {this, index};
#if defined(__linux__)
    const std::string name = "intra-op " + std::to_string(index);
    pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
#endif
    std::unique_lock<std::mutex> lock(m_mutex);
    bool spunOut = true; // a new worker sleeps until there is work
    for (;;) {
        if (!m_tasks.empty()) {
            std::function<void()> task = std::move(m_tasks.front());
            m_tasks.pop_front();
            const int left = m_queued.fetch_sub(1, std::memory_order_relaxed) - 1;
            if (m_sleeping > 0 && left > m_spinning.load(std::memory_order_relaxed))
                m_wake.notify_one();
            ++m_running;
            lock.unlock();
            task();
            task = nullptr; // the task's captures are released outside the lock
            lock.lock();
            --m_running;
            spunOut = false;
            continue;
        }
        if (m_stop)
            return;
        // Spin only while fewer workers than the pool's share of the cores (all but the
        // scheduling thread's) are busy or spinning: a spinner beside two running threads on two
        // cores would take time from them.
        if (!spunOut && m_running + m_spinning.load(std::memory_order_relaxed) < m_maxSpinning) {
            m_spinning.fetch_add(1, std::memory_order_relaxed);
            lock.unlock();
            const bool sawWork = spinForWork();
            lock.lock();
            m_spinning.fetch_sub(1, std::memory_order_relaxed);
            // Work another worker took first: spin again; a spin that ran out: sleep.
            spunOut = !sawWork;
            continue;
        }
        ++m_sleeping;
        m_wake.wait(lock);
        --m_sleeping;
        spunOut = false;
    }
}

} // namespace tstudio
