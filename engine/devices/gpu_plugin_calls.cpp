// The engine's GPU functions in CUDA builds: each asks the GPU plugin (gpu_plugin.h), and without
// one answers as a build without CUDA does, saying why there is none.
#include "devices/gpu_activity.h"
#include "devices/gpu_devices.h"
#include "devices/gpu_plugin.h"
#include "devices/gpu_probe.h"

namespace tstudio {

GpuProbeReport probeGpus()
{
    std::string why;
    if (const GpuPluginApi* plugin = gpuPlugin(&why))
        return plugin->probeGpus();
    GpuProbeReport report;
    report.unavailableReason = why;
    return report;
}

Status runGpuSelfTest(int ordinal)
{
    std::string why;
    if (const GpuPluginApi* plugin = gpuPlugin(&why))
        return plugin->runGpuSelfTest(ordinal);
    return unavailableError(why);
}

Expected<std::vector<std::unique_ptr<Device>>> createGpuDevices(const tensorflow::GPUOptions& options, int maxCount)
{
    // A CPU-only session does not even open the plugin.
    if (maxCount == 0)
        return std::vector<std::unique_ptr<Device>>{};
    if (const GpuPluginApi* plugin = gpuPlugin())
        return plugin->createGpuDevices(options, maxCount);
    return std::vector<std::unique_ptr<Device>>{};
}

Status registerGpuKernels(KernelRegistry& registry)
{
    if (const GpuPluginApi* plugin = gpuPlugin())
        return plugin->registerGpuKernels(registry);
    return Status::ok();
}

GpuActivityTag::GpuActivityTag(std::uint64_t tag)
{
    if (const GpuPluginApi* plugin = gpuPlugin())
        m_pushed = plugin->pushGpuActivityTag(tag);
}

GpuActivityTag::~GpuActivityTag()
{
    if (m_pushed)
        gpuPlugin()->popGpuActivityTag();
}

Expected<std::unique_ptr<GpuActivityRecorder>> GpuActivityRecorder::start(GpuActivityOptions options)
{
    std::string why;
    if (const GpuPluginApi* plugin = gpuPlugin(&why))
        return plugin->startGpuActivity(options);
    return unexpected(Status(StatusCode::kUnavailable, "no GPU activity to record: " + why));
}

} // namespace tstudio
