#include "devices/gpu_plugin.h"

#include "core/program_path.h"
#include "core/version.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

namespace tstudio {
namespace {

struct Loaded {
    const GpuPluginApi* api = nullptr;
    std::string why;
};

Loaded load()
{
    Loaded out;
    const std::string path = gpuPluginPath();
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
        out.why = "no GPU support installed (the GPU plugin " + path + " is not there)";
        return out;
    }
    // RTLD_NOW: a missing CUDA library or engine symbol shows here, not at a later call.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* text = dlerror();
        out.why = "the GPU plugin " + path + " could not be loaded (" + (text ? text : "dlopen failed") +
                  "); it needs the CUDA 13 runtime, cuBLAS and cuDNN 9 on the library path";
        return out;
    }
    using Entry = const GpuPluginApi* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(handle, kGpuPluginEntry));
    const GpuPluginApi* api = entry ? entry() : nullptr;
    if (!api || api->abiVersion != kGpuPluginAbiVersion || !api->version ||
        std::strcmp(api->version, TSTUDIO_VERSION_STRING) != 0) {
        out.why = "the GPU plugin " + path + " belongs to another TensorStudio build (" +
                  (api && api->version ? std::string("version ") + api->version : std::string("no version")) +
                  ", this program is " TSTUDIO_VERSION_STRING ")";
        dlclose(handle);
        return out;
    }
    out.api = api; // never closed: its devices and kernels live until the process ends
    return out;
}

} // namespace

std::string gpuPluginPath()
{
    if (const char* path = std::getenv("TSTUDIO_GPU_PLUGIN"); path && *path)
        return path;
    const std::filesystem::path base = installPrefix().value_or(std::filesystem::path("."));
    return (base / "lib" / "tensorstudio" / kGpuPluginFileName).string();
}

const GpuPluginApi* gpuPlugin(std::string* why)
{
    static std::once_flag once;
    static Loaded loaded;
    std::call_once(once, [] { loaded = load(); });
    if (why)
        *why = loaded.why;
    return loaded.api;
}

} // namespace tstudio
