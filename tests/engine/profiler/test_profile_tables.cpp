// Tests for tfprof's aggregated views over hand-written traces: time by device role, memory, runs, scope
// totals, averaging over steps, float ops from the producers' shapes, filtering, sorting, CSV and the
// text summary.
#include "profiler/profile_summary.h"
#include "profiler/profile_tables.h"

#include "profile_trace_maker.h"
#include "proto/graph.pb.h"

#include <QTest>

#include <map>
#include <sstream>

using namespace tstudio;
using namespace tstudio::profiler;
using tstudio::testing::TraceMaker;

namespace {

using tstudio::testing::kCpu;
using tstudio::testing::kGpu;

ProfileTable build(const ProfileTrace& trace, ProfileView view, int step = -1,
                   const tensorflow::GraphDef* graph = nullptr)
{
    ProfileTableOptions options;
    options.step = step;
    options.graph = graph;
    auto table = buildProfileTable(trace, view, options);
    if (!table)
        qFatal("buildProfileTable: %s", table.error().toString().c_str());
    return std::move(*table);
}

const ProfileRow& row(const ProfileTable& table, const std::string& name)
{
    for (const ProfileRow& r : table.rows)
        if (r.name == name)
            return r;
    qFatal("no row %s", name.c_str());
}

std::vector<std::string> namesInOrder(const ProfileTable& table)
{
    std::vector<std::string> out;
    for (std::uint32_t i : profileRowsInOrder(table))
        out.push_back(table.rows[i].name);
    return out;
}

/// Scopes "a" (a node itself), "a/b" (only a scope), "a/b/c", "a/b/d", and "e", one step on a CPU.
ProfileTrace scopeTrace()
{
    TraceMaker m;
    const auto lane = m.lane(m.device(kCpu));
    const auto step = m.step(1);
    m.event(lane, m.node("a", "NoOp"), step, 0, 5, {});
    m.event(lane, m.node("a/b/c", "Add"), step, 10, 100, {64, 64, 32}, {{4, 4}});
    m.event(lane, m.node("a/b/d", "Mul"), step, 200, 40, {16, 32, 0}, {{2, 2}});
    m.event(lane, m.node("e", "Const"), step, 300, 7, {8, 8, 8}, {{2}});
    return m.finish();
}

} // namespace

class TestProfileTables : public QObject {
    Q_OBJECT

private slots:
    void timeFollowsTheDeviceRoles()
    {
        TraceMaker m;
        const auto gpu = m.lane(m.device(kGpu));
        const auto all = m.lane(m.device(kGpu + "/stream:all"));
        const auto stream = m.lane(m.device(kGpu + "/stream:7"));
        const auto copy = m.lane(m.device(kGpu + "/memcpy"));
        const auto cpu = m.lane(m.device(kCpu));
        const auto step = m.step(0);
        const auto matmul = m.node("mm", "MatMul");
        m.event(gpu, matmul, step, 0, 10'000, {400, 400, 400}); // scheduling: CPU time, one run, memory
        m.event(all, matmul, step, 20'000, 100'000);            // the kernel: accelerator time
        m.event(stream, matmul, step, 20'000, 100'000);         // the same kernel again: not counted
        m.event(copy, matmul, step, 200'000, 50'000);           // copies: not counted
        m.event(cpu, m.node("host", "Identity"), step, 0, 3'000, {8, 8, 0});
        const ProfileTrace trace = m.finish();
        const ProfileTable table = build(trace, ProfileView::ByNode);
        const ProfileRow& mm = row(table, "mm");
        QCOMPARE(mm.total.cpuNs, 10'000);
        QCOMPARE(mm.total.acceleratorNs, 100'000);
        QCOMPARE(mm.total.execNs, 110'000);
        QCOMPARE(mm.total.runs, 1);
        QCOMPARE(mm.total.requestedBytes, 400);
        QCOMPARE(mm.devices.size(), std::size_t(2)); // the GPU and stream:all; not the copy or the stream
        QCOMPARE(table.devices[mm.devices[1]], kGpu + "/stream:all");
        QCOMPARE(row(table, "host").total.cpuNs, 3'000);
        QCOMPARE(table.total.execNs, 113'000);

        // Without stream:all the per-stream records are the accelerator time.
        TraceMaker s;
        const auto gpu2 = s.lane(s.device(kGpu));
        const auto stream2 = s.lane(s.device(kGpu + "/stream:3"));
        const auto step2 = s.step(0);
        const auto conv = s.node("conv", "Conv2D");
        s.event(gpu2, conv, step2, 0, 1'000);
        s.event(stream2, conv, step2, 2'000, 9'000);
        const ProfileTable streams = build(s.finish(), ProfileView::ByNode);
        QCOMPARE(row(streams, "conv").total.acceleratorNs, 9'000);
        QCOMPARE(row(streams, "conv").total.cpuNs, 1'000);

        // A GPU device without any stream device (our own GPU runs): its records are accelerator time.
        TraceMaker own;
        const auto lane = own.lane(own.device(kGpu));
        own.event(lane, own.node("k", "MatMul"), own.step(0), 0, 5'000);
        const ProfileTable direct = build(own.finish(), ProfileView::ByNode);
        QCOMPARE(row(direct, "k").total.acceleratorNs, 5'000);
        QCOMPARE(row(direct, "k").total.cpuNs, 0);
        QCOMPARE(row(direct, "k").total.runs, 1);
    }

    void scopeTotalsAreSelfPlusChildren()
    {
        const ProfileTable table = build(scopeTrace(), ProfileView::ByScope);
        QCOMPARE(table.rows.size(), std::size_t(5));
        const ProfileRow& ab = row(table, "a/b");
        QVERIFY(ab.opType.empty());
        QCOMPARE(ab.node, kNoIndex);
        QCOMPARE(ab.self.execNs, 0);
        QCOMPARE(ab.total.execNs, 140);
        QCOMPARE(ab.total.requestedBytes, 80);
        QCOMPARE(ab.total.residualBytes, 32);
        QCOMPARE(ab.total.outputBytes, 16 * 4 + 4 * 4);
        QCOMPARE(ab.total.floatOps, 16 + 4); // Add [4,4] and Mul [2,2]: one per output element
        QCOMPARE(ab.total.nodes, 2);
        QCOMPARE(ab.depth, 1);
        const ProfileRow& a = row(table, "a");
        QCOMPARE(a.opType, std::string("NoOp"));
        QCOMPARE(a.self.execNs, 5);
        QCOMPARE(a.total.execNs, 145);
        QCOMPARE(a.total.runs, 3);
        QCOMPARE(a.children.size(), std::size_t(1));
        QCOMPARE(table.rows[a.children[0]].name, std::string("a/b"));
        QCOMPARE(row(table, "a/b/c").depth, 2);
        QCOMPARE(row(table, "a/b/c").parent, a.children[0]);
        QCOMPARE(table.roots.size(), std::size_t(2));
        QCOMPARE(namesInOrder(table), (std::vector<std::string>{"a", "a/b", "a/b/c", "a/b/d", "e"}));
        QCOMPARE(table.total.execNs, 152);
        QCOMPARE(table.total.floatOps, 20);
    }

    void opViewGroupsNodesByType()
    {
        TraceMaker m;
        const auto lane = m.lane(m.device(kCpu));
        const auto step = m.step(0);
        m.event(lane, m.node("x/add", "Add"), step, 0, 10, {}, {{3}});
        m.event(lane, m.node("y/add", "Add"), step, 20, 30, {}, {{5}});
        m.event(lane, m.node("w", "VariableV2"), step, 100, 2, {}, {{4, 2}});
        const ProfileTrace trace = m.finish();
        tensorflow::GraphDef graph;
        for (const char* name : {"x/add", "y/add", "z/add"}) {
            auto* n = graph.add_node();
            n->set_name(name);
            n->set_op("Add");
        }
        auto* w = graph.add_node();
        w->set_name("w");
        w->set_op("VariableV2");
        (*w->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
        for (int d : {4, 2})
            (*w->mutable_attr())["shape"].mutable_shape()->add_dim()->set_size(d);

        const ProfileTable plain = build(trace, ProfileView::ByOpType);
        QCOMPARE(plain.rows.size(), std::size_t(2));
        QCOMPARE(row(plain, "Add").total.runs, 2);
        QCOMPARE(row(plain, "Add").total.nodes, 2);
        QCOMPARE(row(plain, "Add").total.execNs, 40);
        QCOMPARE(row(plain, "Add").total.floatOps, 8);
        QCOMPARE(row(plain, "VariableV2").total.parameters, 0); // no graph: no parameters
        QVERIFY(plain.parameterRule.empty());

        // With the graph: the node that did not run is defined (nodes 3), the variable has 8 parameters.
        const ProfileTable withGraph = build(trace, ProfileView::ByOpType, -1, &graph);
        QCOMPARE(row(withGraph, "Add").total.runs, 2);
        QCOMPARE(row(withGraph, "Add").total.nodes, 3);
        QCOMPARE(row(withGraph, "VariableV2").total.parameters, 8);
        QCOMPARE(withGraph.total.parameters, 8);
        const ProfileTable nodes = build(trace, ProfileView::ByNode, -1, &graph);
        QCOMPARE(nodes.rows.size(), std::size_t(4));
        QCOMPARE(row(nodes, "z/add").total.execNs, 0);
        QCOMPARE(row(nodes, "z/add").node, kNoIndex);
    }

    void averagesOverTheStepsEachNodeRan()
    {
        TraceMaker m;
        const auto lane = m.lane(m.device(kCpu));
        const auto s0 = m.step(10);
        const auto s1 = m.step(11);
        const auto x = m.node("x", "Add");
        const auto y = m.node("y", "Add");
        const auto loop = m.node("loop", "Mul");
        m.event(lane, x, s0, 0, 100, {10, 20, 30});
        m.event(lane, y, s0, 200, 50);
        for (int i = 0; i < 3; ++i)
            m.event(lane, loop, s0, 300 + 10 * i, 5);
        m.event(lane, x, s1, 1000, 301, {30, 40, 50});
        for (int i = 0; i < 4; ++i)
            m.event(lane, loop, s1, 1400 + 10 * i, 5);
        const ProfileTrace trace = m.finish();

        // tfprof: each quantity's sum over the steps the node ran in, divided (integer) by their count.
        const ProfileTable mean = build(trace, ProfileView::ByNode);
        QCOMPARE(mean.stepsCounted, std::size_t(2));
        QCOMPARE(row(mean, "x").total.execNs, 200);        // (100 + 301) / 2
        QCOMPARE(row(mean, "x").total.requestedBytes, 20); // (10 + 30) / 2
        QCOMPARE(row(mean, "x").total.residualBytes, 40);
        QCOMPARE(row(mean, "y").total.execNs, 50);    // ran in one step only
        QCOMPARE(row(mean, "loop").total.runs, 3);    // (3 + 4) / 2
        QCOMPARE(row(mean, "loop").total.execNs, 17); // 35 / 2

        const ProfileTable first = build(trace, ProfileView::ByNode, 0);
        QCOMPARE(first.stepsCounted, std::size_t(1));
        QCOMPARE(row(first, "x").total.execNs, 100);
        QCOMPARE(row(first, "y").total.execNs, 50);
        QCOMPARE(row(first, "loop").total.runs, 3);
        const ProfileTable second = build(trace, ProfileView::ByNode, 1);
        QCOMPARE(row(second, "x").total.execNs, 301);
        QCOMPARE(row(second, "y").total.execNs, 0);
        QCOMPARE(row(second, "loop").total.runs, 4);

        auto bad = buildProfileTable(trace, ProfileView::ByNode, {2});
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.error().message()),
                 QString("profile table: step 2 is not a step of the trace (it has 2 steps)"));
    }

    void floatOpsUseTheProducersShapesOfTheSameStep()
    {
        TraceMaker m;
        const auto lane = m.lane(m.device(kCpu));
        const auto s0 = m.step(0);
        const auto s1 = m.step(1);
        const auto a = m.node("a", "Identity");
        const auto w = m.node("w", "Identity");
        const auto mm = m.node("mm", "MatMul", {"a", "w:0", "^ctrl"});
        // Step 0: a is [2,3] when mm runs, [8,3] only after it.
        m.event(lane, a, s0, 0, 10, {}, {{2, 3}});
        m.event(lane, w, s0, 20, 10, {}, {{3, 5}});
        m.event(lane, mm, s0, 40, 10, {}, {{2, 5}});
        m.event(lane, a, s0, 60, 10, {}, {{8, 3}});
        // Step 1: a batch of 4.
        m.event(lane, a, s1, 1000, 10, {}, {{4, 3}});
        m.event(lane, w, s1, 1020, 10, {}, {{3, 5}});
        m.event(lane, mm, s1, 1040, 10, {}, {{4, 5}});
        const ProfileTrace trace = m.finish();
        QCOMPARE(row(build(trace, ProfileView::ByNode, 0), "mm").total.floatOps, 2 * 3 * 10); // 60
        QCOMPARE(row(build(trace, ProfileView::ByNode, 1), "mm").total.floatOps, 2 * 3 * 20); // 120
        QCOMPARE(row(build(trace, ProfileView::ByNode), "mm").total.floatOps, 90);            // mean
        QCOMPARE(build(trace, ProfileView::ByNode).floatOpsIncompleteNodes, 0);

        // A producer with no recorded shape leaves the count incomplete, and says so.
        TraceMaker u;
        const auto lane2 = u.lane(u.device(kCpu));
        const auto st = u.step(0);
        u.event(lane2, u.node("p", "Identity"), st, 0, 10);
        u.event(lane2, u.node("q", "Identity"), st, 20, 10);
        u.event(lane2, u.node("sum", "Sum", {"p", "q"}), st, 40, 10, {}, {{3}});
        const ProfileTable unknown = build(u.finish(), ProfileView::ByScope);
        QVERIFY(row(unknown, "sum").floatOpsIncomplete);
        QCOMPARE(row(unknown, "sum").total.floatOps, 0);
        QCOMPARE(unknown.floatOpsIncompleteNodes, 1);
    }

    void malformedEventsAreSkipped()
    {
        ProfileTrace trace = scopeTrace();
        TraceEvent bad = trace.events[0];
        bad.node = 99;
        trace.events.push_back(bad);
        bad = trace.events[0];
        bad.lane = 42;
        trace.events.push_back(bad);
        bad = trace.events[1];
        bad.firstOutput = 1000;
        bad.outputCount = 3;
        bad.step = 77;
        trace.events.push_back(bad);
        trace.lanes[0].eventCount = static_cast<std::uint32_t>(trace.events.size());
        const ProfileTable table = build(trace, ProfileView::ByScope);
        // The event without a step is its own bucket; its bad outputs only make its float ops unknown.
        QCOMPARE(row(table, "a").self.execNs, 5);
        QCOMPARE(row(table, "a/b/c").total.runs, 1);
        QCOMPARE(row(table, "a/b/c").total.execNs, 100);
    }

    void filterKeepsThePathToWhatMatched()
    {
        const ProfileTable table = build(scopeTrace(), ProfileView::ByScope);
        ProfileFilter byName;
        byName.nameRegex = "b/c$";
        auto kept = filterProfileTable(table, byName);
        QVERIFY(kept);
        QCOMPARE(namesInOrder(*kept), (std::vector<std::string>{"a", "a/b", "a/b/c"}));
        QCOMPARE(kept->total.execNs, table.total.execNs); // hidden rows still count
        QCOMPARE(row(*kept, "a").total.execNs, 145);

        ProfileFilter slow;
        slow.minTimeNs = 100;
        auto fast = filterProfileTable(table, slow);
        QVERIFY(fast);
        QCOMPARE(namesInOrder(*fast), (std::vector<std::string>{"a", "a/b", "a/b/c"}));

        ProfileFilter flops;
        flops.minFloatOps = 5;
        flops.minRequestedBytes = 50;
        QCOMPARE(namesInOrder(*filterProfileTable(table, flops)), (std::vector<std::string>{"a", "a/b", "a/b/c"}));
        ProfileFilter runs;
        runs.minRuns = 2;
        QCOMPARE(namesInOrder(*filterProfileTable(table, runs)), (std::vector<std::string>{"a", "a/b"}));

        ProfileFilter callback;
        callback.nameMatches = [](const std::string& name) { return name == "e"; };
        QCOMPARE(namesInOrder(*filterProfileTable(table, callback)), (std::vector<std::string>{"e"}));

        ProfileFilter broken;
        broken.nameRegex = "(";
        auto error = filterProfileTable(table, broken);
        QVERIFY(!error);
        QVERIFY(error.error().message().find("'(' is not a valid regular expression") != std::string::npos);
    }

    void sortsByAnyColumn()
    {
        ProfileTable nodes = build(scopeTrace(), ProfileView::ByNode);
        sortProfileTable(nodes, ProfileColumn::Time, true);
        QCOMPARE(namesInOrder(nodes), (std::vector<std::string>{"a/b/c", "a/b/d", "e", "a"}));
        sortProfileTable(nodes, ProfileColumn::RequestedBytes, false);
        QCOMPARE(namesInOrder(nodes), (std::vector<std::string>{"a", "e", "a/b/d", "a/b/c"}));
        sortProfileTable(nodes, ProfileColumn::OpType, false);
        QCOMPARE(namesInOrder(nodes), (std::vector<std::string>{"a/b/c", "e", "a/b/d", "a"}));
        sortProfileTable(nodes, ProfileColumn::Name, true);
        QCOMPARE(namesInOrder(nodes), (std::vector<std::string>{"e", "a/b/d", "a/b/c", "a"}));

        // In the tree every level is sorted; by total or by self.
        ProfileTable scopes = build(scopeTrace(), ProfileView::ByScope);
        sortProfileTable(scopes, ProfileColumn::Time, true);
        QCOMPARE(namesInOrder(scopes), (std::vector<std::string>{"a", "a/b", "a/b/c", "a/b/d", "e"}));
        sortProfileTable(scopes, ProfileColumn::Time, true, /*self=*/true);
        QCOMPARE(namesInOrder(scopes), (std::vector<std::string>{"e", "a", "a/b", "a/b/c", "a/b/d"}));
        QCOMPARE(profileValue(row(scopes, "a"), ProfileColumn::Time), 145);
        QCOMPARE(profileValue(row(scopes, "a"), ProfileColumn::Time, true), 5);
    }

    void csvIsRfc4180()
    {
        TraceMaker m;
        const auto lane = m.lane(m.device("host, \"main\""));
        m.event(lane, m.node("n", "Add"), m.step(0), 0, 7, {16, 24, 0}, {{2, 2}});
        const ProfileTable table = build(m.finish(), ProfileView::ByNode);
        const std::string expected =
            "name,op_type,depth,total_run_count,self_run_count,total_node_count,self_node_count,total_exec_ns,"
            "self_exec_ns,total_accelerator_exec_ns,self_accelerator_exec_ns,total_cpu_exec_ns,self_cpu_exec_ns,"
            "total_requested_bytes,self_requested_bytes,total_peak_bytes,self_peak_bytes,total_residual_bytes,"
            "self_residual_bytes,total_output_bytes,self_output_bytes,total_float_ops,self_float_ops,"
            "total_parameters,self_parameters,float_ops_incomplete,devices\r\n"
            "n,Add,0,1,1,1,1,7,7,0,0,7,7,16,16,24,24,0,0,16,16,4,4,0,0,false,\"host, \"\"main\"\"\"\r\n";
        QCOMPARE(QByteArray::fromStdString(profileTableCsv(table)), QByteArray::fromStdString(expected));
    }

    void summaryFitsAHundredColumns()
    {
        TraceMaker m;
        const auto lane = m.lane(m.device(kCpu));
        const auto step = m.step(3);
        m.event(lane, m.node("layer1/MatMul", "MatMul", {"x", "layer1/w"}), step, 2'000, 1'500'000, {4000, 4000},
                {{10, 5}});
        m.event(lane, m.node("x", "Identity"), step, 0, 500, {}, {{10, 20}});
        m.event(lane, m.node("layer1/w", "VariableV2"), step, 1'000, 400, {}, {{20, 5}});
        m.event(lane, m.node("a_rather_long_scope_name_that_goes_on_and_on/with_a_long_node_name_too", "Add"), step,
                2'000'000, 2'000, {}, {{7}});
        const ProfileTrace trace = m.finish();
        tensorflow::GraphDef graph;
        auto* w = graph.add_node();
        w->set_name("layer1/w");
        w->set_op("VariableV2");
        (*w->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
        for (int d : {20, 5})
            (*w->mutable_attr())["shape"].mutable_shape()->add_dim()->set_size(d);
        ProfileSummaryOptions options;
        options.graph = &graph;
        auto text = formatProfileSummary(trace, options);
        QVERIFY(text);
        std::istringstream lines(*text);
        std::string line;
        int count = 0;
        while (std::getline(lines, line)) {
            QVERIFY2(line.size() <= 100, line.c_str());
            ++count;
        }
        QVERIFY(count > 8);
        // MatMul: 2 * 20 * (10 * 5) = 2,000; Add: 7.
        QVERIFY2(text->find("Total float operations: 2,007 (2.01k)\n") != std::string::npos, text->c_str());
        QVERIFY2(text->find("Total parameters: 100 (100) in 1 variables, all variables but slots and locals\n") !=
                     std::string::npos,
                 text->c_str());
        QVERIFY(text->find("MatMul                        1|1   1.50ms") != std::string::npos);
        QVERIFY(text->find("Profile of 1 step: 4 events on 1 device\n") == 0);
        QVERIFY(text->find("  MatMul ") != std::string::npos); // the scope tree indents layer1's nodes

        QCOMPARE(formatProfileTime(850), std::string("850ns"));
        QCOMPARE(formatProfileTime(12'345), std::string("12us"));
        QCOMPARE(formatProfileTime(1'234'567), std::string("1.23ms"));
        QCOMPARE(formatProfileTime(2'500'000'000), std::string("2.50sec"));
        QCOMPARE(formatProfileBytes(999), std::string("999B"));
        QCOMPARE(formatProfileBytes(12'390'000), std::string("12.39MB"));
        QCOMPARE(formatProfileNumber(397'510), std::string("397.51k"));
        QCOMPARE(formatProfileNumber(1'663'370), std::string("1.66m"));
        QCOMPARE(formatProfileGrouped(-1'234'567), std::string("-1,234,567"));

        auto noGraph = formatProfileSummary(trace);
        QVERIFY(noGraph && noGraph->find("Total parameters: unknown (no graph)") != std::string::npos);
        ProfileSummaryOptions badStep;
        badStep.step = 5;
        QVERIFY(!formatProfileSummary(trace, badStep));
    }
};

QTEST_GUILESS_MAIN(TestProfileTables)
#include "test_profile_tables.moc"
