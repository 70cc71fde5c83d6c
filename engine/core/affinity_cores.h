// affinityCores: the cores this process may run on (its CPU affinity, as `taskset` or a container's
// cpuset sets it).
#pragma once

#include <vector>

namespace tstudio {

/// The numbers of the cores in this process's affinity mask, ascending. Empty where the system
/// cannot say (errno then tells why on Linux; other systems always answer empty).
std::vector<int> affinityCores();

/// How many cores this process may run on: affinityCores()'s count, or the machine's hardware
/// threads where the system cannot say (at least 1). TensorFlow's NumSchedulableCPUs: what an
/// intra-op pool of "0 = as many as there are cores" and AUTOTUNE's parallelism size themselves by,
/// so that `taskset -c 0` or a container's cpuset does not get two threads fighting over one core.
int schedulableCores();

} // namespace tstudio
