// findNvidiaPresence: NVIDIA GPUs on the PCI bus and signs of the NVIDIA driver, from sysfs, procfs and /dev.
#include "devices/cuda/nvidia_presence.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>

namespace tstudio::cuda {
namespace {

constexpr unsigned kNvidiaVendor = 0x10de;
// PCI class codes (base class, sub-class): display controller 0x03, VGA-compatible 0x00 or 3D 0x02.
// The audio and USB functions of an NVIDIA card (classes 0x04, 0x0c) are not GPUs.
constexpr unsigned kVgaController = 0x0300;
constexpr unsigned kThreeDController = 0x0302;

/// A sysfs attribute such as "0x10de\n" as a number; nullopt when unreadable or malformed.
std::optional<unsigned> readHex(const std::filesystem::path& file)
{
    std::ifstream in(file);
    std::string text;
    if (!(in >> text))
        return std::nullopt;
    std::string_view digits = text;
    if (digits.starts_with("0x") || digits.starts_with("0X"))
        digits.remove_prefix(2);
    unsigned value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
    if (error != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    return value;
}

std::string firstNvidiaGpuOnPciBus()
{
    // increment(error) rather than a range-for, whose operator++ throws on a read error.
    std::error_code error;
    for (std::filesystem::directory_iterator it("/sys/bus/pci/devices", error), end; !error && it != end;
         it.increment(error)) {
        const std::filesystem::path& device = it->path();
        if (readHex(device / "vendor") != kNvidiaVendor)
            continue;
        const std::optional<unsigned> pciClass = readHex(device / "class");
        if (pciClass && ((*pciClass >> 8) == kVgaController || (*pciClass >> 8) == kThreeDController))
            return device.filename().string();
    }
    return {};
}

} // namespace

NvidiaPresence findNvidiaPresence()
{
    NvidiaPresence presence;
    presence.pciDevice = firstNvidiaGpuOnPciBus();
    for (const char* path :
         {"/proc/driver/nvidia/version", "/dev/nvidiactl", "/dev/nvidia0", "/usr/lib/wsl/lib/libcuda.so.1"}) {
        std::error_code error;
        if (std::filesystem::exists(path, error)) {
            presence.driverPath = path;
            break;
        }
    }
    return presence;
}

} // namespace tstudio::cuda
