// cpuRunInParallel and cpuParallelFor: the intra-op parallel loops of CPU kernels, with the calling
// thread working beside the device's pool.
#pragma once

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <unsupported/Eigen/CXX11/Tensor>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace tstudio {

/// Runs work(i) for every i in [0, count) on the calling thread and up to `threads` - 1 of the
/// device's pool workers (never more than count - 1); items are taken in index order by whichever
/// thread is free. Returns when every item has run. The calling thread waits for the last helper
/// on its own core for up to a millisecond before sleeping.
///
/// On a busy machine: once the calling thread has run out of items it never waits for a helper
/// that had not started (on a core shared with another program, a worker may not run for
/// milliseconds); and when a helper finds itself on the calling thread's own core (the other
/// cores are taken, so the two only take turns), the calling thread sleeps at once instead of
/// waiting awake, so that the helper has the core. When a helper still keeps the caller waiting
/// (over 500 us and over twice the caller's own share: the scheduler took the helper off a core it
/// shares with another program in the middle of an item, for milliseconds), the calling thread's
/// next loops run alone for 20 ms, doubled up to 200 ms while helpers are late again soon after:
/// two threads then never pay a time slice per loop, and a machine that becomes quiet gets its
/// helpers back within 200 ms. When other programs hold some of the loop's cores
/// (coresLeftByOtherPrograms, other_programs_load.h) the stretches are ten times longer, 200 ms
/// doubled up to 2 s: every stretch's end costs another late helper while they do. (Going alone
/// whenever a helper started on the caller's core was tried before: no faster under load, and on a
/// quiet machine it kept loops single-threaded.)
///
/// Why not Eigen's ThreadPoolDevice::parallelFor: when it cuts a loop into more blocks than
/// threads (it cuts up to four per thread), it hands the whole loop to the pool and the calling
/// thread sleeps until the pool is done, so on N cores only N - 1 threads work and the caller pays
/// a wake-up at the end; a 392,000-element update measured 88 to 110 us on 2 threads that way
/// against 41 us on one, and 23 us here.
///
/// `device` null, `threads` <= 1 or count <= 1: everything runs on the calling thread, in order.
/// `work` must not throw.
void cpuRunInParallel(const Eigen::ThreadPoolDevice* device, std::size_t count, int threads,
                      const std::function<void(std::size_t)>& work);

/// f(first, last) over [0, n), as Eigen's ThreadPoolDevice::parallelFor but through
/// cpuRunInParallel: the number of threads is Eigen's cost model's (TensorCostModel::numThreads
/// for n units of `cost`, at most the device's), one contiguous range per thread. With `align` > 1
/// every boundary but the last falls on a multiple of `align` (a kernel whose SIMD path must see
/// the same elements whatever the thread count asks for its packet multiple).
void cpuParallelFor(const Eigen::ThreadPoolDevice& device, Eigen::Index n, const Eigen::TensorOpCost& cost,
                    const std::function<void(Eigen::Index, Eigen::Index)>& f, Eigen::Index align = 1);

} // namespace tstudio
