// The embedding training benchmark behind `tstudio bench embedding`: an embedding table trained with
// sparse updates (IndexedSlices through SparseApply* / Scatter*) against the same model forced dense
// (the gradient converted with UnsortedSegmentSum before a dense Apply*), in steps per second.
#pragma once

#include "core/expected.h"

#include <string>
#include <vector>

namespace tstudio {
class KernelRegistry;
class OpRegistry;
} // namespace tstudio

namespace tstudio::training {

struct EmbeddingBenchOptions {
    int vocabulary = 10000; ///< table rows
    int dimension = 200;    ///< table columns
    int batch = 20;         ///< ids are batch x length
    int length = 20;
    int steps = 200;        ///< timed steps per run
    int warmup = 10;        ///< untimed steps first
    int repeat = 3;         ///< runs per configuration; the fastest counts
    int threads = 0;        ///< intra-op threads (0: the engine's default)
};

struct EmbeddingBenchResult {
    std::string optimizer; ///< "sgd", "adam", "lazy_adam" (sparse only: its dense update is Adam's)
    bool sparse = true;
    /// The session's remapper on (the default: Adam's sparse update runs fused, see
    /// runtime/sparse_adam_fusion.h); Adam's sparse update is also timed with it off (op by op).
    bool remapper = true;
    double stepsPerSecond = 0.0;
    double finalLoss = 0.0;
};

/// For GradientDescent(0.1) and Adam(0.001), sparse and dense, and LazyAdam(0.001) sparse: builds ids (an int32 placeholder
/// [batch, length]) -> embedding_lookup(table) -> loss = mean(square(lookup)) and a train op with
/// minimize (sparse) or computeGradients + applyGradients (the same gradients made dense), then
/// times `steps` steps fed with fixed pseudo-random ids (new ids every step, from a pool made
/// once). Adam's sparse update runs twice, fused (the default) and op by op (remapping OFF). The
/// configurations' runs take turns, `repeat` rounds, the fastest counting. Errors: the builder's
/// and the session's.
Expected<std::vector<EmbeddingBenchResult>> runEmbeddingBench(const OpRegistry& ops, const KernelRegistry& kernels,
                                                              const EmbeddingBenchOptions& options);

/// The report: one line per configuration "sgd sparse: 1234.5 steps/s" and per sparse run the ratio
/// to the dense one, "sgd sparse / sgd dense: 12.3x" ("lazy_adam sparse / adam dense").
std::string formatEmbeddingBenchResults(const std::vector<EmbeddingBenchResult>& results,
                                        const EmbeddingBenchOptions& options);

} // namespace tstudio::training
