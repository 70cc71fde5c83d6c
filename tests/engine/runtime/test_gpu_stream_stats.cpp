// The GPU tracer's records in a traced step's StepStats, the part that needs no GPU: GPU activity
// records (made here, as CUPTI would deliver them) become TensorFlow's stream pseudo-devices, named
// after the nodes that queued them, and the profiler's trace shows them on stream lanes beside the
// host's records. The recording itself is tested in test_gpu_session.
#include "profiler/trace_builder.h"
#include "runtime/gpu_stream_stats.h"
#include "runtime/step_stats_collector.h"

#include <QTest>

#include <map>

using namespace tstudio;

namespace {

GpuActivityRecord kernel(std::string name, std::uint32_t stream, std::uint64_t start, std::uint64_t end,
                         std::uint64_t tag)
{
    GpuActivityRecord record;
    record.kind = GpuActivityRecord::Kind::kKernel;
    record.name = std::move(name);
    record.stream = stream;
    record.startNs = start;
    record.endNs = end;
    record.tag = tag;
    record.grid = {4, 2, 1};
    record.block = {256, 1, 1};
    return record;
}

/// An activity whose CUPTI clock reads 1,000,000 ns at the steady instant `at`.
GpuActivity activityAt(std::chrono::steady_clock::time_point at)
{
    GpuActivity activity;
    activity.cuptiAtStart = 1'000'000;
    activity.steadyAtStart = at;
    return activity;
}

std::optional<std::string> gpu0Only(std::uint32_t ordinal)
{
    if (ordinal == 0)
        return std::string("/job:localhost/replica:0/task:0/device:GPU:0");
    return std::nullopt;
}

std::optional<GpuTaggedNode> twoNodes(std::uint64_t tag)
{
    if (tag == 1)
        return GpuTaggedNode{"dense/MatMul", "MatMul"};
    if (tag == 2)
        return GpuTaggedNode{"dense/Relu", "Relu"};
    return std::nullopt;
}

std::map<std::string, const tensorflow::DeviceStepStats*> byDevice(const tensorflow::StepStats& stats)
{
    std::map<std::string, const tensorflow::DeviceStepStats*> out;
    for (const tensorflow::DeviceStepStats& device : stats.dev_stats())
        out[device.device()] = &device;
    return out;
}

} // namespace

class TestGpuStreamStats : public QObject {
    Q_OBJECT

private slots:
    /// Kernels go to stream:all and to their stream, in start order, named "<node>:<op>", with the
    /// kernel, its launch shape and the annotation in the label; times on the host records' clock.
    void kernelsBecomeStreamRecordsNamedAfterTheirNodes()
    {
        const auto at = std::chrono::steady_clock::now();
        GpuActivity activity = activityAt(at);
        // Delivered out of order, as CUPTI's buffers can be.
        activity.records.push_back(kernel("relu_kernel(float*, int)", 7, 1'003'000, 1'004'500, 2));
        activity.records.push_back(kernel("sgemm_128x64", 7, 1'001'000, 1'002'500, 1));
        activity.records.push_back(kernel("untagged_kernel", 9, 1'005'000, 1'005'200, 0));

        tensorflow::StepStats stats;
        QCOMPARE(appendGpuStreamStats(activity, gpu0Only, twoNodes, &stats), std::int64_t(3));
        const auto devices = byDevice(stats);
        const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
        QCOMPARE(devices.size(), std::size_t(3));
        QVERIFY(devices.count(gpu + "/stream:all"));
        QVERIFY(devices.count(gpu + "/stream:7"));
        QVERIFY(devices.count(gpu + "/stream:9"));
        QVERIFY(!devices.count(gpu + "/memcpy")); // no copies

        const tensorflow::DeviceStepStats& all = *devices.at(gpu + "/stream:all");
        QCOMPARE(all.node_stats_size(), 3);
        QCOMPARE(all.node_stats(0).node_name(), std::string("dense/MatMul:MatMul"));
        QCOMPARE(all.node_stats(0).timeline_label(), std::string("sgemm_128x64 grid:[4,2,1] block:[256,1,1]@@dense/MatMul:MatMul#"));
        QCOMPARE(all.node_stats(1).node_name(), std::string("dense/Relu:Relu"));
        QCOMPARE(all.node_stats(2).node_name(), std::string("untagged_kernel")); // no tag: the kernel's name
        QCOMPARE(all.node_stats(2).timeline_label(), std::string("untagged_kernel grid:[4,2,1] block:[256,1,1]"));

        // 1,001,000 on CUPTI's clock is 1,000 ns after `at`.
        const std::int64_t expectedStart = traceWallNanos(at) + 1000;
        QCOMPARE(all.node_stats(0).all_start_nanos(), expectedStart);
        QCOMPARE(all.node_stats(0).all_start_micros(), expectedStart / 1000);
        QCOMPARE(all.node_stats(0).all_end_rel_nanos(), std::int64_t(1500));
        QCOMPARE(all.node_stats(0).op_end_rel_nanos(), std::int64_t(1500));
        // A 200 ns kernel is shown as a microsecond, as TensorFlow's tracer does.
        QCOMPARE(all.node_stats(2).all_end_rel_nanos(), std::int64_t(1000));

        QCOMPARE(devices.at(gpu + "/stream:7")->node_stats_size(), 2);
        QCOMPARE(devices.at(gpu + "/stream:9")->node_stats_size(), 1);
    }

    /// Copies also go to "<gpu>/memcpy" with their size; a GPU that is not the session's is left out.
    void copiesGoToMemcpyAndForeignGpusAreLeftOut()
    {
        GpuActivity activity = activityAt(std::chrono::steady_clock::now());
        GpuActivityRecord copy;
        copy.kind = GpuActivityRecord::Kind::kCopy;
        copy.name = "MemcpyHtoD";
        copy.stream = 14;
        copy.startNs = 1'000'100;
        copy.endNs = 1'002'100;
        copy.bytes = 313600;
        copy.tag = 1;
        activity.records.push_back(copy);
        GpuActivityRecord elsewhere = kernel("other_gpu_kernel", 7, 1'000'000, 1'000'900, 0);
        elsewhere.device = 3;
        activity.records.push_back(elsewhere);

        tensorflow::StepStats stats;
        QCOMPARE(appendGpuStreamStats(activity, gpu0Only, twoNodes, &stats), std::int64_t(1));
        const auto devices = byDevice(stats);
        const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
        QCOMPARE(devices.size(), std::size_t(3)); // stream:all, stream:14, memcpy
        const tensorflow::DeviceStepStats& copies = *devices.at(gpu + "/memcpy");
        QCOMPARE(copies.node_stats_size(), 1);
        QCOMPARE(copies.node_stats(0).timeline_label(), std::string("MemcpyHtoD 313600 bytes@@dense/MatMul:MatMul#"));
        QCOMPARE(copies.node_stats(0).all_end_rel_nanos(), std::int64_t(2000));
    }

    /// Beside a host record, the profiler's trace puts the kernels on stream lanes of GPU devices,
    /// under the node that launched them.
    void theProfilersTraceShowsKernelsOnStreamLanes()
    {
        const auto at = std::chrono::steady_clock::now();
        tensorflow::StepStats stats;
        tensorflow::DeviceStepStats* host = stats.add_dev_stats();
        host->set_device("/job:localhost/replica:0/task:0/device:GPU:0");
        tensorflow::NodeExecStats* matmul = host->add_node_stats();
        matmul->set_node_name("dense/MatMul");
        matmul->set_timeline_label("dense/MatMul = MatMul(x, dense/kernel)");
        matmul->set_all_start_nanos(traceWallNanos(at));
        matmul->set_all_end_rel_nanos(3000);
        matmul->set_thread_id(1);

        GpuActivity activity = activityAt(at);
        activity.records.push_back(kernel("sgemm_128x64", 7, 1'001'000, 1'002'500, 1));
        appendGpuStreamStats(activity, gpu0Only, twoNodes, &stats);

        const profiler::ProfileTrace trace = profiler::traceFromStepStats(stats);
        int streamLanes = 0;
        for (const profiler::TraceLane& lane : trace.lanes) {
            if (lane.kind != profiler::LaneKind::Stream)
                continue;
            ++streamLanes;
            QCOMPARE(trace.devices[lane.device].type, std::string("GPU"));
            QCOMPARE(lane.eventCount, 1u);
            const profiler::TraceEvent& event = trace.events[lane.firstEvent];
            QCOMPARE(trace.nodes[event.node].name, std::string("dense/MatMul"));
            QCOMPARE(event.startNs, std::int64_t(1000)); // after the host record's start, the origin
            QCOMPARE(event.durationNs, std::int64_t(1500));
        }
        QCOMPARE(streamLanes, 2); // "stream all" and "stream 7"
        const profiler::TraceNode& node = trace.nodes[trace.events[0].node];
        QCOMPARE(node.op, std::string("MatMul")); // from the host record's label
    }
};

QTEST_GUILESS_MAIN(TestGpuStreamStats)
#include "test_gpu_stream_stats.moc"
