// TimelineIndex: executions per node and consumers per node as compact offset tables, dependency arrows,
// selection totals, step comparison and memory range maxima.
#include "profiler/timeline_index.h"

#include "profiler/timeline_geometry.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tstudio::profiler::timeline {

namespace {

/// How far back producerExecution looks through a node's executions (loops can run a node many times).
constexpr int kMaxProducerScan = 4096;

bool sameStep(std::uint32_t step, const TraceEvent& e)
{
    return step == kNoIndex || e.step == step;
}

/// Steps are in time order, so an execution of an earlier step ends a backwards scan.
bool beforeStep(std::uint32_t step, const TraceEvent& e)
{
    return step != kNoIndex && e.step != kNoIndex && e.step < step;
}

std::int64_t endOf(const TraceEvent& e)
{
    return e.startNs + e.durationNs;
}

} // namespace

std::string_view inputNodeName(std::string_view input)
{
    if (!input.empty() && input.front() == '^')
        input.remove_prefix(1);
    const std::size_t colon = input.find(':');
    return colon == std::string_view::npos ? input : input.substr(0, colon);
}

TimelineIndex::TimelineIndex(std::shared_ptr<const ProfileTrace> trace)
    : m_trace(trace ? std::move(trace) : std::make_shared<const ProfileTrace>())
{
    const ProfileTrace& t = *m_trace;
    const std::size_t nodeCount = t.nodes.size();
    m_nodeByName.reserve(nodeCount);
    for (std::uint32_t i = 0; i < nodeCount; ++i)
        m_nodeByName.emplace(t.nodes[i].name, i);

    // Executions per node: counting sort by node, each node's list then sorted by start.
    m_executionOffsets.assign(nodeCount + 1, 0);
    for (const TraceEvent& e : t.events)
        if (e.node < nodeCount)
            ++m_executionOffsets[e.node + 1];
    for (std::size_t i = 0; i < nodeCount; ++i)
        m_executionOffsets[i + 1] += m_executionOffsets[i];
    m_executions.resize(m_executionOffsets[nodeCount]);
    std::vector<std::uint32_t> fill(m_executionOffsets.begin(), m_executionOffsets.end() - 1);
    for (std::uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].node < nodeCount)
            m_executions[fill[t.events[i].node]++] = i;
    for (std::size_t n = 0; n < nodeCount; ++n)
        std::sort(m_executions.begin() + m_executionOffsets[n], m_executions.begin() + m_executionOffsets[n + 1],
                  [&t](std::uint32_t a, std::uint32_t b) {
                      const TraceEvent& x = t.events[a];
                      const TraceEvent& y = t.events[b];
                      return x.startNs != y.startNs ? x.startNs < y.startNs : x.lane < y.lane;
                  });

    // Consumers per node, from every node's inputs (each consumer once per producer).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges; // (producer, consumer)
    for (std::uint32_t c = 0; c < nodeCount; ++c)
        for (const std::string& input : t.nodes[c].inputs) {
            const std::uint32_t p = findNode(inputNodeName(input));
            if (p != kNoIndex)
                edges.emplace_back(p, c);
        }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    m_consumerOffsets.assign(nodeCount + 1, 0);
    for (const auto& [p, c] : edges)
        ++m_consumerOffsets[p + 1];
    for (std::size_t i = 0; i < nodeCount; ++i)
        m_consumerOffsets[i + 1] += m_consumerOffsets[i];
    m_consumers.reserve(edges.size());
    for (const auto& edge : edges)
        m_consumers.push_back(edge.second);

    m_memoryLevels.resize(t.memory.size());
    m_memoryPeak.assign(t.memory.size(), 0);
    for (std::size_t c = 0; c < t.memory.size(); ++c) {
        auto& levels = m_memoryLevels[c];
        std::vector<std::int64_t> base;
        base.reserve(t.memory[c].samples.size());
        for (const auto& sample : t.memory[c].samples) {
            if (sample.second > (base.empty() ? std::numeric_limits<std::int64_t>::min() : base[m_memoryPeak[c]]))
                m_memoryPeak[c] = base.size();
            base.push_back(sample.second);
        }
        levels.push_back(std::move(base));
        while (levels.back().size() > 1) {
            const std::vector<std::int64_t>& below = levels.back();
            std::vector<std::int64_t> level((below.size() + 1) / 2);
            for (std::size_t i = 0; i < level.size(); ++i)
                level[i] = 2 * i + 1 < below.size() ? std::max(below[2 * i], below[2 * i + 1]) : below[2 * i];
            levels.push_back(std::move(level));
        }
    }
}

std::uint32_t TimelineIndex::findNode(std::string_view name) const
{
    const auto it = m_nodeByName.find(name);
    return it == m_nodeByName.end() ? kNoIndex : it->second;
}

std::span<const std::uint32_t> TimelineIndex::executions(std::uint32_t node) const
{
    if (node + 1 >= m_executionOffsets.size())
        return {};
    return std::span<const std::uint32_t>(m_executions)
        .subspan(m_executionOffsets[node], m_executionOffsets[node + 1] - m_executionOffsets[node]);
}

std::span<const std::uint32_t> TimelineIndex::consumerNodes(std::uint32_t node) const
{
    if (node + 1 >= m_consumerOffsets.size())
        return {};
    return std::span<const std::uint32_t>(m_consumers)
        .subspan(m_consumerOffsets[node], m_consumerOffsets[node + 1] - m_consumerOffsets[node]);
}

std::uint32_t TimelineIndex::firstExecution(std::uint32_t node, std::uint32_t step) const
{
    for (std::uint32_t e : executions(node))
        if (sameStep(step, m_trace->events[e]))
            return e;
    return kNoIndex;
}

std::uint32_t TimelineIndex::producerExecution(std::uint32_t producerNode, const TraceEvent& consumer) const
{
    const auto list = executions(producerNode);
    const auto& events = m_trace->events;
    // The executions that started no later than the consumer.
    std::size_t n = std::partition_point(list.begin(), list.end(),
                                         [&](std::uint32_t e) { return events[e].startNs <= consumer.startNs; }) -
                    list.begin();
    std::uint32_t fallback = kNoIndex;
    for (int scanned = 0; n > 0 && scanned < kMaxProducerScan; ++scanned) {
        const std::uint32_t candidate = list[--n];
        const TraceEvent& e = events[candidate];
        if (&e == &consumer)
            continue;
        if (beforeStep(consumer.step, e))
            break;
        if (!sameStep(consumer.step, e))
            continue;
        if (endOf(e) <= consumer.startNs)
            return candidate;
        if (fallback == kNoIndex && e.startNs < consumer.startNs)
            fallback = candidate;
    }
    return fallback;
}

std::vector<DependencyLink> TimelineIndex::producers(std::uint32_t event) const
{
    std::vector<DependencyLink> links;
    if (event >= m_trace->events.size())
        return links;
    const TraceEvent& e = m_trace->events[event];
    if (e.node >= m_trace->nodes.size())
        return links;
    for (const std::string& input : m_trace->nodes[e.node].inputs) {
        DependencyLink link;
        link.input = input;
        link.control = !input.empty() && input.front() == '^';
        link.node = findNode(inputNodeName(input));
        if (link.node != kNoIndex)
            link.event = producerExecution(link.node, e);
        links.push_back(std::move(link));
    }
    return links;
}

std::vector<DependencyLink> TimelineIndex::consumers(std::uint32_t event) const
{
    std::vector<DependencyLink> links;
    if (event >= m_trace->events.size())
        return links;
    const auto& events = m_trace->events;
    const TraceEvent& e = events[event];
    if (e.node >= m_trace->nodes.size())
        return links;
    const std::string& name = m_trace->nodes[e.node].name;
    for (std::uint32_t consumerNode : consumerNodes(e.node)) {
        bool data = false;
        for (const std::string& input : m_trace->nodes[consumerNode].inputs)
            data = data || (inputNodeName(input) == name && (input.empty() || input.front() != '^'));
        const auto list = executions(consumerNode);
        // Candidates start no earlier than the producer did (a consumer may be stamped as starting a little
        // before its producer's bookkeeping ended); the producer rule decides which one it feeds.
        std::size_t k = std::partition_point(list.begin(), list.end(),
                                             [&](std::uint32_t c) { return events[c].startNs < e.startNs; }) -
                        list.begin();
        for (; k < list.size(); ++k) {
            const TraceEvent& c = events[list[k]];
            if (list[k] == event || !sameStep(e.step, c))
                continue;
            if (producerExecution(e.node, c) == event) {
                links.push_back(DependencyLink{consumerNode, list[k], !data, {}});
                break;
            }
            if (c.startNs >= endOf(e))
                break; // it found a different producer execution; later ones will too
        }
    }
    return links;
}

std::vector<std::uint32_t> TimelineIndex::eventsOfNodes(const std::vector<char>& nodeMask) const
{
    std::vector<std::uint32_t> out;
    const std::size_t n = std::min(nodeMask.size(), m_trace->nodes.size());
    for (std::uint32_t node = 0; node < n; ++node)
        if (nodeMask[node]) {
            const auto list = executions(node);
            out.insert(out.end(), list.begin(), list.end());
        }
    const auto& events = m_trace->events;
    std::sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
        const TraceEvent& x = events[a];
        const TraceEvent& y = events[b];
        if (x.startNs != y.startNs)
            return x.startNs < y.startNs;
        return x.lane != y.lane ? x.lane < y.lane : a < b;
    });
    return out;
}

SelectionTotals TimelineIndex::selectionTotals(const std::vector<std::uint32_t>& lanes, std::int64_t startNs,
                                               std::int64_t endNs, std::uint32_t step) const
{
    SelectionTotals totals;
    const ProfileTrace& t = *m_trace;
    std::unordered_map<std::string_view, std::size_t> slot;
    totals.firstStartNs = std::numeric_limits<std::int64_t>::max();
    totals.lastEndNs = std::numeric_limits<std::int64_t>::min();
    for (std::uint32_t laneIndex : lanes) {
        if (laneIndex >= t.lanes.size())
            continue;
        const TraceLane& lane = t.lanes[laneIndex];
        const std::uint32_t first = std::min<std::uint32_t>(lane.firstEvent, std::uint32_t(t.events.size()));
        const std::uint32_t last =
            std::uint32_t(std::min<std::uint64_t>(std::uint64_t(first) + lane.eventCount, t.events.size()));
        for (std::uint32_t i = detail::firstEndingAtOrAfter(t, first, last, double(startNs));
             i < last && t.events[i].startNs <= endNs; ++i) {
            const TraceEvent& e = t.events[i];
            if (!sameStep(step, e))
                continue;
            const std::string_view op = e.node < t.nodes.size() ? std::string_view(t.nodes[e.node].op) : "";
            auto [it, added] = slot.emplace(op, totals.byOp.size());
            if (added)
                totals.byOp.push_back(OpTypeTotal{std::string(op), 0, 0});
            OpTypeTotal& total = totals.byOp[it->second];
            ++total.count;
            total.totalNs += e.durationNs;
            ++totals.count;
            totals.totalNs += e.durationNs;
            totals.firstStartNs = std::min(totals.firstStartNs, e.startNs);
            totals.lastEndNs = std::max(totals.lastEndNs, endOf(e));
        }
    }
    if (totals.count == 0)
        totals.firstStartNs = totals.lastEndNs = 0;
    std::sort(totals.byOp.begin(), totals.byOp.end(), [](const OpTypeTotal& a, const OpTypeTotal& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.op < b.op;
    });
    return totals;
}

std::vector<OpTypeChange> TimelineIndex::compareSteps(std::uint32_t a, std::uint32_t b) const
{
    std::vector<OpTypeChange> changes;
    const ProfileTrace& t = *m_trace;
    if (a >= t.steps.size() || b >= t.steps.size())
        return changes;
    std::unordered_map<std::string_view, std::size_t> slot;
    for (const TraceEvent& e : t.events) {
        if (e.step != a && e.step != b)
            continue;
        const std::string_view op = e.node < t.nodes.size() ? std::string_view(t.nodes[e.node].op) : "";
        auto [it, added] = slot.emplace(op, changes.size());
        if (added)
            changes.push_back(OpTypeChange{std::string(op)});
        OpTypeChange& change = changes[it->second];
        // A step compared with itself counts its events on both sides.
        if (e.step == a) {
            change.nsA += e.durationNs;
            ++change.countA;
        }
        if (e.step == b) {
            change.nsB += e.durationNs;
            ++change.countB;
        }
    }
    std::sort(changes.begin(), changes.end(), [](const OpTypeChange& x, const OpTypeChange& y) {
        const std::int64_t dx = std::llabs(x.nsB - x.nsA);
        const std::int64_t dy = std::llabs(y.nsB - y.nsA);
        return dx != dy ? dx > dy : x.op < y.op;
    });
    return changes;
}

std::int64_t TimelineIndex::memoryMax(std::uint32_t counter, std::size_t first, std::size_t last) const
{
    if (counter >= m_memoryLevels.size())
        return -1;
    const auto& levels = m_memoryLevels[counter];
    last = std::min(last, levels.empty() ? std::size_t(0) : levels[0].size());
    std::int64_t best = -1;
    for (std::size_t level = 0; first < last && level < levels.size(); ++level) {
        const auto& values = levels[level];
        if (first & 1)
            best = std::max(best, values[first++]);
        if (last & 1)
            best = std::max(best, values[--last]);
        first >>= 1;
        last >>= 1;
    }
    return best;
}

std::size_t TimelineIndex::memoryPeakSample(std::uint32_t counter) const
{
    return counter < m_memoryPeak.size() ? m_memoryPeak[counter] : 0;
}

} // namespace tstudio::profiler::timeline
