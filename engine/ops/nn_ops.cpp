// The NN op family: activations and their gradients, softmax, bias add, fused batch norm, local
// response normalization, losses and InTopK, with their shape functions. Convolutions and pooling
// are in conv_pool_ops.cpp. Definitions follow TensorFlow 1.15's OpDefs (names, args, attrs, types,
// defaults, flags).
#include "ops/ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/conv_pool_ops.h"
#include "ops/nn_shape_fns.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using C = ShapeInferenceContext;

constexpr const char* kFloatTypes = "T: {half, bfloat16, float, double}";

OpDefBuilder nnOp(std::string name, std::string summary)
{
    OpDefBuilder builder(std::move(name));
    builder.summary(std::move(summary)).category(op_category::kNN);
    return builder;
}

/// features: T -> activations: T.
OpDefBuilder activationOp(std::string name, const char* types, std::string summary)
{
    OpDefBuilder builder = nnOp(std::move(name), std::move(summary));
    builder.input("features: T").output("activations: T").attr(types);
    return builder;
}

/// gradients: T, <second>: T -> backprops: T, the backward step of an activation.
OpDefBuilder activationGradOp(std::string name, const char* second, const char* types, std::string summary)
{
    OpDefBuilder builder = nnOp(std::move(name), std::move(summary));
    builder.input("gradients: T").input(std::string(second) + ": T").output("backprops: T").attr(types);
    return builder;
}

/// The five outputs of FusedBatchNorm V1/V2 (V3 adds reserve_space_3); `u` types the statistics.
void batchNormOutputs(OpDefBuilder& builder, const char* u)
{
    const std::string type = std::string(": ") + u;
    builder.output("y: T")
        .output("batch_mean" + type)
        .output("batch_variance" + type)
        .output("reserve_space_1" + type)
        .output("reserve_space_2" + type);
}

/// Activations, softmax and bias.
void addActivationSoftmaxAndBiasOps(std::vector<OpDefBuilder>& ops)
{
    // --- Activations ---
    ops.push_back(activationOp("Relu", "T: {realnumbertype, qint8}", "Rectified linear unit: max(features, 0)."));
    ops.push_back(
        activationOp("Relu6", "T: realnumbertype", "Rectified linear unit capped at 6: min(max(features, 0), 6)."));
    ops.push_back(
        activationOp("Elu", kFloatTypes, "Exponential linear unit: exp(features) - 1 below zero, features above."));
    ops.push_back(
        activationOp("Selu", kFloatTypes, "Scaled exponential linear unit with the fixed self-normalizing constants."));
    {
        OpDefBuilder op =
            nnOp("LeakyRelu", "Leaky rectified linear unit: features where positive, alpha * features elsewhere.");
        op.input("features: T")
            .output("activations: T")
            .attr("alpha: float = 0.2")
            .attr("T: {half, bfloat16, float, double} = DT_FLOAT");
        ops.push_back(std::move(op));
    }
    ops.push_back(activationOp("Softplus", kFloatTypes, "Smooth rectifier: log(exp(features) + 1)."));
    ops.push_back(activationOp("Softsign", kFloatTypes, "Softsign activation: features / (abs(features) + 1)."));

    ops.push_back(activationGradOp("ReluGrad", "features", "T: realnumbertype",
                                   "Backward step of Relu: gradients where the forward input was positive, else 0."));
    ops.push_back(activationGradOp("Relu6Grad", "features", "T: realnumbertype",
                                   "Backward step of Relu6: gradients where 0 < features < 6, else 0."));
    ops.push_back(activationGradOp("EluGrad", "outputs", kFloatTypes,
                                   "Backward step of Elu, computed from the forward outputs."));
    ops.push_back(activationGradOp("SeluGrad", "outputs", kFloatTypes,
                                   "Backward step of Selu, computed from the forward outputs."));
    {
        // Not activationGradOp: TensorFlow lists alpha before T.
        OpDefBuilder op = nnOp("LeakyReluGrad", "Backward step of LeakyRelu: gradients scaled by 1 or alpha.");
        op.input("gradients: T")
            .input("features: T")
            .output("backprops: T")
            .attr("alpha: float = 0.2")
            .attr("T: {half, bfloat16, float, double} = DT_FLOAT");
        ops.push_back(std::move(op));
    }
    ops.push_back(activationGradOp("SoftplusGrad", "features", kFloatTypes,
                                   "Backward step of Softplus: gradients * sigmoid(features)."));
    ops.push_back(activationGradOp("SoftsignGrad", "features", kFloatTypes,
                                   "Backward step of Softsign: gradients / (1 + abs(features))^2."));

    // --- Softmax ---
    {
        OpDefBuilder op = nnOp("Softmax", "Softmax over the last dimension: exp(logits) normalized to sum to 1.");
        op.input("logits: T").output("softmax: T").attr(kFloatTypes);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("LogSoftmax", "Logarithm of the softmax over the last dimension, computed stably.");
        op.input("logits: T").output("logsoftmax: T").attr(kFloatTypes);
        ops.push_back(std::move(op));
    }

    // --- Bias ---
    {
        OpDefBuilder op =
            nnOp("BiasAdd", "Adds a 1-D bias to the channel dimension of value (last, or dim 1 for NCHW).");
        op.attr("T: numbertype")
            .input("value: T")
            .input("bias: T")
            .attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
            .output("output: T");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("BiasAddV1", "Adds a 1-D bias to the last dimension of value (the original BiasAdd).");
        op.attr("T: numbertype").input("value: T").input("bias: T").output("output: T");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            nnOp("BiasAddGrad", "Backward step of BiasAdd: out_backprop summed over all but the channel dimension.");
        op.attr("T: numbertype")
            .input("out_backprop: T")
            .attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
            .output("output: T");
        ops.push_back(std::move(op));
    }

}

/// Batch and local response normalization, and the losses.
void addNormalizationAndLossOps(std::vector<OpDefBuilder>& ops)
{
    // --- Batch normalization ---
    {
        OpDefBuilder op = nnOp("FusedBatchNorm", "Batch normalization of a 4-D tensor in one op (float only).");
        op.input("x: T").input("scale: T").input("offset: T").input("mean: T").input("variance: T");
        batchNormOutputs(op, "T");
        op.attr("T: {float}")
            .attr("epsilon: float = 0.0001")
            .attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
            .attr("is_training: bool = true");
        ops.push_back(std::move(op));
    }
    for (const char* name : {"FusedBatchNormV2", "FusedBatchNormV3"}) {
        const bool v3 = std::string(name) == "FusedBatchNormV3";
        OpDefBuilder op =
            nnOp(name, v3 ? "Batch normalization of a 4-D tensor, with an extra reserve output for the backward step."
                          : "Batch normalization of a 4-D tensor whose statistics may have another type (U).");
        op.input("x: T").input("scale: U").input("offset: U").input("mean: U").input("variance: U");
        batchNormOutputs(op, "U");
        if (v3)
            op.output("reserve_space_3: U");
        op.attr("T: {half, bfloat16, float}")
            .attr("U: {float}")
            .attr("epsilon: float = 0.0001")
            .attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
            .attr("is_training: bool = true");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("FusedBatchNormGrad", "Backward step of FusedBatchNorm.");
        op.input("y_backprop: T")
            .input("x: T")
            .input("scale: T")
            .input("reserve_space_1: T")
            .input("reserve_space_2: T")
            .output("x_backprop: T")
            .output("scale_backprop: T")
            .output("offset_backprop: T")
            .output("reserve_space_3: T")
            .output("reserve_space_4: T")
            .attr("T: {float}")
            .attr("epsilon: float = 0.0001")
            .attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
            .attr("is_training: bool = true");
        ops.push_back(std::move(op));
    }
    for (const char* name : {"FusedBatchNormGradV2", "FusedBatchNormGradV3"}) {
        const bool v3 = std::string(name) == "FusedBatchNormGradV3";
        OpDefBuilder op = nnOp(name, v3 ? "Backward step of FusedBatchNormV3." : "Backward step of FusedBatchNormV2.");
        op.input("y_backprop: T")
            .input("x: T")
            .input("scale: float")
            .input("reserve_space_1: U")
            .input("reserve_space_2: U");
        if (v3)
            op.input("reserve_space_3: U");
        op.output("x_backprop: T").output("scale_backprop: U").output("offset_backprop: U");
        if (v3)
            op.output("reserve_space_4: U").output("reserve_space_5: U");
        else
            op.output("reserve_space_3: U").output("reserve_space_4: U");
        op.attr("T: {half, bfloat16, float}")
            .attr("U: {float}")
            .attr("epsilon: float = 0.0001")
            .attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
            .attr("is_training: bool = true");
        ops.push_back(std::move(op));
    }

    // --- Local response normalization ---
    {
        OpDefBuilder op = nnOp("LRN", "Local response normalization across the depth of a 4-D tensor.");
        op.input("input: T")
            .output("output: T")
            .attr("depth_radius: int = 5")
            .attr("bias: float = 1.0")
            .attr("alpha: float = 1.0")
            .attr("beta: float = 0.5")
            .attr("T: {half, bfloat16, float} = DT_FLOAT");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("LRNGrad", "Backward step of LRN.");
        op.input("input_grads: T")
            .input("input_image: T")
            .input("output_image: T")
            .output("output: T")
            .attr("depth_radius: int = 5")
            .attr("bias: float = 1.0")
            .attr("alpha: float = 1.0")
            .attr("beta: float = 0.5")
            .attr("T: {half, bfloat16, float} = DT_FLOAT");
        ops.push_back(std::move(op));
    }

    // --- Losses ---
    {
        OpDefBuilder op =
            nnOp("SoftmaxCrossEntropyWithLogits",
                 "Per-example softmax cross-entropy of logits against label distributions, and its gradient.");
        op.input("features: T")
            .input("labels: T")
            .output("loss: T")
            .output("backprop: T")
            .attr("T: {half, bfloat16, float, double}");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("SparseSoftmaxCrossEntropyWithLogits",
                               "Per-example softmax cross-entropy of logits against class indices, and its gradient.");
        op.input("features: T")
            .input("labels: Tlabels")
            .output("loss: T")
            .output("backprop: T")
            .attr("T: {half, bfloat16, float, double}")
            .attr("Tlabels: {int32, int64} = DT_INT64");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("L2Loss", "Half the sum of squares of all elements: sum(t ^ 2) / 2.");
        op.input("t: T").output("output: T").attr("T: {half, bfloat16, float, double}");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("InTopK", "Whether each target class is among the k highest predictions of its row.");
        op.input("predictions: float")
            .input("targets: T")
            .output("precision: bool")
            .attr("k: int")
            .attr("T: {int32, int64} = DT_INT32");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("InTopKV2", "InTopK with k given as an input tensor instead of an attr.");
        op.input("predictions: float")
            .input("targets: T")
            .input("k: T")
            .output("precision: bool")
            .attr("T: {int32, int64} = DT_INT32");
        ops.push_back(std::move(op));
    }
}

std::vector<OpDefBuilder> nnOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    addActivationSoftmaxAndBiasOps(ops);
    addNormalizationAndLossOps(ops);
    return ops;
}

// --- Shape functions -------------------------------------------------------------------------------

/// Output 0 is inputs 0 and 1 merged (TensorFlow's MergeBothInputsShapeFn): activation gradients.
Status mergeBothInputsShape(C& c)
{
    auto merged = c.input(0).merge(c.input(1));
    if (!merged)
        return merged.error();
    c.setOutput(0, std::move(*merged));
    return Status::ok();
}

Status softmaxCrossEntropyShape(C& c)
{
    // The usual case: features and labels both [batch, classes].
    if (auto features = c.withRank(0, 2)) {
        if (auto merged = features->merge(c.input(1))) {
            c.setOutput(0, TensorShape{merged->dim(0)});
            c.setOutput(1, *merged);
            return Status::ok();
        }
    }
    // Otherwise labels may broadcast against features; the result must still be a matrix.
    auto broadcast = broadcastShapes(c.input(0), c.input(1));
    if (!broadcast)
        return broadcast.error();
    if (broadcast->isUnknownRank())
        return invalidArgumentError("Shape must be broadcasted with rank 2, but is rank is unknown.");
    if (broadcast->rank() != 2)
        return invalidArgumentError("Shape must be broadcasted with rank 2, but is rank " +
                                    std::to_string(broadcast->rank()));
    c.setOutput(0, TensorShape{broadcast->dim(0)});
    c.setOutput(1, *broadcast);
    return Status::ok();
}

Status sparseSoftmaxCrossEntropyShape(C& c)
{
    auto features = c.withRank(0, 2);
    if (!features)
        return features.error();
    auto labels = c.withRank(1, 1);
    if (!labels)
        return labels.error();
    auto batch = C::mergeDim(features->dim(0), labels->dim(0));
    if (!batch)
        return batch.error();
    c.setOutput(0, TensorShape{*batch});
    c.setOutput(1, *C::replaceDim(*features, 0, *batch));
    return Status::ok();
}

/// InTopK and InTopKV2 (whose k input is not checked, as in TensorFlow).
Status inTopKShape(C& c)
{
    auto predictions = c.withRank(0, 2);
    if (!predictions)
        return predictions.error();
    auto targets = c.withRank(1, 1);
    if (!targets)
        return targets.error();
    auto batch = C::mergeDim(predictions->dim(0), targets->dim(0));
    if (!batch)
        return batch.error();
    c.setOutput(0, TensorShape{*batch});
    return Status::ok();
}

Status lrnGradShape(C& c)
{
    auto shape = c.withRank(0, 4);
    for (int i = 1; shape && i < 3; ++i)
        shape = shape->merge(c.input(i));
    if (!shape)
        return shape.error();
    c.setOutput(0, std::move(*shape));
    return Status::ok();
}

std::vector<std::pair<std::string, ShapeFunction>> nnShapeFunctions()
{
    std::vector<std::pair<std::string, ShapeFunction>> functions;
    for (const char* name : {"Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign"})
        functions.emplace_back(name, unchangedShape);
    for (const char* name :
         {"ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "LeakyReluGrad", "SoftplusGrad", "SoftsignGrad"})
        functions.emplace_back(name, mergeBothInputsShape);
    for (const char* name : {"Softmax", "LogSoftmax"})
        functions.emplace_back(name, [](C& c) { return unchangedShapeWithRankAtLeast(c, 1); });
    functions.emplace_back("BiasAdd", biasAddShape);
    functions.emplace_back("BiasAddV1", biasAddShape);
    functions.emplace_back("BiasAddGrad", biasAddGradShape);
    functions.emplace_back("FusedBatchNorm", fusedBatchNormShape);
    functions.emplace_back("FusedBatchNormV2", fusedBatchNormShape);
    functions.emplace_back("FusedBatchNormV3", fusedBatchNormV3Shape);
    for (const char* name : {"FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"})
        functions.emplace_back(name, fusedBatchNormGradShape);
    functions.emplace_back("LRN", [](C& c) { return unchangedShapeWithRank(c, 4); });
    functions.emplace_back("LRNGrad", lrnGradShape);
    functions.emplace_back("SoftmaxCrossEntropyWithLogits", softmaxCrossEntropyShape);
    functions.emplace_back("SparseSoftmaxCrossEntropyWithLogits", sparseSoftmaxCrossEntropyShape);
    functions.emplace_back("L2Loss", scalarShape);
    functions.emplace_back("InTopK", inTopKShape);
    functions.emplace_back("InTopKV2", inTopKShape);
    return functions;
}

} // namespace

Status registerNnOps(OpRegistry& registry)
{
    for (const OpDefBuilder& builder : nnOpDefinitions()) {
        if (Status status = registry.registerOp(builder); !status.isOk())
            return status;
    }
    for (auto& [name, function] : nnShapeFunctions()) {
        if (Status status = registry.setShapeFunction(name, std::move(function)); !status.isOk())
            return status;
    }
    return registerConvPoolOps(registry);
}

} // namespace tstudio
