// The GPU plugin's entry point (gpu_plugin_api.h): the table of its functions.
#include "core/version.h"
#include "devices/cuda/cuda_gpu_api.h"
#include "devices/gpu_plugin_api.h"

extern "C" __attribute__((visibility("default"))) const tstudio::GpuPluginApi* tstudio_gpu_plugin()
{
    static const tstudio::GpuPluginApi api = [] {
        tstudio::GpuPluginApi a;
        a.abiVersion = tstudio::kGpuPluginAbiVersion;
        a.version = TSTUDIO_VERSION_STRING;
        a.probeGpus = tstudio::cuda::probeGpus;
        a.runGpuSelfTest = tstudio::cuda::runGpuSelfTest;
        a.createGpuDevices = tstudio::cuda::createGpuDevices;
        a.registerGpuKernels = tstudio::cuda::registerGpuKernels;
        a.startGpuActivity = tstudio::cuda::startGpuActivity;
        a.pushGpuActivityTag = tstudio::cuda::pushGpuActivityTag;
        a.popGpuActivityTag = tstudio::cuda::popGpuActivityTag;
        return a;
    }();
    return &api;
}
