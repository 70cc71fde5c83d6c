// What TrainingPanel's source files share (training_panel*.cpp): the settings key of the MNIST folder.
#pragma once

namespace tstudio::training_panel::detail {

/// Where the panel remembers the MNIST folder last used (QSettings).
inline constexpr char kDataDirSetting[] = "training/mnistFolder";

} // namespace tstudio::training_panel::detail
