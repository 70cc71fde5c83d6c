// TensorStudio's version, for About boxes, --version and the MetaGraphs it writes (the libraries'
// versions: devices/component_versions.h).
#pragma once

#include <string_view>

namespace tstudio {

/// TensorStudio's version, e.g. "0.1.0".
std::string_view engineVersion();

} // namespace tstudio
