// SSTable block and footer decoding (layout facts: LevelDB's doc/table_format.md); Snappy blocks
// through Debian's libsnappy.
#include "io/table_format.h"

#include "io/crc32c.h"
#include "core/varint.h"

#include <snappy.h>

namespace tstudio::table {

bool hasMagic(std::string_view tail)
{
    return tail.size() >= 8 && varint::loadFixed64(tail.data() + tail.size() - 8) == kMagic;
}

Expected<BlockHandle> decodeBlockHandle(std::string_view& in)
{
    auto offset = varint::decode64(in);
    auto size = offset ? varint::decode64(in) : std::nullopt;
    if (!offset || !size)
        return unexpected(dataLossError("bad block handle in table"));
    return BlockHandle{*offset, *size};
}

Expected<Footer> decodeFooter(std::string_view footer)
{
    if (footer.size() != kFooterSize)
        return unexpected(dataLossError("table footer must be 48 bytes, got " + std::to_string(footer.size())));
    if (!hasMagic(footer))
        return unexpected(dataLossError("not a table: the footer's magic number is missing"));
    Footer result;
    auto meta = decodeBlockHandle(footer);
    if (!meta)
        return unexpected(meta.error());
    auto index = decodeBlockHandle(footer);
    if (!index)
        return unexpected(index.error());
    result.metaindex = *meta;
    result.index = *index;
    return result;
}

Expected<std::string> readBlock(std::istream& file, std::uint64_t fileSize, BlockHandle handle)
{
    if (handle.offset > fileSize || handle.size > fileSize - handle.offset ||
        fileSize - handle.offset - handle.size < kBlockTrailerSize) {
        return unexpected(dataLossError("block at offset " + std::to_string(handle.offset) + " of size " +
                                        std::to_string(handle.size) + " runs past the end of the " +
                                        std::to_string(fileSize) + "-byte table"));
    }
    std::string buffer(handle.size + kBlockTrailerSize, '\0');
    file.clear();
    file.seekg(static_cast<std::streamoff>(handle.offset));
    if (!file.read(buffer.data(), static_cast<std::streamsize>(buffer.size())))
        return unexpected(dataLossError("could not read block at offset " + std::to_string(handle.offset)));
    const auto type = static_cast<unsigned char>(buffer[handle.size]);
    const std::uint32_t stored = varint::loadFixed32(buffer.data() + handle.size + 1);
    // The CRC covers the stored (possibly compressed) contents and the compression-type byte.
    if (crc32c::mask(crc32c::value(buffer.data(), handle.size + 1)) != stored)
        return unexpected(dataLossError("checksum mismatch in block at offset " + std::to_string(handle.offset)));
    buffer.resize(handle.size);
    switch (static_cast<BlockCompression>(type)) {
    case BlockCompression::kNone: return buffer;
    case BlockCompression::kSnappy: return uncompressSnappyBlock(buffer, handle.offset);
    }
    return unexpected(dataLossError("bad block type " + std::to_string(int(type)) + " in block at offset " +
                                    std::to_string(handle.offset) + " (0: uncompressed and 1: Snappy are known)"));
}

Expected<std::string> uncompressSnappyBlock(std::string_view stored, std::uint64_t offset)
{
    const auto corrupted = [&] {
        return unexpected(dataLossError("corrupted compressed block contents in block at offset " +
                                        std::to_string(offset) + ": not valid Snappy data"));
    };
    // IsValidCompressedBuffer decodes without writing, so the declared length is only trusted
    // (and allocated) once the stored bytes are known to produce exactly that many.
    std::size_t length = 0;
    if (!snappy::IsValidCompressedBuffer(stored.data(), stored.size()) ||
        !snappy::GetUncompressedLength(stored.data(), stored.size(), &length))
        return corrupted();
    std::string contents(length, '\0');
    if (!snappy::RawUncompress(stored.data(), stored.size(), contents.data()))
        return corrupted();
    return contents;
}

Status forEachEntry(std::string_view contents,
                    const std::function<bool(std::string_view key, std::string_view value)>& visit)
{
    if (contents.size() < 4)
        return dataLossError("table block shorter than its restart count");
    const std::uint32_t numRestarts = varint::loadFixed32(contents.data() + contents.size() - 4);
    const std::uint64_t restartBytes = (static_cast<std::uint64_t>(numRestarts) + 1) * 4;
    if (restartBytes > contents.size())
        return dataLossError("table block declares " + std::to_string(numRestarts) + " restarts, more than fit");
    std::string_view entries = contents.substr(0, contents.size() - restartBytes);
    std::string key;
    while (!entries.empty()) {
        auto shared = varint::decode32(entries);
        auto nonShared = shared ? varint::decode32(entries) : std::nullopt;
        auto valueLength = nonShared ? varint::decode32(entries) : std::nullopt;
        if (!valueLength || *shared > key.size() ||
            static_cast<std::uint64_t>(*nonShared) + *valueLength > entries.size())
            return dataLossError("malformed entry in table block");
        key.resize(*shared);
        key.append(entries.substr(0, *nonShared));
        const std::string_view value = entries.substr(*nonShared, *valueLength);
        entries.remove_prefix(static_cast<std::size_t>(*nonShared) + *valueLength);
        if (!visit(key, value))
            break;
    }
    return Status::ok();
}

} // namespace tstudio::table
