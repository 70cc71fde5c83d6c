// profileAdvice: the four checks, each over the selected steps of the trace.
#include "profiler/profile_advice.h"

#include "profiler/profile_summary.h"
#include "profiler/profile_tables.h"
#include "proto/graph.pb.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

namespace tstudio::profiler {
namespace {

std::string percent(double share)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", share * 100.0);
    return text;
}

std::string quotedList(const std::vector<std::string>& names, std::size_t limit)
{
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < limit; ++i)
        out += (i ? ", '" : "'") + names[i] + "'";
    if (names.size() > limit)
        out += " and " + std::to_string(names.size() - limit) + " more";
    return out;
}

/// Where the numbers come from: "in step N" for one step, "per step" for an average over several.
std::string stepPhrase(const ProfileTrace& trace, int step, std::size_t stepsCounted)
{
    if (step < 0 && trace.steps.size() == 1)
        step = 0;
    if (step >= 0)
        return "in step " + std::to_string(trace.steps[std::size_t(step)].number);
    return stepsCounted > 1 ? "per step" : "in the trace";
}

void expensiveOperations(const ProfileTrace& trace, const ProfileAdviceOptions& options, std::vector<AdviceItem>& out)
{
    ProfileTableOptions tableOptions;
    tableOptions.step = options.step;
    tableOptions.graph = options.graph;
    auto table = buildProfileTable(trace, ProfileView::ByNode, tableOptions);
    if (!table || table->total.execNs <= 0)
        return;
    sortProfileTable(*table, ProfileColumn::Time, true);
    const std::string when = stepPhrase(trace, options.step, table->stepsCounted);
    int listed = 0;
    for (std::uint32_t index : table->roots) {
        const ProfileRow& row = table->rows[index];
        if (listed >= options.topOperations || row.total.execNs <= 0)
            break;
        const double share = double(row.total.execNs) / double(table->total.execNs);
        AdviceItem item;
        item.severity = share > 0.5 ? AdviceSeverity::Warning : AdviceSeverity::Info;
        item.checker = "expensive_operations";
        item.text = "'" + row.name + "' (" + row.opType + ") takes " + formatProfileTime(row.total.execNs) + " " +
                    when + ", " + percent(share) + " of all op time (accelerator " +
                    formatProfileTime(row.total.acceleratorNs) + ", CPU " + formatProfileTime(row.total.cpuNs) + ")";
        item.nodes.push_back(row.name);
        out.push_back(std::move(item));
        ++listed;
    }
}

bool isGpuDevice(const TraceDevice& device)
{
    if (device.type == "GPU")
        return true;
    std::string lower = device.name;
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("gpu") != std::string::npos;
}

bool selected(const TraceEvent& event, int step)
{
    return step < 0 || event.step == std::uint32_t(step);
}

void dataFormat(const ProfileTrace& trace, const ProfileAdviceOptions& options, std::vector<AdviceItem>& out)
{
    static const std::set<std::string> kConvolutions = {"Conv2D",
                                                        "Conv2DBackpropInput",
                                                        "Conv2DBackpropFilter",
                                                        "DepthwiseConv2dNative",
                                                        "DepthwiseConv2dNativeBackpropInput",
                                                        "DepthwiseConv2dNativeBackpropFilter"};
    std::unordered_map<std::string_view, const tensorflow::NodeDef*> defs;
    if (options.graph)
        for (const auto& def : options.graph->node())
            defs.emplace(def.name(), &def);
    std::vector<bool> flagged(trace.nodes.size(), false);
    std::vector<std::string> names;
    for (const TraceEvent& event : trace.events) {
        if (event.node >= trace.nodes.size() || flagged[event.node] || !selected(event, options.step) ||
            event.lane >= trace.lanes.size() || trace.lanes[event.lane].device >= trace.devices.size() ||
            !isGpuDevice(trace.devices[trace.lanes[event.lane].device]))
            continue;
        const TraceNode& node = trace.nodes[event.node];
        auto def = defs.find(node.name);
        const std::string& op = def != defs.end() ? def->second->op() : node.op;
        if (!kConvolutions.count(op))
            continue;
        std::string format = "NHWC";
        if (def != defs.end()) {
            auto attr = def->second->attr().find("data_format");
            if (attr != def->second->attr().end())
                format = attr->second.s();
        }
        if (format != "NHWC")
            continue;
        flagged[event.node] = true;
        names.push_back(node.name);
    }
    if (names.empty())
        return;
    std::sort(names.begin(), names.end());
    AdviceItem item;
    item.severity = AdviceSeverity::Warning;
    item.checker = "data_format";
    item.text = std::to_string(names.size()) + (names.size() == 1 ? " convolution runs" : " convolutions run") +
                " on a GPU with data_format NHWC (" + quotedList(names, 5) +
                (options.graph ? ")" : "; NHWC is the default and no graph says otherwise)") +
                "; TensorFlow advises NCHW on GPUs, cuDNN's native layout, which is usually faster";
    item.nodes = std::move(names);
    out.push_back(std::move(item));
}

struct Interval {
    std::int64_t start;
    std::int64_t end;
    std::uint32_t node;
};

struct Gap {
    std::int64_t ns;
    std::int64_t atNs; ///< into the step
    std::uint32_t device;
    std::uint32_t stepKey;
    std::uint32_t before;
    std::uint32_t after;
    double share;
};

void utilisationAndGaps(const ProfileTrace& trace, const ProfileAdviceOptions& options, std::vector<AdviceItem>& out)
{
    const std::uint32_t noStep = static_cast<std::uint32_t>(trace.steps.size());
    // Intervals per (device, step key); the span of each step key that holds events.
    std::vector<std::map<std::uint32_t, std::vector<Interval>>> byDevice(trace.devices.size());
    std::map<std::uint32_t, std::pair<std::int64_t, std::int64_t>> bucketSpan;
    for (const TraceEvent& event : trace.events) {
        if (event.node >= trace.nodes.size() || !selected(event, options.step) || event.lane >= trace.lanes.size() ||
            trace.lanes[event.lane].device >= trace.devices.size())
            continue;
        const std::uint32_t key = event.step < noStep ? event.step : noStep;
        const std::int64_t end = event.startNs + std::max<std::int64_t>(event.durationNs, 0);
        byDevice[trace.lanes[event.lane].device][key].push_back({event.startNs, end, event.node});
        auto [it, inserted] = bucketSpan.emplace(key, std::make_pair(event.startNs, end));
        if (!inserted) {
            it->second.first = std::min(it->second.first, event.startNs);
            it->second.second = std::max(it->second.second, end);
        }
    }
    for (auto& [key, span] : bucketSpan)
        if (key < noStep && trace.steps[key].endNs > trace.steps[key].startNs)
            span = {std::min(span.first, trace.steps[key].startNs), std::max(span.second, trace.steps[key].endNs)};
    std::int64_t allSteps = 0;
    for (const auto& entry : bucketSpan)
        allSteps += entry.second.second - entry.second.first;
    if (allSteps <= 0)
        return;

    std::vector<Gap> gaps;
    std::string when = "over " + std::to_string(bucketSpan.size()) + " steps";
    if (bucketSpan.size() == 1)
        when = bucketSpan.begin()->first < noStep
                   ? "in step " + std::to_string(trace.steps[bucketSpan.begin()->first].number)
                   : "in the trace";
    for (std::uint32_t device = 0; device < byDevice.size(); ++device) {
        if (byDevice[device].empty())
            continue;
        std::int64_t busy = 0;
        for (auto& [key, intervals] : byDevice[device]) {
            std::sort(intervals.begin(), intervals.end(),
                      [](const Interval& a, const Interval& b) { return a.start < b.start; });
            const auto [spanStart, spanEnd] = bucketSpan[key];
            std::int64_t curStart = intervals[0].start, curEnd = intervals[0].end;
            std::uint32_t lastNode = intervals[0].node;
            for (std::size_t i = 1; i <= intervals.size(); ++i) {
                if (i < intervals.size() && intervals[i].start <= curEnd) {
                    if (intervals[i].end > curEnd) {
                        curEnd = intervals[i].end;
                        lastNode = intervals[i].node;
                    }
                    continue;
                }
                busy += curEnd - curStart;
                if (i == intervals.size())
                    break;
                const std::int64_t gap = intervals[i].start - curEnd;
                if (gap >= options.minGapNs && gap > 0)
                    gaps.push_back({gap, curEnd - spanStart, device, key, lastNode, intervals[i].node,
                                    spanEnd > spanStart ? double(gap) / double(spanEnd - spanStart) : 0.0});
                curStart = intervals[i].start;
                curEnd = intervals[i].end;
                lastNode = intervals[i].node;
            }
        }
        const double utilisation = double(busy) / double(allSteps);
        AdviceItem item;
        item.checker = "device_utilization";
        item.severity = utilisation < options.lowUtilization ? AdviceSeverity::Warning : AdviceSeverity::Info;
        char share[32];
        std::snprintf(share, sizeof share, "%.2f", utilisation);
        item.text = "device " + trace.devices[device].name +
                    (utilisation < options.lowUtilization ? " low utilization: " : " utilization: ") + share +
                    " (busy " + formatProfileTime(busy) + " of " + formatProfileTime(allSteps) + " " + when + ")";
        out.push_back(std::move(item));
    }

    std::stable_sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.ns > b.ns; });
    for (std::size_t i = 0; i < gaps.size() && int(i) < options.maxGaps; ++i) {
        const Gap& g = gaps[i];
        AdviceItem item;
        item.checker = "idle_gaps";
        item.severity = g.share >= options.gapWarningShare ? AdviceSeverity::Warning : AdviceSeverity::Info;
        const std::string step =
            g.stepKey < noStep ? "step " + std::to_string(trace.steps[g.stepKey].number) : "the ops without a step";
        item.text = "device " + trace.devices[g.device].name + " is idle for " + formatProfileTime(g.ns) + " (" +
                    percent(g.share) + " of the step) in " + step + ", " + formatProfileTime(g.atNs) +
                    " after its start, between '" + trace.nodes[g.before].name + "' and '" + trace.nodes[g.after].name +
                    "'";
        item.nodes = {trace.nodes[g.before].name, trace.nodes[g.after].name};
        out.push_back(std::move(item));
    }
}

} // namespace

Expected<std::vector<AdviceItem>> profileAdvice(const ProfileTrace& trace, const ProfileAdviceOptions& options)
{
    if (options.step < -1 || (options.step >= 0 && std::size_t(options.step) >= trace.steps.size()))
        return unexpected(invalidArgumentError("profile advice: step " + std::to_string(options.step) +
                                               " is not a step of the trace (it has " +
                                               std::to_string(trace.steps.size()) + " steps)"));
    std::vector<AdviceItem> out;
    expensiveOperations(trace, options, out);
    dataFormat(trace, options, out);
    utilisationAndGaps(trace, options, out);
    return out;
}

} // namespace tstudio::profiler
