// CIFAR-10: the binary batches (data_batch_1.bin ... test_batch.bin) as training tensors and as a Dataset.
#pragma once

#include "core/expected.h"
#include "data/dataset.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace tstudio::data {

/// Bytes of one image (32 x 32 pixels, 3 channels) and of one record (a label byte, then the image).
inline constexpr std::int64_t kCifar10ImageBytes = 32 * 32 * 3;
inline constexpr std::int64_t kCifar10RecordBytes = 1 + kCifar10ImageBytes;
/// Where the binary version comes from (the files are in its cifar-10-batches-bin folder).
inline constexpr std::string_view kCifar10Url = "https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz";

struct Cifar10Options {
    /// true: images DT_FLOAT with pixel / 255 in [0, 1]; false: DT_UINT8 as stored.
    bool scaleToFloat = true;
    /// true: labels DT_FLOAT one-hot [N, 10]; false: DT_INT64 [N].
    bool oneHot = false;
    /// The records read are [skip, skip + take) of the files' records taken in order, one file
    /// after the other (take negative: to the end).
    std::int64_t skip = 0;
    std::int64_t take = -1;
};

struct Cifar10Data {
    Tensor images; ///< [N, 3072], each row 32 x 32 x 3 in HWC order (row, column, then R G B)
    Tensor labels; ///< int64 [N], or float [N, 10] one-hot
};

/// Reads CIFAR-10 binary batch files: records of 3073 bytes, a label byte (0..9) and 3072 pixel
/// bytes stored channel-major (1024 red, 1024 green, 1024 blue, each 32 x 32 row-major). The images
/// come back in height-width-channel order, as TensorFlow's cifar10 tutorial has them after
/// tf.transpose(depth_major, [1, 2, 0]); a [N, 3072] row reshaped to [32, 32, 3] is the image.
/// Every file's size is checked before any is read, and nothing larger than the records asked for
/// is allocated. Errors name the file: a missing one (and where to download the data), one whose
/// size is not a multiple of 3073 (a CIFAR-100 file, of 3074-byte records, said to be one), an
/// empty one, a label outside 0..9 (with its record index in the file), skip and take beyond the
/// records the files hold, and a file that got shorter while it was read.
Expected<Cifar10Data> loadCifar10(const std::vector<std::filesystem::path>& files, Allocator& allocator,
                                  const Cifar10Options& options = {});

/// The number of records in the CIFAR-10 batch files, checking each as loadCifar10 does before it
/// reads (missing, empty, size not a multiple of 3073), without reading them.
Expected<std::int64_t> cifar10RecordCount(const std::vector<std::filesystem::path>& files);

/// loadCifar10 as a dataset of (image [3072], label) elements.
Expected<Dataset> cifar10Dataset(const std::vector<std::filesystem::path>& files, Allocator& allocator,
                                 const Cifar10Options& options = {});

} // namespace tstudio::data
