// CudaStream and CudaEvent: owned CUDA streams and events, released with their owner.
#pragma once

#include "core/expected.h"

#include <cuda_runtime_api.h>

namespace tstudio::cuda {

/// A non-blocking stream on the current device (it does not wait for the legacy default stream).
class CudaStream {
public:
    static Expected<CudaStream> create();
    CudaStream() = default;
    CudaStream(CudaStream&& other) noexcept;
    CudaStream& operator=(CudaStream&& other) noexcept;
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;
    ~CudaStream();

    cudaStream_t get() const { return m_stream; }
    /// Waits for the stream's queued work; its first error, if any.
    Status synchronize() const;
    /// Later work on this stream waits until `event` (recorded on another stream) has happened.
    Status waitFor(cudaEvent_t event) const;

private:
    cudaStream_t m_stream = nullptr;
};

/// An event without timing (the cheap kind), for ordering one stream after another.
class CudaEvent {
public:
    static Expected<CudaEvent> create();
    CudaEvent() = default;
    CudaEvent(CudaEvent&& other) noexcept;
    CudaEvent& operator=(CudaEvent&& other) noexcept;
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    ~CudaEvent();

    cudaEvent_t get() const { return m_event; }
    /// Records the point reached by `stream`'s queued work.
    Status record(cudaStream_t stream) const;

private:
    cudaEvent_t m_event = nullptr;
};

/// Makes `later` wait for everything queued on `earlier` so far, through `event`.
Status orderAfter(const CudaStream& later, cudaStream_t earlier, const CudaEvent& event);

} // namespace tstudio::cuda
