// GpuActivityRecorder: what ran on the GPUs over a stretch of time, from the driver's own record
// of every kernel, copy and memset (CUPTI's activity API): benchmarks' "GPU busy" share, and the
// kernels of a traced step on their streams (TensorFlow's GPU tracer).
#pragma once

#include "core/expected.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tstudio {

/// One kernel, copy or memset as the driver recorded it.
struct GpuActivityRecord {
    enum class Kind { kKernel, kCopy, kMemset };
    Kind kind = Kind::kKernel;
    /// Kernels: the demangled name. Copies: "MemcpyHtoD", "MemcpyDtoH", "MemcpyDtoD", "MemcpyHtoH"
    /// or "Memcpy" with the direction unknown. Memsets: "Memset".
    std::string name;
    std::uint32_t device = 0; ///< CUDA device ordinal
    std::uint32_t stream = 0; ///< the driver's stream id
    std::uint64_t startNs = 0; ///< CUPTI's clock (GpuActivity::toSteady converts)
    std::uint64_t endNs = 0;
    /// The innermost GpuActivityTag of the thread that queued the work, 0 when there was none.
    std::uint64_t tag = 0;
    std::uint64_t bytes = 0;         ///< copies and memsets
    std::array<std::int32_t, 3> grid{};  ///< kernels
    std::array<std::int32_t, 3> block{}; ///< kernels
};

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

    /// Every record, in the order CUPTI delivered them; only when started with keepRecords.
    std::vector<GpuActivityRecord> records;
    /// The two clocks read together at start(): CUPTI's nanoseconds and the steady clock.
    std::uint64_t cuptiAtStart = 0;
    std::chrono::steady_clock::time_point steadyAtStart;
    /// A CUPTI timestamp on the steady clock.
    std::chrono::steady_clock::time_point toSteady(std::uint64_t cuptiNs) const
    {
        return steadyAtStart + std::chrono::nanoseconds(static_cast<std::int64_t>(cuptiNs - cuptiAtStart));
    }
};

struct GpuActivityOptions {
    /// Keep each kernel, copy and memset (GpuActivity::records) and what GpuActivityTags said of it;
    /// costs memory per record and a CUPTI record per launch call: for traced steps, not benches.
    bool keepRecords = false;
};

/// Tags the GPU work that the calling thread queues while it exists (CUPTI's external
/// correlation), for a recorder that keeps records; nested tags: the innermost wins. Costs one
/// atomic load when no such recorder runs.
class GpuActivityTag {
public:
    explicit GpuActivityTag(std::uint64_t tag);
    ~GpuActivityTag();
    GpuActivityTag(const GpuActivityTag&) = delete;
    GpuActivityTag& operator=(const GpuActivityTag&) = delete;

private:
    bool m_pushed = false;
};

/// Records the GPUs' activity while it exists. One at a time per process. CUPTI is loaded when
/// the first recorder starts (libcupti from the CUDA toolkit, found like the other CUDA libraries);
/// recording adds a little overhead to every launch, so time steps without a recorder and measure
/// the share in a separate block.
class GpuActivityRecorder {
public:
    /// Unavailable when the build has no CUDA or CUPTI cannot be loaded (with the reason);
    /// FailedPrecondition while another recorder exists.
    static Expected<std::unique_ptr<GpuActivityRecorder>> start(GpuActivityOptions options = {});
    virtual ~GpuActivityRecorder() = default;
    /// Stops recording and sums what ran since start(); records still in CUPTI's buffers are
    /// flushed first, so call it after the work to measure has finished (e.g. after a fetch).
    virtual Expected<GpuActivity> stop() = 0;
};

} // namespace tstudio
