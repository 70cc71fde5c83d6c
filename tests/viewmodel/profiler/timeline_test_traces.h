// Hand-made ProfileTraces for the timeline tests: a two-step, two-device trace whose every time is known, and
// a dense trace of any size.
#pragma once

#include "profiler/profile_trace.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tstudio::testing::timeline {

using namespace tstudio::profiler;

/// Builds a ProfileTrace: events are given per lane in any order and laid out lane by lane on finish().
class TraceMaker {
public:
    std::uint32_t device(const std::string& name, const std::string& type)
    {
        m_trace.devices.push_back(TraceDevice{name, type});
        return std::uint32_t(m_trace.devices.size() - 1);
    }
    /// Lanes must be added device by device.
    std::uint32_t lane(std::uint32_t device, const std::string& name, LaneKind kind = LaneKind::Thread)
    {
        TraceLane lane;
        lane.device = device;
        lane.kind = kind;
        lane.name = name;
        m_trace.lanes.push_back(lane);
        m_laneEvents.emplace_back();
        return std::uint32_t(m_trace.lanes.size() - 1);
    }
    std::uint32_t node(const std::string& name, const std::string& op, std::vector<std::string> inputs = {})
    {
        m_trace.nodes.push_back(TraceNode{name, op, std::move(inputs)});
        m_nodeIndex[name] = std::uint32_t(m_trace.nodes.size() - 1);
        return std::uint32_t(m_trace.nodes.size() - 1);
    }
    std::uint32_t step(std::int64_t number, std::int64_t startNs, std::int64_t endNs)
    {
        m_trace.steps.push_back(TraceStep{number, startNs, endNs});
        return std::uint32_t(m_trace.steps.size() - 1);
    }
    /// An execution of node `name`; `outputs` are (dtype, dims, bytes).
    void event(std::uint32_t lane, const std::string& name, std::uint32_t step, std::int64_t startNs,
               std::int64_t durationNs,
               std::vector<std::tuple<int, std::vector<std::int64_t>, std::int64_t>> outputs = {},
               std::int64_t peakBytes = 0)
    {
        TraceEvent e;
        e.startNs = startNs;
        e.durationNs = durationNs;
        e.node = m_nodeIndex.at(name);
        e.lane = lane;
        e.step = step;
        e.peakBytes = peakBytes;
        e.firstOutput = std::uint32_t(m_trace.outputs.size());
        for (const auto& [dtype, dims, bytes] : outputs) {
            TraceOutput out;
            out.slot = std::int32_t(e.outputCount++);
            out.dtype = dtype;
            out.shape = std::uint32_t(m_trace.shapes.size());
            m_trace.shapes.push_back(dims);
            out.requestedBytes = bytes;
            e.outputBytes += bytes;
            e.requestedBytes += bytes;
            m_trace.outputs.push_back(out);
        }
        m_laneEvents[lane].push_back(e);
    }
    void memory(const std::string& allocator, std::uint32_t device,
                std::vector<std::pair<std::int64_t, std::int64_t>> samples)
    {
        MemoryCounter counter;
        counter.allocator = allocator;
        counter.device = device;
        counter.samples = std::move(samples);
        for (const auto& s : counter.samples)
            counter.peakBytes = std::max(counter.peakBytes, s.second);
        m_trace.memory.push_back(std::move(counter));
    }
    std::shared_ptr<const ProfileTrace> finish()
    {
        for (std::size_t l = 0; l < m_laneEvents.size(); ++l) {
            auto& events = m_laneEvents[l];
            std::sort(events.begin(), events.end(),
                      [](const TraceEvent& a, const TraceEvent& b) { return a.startNs < b.startNs; });
            m_trace.lanes[l].firstEvent = std::uint32_t(m_trace.events.size());
            m_trace.lanes[l].eventCount = std::uint32_t(events.size());
            m_trace.events.insert(m_trace.events.end(), events.begin(), events.end());
        }
        return std::make_shared<const ProfileTrace>(std::move(m_trace));
    }

private:
    ProfileTrace m_trace;
    std::vector<std::vector<TraceEvent>> m_laneEvents;
    std::map<std::string, std::uint32_t> m_nodeIndex;
};

inline constexpr int kFloat = 1; // tensorflow::DT_FLOAT

/// Two steps (numbers 10 and 11) of a small network on CPU:0 (threads 1 and 2) and GPU:0 (stream 7):
///   x = Placeholder, w = Const, b = Const, mm = MatMul(x, w), add = Add(mm, b), relu = Relu(add),
///   loss = Sum(relu, ^init), init = NoOp.
/// Step 0 spans [0, 30 us]: x [0,1us] t1, w [0,1.5us] t2, b [3,3.5us] t2, mm [2,12us] t1, add [13,15us] t1,
///   relu [16,17us] stream, loss [20,25us] t1 (init does not run).
/// Step 1 is step 0 shifted by 200 us, except mm takes 20 us [202,222] and add 1 us [223,224]; relu [226,227],
///   loss [230,235].
/// Memory: allocator "cpu" on CPU:0 with samples (1us, 100) (12us, 400000) (15us, 300) (25us, 100).
inline std::shared_ptr<const ProfileTrace> twoStepTrace()
{
    TraceMaker m;
    const std::uint32_t cpu = m.device("/job:localhost/replica:0/task:0/device:CPU:0", "CPU");
    const std::uint32_t gpu = m.device("/job:localhost/replica:0/task:0/device:GPU:0", "GPU");
    const std::uint32_t t1 = m.lane(cpu, "thread 1");
    const std::uint32_t t2 = m.lane(cpu, "thread 2");
    const std::uint32_t stream = m.lane(gpu, "stream 7", LaneKind::Stream);
    m.node("x", "Placeholder");
    m.node("w", "Const");
    m.node("b", "Const");
    m.node("mm", "MatMul", {"x", "w"});
    m.node("add", "Add", {"mm", "b"});
    m.node("relu", "Relu", {"add"});
    m.node("loss", "Sum", {"relu", "^init"});
    m.node("init", "NoOp");
    const std::uint32_t s0 = m.step(10, 0, 25000);
    const std::uint32_t s1 = m.step(11, 200000, 235000);
    for (std::uint32_t s : {s0, s1}) {
        const std::int64_t o = s == s0 ? 0 : 200000;
        m.event(t1, "x", s, o + 0, 1000, {{kFloat, {100, 784}, 313600}});
        m.event(t2, "w", s, o + 0, 1500, {{kFloat, {784, 500}, 1568000}});
        m.event(t2, "b", s, o + 3000, 500, {{kFloat, {500}, 2000}});
        m.event(t1, "mm", s, o + 2000, s == s0 ? 10000 : 20000, {{kFloat, {100, 500}, 200000}}, 400000);
        m.event(t1, "add", s, s == s0 ? 13000 : 223000, s == s0 ? 2000 : 1000, {{kFloat, {100, 500}, 200000}});
        m.event(stream, "relu", s, s == s0 ? 16000 : 226000, 1000, {{kFloat, {100, 500}, 200000}});
        m.event(t1, "loss", s, s == s0 ? 20000 : 230000, 5000, {{kFloat, {}, 4}});
    }
    m.memory("cpu", cpu, {{1000, 100}, {12000, 400000}, {15000, 300}, {25000, 100}});
    return m.finish();
}

/// `lanes` lanes on one CPU device of `perLane` events each: event k of a lane starts at k * 1000 ns and
/// lasts 400 ns (600 ns gaps), nodes "n<k % nodes>" with ops cycling MatMul, Add, Relu, Conv2D.
inline std::shared_ptr<const ProfileTrace> denseTrace(int lanes, int perLane, int nodes = 1000)
{
    auto trace = std::make_shared<ProfileTrace>();
    trace->devices.push_back(TraceDevice{"/job:localhost/replica:0/task:0/device:CPU:0", "CPU"});
    static const char* kOps[] = {"MatMul", "Add", "Relu", "Conv2D"};
    for (int n = 0; n < nodes; ++n)
        trace->nodes.push_back(TraceNode{"n" + std::to_string(n), kOps[n % 4], {}});
    trace->steps.push_back(TraceStep{0, 0, std::int64_t(perLane - 1) * 1000 + 400});
    trace->events.reserve(std::size_t(lanes) * std::size_t(perLane));
    for (int l = 0; l < lanes; ++l) {
        TraceLane lane;
        lane.device = 0;
        lane.name = "thread " + std::to_string(l);
        lane.threadId = l;
        lane.firstEvent = std::uint32_t(trace->events.size());
        lane.eventCount = std::uint32_t(perLane);
        trace->lanes.push_back(lane);
        for (int k = 0; k < perLane; ++k) {
            TraceEvent e;
            e.startNs = std::int64_t(k) * 1000;
            e.durationNs = 400;
            e.node = std::uint32_t((k + l) % nodes);
            e.lane = std::uint32_t(l);
            e.step = 0;
            trace->events.push_back(e);
        }
    }
    return trace;
}

} // namespace tstudio::testing::timeline
