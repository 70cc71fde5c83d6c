// File-kind detection: content first (record framing, table magic, protobuf structure, text
// format), TensorFlow's naming only where content cannot tell (a checkpoint's .data shards).
#include "io/file_kind_detector.h"

#include "core/log.h"
#include "io/record_framing.h"
#include "io/table_format.h"
#include "proto/checkpoint_state.pb.h"
#include "proto/event.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "proto/tensor_bundle.pb.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace tstudio {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeadBytes = 64 * 1024;
constexpr std::size_t kMaxDirEntries = 100000;

std::string quotePath(const fs::path& p) { return "'" + p.string() + "'"; }

std::string plural(std::int64_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// An open file with its size, read in ranges.
class FileReader {
public:
    static Expected<FileReader> open(const fs::path& path)
    {
        std::error_code ec;
        const auto size = fs::file_size(path, ec);
        if (ec)
            return unexpected(unavailableError("cannot get the size of " + quotePath(path) + ": " + ec.message()));
        FileReader reader;
        reader.m_size = size;
        reader.m_stream.open(path, std::ios::binary);
        if (!reader.m_stream) {
            const int err = errno;
            if (err == EACCES || err == EPERM)
                return unexpected(permissionDeniedError("cannot read " + quotePath(path) + ": " + std::strerror(err)));
            return unexpected(unavailableError("cannot open " + quotePath(path) + ": " + std::strerror(err ? err : EIO)));
        }
        return reader;
    }

    std::uint64_t size() const { return m_size; }
    std::ifstream& stream() { return m_stream; }

    /// Up to `n` bytes from `offset` (fewer at the end of the file).
    std::string read(std::uint64_t offset, std::uint64_t n)
    {
        if (offset >= m_size)
            return {};
        n = std::min(n, m_size - offset);
        std::string out(n, '\0');
        m_stream.clear();
        m_stream.seekg(static_cast<std::streamoff>(offset));
        m_stream.read(out.data(), static_cast<std::streamsize>(n));
        out.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, m_stream.gcount())));
        return out;
    }

private:
    std::ifstream m_stream;
    std::uint64_t m_size = 0;
};

bool looksLikeText(std::string_view head)
{
    for (unsigned char c : head) {
        if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v'))
            return false;
    }
    return !head.empty();
}

/// A JSON object whose "format" member is "tensorstudio-project" (project/project_file.h holds the
/// real parser; the detector only probes, with no JSON library in the engine).
bool isProjectJson(std::string_view text)
{
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    std::size_t i = 0;
    while (i < text.size() && isSpace(text[i]))
        ++i;
    if (i == text.size() || text[i] != '{')
        return false;
    constexpr std::string_view kKey = "\"format\"";
    for (std::size_t at = text.find(kKey, i); at != std::string_view::npos; at = text.find(kKey, at + 1)) {
        std::size_t j = at + kKey.size();
        while (j < text.size() && isSpace(text[j]))
            ++j;
        if (j == text.size() || text[j] != ':')
            continue;
        ++j;
        while (j < text.size() && isSpace(text[j]))
            ++j;
        if (text.substr(j).starts_with("\"tensorstudio-project\""))
            return true;
    }
    return false;
}

/// The start of a Chrome trace: an object whose first member is "traceEvents" (as TensorFlow's
/// timeline, Perfetto and chrome://tracing write it), or an array whose first element is an object
/// with a "ph" member (the array form of the Trace Event Format). Only the head is looked at, so a
/// trace of any size is recognised without reading it.
bool isChromeTraceHead(std::string_view head)
{
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    auto skip = [&](std::size_t i) {
        while (i < head.size() && isSpace(head[i]))
            ++i;
        return i;
    };
    std::size_t i = skip(0);
    if (i == head.size())
        return false;
    if (head[i] == '{')
        return head.substr(skip(i + 1)).starts_with("\"traceEvents\"");
    if (head[i] != '[')
        return false;
    i = skip(i + 1);
    if (i == head.size() || head[i] != '{')
        return false;
    const std::size_t close = head.find('}', i);
    return head.substr(i, close == std::string_view::npos ? std::string_view::npos : close - i).find("\"ph\"") !=
           std::string_view::npos;
}

bool isNodeNameChar(char c, bool first)
{
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (first)
        return alnum || c == '.' || c == '_';
    return alnum || c == '_' || c == '.' || c == '-' || c == '/' || c == '>';
}

bool isValidName(const std::string& name)
{
    if (name.empty())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (!isNodeNameChar(name[i], i == 0))
            return false;
    return true;
}

bool hasUnknownFields(const google::protobuf::Message& message)
{
    return !message.GetReflection()->GetUnknownFields(message).empty();
}

/// A graph is plausible when every node has a well-formed name and op, and it says something.
bool plausibleGraph(const tensorflow::GraphDef& graph)
{
    if (hasUnknownFields(graph))
        return false;
    for (const auto& node : graph.node())
        if (!isValidName(node.name()) || !isValidName(node.op()))
            return false;
    return graph.node_size() > 0 || graph.has_versions() || graph.library().function_size() > 0;
}

void addGraphFacts(const tensorflow::GraphDef& graph, FileKindReport& report)
{
    report.nodeCount = graph.node_size();
    report.functionCount = graph.library().function_size();
    if (graph.has_versions())
        report.producerVersion = graph.versions().producer();
}

void addMetaGraphFacts(const tensorflow::MetaGraphDef& meta, FileKindReport& report)
{
    addGraphFacts(meta.graph_def(), report);
    report.tensorflowVersion = meta.meta_info_def().tensorflow_version();
    for (const auto& tag : meta.meta_info_def().tags())
        report.tags.push_back(tag);
}

bool plausibleMetaGraph(const tensorflow::MetaGraphDef& meta)
{
    return !hasUnknownFields(meta) && meta.has_graph_def() && meta.graph_def().node_size() > 0 &&
           plausibleGraph(meta.graph_def());
}

bool plausibleSavedModel(const tensorflow::SavedModel& model)
{
    if (hasUnknownFields(model) || model.meta_graphs_size() == 0 || model.saved_model_schema_version() < 0 ||
        model.saved_model_schema_version() > 1)
        return false;
    return std::all_of(model.meta_graphs().begin(), model.meta_graphs().end(),
                       [](const auto& meta) { return plausibleMetaGraph(meta); });
}

void addSavedModelFacts(const tensorflow::SavedModel& model, FileKindReport& report)
{
    report.metaGraphCount = model.meta_graphs_size();
    const auto& first = model.meta_graphs(0);
    addGraphFacts(first.graph_def(), report);
    report.tensorflowVersion = first.meta_info_def().tensorflow_version();
    for (const auto& meta : model.meta_graphs()) {
        std::string joined;
        for (const auto& tag : meta.meta_info_def().tags())
            joined += (joined.empty() ? "" : ",") + tag;
        report.tags.push_back(joined);
    }
}

std::string graphSummary(const FileKindReport& r)
{
    std::string s = plural(r.nodeCount.value_or(0), "node");
    if (r.functionCount.value_or(0) > 0)
        s += ", " + plural(*r.functionCount, "function");
    if (r.producerVersion)
        s += ", producer " + std::to_string(*r.producerVersion);
    return s;
}

/// Parses a whole binary protobuf file as SavedModel, MetaGraphDef or GraphDef, in that order:
/// their top-level fields differ in number or wire type, so a wrong guess leaves unknown fields.
bool probeBinaryProtobuf(const std::string& bytes, FileKindReport& report)
{
    // A wrong guess is expected here; protobuf would otherwise log each failed parse to stderr.
    google::protobuf::LogSilencer silence;
    {
        tensorflow::SavedModel model;
        if (model.ParseFromString(bytes) && plausibleSavedModel(model)) {
            report.kind = FileKind::kSavedModel;
            addSavedModelFacts(model, report);
            report.detail = "SavedModel with " + plural(model.meta_graphs_size(), "meta graph") + "; first graph: " +
                            graphSummary(report);
            return true;
        }
    }
    {
        tensorflow::MetaGraphDef meta;
        if (meta.ParseFromString(bytes) && plausibleMetaGraph(meta)) {
            report.kind = FileKind::kMetaGraphDef;
            addMetaGraphFacts(meta, report);
            report.detail = "MetaGraphDef with " + graphSummary(report);
            if (!report.tensorflowVersion.empty())
                report.detail += ", written by TensorFlow " + report.tensorflowVersion;
            return true;
        }
    }
    {
        tensorflow::GraphDef graph;
        if (graph.ParseFromString(bytes) && plausibleGraph(graph)) {
            report.kind = FileKind::kGraphDef;
            addGraphFacts(graph, report);
            report.detail = "GraphDef with " + graphSummary(report);
            return true;
        }
    }
    return false;
}

/// Swallows text-format parse errors: a failed parse only means "not this message type".
class SilentErrorCollector : public google::protobuf::io::ErrorCollector {
public:
    void AddError(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
    void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
};

bool parseText(const std::string& text, google::protobuf::Message& message)
{
    SilentErrorCollector errors;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&errors);
    return parser.ParseFromString(text, &message);
}

bool probeTextProtobuf(const std::string& text, FileKindReport& report)
{
    {
        tensorflow::GraphDef graph;
        if (parseText(text, graph) && plausibleGraph(graph)) {
            report.kind = FileKind::kGraphDefText;
            addGraphFacts(graph, report);
            report.detail = "text-format GraphDef with " + graphSummary(report);
            return true;
        }
    }
    {
        tensorflow::MetaGraphDef meta;
        if (parseText(text, meta) && plausibleMetaGraph(meta)) {
            report.kind = FileKind::kMetaGraphDefText;
            addMetaGraphFacts(meta, report);
            report.detail = "text-format MetaGraphDef with " + graphSummary(report);
            return true;
        }
    }
    {
        tensorflow::SavedModel model;
        if (parseText(text, model) && plausibleSavedModel(model)) {
            report.kind = FileKind::kSavedModel;
            addSavedModelFacts(model, report);
            report.detail = "text-format SavedModel with " + plural(model.meta_graphs_size(), "meta graph");
            return true;
        }
    }
    return false;
}

std::uint64_t fileSizeOr0(const fs::path& p)
{
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    return ec ? 0 : size;
}

std::string shardName(const std::string& prefix, int shard, int count)
{
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".data-%05d-of-%05d", shard, count);
    return prefix + suffix;
}

/// Reads a table file's entries: counts tensors and decodes the bundle header (key "").
struct TableSummary {
    bool hasHeader = false;
    char headerFirstByte = 0;
    std::string headerValue;
    std::int64_t entries = 0;
};

Expected<TableSummary> summarizeTable(FileReader& file)
{
    if (file.size() < table::kFooterSize)
        return unexpected(dataLossError("file is shorter than a table footer"));
    auto footer = table::decodeFooter(file.read(file.size() - table::kFooterSize, table::kFooterSize));
    if (!footer)
        return unexpected(footer.error());
    auto indexBlock = table::readBlock(file.stream(), file.size(), footer->index);
    if (!indexBlock)
        return unexpected(indexBlock.error().withContext("index block"));
    TableSummary summary;
    Status inner;
    Status outer = table::forEachEntry(*indexBlock, [&](std::string_view, std::string_view handleBytes) {
        auto handle = table::decodeBlockHandle(handleBytes);
        if (!handle) {
            inner = handle.error();
            return false;
        }
        auto block = table::readBlock(file.stream(), file.size(), *handle);
        if (!block) {
            inner = block.error();
            return false;
        }
        inner = table::forEachEntry(*block, [&](std::string_view key, std::string_view value) {
            if (key.empty()) {
                summary.hasHeader = true;
                summary.headerValue = std::string(value);
                summary.headerFirstByte = value.empty() ? 0 : value.front();
            } else {
                ++summary.entries;
            }
            return true;
        });
        return inner.isOk();
    });
    if (!outer.isOk())
        return unexpected(outer);
    if (!inner.isOk())
        return unexpected(inner);
    return summary;
}

/// Fills a report for the V2 checkpoint whose index file is `indexPath`.
void probeCheckpointIndex(const fs::path& indexPath, const std::string& prefix, FileKindReport& report)
{
    auto file = FileReader::open(indexPath);
    if (!file) {
        report.detail = file.error().message();
        return;
    }
    auto summary = summarizeTable(*file);
    if (!summary) {
        report.detail = "checkpoint index " + quotePath(indexPath) + " is damaged: " + summary.error().message();
        return;
    }
    tensorflow::BundleHeaderProto header;
    if (!summary->hasHeader || !header.ParseFromString(summary->headerValue)) {
        report.detail = "table " + quotePath(indexPath) + " has no checkpoint bundle header";
        return;
    }
    report.kind = FileKind::kCheckpoint;
    report.checkpointPrefix = prefix;
    report.shardCount = header.num_shards();
    report.tensorCount = summary->entries;
    std::uint64_t total = file->size();
    std::vector<std::string> missing;
    for (int shard = 0; shard < header.num_shards(); ++shard) {
        const std::string name = shardName(prefix, shard, header.num_shards());
        std::error_code ec;
        if (fs::is_regular_file(name, ec))
            total += fileSizeOr0(name);
        else
            missing.push_back(fs::path(name).filename().string());
    }
    if (!report.isDirectory)
        report.sizeBytes = total;
    report.detail = "V2 checkpoint " + quotePath(fs::path(prefix).filename()) + " with " +
                    plural(summary->entries, "tensor") + " in " + plural(header.num_shards(), "data shard");
    if (!missing.empty())
        report.detail += "; missing: " + missing.front() + (missing.size() > 1 ? " and others" : "");
}

/// The prefix and shard of a name like `model.ckpt-1.data-00000-of-00001`.
std::optional<std::string> dataShardPrefix(const fs::path& path)
{
    // "<prefix>.data-" then 5 digits, "-of-", 5 digits, at the end (plain parsing: std::regex in
    // this file set off GCC 12's -Wmaybe-uninitialized under AddressSanitizer).
    const std::string s = path.string();
    constexpr std::string_view kTail = ".data-00000-of-00000";
    if (s.size() <= kTail.size())
        return std::nullopt;
    const std::string_view tail = std::string_view(s).substr(s.size() - kTail.size());
    for (std::size_t i = 0; i < kTail.size(); ++i) {
        const bool digit = tail[i] >= '0' && tail[i] <= '9';
        if (kTail[i] == '0' ? !digit : tail[i] != kTail[i])
            return std::nullopt;
    }
    return s.substr(0, s.size() - kTail.size());
}

std::optional<tensorflow::CheckpointState> parseCheckpointState(const std::string& text)
{
    tensorflow::CheckpointState state;
    if (parseText(text, state) && !state.model_checkpoint_path().empty())
        return state;
    return std::nullopt;
}

std::string resolvePrefix(const fs::path& dir, const std::string& prefix)
{
    const fs::path p(prefix);
    return p.is_absolute() ? p.string() : (dir / p).string();
}

bool indexExists(const std::string& prefix)
{
    std::error_code ec;
    return fs::is_regular_file(prefix + ".index", ec);
}

void probeFirstRecord(FileReader& file, std::uint64_t length, const FileKindDetectorOptions& options,
                      FileKindReport& report)
{
    const std::uint64_t needed = record::kHeaderSize + length + record::kFooterSize;
    if (length > file.size() || needed > file.size()) {
        report.detail = "truncated TFRecord: the first record declares " + std::to_string(length) +
                        " bytes but the file holds " + std::to_string(file.size());
        return;
    }
    if (length > options.maxFirstRecordBytes) {
        report.kind = FileKind::kTfRecord;
        report.detail = "TFRecord file (first record of " + std::to_string(length) + " bytes not inspected)";
        return;
    }
    const std::string data = file.read(record::kHeaderSize, length);
    const std::string crc = file.read(record::kHeaderSize + length, record::kFooterSize);
    if (!record::checkData(data, crc)) {
        report.detail = "corrupted TFRecord: the first record's data checksum does not match";
        return;
    }
    tensorflow::Event event;
    if (event.ParseFromString(data) && event.file_version().rfind("brain.Event:", 0) == 0) {
        report.kind = FileKind::kEventFile;
        report.eventFileVersion = event.file_version();
        report.detail = "event file, version " + event.file_version();
        return;
    }
    report.kind = FileKind::kTfRecord;
    report.detail = "TFRecord file; first record is " + std::to_string(length) + " bytes";
}

Expected<FileKindReport> detectRegularFile(const fs::path& path, const FileKindDetectorOptions& options)
{
    FileKindReport report;
    report.path = path;
    auto opened = FileReader::open(path);
    if (!opened)
        return unexpected(opened.error());
    FileReader& file = *opened;
    report.sizeBytes = file.size();
    if (file.size() == 0) {
        report.detail = "empty file";
        return report;
    }
    const std::string head = file.read(0, kHeadBytes);

    // 1. TFRecord framing: the length's CRC makes a false match a 1-in-4-billion event.
    if (auto length = record::decodeHeader(head)) {
        probeFirstRecord(file, *length, options, report);
        return report;
    }

    // 2. LevelDB table: a checkpoint index (V2) or a V1 checkpoint.
    if (file.size() >= table::kFooterSize && table::hasMagic(file.read(file.size() - 8, 8))) {
        const std::string s = path.string();
        const bool indexName = s.size() > 6 && s.ends_with(".index");
        auto summary = summarizeTable(file);
        if (summary && summary->hasHeader && summary->headerFirstByte == 0x0a && !indexName) {
            report.kind = FileKind::kCheckpointV1;
            report.tensorCount = summary->entries;
            report.detail = "legacy V1 checkpoint table with " + plural(summary->entries, "slice entry");
            return report;
        }
        const std::string prefix = indexName ? s.substr(0, s.size() - 6) : s;
        probeCheckpointIndex(path, prefix, report);
        return report;
    }

    // 3. A checkpoint data shard holds raw tensor bytes; only its name and its .index can tell.
    if (auto prefix = dataShardPrefix(path)) {
        if (indexExists(*prefix)) {
            probeCheckpointIndex(*prefix + ".index", *prefix, report);
            if (report.kind == FileKind::kCheckpoint)
                report.detail = "data shard of " + report.detail;
        } else {
            report.detail = "looks like a checkpoint data shard, but " + quotePath(fs::path(*prefix + ".index").filename()) +
                            " is missing";
        }
        return report;
    }

    // 4. Text: a Chrome trace (by its head: traces are large), the checkpoint state file or a
    // text-format protobuf.
    if (looksLikeText(head)) {
        if (isChromeTraceHead(head)) {
            report.kind = FileKind::kChromeTrace;
            report.detail = "Chrome trace (JSON), opened in the profiler";
            return report;
        }
        if (file.size() > options.maxProtobufBytes) {
            report.detail = "text file too large to inspect (" + std::to_string(file.size()) + " bytes)";
            return report;
        }
        const std::string text = file.read(0, file.size());
        if (auto state = parseCheckpointState(text)) {
            report.kind = FileKind::kCheckpointState;
            report.checkpointPrefix = resolvePrefix(path.parent_path(), state->model_checkpoint_path());
            report.detail = "checkpoint state listing " +
                            plural(std::max(1, state->all_model_checkpoint_paths_size()), "checkpoint") +
                            "; latest " + quotePath(state->model_checkpoint_path());
            if (!indexExists(report.checkpointPrefix))
                report.detail += " (its .index is missing)";
            return report;
        }
        if (isProjectJson(text)) {
            report.kind = FileKind::kProject;
            report.detail = "TensorStudio project (JSON), trained with tstudio train";
            return report;
        }
        if (probeTextProtobuf(text, report))
            return report;
        report.detail = "text file that is not a GraphDef, MetaGraphDef, SavedModel, checkpoint state or project";
        return report;
    }

    // 5. Binary protobuf.
    if (file.size() > options.maxProtobufBytes) {
        report.detail = "file of " + std::to_string(file.size()) +
                        " bytes is larger than a protobuf message can be; not inspected";
        return report;
    }
    const std::string bytes = file.read(0, file.size());
    if (bytes.size() != file.size()) {
        report.detail = "could not read the whole file";
        return report;
    }
    if (probeBinaryProtobuf(bytes, report))
        return report;
    report.detail = "not a recognised TensorFlow file (not a GraphDef, MetaGraphDef, SavedModel, checkpoint, "
                    "event file or TFRecord; it may be truncated or corrupted)";
    return report;
}

std::uint64_t directorySize(const fs::path& dir)
{
    std::uint64_t total = 0;
    std::size_t seen = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < kMaxDirEntries; it.increment(ec), ++seen) {
        std::error_code fileEc;
        if (it->is_regular_file(fileEc))
            total += it->file_size(fileEc);
    }
    return total;
}

std::vector<std::string> findEventFiles(const fs::path& dir, int maxDepth)
{
    std::vector<std::string> found;
    std::size_t seen = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < kMaxDirEntries; it.increment(ec), ++seen) {
        if (it.depth() >= maxDepth)
            it.disable_recursion_pending();
        std::error_code fileEc;
        if (it->is_regular_file(fileEc) && it->path().filename().string().find("tfevents") != std::string::npos)
            found.push_back(fs::relative(it->path(), dir, fileEc).generic_string());
    }
    std::sort(found.begin(), found.end());
    return found;
}

/// The newest V2 checkpoint prefix in `dir`: the state file's, else the newest `.index`.
std::optional<std::string> findCheckpointPrefix(const fs::path& dir)
{
    std::error_code ec;
    const fs::path stateFile = dir / "checkpoint";
    if (fs::is_regular_file(stateFile, ec)) {
        std::ifstream in(stateFile, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (auto state = parseCheckpointState(text)) {
            const std::string prefix = resolvePrefix(dir, state->model_checkpoint_path());
            if (indexExists(prefix))
                return prefix;
        }
    }
    std::optional<std::string> newest;
    fs::file_time_type newestTime{};
    std::size_t seen = 0;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < kMaxDirEntries; it.increment(ec), ++seen) {
        const std::string name = it->path().string();
        std::error_code fileEc;
        if (!name.ends_with(".index") || !it->is_regular_file(fileEc))
            continue;
        const auto time = it->last_write_time(fileEc);
        if (!newest || time > newestTime) {
            newest = name.substr(0, name.size() - 6);
            newestTime = time;
        }
    }
    return newest;
}

Expected<FileKindReport> detectDirectory(const fs::path& dir, const FileKindDetectorOptions& options)
{
    FileKindReport report;
    report.path = dir;
    report.isDirectory = true;
    report.sizeBytes = directorySize(dir);
    std::error_code ec;

    for (const char* name : {"saved_model.pb", "saved_model.pbtxt"}) {
        if (!fs::is_regular_file(dir / name, ec))
            continue;
        auto inner = detectRegularFile(dir / name, options);
        if (!inner)
            return unexpected(inner.error());
        if (inner->kind != FileKind::kSavedModel) {
            report.detail = std::string(name) + " is not a valid SavedModel: " + inner->detail;
            return report;
        }
        FileKindReport result = std::move(*inner);
        result.path = dir;
        result.isDirectory = true;
        result.sizeBytes = report.sizeBytes;
        if (indexExists((dir / "variables" / "variables").string()))
            result.checkpointPrefix = (dir / "variables" / "variables").string();
        result.detail += result.checkpointPrefix.empty() ? "; no variables" : "; with variables";
        return result;
    }

    report.eventFiles = findEventFiles(dir, options.maxLogDirDepth);
    const auto prefix = findCheckpointPrefix(dir);
    if (!report.eventFiles.empty()) {
        report.kind = FileKind::kEventLogDir;
        std::vector<std::string> runs;
        for (const auto& file : report.eventFiles) {
            const auto parent = fs::path(file).parent_path().generic_string();
            const std::string run = parent.empty() ? "." : parent;
            if (std::find(runs.begin(), runs.end(), run) == runs.end())
                runs.push_back(run);
        }
        report.detail = "log directory with " + plural(static_cast<std::int64_t>(report.eventFiles.size()), "event file") +
                        " in " + plural(static_cast<std::int64_t>(runs.size()), "run");
        if (prefix) {
            report.checkpointPrefix = *prefix;
            report.detail += "; also holds checkpoint " + quotePath(fs::path(*prefix).filename());
        }
        return report;
    }
    if (prefix) {
        probeCheckpointIndex(*prefix + ".index", *prefix, report);
        if (report.kind == FileKind::kCheckpoint)
            report.detail = "directory with " + report.detail;
        return report;
    }
    report.detail = "directory holds no SavedModel, checkpoint or event files";
    return report;
}

} // namespace

Expected<FileKindReport> detectFileKind(const fs::path& path, const FileKindDetectorOptions& options)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        return unexpected(unavailableError("cannot access " + quotePath(path) + ": " + ec.message()));
    if (fs::is_directory(status)) {
        auto report = detectDirectory(path, options);
        if (report)
            logDebug("io", "detected " + std::string(fileKindId(report->kind)) + ": " + path.string());
        return report;
    }
    if (fs::exists(status)) {
        if (!fs::is_regular_file(status))
            return unexpected(invalidArgumentError(quotePath(path) + " is not a regular file or directory"));
        auto report = detectRegularFile(path, options);
        if (report)
            logDebug("io", "detected " + std::string(fileKindId(report->kind)) + ": " + path.string());
        return report;
    }
    // Nothing at the path: it may be a checkpoint prefix such as `model.ckpt-1000`.
    if (indexExists(path.string())) {
        FileKindReport report;
        report.path = path;
        probeCheckpointIndex(path.string() + ".index", path.string(), report);
        return report;
    }
    return unexpected(notFoundError("no such file or directory: " + quotePath(path)));
}

} // namespace tstudio
