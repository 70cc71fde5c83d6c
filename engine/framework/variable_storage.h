// Variable storage generation: a process-wide count of the times a variable's buffer was replaced
// or released, so work recorded against buffer addresses (a captured CUDA graph) knows when it is stale.
#pragma once

#include <cstdint>

namespace tstudio {

/// The current generation. It changes whenever a variable's value moves to a new buffer (an
/// Assign of a new size, an uninitialised variable's first value, a resource variable's
/// copy-on-write, AssignVariableOp with a new buffer) or a variable is destroyed. Captured device
/// work refers to variables by the addresses of their buffers: it may be replayed only while the
/// generation it was captured at is current. Thread-safe.
std::uint64_t variableStorageGeneration();

/// Called by every kernel or manager that replaces or releases a variable's buffer. Thread-safe.
void noteVariableStorageReplaced();

} // namespace tstudio
