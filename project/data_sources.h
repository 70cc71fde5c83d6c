// A project's data sources as input pipelines: each source's examples, shuffled (seeded), repeated
// and batched, with each batch turned into the feeds of the placeholders the source feeds.
#pragma once

#include "core/expected.h"
#include "data/dataset.h"
#include "framework/allocator.h"
#include "framework/tensor_shape.h"
#include "project_file.h"

#include <string>
#include <vector>

namespace tstudio::project {

/// What one feed gives per example (the batch adds a first dimension).
struct FeedSpec {
    std::string placeholder; ///< as written in the project ("x" or "x:0")
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape exampleShape;
};

/// One source's pipeline: every element holds one tensor per feed, in `feeds` order, each
/// [batchSize] + exampleShape.
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
/// the readers' and decoders' errors (naming the file) with the source as context.
Expected<SourcePipeline> buildSourcePipeline(const Project& project, std::size_t index, Allocator& allocator);

/// How a pipeline goes through its examples: training shuffles them, repeats forever and drops a last
/// partial batch; evaluation reads them once, in order, the last batch as it comes (tf.estimator's
/// eval input_fn).
enum class PipelineMode { kTraining, kEvaluation };

/// The pipeline of a source that is not one of project.sources (an eval source), `path` naming it
/// in errors ("eval.sources[0]"), with the batch size `batchSize`.
Expected<SourcePipeline> buildSourcePipeline(const Project& project, const DataSource& source, const std::string& path,
                                             std::int64_t batchSize, PipelineMode mode, Allocator& allocator);

/// "<file>: " for a project with a location, else "".
std::string projectLabel(const Project& project);

} // namespace tstudio::project
