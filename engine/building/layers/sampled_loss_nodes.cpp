// The NCELoss, SampledSoftmaxLoss and SequenceLoss nodes: their catalogue entries and their expansion.
#include "layers/sampled_loss_nodes.h"

#include "builder/attr_values.h"
#include "builder/initializers.h"
#include "builder/ops_sugar.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "core/try.h"
#include "framework/data_type.h"
#include "losses/sampled_losses.h"
#include "losses/sequence_loss.h"

#include <cmath>

namespace tstudio::layers {
namespace {

using ParamMap = std::map<std::string, tensorflow::AttrValue>;

LayerParam param(std::string name, tensorflow::AttrValue value, std::string doc)
{
    return LayerParam{std::move(name), std::move(value), std::move(doc), {}};
}

std::string describe(const Output& t)
{
    return dataTypeName(t.baseDtype()) + " " + t.shape().toString();
}

bool isInteger(const Output& t)
{
    return t.baseDtype() == tensorflow::DT_INT32 || t.baseDtype() == tensorflow::DT_INT64;
}

LayerType sampledType(const std::string& type, const std::string& doc, bool removeHits)
{
    LayerType t;
    t.type = type;
    t.category = "Losses";
    t.doc = doc;
    t.inputs = 2;
    t.outputs = 1;
    t.params = {
        param("num_classes", attr::i(10000), "Classes (rows of the output layer), e.g. the vocabulary size."),
        param("num_sampled", attr::i(64), "Negative classes drawn per batch (log-uniform sampler)."),
        param("num_true", attr::i(1), "True classes per example (columns of labels)."),
        param("remove_accidental_hits", attr::b(removeHits), "Drop sampled classes that are an example's true class.")};
    t.inputNames = {"inputs", "labels"};
    t.outputNames = {"loss"};
    return t;
}

/// NCELoss / SampledSoftmaxLoss: the output layer's variables, the per-example loss, its mean.
Expected<LayerExpansion> expandSampled(GraphBuilder& b, const LayerType& type, std::string_view name,
                                       const ParamMap& params, const Output& inputs, const Output& labels)
{
    const bool nce = type.type == "NCELoss";
    if (!isFloating(inputs.baseDtype()) || inputs.shape().rank() != 2 || inputs.shape().dim(1) < 0)
        return unexpected(invalidArgumentError(
            "port 'inputs' takes a floating [batch, dim] tensor with a known dim; got " + describe(inputs)));
    const std::int64_t numTrue = paramOrDefault(type, params, "num_true").i();
    if (!isInteger(labels) || labels.shape().rank() != 2 ||
        (labels.shape().dim(1) >= 0 && labels.shape().dim(1) != numTrue))
        return unexpected(invalidArgumentError("port 'labels' takes integer class ids [batch, num_true = " +
                                               std::to_string(numTrue) + "]; got " + describe(labels)));
    const std::int64_t classes = paramOrDefault(type, params, "num_classes").i();
    const std::int64_t sampled = paramOrDefault(type, params, "num_sampled").i();
    if (classes < 2)
        return unexpected(
            invalidArgumentError("param 'num_classes' must be at least 2; got " + std::to_string(classes)));
    if (sampled < 1 || sampled >= classes)
        return unexpected(invalidArgumentError("param 'num_sampled' must be in [1, num_classes = " +
                                               std::to_string(classes) + "); got " + std::to_string(sampled)));
    if (numTrue < 1)
        return unexpected(invalidArgumentError("param 'num_true' must be at least 1; got " + std::to_string(numTrue)));
    const std::int64_t dim = inputs.shape().dim(1);
    Variable weights, biases;
    {
        TSTUDIO_TRY(scope, variableScope(b, name.empty() ? std::string_view(nce ? "nce" : "sampled_softmax") : name));
        TSTUDIO_TRY(w, getVariable(b, "weights", TensorShape({classes, dim}), inputs.baseDtype(),
                                   Initializer::truncatedNormal(0.0, 1.0 / std::sqrt(static_cast<double>(dim)))));
        TSTUDIO_TRY(bias, getVariable(b, "biases", TensorShape({classes}), inputs.baseDtype(), Initializer::zeros()));
        weights = w;
        biases = bias;
    }
    nn::SampledLossOptions options;
    options.numTrue = numTrue;
    options.removeAccidentalHits = paramOrDefault(type, params, "remove_accidental_hits").b();
    TSTUDIO_TRY(
        perExample,
        nce ? nn::nceLoss(b, {weights.value()}, biases.value(), labels, inputs, sampled, classes, options)
            : nn::sampledSoftmaxLoss(b, {weights.value()}, biases.value(), labels, inputs, sampled, classes, options));
    // tf.reduce_mean(per-example losses), as word2vec_basic.py takes the loss.
    TSTUDIO_TRY(meanScope, b.nameScope(nce ? "nce_loss_mean" : "sampled_softmax_loss_mean"));
    TSTUDIO_TRY(axes, ops::constantInts(b, {0}, TensorShape({1}), tensorflow::DT_INT32, "Const"));
    TSTUDIO_TRY(mean, ops::firstOutput(b.op("Mean", {perExample, axes}, {}, "Mean")));
    return LayerExpansion{{mean}, {}};
}

Expected<LayerExpansion> expandSequence(GraphBuilder& b, const LayerType& type, std::string_view name,
                                        const ParamMap& params, const std::vector<Output>& in)
{
    if (!isFloating(in[0].baseDtype()))
        return unexpected(
            invalidArgumentError("port 'logits' takes floating logits [batch, time, classes]; got " + describe(in[0])));
    if (!isInteger(in[1]))
        return unexpected(
            invalidArgumentError("port 'targets' takes integer class ids [batch, time]; got " + describe(in[1])));
    if (!isFloating(in[2].baseDtype()))
        return unexpected(
            invalidArgumentError("port 'weights' takes floating weights [batch, time]; got " + describe(in[2])));
    seq2seq::SequenceLossOptions options;
    options.averageAcrossTimesteps = paramOrDefault(type, params, "average_across_timesteps").b();
    options.averageAcrossBatch = paramOrDefault(type, params, "average_across_batch").b();
    options.sumOverTimesteps = paramOrDefault(type, params, "sum_over_timesteps").b();
    options.sumOverBatch = paramOrDefault(type, params, "sum_over_batch").b();
    TSTUDIO_TRY(loss, seq2seq::sequenceLoss(b, in[0], in[1], in[2], options, name));
    return LayerExpansion{{loss}, {}};
}

} // namespace

std::vector<LayerType> sampledLossLayerTypes()
{
    LayerType sequence;
    sequence.type = "SequenceLoss";
    sequence.category = "Losses";
    sequence.doc = "tf.contrib.seq2seq.sequence_loss(logits, targets, weights): the weighted cross entropy of every "
                   "time step, averaged (or summed) over time and batch.";
    sequence.inputs = 3;
    sequence.outputs = 1;
    sequence.params = {param("average_across_timesteps", attr::b(true), "Divide by the weights' sum over time."),
                       param("average_across_batch", attr::b(true), "Divide by the weights' sum over the batch."),
                       param("sum_over_timesteps", attr::b(false), "Sum over time (not with its average)."),
                       param("sum_over_batch", attr::b(false), "Sum over the batch (not with its average).")};
    sequence.inputNames = {"logits", "targets", "weights"};
    sequence.outputNames = {"loss"};
    return {sampledType("NCELoss",
                        "tf.reduce_mean(tf.nn.nce_loss(...)): noise-contrastive estimation over an output layer of "
                        "num_classes rows, word2vec's loss.",
                        false),
            sampledType("SampledSoftmaxLoss",
                        "tf.reduce_mean(tf.nn.sampled_softmax_loss(...)): softmax over the true and num_sampled "
                        "sampled classes of an output layer of num_classes rows.",
                        true),
            sequence};
}

bool isSampledLossType(std::string_view type)
{
    return type == "NCELoss" || type == "SampledSoftmaxLoss" || type == "SequenceLoss";
}

Expected<LayerExpansion> expandSampledLossNode(GraphBuilder& b, const LayerType& type, std::string_view name,
                                               const ParamMap& params, const std::vector<Output>& inputs)
{
    const std::size_t expected = type.type == "SequenceLoss" ? 3 : 2;
    if (inputs.size() != expected)
        return unexpected(invalidArgumentError("expected " + std::to_string(expected) + " inputs, got " +
                                               std::to_string(inputs.size())));
    if (type.type == "SequenceLoss")
        return expandSequence(b, type, name, params, inputs);
    return expandSampled(b, type, name, params, inputs[0], inputs[1]);
}

} // namespace tstudio::layers
