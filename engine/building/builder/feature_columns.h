// tf.feature_column of TensorFlow 1.15 for the common Estimator inputs: numeric, bucketized,
// vocabulary (list and file), identity and hashed categorical columns, indicator and embedding
// columns, tf.feature_column.input_layer and make_parse_example_spec, with TensorFlow's node and
// variable names.
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/parsing.h"
#include "builder/sparse_tensor.h"
#include "core/expected.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio::feature_column {

/// The column types covered (TensorFlow's NumericColumn, BucketizedColumn, ...).
enum class ColumnKind {
    kNumeric,
    kBucketized,
    kVocabularyList,
    kVocabularyFile,
    kIdentity,
    kHashBucket,
    kIndicator,
    kEmbedding,
};

struct ColumnSpec;
/// A feature column as the tf.feature_column functions return it: immutable and shared.
using Column = std::shared_ptr<const ColumnSpec>;

/// What a column holds; only the fields of its kind are meaningful. Build columns with the
/// functions below, which check their arguments as TensorFlow does.
struct ColumnSpec {
    ColumnKind kind = ColumnKind::kNumeric;
    std::string key;                             ///< the feature key (numeric and categorical columns)
    DataType dtype = tensorflow::DT_FLOAT;       ///< the feature's dtype
    TensorShape shape{1};                        ///< numeric: the shape of one example's value
    std::vector<double> defaultValue;            ///< numeric: numElements(shape) values, or none
    std::vector<double> boundaries;              ///< bucketized
    std::vector<std::string> vocabulary;         ///< vocabulary list of strings
    std::vector<std::int64_t> intVocabulary;     ///< vocabulary list of integers
    std::string vocabularyFile;                  ///< vocabulary file
    std::int64_t vocabularySize = 0;             ///< vocabulary file: the words used (its first lines)
    std::int64_t numOovBuckets = 0;              ///< vocabulary columns
    std::int64_t vocabularyDefault = -1;         ///< vocabulary columns' default_value
    std::int64_t identityBuckets = 0;            ///< identity: num_buckets
    std::optional<std::int64_t> identityDefault; ///< identity: default_value
    std::int64_t hashBucketSize = 0;             ///< hash bucket
    Column source;                 ///< bucketized: the numeric column; indicator, embedding: the categorical one
    std::int64_t dimension = 0;    ///< embedding
    std::string combiner = "mean"; ///< embedding
    std::optional<Initializer> initializer; ///< embedding: nullopt is truncated_normal(0, 1/sqrt(dimension))
    bool trainable = true;                  ///< embedding
    std::optional<double> maxNorm;          ///< embedding

    /// column.name: the key; "<source>_bucketized", "<categorical>_indicator", "<categorical>_embedding".
    std::string name() const;
    /// Categorical columns (and bucketized ones): the number of ids (num_buckets).
    std::int64_t numBuckets() const;
    /// Whether input_layer takes it (numeric, bucketized, indicator, embedding: a _DenseColumn).
    bool isDense() const;
    /// Whether it gives sparse ids (the categorical_column_with_* columns and bucketized).
    bool isCategorical() const;
    /// _variable_shape.num_elements(): the width the column takes in input_layer.
    std::int64_t numElements() const;
};

/// tf.feature_column.numeric_column(key, shape=(1,), default_value=None, dtype=float32); no
/// normalizer_fn. `defaultValue`: one value (broadcast) or numElements(shape) values. Errors
/// (InvalidArgument, TensorFlow's words): "shape dimensions must be greater than 0. shape: (0,),
/// key: x", "dtype must be convertible to float. dtype: <dtype: 'string'>, key: x", "The shape of
/// default_value must be equal to given shape. default_value: [...], shape: (2,), key: x".
Expected<Column> numericColumn(const std::string& key, const TensorShape& shape = TensorShape{1},
                               std::vector<double> defaultValue = {}, DataType dtype = tensorflow::DT_FLOAT);

/// tf.feature_column.bucketized_column(source_column, boundaries): Bucketize of a one-dimensional
/// numeric column; len(boundaries) + 1 buckets. "source_column must be a column generated with
/// numeric_column(). Given: ...", "source_column must be one-dimensional column. Given: ...",
/// "boundaries must be a sorted list.".
Expected<Column> bucketizedColumn(const Column& source, std::vector<double> boundaries);

/// tf.feature_column.categorical_column_with_vocabulary_list(key, vocabulary_list, dtype,
/// default_value=-1, num_oov_buckets=0) for strings: id i for vocabulary[i], missing words to the
/// num_oov_buckets hash buckets after the vocabulary or to default_value. Errors: "vocabulary_list
/// [] must be non-empty, column_name: x", "Duplicate keys in vocabulary_list [...], column_name: x",
/// "Can't specify both num_oov_buckets and default_value in x.", "Invalid num_oov_buckets -1 in x.".
Expected<Column> categoricalColumnWithVocabularyList(const std::string& key, std::vector<std::string> vocabulary,
                                                     std::int64_t defaultValue = -1, std::int64_t numOovBuckets = 0);
/// The same for an integer vocabulary (the column's dtype int64, as NumPy types a list of ints);
/// named apart so that a braced list of two words does not also match a pair of iterators.
Expected<Column> categoricalColumnWithIntegerVocabularyList(const std::string& key,
                                                            std::vector<std::int64_t> vocabulary,
                                                            std::int64_t defaultValue = -1,
                                                            std::int64_t numOovBuckets = 0);

/// tf.feature_column.categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size,
/// num_oov_buckets=0, default_value=None (-1), dtype=string): one word per line; without
/// vocabulary_size the file's lines are counted now, as TensorFlow does. Errors: "Missing
/// vocabulary_file in x.", "Invalid vocabulary_size in x.", "Invalid num_oov_buckets -1 in x.",
/// "Can't specify both num_oov_buckets and default_value in x.", "vocabulary_file in x does not
/// exist." when the size must be counted, "column_name: x dtype must be string or integer. dtype:
/// <dtype: 'float32'>.".
Expected<Column> categoricalColumnWithVocabularyFile(const std::string& key, const std::string& vocabularyFile,
                                                     std::optional<std::int64_t> vocabularySize = std::nullopt,
                                                     std::int64_t numOovBuckets = 0,
                                                     std::optional<std::int64_t> defaultValue = std::nullopt,
                                                     DataType dtype = tensorflow::DT_STRING);

/// tf.feature_column.categorical_column_with_identity(key, num_buckets, default_value=None): integer
/// ids used as they are; with default_value, ids outside [0, num_buckets) become it. Errors:
/// "num_buckets 0 < 1, column_name x", "default_value 7 not in range [0, 5), column_name x".
Expected<Column> categoricalColumnWithIdentity(const std::string& key, std::int64_t numBuckets,
                                               std::optional<std::int64_t> defaultValue = std::nullopt);

/// tf.feature_column.categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=string): ids
/// StringToHashBucketFast(value) (of AsString(value) for integer features). Errors:
/// "hash_bucket_size must be at least 1. hash_bucket_size: 0, key: x", "column_name: x dtype must
/// be string or integer. dtype: <dtype: 'float32'>.".
Expected<Column> categoricalColumnWithHashBucket(const std::string& key, std::int64_t hashBucketSize,
                                                 DataType dtype = tensorflow::DT_STRING);

/// tf.feature_column.indicator_column(categorical_column): the multi-hot sum of the ids, num_buckets
/// wide ("SparseToDense" with default -1, "one_hot", "Sum" over the ids of a row).
Expected<Column> indicatorColumn(const Column& categorical);

/// tf.feature_column.embedding_column(categorical_column, dimension, combiner="mean", initializer,
/// ..., max_norm, trainable): the variable "embedding_weights" [num_buckets, dimension] (float32;
/// initializer default truncated_normal(mean 0, stddev 1/sqrt(dimension))) in the column's
/// variable scope and safe_embedding_lookup_sparse of the ids named "<column>_weights". Errors:
/// "Invalid dimension 0.", a column that is not categorical; a bad combiner fails in inputLayer, as
/// in TensorFlow ("combiner must be one of 'mean', 'sqrtn' or 'sum'").
Expected<Column> embeddingColumn(const Column& categorical, std::int64_t dimension,
                                 const std::string& combiner = "mean",
                                 std::optional<Initializer> initializer = std::nullopt, bool trainable = true,
                                 std::optional<double> maxNorm = std::nullopt);

/// A feature as input_layer takes it: a dense tensor or a SparseTensor.
using FeatureValue = std::variant<Output, sparse::SparseTensor>;
/// Features by key (the `features` dict of an Estimator's model_fn).
using FeatureMap = std::map<std::string, FeatureValue>;

/// The features parse_example returned, as a FeatureMap (dense and sparse outputs; no ragged ones).
FeatureMap featuresFrom(const parsing::ParsedOutputs& parsed);

/// tf.feature_column.make_parse_example_spec(feature_columns): FixedLenFeature(shape, dtype,
/// default_value) for numeric columns (and the numeric sources of bucketized ones), VarLenFeature
/// (dtype) for categorical columns (int64 for identity columns). InvalidArgument "feature_columns
/// contain different parse_spec for key x. ..." when two columns read one key differently.
Expected<parsing::Features> makeParseExampleSpec(const std::vector<Column>& columns);

/// column._get_sparse_tensors(_LazyBuilder(features)).id_tensor of a categorical column, built in
/// the current name scope: the ids (int64) as a SparseTensor of the feature's dense shape (a rank-1
/// dense feature is first expanded to [batch, 1]). Dense features are made sparse as TensorFlow
/// does ("to_sparse_input": "ignore_value/x", "NotEqual", the Where "indices", the GatherNd
/// "values", "dense_shape"), dropping "" (strings) or -1 (integers). While the engine has no
/// GatherNd op, "values" is a GatherV2 of the flattened input at the flat positions of the mask.
/// Errors: InvalidArgument "Feature x is not in features dictionary.", "Feature (key: x) cannot have
/// rank 0.", "Column dtype and SparseTensors dtype must be compatible. key: x, column dtype: ...,
/// tensor dtype: ...", "Invalid input, not integer. key: x dtype: ..."; Unimplemented for a feature
/// of unknown rank or a rank-1 SparseTensor; the ops' errors.
Expected<sparse::SparseTensor> categoricalIds(GraphBuilder& b, const FeatureMap& features, const Column& column);

/// tf.feature_column.input_layer(features, feature_columns, weight_collections=None, trainable):
/// in the variable scope "input_layer" (made unique with its name scope: "input_layer_1", ...), for
/// each column sorted by name, in the variable scope of its name: its dense tensor, then "Shape",
/// "strided_slice" (the batch size), "Reshape/shape" (Pack with "Reshape/shape/1", the width) and
/// "Reshape" to [batch, width]; the columns' outputs joined by "concat" (ConcatV2 on axis 1, or an
/// Identity for one column). Transformations are shared between columns of one call as
/// _LazyBuilder shares them. Variables go to GLOBAL_VARIABLES and MODEL_VARIABLES (and
/// TRAINABLE_VARIABLES when `trainable` and the column's trainable). Errors: InvalidArgument
/// "Expected feature_columns to not be empty.", "Items of feature_columns must be a _DenseColumn.
/// You can wrap a categorical column with an embedding_column or indicator_column. Given: x",
/// "Duplicate feature column name found for columns: x and x. ...", "The corresponding Tensor of
/// numerical column must be a Tensor. SparseTensor is not supported. key: x", "Batch size (first
/// dimension) of each feature must be same. ...", categoricalIds' errors, getVariable's.
Expected<Output> inputLayer(GraphBuilder& b, const FeatureMap& features, const std::vector<Column>& columns,
                            bool trainable = true);

} // namespace tstudio::feature_column
