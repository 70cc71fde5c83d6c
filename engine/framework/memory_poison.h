// Poisoned uninitialised memory: a debugging aid that makes a kernel which leaves part of an
// output unwritten visible, instead of reading whatever the allocator's last user left there.
#pragma once

namespace tstudio {

/// The byte poisoned memory is filled with: NaN for every floating-point type, -1 for signed
/// integers, the largest value for unsigned ones.
inline constexpr unsigned char kPoisonByte = 0xFF;

/// Whether memory handed out without a zero fill (Tensor::allocateUninitialized, and so every
/// kernel output from OpKernelContext::allocateOutput) is filled with kPoisonByte first, as
/// glibc's MALLOC_PERTURB_ does for malloc. Off by default (it costs a pass over every output);
/// on when the environment variable TSTUDIO_POISON_UNINITIALIZED is set to anything but "" or
/// "0" when the process starts, or after setPoisonUninitializedMemory(true). Thread-safe.
bool poisonUninitializedMemory();
void setPoisonUninitializedMemory(bool on);

} // namespace tstudio
