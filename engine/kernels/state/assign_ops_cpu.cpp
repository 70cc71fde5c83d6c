// CPU kernels of Assign, AssignAdd and AssignSub on ref variables.
#define EIGEN_USE_THREADS

#include "kernels/state/dense_update.h"
#include "kernels/state/dense_update_cpu.h"
#include "kernels/state/dense_update_kernels.h"
#include "kernels/state/device_copy.h"
#include "kernels/state/ref_inputs.h"
#include "kernels/state/state_kernels.h"

#include "framework/kernel_registry.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio {

namespace {

/// Assign: stores `value` in the ref variable and forwards the ref (TensorFlow's AssignOp).
/// With validate_shape the shapes must match: the value's once the variable holds one, before
/// that the shape its VariableV2 declares when fully defined (TensorFlow's uninitialized variable
/// tensor carries that shape, so restoring a checkpoint tensor of another shape into a fresh
/// session fails there too). When the variable
/// already has a buffer with as many elements, the values are copied into it (so every holder of
/// the buffer sees them, as in TensorFlow); otherwise the variable gets a new buffer. With
/// use_locking the copy happens under the variable's mutex. Copies are made by the device's copier.
class AssignOp : public OpKernel {
public:
    AssignOp(OpKernelConstruction& c, const DeviceCopy* copier) : OpKernel(c), m_copier(*copier)
    {
        auto validate = attrBool(c.node(), "validate_shape");
        auto locking = attrBool(c.node(), "use_locking");
        if (!validate || !locking) {
            m_init = !validate ? validate.error() : locking.error();
            return;
        }
        m_validateShape = *validate;
        m_useLocking = *locking;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const Tensor& rhs = ctx.input(1);
        if (!ctx.inputIsRef(0)) {
            // Called directly with a plain tensor (tests): the result is what the variable would hold.
            if (Status s = checkShape(ctx.input(0), rhs); !s.isOk())
                return s;
            auto copy = m_copier.clone(ctx, rhs);
            if (!copy)
                return copy.error();
            return ctx.setOutput(0, std::move(*copy));
        }
        Tensor* lhs = ctx.mutableRefInput(0);
        std::unique_lock<std::mutex> lock;
        if (std::mutex* m = ctx.refInputMutex(0))
            lock = std::unique_lock(*m);
        if (Status s = checkShape(*lhs, rhs); !s.isOk())
            return s;
        if (Status s = checkDeclaredShape(*lhs, ctx.refInputDeclaredShape(0), rhs.shape()); !s.isOk())
            return s;
        if (lhs->isInitialized() && lhs->numElements() == rhs.numElements() && lhs->dtype() == rhs.dtype()) {
            Tensor target = *lhs;
            if (!(lhs->shape() == rhs.shape())) {
                // validate_shape=false with a new shape of the same size: as TensorFlow, the same
                // buffer takes the new shape (its address, which captured work holds, is kept).
                auto reshaped = lhs->reshapedView(rhs.shape());
                if (!reshaped)
                    return reshaped.error();
                target = *reshaped;
                *lhs = target;
            }
            if (!m_useLocking && lock.owns_lock())
                lock.unlock();
            if (Status s = m_copier.copy(ctx, rhs, target); !s.isOk())
                return s;
        } else {
            auto copy = m_copier.clone(ctx, rhs);
            if (!copy)
                return copy.error();
            *lhs = std::move(*copy);
            ctx.resources().noteVariableStorageReplaced();
        }
        ctx.forwardRefInput(0, 0);
        return Status::ok();
    }

private:
    Status checkShape(const Tensor& lhs, const Tensor& rhs) const
    {
        if (m_validateShape && lhs.isInitialized() && !(lhs.shape() == rhs.shape())) {
            return invalidArgumentError("Assign requires shapes of both tensors to match. lhs shape= " +
                                        lhs.shape().toString() + " rhs shape= " + rhs.shape().toString());
        }
        return Status::ok();
    }

    Status checkDeclaredShape(const Tensor& lhs, const TensorShape* declared, const TensorShape& rhs) const
    {
        if (m_validateShape && !lhs.isInitialized() && declared && declared->isFullyDefined() && !(*declared == rhs)) {
            return invalidArgumentError("Assign requires shapes of both tensors to match. lhs shape= " +
                                        declared->toString() + " rhs shape= " + rhs.toString());
        }
        return Status::ok();
    }

    const DeviceCopy& m_copier;
    Status m_init;
    bool m_validateShape = true;
    bool m_useLocking = true;
};

/// AssignAdd / AssignSub: the variable, which must hold a value of the same shape, is updated in
/// place by the device's `update` and its ref forwarded (TensorFlow's DenseUpdateOp).
class DenseUpdateOpKernel : public OpKernel {
public:
    DenseUpdateOpKernel(OpKernelConstruction& c, DenseUpdateFn update, const DeviceCopy* copier)
        : OpKernel(c), m_update(update), m_copier(*copier)
    {
        auto locking = attrBool(c.node(), "use_locking");
        if (!locking)
            m_init = locking.error();
        else
            m_useLocking = *locking;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto refs = RefInputs::resolve(ctx, {0}, m_useLocking, m_copier);
        if (!refs)
            return refs.error();
        Tensor& params = (*refs)[0];
        const Tensor& update = ctx.input(1);
        if (!params.isInitialized())
            return failedPreconditionError("Attempting to use uninitialized parameters: " + inputName(*this, 0));
        if (!(params.shape() == update.shape()))
            return invalidArgumentError("Parameters and update must be the same size");
        if (Status s = m_update(ctx, params, update); !s.isOk())
            return s;
        return refs->forwardRef(ctx, 0, 0);
    }

private:
    DenseUpdateFn m_update;
    const DeviceCopy& m_copier;
    Status m_init;
    bool m_useLocking = false;
};

} // namespace

KernelFactory assignKernel(const DeviceCopy& copier)
{
    return [copier = &copier](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<AssignOp>(c, copier));
    };
}

KernelFactory denseUpdateKernel(DenseUpdateFn update, const DeviceCopy& copier)
{
    return [update, copier = &copier](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<DenseUpdateOpKernel>(c, update, copier));
    };
}

Status registerAssignKernels(KernelRegistry& registry)
{
    // Assign copies any dtype a Tensor can hold, as TensorFlow's registers all types.
    if (Status s = registry.registerKernel(KernelDef{"Assign", "CPU", {}, {}}, assignKernel(hostCopy())); !s.isOk())
        return s;
    return addDenseUpdateKernels<CpuDenseUpdate>(
        registry, "CPU", "AssignAdd", "AssignSub", "T", {},
        [](DenseUpdateFn update) { return denseUpdateKernel(update, hostCopy()); }, DenseUpdateTypes{});
}

} // namespace tstudio
