// GPU memory budget arithmetic and visible_device_list parsing; no CUDA here.
#include "devices/gpu_memory_budget.h"

#include "core/ascii_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <string_view>

namespace tstudio {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
constexpr std::uint64_t kMinUsableBytes = 256;

std::string mib(std::uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / static_cast<double>(kMiB));
    return text;
}

std::string fractionText(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", fraction);
    return text;
}

/// A 32-bit integer with optional spaces around it and an optional '-', as TF's safe_strto32.
bool parseInt32(std::string_view text, std::int64_t* value)
{
    while (!text.empty() && isAsciiSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isAsciiSpace(text.back()))
        text.remove_suffix(1);
    bool negative = false;
    if (!text.empty() && text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    if (text.empty())
        return false;
    const std::int64_t limit = negative ? std::int64_t(1) << 31 : (std::int64_t(1) << 31) - 1;
    std::int64_t result = 0;
    for (char c : text) {
        if (!isAsciiDigit(c))
            return false;
        result = result * 10 + (c - '0');
        if (result > limit)
            return false;
    }
    *value = negative ? -result : result;
    return true;
}

} // namespace

std::uint64_t gpuSystemMemoryReserve(std::uint64_t freeBytes)
{
    if (freeBytes < (std::uint64_t(1) << 31))
        return 225 * kMiB;
    const auto fivePercent = static_cast<std::uint64_t>(static_cast<double>(freeBytes) * 0.05);
    return std::max<std::uint64_t>(300 * kMiB, fivePercent);
}

Expected<GpuMemoryBudget> gpuMemoryBudget(const tensorflow::GPUOptions& options, std::uint64_t totalBytes,
                                          std::uint64_t freeBytes)
{
    const double fraction = options.per_process_gpu_memory_fraction();
    if (std::isnan(fraction) || fraction < 0) {
        return unexpected(invalidArgumentError("GPUOptions.per_process_gpu_memory_fraction must be between 0 and 1, "
                                               "got " +
                                               fractionText(fraction)));
    }
    if (fraction > 1) {
        return unexpected(invalidArgumentError(
            "GPUOptions.per_process_gpu_memory_fraction is " + fractionText(fraction) +
            ": a fraction above 1 oversubscribes the GPU through unified (managed) memory, which TensorStudio "
            "does not use; give a value in (0, 1], or 0 for all free memory"));
    }
    if (options.experimental().use_unified_memory()) {
        return unexpected(invalidArgumentError("GPUOptions.experimental.use_unified_memory is set, but TensorStudio "
                                               "does not use unified (managed) memory"));
    }
    GpuMemoryBudget budget;
    budget.allowGrowth = options.allow_growth();
    if (fraction > 0) {
        budget.limitBytes = static_cast<std::uint64_t>(static_cast<double>(totalBytes) * fraction);
    } else {
        const std::uint64_t reserve = gpuSystemMemoryReserve(freeBytes);
        budget.limitBytes = reserve < freeBytes ? freeBytes - reserve : freeBytes;
    }
    if (budget.limitBytes < kMinUsableBytes) {
        std::string why =
            fraction > 0
                ? "per_process_gpu_memory_fraction " + fractionText(fraction) + " of " + mib(totalBytes) + " MiB total"
                : "the GPU has " + mib(freeBytes) + " MiB free of " + mib(totalBytes) + " MiB total";
        return unexpected(resourceExhaustedError("no GPU memory to allocate from: " + why + " leaves " +
                                                 std::to_string(budget.limitBytes) + " bytes"));
    }
    return budget;
}

Expected<std::vector<int>> visibleGpuOrdinals(const std::string& visibleDeviceList, int physicalCount)
{
    std::vector<int> order;
    if (visibleDeviceList.empty()) {
        for (int i = 0; i < physicalCount; ++i)
            order.push_back(i);
        return order;
    }
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = visibleDeviceList.find(',', start);
        const std::string entry =
            visibleDeviceList.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        std::int64_t ordinal = 0;
        if (!parseInt32(entry, &ordinal)) {
            return unexpected(invalidArgumentError("Could not parse entry in 'visible_device_list': '" + entry +
                                                   "'. visible_device_list = " + visibleDeviceList));
        }
        if (ordinal < 0 || ordinal >= physicalCount) {
            return unexpected(invalidArgumentError("'visible_device_list' listed an invalid GPU id '" +
                                                   std::to_string(ordinal) + "' but visible device count is " +
                                                   std::to_string(physicalCount)));
        }
        order.push_back(static_cast<int>(ordinal));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    if (std::set<int>(order.begin(), order.end()).size() != order.size())
        return unexpected(
            invalidArgumentError("visible_device_list contained a duplicate entry: " + visibleDeviceList));
    return order;
}

Expected<std::vector<GpuDevicePlan>> planGpuDevices(const tensorflow::GPUOptions& options,
                                                    const std::vector<int>& visibleOrdinals, int maxCount)
{
    const int visible = static_cast<int>(visibleOrdinals.size());
    const int gpusToUse = maxCount < 0 ? visible : std::min(maxCount, visible);
    std::vector<GpuDevicePlan> plans;
    const auto& virtualDevices = options.experimental().virtual_devices();
    if (virtualDevices.empty()) {
        for (int i = 0; i < gpusToUse; ++i)
            plans.push_back({visibleOrdinals[static_cast<std::size_t>(i)], std::nullopt});
        return plans;
    }
    const int entries = virtualDevices.size();
    if (options.per_process_gpu_memory_fraction() > 0) {
        return unexpected(
            invalidArgumentError("It's invalid to set per_process_gpu_memory_fraction when virtual_devices is set."));
    }
    if (gpusToUse < entries) {
        return unexpected(Status(StatusCode::kUnknown, "Not enough GPUs to create virtual devices. num_gpus_to_use: " +
                                                           std::to_string(gpusToUse) +
                                                           " #virtual_devices: " + std::to_string(entries)));
    }
    if (!options.visible_device_list().empty() && visible != entries) {
        return unexpected(invalidArgumentError(
            "The number of GPUs in visible_device_list doesn't match the number of elements in the virtual_devices "
            "list. #GPUs in visible_device_list: " +
            std::to_string(visible) + " virtual_devices.size(): " + std::to_string(entries)));
    }
    if (gpusToUse != entries) {
        return unexpected(Status(StatusCode::kUnknown,
                                 "The number of valid GPUs doesn't match the number of elements in the "
                                 "virtual_devices list. #valid GPUs: " +
                                     std::to_string(gpusToUse) + " virtual_devices.size(): " + std::to_string(entries)));
    }
    for (int i = 0; i < entries; ++i) {
        const int ordinal = visibleOrdinals[static_cast<std::size_t>(i)];
        const auto& limits = virtualDevices.Get(i).memory_limit_mb();
        if (limits.empty()) {
            plans.push_back({ordinal, std::nullopt});
            continue;
        }
        for (int k = 0; k < limits.size(); ++k) {
            const double mb = limits.Get(k);
            if (!std::isfinite(mb) || mb <= 0) {
                return unexpected(invalidArgumentError(
                    "GPUOptions.experimental.virtual_devices[" + std::to_string(i) + "].memory_limit_mb[" +
                    std::to_string(k) + "] must be a positive number of MiB, got " + fractionText(mb)));
            }
            plans.push_back({ordinal, static_cast<std::uint64_t>(mb * static_cast<double>(kMiB))});
        }
    }
    return plans;
}

} // namespace tstudio
