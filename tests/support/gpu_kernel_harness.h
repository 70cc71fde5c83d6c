// GpuKernelHarness: runs an op's GPU kernel on GPU:0 and its CPU twin on the CPU with the same
// inputs and compares the outputs, for every CUDA kernel (skipped where there is no GPU).
#pragma once

#include "gpu_test_gate.h"
#include "kernel_harness.h"

#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::testing {

class GpuKernelHarness {
public:
    /// Every op and every CPU and GPU kernel, a CPU device and GPU:0 (allow_growth), with
    /// uninitialised memory poisoned from then on (setPoisonUninitializedMemory). Otherwise nullptr
    /// with `why` set: kSkip where there is no GPU (no CUDA support compiled in, no NVIDIA GPU or
    /// driver), kFail where a GPU is present but the probe calls it unusable, or the kernel registry
    /// or GPU:0 cannot be created.
    static std::unique_ptr<GpuKernelHarness> create(GpuTestGate* why);
    /// One harness for the whole test program, created at the first call and never destroyed (a
    /// CUDA device must not be torn down after the CUDA runtime during exit); nullptr as create().
    static GpuKernelHarness* shared(GpuTestGate* why);
    ~GpuKernelHarness();

    /// Runs `nodeText` (as KernelHarness::run) on GPU:0: inputs copied to GPU memory except the
    /// kernel's host-memory inputs, outputs copied back, the device synchronised (so asynchronous
    /// errors surface here).
    Expected<std::vector<Tensor>> runOnGpu(const std::string& nodeText, const std::vector<Tensor>& inputs);
    /// The same node on the CPU.
    Expected<std::vector<Tensor>> runOnCpu(const std::string& nodeText, const std::vector<Tensor>& inputs);
    /// "" when the GPU kernel's outputs equal the CPU kernel's within NumPy's allclose(rtol, atol)
    /// (dtypes and shapes exactly), else the node and the first difference. Errors of either run
    /// are differences, except that both failing is a match when `sameErrorOk` (bad-input cases:
    /// the GPU kernel must reject what the CPU kernel rejects, with the same error code).
    std::string compareWithCpu(const std::string& nodeText, const std::vector<Tensor>& inputs, double rtol,
                               double atol, bool sameErrorOk = false);

    /// Host memory for inputs.
    Allocator& allocator() { return m_cpu->allocator(); }
    KernelHarness& cpu() { return *m_cpu; }
    Device& gpu() { return *m_gpu; }

private:
    GpuKernelHarness() = default;
    std::unique_ptr<KernelHarness> m_cpu;
    std::unique_ptr<Device> m_gpu;
};

/// A tensor of `shape` with values uniform in [lo, hi) (integer dtypes: integers in [lo, hi];
/// bool: either), drawn from `random`. Float types are rounded to the dtype.
Tensor randomTensor(Allocator& allocator, DataType dtype, const TensorShape& shape, std::mt19937& random,
                    double lo = -1.0, double hi = 1.0);

/// A KernelHarness with every op and every CPU and GPU kernel (no device of GPU:0): what the GPU
/// kernel tests check their registrations against without a GPU. nullptr with `error` set when it
/// cannot be built.
std::unique_ptr<KernelHarness> registrationHarness(QString* error);

/// Appends `difference` (compareWithCpu's answer, or any check's) to `failures` unless it is ""
/// (a match).
inline void addFailure(QStringList& failures, const std::string& difference)
{
    if (!difference.empty())
        failures << QString::fromStdString(difference);
}

/// The failures of table-driven cases (anything with `node`, `inputs` and `bad`) run on the CPU
/// kernels of `cpu`, which must do what the GPU comparisons assume: "[node] accepted a bad input"
/// for a bad case that ran, "[node] <error>" for a good one that failed.
template <typename Case> QStringList cpuCaseFailures(KernelHarness& cpu, const std::vector<Case>& cases)
{
    QStringList failures;
    for (const Case& c : cases) {
        auto result = cpu.run(c.node, c.inputs);
        if (c.bad == static_cast<bool>(result))
            failures << QString::fromStdString("[" + c.node + "] " +
                                               (result ? "accepted a bad input" : result.error().toString()));
    }
    return failures;
}

/// The failures of the same cases on the GPU: a bad case the GPU kernel accepted, and every
/// difference from the CPU (compareWithCpu within `tolerance(c)`, a pair rtol, atol; both devices
/// rejecting a bad case with the same code is a match).
template <typename Case, typename Tolerance>
QStringList gpuCaseFailures(GpuKernelHarness& h, const std::vector<Case>& cases, Tolerance tolerance)
{
    QStringList failures;
    for (const Case& c : cases) {
        if (c.bad && h.runOnGpu(c.node, c.inputs))
            failures << QString::fromStdString("[" + c.node + "] the GPU kernel accepted a bad input");
        const std::pair<double, double> tol = tolerance(c);
        addFailure(failures, h.compareWithCpu(c.node, c.inputs, tol.first, tol.second, c.bad));
    }
    return failures;
}

} // namespace tstudio::testing

/// In a test function: `GPU_HARNESS_OR_SKIP(h);` declares GpuKernelHarness& h, or QSKIPs with the
/// reason the machine has no GPU, or QFAILs with the reason a GPU that is present cannot be used.
#define GPU_HARNESS_OR_SKIP(name)                                                                        \
    tstudio::testing::GpuTestGate name##Gate;                                                            \
    tstudio::testing::GpuKernelHarness* name##Pointer = tstudio::testing::GpuKernelHarness::shared(&name##Gate); \
    if (!name##Pointer)                                                                                  \
        GPU_TEST_GATE_APPLY(name##Gate, "GPU kernel tests need a GPU");                                  \
    if (!name##Pointer)                                                                                  \
        QFAIL("GpuKernelHarness::shared gave no harness and no reason");                                 \
    tstudio::testing::GpuKernelHarness& name = *name##Pointer
