// InputStream: POSIX reads in chunks, zlib's inflate for ZLIB and GZIP streams.
#include "data/input_stream.h"

#include "io/atomic_file.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tstudio::data {

struct InputStream::Zlib {
    z_stream z{};
    bool initialised = false;
    ~Zlib()
    {
        if (initialised)
            inflateEnd(&z);
    }
};

Expected<Compression> compressionFromName(std::string_view name)
{
    if (name.empty())
        return Compression::kNone;
    if (name == "ZLIB")
        return Compression::kZlib;
    if (name == "GZIP")
        return Compression::kGzip;
    return unexpected(invalidArgumentError("unsupported compression_type '" + std::string(name) +
                                           "': expected \"\", \"ZLIB\" or \"GZIP\""));
}

std::string compressionName(Compression compression)
{
    switch (compression) {
    case Compression::kNone: return "";
    case Compression::kZlib: return "ZLIB";
    case Compression::kGzip: return "GZIP";
    }
    return "";
}

InputStream::InputStream(std::filesystem::path path, Compression compression, std::size_t chunkBytes)
    : m_path(std::move(path)), m_compression(compression), m_chunkBytes(std::max<std::size_t>(chunkBytes, 64))
{
}

InputStream::~InputStream()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

Expected<std::unique_ptr<InputStream>> InputStream::open(const std::filesystem::path& path, Compression compression,
                                                         std::size_t chunkBytes)
{
    std::unique_ptr<InputStream> stream(new InputStream(path, compression, chunkBytes));
    stream->m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (stream->m_fd < 0)
        return unexpected(fileErrorStatus("cannot open", path, errno));
    struct stat st {};
    if (::fstat(stream->m_fd, &st) != 0)
        return unexpected(fileErrorStatus("cannot read", path, errno));
    if (S_ISDIR(st.st_mode))
        return unexpected(fileErrorStatus("cannot read", path, EISDIR));
    stream->m_fileSize = static_cast<std::uint64_t>(st.st_size);
    if (compression != Compression::kNone) {
        stream->m_zlib = std::make_unique<Zlib>();
        const int windowBits = compression == Compression::kGzip ? MAX_WBITS + 16 : MAX_WBITS;
        if (inflateInit2(&stream->m_zlib->z, windowBits) != Z_OK)
            return unexpected(internalError("cannot initialise zlib for '" + path.string() + "'"));
        stream->m_zlib->initialised = true;
    }
    return stream;
}

std::optional<std::uint64_t> InputStream::uncompressedSize() const
{
    if (m_compression != Compression::kNone)
        return std::nullopt;
    return m_fileSize;
}

Expected<std::size_t> InputStream::readRaw(char* dst, std::size_t n)
{
    for (;;) {
        const ssize_t got = ::read(m_fd, dst, n);
        if (got >= 0)
            return static_cast<std::size_t>(got);
        if (errno != EINTR)
            return unexpected(fileErrorStatus("cannot read", m_path, errno));
    }
}

void InputStream::Chunk::reserve(std::size_t bytes)
{
    if (capacity < bytes) {
        data = std::make_unique_for_overwrite<char[]>(bytes);
        capacity = bytes;
    }
}

Expected<bool> InputStream::fill()
{
    if (m_bufferPos < m_buffer.size)
        return true;
    m_buffer.size = 0;
    m_bufferPos = 0;
    m_buffer.reserve(m_chunkBytes);
    if (m_compression == Compression::kNone) {
        auto got = readRaw(m_buffer.data.get(), m_buffer.capacity);
        if (!got)
            return unexpected(got.error());
        m_buffer.size = *got;
        return *got > 0;
    }

    const std::string name = "'" + m_path.string() + "' (" + compressionName(m_compression) + ")";
    z_stream& z = m_zlib->z;
    for (;;) {
        if (m_rawPos == m_raw.size && !m_rawEof) {
            m_raw.reserve(m_chunkBytes);
            auto got = readRaw(m_raw.data.get(), m_raw.capacity);
            if (!got)
                return unexpected(got.error());
            m_raw.size = *got;
            m_rawPos = 0;
            m_rawEof = *got == 0;
        }
        const std::size_t rawLeft = m_raw.size - m_rawPos;
        if (m_streamEnded) {
            if (rawLeft == 0 && m_rawEof)
                return false;
            if (rawLeft == 0)
                continue;
            // Only gzip allows another member after the end of one (as `cat a.gz b.gz`).
            const bool gzipMagic = m_compression == Compression::kGzip &&
                                   static_cast<unsigned char>(m_raw.data[m_rawPos]) == 0x1f &&
                                   (rawLeft < 2 || static_cast<unsigned char>(m_raw.data[m_rawPos + 1]) == 0x8b);
            if (!gzipMagic)
                return unexpected(dataLossError(name +
                                                ": unexpected bytes after the end of the compressed stream "
                                                "(after " +
                                                std::to_string(m_position) + " decompressed bytes)"));
            inflateReset(&z);
            m_streamEnded = false;
        }
        if (rawLeft == 0 && m_rawEof)
            return unexpected(dataLossError(name + " is truncated: the compressed stream ends early (after " +
                                            std::to_string(m_position) + " decompressed bytes)"));
        z.next_in = reinterpret_cast<Bytef*>(m_raw.data.get() + m_rawPos);
        z.avail_in = static_cast<uInt>(rawLeft);
        z.next_out = reinterpret_cast<Bytef*>(m_buffer.data.get());
        z.avail_out = static_cast<uInt>(m_buffer.capacity);
        const int rc = inflate(&z, Z_NO_FLUSH);
        m_rawPos = m_raw.size - z.avail_in;
        m_buffer.size = m_buffer.capacity - z.avail_out;
        if (rc == Z_STREAM_END) {
            m_streamEnded = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            return unexpected(
                dataLossError(name + ": damaged compressed stream after " + std::to_string(m_position) +
                              " decompressed bytes (zlib: " + (z.msg ? z.msg : "error " + std::to_string(rc)) + ")"));
        }
        if (m_buffer.size > 0)
            return true;
    }
}

Expected<std::size_t> InputStream::read(std::size_t n, std::string* out)
{
    std::size_t done = 0;
    while (done < n) {
        auto more = fill();
        if (!more)
            return unexpected(more.error());
        if (!*more)
            break;
        const std::size_t take = std::min(n - done, m_buffer.size - m_bufferPos);
        out->append(m_buffer.data.get() + m_bufferPos, take);
        m_bufferPos += take;
        done += take;
        m_position += take;
    }
    return done;
}

Expected<bool> InputStream::readLine(std::string* out)
{
    bool any = false;
    for (;;) {
        auto more = fill();
        if (!more)
            return unexpected(more.error());
        if (!*more)
            break;
        any = true;
        const std::string_view chunk(m_buffer.data.get(), m_buffer.size);
        const std::size_t nl = chunk.find('\n', m_bufferPos);
        const std::size_t end = nl == std::string_view::npos ? chunk.size() : nl;
        out->append(chunk.substr(m_bufferPos, end - m_bufferPos));
        m_position += end - m_bufferPos;
        m_bufferPos = end;
        if (nl != std::string_view::npos) {
            ++m_bufferPos;
            ++m_position;
            break;
        }
    }
    if (any && !out->empty() && out->back() == '\r')
        out->pop_back();
    return any;
}

} // namespace tstudio::data
