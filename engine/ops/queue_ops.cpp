// The queue ops of TensorFlow 1.15's data_flow_ops (FIFOQueueV2, PaddingFIFOQueueV2,
// RandomShuffleQueueV2, QueueEnqueue(Many)V2, QueueDequeue(Many/UpTo)V2, QueueCloseV2, QueueSizeV2,
// QueueIsClosedV2) and CountUpTo, the epoch counter input producers build with them.
// Repeats on purpose: the queue, reader and accumulator families' constructors, output setters and op
// definitions have one shape and differ in ops and attrs, as TensorFlow's own files do.
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/ops.h"

namespace tstudio {
namespace {

OpDefBuilder queueOp(const char* name, std::string summary)
{
    OpDefBuilder builder(name);
    builder.summary(std::move(summary)).category(op_category::kState).setIsStateful();
    return builder;
}

/// The attrs every queue kind shares, in TensorFlow's order.
OpDefBuilder queueDefinition(const char* name, std::string summary)
{
    OpDefBuilder op = queueOp(name, std::move(summary));
    op.output("handle: resource")
        .attr("component_types: list(type) >= 1")
        .attr("shapes: list(shape) >= 0 = []")
        .attr("capacity: int = -1");
    return op;
}

void addSharing(OpDefBuilder& op)
{
    op.attr("container: string = ''").attr("shared_name: string = ''");
}

/// QueueDequeueManyV2 / UpToV2: n must be a scalar; the outputs' shapes come from the queue (the
/// building API sets them, as tf.QueueBase.dequeue_many does).
Status dequeueManyShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(1, 0); !s)
        return s.error();
    return unknownShape(c);
}

/// CountUpTo: the ref must be a scalar; the output is a scalar of the same dtype.
Status countUpToShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(0, 0); !s)
        return s.error();
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

} // namespace

Status registerQueueOps(OpRegistry& registry)
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op = queueDefinition("FIFOQueueV2", "A queue that produces elements in first-in first-out order.");
        addSharing(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueDefinition("PaddingFIFOQueueV2",
                                          "A first-in first-out queue whose DequeueMany pads every component to the "
                                          "largest shape of the batch (-1 in `shapes` marks a dimension to pad).");
        addSharing(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueDefinition("RandomShuffleQueueV2",
                                          "A queue that dequeues its elements in a random order, keeping at least "
                                          "min_after_dequeue of them until it is closed.");
        op.attr("min_after_dequeue: int = 0").attr("seed: int = 0").attr("seed2: int = 0");
        addSharing(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueOp("QueueEnqueueV2", "Enqueues one element (a tuple of components); waits while "
                                                    "the queue is full.");
        op.input("handle: resource")
            .input("components: Tcomponents")
            .attr("Tcomponents: list(type) >= 1")
            .attr("timeout_ms: int = -1");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueOp("QueueEnqueueManyV2", "Enqueues the slices of the components along dimension 0 "
                                                        "as separate elements.");
        op.input("handle: resource")
            .input("components: Tcomponents")
            .attr("Tcomponents: list(type) >= 1")
            .attr("timeout_ms: int = -1");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueOp("QueueDequeueV2", "Dequeues one element; waits until there is one or the queue "
                                                    "is closed (then OutOfRange).");
        op.input("handle: resource")
            .output("components: component_types")
            .attr("component_types: list(type) >= 1")
            .attr("timeout_ms: int = -1");
        ops.push_back(std::move(op));
    }
    for (const char* name : {"QueueDequeueManyV2", "QueueDequeueUpToV2"}) {
        const bool upTo = std::string_view(name) == "QueueDequeueUpToV2";
        OpDefBuilder op = queueOp(name, upTo ? "Dequeues n elements, or fewer (at least one) once the queue is "
                                               "closed, concatenated along a new dimension 0."
                                             : "Dequeues n elements concatenated along a new dimension 0.");
        op.input("handle: resource")
            .input("n: int32")
            .output("components: component_types")
            .attr("component_types: list(type) >= 1")
            .attr("timeout_ms: int = -1");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueOp("QueueCloseV2", "Closes the queue: later enqueues fail, dequeues drain what is "
                                                  "left; cancel_pending_enqueues also cancels blocked enqueues.");
        op.input("handle: resource").attr("cancel_pending_enqueues: bool = false");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueOp("QueueIsClosedV2", "Whether the queue is closed.");
        op.input("handle: resource").output("is_closed: bool");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = queueOp("QueueSizeV2", "The number of elements in the queue.");
        op.input("handle: resource").output("size: int32");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op("CountUpTo");
        op.summary("Increments the variable `ref` until it reaches `limit`; outputs the value before the "
                   "increment, OutOfRange \"Reached limit of <limit>\" once it is reached.")
            .category(op_category::kState)
            .input("ref: Ref(T)")
            .output("output: T")
            .attr("limit: int")
            .attr("T: {int32, int64}");
        ops.push_back(std::move(op));
    }
    for (const OpDefBuilder& op : ops) {
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
    }
    const std::pair<const char*, ShapeFunction> shapes[] = {
        {"FIFOQueueV2", scalarShape},          {"PaddingFIFOQueueV2", scalarShape},
        {"RandomShuffleQueueV2", scalarShape}, {"QueueEnqueueV2", noOutputs},
        {"QueueEnqueueManyV2", noOutputs},     {"QueueDequeueV2", unknownShape},
        {"QueueDequeueManyV2", dequeueManyShape}, {"QueueDequeueUpToV2", dequeueManyShape},
        {"QueueCloseV2", noOutputs},           {"QueueIsClosedV2", scalarShape},
        {"QueueSizeV2", scalarShape},          {"CountUpTo", countUpToShape}};
    for (const auto& [name, fn] : shapes) {
        if (Status s = registry.setShapeFunction(name, fn); !s.isOk())
            return s;
        // Handles, strings, counters and side effects: TensorFlow's data_flow_ops.py and state_ops.py mark these ops
        // NotDifferentiable, so backprop stops at them.
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
