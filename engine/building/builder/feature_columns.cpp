// tf.feature_column's columns and input_layer (feature_column.py and feature_column_v2.py of
// TensorFlow 1.15): column arguments checked as Python checks them, then each column's
// transformation built once per input_layer call in the scope of the column that first needs it,
// as _LazyBuilder caches them.
// Repeats on purpose: the categorical columns' sparse-id conversions have one shape and differ in the op they
// call, as TensorFlow's feature_column.py has them.
#include "builder/feature_columns.h"

#include "builder/python_ops.h"
#include "builder/collections.h"
#include "builder/embedding_sparse.h"
#include "builder/lookup_ops.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_ops.h"
#include "builder/tensor_proto_values.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"
#include "framework/allocator.h"
#include "framework/op_registry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>

namespace tstudio::feature_column {

namespace {

namespace tf = tensorflow;

// --- Python's spellings in messages ------------------------------------------------------------------

std::string pyDtype(DataType dtype)
{
    return "<dtype: '" + dataTypeName(dtype) + "'>";
}

std::string pyFloat(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e16)
        return std::to_string(static_cast<long long>(v)) + ".0";
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    return std::string(buf, end);
}

std::string pyTuple(const TensorShape& shape)
{
    std::string out = "(";
    for (int i = 0; i < shape.rank(); ++i)
        out += (i ? ", " : "") + std::to_string(shape.dim(i));
    return out + (shape.rank() == 1 ? ",)" : ")");
}

template <typename T, typename F> std::string pyList(const std::vector<T>& values, F format)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + format(values[i]);
    return out + "]";
}

std::string quoted(const std::string& s)
{
    return "'" + s + "'";
}

bool isStringOrInt(DataType dtype)
{
    return dtype == tf::DT_STRING || isInteger(dtype);
}

/// fc_utils.assert_string_or_int.
Status checkStringOrInt(DataType dtype, const std::string& prefix)
{
    if (!isStringOrInt(dtype))
        return invalidArgumentError(prefix + " dtype must be string or integer. dtype: " + pyDtype(dtype) + ".");
    return Status::ok();
}

Column make(ColumnSpec spec)
{
    return std::make_shared<const ColumnSpec>(std::move(spec));
}

/// Python's `sum(1 for _ in open(file))`: the lines of a file, the last one with or without '\n'.
Expected<std::int64_t> countLines(const std::string& path, const std::string& key)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return unexpected(invalidArgumentError("vocabulary_file in " + key + " does not exist."));
    std::int64_t lines = 0;
    char last = '\n';
    char c = 0;
    while (in.get(c)) {
        if (c == '\n')
            ++lines;
        last = c;
    }
    return lines + (last == '\n' ? 0 : 1);
}

} // namespace

// --- ColumnSpec ---------------------------------------------------------------------------------------

std::string ColumnSpec::name() const
{
    switch (kind) {
    case ColumnKind::kBucketized: return source->name() + "_bucketized";
    case ColumnKind::kIndicator: return source->name() + "_indicator";
    case ColumnKind::kEmbedding: return source->name() + "_embedding";
    default: return key;
    }
}

std::int64_t ColumnSpec::numBuckets() const
{
    switch (kind) {
    case ColumnKind::kBucketized:
        return *source->shape.numElements() * static_cast<std::int64_t>(boundaries.size() + 1);
    case ColumnKind::kVocabularyList:
        return static_cast<std::int64_t>(vocabulary.empty() ? intVocabulary.size() : vocabulary.size()) + numOovBuckets;
    case ColumnKind::kVocabularyFile: return vocabularySize + numOovBuckets;
    case ColumnKind::kIdentity: return identityBuckets;
    case ColumnKind::kHashBucket: return hashBucketSize;
    case ColumnKind::kIndicator:
    case ColumnKind::kEmbedding: return source->numBuckets();
    case ColumnKind::kNumeric: return 0;
    }
    return 0;
}

bool ColumnSpec::isDense() const
{
    return kind == ColumnKind::kNumeric || kind == ColumnKind::kBucketized || kind == ColumnKind::kIndicator ||
           kind == ColumnKind::kEmbedding;
}

bool ColumnSpec::isCategorical() const
{
    return kind == ColumnKind::kBucketized || kind == ColumnKind::kVocabularyList ||
           kind == ColumnKind::kVocabularyFile || kind == ColumnKind::kIdentity || kind == ColumnKind::kHashBucket;
}

std::int64_t ColumnSpec::numElements() const
{
    switch (kind) {
    case ColumnKind::kNumeric: return *shape.numElements();
    case ColumnKind::kBucketized: return numBuckets();
    case ColumnKind::kIndicator: return source->numBuckets();
    case ColumnKind::kEmbedding: return dimension;
    default: return 0;
    }
}

// --- The column functions ---------------------------------------------------------------------------

Expected<Column> numericColumn(const std::string& key, const TensorShape& shape, std::vector<double> defaultValue,
                               DataType dtype)
{
    if (shape.isUnknownRank())
        return unexpected(invalidArgumentError("shape must be given. key: " + key));
    for (int i = 0; i < shape.rank(); ++i)
        if (shape.dim(i) < 1)
            return unexpected(invalidArgumentError("shape dimensions must be greater than 0. shape: " + pyTuple(shape) +
                                                   ", key: " + key));
    if (!isInteger(dtype) && !isFloating(dtype))
        return unexpected(
            invalidArgumentError("dtype must be convertible to float. dtype: " + pyDtype(dtype) + ", key: " + key));
    const std::int64_t n = *shape.numElements();
    if (defaultValue.size() == 1 && n != 1)
        defaultValue.assign(static_cast<std::size_t>(n), defaultValue.front());
    if (!defaultValue.empty() && static_cast<std::int64_t>(defaultValue.size()) != n)
        return unexpected(invalidArgumentError(
            "The shape of default_value must be equal to given shape. default_value: " + pyList(defaultValue, pyFloat) +
            ", shape: " + pyTuple(shape) + ", key: " + key));
    ColumnSpec c;
    c.kind = ColumnKind::kNumeric;
    c.key = key;
    c.shape = shape;
    c.defaultValue = std::move(defaultValue);
    c.dtype = dtype;
    return make(std::move(c));
}

Expected<Column> bucketizedColumn(const Column& source, std::vector<double> boundaries)
{
    if (!source || source->kind != ColumnKind::kNumeric)
        return unexpected(
            invalidArgumentError("source_column must be a column generated with numeric_column(). Given: " +
                                 (source ? source->name() : std::string("None"))));
    if (source->shape.rank() > 1)
        return unexpected(
            invalidArgumentError("source_column must be one-dimensional column. Given: " + source->name()));
    if (boundaries.empty())
        return unexpected(invalidArgumentError("boundaries must not be empty."));
    for (std::size_t i = 0; i + 1 < boundaries.size(); ++i)
        if (!(boundaries[i] < boundaries[i + 1]))
            return unexpected(invalidArgumentError("boundaries must be a sorted list."));
    ColumnSpec c;
    c.kind = ColumnKind::kBucketized;
    c.source = source;
    c.boundaries = std::move(boundaries);
    return make(std::move(c));
}

namespace {

Status checkVocabularyDefaults(const std::string& key, std::int64_t defaultValue, std::int64_t numOovBuckets)
{
    if (numOovBuckets != 0) {
        if (defaultValue != -1)
            return invalidArgumentError("Can't specify both num_oov_buckets and default_value in " + key + ".");
        if (numOovBuckets < 0)
            return invalidArgumentError("Invalid num_oov_buckets " + std::to_string(numOovBuckets) + " in " + key +
                                        ".");
    }
    return Status::ok();
}

template <typename T>
Status checkVocabularyList(const std::string& key, const std::vector<T>& vocabulary, const std::string& printed)
{
    if (vocabulary.empty())
        return invalidArgumentError("vocabulary_list " + printed + " must be non-empty, column_name: " + key);
    if (std::set<T>(vocabulary.begin(), vocabulary.end()).size() != vocabulary.size())
        return invalidArgumentError("Duplicate keys in vocabulary_list " + printed + ", column_name: " + key);
    return Status::ok();
}

} // namespace

Expected<Column> categoricalColumnWithVocabularyList(const std::string& key, std::vector<std::string> vocabulary,
                                                     std::int64_t defaultValue, std::int64_t numOovBuckets)
{
    TSTUDIO_AD_CHECK(checkVocabularyList(key, vocabulary, pyList(vocabulary, quoted)));
    TSTUDIO_AD_CHECK(checkVocabularyDefaults(key, defaultValue, numOovBuckets));
    ColumnSpec c;
    c.kind = ColumnKind::kVocabularyList;
    c.key = key;
    c.dtype = tf::DT_STRING;
    c.vocabulary = std::move(vocabulary);
    c.vocabularyDefault = defaultValue;
    c.numOovBuckets = numOovBuckets;
    return make(std::move(c));
}

Expected<Column> categoricalColumnWithIntegerVocabularyList(const std::string& key,
                                                            std::vector<std::int64_t> vocabulary,
                                                            std::int64_t defaultValue, std::int64_t numOovBuckets)
{
    TSTUDIO_AD_CHECK(
        checkVocabularyList(key, vocabulary, pyList(vocabulary, [](std::int64_t v) { return std::to_string(v); })));
    TSTUDIO_AD_CHECK(checkVocabularyDefaults(key, defaultValue, numOovBuckets));
    ColumnSpec c;
    c.kind = ColumnKind::kVocabularyList;
    c.key = key;
    c.dtype = tf::DT_INT64;
    c.intVocabulary = std::move(vocabulary);
    c.vocabularyDefault = defaultValue;
    c.numOovBuckets = numOovBuckets;
    return make(std::move(c));
}

Expected<Column> categoricalColumnWithVocabularyFile(const std::string& key, const std::string& vocabularyFile,
                                                     std::optional<std::int64_t> vocabularySize,
                                                     std::int64_t numOovBuckets,
                                                     std::optional<std::int64_t> defaultValue, DataType dtype)
{
    if (vocabularyFile.empty())
        return unexpected(invalidArgumentError("Missing vocabulary_file in " + key + "."));
    if (!vocabularySize) {
        TSTUDIO_AD_TRY(lines, countLines(vocabularyFile, key));
        vocabularySize = lines;
    }
    if (*vocabularySize < 1)
        return unexpected(invalidArgumentError("Invalid vocabulary_size in " + key + "."));
    if (numOovBuckets != 0) {
        if (defaultValue)
            return unexpected(
                invalidArgumentError("Can't specify both num_oov_buckets and default_value in " + key + "."));
        if (numOovBuckets < 0)
            return unexpected(
                invalidArgumentError("Invalid num_oov_buckets " + std::to_string(numOovBuckets) + " in " + key + "."));
    }
    TSTUDIO_AD_CHECK(checkStringOrInt(dtype, "column_name: " + key));
    ColumnSpec c;
    c.kind = ColumnKind::kVocabularyFile;
    c.key = key;
    c.dtype = dtype;
    c.vocabularyFile = vocabularyFile;
    c.vocabularySize = *vocabularySize;
    c.numOovBuckets = numOovBuckets;
    c.vocabularyDefault = defaultValue.value_or(-1);
    return make(std::move(c));
}

Expected<Column> categoricalColumnWithIdentity(const std::string& key, std::int64_t numBuckets,
                                               std::optional<std::int64_t> defaultValue)
{
    if (numBuckets < 1)
        return unexpected(
            invalidArgumentError("num_buckets " + std::to_string(numBuckets) + " < 1, column_name " + key));
    if (defaultValue && (*defaultValue < 0 || *defaultValue >= numBuckets))
        return unexpected(invalidArgumentError("default_value " + std::to_string(*defaultValue) + " not in range [0, " +
                                               std::to_string(numBuckets) + "), column_name " + key));
    ColumnSpec c;
    c.kind = ColumnKind::kIdentity;
    c.key = key;
    c.dtype = tf::DT_INT64;
    c.identityBuckets = numBuckets;
    c.identityDefault = defaultValue;
    return make(std::move(c));
}

Expected<Column> categoricalColumnWithHashBucket(const std::string& key, std::int64_t hashBucketSize, DataType dtype)
{
    if (hashBucketSize < 1)
        return unexpected(invalidArgumentError("hash_bucket_size must be at least 1. hash_bucket_size: " +
                                               std::to_string(hashBucketSize) + ", key: " + key));
    TSTUDIO_AD_CHECK(checkStringOrInt(dtype, "column_name: " + key));
    ColumnSpec c;
    c.kind = ColumnKind::kHashBucket;
    c.key = key;
    c.dtype = dtype;
    c.hashBucketSize = hashBucketSize;
    return make(std::move(c));
}

Expected<Column> indicatorColumn(const Column& categorical)
{
    if (!categorical || !categorical->isCategorical())
        return unexpected(invalidArgumentError("categorical_column must be a categorical column. Given: " +
                                               (categorical ? categorical->name() : std::string("None"))));
    ColumnSpec c;
    c.kind = ColumnKind::kIndicator;
    c.source = categorical;
    return make(std::move(c));
}

Expected<Column> embeddingColumn(const Column& categorical, std::int64_t dimension, const std::string& combiner,
                                 std::optional<Initializer> initializer, bool trainable, std::optional<double> maxNorm)
{
    if (dimension < 1)
        return unexpected(invalidArgumentError("Invalid dimension " + std::to_string(dimension) + "."));
    if (!categorical || !categorical->isCategorical())
        return unexpected(invalidArgumentError("categorical_column must be a categorical column. Given: " +
                                               (categorical ? categorical->name() : std::string("None"))));
    ColumnSpec c;
    c.kind = ColumnKind::kEmbedding;
    c.source = categorical;
    c.dimension = dimension;
    c.combiner = combiner;
    c.initializer = initializer ? std::move(initializer)
                                : Initializer::truncatedNormal(0.0, 1.0 / std::sqrt(static_cast<double>(dimension)));
    c.trainable = trainable;
    c.maxNorm = maxNorm;
    return make(std::move(c));
}

// --- Parse specs ----------------------------------------------------------------------------------------

FeatureMap featuresFrom(const parsing::ParsedOutputs& parsed)
{
    FeatureMap out;
    for (const auto& [key, dense] : parsed.dense)
        out.emplace(key, dense);
    for (const auto& [key, sp] : parsed.sparse)
        out.emplace(key, sparse::SparseTensor{sp.indices, sp.values, sp.denseShape});
    return out;
}

namespace {

template <typename T> Expected<Tensor> hostTensor(const TensorShape& shape, const std::vector<double>& values)
{
    static CpuAllocator allocator;
    std::vector<T> converted;
    for (double v : values)
        converted.push_back(static_cast<T>(v));
    return Tensor::fromVector<T>(allocator, shape, converted);
}

Expected<std::optional<Tensor>> numericDefault(const ColumnSpec& c)
{
    if (c.defaultValue.empty())
        return std::optional<Tensor>();
    Expected<Tensor> t = unexpected(unimplementedError("default_value of dtype " + dataTypeName(c.dtype) +
                                                       " is not supported (float32, float64, int32, int64)"));
    switch (c.dtype) {
    case tf::DT_FLOAT: t = hostTensor<float>(c.shape, c.defaultValue); break;
    case tf::DT_DOUBLE: t = hostTensor<double>(c.shape, c.defaultValue); break;
    case tf::DT_INT32: t = hostTensor<std::int32_t>(c.shape, c.defaultValue); break;
    case tf::DT_INT64: t = hostTensor<std::int64_t>(c.shape, c.defaultValue); break;
    default: break;
    }
    if (!t)
        return unexpected(t.error());
    return std::optional<Tensor>(std::move(*t));
}

/// column._parse_example_spec, added to `spec` (checking keys read twice).
Status addParseSpec(const ColumnSpec& c, parsing::Features& spec)
{
    if (c.kind == ColumnKind::kBucketized || c.kind == ColumnKind::kIndicator || c.kind == ColumnKind::kEmbedding)
        return addParseSpec(*c.source, spec);
    parsing::Feature feature;
    if (c.kind == ColumnKind::kNumeric) {
        TSTUDIO_AD_TRY(def, numericDefault(c));
        feature = parsing::FixedLenFeature{c.shape, c.dtype, def};
    } else {
        feature = parsing::VarLenFeature{c.dtype};
    }
    const auto [at, added] = spec.emplace(c.key, feature);
    if (added)
        return Status::ok();
    bool same = at->second.index() == feature.index();
    if (same && std::holds_alternative<parsing::VarLenFeature>(feature))
        same = std::get<parsing::VarLenFeature>(at->second).dtype == std::get<parsing::VarLenFeature>(feature).dtype;
    if (same && std::holds_alternative<parsing::FixedLenFeature>(feature)) {
        const auto& x = std::get<parsing::FixedLenFeature>(at->second);
        const auto& y = std::get<parsing::FixedLenFeature>(feature);
        same = x.dtype == y.dtype && x.shape == y.shape && x.defaultValue.has_value() == y.defaultValue.has_value();
    }
    if (!same)
        return invalidArgumentError("feature_columns contain different parse_spec for key " + c.key + ".");
    return Status::ok();
}

} // namespace

Expected<parsing::Features> makeParseExampleSpec(const std::vector<Column>& columns)
{
    parsing::Features spec;
    for (const Column& c : columns) {
        if (!c)
            return unexpected(
                invalidArgumentError("All feature_columns must be _FeatureColumn instances. Given: None"));
        TSTUDIO_AD_CHECK(addParseSpec(*c, spec));
    }
    return spec;
}

// --- Transformations (_LazyBuilder) ------------------------------------------------------------------

namespace {

/// A scalar string Const.
Expected<Output> stringScalar(GraphBuilder& b, const std::string& value, std::string_view name)
{
    TSTUDIO_AD_TRY(proto, makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&value, 1)));
    return ops::constant(b, proto, name);
}

/// math_ops.cast(python int, int64, name): in the scope `name` the Const "x" (int32 when it fits,
/// as Python converts an int) and the Cast named after the scope.
Expected<Output> int64Scalar(GraphBuilder& b, std::int64_t value, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    const bool fits =
        value >= std::numeric_limits<std::int32_t>::min() && value <= std::numeric_limits<std::int32_t>::max();
    TSTUDIO_AD_TRY(x, ops::constantInts(b, {value}, TensorShape::scalar(), fits ? tf::DT_INT32 : tf::DT_INT64, "x"));
    if (!fits)
        return x;
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(tf::DT_INT64)}}, scope.name());
}

/// math_ops.cast(tensor, dtype, name): the tensor itself when it has the dtype, else the Cast `name`.
Expected<Output> castNamed(GraphBuilder& b, const Output& x, DataType dtype, std::string_view name)
{
    if (x.baseDtype() == dtype)
        return x;
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(dtype)}}, scope.name());
}

/// array_ops.one_hot(indices, depth, on_value=1., off_value=0.): in "one_hot" the Consts "Const" and
/// "Const_1" (Python converts both values to learn their dtype), "depth", "on_value", "off_value"
/// and the OneHot named after the scope.
Expected<Output> oneHot(GraphBuilder& b, const Output& indices, std::int64_t depth)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("one_hot"));
    TSTUDIO_AD_TRY(probeOn, ops::constant(b, 1.0, tf::DT_FLOAT, "Const"));
    TSTUDIO_AD_TRY(probeOff, ops::constant(b, 0.0, tf::DT_FLOAT, "Const_1"));
    (void)probeOn;
    (void)probeOff;
    TSTUDIO_AD_TRY(depthT, ops::constantInts(b, {depth}, TensorShape::scalar(), tf::DT_INT32, "depth"));
    TSTUDIO_AD_TRY(on, ops::constant(b, 1.0, tf::DT_FLOAT, "on_value"));
    TSTUDIO_AD_TRY(off, ops::constant(b, 0.0, tf::DT_FLOAT, "off_value"));
    return py::genOp(b, "OneHot", {indices, depthT, on, off}, {{"axis", attr::i(-1)}}, scope.name());
}

std::string featureDtypeMismatch(const ColumnSpec& c, DataType tensorDtype)
{
    return "Column dtype and SparseTensors dtype must be compatible. key: " + c.key +
           ", column dtype: " + pyDtype(c.dtype) + ", tensor dtype: " + pyDtype(tensorDtype);
}

/// One input_layer call's transformations, built on first use and shared (TensorFlow's _LazyBuilder).
class Transformer {
public:
    Transformer(GraphBuilder& b, const FeatureMap& features) : m_b(b), m_features(features) {}

    /// _get_raw_feature_as_tensor: the feature, a rank-1 dense one expanded to [batch, 1].
    Expected<FeatureValue> raw(const std::string& key);
    /// inputs.get(column) of a numeric, bucketized or indicator column.
    Expected<Output> dense(const ColumnSpec& c);
    /// inputs.get(column) of a categorical column: its int64 ids.
    Expected<sparse::SparseTensor> ids(const ColumnSpec& c);
    /// column._get_dense_tensor: what input_layer reshapes (one-hot of a bucketized column, the
    /// embedding of an embedding column).
    Expected<Output> denseTensor(const ColumnSpec& c, bool trainable);

private:
    Expected<sparse::SparseTensor> toSparse(const FeatureValue& value);
    Expected<sparse::SparseTensor> vocabularyIds(const ColumnSpec& c, const sparse::SparseTensor& input);
    Expected<sparse::SparseTensor> identityIds(const ColumnSpec& c, const sparse::SparseTensor& input);
    Expected<Output> indicator(const ColumnSpec& c);

    GraphBuilder& m_b;
    const FeatureMap& m_features;
    std::map<std::string, FeatureValue> m_raw;
    std::map<const ColumnSpec*, FeatureValue> m_columns;
};

Expected<FeatureValue> Transformer::raw(const std::string& key)
{
    if (const auto at = m_raw.find(key); at != m_raw.end())
        return at->second;
    const auto at = m_features.find(key);
    if (at == m_features.end())
        return unexpected(invalidArgumentError("Feature " + key + " is not in features dictionary."));
    FeatureValue value = at->second;
    if (const auto* sp = std::get_if<sparse::SparseTensor>(&value)) {
        const TensorShape& shapeShape = sp->denseShape.shape();
        if (shapeShape.isUnknownRank() || shapeShape.dim(0) < 0)
            return unexpected(unimplementedError("Feature (key: " + key +
                                                 ") is a SparseTensor of unknown rank; give it a known rank"));
        if (shapeShape.dim(0) == 1)
            return unexpected(
                unimplementedError("Feature (key: " + key + ") is a SparseTensor of rank 1; reshape it to [batch, 1]"));
    } else {
        const Output& x = std::get<Output>(value);
        if (x.shape().isUnknownRank())
            return unexpected(
                unimplementedError("Feature (key: " + key + ") has an unknown rank; give it a known rank"));
        if (x.shape().rank() == 0)
            return unexpected(invalidArgumentError("Feature (key: " + key + ") cannot have rank 0."));
        if (x.shape().rank() == 1) {
            TSTUDIO_AD_TRY(expanded, py::expandDims(m_b, x, -1));
            value = expanded;
        }
    }
    m_raw.emplace(key, value);
    return value;
}

Expected<sparse::SparseTensor> Transformer::toSparse(const FeatureValue& value)
{
    if (const auto* sp = std::get_if<sparse::SparseTensor>(&value))
        return *sp;
    const Output& x = std::get<Output>(value);
    const DataType dtype = x.baseDtype();
    TSTUDIO_AD_TRY(scope, m_b.nameScope("to_sparse_input"));
    Output ignore;
    {
        TSTUDIO_AD_TRY(cast, m_b.nameScope("ignore_value"));
        if (dtype == tf::DT_STRING) {
            TSTUDIO_AD_TRY(empty, stringScalar(m_b, "", "x"));
            ignore = empty;
        } else {
            TSTUDIO_AD_TRY(minusOne, ops::constantInts(m_b, {-1}, TensorShape::scalar(), tf::DT_INT32, "x"));
            ignore = minusOne;
            if (dtype != tf::DT_INT32) {
                TSTUDIO_AD_TRY(c, py::genOp(m_b, "Cast", {minusOne}, {{"DstT", attr::type(dtype)}}, cast.name()));
                ignore = c;
            }
        }
    }
    TSTUDIO_AD_TRY(keep, py::genOp(m_b, "NotEqual", {x, ignore}));
    TSTUDIO_AD_TRY(indices, py::genOp(m_b, "Where", {keep}, {}, "indices"));
    Output values;
    if (m_b.registry().find("GatherNd")) {
        TSTUDIO_AD_TRY(gathered, py::genOp(m_b, "GatherNd", {x, indices}, {}, "values"));
        values = gathered;
    } else {
        // The engine has no GatherNd op yet: the same values, in the same row-major order, are the
        // flattened input gathered where the flattened mask holds (GatherV2 named "values").
        TSTUDIO_AD_TRY(gatherScope, m_b.nameScope("values"));
        TSTUDIO_AD_TRY(flatMask, py::reshape(m_b, keep, std::vector<std::int64_t>{-1}));
        TSTUDIO_AD_TRY(where, py::genOp(m_b, "Where", {flatMask}));
        TSTUDIO_AD_TRY(positions, py::reshape(m_b, where, std::vector<std::int64_t>{-1}));
        TSTUDIO_AD_TRY(flat, py::reshape(m_b, x, std::vector<std::int64_t>{-1}));
        TSTUDIO_AD_TRY(axis, ops::constantInts(m_b, {0}, TensorShape::scalar(), tf::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(gathered, py::genOp(m_b, "GatherV2", {flat, positions, axis}, {}, gatherScope.name()));
        values = gathered;
    }
    Output denseShape;
    if (x.shape().isFullyDefined()) {
        std::vector<std::int64_t> dims(x.shape().dims().begin(), x.shape().dims().end());
        TSTUDIO_AD_TRY(c, ops::constantInts(m_b, dims, TensorShape{static_cast<std::int64_t>(dims.size())},
                                            tf::DT_INT64, "dense_shape"));
        denseShape = c;
    } else {
        TSTUDIO_AD_TRY(s, py::genOp(m_b, "Shape", {x}, {{"out_type", attr::type(tf::DT_INT64)}}, "dense_shape"));
        denseShape = s;
    }
    return sparse::makeSparseTensor(indices, values, denseShape);
}

Expected<sparse::SparseTensor> Transformer::vocabularyIds(const ColumnSpec& c, const sparse::SparseTensor& input)
{
    const DataType inputDtype = input.dtype();
    if (isInteger(c.dtype) != isInteger(inputDtype))
        return unexpected(invalidArgumentError(featureDtypeMismatch(c, inputDtype)));
    TSTUDIO_AD_CHECK(checkStringOrInt(inputDtype, "column_name: " + c.key + " input_tensor"));
    DataType keyDtype = c.dtype;
    Output keys = input.values;
    if (isInteger(inputDtype)) {
        // math_ops.cast of a SparseTensor: its values cast in the scope "Cast" (no node for int64).
        keyDtype = tf::DT_INT64;
        TSTUDIO_AD_TRY(scope, m_b.nameScope("Cast"));
        if (inputDtype != tf::DT_INT64) {
            TSTUDIO_AD_TRY(cast, py::genOp(m_b, "Cast", {keys}, {{"DstT", attr::type(tf::DT_INT64)}}, scope.name()));
            keys = cast;
        }
    }
    const std::string tableName = c.key + "_lookup";
    lookup::Table table;
    if (c.kind == ColumnKind::kVocabularyFile) {
        lookup::IndexTableFromFileOptions options;
        options.vocabularyFile = c.vocabularyFile;
        options.numOovBuckets = c.numOovBuckets;
        options.vocabSize = c.vocabularySize;
        options.defaultValue = c.vocabularyDefault;
        options.keyDtype = keyDtype;
        options.name = tableName;
        TSTUDIO_AD_TRY(t, lookup::indexTableFromFile(m_b, options));
        table = std::move(t);
    } else if (!c.vocabulary.empty()) {
        TSTUDIO_AD_TRY(
            t, lookup::indexTableFromTensor(m_b, c.vocabulary, c.numOovBuckets, c.vocabularyDefault, {}, tableName));
        table = std::move(t);
    } else {
        // The tuple of ints becomes the Const "<key>_lookup/Const" (int32 unless a value needs int64).
        TSTUDIO_AD_TRY(scope, m_b.nameScope(tableName));
        const bool fits = std::all_of(c.intVocabulary.begin(), c.intVocabulary.end(), [](std::int64_t v) {
            return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
        });
        TSTUDIO_AD_TRY(words, ops::constantInts(m_b, c.intVocabulary,
                                                TensorShape{static_cast<std::int64_t>(c.intVocabulary.size())},
                                                fits ? tf::DT_INT32 : tf::DT_INT64, "Const"));
        TSTUDIO_AD_TRY(t, lookup::indexTableFromTensor(m_b, words, c.numOovBuckets, c.vocabularyDefault, {},
                                                       tf::DT_INT64, scope.name()));
        table = std::move(t);
    }
    TSTUDIO_AD_TRY(found, lookup::lookup(m_b, table, keys));
    return sparse::SparseTensor{input.indices, found, input.denseShape};
}

Expected<sparse::SparseTensor> Transformer::identityIds(const ColumnSpec& c, const sparse::SparseTensor& input)
{
    const DataType inputDtype = input.dtype();
    if (!isInteger(inputDtype))
        return unexpected(
            invalidArgumentError("Invalid input, not integer. key: " + c.key + " dtype: " + pyDtype(inputDtype)));
    TSTUDIO_AD_TRY(values, castNamed(m_b, input.values, tf::DT_INT64, "values"));
    if (!c.identityDefault)
        return sparse::SparseTensor{input.indices, values, input.denseShape};
    // TensorFlow casts the input's values a second time here ("values_1" when they are not int64).
    TSTUDIO_AD_TRY(again, castNamed(m_b, input.values, tf::DT_INT64, "values"));
    TSTUDIO_AD_TRY(numBuckets, int64Scalar(m_b, c.identityBuckets, "num_buckets"));
    TSTUDIO_AD_TRY(zero, int64Scalar(m_b, 0, "zero"));
    TSTUDIO_AD_TRY(below, py::genOp(m_b, "Less", {again, zero}));
    TSTUDIO_AD_TRY(above, py::genOp(m_b, "GreaterEqual", {again, numBuckets}));
    TSTUDIO_AD_TRY(outOfRange, py::genOp(m_b, "LogicalOr", {below, above}, {}, "out_of_range"));
    TSTUDIO_AD_TRY(shape, py::shape(m_b, again));
    TSTUDIO_AD_TRY(fillValue, int64Scalar(m_b, *c.identityDefault, "Cast"));
    TSTUDIO_AD_TRY(defaults, py::genOp(m_b, "Fill", {shape, fillValue}, {}, "default_values"));
    TSTUDIO_AD_TRY(chosen, py::where(m_b, outOfRange, defaults, again));
    return sparse::SparseTensor{input.indices, chosen, input.denseShape};
}

Expected<sparse::SparseTensor> Transformer::ids(const ColumnSpec& c)
{
    if (const auto at = m_columns.find(&c); at != m_columns.end())
        return std::get<sparse::SparseTensor>(at->second);
    if (c.kind == ColumnKind::kBucketized)
        return unexpected(unimplementedError("bucketized column " + c.name() +
                                             " as a categorical column (indicator or embedding) is not supported"));
    if (!c.isCategorical())
        return unexpected(invalidArgumentError("column " + c.name() + " is not a categorical column"));
    TSTUDIO_AD_TRY(rawValue, raw(c.key));
    const DataType rawDtype = std::holds_alternative<Output>(rawValue)
                                  ? std::get<Output>(rawValue).baseDtype()
                                  : std::get<sparse::SparseTensor>(rawValue).dtype();
    if (!isStringOrInt(rawDtype))
        return unexpected(invalidArgumentError(featureDtypeMismatch(c, rawDtype)));
    TSTUDIO_AD_TRY(input, toSparse(rawValue));
    sparse::SparseTensor result;
    switch (c.kind) {
    case ColumnKind::kVocabularyList:
    case ColumnKind::kVocabularyFile: {
        TSTUDIO_AD_TRY(r, vocabularyIds(c, input));
        result = r;
        break;
    }
    case ColumnKind::kIdentity: {
        TSTUDIO_AD_TRY(r, identityIds(c, input));
        result = r;
        break;
    }
    case ColumnKind::kHashBucket: {
        if (isInteger(c.dtype) != isInteger(input.dtype()))
            return unexpected(invalidArgumentError(featureDtypeMismatch(c, input.dtype())));
        Output words = input.values;
        if (c.dtype != tf::DT_STRING) {
            TSTUDIO_AD_TRY(s, py::genOp(m_b, "AsString", {words}));
            words = s;
        }
        TSTUDIO_AD_TRY(bucket, py::genOp(m_b, "StringToHashBucketFast", {words},
                                         {{"num_buckets", attr::i(c.hashBucketSize)}}, "lookup"));
        result = sparse::SparseTensor{input.indices, bucket, input.denseShape};
        break;
    }
    default: return unexpected(invalidArgumentError("column " + c.name() + " is not a categorical column"));
    }
    m_columns.emplace(&c, result);
    return result;
}

Expected<Output> Transformer::indicator(const ColumnSpec& c)
{
    TSTUDIO_AD_TRY(idTensor, ids(*c.source));
    Output dense;
    {
        TSTUDIO_AD_TRY(scope, m_b.nameScope("SparseToDense"));
        TSTUDIO_AD_TRY(minusOne, ops::constantInts(m_b, {-1}, TensorShape::scalar(), tf::DT_INT64, "default_value"));
        TSTUDIO_AD_TRY(d, sparse::sparseTensorToDense(m_b, idTensor, minusOne, true, scope.name()));
        dense = d;
    }
    TSTUDIO_AD_TRY(hot, oneHot(m_b, dense, c.source->numBuckets()));
    // math_ops.reduce_sum(one_hot, axis=[-2]): "Sum/reduction_indices" and "Sum".
    TSTUDIO_AD_TRY(scope, m_b.nameScope("Sum"));
    TSTUDIO_AD_TRY(axes, ops::constantInts(m_b, {-2}, TensorShape{1}, tf::DT_INT32, "reduction_indices"));
    return py::genOp(m_b, "Sum", {hot, axes}, {{"keep_dims", attr::b(false)}}, scope.name());
}

Expected<Output> Transformer::dense(const ColumnSpec& c)
{
    if (const auto at = m_columns.find(&c); at != m_columns.end())
        return std::get<Output>(at->second);
    Output result;
    switch (c.kind) {
    case ColumnKind::kNumeric: {
        TSTUDIO_AD_TRY(rawValue, raw(c.key));
        if (!std::holds_alternative<Output>(rawValue))
            return unexpected(invalidArgumentError("The corresponding Tensor of numerical column must be a Tensor. "
                                                   "SparseTensor is not supported. key: " +
                                                   c.key));
        TSTUDIO_AD_TRY(asFloat, py::cast(m_b, std::get<Output>(rawValue), tf::DT_FLOAT));
        result = asFloat;
        break;
    }
    case ColumnKind::kBucketized: {
        TSTUDIO_AD_TRY(source, dense(*c.source));
        tf::AttrValue boundaries;
        for (double v : c.boundaries)
            boundaries.mutable_list()->add_f(static_cast<float>(v));
        TSTUDIO_AD_TRY(buckets, py::genOp(m_b, "Bucketize", {source}, {{"boundaries", boundaries}}));
        result = buckets;
        break;
    }
    case ColumnKind::kIndicator: {
        TSTUDIO_AD_TRY(multiHot, indicator(c));
        result = multiHot;
        break;
    }
    default: return unexpected(invalidArgumentError("column " + c.name() + " has no dense transformation"));
    }
    m_columns.emplace(&c, result);
    return result;
}

Expected<Output> Transformer::denseTensor(const ColumnSpec& c, bool trainable)
{
    switch (c.kind) {
    case ColumnKind::kNumeric:
    case ColumnKind::kIndicator: return dense(c);
    case ColumnKind::kBucketized: {
        TSTUDIO_AD_TRY(buckets, dense(c));
        TSTUDIO_AD_TRY(asInt64, py::cast(m_b, buckets, tf::DT_INT64));
        return oneHot(m_b, asInt64, static_cast<std::int64_t>(c.boundaries.size() + 1));
    }
    case ColumnKind::kEmbedding: {
        TSTUDIO_AD_TRY(idTensor, ids(*c.source));
        const std::vector<std::string> collections{std::string(graph_keys::kGlobalVariables),
                                                   std::string(graph_keys::kModelVariables)};
        TSTUDIO_AD_TRY(weights, getVariable(m_b, "embedding_weights", TensorShape{c.source->numBuckets(), c.dimension},
                                            tf::DT_FLOAT, c.initializer, trainable && c.trainable, collections));
        return nn::safeEmbeddingLookupSparse(m_b, {weights.value()}, idTensor, std::nullopt, c.combiner, std::nullopt,
                                             c.name() + "_weights", nn::PartitionStrategy::kDiv, c.maxNorm);
    }
    default:
        return unexpected(invalidArgumentError(
            "Items of feature_columns must be a _DenseColumn. You can wrap a categorical column with an "
            "embedding_column or indicator_column. Given: " +
            c.name()));
    }
}

/// tf.variable_scope(None, default_name=name): the name scope `name` made unique, and a variable
/// scope named after it (inheriting reuse and the initializer).
Expected<ScopeGuard> defaultNamedVariableScope(GraphBuilder& b, const std::string& name)
{
    TSTUDIO_AD_TRY(names, b.nameScope(name));
    std::string full = names.name();
    if (!full.empty() && full.back() == '/')
        full.pop_back();
    const std::string last = full.substr(full.rfind('/') + 1);
    VariableStore& store = b.variableStore();
    const VariableScopeState& parent = store.current();
    VariableScopeState state;
    state.name = parent.name.empty() ? last : parent.name + "/" + last;
    state.reuse = parent.reuse;
    state.initializer = parent.initializer;
    const std::string scopeName = state.name;
    const std::size_t depth = store.depth();
    store.push(std::move(state));
    auto nameGuard = std::make_shared<ScopeGuard>(std::move(names));
    return ScopeGuard(scopeName, [&b, depth, nameGuard] {
        b.variableStore().popTo(depth);
        nameGuard->close();
    });
}

/// array_ops.reshape(tensor, (array_ops.shape(tensor)[0], width)): "Shape", "strided_slice", the
/// Pack "Reshape/shape" of it and "Reshape/shape/1", and "Reshape".
Expected<Output> flattenPerExample(GraphBuilder& b, const Output& tensor, std::int64_t width)
{
    TSTUDIO_AD_TRY(shape, py::shape(b, tensor));
    TSTUDIO_AD_TRY(batch, sparse::element(b, shape, 0));
    TSTUDIO_AD_TRY(scope, b.nameScope("Reshape"));
    Output packed;
    {
        TSTUDIO_AD_TRY(shapeScope, b.nameScope("shape"));
        TSTUDIO_AD_TRY(w, ops::constantInts(b, {width}, TensorShape::scalar(), tf::DT_INT32, "1"));
        TSTUDIO_AD_TRY(p, py::genOp(b, "Pack", {OpInput(std::vector<Output>{batch, w})}, {}, shapeScope.name()));
        packed = p;
    }
    return py::genOp(b, "Reshape", {tensor, packed}, {}, scope.name());
}

} // namespace

Expected<sparse::SparseTensor> categoricalIds(GraphBuilder& b, const FeatureMap& features, const Column& column)
{
    if (!column)
        return unexpected(invalidArgumentError("column must not be None"));
    Transformer transformer(b, features);
    return transformer.ids(*column);
}

Expected<Output> inputLayer(GraphBuilder& b, const FeatureMap& features, const std::vector<Column>& columns,
                            bool trainable)
{
    if (columns.empty())
        return unexpected(invalidArgumentError("Expected feature_columns to not be empty."));
    std::map<std::string, const ColumnSpec*> byName;
    for (const Column& c : columns) {
        if (!c)
            return unexpected(invalidArgumentError("Items of feature_columns must be a _FeatureColumn. Given: None"));
        if (!c->isDense())
            return unexpected(invalidArgumentError(
                "Items of feature_columns must be a _DenseColumn. You can wrap a categorical column with an "
                "embedding_column or indicator_column. Given: " +
                c->name()));
        if (!byName.emplace(c->name(), c.get()).second)
            return unexpected(invalidArgumentError(
                "Duplicate feature column name found for columns: " + c->name() + " and " + c->name() +
                ". This usually means that these columns refer to same base feature. Either one must be discarded "
                "or a duplicated but renamed item must be inserted in features dict."));
    }
    TSTUDIO_AD_TRY(layerScope, defaultNamedVariableScope(b, "input_layer"));
    Transformer transformer(b, features);
    std::vector<Output> outputs;
    std::vector<std::string> names;
    for (const auto& [name, column] : byName) { // sorted by name, as TensorFlow sorts them
        TSTUDIO_AD_TRY(columnScope, defaultNamedVariableScope(b, name));
        TSTUDIO_AD_TRY(tensor, transformer.denseTensor(*column, trainable));
        TSTUDIO_AD_TRY(flat, flattenPerExample(b, tensor, column->numElements()));
        outputs.push_back(flat);
        names.push_back(name);
    }
    // _verify_static_batch_size_equality
    for (std::size_t i = 1; i < outputs.size(); ++i) {
        const TensorShape& first = outputs.front().shape();
        const TensorShape& other = outputs[i].shape();
        if (first.rank() > 0 && other.rank() > 0 && first.dim(0) >= 0 && other.dim(0) >= 0 &&
            first.dim(0) != other.dim(0))
            return unexpected(invalidArgumentError(
                "Batch size (first dimension) of each feature must be same. Batch size of columns (" + names.front() +
                ", " + names[i] + "): (" + std::to_string(first.dim(0)) + ", " + std::to_string(other.dim(0)) + ")"));
    }
    TSTUDIO_AD_TRY(concat, b.nameScope("concat"));
    if (outputs.size() == 1) {
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "concat_dim"));
        (void)axis;
        return ops::identity(b, outputs.front(), concat.name());
    }
    TSTUDIO_AD_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "axis"));
    return py::genOp(b, "ConcatV2", {OpInput(outputs), axis}, {}, concat.name());
}

} // namespace tstudio::feature_column
