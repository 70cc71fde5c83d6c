// CPU kernels of the resource-variable ops: VarHandleOp, ReadVariableOp, AssignVariableOp,
// AssignAdd/SubVariableOp, VarIsInitializedOp and DestroyResourceOp, with TensorFlow 1.15's checks and words.
#define EIGEN_USE_THREADS

#include "kernels/state/dense_update.h"
#include "kernels/state/dense_update_cpu.h"
#include "kernels/state/dense_update_kernels.h"
#include "kernels/state/device_copy.h"
#include "kernels/state/ref_inputs.h"
#include "kernels/state/resource_variable.h"
#include "kernels/state/resource_variable_kernels.h"

#include "framework/kernel_registry.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <atomic>

namespace tstudio {

namespace {

using tensorflow::DT_RESOURCE;

/// A scalar DT_RESOURCE tensor holding `handle`, in `allocator` (the device's host memory: handles
/// never live on an accelerator).
Expected<Tensor> handleTensor(Allocator& allocator, ResourceHandle handle)
{
    auto t = Tensor::allocate(allocator, DT_RESOURCE, TensorShape::scalar());
    if (t)
        t->scalar<ResourceHandle>() = std::move(handle);
    return t;
}

/// Attr `name` of `node` as T, remembering the first failure in `*status` for compute().
template <typename T> T attrOr(const Expected<T>& value, Status* status)
{
    if (!value) {
        if (status->isOk())
            *status = value.error();
        return T{};
    }
    return *value;
}

/// VarHandleOp: the handle (device, container, shared_name, Var's type, dtype and shape). As in
/// TensorFlow 1.15 the name is shared_name as given, also when it is empty (the Python layer always
/// sets it to the variable's name); the anonymous name gives "_AnonymousVar<N>", new each run.
class VarHandleOp : public OpKernel {
public:
    explicit VarHandleOp(OpKernelConstruction& c) : OpKernel(c)
    {
        const std::string container = attrOr(attrString(c.node(), "container"), &m_init);
        const std::string sharedName = attrOr(attrString(c.node(), "shared_name"), &m_init);
        const DataType dtype = attrOr(attrType(c.node(), "dtype"), &m_init);
        const TensorShape shape = attrOr(attrShape(c.node(), "shape"), &m_init);
        if (!m_init.isOk())
            return;
        m_handle = makeVariableHandle(c.device(), container, sharedName, dtype, shape);
        m_anonymous = sharedName == ResourceHandle::kAnonymousName;
        if (!m_anonymous) {
            auto output = handleTensor(c.device().hostAllocator(), m_handle);
            if (output)
                m_output = std::move(*output);
            else
                m_init = output.error();
        }
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        if (!m_anonymous)
            return ctx.setOutput(0, m_output);
        static std::atomic<std::int64_t> nextAnonymousId{0};
        ResourceHandle handle = m_handle;
        handle.name = "_AnonymousVar" + std::to_string(nextAnonymousId.fetch_add(1));
        auto output = handleTensor(ctx.device().hostAllocator(), std::move(handle));
        if (!output)
            return output.error();
        return ctx.setOutput(0, std::move(*output));
    }

private:
    Status m_init;
    ResourceHandle m_handle;
    bool m_anonymous = false;
    Tensor m_output; ///< the handle, made once (named variables)
};

/// A kernel that reads or writes a variable of the dtype its attr `dtype` names.
class VariableDtypeKernel : public OpKernel {
public:
    explicit VariableDtypeKernel(OpKernelConstruction& c) : OpKernel(c)
    {
        m_dtype = attrOr(attrType(c.node(), "dtype"), &m_init);
    }

protected:
    Status m_init;
    DataType m_dtype = tensorflow::DT_FLOAT;
};

/// ReadVariableOp: the variable's value, sharing its buffer (a later update copies first).
class ReadVariableOp : public VariableDtypeKernel {
public:
    using VariableDtypeKernel::VariableDtypeKernel;

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto handle = handleFromInput(ctx, 0);
        if (!handle)
            return handle.error();
        auto variable = lookupVariable(ctx, **handle);
        if (!variable) {
            return failedPreconditionError("Error while reading resource variable " + (*handle)->name +
                                           " from Container: " + (*handle)->container +
                                           ". This could mean that the variable was uninitialized. " +
                                           tensorflowStatusString(variable.error()));
        }
        Tensor value;
        {
            std::lock_guard lock((*variable)->mutex);
            value = (*variable)->value;
        }
        if (value.dtype() != m_dtype) {
            return invalidArgumentError("Trying to read variable with wrong dtype. Expected " +
                                        dataTypeString(m_dtype) + " got " + dataTypeString(value.dtype()));
        }
        return ctx.setOutput(0, std::move(value));
    }
};

/// AssignVariableOp: creates the variable with a copy of the value, or replaces its value. Unlike
/// Assign on a ref variable, a new shape is fine (TensorFlow checks none here). The variable keeps
/// a copy rather than sharing the input's buffer as TensorFlow does: our feeds share the caller's
/// buffer, which the caller may overwrite after the run. When the variable's own buffer is private
/// and has the value's shape, the copy goes into it (no allocation). Copies by the device's copier.
class AssignVariableOp : public VariableDtypeKernel {
public:
    AssignVariableOp(OpKernelConstruction& c, const DeviceCopy* copier) : VariableDtypeKernel(c), m_copier(*copier) {}

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const Tensor& value = ctx.input(1);
        if (value.dtype() != m_dtype) {
            return invalidArgumentError("Variable and value dtypes don't match; respectively, " +
                                        dataTypeString(m_dtype) + " and " + dataTypeString(value.dtype()));
        }
        auto handle = handleFromInput(ctx, 0);
        if (!handle)
            return handle.error();
        const ResourceHandle& h = **handle;
        if (Status s = validateVariableHandle(ctx, h); !s.isOk())
            return s;
        bool created = false;
        auto variable = ctx.resources().lookupOrCreate<ResourceVariable>(
            h.container, h.name, [&]() -> Expected<std::shared_ptr<ResourceVariable>> {
                auto copy = m_copier.clone(ctx, value);
                if (!copy)
                    return unexpected(copy.error());
                created = true;
                return std::make_shared<ResourceVariable>(h.name, std::move(*copy));
            });
        if (!variable)
            return variable.error();
        if (created)
            return Status::ok();

        ResourceVariable& v = **variable;
        std::lock_guard lock(v.mutex);
        if (v.value.dtype() != m_dtype) {
            return invalidArgumentError("Trying to assign variable with wrong dtype. Expected " +
                                        dataTypeString(v.value.dtype()) + " got " + dataTypeString(m_dtype));
        }
        // The copier copies plain bytes and strings; handles (a variable of resources) get a new buffer.
        if (m_dtype != DT_RESOURCE && v.value.isInitialized() && v.value.shape() == value.shape() &&
            !v.value.bufferIsShared())
            return m_copier.copy(ctx, value, v.value);
        auto copy = m_copier.clone(ctx, value);
        if (!copy)
            return copy.error();
        v.value = std::move(*copy);
        ctx.resources().noteVariableStorageReplaced();
        return Status::ok();
    }

private:
    const DeviceCopy& m_copier;
};

/// AssignAddVariableOp / AssignSubVariableOp: value added to (subtracted from) the variable in
/// place by the device's `update`; the variable must exist and have the value's shape.
class AssignUpdateVariableOp : public OpKernel {
public:
    AssignUpdateVariableOp(OpKernelConstruction& c, DenseUpdateFn update, const DeviceCopy* copier)
        : OpKernel(c), m_update(update), m_copier(*copier)
    {
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto handle = handleFromInput(ctx, 0);
        if (!handle)
            return handle.error();
        auto variable = lookupVariable(ctx, **handle);
        if (!variable)
            return variable.error();
        auto locked = LockedVariables::lock({*variable}, inputTypes().at(1), ctx, m_copier);
        if (!locked)
            return locked.error();
        Tensor& var = (*locked)[0];
        const Tensor& value = ctx.input(1);
        if (!(var.shape() == value.shape())) {
            return invalidArgumentError("Cannot update variable with shape " + var.shape().toString() +
                                        " using a Tensor with shape " + value.shape().toString() +
                                        ", shapes must be equal.");
        }
        return m_update(ctx, var, value);
    }

private:
    DenseUpdateFn m_update;
    const DeviceCopy& m_copier;
};

/// VarIsInitializedOp: true once an AssignVariableOp has created the variable; false for a handle
/// whose variable does not exist (or is not a variable on this device).
class VarIsInitializedOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& ctx) override
    {
        auto handle = handleFromInput(ctx, 0);
        if (!handle)
            return handle.error();
        bool initialized = false;
        if (auto variable = lookupVariable(ctx, **handle)) {
            std::lock_guard lock((*variable)->mutex);
            initialized = (*variable)->value.isInitialized();
        }
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<bool>() = initialized;
        return Status::ok();
    }
};

/// DestroyResourceOp: removes the variable. With ignore_lookup_error (the default) a missing one is
/// fine; otherwise NotFound in TensorFlow's words (which name the type "<unknown>" here).
class DestroyResourceOp : public OpKernel {
public:
    explicit DestroyResourceOp(OpKernelConstruction& c) : OpKernel(c)
    {
        m_ignoreLookupError = attrOr(attrBool(c.node(), "ignore_lookup_error"), &m_init);
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto handle = handleFromInput(ctx, 0);
        if (!handle)
            return handle.error();
        const ResourceHandle& h = **handle;
        if (Status s = validateHandleDevice(ctx, h); !s.isOk())
            return s;
        Status status;
        if (h.hashCode != ResourceVariable::typeHashCode() ||
            !ctx.resources().lookup<ResourceVariable>(h.container, h.name))
            status = notFoundError("Resource " + ResourceManager::containerOrDefault(h.container) + "/" + h.name +
                                   "/<unknown> does not exist.");
        else
            status = ctx.resources().remove(h.container, h.name);
        if (m_ignoreLookupError && status.code() == StatusCode::kNotFound)
            return Status::ok();
        return status;
    }

private:
    Status m_init;
    bool m_ignoreLookupError = true;
};

/// A factory of K(construction).
template <typename K> KernelFactory factoryOf()
{
    return [](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<K>(c));
    };
}

} // namespace

KernelFactory varHandleKernel()
{
    return factoryOf<VarHandleOp>();
}

KernelFactory readVariableKernel()
{
    return factoryOf<ReadVariableOp>();
}

KernelFactory varIsInitializedKernel()
{
    return factoryOf<VarIsInitializedOp>();
}

KernelFactory destroyResourceKernel()
{
    return factoryOf<DestroyResourceOp>();
}

KernelFactory assignVariableKernel(const DeviceCopy& copier)
{
    return [copier = &copier](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<AssignVariableOp>(c, copier));
    };
}

KernelFactory assignUpdateVariableKernel(DenseUpdateFn update, const DeviceCopy& copier)
{
    return [update, copier = &copier](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<AssignUpdateVariableOp>(c, update, copier));
    };
}

Status registerResourceVariableKernels(KernelRegistry& registry)
{
    // As in TensorFlow, no dtype constraint except for the arithmetic updates; handles stay in host memory.
    Status status = registry.add<VarHandleOp>(KernelDef{"VarHandleOp", "CPU", {}, {"resource"}});
    if (status.isOk())
        status = registry.add<ReadVariableOp>(KernelDef{"ReadVariableOp", "CPU", {}, {"resource"}});
    if (status.isOk())
        status = registry.registerKernel(KernelDef{"AssignVariableOp", "CPU", {}, {"resource"}},
                                         assignVariableKernel(hostCopy()));
    if (status.isOk())
        status = registry.add<VarIsInitializedOp>(KernelDef{"VarIsInitializedOp", "CPU", {}, {"resource"}});
    if (status.isOk())
        status = registry.add<DestroyResourceOp>(KernelDef{"DestroyResourceOp", "CPU", {}, {"resource"}});
    if (status.isOk())
        status = addDenseUpdateKernels<CpuDenseUpdate>(
            registry, "CPU", "AssignAddVariableOp", "AssignSubVariableOp", "dtype", {"resource"},
            [](DenseUpdateFn update) { return assignUpdateVariableKernel(update, hostCopy()); }, DenseUpdateTypes{});
    return status;
}

} // namespace tstudio
