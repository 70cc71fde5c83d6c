// CudaDevice: one GPU behind the engine's Device interface — its caching allocator, a compute
// stream and two copy streams, and cuBLAS and cuDNN handles.
#pragma once

#include "core/expected.h"
#include "devices/cuda/cuda_stream.h"
#include "framework/device.h"
#include "framework/graph_capture.h"
#include "framework/tensor.h"

#include <cublas_v2.h>
#include <cudnn.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tstudio {

class BfcAllocator;

struct CudaDeviceOptions {
    int id = 0;                     ///< N of "GPU:N"
    int ordinal = 0;                ///< the CUDA device ordinal
    std::uint64_t memoryLimit = 0;  ///< bytes the allocator may reserve (gpuMemoryBudget)
    bool allowGrowth = false;       ///< reserve on demand instead of all at the first allocation
    bool allowTf32 = false;         ///< cuBLAS/cuDNN may use TF32 for float (off: full float)
};

/// A GPU. Kernels run in order on the compute stream, so a kernel sees its inputs complete and
/// memory freed on the host side may be reused at once by later kernels (stream order). Copies
/// run on their own streams, ordered against the compute stream with events; host data goes
/// through page-locked staging, so a copy to the GPU never makes the host wait. Nothing waits on
/// the host except copyToHost and synchronize.
/// Thread-safety: kernels on several threads may queue work; cuBLAS and cuDNN calls, which share
/// one handle each, are made under libraryMutex().
/// Graph capture (CapturingDevice): the compute stream is captured in thread-local mode; the
/// capturing thread's allocations come from a pool private to the capture (carved from the
/// device's allocator), copies to the GPU keep their page-locked sources for the graph, and the
/// copy streams join the capture through the events that order them.
class CudaDevice final : public Device, public CapturingDevice {
public:
    /// Opens GPU `options.ordinal`: streams, handles and allocators. The CUDA error names the GPU.
    static Expected<std::unique_ptr<CudaDevice>> create(const CudaDeviceOptions& options);
    ~CudaDevice() override;

    /// The caching allocator of the GPU's memory ("GPU_0_bfc").
    Allocator& allocator() override;
    /// Page-locked host memory ("cuda_host_bfc") for host-memory arguments and copies.
    Allocator& hostAllocator() override;
    Expected<Tensor> copyFromHost(const Tensor& host) override;
    Expected<Tensor> copyToHost(const Tensor& tensor, Allocator& hostAllocator) override;
    Status synchronize() override;

    Status beginCapture() override;
    Expected<std::unique_ptr<CapturedWork>> endCapture() override;
    Status copyFromHostInto(const Tensor& host, const Tensor& destination) override;
    /// Takes back the pool of a captured graph that is going away: destroyed at once when no
    /// tensor uses it, otherwise kept until none does (checked at each capture) or the device goes.
    void releasePool(std::unique_ptr<BfcAllocator> pool);

    int ordinal() const { return m_options.ordinal; }
    int driverOrdinal() const override { return m_options.ordinal; }
    bool allowTf32() const { return m_options.allowTf32; }
    /// Makes this GPU current on the calling thread; every kernel calls it before CUDA calls.
    Status activate() const;
    cudaStream_t computeStream() const { return m_compute.get(); }
    /// cuBLAS bound to the compute stream (math mode: TF32 only when allowed).
    cublasHandle_t cublas() const { return m_cublas; }
    /// cuDNN bound to the compute stream.
    cudnnHandle_t cudnn() const { return m_cudnn; }
    std::mutex& libraryMutex() const { return m_libraryMutex; }
    /// The caching allocator with its statistics (reserved bytes, regions).
    BfcAllocator& bfcAllocator() { return *m_allocator; }

private:
    explicit CudaDevice(const CudaDeviceOptions& options);
    Status initialise();
    /// Drops the staging tensors of finished host-to-device copies (under m_copyMutex).
    void retireFinishedCopies();
    /// An event for a copy, from the free list or new (under m_copyMutex).
    Expected<cuda::CudaEvent> takeEvent();
    /// Queues the copy of `host` into `device` (same byte size) on the host-to-device stream.
    Status enqueueCopyToDevice(const Tensor& host, Tensor device); ///< `device` shares the destination buffer
    /// Whether the calling thread is capturing this device's compute stream.
    bool capturingHere() const { return m_captureThread.load() == std::this_thread::get_id(); }
    /// Destroys retired pools no tensor uses any more (under m_poolMutex).
    void sweepRetiredPools();

    /// The state of a capture in progress (owned by the capturing thread).
    struct Capture {
        std::unique_ptr<BfcAllocator> pool;
        std::vector<Tensor> kept; ///< page-locked sources of the captured copies
    };

    /// A copy still reading its page-locked staging tensor.
    struct InFlightCopy {
        cuda::CudaEvent done;
        Tensor staging;
    };

    CudaDeviceOptions m_options;
    cuda::CudaStream m_compute;
    cuda::CudaStream m_hostToDevice;
    cuda::CudaStream m_deviceToHost;
    std::unique_ptr<BfcAllocator> m_allocator;
    std::unique_ptr<BfcAllocator> m_hostAllocator;
    std::mutex m_poolMutex;
    /// Pools of destroyed graphs still used by tensors. Declared after m_allocator, whose memory
    /// they hold, so they go first.
    std::vector<std::unique_ptr<BfcAllocator>> m_retiredPools;
    std::unique_ptr<Capture> m_capture;                  ///< touched only by the capturing thread
    std::atomic<std::thread::id> m_captureThread{};      ///< the capturing thread, or none
    std::int64_t m_captures = 0;                         ///< names the pools ("GPU_0_graph_3")
    void* m_cublasWorkspace = nullptr;
    cublasHandle_t m_cublas = nullptr;
    cudnnHandle_t m_cudnn = nullptr;
    mutable std::mutex m_libraryMutex;
    std::mutex m_copyMutex; ///< one copy at a time per direction pair (events are reused)
    cuda::CudaEvent m_computeDone;
    cuda::CudaEvent m_copyDone;
    std::deque<InFlightCopy> m_inFlight;     ///< oldest first (under m_copyMutex)
    std::vector<cuda::CudaEvent> m_freeEvents; ///< recorded events no copy waits on (under m_copyMutex)
};

} // namespace tstudio
