// A project's data sources as input pipelines: each source's examples, shuffled (seeded), repeated
// and batched, with each batch turned into the feeds of the placeholders the source feeds.
#pragma once

#include "core/expected.h"
#include "data/dataset.h"
#include "framework/allocator.h"
#include "framework/tensor_shape.h"
#include "project/format/project_file.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::project {

struct SourceExamples;

/// Which part of a batch one batch component is (see BatchForm in source_examples.h).
enum class BatchPart {
    kStacked,    ///< [batch] + the example's shape
    kIndices,    ///< a sparse feature's indices, int64 [nnz, 2]: (example in the batch, position)
    kValues,     ///< a sparse feature's values [nnz], example by example
    kDenseShape, ///< a sparse feature's dense_shape, int64 [2]: (batch, longest list)
    kPadded,     ///< a padded feature's lists [batch, longest], padded with its pad value
    kLengths,    ///< a padded feature's list lengths, int64 [batch]
};

/// One component of a source's batches: what a feed names (sourceComponents' names).
struct BatchComponent {
    std::string name; ///< "x", "tags.indices", "tags.length", ...
    DataType dtype = tensorflow::DT_INVALID;
    /// As FeedSpec::exampleShape: the batch has [batch] + this, except the sparse parts, whose size
    /// is the number of values: indices [2] ([nnz, 2]), values [] ([nnz]), dense_shape [] ([2]).
    TensorShape exampleShape;
    std::size_t element = 0; ///< the example component it is built from
    BatchPart part = BatchPart::kStacked;
    /// The shape of this component in a batch of unknown size: [?] + exampleShape, or [?, 2], [?],
    /// [2] for the sparse parts.
    TensorShape batchShape() const;
};

/// The batch components of `examples`, in component order (a sparse feature gives indices, values,
/// dense_shape; a padded one the padded lists, then the lengths).
std::vector<BatchComponent> batchComponents(const SourceExamples& examples);

/// Component `c` of the batch of `values`: one tensor per example, each example's component
/// `c.element` (1-D lists for the sparse and padded parts; empty lists allowed). `padValue` is the
/// kPadded scalar (ignored otherwise). Zero examples give an empty batch ([0] + exampleShape,
/// indices [0, 2], dense_shape [0, 0]). Errors: stackElements' for kStacked values of different
/// shapes; the allocator's.
Expected<Tensor> batchPart(const std::vector<Tensor>& values, const BatchComponent& c, const Tensor& padValue,
                           Allocator& allocator);

/// What one feed gives per example (the batch adds a first dimension).
struct FeedSpec {
    std::string placeholder; ///< as written in the project ("x" or "x:0")
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape exampleShape;
    /// Set for a sparse feature's part: its shape for a whole batch (indices [?, 2], values [?],
    /// dense_shape [2]), which checkFeed takes instead of [batch] + exampleShape.
    std::optional<TensorShape> batchShape;
};

/// One source's pipeline: every element holds one tensor per feed, in `feeds` order, each
/// [batchSize] + exampleShape (a sparse feature's parts: indices [nnz, 2], values [nnz],
/// dense_shape [2] = (batchSize, longest list)).
struct SourcePipeline {
    std::vector<FeedSpec> feeds;
    data::Dataset batches;
};

/// The pipeline of project.sources[index]. The data of in-memory sources (two_spirals, mnist, csv)
/// is read here; tfrecord files are read as the pipeline runs. Errors name the source and field:
///   "<file>: data.sources[0] (mnist): data.dir is not set; pass --set data.dir=DIR (a folder
///    holding train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz])"
///   "<file>: data.sources[0] (mnist): directory '/x' has no t10k-images-idx3-ubyte[.gz]"
///   "<file>: data.sources[0] (mnist): skip 9000 and take 8000 ask for examples 9000 to 16999 but
///    the files hold 10000"
///   "<file>: data.sources[1].feeds.x: only scalar components can be stacked; 'points' is float [2]"
///   "<file>: data.sources[1].feeds.x: stacked components must share a dtype; 'b' is int64 but 'a'
///    is float"
///   "<file>: data.sources[0] (tfrecord): no file '/d/train.tfrecord'"
///   "<file>: data.sources[1].feeds.x: only scalar components can be stacked; 'tags.length' is part
///    of a variable-length feature"
/// and, as the pipeline runs, a tfrecord source's errors naming the file as the project names it
/// and the record (counted from 0 in its file):
///   "<file>: data.sources[0] (tfrecord): 'train.tfrecord' record 17: feature 'image_raw': not a
///    PNG or JPEG image" (decodeImage's errors; raw: "... feature 'image_raw' has 2352 bytes;
///    height 28 x width 28 x channels 1 = 784 expected")
///   "<file>: data.sources[0] (tfrecord): 'train.tfrecord' record 3: Key: x, Index: 0.  Data types
///    don't match. Data type: int64 but expected type: float" (parse_example's wording)
///   "<file>: data.sources[0] (tfrecord): 'train.tfrecord' record 5: truncated record at ..."
///    (DataLoss from the reader, naming the file and offset)
/// the readers' and decoders' errors (naming the file) with the source as context.
/// `shard` (a data-parallel rank's part, data_parallel.h): the source's examples are read as
/// tf.data's shard(shard.count, shard.index) before shuffling, repeating and batching: examples
/// index, index + count, index + 2 count, ... A count of 1 reads every example.
struct SourceShard {
    std::int64_t count = 1;
    std::int64_t index = 0;
};
Expected<SourcePipeline> buildSourcePipeline(const Project& project, std::size_t index, Allocator& allocator,
                                             const SourceShard& shard = {});

/// How a pipeline goes through its examples: training shuffles them, repeats forever and drops a last
/// partial batch; evaluation reads them once, in order, the last batch as it comes (tf.estimator's
/// eval input_fn).
enum class PipelineMode { kTraining, kEvaluation };

/// The pipeline of a source that is not one of project.sources (an eval source), `path` naming it
/// in errors ("eval.sources[0]"), with the batch size `batchSize`.
Expected<SourcePipeline> buildSourcePipeline(const Project& project, const DataSource& source, const std::string& path,
                                             std::int64_t batchSize, PipelineMode mode, Allocator& allocator,
                                             const SourceShard& shard = {});

} // namespace tstudio::project
