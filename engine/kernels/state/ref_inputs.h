// RefInputs: the variables a kernel updates in place (Assign*, Apply*), their locks, and the ref output.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "kernels/state/device_copy.h"

#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

namespace tstudio {

/// The ref inputs of an updating kernel (a variable and its slots), resolved for one compute().
///
/// Each listed input is either a ref (the executor's case: the variable's Tensor and its mutex) or,
/// when a test calls the kernel directly with a plain tensor, a private deep copy, so the caller's
/// tensor is never written; forwardRef() then outputs that updated copy instead of a ref.
///
/// Locking follows TensorFlow's MaybeLockVariableInputMutexesInOrder: with use_locking, the
/// distinct mutexes are locked in address order (no deadlock between kernels sharing variables)
/// and held until this object is destroyed. Without it, the Tensor handles are read under their
/// mutex (so a concurrent Assign that replaces the buffer is not a data race on the handle) and
/// the update then runs on the shared buffers unlocked, as TensorFlow's "Hogwild" updates do.
class RefInputs {
public:
    /// Resolves `indices` of `ctx`, making the private copies of plain inputs with `copier` (the
    /// device's); ResourceExhausted if a copy cannot be allocated.
    static Expected<RefInputs> resolve(OpKernelContext& ctx, std::initializer_list<int> indices, bool useLocking,
                                       const DeviceCopy& copier = hostCopy());

    RefInputs(RefInputs&&) = default;
    RefInputs& operator=(RefInputs&&) = default;

    /// The k-th resolved input (k indexes `indices`, not the kernel's inputs). Its buffer is the
    /// variable's own; writing to it updates the variable.
    Tensor& operator[](std::size_t k) { return m_values[k]; }

    /// FailedPrecondition "Attempting to use uninitialized variables: <input name>" for the first
    /// uninitialized input, as TensorFlow's Apply* kernels say it.
    Status checkInitialized(const OpKernel& kernel) const;

    /// Makes output `out` the ref of input `in` (the k-th resolved input), or the updated copy
    /// when that input was not a ref.
    Status forwardRef(OpKernelContext& ctx, std::size_t k, int out) const;

private:
    RefInputs() = default;

    std::vector<int> m_indices;
    std::vector<bool> m_isRef;
    std::vector<Tensor> m_values;
    std::vector<std::unique_lock<std::mutex>> m_locks;
};

/// The name of input `i` as the node spells it ("v", "v/read:0"), which TensorFlow's messages quote.
std::string inputName(const OpKernel& kernel, int i);

/// Copies `src`'s elements into `dst`, which has the same dtype and element count.
void copyElements(const Tensor& src, Tensor& dst);

} // namespace tstudio
