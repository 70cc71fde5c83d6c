// Reading tensors from V2 checkpoints: raw little-endian buffers and TensorFlow's string encoding,
// each checked against its masked CRC32C (formats.md 2.9-2.10).
#include "io/checkpoint/tensor_bundle_reader.h"

#include "io/checkpoint/tensor_slice_key.h"
#include "io/checkpoint/tensor_slice_set.h"
#include "io/crc32c.h"
#include "core/varint.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

namespace tstudio {
namespace fs = std::filesystem;

namespace {

std::string quote(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

/// TensorFlow prints CRCs as zero-padded unsigned decimals ("%08u").
std::string crcText(std::uint32_t crc)
{
    char text[16];
    std::snprintf(text, sizeof text, "%08u", crc);
    return text;
}

BundleTensorInfo makeInfo(const std::string& name, const tensorflow::BundleEntryProto& entry)
{
    BundleTensorInfo info;
    info.name = name;
    info.dtype = entry.dtype();
    std::vector<std::int64_t> dims;
    for (const auto& dim : entry.shape().dim())
        dims.push_back(dim.size());
    info.shape = TensorShape(std::move(dims)); // validated by readBundleIndex
    info.shardId = entry.shard_id();
    info.offset = entry.offset();
    info.size = entry.size();
    info.maskedCrc32c = entry.crc32c();
    info.numSlices = entry.slices_size();
    return info;
}

/// Reads `size` bytes at `offset` of `path` into `out`.
Status readExactly(const std::string& path, std::int64_t offset, std::int64_t size, char* out)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return notFoundError("cannot open checkpoint data file " + quote(path));
    file.seekg(static_cast<std::streamoff>(offset));
    if (size > 0 && !file.read(out, static_cast<std::streamsize>(size)))
        return dataLossError("checkpoint data file " + quote(path) + " ended early: could not read " +
                             std::to_string(size) + " bytes at offset " + std::to_string(offset));
    return Status::ok();
}

void extendWithLength(std::uint32_t* crc, std::uint64_t length)
{
    // The checksum covers each length as a little-endian uint32 (uint64 beyond 4 GiB), not its varint.
    unsigned char bytes[8];
    const std::size_t width = length <= 0xffffffffull ? 4 : 8;
    for (std::size_t i = 0; i < width; ++i)
        bytes[i] = static_cast<unsigned char>((length >> (8 * i)) & 0xff);
    *crc = crc32c::extend(*crc, bytes, width);
}

/// Decodes a string tensor's stored bytes into `tensor` (allocated, numElements strings) and
/// returns the running CRC32C over them.
Expected<std::uint32_t> decodeStrings(std::string_view in, Tensor& tensor)
{
    std::span<std::string> strings = tensor.strings();
    if (strings.empty() && in.empty())
        return 0u; // TensorFlow accepts an empty string tensor stored with no bytes at all
    std::uint32_t crc = 0;
    std::vector<std::uint64_t> lengths(strings.size());
    for (std::uint64_t& length : lengths) {
        auto value = varint::decode64(in);
        if (!value)
            return unexpected(dataLossError("the string lengths are truncated or malformed"));
        length = *value;
        extendWithLength(&crc, length);
    }
    if (in.size() < 4)
        return unexpected(dataLossError("the string lengths are not followed by their checksum"));
    const std::uint32_t lengthChecksum = varint::loadFixed32(in.data());
    if (crc32c::unmask(lengthChecksum) != crc)
        return unexpected(dataLossError("The length checksum does not match: expected " +
                                        crcText(crc32c::unmask(lengthChecksum)) + " but actual is " + crcText(crc)));
    crc = crc32c::extend(crc, in.data(), 4);
    in.remove_prefix(4);
    std::uint64_t total = 0;
    for (std::uint64_t length : lengths) {
        if (length > in.size() - total)
            return unexpected(dataLossError("the string lengths add up to more than the " + std::to_string(in.size()) +
                                            " bytes stored"));
        total += length;
    }
    if (total != in.size())
        return unexpected(dataLossError("the strings take " + std::to_string(total) + " bytes but " +
                                        std::to_string(in.size()) + " are stored"));
    for (std::size_t i = 0; i < strings.size(); ++i) {
        strings[i].assign(in.substr(0, lengths[i]));
        crc = crc32c::extend(crc, in.data(), lengths[i]);
        in.remove_prefix(lengths[i]);
    }
    return crc;
}

} // namespace

TensorBundleReader::TensorBundleReader(std::string prefix, bundle::BundleIndex index)
    : m_prefix(std::move(prefix)), m_index(std::move(index))
{
}

Expected<TensorBundleReader> TensorBundleReader::open(std::string prefix)
{
    auto index = bundle::readBundleIndex(prefix);
    if (!index)
        return unexpected(index.error());
    return TensorBundleReader(std::move(prefix), std::move(*index));
}

std::vector<BundleTensorInfo> TensorBundleReader::tensors() const
{
    std::vector<BundleTensorInfo> result;
    for (const auto& [name, entry] : m_index.entries) {
        if (!name.empty() && name.front() == '\0')
            continue; // the stored piece of a partitioned tensor (an OrderedCode slice key)
        result.push_back(makeInfo(name, entry));
    }
    return result;
}

bool TensorBundleReader::contains(std::string_view name) const
{
    return m_index.entries.count(name) > 0;
}

Expected<BundleTensorInfo> TensorBundleReader::lookUp(std::string_view name) const
{
    const auto it = m_index.entries.find(name);
    if (it == m_index.entries.end())
        return unexpected(notFoundError("Key " + std::string(name) + " not found in checkpoint"));
    return makeInfo(it->first, it->second);
}

Expected<Tensor> TensorBundleReader::read(std::string_view name, Allocator& allocator) const
{
    auto info = lookUp(name);
    if (!info)
        return unexpected(info.error());
    if (info->numSlices > 0)
        return readSlice(name, checkpoint::TensorSlice::full(info->shape.rank()), allocator);
    return readStored(*info, "tensor " + quote(name) + " of checkpoint " + quote(m_prefix), allocator);
}

Expected<Tensor> TensorBundleReader::readSlice(std::string_view name, const checkpoint::TensorSlice& slice,
                                               Allocator& allocator) const
{
    const auto entry = m_index.entries.find(name);
    if (entry == m_index.entries.end())
        return unexpected(notFoundError("Key " + std::string(name) + " not found in checkpoint"));
    const BundleTensorInfo info = makeInfo(entry->first, entry->second);
    const std::string what = "tensor " + quote(name) + " of checkpoint " + quote(m_prefix);
    const auto damaged = [&](const std::string& detail) {
        return dataLossError("checkpoint index " + quote(indexPath()) + " is damaged: " + detail);
    };
    // The stored pieces: the whole tensor, or the slices of a partitioned one (tag = position).
    checkpoint::TensorSliceSet stored(std::string(name), info.dtype, info.shape);
    std::vector<checkpoint::TensorSlice> pieces;
    if (entry->second.slices().empty()) {
        pieces.push_back(checkpoint::TensorSlice::full(info.shape.rank()));
    } else {
        for (const auto& proto : entry->second.slices()) {
            auto piece = checkpoint::TensorSlice::fromProto(proto);
            if (!piece)
                return unexpected(
                    damaged("a slice of partitioned tensor " + quote(name) + ": " + piece.error().message()));
            pieces.push_back(std::move(*piece));
        }
    }
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (Status s = stored.add(pieces[i], static_cast<int>(i)); !s.isOk())
            return unexpected(damaged(s.message()));
    }
    auto needed = stored.query(slice);
    if (!needed)
        return unexpected(needed.error());
    const auto sliceShape = slice.sliceShape(info.shape); // checked by query()
    // The common case: the wanted slice is exactly one stored piece.
    if (entry->second.slices().empty() && slice.isFull())
        return readStored(info, what, allocator);

    auto result = Tensor::allocate(allocator, info.dtype, *sliceShape);
    if (!result)
        return unexpected(result.error().withContext(what));
    for (const checkpoint::StoredSlice& piece : *needed) {
        BundleTensorInfo pieceInfo = info;
        std::string pieceWhat = what;
        if (!entry->second.slices().empty()) {
            const std::string key = checkpoint::encodeTensorNameSlice(name, piece.slice);
            const auto found = m_index.entries.find(key);
            if (found == m_index.entries.end())
                return unexpected(damaged("partitioned tensor " + quote(name) + " lists slice '" +
                                          piece.slice.toString() + "' but the index has no entry for it (key " +
                                          checkpoint::printableKey(key) + ")"));
            pieceInfo = makeInfo(found->first, found->second);
            pieceWhat = "slice '" + piece.slice.toString() + "' of " + what;
            const auto pieceShape = piece.slice.sliceShape(info.shape); // checked by add()
            if (pieceInfo.dtype != info.dtype || pieceInfo.shape != *pieceShape || pieceInfo.numSlices > 0)
                return unexpected(damaged(pieceWhat + " is stored as " + dataTypeName(pieceInfo.dtype) + " " +
                                          pieceInfo.shape.toString() + ", expected " + dataTypeName(info.dtype) + " " +
                                          pieceShape->toString()));
        }
        auto value = readStored(pieceInfo, pieceWhat, allocator);
        if (!value)
            return unexpected(value.error());
        checkpoint::copySliceData(info.shape, piece.slice, *value, slice, *result);
    }
    return std::move(*result);
}

Expected<Tensor> TensorBundleReader::readStored(const BundleTensorInfo& info, const std::string& what,
                                                Allocator& allocator) const
{
    const std::string name = checkpoint::printableKey(info.name);
    const DataType dtype = info.dtype;
    const bool isString = dtype == tensorflow::DT_STRING;
    const std::size_t elementSize = dataTypeSize(dtype);
    if (!isString && (elementSize == 0 || isRefType(dtype)))
        return unexpected(unimplementedError(what + " has dtype " + dataTypeName(dtype) + ", which cannot be read"));
    const std::int64_t numElements = info.shape.numElements().value_or(-1);

    // The size must fit dtype and shape; a string needs at least one length byte per element.
    if (!isString) {
        const bool overflow =
            numElements > std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(elementSize);
        const std::int64_t expected = overflow ? -1 : numElements * static_cast<std::int64_t>(elementSize);
        if (overflow || info.size != expected)
            return unexpected(dataLossError("Invalid size in bundle entry: key " + name + "; stored size " +
                                            std::to_string(info.size) + "; expected size " +
                                            (overflow ? std::string("beyond int64") : std::to_string(expected)) + " (" +
                                            quote(indexPath()) + ")"));
    } else if (info.size < numElements) {
        return unexpected(dataLossError("Invalid size in bundle entry: key " + name + "; stored size " +
                                        std::to_string(info.size) + "; expected size is at least " +
                                        std::to_string(numElements) + " (" + quote(indexPath()) + ")"));
    }

    const std::string dataPath = bundle::dataFilename(m_prefix, info.shardId, numShards());
    std::error_code ec;
    const auto fileSize = fs::file_size(dataPath, ec);
    if (ec)
        return unexpected(notFoundError("checkpoint data file " + quote(dataPath) + " of " + what +
                                        " cannot be read: " + ec.message()));
    if (static_cast<std::uint64_t>(info.offset) > fileSize ||
        static_cast<std::uint64_t>(info.size) > fileSize - static_cast<std::uint64_t>(info.offset))
        return unexpected(dataLossError("checkpoint data file " + quote(dataPath) + " is truncated: " + what +
                                        " needs bytes [" + std::to_string(info.offset) + ", " +
                                        std::to_string(info.offset + info.size) + ") but the file has " +
                                        std::to_string(fileSize)));

    // From here every size is bounded by the data file's size.
    auto tensor = Tensor::allocate(allocator, dtype, info.shape);
    if (!tensor)
        return unexpected(tensor.error().withContext(what));
    std::uint32_t actual = 0;
    if (!isString) {
        auto bytes = tensor->tensorData();
        if (Status s = readExactly(dataPath, info.offset, info.size, reinterpret_cast<char*>(bytes.data())); !s.isOk())
            return unexpected(s.withContext(what));
        actual = crc32c::value(bytes.data(), bytes.size());
    } else {
        std::string stored(static_cast<std::size_t>(info.size), '\0');
        if (Status s = readExactly(dataPath, info.offset, info.size, stored.data()); !s.isOk())
            return unexpected(s.withContext(what));
        auto crc = decodeStrings(stored, *tensor);
        if (!crc)
            return unexpected(crc.error().withContext(what + " in " + quote(dataPath)));
        actual = *crc;
    }
    if (crc32c::unmask(info.maskedCrc32c) != actual)
        return unexpected(dataLossError(what + " in " + quote(dataPath) + ": Checksum does not match: stored " +
                                        crcText(crc32c::unmask(info.maskedCrc32c)) +
                                        " vs. calculated on the restored bytes " + std::to_string(actual)));
    return std::move(*tensor);
}

} // namespace tstudio
