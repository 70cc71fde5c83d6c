// Little-endian fixed-width integers and LEB128 varints, decoded with bounds checks.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace tstudio::varint {

/// Decodes a varint64 from the front of `in` and advances it; nullopt if truncated or over 10 bytes.
inline std::optional<std::uint64_t> decode64(std::string_view& in)
{
    std::uint64_t result = 0;
    for (int shift = 0, i = 0; i < 10; ++i, shift += 7) {
        if (static_cast<std::size_t>(i) >= in.size())
            return std::nullopt;
        const auto byte = static_cast<unsigned char>(in[static_cast<std::size_t>(i)]);
        result |= static_cast<std::uint64_t>(byte & 0x7fu) << shift;
        if ((byte & 0x80u) == 0) {
            in.remove_prefix(static_cast<std::size_t>(i) + 1);
            return result;
        }
    }
    return std::nullopt;
}

/// Decodes a varint that must fit in 32 bits.
inline std::optional<std::uint32_t> decode32(std::string_view& in)
{
    std::string_view copy = in;
    auto v = decode64(copy);
    if (!v || *v > 0xffffffffull)
        return std::nullopt;
    in = copy;
    return static_cast<std::uint32_t>(*v);
}

inline std::uint32_t loadFixed32(const char* p)
{
    unsigned char b[4];
    std::memcpy(b, p, 4);
    return static_cast<std::uint32_t>(b[0]) | (static_cast<std::uint32_t>(b[1]) << 8) |
           (static_cast<std::uint32_t>(b[2]) << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
}

inline std::uint64_t loadFixed64(const char* p)
{
    return static_cast<std::uint64_t>(loadFixed32(p)) | (static_cast<std::uint64_t>(loadFixed32(p + 4)) << 32);
}

} // namespace tstudio::varint
