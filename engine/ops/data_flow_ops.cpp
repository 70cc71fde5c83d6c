// Ops of TensorFlow 1.15's data_flow_ops: DynamicPartition, and the stack ops (StackV2, StackPushV2,
// StackPopV2, StackCloseV2), the history stacks that gradients of tf.while_loop keep forward values in.
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/op_families.h"

namespace tstudio {
namespace {

OpDefBuilder stackOp(const char* name, std::string summary)
{
    OpDefBuilder builder(name);
    builder.summary(std::move(summary)).category(op_category::kState).setIsStateful();
    return builder;
}

/// StackPushV2: the output is the pushed element.
Status pushShape(ShapeInferenceContext& c)
{
    c.setOutput(0, c.input(1));
    return Status::ok();
}

/// StackV2: max_size must be a scalar; the handle is a scalar.
Status stackShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(0, 0); !s)
        return s.error();
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// DynamicPartition: every output is [?] + data.shape[rank(partitions):], after checking that data's
/// shape starts with partitions' shape; unknown when the partitions' rank is unknown.
Status dynamicPartitionShape(ShapeInferenceContext& c)
{
    const TensorShape& data = c.input(0);
    const TensorShape& partitions = c.input(1);
    TensorShape result = TensorShape::unknown();
    if (!partitions.isUnknownRank()) {
        if (auto prefix = ShapeInferenceContext::mergePrefix(data, partitions); !prefix)
            return prefix.error();
        auto suffix = ShapeInferenceContext::subshape(data, partitions.rank());
        if (!suffix)
            return suffix.error();
        result = TensorShape{TensorShape::kUnknownDim}.concatenate(*suffix);
    }
    for (int i = 0; i < c.numOutputs(); ++i)
        c.setOutput(i, result);
    return Status::ok();
}

} // namespace

Status registerDataFlowOps(OpRegistry& registry)
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op("DynamicPartition");
        op.summary("Splits `data` into `num_partitions` tensors by `partitions`: the slice data[js, ...] goes to "
                   "outputs[partitions[js]], in the order of js.")
            .category(op_category::kArray)
            .input("data: T")
            .input("partitions: int32")
            .output("outputs: num_partitions * T")
            .attr("num_partitions: int >= 1")
            .attr("T: type");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stackOp("StackV2", "A stack that produces elements in first-in last-out order; max_size "
                                             "below 0 means unlimited.");
        op.input("max_size: int32").output("handle: resource").attr("elem_type: type").attr("stack_name: string = ''");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stackOp("StackPushV2", "Pushes elem onto the stack and outputs it.");
        op.input("handle: resource")
            .input("elem: T")
            .output("output: T")
            .attr("T: type")
            .attr("swap_memory: bool = false");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stackOp("StackPopV2", "Pops the element on top of the stack.");
        op.input("handle: resource").output("elem: elem_type").attr("elem_type: type");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stackOp("StackCloseV2", "Deletes the stack and the elements it still holds.");
        op.input("handle: resource");
        ops.push_back(std::move(op));
    }
    for (const OpDefBuilder& op : ops) {
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
    }
    const std::pair<const char*, ShapeFunction> shapes[] = {{"DynamicPartition", dynamicPartitionShape},
                                                            {"StackV2", stackShape},
                                                            {"StackPushV2", pushShape},
                                                            {"StackPopV2", unknownShape},
                                                            {"StackCloseV2", noOutputs}};
    for (const auto& [name, fn] : shapes) {
        if (Status s = registry.setShapeFunction(name, fn); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
