// nce_loss and sampled_softmax_loss (sampled_losses.h), node for node as nn_impl.py builds them.
#include "losses/sampled_losses.h"

#include "builder/array_ops_helpers.h"
#include "builder/attr_values.h"
#include "builder/python_ops.h"
#include "builder/sparse_to_dense.h"
#include "losses/nn_losses.h"

#include <string>
#include <utility>

namespace tstudio::nn {

namespace {

using array_ops::ListElement;

/// array_ops.stop_gradient(x): "StopGradient".
Expected<Output> stopGradient(GraphBuilder& b, const Output& x, std::string_view name = "StopGradient")
{
    return py::genOp(b, "StopGradient", {x}, {}, name);
}

/// array_ops.shape(x)[index:index + 1] when `range`, else shape(x)[index].
Expected<Output> shapeElement(GraphBuilder& b, const Output& x, std::int64_t index, bool range = false)
{
    TSTUDIO_AD_TRY(shape, array_ops::shape(b, x));
    if (range)
        return array_ops::stridedSlice1d(b, shape, ListElement{index}, ListElement{index + 1});
    return array_ops::stridedSlice1d(b, shape, ListElement{index}, ListElement{index + 1}, true);
}

/// array_ops.ones(shape tensor, dtype): "ones/Const" and the Fill "ones".
Expected<Output> ones(GraphBuilder& b, const Output& shape, DataType dtype)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("ones"));
    TSTUDIO_AD_TRY(one, py::constant(b, 1.0, dtype));
    return py::genOp(b, "Fill", {shape, one}, {}, scope.name());
}

/// _sum_rows(x): each row of the matrix x summed as x @ ones([cols, 1]), flattened to a vector.
Expected<Output> sumRows(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(cols, shapeElement(b, x, 1));
    TSTUDIO_AD_TRY(onesShape, array_ops::packList(b, {cols, std::int64_t{1}}, "stack"));
    TSTUDIO_AD_TRY(column, ones(b, onesShape, x.baseDtype()));
    TSTUDIO_AD_TRY(product, py::matmul(b, x, column, false, false));
    return py::reshape(b, product, std::vector<std::int64_t>{-1});
}

} // namespace

Expected<SampledLogits> computeSampledLogits(GraphBuilder& b, const std::vector<Output>& weights, const Output& biases,
                                             const Output& labels, const Output& inputs, std::int64_t numSampled,
                                             std::int64_t numClasses, const SampledLossOptions& options,
                                             bool subtractLogQ, bool removeAccidentalHits, std::string_view name)
{
    if (weights.empty())
        return unexpected(invalidArgumentError("compute_sampled_logits: weights must hold at least one tensor"));
    const std::int64_t numTrue = options.numTrue;
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("compute_sampled_logits") : name));
    TSTUDIO_AD_TRY(labels64, py::cast(b, labels, tensorflow::DT_INT64));
    TSTUDIO_AD_TRY(labelsFlat, py::reshape(b, labels64, std::vector<std::int64_t>{-1}));

    SampledValues values;
    if (options.sampledValues) {
        values = *options.sampledValues;
    } else {
        CandidateSamplerArgs args;
        args.numTrue = numTrue;
        args.numSampled = numSampled;
        args.unique = true;
        args.rangeMax = numClasses;
        args.seed = options.seed;
        TSTUDIO_AD_TRY(drawn, logUniformCandidateSampler(b, labels64, args));
        values = drawn;
    }
    TSTUDIO_AD_TRY(sampledStopped, stopGradient(b, values.sampledCandidates));
    TSTUDIO_AD_TRY(trueExpected, stopGradient(b, values.trueExpectedCount, "StopGradient_1"));
    TSTUDIO_AD_TRY(sampledExpected, stopGradient(b, values.sampledExpectedCount, "StopGradient_2"));
    TSTUDIO_AD_TRY(sampled, py::cast(b, sampledStopped, tensorflow::DT_INT64));

    // The true rows first, then the sampled ones: [batch * num_true + num_sampled, dim].
    TSTUDIO_AD_TRY(allIds, array_ops::concat(b, {labelsFlat, sampled}, ListElement{std::int64_t{0}}));
    TSTUDIO_AD_TRY(allWRaw, embeddingLookup(b, weights, allIds, options.partitionStrategy));
    TSTUDIO_AD_TRY(allW, py::cast(b, allWRaw, inputs.baseDtype()));
    TSTUDIO_AD_TRY(trueCount, shapeElement(b, labelsFlat, 0));
    TSTUDIO_AD_TRY(trueWSize, array_ops::packList(b, {trueCount, std::int64_t{-1}}, "stack"));
    TSTUDIO_AD_TRY(trueWBegin, py::intVector(b, {0, 0}));
    TSTUDIO_AD_TRY(trueW, array_ops::slice(b, allW, trueWBegin, trueWSize));
    TSTUDIO_AD_TRY(trueCount2, shapeElement(b, labelsFlat, 0));
    TSTUDIO_AD_TRY(sampledWBegin, array_ops::packList(b, {trueCount2, std::int64_t{0}}, "stack"));
    TSTUDIO_AD_TRY(sampledWSize, py::intVector(b, {-1, -1}));
    TSTUDIO_AD_TRY(sampledW, array_ops::slice(b, allW, sampledWBegin, sampledWSize));
    TSTUDIO_AD_TRY(sampledLogitsRaw, py::matmul(b, inputs, sampledW, false, true));

    TSTUDIO_AD_TRY(allBRaw, embeddingLookup(b, std::vector<Output>{biases}, allIds, options.partitionStrategy));
    TSTUDIO_AD_TRY(allB, py::cast(b, allBRaw, inputs.baseDtype()));
    TSTUDIO_AD_TRY(labelsShape, array_ops::shape(b, labelsFlat));
    TSTUDIO_AD_TRY(trueBBegin, py::intVector(b, {0}));
    TSTUDIO_AD_TRY(trueBRaw, array_ops::slice(b, allB, trueBBegin, labelsShape));
    TSTUDIO_AD_TRY(labelsShape2, array_ops::shape(b, labelsFlat));
    TSTUDIO_AD_TRY(sampledBSize, py::intVector(b, {-1}));
    TSTUDIO_AD_TRY(sampledB, array_ops::slice(b, allB, labelsShape2, sampledBSize));

    // The true logits: per row, the dot product of the input with each of its true rows.
    TSTUDIO_AD_TRY(dim, shapeElement(b, trueW, 1, true));
    TSTUDIO_AD_TRY(newTrueWShape, array_ops::concat(b, {std::vector<ListElement>{std::int64_t{-1}, numTrue}, dim},
                                                    ListElement{std::int64_t{0}}));
    TSTUDIO_AD_TRY(inputsExpanded, py::expandDims(b, inputs, 1));
    TSTUDIO_AD_TRY(trueWReshaped, py::reshape(b, trueW, newTrueWShape));
    TSTUDIO_AD_TRY(rowWiseDots, py::genOp(b, "Mul", {inputsExpanded, trueWReshaped}));
    const ListElement axis0{std::int64_t{0}};
    TSTUDIO_AD_TRY(matrixShape, array_ops::concat(b, {std::vector<ListElement>{std::int64_t{-1}}, dim}, axis0));
    TSTUDIO_AD_TRY(dotsAsMatrix, py::reshape(b, rowWiseDots, matrixShape));
    TSTUDIO_AD_TRY(dotSums, sumRows(b, dotsAsMatrix));
    TSTUDIO_AD_TRY(trueLogitsRaw, py::reshape(b, dotSums, std::vector<std::int64_t>{-1, numTrue}));
    TSTUDIO_AD_TRY(trueB, py::reshape(b, trueBRaw, std::vector<std::int64_t>{-1, numTrue}));
    TSTUDIO_AD_TRY(trueLogitsBiased, py::binary(b, py::Operator::kAdd, trueLogitsRaw, trueB));
    TSTUDIO_AD_TRY(sampledLogitsBiased, py::binary(b, py::Operator::kAdd, sampledLogitsRaw, sampledB));
    Output trueLogits = trueLogitsBiased;
    Output sampledLogits = sampledLogitsBiased;

    if (removeAccidentalHits) {
        TSTUDIO_AD_TRY(hits, computeAccidentalHits(b, labels64, sampled, numTrue));
        TSTUDIO_AD_TRY(indices2d, py::reshape(b, hits.indices, std::vector<std::int64_t>{-1, 1}));
        TSTUDIO_AD_TRY(ids32, py::cast(b, hits.ids, tensorflow::DT_INT32));
        TSTUDIO_AD_TRY(ids2d, py::reshape(b, ids32, std::vector<std::int64_t>{-1, 1}));
        Output sparseIndices;
        {
            // array_ops.concat([acc_indices_2d, acc_ids_2d_int32], 1, "sparse_indices").
            TSTUDIO_AD_TRY(s, b.nameScope("sparse_indices"));
            TSTUDIO_AD_TRY(axis, py::constant(b, 1.0, tensorflow::DT_INT32, "axis"));
            const std::vector<Output> parts{indices2d, ids2d};
            TSTUDIO_AD_TRY(joined, py::genOp(b, "ConcatV2", {parts, axis}, {}, s.name()));
            sparseIndices = joined;
        }
        TSTUDIO_AD_TRY(labelsRows, array_ops::shape(b, labels64));
        TSTUDIO_AD_TRY(batchDim, array_ops::stridedSlice1d(b, labelsRows, std::nullopt, ListElement{std::int64_t{1}}));
        TSTUDIO_AD_TRY(numSampledT, py::constant(b, static_cast<double>(numSampled), tensorflow::DT_INT32));
        TSTUDIO_AD_TRY(numSampledV, py::expandDims(b, numSampledT, 0));
        TSTUDIO_AD_TRY(logitsShape, array_ops::concat(b, {batchDim, numSampledV}, ListElement{std::int64_t{0}}));
        TSTUDIO_AD_TRY(accWeights, py::cast(b, hits.weights, sampledLogits.baseDtype()));
        TSTUDIO_AD_TRY(zero, py::constant(b, 0.0, sampledLogits.baseDtype()));
        TSTUDIO_AD_TRY(mask, sparse::sparseToDense(b, sparseIndices, logitsShape, accWeights, zero, false));
        TSTUDIO_AD_TRY(masked, py::binary(b, py::Operator::kAdd, sampledLogits, mask));
        sampledLogits = masked;
    }
    if (subtractLogQ) {
        TSTUDIO_AD_TRY(logTrue, py::genOp(b, "Log", {trueExpected}));
        TSTUDIO_AD_TRY(trueShifted, py::binary(b, py::Operator::kSub, trueLogits, logTrue));
        TSTUDIO_AD_TRY(logSampled, py::genOp(b, "Log", {sampledExpected}));
        TSTUDIO_AD_TRY(sampledShifted, py::binary(b, py::Operator::kSub, sampledLogits, logSampled));
        trueLogits = trueShifted;
        sampledLogits = sampledShifted;
    }
    TSTUDIO_AD_TRY(outLogits, array_ops::concat(b, {trueLogits, sampledLogits}, ListElement{std::int64_t{1}}));
    TSTUDIO_AD_TRY(trueOnes, py::onesLike(b, trueLogits));
    TSTUDIO_AD_TRY(trueLabels, py::binary(b, py::Operator::kTrueDiv, trueOnes, static_cast<double>(numTrue)));
    TSTUDIO_AD_TRY(sampledZeros, py::zerosLike(b, sampledLogits));
    TSTUDIO_AD_TRY(outLabels, array_ops::concat(b, {trueLabels, sampledZeros}, ListElement{std::int64_t{1}}));
    return SampledLogits{outLogits, outLabels};
}

Expected<Output> nceLoss(GraphBuilder& b, const std::vector<Output>& weights, const Output& biases,
                         const Output& labels, const Output& inputs, std::int64_t numSampled, std::int64_t numClasses,
                         const SampledLossOptions& options, std::string_view name)
{
    TSTUDIO_AD_TRY(sampled, computeSampledLogits(b, weights, biases, labels, inputs, numSampled, numClasses, options,
                                                 true, options.removeAccidentalHits.value_or(false), name));
    TSTUDIO_AD_TRY(losses, sigmoidCrossEntropyWithLogits(b, sampled.labels, sampled.logits, "sampled_losses"));
    return sumRows(b, losses);
}

Expected<Output> sampledSoftmaxLoss(GraphBuilder& b, const std::vector<Output>& weights, const Output& biases,
                                    const Output& labels, const Output& inputs, std::int64_t numSampled,
                                    std::int64_t numClasses, const SampledLossOptions& options, std::string_view name)
{
    TSTUDIO_AD_TRY(sampled, computeSampledLogits(b, weights, biases, labels, inputs, numSampled, numClasses, options,
                                                 true, options.removeAccidentalHits.value_or(true), name));
    TSTUDIO_AD_TRY(stopped, stopGradient(b, sampled.labels, "labels_stop_gradient"));
    return softmaxCrossEntropyWithLogitsV2(b, stopped, sampled.logits);
}

} // namespace tstudio::nn
