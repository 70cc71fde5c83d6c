// `tensorstudio --bench-projector N`: the Projector tab's figures on N points of 200 dimensions
// (a benchmark, not a test).
#pragma once

namespace tstudio {

/// Writes N x 200 points (12 seeded Gaussian clusters, a label each) with their metadata and
/// projector_config.pbtxt into a temporary folder, opens it in a ProjectorView (1400x900, offscreen
/// when QT_QPA_PLATFORM says so) and prints: the time to read and project it (on the worker), then
/// the median and worst of 41 frames that zoom and pan the canvas and of a search and a point's
/// neighbours. Returns the process exit code.
int runProjectorBench(int points);

} // namespace tstudio
