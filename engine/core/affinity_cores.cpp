// affinityCores: sched_getaffinity's mask as a list of core numbers.
#include "core/affinity_cores.h"

#include <algorithm>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace tstudio {

std::vector<int> affinityCores()
{
    std::vector<int> cores;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return cores;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set))
            cores.push_back(cpu);
#endif
    return cores;
}

int schedulableCores()
{
    const std::size_t cores = affinityCores().size();
    if (cores > 0)
        return static_cast<int>(cores);
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace tstudio
