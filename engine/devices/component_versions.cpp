// Library versions, read at run time where the library can say.
#include "devices/component_versions.h"

#include "devices/gpu_probe.h"

#include <Eigen/Core>
#include <google/protobuf/stubs/common.h>
#include <png.h>
#include <zlib.h>

namespace tstudio {

std::vector<ComponentVersion> engineComponentVersions()
{
    std::vector<ComponentVersion> out;
    out.push_back({"Eigen",
                   std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                       std::to_string(EIGEN_MINOR_VERSION),
                   "compiled in"});
    // protobuf checks at start-up that the library is at least the headers' version.
    out.push_back({"protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION), "compiled in"});
    out.push_back({"zlib", zlibVersion(), "run time"});
    out.push_back({"libpng", png_get_libpng_ver(nullptr), "run time"});

    const GpuProbeReport gpu = probeGpus();
    if (!gpu.compiledIn) {
        out.push_back({"CUDA", "no GPU support compiled in", ""});
        return out;
    }
    out.push_back({"CUDA toolkit", gpu.compiledCudaVersion, "compiled in"});
    out.push_back({"CUDA runtime", gpu.runtimeVersion.empty() ? "unavailable" : gpu.runtimeVersion, "run time"});
    out.push_back({"CUDA driver", gpu.driverVersion.empty() ? "no driver" : gpu.driverVersion, "run time"});
    out.push_back({"cuBLAS", gpu.cublasVersion.empty() ? "unavailable" : gpu.cublasVersion, "run time"});
    out.push_back({"cuDNN", gpu.cudnnVersion.empty() ? "unavailable" : gpu.cudnnVersion, "run time"});
    return out;
}

} // namespace tstudio
