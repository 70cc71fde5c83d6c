// CPU kernels of VariableV2/Variable, IsVariableInitialized, TemporaryVariable, DestroyTemporaryVariable and NoOp.
#include "kernels/state/state_kernels.h"

#include "framework/kernel_registry.h"
#include "kernels/state/ref_inputs.h"
#include "kernels/state/ref_variable.h"

namespace tstudio {

namespace {

/// VariableV2 and Variable: looks up (or creates, uninitialized) the RefVariable under
/// (container attr, shared_name attr or the node name) and outputs a ref to it (TensorFlow's
/// VariableOp with ContainerInfo's "use node name" rule; an empty container is "localhost").
class VariableOp : public OpKernel {
public:
    explicit VariableOp(OpKernelConstruction& c) : OpKernel(c)
    {
        auto dtype = attrType(c.node(), "dtype");
        auto shape = attrShape(c.node(), "shape");
        auto container = attrString(c.node(), "container");
        auto sharedName = attrString(c.node(), "shared_name");
        if (!dtype || !shape || !container || !sharedName) {
            m_init = !dtype       ? dtype.error()
                     : !shape     ? shape.error()
                     : !container ? container.error()
                                  : sharedName.error();
            return;
        }
        m_dtype = *dtype;
        m_shape = *shape;
        m_container = *container;
        m_name = sharedName->empty() ? c.node().name() : *sharedName;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        const DataType dtype = m_dtype;
        const TensorShape shape = m_shape;
        auto variable = ctx.resources().lookupOrCreate<RefVariable>(
            m_container, m_name,
            [&]() -> Expected<std::shared_ptr<RefVariable>> { return std::make_shared<RefVariable>(dtype, shape); });
        if (!variable)
            return variable.error();
        {
            std::lock_guard lock((*variable)->mutex);
            if ((*variable)->value.dtype() != m_dtype) {
                return invalidArgumentError(
                    "variable '" + m_name + "' in container '" + ResourceManager::containerOrDefault(m_container) +
                    "' holds " + dataTypeName((*variable)->value.dtype()) + ", not " + dataTypeName(m_dtype));
            }
        }
        // The ResourceManager keeps the variable alive; the kernel also holds the last one it
        // output, so the ref stays valid while the kernel lives even if the resource is removed.
        std::lock_guard lock(m_kernelMutex);
        m_variable = *variable;
        ctx.setOutputRef(0, &m_variable->value, &m_variable->mutex, &m_variable->declaredShape);
        return Status::ok();
    }

private:
    Status m_init;
    DataType m_dtype = tensorflow::DT_FLOAT;
    TensorShape m_shape;
    std::string m_container;
    std::string m_name;
    std::mutex m_kernelMutex;
    std::shared_ptr<RefVariable> m_variable; ///< keeps the last output's target alive
};

/// IsVariableInitialized: a bool scalar, true once the ref variable holds a value.
class IsVariableInitializedOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& ctx) override
    {
        bool initialized;
        if (std::mutex* m = ctx.refInputMutex(0); ctx.inputIsRef(0) && m) {
            std::lock_guard lock(*m);
            initialized = ctx.mutableRefInput(0)->isInitialized();
        } else {
            initialized = ctx.input(0).isInitialized();
        }
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<bool>() = initialized;
        return Status::ok();
    }
};

/// The step-scoped container of TemporaryVariable (TensorFlow keeps them in the step container,
/// which the executor deletes at the end of the step).
std::string temporaryContainer(const OpKernelContext& ctx)
{
    return "_tmp_step_" + std::to_string(ctx.stepId());
}

/// TemporaryVariable: a zero-filled tensor of the given shape and dtype, kept as a RefVariable in
/// the step's container under var_name (the node name when empty), output as a ref.
class TemporaryVariableOp : public OpKernel {
public:
    explicit TemporaryVariableOp(OpKernelConstruction& c) : OpKernel(c)
    {
        auto dtype = attrType(c.node(), "dtype");
        auto shape = attrShape(c.node(), "shape");
        auto varName = attrString(c.node(), "var_name");
        if (!dtype || !shape || !varName) {
            m_init = !dtype ? dtype.error() : !shape ? shape.error() : varName.error();
            return;
        }
        m_dtype = *dtype;
        m_shape = *shape;
        m_name = varName->empty() ? c.node().name() : *varName;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        if (!m_shape.isFullyDefined())
            return invalidArgumentError("TemporaryVariable needs a fully defined shape, got " + m_shape.toString());
        auto value = Tensor::allocate(ctx.allocator(), m_dtype, m_shape);
        if (!value)
            return value.error();
        auto variable = std::make_shared<RefVariable>(m_dtype, m_shape);
        variable->value = std::move(*value);
        auto stored = ctx.resources().lookupOrCreate<RefVariable>(
            temporaryContainer(ctx), m_name, [&]() -> Expected<std::shared_ptr<RefVariable>> { return variable; });
        if (!stored)
            return stored.error();
        if (*stored != variable)
            return alreadyExists(m_name);
        std::lock_guard lock(m_kernelMutex);
        m_variable = variable;
        ctx.setOutputRef(0, &m_variable->value, &m_variable->mutex, &m_variable->declaredShape);
        return Status::ok();
    }

private:
    static Status alreadyExists(const std::string& name)
    {
        return Status(StatusCode::kAlreadyExists, "Resource " + name + " already exists in this step");
    }

    Status m_init;
    DataType m_dtype = tensorflow::DT_FLOAT;
    TensorShape m_shape;
    std::string m_name;
    std::mutex m_kernelMutex;
    std::shared_ptr<RefVariable> m_variable;
};

/// DestroyTemporaryVariable: outputs the temporary variable's value and removes it from the step.
class DestroyTemporaryVariableOp : public OpKernel {
public:
    explicit DestroyTemporaryVariableOp(OpKernelConstruction& c) : OpKernel(c)
    {
        auto varName = attrString(c.node(), "var_name");
        if (!varName)
            m_init = varName.error();
        else if (varName->empty())
            m_init = invalidArgumentError("Missing var_name attribute");
        else
            m_name = *varName;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        if (!ctx.inputIsRef(0))
            return invalidArgumentError("lhs input needs to be a ref type");
        Tensor value;
        {
            std::unique_lock<std::mutex> lock;
            if (std::mutex* m = ctx.refInputMutex(0))
                lock = std::unique_lock(*m);
            value = *ctx.mutableRefInput(0);
        }
        if (Status s = ctx.setOutput(0, std::move(value)); !s.isOk())
            return s;
        return ctx.resources().remove(temporaryContainer(ctx), m_name);
    }

private:
    Status m_init;
    std::string m_name;
};

class NoOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext&) override { return Status::ok(); }
};

/// A factory of K(construction).
template <typename K> KernelFactory factoryOf()
{
    return [](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(std::make_unique<K>(c));
    };
}

} // namespace

KernelFactory variableKernel()
{
    return factoryOf<VariableOp>();
}

KernelFactory isVariableInitializedKernel()
{
    return factoryOf<IsVariableInitializedOp>();
}

KernelFactory temporaryVariableKernel()
{
    return factoryOf<TemporaryVariableOp>();
}

KernelFactory destroyTemporaryVariableKernel()
{
    return factoryOf<DestroyTemporaryVariableOp>();
}

Status registerVariableKernels(KernelRegistry& registry)
{
    // As in TensorFlow, no dtype constraint: any dtype a Tensor can hold.
    for (const char* op : {"VariableV2", "Variable"}) {
        if (Status s = registry.add<VariableOp>(KernelDef{op, "CPU", {}, {}}); !s.isOk())
            return s;
    }
    if (Status s = registry.add<IsVariableInitializedOp>(KernelDef{"IsVariableInitialized", "CPU", {}, {}}); !s.isOk())
        return s;
    if (Status s = registry.add<TemporaryVariableOp>(KernelDef{"TemporaryVariable", "CPU", {}, {}}); !s.isOk())
        return s;
    if (Status s = registry.add<DestroyTemporaryVariableOp>(KernelDef{"DestroyTemporaryVariable", "CPU", {}, {}});
        !s.isOk())
        return s;
    return registry.add<NoOp>(KernelDef{"NoOp", "CPU", {}, {}});
}

} // namespace tstudio
