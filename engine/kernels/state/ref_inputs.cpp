// RefInputs: resolution of ref and plain inputs, ordered locking, forwarding the ref output.
#include "kernels/state/ref_inputs.h"

#include <algorithm>
#include <cstring>

namespace tstudio {

Expected<RefInputs> RefInputs::resolve(OpKernelContext& ctx, std::initializer_list<int> indices, bool useLocking,
                                       const DeviceCopy& copier)
{
    RefInputs result;
    std::vector<std::mutex*> mutexes;
    for (int i : indices) {
        if (std::mutex* m = ctx.refInputMutex(i); ctx.inputIsRef(i) && m)
            mutexes.push_back(m);
    }
    std::sort(mutexes.begin(), mutexes.end());
    mutexes.erase(std::unique(mutexes.begin(), mutexes.end()), mutexes.end());
    for (std::mutex* m : mutexes)
        result.m_locks.emplace_back(*m);

    for (int i : indices) {
        result.m_indices.push_back(i);
        result.m_isRef.push_back(ctx.inputIsRef(i));
        if (ctx.inputIsRef(i)) {
            result.m_values.push_back(*ctx.mutableRefInput(i)); // shares the variable's buffer
        } else if (!ctx.input(i).isInitialized()) {
            result.m_values.push_back(ctx.input(i));
        } else {
            auto copy = copier.clone(ctx, ctx.input(i));
            if (!copy)
                return unexpected(copy.error());
            result.m_values.push_back(std::move(*copy));
        }
    }
    if (!useLocking)
        result.m_locks.clear();
    return result;
}

Status RefInputs::checkInitialized(const OpKernel& kernel) const
{
    for (std::size_t k = 0; k < m_values.size(); ++k) {
        if (!m_values[k].isInitialized())
            return failedPreconditionError("Attempting to use uninitialized variables: " +
                                           inputName(kernel, m_indices[k]));
    }
    return Status::ok();
}

Status RefInputs::forwardRef(OpKernelContext& ctx, std::size_t k, int out) const
{
    if (m_isRef[k]) {
        ctx.forwardRefInput(m_indices[k], out);
        return Status::ok();
    }
    return ctx.setOutput(out, m_values[k]);
}

std::string inputName(const OpKernel& kernel, int i)
{
    const auto& inputs = kernel.node().input();
    return i < inputs.size() ? inputs[i] : "input " + std::to_string(i);
}

void copyElements(const Tensor& src, Tensor& dst)
{
    if (src.dtype() == tensorflow::DT_STRING) {
        const auto from = src.strings();
        std::copy(from.begin(), from.end(), dst.strings().begin());
        return;
    }
    const auto from = src.tensorData();
    if (!from.empty())
        std::memmove(dst.tensorData().data(), from.data(), from.size());
}

} // namespace tstudio
