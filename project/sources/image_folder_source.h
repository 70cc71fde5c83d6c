// loadImageFolder: an "image_folder" data source, <dir>/<class>/<image>, as Keras'
// image_dataset_from_directory reads it, decoded, resized and scaled into tensors.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::project {

struct ImageFolderOptions {
    int height = 256;
    int width = 256;
    int channels = 3;                    ///< 1 or 3
    bool oneHot = false;                 ///< labels float32 [N, classes] instead of int64 [N]
    std::optional<std::int64_t> classes; ///< set: the folder must have exactly this many classes
    std::int64_t maxExamples = -1;       ///< decode only the first ones (all when negative)
};

/// The images of one folder, listed but not read.
struct ImageFolderListing {
    std::vector<std::string> classes;         ///< subfolder names, sorted (label i is classes[i])
    std::vector<std::filesystem::path> files; ///< by class, then by file name
    std::vector<std::int64_t> labels;         ///< per file
};

/// Lists `dir`: each subfolder (sorted by name, hidden ones skipped) is a class; its regular files
/// named *.png, *.jpg or *.jpeg (any case), sorted by name, are its images; other files are
/// skipped, as Keras skips them. Errors: NotFound "no folder '/d'"; InvalidArgument "'/d' is not
/// a folder", "'/d' has no class subfolders (expected one folder of images per class)", "class
/// folder '/d/cat' holds no PNG or JPEG images"; with options.classes, "'/d' has 2 class folders
/// (cat, dog) but the source expects 3".
Expected<ImageFolderListing> listImageFolder(const std::filesystem::path& dir,
                                             std::optional<std::int64_t> expectedClasses = std::nullopt);

struct ImageFolderData {
    std::vector<std::string> classes;
    Tensor images; ///< float32 [N, height, width, channels], values in [0, 1]
    Tensor labels; ///< int64 [N], or float32 [N, classes] one-hot
};

/// listImageFolder, then every image (or the first maxExamples) decoded with decodeImage to
/// `channels`, resized with resizeBilinear to height x width and scaled by 1/255. Errors:
/// listImageFolder's; decodeImage's naming the file ("/d/cat/1.png: not a PNG or JPEG image"); the file's read
/// errors; ResourceExhausted when the resized images would take more than 16 GiB.
Expected<ImageFolderData> loadImageFolder(const std::filesystem::path& dir, const ImageFolderOptions& options,
                                          Allocator& allocator);

} // namespace tstudio::project
