// Input pipelines as TensorFlow 1.x's tf.train builds them: limit_epochs, input_producer,
// string_input_producer, match_filenames_once, batch and shuffle_batch, each queue adding a
// QueueRunnerDef.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"
#include "proto/meta_graph.pb.h"
#include "proto/queue_runner.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::input {

/// TensorFlow's "queue_runners" collection. The builder's Collections hold graph elements only, so
/// the pipeline functions append their QueueRunnerDef here; hand the list to
/// MonitoredTrainingSessionOptions::queueRunners, and to export_meta_graph through
/// queueRunnersCollection().
using QueueRunnerDefs = std::vector<tensorflow::QueueRunnerDef>;
inline constexpr std::string_view kQueueRunnersKey = "queue_runners";

/// The CollectionDef TensorFlow writes for the queue runners (a bytes_list of serialized
/// QueueRunnerDef), for MetaGraphExportOptions::extraCollections[kQueueRunnersKey].
tensorflow::CollectionDef queueRunnersCollection(const QueueRunnerDefs& runners);
/// The queue runners of an imported "queue_runners" CollectionDef; InvalidArgument for an entry
/// that is not a QueueRunnerDef.
Expected<QueueRunnerDefs> queueRunnersFromCollection(const tensorflow::CollectionDef& collection);

/// tf.train.limit_epochs: with numEpochs, `tensor` passed through an Identity (named after the
/// scope, "limit_epochs") that depends on CountUpTo(epochs, numEpochs) of the local int64 variable
/// "<scope>/epochs" (in LOCAL_VARIABLES, not trainable), so the run after the last epoch fails with
/// OutOfRange "Reached limit of N". Without numEpochs, `tensor` itself. InvalidArgument "num_epochs
/// must be > 0 not 0." for numEpochs <= 0.
Expected<Output> limitEpochs(GraphBuilder& b, const Output& tensor, std::optional<std::int64_t> numEpochs,
                             std::string_view name = "limit_epochs");

struct InputProducerOptions {
    std::optional<std::int64_t> numEpochs; ///< nullopt: cycle forever
    bool shuffle = true;                   ///< RandomShuffle of the whole input every epoch
    std::optional<std::int64_t> seed;      ///< the op seed (with the graph seed, tf.get_seed)
    std::int64_t capacity = 32;
    std::string sharedName;
    std::string name = "input_producer";
    /// Add the "fraction_of_<capacity>_full" scalar summary (to the "summaries" collection).
    bool summary = true;
    /// element_shape: the shape of one element, merged with the input's slices (needed when the
    /// input's shape is not fully known; string_input_producer passes a scalar).
    std::optional<TensorShape> elementShape;
};

/// tf.train.input_producer: in name scope `name`, `input` (rank >= 1; its slices along dimension 0
/// are the elements) shuffled when asked, limited to numEpochs, enqueued (QueueEnqueueManyV2
/// "<name>/<name>_EnqueueMany") into the FIFOQueueV2 "<name>" of capacity `capacity`; a
/// QueueRunnerDef (close "<name>/<name>_Close", cancel "<name>/<name>_Close_1") appended to
/// `runners`. Returns the queue's handle. InvalidArgument for a scalar input, a slice shape that
/// is not fully defined once merged with options.elementShape, or one incompatible with it.
Expected<Output> inputProducer(GraphBuilder& b, QueueRunnerDefs& runners, const Output& input,
                               const InputProducerOptions& options = {});

/// tf.train.string_input_producer over `strings` (file names): the Assert that the list is not
/// empty ("string_input_producer requires a non-null input tensor"), then inputProducer with the
/// summary "fraction_of_<capacity>_full". InvalidArgument for an empty list.
Expected<Output> stringInputProducer(GraphBuilder& b, QueueRunnerDefs& runners, const std::vector<std::string>& strings,
                                     const InputProducerOptions& options = {});
/// tf.train.string_input_producer over a string tensor of rank 1 or of unknown rank (its length
/// may be known only when the step runs, as match_filenames_once's): the same Assert, failing the
/// step with "assertion failed: [string_input_producer requires a non-null input tensor]" when
/// the tensor is empty, and elements of shape []. InvalidArgument for a tensor that is not string,
/// a scalar, or of rank 2 or more.
Expected<Output> stringInputProducer(GraphBuilder& b, QueueRunnerDefs& runners, const Output& strings,
                                     const InputProducerOptions& options = {});

/// tf.train.match_filenames_once(pattern, name): in name scope `name` (default
/// "matching_filenames", made unique), MatchingFiles "<name>/MatchingFiles" of the pattern (a
/// string Const "<name>/MatchingFiles/pattern", or the given tensor: a scalar or a vector of
/// patterns) and the local variable "<name>" it initialises: VariableV2 of unknown shape,
/// "<name>/Assign" (validate_shape false) and "<name>/read", not trainable, in LOCAL_VARIABLES.
/// Run local_variables_initializer() to list the files (sorted; an empty vector when none match,
/// which string_input_producer then refuses when it runs).
Expected<Variable> matchFilenamesOnce(GraphBuilder& b, const std::string& pattern,
                                      std::string_view name = "matching_filenames");
Expected<Variable> matchFilenamesOnce(GraphBuilder& b, const Output& pattern,
                                      std::string_view name = "matching_filenames");

struct BatchOptions {
    std::int64_t batchSize = 1;
    int numThreads = 1;         ///< enqueue threads (the same enqueue op, numThreads times)
    std::int64_t capacity = 32; ///< the queue's capacity
    bool enqueueMany = false;   ///< the tensors are batches already (dimension 0 is the example)
    /// One shape per tensor (without the batch dimension); default: the tensors' own shapes.
    std::vector<TensorShape> shapes;
    bool dynamicPad = false;             ///< PaddingFIFOQueueV2: unknown dimensions padded per batch
    bool allowSmallerFinalBatch = false; ///< QueueDequeueUpToV2 instead of QueueDequeueManyV2
    std::string sharedName;
    std::string name; ///< default "batch" / "shuffle_batch"
};

struct ShuffleBatchOptions : BatchOptions {
    std::int64_t minAfterDequeue = 0;
    std::optional<std::int64_t> seed;
};

/// tf.train.batch: in name scope "batch", the FIFOQueueV2 "batch/fifo_queue" (PaddingFIFOQueueV2
/// "batch/padding_fifo_queue" with dynamicPad) of the tensors' dtypes and shapes, the enqueue
/// "batch/fifo_queue_enqueue" (or "_EnqueueMany"), a QueueRunnerDef with numThreads enqueue
/// entries, the summary "batch/fraction_of_<capacity>_full" and the dequeue "batch"
/// (QueueDequeueManyV2, or QueueDequeueUpToV2 with allowSmallerFinalBatch) of batchSize; its
/// outputs have the shape [batchSize (or ?), ...shape]. InvalidArgument "All shapes must be fully
/// defined: ..." when a shape is not and dynamicPad is off; for no tensors, a scalar with
/// enqueueMany, shapes of the wrong count.
Expected<std::vector<Output>> batch(GraphBuilder& b, QueueRunnerDefs& runners, const std::vector<Output>& tensors,
                                    const BatchOptions& options);

/// tf.train.shuffle_batch: as batch() with the RandomShuffleQueueV2 "shuffle_batch/random_shuffle_queue"
/// (min_after_dequeue, seeds from tf.get_seed(seed)) and the summary
/// "shuffle_batch/fraction_over_<min>_of_<capacity - min>_full". InvalidArgument when
/// minAfterDequeue >= capacity or dynamicPad is asked for (TensorFlow's shuffle_batch has none).
Expected<std::vector<Output>> shuffleBatch(GraphBuilder& b, QueueRunnerDefs& runners,
                                           const std::vector<Output>& tensors, const ShuffleBatchOptions& options);

} // namespace tstudio::input
