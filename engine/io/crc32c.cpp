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

/// The CRC register (without the inversions at either end) is linear over GF(2) in its state and
/// its data, so running it over n zero bytes is a fixed 32x32 bit matrix; ZeroShift holds that
/// matrix as four byte-indexed tables. It combines CRCs of adjacent pieces: the register after
/// A then B, started from s, is shift_|B|(register after A from s) ^ (register after B from 0).
class ZeroShift {
public:
    explicit ZeroShift(std::size_t bytes)
    {
        std::array<std::uint32_t, 32> column{};
        for (int bit = 0; bit < 32; ++bit) {
            std::uint32_t c = 1u << bit;
            for (std::size_t i = 0; i < bytes; ++i)
                c = kTable[c & 0xffu] ^ (c >> 8);
            column[static_cast<std::size_t>(bit)] = c;
        }
        for (std::size_t k = 0; k < 4; ++k)
            for (std::uint32_t b = 0; b < 256; ++b) {
                std::uint32_t v = 0;
                for (std::uint32_t j = 0; j < 8; ++j)
                    if (b & (1u << j))
                        v ^= column[8 * k + j];
                m_table[k][b] = v;
            }
    }

    std::uint32_t operator()(std::uint32_t c) const
    {
        return m_table[0][c & 0xffu] ^ m_table[1][(c >> 8) & 0xffu] ^ m_table[2][(c >> 16) & 0xffu] ^
               m_table[3][c >> 24];
    }

private:
    std::array<std::array<std::uint32_t, 256>, 4> m_table{};
};

/// The crc32 instruction has a latency of three cycles and a throughput of one a cycle, so one
/// dependent chain uses a third of it: long inputs are cut into three adjacent blocks whose
/// registers advance side by side and are then combined (two shifts of one block's length).
constexpr std::size_t kLongBlock = 4096;
constexpr std::size_t kShortBlock = 256;

__attribute__((target("sse4.2"))) std::uint64_t threeBlocks(std::uint64_t c, const unsigned char*& p,
                                                              std::size_t& n, std::size_t block,
                                                              const ZeroShift& shift)
{
    while (n >= 3 * block) {
        std::uint64_t c1 = 0, c2 = 0;
        for (const unsigned char* end = p + block; p < end; p += 8) {
            std::uint64_t w0, w1, w2;
            std::memcpy(&w0, p, 8);
            std::memcpy(&w1, p + block, 8);
            std::memcpy(&w2, p + 2 * block, 8);
            c = __builtin_ia32_crc32di(c, w0);
            c1 = __builtin_ia32_crc32di(c1, w1);
            c2 = __builtin_ia32_crc32di(c2, w2);
        }
        const std::uint32_t ab = shift(static_cast<std::uint32_t>(c)) ^ static_cast<std::uint32_t>(c1);
        c = shift(ab) ^ static_cast<std::uint32_t>(c2);
        p += 2 * block;
        n -= 3 * block;
    }
    return c;
}

__attribute__((target("sse4.2"))) std::uint32_t extendHardware(std::uint32_t crc, const unsigned char* p,
                                                                 std::size_t n)
{
    std::uint64_t c = ~crc;
    if (n >= 3 * kShortBlock) {
        static const ZeroShift longShift(kLongBlock);
        static const ZeroShift shortShift(kShortBlock);
        c = threeBlocks(c, p, n, kLongBlock, longShift);
        c = threeBlocks(c, p, n, kShortBlock, shortShift);
    }
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
