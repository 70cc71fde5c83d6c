// GpuActivityRecorder: how busy the GPUs were over a stretch of time, from the driver's own
// record of every kernel, copy and memset (CUPTI's activity API), for benchmarks' "GPU busy" share.
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <memory>

namespace tstudio {

/// What ran on the GPUs between GpuActivityRecorder::start() and stop().
struct GpuActivity {
    double seconds = 0;            ///< from start() to stop(), on CUPTI's clock
    double busySeconds = 0;        ///< time in which at least one kernel, copy or memset ran
    double kernelSeconds = 0;      ///< the kernels' durations added up (overlaps counted twice)
    std::int64_t kernels = 0;      ///< kernel executions (each kernel of a replayed CUDA graph counts)
    std::int64_t copies = 0;       ///< copies between host and device or within a device
    std::int64_t memsets = 0;
    std::int64_t droppedRecords = 0; ///< records CUPTI could not keep (the figures are then low)
    /// busySeconds / seconds.
    double busyShare() const { return seconds > 0 ? busySeconds / seconds : 0; }
};

/// Records the GPUs' activity while it exists. One at a time per process. CUPTI is loaded when
/// the first recorder starts (libcupti from the CUDA toolkit, found like the other CUDA libraries);
/// recording adds a little overhead to every launch, so time steps without a recorder and measure
/// the share in a separate block.
class GpuActivityRecorder {
public:
    /// Unavailable when the build has no CUDA or CUPTI cannot be loaded (with the reason);
    /// FailedPrecondition while another recorder exists.
    static Expected<std::unique_ptr<GpuActivityRecorder>> start();
    virtual ~GpuActivityRecorder() = default;
    /// Stops recording and sums what ran since start(); records still in CUPTI's buffers are
    /// flushed first, so call it after the work to measure has finished (e.g. after a fetch).
    virtual Expected<GpuActivity> stop() = 0;
};

} // namespace tstudio
