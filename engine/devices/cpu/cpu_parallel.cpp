// cpuRunInParallel and cpuParallelFor: helpers take items from a shared counter; the caller works too.
#include "devices/cpu/cpu_parallel.h"
#include "devices/cpu/current_cpu.h"
#include "devices/cpu/other_programs_load.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tstudio {

using Clock = std::chrono::steady_clock;

namespace {

/// A calling thread's record of helpers that kept it waiting (see cpuRunInParallel's header).
struct LateHelpers {
    /// Until then this thread's loops run alone.
    Clock::time_point aloneUntil{};
    /// The last stretch alone; doubled when helpers are late again soon after it.
    Clock::duration stretch{};
};
thread_local LateHelpers t_lateHelpers;

/// A wait for helpers longer than this (and longer than twice the caller's own share) means a
/// helper was taken off its core in the middle of an item: the scheduler gives the core to another
/// program for milliseconds (1 to 6 ms measured under `--background-load 1`), while a helper that
/// only started late costs at most one item.
constexpr auto kLateWait = std::chrono::microseconds(500);
constexpr auto kFirstStretchAlone = std::chrono::milliseconds(20);
constexpr auto kLongestStretchAlone = std::chrono::milliseconds(200);
/// The stretches when other programs hold some of the loop's cores (coresLeftByOtherPrograms):
/// each stretch's end costs a late helper again while they do, so they are ten times longer.
constexpr auto kFirstStretchShared = std::chrono::milliseconds(200);
constexpr auto kLongestStretchShared = std::chrono::milliseconds(2000);

void noteWait(Clock::time_point started, Clock::time_point closed, Clock::time_point finished, bool othersHoldCores)
{
    const Clock::duration waited = finished - closed;
    if (waited <= kLateWait || waited <= 2 * (closed - started))
        return;
    const Clock::duration first = othersHoldCores ? Clock::duration(kFirstStretchShared) : kFirstStretchAlone;
    const Clock::duration longest = othersHoldCores ? Clock::duration(kLongestStretchShared) : kLongestStretchAlone;
    LateHelpers& late = t_lateHelpers;
    // Late again within twice the last stretch after it ended: the helpers' cores are still
    // shared, so stay alone longer.
    if (late.stretch.count() > 0 && finished - late.aloneUntil < 2 * late.stretch)
        late.stretch = std::clamp<Clock::duration>(2 * late.stretch, first, longest);
    else
        late.stretch = first;
    late.aloneUntil = finished + late.stretch;
}

} // namespace

void cpuRunInParallel(const Eigen::ThreadPoolDevice* device, std::size_t count, int threads,
                      const std::function<void(std::size_t)>& work)
{
    const int helpers =
        device == nullptr
            ? 0
            : static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), count)) - 1;
    if (helpers <= 0 || Clock::now() < t_lateHelpers.aloneUntil) {
        for (std::size_t i = 0; i < count; ++i)
            work(i);
        return;
    }
    // What the helpers share with the caller lives on the heap: a helper task may run (and find
    // nothing to do) after the caller has returned.
    struct Shared {
        std::atomic<std::size_t> next{0};
        /// Helpers inside `take`, plus kClosed once the caller has run out of items.
        std::atomic<unsigned> state{0};
        /// Set by a helper that started on the caller's core.
        std::atomic<bool> sharedCore{false};
        int callerCpu = -1;
    };
    static constexpr unsigned kClosed = 1u << 31;
    auto shared = std::make_shared<Shared>();
    shared->callerCpu = currentCpu();
    auto take = [&work, count, next = &shared->next] {
        for (std::size_t i; (i = next->fetch_add(1, std::memory_order_relaxed)) < count;)
            work(i);
    };
    for (int h = 0; h < helpers; ++h) {
        device->enqueueNoNotification([take, shared] {
            // A helper that starts after the caller has closed the loop does nothing (and never
            // touches `work`, which may be gone): the caller never waits for a worker that was not
            // running when the items ran out (on a busy machine it may not run for milliseconds).
            unsigned state = shared->state.load(std::memory_order_acquire);
            do {
                if (state & kClosed)
                    return;
            } while (!shared->state.compare_exchange_weak(state, state + 1, std::memory_order_acq_rel,
                                                          std::memory_order_acquire));
            if (shared->callerCpu >= 0 && currentCpu() == shared->callerCpu)
                shared->sharedCore.store(true, std::memory_order_relaxed);
            take();
            if (shared->state.fetch_sub(1, std::memory_order_acq_rel) == (kClosed | 1u))
                shared->state.notify_one();
        });
    }
    // Asked before the items run: the answer may take a reading of /proc/stat.
    const bool othersHoldCores = coresLeftByOtherPrograms() < helpers + 1;
    const Clock::time_point started = Clock::now();
    take();
    // Every item is taken: close the loop to helpers not yet started, then wait for those that
    // are finishing their last items. On its own core the caller first waits awake for up to a
    // millisecond (waking a sleeping thread costs tens of microseconds on a virtual machine); when
    // a helper runs on the caller's core, it sleeps at once, so that the helper has the core.
    shared->state.fetch_or(kClosed, std::memory_order_acq_rel);
    const Clock::time_point closed = Clock::now();
    const auto deadline = closed + std::chrono::microseconds(1000);
    for (unsigned i = 1; shared->state.load(std::memory_order_acquire) != kClosed; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
        if (shared->sharedCore.load(std::memory_order_relaxed) ||
            ((i & 255u) == 0 && Clock::now() >= deadline)) {
            for (unsigned state; (state = shared->state.load(std::memory_order_acquire)) != kClosed;)
                shared->state.wait(state, std::memory_order_acquire);
            break;
        }
    }
    noteWait(started, closed, Clock::now(), othersHoldCores);
}

void cpuParallelFor(const Eigen::ThreadPoolDevice& device, Eigen::Index n, const Eigen::TensorOpCost& cost,
                    const std::function<void(Eigen::Index, Eigen::Index)>& f, Eigen::Index align)
{
    if (n <= 0)
        return;
    const int threads = n == 1 ? 1
                               : Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::numThreads(
                                     static_cast<double>(n), cost, std::max(device.numThreads(), 1));
    align = std::max<Eigen::Index>(align, 1);
    // At most one range per `align` elements; boundaries at the even split rounded down to `align`.
    const Eigen::Index parts = std::min<Eigen::Index>(threads, (n + align - 1) / align);
    if (parts <= 1) {
        f(0, n);
        return;
    }
    auto boundary = [&](Eigen::Index i) {
        if (i >= parts)
            return n;
        return std::min(n, n * i / parts / align * align);
    };
    cpuRunInParallel(&device, static_cast<std::size_t>(parts), static_cast<int>(parts), [&](std::size_t i) {
        const Eigen::Index first = boundary(static_cast<Eigen::Index>(i));
        const Eigen::Index last = boundary(static_cast<Eigen::Index>(i) + 1);
        if (last > first)
            f(first, last);
    });
}

} // namespace tstudio
