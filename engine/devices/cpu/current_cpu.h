// currentCpu: the core the calling thread runs on now (for the intra-op pool's shared-core checks).
#pragma once

#if defined(__linux__)
#include <sched.h>
#endif

namespace tstudio {

/// The core this thread runs on now, or -1 where the system cannot say.
inline int currentCpu()
{
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

} // namespace tstudio
