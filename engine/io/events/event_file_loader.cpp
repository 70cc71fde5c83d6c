// EventFileLoader: chunked pread of the file, record framing checked in place, resync after damage.
#include "io/events/event_file_loader.h"

#include "io/atomic_file.h"
#include "io/crc32c.h"
#include "io/record_framing.h"
#include "core/varint.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tstudio::events {
namespace {

/// Bytes read from the file at a time (a record larger than this is read whole).
constexpr std::size_t kChunkBytes = 4 * 1024 * 1024;

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : m_fd(fd) {}
    ~FileDescriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

} // namespace

EventFileLoader::EventFileLoader(std::string path) : m_path(std::move(path)) {}

Status EventFileLoader::readNew(const Sink& sink, std::vector<LoadWarning>& warnings)
{
    FileDescriptor fd(::open(m_path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        return fileErrorStatus("cannot open event file", m_path, errno);
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return fileErrorStatus("cannot read event file", m_path, errno);
    const auto fileSize = static_cast<std::uint64_t>(info.st_size);
    if (fileSize < m_offset) {
        warnings.push_back({m_path, fileSize,
                            "the file shrank from " + std::to_string(m_offset) + " to " + std::to_string(fileSize) +
                                " bytes; reading it again from the start"});
        m_offset = 0;
        m_resyncing = false;
    }

    // m_buffer holds file bytes [bufferStart, bufferStart + m_buffer.size()); `pos` indexes it.
    std::uint64_t bufferStart = m_offset;
    m_buffer.clear();
    std::size_t pos = 0;
    bool atEnd = false;

    // Makes at least `need` bytes available from `pos`; false when the file holds fewer.
    auto ensure = [&](std::size_t need) -> Expected<bool> {
        if (m_buffer.size() - pos >= need)
            return true;
        const std::uint64_t have = bufferStart + m_buffer.size();
        if (have >= fileSize || atEnd)
            return false;
        if (pos > 0) {
            m_buffer.erase(0, pos);
            bufferStart += pos;
            pos = 0;
        }
        const std::uint64_t available = fileSize - (bufferStart + m_buffer.size());
        const std::uint64_t want = std::max<std::uint64_t>(need - m_buffer.size(), kChunkBytes);
        const auto toRead = static_cast<std::size_t>(std::min(want, available));
        const std::size_t old = m_buffer.size();
        m_buffer.resize(old + toRead);
        std::size_t got = 0;
        while (got < toRead) {
            const ssize_t n = ::pread(fd.get(), m_buffer.data() + old + got, toRead - got,
                                      static_cast<off_t>(bufferStart + old + got));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return unexpected(fileErrorStatus("cannot read event file", m_path, errno));
            }
            if (n == 0) {
                atEnd = true; // truncated under us; what we have is all there is
                break;
            }
            got += static_cast<std::size_t>(n);
        }
        m_buffer.resize(old + got);
        return m_buffer.size() - pos >= need;
    };

    for (;;) {
        auto headerReady = ensure(record::kHeaderSize);
        if (!headerReady)
            return headerReady.error();
        if (!*headerReady)
            break; // partial header: wait for more bytes
        const std::string_view header(m_buffer.data() + pos, record::kHeaderSize);
        const std::optional<std::uint64_t> length = record::decodeHeader(header);
        if (!length) {
            if (!m_resyncing) {
                ++m_corrupt;
                warnings.push_back({m_path, bufferStart + pos,
                                    "damaged record header at offset " + std::to_string(bufferStart + pos) +
                                        " (length checksum mismatch); skipped to the next valid record"});
                m_resyncing = true;
            }
            ++pos; // scan forward for the next header whose length CRC matches
            continue;
        }
        const std::uint64_t total = record::kHeaderSize + *length + record::kFooterSize;
        if (total > fileSize - (bufferStart + pos)) {
            if (m_resyncing) {
                // A header found by scanning that claims more bytes than the file has is most
                // likely chance, not a record: keep scanning. A real record appended later is
                // found again from here.
                const std::uint64_t remaining = fileSize - (bufferStart + pos);
                if (remaining > record::kHeaderSize) {
                    ++pos;
                    continue;
                }
            }
            break; // partial record: retry from its header next time
        }
        auto recordReady = ensure(static_cast<std::size_t>(total));
        if (!recordReady)
            return recordReady.error();
        if (!*recordReady)
            break;
        const std::string_view payload(m_buffer.data() + pos + record::kHeaderSize, static_cast<std::size_t>(*length));
        const std::string_view footer(m_buffer.data() + pos + record::kHeaderSize + *length, record::kFooterSize);
        const std::uint64_t recordOffset = bufferStart + pos;
        if (!record::checkData(payload, footer)) {
            if (m_resyncing) {
                ++pos; // a chance header match inside damage: keep scanning
                continue;
            }
            ++m_corrupt;
            warnings.push_back({m_path, recordOffset,
                                "damaged record at offset " + std::to_string(recordOffset) + " (" +
                                    std::to_string(*length) + " bytes, data checksum mismatch); skipped"});
            pos += static_cast<std::size_t>(total);
            m_offset = bufferStart + pos;
            continue;
        }
        m_resyncing = false;
        ++m_records;
        sink(payload, recordOffset);
        pos += static_cast<std::size_t>(total);
        m_offset = bufferStart + pos;
    }
    // While scanning, bytes already rejected need not be scanned again; a header may still start
    // in the last 11 bytes.
    if (m_resyncing) {
        const std::uint64_t scanned = bufferStart + pos;
        m_offset = std::max(m_offset, scanned);
    }
    return Status::ok();
}

} // namespace tstudio::events
