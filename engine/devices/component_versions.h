// Versions of the libraries the engine uses (Eigen, protobuf, zlib, libpng, and CUDA's when compiled
// in, as the GPU probe finds them), for About boxes and --version.
#pragma once

#include <string>
#include <vector>

namespace tstudio {

/// One library and its version; `origin` says whether it was read at run time or compiled in.
struct ComponentVersion {
    std::string name;
    std::string version;
    std::string origin;  ///< "run time", "compiled in", or empty when the component is absent
};

/// Eigen, protobuf, zlib and libpng, then CUDA runtime, driver, cuBLAS and cuDNN when compiled in.
std::vector<ComponentVersion> engineComponentVersions();

} // namespace tstudio
