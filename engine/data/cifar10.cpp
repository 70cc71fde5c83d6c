// CIFAR-10 binary batches: record sizes checked up front, channel-major pixels turned to HWC, labels checked.
#include "data/cifar10.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <string>
#include <system_error>

namespace tstudio::data {
namespace {

namespace tf = tensorflow;

constexpr std::int64_t kPixels = 32 * 32;
constexpr std::int64_t kCifar100RecordBytes = kCifar10RecordBytes + 1; // coarse and fine label bytes

std::string quoted(const std::filesystem::path& p)
{
    return "'" + p.string() + "'";
}

/// The records of one batch file, or why it is not a CIFAR-10 binary batch.
Expected<std::int64_t> recordsIn(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return unexpected(notFoundError("CIFAR-10 batch file " + quoted(file) + " does not exist; download " +
                                        std::string(kCifar10Url) +
                                        " and unpack it: its cifar-10-batches-bin folder holds the batch files"));
    if (!std::filesystem::is_regular_file(file, ec))
        return unexpected(invalidArgumentError("CIFAR-10 batch file " + quoted(file) + " is not a regular file"));
    const auto size = std::filesystem::file_size(file, ec);
    if (ec)
        return unexpected(notFoundError("CIFAR-10 batch file " + quoted(file) + ": cannot read its size: " +
                                        ec.message()));
    if (size == 0)
        return unexpected(invalidArgumentError("CIFAR-10 batch file " + quoted(file) +
                                               " is empty; a CIFAR-10 binary batch holds records of " +
                                               std::to_string(kCifar10RecordBytes) + " bytes"));
    const auto bytes = static_cast<std::int64_t>(size);
    if (bytes % kCifar10RecordBytes != 0) {
        std::string message = "CIFAR-10 batch file " + quoted(file) + " is " + std::to_string(bytes) +
                              " bytes, not a multiple of " + std::to_string(kCifar10RecordBytes) +
                              " (a label byte and 3072 pixel bytes per record): it is not a CIFAR-10 binary batch";
        if (bytes % kCifar100RecordBytes == 0)
            message += "; its size fits the " + std::to_string(kCifar100RecordBytes) +
                       "-byte records of the CIFAR-100 binary format (a coarse and a fine label byte), which is "
                       "not read here: use the CIFAR-10 files (" + std::string(kCifar10Url) + ")";
        return unexpected(invalidArgumentError(message));
    }
    return bytes / kCifar10RecordBytes;
}

/// Each batch file's record count, in order; the first file that is not a CIFAR-10 binary batch
/// stops it (recordsIn's error).
Expected<std::vector<std::int64_t>> recordCounts(const std::vector<std::filesystem::path>& files)
{
    if (files.empty())
        return unexpected(invalidArgumentError("CIFAR-10: no batch files given"));
    std::vector<std::int64_t> counts;
    for (const auto& file : files) {
        auto n = recordsIn(file);
        if (!n)
            return unexpected(n.error());
        counts.push_back(*n);
    }
    return counts;
}

} // namespace

Expected<std::int64_t> cifar10RecordCount(const std::vector<std::filesystem::path>& files)
{
    auto counts = recordCounts(files);
    if (!counts)
        return unexpected(counts.error());
    return std::accumulate(counts->begin(), counts->end(), std::int64_t{0});
}

Expected<Cifar10Data> loadCifar10(const std::vector<std::filesystem::path>& files, Allocator& allocator,
                                  const Cifar10Options& options)
{
    // Every file is checked before any is read, so that a bad fifth batch is reported at once
    // rather than after four have been decoded.
    auto checked = recordCounts(files);
    if (!checked)
        return unexpected(checked.error());
    const std::vector<std::int64_t>& counts = *checked;
    const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
    const std::int64_t skip = options.skip;
    // take is compared with what is left before it is added, so an absurd take cannot overflow.
    const bool fits = skip >= 0 && skip < total && (options.take < 0 || options.take <= total - skip);
    const std::int64_t end = !fits ? total + 1 : options.take < 0 ? total : skip + options.take;
    if (!fits)
        return unexpected(invalidArgumentError(
            "CIFAR-10: skip " + std::to_string(skip) + " and take " + std::to_string(options.take) +
            " ask for records the " + std::to_string(files.size()) + " batch file(s) do not hold (they hold " +
            std::to_string(total) + " records, 0 to " + std::to_string(total - 1) + ")"));
    const std::int64_t n = end - skip;

    auto images = Tensor::allocate(allocator, options.scaleToFloat ? tf::DT_FLOAT : tf::DT_UINT8,
                                   TensorShape{n, kCifar10ImageBytes});
    if (!images)
        return unexpected(images.error());
    auto labels = options.oneHot ? Tensor::allocate(allocator, tf::DT_FLOAT, TensorShape{n, 10})
                                 : Tensor::allocate(allocator, tf::DT_INT64, TensorShape{n});
    if (!labels)
        return unexpected(labels.error());
    if (options.oneHot) {
        auto v = labels->values<float>();
        std::fill(v.begin(), v.end(), 0.0f);
    }

    std::int64_t first = 0; // the index of the file's first record among all the files' records
    std::int64_t row = 0;   // the next output row
    std::string buffer;
    for (std::size_t f = 0; f < files.size() && row < n; first += counts[f], ++f) {
        const std::int64_t from = std::max(skip, first) - first;
        const std::int64_t to = std::min(end, first + counts[f]) - first;
        if (from >= to)
            continue;
        std::ifstream in(files[f], std::ios::binary);
        if (!in)
            return unexpected(notFoundError("CIFAR-10 batch file " + quoted(files[f]) + " cannot be opened"));
        in.seekg(from * kCifar10RecordBytes);
        buffer.resize(static_cast<std::size_t>((to - from) * kCifar10RecordBytes));
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        if (in.gcount() != static_cast<std::streamsize>(buffer.size()))
            return unexpected(dataLossError("CIFAR-10 batch file " + quoted(files[f]) +
                                            " ended early (it got shorter while it was read)"));
        for (std::int64_t r = 0; r < to - from; ++r, ++row) {
            const auto* record = reinterpret_cast<const std::uint8_t*>(buffer.data()) + r * kCifar10RecordBytes;
            const std::uint8_t label = record[0];
            if (label > 9)
                return unexpected(invalidArgumentError("CIFAR-10 batch file " + quoted(files[f]) + ": record " +
                                                       std::to_string(from + r) + " has label " +
                                                       std::to_string(label) + ", outside 0..9"));
            if (options.oneHot)
                labels->values<float>()[static_cast<std::size_t>(row * 10 + label)] = 1.0f;
            else
                labels->values<std::int64_t>()[static_cast<std::size_t>(row)] = label;
            // Stored channel-major (all red, all green, all blue); written pixel by pixel, RGB.
            const std::uint8_t* pixels = record + 1;
            const auto base = static_cast<std::size_t>(row * kCifar10ImageBytes);
            if (options.scaleToFloat) {
                auto out = images->values<float>();
                for (std::int64_t p = 0; p < kPixels; ++p)
                    for (std::int64_t c = 0; c < 3; ++c)
                        out[base + static_cast<std::size_t>(p * 3 + c)] =
                            static_cast<float>(pixels[c * kPixels + p]) * (1.0f / 255.0f);
            } else {
                auto out = images->values<std::uint8_t>();
                for (std::int64_t p = 0; p < kPixels; ++p)
                    for (std::int64_t c = 0; c < 3; ++c)
                        out[base + static_cast<std::size_t>(p * 3 + c)] = pixels[c * kPixels + p];
            }
        }
    }
    return Cifar10Data{*images, *labels};
}

Expected<Dataset> cifar10Dataset(const std::vector<std::filesystem::path>& files, Allocator& allocator,
                                 const Cifar10Options& options)
{
    auto data = loadCifar10(files, allocator, options);
    if (!data)
        return unexpected(data.error());
    return Dataset::fromTensorSlices({data->images, data->labels}, allocator);
}

} // namespace tstudio::data
