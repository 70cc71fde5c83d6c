// Tests for Chrome trace JSON: exports of real traces parse as Chrome traces (nlohmann) with every event
// well-formed; export then import gives the same trace; TensorFlow-style and B/E traces import; the
// show_memory layout byte for byte; Python's string escaping; malformed input gives errors, never crashes
// (built a second time against the engine under AddressSanitizer).
#include "profiler/chrome_trace_json.h"
#include "profiler/profile_tables.h"
#include "profiler/trace_builder.h"

#include "traced_run.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <map>
#include <random>
#include <set>

using namespace tstudio;
using namespace tstudio::profiler;

namespace {

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

ProfileTrace realTrace(int runs, std::string* error)
{
    auto traced = testing::tracedRuns(runs);
    if (!traced) {
        *error = traced.error().toString();
        return {};
    }
    std::vector<TracedStep> steps;
    for (const testing::TracedRun& run : *traced)
        steps.push_back({run.step, run.metadata.step_stats()});
    return traceFromStepStats(steps);
}

std::string describeShape(const ProfileTrace& t, std::uint32_t shape)
{
    if (shape == kNoIndex)
        return "?";
    std::string out = "[";
    for (std::int64_t d : t.shapes.at(shape))
        out += std::to_string(d) + ",";
    return out + "]";
}

/// "" when `b` is the same trace as `a` (devices, lanes, nodes, events, outputs, bytes, steps, and the
/// memory counters when `memory`), else the first difference.
std::string compareTraces(const ProfileTrace& a, const ProfileTrace& b, bool memory)
{
    if (a.originNs != b.originNs)
        return "origin " + std::to_string(a.originNs) + " vs " + std::to_string(b.originNs);
    if (a.devices.size() != b.devices.size())
        return "device count";
    for (std::size_t d = 0; d < a.devices.size(); ++d)
        if (a.devices[d].name != b.devices[d].name || a.devices[d].type != b.devices[d].type)
            return "device " + a.devices[d].name + " vs " + b.devices[d].name;
    if (a.lanes.size() != b.lanes.size())
        return "lane count " + std::to_string(a.lanes.size()) + " vs " + std::to_string(b.lanes.size());
    for (std::size_t l = 0; l < a.lanes.size(); ++l) {
        const TraceLane& x = a.lanes[l];
        const TraceLane& y = b.lanes[l];
        if (x.device != y.device || x.kind != y.kind || x.name != y.name || x.threadId != y.threadId ||
            x.firstEvent != y.firstEvent || x.eventCount != y.eventCount)
            return "lane " + std::to_string(l) + " (" + x.name + " vs " + y.name + ")";
    }
    if (a.nodes.size() != b.nodes.size())
        return "node count";
    for (const TraceNode& node : a.nodes) {
        const std::uint32_t other = b.findNode(node.name);
        if (other == kNoIndex)
            return "node " + node.name + " missing";
        if (b.nodes[other].op != node.op || b.nodes[other].inputs != node.inputs)
            return "node " + node.name + " op or inputs";
    }
    if (a.events.size() != b.events.size())
        return "event count";
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const TraceEvent& x = a.events[i];
        const TraceEvent& y = b.events[i];
        const std::string where = "event " + std::to_string(i) + " (" + a.nodes[x.node].name + "): ";
        if (x.startNs != y.startNs || x.durationNs != y.durationNs)
            return where + "times";
        if (a.nodes[x.node].name != b.nodes[y.node].name || x.lane != y.lane)
            return where + "node or lane";
        if (a.steps.at(x.step).number != b.steps.at(y.step).number)
            return where + "step";
        if (x.requestedBytes != y.requestedBytes || x.peakBytes != y.peakBytes || x.residualBytes != y.residualBytes ||
            x.outputBytes != y.outputBytes)
            return where + "bytes";
        if (x.outputCount != y.outputCount)
            return where + "output count";
        for (std::uint32_t k = 0; k < x.outputCount; ++k) {
            const TraceOutput& p = a.outputs[x.firstOutput + k];
            const TraceOutput& q = b.outputs[y.firstOutput + k];
            if (p.slot != q.slot || p.dtype != q.dtype || p.requestedBytes != q.requestedBytes ||
                describeShape(a, p.shape) != describeShape(b, q.shape))
                return where + "output " + std::to_string(k);
        }
    }
    if (a.steps.size() != b.steps.size())
        return "step count";
    for (std::size_t s = 0; s < a.steps.size(); ++s)
        if (a.steps[s].number != b.steps[s].number || a.steps[s].startNs != b.steps[s].startNs ||
            a.steps[s].endNs != b.steps[s].endNs)
            return "step " + std::to_string(s);
    if (memory) {
        if (a.memory.size() != b.memory.size())
            return "memory counter count";
        for (std::size_t m = 0; m < a.memory.size(); ++m)
            if (a.memory[m].allocator != b.memory[m].allocator || a.memory[m].device != b.memory[m].device ||
                a.memory[m].samples != b.memory[m].samples || a.memory[m].peakBytes != b.memory[m].peakBytes)
                return "memory counter " + a.memory[m].allocator;
    }
    return "";
}

/// A trace by hand: stream lanes, sub-lanes, odd names, shapes of every kind, several steps.
ProfileTrace handTrace()
{
    std::vector<TracedStep> steps(2);
    steps[0].number = -3;
    steps[1].number = 1'000'000'000'000;
    auto* dev = steps[0].stats.add_dev_stats();
    dev->set_device(kCpu0);
    (*dev->mutable_thread_names())[9] = "Tr\xc3\xa4ger \"9\"";
    auto add = [](tensorflow::DeviceStepStats* d, const std::string& name, const std::string& label,
                  std::int64_t startNs, std::int64_t durationNs, std::uint32_t thread) {
        auto* n = d->add_node_stats();
        n->set_node_name(name);
        n->set_timeline_label(label);
        n->set_all_start_nanos(startNs);
        n->set_all_end_rel_nanos(durationNs);
        n->set_thread_id(thread);
        return n;
    };
    auto output = [](tensorflow::NodeExecStats* n, int slot, tensorflow::DataType dtype, std::vector<std::int64_t> dims,
                     bool unknownRank, std::int64_t bytes) {
        auto* o = n->add_output();
        o->set_slot(slot);
        auto* d = o->mutable_tensor_description();
        d->set_dtype(dtype);
        d->mutable_shape()->set_unknown_rank(unknownRank);
        for (std::int64_t size : dims)
            d->mutable_shape()->add_dim()->set_size(size);
        d->mutable_allocation_description()->set_requested_bytes(bytes);
    };
    const std::int64_t t0 = 1'700'000'000'123'456'789;
    auto* a = add(dev, "scope/a\\b", "scope/a\\b = Split(x, y)", t0, 5'001, 9);
    output(a, 0, tensorflow::DT_FLOAT, {2, -1}, false, 8);
    output(a, 1, tensorflow::DT_INT64, {}, false, 8);
    output(a, 2, tensorflow::DT_HALF, {}, true, 0);
    auto* m = a->add_memory();
    m->set_allocator_name("cpu");
    m->set_total_bytes(16);
    m->set_peak_bytes(24);
    m->set_live_bytes(8);
    m->set_allocator_bytes_in_use(1234);
    add(dev, "nested", "nested = Identity(scope/a\\b:1, ^c)", t0 + 1'000, 999, 9);
    add(dev, "\xe2\x82\xac\xf0\x9f\x98\x80", "garbage", t0 + 7'000, 1, 2);
    auto* stream = steps[0].stats.add_dev_stats();
    stream->set_device("/job:localhost/replica:0/task:0/device:GPU:0/stream:14");
    add(stream, "nested:Identity", "kernel @@nested:Identity#x#", t0 + 2'000, 300, 0);
    auto* later = steps[1].stats.add_dev_stats();
    later->set_device(kCpu0);
    add(later, "nested", "nested = Identity(a)", t0 + 1'000'000, 0, 9);
    return traceFromStepStats(steps);
}

Expected<ProfileTrace> parse(const std::string& json, std::vector<std::string>* warnings = nullptr)
{
    return parseChromeTrace(std::string_view(json), "test.json", warnings);
}

std::string errorOf(const Expected<ProfileTrace>& result)
{
    return result ? std::string("(parsed)") : result.error().message();
}

} // namespace

class TestChromeTraceJson : public QObject {
    Q_OBJECT

private slots:
    void exportParsesAsChromeTraceJson()
    {
        std::string error;
        const ProfileTrace trace = realTrace(2, &error);
        QVERIFY2(error.empty(), error.c_str());
        std::size_t outputs = 0, samples = 0;
        for (const TraceEvent& e : trace.events)
            outputs += e.outputCount;
        for (const MemoryCounter& counter : trace.memory)
            samples += counter.samples.size();

        for (int variant = 0; variant < 4; ++variant) {
            ChromeTraceOptions options;
            options.showMemory = variant == 1;
            options.pretty = variant == 1;
            options.showDataflow = variant != 2;
            options.tensorStudioArgs = variant != 3;
            const std::string text = chromeTraceJson(trace, options);
            const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
            QVERIFY2(!doc.is_discarded(), "the export is not JSON");
            QVERIFY(doc.is_object() && doc.contains("traceEvents") && doc["traceEvents"].is_array());
            std::map<std::string, int> counts;
            std::map<std::int64_t, std::pair<double, double>> flows; // id -> (s ts, t ts)
            std::set<std::string> flowNames;
            for (const nlohmann::json& e : doc["traceEvents"]) {
                QVERIFY(e.is_object());
                QVERIFY(e.contains("ph") && e["ph"].is_string());
                QVERIFY(e.contains("name") && e["name"].is_string());
                QVERIFY(e.contains("pid") && e["pid"].is_number_integer());
                const std::string ph = e["ph"];
                ++counts[ph];
                if (ph == "M") {
                    QVERIFY(e["args"].is_object() && e["args"]["name"].is_string());
                    continue;
                }
                QVERIFY2(e.contains("tid") && e["tid"].is_number_integer(), ph.c_str());
                QVERIFY2(e.contains("ts") && e["ts"].is_number(), ph.c_str());
                QVERIFY(e.contains("cat") && e["cat"].is_string());
                if (ph == "X") {
                    QVERIFY(e["dur"].is_number() && e["dur"].get<double>() >= 0);
                    QVERIFY(e["args"].is_object());
                    QVERIFY(e["args"]["op"] == e["name"]);
                    QVERIFY(e["args"]["name"].is_string());
                    QCOMPARE(e["args"].contains("step"), options.tensorStudioArgs);
                } else if (ph == "s" || ph == "t") {
                    QVERIFY(e["id"].is_number_integer());
                    QCOMPARE(e["cat"].get<std::string>(), std::string("DataFlow"));
                    auto& flow = flows[e["id"].get<std::int64_t>()];
                    (ph == "s" ? flow.first : flow.second) = e["ts"].get<double>();
                    flowNames.insert(e["name"].get<std::string>());
                } else if (ph == "N" || ph == "O" || ph == "D") {
                    QVERIFY(e["id"].is_number_integer());
                    if (ph == "O")
                        QVERIFY(e["args"]["snapshot"]["tensor_description"].is_string());
                } else if (ph == "C") {
                    QVERIFY(e["args"].is_object() && e["args"].size() == 1);
                    QVERIFY(e["args"].begin()->is_number_integer());
                } else {
                    QFAIL(("unexpected phase " + ph).c_str());
                }
            }
            QCOMPARE(counts["X"], int(trace.events.size()));
            QCOMPARE(counts["M"],
                     int(1 + 2 * trace.devices.size() + (options.tensorStudioArgs ? trace.lanes.size() : 0)));
            QCOMPARE(counts["s"], counts["t"]);
            if (options.showDataflow) {
                // MatMul ran on CPU:0 and its consumer on CPU:1: an arrow; every arrow runs forward in time.
                QVERIFY(flowNames.count("layer/MatMul"));
                for (const auto& [id, times] : flows)
                    QVERIFY2(times.first <= times.second, std::to_string(id).c_str());
            } else {
                QCOMPARE(counts["s"], 0);
            }
            QCOMPARE(counts["N"], options.showMemory ? int(outputs) : 0);
            QCOMPARE(counts["O"], counts["N"]);
            QCOMPARE(counts["D"], counts["N"]);
            QCOMPARE(counts["C"], options.showMemory ? int(samples) : 0);
            QVERIFY(!options.showMemory || samples > 0);
        }
    }

    void exportThenImportGivesTheSameTrace()
    {
        std::string error;
        const ProfileTrace real = realTrace(3, &error);
        QVERIFY2(error.empty(), error.c_str());
        for (const ProfileTrace* trace : {&real}) {
            ChromeTraceOptions options;
            auto back = parse(chromeTraceJson(*trace, options));
            QVERIFY2(back, errorOf(back).c_str());
            QCOMPARE(compareTraces(*trace, *back, false), std::string());
            options.showMemory = true;
            options.pretty = true;
            back = parse(chromeTraceJson(*trace, options));
            QVERIFY2(back, errorOf(back).c_str());
            QCOMPARE(compareTraces(*trace, *back, true), std::string());
        }
        // The issue's check: the imported trace gives the same tfprof tables, byte for byte as CSV.
        auto again = parse(chromeTraceJson(real, {}));
        QVERIFY2(again, errorOf(again).c_str());
        for (ProfileView view : {ProfileView::ByOpType, ProfileView::ByScope, ProfileView::ByNode}) {
            auto before = buildProfileTable(real, view, {});
            auto after = buildProfileTable(*again, view, {});
            QVERIFY(before && after);
            QVERIFY(before->rows.size() > 3);
            QCOMPARE(profileTableCsv(*after), profileTableCsv(*before));
        }
        const ProfileTrace hand = handTrace();
        QCOMPARE(hand.lanes.size(), std::size_t(4)); // thread 2, Träger "9" and its sub-lane, stream 14
        QCOMPARE(hand.lanes[3].kind, LaneKind::Stream);
        ChromeTraceOptions options;
        options.showMemory = true;
        auto back = parse(chromeTraceJson(hand, options));
        QVERIFY2(back, errorOf(back).c_str());
        QCOMPARE(compareTraces(hand, *back, true), std::string());
        // The same again from its own export: a fixed point.
        QCOMPARE(chromeTraceJson(*back, options), chromeTraceJson(hand, options));
    }

    void importsTensorFlowTimelines()
    {
        // The layout TensorFlow 1.x's timeline writes for a GPU run (compact, flows and memory shown).
        const std::string json = R"({"traceEvents":[
            {"name":"process_name","ph":"M","pid":0,"args":{"name":"Allocators"}},
            {"name":"process_name","ph":"M","pid":1,"args":{"name":"/job:localhost/replica:0/task:0/device:GPU:0 Compute"}},
            {"name":"process_name","ph":"M","pid":2,"args":{"name":"/job:localhost/replica:0/task:0/device:GPU:0 Tensors"}},
            {"name":"process_name","ph":"M","pid":3,"args":{"name":"/device:GPU:0/stream:all Compute"}},
            {"name":"process_name","ph":"M","pid":4,"args":{"name":"/device:GPU:0/stream:all Tensors"}},
            {"ph":"N","cat":"Tensor","name":"a","pid":2,"tid":0,"ts":1500000000000010,"id":0},
            {"ph":"X","cat":"Op","name":"Const","pid":1,"tid":0,"ts":1500000000000010,"dur":5,"args":{"name":"a","op":"Const"}},
            {"ph":"X","cat":"Op","name":"MatMul","pid":1,"tid":1,"ts":1500000000000012,"dur":4,"args":{"name":"mm","op":"MatMul","input0":"a","input1":"w"}},
            {"ph":"s","cat":"DataFlow","name":"a","pid":1,"tid":0,"ts":1500000000000015,"id":0},
            {"ph":"t","cat":"DataFlow","name":"a","pid":1,"tid":1,"ts":1500000000000012,"id":0},
            {"ph":"X","cat":"Op","name":"MatMul","pid":3,"tid":0,"ts":1500000000000013,"dur":2,"args":{"name":"mm","op":"MatMul"}},
            {"ph":"D","cat":"Tensor","name":"a","pid":2,"tid":0,"ts":1500000000000015,"id":0},
            {"ph":"C","cat":"Memory","name":"GPU_0_bfc","pid":0,"tid":0,"ts":1500000000000010,"args":{"GPU_0_bfc":256}},
            {"ph":"C","cat":"Memory","name":"GPU_0_bfc","pid":0,"tid":0,"ts":1500000000000015,"args":{"GPU_0_bfc":0}}
        ]})";
        auto trace = parse(json);
        QVERIFY2(trace, errorOf(trace).c_str());
        QCOMPARE(trace->devices.size(), std::size_t(2));
        QCOMPARE(trace->devices[0].name, std::string("/job:localhost/replica:0/task:0/device:GPU:0"));
        QCOMPARE(trace->devices[1].name, std::string("/device:GPU:0/stream:all"));
        QCOMPARE(trace->devices[1].type, std::string("GPU"));
        QCOMPARE(trace->originNs, std::int64_t(1500000000000010000));
        QCOMPARE(trace->lanes.size(), std::size_t(3));
        QCOMPARE(trace->lanes[1].name, std::string("thread 1"));
        QCOMPARE(trace->lanes[1].kind, LaneKind::Imported);
        QCOMPARE(trace->events.size(), std::size_t(3));
        const TraceNode& mm = trace->nodes.at(trace->findNode("mm"));
        QCOMPARE(mm.op, std::string("MatMul"));
        QCOMPARE(mm.inputs, (std::vector<std::string>{"a", "w"}));
        QCOMPARE(trace->steps.size(), std::size_t(1));
        QCOMPARE(trace->steps[0].number, std::int64_t(0));
        QCOMPARE(trace->steps[0].endNs, std::int64_t(6000));
        const TraceEvent& first = trace->events[trace->lanes[1].firstEvent];
        QCOMPARE(first.startNs, std::int64_t(2000));
        QCOMPARE(first.durationNs, std::int64_t(4000));
        QCOMPARE(trace->memory.size(), std::size_t(1));
        QCOMPARE(trace->memory[0].allocator, std::string("GPU_0_bfc"));
        QCOMPARE(trace->memory[0].device, kNoIndex);
        QCOMPARE(trace->memory[0].peakBytes, std::int64_t(256));
        QCOMPARE(trace->memory[0].samples, (std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 256}, {5000, 0}}));
    }

    void importsTensorFlow2ProfilerTraces()
    {
        // The layout of TensorFlow 2's profiler (trace_events_to_json, the .trace.json.gz of
        // plugins/profile): metadata first, a process per host or device, and an empty object closing
        // traceEvents.
        const std::string json = R"({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[
            {"ph":"M","pid":501,"name":"process_name","args":{"name":"/host:CPU"}},
            {"ph":"M","pid":501,"name":"process_sort_index","args":{"sort_index":501}},
            {"ph":"M","pid":501,"tid":7,"name":"thread_name","args":{"name":"python3"}},
            {"ph":"X","pid":501,"tid":7,"ts":75.649,"dur":118.582,"name":"TFE_Py_FastPathExecute_C"},
            {"ph":"X","pid":501,"tid":7,"ts":200,"dur":1,"name":"EagerExecute"},
            {}]})";
        auto trace = parse(json);
        QVERIFY2(trace, errorOf(trace).c_str());
        QCOMPARE(trace->devices.size(), std::size_t(1));
        QCOMPARE(trace->devices[0].name, std::string("/host:CPU"));
        QCOMPARE(trace->lanes.size(), std::size_t(1));
        QCOMPARE(trace->lanes[0].name, std::string("python3"));
        QCOMPARE(trace->events.size(), std::size_t(2));
        QCOMPARE(trace->events[1].startNs, std::int64_t(124351));
        // Only an object with no members at all is passed over: one with members still needs a "ph".
        auto noPh = parse(R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},{"name":"b"}]})");
        QVERIFY(!noPh);
        QVERIFY2(errorOf(noPh).find("event 1 of traceEvents has no \"ph\"") != std::string::npos,
                 errorOf(noPh).c_str());
    }

    void importsBeginEndPairsAndBareArrays()
    {
        // A bare array without its closing bracket (allowed), string tids, decimal times, nested B/E, one
        // "E" without a "B" and one "B" never closed.
        const std::string json = R"([
            {"name":"process_name","ph":"M","pid":7,"args":{"name":"python3"}},
            {"name":"thread_name","ph":"M","pid":7,"tid":"main","args":{"name":"MainThread"}},
            {"name":"step","ph":"B","pid":7,"tid":"main","ts":100.5,"args":{"op":"Step"}},
            {"name":"forward","ph":"B","pid":7,"tid":"main","ts":101},
            {"ph":"E","pid":7,"tid":"main","ts":150.25},
            {"name":"orphan","ph":"E","pid":7,"tid":"other","ts":160},
            {"ph":"E","pid":7,"tid":"main","ts":200},
            {"name":"io","ph":"X","pid":7,"tid":3,"ts":120,"dur":1.5,"cat":"io"},
            {"name":"never","ph":"B","pid":7,"tid":3,"ts":300},
            {"name":"instant","ph":"i","pid":7,"tid":3,"ts":301,"s":"t"},)";
        std::vector<std::string> warnings;
        auto trace = parse(json, &warnings);
        QVERIFY2(trace, errorOf(trace).c_str());
        QCOMPARE(trace->devices.size(), std::size_t(1));
        QCOMPARE(trace->devices[0].name, std::string("python3"));
        QCOMPARE(trace->devices[0].type, std::string(""));
        QCOMPARE(trace->originNs, std::int64_t(100500));
        std::vector<std::string> lanes;
        for (const TraceLane& lane : trace->lanes)
            lanes.push_back(lane.name + "/" + std::to_string(lane.eventCount));
        // Lanes by tid (integers, then strings in the order they appeared); the nested span gets a sub-lane.
        QCOMPARE(lanes, (std::vector<std::string>{"thread 3/1", "MainThread/1", "MainThread (2)/1"}));
        const TraceNode& step = trace->nodes.at(trace->findNode("step"));
        QCOMPARE(step.op, std::string("Step"));
        const TraceEvent& outer = trace->events[trace->lanes[1].firstEvent];
        QCOMPARE(trace->nodes[outer.node].name, std::string("step"));
        QCOMPARE(outer.durationNs, std::int64_t(99500));
        const TraceEvent& inner = trace->events[trace->lanes[2].firstEvent];
        QCOMPARE(trace->nodes[inner.node].op, std::string("forward"));
        QCOMPARE(inner.startNs, std::int64_t(500));
        QCOMPARE(inner.durationNs, std::int64_t(49250));
        QCOMPARE(trace->events[0].durationNs, std::int64_t(1500));
        for (const TraceEvent& e : trace->events)
            QVERIFY(trace->nodes[e.node].name != "never" && trace->nodes[e.node].name != "orphan");
        QCOMPARE(warnings.size(), std::size_t(2));
        QVERIFY(warnings[0].find("test.json") == 0);
    }

    void timesAreExactToTheNanosecond()
    {
        const std::string json = R"({"traceEvents":[
            {"ph":"X","pid":1,"tid":1,"ts":1700000000000000.123,"dur":12.3456,"name":"a"},
            {"ph":"X","pid":1,"tid":1,"ts":1700000000000100,"dur":0.0005,"name":"b"},
            {"ph":"X","pid":1,"tid":1,"ts":17000000000002e2,"dur":1E-3,"name":"c"}]})";
        auto trace = parse(json);
        QVERIFY2(trace, errorOf(trace).c_str());
        QCOMPARE(trace->originNs, std::int64_t(1700000000000000123));
        QCOMPARE(trace->events.size(), std::size_t(3));
        QCOMPARE(trace->events[0].durationNs, std::int64_t(12346));
        QCOMPARE(trace->events[1].startNs, std::int64_t(99877));
        QCOMPARE(trace->events[1].durationNs, std::int64_t(1));
        QCOMPARE(trace->events[2].startNs, std::int64_t(199877));
        QCOMPARE(trace->events[2].durationNs, std::int64_t(1));
    }

    void showMemoryLayout()
    {
        // generate_chrome_trace_format(show_dataflow=True, show_memory=True) of two ops on one lane,
        // compact: tensor objects created at the producer's start, snapshot 1 us before its end, deleted at
        // the last use (the consumer's end - 1 us); then the allocator counter. The counter's samples are
        // the allocator's bytes in use as recorded (TensorFlow re-derives them from the tensors' lifetimes),
        // and the snapshot holds what the trace keeps of the TensorDescription.
        tensorflow::StepStats stats;
        auto* dev = stats.add_dev_stats();
        dev->set_device(kCpu0);
        auto add = [&](const char* name, const char* label, std::int64_t start, std::int64_t dur, std::int64_t inUse) {
            auto* n = dev->add_node_stats();
            n->set_node_name(name);
            n->set_timeline_label(label);
            n->set_all_start_micros(start);
            n->set_all_end_rel_micros(dur);
            auto* d = n->add_output()->mutable_tensor_description();
            d->set_dtype(tensorflow::DT_FLOAT);
            d->mutable_shape()->add_dim()->set_size(2);
            d->mutable_allocation_description()->set_requested_bytes(8);
            auto* m = n->add_memory();
            m->set_allocator_name("cpu");
            m->set_allocator_bytes_in_use(inUse);
        };
        add("a", "a = Const()", 10, 5, 8);
        add("b", "b = Neg(a)", 20, 4, 16);
        const std::string description =
            R"("dtype: DT_FLOAT\nshape {\n  dim {\n    size: 2\n  }\n}\nallocation_description {\n  requested_bytes: 8\n}\n")";
        const std::string expected =
            R"({"traceEvents":[{"name":"process_name","ph":"M","pid":0,"args":{"name":"Allocators"}},)"
            R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"/job:localhost/replica:0/task:0/device:CPU:0 Compute"}},)"
            R"({"name":"process_name","ph":"M","pid":2,"args":{"name":"/job:localhost/replica:0/task:0/device:CPU:0 Tensors"}},)"
            R"({"ph":"N","cat":"Tensor","name":"a","pid":2,"tid":0,"ts":10,"id":0},)"
            R"({"ph":"O","cat":"Tensor","name":"a","pid":2,"tid":0,"ts":14,"id":0,"args":{"snapshot":{"tensor_description":)" +
            description +
            R"(}}},)"
            R"({"ph":"N","cat":"Tensor","name":"b","pid":2,"tid":0,"ts":20,"id":1},)"
            R"({"ph":"O","cat":"Tensor","name":"b","pid":2,"tid":0,"ts":23,"id":1,"args":{"snapshot":{"tensor_description":)" +
            description +
            R"(}}},)"
            R"({"ph":"X","cat":"Op","name":"Const","pid":1,"tid":0,"ts":10,"dur":5,"args":{"name":"a","op":"Const"}},)"
            R"({"ph":"X","cat":"Op","name":"Neg","pid":1,"tid":0,"ts":20,"dur":4,"args":{"name":"b","op":"Neg","input0":"a"}},)"
            R"({"ph":"D","cat":"Tensor","name":"a","pid":2,"tid":0,"ts":23,"id":0},)"
            R"({"ph":"D","cat":"Tensor","name":"b","pid":2,"tid":0,"ts":24,"id":1},)"
            R"({"ph":"C","cat":"Memory","name":"cpu","pid":0,"tid":0,"ts":15,"args":{"cpu":8}},)"
            R"({"ph":"C","cat":"Memory","name":"cpu","pid":0,"tid":0,"ts":24,"args":{"cpu":16}}]})";
        ChromeTraceOptions options;
        options.showMemory = true;
        options.tensorStudioArgs = false;
        QCOMPARE(chromeTraceJson(traceFromStepStats(stats), options), expected);
    }

    void stringsAreEscapedAsPythonDoes()
    {
        tensorflow::StepStats stats;
        auto* dev = stats.add_dev_stats();
        dev->set_device(kCpu0);
        const std::string name = std::string("q\"b\\n\n\x01\x7f") + "\xc3\xa9\xf0\x9f\x98\x80" + "\xff" + "/";
        auto* n = dev->add_node_stats();
        n->set_node_name(name);
        n->set_timeline_label("x");
        n->set_all_start_micros(1);
        ChromeTraceOptions options;
        options.tensorStudioArgs = false;
        const std::string text = chromeTraceJson(traceFromStepStats(stats), options);
        QVERIFY2(text.find("\"name\":\"q\\\"b\\\\n\\n\\u0001\\u007f\\u00e9\\ud83d\\ude00\\ufffd/\"") !=
                     std::string::npos,
                 text.c_str());
        for (unsigned char c : text)
            QVERIFY(c >= 0x20 && c < 0x7f);
        const nlohmann::json doc = nlohmann::json::parse(text);
        const std::string decoded = doc["traceEvents"][3]["args"]["name"];
        const std::string replaced = std::string("q\"b\\n\n\x01\x7f") + "\xc3\xa9\xf0\x9f\x98\x80" + "\xef\xbf\xbd/";
        QCOMPARE(decoded, replaced);
        auto back = parse(text);
        QVERIFY2(back, errorOf(back).c_str());
        QCOMPARE(back->nodes.at(0).name, replaced);
    }

    void malformedInputsGiveErrors()
    {
        struct Case {
            std::string json;
            std::string expected; ///< part of the message
        };
        const std::vector<Case> cases = {
            {"", "not valid Chrome trace JSON"},
            {"   \n", "not valid Chrome trace JSON"},
            {"null", "found null"},
            {"42", "found a number"},
            {R"("traceEvents")", "found a string"},
            {"{}", "no \"traceEvents\""},
            {R"({"events":[]})", "no \"traceEvents\""},
            {R"({"traceEvents":{}})", "\"traceEvents\" is not an array"},
            {R"({"traceEvents":[1]})", "event 0 of traceEvents is a number, expected an object"},
            {R"({"traceEvents":[{"ph":"M"},"x"]})", "event 1 of traceEvents is a string"},
            {R"({"traceEvents":[{"ts":1}]})", "event 0 of traceEvents has no \"ph\""},
            {R"({"traceEvents":[{"ph":7}]})", "\"ph\" that is not a string"},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":"1","dur":1}]})", "\"ts\" that is a string"},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":[1]}]})", "\"dur\" that is an array"},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1}]})", "has no \"dur\""},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"dur":1}]})", "has no \"ts\""},
            {R"({"traceEvents":[{"ph":"X","tid":1,"ts":1,"dur":1}]})", "has no \"pid\""},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":-1}]})", "negative \"dur\""},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2e15}]})", "absurd \"dur\""},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1e300,"dur":1}]})", "absurd \"ts\""},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":99999999999999999999999,"dur":1}]})", "absurd \"ts\""},
            {R"({"traceEvents":[{"ph":"X","pid":true,"tid":1,"ts":1,"dur":1}]})", "\"pid\" that is a boolean"},
            {R"({"traceEvents":[{"ph":"X","pid":1.5e300,"tid":1,"ts":1,"dur":1}]})", "\"pid\" that is not an integer"},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1}]} x)", "not valid Chrome trace JSON"},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,}]})", "not valid Chrome trace JSON"},
            {R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1}])", "not valid Chrome trace JSON"},
            {"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"\xff\"}]}", "not valid Chrome trace JSON"},
            {"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"unterminated}]}", "not valid Chrome trace JSON"},
            {std::string(100000, '[') + std::string(100000, ']'), "is an array, expected an object"},
            {"[" + std::string(100000, '{'), "not valid Chrome trace JSON"},
        };
        for (const Case& c : cases) {
            auto result = parse(c.json);
            QVERIFY2(!result, c.json.substr(0, 80).c_str());
            const std::string message = result.error().message();
            QVERIFY2(message.rfind("test.json: ", 0) == 0, message.c_str());
            QVERIFY2(message.find(c.expected) != std::string::npos, (c.json.substr(0, 80) + " -> " + message).c_str());
            QCOMPARE(result.error().code(), StatusCode::kInvalidArgument);
        }
        // Where simdjson can say, the message gives the byte offset of the damage.
        auto located = parse(R"({"traceEvents":[{"ph":"M"} {"ph":"M"}]})");
        QVERIFY(!located);
        QVERIFY2(located.error().message().find("at byte offset") != std::string::npos,
                 located.error().message().c_str());
    }

    void truncatedExportsAndJunkGiveErrors()
    {
        std::string error;
        const ProfileTrace trace = realTrace(1, &error);
        QVERIFY2(error.empty(), error.c_str());
        for (const bool pretty : {false, true}) {
            ChromeTraceOptions options;
            options.pretty = pretty;
            options.showMemory = true;
            const std::string text = chromeTraceJson(trace, options);
            QVERIFY(parse(text));
            for (int k = 0; k < 20; ++k) {
                const std::string cut = text.substr(0, text.size() * k / 20);
                auto result = parse(cut);
                QVERIFY2(!result, std::to_string(k).c_str());
                QVERIFY(result.error().message().rfind("test.json: ", 0) == 0);
            }
            // One byte short of whole.
            QVERIFY(!parse(text.substr(0, text.size() - 1)));
        }
        // Binary junk, and junk that starts like JSON: errors (or, rarely, a valid empty document), never a
        // crash. Smoke test: the assertion is that every input returns.
        std::mt19937 random(77);
        int parsed = 0;
        for (int i = 0; i < 300; ++i) {
            std::string junk(random() % 2000, '\0');
            for (char& c : junk)
                c = static_cast<char>(random() % 256);
            if (i % 3 == 1)
                junk = "{\"traceEvents\":[" + junk;
            if (i % 3 == 2)
                junk = "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":" + junk.substr(0, junk.size() / 2);
            parsed += parse(junk).has_value();
        }
        QVERIFY(parsed < 5);
    }
};

QTEST_GUILESS_MAIN(TestChromeTraceJson)
#include "test_chrome_trace_json.moc"
