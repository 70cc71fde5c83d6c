// TFRecordReader: record framing checks over an InputStream.
#include "data/tfrecord_reader.h"

#include "io/crc32c.h"
#include "io/record_framing.h"
#include "core/varint.h"

#include <cstdint>
#include <vector>

namespace tstudio::data {
namespace {

/// Records are read in pieces of this size, so a damaged length never allocates more than the
/// data that really follows it.
constexpr std::size_t kReadPiece = 1 << 20;

} // namespace

Expected<std::unique_ptr<TFRecordReader>> TFRecordReader::open(const std::filesystem::path& path,
                                                               Compression compression)
{
    auto stream = InputStream::open(path, compression);
    if (!stream)
        return unexpected(stream.error());
    return std::unique_ptr<TFRecordReader>(new TFRecordReader(std::move(*stream)));
}

std::string TFRecordReader::where(std::uint64_t offset) const
{
    return " at " + std::to_string(offset) + " in '" + m_stream->path().string() + "'";
}

Status TFRecordReader::fail(Status status)
{
    m_error = status;
    return status;
}

Expected<std::optional<std::string>> TFRecordReader::readRecord()
{
    if (!m_error.isOk())
        return unexpected(m_error);
    std::string header;
    auto got = m_stream->read(record::kHeaderSize, &header);
    if (!got)
        return unexpected(fail(got.error()));
    if (*got == 0)
        return std::optional<std::string>();
    if (*got < record::kHeaderSize)
        return unexpected(fail(dataLossError("truncated record" + where(m_offset))));
    const std::uint32_t lengthCrc = varint::loadFixed32(header.data() + 8);
    if (crc32c::unmask(lengthCrc) != crc32c::value(header.data(), 8)) {
        std::string hint = m_offset == 0 ? " (is this a TFRecord file?)" : "";
        return unexpected(fail(dataLossError("corrupted record" + where(m_offset) + hint)));
    }
    const std::uint64_t length = varint::loadFixed64(header.data());
    const std::uint64_t dataOffset = m_offset + record::kHeaderSize;
    if (auto size = m_stream->uncompressedSize();
        size && (length > *size || *size - std::min(*size, dataOffset) < length + record::kFooterSize))
        return unexpected(fail(dataLossError("truncated record" + where(dataOffset) + ": the header declares " +
                                             std::to_string(length) + " bytes of data, the file has only " +
                                             std::to_string(*size - std::min(*size, dataOffset)) + " left")));
    if (length > UINT64_MAX - record::kFooterSize)
        return unexpected(
            fail(dataLossError("truncated record" + where(dataOffset) + ": absurd length " + std::to_string(length))));
    std::string data;
    std::uint64_t remaining = length + record::kFooterSize;
    while (remaining > 0) {
        const std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, kReadPiece));
        auto n = m_stream->read(piece, &data);
        if (!n)
            return unexpected(fail(n.error()));
        if (*n < piece)
            return unexpected(fail(dataLossError("truncated record" + where(dataOffset))));
        remaining -= piece;
    }
    const std::uint32_t dataCrc = varint::loadFixed32(data.data() + length);
    data.resize(static_cast<std::size_t>(length));
    if (crc32c::unmask(dataCrc) != crc32c::value(data))
        return unexpected(fail(dataLossError("corrupted record" + where(dataOffset))));
    m_offset = dataOffset + length + record::kFooterSize;
    return std::optional<std::string>(std::move(data));
}

Expected<std::vector<std::string>> readAllRecords(const std::filesystem::path& path, Compression compression)
{
    auto reader = TFRecordReader::open(path, compression);
    if (!reader)
        return unexpected(reader.error());
    std::vector<std::string> records;
    for (;;) {
        auto record = (*reader)->readRecord();
        if (!record)
            return unexpected(record.error());
        if (!*record)
            return records;
        records.push_back(std::move(**record));
    }
}

} // namespace tstudio::data
