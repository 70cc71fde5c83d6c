// `tensorstudio --bench-hparams N`: the HParams tab's figures on N sessions (a benchmark, not a test).
#pragma once

namespace tstudio {

/// Writes N sessions as PyTorch's add_hparams does (a run folder each: the experiment, the session's
/// start info with 4 hparams, 2 metrics) into a temporary folder, opens it in an HParamsView
/// (1400x900) and prints the time to read and fill the table, then the median and worst of the
/// frames that sort by each column, filter, and scroll the table, and of the frames of the parallel
/// coordinates and the scatter-plot matrix that choose a session, move the pointer over the plot,
/// brush an axis and change the colouring. Returns the process exit code.
int runHParamsBench(int sessions);

} // namespace tstudio
