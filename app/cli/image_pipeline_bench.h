// The image input pipeline benchmark behind `tstudio bench images`: JPEGs made here, decoded and
// augmented by a TensorFlow-style graph (DecodeJpeg, random_crop, random_flip_left_right,
// resize_images, scaling to [0, 1]) through Session::run on several threads.
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {
class KernelRegistry;
class OpRegistry;
} // namespace tstudio

namespace tstudio::image_io {

/// One image set of the benchmark and what is done to each image.
struct ImageBenchSet {
    std::string name; ///< "gray28", "rgb224": the folder the JPEGs are written to
    int size = 28;    ///< the JPEGs are size x size
    int channels = 1; ///< 1 grey, 3 RGB
    int crop = 24;    ///< random_crop to crop x crop
    int files = 0;    ///< distinct JPEGs made
    int batch = 0;    ///< images per Session::run
    int quality = 90; ///< EncodeJpeg quality
    /// random_flip_left_right on each 3-D image (a tf.cond that reverses half of them) instead of on
    /// the packed batch (one draw per image, flips = round(u): f * reversed + (1 - f) * batch).
    bool flipEachImage = false;
};

/// The two sets the benchmark measures: 28 x 28 grey (crop 24, flipped as a batch) and 224 x 224 RGB
/// (crop 192, each image flipped by its own cond), each resized back to its size; `batch` 0 keeps
/// each set's default (64 and 8).
std::vector<ImageBenchSet> defaultImageBenchSets(int batch = 0);

struct ImageBenchOptions {
    int threads = 2;      ///< threads calling Session::run at once (the session's kernels are single-threaded)
    double seconds = 3.0; ///< timed for at least this long per set, after one warm-up pass
    std::string keepDir;  ///< write the JPEGs under keepDir/<set name>/NNNNN.jpg (for tools/bench/pillow_decode.py)
    /// The TensorFlow idiom for speed (and Pillow's order, which resizes uint8 and divides by 255
    /// after): resize_images on the uint8 batch (ResizeBilinear reads uint8 and gives float), then
    /// a Mul by convert_image_dtype's 1/255. False: convert_image_dtype to float32 first (Cast and
    /// Mul on the crops), then resize_images on floats. Same shapes and dtype, values equal up to
    /// float rounding.
    bool resizeBeforeScale = true;
};

struct ImageBenchResult {
    ImageBenchSet set;
    std::int64_t images = 0; ///< images decoded and augmented in the timed part
    double seconds = 0.0;
    double imagesPerSecond = 0.0;
    /// The workers' own CPU time (CLOCK_THREAD_CPUTIME_ID summed over the threads) in the timed
    /// part: images per CPU-second depends far less on other load on the machine than images/s.
    double cpuSeconds = 0.0;
    double meanJpegBytes = 0.0;
    std::string graphSummary; ///< the pipeline's ops, e.g. "DecodeJpeg x64, random_crop x64, ..."
    /// Microseconds per image spent in each op type (kernel time, from one traced pass over the
    /// batches on one thread), largest first, and the traced runs' wall time per image.
    std::vector<std::pair<std::string, double>> opMicrosPerImage;
    double tracedMicrosPerImage = 0.0;
};

/// Makes each set's JPEGs (deterministic content: gradients, discs and noise, EncodeJpeg's codec),
/// writes them when asked, builds the pipeline graph for one batch (`batch` string placeholders,
/// each DecodeJpeg -> random_crop [-> random_flip_left_right]; the crops packed [-> random_flip_left_right
/// on the batch], a bilinear resize_images back to size x size and scaled to [0, 1] in the order
/// resizeBeforeScale says), checks one
/// batch's output (shape, values in [0, 1]), then runs batches from `threads` threads until
/// `seconds` have passed and reports images per second; then one FULL_TRACE pass over the batches
/// on one thread gives the time per op type. Errors: the builder's, the session's, I/O.
Expected<std::vector<ImageBenchResult>> runImagePipelineBench(const OpRegistry& ops, const KernelRegistry& kernels,
                                                              const std::vector<ImageBenchSet>& sets,
                                                              const ImageBenchOptions& options);

/// The report `tstudio bench images` prints: per set the files, the pipeline, the graph and a line
/// ending "<name>: <N> images/s" (the form tools/bench/pillow_decode.py prints too).
std::string formatImageBenchResults(const std::vector<ImageBenchResult>& results, const ImageBenchOptions& options);

} // namespace tstudio::image_io
