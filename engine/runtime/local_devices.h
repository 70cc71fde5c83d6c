// The devices a session on this machine gets by default, by name and type, without creating them.
#pragma once

#include "runtime/placer.h"

#include <vector>

namespace tstudio {

/// What a Session with a default ConfigProto would hold here, in its order: CPU:0, then GPU:N for
/// each GPU the CUDA runtime reports (none without CUDA support compiled in or without a GPU).
/// Creates no device and no CUDA context: for placing a graph that is only shown (the graph
/// viewer), not run. Thread-safe.
std::vector<PlacementDevice> localPlacementDevices();

} // namespace tstudio
