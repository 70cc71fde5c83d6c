#include "dashboard/wav_audio.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tstudio::dashboard {

namespace {

std::uint32_t readLe(const std::string& b, std::size_t at, int bytes)
{
    std::uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(b[at + std::size_t(i)]);
    return v;
}

/// The sample at byte `at` as a value in [-1, 1] (float files: as stored).
float sampleAt(const std::string& b, std::size_t at, int format, int bits)
{
    if (format == 3) {
        if (bits == 32) {
            float f;
            const std::uint32_t u = readLe(b, at, 4);
            std::memcpy(&f, &u, 4);
            return f;
        }
        std::uint64_t u = std::uint64_t(readLe(b, at + 4, 4)) << 32 | readLe(b, at, 4);
        double d;
        std::memcpy(&d, &u, 8);
        return static_cast<float>(d);
    }
    switch (bits) {
    case 8: return (static_cast<unsigned char>(b[at]) - 128) / 128.0f;
    case 16: return static_cast<std::int16_t>(readLe(b, at, 2)) / 32768.0f;
    case 24: return static_cast<std::int32_t>(readLe(b, at, 3) << 8) / 2147483648.0f;
    default: return static_cast<std::int32_t>(readLe(b, at, 4)) / 2147483648.0f;
    }
}

} // namespace

namespace {

/// Where a WAV file's samples are, after its format was checked.
struct WavLayout {
    WavInfo info;                ///< without peaks
    std::size_t dataAt = 0;      ///< first byte of the first frame
    std::size_t frameBytes = 0;  ///< bytes of one frame (every channel)
};

Expected<WavLayout> locateWav(const std::string& b, const std::string& what)
{
    const auto bad = [&](const std::string& why) {
        return unexpected(
            invalidArgumentError("audio clip " + what + " is not a WAV file the dashboard can read: " + why));
    };
    if (b.size() < 12 || b.compare(0, 4, "RIFF") != 0 || b.compare(8, 4, "WAVE") != 0)
        return bad("expected a RIFF/WAVE header");
    WavLayout layout;
    WavInfo& info = layout.info;
    std::size_t dataAt = 0, dataSize = 0;
    bool haveFormat = false;
    for (std::size_t at = 12; at + 8 <= b.size();) {
        const std::string id = b.substr(at, 4);
        const std::size_t size = readLe(b, at + 4, 4);
        const std::size_t body = at + 8;
        const std::size_t available = b.size() - body;
        if (id == "fmt ") {
            if (size < 16 || size > available)
                return bad("the format chunk is truncated");
            info.format = static_cast<int>(readLe(b, body, 2));
            info.channels = static_cast<int>(readLe(b, body + 2, 2));
            info.sampleRate = static_cast<int>(readLe(b, body + 4, 4));
            info.bitsPerSample = static_cast<int>(readLe(b, body + 14, 2));
            if (info.format == 0xFFFE) // WAVE_FORMAT_EXTENSIBLE: the sub-format's first two bytes
                info.format = size >= 26 ? static_cast<int>(readLe(b, body + 24, 2)) : 1;
            haveFormat = true;
        } else if (id == "data") {
            dataAt = body;
            dataSize = std::min(size, available); // a writer that never patched the size: take what is there
            break;
        }
        if (size > available)
            break;
        at = body + size + (size & 1);
    }
    if (!haveFormat)
        return bad("no format chunk");
    if (dataAt == 0)
        return bad("no data chunk");
    const bool pcm = info.format == 1 && (info.bitsPerSample == 8 || info.bitsPerSample == 16 ||
                                          info.bitsPerSample == 24 || info.bitsPerSample == 32);
    const bool flt = info.format == 3 && (info.bitsPerSample == 32 || info.bitsPerSample == 64);
    if (!pcm && !flt)
        return bad("format " + std::to_string(info.format) + " with " + std::to_string(info.bitsPerSample) +
                   " bits per sample (expected PCM 8/16/24/32 or float 32/64)");
    if (info.channels < 1 || info.sampleRate < 1)
        return bad(std::to_string(info.channels) + " channels at " + std::to_string(info.sampleRate) + " Hz");
    layout.dataAt = dataAt;
    layout.frameBytes = std::size_t(info.channels) * std::size_t(info.bitsPerSample / 8);
    info.frames = static_cast<std::int64_t>(dataSize / layout.frameBytes);
    info.durationSeconds = double(info.frames) / info.sampleRate;
    return layout;
}

} // namespace

Expected<WavInfo> parseWav(const std::string& b, const std::string& what, int peakCount)
{
    auto layout = locateWav(b, what);
    if (!layout)
        return unexpected(layout.error());
    WavInfo info = std::move(layout->info);
    if (info.frames > 0 && peakCount > 0) {
        info.peaks.assign(std::size_t(peakCount), {0.f, 0.f});
        for (std::size_t k = 0; k < info.peaks.size(); ++k) {
            const std::int64_t from = info.frames * std::int64_t(k) / peakCount;
            const std::int64_t to = std::max(from + 1, info.frames * std::int64_t(k + 1) / peakCount);
            // At most 64 frames per slice are looked at: enough for a thumbnail of a long clip.
            const std::int64_t stride = std::max<std::int64_t>(1, (to - from) / 64);
            float lo = 1, hi = -1;
            for (std::int64_t f = from; f < to && f < info.frames; f += stride) {
                const float v = sampleAt(b, layout->dataAt + std::size_t(f) * layout->frameBytes, info.format,
                                         info.bitsPerSample);
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            info.peaks[k] = {std::clamp(lo, -1.f, 1.f), std::clamp(hi, -1.f, 1.f)};
        }
    }
    return info;
}

Expected<WavSamples> decodeWavSamples(const std::string& b, const std::string& what)
{
    auto layout = locateWav(b, what);
    if (!layout)
        return unexpected(layout.error());
    const WavInfo& info = layout->info;
    WavSamples out;
    out.channels = info.channels;
    out.sampleRate = info.sampleRate;
    const std::size_t sampleBytes = std::size_t(info.bitsPerSample / 8);
    const std::size_t count = std::size_t(info.frames) * std::size_t(info.channels);
    out.interleaved.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const float v = sampleAt(b, layout->dataAt + i * sampleBytes, info.format, info.bitsPerSample);
        // A float file may hold values past full scale, or NaN: clipped, NaN as silence.
        out.interleaved[i] = std::isnan(v) ? 0.f : std::clamp(v, -1.f, 1.f);
    }
    return out;
}

} // namespace tstudio::dashboard
