// tfprof's ProfileProto (profiler/tfprof_profile_proto.h) from a trace the test makes out of
// StepStats: each ProfileNode's fields (inputs with src_output_index, shapes, devices, float_ops,
// attrs) and each step's ExecProfile (run_count, start and end, cpu_execs and accelerator_execs,
// memory); the trace read back holds the same executions and the same table numbers; the file is
// detected and read as a trace; and the errors for a profile without executions or names.
#include "io/atomic_file.h"
#include "io/file_kind_detector.h"
#include "profiler/profile_tables.h"
#include "profiler/tfprof_profile_proto.h"
#include "profiler/trace_files.h"
#include "proto/graph.pb.h"
#include "tfprof_test_trace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tstudio;
using namespace tstudio::profiler;
using namespace tstudio::testing;
namespace tfprof = tensorflow::tfprof;

namespace {

const tfprof::ProfileNode* nodeNamed(const tfprof::ProfileProto& p, const std::string& name)
{
    for (const auto& [id, node] : p.nodes())
        if (node.name() == name)
            return &node;
    return nullptr;
}

std::vector<std::int64_t> tuple(const tfprof::Tuple& t)
{
    return {t.int64_values().begin(), t.int64_values().end()};
}

} // namespace

class TestTfprofProfileProto : public QObject {
    Q_OBJECT
private slots:
    void nodesAndExecutions()
    {
        const ProfileTrace trace = traceFromStepStats(steps());
        const tensorflow::GraphDef g = graph();
        const tfprof::ProfileProto p = profileProtoFromTrace(trace, &g);
        QCOMPARE(p.nodes_size(), 5);
        QCOMPARE(std::vector<std::int64_t>(p.steps().begin(), p.steps().end()), std::vector<std::int64_t>({3, 4}));
        QVERIFY(!p.has_trace());
        for (const auto& [id, node] : p.nodes())
            QCOMPARE(node.id(), id);

        const auto* x = nodeNamed(p, "x");
        const auto* w = nodeNamed(p, "w");
        const auto* mm = nodeNamed(p, "layer/MatMul");
        QVERIFY(x && w && mm);
        QCOMPARE(mm->op(), std::string("MatMul"));
        QCOMPARE(mm->op_types_size(), 1);
        QCOMPARE(mm->op_types(0), std::string("MatMul"));
        QCOMPARE(mm->inputs().at(0), x->id());
        QCOMPARE(mm->inputs().at(1), w->id());
        QCOMPARE(mm->src_output_index().at(x->id()), 0);
        QCOMPARE(tuple(mm->input_shapes().at(0)), std::vector<std::int64_t>({2, 3}));
        QCOMPARE(tuple(mm->input_shapes().at(1)), std::vector<std::int64_t>({3, 4}));
        QCOMPARE(tuple(mm->output_shapes().at(0)), std::vector<std::int64_t>({2, 4}));
        QCOMPARE(mm->canonical_device(), kCpu);
        QCOMPARE(mm->host_device(), kCpu);
        QCOMPARE(mm->float_ops(), std::int64_t(2 * 2 * 3 * 4)); // one execution: 2mnk
        QVERIFY(mm->attrs().count("transpose_a"));
        QCOMPARE(std::vector<std::int64_t>(w->shape().begin(), w->shape().end()), std::vector<std::int64_t>({3, 4}));

        QCOMPARE(mm->execs_size(), 2);
        const tfprof::ExecProfile& e3 = mm->execs().at(3);
        QCOMPARE(e3.run_count(), std::int64_t(1));
        QCOMPARE(e3.all_start_micros(), std::int64_t(1'003'010));
        QCOMPARE(e3.latest_end_micros(), std::int64_t(1'003'010 + 103));
        QCOMPARE(e3.cpu_execs().at(kCpu).times_size(), 1);
        QCOMPARE(tuple(e3.cpu_execs().at(kCpu).times(0)), std::vector<std::int64_t>({1'003'010, 103}));
        QVERIFY(e3.accelerator_execs().empty());
        QCOMPARE(e3.memory_execs_size(), 1);
        QCOMPARE(e3.memory_execs(0).requested_bytes(), std::int64_t(32));
        QCOMPARE(e3.memory_execs(0).peak_bytes(), std::int64_t(40));
        QCOMPARE(e3.memory_execs(0).residual_bytes(), std::int64_t(32));
        QCOMPARE(e3.memory_execs(0).output_bytes(), std::int64_t(32));
        QCOMPARE(e3.memory_execs(0).output_memory().at(0).bytes(), std::int64_t(32));
        QCOMPARE(tuple(mm->execs().at(4).cpu_execs().at(kCpu).times(0))[1], std::int64_t(104));

        // The GPU node: scheduled on its canonical device (cpu_execs), run on the stream
        // (accelerator_execs); runs counted once.
        const auto* gNode = nodeNamed(p, "g");
        QVERIFY(gNode);
        QCOMPARE(gNode->canonical_device(), kGpu);
        QCOMPARE(gNode->host_device(), kCpu);
        const tfprof::ExecProfile& g3 = gNode->execs().at(3);
        QCOMPARE(g3.run_count(), std::int64_t(1));
        QCOMPARE(tuple(g3.accelerator_execs().at(kStream).times(0)), std::vector<std::int64_t>({1'003'126, 30}));
        QCOMPARE(tuple(g3.cpu_execs().at(kGpu).times(0)), std::vector<std::int64_t>({1'003'120, 5}));
        QCOMPARE(g3.latest_end_micros(), std::int64_t(1'003'156));
        QCOMPARE(g3.devices_size(), 2);
        QCOMPARE(g3.memory_execs_size(), 1);

        // A graph node that never ran is listed without executions.
        const auto* never = nodeNamed(p, "never");
        QVERIFY(never);
        QCOMPARE(never->op(), std::string("NoOp"));
        QVERIFY(never->execs().empty());
        QCOMPARE(never->inputs().at(0), gNode->id());
    }

    void readBackIntoTheSameTables()
    {
        const ProfileTrace trace = traceFromStepStats(steps());
        const tensorflow::GraphDef g = graph();
        auto back = traceFromProfileProto(profileProtoFromTrace(trace, &g), "'profile_4'");
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QCOMPARE(back->events.size(), trace.events.size());
        QCOMPARE(back->steps.size(), std::size_t(2));
        QCOMPARE(back->steps[1].number, std::int64_t(4));
        QCOMPARE(back->originNs, trace.originNs);
        const std::uint32_t mm = back->findNode("layer/MatMul");
        QVERIFY(mm != kNoIndex);
        QCOMPARE(back->nodes[mm].op, std::string("MatMul"));
        QCOMPARE(back->nodes[mm].inputs, std::vector<std::string>({"x", "w"}));

        ProfileTableOptions options;
        options.graph = &g;
        for (ProfileView view : {ProfileView::ByNode, ProfileView::ByOpType}) {
            auto before = buildProfileTable(trace, view, options);
            auto after = buildProfileTable(*back, view, options);
            QVERIFY(before && after);
            QCOMPARE(after->rows.size(), before->rows.size());
            for (std::size_t i = 0; i < before->rows.size(); ++i) {
                const ProfileRow& a = before->rows[i];
                const ProfileRow& b = after->rows[i];
                QCOMPARE(b.name, a.name);
                QCOMPARE(b.self.runs, a.self.runs);
                QCOMPARE(b.self.execNs, a.self.execNs);
                QCOMPARE(b.self.acceleratorNs, a.self.acceleratorNs);
                QCOMPARE(b.self.cpuNs, a.self.cpuNs);
                QCOMPARE(b.self.requestedBytes, a.self.requestedBytes);
                QCOMPARE(b.self.peakBytes, a.self.peakBytes);
                QCOMPARE(b.self.residualBytes, a.self.residualBytes);
                QCOMPARE(b.self.outputBytes, a.self.outputBytes);
                QCOMPARE(b.self.floatOps, a.self.floatOps);
            }
        }
        // Each device's allocator in use over time (allocator_bytes_in_use at each execution).
        auto byAllocator = [](std::vector<MemoryCounter> counters) {
            std::sort(counters.begin(), counters.end(),
                      [](const auto& a, const auto& b) { return a.allocator < b.allocator; });
            return counters;
        };
        const auto before = byAllocator(trace.memory), after = byAllocator(back->memory);
        QCOMPARE(after.size(), std::size_t(2));
        QCOMPARE(after.size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(after[i].allocator, before[i].allocator);
            QCOMPARE(after[i].peakBytes, before[i].peakBytes);
            QCOMPARE(after[i].samples, before[i].samples);
        }
        // The GPU's time is accelerator time after the round trip too.
        auto nodes = buildProfileTable(*back, ProfileView::ByNode, options);
        for (const ProfileRow& row : nodes->rows)
            if (row.name == "g")
                QCOMPARE(row.self.acceleratorNs, std::int64_t(30'000));
    }

    void theFileIsDetectedAndRead()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/profile_4";
        const ProfileTrace trace = traceFromStepStats(steps());
        QVERIFY(writeProfileProto(trace, nullptr, path).isOk());
        auto kind = detectFileKind(path);
        QVERIFY(kind);
        QCOMPARE(kind->kind, FileKind::kTfprofProfile);
        QCOMPARE(kind->detail,
                 std::string("tfprof ProfileProto with 4 nodes and 2 traced step(s), opened in the profiler"));
        auto read = readTraceFile(path);
        QVERIFY2(read, read ? "" : read.error().toString().c_str());
        QCOMPARE(read->events.size(), trace.events.size());
    }

    /// A ProfileProto whose first field is 91 or 123 bytes long starts with "\n[" or "\n{": it is still
    /// read as a ProfileProto, not taken for JSON (it happened with real timings).
    void aLengthByteThatLooksLikeJson()
    {
        QTemporaryDir tmp;
        const ProfileTrace trace = traceFromStepStats(steps());
        const std::string traced = profileProtoFromTrace(trace, nullptr).SerializeAsString();
        int found = 0;
        for (int pad = 1; pad < 126; ++pad) {
            // A node that ran nothing, serialized first (concatenated messages merge: one ProfileProto).
            tfprof::ProfileProto first;
            auto& idle = (*first.mutable_nodes())[1000];
            idle.set_name(std::string(static_cast<std::size_t>(pad), 'x'));
            idle.set_op("NoOp");
            const std::string bytes = first.SerializeAsString() + traced;
            if (bytes[0] != '\n' || (bytes[1] != '[' && bytes[1] != '{'))
                continue;
            const std::string path = tmp.path().toStdString() + "/profile_" + std::to_string(pad);
            QVERIFY(writeFileAtomically(path, bytes).isOk());
            auto read = readTraceFile(path);
            QVERIFY2(read, read ? "" : read.error().toString().c_str());
            QCOMPARE(read->events.size(), trace.events.size());
            ++found;
        }
        QCOMPARE(found, 2); // lengths 91 and 123
    }

    void theGraphItDescribes()
    {
        const ProfileTrace trace = traceFromStepStats(steps());
        const tensorflow::GraphDef g = graph();
        const tensorflow::GraphDef back = graphFromProfileProto(profileProtoFromTrace(trace, &g));
        QCOMPARE(back.node_size(), 3); // the nodes with attrs: x, w and layer/MatMul
        std::map<std::string, const tensorflow::NodeDef*> byName;
        for (const auto& n : back.node())
            byName[n.name()] = &n;
        const tensorflow::NodeDef* mm = byName.at("layer/MatMul");
        QCOMPARE(mm->op(), std::string("MatMul"));
        QCOMPARE(std::vector<std::string>(mm->input().begin(), mm->input().end()),
                 std::vector<std::string>({"x", "w"}));
        QCOMPARE(mm->device(), kCpu);
        QVERIFY(mm->attr().count("transpose_b"));
        QCOMPARE(byName.at("w")->attr().at("shape").shape().dim_size(), 2);
        QVERIFY(!byName.count("g")); // no attrs: not known to be in the graph
    }

    void errors()
    {
        tfprof::ProfileProto idle;
        auto& n = (*idle.mutable_nodes())[0];
        n.set_name("x");
        n.set_op("Const");
        auto none = traceFromProfileProto(idle, "'p'");
        QVERIFY(!none);
        QCOMPARE(none.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(none.error().message(),
                 std::string("'p': the ProfileProto has no executions (1 nodes, none profiled)"));
        tfprof::ProfileProto unnamed;
        (*unnamed.mutable_nodes())[7].set_op("Neg");
        auto nameless = traceFromProfileProto(unnamed, "'p'");
        QVERIFY(!nameless);
        QCOMPARE(nameless.error().message(), std::string("'p': ProfileProto node 7 has no name"));
        tfprof::ProfileProto parsed;
        QVERIFY(!parseProfileProto(idle.SerializeAsString(), parsed)); // no execution: not taken for one
        QVERIFY(!parseProfileProto(std::string("\xff\x01\x02", 3), parsed));
    }
};

QTEST_GUILESS_MAIN(TestTfprofProfileProto)
#include "test_tfprof_profile_proto.moc"
