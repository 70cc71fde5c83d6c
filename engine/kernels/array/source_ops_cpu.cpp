// CPU kernels of the source and identity ops: Const, Placeholder, PlaceholderV2,
// PlaceholderWithDefault, Identity, IdentityN, Snapshot, StopGradient, PreventGradient.
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"

namespace tstudio::array {

namespace {

/// Const: the `value` attr is decoded once, when the kernel is built, and output on every run
/// (consumers share its buffer and never write to it, as in TensorFlow).
class ConstOp : public OpKernel {
public:
    ConstOp(OpKernelConstruction& construction, Tensor value) : OpKernel(construction), m_value(std::move(value)) {}
    Status compute(OpKernelContext& context) override { return context.setOutput(0, m_value); }

    static Expected<std::unique_ptr<OpKernel>> create(OpKernelConstruction& construction)
    {
        auto tensor = constValue(construction, construction.device().allocator());
        if (!tensor)
            return unexpected(tensor.error());
        return std::unique_ptr<OpKernel>(std::make_unique<ConstOp>(construction, std::move(*tensor)));
    }

private:
    Tensor m_value;
};

/// Placeholder and PlaceholderV2. The session replaces a fed placeholder's output, so this kernel
/// only runs when nothing was fed, and fails in TensorFlow's words. TensorFlow names the shape
/// only when its rank is known and above 0 (PartialTensorShape::dims() > 0).
class PlaceholderOp : public ArrayKernel {
public:
    explicit PlaceholderOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        if (findAttr(node(), "shape") != nullptr)
            read(attrShape(node(), "shape"), m_shape);
    }
    Status compute(OpKernelContext&) override
    {
        std::string message = "You must feed a value for placeholder tensor '" + name() + "' with dtype " +
                              dataTypeString(outputTypes().at(0));
        if (m_shape.rank() > 0)
            message += " and shape " + m_shape.toString();
        return invalidArgumentError(message);
    }

private:
    TensorShape m_shape;
};

/// Identity, StopGradient, PreventGradient, PlaceholderWithDefault: the output is the input (the
/// same buffer, as in TensorFlow).
class IdentityOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override { return context.setOutput(0, context.input(0)); }
};

class IdentityNOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        for (int i = 0; i < context.numInputs(); ++i) {
            if (Status s = context.setOutput(i, context.input(i)); !s.isOk())
                return s;
        }
        return Status::ok();
    }
};

/// Snapshot: a copy of the input with its own buffer (a later in-place update of the input, such
/// as an Assign to the variable it reads, does not change it).
class SnapshotOp : public OpKernel {
public:
    SnapshotOp(OpKernelConstruction& construction, const Movement* movement)
        : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        auto out = context.allocateOutput(0, input.shape());
        if (!out)
            return out.error();
        return m_movement.copy(context, input, **out);
    }

private:
    const Movement& m_movement;
};

} // namespace

Expected<Tensor> constValue(const OpKernelConstruction& construction, Allocator& allocator)
{
    const tensorflow::AttrValue* value = findAttr(construction.node(), "value");
    if (value == nullptr || !value->has_tensor())
        return unexpected(
            invalidArgumentError("Node '" + construction.node().name() + "': attr 'value' is missing or not a tensor"));
    auto tensor = Tensor::fromProto(allocator, value->tensor());
    if (!tensor)
        return unexpected(invalidArgumentError("Cannot parse tensor from proto: " + tensor.error().message()));
    const DataType dtype = construction.outputTypes().at(0);
    if (tensor->dtype() != dtype) {
        return unexpected(invalidArgumentError("Type mismatch between value (" + dataTypeString(tensor->dtype()) +
                                               ") and dtype (" + dataTypeString(dtype) + ")"));
    }
    return tensor;
}

KernelFactory identityKernel()
{
    return kernelFactory<IdentityOp>();
}

KernelFactory snapshotKernel(const Movement& movement)
{
    return kernelFactory<SnapshotOp>(&movement);
}

Status registerSourceKernels(KernelRegistry& registry)
{
    KernelAdder adder(registry);
    adder.addFactory(cpuDef("Const"), ConstOp::create)
        .add<PlaceholderOp>(cpuDef("Placeholder"))
        .add<PlaceholderOp>(cpuDef("PlaceholderV2"))
        .add<IdentityOp>(cpuDef("PlaceholderWithDefault"))
        .add<IdentityOp>(cpuDef("Identity"))
        .add<IdentityNOp>(cpuDef("IdentityN"))
        .addFactory(cpuDef("Snapshot", {{"T", podDataTypes()}}), snapshotKernel(hostMovement()))
        .add<IdentityOp>(cpuDef("StopGradient"))
        .add<IdentityOp>(cpuDef("PreventGradient"));
    return adder.status();
}

} // namespace tstudio::array
