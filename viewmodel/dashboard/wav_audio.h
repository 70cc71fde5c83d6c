// WAV files of audio summaries without Qt: their format, length, waveform thumbnail and samples.
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::dashboard {

/// What a WAV file holds: its format and, for the thumbnail, the minimum and maximum of the first
/// channel in `peaks.size()` equal slices (values in [-1, 1]).
struct WavInfo {
    int format = 0; ///< 1 PCM, 3 IEEE float
    int channels = 0;
    int sampleRate = 0;
    int bitsPerSample = 0;
    std::int64_t frames = 0;
    double durationSeconds = 0;
    std::vector<std::pair<float, float>> peaks;
};

/// Parses a RIFF/WAVE file (PCM 8/16/24/32-bit or float 32/64-bit). InvalidArgument naming `what`
/// and the problem for anything else; never reads past `bytes`.
Expected<WavInfo> parseWav(const std::string& bytes, const std::string& what, int peakCount = 200);

/// Every sample of a WAV file, for playback: frames one after another, each with one value per
/// channel in [-1, 1] (PCM scaled by full scale; float values clipped, NaN as 0).
struct WavSamples {
    int channels = 0;
    int sampleRate = 0;
    std::vector<float> interleaved;
};
/// The same checks and errors as parseWav.
Expected<WavSamples> decodeWavSamples(const std::string& bytes, const std::string& what);

} // namespace tstudio::dashboard
