// The five tf.summary kinds a user adds by name (scalar, histogram, image, audio, text): what each
// takes, checked before building, and one call that builds any of them. Shared by the editor's
// summary nodes and a project's "summaries" key.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "summary/summary.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::summary {

enum class Kind { kScalar, kHistogram, kImage, kAudio, kText };

/// "scalar", "histogram", "image", "audio", "text" (the tf.summary function names).
std::string_view kindName(Kind kind);
/// The kind of one of those names; nullopt for anything else.
std::optional<Kind> kindFromName(std::string_view name);
/// Every kind's name, in the order above.
std::vector<std::string> kindNames();

/// Whether a tensor of `dtype` and (partially known) `shape` fits a summary of `kind`; unknown ranks
/// and dimensions fit (the op checks the values when it runs). InvalidArgument saying what the kind
/// needs and what it got:
///   scalar     "a scalar summary needs a real-number scalar (shape []), got float32 [?,10]"
///   histogram  "a histogram summary needs real numbers, got string [?]"
///   image      "an image summary needs uint8, float16, float32 or float64 [batch, height, width,
///               channels] with 1, 3 or 4 channels, got float32 [?,784]"
///   audio      "an audio summary needs float32 [batch, frames] or [batch, frames, channels], got ..."
///   text       "a text summary needs strings, got float32 []"
Status checkInput(Kind kind, DataType dtype, const TensorShape& shape);

/// What a summary of any kind takes besides its tensor.
struct KindOptions {
    int maxOutputs = 3;                                  ///< image and audio
    double sampleRate = 0;                               ///< audio (Hz)
    std::string family;                                  ///< not for text (tf.summary.text has none)
    std::optional<std::vector<std::string>> collections; ///< as SummaryOptions::collections
};

/// checkInput, then tf.summary.<kind>(name, tensor, ...) as summary.h builds it. InvalidArgument
/// "tf.summary.text takes no family" for a text summary with a family; the summary API's errors.
Expected<Output> addSummary(GraphBuilder& b, Kind kind, std::string_view name, const Output& tensor,
                            const KindOptions& options = {});

} // namespace tstudio::summary
