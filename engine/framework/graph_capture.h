// Graph capture: devices whose queued work can be recorded once and replayed (CUDA Graphs), the
// capability the session uses to run a static training step without the executor.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tstudio {

/// Device work recorded by CapturingDevice::endCapture. replay() queues all of it again, reading
/// and writing the same addresses as when it was recorded. Destroying it waits for its replays.
class CapturedWork {
public:
    virtual ~CapturedWork() = default;
    /// Queues the recorded work on the device (asynchronously, in order with its other work).
    virtual Status replay() = 0;
    /// Work items recorded (kernels, copies, memsets), for reports.
    virtual std::int64_t size() const = 0;
};

/// Implemented by devices that can record their queued work (a CudaDevice). Between beginCapture
/// and endCapture, on the calling thread only:
///  - kernels queue work that is recorded, not run; allocator() serves a pool private to the
///    capture, so the recorded addresses stay reserved for the CapturedWork;
///  - copies to the device record their page-locked sources and keep them alive with the work;
///  - anything that would make the host wait for the device (copyToHost, synchronize) fails with
///    FailedPrecondition instead, because the value it needs does not exist yet.
/// The caller makes sure no other thread queues work on the device meanwhile.
class CapturingDevice {
public:
    virtual ~CapturingDevice() = default;
    virtual Status beginCapture() = 0;
    /// Ends the capture begun on this thread (also after a failed step, to leave capture mode).
    virtual Expected<std::unique_ptr<CapturedWork>> endCapture() = 0;
    /// Copies host tensor `host` into the existing device tensor `destination` (same dtype and
    /// byte size), ordered after the device's queued work and before its later work.
    virtual Status copyFromHostInto(const Tensor& host, const Tensor& destination) = 0;
};

} // namespace tstudio
