// loadImageFolder: list the class folders, then decode (image_decoder.h), resize (image_resize.h)
// and scale each image into one float32 tensor.
#include "project/sources/image_folder_source.h"

#include "core/try.h"
#include "project/sources/image_decoder.h"
#include "project/sources/image_resize.h"
#include "io/atomic_file.h"

#include <algorithm>
#include <cstring>

namespace tstudio::project {
namespace {

/// The most bytes the resized images of one source may take in memory.
constexpr std::uint64_t kMaxImageBytes = 16ull << 30;
/// The most bytes one image file may have (a 67-megapixel PNG compresses far below this).
constexpr std::uint64_t kMaxImageFileBytes = 1ull << 30;

bool isImageName(const std::filesystem::path& file)
{
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

} // namespace

Expected<ImageFolderListing> listImageFolder(const std::filesystem::path& dir,
                                             std::optional<std::int64_t> expectedClasses)
{
    std::error_code ec;
    if (!std::filesystem::exists(dir, ec))
        return unexpected(notFoundError("no folder '" + dir.string() + "'"));
    if (!std::filesystem::is_directory(dir, ec))
        return unexpected(invalidArgumentError("'" + dir.string() + "' is not a folder"));
    ImageFolderListing listing;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec)
        return unexpected(unavailableError("cannot list '" + dir.string() + "': " + ec.message()));
    for (const auto& entry : it) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(".") && entry.is_directory(ec))
            listing.classes.push_back(name);
    }
    std::sort(listing.classes.begin(), listing.classes.end());
    if (listing.classes.empty())
        return unexpected(invalidArgumentError("'" + dir.string() +
                                               "' has no class subfolders (expected one folder of images per class)"));
    if (expectedClasses && static_cast<std::int64_t>(listing.classes.size()) != *expectedClasses)
        return unexpected(invalidArgumentError("'" + dir.string() + "' has " + std::to_string(listing.classes.size()) +
                                               " class folders (" + joined(listing.classes) +
                                               ") but the source expects " + std::to_string(*expectedClasses)));
    for (std::size_t label = 0; label < listing.classes.size(); ++label) {
        const std::filesystem::path classDir = dir / listing.classes[label];
        std::vector<std::filesystem::path> files;
        std::filesystem::directory_iterator images(classDir, ec);
        if (ec)
            return unexpected(unavailableError("cannot list '" + classDir.string() + "': " + ec.message()));
        for (const auto& entry : images)
            if (entry.is_regular_file(ec) && isImageName(entry.path()))
                files.push_back(entry.path());
        if (files.empty())
            return unexpected(
                invalidArgumentError("class folder '" + classDir.string() + "' holds no PNG or JPEG images"));
        std::sort(files.begin(), files.end(),
                  [](const auto& a, const auto& b) { return a.filename().string() < b.filename().string(); });
        for (auto& f : files) {
            listing.files.push_back(std::move(f));
            listing.labels.push_back(static_cast<std::int64_t>(label));
        }
    }
    return listing;
}

Expected<ImageFolderData> loadImageFolder(const std::filesystem::path& dir, const ImageFolderOptions& options,
                                          Allocator& allocator)
{
    TSTUDIO_TRY(listing, listImageFolder(dir, options.classes));
    std::int64_t n = static_cast<std::int64_t>(listing.files.size());
    if (options.maxExamples >= 0)
        n = std::min(n, options.maxExamples);
    const std::int64_t perImage = std::int64_t{options.height} * options.width * options.channels;
    const std::uint64_t bytes = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(perImage) * sizeof(float);
    if (bytes > kMaxImageBytes)
        return unexpected(resourceExhaustedError(
            "the " + std::to_string(n) + " images of '" + dir.string() + "' resized to " +
            std::to_string(options.height) + "x" + std::to_string(options.width) + "x" +
            std::to_string(options.channels) + " take " + std::to_string(bytes) + " bytes as float32; at most " +
            std::to_string(kMaxImageBytes) + " are held in memory"));
    const std::int64_t classes = static_cast<std::int64_t>(listing.classes.size());
    TSTUDIO_TRY(images,
                Tensor::allocateUninitialized(allocator, tensorflow::DT_FLOAT,
                                              TensorShape({n, options.height, options.width, options.channels})));
    TSTUDIO_TRY(labels, options.oneHot ? Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({n, classes}))
                                       : Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({n})));
    float* out = images.values<float>().data();
    for (std::int64_t i = 0; i < n; ++i) {
        const std::filesystem::path& file = listing.files[static_cast<std::size_t>(i)];
        TSTUDIO_TRY(text, readWholeFile(file, kMaxImageFileBytes));
        TSTUDIO_TRY(decoded, decodeImage(text, options.channels, file.string()));
        const std::vector<float> resized =
            resizeBilinear(decoded.pixels, decoded.height, decoded.width, decoded.channels, options.height,
                           options.width, 1.0f / 255.0f);
        std::memcpy(out + i * perImage, resized.data(), resized.size() * sizeof(float));
        const std::int64_t label = listing.labels[static_cast<std::size_t>(i)];
        if (options.oneHot)
            labels.values<float>()[static_cast<std::size_t>(i * classes + label)] = 1.0f;
        else
            labels.values<std::int64_t>()[static_cast<std::size_t>(i)] = label;
    }
    return ImageFolderData{std::move(listing.classes), std::move(images), std::move(labels)};
}

} // namespace tstudio::project
