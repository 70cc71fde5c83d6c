// TensorStudio's version.
#include "core/build_info.h"

#include "core/version.h"

namespace tstudio {

std::string_view engineVersion() { return TSTUDIO_VERSION_STRING; }

} // namespace tstudio
