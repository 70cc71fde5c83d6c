// gpuTestGate: a test that needs a GPU runs, skips (no GPU: a normal state) or fails (a GPU it cannot use).
#pragma once

#include "devices/gpu_probe.h"

#include <string>

// The macros below expand to QSKIP and QFAIL: the test that uses them includes <QTest>. This header
// does not, so that test_support, which links no QtTest, can include it.

namespace tstudio::testing {

enum class GpuTestAction {
    kRun,  ///< a GPU can be used
    kSkip, ///< no CUDA support compiled in, or no NVIDIA GPU or driver on this machine
    kFail, ///< an NVIDIA GPU or driver is present but cannot be used
};

struct GpuTestGate {
    GpuTestAction action = GpuTestAction::kRun;
    std::string reason; ///< why it skips or fails; "" for kRun
};

/// What a test that needs a GPU does, from `report`: kFail with gpuUnusableText where brokenReason
/// is set (a machine with a GPU must not pass its GPU tests by skipping them), kSkip with
/// unavailableReason where `devices` is empty, kRun otherwise.
inline GpuTestGate gpuTestGate(const GpuProbeReport& report)
{
    if (!report.brokenReason.empty())
        return {GpuTestAction::kFail,
                gpuUnusableText(report) + " (CUDA_VISIBLE_DEVICES=-1 tests as on a machine without a GPU)"};
    if (report.devices.empty())
        return {GpuTestAction::kSkip, report.unavailableReason};
    return {};
}

} // namespace tstudio::testing

/// In a test function: QSKIPs or QFAILs as `gate` (a GpuTestGate) says, with `what` before its reason
/// ("needs a GPU: ..."); does nothing for kRun.
#define GPU_TEST_GATE_APPLY(gate, what)                                                                                \
    do {                                                                                                               \
        const tstudio::testing::GpuTestGate& gpuGate_ = (gate);                                                        \
        if (gpuGate_.action == tstudio::testing::GpuTestAction::kSkip)                                                 \
            QSKIP((std::string(what) + ": " + gpuGate_.reason).c_str());                                               \
        if (gpuGate_.action == tstudio::testing::GpuTestAction::kFail)                                                 \
            QFAIL((std::string(what) + ": " + gpuGate_.reason).c_str());                                               \
    } while (false)

/// In a test function that needs GPU:0: skips where there is no GPU, fails where a GPU is present
/// but unusable (naming the CUDA, cuDNN or cuBLAS error), continues where one can be used.
#define REQUIRE_GPU_OR_SKIP() GPU_TEST_GATE_APPLY(tstudio::testing::gpuTestGate(tstudio::probeGpus()), "needs a GPU")
