// Tests for classifyGpuProbe (no GPU, usable, or present but broken), the test gate built on it, and probeGpus here.
#include "../../support/gpu_test_gate.h"
#include "devices/gpu_probe.h"
#include "devices/gpu_probe_classification.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace tstudio;

namespace {

GpuProbeFacts countFailed(const char* name, const char* text)
{
    GpuProbeFacts facts;
    facts.countErrorName = name;
    facts.countErrorText = text;
    return facts;
}

GpuProbeFacts insufficientDriver()
{
    return countFailed("cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version");
}

GpuProbeFacts noDevice()
{
    return countFailed("cudaErrorNoDevice", "no CUDA-capable device is detected");
}

GpuProbeFacts withHardware(GpuProbeFacts facts)
{
    facts.nvidiaPciDevice = "0000:01:00.0";
    return facts;
}

GpuProbeFacts withDriver(GpuProbeFacts facts)
{
    facts.nvidiaDriverPath = "/proc/driver/nvidia/version";
    return facts;
}

GpuProbeFacts visible(GpuProbeFacts facts, const char* list)
{
    facts.cudaVisibleDevices = list;
    return facts;
}

bool contains(const std::string& text, const char* part)
{
    return text.find(part) != std::string::npos;
}

/// What this test itself sees of NVIDIA hardware and driver, read with Qt rather than through the
/// engine's reader: an NVIDIA (0x10de) display or 3D controller (class 0x0300xx or 0x0302xx) on the
/// PCI bus, or one of the driver's files.
bool machineShowsNvidia()
{
    const QDir pci(QStringLiteral("/sys/bus/pci/devices"));
    for (const QString& device : pci.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile vendor(pci.filePath(device + "/vendor"));
        QFile pciClass(pci.filePath(device + "/class"));
        if (!vendor.open(QIODevice::ReadOnly) || !pciClass.open(QIODevice::ReadOnly))
            continue;
        const QByteArray cls = pciClass.readAll().trimmed();
        if (vendor.readAll().trimmed() == "0x10de" && (cls.startsWith("0x0300") || cls.startsWith("0x0302")))
            return true;
    }
    for (const char* path :
         {"/proc/driver/nvidia/version", "/dev/nvidiactl", "/dev/nvidia0", "/usr/lib/wsl/lib/libcuda.so.1"})
        if (QFile::exists(QString::fromLatin1(path)))
            return true;
    return false;
}

} // namespace

class TestGpuProbeClassification : public QObject {
    Q_OBJECT
private slots:
    /// This machine's case: the CUDA runtime is installed, no NVIDIA driver or GPU is.
    void noHardwareNoDriverAndAnOldDriverErrorIsNoGpu()
    {
        const GpuClassification c = classifyGpuProbe(insufficientDriver());
        QCOMPARE(c.verdict, GpuVerdict::kNoGpu);
        QCOMPARE(c.message, std::string("no NVIDIA GPU or driver on this machine (CUDA reports "
                                        "cudaErrorInsufficientDriver)"));
    }

    void noHardwareNoDriverAndNoDeviceIsNoGpu()
    {
        const GpuClassification c = classifyGpuProbe(noDevice());
        QCOMPARE(c.verdict, GpuVerdict::kNoGpu);
        QCOMPARE(c.message, std::string("no NVIDIA GPU or driver on this machine (CUDA reports cudaErrorNoDevice)"));
        GpuProbeFacts none; // cudaGetDeviceCount succeeded with 0
        QCOMPARE(classifyGpuProbe(none).verdict, GpuVerdict::kNoGpu);
        QCOMPARE(classifyGpuProbe(none).message,
                 std::string("no NVIDIA GPU or driver on this machine (CUDA finds no device)"));
    }

    /// With an NVIDIA GPU on the PCI bus every CUDA error is a failure that names the error.
    void hardwareAndAnyCudaErrorIsBroken()
    {
        const GpuProbeFacts errors[] = {
            insufficientDriver(),
            noDevice(),
            countFailed("cudaErrorInitializationError", "initialization error"),
            countFailed("cudaErrorSystemDriverMismatch",
                        "system has unsupported display driver / cuda driver combination"),
            countFailed("cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"),
        };
        for (const GpuProbeFacts& facts : errors) {
            const GpuClassification c = classifyGpuProbe(withHardware(facts));
            QCOMPARE(c.verdict, GpuVerdict::kBroken);
            QVERIFY2(contains(c.message, facts.countErrorName.c_str()), c.message.c_str());
            QVERIFY2(contains(c.message, facts.countErrorText.c_str()), c.message.c_str());
            QVERIFY2(contains(c.message, "an NVIDIA GPU is on the PCI bus at 0000:01:00.0 but CUDA cannot use it"),
                     c.message.c_str());
        }
        QCOMPARE(classifyGpuProbe(withHardware(insufficientDriver())).message,
                 std::string("an NVIDIA GPU is on the PCI bus at 0000:01:00.0 but CUDA cannot use it: "
                             "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime "
                             "version (no NVIDIA driver is loaded)"));
    }

    /// The NVIDIA driver alone (a container that shows no PCI bus, say) also makes an error a failure.
    void driverAndNoDeviceIsBroken()
    {
        const GpuClassification c = classifyGpuProbe(withDriver(noDevice()));
        QCOMPARE(c.verdict, GpuVerdict::kBroken);
        QCOMPARE(c.message, std::string("an NVIDIA driver is loaded (/proc/driver/nvidia/version) but CUDA cannot use "
                                        "it: cudaErrorNoDevice: no CUDA-capable device is detected"));
        GpuProbeFacts counted; // cudaGetDeviceCount succeeded with 0
        const GpuClassification zero = classifyGpuProbe(withHardware(withDriver(counted)));
        QCOMPARE(zero.verdict, GpuVerdict::kBroken);
        QVERIFY2(contains(zero.message, "an NVIDIA GPU is on the PCI bus at 0000:01:00.0 and an NVIDIA driver is "
                                        "loaded (/proc/driver/nvidia/version) but CUDA cannot use it: "
                                        "cudaGetDeviceCount finds no device"),
                 zero.message.c_str());
    }

    /// An old driver says which CUDA it supports and which the runtime needs.
    void oldDriverNamesBothVersions()
    {
        GpuProbeFacts facts = withHardware(withDriver(insufficientDriver()));
        facts.driverCudaVersion = "12.2";
        facts.runtimeCudaVersion = "13.0";
        const GpuClassification c = classifyGpuProbe(facts);
        QCOMPARE(c.verdict, GpuVerdict::kBroken);
        QVERIFY2(contains(c.message,
                          "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA "
                          "runtime version (the driver supports CUDA 12.2, this build's runtime is CUDA 13.0)"),
                 c.message.c_str());
    }

    void devicesFoundAreUsable()
    {
        GpuProbeFacts facts = withHardware(withDriver({}));
        facts.deviceCount = 2;
        QCOMPARE(classifyGpuProbe(facts).verdict, GpuVerdict::kUsable);
        QCOMPARE(classifyGpuProbe(facts).message, std::string());
        // What CUDA finds and can use counts even where the operating system showed nothing.
        GpuProbeFacts unseen;
        unseen.deviceCount = 1;
        QCOMPARE(classifyGpuProbe(unseen).verdict, GpuVerdict::kUsable);
    }

    /// A device CUDA counts but cuDNN, cuBLAS or its properties fail on is broken.
    void devicesFoundButUnusableAreBroken()
    {
        GpuProbeFacts facts = withHardware(withDriver({}));
        facts.deviceCount = 1;
        facts.deviceError = "GPU 0 (NVIDIA H100 80GB HBM3): cudnnCreate failed: CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED";
        const GpuClassification c = classifyGpuProbe(facts);
        QCOMPARE(c.verdict, GpuVerdict::kBroken);
        QCOMPARE(c.message, "CUDA finds 1 GPU but cannot use it: " + facts.deviceError);
        facts.deviceCount = 2;
        QVERIFY2(contains(classifyGpuProbe(facts).message, "CUDA finds 2 GPUs but cannot use them: GPU 0"),
                 classifyGpuProbe(facts).message.c_str());
    }

    /// CUDA_VISIBLE_DEVICES that names no device asks for no GPU: a normal state even with one here.
    void visibleDevicesThatHideEveryGpuMeanNoGpu()
    {
        for (const char* list : {"-1", "", "none", "-1,0"}) {
            const GpuClassification c = classifyGpuProbe(visible(withHardware(withDriver(noDevice())), list));
            QCOMPARE(c.verdict, GpuVerdict::kNoGpu);
            const std::string expected =
                "CUDA_VISIBLE_DEVICES='" + std::string(list) + "' hides every GPU (CUDA reports cudaErrorNoDevice)";
            QCOMPARE(c.message, expected);
        }
        // Lists that name a device hide nothing: CUDA's error stays a failure, and says the list.
        for (const char* list : {"0", "3", "1,0", "GPU-8e6d1f4a", "MIG-1d2c"}) {
            const GpuClassification c = classifyGpuProbe(visible(withHardware(noDevice()), list));
            QCOMPARE(c.verdict, GpuVerdict::kBroken);
            QVERIFY2(contains(c.message, ("(CUDA_VISIBLE_DEVICES='" + std::string(list) + "')").c_str()),
                     c.message.c_str());
        }
        // Without anything NVIDIA the list changes nothing but the wording.
        QCOMPARE(classifyGpuProbe(visible(noDevice(), "0")).verdict, GpuVerdict::kNoGpu);
    }

    /// Tests skip where there is no GPU and fail where one is present but unusable.
    void testGateSkipsOrFails()
    {
        GpuProbeReport report;
        report.unavailableReason = "no NVIDIA GPU or driver on this machine (CUDA reports cudaErrorNoDevice)";
        testing::GpuTestGate gate = testing::gpuTestGate(report);
        QCOMPARE(gate.action, testing::GpuTestAction::kSkip);
        QCOMPARE(gate.reason, report.unavailableReason);

        report = {};
        report.brokenReason = "an NVIDIA driver is loaded (/dev/nvidia0) but CUDA cannot use it: cudaErrorNoDevice";
        gate = testing::gpuTestGate(report);
        QCOMPARE(gate.action, testing::GpuTestAction::kFail);
        QVERIFY2(gate.reason.starts_with("GPU present but unusable: " + report.brokenReason), gate.reason.c_str());
        QCOMPARE(gpuUnusableText(report), "GPU present but unusable: " + report.brokenReason);

        report = {};
        report.devices.push_back({});
        QCOMPARE(testing::gpuTestGate(report).action, testing::GpuTestAction::kRun);
        QCOMPARE(gpuUnusableText(report), std::string());
    }

    /// probeGpus on the machine the test runs on agrees with what the test itself sees there: with
    /// no NVIDIA GPU or driver (as on the build machine) no GPU and not broken; with one, a usable
    /// GPU or a broken one, never "no GPU" unless CUDA_VISIBLE_DEVICES hides it.
    void probeAgreesWithThisMachine()
    {
        const GpuProbeReport report = probeGpus();
        const int answers =
            int(!report.devices.empty()) + int(!report.unavailableReason.empty()) + int(!report.brokenReason.empty());
        QCOMPARE(answers, 1);
        if (!report.compiledIn) {
            QCOMPARE(report.unavailableReason, std::string("no GPU support compiled in"));
            return;
        }
        const bool hidden = qEnvironmentVariableIsSet("CUDA_VISIBLE_DEVICES") &&
                            detail::hidesEveryGpu(qgetenv("CUDA_VISIBLE_DEVICES").toStdString());
        if (!machineShowsNvidia()) {
            QVERIFY2(report.devices.empty(), "CUDA found a GPU that the operating system does not show");
            QVERIFY2(report.brokenReason.empty(), report.brokenReason.c_str());
            QVERIFY2(report.unavailableReason.starts_with(hidden ? "CUDA_VISIBLE_DEVICES='"
                                                                 : "no NVIDIA GPU or driver on this machine (CUDA "),
                     report.unavailableReason.c_str());
            return;
        }
        qInfo("this machine shows an NVIDIA GPU or driver: %s",
              report.devices.empty() ? gpuUnusableText(report).c_str() : report.devices.front().name.c_str());
        if (hidden)
            QVERIFY2(report.devices.empty() && !report.unavailableReason.empty(), gpuUnusableText(report).c_str());
        else
            QVERIFY2(report.unavailableReason.empty(), report.unavailableReason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpuProbeClassification)
#include "test_gpu_probe_classification.moc"
