// runChild: another program run to its end with its output captured (tstudio bench all runs its own
// benchmarks and their peers, PyTorch and Pillow, this way).
#pragma once

#include "core/expected.h"

#include <string>
#include <vector>

namespace tstudio::cli {

struct ChildResult {
    int exitCode = -1;  ///< the program's exit status; 128 + N when signal N ended it
    std::string output; ///< what it wrote to stdout and stderr, interleaved as written
    bool timedOut = false;
};

/// Runs argv[0] (looked up in PATH when it has no "/") with argv, the environment of this process
/// plus `environment` ("NAME=value", replacing a variable of that name), stdin from /dev/null, and
/// waits for it. After `timeoutSeconds` (> 0) the program is killed (SIGKILL) and `timedOut` set.
/// NotFound when the program cannot be started (the message names it); Internal for a failed
/// pipe or fork.
Expected<ChildResult> runChild(const std::vector<std::string>& argv, const std::vector<std::string>& environment = {},
                               double timeoutSeconds = 0.0);

} // namespace tstudio::cli
