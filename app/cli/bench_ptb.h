// tstudio bench ptb: training steps per second of the PTB language model (the tutorial's small
// configuration), the engine's side of tools/bench/pytorch_ptb.py.
#pragma once

namespace tstudio {
struct Registries;
}

namespace tstudio::cli {

class BenchReport;

struct PtbBenchArgs {
    int threads = 0;      ///< intra-op threads (0: one per core this process may run on)
    int steps = 0;        ///< timed steps per block (0: 50)
    int warmup = 0;       ///< untimed steps first (0: 5)
    int profileSteps = 0; ///< after the timed blocks, trace this many steps and print the op table
    /// Grappler's remapper (fused nodes such as _FusedMatMulSum for the LSTM weights' gradient sums);
    /// off: --no-remapping.
    bool remapping = true;
};

/// Builds models/ptb_model.h's graph (vocabulary 10,000, 2 x 200 BasicLSTMCell, 20 steps) with
/// batch 20, adds what the tutorial trains it with (GradientDescent, learning rate 1.0, gradients
/// clipped by global norm 5; the embedding's gradient is IndexedSlices, applied sparsely), feeds
/// random ids and carries the LSTM state from step to step, and prints the fastest of three blocks:
/// "ptb-small: <steps/s> steps/s, <words/s> words/s". Returns the exit code.
int benchPtb(const Registries& registries, const PtbBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
