// tstudio bench mlp|lenet: training steps per second of the example networks.
#pragma once

#include <string>

namespace tstudio {
struct Registries;
}

namespace tstudio::cli {

class BenchReport;

struct TrainingBenchArgs {
    std::string model; ///< "mlp", "lenet" or "resnet"
    std::string device = "cpu"; ///< "cpu", or "gpu": GPU:0 as TensorFlow places ops
    int threads = 0;   ///< intra-op threads (0: one per core this process may run on)
    int steps = 0;     ///< timed steps (0: 300 for mlp, 30 for lenet)
    int warmup = 0;    ///< untimed steps first (0: 20 for mlp, 3 for lenet)
    int batch = 0;     ///< 0: 100 for mlp and lenet, 256 for resnet
    /// Also time the same steps traced (RunOptions FULL_TRACE, RunMetadata collected, as the
    /// profiler asks for them), untraced and traced blocks alternating three times, and print the
    /// tracing overhead from the fastest block of each kind.
    bool trace = false;
    /// Also time the steps with the debugger attached (DebugController, no breakpoints, values
    /// kept) and with its NaN/Inf check on every float output, alternating the same way, and print
    /// both overheads.
    bool debug = false;
    /// After the timed blocks, trace this many more steps (FULL_TRACE) and print the profiler's op
    /// and scope tables for them (0: none): where a step's time goes at this thread count.
    int profileSteps = 0;
    /// On the GPU, capture the training step as a CUDA graph and replay it (off: --no-cuda-graphs).
    bool cudaGraphs = true;
    /// Grappler's remapper (fused nodes such as _FusedConv2D); off: --no-remapping.
    bool remapping = true;
};

/// Builds the network (models/layer_networks.h: GradientDescent, sparse softmax cross entropy),
/// feeds one random batch of MNIST's shape (resnet: 32x32x3 images), on the CPU or GPU:0 (`device`;
/// on a GPU each timed block ends by fetching the loss, so queued GPU work is included), runs the train op warmup + steps times and prints
/// the figures, ending with "<model>: <steps/s> steps/s" (and with trace, "<model> traced: ..." and
/// "tracing overhead: N%"; with debug, "debugger attached: N%" and "debugger with NaN/Inf check:
/// N%"). Returns the exit code.
int benchTraining(const Registries& registries, const TrainingBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
