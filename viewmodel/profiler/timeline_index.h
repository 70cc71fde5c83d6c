// TimelineIndex: lookups the timeline needs over a ProfileTrace (executions per node, producers and consumers
// of an execution, box-selection totals, step comparison, memory range maxima), built once per trace (Qt-free).
#pragma once

#include "profiler/profile_trace.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tstudio::profiler::timeline {

/// One end of a dependency arrow: `node` (always known when the input names a node of the trace) and its
/// execution `event` (kNoIndex when that node did not run in the step).
struct DependencyLink {
    std::uint32_t node = kNoIndex;
    std::uint32_t event = kNoIndex;
    bool control = false; ///< a "^name" control input
    std::string input;    ///< the input as the node lists it ("a:1", "^init"); empty for consumers
};

struct OpTypeTotal {
    std::string op;
    std::int64_t count = 0;
    std::int64_t totalNs = 0;
};

/// What a box selection holds: events of the chosen lanes that overlap the time range.
struct SelectionTotals {
    std::int64_t count = 0;
    std::int64_t totalNs = 0;
    std::int64_t firstStartNs = 0; ///< earliest start of a selected event (trace time)
    std::int64_t lastEndNs = 0;    ///< latest end
    std::vector<OpTypeTotal> byOp; ///< by total time, longest first (ties by name)
};

struct OpTypeChange {
    std::string op;
    std::int64_t nsA = 0;
    std::int64_t nsB = 0;
    std::int64_t countA = 0;
    std::int64_t countB = 0;
};

/// Immutable after construction; safe to share between canvases and threads.
class TimelineIndex {
public:
    explicit TimelineIndex(std::shared_ptr<const ProfileTrace> trace);

    const ProfileTrace& trace() const { return *m_trace; }
    const std::shared_ptr<const ProfileTrace>& sharedTrace() const { return m_trace; }

    /// kNoIndex when the trace has no node of that name.
    std::uint32_t findNode(std::string_view name) const;
    /// The events of `node`, sorted by start (ties by lane).
    std::span<const std::uint32_t> executions(std::uint32_t node) const;
    /// The nodes naming `node` among their inputs (data or control), each once, in node order.
    std::span<const std::uint32_t> consumerNodes(std::uint32_t node) const;
    /// The first execution of `node` in `step` (kNoIndex: any step), or kNoIndex.
    std::uint32_t firstExecution(std::uint32_t node, std::uint32_t step) const;

    /// For each input of the event's node: the producer node's execution in the same step that ended last at
    /// or before this event started (when none ended by then: the last one that started before it).
    std::vector<DependencyLink> producers(std::uint32_t event) const;
    /// For each consumer node: its first execution in the same step that started at or after this event
    /// ended and whose producer (by the rule above) is this event. Consumers that did not run are left out.
    std::vector<DependencyLink> consumers(std::uint32_t event) const;

    /// The events of the nodes with nodeMask[node] != 0 (the mask is as long as trace().nodes), ordered by
    /// start, then lane.
    std::vector<std::uint32_t> eventsOfNodes(const std::vector<char>& nodeMask) const;

    /// Events of `lanes` overlapping trace times [startNs, endNs]; with `step` != kNoIndex only that step's.
    SelectionTotals selectionTotals(const std::vector<std::uint32_t>& lanes, std::int64_t startNs, std::int64_t endNs,
                                    std::uint32_t step = kNoIndex) const;
    /// Time per op type in steps `a` and `b`, largest absolute change first (ties by name).
    std::vector<OpTypeChange> compareSteps(std::uint32_t a, std::uint32_t b) const;

    /// The largest sample of memory counter `counter` among samples [first, last), or -1 when empty.
    std::int64_t memoryMax(std::uint32_t counter, std::size_t first, std::size_t last) const;
    /// The index of the first sample holding the counter's largest value (0 for an empty counter).
    std::size_t memoryPeakSample(std::uint32_t counter) const;

private:
    std::uint32_t producerExecution(std::uint32_t producerNode, const TraceEvent& consumer) const;

    std::shared_ptr<const ProfileTrace> m_trace;
    std::unordered_map<std::string_view, std::uint32_t> m_nodeByName;
    std::vector<std::uint32_t> m_executionOffsets; ///< CSR: node -> [offsets[n], offsets[n + 1])
    std::vector<std::uint32_t> m_executions;
    std::vector<std::uint32_t> m_consumerOffsets;
    std::vector<std::uint32_t> m_consumers;
    /// Per memory counter: levels of pairwise maxima (level 0 = the samples), for O(log n) range maxima.
    std::vector<std::vector<std::vector<std::int64_t>>> m_memoryLevels;
    std::vector<std::size_t> m_memoryPeak;
};

/// The node name an input refers to: "a:1" -> "a", "^a" -> "a".
std::string_view inputNodeName(std::string_view input);

} // namespace tstudio::profiler::timeline
