// Tests for RunStats: compute time and memory per node from hand-made StepStats and from a RunMetadata
// traced (FULL_TRACE) by our own Session.
#include "../../support/graph_def_nodes.h"
#include "graph_viewer/run_stats.h"

#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "proto/step_stats.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::graph_viewer;

using tstudio::testing::addNode;

namespace {

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";

tensorflow::NodeExecStats* addRecord(tensorflow::DeviceStepStats* device, const std::string& name, std::int64_t start,
                                     std::int64_t allEndRel)
{
    auto* stats = device->add_node_stats();
    stats->set_node_name(name);
    stats->set_all_start_micros(start);
    stats->set_all_end_rel_micros(allEndRel);
    return stats;
}

void addOutput(tensorflow::NodeExecStats* stats, std::int64_t requestedBytes)
{
    auto* output = stats->add_output();
    output->set_slot(stats->output_size() - 1);
    output->mutable_tensor_description()->mutable_allocation_description()->set_requested_bytes(requestedBytes);
}

void addMemory(tensorflow::NodeExecStats* stats, std::int64_t total, std::int64_t peak)
{
    auto* memory = stats->add_memory();
    memory->set_allocator_name("cpu");
    memory->set_total_bytes(total);
    memory->set_peak_bytes(peak);
}

tensorflow::StepStats handMadeStats()
{
    tensorflow::StepStats stats;
    auto* cpu = stats.add_dev_stats();
    cpu->set_device(kCpu0);
    // "a" runs twice (a loop body): times and bytes add up.
    auto* a1 = addRecord(cpu, "a", 1000, 10);
    addOutput(a1, 16);
    addMemory(a1, 16, 32);
    auto* a2 = addRecord(cpu, "a", 1100, 5);
    addOutput(a2, 16);
    addMemory(a2, 8, 24);
    // A TF 2 timeline name "node:Op", timed only by op_start/op_end.
    auto* b = addRecord(cpu, "dense/MatMul:MatMul", 1200, 0);
    b->set_op_start_rel_micros(2);
    b->set_op_end_rel_micros(9);
    addOutput(b, 40);
    addOutput(b, 8);
    // Nanoseconds win over microseconds when present.
    auto* c = addRecord(cpu, "c", 1300, 2);
    c->set_all_end_rel_nanos(2500);
    // A negative span counts for nothing.
    addRecord(cpu, "broken", 1400, -3);

    auto* gpu = stats.add_dev_stats();
    gpu->set_device(kGpu0);
    addOutput(addRecord(gpu, "d", 2000, 20), 100);
    // GPU stream and copy pseudo-devices repeat the work: left out, as TensorBoard does.
    auto* stream = stats.add_dev_stats();
    stream->set_device(kGpu0 + "/stream:all");
    addRecord(stream, "d", 2001, 18);
    auto* memcpy = stats.add_dev_stats();
    memcpy->set_device(kGpu0 + "/memcpy");
    addRecord(memcpy, "a", 2100, 3);
    return stats;
}

} // namespace

class TestRunStats : public QObject {
    Q_OBJECT

private slots:
    void handMadeStepStats()
    {
        const RunStats stats = runStatsFromStepStats(handMadeStats());
        QCOMPARE(stats.devices, (std::vector<std::string>{kCpu0, kGpu0}));
        QCOMPARE(stats.ignoredDevices, (std::vector<std::string>{kGpu0 + "/stream:all", kGpu0 + "/memcpy"}));
        QCOMPARE(stats.byNode.size(), std::size_t(5)); // a, dense/MatMul, c, broken, d

        const NodeRunStats& a = stats.byNode.at("a");
        QCOMPARE(a.occurrences, 2);
        QCOMPARE(a.computeMicros, 15.0);
        QCOMPARE(a.outputBytes, std::int64_t(32));
        QCOMPARE(a.peakBytes, std::int64_t(56));
        QCOMPARE(a.allocatedBytes, std::int64_t(24));
        QCOMPARE(a.device, kCpu0);
        QCOMPARE(a.firstStartMicros, std::int64_t(1000));
        QCOMPARE(a.lastEndMicros, std::int64_t(1105));

        QVERIFY(stats.byNode.count("dense/MatMul:MatMul") == 0);
        const NodeRunStats& b = stats.byNode.at("dense/MatMul");
        QCOMPARE(b.computeMicros, 7.0);
        QCOMPARE(b.outputBytes, std::int64_t(48));
        QCOMPARE(b.occurrences, 1);

        QCOMPARE(stats.byNode.at("c").computeMicros, 2.5);
        QCOMPARE(stats.byNode.at("broken").computeMicros, 0.0);
        QCOMPARE(stats.byNode.at("broken").occurrences, 1);

        const NodeRunStats& d = stats.byNode.at("d");
        QCOMPARE(d.computeMicros, 20.0);
        QCOMPARE(d.device, kGpu0);
        QCOMPARE(d.occurrences, 1);

        QCOMPARE(stats.totalMicros, 15.0 + 7.0 + 2.5 + 20.0);
        QCOMPARE(stats.totalBytes, std::int64_t(32 + 48 + 100));
    }

    void damagedRunMetadataIsAnError()
    {
        auto stats = runStatsFromRunMetadata(std::string("\x0a\x50\x01", 3));
        QVERIFY(!stats);
        QCOMPARE(stats.error().code(), StatusCode::kDataLoss);
        QCOMPARE(stats.error().message(), std::string("RunMetadata is not valid (3 bytes)"));
        auto empty = runStatsFromRunMetadata(std::string());
        QVERIFY(empty);
        QVERIFY(empty->byNode.empty());
        QCOMPARE(empty->totalMicros, 0.0);
    }

    void tracedSessionRun()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        tensorflow::GraphDef g;
        auto* k = addNode(g, "k", "Const", {});
        (*k->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
        auto* value = (*k->mutable_attr())["value"].mutable_tensor();
        value->set_dtype(tensorflow::DT_FLOAT);
        value->mutable_tensor_shape()->add_dim()->set_size(2);
        value->mutable_tensor_shape()->add_dim()->set_size(3);
        for (float v : {1.f, -2.f, 3.f, -4.f, 5.f, -6.f})
            value->add_float_val(v);
        (*addNode(g, "relu", "Relu", {"k"})->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
        (*addNode(g, "mul", "Mul", {"relu", "k"})->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);

        SessionOptions options;
        options.ops = &(*registries)->ops;
        options.kernels = &(*registries)->kernels;
        Session session(options);
        Status s = session.create(g);
        QVERIFY2(s.isOk(), s.toString().c_str());
        tensorflow::RunOptions runOptions;
        runOptions.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        tensorflow::RunMetadata metadata;
        std::vector<Tensor> out;
        s = session.run(runOptions, {}, {"mul"}, {}, &out, &metadata);
        QVERIFY2(s.isOk(), s.toString().c_str());

        auto stats = runStatsFromRunMetadata(metadata.SerializeAsString());
        QVERIFY(stats);
        QCOMPARE(stats->devices, std::vector<std::string>{kCpu0});
        QVERIFY(stats->ignoredDevices.empty());
        QCOMPARE(stats->byNode.size(), std::size_t(3));
        // Each record against the trace itself: the same node, one execution, its own numbers.
        double total = 0;
        for (const tensorflow::NodeExecStats& record : metadata.step_stats().dev_stats(0).node_stats()) {
            const NodeRunStats& node = stats->byNode.at(record.node_name());
            QCOMPARE(node.occurrences, 1);
            QCOMPARE(node.device, kCpu0);
            const double expected = record.all_end_rel_nanos() > 0 ? double(record.all_end_rel_nanos()) / 1000.0
                                                                   : double(record.all_end_rel_micros());
            QCOMPARE(node.computeMicros, expected);
            QCOMPARE(node.firstStartMicros, record.all_start_micros());
            QCOMPARE(node.peakBytes, record.memory_size() ? record.memory(0).peak_bytes() : 0);
            total += expected;
        }
        QCOMPARE(stats->totalMicros, total);
        // relu and mul each produce a float [2,3]: 24 bytes. relu allocates them (its input is the
        // constant's); mul writes over relu's, which nothing else reads, and allocates nothing.
        QCOMPARE(stats->byNode.at("relu").outputBytes, std::int64_t(24));
        QCOMPARE(stats->byNode.at("mul").outputBytes, std::int64_t(24));
        QVERIFY(stats->byNode.at("relu").peakBytes >= 24);
        QCOMPARE(stats->byNode.at("mul").peakBytes, std::int64_t(0));
        QCOMPARE(stats->totalBytes, stats->byNode.at("k").outputBytes + 48);
    }
};

QTEST_GUILESS_MAIN(TestRunStats)
#include "test_run_stats.moc"
