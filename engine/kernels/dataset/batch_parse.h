// Batched parsing: map(parse_single_example) [-> shuffle] -> batch run as [shuffle ->] batch -> parse_example,
// tf.data's map vectorization for the commonest input pipeline. The records are batched as strings and
// parsed a batch at a time (one FastParseExample pass) instead of one function call per record; the
// elements, their order and their values are the same, as is the error a bad record gives.
#pragma once

#include "kernels/dataset/dataset.h"
#include "kernels/dataset/dataset_function.h"

#include "proto/tensor.pb.h"

#include <memory>
#include <string>
#include <vector>

namespace tstudio::tfdata {

/// A map whose function is exactly tf.io.parse_single_example of its one string argument with dense
/// features only: one ParseSingleExample node (no sparse features, fully defined dense shapes) whose
/// defaults are Const nodes and whose dense values are the function's results, in order; nothing else.
struct ParsingMap {
    DatasetPtr input;          ///< the map's input: one string per element
    DatasetFunctionPtr function; ///< the map's function (its errors are the rewrite's errors)
    std::vector<std::string> keys;
    std::vector<DataType> types;
    std::vector<TensorShape> shapes;
    std::vector<tensorflow::TensorProto> defaults; ///< empty tensor: the feature is required
};

/// The ParsingMap of a map dataset over `input` with `function` declaring `shapes` (its output_shapes), or
/// nullptr when the function computes anything else, captures arguments, the input's elements are not one
/// string, or the declared shapes do not fit the parsed ones (the map itself then reports it).
std::shared_ptr<const ParsingMap> parsingMapOf(const DatasetPtr& input, const DatasetFunctionPtr& function,
                                               const std::vector<TensorShape>& shapes);

/// For BatchDataset: when `input` is a ParsingMap's map, under any number of datasets that only reorder
/// their input (shuffle), an iterator that batches the records and parses each batch at once; a null
/// iterator when the pipeline is not of that form. `batch` is the BatchDataset (its structure and name).
Expected<std::unique_ptr<DatasetIterator>> makeBatchParseIterator(const DatasetBase& batch, const DatasetPtr& input,
                                                                  std::int64_t batchSize, bool dropRemainder,
                                                                  const IteratorEnv& env);

/// How many iterators the rewrite has made in this process (benchmarks and tests say whether it ran).
std::int64_t batchParseIteratorsMade();

} // namespace tstudio::tfdata
