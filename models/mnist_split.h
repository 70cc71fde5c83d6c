// The MNIST split the examples train on without the 60,000-image training set: the first images
// of a file for training, the rest held out, and the shuffled, augmented batches a loop consumes.
#pragma once

#include "core/expected.h"
#include "data/dataset.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <cstdint>
#include <filesystem>

namespace tstudio::examples {

/// float32 images [N, 784] in [0, 1] and int64 labels [N], split in two.
struct MnistSplit {
    Tensor trainImages;
    Tensor trainLabels;
    Tensor evalImages;
    Tensor evalLabels;
};

/// The first `trainCount` examples of <dir>/t10k-images-idx3-ubyte.gz (and -labels-idx1-ubyte.gz;
/// the .gz files or the plain ones) for training, the rest for evaluation. InvalidArgument when the
/// files hold no more than trainCount examples; the reader's errors name the file.
Expected<MnistSplit> loadMnistSplit(const std::filesystem::path& dir, std::int64_t trainCount, Allocator& allocator,
                                    const std::string& set = "t10k");

struct MnistBatchOptions {
    std::int64_t batchSize = 100;
    std::uint64_t seed = 1;
    /// Each image moved by up to this many pixels in each direction (0: no augmentation).
    int maxShift = 1;
    /// Batches prepared ahead on a background thread.
    std::int64_t prefetch = 2;
};

/// from_tensor_slices((images, labels)).shuffle(N, seed).repeat().batch(batchSize) mapped through
/// randomShiftImages, then prefetched: an endless stream of {images [batch, 784], labels [batch]}.
data::Dataset mnistTrainingBatches(const Tensor& images, const Tensor& labels, Allocator& allocator,
                                   const MnistBatchOptions& options = {});

} // namespace tstudio::examples
