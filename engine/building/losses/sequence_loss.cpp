// sequence_loss (contrib.seq2seq) and sequence_loss_by_example / sequence_loss
// (contrib.legacy_seq2seq) as TensorFlow 1.15's Python builds them (sequence_loss.h).
#include "losses/sequence_loss.h"

#include "builder/array_ops_helpers.h"
#include "builder/attr_values.h"
#include "builder/python_ops.h"
#include "losses/nn_losses.h"
#include "losses/python_helpers.h"

#include <optional>
#include <string>

namespace tstudio {

namespace {

/// math_ops.add_n(values): the value itself for one, else the AddN "AddN".
Expected<Output> addN(GraphBuilder& b, const std::vector<Output>& values)
{
    if (values.size() == 1)
        return values.front();
    return py::genOp(b, "AddN", {values});
}

/// math_ops.count_nonzero(x, axis) in the scope "count_nonzero": "zeros", "NotEqual", "Cast",
/// the Sum over every axis ("Const" axes) or over `axis` ("Sum/reduction_indices"); int64.
Expected<Output> countNonzero(GraphBuilder& b, const Output& x, std::optional<std::int64_t> axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("count_nonzero"));
    TSTUDIO_AD_TRY(zero, py::constant(b, 0.0, x.baseDtype(), "zeros"));
    TSTUDIO_AD_TRY(nonzero, py::genOp(b, "NotEqual", {x, zero}));
    TSTUDIO_AD_TRY(counted, py::cast(b, nonzero, tensorflow::DT_INT64));
    if (axis)
        return lossutil::reduceAxis(b, "Sum", counted, *axis);
    return lossutil::reduceAll(b, "Sum", counted);
}

} // namespace

namespace seq2seq {

Expected<Output> sequenceLoss(GraphBuilder& b, const Output& logits, const Output& targets, const Output& weights,
                              const SequenceLossOptions& options, std::string_view name)
{
    if (!logits.shape().isUnknownRank() && logits.shape().rank() != 3)
        return unexpected(invalidArgumentError("Logits must be a [batch_size x sequence_length x logits] tensor"));
    if (!targets.shape().isUnknownRank() && targets.shape().rank() != 2)
        return unexpected(invalidArgumentError("Targets must be a [batch_size x sequence_length] tensor"));
    if (!weights.shape().isUnknownRank() && weights.shape().rank() != 2)
        return unexpected(invalidArgumentError("Weights must be a [batch_size x sequence_length] tensor"));
    if (options.averageAcrossTimesteps && options.sumOverTimesteps)
        return unexpected(invalidArgumentError(
            "average_across_timesteps and sum_over_timesteps cannot be set to True at same time."));
    if (options.averageAcrossBatch && options.sumOverBatch)
        return unexpected(
            invalidArgumentError("average_across_batch and sum_over_batch cannot be set to True at same time."));

    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("sequence_loss") : name));
    TSTUDIO_AD_TRY(logitsShape, array_ops::shape(b, logits));
    TSTUDIO_AD_TRY(numClasses, array_ops::stridedSlice1d(b, logitsShape, array_ops::ListElement{std::int64_t{2}},
                                                         array_ops::ListElement{std::int64_t{3}}, true));
    TSTUDIO_AD_TRY(flatShape, array_ops::packList(b, {std::int64_t{-1}, numClasses}, "Reshape/shape"));
    TSTUDIO_AD_TRY(logitsFlat, py::reshape(b, logits, flatShape));
    TSTUDIO_AD_TRY(targetsFlat, py::reshape(b, targets, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(crossentRaw, nn::sparseSoftmaxCrossEntropyWithLogits(b, targetsFlat, logitsFlat));
    TSTUDIO_AD_TRY(weightsFlat, py::reshape(b, weights, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(crossent, py::binary(b, py::Operator::kMul, crossentRaw, weightsFlat));

    if (options.averageAcrossTimesteps && options.averageAcrossBatch) {
        TSTUDIO_AD_TRY(total, lossutil::reduceAll(b, "Sum", crossent));
        TSTUDIO_AD_TRY(totalSize, lossutil::reduceAll(b, "Sum", weights));
        return lossutil::divNoNan(b, total, totalSize);
    }
    if (options.sumOverTimesteps && options.sumOverBatch) {
        TSTUDIO_AD_TRY(total, lossutil::reduceAll(b, "Sum", crossent));
        TSTUDIO_AD_TRY(countRaw, countNonzero(b, weights, std::nullopt));
        TSTUDIO_AD_TRY(count, py::cast(b, countRaw, total.baseDtype()));
        return lossutil::divNoNan(b, total, count);
    }
    TSTUDIO_AD_TRY(logitsShape2, array_ops::shape(b, logits));
    TSTUDIO_AD_TRY(batchTime, array_ops::stridedSlice1d(b, logitsShape2, array_ops::ListElement{std::int64_t{0}},
                                                        array_ops::ListElement{std::int64_t{2}}));
    TSTUDIO_AD_TRY(perPosition, py::reshape(b, crossent, batchTime));
    if (options.averageAcrossTimesteps || options.averageAcrossBatch) {
        const std::int64_t axis = options.averageAcrossBatch ? 0 : 1;
        TSTUDIO_AD_TRY(total, lossutil::reduceAxis(b, "Sum", perPosition, axis));
        TSTUDIO_AD_TRY(totalSize, lossutil::reduceAxis(b, "Sum", weights, axis));
        return lossutil::divNoNan(b, total, totalSize);
    }
    if (options.sumOverTimesteps || options.sumOverBatch) {
        const std::int64_t axis = options.sumOverBatch ? 0 : 1;
        TSTUDIO_AD_TRY(total, lossutil::reduceAxis(b, "Sum", perPosition, axis));
        TSTUDIO_AD_TRY(countRaw, countNonzero(b, weights, axis));
        TSTUDIO_AD_TRY(count, py::cast(b, countRaw, total.baseDtype()));
        return lossutil::divNoNan(b, total, count);
    }
    return perPosition;
}

} // namespace seq2seq

namespace legacy_seq2seq {

Expected<Output> sequenceLossByExample(GraphBuilder& b, const std::vector<Output>& logits,
                                       const std::vector<Output>& targets, const std::vector<Output>& weights,
                                       bool averageAcrossTimesteps, std::string_view name)
{
    if (targets.size() != logits.size() || weights.size() != logits.size())
        return unexpected(invalidArgumentError("Lengths of logits, weights, and targets must be the same " +
                                               std::to_string(logits.size()) + ", " + std::to_string(weights.size()) +
                                               ", " + std::to_string(targets.size()) + "."));
    if (logits.empty())
        return unexpected(invalidArgumentError("sequence_loss_by_example needs at least one timestep"));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("sequence_loss_by_example") : name));
    std::vector<Output> logPerps;
    for (std::size_t t = 0; t < logits.size(); ++t) {
        TSTUDIO_AD_TRY(target, py::reshape(b, targets[t], std::vector<std::int64_t>{-1}));
        TSTUDIO_AD_TRY(crossent, nn::sparseSoftmaxCrossEntropyWithLogits(b, target, logits[t]));
        TSTUDIO_AD_TRY(weighted, py::binary(b, py::Operator::kMul, crossent, weights[t]));
        logPerps.push_back(weighted);
    }
    TSTUDIO_AD_TRY(summed, addN(b, logPerps));
    if (!averageAcrossTimesteps)
        return summed;
    TSTUDIO_AD_TRY(totalSizeRaw, addN(b, weights));
    // "Just to avoid division by 0 for all-0 weights."
    TSTUDIO_AD_TRY(totalSize, py::binary(b, py::Operator::kAdd, totalSizeRaw, 1e-12));
    return py::binary(b, py::Operator::kTrueDiv, summed, totalSize);
}

Expected<Output> sequenceLoss(GraphBuilder& b, const std::vector<Output>& logits, const std::vector<Output>& targets,
                              const std::vector<Output>& weights, bool averageAcrossTimesteps, bool averageAcrossBatch,
                              std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("sequence_loss") : name));
    TSTUDIO_AD_TRY(perExample, sequenceLossByExample(b, logits, targets, weights, averageAcrossTimesteps));
    TSTUDIO_AD_TRY(cost, lossutil::reduceAll(b, "Sum", perExample));
    if (!averageAcrossBatch)
        return cost;
    TSTUDIO_AD_TRY(targetShape, array_ops::shape(b, targets.front()));
    TSTUDIO_AD_TRY(batch, array_ops::stridedSlice1d(b, targetShape, array_ops::ListElement{std::int64_t{0}},
                                                    array_ops::ListElement{std::int64_t{1}}, true));
    TSTUDIO_AD_TRY(batchCast, py::cast(b, batch, cost.baseDtype()));
    return py::binary(b, py::Operator::kTrueDiv, cost, batchCast);
}

} // namespace legacy_seq2seq

} // namespace tstudio
