// The V2 checkpoint format (tensor bundles): a prefix with PREFIX.index and PREFIX.data-NNNNN-of-MMMMM,
// recognised from the index, a data shard, the prefix itself or a directory holding checkpoints. Its
// graph is the MetaGraph saved beside it (PREFIX.meta), as tf.train.Saver writes it.
#include "io/formats/formats.h"

#include "io/checkpoint/checkpoint_state.h"
#include "io/formats/probe_file.h"
#include "io/formats/probe_support.h"
#include "io/formats/table_summary.h"
#include "proto/tensor_bundle.pb.h"

#include <cstdio>
#include <map>

namespace tstudio::formats {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxDirEntries = 100000;

bool indexExists(const std::string& prefix)
{
    std::error_code ec;
    return fs::is_regular_file(prefix + ".index", ec);
}

std::string shardName(const std::string& prefix, int shard, int count)
{
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".data-%05d-of-%05d", shard, count);
    return prefix + suffix;
}

/// Fills a report for the checkpoint whose index is `file`.
void describeIndex(ProbeFile& file, const std::string& prefix, FileKindReport& report)
{
    // Where each shard's last tensor ends, so that a shard cut short is caught here rather than
    // when a value is first read.
    struct ShardEnd {
        std::uint64_t end = 0;
        std::string tensor;
    };
    std::map<int, ShardEnd> shardEnds;
    auto summary = summarizeTable(file, [&](std::string_view key, std::string_view value) {
        tensorflow::BundleEntryProto entry;
        if (!entry.ParseFromArray(value.data(), static_cast<int>(value.size())) || entry.slices_size() > 0 ||
            entry.offset() < 0 || entry.size() < 0)
            return; // a damaged entry is the reader's to report, naming its tensor
        const std::uint64_t end = static_cast<std::uint64_t>(entry.offset()) + static_cast<std::uint64_t>(entry.size());
        ShardEnd& shard = shardEnds[entry.shard_id()];
        if (end > shard.end)
            shard = {end, std::string(key)};
    });
    if (!summary) {
        report.detail = "checkpoint index " + quotePath(file.path()) + " is damaged: " + summary.error().message();
        return;
    }
    tensorflow::BundleHeaderProto header;
    if (!summary->hasHeader || !header.ParseFromString(summary->headerValue)) {
        report.detail = "table " + quotePath(file.path()) + " has no checkpoint bundle header";
        return;
    }
    report.kind = FileKind::kCheckpoint;
    report.checkpointPrefix = prefix;
    report.shardCount = header.num_shards();
    report.tensorCount = summary->entries;
    std::uint64_t total = file.size();
    std::vector<std::string> missing;
    for (int shard = 0; shard < header.num_shards(); ++shard) {
        const std::string name = shardName(prefix, shard, header.num_shards());
        std::error_code ec;
        if (fs::is_regular_file(name, ec)) {
            const std::uint64_t size = fileSizeOr0(name);
            total += size;
            if (auto it = shardEnds.find(shard); it != shardEnds.end() && it->second.end > size) {
                report.kind = FileKind::kUnknown;
                report.checkpointPrefix.clear();
                report.shardCount.reset();
                report.tensorCount.reset();
                report.detail = "checkpoint data shard " + quotePath(fs::path(name).filename()) + " is truncated: " +
                                "it holds " + std::to_string(size) + " bytes, but the index places tensor '" +
                                it->second.tensor + "' up to byte " + std::to_string(it->second.end) +
                                " (a copy or download was cut short: copy the whole checkpoint again)";
                return;
            }
        } else
            missing.push_back(fs::path(name).filename().string());
    }
    if (!report.isDirectory)
        report.sizeBytes = total;
    report.detail = "V2 checkpoint " + quotePath(fs::path(prefix).filename()) + " with " +
                    plural(summary->entries, "tensor") + " in " + plural(header.num_shards(), "data shard");
    if (!missing.empty())
        report.detail += "; missing: " + missing.front() + (missing.size() > 1 ? " and others" : "");
}

void describePrefix(const std::string& prefix, FileKindReport& report)
{
    auto file = ProbeFile::open(prefix + ".index");
    if (!file) {
        report.detail = file.error().message();
        return;
    }
    describeIndex(*file, prefix, report);
}

/// The prefix of a name like `model.ckpt-1.data-00000-of-00001`.
std::optional<std::string> dataShardPrefix(const fs::path& path)
{
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

bool probeFile(ProbeFile& file, const FileKindDetectorOptions&, FileKindReport& report)
{
    if (hasTableMagic(file)) {
        std::string prefix = file.path().string();
        if (prefix.ends_with(".index"))
            prefix.resize(prefix.size() - 6);
        describeIndex(file, prefix, report);
        return true;
    }
    // A data shard holds raw tensor bytes: only its name and its .index can tell.
    if (auto prefix = dataShardPrefix(file.path())) {
        if (indexExists(*prefix)) {
            describePrefix(*prefix, report);
            if (report.kind == FileKind::kCheckpoint)
                report.detail = "data shard of " + report.detail;
        } else {
            report.detail = "looks like a checkpoint data shard, but " +
                            quotePath(fs::path(*prefix + ".index").filename()) + " is missing";
        }
        return true;
    }
    return false;
}

/// The newest V2 checkpoint prefix in `dir`: the state file's, else the newest `.index`.
std::optional<std::string> newestPrefix(const fs::path& dir)
{
    if (auto state = readCheckpointState(dir); state && indexExists(state->model_checkpoint_path()))
        return state->model_checkpoint_path();
    std::optional<std::string> newest;
    fs::file_time_type newestTime{};
    std::size_t seen = 0;
    std::error_code ec;
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

bool probeDirectory(const fs::path& dir, const FileKindDetectorOptions&, FileKindReport& report)
{
    const auto prefix = newestPrefix(dir);
    if (!prefix)
        return false;
    describePrefix(*prefix, report);
    if (report.kind == FileKind::kCheckpoint)
        report.detail = "directory with " + report.detail;
    return true;
}

bool probeMissing(const fs::path& path, FileKindReport& report)
{
    if (!indexExists(path.string()))
        return false;
    describePrefix(path.string(), report);
    return true;
}

bool holdsGraph(const FileKindReport& report)
{
    std::error_code ec;
    return !report.checkpointPrefix.empty() && fs::is_regular_file(report.checkpointPrefix + ".meta", ec);
}

Expected<OpenedGraph> open(const FileKindReport& report, const OpenGraphOptions& options)
{
    const std::string& prefix = report.checkpointPrefix;
    if (!holdsGraph(report))
        return unexpected(invalidArgumentError("checkpoint '" + report.path.string() + "' has no graph: there is no " +
                                               (prefix.empty() ? std::string("PREFIX") : prefix) + ".meta beside it"));
    auto meta = detectFileKind(prefix + ".meta");
    if (!meta)
        return unexpected(meta.error());
    if (meta->kind != FileKind::kMetaGraphDef && meta->kind != FileKind::kMetaGraphDefText)
        return unexpected(dataLossError("'" + prefix + ".meta' beside checkpoint '" + report.path.string() +
                                        "' is not a MetaGraphDef: " + meta->detail));
    auto opened = metaGraphFormat().openGraph(*meta, options);
    if (!opened)
        return unexpected(opened.error());
    opened->kind = FileKind::kCheckpoint;
    opened->checkpointPrefix = prefix;
    return opened;
}

} // namespace

std::optional<std::string> newestCheckpointPrefix(const fs::path& dir) { return newestPrefix(dir); }

const FormatModule& checkpointFormat()
{
    static const FormatModule module{
        .name = "checkpoint-v2",
        .kinds = {{FileKind::kCheckpoint, "checkpoint", "Checkpoint (V2)", Viewer::kGraph}},
        .probeFile = probeFile,
        .probeDirectory = probeDirectory,
        .probeMissing = probeMissing,
        .openGraph = open,
        .holdsGraph = holdsGraph,
    };
    return module;
}

} // namespace tstudio::formats
