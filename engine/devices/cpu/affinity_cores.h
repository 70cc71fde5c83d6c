// affinityCores: the cores this process may run on (its CPU affinity, as `taskset` or a container's
// cpuset sets it).
#pragma once

#include <vector>

namespace tstudio {

/// The numbers of the cores in this process's affinity mask, ascending. Empty where the system
/// cannot say (errno then tells why on Linux; other systems always answer empty).
std::vector<int> affinityCores();

} // namespace tstudio
