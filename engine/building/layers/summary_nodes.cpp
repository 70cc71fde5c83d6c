// The summary node types, their expansion through tf.summary, and the layers' `summaries` param
// (variable_summaries of a layer's weights, biases and activations).
#include "layers/summary_nodes.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "summary/summary_kinds.h"

#include <algorithm>
#include <cstdio>

namespace tstudio::layers {
namespace {

using tensorflow::AttrValue;
using ParamMap = std::map<std::string, AttrValue>;

LayerParam param(std::string name, AttrValue value, std::string doc)
{
    return LayerParam{std::move(name), std::move(value), std::move(doc), {}};
}

LayerParam familyParam()
{
    return param("family", attr::s(""), "Prefix of the tag and outer name scope (tf.summary's family); empty: none.");
}

LayerParam maxOutputsParam()
{
    return param("max_outputs", attr::i(3), "Write at most this many elements of the batch.");
}

LayerType summaryType(std::string type, std::string doc, std::string input, std::vector<LayerParam> params)
{
    LayerType t;
    t.type = std::move(type);
    t.category = "Summaries";
    t.doc = std::move(doc);
    t.inputs = 1;
    t.outputs = 1;
    t.params = std::move(params);
    t.inputNames = {std::move(input)};
    t.outputNames = {"summary"};
    return t;
}

summary::Kind kindOf(std::string_view type)
{
    if (type == "HistogramSummary")
        return summary::Kind::kHistogram;
    if (type == "ImageSummary")
        return summary::Kind::kImage;
    if (type == "AudioSummary")
        return summary::Kind::kAudio;
    if (type == "TextSummary")
        return summary::Kind::kText;
    return summary::Kind::kScalar;
}

std::string label(std::string_view type, std::string_view name)
{
    return name.empty() ? "layer (" + std::string(type) + ")"
                        : "layer '" + std::string(name) + "' (" + std::string(type) + ")";
}

/// The param as given, else its default in `type`.
const AttrValue& paramOf(const LayerType& type, const ParamMap& params, const std::string& name)
{
    return paramOrDefault(type, params, name);
}

/// A float param, which may have been given as an int.
double number(const AttrValue& v)
{
    return v.value_case() == AttrValue::kI ? static_cast<double>(v.i()) : static_cast<double>(v.f());
}

std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

/// tf.reduce_<kind>(x, name=name) over every axis: the axes "Const" (a Range over Rank when the rank
/// is unknown), then the reduction op `type` named `name`.
Expected<Output> reduceAll(GraphBuilder& b, std::string_view type, const Output& x, std::string_view name)
{
    Output axes;
    if (x.shape().rank() >= 0) {
        std::vector<std::int64_t> all(static_cast<std::size_t>(x.shape().rank()));
        for (std::size_t i = 0; i < all.size(); ++i)
            all[i] = static_cast<std::int64_t>(i);
        TSTUDIO_TRY(c, ops::constantInts(b, all, TensorShape{static_cast<std::int64_t>(all.size())},
                                         tensorflow::DT_INT32, "Const"));
        axes = c;
    } else {
        TSTUDIO_TRY(rank, py::genOp(b, "Rank", {x}));
        TSTUDIO_TRY(scope, b.nameScope("range"));
        TSTUDIO_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "start"));
        TSTUDIO_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "delta"));
        TSTUDIO_TRY(r, py::genOp(b, "Range", {start, rank, delta}, {}, scope.name()));
        axes = r;
    }
    return py::genOp(b, type, {x, axes}, {{"keep_dims", attr::b(false)}}, name);
}

/// "dense/kernel" -> "dense/"; "" for a name at the root.
std::string parentScope(const std::string& name)
{
    const auto slash = name.rfind('/');
    return slash == std::string::npos ? std::string() : name.substr(0, slash + 1);
}

} // namespace

std::vector<LayerType> summaryLayerTypes()
{
    std::vector<LayerType> c;
    c.push_back(summaryType("ScalarSummary",
                            "tf.summary.scalar(name, tensor): a real-number scalar written every summary step, "
                            "tagged with the node's name.",
                            "tensor", {familyParam()}));
    c.push_back(summaryType("HistogramSummary",
                            "tf.summary.histogram(name, values): a histogram of real numbers of any shape.", "values",
                            {familyParam()}));
    c.push_back(summaryType("ImageSummary",
                            "tf.summary.image(name, tensor): images of a [batch, height, width, 1|3|4] tensor as PNG "
                            "(floats in [0, 1] are scaled to 0..255).",
                            "tensor", {maxOutputsParam(), familyParam()}));
    c.push_back(summaryType("AudioSummary",
                            "tf.summary.audio(name, tensor, sample_rate): WAV clips of a float32 [batch, frames] or "
                            "[batch, frames, channels] tensor in [-1, 1].",
                            "tensor",
                            {param("sample_rate", attr::f(16000.0f), "Samples per second of the clips (Hz)."),
                             maxOutputsParam(), familyParam()}));
    c.push_back(
        summaryType("TextSummary", "tf.summary.text(name, tensor): strings shown as Markdown text.", "tensor", {}));
    return c;
}

bool isSummaryType(std::string_view type)
{
    return type == "ScalarSummary" || type == "HistogramSummary" || type == "ImageSummary" || type == "AudioSummary" ||
           type == "TextSummary";
}

Status checkSummaryParams(std::string_view type, std::string_view name, const ParamMap& params)
{
    const LayerType* t = findLayerType(type);
    if (!t || !isSummaryType(type))
        return invalidArgumentError(label(type, name) + ": not a summary node type");
    if (type == "ImageSummary" || type == "AudioSummary") {
        const std::int64_t maxOutputs = paramOf(*t, params, "max_outputs").i();
        if (maxOutputs < 1)
            return invalidArgumentError(label(type, name) + ": param 'max_outputs' must be positive, got " +
                                        std::to_string(maxOutputs));
        if (maxOutputs > (1 << 30)) // the op's attr is an int
            return invalidArgumentError(label(type, name) + ": param 'max_outputs' must be at most 1073741824, got " +
                                        std::to_string(maxOutputs));
    }
    if (type == "AudioSummary") {
        const double rate = number(paramOf(*t, params, "sample_rate"));
        if (!(rate > 0))
            return invalidArgumentError(label(type, name) + ": param 'sample_rate' must be positive, got " +
                                        shortNumber(rate));
    }
    return Status::ok();
}

Expected<LayerExpansion> expandSummaryNode(GraphBuilder& b, std::string_view type, std::string_view name,
                                           const ParamMap& params, const std::vector<Output>& inputs)
{
    if (Status s = checkSummaryParams(type, name, params); !s.isOk())
        return unexpected(s);
    const LayerType& t = *findLayerType(type);
    const summary::Kind kind = kindOf(type);
    const Output& tensor = inputs.at(0);
    if (Status s = summary::checkInput(kind, tensor.dtype(), tensor.shape()); !s.isOk())
        return unexpected(invalidArgumentError(label(type, name) + ": port '" + t.inputNames.front() + "' ('" +
                                               tensor.name() + "'): " + s.message()));
    summary::KindOptions options;
    if (kind == summary::Kind::kImage || kind == summary::Kind::kAudio)
        options.maxOutputs = static_cast<int>(paramOf(t, params, "max_outputs").i());
    if (kind == summary::Kind::kAudio)
        options.sampleRate = number(paramOf(t, params, "sample_rate"));
    if (kind != summary::Kind::kText)
        options.family = paramOf(t, params, "family").s();
    const std::string fallback(summary::kindName(kind));
    TSTUDIO_TRY(out, summary::addSummary(b, kind, name.empty() ? fallback : std::string(name), tensor, options));
    return LayerExpansion{{out}, {}};
}

bool takesLayerSummaries(std::string_view type)
{
    return type == "Dense" || type == "Conv2D" || type == "Conv2DTranspose" || type == "BatchNorm";
}

void addLayerSummaryParam(std::vector<LayerType>& catalog)
{
    for (LayerType& t : catalog)
        if (takesLayerSummaries(t.type))
            t.params.push_back(param("summaries", attr::b(false),
                                     "Summaries of the weights, biases and activations: mean, stddev, max, min and "
                                     "a histogram each, in the layer's name scope (the TensorFlow tutorials' "
                                     "variable_summaries)."));
}

Expected<std::vector<Output>> variableSummaries(GraphBuilder& b, const Output& var)
{
    if (!isFloating(var.baseDtype()))
        return unexpected(invalidArgumentError("variable_summaries needs a floating-point tensor, got '" + var.name() +
                                               "' of " + dataTypeName(var.baseDtype())));
    TSTUDIO_TRY(scope, b.nameScope("summaries"));
    // The reductions are named as tf.reduce_*(..., name="reduce_mean") names them: their default
    // names (Mean, Max, Min) would take the scopes "mean", "max" and "min" (TensorFlow's unique names
    // ignore case) and push the tags to mean_1, max_1 and min_1, as the tutorial's are.
    std::vector<Output> out;
    TSTUDIO_TRY(mean, reduceAll(b, "Mean", var, "reduce_mean"));
    TSTUDIO_TRY(meanSummary, summary::scalar(b, "mean", mean));
    out.push_back(meanSummary);
    // stddev = sqrt(reduce_mean(square(var - mean))), in this scope rather than the tutorial's
    // "stddev" scope, whose name would push the scalar's tag to "stddev_1".
    TSTUDIO_TRY(centred, py::binary(b, py::Operator::kSub, var, mean));
    TSTUDIO_TRY(squared, ops::square(b, centred));
    TSTUDIO_TRY(variance, reduceAll(b, "Mean", squared, "reduce_mean"));
    TSTUDIO_TRY(stddev, ops::sqrt(b, variance));
    TSTUDIO_TRY(stddevSummary, summary::scalar(b, "stddev", stddev));
    out.push_back(stddevSummary);
    TSTUDIO_TRY(max, reduceAll(b, "Max", var, "reduce_max"));
    TSTUDIO_TRY(maxSummary, summary::scalar(b, "max", max));
    out.push_back(maxSummary);
    TSTUDIO_TRY(min, reduceAll(b, "Min", var, "reduce_min"));
    TSTUDIO_TRY(minSummary, summary::scalar(b, "min", min));
    out.push_back(minSummary);
    TSTUDIO_TRY(histogram, summary::histogram(b, "histogram", var));
    out.push_back(histogram);
    return out;
}

Expected<LayerExpansion> expandWithLayerSummaries(GraphBuilder& b, const LayerType& type, const ParamMap& params,
                                                  const std::function<Expected<LayerExpansion>()>& expand)
{
    if (!takesLayerSummaries(type.type) || !paramOf(type, params, "summaries").b())
        return expand();
    const std::size_t before = b.collections().variables(graph_keys::kTrainableVariables).size();
    TSTUDIO_TRY(expansion, expand());
    const std::vector<Variable> all = b.collections().variables(graph_keys::kTrainableVariables);
    const std::vector<Variable> made(all.begin() + static_cast<std::ptrdiff_t>(std::min(before, all.size())),
                                     all.end());
    for (const Variable& v : made) {
        // The variable's own name re-entered as a scope: "dense/kernel/summaries/...".
        TSTUDIO_TRY(scope, b.nameScope(v.name() + "/"));
        if (auto summaries = variableSummaries(b, v.value()); !summaries)
            return unexpected(summaries.error());
    }
    if (!expansion.outputs.empty() && isFloating(expansion.outputs.front().baseDtype())) {
        const std::string layerScope =
            made.empty() ? parentScope(expansion.outputs.front().node()) : parentScope(made.front().name());
        TSTUDIO_TRY(outer, b.nameScope(layerScope.empty() ? std::string() : layerScope));
        TSTUDIO_TRY(activations, b.nameScope("activations"));
        if (auto summaries = variableSummaries(b, expansion.outputs.front()); !summaries)
            return unexpected(summaries.error());
    }
    return expansion;
}

} // namespace tstudio::layers
