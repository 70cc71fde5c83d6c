// The conditional accumulators of TensorFlow 1.15's data_flow_ops (ConditionalAccumulator and its
// Resource and Sparse forms with their apply, take, count and global-step ops), which
// tf.train.SyncReplicasOptimizer puts beside every variable to aggregate the replicas' gradients.
// Repeats on purpose: the queue, reader and accumulator families' constructors, output setters and op
// definitions have one shape and differ in ops and attrs, as TensorFlow's own files do.
#include "ops/accumulator_ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"

#include <string>
#include <vector>

namespace tstudio {
namespace {

constexpr const char* kAccumulatorDoc =
    "The accumulator accepts gradients marked with local_step greater or equal to the most recent global_step "
    "known to the accumulator. The average can be extracted from the accumulator, provided sufficient gradients "
    "have been accumulated. Extracting the average automatically resets the aggregate to 0, and increments the "
    "global_step recorded by the accumulator.";

OpDefBuilder accumulatorOp(const char* name, std::string summary)
{
    OpDefBuilder op(name);
    op.summary(std::move(summary)).category(op_category::kState);
    return op;
}

/// The creating op: handle output, then dtype, shape, container, shared_name, reduction_type.
OpDefBuilder accumulatorDefinition(const char* name, const char* handle, std::string summary)
{
    OpDefBuilder op = accumulatorOp(name, std::move(summary));
    op.description(kAccumulatorDoc)
        .setIsStateful()
        .output(handle)
        .attr("dtype: numbertype")
        .doc("dtype", "The type of the value being accumulated.")
        .attr("shape: shape")
        .doc("shape", "The shape of the values, can be [], in which case shape is unknown.")
        .attr("container: string = ''")
        .doc("container",
             "If non-empty, this accumulator is placed in the given container. Otherwise, a default container "
             "is used.")
        .attr("shared_name: string = ''")
        .doc("shared_name",
             "If non-empty, this accumulator will be shared under the given name across multiple sessions.")
        .attr("reduction_type: {'MEAN', 'SUM'} = 'MEAN'")
        .doc("reduction_type",
             "MEAN: the gradients taken are divided by their count (per row for sparse gradients); SUM: summed.");
    return op;
}

/// TensorFlow's shape for the handle of every creating op: a vector of 2 (container, name).
Status twoElementHandle(ShapeInferenceContext& c)
{
    c.setOutput(0, TensorShape({2}));
    return Status::ok();
}

/// Apply / set-global-step: input 1 (local_step, new_global_step) is a scalar; no outputs.
Status scalarSecondInputNoOutputs(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(1, 0); !s)
        return s.error();
    return Status::ok();
}

/// Take: num_required is a scalar; the outputs' shapes are the accumulator's, unknown here (the
/// building API sets the dense one from the accumulator's shape, as take_grad's set_shape does).
Status takeShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(1, 0); !s)
        return s.error();
    return unknownShape(c);
}

} // namespace

Status registerAccumulatorOps(OpRegistry& registry)
{
    std::vector<OpDefBuilder> ops;
    ops.push_back(accumulatorDefinition("ConditionalAccumulator", "handle: Ref(string)",
                                        "A conditional accumulator for aggregating gradients."));
    ops.push_back(accumulatorDefinition("ResourceConditionalAccumulator", "handle: resource",
                                        "A conditional accumulator for aggregating gradients (resource handle)."));
    ops.push_back(accumulatorDefinition("SparseConditionalAccumulator", "handle: Ref(string)",
                                        "A conditional accumulator for aggregating sparse gradients (IndexedSlices)."));
    for (const auto& [name, handle] : {std::pair{"AccumulatorApplyGradient", "handle: Ref(string)"},
                                       std::pair{"ResourceAccumulatorApplyGradient", "handle: resource"}}) {
        OpDefBuilder op = accumulatorOp(name, "Applies a gradient to a given accumulator; a gradient whose "
                                              "local_step is older than the accumulator's global step is dropped.");
        op.input(handle)
            .input("local_step: int64")
            .input("gradient: dtype")
            .attr("dtype: numbertype")
            .doc("dtype", "The data type of accumulated gradients. Needs to correspond to the type "
                          "of the accumulator.");
        ops.push_back(std::move(op));
    }
    for (const auto& [name, handle] : {std::pair{"AccumulatorTakeGradient", "handle: Ref(string)"},
                                       std::pair{"ResourceAccumulatorTakeGradient", "handle: resource"}}) {
        OpDefBuilder op = accumulatorOp(
            name, "Extracts the average gradient in the given ConditionalAccumulator once num_required gradients "
                  "have been accumulated (it waits until then); resets the aggregate to 0 and increments the "
                  "accumulator's global step.");
        op.input(handle)
            .input("num_required: int32")
            .output("average: dtype")
            .attr("dtype: numbertype")
            .doc("dtype", "The data type of accumulated gradients. Needs to correspond to the type "
                          "of the accumulator.");
        ops.push_back(std::move(op));
    }
    for (const auto& [name, handle] : {std::pair{"AccumulatorNumAccumulated", "handle: Ref(string)"},
                                       std::pair{"ResourceAccumulatorNumAccumulated", "handle: resource"}}) {
        OpDefBuilder op = accumulatorOp(name, "Returns the number of gradients aggregated in the given "
                                              "accumulator.");
        op.input(handle).output("num_accumulated: int32");
        ops.push_back(std::move(op));
    }
    for (const auto& [name, handle] : {std::pair{"AccumulatorSetGlobalStep", "handle: Ref(string)"},
                                       std::pair{"ResourceAccumulatorSetGlobalStep", "handle: resource"}}) {
        OpDefBuilder op = accumulatorOp(name, "Updates the accumulator with a new value for global_step; a value "
                                              "lower than the accumulator's own step logs a warning.");
        op.input(handle).input("new_global_step: int64");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            accumulatorOp("SparseAccumulatorApplyGradient",
                          "Applies a sparse gradient (indices, values, shape) to a given accumulator; a gradient whose "
                          "local_step is older than the accumulator's global step is dropped.");
        op.input("handle: Ref(string)")
            .input("local_step: int64")
            .input("gradient_indices: int64")
            .input("gradient_values: dtype")
            .input("gradient_shape: int64")
            .attr("dtype: numbertype")
            .doc("dtype", "The data type of accumulated gradients. Needs to correspond to the type "
                          "of the accumulator.")
            .attr("has_known_shape: bool")
            .doc("has_known_shape", "Boolean indicating whether gradient_shape is unknown, in which case "
                                    "the input is ignored during validation.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = accumulatorOp(
            "SparseAccumulatorTakeGradient",
            "Extracts the average sparse gradient (indices, values, shape) in a SparseConditionalAccumulator once "
            "num_required gradients have been accumulated; rows are averaged over the gradients that had them.");
        op.input("handle: Ref(string)")
            .input("num_required: int32")
            .output("indices: int64")
            .output("values: dtype")
            .output("shape: int64")
            .attr("dtype: numbertype")
            .doc("dtype", "The data type of accumulated gradients. Needs to correspond to the type "
                          "of the accumulator.");
        ops.push_back(std::move(op));
    }
    for (const OpDefBuilder& op : ops)
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;

    const std::pair<const char*, ShapeFunction> shapes[] = {
        {"ConditionalAccumulator", twoElementHandle},
        {"ResourceConditionalAccumulator", twoElementHandle},
        {"SparseConditionalAccumulator", twoElementHandle},
        {"AccumulatorApplyGradient", scalarSecondInputNoOutputs},
        {"ResourceAccumulatorApplyGradient", scalarSecondInputNoOutputs},
        {"SparseAccumulatorApplyGradient", scalarSecondInputNoOutputs},
        {"AccumulatorTakeGradient", takeShape},
        {"ResourceAccumulatorTakeGradient", takeShape},
        {"SparseAccumulatorTakeGradient", takeShape},
        {"AccumulatorNumAccumulated", scalarShape},
        {"ResourceAccumulatorNumAccumulated", scalarShape},
        {"AccumulatorSetGlobalStep", scalarSecondInputNoOutputs},
        {"ResourceAccumulatorSetGlobalStep", scalarSecondInputNoOutputs}};
    for (const auto& [name, fn] : shapes) {
        if (Status s = registry.setShapeFunction(name, fn); !s.isOk())
            return s;
        // TensorFlow's data_flow_grad.py marks the accumulator ops NotDifferentiable.
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
