// tstudio bench queues: a project that reads MNIST from TFRecords through its graph's queues, and
// one through its graph's tf.data pipeline, against the same project fed from memory, in training
// steps per second.
#pragma once

#include <string>

namespace tstudio {
struct Registries;
}

namespace tstudio::cli {

class BenchReport;

struct QueuesBenchArgs {
    /// A folder holding t10k-images-idx3-ubyte[.gz] and t10k-labels-idx1-ubyte[.gz] (or train-*);
    /// empty: ../shared/fixtures/mnist (or $TSTUDIO_FIXTURES/mnist) when it exists, else 10,000
    /// synthetic examples made deterministically.
    std::string dataDir;
    int steps = 0;         ///< timed steps (0: 2000; a step takes a few ms, shorter runs are noise)
    int warmup = 0;        ///< untimed steps first (0: 100)
    int batch = 0;         ///< examples per step (0: 100)
    int threads = 0;       ///< intra-op threads of the training session (0: the engine's default)
    int readerThreads = 2; ///< tf.train.batch's num_threads in the queue graph, map's in the dataset graph
    int repeat = 3;        ///< rounds of (memory, queues); the fastest run of each kind counts
};

/// Writes the examples to a TFRecord file of tf.train.Example ("image": float [784] in [0, 1],
/// "label": int64) and to .npy files in a temporary folder, then trains two generated projects with
/// trainProject, both the 784-500-10 ReLU MLP of `tstudio bench mlp` (sparse softmax cross entropy,
/// GradientDescent 0.01, batch 100):
///  - "memory": placeholders fed by a "numpy" data source (the examples in memory, shuffled);
///  - "queues": no data sources; the graph reads the file through string_input_producer ->
///    TFRecordReaderV2 -> ReaderReadUpToV2(batch) -> ParseExample -> tf.train.batch(enqueue_many,
///    readerThreads threads), TensorFlow's fast recipe, its MetaGraphDef's queue runners started by
///    MonitoredTrainingSession;
///  - "dataset": no data sources; the graph reads the file through TFRecordDataset ->
///    map(parse_single_example, readerThreads parallel calls) -> shuffle(10000) -> batch -> repeat ->
///    prefetch(2) and an initializable iterator, whose initializer is in the "table_initializer"
///    collection (MonitoredTrainingSession's local init op runs it).
/// Each run's steps per second are taken over the `steps` steps after `warmup` (checkpointing and
/// session set-up excluded). Prints each run, the best of each kind, "queues / memory: 0.93x" and
/// "dataset / memory: ...".
/// Returns the exit code.
int benchQueues(const Registries& registries, const QueuesBenchArgs& args, BenchReport& report);

} // namespace tstudio::cli
