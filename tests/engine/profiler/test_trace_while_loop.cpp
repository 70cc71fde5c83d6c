// Tests for traces of tf.while_loop steps: every execution of a loop body node is recorded with its
// frame and iteration (as fields TensorFlow's NodeExecStats does not define, so TensorFlow readers
// skip them), the trace builder turns them into TraceEvent::frame/iteration, and the Chrome trace
// export reads back whole.
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "graph_run.h"
#include "profiler/chrome_trace_json.h"
#include "profiler/trace_builder.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "runtime/step_stats_collector.h"

#include <QtTest>

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <map>
#include <set>

using namespace tstudio;
using namespace tstudio::profiler;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

constexpr int kIterations = 5;
const std::string kFrame = "while/while_context";

/// i, x = 0, 1.0; while i < 5: i, x = i + 1, x * 2 (x is 32 at the end).
Expected<std::vector<Output>> doublingLoop(GraphBuilder& b)
{
    TSTUDIO_TRY(i0, scalarInt32(b, 0, "i0"));
    TSTUDIO_TRY(x0, ops::constant(b, 1.0, tf::DT_FLOAT, "x0"));
    return whileLoop(
        b,
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
            TSTUDIO_TRY(n, scalarInt32(g, kIterations, "Less/y"));
            TSTUDIO_TRY(less, g.op("Less", {v[0], n}));
            return less.output(0);
        },
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
            TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
            TSTUDIO_TRY(i, ops::add(g, v[0], one, "add"));
            TSTUDIO_TRY(two, ops::constant(g, 2.0, tf::DT_FLOAT, "mul/y"));
            TSTUDIO_TRY(x, ops::mul(g, v[1], two, "mul"));
            return std::vector<Output>{i, x};
        },
        {i0, x0});
}

} // namespace

class TestTraceWhileLoop : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;
    tf::RunMetadata m_metadata; ///< one FULL_TRACE run of the loop

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
        GraphBuilder b(m_registries->ops);
        auto built = doublingLoop(b);
        QVERIFY2(built, built ? "" : built.error().toString().c_str());
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        QVERIFY(session.create(b.graphDef()).isOk());
        tf::RunOptions run;
        run.set_trace_level(tf::RunOptions::FULL_TRACE);
        std::vector<Tensor> out;
        const Status s = session.run(run, {}, {"while/Exit_1"}, {}, &out, &m_metadata);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 32.0f);
    }

    /// The step's records: 5 of the body's Mul, iterations 0..4 in frame "while/while_context"; the
    /// condition and the Merges 6 times (0..5); nodes outside the loop unmarked.
    void recordsCarryFrameAndIteration()
    {
        std::map<std::string, std::vector<std::int64_t>> iterations;
        int unmarked = 0;
        for (const tf::DeviceStepStats& device : m_metadata.step_stats().dev_stats())
            for (const tf::NodeExecStats& stats : device.node_stats()) {
                const std::optional<LoopPosition> loop = loopPositionOf(stats);
                if (!loop) {
                    // Enter runs in the frame around the loop, Exit in the loop.
                    QVERIFY2(stats.node_name() == "x0" || stats.node_name() == "i0" ||
                                 stats.node_name().find("Enter") != std::string::npos,
                             stats.node_name().c_str());
                    ++unmarked;
                    continue;
                }
                QCOMPARE(loop->frame, kFrame);
                iterations[stats.node_name()].push_back(loop->iteration);
            }
        QCOMPARE(iterations["while/mul"], (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
        QCOMPARE(iterations["while/add"], (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
        // The condition runs once more than the body: it ends the loop in iteration 5.
        QCOMPARE(iterations["while/Less"], (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
        QCOMPARE(iterations["while/Merge_1"], (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
        QVERIFY(unmarked >= 4); // i0, x0 and the Enters
    }

    /// The marks are fields TensorFlow's NodeExecStats does not define: its own fields are untouched,
    /// a reader that knows only TensorFlow's fields sees the same message, and the marks survive
    /// serialising and parsing (binary RunMetadata, as event files and ProfilerHook keep it).
    void marksAreUnknownToTensorFlowAndSurviveTheWire()
    {
        const google::protobuf::Descriptor* descriptor = tf::NodeExecStats::descriptor();
        QVERIFY(descriptor->FindFieldByNumber(kLoopFrameField) == nullptr);
        QVERIFY(descriptor->FindFieldByNumber(kLoopIterationField) == nullptr);

        const tf::NodeExecStats* mul = nullptr;
        for (const tf::NodeExecStats& stats : m_metadata.step_stats().dev_stats(0).node_stats())
            if (stats.node_name() == "while/mul" && loopPositionOf(stats) && loopPositionOf(stats)->iteration == 3)
                mul = &stats;
        QVERIFY(mul);
        QVERIFY(mul->timeline_label().starts_with("while/mul = Mul(")); // TF's label, unchanged

        tf::RunMetadata back;
        QVERIFY(back.ParseFromString(m_metadata.SerializeAsString()));
        QCOMPARE(back.step_stats().dev_stats(0).node_stats_size(),
                 m_metadata.step_stats().dev_stats(0).node_stats_size());
        int found = 0;
        for (const tf::NodeExecStats& stats : back.step_stats().dev_stats(0).node_stats())
            if (stats.node_name() == "while/mul") {
                QCOMPARE(loopPositionOf(stats), (std::optional<LoopPosition>(LoopPosition{kFrame, found})));
                ++found;
            }
        QCOMPARE(found, kIterations);

        // Without the marks (what a TensorFlow reader keeps of the record) the rest is equal.
        tf::NodeExecStats plain = *mul;
        plain.GetReflection()->MutableUnknownFields(&plain)->Clear();
        QVERIFY(!loopPositionOf(plain));
        QCOMPARE(plain.node_name(), mul->node_name());
        QCOMPARE(plain.all_start_nanos(), mul->all_start_nanos());
        QVERIFY(plain.SerializeAsString().size() < mul->SerializeAsString().size());

        // Marking again replaces; an empty frame leaves a record unmarked.
        tf::NodeExecStats again = *mul;
        setLoopPosition(&again, "outer/while_context", 7);
        QCOMPARE(loopPositionOf(again), (std::optional<LoopPosition>(LoopPosition{"outer/while_context", 7})));
        setLoopPosition(&plain, "", 3);
        QVERIFY(!loopPositionOf(plain));
    }

    /// The trace has 5 events of the body's Mul with iterations 0..4 in that order of time, all in
    /// one frame; events outside the loop have none.
    void traceEventsShowIterations()
    {
        const ProfileTrace trace = traceFromStepStats(m_metadata.step_stats(), 1);
        QCOMPARE(trace.frames, std::vector<std::string>{kFrame});
        const std::uint32_t mul = trace.findNode("while/mul");
        QVERIFY(mul != kNoIndex);
        std::vector<std::pair<std::int64_t, std::int64_t>> starts; // (start, iteration)
        for (const TraceEvent& e : trace.events) {
            if (e.node == mul) {
                QVERIFY(e.inLoop());
                QCOMPARE(e.frame, 0u);
                starts.emplace_back(e.startNs, e.iteration);
            }
            if (e.node == trace.findNode("x0")) {
                QVERIFY(!e.inLoop());
                QCOMPARE(e.iteration, std::int64_t(0));
            }
        }
        std::sort(starts.begin(), starts.end());
        std::vector<std::int64_t> iterations;
        for (const auto& [start, iteration] : starts)
            iterations.push_back(iteration);
        QCOMPARE(iterations, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
    }

    /// Our Chrome trace export writes "frame" and "iteration" args and reads them back; a trace
    /// exported without our args has no loop positions.
    void chromeTraceRoundTrip()
    {
        const ProfileTrace trace = traceFromStepStats(m_metadata.step_stats(), 1);
        const std::string json = chromeTraceJson(trace, {});
        QVERIFY(json.find("\"frame\":\"while/while_context\"") != std::string::npos);
        QVERIFY(json.find("\"iteration\":4") != std::string::npos);
        auto back = parseChromeTrace(json, "loop.json");
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QCOMPARE(back->frames, trace.frames);
        QCOMPARE(back->events.size(), trace.events.size());
        std::multiset<std::pair<std::string, std::int64_t>> before, after;
        for (const TraceEvent& e : trace.events)
            if (e.inLoop())
                before.insert({trace.nodes[e.node].name, e.iteration});
        for (const TraceEvent& e : back->events)
            if (e.inLoop())
                after.insert({back->nodes[e.node].name, e.iteration});
        QCOMPARE(after, before);
        QCOMPARE(after.count({"while/mul", 4}), std::size_t(1));

        ChromeTraceOptions plain;
        plain.tensorStudioArgs = false;
        auto foreign = parseChromeTrace(chromeTraceJson(trace, plain), "plain.json");
        QVERIFY(foreign);
        QVERIFY(foreign->frames.empty());
        for (const TraceEvent& e : foreign->events)
            QVERIFY(!e.inLoop());
    }
};

QTEST_GUILESS_MAIN(TestTraceWhileLoop)
#include "test_trace_while_loop.moc"
