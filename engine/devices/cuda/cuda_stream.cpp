// CudaStream and CudaEvent: owned CUDA streams and events.
#include "devices/cuda/cuda_stream.h"

#include "devices/cuda/cuda_error.h"

#include <utility>

namespace tstudio::cuda {

Expected<CudaStream> CudaStream::create()
{
    CudaStream stream;
    if (Status s = cudaStatus(cudaStreamCreateWithFlags(&stream.m_stream, cudaStreamNonBlocking), "cudaStreamCreate");
        !s.isOk())
        return unexpected(s);
    return stream;
}

CudaStream::CudaStream(CudaStream&& other) noexcept : m_stream(std::exchange(other.m_stream, nullptr)) {}

CudaStream& CudaStream::operator=(CudaStream&& other) noexcept
{
    if (this != &other) {
        if (m_stream)
            cudaStreamDestroy(m_stream);
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

CudaStream::~CudaStream()
{
    if (m_stream)
        cudaStreamDestroy(m_stream);
}

Status CudaStream::synchronize() const
{
    return cudaStatus(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
}

Status CudaStream::waitFor(cudaEvent_t event) const
{
    return cudaStatus(cudaStreamWaitEvent(m_stream, event, 0), "cudaStreamWaitEvent");
}

Expected<CudaEvent> CudaEvent::create()
{
    CudaEvent event;
    if (Status s = cudaStatus(cudaEventCreateWithFlags(&event.m_event, cudaEventDisableTiming), "cudaEventCreate");
        !s.isOk())
        return unexpected(s);
    return event;
}

CudaEvent::CudaEvent(CudaEvent&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}

CudaEvent& CudaEvent::operator=(CudaEvent&& other) noexcept
{
    if (this != &other) {
        if (m_event)
            cudaEventDestroy(m_event);
        m_event = std::exchange(other.m_event, nullptr);
    }
    return *this;
}

CudaEvent::~CudaEvent()
{
    if (m_event)
        cudaEventDestroy(m_event);
}

Status CudaEvent::record(cudaStream_t stream) const
{
    return cudaStatus(cudaEventRecord(m_event, stream), "cudaEventRecord");
}

Status orderAfter(const CudaStream& later, cudaStream_t earlier, const CudaEvent& event)
{
    if (Status s = event.record(earlier); !s.isOk())
        return s;
    return later.waitFor(event.get());
}

} // namespace tstudio::cuda
