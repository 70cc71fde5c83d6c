// CPU kernels of the queue ops: the queue handle ops create (or share) a Queue resource once per
// kernel; enqueue, dequeue, close, size and is-closed act on the queue a handle names.
// Repeats on purpose: the queue, reader and accumulator families' constructors, output setters and op
// definitions have one shape and differ in ops and attrs, as TensorFlow's own files do.
#include "kernels/kernels.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"
#include "kernels/queue/queue.h"
#include "kernels/queue/resource_naming.h"

#include <optional>

namespace tstudio {
namespace {

/// FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2: the first run creates the queue (or
/// finds the one its shared_name names, which must match); every run outputs its handle.
class QueueHandleOp : public OpKernel {
public:
    QueueHandleOp(OpKernelConstruction& c, QueueKind kind) : OpKernel(c) { m_init = readConfig(c.node(), kind); }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        if (!m_name) {
            auto name = resourceNameFor(node());
            if (!name)
                return name.error();
            auto queue = lookupOrCreateMatching<Queue>(ctx, *name, m_config);
            if (!queue)
                return queue.error();
            m_name = *name;
        }
        return setHandleOutput(ctx, *m_name, Queue::kTypeName);
    }

private:
    Status readConfig(const tensorflow::NodeDef& def, QueueKind kind)
    {
        m_config.kind = kind;
        auto types = attrTypeList(def, "component_types");
        if (!types)
            return types.error();
        m_config.dtypes = *types;
        auto shapes = attrShapeList(def, "shapes");
        if (!shapes)
            return shapes.error();
        m_config.shapes = *shapes;
        auto capacity = attrInt(def, "capacity");
        if (!capacity)
            return capacity.error();
        m_config.capacity = *capacity;
        if (kind == QueueKind::kRandomShuffle) {
            auto minAfter = attrInt(def, "min_after_dequeue");
            auto seed = attrInt(def, "seed");
            auto seed2 = attrInt(def, "seed2");
            if (!minAfter || !seed || !seed2)
                return invalidArgumentError("RandomShuffleQueueV2 needs min_after_dequeue, seed and seed2");
            m_config.minAfterDequeue = *minAfter;
            m_config.seed = *seed;
            m_config.seed2 = *seed2;
        }
        return Status::ok();
    }

    Status m_init;
    QueueConfig m_config;
    std::optional<ResourceName> m_name;
};

template <QueueKind kKind> class QueueHandleOpOf : public QueueHandleOp {
public:
    explicit QueueHandleOpOf(OpKernelConstruction& c) : QueueHandleOp(c, kKind) {}
};

/// The component values (inputs 1..) of an enqueue.
QueueTuple componentInputs(OpKernelContext& ctx)
{
    QueueTuple components;
    for (int i = 1; i < ctx.numInputs(); ++i)
        components.push_back(ctx.input(i));
    return components;
}

std::vector<DataType> componentTypes(const OpKernel& kernel)
{
    return {kernel.inputTypes().begin() + 1, kernel.inputTypes().end()};
}

template <bool kMany> class EnqueueOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto queue = queueFromHandle(ctx, 0);
        if (!queue)
            return queue.error();
        if (Status s = (*queue)->checkTypes(componentTypes(*this), true); !s.isOk())
            return s;
        return kMany ? (*queue)->enqueueMany(ctx, componentInputs(ctx)) : (*queue)->enqueue(ctx, componentInputs(ctx));
    }
};

Status setComponents(OpKernelContext& ctx, QueueTuple components)
{
    for (std::size_t i = 0; i < components.size(); ++i)
        if (Status s = ctx.setOutput(static_cast<int>(i), std::move(components[i])); !s.isOk())
            return s;
    return Status::ok();
}

class DequeueOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto queue = queueFromHandle(ctx, 0);
        if (!queue)
            return queue.error();
        if (Status s = (*queue)->checkTypes(outputTypes(), false); !s.isOk())
            return s;
        auto element = (*queue)->dequeue(ctx);
        if (!element)
            return element.error();
        return setComponents(ctx, std::move(*element));
    }
};

template <bool kUpTo> class DequeueManyOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto queue = queueFromHandle(ctx, 0);
        if (!queue)
            return queue.error();
        if (Status s = (*queue)->checkTypes(outputTypes(), false); !s.isOk())
            return s;
        const Tensor& n = ctx.input(1);
        if (n.rank() != 0)
            return invalidArgumentError("n must be a scalar, got shape " + n.shape().toString());
        auto batch = (*queue)->dequeueMany(ctx, n.scalar<std::int32_t>(), kUpTo);
        if (!batch)
            return batch.error();
        return setComponents(ctx, std::move(*batch));
    }
};

class CloseOp : public OpKernel {
public:
    explicit CloseOp(OpKernelConstruction& c) : OpKernel(c)
    {
        auto cancel = attrBool(c.node(), "cancel_pending_enqueues");
        if (cancel)
            m_cancel = *cancel;
        else
            m_init = cancel.error();
    }
    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto queue = queueFromHandle(ctx, 0);
        if (!queue)
            return queue.error();
        (*queue)->close(m_cancel);
        return Status::ok();
    }

private:
    Status m_init;
    bool m_cancel = false;
};

class SizeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto queue = queueFromHandle(ctx, 0);
        if (!queue)
            return queue.error();
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<std::int32_t>() = static_cast<std::int32_t>((*queue)->size());
        return Status::ok();
    }
};

class IsClosedOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& ctx) override
    {
        auto queue = queueFromHandle(ctx, 0);
        if (!queue)
            return queue.error();
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<bool>() = (*queue)->isClosed();
        return Status::ok();
    }
};

} // namespace

Status registerQueueOpKernels(KernelRegistry& registry)
{
    Status s = registry.add<QueueHandleOpOf<QueueKind::kFifo>>(KernelDef{"FIFOQueueV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<QueueHandleOpOf<QueueKind::kPaddingFifo>>(
            KernelDef{"PaddingFIFOQueueV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<QueueHandleOpOf<QueueKind::kRandomShuffle>>(
            KernelDef{"RandomShuffleQueueV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<EnqueueOp<false>>(KernelDef{"QueueEnqueueV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<EnqueueOp<true>>(KernelDef{"QueueEnqueueManyV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<DequeueOp>(KernelDef{"QueueDequeueV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<DequeueManyOp<false>>(KernelDef{"QueueDequeueManyV2", "CPU", {}, {"handle", "n"}});
    if (s.isOk())
        s = registry.add<DequeueManyOp<true>>(KernelDef{"QueueDequeueUpToV2", "CPU", {}, {"handle", "n"}});
    if (s.isOk())
        s = registry.add<CloseOp>(KernelDef{"QueueCloseV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<SizeOp>(KernelDef{"QueueSizeV2", "CPU", {}, {"handle"}});
    if (s.isOk())
        s = registry.add<IsClosedOp>(KernelDef{"QueueIsClosedV2", "CPU", {}, {"handle"}});
    return s;
}

} // namespace tstudio
