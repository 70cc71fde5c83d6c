// readTraceFile and writeChromeTraceFile: a trace from any file that holds one, by content.
#include "profiler/trace_files.h"

#include "data/input_stream.h"
#include "io/atomic_file.h"
#include "io/events/event_graphs.h"
#include "io/proto_parse.h"
#include "io/record_framing.h"
#include "profiler/tfprof_profile_proto.h"
#include "profiler/trace_builder.h"
#include "proto/config.pb.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>

namespace tstudio::profiler {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kChunkBytes = 64 * 1024 * 1024;
constexpr std::size_t kPadding = 64; // simdjson's padding, so the JSON parser needs no second copy

std::string quoted(const fs::path& path)
{
    return "'" + path.string() + "'";
}

bool isCancelled(const std::atomic<bool>* cancelled)
{
    return cancelled != nullptr && cancelled->load(std::memory_order_relaxed);
}

Status cancelledStatus(const fs::path& path)
{
    return cancelledError("reading the trace " + quoted(path) + " was cancelled");
}

Status tooLarge(const fs::path& path, const std::string& what)
{
    return resourceExhaustedError(quoted(path) + " " + what + " more than " + std::to_string(kMaxTraceFileBytes) +
                                  " bytes, the most a trace may hold");
}

/// The whole file, with room for the JSON parser's padding.
Expected<std::string> readPlain(const fs::path& path, std::uint64_t size, const std::atomic<bool>* cancelled)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return unexpected(fileErrorStatus("cannot open trace file", path, errno ? errno : EIO));
    std::string bytes;
    bytes.reserve(size + kPadding + 1);
    bytes.resize(size);
    for (std::uint64_t done = 0; done < size;) {
        if (isCancelled(cancelled))
            return unexpected(cancelledStatus(path));
        const std::uint64_t n = std::min<std::uint64_t>(kChunkBytes, size - done);
        if (!in.read(bytes.data() + done, static_cast<std::streamsize>(n)))
            return unexpected(dataLossError("trace file " + quoted(path) + " ended early: expected " +
                                            std::to_string(size) + " bytes, read " +
                                            std::to_string(done + static_cast<std::uint64_t>(in.gcount()))));
        done += n;
    }
    return bytes;
}

/// The inflated content of a gzip file, at most kMaxTraceFileBytes.
Expected<std::string> readGzip(const fs::path& path, const std::atomic<bool>* cancelled)
{
    auto stream = data::InputStream::open(path, data::Compression::kGzip);
    if (!stream)
        return unexpected(stream.error());
    std::string bytes;
    for (;;) {
        if (isCancelled(cancelled))
            return unexpected(cancelledStatus(path));
        auto n = (*stream)->read(kChunkBytes, &bytes);
        if (!n)
            return unexpected(n.error());
        if (bytes.size() > kMaxTraceFileBytes)
            return unexpected(tooLarge(path, "inflates to"));
        if (*n < kChunkBytes)
            break;
    }
    bytes.reserve(bytes.size() + kPadding + 1);
    return bytes;
}

/// An object or array opening followed by what JSON allows there (a key, a value's start, a close).
/// The opening alone is not enough: a binary RunMetadata or ProfileProto starts with field 1's tag
/// '\n' and its length, which is '[' or '{' when that field is 91 or 123 bytes long.
bool looksLikeJson(const std::string& bytes)
{
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || (bytes[first] != '{' && bytes[first] != '['))
        return false;
    const std::size_t next = bytes.find_first_not_of(" \t\r\n", first + 1);
    if (next == std::string::npos)
        return true; // truncated JSON: the parser says what is missing
    const char c = bytes[next];
    if (bytes[first] == '{')
        return c == '"' || c == '}';
    return c == '{' || c == '[' || c == ']' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' ||
           c == 'f' || c == 'n';
}

bool hasUtf8Bom(const std::string& bytes)
{
    return bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xef &&
           static_cast<unsigned char>(bytes[1]) == 0xbb && static_cast<unsigned char>(bytes[2]) == 0xbf;
}

/// "step_<N>" -> N.
std::optional<std::int64_t> stepFromTag(std::string_view tag)
{
    if (tag.size() <= 5 || tag.substr(0, 5) != "step_")
        return std::nullopt;
    std::int64_t step = 0;
    const auto result = std::from_chars(tag.data() + 5, tag.data() + tag.size(), step);
    if (result.ec != std::errc() || result.ptr != tag.data() + tag.size())
        return std::nullopt;
    return step;
}

/// The traced steps of an event file or log directory.
Expected<ProfileTrace> readEventTrace(const fs::path& path, const std::atomic<bool>* cancelled)
{
    auto graphs = events::readEventGraphs(path, cancelled);
    if (!graphs) {
        if (graphs.error().code() == StatusCode::kCancelled)
            return unexpected(cancelledStatus(path));
        return unexpected(graphs.error());
    }
    std::vector<TracedStep> steps;
    std::string firstError;
    for (const events::EventRunMetadataRecord& record : graphs->runMetadata) {
        if (isCancelled(cancelled))
            return unexpected(cancelledStatus(path));
        auto metadata = events::parseEventRunMetadata(record);
        if (!metadata) {
            if (firstError.empty())
                firstError = metadata.error().message();
            continue;
        }
        TracedStep step;
        step.number = stepFromTag(record.tag).value_or(record.origin.step);
        step.stats = std::move(*metadata->mutable_step_stats());
        steps.push_back(std::move(step));
    }
    if (steps.empty()) {
        std::string message = quoted(path) + " holds no run metadata (tagged_run_metadata events, written by " +
                              "FileWriter.add_run_metadata or ProfilerHook) in " +
                              std::to_string(graphs->files.size()) + " event file(s)";
        if (!firstError.empty())
            message += "; the first damaged one: " + firstError;
        return unexpected(invalidArgumentError(message));
    }
    return traceFromStepStats(steps);
}

Expected<ProfileTrace> readRunMetadata(const fs::path& path, const std::string& bytes)
{
    tensorflow::RunMetadata metadata;
    bool wasText = false;
    Status parsed = parseTextOrBinaryProto(bytes, quoted(path), "tensorflow.RunMetadata", metadata, &wasText);
    if (!wasText && (!parsed.isOk() || metadata.step_stats().dev_stats_size() == 0)) {
        // tfprof's ProfileProto (Profiler.serialize_to_string, ProfileContext's "profile_<step>").
        tensorflow::tfprof::ProfileProto profile;
        if (parseProfileProto(bytes, profile))
            return traceFromProfileProto(profile, quoted(path));
    }
    if (Status s = parsed; !s.isOk()) {
        // A bare StepStats (what TensorFlow's timeline examples save): its devices must all be named.
        tensorflow::StepStats stats;
        if (!wasText && parseBinaryProto(bytes, stats) && stats.dev_stats_size() > 0 &&
            std::all_of(stats.dev_stats().begin(), stats.dev_stats().end(),
                        [](const tensorflow::DeviceStepStats& d) { return !d.device().empty(); }))
            return traceFromStepStats(stats, 0);
        return unexpected(invalidArgumentError(quoted(path) + " is not a trace: expected Chrome trace JSON (plain " +
                                               "or gzip), an event file or a RunMetadata protobuf (" + s.message() +
                                               ")"));
    }
    if (metadata.step_stats().dev_stats_size() == 0)
        return unexpected(invalidArgumentError(quoted(path) + " is a RunMetadata without step_stats: the run was " +
                                               "not traced (RunOptions.trace_level FULL_TRACE)"));
    return traceFromStepStats(metadata.step_stats(), 0);
}

} // namespace

Expected<ProfileTrace> readTraceFile(const fs::path& path, const std::atomic<bool>* cancelled)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return unexpected(notFoundError("trace file " + quoted(path) + " does not exist"));
    if (fs::is_directory(status))
        return readEventTrace(path, cancelled);
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec)
        return unexpected(fileErrorStatus("cannot read trace file", path, ec.value()));
    if (size > kMaxTraceFileBytes)
        return unexpected(tooLarge(path, "holds"));
    if (size == 0)
        return unexpected(invalidArgumentError("trace file " + quoted(path) + " is empty"));

    char head[record::kHeaderSize] = {};
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return unexpected(fileErrorStatus("cannot open trace file", path, errno ? errno : EIO));
        in.read(head, sizeof head);
    }
    const bool gzip =
        size >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b;
    if (!gzip && size >= record::kHeaderSize && record::decodeHeader(std::string_view(head, sizeof head)))
        return readEventTrace(path, cancelled);

    auto bytes = gzip ? readGzip(path, cancelled) : readPlain(path, size, cancelled);
    if (!bytes)
        return unexpected(bytes.error());
    if (hasUtf8Bom(*bytes))
        bytes->erase(0, 3);
    if (looksLikeJson(*bytes))
        return parseChromeTrace(std::move(*bytes), path.string());
    if (gzip && bytes->empty())
        return unexpected(invalidArgumentError("trace file " + quoted(path) + " is an empty gzip stream"));
    return readRunMetadata(path, *bytes);
}

Status writeChromeTraceFile(const ProfileTrace& trace, const fs::path& path, const ChromeTraceOptions& options)
{
    return writeFileAtomically(path, chromeTraceJson(trace, options));
}

} // namespace tstudio::profiler
