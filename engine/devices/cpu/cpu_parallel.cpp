// cpuRunInParallel and cpuParallelFor: helpers take items from a shared counter; the caller works too.
#include "devices/cpu/cpu_parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tstudio {

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
    // The helpers' count lives on the heap: a helper still touches it after the caller has seen
    // zero and returned.
    struct Shared {
        std::atomic<std::size_t> next{0};
        std::atomic<int> helpersLeft{0};
    };
    auto shared = std::make_shared<Shared>();
    shared->helpersLeft.store(helpers, std::memory_order_relaxed);
    auto take = [&work, count, next = &shared->next] {
        for (std::size_t i; (i = next->fetch_add(1, std::memory_order_relaxed)) < count;)
            work(i);
    };
    for (int h = 0; h < helpers; ++h) {
        device->enqueueNoNotification([take, shared] {
            take();
            if (shared->helpersLeft.fetch_sub(1, std::memory_order_acq_rel) == 1)
                shared->helpersLeft.notify_one();
        });
    }
    take();
    // The helpers are finishing their last items: wait on this core, which has nothing else to
    // do, for up to a millisecond before sleeping (waking a sleeping thread costs tens of
    // microseconds on a virtual machine).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(1000);
    for (unsigned i = 1; shared->helpersLeft.load(std::memory_order_acquire) != 0; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
        if ((i & 255u) == 0 && std::chrono::steady_clock::now() >= deadline) {
            for (int left; (left = shared->helpersLeft.load(std::memory_order_acquire)) != 0;)
                shared->helpersLeft.wait(left, std::memory_order_acquire);
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
