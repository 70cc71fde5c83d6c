// Variable storage generation: one atomic counter.
#include "framework/variable_storage.h"

#include <atomic>

namespace tstudio {

namespace {

std::atomic<std::uint64_t>& generation()
{
    static std::atomic<std::uint64_t> counter{0};
    return counter;
}

} // namespace

std::uint64_t variableStorageGeneration()
{
    return generation().load(std::memory_order_acquire);
}

void noteVariableStorageReplaced()
{
    generation().fetch_add(1, std::memory_order_acq_rel);
}

} // namespace tstudio
