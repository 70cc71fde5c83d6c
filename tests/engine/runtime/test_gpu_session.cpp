// Sessions with a GPU: TensorFlow's default placement (ops with GPU kernels on GPU:0), explicit
// /cpu:0, soft placement with its logged reason, log_device_placement, copies between host and GPU
// memory at delivery and fetch, and the same numbers as a CPU-only session. Skipped where there is
// no GPU, except the checks that need none.
#include "runtime_test_support.h"

#include "core/log.h"
#include "devices/gpu_activity.h"
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"
#include "gpu_test_gate.h"
#include "kernel_harness.h"
#include "runtime/step_capture.h"

#include <QTest>

#include <limits>
#include <map>
#include <set>

#include <mutex>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

tensorflow::ConfigProto withGpus(int gpus, bool soft = false, bool log = false)
{
    tensorflow::ConfigProto config;
    (*config.mutable_device_count())["GPU"] = gpus;
    config.mutable_gpu_options()->set_allow_growth(true);
    config.set_allow_soft_placement(soft);
    config.set_log_device_placement(log);
    return config;
}

/// x [2,3] fed; y = Sum(Relu(BiasAdd(MatMul(x, w), b)), axis 1) with constants w [3,4], b [4].
std::string denseGraph(const std::string& matmulDevice = "")
{
    return "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
           "node { name: 'w' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value {"
           " tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 4 } }"
           " float_val: [0.5, -1, 2, 0.25, 1.5, 0.75, -0.5, 1, -2, 0.125, 1, 0.5] } } } }\n"
           "node { name: 'b' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value {"
           " tensor { dtype: DT_FLOAT tensor_shape { dim { size: 4 } } float_val: [0.1, -0.2, 0.3, -0.4] } } } }\n"
           "node { name: 'axis' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value {"
           " tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }\n"
           "node { name: 'mm' op: 'MatMul' input: 'x' input: 'w' " +
           (matmulDevice.empty() ? std::string() : "device: '" + matmulDevice + "' ") +
           "attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'biased' op: 'BiasAdd' input: 'mm' input: 'b' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'relu' op: 'Relu' input: 'biased' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'y' op: 'Sum' input: 'relu' input: 'axis' attr { key: 'T' value { type: DT_FLOAT } }"
           " attr { key: 'Tidx' value { type: DT_INT32 } } }\n";
}

Tensor input()
{
    return floatTensor(TensorShape({2, 3}), {1, -2, 0.5f, 3, 0.25f, -1});
}

class PlacementLines {
public:
    PlacementLines()
    {
        m_id = addLogSink([this](const LogRecord& r) {
            if (r.source == "placement") {
                std::lock_guard lock(m_mutex);
                m_lines.push_back(r.message);
            }
        });
    }
    ~PlacementLines() { removeLogSink(m_id); }
    bool contains(const std::string& text)
    {
        std::lock_guard lock(m_mutex);
        for (const std::string& line : m_lines)
            if (line.find(text) != std::string::npos)
                return true;
        return false;
    }

private:
    LogSinkId m_id = 0;
    std::mutex m_mutex;
    std::vector<std::string> m_lines;
};

/// A session over `graphText` on GPU:0 (allow_growth, soft placement) with CUDA graph capture on or off.
std::unique_ptr<Session> captureSession(AllKernelsFixture& f, const std::string& graphText, bool capture,
                                        std::string* error)
{
    return f.session(graphText, withGpus(1, true), error, capture);
}

/// One step of gradient descent on loss = 0.5 * sum((x w)^2), x [?,3] fed, w [3,2]; `extra` nodes
/// are added. "train" applies it, "loss" is fetched, "init" sets w.
std::string trainingStepGraph(const std::string& extra = "")
{
    return "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
           floatConstNode("w_init", {3, 2}, "0.5, -1, 2, 0.25, 1.5, 0.75") + floatConstNode("lr", {}, "0.01") +
           floatConstNode("half", {}, "0.5") +
           "node { name: 'axes' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value {"
           " tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [0, 1] } } } }\n"
           "node { name: 'w' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }"
           " attr { key: 'shape' value { shape { dim { size: 3 } dim { size: 2 } } } } }\n"
           "node { name: 'init' op: 'Assign' input: 'w' input: 'w_init' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'y' op: 'MatMul' input: 'x' input: 'w' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'sq' op: 'Square' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'total' op: 'Sum' input: 'sq' input: 'axes' attr { key: 'T' value { type: DT_FLOAT } }"
           " attr { key: 'Tidx' value { type: DT_INT32 } } }\n"
           "node { name: 'loss' op: 'Mul' input: 'total' input: 'half' attr { key: 'T' value { type: DT_FLOAT } } }\n"
           "node { name: 'grad' op: 'MatMul' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } }"
           " attr { key: 'transpose_a' value { b: true } } }\n"
           "node { name: 'train' op: 'ApplyGradientDescent' input: 'w' input: 'lr' input: 'grad'"
           " attr { key: 'T' value { type: DT_FLOAT } } }\n" +
           extra;
}

/// A batch of `rows` x 3 that differs from step to step.
Tensor batch(std::int64_t rows, int step)
{
    std::vector<float> values(static_cast<std::size_t>(rows * 3));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>((static_cast<int>(i) * 7 + step * 3) % 11) * 0.1f - 0.5f;
    return floatTensor(TensorShape({rows, 3}), values);
}

/// The training step graph in a session that captures CUDA graphs and in one that does not, run
/// side by side.
struct CapturedAndPlain {
    AllKernelsFixture f;
    std::unique_ptr<Session> captured;
    std::unique_ptr<Session> plain;

    /// Both sessions over trainingStepGraph(), initialised; "" or the error.
    std::string create()
    {
        std::string error;
        captured = captureSession(f, trainingStepGraph(), true, &error);
        if (captured)
            plain = captureSession(f, trainingStepGraph(), false, &error);
        return plain ? initialise() : error;
    }

    /// Runs "init" in both; "" or the error.
    std::string initialise() { return runBoth({}, {}, {"init"}); }

    /// Runs the same step in both; "" when it succeeds in both and every fetched value agrees
    /// (relative 1e-6), else what went wrong.
    std::string runBoth(const std::vector<std::pair<std::string, Tensor>>& feeds, const std::vector<std::string>& fetches,
                        const std::vector<std::string>& targets)
    {
        std::vector<Tensor> a, b;
        if (Status s = captured->run(feeds, fetches, targets, &a); !s.isOk())
            return "captured: " + s.toString();
        if (Status s = plain->run(feeds, fetches, targets, &b); !s.isOk())
            return "executor: " + s.toString();
        for (std::size_t i = 0; i < fetches.size(); ++i)
            if (std::string difference = compareTensors(a.at(i), b.at(i), 1e-6, 1e-7); !difference.empty())
                return fetches[i] + ": " + difference;
        return "";
    }

    /// One training step on a batch of `rows`, fetching the loss (and `extra`).
    std::string trainBoth(std::int64_t rows, int step, const std::vector<std::string>& extra = {})
    {
        std::vector<std::string> fetches = {"loss"};
        fetches.insert(fetches.end(), extra.begin(), extra.end());
        const std::string difference = runBoth({{"x", batch(rows, step)}}, fetches, {"train"});
        return difference.empty() ? "" : "step " + std::to_string(step) + ": " + difference;
    }
};

} // namespace

class TestGpuSession : public QObject {
    Q_OBJECT

private slots:
    /// Without a GPU device the GPU kernels change nothing: everything runs on CPU:0.
    void noGpuDeviceMeansCpuPlacement()
    {
        AllKernelsFixture f;
        std::string error;
        auto session = f.session(denseGraph(), withGpus(0), &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(session->devices().size(), std::size_t(1));
        QCOMPARE(*session->assignedDevice("mm"), std::string("/job:localhost/replica:0/task:0/device:CPU:0"));
        std::vector<Tensor> out;
        const Status s = session->run({{"x", input()}}, {"y"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out.at(0).shape(), TensorShape({2}));
    }

    /// A build with CUDA registers GPU kernels for the ops of the dense graph (the placer's input).
    void gpuKernelsAreRegisteredInCudaBuilds()
    {
        if (!probeGpus().compiledIn)
            QSKIP("this build has no CUDA support");
        AllKernelsFixture f;
        QVERIFY2(f.setUp.isOk(), f.setUp.toString().c_str());
        for (const char* op : {"MatMul", "BiasAdd", "Relu", "Sum", "Const", "Identity"})
            QVERIFY2(f.kernels.hasKernelFor(op, "GPU"), op);
        QVERIFY(!f.kernels.hasKernelFor("Placeholder", "GPU") || f.kernels.hasKernelFor("Placeholder", "CPU"));
    }

    void defaultPlacementPutsGpuKernelsOnGpu0()
    {
        REQUIRE_GPU_OR_SKIP();
        AllKernelsFixture f;
        std::string error;
        PlacementLines lines;
        auto gpu = f.session(denseGraph(), withGpus(1, false, true), &error);
        QVERIFY2(gpu, error.c_str());
        QCOMPARE(gpu->devices().size(), std::size_t(2));
        const std::string gpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
        for (const char* node : {"mm", "biased", "relu", "y"})
            QCOMPARE(*gpu->assignedDevice(node), gpu0);
        QVERIFY(lines.contains("mm: (MatMul): " + gpu0));

        auto cpu = f.session(denseGraph(), withGpus(0), &error);
        QVERIFY2(cpu, error.c_str());
        std::vector<Tensor> onGpu, onCpu;
        for (int run = 0; run < 3; ++run) { // later runs reuse cached memory
            Status s = gpu->run({{"x", input()}}, {"y", "relu"}, {}, &onGpu);
            QVERIFY2(s.isOk(), s.toString().c_str());
        }
        Status s = cpu->run({{"x", input()}}, {"y", "relu"}, {}, &onCpu);
        QVERIFY2(s.isOk(), s.toString().c_str());
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(onGpu[i].inHostMemory());
            const std::string difference = compareTensors(onGpu[i], onCpu[i], 1e-5, 1e-6);
            QVERIFY2(difference.empty(), difference.c_str());
        }
    }

    /// GPUOptions.experimental.virtual_devices: two TF GPUs sharing one physical GPU, each with its
    /// own memory limit; a graph split across them gives the CPU's numbers.
    void virtualDevicesShareOneGpu()
    {
        REQUIRE_GPU_OR_SKIP();
        AllKernelsFixture f;
        tensorflow::ConfigProto config = withGpus(-1);
        config.mutable_device_count()->erase("GPU");
        config.mutable_gpu_options()->set_visible_device_list("0");
        auto* split = config.mutable_gpu_options()->mutable_experimental()->add_virtual_devices();
        split->add_memory_limit_mb(256);
        split->add_memory_limit_mb(128);
        std::string graph = denseGraph("/device:GPU:0");
        const std::string relu = "node { name: 'relu' op: 'Relu' input: 'biased'";
        graph.replace(graph.find(relu), relu.size(), relu + " device: '/device:GPU:1'");
        std::string error;
        auto session = f.session(graph, config, &error);
        QVERIFY2(session, error.c_str());
        const auto devices = session->devices();
        QCOMPARE(devices.size(), std::size_t(3));
        const std::string gpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
        const std::string gpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";
        QCOMPARE(devices[1]->name(), gpu0);
        QCOMPARE(devices[2]->name(), gpu1);
        QCOMPARE(devices[1]->driverOrdinal(), 0);
        QCOMPARE(devices[2]->driverOrdinal(), 0);
        QCOMPARE(*session->assignedDevice("mm"), gpu0);
        QCOMPARE(*session->assignedDevice("relu"), gpu1);
        auto cpu = f.session(denseGraph(), withGpus(0), &error);
        QVERIFY2(cpu, error.c_str());
        std::vector<Tensor> onGpus, onCpu;
        Status s = session->run({{"x", input()}}, {"y", "relu"}, {}, &onGpus);
        QVERIFY2(s.isOk(), s.toString().c_str());
        s = cpu->run({{"x", input()}}, {"y", "relu"}, {}, &onCpu);
        QVERIFY2(s.isOk(), s.toString().c_str());
        for (std::size_t i = 0; i < 2; ++i) {
            const std::string difference = compareTensors(onGpus[i], onCpu[i], 1e-5, 1e-6);
            QVERIFY2(difference.empty(), difference.c_str());
        }
    }

    void explicitCpuDeviceIsHonoured()
    {
        REQUIRE_GPU_OR_SKIP();
        AllKernelsFixture f;
        std::string error;
        auto session = f.session(denseGraph("/cpu:0"), withGpus(1), &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(*session->assignedDevice("mm"), std::string("/job:localhost/replica:0/task:0/device:CPU:0"));
        QCOMPARE(*session->assignedDevice("relu"), std::string("/job:localhost/replica:0/task:0/device:GPU:0"));
        std::vector<Tensor> out; // CPU MatMul -> GPU BiasAdd: a copy to the GPU at delivery
        const Status s = session->run({{"x", input()}}, {"y"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
    }

    /// An op without a GPU kernel asked onto /gpu:0: an error naming it, or with soft placement the
    /// CPU and a logged reason.
    void softPlacementFallsBackWithAReason()
    {
        REQUIRE_GPU_OR_SKIP();
        AllKernelsFixture f;
        const std::string graph =
            "node { name: 's' op: 'Const' device: '/cpu:0' attr { key: 'dtype' value { type: DT_STRING } }"
            " attr { key: 'value' value { tensor { dtype: DT_STRING tensor_shape { } string_val: 'a' } } } }\n"
            "node { name: 'joined' op: 'StringJoin' input: 's' input: 's' device: '/gpu:0'"
            " attr { key: 'N' value { i: 2 } } }\n";
        std::string error;
        QVERIFY(!f.session(graph, withGpus(1), &error));
        QVERIFY2(error.find("joined") != std::string::npos && error.find("GPU") != std::string::npos, error.c_str());
        PlacementLines lines;
        auto session = f.session(graph, withGpus(1, true), &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(*session->assignedDevice("joined"), std::string("/job:localhost/replica:0/task:0/device:CPU:0"));
        QVERIFY(lines.contains("joined: (StringJoin): requested"));
        QVERIFY(lines.contains("soft placement put it on /job:localhost/replica:0/task:0/device:CPU:0"));
    }

    /// CUDA graphs: after two warm-up steps the step is captured, and later steps replay it with
    /// their own feeds. Losses and weights are those of the executor, step by step.
    void capturedStepsGiveTheExecutorsNumbers()
    {
        REQUIRE_GPU_OR_SKIP();
        CapturedAndPlain both;
        std::string difference = both.create();
        QVERIFY2(difference.empty(), difference.c_str());
        const int steps = 8;
        for (int step = 0; step < steps; ++step) {
            difference = both.trainBoth(4, step, {"x"}); // a fetched feed is this step's feed
            QVERIFY2(difference.empty(), difference.c_str());
        }
        difference = both.runBoth({}, {"w"}, {});
        QVERIFY2(difference.empty(), difference.c_str());

        const StepCaptureStats stats = both.captured->captureStats();
        QCOMPARE(stats.captures, std::int64_t(1));
        QCOMPARE(stats.replays, std::int64_t(steps - StepCapture::kWarmUpSteps - 1));
        QVERIFY(stats.graphNodes > 0);
        QCOMPARE(both.plain->captureStats().captures, std::int64_t(0));
        QCOMPARE(both.plain->captureStats().replays, std::int64_t(0));
    }

    /// New feed shapes drop the graph; the plan warms up and is captured again for them.
    void newFeedShapesAreCapturedAgain()
    {
        REQUIRE_GPU_OR_SKIP();
        CapturedAndPlain both;
        std::string difference = both.create();
        QVERIFY2(difference.empty(), difference.c_str());
        for (int step = 0; step < 10; ++step) {
            difference = both.trainBoth(step < 5 ? 4 : 2, step);
            QVERIFY2(difference.empty(), difference.c_str());
        }
        const StepCaptureStats stats = both.captured->captureStats();
        QCOMPARE(stats.captures, std::int64_t(2));
        QCOMPARE(stats.replays, std::int64_t(2 + 2));
    }

    /// A random op keeps its counter on the host: such steps always run in the executor, and the
    /// reason names the node.
    void randomOpsAreNeverCaptured()
    {
        REQUIRE_GPU_OR_SKIP();
        AllKernelsFixture f;
        std::string error;
        auto session = captureSession(
            f,
            trainingStepGraph("node { name: 'noise_shape' op: 'Shape' input: 'y' attr { key: 'T' value { type: DT_FLOAT } }"
                              " attr { key: 'out_type' value { type: DT_INT32 } } }\n"
                              "node { name: 'noise' op: 'RandomUniform' input: 'noise_shape' attr { key: 'dtype' value {"
                              " type: DT_FLOAT } } attr { key: 'T' value { type: DT_INT32 } } attr { key: 'seed' value {"
                              " i: 3 } } }\n"
                              "node { name: 'noisy' op: 'Mul' input: 'y' input: 'noise' attr { key: 'T' value {"
                              " type: DT_FLOAT } } }\n"),
            true, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        std::vector<Tensor> noise;
        for (int step = 0; step < 6; ++step) {
            const Status s = session->run({{"x", batch(4, 0)}}, {"noisy", "noise"}, {"train"}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            noise.push_back(out.at(1));
        }
        const StepCaptureStats stats = session->captureStats();
        QCOMPARE(stats.captures, std::int64_t(0));
        QVERIFY2(stats.lastEvent.find("node 'noise' (op 'RandomUniform')") != std::string::npos,
                 stats.lastEvent.c_str());
        // Every step drew new numbers.
        QVERIFY(!compareTensors(noise[4], noise[5], 0, 0).empty());
    }

    /// Variables given new buffers after a capture (cleared and initialised again) drop the graph:
    /// no replay reads the old buffers.
    void replacedVariablesDropTheGraph()
    {
        REQUIRE_GPU_OR_SKIP();
        CapturedAndPlain both;
        std::string difference = both.create();
        QVERIFY2(difference.empty(), difference.c_str());
        for (int round = 0; round < 2; ++round) {
            both.captured->resources().clearContainer("");
            both.plain->resources().clearContainer("");
            difference = both.initialise();
            QVERIFY2(difference.empty(), difference.c_str());
            for (int step = 0; step < 5; ++step) {
                difference = both.trainBoth(4, step);
                QVERIFY2(difference.empty(), ("round " + std::to_string(round) + ", " + difference).c_str());
            }
        }
        QCOMPARE(both.captured->captureStats().captures, std::int64_t(2));
    }

    /// The GPU activity recorder (CUPTI) sees a captured step's kernels and copies, and the GPU's
    /// busy time lies within the recorded stretch.
    void activityRecorderSeesTheStepsKernels()
    {
        REQUIRE_GPU_OR_SKIP();
        AllKernelsFixture f;
        std::string error;
        auto session = captureSession(f, trainingStepGraph(), true, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        for (int step = 0; step < 3; ++step) // warm up and capture
            QVERIFY(session->run({{"x", batch(64, step)}}, {"loss"}, {"train"}, &out).isOk());
        auto recorder = GpuActivityRecorder::start();
        if (!recorder)
            QSKIP(("CUPTI is not usable here: " + recorder.error().toString()).c_str());
        QVERIFY(!GpuActivityRecorder::start()); // one at a time
        for (int step = 0; step < 5; ++step)
            QVERIFY(session->run({{"x", batch(64, step)}}, {"loss"}, {"train"}, &out).isOk());
        auto activity = (*recorder)->stop();
        QVERIFY2(activity, activity ? "" : activity.error().toString().c_str());
        QVERIFY2(activity->kernels >= 5 * 3, std::to_string(activity->kernels).c_str()); // MatMuls, Square, Sum...
        QVERIFY(activity->copies >= 5 * 2); // a feed in and a loss out per step
        QVERIFY(activity->busySeconds > 0);
        QVERIFY(activity->busySeconds <= activity->seconds);
        QVERIFY(activity->kernelSeconds > 0);
    }

    /// A traced step on the GPU holds TensorFlow's GPU tracer records: the kernels on
    /// "<GPU:0>/stream:all" and on their stream, each named after the node that launched it, the
    /// feed's copy under "/memcpy", and each kernel within its node's host record's step.
    void tracedStepsHoldTheKernelsOfEachNode()
    {
        REQUIRE_GPU_OR_SKIP();
        if (auto probe = GpuActivityRecorder::start(); !probe)
            QSKIP(("CUPTI is not usable here: " + probe.error().toString()).c_str());
        AllKernelsFixture f;
        std::string error;
        auto session = captureSession(f, trainingStepGraph(), false, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        tensorflow::RunOptions options;
        options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        tensorflow::RunMetadata metadata;
        const Status s = session->run(options, {{"x", batch(64, 0)}}, {"loss"}, {"train"}, &out, &metadata);
        QVERIFY2(s.isOk(), s.toString().c_str());

        const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
        std::map<std::string, const tensorflow::DeviceStepStats*> devices;
        for (const tensorflow::DeviceStepStats& device : metadata.step_stats().dev_stats())
            devices[device.device()] = &device;
        QVERIFY2(devices.count(gpu + "/stream:all"), "no stream:all device");
        QVERIFY2(devices.count(gpu + "/memcpy"), "no memcpy device");
        std::set<std::string> kernelNodes;
        int streams = 0;
        for (const auto& [name, device] : devices)
            streams += name.find("/stream:") != std::string::npos && name.find("stream:all") == std::string::npos;
        QVERIFY(streams >= 1);
        for (const tensorflow::NodeExecStats& record : devices.at(gpu + "/stream:all")->node_stats()) {
            kernelNodes.insert(record.node_name());
            QVERIFY(record.all_start_nanos() > 0);
            QVERIFY(record.all_end_rel_nanos() >= 1000);
        }
        for (const char* node : {"y:MatMul", "sq:Square", "total:Sum", "grad:MatMul", "train:ApplyGradientDescent"})
            QVERIFY2(kernelNodes.count(node), (std::string("no kernel record of ") + node).c_str());
        // The kernels ran within the step that the host's records span.
        std::int64_t hostStart = std::numeric_limits<std::int64_t>::max();
        for (const tensorflow::NodeExecStats& record : devices.at(gpu)->node_stats())
            hostStart = std::min(hostStart, record.all_start_nanos());
        for (const tensorflow::NodeExecStats& record : devices.at(gpu + "/stream:all")->node_stats())
            QVERIFY(record.all_start_nanos() + 1'000'000 >= hostStart); // a millisecond of clock skew at most
        // A trace again: the recorder was given back.
        tensorflow::RunMetadata again;
        QVERIFY(session->run(options, {{"x", batch(64, 1)}}, {"loss"}, {"train"}, &out, &again).isOk());
        QVERIFY(again.step_stats().dev_stats_size() >= 3);
    }

    /// Without a GPU (or without CUDA or CUPTI) the recorder either refuses with a reason or
    /// records nothing: never a crash.
    void activityRecorderWithoutWorkRecordsNothing()
    {
        auto recorder = GpuActivityRecorder::start();
        if (!recorder) {
            QVERIFY(!recorder.error().message().empty());
            return;
        }
        auto activity = (*recorder)->stop();
        if (activity) {
            QCOMPARE(activity->kernels, std::int64_t(0));
            QCOMPARE(activity->busySeconds, 0.0);
        } else {
            QVERIFY(!activity.error().message().empty());
        }
        QVERIFY(!(*recorder)->stop()); // a second stop is refused
    }
};

QTEST_GUILESS_MAIN(TestGpuSession)
#include "test_gpu_session.moc"
