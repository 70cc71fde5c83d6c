// Parsing serialized tf.train.Example and SequenceExample protos into tensors, as tf.parse_example does.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::data {

/// tf.io.FixedLenFeature: every example has exactly numElements(shape) values of `dtype` (DT_INT64,
/// DT_FLOAT or DT_STRING). Without a default the feature is required; a default must have the
/// shape's number of elements and the same dtype.
///
/// A shape whose first dimension is unknown ([?, 3]: TensorFlow's FixedLenSequenceFeature with
/// allow_missing=True inside an Example) is variable-length: an example holds any multiple of the
/// other dimensions' product, a missing feature counts as no values, and the batch is padded to
/// its longest example with `defaultValue` (one element; zero or "" when absent). The other
/// dimensions must be known.
struct FixedLenFeature {
    std::string key;
    DataType dtype = tensorflow::DT_FLOAT;
    TensorShape shape = TensorShape::scalar(); ///< fully defined, or [?, d1, ...] for variable length
    std::optional<Tensor> defaultValue;
};

/// tf.io.VarLenFeature: any number of values per example, returned as a sparse tensor.
struct VarLenFeature {
    std::string key;
    DataType dtype = tensorflow::DT_FLOAT;
};

/// tf.io.FixedLenSequenceFeature (sequence features of a SequenceExample): each time step holds
/// numElements(shape) values. A missing feature list is an error unless `allowMissing` (then it
/// has no time steps), as TF's feature_list_dense_missing_assumed_empty.
struct FixedLenSequenceFeature {
    std::string key;
    DataType dtype = tensorflow::DT_FLOAT;
    TensorShape shape = TensorShape::scalar();
    bool allowMissing = false;
};

/// tf.io.RaggedFeature without partitions (TensorFlow 2's ParseExampleV2 ragged_keys): any number
/// of values per example, returned as values and row splits of `splitsDtype` (DT_INT32 or DT_INT64).
struct RaggedFeature {
    std::string key;
    DataType dtype = tensorflow::DT_FLOAT;
    DataType splitsDtype = tensorflow::DT_INT64;
};

/// A sparse tensor as tf.SparseTensorValue: indices int64 [n, rank], values [n], dense_shape int64 [rank].
struct SparseTensor {
    Tensor indices;
    Tensor values;
    Tensor denseShape;
};

/// A ragged tensor as ParseExampleV2 returns it: values [n] and row splits (0, then each row's end
/// offset into values). Feature lists of a SequenceExample have two levels: `outerSplits` splits
/// the examples into steps and `rowSplits` the steps into values; elsewhere `outerSplits` is empty.
struct RaggedTensor {
    Tensor values;
    Tensor rowSplits;
    Tensor outerSplits;
};

/// Features of an Example: outputs keyed by feature name. A key may appear once across the lists.
struct ExampleFeatures {
    std::vector<FixedLenFeature> dense;
    std::vector<VarLenFeature> sparse;
    std::vector<RaggedFeature> ragged;
};

struct ParsedFeatures {
    std::map<std::string, Tensor> dense;
    std::map<std::string, SparseTensor> sparse;
    std::map<std::string, RaggedTensor> ragged;
};

/// tf.io.parse_example over a batch of serialized Examples, as TensorFlow's FastParseExample: only
/// the requested features are read; when a key appears twice in an Example the later entry wins;
/// an empty Feature (no list set) counts as missing. Dense outputs are [batch] + shape (defaults
/// fill missing features); variable-length dense outputs [batch, longest / stride] + inner shape,
/// padded; VarLen outputs have indices [n, 2] (example, position), values [n] and dense_shape
/// [batch, longest list]; ragged outputs values [n] and row splits [batch + 1].
///
/// Errors (InvalidArgument, TensorFlow's wording; `names` default to "<unknown>"):
///  "Name: <unknown>, Feature: a (data type: float) is required but could not be found."
///  "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Data type: int64 but expected type: float"
///  "Name: <unknown>, Key: a, Index: 1.  Number of float values != expected.  Values size: 2 but output shape: [3]"
///  "Name: <unknown>, Key: a, Index: 1.  Number of float values is not a multiple of stride length. Saw 5
///   values but output shape is: [?,2]"
///  "Name: <unknown>, Key: s, Index: 0.  Data types don't match. Expected type: int64, Actual type: float"
///  "Name: <unknown>, Key: a, Index: 0.  Can't parse serialized Example." (the feature's bytes are damaged)
///  "Could not parse example input, value: '...'" (the Example's own structure is damaged)
///  "Invalid config dtype: int32", "Duplicate feature key 'a'", and a bad spec (unknown inner
///  dimensions, default of the wrong size or dtype, names given for a different batch size).
Expected<ParsedFeatures> parseExample(std::span<const std::string> serialized, const ExampleFeatures& features,
                                      Allocator& allocator, std::span<const std::string> names = {});
/// The same over views of the serialized Examples (a caller that holds them elsewhere copies none).
Expected<ParsedFeatures> parseExample(std::span<const std::string_view> serialized, const ExampleFeatures& features,
                                      Allocator& allocator, std::span<const std::string> names = {});

/// tf.io.parse_single_example (TensorFlow's FastParseSingleExample): dense outputs have the spec's
/// shape (variable-length ones [count / stride] + inner shape, unpadded), VarLen outputs indices
/// [n, 1] and dense_shape [n], ragged outputs values [n] and empty row splits [0]. Errors as
/// TensorFlow's single-example parser words them: "Key: a.  Can't parse serialized Example." also
/// for a wrong number of values; "Feature: a (data type: int64) is required but could not be found."
Expected<ParsedFeatures> parseSingleExample(const std::string& serialized, const ExampleFeatures& features,
                                            Allocator& allocator);

/// Features of a SequenceExample. parseSingleSequenceExample reads the first four lists;
/// parseSequenceExamples (sequence_example_parser.h) all six.
struct SequenceFeatures {
    std::vector<FixedLenFeature> contextDense;
    std::vector<VarLenFeature> contextSparse;
    std::vector<FixedLenSequenceFeature> sequenceDense;
    std::vector<VarLenFeature> sequenceSparse;
    std::vector<RaggedFeature> contextRagged;
    std::vector<RaggedFeature> sequenceRagged;
};

struct ParsedSequenceExample {
    ParsedFeatures context;  ///< dense: the spec's shape; sparse: indices [n, 1], dense_shape [n]
    ParsedFeatures sequence; ///< dense: [time steps] + shape; sparse: indices [n, 2] (step, position), dense_shape
                             ///< [steps, longest]
};

/// tf.io.parse_single_sequence_example. Errors as TensorFlow's ParseSingleSequenceExample words them:
///  "Name: <name>, Context feature 'c' is required but could not be found."
///  "Name: <name>, Feature list 'a' is required but could not be found.  Did you mean to include it in
///   feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"
///  "Name: <name>, Feature list: a, Index: 1.  Data types don't match. Expected type: int64  Feature is: ..."
///  "Name: <name>, Key: a, Index: 1.  Number of int64 values != expected.  values size: 3 but output shape: [2]"
Expected<ParsedSequenceExample> parseSingleSequenceExample(const std::string& serialized,
                                                           const SequenceFeatures& features, Allocator& allocator,
                                                           const std::string& name = "");

} // namespace tstudio::data
