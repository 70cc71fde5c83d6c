// Decoding of kept summary values: histograms, images, audio and text, from TF 1 fields or TF 2 tensors.
#pragma once

#include "core/expected.h"

#include <string>
#include <vector>

namespace tstudio::events {

struct HistogramBucket {
    double left = 0;
    double right = 0;
    double count = 0;
};

/// Buckets as TensorBoard shows them: TF 2 histogram tensors ([k, 3] float or double: left edge,
/// right edge, count) as they are; TF 1 HistogramProto converted as TensorBoard's data_compat does
/// (lefts = [min] + bucket_limit[:-1], rights = bucket_limit[:-1] + [max]).
struct Histogram {
    std::vector<HistogramBucket> buckets;
};

/// Encoded images of one sample: TF 1 Summary.Image (one image), or a TF 2 images tensor
/// (string tensor [width, height, image...]).
struct Images {
    int width = 0;
    int height = 0;
    std::vector<std::string> encoded; ///< PNG (or other) bytes
};

/// Encoded audio clips: TF 1 Summary.Audio, or a TF 2 audio tensor ([k, 2] strings: clip, label).
struct AudioClips {
    double sampleRate = 0; ///< TF 1 only (0 when unknown)
    std::string contentType;
    std::vector<std::string> encoded;
};

/// The summary value `serializedValue` (a Summary.Value) as a histogram; InvalidArgument naming
/// `tag` when it holds none or its tensor has the wrong shape or dtype.
Expected<Histogram> decodeHistogram(const std::string& serializedValue, const std::string& tag);
Expected<Images> decodeImages(const std::string& serializedValue, const std::string& tag);
Expected<AudioClips> decodeAudio(const std::string& serializedValue, const std::string& tag);
/// One step of a pr_curves summary: for each of its thresholds (i / (n - 1), i = 0 .. n - 1) the
/// counts and the precision and recall TensorBoard's pr_curves plugin stores.
struct PrCurve {
    std::vector<double> truePositives, falsePositives, trueNegatives, falseNegatives, precision, recall;
    std::size_t thresholds() const { return precision.size(); }
    double threshold(std::size_t i) const { return thresholds() > 1 ? double(i) / double(thresholds() - 1) : 0.0; }
};
/// The pr_curves plugin's tensor [6, num_thresholds] (float or double; rows TP, FP, TN, FN,
/// precision, recall). InvalidArgument naming `tag` for another shape or dtype.
Expected<PrCurve> decodePrCurve(const std::string& serializedValue, const std::string& tag);
/// The strings of a text summary tensor, in row-major order.
Expected<std::vector<std::string>> decodeText(const std::string& serializedValue, const std::string& tag);

} // namespace tstudio::events
