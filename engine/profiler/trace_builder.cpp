// traceFromStepStats and the shared building blocks of trace readers (lane packing, interning, steps).
#include "profiler/trace_builder.h"

#include "runtime/step_stats_collector.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

namespace tstudio::profiler {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

/// First-fit lane assignment in O(log lanes): a tree of the minimum "last end" over lanes, so the
/// first lane whose last event ended strictly before a start is found by descending the tree.
class FirstFitLanes {
public:
    /// The lane that takes an event [start, end]: the first whose last end < start, else a new one.
    std::uint32_t place(std::int64_t start, std::int64_t end)
    {
        std::uint32_t lane;
        if (m_count > 0 && m_tree[1] < start) {
            std::size_t i = 1;
            while (i < m_capacity)
                i = m_tree[2 * i] < start ? 2 * i : 2 * i + 1;
            lane = static_cast<std::uint32_t>(i - m_capacity);
        } else {
            if (m_count == m_capacity)
                grow();
            lane = m_count++;
        }
        set(lane, end);
        return lane;
    }
    std::uint32_t count() const { return m_count; }
    void reset()
    {
        std::fill(m_tree.begin(), m_tree.end(), kNever);
        m_count = 0;
    }

private:
    void set(std::uint32_t lane, std::int64_t end)
    {
        std::size_t i = m_capacity + lane;
        m_tree[i] = end;
        for (i /= 2; i >= 1; i /= 2)
            m_tree[i] = std::min(m_tree[2 * i], m_tree[2 * i + 1]);
    }
    void grow()
    {
        const std::size_t capacity = m_capacity == 0 ? 8 : 2 * m_capacity;
        std::vector<std::int64_t> tree(2 * capacity, kNever);
        for (std::size_t lane = 0; lane < m_count; ++lane)
            tree[capacity + lane] = m_tree[m_capacity + lane];
        for (std::size_t i = capacity - 1; i >= 1; --i)
            tree[i] = std::min(tree[2 * i], tree[2 * i + 1]);
        m_tree = std::move(tree);
        m_capacity = capacity;
    }

    std::vector<std::int64_t> m_tree;
    std::size_t m_capacity = 0;
    std::uint32_t m_count = 0;
};

/// The times a timeline holds: a start and a duration each within [0, 2^62 - 1] ns (the year 2116
/// after the epoch), so that start + duration and every difference of starts fit in an int64. A
/// record's time beyond (a damaged or hostile RunMetadata: microseconds whose nanoseconds overflow,
/// found by the run_metadata fuzz target under UBSan) is clamped to that range.
constexpr std::int64_t kMaxTraceNanos = (std::int64_t{1} << 62) - 1;

/// `nanos` when it is set (non-zero), else `micros` in nanoseconds, clamped to [0, kMaxTraceNanos].
std::int64_t traceNanos(std::int64_t nanos, std::int64_t micros)
{
    if (nanos != 0)
        return std::clamp<std::int64_t>(nanos, 0, kMaxTraceNanos);
    return micros <= 0 ? 0 : micros >= kMaxTraceNanos / 1000 ? kMaxTraceNanos : micros * 1000;
}

std::int64_t startNanos(const tensorflow::NodeExecStats& node)
{
    return traceNanos(node.all_start_nanos(), node.all_start_micros());
}

std::int64_t durationNanos(const tensorflow::NodeExecStats& node)
{
    return traceNanos(node.all_end_rel_nanos(), node.all_end_rel_micros());
}

/// The title of lane `threadId` of a device.
std::string laneName(const tensorflow::DeviceStepStats& device, bool stream, std::uint32_t threadId)
{
    const auto named = device.thread_names().find(threadId);
    if (named != device.thread_names().end() && !named->second.empty())
        return named->second;
    if (stream) {
        const std::string& name = device.device();
        const std::size_t at = name.rfind("/stream:");
        std::string title = at != std::string::npos ? "stream " + name.substr(at + 8) : "memcpy";
        return threadId == 0 ? title : title + " thread " + std::to_string(threadId);
    }
    return "thread " + std::to_string(threadId);
}

/// TensorFlow's kernel label of GPU tracer records "kernel @@name:op#...": the node name between "@@"
/// and "#", when there is one.
std::string_view kernelLabelNode(std::string_view label, std::string_view nodeName)
{
    const std::size_t at = label.find("@@");
    const std::size_t hash = label.find('#');
    if (at != std::string_view::npos && hash != std::string_view::npos && at + 2 < hash)
        return label.substr(at + 2, hash - at - 2);
    return nodeName;
}

struct DeviceLanes {
    std::uint32_t device = 0;
    bool stream = false;
    std::unordered_map<std::uint32_t, std::uint32_t> groupOfThread;
};

struct CounterBuild {
    std::uint32_t counter = 0;
    bool hasInUse = false;
    std::vector<std::pair<std::int64_t, std::int64_t>> records; ///< (absolute ns, alloc_bytes)
};

} // namespace

std::string traceDeviceType(std::string_view deviceName)
{
    // The type is the component before the last ":<index>" of the last "device:" or "/<type>:" part.
    std::string upper(deviceName);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::size_t from = upper.rfind("/DEVICE:");
    std::string_view part;
    if (from != std::string::npos) {
        part = std::string_view(upper).substr(from + 8);
    } else {
        // Legacy names: "/gpu:0", "/cpu:0/...", "/job:x/gpu:0/stream:all": the first component that
        // is a device type.
        for (std::string_view key : {"/GPU:", "/CPU:", "/XLA_GPU:", "/XLA_CPU:"}) {
            from = upper.find(key);
            if (from != std::string::npos) {
                part = std::string_view(upper).substr(from + 1);
                break;
            }
        }
    }
    const std::string_view type = part.substr(0, part.find(':'));
    if (type.find("GPU") != std::string_view::npos)
        return "GPU";
    if (type.find("CPU") != std::string_view::npos)
        return "CPU";
    return "";
}

bool isStreamDevice(std::string_view deviceName)
{
    return deviceName.find("/stream:") != std::string_view::npos ||
           deviceName.find("/memcpy") != std::string_view::npos;
}

bool parseTimelineLabel(std::string_view label, std::string* op, std::vector<std::string>* inputs)
{
    // As re.match(r'(.*) = (.*)\((.*)\)', label) with greedy groups: '.' stops at a newline, the inputs
    // end at the last ')', the op at the last '(' before it, the name at the last " = " before that.
    const std::string_view line = label.substr(0, label.find('\n'));
    const std::size_t close = line.rfind(')');
    if (close == std::string_view::npos || close == 0)
        return false;
    const std::size_t open = line.rfind('(', close - 1);
    if (open == std::string_view::npos || open < 3)
        return false;
    const std::size_t equals = line.rfind(" = ", open - 3);
    if (equals == std::string_view::npos)
        return false;
    *op = std::string(line.substr(equals + 3, open - equals - 3));
    inputs->clear();
    const std::string_view list = line.substr(open + 1, close - open - 1);
    for (std::size_t start = 0; !list.empty();) {
        const std::size_t comma = list.find(", ", start);
        inputs->emplace_back(
            list.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos)
            break;
        start = comma + 2;
    }
    return true;
}

std::size_t TraceInterner::DimsHash::operator()(const std::vector<std::int64_t>& dims) const noexcept
{
    std::size_t h = 1469598103934665603ull ^ dims.size();
    for (std::int64_t d : dims)
        h = (h ^ static_cast<std::size_t>(d)) * 1099511628211ull;
    return h;
}

std::uint32_t TraceInterner::node(std::string_view name, bool* added)
{
    const auto found = m_nodes.find(name);
    if (found != m_nodes.end()) {
        *added = false;
        return found->second;
    }
    const auto index = static_cast<std::uint32_t>(m_trace.nodes.size());
    m_trace.nodes.push_back({std::string(name), "unknown", {}});
    m_nodes.emplace(std::string(name), index);
    *added = true;
    return index;
}

std::uint32_t TraceInterner::shape(const std::vector<std::int64_t>& dims)
{
    const auto found = m_shapes.find(dims);
    if (found != m_shapes.end())
        return found->second;
    const auto index = static_cast<std::uint32_t>(m_trace.shapes.size());
    m_trace.shapes.push_back(dims);
    m_shapes.emplace(dims, index);
    return index;
}

void packLanes(ProfileTrace& trace, const std::vector<LaneGroup>& groups, std::vector<TraceEvent> events)
{
    const std::size_t groupCount = groups.size();
    // Groups in device order, stable.
    std::vector<std::uint32_t> groupOrder(groupCount);
    std::iota(groupOrder.begin(), groupOrder.end(), 0u);
    std::stable_sort(groupOrder.begin(), groupOrder.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return groups[a].device < groups[b].device; });

    // Bucket the events by group (counting sort, stable).
    std::vector<std::uint32_t> groupStart(groupCount + 1, 0);
    for (const TraceEvent& event : events)
        if (event.lane < groupCount)
            ++groupStart[event.lane + 1];
    std::partial_sum(groupStart.begin(), groupStart.end(), groupStart.begin());
    std::vector<std::uint32_t> order(groupStart.back());
    {
        std::vector<std::uint32_t> fill(groupStart.begin(), groupStart.end() - 1);
        for (std::uint32_t i = 0; i < events.size(); ++i)
            if (events[i].lane < groupCount)
                order[fill[events[i].lane]++] = i;
    }

    trace.lanes.clear();
    trace.events.clear();
    trace.events.reserve(order.size());
    std::vector<std::uint32_t> subLane(events.size(), 0);
    std::vector<std::uint32_t> perLane;
    FirstFitLanes fit;
    for (std::uint32_t g : groupOrder) {
        const auto first = order.begin() + groupStart[g];
        const auto last = order.begin() + groupStart[g + 1];
        if (first == last)
            continue;
        auto before = [&](std::uint32_t a, std::uint32_t b) {
            const TraceEvent& x = events[a];
            const TraceEvent& y = events[b];
            if (x.startNs != y.startNs)
                return x.startNs < y.startNs;
            return x.startNs + x.durationNs > y.startNs + y.durationNs;
        };
        if (!std::is_sorted(first, last, before))
            std::stable_sort(first, last, before);
        fit.reset();
        for (auto it = first; it != last; ++it) {
            const TraceEvent& e = events[*it];
            subLane[*it] = fit.place(e.startNs, e.startNs + e.durationNs);
        }
        // Lay the sub-lanes out one after the other, each in start order.
        const std::uint32_t lanes = fit.count();
        const auto firstLane = static_cast<std::uint32_t>(trace.lanes.size());
        perLane.assign(lanes + 1, 0);
        for (auto it = first; it != last; ++it)
            ++perLane[subLane[*it] + 1];
        std::partial_sum(perLane.begin(), perLane.end(), perLane.begin());
        const auto base = static_cast<std::uint32_t>(trace.events.size());
        for (std::uint32_t k = 0; k < lanes; ++k) {
            TraceLane lane;
            lane.device = groups[g].device;
            lane.kind = groups[g].kind;
            lane.name = k == 0 ? groups[g].name : groups[g].name + " (" + std::to_string(k + 1) + ")";
            lane.threadId = groups[g].threadId;
            lane.firstEvent = base + perLane[k];
            lane.eventCount = perLane[k + 1] - perLane[k];
            trace.lanes.push_back(std::move(lane));
        }
        trace.events.resize(base + static_cast<std::size_t>(last - first));
        for (auto it = first; it != last; ++it) {
            TraceEvent e = events[*it];
            e.lane = firstLane + subLane[*it];
            trace.events[base + perLane[subLane[*it]]++] = e;
        }
    }
}

void finishSteps(ProfileTrace& trace)
{
    const std::size_t count = trace.steps.size();
    std::vector<std::int64_t> start(count, kNever);
    std::vector<std::int64_t> end(count, std::numeric_limits<std::int64_t>::min());
    for (const TraceEvent& e : trace.events)
        if (e.step < count) {
            start[e.step] = std::min(start[e.step], e.startNs);
            end[e.step] = std::max(end[e.step], e.startNs + e.durationNs);
        }
    std::vector<std::uint32_t> kept;
    for (std::uint32_t s = 0; s < count; ++s)
        if (start[s] != kNever)
            kept.push_back(s);
    std::stable_sort(kept.begin(), kept.end(), [&](std::uint32_t a, std::uint32_t b) { return start[a] < start[b]; });
    std::vector<std::uint32_t> renumber(count, kNoIndex);
    std::vector<TraceStep> steps;
    steps.reserve(kept.size());
    for (std::uint32_t s : kept) {
        renumber[s] = static_cast<std::uint32_t>(steps.size());
        steps.push_back({trace.steps[s].number, start[s], end[s]});
    }
    for (TraceEvent& e : trace.events)
        e.step = e.step < count ? renumber[e.step] : kNoIndex;
    trace.steps = std::move(steps);
}

void finishMemoryCounters(ProfileTrace& trace)
{
    for (MemoryCounter& counter : trace.memory) {
        std::stable_sort(counter.samples.begin(), counter.samples.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        counter.peakBytes = 0;
        for (const auto& sample : counter.samples)
            counter.peakBytes = std::max(counter.peakBytes, sample.second);
    }
}

namespace {

/// traceFromStepStats over (number, stats) pairs, so that one run needs no copy of its StepStats.
ProfileTrace buildTrace(const std::vector<std::pair<std::int64_t, const tensorflow::StepStats*>>& steps)
{
    ProfileTrace trace;
    TraceInterner interner(trace);
    std::size_t recordCount = 0;
    for (const auto& step : steps)
        for (const auto& device : step.second->dev_stats())
            recordCount += static_cast<std::size_t>(device.node_stats_size());

    std::vector<TraceEvent> events; // startNs absolute until the origin is known; lane = group
    events.reserve(recordCount);
    std::vector<LaneGroup> groups;
    std::vector<DeviceLanes> devices;
    std::unordered_map<std::string, std::uint32_t> deviceIndex;
    std::unordered_map<std::string, CounterBuild> counters;
    std::int64_t origin = kNever;
    std::vector<std::int64_t> dims;
    std::string op;
    std::vector<std::string> inputs;

    for (const auto& [number, runStats] : steps) {
        const auto stepIndex = static_cast<std::uint32_t>(trace.steps.size());
        trace.steps.push_back({number, 0, 0});
        for (const tensorflow::DeviceStepStats& device : runStats->dev_stats()) {
            auto [found, added] = deviceIndex.try_emplace(device.device(), static_cast<std::uint32_t>(devices.size()));
            if (added) {
                trace.devices.push_back({device.device(), traceDeviceType(device.device())});
                devices.push_back({found->second, isStreamDevice(device.device()), {}});
            }
            DeviceLanes& lanes = devices[found->second];
            for (const tensorflow::NodeExecStats& stats : device.node_stats()) {
                TraceEvent event;
                const std::int64_t start = startNanos(stats);
                origin = std::min(origin, start);
                event.startNs = start;
                event.durationNs = durationNanos(stats);
                event.step = stepIndex;
                if (std::optional<LoopPosition> loop = loopPositionOf(stats)) {
                    event.frame = trace.internFrame(loop->frame);
                    event.iteration = loop->iteration;
                }

                auto [group, newGroup] =
                    lanes.groupOfThread.try_emplace(stats.thread_id(), static_cast<std::uint32_t>(groups.size()));
                if (newGroup)
                    groups.push_back({lanes.device, lanes.stream ? LaneKind::Stream : LaneKind::Thread,
                                      laneName(device, lanes.stream, stats.thread_id()), stats.thread_id()});
                event.lane = group->second;

                std::string_view fullName = stats.node_name();
                if (lanes.stream)
                    fullName = kernelLabelNode(stats.timeline_label(), fullName);
                const std::size_t colon = fullName.find(':');
                bool newNode = false;
                event.node = interner.node(fullName.substr(0, colon), &newNode);
                if (newNode) {
                    TraceNode& node = trace.nodes[event.node];
                    if (!lanes.stream && parseTimelineLabel(stats.timeline_label(), &op, &inputs)) {
                        node.op = op;
                        node.inputs = inputs;
                    } else if (colon != std::string_view::npos) {
                        const std::string_view rest = fullName.substr(colon + 1);
                        node.op = std::string(rest.substr(0, rest.find(':')));
                    }
                }

                event.firstOutput = static_cast<std::uint32_t>(trace.outputs.size());
                for (const tensorflow::NodeOutput& output : stats.output()) {
                    const tensorflow::TensorDescription& description = output.tensor_description();
                    TraceOutput out;
                    out.slot = output.slot();
                    out.dtype = static_cast<std::int32_t>(description.dtype());
                    if (!description.shape().unknown_rank()) {
                        dims.clear();
                        for (const auto& dim : description.shape().dim())
                            dims.push_back(dim.size());
                        out.shape = interner.shape(dims);
                    }
                    out.requestedBytes = description.allocation_description().requested_bytes();
                    event.outputBytes += out.requestedBytes;
                    trace.outputs.push_back(out);
                }
                event.outputCount = static_cast<std::uint32_t>(trace.outputs.size()) - event.firstOutput;

                const std::int64_t end = start + event.durationNs;
                for (const tensorflow::AllocatorMemoryUsed& memory : stats.memory()) {
                    event.requestedBytes += memory.total_bytes();
                    event.peakBytes += memory.peak_bytes();
                    event.residualBytes += memory.live_bytes();
                    auto [counter, newCounter] = counters.try_emplace(memory.allocator_name());
                    if (newCounter) {
                        counter->second.counter = static_cast<std::uint32_t>(trace.memory.size());
                        trace.memory.push_back({memory.allocator_name(), lanes.device, {}, 0});
                    }
                    CounterBuild& build = counter->second;
                    if (memory.allocator_bytes_in_use() != 0)
                        build.hasInUse = true;
                    trace.memory[build.counter].samples.emplace_back(end, memory.allocator_bytes_in_use());
                    for (const tensorflow::AllocationRecord& record : memory.allocation_records())
                        build.records.emplace_back(traceNanos(0, record.alloc_micros()), record.alloc_bytes());
                }
                events.push_back(event);
            }
        }
    }

    if (origin == kNever)
        origin = 0;
    trace.originNs = origin;
    for (TraceEvent& e : events)
        e.startNs -= origin;
    for (auto& [name, build] : counters) {
        MemoryCounter& counter = trace.memory[build.counter];
        if (!build.hasInUse && !build.records.empty()) {
            std::stable_sort(build.records.begin(), build.records.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            counter.samples.clear();
            std::int64_t sum = 0;
            for (const auto& [time, bytes] : build.records) {
                sum += bytes;
                counter.samples.emplace_back(time, sum);
            }
        }
        for (auto& sample : counter.samples)
            sample.first -= origin;
    }
    // Lanes of a device by thread id.
    std::vector<LaneGroup> sorted = groups;
    std::vector<std::uint32_t> byThread(groups.size());
    std::iota(byThread.begin(), byThread.end(), 0u);
    std::stable_sort(byThread.begin(), byThread.end(), [&](std::uint32_t a, std::uint32_t b) {
        if (groups[a].device != groups[b].device)
            return groups[a].device < groups[b].device;
        return groups[a].threadId < groups[b].threadId;
    });
    std::vector<std::uint32_t> position(groups.size());
    for (std::uint32_t i = 0; i < byThread.size(); ++i) {
        sorted[i] = groups[byThread[i]];
        position[byThread[i]] = i;
    }
    for (TraceEvent& e : events)
        e.lane = position[e.lane];
    packLanes(trace, sorted, std::move(events));
    finishSteps(trace);
    finishMemoryCounters(trace);
    return trace;
}

} // namespace

ProfileTrace traceFromStepStats(const std::vector<TracedStep>& steps)
{
    std::vector<std::pair<std::int64_t, const tensorflow::StepStats*>> runs;
    runs.reserve(steps.size());
    for (const TracedStep& step : steps)
        runs.emplace_back(step.number, &step.stats);
    return buildTrace(runs);
}

ProfileTrace traceFromStepStats(const tensorflow::StepStats& stats, std::int64_t number)
{
    return buildTrace({{number, &stats}});
}

} // namespace tstudio::profiler
