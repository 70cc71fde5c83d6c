// LooperThread: a thread on a Coordinator that calls a function on a timer until a stop is
// requested (tf.train.LooperThread of TF 1.x).
#pragma once

#include "core/status.h"
#include "training/coordinator.h"

#include <functional>
#include <optional>
#include <string>

namespace tstudio::training {

/// What a LooperThread runs: startLoop once, runLoop at each timer boundary, stopLoop at the end.
struct LooperBody {
    std::function<Status()> startLoop;
    std::function<Status()> runLoop;
    std::function<void()> stopLoop;
};

/// Starts the thread on `coordinator` (which joins it): startLoop, then runLoop at once and at
/// every `intervalSecs` after the first call (boundaries kept, so a slow call shortens the next
/// wait) until the coordinator stops; without an interval runLoop runs back to back while the
/// coordinator does not stop. An error from startLoop or runLoop requests the coordinator's stop
/// with it (coordinator.stop_on_exception): the other threads stop and join() returns it.
void startLooperThread(Coordinator& coordinator, std::string name, std::optional<double> intervalSecs, LooperBody body);

} // namespace tstudio::training
