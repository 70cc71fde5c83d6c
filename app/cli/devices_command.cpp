// tstudio devices: the CPU and GPUs the engine can use, with CUDA/cuDNN versions and a GPU self-test; fails
// (exit 1) when a GPU is present but unusable, or a self-test fails.
#include "cli_command.h"

#include "core/affinity_cores.h"
#include "devices/gpu_probe.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <thread>

namespace tstudio::cli {

void addDevicesCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("devices", "List the devices the engine can place ops on");
    auto json = std::make_shared<bool>(false);
    auto selfTest = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print as JSON");
    cmd->add_flag("--self-test", *selfTest, "Run a small kernel on each GPU and check its results");
    cmd->callback([json, selfTest, &exitCode] {
        const GpuProbeReport report = probeGpus();
        exitCode = kExitOk;
        nlohmann::json out;
        out["cpu"] = {{"name", "/device:CPU:0"},
                      {"threads", schedulableCores()},
                      {"hardware_threads", std::thread::hardware_concurrency()}};
        out["gpu_support_compiled_in"] = report.compiledIn;
        if (report.compiledIn) {
            out["cuda_toolkit"] = report.compiledCudaVersion;
            out["cuda_architectures"] = report.compiledArchitectures;
            out["cuda_runtime"] = report.runtimeVersion;
            out["cuda_driver"] = report.driverVersion;
            out["cublas"] = report.cublasVersion;
            out["cudnn"] = report.cudnnVersion;
        }
        if (!report.unavailableReason.empty())
            out["gpu_unavailable"] = report.unavailableReason;
        if (!report.brokenReason.empty()) {
            out["gpu_broken"] = report.brokenReason;
            exitCode = kExitFailure;
        }
        out["gpus"] = nlohmann::json::array();
        for (const GpuDeviceInfo& gpu : report.devices) {
            nlohmann::json g = {{"name", "/device:GPU:" + std::to_string(gpu.ordinal)},
                                {"model", gpu.name},
                                {"compute_capability", std::to_string(gpu.computeMajor) + "." + std::to_string(gpu.computeMinor)},
                                {"memory_bytes", gpu.totalMemoryBytes},
                                {"multiprocessors", gpu.multiprocessorCount},
                                {"pci_bus_id", gpu.pciBusId}};
            if (*selfTest) {
                const Status s = runGpuSelfTest(gpu.ordinal);
                g["self_test"] = s.isOk() ? "passed" : s.toString();
                if (!s.isOk())
                    exitCode = kExitFailure;
            }
            out["gpus"].push_back(g);
        }
        if (*json) {
            std::cout << jsonText(out, 2) << std::endl;
            return;
        }
        std::printf("/device:CPU:0  %d cores this process may run on, of %u hardware threads\n", schedulableCores(),
                    std::thread::hardware_concurrency());
        if (!report.compiledIn) {
            std::printf("GPU: %s\n", report.unavailableReason.c_str());
            return;
        }
        std::printf("CUDA toolkit %s (architectures %s), runtime %s, driver %s, cuBLAS %s, cuDNN %s\n",
                    report.compiledCudaVersion.c_str(), report.compiledArchitectures.c_str(),
                    report.runtimeVersion.c_str(), report.driverVersion.empty() ? "none" : report.driverVersion.c_str(),
                    report.cublasVersion.c_str(), report.cudnnVersion.c_str());
        if (!report.brokenReason.empty())
            std::printf("%s\n", gpuUnusableText(report).c_str()); // "GPU present but unusable: ..."
        else if (!report.unavailableReason.empty())
            std::printf("GPU: %s\n", report.unavailableReason.c_str());
        for (const auto& g : out["gpus"]) {
            std::printf("%s  %s, compute capability %s, %llu MiB, %d SMs",
                        g["name"].get<std::string>().c_str(), g["model"].get<std::string>().c_str(),
                        g["compute_capability"].get<std::string>().c_str(),
                        static_cast<unsigned long long>(g["memory_bytes"].get<std::uint64_t>() >> 20),
                        g["multiprocessors"].get<int>());
            if (g.contains("self_test"))
                std::printf(", self-test %s", g["self_test"].get<std::string>().c_str());
            std::printf("\n");
        }
    });
}

} // namespace tstudio::cli
