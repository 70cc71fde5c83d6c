// The event file format: TFRecords of Event protos (their first record names "brain.Event:N"), and
// log directories holding them in run subdirectories, as TensorBoard reads them. Their graphs are the
// graph_def and meta_graph_def events, the last one by default.
#include "io/formats/formats.h"

#include "io/events/event_file_discovery.h"
#include "io/events/event_graphs.h"
#include "io/formats/probe_file.h"
#include "io/formats/probe_support.h"
#include "proto/event.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"

#include <algorithm>

namespace tstudio::formats {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxDirEntries = 100000;

bool probeFile(ProbeFile& file, const FileKindDetectorOptions& options, FileKindReport& report)
{
    const FirstRecord first = readFirstRecord(file, options);
    if (first.state != FirstRecord::kRead)
        return false;
    tensorflow::Event event;
    if (!event.ParseFromString(first.data) || !event.file_version().starts_with("brain.Event:"))
        return false;
    report.kind = FileKind::kEventFile;
    report.eventFileVersion = event.file_version();
    report.detail = "event file, version " + event.file_version();
    return true;
}

bool probeDirectory(const fs::path& dir, const FileKindDetectorOptions& options, FileKindReport& report)
{
    auto listing = events::findEventFiles(dir, {.maxDepth = options.maxLogDirDepth, .maxEntries = kMaxDirEntries});
    if (!listing || listing->runs.empty())
        return false;
    for (const auto& [run, files] : listing->runs)
        for (const fs::path& file : files)
            report.eventFiles.push_back(file.lexically_relative(dir).generic_string());
    std::sort(report.eventFiles.begin(), report.eventFiles.end());
    report.kind = FileKind::kEventLogDir;
    report.detail = "log directory with " + plural(static_cast<std::int64_t>(report.eventFiles.size()), "event file") +
                    " in " + plural(static_cast<std::int64_t>(listing->runs.size()), "run");
    if (auto prefix = newestCheckpointPrefix(dir)) {
        report.checkpointPrefix = *prefix;
        report.detail += "; also holds checkpoint " + quotePath(fs::path(*prefix).filename());
    }
    return true;
}

/// The listing the detector found, so the log directory is not walked again.
events::EventFileListing listingOf(const FileKindReport& report)
{
    events::EventFileListing listing;
    for (const std::string& relative : report.eventFiles) {
        const fs::path file = report.path / relative;
        std::string run = fs::path(relative).parent_path().generic_string();
        listing.runs[run.empty() ? "." : run].push_back(file);
    }
    for (auto& [run, files] : listing.runs)
        std::sort(files.begin(), files.end(),
                  [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    return listing;
}

Expected<OpenedGraph> open(const FileKindReport& report, const OpenGraphOptions& options)
{
    const fs::path& path = report.path;
    auto records = report.kind == FileKind::kEventLogDir && !report.eventFiles.empty()
                       ? events::readEventGraphs(path, listingOf(report), options.cancelled)
                       : events::readEventGraphs(path, options.cancelled);
    if (!records)
        return unexpected(records.error());
    OpenedGraph out;
    out.kind = report.kind;
    for (const auto& w : records->warnings)
        out.warnings.push_back(w.file + " at byte " + std::to_string(w.offset) + ": " + w.message);
    // Every graph_def and meta_graph_def record is a choice, in file order.
    struct Entry {
        const events::EventGraphRecord* record;
        bool meta;
    };
    std::vector<Entry> entries;
    for (const auto& r : records->graphs)
        entries.push_back({&r, false});
    for (const auto& r : records->metaGraphs)
        entries.push_back({&r, true});
    if (entries.empty()) {
        // A damaged record may be where the graph was: "holds no graph" alone would mislead.
        if (!out.warnings.empty())
            return unexpected(dataLossError(
                "'" + path.string() + "' holds no readable graph: it is damaged (" + out.warnings.front() + ")" +
                (out.warnings.size() > 1 ? " and has " + std::to_string(out.warnings.size() - 1) + " more damaged part(s)"
                                         : std::string())));
        return unexpected(invalidArgumentError("'" + path.string() + "' holds no graph: none of its " +
                                               std::to_string(records->files.size()) +
                                               " event file(s) has a graph_def or meta_graph_def event"));
    }
    for (const auto& e : entries) {
        std::string label = e.record->origin.run == "." ? std::string() : e.record->origin.run + ": ";
        label += (e.meta ? "meta_graph_def at step " : "graph_def at step ") + std::to_string(e.record->origin.step);
        out.choices.push_back(std::move(label));
    }
    const int count = static_cast<int>(entries.size());
    out.chosen = options.choice >= 0 && options.choice < count ? options.choice : count - 1;
    const Entry& entry = entries[static_cast<std::size_t>(out.chosen)];
    if (entry.meta) {
        auto meta = events::parseEventMetaGraph(*entry.record);
        if (!meta)
            return unexpected(meta.error());
        out.graph = std::make_shared<const tensorflow::GraphDef>(std::move(*meta->mutable_graph_def()));
    } else {
        auto graph = events::parseEventGraph(*entry.record);
        if (!graph)
            return unexpected(graph.error());
        out.graph = std::make_shared<const tensorflow::GraphDef>(std::move(*graph));
    }
    out.runMetadata = std::move(records->runMetadata);
    if (out.choices.size() < 2)
        out.choices.clear();
    return out;
}

} // namespace

const FormatModule& eventFileFormat()
{
    static const FormatModule module{
        .name = "event-file",
        .kinds = {{FileKind::kEventFile, "event-file", "Event file", Viewer::kGraph},
                  {FileKind::kEventLogDir, "event-logdir", "Event log directory", Viewer::kDashboard}},
        .probeFile = probeFile,
        .probeDirectory = probeDirectory,
        .openGraph = open,
    };
    return module;
}

} // namespace tstudio::formats
