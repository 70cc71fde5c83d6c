// tstudio bench functions: what calling a library function costs, in microseconds per call.
#pragma once

namespace tstudio {
struct Registries;
}

namespace tstudio::cli {

class BenchReport;

struct FunctionsBenchArgs {
    int calls = 2000; ///< length of each chain
    int repeat = 20;  ///< timed runs of each chain (after one warm-up run); the median counts
};

/// Builds one GraphDef with the library function add(x: float, y: float) -> z: float = x + y and four
/// chains of `calls` links over a float scalar, each link adding the Const 1 to the previous link:
///  - "inline": AddV2 nodes (the body's work without a call),
///  - "by name": nodes whose op is the function's name,
///  - "PartitionedCall" and "StatefulPartitionedCall": the two call ops with f = add.
/// Runs each chain `repeat` times through Session::run on one thread, checks the result (calls + 1),
/// and prints the median time per link and the call overhead: (chain - inline) / calls, in
/// microseconds. Returns the exit code.
int benchFunctions(const Registries& registries, const FunctionsBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
