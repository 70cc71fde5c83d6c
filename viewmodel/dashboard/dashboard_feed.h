// DashboardFeed: the log directories a dashboard follows, re-read incrementally on a worker thread, and
// what changed since the previous read, decoded for the views (Qt-free).
#pragma once

#include "core/expected.h"
#include "dashboard/histogram_math.h"
#include "io/events/event_accumulator.h"
#include "io/events/event_graphs.h"
#include "io/events/log_directory.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace tstudio::dashboard {

/// A run's graph and the RunMetadata recorded beside it (for colouring the graph by time and memory).
struct RunGraph {
    std::shared_ptr<tensorflow::GraphDef> graph;
    std::vector<events::EventRunMetadataRecord> runMetadata;
};

/// The kept samples of one (run, tag) after a change, ready for its view: scalars as they are,
/// histograms decoded, other kinds as their serialized values (images, audio and text decode lazily).
struct TagData {
    std::string run;
    std::string tag;
    events::TagKind kind = events::TagKind::kTensor;
    std::string plugin;
    std::shared_ptr<const std::vector<events::ScalarSample>> scalars;
    std::vector<HistogramSample> histograms;
    std::vector<events::ValueSample> values;
};

/// What a run holds besides summaries.
struct RunInfo {
    std::string run;
    std::string directory;          ///< absolute path of the run's folder
    bool hasGraph = false;          ///< a graph_def or meta_graph_def event
    std::vector<std::string> runMetadataTags;
    std::uint64_t events = 0;
    double firstWallTime = 0;       ///< 0 when unknown
};

struct FeedUpdate {
    std::vector<RunInfo> runs;      ///< every run now, sorted by name
    std::vector<std::string> removed; ///< runs an earlier poll reported whose event files are gone
    std::vector<TagData> changed;   ///< (run, tag)s whose kept samples changed since the last poll
    std::vector<std::string> warnings; ///< new since the last poll ("file: offset N: ...")
    std::uint64_t bytesRead = 0;    ///< by all polls so far
    double seconds = 0;             ///< this poll's reading and decoding time
};

/// Follows one or more log directories. Runs are named after their folders: the root itself after its
/// own folder name ("logs" for "/tmp/logs/"; TensorBoard says "."), runs inside by their path below the
/// root ("train", "eval/x"); with several roots each run inside is prefixed with its root's folder name
/// ("mnist/train"). Only when a run inside has the root's folder name does the root stay ".". Every scalar is kept (no sampling), 500 histograms per tag, 100
/// images, audio clips and texts per tag.
/// Threads: poll() from one thread at a time (a worker); runInfo() and the rest from any thread.
class DashboardFeed {
public:
    explicit DashboardFeed(std::vector<std::string> roots);

    const std::vector<std::string>& roots() const { return m_roots; }

    /// Re-reads every root and returns what changed. NotFound naming the root when a root does not
    /// exist (the others are still read; the error comes after them).
    Expected<FeedUpdate> poll();

    /// The graph of a run as the feed already holds it (the last graph_def event, else the graph of
    /// the last meta_graph_def event) with the run's tagged run metadata, so opening it reads no
    /// file; nullopt when the run has no graph. DataLoss naming the run when the bytes do not parse.
    Expected<std::optional<RunGraph>> runGraph(const std::string& run) const;

private:
    struct Root {
        std::string path;
        std::string prefix;   ///< "" or "<folder>/"
        std::string selfName; ///< the root's own run name: its folder name
        bool selfIsDot = false; ///< a run inside is named selfName: the root's own run is "." instead
        std::unique_ptr<events::LogDirectory> directory;
    };
    /// The root and the run name inside it for a dashboard run name; nullptr when unknown.
    const Root* findRun(const std::string& run, std::string* inner) const;

    std::vector<std::string> m_roots;
    std::vector<Root> m_dirs;
    /// Per (run, tag): the state last reported, to find changes.
    std::map<std::pair<std::string, std::string>, std::tuple<std::uint64_t, std::size_t, std::int64_t, std::uint64_t>> m_seen;
    std::vector<std::size_t> m_warningsSeen; ///< per root: warnings already reported
    std::vector<std::string> m_runsSeen;     ///< the runs of the last poll, sorted
};

} // namespace tstudio::dashboard
