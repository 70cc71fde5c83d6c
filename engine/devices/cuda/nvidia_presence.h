// findNvidiaPresence: whether the operating system shows an NVIDIA GPU or driver, without asking CUDA.
#pragma once

#include <string>

namespace tstudio::cuda {

/// What the operating system shows of NVIDIA GPUs, independently of whether CUDA works.
struct NvidiaPresence {
    /// PCI address of the first NVIDIA display or 3D controller (vendor 0x10de, class 0x0300xx or
    /// 0x0302xx in /sys/bus/pci/devices), e.g. "0000:01:00.0"; empty when none.
    std::string pciDevice;
    /// The first of /proc/driver/nvidia/version, /dev/nvidiactl, /dev/nvidia0 and WSL 2's
    /// /usr/lib/wsl/lib/libcuda.so.1 that exists; empty when none.
    std::string driverPath;
};

/// Reads /sys, /proc and /dev; what cannot be read counts as absent. Never fails.
NvidiaPresence findNvidiaPresence();

} // namespace tstudio::cuda
