// GpuActivityRecorder for builds without CUDA: there is nothing to record.
#include "devices/gpu_activity.h"

namespace tstudio {

GpuActivityTag::GpuActivityTag(std::uint64_t) {}
GpuActivityTag::~GpuActivityTag() = default;

Expected<std::unique_ptr<GpuActivityRecorder>> GpuActivityRecorder::start(GpuActivityOptions)
{
    return unexpected(Status(StatusCode::kUnavailable, "this build has no CUDA support, so no GPU activity to record"));
}

} // namespace tstudio
