// cpuRunInParallel and cpuParallelFor: helpers take items from a shared counter; the caller works too.
#include "devices/cpu/cpu_parallel.h"
#include "devices/cpu/current_cpu.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tstudio {

using Clock = std::chrono::steady_clock;

void cpuRunInParallel(const Eigen::ThreadPoolDevice* device, std::size_t count, int threads,
                      const std::function<void(std::size_t)>& work)
{
    const int helpers =
        device == nullptr
            ? 0
            : static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), count)) - 1;
    if (helpers <= 0) {
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
    take();
    // Every item is taken: close the loop to helpers not yet started, then wait for those that
    // are finishing their last items. On its own core the caller first waits awake for up to a
    // millisecond (waking a sleeping thread costs tens of microseconds on a virtual machine); when
    // a helper runs on the caller's core, it sleeps at once, so that the helper has the core.
    shared->state.fetch_or(kClosed, std::memory_order_acq_rel);
    const auto deadline = Clock::now() + std::chrono::microseconds(1000);
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
