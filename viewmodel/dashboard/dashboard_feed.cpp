// DashboardFeed: polling log directories and collecting the (run, tag)s that changed.
#include "dashboard/dashboard_feed.h"

#include "io/events/summary_values.h"
#include "io/proto_parse.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iterator>

namespace tstudio::dashboard {
namespace {

/// The folder name of a log directory as given ("logs/run1/" -> "run1"; "." -> the working directory's name).
std::string folderName(const std::string& root)
{
    std::filesystem::path p = std::filesystem::path(root).lexically_normal();
    if (p.filename().empty())
        p = p.parent_path();
    if (p.filename().empty() || p.filename() == "." || p.filename() == "..") {
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(p, ec), ec);
        if (!ec && !absolute.filename().empty())
            return absolute.filename().string();
    }
    const std::string name = p.filename().string();
    return name.empty() ? std::string(".") : name;
}

} // namespace

DashboardFeed::DashboardFeed(std::vector<std::string> roots) : m_roots(std::move(roots))
{
    for (const std::string& root : m_roots) {
        Root r;
        r.path = root;
        r.selfName = folderName(root);
        if (m_roots.size() > 1)
            r.prefix = r.selfName + "/";
        r.directory = std::make_unique<events::LogDirectory>(root);
        r.directory->setSizeGuidance(events::TagKind::kScalar, 0);
        r.directory->setSizeGuidance(events::TagKind::kHistogram, 500);
        r.directory->setSizeGuidance(events::TagKind::kImage, 100);
        r.directory->setSizeGuidance(events::TagKind::kAudio, 100);
        r.directory->setSizeGuidance(events::TagKind::kText, 100);
        r.directory->setSizeGuidance(events::TagKind::kTensor, 100);
        m_dirs.push_back(std::move(r));
    }
    m_warningsSeen.assign(m_dirs.size(), 0);
}

Expected<FeedUpdate> DashboardFeed::poll()
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    FeedUpdate update;
    Status failure = Status::ok();
    for (std::size_t d = 0; d < m_dirs.size(); ++d) {
        Root& root = m_dirs[d];
        if (Status s = root.directory->reload(); !s.isOk()) {
            if (failure.isOk())
                failure = s;
            continue;
        }
        const std::vector<events::LoadWarning> warnings = root.directory->warnings();
        for (std::size_t i = m_warningsSeen[d]; i < warnings.size(); ++i)
            update.warnings.push_back(warnings[i].file + ": offset " + std::to_string(warnings[i].offset) + ": " +
                                      warnings[i].message);
        m_warningsSeen[d] = warnings.size();
        update.bytesRead += root.directory->bytesRead();

        const std::vector<std::string> innerRuns = root.directory->runs();
        // The root's own run is named after its folder, unless a run inside already has that name.
        root.selfIsDot = root.prefix.empty() &&
                         std::find(innerRuns.begin(), innerRuns.end(), root.selfName) != innerRuns.end();
        for (const std::string& inner : innerRuns) {
            RunInfo info;
            if (inner != ".")
                info.run = root.prefix + inner;
            else
                info.run = root.selfIsDot ? std::string(".") : root.selfName;
            info.directory = (std::filesystem::path(root.path) / (inner == "." ? std::string() : inner)).lexically_normal().string();
            root.directory->withRun(inner, [&](const events::EventAccumulator& acc) {
                info.hasGraph = !acc.graphDef().empty() || !acc.metaGraphDef().empty();
                info.runMetadataTags = acc.runMetadataTags();
                info.events = acc.eventsRead();
                info.firstWallTime = acc.firstEventWallTime().value_or(0.0);
                for (const events::TagInfo& tag : acc.tags()) {
                    auto key = std::make_pair(info.run, tag.tag);
                    const auto state = std::make_tuple(tag.valuesRead, tag.samplesKept, tag.lastStep, acc.purgedSamples());
                    auto seen = m_seen.find(key);
                    if (seen != m_seen.end() && seen->second == state)
                        continue;
                    m_seen[key] = state;
                    TagData data;
                    data.run = info.run;
                    data.tag = tag.tag;
                    data.kind = tag.kind;
                    data.plugin = tag.plugin;
                    if (tag.kind == events::TagKind::kScalar) {
                        data.scalars = std::make_shared<const std::vector<events::ScalarSample>>(acc.scalars(tag.tag));
                    } else if (tag.kind == events::TagKind::kHistogram) {
                        for (const events::ValueSample& v : acc.values(tag.tag)) {
                            auto histogram = events::decodeHistogram(*v.value, tag.tag);
                            if (!histogram) {
                                update.warnings.push_back(info.run + ": step " + std::to_string(v.step) + ": " +
                                                          histogram.error().message());
                                continue;
                            }
                            data.histograms.push_back({v.step, v.wallTime, std::move(*histogram)});
                        }
                    } else {
                        data.values = acc.values(tag.tag);
                    }
                    update.changed.push_back(std::move(data));
                }
            });
            update.runs.push_back(std::move(info));
        }
    }
    std::sort(update.runs.begin(), update.runs.end(), [](const RunInfo& a, const RunInfo& b) { return a.run < b.run; });
    // Runs gone from disk (LogDirectory forgets them): reported once, and their tags forgotten so
    // that a new run of the same name is reported in full. A root that could not be read keeps its
    // runs until it reads again.
    if (failure.isOk()) {
        std::vector<std::string> now;
        for (const RunInfo& r : update.runs)
            now.push_back(r.run);
        std::set_difference(m_runsSeen.begin(), m_runsSeen.end(), now.begin(), now.end(),
                            std::back_inserter(update.removed));
        for (const std::string& run : update.removed)
            std::erase_if(m_seen, [&](const auto& entry) { return entry.first.first == run; });
        m_runsSeen = std::move(now);
    }
    update.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!failure.isOk())
        return unexpected(failure);
    return update;
}

const DashboardFeed::Root* DashboardFeed::findRun(const std::string& run, std::string* inner) const
{
    for (const Root& root : m_dirs) {
        if (root.prefix.empty()) {
            *inner = !root.selfIsDot && run == root.selfName ? std::string(".") : run;
            return &root;
        }
        if (run + "/" == root.prefix) {
            *inner = ".";
            return &root;
        }
        if (run.compare(0, root.prefix.size(), root.prefix) == 0) {
            *inner = run.substr(root.prefix.size());
            return &root;
        }
    }
    return nullptr;
}

Expected<std::optional<RunGraph>> DashboardFeed::runGraph(const std::string& run) const
{
    std::string inner;
    const Root* root = findRun(run, &inner);
    if (!root)
        return std::optional<RunGraph>();
    std::string graphBytes;
    std::string metaBytes;
    RunGraph out;
    root->directory->withRun(inner, [&](const events::EventAccumulator& acc) {
        graphBytes = acc.graphDef();
        if (graphBytes.empty())
            metaBytes = acc.metaGraphDef();
        for (const auto& [tag, entry] : acc.taggedRunMetadata())
            out.runMetadata.push_back({{run, std::string(), 0, entry.step, entry.wallTime}, tag, entry.runMetadata});
    });
    if (graphBytes.empty() && metaBytes.empty())
        return std::optional<RunGraph>();
    out.graph = std::make_shared<tensorflow::GraphDef>();
    if (!graphBytes.empty()) {
        if (!parseBinaryProto(graphBytes, *out.graph))
            return unexpected(dataLossError("the graph_def of run '" + run + "' is not a valid GraphDef (" +
                                            std::to_string(graphBytes.size()) + " bytes)"));
    } else {
        tensorflow::MetaGraphDef meta;
        if (!parseBinaryProto(metaBytes, meta))
            return unexpected(dataLossError("the meta_graph_def of run '" + run + "' is not a valid MetaGraphDef (" +
                                            std::to_string(metaBytes.size()) + " bytes)"));
        out.graph->Swap(meta.mutable_graph_def());
    }
    return std::optional<RunGraph>(std::move(out));
}

} // namespace tstudio::dashboard
