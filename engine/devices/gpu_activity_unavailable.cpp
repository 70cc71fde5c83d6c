// GpuActivityRecorder for builds without CUDA: there is nothing to record.
#include "devices/gpu_activity.h"

namespace tstudio {

Expected<std::unique_ptr<GpuActivityRecorder>> GpuActivityRecorder::start()
{
    return unexpected(Status(StatusCode::kUnavailable, "this build has no CUDA support, so no GPU activity to record"));
}

} // namespace tstudio
