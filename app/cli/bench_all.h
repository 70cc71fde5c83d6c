// `tstudio bench all`: every training and pipeline benchmark beside its peer, in interleaved rounds,
// as one table (the README's performance table is made by it).
#pragma once

#include <string>
#include <vector>

namespace tstudio::cli {

/// The rows bench all can run, in its order.
const std::vector<std::string>& benchAllRows();

struct BenchAllArgs {
    std::vector<std::string> only; ///< rows to run (benchAllRows() names); empty: all
    int rounds = 3;
    int threads = 1;               ///< intra-op threads of both sides (mlp, lenet, resnet, ptb)
    int steps = 0;                 ///< mlp, lenet, resnet, ptb: timed steps of both sides (0: their defaults)
    int warmup = 0;                ///< and untimed steps first (0: their defaults)
    std::string tools;             ///< the folder of pytorch_bench.py and its siblings (empty: looked for)
    std::string python = "/usr/bin/python3"; ///< the interpreter that runs the peers
    double timeoutSeconds = 3600;  ///< per program run
    bool json = false;             ///< the table as one JSON document (docs/cli-json.md)
};

/// Runs, round after round, each selected row's tstudio benchmark (this program, as a child) and
/// then its peer's: mlp, lenet, resnet (resnet-20) and ptb (PTB-small) against PyTorch
/// (tools/bench/pytorch_bench.py, pytorch_ptb.py, same threads and steps), images (JPEG decode and
/// augmentation, gray28 and rgb224) against Pillow (tools/bench/pillow_decode.py on the same files),
/// and pipelines: the same MLP fed through its graph's queues and through tf.data against fed from
/// memory (tstudio bench queues). Prints progress to stderr and one table to stdout: per row the
/// unit, tstudio's and the peer's min / median / max over the rounds and the ratio of the medians
/// (with `json`, the same as one JSON document with every round's figure).
/// A peer that cannot run (no Python, no PyTorch or Pillow, tools/bench not found) is reported as
/// not run, with the reason, and is no failure. Returns 0, or 1 when one of tstudio's own runs
/// failed (its output's last line is shown).
int benchAll(const BenchAllArgs& args);

} // namespace tstudio::cli
