// Tests for traceFromStepStats: a real traced run of our Session, TensorFlow's lane rule (nested and
// touching records, checked against a plain reference over random StepStats), TF 2 "name:Op" names and
// timeline labels, GPU stream pseudo-devices, memory counters and steps.
#include "profiler/trace_builder.h"

#include "traced_run.h"

#include <QTest>

#include <limits>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace tstudio;
using namespace tstudio::profiler;

namespace {

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";

tensorflow::NodeExecStats* record(tensorflow::DeviceStepStats* device, const std::string& name, std::int64_t startUs,
                                  std::int64_t durationUs, std::uint32_t thread = 0, const std::string& label = "")
{
    auto* n = device->add_node_stats();
    n->set_node_name(name);
    n->set_timeline_label(label.empty() ? name + " = NoOp()" : label);
    n->set_all_start_micros(startUs);
    n->set_all_end_rel_micros(durationUs);
    n->set_thread_id(thread);
    return n;
}

/// Every lane sorted by start and free of overlaps, lanes grouped by device in device order, every
/// event inside its lane's range. Returns "" or what is wrong.
std::string checkLaneInvariant(const ProfileTrace& trace)
{
    std::uint32_t previousDevice = 0;
    std::size_t covered = 0;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        const TraceLane& lane = trace.lanes[l];
        if (lane.device < previousDevice)
            return "lane " + std::to_string(l) + " is out of device order";
        previousDevice = lane.device;
        if (lane.eventCount == 0)
            return "lane " + std::to_string(l) + " is empty";
        if (lane.firstEvent != covered)
            return "lane " + std::to_string(l) + " does not follow the previous lane's events";
        covered += lane.eventCount;
        for (std::uint32_t i = lane.firstEvent; i < lane.firstEvent + lane.eventCount; ++i) {
            if (trace.events[i].lane != l)
                return "event " + std::to_string(i) + " names another lane";
            if (i > lane.firstEvent) {
                const TraceEvent& before = trace.events[i - 1];
                if (before.startNs + before.durationNs >= trace.events[i].startNs)
                    return "events " + std::to_string(i - 1) + " and " + std::to_string(i) + " of lane " +
                           std::to_string(l) + " overlap or touch";
            }
        }
    }
    if (covered != trace.events.size())
        return "lanes cover " + std::to_string(covered) + " of " + std::to_string(trace.events.size()) + " events";
    return "";
}

/// The lane names of the events of node `name`, in time order.
std::vector<std::string> lanesOf(const ProfileTrace& trace, const std::string& name)
{
    std::vector<std::pair<std::int64_t, std::string>> found;
    for (const TraceEvent& e : trace.events)
        if (trace.nodes[e.node].name == name)
            found.emplace_back(e.startNs, trace.lanes[e.lane].name);
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto& f : found)
        out.push_back(f.second);
    return out;
}

} // namespace

class TestTraceBuilder : public QObject {
    Q_OBJECT

private slots:
    void realTracedRuns()
    {
        auto runs = testing::tracedRuns(3);
        QVERIFY2(runs, runs ? "" : runs.error().toString().c_str());
        std::vector<TracedStep> steps;
        std::size_t records = 0;
        std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
        std::map<std::string, std::pair<std::string, const tensorflow::NodeExecStats*>> lastRun;
        for (const testing::TracedRun& run : *runs) {
            steps.push_back({run.step, run.metadata.step_stats()});
            for (const auto& device : run.metadata.step_stats().dev_stats())
                for (const auto& node : device.node_stats()) {
                    ++records;
                    earliest = std::min(earliest, node.all_start_nanos());
                    lastRun[node.node_name()] = {device.device(), &node};
                }
        }
        const ProfileTrace trace = traceFromStepStats(steps);
        QCOMPARE(checkLaneInvariant(trace), std::string());
        QCOMPARE(trace.events.size(), records);
        QCOMPARE(trace.originNs, earliest);
        QCOMPARE(trace.devices.size(), std::size_t(2));
        QCOMPARE(trace.devices[0].name, kCpu0);
        QCOMPARE(trace.devices[1].name, kCpu1);
        QCOMPARE(trace.devices[1].type, std::string("CPU"));

        // Nodes, ops and inputs from the labels our Session writes.
        const std::uint32_t matmul = trace.findNode("layer/MatMul");
        QVERIFY(matmul != kNoIndex);
        QCOMPARE(trace.nodes[matmul].op, std::string("MatMul"));
        QCOMPARE(trace.nodes[matmul].inputs, (std::vector<std::string>{"x", "w"}));
        const std::uint32_t relu = trace.findNode("layer/Relu");
        QVERIFY(relu != kNoIndex);
        QCOMPARE(trace.nodes[relu].op, std::string("Relu"));
        QCOMPARE(trace.nodes[relu].inputs, (std::vector<std::string>{"layer/add"}));

        // Steps 1, 2, 3 in time order, each bounding its events.
        QCOMPARE(trace.steps.size(), std::size_t(3));
        for (std::size_t s = 0; s < 3; ++s) {
            QCOMPARE(trace.steps[s].number, std::int64_t(s + 1));
            if (s > 0)
                QVERIFY(trace.steps[s].startNs >= trace.steps[s - 1].endNs);
        }
        std::size_t inLastStep = 0;
        for (const TraceEvent& e : trace.events) {
            const TraceStep& step = trace.steps.at(e.step);
            QVERIFY(e.startNs >= step.startNs && e.startNs + e.durationNs <= step.endNs);
            if (e.step != 2)
                continue;
            ++inLastStep;
            // Times, outputs and bytes of the last run, record for record.
            const auto& [deviceName, recorded] = lastRun.at(trace.nodes[e.node].name);
            const tensorflow::NodeExecStats& node = *recorded;
            QCOMPARE(e.startNs + trace.originNs, node.all_start_nanos());
            QCOMPARE(e.durationNs, node.all_end_rel_nanos());
            QCOMPARE(e.outputCount, std::uint32_t(node.output_size()));
            QCOMPARE(trace.devices[trace.lanes[e.lane].device].name, deviceName);
            QCOMPARE(trace.lanes[e.lane].threadId, std::int64_t(node.thread_id()));
            std::int64_t requested = 0;
            for (const auto& memory : node.memory())
                requested += memory.total_bytes();
            QCOMPARE(e.requestedBytes, requested);
        }
        QCOMPARE(inLastStep,
                 static_cast<std::size_t>(runs->back().metadata.step_stats().dev_stats(0).node_stats_size() +
                                          runs->back().metadata.step_stats().dev_stats(1).node_stats_size()));
        // MatMul's output: float [4, 16], 256 bytes; relu ran on CPU:1.
        for (const TraceEvent& e : trace.events) {
            if (e.node == matmul) {
                QCOMPARE(e.outputCount, 1u);
                const TraceOutput& out = trace.outputs[e.firstOutput];
                QCOMPARE(out.dtype, std::int32_t(tensorflow::DT_FLOAT));
                QCOMPARE(trace.shapes.at(out.shape), (std::vector<std::int64_t>{4, 16}));
                QCOMPARE(out.requestedBytes, std::int64_t(256));
                QCOMPARE(e.outputBytes, std::int64_t(256));
                QCOMPARE(trace.lanes[e.lane].device, 0u);
            }
            if (e.node == relu)
                QCOMPARE(trace.lanes[e.lane].device, 1u);
        }
        // Lanes are threads of our executor.
        for (const TraceLane& lane : trace.lanes) {
            QCOMPARE(lane.kind, LaneKind::Thread);
            QVERIFY(lane.name.rfind("thread " + std::to_string(lane.threadId), 0) == 0);
        }
        // One memory counter per allocator, its peak the largest bytes in use recorded.
        std::map<std::string, std::int64_t> peaks;
        for (const auto& run : *runs)
            for (const auto& device : run.metadata.step_stats().dev_stats())
                for (const auto& node : device.node_stats())
                    for (const auto& memory : node.memory())
                        peaks[memory.allocator_name()] =
                            std::max(peaks[memory.allocator_name()], memory.allocator_bytes_in_use());
        QVERIFY(!peaks.empty());
        QCOMPARE(trace.memory.size(), peaks.size());
        for (const MemoryCounter& counter : trace.memory) {
            QCOMPARE(counter.peakBytes, peaks.at(counter.allocator));
            QVERIFY(std::is_sorted(counter.samples.begin(), counter.samples.end(),
                                   [](const auto& a, const auto& b) { return a.first < b.first; }));
        }
    }

    void nestedAndTouchingRecordsGetSubLanes()
    {
        tensorflow::StepStats stats;
        auto* dev = stats.add_dev_stats();
        dev->set_device(kCpu0);
        (*dev->mutable_thread_names())[3] = "worker";
        // Records out of time order, as a collector adds them when they finish.
        record(dev, "later", 1150, 10, 5);
        record(dev, "grandchild", 1012, 3, 5);
        record(dev, "parent", 1000, 100, 5);
        record(dev, "child", 1010, 10, 5);
        record(dev, "sibling", 1030, 10, 5);
        record(dev, "other", 1000, 500, 3);
        auto* cpu1 = stats.add_dev_stats();
        cpu1->set_device(kCpu1);
        record(cpu1, "first", 1000, 10, 0);
        record(cpu1, "touching", 1010, 10, 0); // starts as "first" ends: not strictly after it
        record(cpu1, "after", 1021, 1, 0);

        const ProfileTrace trace = traceFromStepStats(stats, 4);
        QCOMPARE(checkLaneInvariant(trace), std::string());
        std::vector<std::string> names;
        for (const TraceLane& lane : trace.lanes)
            names.push_back(lane.name);
        // Lanes of a device by thread id; sub-lanes follow their lane.
        QCOMPARE(names, (std::vector<std::string>{"worker", "thread 5", "thread 5 (2)", "thread 5 (3)", "thread 0",
                                                  "thread 0 (2)"}));
        QCOMPARE(lanesOf(trace, "parent"), std::vector<std::string>{"thread 5"});
        QCOMPARE(lanesOf(trace, "child"), std::vector<std::string>{"thread 5 (2)"});
        QCOMPARE(lanesOf(trace, "grandchild"), std::vector<std::string>{"thread 5 (3)"});
        QCOMPARE(lanesOf(trace, "sibling"), std::vector<std::string>{"thread 5 (2)"});
        QCOMPARE(lanesOf(trace, "later"), std::vector<std::string>{"thread 5"});
        QCOMPARE(lanesOf(trace, "touching"), std::vector<std::string>{"thread 0 (2)"});
        QCOMPARE(lanesOf(trace, "after"), std::vector<std::string>{"thread 0"});
        QCOMPARE(trace.lanes[0].threadId, std::int64_t(3));
        QCOMPARE(trace.lanes[2].threadId, std::int64_t(5));
        QCOMPARE(trace.originNs, std::int64_t(1000000));
        QCOMPARE(trace.steps.size(), std::size_t(1));
        QCOMPARE(trace.steps[0].number, std::int64_t(4));
        QCOMPARE(trace.steps[0].startNs, std::int64_t(0));
        QCOMPARE(trace.steps[0].endNs, std::int64_t(500000));
        QCOMPARE(trace.endNs(), std::int64_t(500000));
    }

    void lanesMatchTensorFlowsRuleOnRandomStepStats()
    {
        // Property: over random records (overlapping, nested, out of order, several threads and devices)
        // every lane is sorted and free of overlaps, no record is lost, and each record lands in the
        // sub-lane a plain O(n * lanes) replay of TensorFlow's rule picks.
        std::mt19937 random(20240611);
        for (int round = 0; round < 40; ++round) {
            tensorflow::StepStats stats;
            const int deviceCount = 1 + static_cast<int>(random() % 3);
            std::map<std::pair<int, std::uint32_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> byThread;
            std::multiset<std::tuple<std::string, std::int64_t, std::int64_t>> expected;
            for (int d = 0; d < deviceCount; ++d) {
                auto* dev = stats.add_dev_stats();
                dev->set_device("/job:localhost/replica:0/task:0/device:CPU:" + std::to_string(d));
                const int count = static_cast<int>(random() % 300);
                for (int i = 0; i < count; ++i) {
                    const std::uint32_t thread = random() % 4;
                    const std::int64_t start = 1000 + static_cast<std::int64_t>(random() % 2000);
                    const std::int64_t duration = static_cast<std::int64_t>(random() % (round % 2 ? 400 : 20));
                    const std::string name = "n" + std::to_string(d) + "_" + std::to_string(i);
                    auto* n = record(dev, name, 0, 0, thread);
                    n->set_all_start_nanos(start * 1000 + static_cast<std::int64_t>(random() % 1000));
                    n->set_all_end_rel_nanos(duration * 1000);
                    byThread[{d, thread}].emplace_back(n->all_start_nanos(), n->all_end_rel_nanos());
                    expected.emplace(name, n->all_start_nanos(), n->all_end_rel_nanos());
                }
            }
            const ProfileTrace trace = traceFromStepStats(stats);
            QCOMPARE(checkLaneInvariant(trace), std::string());
            std::multiset<std::tuple<std::string, std::int64_t, std::int64_t>> got;
            for (const TraceEvent& e : trace.events)
                got.emplace(trace.nodes[e.node].name, e.startNs + trace.originNs, e.durationNs);
            QCOMPARE(got, expected);

            // The reference: per (device, thread), records by start (longer first on ties), each to the
            // first sub-lane whose last end is strictly before its start.
            for (auto& [key, records] : byThread) {
                std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
                    if (a.first != b.first)
                        return a.first < b.first;
                    return a.first + a.second > b.first + b.second;
                });
                std::vector<std::int64_t> ends;
                std::vector<std::uint32_t> counts;
                for (const auto& [start, duration] : records) {
                    std::size_t lane = 0;
                    while (lane < ends.size() && !(ends[lane] < start))
                        ++lane;
                    if (lane == ends.size()) {
                        ends.push_back(0);
                        counts.push_back(0);
                    }
                    ends[lane] = start + duration;
                    ++counts[lane];
                }
                // The trace's sub-lanes of this thread, in order, hold the same numbers of records.
                std::vector<std::uint32_t> traceCounts;
                for (const TraceLane& lane : trace.lanes)
                    if (lane.device == static_cast<std::uint32_t>(key.first) && lane.threadId == key.second)
                        traceCounts.push_back(lane.eventCount);
                QCOMPARE(traceCounts, counts);
            }
        }
    }

    void tf2NamesAndTimelineLabels()
    {
        tensorflow::StepStats stats;
        auto* dev = stats.add_dev_stats();
        dev->set_device(kCpu0);
        record(dev, "dense/MatMul:MatMul", 10, 1, 0, "not a label"); // TF 2: op from the name
        record(dev, "dense/BiasAdd:BiasAdd", 12, 1, 0, "dense/BiasAdd = Foo(dense/MatMul, b)"); // label wins
        record(dev, "plain", 14, 1, 0, "garbage");                                              // neither: unknown
        record(dev, "dense/MatMul:MatMul", 16, 1, 0, "x = Other()"); // first execution decides
        const ProfileTrace trace = traceFromStepStats(stats);
        QCOMPARE(trace.nodes.size(), std::size_t(3));
        const TraceNode& matmul = trace.nodes.at(trace.findNode("dense/MatMul"));
        QCOMPARE(matmul.op, std::string("MatMul"));
        QVERIFY(matmul.inputs.empty());
        const TraceNode& bias = trace.nodes.at(trace.findNode("dense/BiasAdd"));
        QCOMPARE(bias.op, std::string("Foo"));
        QCOMPARE(bias.inputs, (std::vector<std::string>{"dense/MatMul", "b"}));
        QCOMPARE(trace.nodes.at(trace.findNode("plain")).op, std::string("unknown"));
        QCOMPARE(trace.events.size(), std::size_t(4));
    }

    void timelineLabelsParseAsTensorFlowsRegex()
    {
        // re.match(r'(.*) = (.*)\((.*)\)', label): greedy groups, '.' stops at a newline, text after the
        // last ')' allowed.
        struct Case {
            std::string label;
            bool parses;
            std::string op;
            std::vector<std::string> inputs;
        };
        const std::vector<Case> cases = {
            {"a = Add(b, c:1)", true, "Add", {"b", "c:1"}},
            {"a = NoOp()", true, "NoOp", {}},
            {"a = NoOp(^b)", true, "NoOp", {"^b"}},
            {"x = y = Op(a)", true, "Op", {"a"}},
            {"a = Op(b, f(c))", true, "Op(b, f", {"c)"}},
            {"a = Op(x) trailing", true, "Op", {"x"}},
            {"a = Op(x)\nmore = Other(y)", true, "Op", {"x"}},
            {"a = Op(b,c)", true, "Op", {"b,c"}},
            {"a = (x)", true, "", {"x"}},
            {"a=Op(x)", false, "", {}},
            {"a = Op", false, "", {}},
            {"= Op(x)", false, "", {}},
            {"", false, "", {}},
        };
        for (const Case& c : cases) {
            std::string op = "unset";
            std::vector<std::string> inputs;
            const bool parsed = parseTimelineLabel(c.label, &op, &inputs);
            QVERIFY2(parsed == c.parses, c.label.c_str());
            if (c.parses) {
                QCOMPARE(op, c.op);
                QCOMPARE(inputs, c.inputs);
            }
        }
    }

    void gpuStreamPseudoDevices()
    {
        tensorflow::StepStats stats;
        auto* compute = stats.add_dev_stats();
        compute->set_device("/job:localhost/replica:0/task:0/device:GPU:0");
        record(compute, "conv", 100, 5, 0, "conv = Conv2D(x, k)");
        auto* stream = stats.add_dev_stats();
        stream->set_device("/device:GPU:0/stream:7");
        record(stream, "conv:Conv2D", 101, 3, 0, "volta_scudnn_128x64 @@conv:Conv2D#id=7#");
        auto* all = stats.add_dev_stats();
        all->set_device("/gpu:0/stream:all");
        record(all, "conv:Conv2D", 101, 3, 0, "volta_scudnn_128x64");
        auto* memcpy = stats.add_dev_stats();
        memcpy->set_device("/job:localhost/replica:0/task:0/device:GPU:0/memcpy");
        record(memcpy, "edge_1_x:MEMCPYHtoD", 99, 1, 0, "MEMCPYHtoD 64 bytes");
        const ProfileTrace trace = traceFromStepStats(stats);
        QCOMPARE(trace.devices.size(), std::size_t(4));
        for (const TraceDevice& device : trace.devices)
            QCOMPARE(device.type, std::string("GPU"));
        QCOMPARE(trace.lanes.size(), std::size_t(4));
        QCOMPARE(trace.lanes[0].kind, LaneKind::Thread);
        QCOMPARE(trace.lanes[1].kind, LaneKind::Stream);
        QCOMPARE(trace.lanes[1].name, std::string("stream 7"));
        QCOMPARE(trace.lanes[2].name, std::string("stream all"));
        QCOMPARE(trace.lanes[3].name, std::string("memcpy"));
        QCOMPARE(trace.lanes[3].kind, LaneKind::Stream);
        // The kernels are executions of the node "conv", whose op and inputs come from the compute record.
        const std::uint32_t conv = trace.findNode("conv");
        QCOMPARE(trace.nodes[conv].op, std::string("Conv2D"));
        QCOMPARE(trace.nodes[conv].inputs, (std::vector<std::string>{"x", "k"}));
        int convEvents = 0;
        for (const TraceEvent& e : trace.events)
            convEvents += e.node == conv;
        QCOMPARE(convEvents, 3);
        QCOMPARE(trace.nodes.at(trace.findNode("edge_1_x")).op, std::string("MEMCPYHtoD"));
    }

    void deviceTypesFromNames()
    {
        QCOMPARE(traceDeviceType("/job:localhost/replica:0/task:0/device:GPU:0"), std::string("GPU"));
        QCOMPARE(traceDeviceType("/job:localhost/replica:0/task:0/device:CPU:0"), std::string("CPU"));
        QCOMPARE(traceDeviceType("/device:XLA_GPU:1/stream:3"), std::string("GPU"));
        QCOMPARE(traceDeviceType("/gpu:0/stream:all"), std::string("GPU"));
        QCOMPARE(traceDeviceType("/job:worker/cpu:0"), std::string("CPU"));
        QCOMPARE(traceDeviceType("/host:CPU"), std::string(""));
        QCOMPARE(traceDeviceType("/job:localhost/replica:0/task:0/device:TPU:0"), std::string(""));
        QCOMPARE(traceDeviceType("python3"), std::string(""));
        QVERIFY(isStreamDevice("/device:GPU:0/stream:7"));
        QVERIFY(isStreamDevice("/device:GPU:0/memcpy"));
        QVERIFY(!isStreamDevice("/device:GPU:0"));
    }

    void memoryCountersAndBytes()
    {
        tensorflow::StepStats stats;
        auto* dev = stats.add_dev_stats();
        dev->set_device(kCpu0);
        auto addMemory = [](tensorflow::NodeExecStats* n, const std::string& allocator, std::int64_t total,
                            std::int64_t peak, std::int64_t live, std::int64_t inUse) {
            auto* m = n->add_memory();
            m->set_allocator_name(allocator);
            m->set_total_bytes(total);
            m->set_peak_bytes(peak);
            m->set_live_bytes(live);
            m->set_allocator_bytes_in_use(inUse);
            return m;
        };
        auto* a = record(dev, "a", 1000, 10);
        addMemory(a, "cpu", 64, 80, 64, 300);
        auto* gpu = addMemory(a, "GPU_0_bfc", 32, 32, 0, 0);
        for (auto [micros, bytes] :
             std::vector<std::pair<std::int64_t, std::int64_t>>{{1007, 32}, {1003, 64}, {1009, -64}}) {
            auto* r = gpu->add_allocation_records();
            r->set_alloc_micros(micros);
            r->set_alloc_bytes(bytes);
        }
        auto* b = record(dev, "b", 1002, 3, 1); // ends first: its sample comes first
        addMemory(b, "cpu", 16, 16, 0, 100);
        const ProfileTrace trace = traceFromStepStats(stats);

        const TraceEvent& ea = trace.events[trace.lanes[0].firstEvent];
        QCOMPARE(trace.nodes[ea.node].name, std::string("a"));
        QCOMPARE(ea.requestedBytes, std::int64_t(96));
        QCOMPARE(ea.peakBytes, std::int64_t(112));
        QCOMPARE(ea.residualBytes, std::int64_t(64));

        QCOMPARE(trace.memory.size(), std::size_t(2));
        const MemoryCounter& cpu = trace.memory[0];
        QCOMPARE(cpu.allocator, std::string("cpu"));
        QCOMPARE(cpu.device, 0u);
        using Samples = std::vector<std::pair<std::int64_t, std::int64_t>>;
        QCOMPARE(cpu.samples, (Samples{{5000, 100}, {10000, 300}}));
        QCOMPARE(cpu.peakBytes, std::int64_t(300));
        // No bytes in use reported: the allocation records' running sum instead.
        const MemoryCounter& bfc = trace.memory[1];
        QCOMPARE(bfc.allocator, std::string("GPU_0_bfc"));
        QCOMPARE(bfc.samples, (Samples{{3000, 64}, {7000, 96}, {9000, 32}}));
        QCOMPARE(bfc.peakBytes, std::int64_t(96));
    }

    /// Times a timeline cannot hold (microseconds whose nanoseconds overflow an int64, negative
    /// ones: a damaged RunMetadata, found by the run_metadata fuzz target under UBSan) are clamped to
    /// [0, 2^62 - 1] ns: every event keeps start <= end and the lanes stay ordered.
    void absurdTimesAreClamped()
    {
        tensorflow::StepStats stats;
        auto* device = stats.add_dev_stats();
        device->set_device(kCpu0);
        record(device, "normal", 1000, 10);
        record(device, "far", std::numeric_limits<std::int64_t>::max() / 100, std::numeric_limits<std::int64_t>::max() / 7);
        record(device, "before", -5, -3);
        const ProfileTrace trace = traceFromStepStats(stats);
        QCOMPARE(trace.events.size(), std::size_t(3));
        QCOMPARE(trace.originNs, std::int64_t(0)); // the negative start, clamped
        constexpr std::int64_t kMax = (std::int64_t{1} << 62) - 1;
        std::int64_t latestEnd = 0;
        for (const TraceEvent& e : trace.events) {
            QVERIFY(e.startNs >= 0 && e.durationNs >= 0);
            QVERIFY(e.startNs <= kMax && e.durationNs <= kMax);
            latestEnd = std::max(latestEnd, e.startNs + e.durationNs);
        }
        QCOMPARE(latestEnd, 2 * kMax); // the far record: both parts clamped, their sum still an int64
        QCOMPARE(checkLaneInvariant(trace), std::string());
    }

    void stepsInTimeOrderWithoutEmptyRuns()
    {
        std::vector<TracedStep> steps(3);
        steps[0].number = 20;
        auto* late = steps[0].stats.add_dev_stats();
        late->set_device(kCpu0);
        record(late, "x", 5000, 10);
        steps[1].number = 30; // untraced: no records
        steps[2].number = 10;
        auto* early = steps[2].stats.add_dev_stats();
        early->set_device(kCpu0);
        record(early, "x", 1000, 10);
        record(early, "y", 1020, 30);
        const ProfileTrace trace = traceFromStepStats(steps);
        QCOMPARE(trace.steps.size(), std::size_t(2));
        QCOMPARE(trace.steps[0].number, std::int64_t(10));
        QCOMPARE(trace.steps[0].startNs, std::int64_t(0));
        QCOMPARE(trace.steps[0].endNs, std::int64_t(50000));
        QCOMPARE(trace.steps[1].number, std::int64_t(20));
        QCOMPARE(trace.steps[1].startNs, std::int64_t(4000000));
        for (const TraceEvent& e : trace.events)
            QCOMPARE(e.step, e.startNs < 4000000 ? 0u : 1u);
        // Micros when no nanos were recorded.
        QCOMPARE(trace.originNs, std::int64_t(1000000));
        QCOMPARE(traceFromStepStats(std::vector<TracedStep>{}).events.size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTraceBuilder)
#include "test_trace_builder.moc"
