// GpuKernelHarness: GPU kernels against their CPU twins.
#include "gpu_kernel_harness.h"

#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "framework/memory_poison.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include <Eigen/Core>

#include <mutex>

namespace tstudio::testing {

std::unique_ptr<KernelHarness> registrationHarness(QString* error)
{
    return KernelHarness::create({registerAllOps}, {registerCpuKernels, registerGpuKernels}, error);
}

std::unique_ptr<GpuKernelHarness> GpuKernelHarness::create(GpuTestGate* why)
{
    *why = gpuTestGate(probeGpus());
    if (why->action != GpuTestAction::kRun)
        return nullptr;
    // From here a GPU is present: whatever stops the harness is a failure, not a reason to skip.
    const auto fail = [why](std::string reason) {
        *why = {GpuTestAction::kFail, std::move(reason)};
        return nullptr;
    };
    std::unique_ptr<GpuKernelHarness> harness(new GpuKernelHarness);
    QString error;
    harness->m_cpu = registrationHarness(&error);
    if (!harness->m_cpu)
        return fail("GPU present but the kernel registry cannot be created: " + error.toStdString());
    tensorflow::GPUOptions options;
    options.set_allow_growth(true);
    auto devices = createGpuDevices(options, 1);
    if (!devices)
        return fail("GPU present but GPU:0 cannot be created: " + devices.error().toString());
    if (devices->empty())
        return fail("GPU present but createGpuDevices made no device although the probe found " +
                    std::to_string(probeGpus().devices.size()));
    harness->m_gpu = std::move(devices->front());
    // Outputs start as NaN / -1 bytes on both devices, so a GPU kernel that leaves an element
    // unwritten differs from its CPU twin instead of matching it by the allocator's chance zeros.
    setPoisonUninitializedMemory(true);
    return harness;
}

GpuKernelHarness* GpuKernelHarness::shared(GpuTestGate* why)
{
    static std::once_flag once;
    static GpuKernelHarness* harness = nullptr;
    static GpuTestGate gate;
    std::call_once(once, [] { harness = create(&gate).release(); });
    *why = gate;
    return harness;
}

GpuKernelHarness::~GpuKernelHarness() = default;

Expected<std::vector<Tensor>> GpuKernelHarness::runOnGpu(const std::string& nodeText, const std::vector<Tensor>& inputs)
{
    return m_cpu->runOn(*m_gpu, nodeText, inputs);
}

Expected<std::vector<Tensor>> GpuKernelHarness::runOnCpu(const std::string& nodeText, const std::vector<Tensor>& inputs)
{
    return m_cpu->run(nodeText, inputs);
}

std::string GpuKernelHarness::compareWithCpu(const std::string& nodeText, const std::vector<Tensor>& inputs,
                                             double rtol, double atol, bool sameErrorOk)
{
    auto cpu = runOnCpu(nodeText, inputs);
    auto gpu = runOnGpu(nodeText, inputs);
    const std::string where = "[" + nodeText + "] ";
    if (!cpu || !gpu) {
        if (!cpu && !gpu && sameErrorOk && cpu.error().code() == gpu.error().code())
            return {};
        return where + "CPU: " + (cpu ? std::string("ok") : cpu.error().toString()) +
               "; GPU: " + (gpu ? std::string("ok") : gpu.error().toString());
    }
    if (cpu->size() != gpu->size())
        return where + std::to_string(cpu->size()) + " CPU outputs, " + std::to_string(gpu->size()) + " GPU outputs";
    for (std::size_t i = 0; i < cpu->size(); ++i) {
        const std::string difference = compareTensors((*gpu)[i], (*cpu)[i], rtol, atol);
        if (!difference.empty())
            return where + "output " + std::to_string(i) + ": " + difference;
    }
    return {};
}

namespace {

template <typename T>
void fillUniform(Tensor& t, std::mt19937& random, double lo, double hi)
{
    auto values = t.values<T>();
    if constexpr (std::is_same_v<T, bool>) {
        std::bernoulli_distribution coin;
        for (auto& v : values)
            v = coin(random);
    } else if constexpr (std::is_integral_v<T>) {
        std::uniform_int_distribution<std::int64_t> draw(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
        for (auto& v : values)
            v = static_cast<T>(draw(random));
    } else {
        std::uniform_real_distribution<double> draw(lo, hi);
        for (auto& v : values) {
            if constexpr (std::is_same_v<T, double>)
                v = draw(random);
            else
                v = static_cast<T>(static_cast<float>(draw(random)));
        }
    }
}

} // namespace

Tensor randomTensor(Allocator& allocator, DataType dtype, const TensorShape& shape, std::mt19937& random, double lo,
                    double hi)
{
    auto made = Tensor::allocate(allocator, dtype, shape);
    if (!made)
        qFatal("%s", made.error().toString().c_str());
    Tensor t = std::move(*made);
    switch (dtype) {
    case tensorflow::DT_FLOAT: fillUniform<float>(t, random, lo, hi); break;
    case tensorflow::DT_DOUBLE: fillUniform<double>(t, random, lo, hi); break;
    case tensorflow::DT_HALF: fillUniform<Eigen::half>(t, random, lo, hi); break;
    case tensorflow::DT_BFLOAT16: fillUniform<Eigen::bfloat16>(t, random, lo, hi); break;
    case tensorflow::DT_INT32: fillUniform<std::int32_t>(t, random, lo, hi); break;
    case tensorflow::DT_INT64: fillUniform<std::int64_t>(t, random, lo, hi); break;
    case tensorflow::DT_UINT8: fillUniform<std::uint8_t>(t, random, lo, hi); break;
    case tensorflow::DT_INT8: fillUniform<std::int8_t>(t, random, lo, hi); break;
    case tensorflow::DT_BOOL: fillUniform<bool>(t, random, lo, hi); break;
    default: qFatal("randomTensor: unsupported dtype %s", dataTypeString(dtype).c_str());
    }
    return t;
}

} // namespace tstudio::testing
