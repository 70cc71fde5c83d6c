// The node editor's summary nodes (palette group "Summaries": tf.summary.scalar, histogram, image,
// audio and text) and the `summaries` param of the layers with weights, which adds the TensorFlow
// tutorials' variable_summaries of their weights, biases and activations.
//
// Why a layer param rather than summary nodes wired to the layer: a layer node's variables are not
// ports (they live inside its expansion), so the document could not name them; a bool param keeps
// the document as simple as before (one attr, saved with the node in the .tsproj), the layer's
// expansion knows its own variables and scope, and turning it off removes every summary at once.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "layers/layer_catalog.h"
#include "proto/attr_value.pb.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::layers {

/// The summary node types, in palette order (category "Summaries"), one input and one output
/// ("summary": the serialized Summary, a scalar string, also added to the SUMMARIES collection that
/// the training's summary hook merges and writes). The node's name is the summary's name
/// (tf.summary.<kind>(name, ...)): the name scope it opens and its tag, made unique as TensorFlow
/// makes it ("accuracy", "accuracy_1"); with `family`, the tag is "<family>/<scope>".
///  ScalarSummary     tensor: a real-number scalar; params family.
///  HistogramSummary  values: real numbers of any shape; params family.
///  ImageSummary      tensor: [batch, height, width, 1|3|4] uint8, float16, float32 or float64
///                    (floats in [0, 1] are scaled to 0..255); params max_outputs (>= 1), family.
///  AudioSummary      tensor: float32 [batch, frames] or [batch, frames, channels] in [-1, 1];
///                    params sample_rate (Hz, > 0), max_outputs (>= 1), family.
///  TextSummary       tensor: strings of any shape (tf.summary.text takes no family).
std::vector<LayerType> summaryLayerTypes();

/// True for the types above.
bool isSummaryType(std::string_view type);

/// The ranges of a summary node's params (kinds and names are validateLayerParams'). InvalidArgument:
///   "layer 'images' (ImageSummary): param 'max_outputs' must be positive, got 0"
///   "layer 'clip' (AudioSummary): param 'sample_rate' must be positive, got -1"
Status checkSummaryParams(std::string_view type, std::string_view name,
                          const std::map<std::string, tensorflow::AttrValue>& params);

/// Builds a summary node: tf.summary.<kind>(name or the kind's default name, inputs[0], ...).
/// Errors: checkSummaryParams'; the summary API's, in TensorFlow's words ("Expected tensor x:0 to
/// have dtype string, got float32"); the builder's shape and dtype checks of the op.
Expected<LayerExpansion> expandSummaryNode(GraphBuilder& b, std::string_view type, std::string_view name,
                                           const std::map<std::string, tensorflow::AttrValue>& params,
                                           const std::vector<Output>& inputs);

/// The layer types that take the `summaries` param: those that make variables (Dense, Conv2D,
/// Conv2DTranspose, BatchNorm).
bool takesLayerSummaries(std::string_view type);

/// Adds the bool param "summaries" (default false) to every type of `catalog` that takes it
/// (the catalogue calls this once while building itself).
void addLayerSummaryParam(std::vector<LayerType>& catalog);

/// The TensorFlow tutorials' variable_summaries(var) (mnist_with_summaries.py), in name scope
/// "summaries" under the current one: mean = reduce_mean(var); stddev = sqrt(reduce_mean(square(var
/// - mean))); scalars "mean", "stddev", "max" (reduce_max), "min" (reduce_min) and histogram
/// "histogram" of var. One difference: in the tutorial the reductions' default names (Mean, Max,
/// Min) and the name scope "stddev" it computes stddev in take the summaries' scopes (TensorFlow's
/// unique names ignore case), so its tags end in mean_1, stddev_1, max_1 and min_1; here the
/// reductions are named reduce_mean, reduce_max, reduce_min and stddev is computed in "summaries"
/// itself, so the five tags end in exactly mean, stddev, max, min and histogram. `var` must be floating-point
/// (InvalidArgument otherwise). Returns the five summary tensors, in that order, each also in SUMMARIES.
Expected<std::vector<Output>> variableSummaries(GraphBuilder& b, const Output& var);

/// Runs `expand` (a layer's expansion) and, when `type` takes summaries and params has
/// summaries = true, adds variableSummaries of each trainable variable the expansion made (in the
/// re-entered name scope of the variable itself: "dense/kernel/summaries/mean", as the tutorial's
/// "layer1/weights/summaries/mean") and of its output 0 (in "<layer scope>/activations":
/// "dense/activations/summaries/histogram"). The layer scope is the variables' ("dense/" for
/// "dense/kernel"). Errors: expand's, variableSummaries'.
Expected<LayerExpansion> expandWithLayerSummaries(GraphBuilder& b, const LayerType& type,
                                                  const std::map<std::string, tensorflow::AttrValue>& params,
                                                  const std::function<Expected<LayerExpansion>()>& expand);

} // namespace tstudio::layers
