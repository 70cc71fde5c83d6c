// CRC32C: a byte-wise table (reflected polynomial 0x82f63b78) with an SSE4.2 fast path.
#include "io/crc32c.h"

#include "core/cpu_features.h"

#include <array>
#include <cstring>

namespace tstudio::crc32c {
namespace {

constexpr std::array<std::uint32_t, 256> makeTable()
{
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1u) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
        table[i] = c;
    }
    return table;
}

constexpr auto kTable = makeTable();

std::uint32_t extendPortable(std::uint32_t crc, const unsigned char* p, std::size_t n)
{
    crc = ~crc;
    for (std::size_t i = 0; i < n; ++i)
        crc = kTable[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TSTUDIO_CRC32C_HW 1
__attribute__((target("sse4.2"))) std::uint32_t extendHardware(std::uint32_t crc, const unsigned char* p,
                                                                 std::size_t n)
{
    std::uint64_t c = ~crc;
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        n -= 8;
    }
    auto c32 = static_cast<std::uint32_t>(c);
    while (n > 0) {
        c32 = __builtin_ia32_crc32qi(c32, *p++);
        --n;
    }
    return ~c32;
}

bool cpuHasSse42()
{
    static const bool has = cpuHasLevel(CpuLevel::kSse42);
    return has;
}
#endif

} // namespace

std::uint32_t extend(std::uint32_t init, const void* data, std::size_t size)
{
    const auto* p = static_cast<const unsigned char*>(data);
#ifdef TSTUDIO_CRC32C_HW
    if (cpuHasSse42())
        return extendHardware(init, p, size);
#endif
    return extendPortable(init, p, size);
}

std::uint32_t extendSoftware(std::uint32_t init, const void* data, std::size_t size)
{
    return extendPortable(init, static_cast<const unsigned char*>(data), size);
}

} // namespace tstudio::crc32c
