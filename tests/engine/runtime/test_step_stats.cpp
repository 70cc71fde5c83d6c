// Tests for tracing: RunOptions.trace_level FULL_TRACE fills RunMetadata.step_stats (one
// DeviceStepStats per device, one NodeExecStats per executed node with times, thread, label,
// outputs and memory) and partition_graphs; NO_TRACE leaves the metadata empty.
#include "runtime/arena_run_metadata.h"
#include "runtime_test_support.h"

#include <QTest>

#include <chrono>
#include <map>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";

std::int64_t nowMicros()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

tensorflow::ConfigProto twoCpus()
{
    tensorflow::ConfigProto config;
    (*config.mutable_device_count())["CPU"] = 2;
    return config;
}

const std::string kGraph = constNode("a", 2, "device: '/cpu:1'") + constNode("b", 3) +
                           binaryNode("sum", "Add", "a", "b") + binaryNode("unused", "Mul", "a", "b");

std::map<std::string, const tensorflow::NodeExecStats*> byName(const tensorflow::DeviceStepStats& device)
{
    std::map<std::string, const tensorflow::NodeExecStats*> out;
    for (const auto& stats : device.node_stats())
        out[stats.node_name()] = &stats;
    return out;
}

} // namespace

class TestStepStats : public QObject {
    Q_OBJECT

private slots:
    void fullTraceRecordsEveryExecutedNode()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kGraph, twoCpus(), &error);
        QVERIFY2(session, error.c_str());
        tensorflow::RunOptions options;
        options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        tensorflow::RunMetadata metadata;
        std::vector<Tensor> out;
        const std::int64_t before = nowMicros();
        const Status s = session->run(options, {}, {"sum"}, {}, &out, &metadata);
        const std::int64_t after = nowMicros();
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 5.0f);

        const tensorflow::StepStats& stats = metadata.step_stats();
        QCOMPARE(stats.dev_stats_size(), 2);
        QCOMPARE(stats.dev_stats(0).device(), kCpu0);
        QCOMPARE(stats.dev_stats(1).device(), kCpu1);
        auto cpu0 = byName(stats.dev_stats(0));
        auto cpu1 = byName(stats.dev_stats(1));
        QCOMPARE(cpu0.size(), std::size_t(2)); // b and sum; 'unused' did not run
        QVERIFY(cpu0.count("b") && cpu0.count("sum"));
        QCOMPARE(cpu1.size(), std::size_t(1));
        QVERIFY(cpu1.count("a"));

        const tensorflow::NodeExecStats& sum = *cpu0["sum"];
        QVERIFY(sum.all_start_micros() >= before && sum.all_start_micros() <= after);
        QVERIFY(sum.op_start_rel_micros() >= 0);
        QVERIFY(sum.op_start_rel_micros() <= sum.op_end_rel_micros());
        QVERIFY(sum.op_end_rel_micros() <= sum.all_end_rel_micros());
        QVERIFY(sum.all_start_micros() + sum.all_end_rel_micros() <= after);
        QVERIFY(sum.op_start_rel_nanos() <= sum.op_end_rel_nanos());
        QVERIFY(sum.thread_id() != 0);
        QCOMPARE(sum.timeline_label(), std::string("sum = Add(a, b)"));
        QCOMPARE(sum.output_size(), 1);
        QCOMPARE(sum.output(0).slot(), 0);
        const tensorflow::TensorDescription& description = sum.output(0).tensor_description();
        QCOMPARE(description.dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(description.shape().dim_size(), 0);
        QVERIFY(!description.shape().unknown_rank());
        QCOMPARE(description.allocation_description().requested_bytes(), std::int64_t(4));
        QCOMPARE(description.allocation_description().allocator_name(), std::string("cpu"));
        QCOMPARE(sum.memory_size(), 1);
        QCOMPARE(sum.memory(0).allocator_name(), std::string("cpu"));
        QVERIFY(sum.memory(0).peak_bytes() >= 4);
        QCOMPARE(sum.memory(0).total_bytes(), std::int64_t(4));

        // As in TensorFlow, FULL_TRACE alone gives no partition graphs; output_partition_graphs gives
        // one per device that ran nodes, with full device names.
        QCOMPARE(metadata.partition_graphs_size(), 0);
        options.set_output_partition_graphs(true);
        metadata.Clear();
        const Status again = session->run(options, {}, {"sum"}, {}, &out, &metadata);
        QVERIFY2(again.isOk(), again.toString().c_str());
        QCOMPARE(metadata.partition_graphs_size(), 2);
        const tensorflow::GraphDef& p0 = metadata.partition_graphs(0);
        QCOMPARE(p0.node_size(), 2);
        QCOMPARE(p0.node(0).name(), std::string("b"));
        QCOMPARE(p0.node(1).name(), std::string("sum"));
        QCOMPARE(p0.node(1).device(), kCpu0);
        QCOMPARE(metadata.partition_graphs(1).node(0).name(), std::string("a"));
        QCOMPARE(metadata.partition_graphs(1).node(0).device(), kCpu1);
    }

    void loopsRecordEachIterationAndSkipDeadNodes()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(whileGraph(3), &error);
        QVERIFY2(session, error.c_str());
        tensorflow::RunOptions options;
        options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        tensorflow::RunMetadata metadata;
        std::vector<Tensor> out;
        QVERIFY(session->run(options, {}, {"while/Exit"}, {}, &out, &metadata).isOk());
        QCOMPARE(metadata.step_stats().dev_stats_size(), 1);
        std::map<std::string, int> counts;
        std::string mergeLabel;
        for (const auto& stats : metadata.step_stats().dev_stats(0).node_stats()) {
            ++counts[stats.node_name()];
            if (stats.node_name() == "while/Merge")
                mergeLabel = stats.timeline_label();
        }
        QCOMPARE(counts["while/add"], 3);
        QCOMPARE(counts["while/Merge"], 4);
        QCOMPARE(counts["while/Less"], 4);
        // The Exit computes once (live); its three dead runs are not recorded.
        QCOMPARE(counts["while/Exit"], 1);
        QCOMPARE(counts["while/Identity"], 3);
        QCOMPARE(mergeLabel, std::string("while/Merge = Merge(while/Enter, while/NextIteration)"));
    }

    void arenaMetadataHoldsTheSameRecordsOnItsArena()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kGraph, twoCpus(), &error);
        QVERIFY2(session, error.c_str());
        tensorflow::RunOptions options;
        options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        std::vector<Tensor> out;
        tensorflow::RunMetadata heap;
        QVERIFY(session->run(options, {}, {"sum"}, {}, &out, &heap).isOk());
        ArenaRunMetadata arena;
        QVERIFY(session->run(options, {}, {"sum"}, {}, &out, arena.get()).isOk());

        const tensorflow::StepStats& stats = arena->step_stats();
        QCOMPARE(stats.dev_stats_size(), heap.step_stats().dev_stats_size());
        for (int d = 0; d < stats.dev_stats_size(); ++d) {
            const tensorflow::DeviceStepStats& device = stats.dev_stats(d);
            QCOMPARE(device.GetArena(), arena->GetArena()); // moved in, not copied
            QCOMPARE(device.device(), heap.step_stats().dev_stats(d).device());
            auto expected = byName(heap.step_stats().dev_stats(d));
            auto actual = byName(device);
            QCOMPARE(actual.size(), expected.size());
            for (const auto& [name, record] : actual) {
                QVERIFY(expected.count(name));
                QCOMPARE(record->GetArena(), arena->GetArena());
                QCOMPARE(record->timeline_label(), expected[name]->timeline_label());
                QCOMPARE(record->output_size(), expected[name]->output_size());
                QCOMPARE(record->output(0).tensor_description().SerializeAsString(),
                         expected[name]->output(0).tensor_description().SerializeAsString());
            }
        }

        // A traced step whose kernel fails hands no partial records to the metadata (heap or arena).
        auto failing = f.session(constNode("c", 1) + unaryNode("bad", "TestFail", "c"), {}, &error);
        QVERIFY2(failing, error.c_str());
        ArenaRunMetadata failedOnArena;
        QVERIFY(!failing->run(options, {}, {"bad"}, {}, &out, failedOnArena.get()).isOk());
        QCOMPARE(failedOnArena->step_stats().dev_stats_size(), 0);
        tensorflow::RunMetadata failedOnHeap;
        QVERIFY(!failing->run(options, {}, {"bad"}, {}, &out, &failedOnHeap).isOk());
        QCOMPARE(failedOnHeap.step_stats().dev_stats_size(), 0);
    }

    void noTraceLeavesMetadataEmpty()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kGraph, twoCpus(), &error);
        QVERIFY2(session, error.c_str());
        tensorflow::RunMetadata metadata;
        std::vector<Tensor> out;
        QVERIFY(session->run(tensorflow::RunOptions(), {}, {"sum"}, {}, &out, &metadata).isOk());
        QCOMPARE(metadata.step_stats().dev_stats_size(), 0);
        QCOMPARE(metadata.partition_graphs_size(), 0);

        tensorflow::RunOptions partitions;
        partitions.set_output_partition_graphs(true);
        QVERIFY(session->run(partitions, {}, {"sum"}, {}, &out, &metadata).isOk());
        QCOMPARE(metadata.step_stats().dev_stats_size(), 0);
        QCOMPARE(metadata.partition_graphs_size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestStepStats)
#include "test_step_stats.moc"
