// tstudio bench datasets: a tf.data pipeline's elements per second, map on the caller's thread against
// ParallelMapDataset + PrefetchDataset.
#pragma once

namespace tstudio {
struct Registries;
}

namespace tstudio::cli {

class BenchReport;

struct DatasetsBenchArgs {
    int elements = 0; ///< elements of the RangeDataset (0: 20000)
    int batch = 0;    ///< batch size (0: 100)
    int threads = 0;  ///< num_parallel_calls of the parallel pipeline (0: 4)
    int repeat = 3;   ///< timed passes of each pipeline (after one warm-up pass); the fastest counts
};

/// Builds, with the dataset builder API (builder/dataset.h, TensorFlow's node names), two pipelines
/// over the library function work(x: int64) -> float = Sum(Sin(Fill([1024], float(x)))):
///  - "map": range(elements).map(work).batch(batch), the map on the thread that calls GetNext;
///  - "parallel": range(elements).map(work, num_parallel_calls=threads).batch(batch).prefetch(2).
/// Each pass runs MakeIterator, then IteratorGetNext until OutOfRange; the sum of all elements is
/// checked against the closed form 1024 * sum(sin(x)). Prints elements per second of each pipeline
/// and their ratio. Returns the exit code.
int benchDatasets(const Registries& registries, const DatasetsBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
