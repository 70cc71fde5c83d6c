// TFRecord framing: header and data checks, and framing records for writing.
#include "io/record_framing.h"

#include "io/crc32c.h"
#include "core/varint.h"

namespace tstudio::record {

std::optional<std::uint64_t> decodeHeader(std::string_view header)
{
    if (header.size() < kHeaderSize)
        return std::nullopt;
    const std::uint32_t stored = varint::loadFixed32(header.data() + 8);
    if (crc32c::mask(crc32c::value(header.data(), 8)) != stored)
        return std::nullopt;
    return varint::loadFixed64(header.data());
}

bool checkData(std::string_view data, std::string_view footer)
{
    if (footer.size() < kFooterSize)
        return false;
    return crc32c::mask(crc32c::value(data)) == varint::loadFixed32(footer.data());
}

namespace {

void appendFixed32(std::string& out, std::uint32_t v)
{
    const char bytes[4] = {static_cast<char>(v & 0xffu), static_cast<char>((v >> 8) & 0xffu),
                           static_cast<char>((v >> 16) & 0xffu), static_cast<char>((v >> 24) & 0xffu)};
    out.append(bytes, 4);
}

} // namespace

void appendRecord(std::string& out, std::string_view data)
{
    const std::size_t start = out.size();
    const auto length = static_cast<std::uint64_t>(data.size());
    appendFixed32(out, static_cast<std::uint32_t>(length));
    appendFixed32(out, static_cast<std::uint32_t>(length >> 32));
    appendFixed32(out, crc32c::mask(crc32c::value(out.data() + start, 8)));
    out.append(data);
    appendFixed32(out, crc32c::mask(crc32c::value(data)));
}

} // namespace tstudio::record
