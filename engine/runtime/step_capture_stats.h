// StepCaptureStats: what CUDA graph capture did for a plan or a session, for reports and benches.
#pragma once

#include <cstdint>
#include <string>

namespace tstudio {

/// What capturing has done for one plan (or, summed, for a session).
struct StepCaptureStats {
    std::int64_t captures = 0;      ///< graphs captured and kept for replays (each also ran its step)
    std::int64_t replays = 0;       ///< later steps run by replaying a graph
    std::int64_t executorSteps = 0; ///< steps of capturable devices' plans run by the executor
    std::int64_t graphNodes = 0;    ///< work items of the current graphs (kernels, copies, memsets)
    std::string lastEvent;          ///< the last capture, drop or obstacle, in words
};

} // namespace tstudio
