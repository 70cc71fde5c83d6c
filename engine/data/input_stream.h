// A sequential byte stream over a file, read in chunks and inflated on the fly for ZLIB/GZIP files.
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tstudio::data {

/// Whole-stream compression of TFRecord and text files, as TensorFlow's compression_type:
/// "" (none), "ZLIB" (zlib wrapper, window bits 15) or "GZIP" (gzip wrapper).
enum class Compression { kNone, kZlib, kGzip };

/// Parses TensorFlow's spelling ("", "ZLIB", "GZIP"); InvalidArgument for anything else.
Expected<Compression> compressionFromName(std::string_view name);
/// "", "ZLIB" or "GZIP".
std::string compressionName(Compression compression);

/// Reads a file from start to end, inflating it when compressed. Memory is bounded by the chunk
/// size whatever the file holds: a caller that wants n bytes gets them only as they arrive.
///
/// Errors name the file: NotFound / PermissionDenied when it cannot be opened, DataLoss for a
/// damaged or truncated compressed stream (with the offset in the decompressed data) or bytes
/// after its end that are not another gzip member.
/// Threads: one reader at a time.
class InputStream {
public:
    static Expected<std::unique_ptr<InputStream>> open(const std::filesystem::path& path, Compression compression,
                                                       std::size_t chunkBytes = 256 * 1024);
    ~InputStream();
    InputStream(const InputStream&) = delete;
    InputStream& operator=(const InputStream&) = delete;

    /// Appends up to `n` bytes to `*out`; returns how many were appended (fewer than `n` only at the
    /// end of the stream).
    Expected<std::size_t> read(std::size_t n, std::string* out);
    /// Appends the next line without its "\n" (and a "\r" before it) to `*out`; false at the end of
    /// the stream. A last line without "\n" still counts.
    Expected<bool> readLine(std::string* out);

    /// Bytes delivered so far (offsets in the decompressed data).
    std::uint64_t position() const { return m_position; }
    /// The file's size when it is not compressed (the most a record could still hold).
    std::optional<std::uint64_t> uncompressedSize() const;
    const std::filesystem::path& path() const { return m_path; }

private:
    struct Zlib;
    InputStream(std::filesystem::path path, Compression compression, std::size_t chunkBytes);
    /// Refills m_buffer when it is used up; false at the end of the stream.
    Expected<bool> fill();
    Expected<std::size_t> readRaw(char* dst, std::size_t n);

    std::filesystem::path m_path;
    Compression m_compression;
    std::size_t m_chunkBytes;
    int m_fd = -1;
    std::uint64_t m_fileSize = 0;
    /// A chunk of bytes, allocated once and never zeroed (a small file must not cost a 256 KiB
    /// memset per refill): `size` of its `capacity` bytes hold data.
    struct Chunk {
        std::unique_ptr<char[]> data;
        std::size_t capacity = 0;
        std::size_t size = 0;
        void reserve(std::size_t bytes);
    };
    Chunk m_raw; ///< compressed bytes read from the file and not yet inflated
    std::size_t m_rawPos = 0;
    bool m_rawEof = false;
    Chunk m_buffer; ///< decompressed bytes not yet delivered
    std::size_t m_bufferPos = 0;
    std::uint64_t m_position = 0;
    std::unique_ptr<Zlib> m_zlib;
    bool m_streamEnded = false; ///< the compressed stream reached its end marker
};

} // namespace tstudio::data
