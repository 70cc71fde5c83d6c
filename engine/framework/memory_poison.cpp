// The process-wide switch for poisoned uninitialised memory, read once from the environment.
#include "framework/memory_poison.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace tstudio {

namespace {

bool poisonFromEnvironment()
{
    const char* value = std::getenv("TSTUDIO_POISON_UNINITIALIZED");
    return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

std::atomic<bool>& poisonFlag()
{
    static std::atomic<bool> flag{poisonFromEnvironment()};
    return flag;
}

} // namespace

bool poisonUninitializedMemory()
{
    return poisonFlag().load(std::memory_order_relaxed);
}

void setPoisonUninitializedMemory(bool on)
{
    poisonFlag().store(on, std::memory_order_relaxed);
}

} // namespace tstudio
