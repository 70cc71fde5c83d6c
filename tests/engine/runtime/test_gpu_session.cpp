// Sessions with a GPU: TensorFlow's default placement (ops with GPU kernels on GPU:0), explicit
// /cpu:0, soft placement with its logged reason, log_device_placement, copies between host and GPU
// memory at delivery and fetch, and the same numbers as a CPU-only session. Skipped where there is
// no GPU, except the checks that need none.
#include "runtime_test_support.h"

#include "core/log.h"
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "kernels/kernels.h"
#include "ops/register_all_ops.h"
#include "kernel_harness.h"

#include <QTest>

#include <mutex>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

/// Every op, every CPU and GPU kernel.
struct AllKernelsFixture : SessionFixture {
    AllKernelsFixture()
    {
        setUp = registerAllOps(ops);
        if (setUp.isOk())
            setUp = registerCpuKernels(kernels);
        if (setUp.isOk())
            setUp = registerGpuKernels(kernels);
    }
};

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

} // namespace

#define REQUIRE_GPU()                                                                                    \
    do {                                                                                                 \
        const GpuProbeReport report = probeGpus();                                                       \
        if (report.devices.empty())                                                                      \
            QSKIP(("needs a GPU: " + report.unavailableReason).c_str());                                 \
    } while (false)

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
        REQUIRE_GPU();
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

    void explicitCpuDeviceIsHonoured()
    {
        REQUIRE_GPU();
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
        REQUIRE_GPU();
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
};

QTEST_GUILESS_MAIN(TestGpuSession)
#include "test_gpu_session.moc"
