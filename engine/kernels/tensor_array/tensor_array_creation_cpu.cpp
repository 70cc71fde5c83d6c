// CPU kernels that make, measure and close TensorArrays (TensorArrayV3, TensorArrayGradV3,
// TensorArrayGradWithShape, TensorArraySizeV3, TensorArrayCloseV3) with TensorFlow 1.15's checks and
// words. Arrays live in the step's per-step container, so they go when the step ends: a forward
// array as "_tensor_arrays<tensor_array_name>_<n>" (a fresh n per run), its gradient array for one
// gradient computation as "_tensor_array_grads<tensor_array_name>_<n>@<source>", made on first use
// and found again by later TensorArrayGradV3 runs of the same step (every iteration of a gradient
// loop).
#include "kernels/array/array_kernel_util.h"
#include "kernels/tensor_array/tensor_array_kernels.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"

#include <atomic>
#include <optional>

namespace tstudio {
namespace {

using array::ArrayKernel;

/// Output 1 of the creation ops: the flow, 0 (its value never matters).
Status setZeroFlow(OpKernelContext& ctx)
{
    auto flow = ctx.allocateOutput(1, TensorShape::scalar());
    if (!flow)
        return flow.error();
    (*flow)->scalar<float>() = 0.0f;
    return Status::ok();
}

class TensorArrayV3Op : public ArrayKernel {
public:
    explicit TensorArrayV3Op(OpKernelConstruction& c) : ArrayKernel(c)
    {
        const tensorflow::NodeDef& node = c.node();
        read(attrType(node, "dtype"), m_options.dtype);
        read(attrShape(node, "element_shape"), m_options.elementShape);
        read(attrBool(node, "dynamic_size"), m_options.dynamicSize);
        read(attrBool(node, "clear_after_read"), m_options.clearAfterRead);
        // Graphs older than the attr lack it (TensorFlow's HasAttr check).
        if (node.attr().contains("identical_element_shapes"))
            read(attrBool(node, "identical_element_shapes"), m_options.identicalElementShapes);
        read(attrString(node, "tensor_array_name"), m_name);
        if (m_name.empty())
            m_name = node.name();
    }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& size = ctx.input(0);
        if (size.rank() != 0)
            return invalidArgumentError("TensorArray size must be scalar, but had shape: " + size.shape().toString());
        TensorArrayResource::Options options = m_options;
        options.size = size.scalar<std::int32_t>();
        if (options.size < 0)
            return invalidArgumentError("Size should be >= 0.");
        const ScopedStepContainer* step = ctx.stepContainer();
        if (!step)
            return internalError("No step container.");
        static std::atomic<std::int64_t> counter{0};
        const std::string name = m_name + "_" + std::to_string(counter.fetch_add(1));
        const std::string key = std::string(tensor_array::kArrayPrefix) + name;
        bool fresh = false;
        auto created = ctx.resources().lookupOrCreate<TensorArrayResource>(
            step->name(), key, [&]() -> Expected<std::shared_ptr<TensorArrayResource>> {
                fresh = true;
                return std::make_shared<TensorArrayResource>(name, options);
            });
        if (!created)
            return created.error();
        if (!fresh)
            return Status(StatusCode::kAlreadyExists, "Resource " + step->name() + "/" + key + "/" +
                                                          std::string(TensorArrayResource::kTypeName) +
                                                          " already exists");
        if (Status s = tensor_array::setHandleOutput(ctx, 0, step->name(), key); !s.isOk())
            return s;
        return setZeroFlow(ctx);
    }

private:
    TensorArrayResource::Options m_options;
    std::string m_name;
};

/// TensorArrayGradV3 and TensorArrayGradWithShape (whose third input is shape_to_prepend).
class TensorArrayGradOp : public ArrayKernel {
public:
    explicit TensorArrayGradOp(OpKernelConstruction& c) : ArrayKernel(c)
    {
        read(attrString(c.node(), "source"), m_source);
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto handle = tensor_array::handleFromInput(ctx);
        if (!handle)
            return handle.error();
        if (!handle->name.starts_with(tensor_array::kArrayPrefix))
            return invalidArgumentError("Wrong input container. " + handle->name);
        const std::string forwardName = handle->name.substr(tensor_array::kArrayPrefix.size());
        const ScopedStepContainer* step = ctx.stepContainer();
        if (!step)
            return internalError("No step container.");
        auto forward = tensor_array::lookup(ctx, step->name(), handle->name);
        if (!forward)
            return forward.error();
        TensorArrayResource& array = **forward;
        // Once gradients are being computed the forward array may no longer grow.
        array.disableDynamicSize();
        auto size = array.size();
        if (!size)
            return size.error();
        auto marked = array.markedSize();
        if (!marked)
            return marked.error();
        if (!array.gradientsAllowed())
            return invalidArgumentError("Unable to create a gradients TensorArray for " + forwardName +
                                        ".  Perhaps you used the multiple_writes_aggregate flag on a previous "
                                        "write?  Gradient calculation is impossible when multiple writes are "
                                        "performed to the same index.");
        std::optional<TensorShape> prepend;
        TensorShape elementShape = array.elementShape();
        if (ctx.numInputs() > 2) {
            auto shape = array::makeShape(ctx.input(2));
            if (!shape)
                return shape.error();
            prepend = *shape;
            // A forward shape of unknown rank leaves the gradient's element shape unknown.
            elementShape = elementShape.isUnknownRank() ? TensorShape::unknown() : prepend->concatenate(elementShape);
        }
        const std::string gradName = forwardName + "@" + m_source;
        const std::string key = std::string(tensor_array::kGradPrefix) + gradName;
        TensorArrayResource::Options options;
        options.dtype = array.elemType();
        options.size = *size;
        options.elementShape = elementShape;
        options.identicalElementShapes = array.hasIdenticalElementShapes();
        options.multipleWritesAggregate = true;
        options.isGrad = true;
        options.markedSize = *marked;
        options.clearAfterRead = true;
        auto grad = ctx.resources().lookupOrCreate<TensorArrayResource>(
            step->name(), key, [&]() -> Expected<std::shared_ptr<TensorArrayResource>> {
                auto made = std::make_shared<TensorArrayResource>(gradName, options);
                if (Status s = made->copyShapesFrom(array, prepend ? &*prepend : nullptr); !s.isOk())
                    return unexpected(s);
                return made;
            });
        if (!grad)
            return grad.error();
        if (Status s = tensor_array::setHandleOutput(ctx, 0, step->name(), key); !s.isOk())
            return s;
        return setZeroFlow(ctx);
    }

private:
    /// Which gradient computation the array is for ("gradients", "gradients_1", ...).
    std::string m_source;
};

class TensorArraySizeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto array = tensor_array::fromInput(ctx);
        if (!array)
            return array.error();
        auto size = (*array)->size();
        if (!size)
            return size.error();
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<std::int32_t>() = *size;
        return Status::ok();
    }
};

/// TensorArrayCloseV3: frees the elements and marks the array closed; the resource itself stays until
/// the step's container is cleaned, as in TensorFlow, so later uses fail "has already been closed".
class TensorArrayCloseOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto array = tensor_array::fromInput(ctx);
        if (!array)
            return array.error();
        (*array)->clearAndMarkClosed();
        return Status::ok();
    }
};

} // namespace

Status registerTensorArrayCreationKernels(KernelRegistry& registry)
{
    return array::KernelAdder(registry)
        .add<TensorArrayV3Op>(array::cpuDef("TensorArrayV3"))
        .add<TensorArrayGradOp>(array::cpuDef("TensorArrayGradV3"))
        .add<TensorArrayGradOp>(array::cpuDef("TensorArrayGradWithShape"))
        .add<TensorArraySizeOp>(array::cpuDef("TensorArraySizeV3"))
        .add<TensorArrayCloseOp>(array::cpuDef("TensorArrayCloseV3"))
        .status();
}

} // namespace tstudio
