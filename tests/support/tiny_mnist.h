// A tiny MNIST set written by a test: idx files as MNIST ships them, whose classes a small network
// learns in a few steps.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace tstudio::test {

/// Writes <dir>/<set>-images-idx3-ubyte and <dir>/<set>-labels-idx1-ubyte (uncompressed): `count`
/// 28x28 images whose class (i % 10) is the band of rows lit up, with noise (seeded, so the same
/// bytes every time). False when a file cannot be written.
inline bool writeTinyMnist(const std::filesystem::path& dir, int count, const std::string& set = "t10k")
{
    std::string images, labels;
    const auto bigEndian = [](std::string& out, std::uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8)
            out.push_back(static_cast<char>((v >> shift) & 0xff));
    };
    bigEndian(images, 0x00000803);
    bigEndian(images, static_cast<std::uint32_t>(count));
    bigEndian(images, 28);
    bigEndian(images, 28);
    bigEndian(labels, 0x00000801);
    bigEndian(labels, static_cast<std::uint32_t>(count));
    std::mt19937 random(7);
    std::uniform_int_distribution<int> noise(0, 60);
    for (int i = 0; i < count; ++i) {
        const int label = i % 10;
        labels.push_back(static_cast<char>(label));
        for (int row = 0; row < 28; ++row)
            for (int col = 0; col < 28; ++col) {
                const bool lit = row >= 2 + label * 2 && row < 4 + label * 2 && col > 4 && col < 24;
                images.push_back(static_cast<char>(lit ? 200 + noise(random) / 2 : noise(random)));
            }
    }
    std::ofstream a(dir / (set + "-images-idx3-ubyte"), std::ios::binary);
    std::ofstream b(dir / (set + "-labels-idx1-ubyte"), std::ios::binary);
    a.write(images.data(), static_cast<std::streamsize>(images.size()));
    b.write(labels.data(), static_cast<std::streamsize>(labels.size()));
    a.close();
    b.close();
    return a.good() && b.good();
}

} // namespace tstudio::test
