// TraceMaker: small ProfileTraces written by hand for the profiler's table and advice tests (lanes packed
// and steps finished by the trace builder's own functions, so the traces keep ProfileTrace's invariants).
#pragma once

#include "profiler/profile_trace.h"
#include "profiler/trace_builder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::testing {

/// The device names the hand-made traces use.
inline const std::string kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
inline const std::string kGpu = "/job:localhost/replica:0/task:0/device:GPU:0";

/// Bytes an event requested, its peak and what it left allocated.
struct TraceMemory {
    std::int64_t requested = 0;
    std::int64_t peak = 0;
    std::int64_t residual = 0;
};

class TraceMaker {
public:
    using Memory = TraceMemory;

    std::uint32_t device(const std::string& name, const std::string& type = "")
    {
        m_trace.devices.push_back({name, type.empty() ? profiler::traceDeviceType(name) : type});
        return static_cast<std::uint32_t>(m_trace.devices.size() - 1);
    }

    std::uint32_t lane(std::uint32_t device, std::int64_t thread = 0)
    {
        m_groups.push_back({device, profiler::LaneKind::Thread, "thread " + std::to_string(thread), thread});
        return static_cast<std::uint32_t>(m_groups.size() - 1);
    }

    std::uint32_t node(const std::string& name, const std::string& op, std::vector<std::string> inputs = {})
    {
        m_trace.nodes.push_back({name, op, std::move(inputs)});
        return static_cast<std::uint32_t>(m_trace.nodes.size() - 1);
    }

    std::uint32_t step(std::int64_t number)
    {
        m_trace.steps.push_back({number, 0, 0});
        return static_cast<std::uint32_t>(m_trace.steps.size() - 1);
    }

    /// One execution; `outputs` are the shapes of slots 0, 1, ... (float32, 4 bytes an element).
    void event(std::uint32_t lane, std::uint32_t node, std::uint32_t step, std::int64_t startNs,
               std::int64_t durationNs, Memory memory = {}, const std::vector<std::vector<std::int64_t>>& outputs = {})
    {
        profiler::TraceEvent e;
        e.lane = lane;
        e.node = node;
        e.step = step;
        e.startNs = startNs;
        e.durationNs = durationNs;
        e.requestedBytes = memory.requested;
        e.peakBytes = memory.peak;
        e.residualBytes = memory.residual;
        e.firstOutput = static_cast<std::uint32_t>(m_trace.outputs.size());
        for (std::size_t slot = 0; slot < outputs.size(); ++slot) {
            std::int64_t elements = 1;
            for (std::int64_t d : outputs[slot])
                elements *= d < 0 ? 0 : d;
            profiler::TraceOutput out;
            out.slot = static_cast<std::int32_t>(slot);
            out.dtype = 1; // DT_FLOAT
            out.shape = shape(outputs[slot]);
            out.requestedBytes = elements * 4;
            e.outputBytes += out.requestedBytes;
            m_trace.outputs.push_back(out);
        }
        e.outputCount = static_cast<std::uint32_t>(outputs.size());
        m_events.push_back(e);
    }

    profiler::ProfileTrace finish()
    {
        profiler::packLanes(m_trace, m_groups, m_events);
        profiler::finishSteps(m_trace);
        return m_trace;
    }

private:
    std::uint32_t shape(const std::vector<std::int64_t>& dims)
    {
        for (std::size_t i = 0; i < m_trace.shapes.size(); ++i)
            if (m_trace.shapes[i] == dims)
                return static_cast<std::uint32_t>(i);
        m_trace.shapes.push_back(dims);
        return static_cast<std::uint32_t>(m_trace.shapes.size() - 1);
    }

    profiler::ProfileTrace m_trace;
    std::vector<profiler::LaneGroup> m_groups;
    std::vector<profiler::TraceEvent> m_events;
};

} // namespace tstudio::testing
