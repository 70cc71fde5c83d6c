// processEventsUntil: the GUI thread waits for a condition while its events run, asleep in between.
#pragma once

#include <functional>

namespace tstudio {

/// Processes this thread's events until `done()` holds or `milliseconds` pass, and returns done().
/// Between events the thread sleeps (a 20 ms timer wakes it to look at `done` again):
/// QCoreApplication::processEvents(flags, ms) ignores WaitForMoreEvents, so a loop around it keeps
/// a core busy, which the benchmarks (--bench-train, --bench-live) would measure as the GUI's cost.
bool processEventsUntil(const std::function<bool()>& done, int milliseconds);

} // namespace tstudio
