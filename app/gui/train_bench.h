// `tensorstudio --bench-train PROJECT`: the Training panel's speed against tstudio train's.
#pragma once

#include <QString>

namespace tstudio {

/// Trains PROJECT `steps` steps, twice in turn each way: with `tstudio train` (the program beside
/// this one, a fresh log directory, every hardware thread) and from the Training panel with the
/// dashboard following at its default refresh, with every hardware thread and, on a machine with
/// more than one, with one fewer (the GUI thread keeps a core). Prints each run's steps per second,
/// the means, the panel's share of tstudio train's speed (the goal is 90% or more) and the GUI
/// thread's stalls. `dataDir`: the project's MNIST folder when it needs one. Returns the exit code.
int runTrainBench(const QString& project, int steps, const QString& dataDir);

} // namespace tstudio
