// tf.io's parsing functions of TensorFlow 1.15 (parsing_ops.py): parse_example, parse_single_example,
// parse_sequence_example, parse_single_sequence_example, decode_raw, decode_csv, strings.to_number,
// serialize_tensor and parse_tensor, with TensorFlow's node names; parse_example_v2 for ragged
// features; SparseFeatures merged as sparse_merge merges them.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio::parsing {

/// tf.io.FixedLenFeature(shape, dtype, default_value): `shape` fully defined; without a default the
/// feature is required. The default (a host tensor of dtype with numElements(shape) values, any
/// shape) becomes the Const "key_<key>" reshaped to `shape`, as Python converts a default value.
struct FixedLenFeature {
    TensorShape shape = TensorShape::scalar();
    DataType dtype = tensorflow::DT_FLOAT;
    std::optional<Tensor> defaultValue;
};

/// tf.io.VarLenFeature(dtype): a SparseTensor.
struct VarLenFeature {
    DataType dtype = tensorflow::DT_FLOAT;
};

/// tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing, default_value). In an Example
/// (parseExample, parseSingleExample) allow_missing must be true and the feature is dense with
/// shape [None] + shape, padded with `defaultValue` (one element; 0 or "" when absent, the Const
/// "padding_<key>" when given). In a SequenceExample's feature lists the default must be absent.
struct FixedLenSequenceFeature {
    TensorShape shape = TensorShape::scalar();
    DataType dtype = tensorflow::DT_FLOAT;
    bool allowMissing = false;
    std::optional<Tensor> defaultValue;
};

/// tf.io.RaggedFeature(dtype, row_splits_dtype) without partitions: only parseExampleV2 and
/// parseSequenceExampleV2 (TensorFlow 2's ops) accept it.
struct RaggedFeature {
    DataType dtype = tensorflow::DT_FLOAT;
    DataType rowSplitsDtype = tensorflow::DT_INT64;
};

/// tf.io.SparseFeature(index_key, value_key, dtype, size, already_sorted): a SparseTensor of rank
/// 1 + indexKeys.size() built from the int64 VarLen features `indexKeys` (one per dimension, in
/// order) and the VarLen feature `valueKey` of `dtype`, with dense shape [batch] + size. The index
/// and value keys are parsed as VarLen features (each feature key's index keys sorted, then its
/// value key, unless already listed) and combined by sparse_merge in the caller's scope
/// ("SparseMerge", "SparseMerge_1", ... in sorted key order): "ExpandDims" of each id vector,
/// "Cast" of each size, "strided_slice" + "concat" for the indices, "strided_slice_1" +
/// "concat_1" for the dense shape and, unless `alreadySorted`, "SparseReorder" (with its unused
/// "Identity" of the shape). Keys only used by SparseFeatures are not in the result.
struct SparseFeature {
    std::vector<std::string> indexKeys;
    std::string valueKey;
    DataType dtype = tensorflow::DT_FLOAT;
    std::vector<std::int64_t> size;
    bool alreadySorted = false;
};

using Feature = std::variant<FixedLenFeature, VarLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature>;
/// Features by key; the keys are taken in sorted order, as TensorFlow sorts them.
using Features = std::map<std::string, Feature>;

/// A tf.SparseTensor: int64 indices [n, rank], values [n], int64 dense_shape [rank].
struct SparseOutput {
    Output indices;
    Output values;
    Output denseShape;
};

/// A ragged feature's values and row splits (for feature lists, `rowSplits` splits the steps into
/// values and `outerSplits` the examples into steps; elsewhere `outerSplits` is invalid).
struct RaggedOutput {
    Output values;
    Output rowSplits;
    Output outerSplits;
};

/// What a parse function returns, by feature key.
struct ParsedOutputs {
    std::map<std::string, Output> dense;
    std::map<std::string, SparseOutput> sparse;
    std::map<std::string, RaggedOutput> ragged;
};

/// tf.io.parse_example(serialized, features, name, example_names) of TensorFlow 1.15: in the scope
/// `name` (default "ParseExample") the dense defaults ("Const" for a required feature, "key_<key>"
/// + "Reshape" for a default), then in "<scope>/ParseExample/" the Consts "names" (when
/// `exampleNames` is absent), "sparse_keys_<i>", "dense_keys_<i>" and the ParseExample op
/// "<scope>/ParseExample". `serialized` is a string vector. Dense outputs [batch] + shape
/// ([batch, ?] + shape for a FixedLenSequenceFeature); VarLen outputs SparseTensors of rank 2.
/// Errors as Python's ValueErrors (InvalidArgument): "Missing: features was {}.", "Unsupported:
/// FixedLenSequenceFeature requires allow_missing to be True.", "All dimensions of shape for feature
/// a need to be known but received [?].", a default of another dtype or size; a RaggedFeature:
/// "Unsupported RaggedFeature r: use parseExampleV2"; for a SparseFeature "Missing index_key for
/// SparseFeature s.", "Missing value_key for SparseFeature s.", "Conflicting type <dtype: 'float32'>
/// vs int64 for feature ix.", "sp_ids and vocab_size have to have equal lengths."; then
/// GraphBuilder::op's.
Expected<ParsedOutputs> parseExample(GraphBuilder& b, const Output& serialized, const Features& features,
                                     const std::optional<Output>& exampleNames = std::nullopt,
                                     std::string_view name = {});

/// TensorFlow 2's tf.io.parse_example: the op ParseExampleV2 ("<scope>/ParseExampleV2", keys as the
/// string vectors "sparse_keys", "dense_keys", "ragged_keys"), also for RaggedFeatures; `serialized`
/// a scalar or a vector (its rank must be known when there are ragged features).
Expected<ParsedOutputs> parseExampleV2(GraphBuilder& b, const Output& serialized, const Features& features,
                                       const std::optional<Output>& exampleNames = std::nullopt,
                                       std::string_view name = {});

/// tf.io.parse_single_example(serialized, features, name) of TensorFlow 1.15 (no example_names):
/// the scope `name` (default "ParseSingleExample") with the dense defaults and the op
/// "<scope>/ParseSingleExample" (keys as attrs). Dense outputs have the feature's shape ([?] +
/// shape for a FixedLenSequenceFeature); VarLen outputs SparseTensors of rank 1, SparseFeatures
/// SparseTensors of dense shape `size`.
Expected<ParsedOutputs> parseSingleExample(GraphBuilder& b, const Output& serialized, const Features& features,
                                           std::string_view name = {});

/// What the SequenceExample parse functions return: context features, feature lists and (batched
/// only) each dense feature list's lengths.
struct ParsedSequenceOutputs {
    ParsedOutputs context;
    ParsedOutputs featureLists;
    std::map<std::string, Output> lengths;
};

/// tf.io.parse_sequence_example(serialized, context_features, sequence_features, example_names,
/// name) of TensorFlow 1.15: scope `name` (default "ParseSequenceExample"), context defaults there,
/// "debug_name" (when `exampleNames` is absent) and the op in "<scope>/ParseSequenceExample".
/// Context features: FixedLenFeature or VarLenFeature; sequence features: FixedLenSequenceFeature
/// (without a default; allow_missing lists the key in feature_list_dense_missing_assumed_empty) or
/// VarLenFeature. "Missing features." when both are empty.
Expected<ParsedSequenceOutputs> parseSequenceExample(GraphBuilder& b, const Output& serialized,
                                                     const Features& contextFeatures, const Features& sequenceFeatures,
                                                     const std::optional<Output>& exampleNames = std::nullopt,
                                                     std::string_view name = {});

/// tf.io.parse_single_sequence_example: scope `name` (default "ParseSingleSequenceExample"), the op
/// "<scope>/ParseSingleSequenceExample" with its key Consts ("context_sparse_keys_<i>", ...),
/// "feature_list_dense_missing_assumed_empty" and "debug_name" (`exampleName` or "").
Expected<ParsedSequenceOutputs> parseSingleSequenceExample(GraphBuilder& b, const Output& serialized,
                                                           const Features& contextFeatures,
                                                           const Features& sequenceFeatures,
                                                           const std::optional<Output>& exampleName = std::nullopt,
                                                           std::string_view name = {});

/// tf.io.decode_raw(input_bytes, out_type, little_endian, name): the op "DecodeRaw".
Expected<Output> decodeRaw(GraphBuilder& b, const Output& bytes, DataType outType, bool littleEndian = true,
                           std::string_view name = "DecodeRaw");

/// tf.io.decode_csv's options (field_delim, use_quote_delim, na_value, select_cols).
struct CsvOptions {
    std::string fieldDelim = ",";
    bool useQuoteDelim = true;
    std::string naValue;
    std::vector<std::int64_t> selectCols;
};

/// tf.io.decode_csv(records, record_defaults, ...): the op "DecodeCSV" (named `name`) with one
/// output per default. Host-tensor defaults become the Consts "<name>/record_defaults_<i>" (a
/// scalar or one-element vector default, or an empty vector for a required column). Python's
/// checks: "select_cols is not strictly increasing.", "select_cols contains negative values.",
/// "Length of select_cols and record_defaults do not match.".
Expected<std::vector<Output>> decodeCsv(GraphBuilder& b, const Output& records,
                                        const std::vector<Tensor>& recordDefaults, const CsvOptions& options = {},
                                        std::string_view name = "DecodeCSV");
Expected<std::vector<Output>> decodeCsv(GraphBuilder& b, const Output& records,
                                        const std::vector<Output>& recordDefaults, const CsvOptions& options = {},
                                        std::string_view name = "DecodeCSV");

/// tf.strings.to_number(string_tensor, out_type): the op "StringToNumber".
Expected<Output> stringToNumber(GraphBuilder& b, const Output& strings, DataType outType = tensorflow::DT_FLOAT,
                                std::string_view name = "StringToNumber");

/// tf.io.serialize_tensor(tensor): "SerializeTensor"; tf.io.parse_tensor(serialized, out_type): "ParseTensor".
Expected<Output> serializeTensor(GraphBuilder& b, const Output& tensor, std::string_view name = "SerializeTensor");
Expected<Output> parseTensor(GraphBuilder& b, const Output& serialized, DataType outType,
                             std::string_view name = "ParseTensor");

} // namespace tstudio::parsing
