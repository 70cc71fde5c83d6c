// tf.data pipelines as TensorFlow 1.15's Python builds them: Dataset.range / from_tensor_slices /
// list_files / TFRecordDataset / TextLineDataset, then map, filter, batch, shuffle, repeat, take,
// skip, cache, prefetch, and make_initializable_iterator, with TensorFlow's node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace tstudio::dataset {

/// A dataset in a graph under construction: its variant handle and its structure
/// (output_types / output_shapes of the op that made it).
struct DatasetOutput {
    Output handle;
    std::vector<DataType> types;
    std::vector<TensorShape> shapes;
};

/// tf.data.Dataset.range: RangeDataset of the int64 Consts "start", "stop", "step".
Expected<DatasetOutput> range(GraphBuilder& b, std::int64_t start, std::int64_t stop, std::int64_t step = 1);
/// from_tensor_slices: TensorSliceDataset of `components` (each of rank >= 1).
Expected<DatasetOutput> fromTensorSlices(GraphBuilder& b, const std::vector<Output>& components);
/// from_tensors: TensorDataset of `components`.
Expected<DatasetOutput> fromTensors(GraphBuilder& b, const std::vector<Output>& components);
/// TFRecordDataset / TextLineDataset of "filenames", "compression_type" ("", "ZLIB", "GZIP") and
/// "buffer_size" (0: TensorFlow's default buffering, which is the reader's own here).
Expected<DatasetOutput> tfRecord(GraphBuilder& b, const std::vector<std::string>& files,
                                 const std::string& compression = "", std::int64_t bufferSize = 0);
Expected<DatasetOutput> textLine(GraphBuilder& b, const std::vector<std::string>& files,
                                 const std::string& compression = "", std::int64_t bufferSize = 0);

struct MapOptions {
    std::int64_t numParallelCalls = 0; ///< > 0 or -1 (AUTOTUNE): ParallelMapDataset
    std::vector<Output> captured;      ///< other_arguments, passed after the element's components
};
/// map(fn): MapDataset (ParallelMapDataset with "num_parallel_calls") calling library function
/// `fn`, whose results have `types` and `shapes`. The function must be in b's library
/// (GraphBuilder::addFunctions).
Expected<DatasetOutput> map(GraphBuilder& b, const DatasetOutput& input, const std::string& fn,
                            std::vector<DataType> types, std::vector<TensorShape> shapes,
                            const MapOptions& options = {});
/// filter(predicate): FilterDataset.
Expected<DatasetOutput> filter(GraphBuilder& b, const DatasetOutput& input, const std::string& predicate,
                               const std::vector<Output>& captured = {});
/// batch: BatchDatasetV2 of "batch_size" and "drop_remainder"; the shapes gain a leading dimension
/// (batchSize with drop_remainder, else unknown).
Expected<DatasetOutput> batch(GraphBuilder& b, const DatasetOutput& input, std::int64_t batchSize,
                              bool dropRemainder = false);
/// shuffle: ShuffleDataset of "buffer_size", "seed", "seed2" (0, 0 without a seed: a different
/// order each time; with `seed`, (seed, seed) here, reproducible).
Expected<DatasetOutput> shuffle(GraphBuilder& b, const DatasetOutput& input, std::int64_t bufferSize,
                                std::optional<std::int64_t> seed = std::nullopt, bool reshuffleEachIteration = true);
/// shuffle with the buffer size an int64 scalar tensor (made by the caller): "seed", "seed2" and
/// the ShuffleDataset.
Expected<DatasetOutput> shuffle(GraphBuilder& b, const DatasetOutput& input, const Output& bufferSize,
                                std::optional<std::int64_t> seed = std::nullopt, bool reshuffleEachIteration = true);

struct ListFilesOptions {
    bool shuffle = true;               ///< shuffle the names (ShuffleDataset over all of them)
    std::optional<std::int64_t> seed;  ///< the shuffle's seed, as shuffle()
};
/// Dataset.list_files(file_pattern, shuffle, seed) as TensorFlow 1.15 (and 2.x's graph mode)
/// builds it, in name scope "list_files": the patterns ("file_pattern", a string scalar, or a vector
/// for several patterns), MatchingFiles, then the Assert "assert_not_empty/Assert" that fails the
/// step with "No files matched pattern: P1, P2" (Greater "match_not_empty" of the count, ReduceJoin
/// of the patterns, Add "message"), the matches through an Identity that waits for it, a
/// TensorSliceDataset of them and, with shuffle, a ShuffleDataset whose buffer holds every name
/// (Maximum(count, 1)). The element is a string scalar: a file name, sorted unless shuffled.
Expected<DatasetOutput> listFiles(GraphBuilder& b, const std::string& filePattern, const ListFilesOptions& options = {});
Expected<DatasetOutput> listFiles(GraphBuilder& b, const std::vector<std::string>& filePatterns,
                                  const ListFilesOptions& options = {});
/// As above with the patterns a string tensor of rank 0 or 1 (no "file_pattern" Const); a tensor of
/// unknown rank joins its patterns over Range(Rank - 1, -1, -1), as TensorFlow does.
Expected<DatasetOutput> listFiles(GraphBuilder& b, const Output& filePattern, const ListFilesOptions& options = {});
/// repeat / take / skip: RepeatDataset / TakeDataset / SkipDataset of "count" (-1: forever / all).
Expected<DatasetOutput> repeat(GraphBuilder& b, const DatasetOutput& input, std::int64_t count = -1);
Expected<DatasetOutput> take(GraphBuilder& b, const DatasetOutput& input, std::int64_t count);
Expected<DatasetOutput> skip(GraphBuilder& b, const DatasetOutput& input, std::int64_t count);
/// cache: CacheDataset of "filename" ("" caches in memory).
Expected<DatasetOutput> cache(GraphBuilder& b, const DatasetOutput& input, const std::string& filename = "");
/// prefetch: PrefetchDataset of "buffer_size" (-1: AUTOTUNE).
Expected<DatasetOutput> prefetch(GraphBuilder& b, const DatasetOutput& input, std::int64_t bufferSize);

/// make_initializable_iterator: IteratorV2 (shared_name `sharedName`), MakeIterator (run it to
/// start over), IteratorGetNext (its outputs, shaped as the dataset's output_shapes).
struct InitializableIterator {
    Output handle;
    Operation initializer;
    std::vector<Output> next;
};
Expected<InitializableIterator> makeInitializableIterator(GraphBuilder& b, const DatasetOutput& dataset,
                                                          const std::string& sharedName = "");

} // namespace tstudio::dataset
