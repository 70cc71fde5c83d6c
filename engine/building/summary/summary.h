// tstudio::summary: the graph-building side of tf.summary (TensorFlow 1.15's summary.py and
// text_summary.py): scalar, histogram, image, audio, text, tensor, merge and mergeAll.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "proto/summary.pb.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::summary {

/// What every tf.summary.* function takes besides its data. `collections`: the graph collections
/// the summary tensor is added to (nullopt: graph_keys::kSummaries, as TensorFlow's None; an empty
/// list adds it nowhere). `family`: the tab prefix of the tag and the outer name scope ("" = None).
struct SummaryOptions {
    std::optional<std::vector<std::string>> collections;
    std::string family;
};

/// TensorFlow's clean_tag: every character outside [-/A-Za-z0-9_.] becomes '_' (bytes >= 0x80 are
/// kept, as Python's Unicode \w keeps letters), then leading slashes are dropped.
std::string cleanTag(std::string_view name);

/// Naming, as TensorFlow's summary_scope: the summary of `name` (cleaned) opens name scope `name`
/// (or `family/name`) under the current one, made unique ("loss", "loss_1"); the op is named after
/// that scope ("train/loss"), its constant inputs live inside it ("train/loss/tags"), and the tag
/// is the scope without its slash, prefixed by the family when there is one ("fam/train/fam/loss").
/// Errors: InvalidArgument for an empty name or one that is not a valid scope name, and every
/// GraphBuilder::op error (dtype not allowed by the op, ...). Each returns the summary tensor
/// ("train/loss:0", a scalar string) after adding it to the collections.

/// tf.summary.scalar: ScalarSummary of a real-number `tensor` (one value; its shape is checked
/// against the scalar tag when the graph runs).
Expected<Output> scalar(GraphBuilder& b, std::string_view name, const Output& tensor,
                        const SummaryOptions& options = {});
/// tf.summary.histogram: HistogramSummary of real-number `values` of any shape (an empty name
/// uses "HistogramSummary", TensorFlow's default_name).
Expected<Output> histogram(GraphBuilder& b, std::string_view name, const Output& values,
                           const SummaryOptions& options = {});
/// tf.summary.image: ImageSummary of a [batch, h, w, 1|3|4] uint8/half/float/double tensor,
/// max_images = `maxOutputs` (>= 1).
Expected<Output> image(GraphBuilder& b, std::string_view name, const Output& tensor, int maxOutputs = 3,
                       const SummaryOptions& options = {});
/// tf.summary.audio: AudioSummaryV2 of a float [batch, frames(, channels)] tensor with the sample
/// rate as the float constant "<scope>/sample_rate".
Expected<Output> audio(GraphBuilder& b, std::string_view name, const Output& tensor, double sampleRate,
                       int maxOutputs = 3, const SummaryOptions& options = {});
/// tf.summary.tensor_summary: TensorSummaryV2 of any tensor with `metadata` serialized into the
/// constant "<scope>/serialized_summary_metadata".
Expected<Output> tensorSummary(GraphBuilder& b, std::string_view name, const Output& tensor,
                               const tensorflow::SummaryMetadata& metadata = {}, const SummaryOptions& options = {});
/// tf.summary.text: tensorSummary of a string tensor with plugin_name "text" and content "{}"
/// (TensorFlow 1.15's text plugin data, an empty JSON object). InvalidArgument, as TensorFlow's
/// ValueError, when `tensor` is not a string: "Expected tensor x:0 to have dtype string, got float32".
/// tf.summary.text takes no family.
Expected<Output> text(GraphBuilder& b, std::string_view name, const Output& tensor,
                      std::optional<std::vector<std::string>> collections = std::nullopt);
/// tf.summary.merge: MergeSummary of `inputs` (at least one scalar-or-vector string tensor) in name
/// scope `name` ("Merge" when empty), the op being "Merge/MergeSummary" (or "name/name"). Added to
/// `collections` only (none by default).
Expected<Output> merge(GraphBuilder& b, const std::vector<Output>& inputs,
                       const std::vector<std::string>& collections = {}, std::string_view name = {});
/// tf.summary.merge_all: merge() of the tensors in collection `key` whose names start with
/// `scope`; nullopt (TensorFlow's None) when there are none. InvalidArgument when the collection
/// holds something that is not a tensor.
Expected<std::optional<Output>> mergeAll(GraphBuilder& b, std::string_view key = "summaries",
                                         std::string_view scope = {});

} // namespace tstudio::summary
