// The two forms of the Apply* kernels (apply_ops.h) for any device: RefApplyKernel (ApplyX on ref
// variables) and ResourceApplyKernel (ResourceApplyX on resource variables).
#pragma once

#include "kernels/state/ref_inputs.h"
#include "kernels/state/resource_variable.h"
#include "kernels/training/apply_ops.h"

#include <initializer_list>
#include <memory>
#include <vector>

namespace tstudio::training {

// `Device` provides `template <typename T> using Updates = ...` (its update functions, see
// ApplyKernelBase) and `static const DeviceCopy& copier()` (its tensor copies).

/// The ref form: the use_locking attr, the variable inputs resolved (and locked with use_locking)
/// and checked initialized, and input 0's ref forwarded to output 0 after the update.
template <typename T, typename Device> class RefApplyKernel : public ApplyKernelBase {
public:
    using Updates = typename Device::template Updates<T>;

    explicit RefApplyKernel(OpKernelConstruction& c) : ApplyKernelBase(c), m_useLocking(boolAttr(c, "use_locking")) {}

protected:
    template <typename Body> Status run(OpKernelContext& ctx, std::initializer_list<int> indices, Body&& body)
    {
        if (!m_init.isOk())
            return m_init;
        auto refs = RefInputs::resolve(ctx, indices, m_useLocking, Device::copier());
        if (!refs)
            return refs.error();
        if (Status s = refs->checkInitialized(*this); !s.isOk())
            return s;
        if (Status s = body(*refs); !s.isOk())
            return s;
        return refs->forwardRef(ctx, 0, 0);
    }

private:
    bool m_useLocking;
};

/// The resource form: the variables behind the handle inputs, locked (LockedVariables; always
/// locked, whatever use_locking says, as TensorFlow does for dense updates of resource variables)
/// and checked to hold T. A handle whose variable cannot be found is TensorFlow's Internal
/// "Invalid variable reference.". There is no output.
template <typename T, typename Device> class ResourceApplyKernel : public ApplyKernelBase {
public:
    using Updates = typename Device::template Updates<T>;
    using ApplyKernelBase::ApplyKernelBase;

protected:
    template <typename Body> Status run(OpKernelContext& ctx, std::initializer_list<int> inputs, Body&& body)
    {
        if (!m_init.isOk())
            return m_init;
        std::vector<std::shared_ptr<ResourceVariable>> variables;
        for (int i : inputs) {
            auto handle = handleFromInput(ctx, i);
            if (!handle)
                return handle.error();
            auto variable = lookupVariable(ctx, **handle);
            if (!variable)
                return internalError("Invalid variable reference.");
            variables.push_back(std::move(*variable));
        }
        auto locked = LockedVariables::lock(std::move(variables), kDataTypeOf<T>, ctx, Device::copier());
        if (!locked)
            return locked.error();
        return body(*locked);
    }
};

} // namespace tstudio::training
