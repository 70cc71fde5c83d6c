// CudaDevice: a GPU's streams, handles, allocators and host copies.
#include "devices/cuda/cuda_device.h"

#include "devices/cuda/cuda_error.h"
#include "devices/cuda/cuda_graph.h"
#include "devices/cuda/cuda_memory.h"
#include "framework/bfc_allocator.h"
#include "framework/carved_sub_allocator.h"
#include "framework/tensor.h"

#include <cstring>
#include <string>

namespace tstudio {

namespace {

/// Page-locked staging memory: grown on demand, at most this much.
constexpr std::uint64_t kPinnedHostLimit = std::uint64_t(16) << 30;
/// cuBLAS's workspace, given explicitly so that cuBLAS never allocates during a graph capture
/// (32 MiB: NVIDIA's recommendation for Hopper).
constexpr std::size_t kCublasWorkspaceBytes = std::size_t(32) << 20;

Status plainDataOnly(const Tensor& tensor, const std::string& device)
{
    if (tensor.dtype() == tensorflow::DT_STRING || tensor.dtype() == tensorflow::DT_RESOURCE ||
        tensor.dtype() == tensorflow::DT_VARIANT)
        return invalidArgumentError(dataTypeString(tensor.dtype()) + " tensors stay in host memory; " + device +
                                    " holds only numeric tensors");
    return Status::ok();
}

} // namespace

CudaDevice::CudaDevice(const CudaDeviceOptions& options) : Device("GPU", options.id), m_options(options) {}

CudaDevice::~CudaDevice()
{
    // Every queued kernel and copy finishes before the memory they use goes back.
    for (const cuda::CudaStream* stream : {&m_compute, &m_hostToDevice, &m_deviceToHost})
        if (stream->get())
            cudaStreamSynchronize(stream->get());
    m_inFlight.clear();
    if (m_cudnn)
        cudnnDestroy(m_cudnn);
    if (m_cublas)
        cublasDestroy(m_cublas);
    if (m_cublasWorkspace)
        cudaFree(m_cublasWorkspace);
}

Expected<std::unique_ptr<CudaDevice>> CudaDevice::create(const CudaDeviceOptions& options)
{
    std::unique_ptr<CudaDevice> device(new CudaDevice(options));
    if (Status s = device->initialise(); !s.isOk())
        return unexpected(s.withContext("GPU:" + std::to_string(options.id) + " (CUDA device " +
                                        std::to_string(options.ordinal) + ")"));
    return device;
}

Status CudaDevice::initialise()
{
    if (Status s = activate(); !s.isOk())
        return s;
    for (cuda::CudaStream* stream : {&m_compute, &m_hostToDevice, &m_deviceToHost}) {
        auto created = cuda::CudaStream::create();
        if (!created)
            return created.error();
        *stream = std::move(*created);
    }
    for (cuda::CudaEvent* event : {&m_computeDone, &m_copyDone}) {
        auto created = cuda::CudaEvent::create();
        if (!created)
            return created.error();
        *event = std::move(*created);
    }
    const std::string shortName = "GPU:" + std::to_string(id());
    m_allocator = std::make_unique<BfcAllocator>(
        std::make_unique<cuda::DeviceMemory>(m_options.ordinal, m_compute.get()),
        "GPU_" + std::to_string(id()) + "_bfc", shortName, m_options.memoryLimit, m_options.allowGrowth);
    m_hostAllocator = std::make_unique<BfcAllocator>(std::make_unique<cuda::PinnedHostMemory>(), "cuda_host_bfc",
                                                     "CPU (page-locked for " + shortName + ")", kPinnedHostLimit,
                                                     /*allowGrowth=*/true);

    if (Status s = cuda::cublasStatus(cublasCreate(&m_cublas), "cublasCreate"); !s.isOk())
        return s;
    if (Status s = cuda::cublasStatus(cublasSetStream(m_cublas, m_compute.get()), "cublasSetStream"); !s.isOk())
        return s;
    // Full float precision unless TF32 is asked for (TensorFlow 1.x never used TF32).
    const cublasMath_t math = m_options.allowTf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
    if (Status s = cuda::cublasStatus(cublasSetMathMode(m_cublas, math), "cublasSetMathMode"); !s.isOk())
        return s;
    // After cublasSetStream, which resets the workspace to cuBLAS's own.
    if (Status s = cuda::cudaStatus(cudaMalloc(&m_cublasWorkspace, kCublasWorkspaceBytes), "cudaMalloc (cuBLAS workspace)");
        !s.isOk())
        return s;
    if (Status s = cuda::cublasStatus(cublasSetWorkspace(m_cublas, m_cublasWorkspace, kCublasWorkspaceBytes),
                                      "cublasSetWorkspace");
        !s.isOk())
        return s;
    if (Status s = cuda::cudnnStatus(cudnnCreate(&m_cudnn), "cudnnCreate"); !s.isOk())
        return s;
    if (Status s = cuda::cudnnStatus(cudnnSetStream(m_cudnn, m_compute.get()), "cudnnSetStream"); !s.isOk())
        return s;
    return Status::ok();
}

Allocator& CudaDevice::allocator()
{
    // The capturing thread's tensors come from the capture's pool: their addresses are recorded
    // in the graph and must stay reserved for it.
    if (capturingHere())
        return *m_capture->pool;
    return *m_allocator;
}

Allocator& CudaDevice::hostAllocator()
{
    return *m_hostAllocator;
}

Status CudaDevice::activate() const
{
    return cuda::cudaStatus(cudaSetDevice(m_options.ordinal), "cudaSetDevice");
}

Expected<Tensor> CudaDevice::copyFromHost(const Tensor& host)
{
    if (!host.inHostMemory())
        return unexpected(invalidArgumentError("copyFromHost to " + name() + " was given a tensor in " +
                                               host.bufferAllocator()->deviceName() + " memory"));
    if (Status s = plainDataOnly(host, name()); !s.isOk())
        return unexpected(s);
    if (Status s = activate(); !s.isOk())
        return unexpected(s);
    auto device = Tensor::allocateUninitialized(allocator(), host.dtype(), host.shape());
    if (!device || host.numElements() == 0)
        return device;
    if (Status s = enqueueCopyToDevice(host, *device); !s.isOk())
        return unexpected(s);
    return device;
}

Status CudaDevice::copyFromHostInto(const Tensor& host, const Tensor& destination)
{
    if (!host.inHostMemory())
        return invalidArgumentError("copyFromHostInto " + name() + " was given a source in " +
                                    host.bufferAllocator()->deviceName() + " memory");
    if (destination.inHostMemory() || destination.dtype() != host.dtype() ||
        destination.tensorData().size() != host.tensorData().size())
        return invalidArgumentError("copyFromHostInto " + name() + ": the destination (" +
                                    dataTypeString(destination.dtype()) + " " + destination.shape().toString() +
                                    (destination.inHostMemory() ? ", host memory" : "") +
                                    ") does not fit the source (" + dataTypeString(host.dtype()) + " " +
                                    host.shape().toString() + ")");
    if (Status s = plainDataOnly(host, name()); !s.isOk())
        return s;
    if (Status s = activate(); !s.isOk())
        return s;
    if (host.numElements() == 0)
        return Status::ok();
    return enqueueCopyToDevice(host, destination);
}

Status CudaDevice::enqueueCopyToDevice(const Tensor& host, Tensor device)
{
    // From pageable memory the driver may wait for the copy stream (and so for the compute stream
    // it waits on) before it returns: stage through page-locked memory, so the host never waits.
    Tensor source = host;
    if (host.bufferAllocator() != m_hostAllocator.get()) {
        auto staged = Tensor::allocateUninitialized(*m_hostAllocator, host.dtype(), host.shape());
        if (!staged)
            return staged.error();
        std::memcpy(staged->tensorData().data(), host.tensorData().data(), host.tensorData().size());
        source = std::move(*staged);
    }
    const std::span<const std::byte> bytes = source.tensorData();
    const bool capturing = capturingHere();
    std::lock_guard lock(m_copyMutex);
    if (!capturing) // event queries are not allowed while capturing
        retireFinishedCopies();
    // The destination's memory may have been freed by the host while kernels queued earlier still
    // use it: the copy stream first waits for the compute stream, and the compute stream then
    // waits for the copy. (While capturing, these events fork the copy stream into the capture and
    // join it back.)
    if (Status s = cuda::orderAfter(m_hostToDevice, m_compute.get(), m_computeDone); !s.isOk())
        return s;
    if (Status s = cuda::cudaStatus(cudaMemcpyAsync(device.tensorData().data(), bytes.data(), bytes.size(),
                                                    cudaMemcpyHostToDevice, m_hostToDevice.get()),
                                    "cudaMemcpyAsync (host to " + name() + ")");
        !s.isOk())
        return s;
    if (capturing) {
        // Every replay copies from this staging memory again: it belongs to the graph now.
        m_capture->kept.push_back(std::move(source));
    } else {
        // The staging memory is reused once the copy is done (checked at later copies; no host
        // callback, which would take the allocator's lock on a driver thread).
        auto done = takeEvent();
        if (!done)
            return done.error();
        if (Status s = done->record(m_hostToDevice.get()); !s.isOk())
            return s;
        m_inFlight.push_back({std::move(*done), std::move(source)});
    }
    return cuda::orderAfter(m_compute, m_hostToDevice.get(), m_copyDone);
}

Expected<Tensor> CudaDevice::copyToHost(const Tensor& tensor, Allocator& hostAllocator)
{
    if (tensor.inHostMemory())
        return tensor.deepCopy(hostAllocator);
    if (!hostAllocator.hostAccessible())
        return unexpected(invalidArgumentError("copyToHost from " + name() + " was given a device allocator (" +
                                               hostAllocator.name() + ")"));
    if (capturingHere())
        return unexpected(failedPreconditionError(
            "a value is copied from " + name() + " to the host inside a step being captured as a CUDA graph; the "
            "value does not exist until the graph runs, so this step cannot be captured"));
    if (Status s = activate(); !s.isOk())
        return unexpected(s);
    auto host = Tensor::allocateUninitialized(hostAllocator, tensor.dtype(), tensor.shape());
    if (!host || tensor.numElements() == 0)
        return host;
    const std::span<const std::byte> bytes = tensor.tensorData();
    std::lock_guard lock(m_copyMutex);
    if (Status s = cuda::orderAfter(m_deviceToHost, m_compute.get(), m_computeDone); !s.isOk())
        return unexpected(s);
    if (Status s = cuda::cudaStatus(cudaMemcpyAsync(host->tensorData().data(), bytes.data(), bytes.size(),
                                                    cudaMemcpyDeviceToHost, m_deviceToHost.get()),
                                    "cudaMemcpyAsync (" + name() + " to host)");
        !s.isOk())
        return unexpected(s);
    if (Status s = m_deviceToHost.synchronize(); !s.isOk())
        return unexpected(s.withContext("copying a " + std::to_string(bytes.size()) + "-byte tensor from " + name()));
    return host;
}

Status CudaDevice::synchronize()
{
    if (capturingHere())
        return failedPreconditionError("waiting for " + name() + " inside a step being captured as a CUDA graph");
    if (Status s = activate(); !s.isOk())
        return s;
    for (const cuda::CudaStream* stream : {&m_compute, &m_hostToDevice, &m_deviceToHost})
        if (Status s = stream->synchronize(); !s.isOk())
            return s.withContext(name());
    std::lock_guard lock(m_copyMutex);
    retireFinishedCopies();
    return Status::ok();
}

void CudaDevice::retireFinishedCopies()
{
    while (!m_inFlight.empty() && cudaEventQuery(m_inFlight.front().done.get()) == cudaSuccess) {
        m_freeEvents.push_back(std::move(m_inFlight.front().done));
        m_inFlight.pop_front();
    }
    cudaGetLastError(); // cudaErrorNotReady is an answer, not an error to report later
}

Expected<cuda::CudaEvent> CudaDevice::takeEvent()
{
    if (m_freeEvents.empty())
        return cuda::CudaEvent::create();
    cuda::CudaEvent event = std::move(m_freeEvents.back());
    m_freeEvents.pop_back();
    return event;
}

Status CudaDevice::beginCapture()
{
    if (m_captureThread.load() != std::thread::id())
        return failedPreconditionError(name() + " is already capturing a CUDA graph");
    if (Status s = activate(); !s.isOk())
        return s;
    {
        std::lock_guard lock(m_poolMutex);
        sweepRetiredPools();
    }
    auto capture = std::make_unique<Capture>();
    const std::string shortName = "GPU:" + std::to_string(id());
    capture->pool = std::make_unique<BfcAllocator>(
        std::make_unique<CarvedSubAllocator>(*m_allocator),
        "GPU_" + std::to_string(id()) + "_graph_" + std::to_string(++m_captures), shortName, m_options.memoryLimit,
        /*allowGrowth=*/true);
    // Thread-local mode: only this thread's calls are checked, and the step is captured from
    // this thread alone (the session runs a capture single-threaded).
    if (Status s = cuda::cudaStatus(cudaStreamBeginCapture(m_compute.get(), cudaStreamCaptureModeThreadLocal),
                                    "cudaStreamBeginCapture");
        !s.isOk())
        return s.withContext(name());
    m_capture = std::move(capture);
    m_captureThread.store(std::this_thread::get_id());
    return Status::ok();
}

Expected<std::unique_ptr<CapturedWork>> CudaDevice::endCapture()
{
    if (!capturingHere())
        return unexpected(failedPreconditionError("endCapture on " + name() + " from a thread that is not capturing"));
    std::unique_ptr<Capture> capture = std::move(m_capture);
    m_captureThread.store(std::thread::id());
    cudaGraph_t graph = nullptr;
    Status status = cuda::cudaStatus(cudaStreamEndCapture(m_compute.get(), &graph), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;
    if (status.isOk() && !graph)
        status = internalError("cudaStreamEndCapture gave no graph");
    if (status.isOk())
        status = cuda::cudaStatus(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    std::size_t nodes = 0;
    if (status.isOk())
        status = cuda::cudaStatus(cudaGraphGetNodes(graph, nullptr, &nodes), "cudaGraphGetNodes");
    if (!status.isOk()) {
        if (exec)
            cudaGraphExecDestroy(exec);
        if (graph)
            cudaGraphDestroy(graph);
        cudaGetLastError();
        releasePool(std::move(capture->pool));
        return unexpected(status.withContext("capturing a CUDA graph on " + name()));
    }
    return std::unique_ptr<CapturedWork>(std::make_unique<cuda::CudaGraph>(
        *this, graph, exec, std::move(capture->pool), std::move(capture->kept), static_cast<std::int64_t>(nodes)));
}

void CudaDevice::releasePool(std::unique_ptr<BfcAllocator> pool)
{
    if (!pool)
        return;
    std::lock_guard lock(m_poolMutex);
    if (pool->bfcStats().chunksInUse > 0)
        m_retiredPools.push_back(std::move(pool));
    sweepRetiredPools();
}

void CudaDevice::sweepRetiredPools()
{
    std::erase_if(m_retiredPools, [](const std::unique_ptr<BfcAllocator>& pool) {
        return pool->bfcStats().chunksInUse == 0;
    });
}

} // namespace tstudio
