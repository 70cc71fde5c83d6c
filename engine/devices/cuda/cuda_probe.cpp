// GPU probe for CUDA builds: versions of the runtime, driver, cuBLAS and cuDNN, the devices, and whether
// a GPU that is present can be used.
#include "devices/gpu_probe.h"
#include "devices/cuda/cuda_gpu_api.h"

#include "devices/cuda/cuda_error.h"
#include "devices/cuda/cuda_self_test.h"
#include "devices/cuda/nvidia_presence.h"
#include "devices/gpu_probe_classification.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstdlib>
#include <mutex>

namespace tstudio {
namespace {

std::string cudaVersionText(int v)
{
    // CUDA encodes versions as 1000 * major + 10 * minor.
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

/// "" when a cuDNN and a cuBLAS handle can be created (and destroyed) on `gpu`, else the failure.
/// cudaGetDeviceCount does not touch cuDNN or cuBLAS: a library that cannot run on this driver or
/// device shows only when a handle is made.
std::string libraryError(const GpuDeviceInfo& gpu)
{
    const std::string where = "GPU " + std::to_string(gpu.ordinal) + " (" + gpu.name + ")";
    int previous = 0;
    if (Status s = cuda::cudaStatus(cudaGetDevice(&previous), "cudaGetDevice"); !s.isOk())
        return s.withContext(where).message();
    if (Status s = cuda::cudaStatus(cudaSetDevice(gpu.ordinal), "cudaSetDevice"); !s.isOk())
        return s.withContext(where).message();
    std::string error;
    cudnnHandle_t cudnn = nullptr;
    if (Status s = cuda::cudnnStatus(cudnnCreate(&cudnn), "cudnnCreate"); !s.isOk())
        error = s.withContext(where).message();
    else
        cudnnDestroy(cudnn);
    cublasHandle_t cublas = nullptr;
    if (Status s = cuda::cublasStatus(cublasCreate(&cublas), "cublasCreate"); !s.isOk()) {
        if (error.empty())
            error = s.withContext(where).message();
    } else {
        cublasDestroy(cublas);
    }
    if (previous != gpu.ordinal)
        cudaSetDevice(previous);
    cudaGetLastError(); // a failure above must not surface at the caller's next CUDA call
    return error;
}

GpuProbeReport probeOnce()
{
    GpuProbeReport report;
    report.compiledIn = true;
    report.compiledCudaVersion = cudaVersionText(CUDART_VERSION);
    report.compiledArchitectures = TSTUDIO_CUDA_ARCHITECTURES;

    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess)
        report.runtimeVersion = cudaVersionText(runtime);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0)
        report.driverVersion = cudaVersionText(driver);

    // cuDNN 9 encodes its version as 10000 * major + 100 * minor + patch.
    const std::size_t cudnn = cudnnGetVersion();
    report.cudnnVersion = std::to_string(cudnn / 10000) + "." + std::to_string((cudnn % 10000) / 100) + "." +
                          std::to_string(cudnn % 100);
    int major = 0, minor = 0, patch = 0;
    if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
        cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
        cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
        report.cublasVersion = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);

    GpuProbeFacts facts;
    facts.driverCudaVersion = report.driverVersion;
    facts.runtimeCudaVersion = report.runtimeVersion;
    const cuda::NvidiaPresence presence = cuda::findNvidiaPresence();
    facts.nvidiaPciDevice = presence.pciDevice;
    facts.nvidiaDriverPath = presence.driverPath;
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"))
        facts.cudaVisibleDevices = visible;

    int count = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
        cudaGetLastError();
        facts.countErrorName = cudaGetErrorName(err);
        facts.countErrorText = cudaGetErrorString(err);
        count = 0;
    }
    facts.deviceCount = count;
    std::vector<GpuDeviceInfo> devices;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (Status s = cuda::cudaStatus(cudaGetDeviceProperties(&prop, i), "cudaGetDeviceProperties"); !s.isOk()) {
            facts.deviceError = s.withContext("GPU " + std::to_string(i)).message();
            break;
        }
        GpuDeviceInfo info;
        info.ordinal = i;
        info.name = prop.name;
        info.computeMajor = prop.major;
        info.computeMinor = prop.minor;
        info.totalMemoryBytes = prop.totalGlobalMem;
        info.multiprocessorCount = prop.multiProcessorCount;
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess)
            info.pciBusId = bus;
        devices.push_back(std::move(info));
    }
    if (facts.deviceError.empty() && !devices.empty())
        facts.deviceError = libraryError(devices.front());

    GpuClassification verdict = classifyGpuProbe(facts);
    switch (verdict.verdict) {
    case GpuVerdict::kUsable: report.devices = std::move(devices); break;
    case GpuVerdict::kNoGpu:
        report.unavailableReason = std::move(verdict.message);
        report.hiddenByVisibleDevices = facts.cudaVisibleDevices && detail::hidesEveryGpu(*facts.cudaVisibleDevices);
        break;
    case GpuVerdict::kBroken: report.brokenReason = std::move(verdict.message); break;
    }
    return report;
}

} // namespace

namespace cuda {

GpuProbeReport probeGpus()
{
    static std::once_flag once;
    static GpuProbeReport cached;
    std::call_once(once, [] { cached = probeOnce(); });
    return cached;
}

Status runGpuSelfTest(int ordinal)
{
    const GpuProbeReport report = probeGpus();
    if (!report.brokenReason.empty())
        return failedPreconditionError(gpuUnusableText(report));
    if (ordinal < 0 || ordinal >= static_cast<int>(report.devices.size()))
        return unavailableError(report.devices.empty() ? report.unavailableReason
                                                       : "no GPU with ordinal " + std::to_string(ordinal));
    const std::string error = runSelfTestKernel(ordinal);
    return error.empty() ? Status::ok() : internalError(error);
}

} // namespace cuda
} // namespace tstudio
