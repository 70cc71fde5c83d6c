// The parsing ops of TensorFlow (parsing_ops.cc): ParseExample(V2), ParseSingleExample,
// ParseSequenceExample(V2), ParseSingleSequenceExample, DecodeRaw, DecodeCSV, StringToNumber,
// SerializeTensor and ParseTensor, with their shape functions. The definitions are TensorFlow
// 1.15's; ParseExampleV2 and ParseSequenceExampleV2 (ragged features) are TensorFlow 2's.
// Repeats on purpose: the sequence-example shape functions, one per TensorFlow op, differ in their ranks; the
// helpers they use are shared.
#include "ops/ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using C = ShapeInferenceContext;

OpDefBuilder parsingOp(std::string name, std::string summary)
{
    OpDefBuilder builder(std::move(name));
    builder.summary(std::move(summary)).category(op_category::kArray);
    return builder;
}

constexpr const char* kSerializedDoc = "A vector of serialized tf.train.Example protos, one per example.";
constexpr const char* kNamesDoc =
    "Names of the serialized protos (the same length as serialized, or empty), used in error messages only.";
constexpr const char* kDenseDefaultsDoc =
    "One tensor per dense key: its default when an example lacks the feature (its shape must be the "
    "dense shape), or empty when the feature is required. For a dense shape with an unknown first "
    "dimension: one element, the padding value. Its dtype is the feature's.";
constexpr const char* kDenseShapesDoc =
    "The shape of each dense feature's values in one example. All but the first dimension must be "
    "known; an unknown first dimension makes the feature variable-length (any number of blocks, "
    "padded to the longest example).";
constexpr const char* kSparseTypesDoc =
    "The dtype of each sparse feature: float (FloatList), int64 (Int64List) or string (BytesList).";

void addExampleOps(std::vector<OpDefBuilder>& ops)
{
    {
        OpDefBuilder op = parsingOp("ParseExample", "Parses a batch of serialized tf.train.Example protos into dense "
                                                    "tensors and sparse tensors (indices, values, dense shape).");
        op.input("serialized: string")
            .input("names: string")
            .input("sparse_keys: Nsparse * string")
            .input("dense_keys: Ndense * string")
            .input("dense_defaults: Tdense")
            .output("sparse_indices: Nsparse * int64")
            .output("sparse_values: sparse_types")
            .output("sparse_shapes: Nsparse * int64")
            .output("dense_values: Tdense")
            .attr("Nsparse: int >= 0")
            .attr("Ndense: int >= 0")
            .attr("sparse_types: list({float,int64,string}) >= 0")
            .attr("Tdense: list({float,int64,string}) >= 0")
            .attr("dense_shapes: list(shape) >= 0")
            .doc("serialized", kSerializedDoc)
            .doc("names", kNamesDoc)
            .doc("sparse_keys", "Scalar keys of the features returned as sparse tensors.")
            .doc("dense_keys", "Scalar keys of the features returned as dense tensors.")
            .doc("dense_defaults", kDenseDefaultsDoc)
            .doc("sparse_indices", "Per sparse key: int64 [N, 2], (example, position) of each value.")
            .doc("sparse_values", "Per sparse key: the values, [N].")
            .doc("sparse_shapes", "Per sparse key: [batch, most values in one example].")
            .doc("dense_values", "Per dense key: [batch] + dense shape, the examples stacked.")
            .doc("sparse_types", kSparseTypesDoc)
            .doc("dense_shapes", kDenseShapesDoc);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("ParseExampleV2", "Parses serialized tf.train.Example protos (a batch or one) "
                                                      "into dense, sparse and ragged tensors.");
        op.input("serialized: string")
            .input("names: string")
            .input("sparse_keys: string")
            .input("dense_keys: string")
            .input("ragged_keys: string")
            .input("dense_defaults: Tdense")
            .output("sparse_indices: num_sparse * int64")
            .output("sparse_values: sparse_types")
            .output("sparse_shapes: num_sparse * int64")
            .output("dense_values: Tdense")
            .output("ragged_values: ragged_value_types")
            .output("ragged_row_splits: ragged_split_types")
            .attr("Tdense: list({float,int64,string}) >= 0")
            .attr("num_sparse: int >= 0")
            .attr("sparse_types: list({float,int64,string}) >= 0")
            .attr("ragged_value_types: list({float,int64,string}) >= 0")
            .attr("ragged_split_types: list({int32,int64}) >= 0")
            .attr("dense_shapes: list(shape) >= 0")
            .doc("serialized", "A scalar or vector of serialized tf.train.Example protos.")
            .doc("names", "Names of the protos, shaped as serialized (or empty), for error messages only.")
            .doc("sparse_keys", "Vector of the keys returned as sparse tensors.")
            .doc("dense_keys", "Vector of the keys returned as dense tensors.")
            .doc("ragged_keys", "Vector of the keys returned as ragged tensors.")
            .doc("dense_defaults", kDenseDefaultsDoc)
            .doc("ragged_values", "Per ragged key: every example's values, concatenated.")
            .doc("ragged_row_splits", "Per ragged key: [batch + 1] offsets of each example's values "
                                      "(empty for a scalar input).")
            .doc("num_sparse", "The number of sparse keys.")
            .doc("sparse_types", kSparseTypesDoc)
            .doc("ragged_value_types", "The dtype of each ragged feature.")
            .doc("ragged_split_types", "The dtype of each ragged feature's row splits.")
            .doc("dense_shapes", kDenseShapesDoc);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("ParseSingleExample",
                                    "Parses one serialized tf.train.Example proto into dense and sparse tensors.");
        op.input("serialized: string")
            .input("dense_defaults: Tdense")
            .output("sparse_indices: num_sparse * int64")
            .output("sparse_values: sparse_types")
            .output("sparse_shapes: num_sparse * int64")
            .output("dense_values: Tdense")
            .attr("num_sparse: int >= 0")
            .attr("sparse_keys: list(string) >= 0")
            .attr("dense_keys: list(string) >= 0")
            .attr("sparse_types: list({float,int64,string}) >= 0")
            .attr("Tdense: list({float,int64,string}) >= 0")
            .attr("dense_shapes: list(shape) >= 0")
            .doc("serialized", "A scalar: one serialized tf.train.Example.")
            .doc("dense_defaults", kDenseDefaultsDoc)
            .doc("sparse_indices", "Per sparse key: int64 [N, 1], the position of each value.")
            .doc("sparse_shapes", "Per sparse key: [N].")
            .doc("dense_values", "Per dense key: the dense shape.")
            .doc("num_sparse", "The number of sparse keys.")
            .doc("sparse_keys", "The keys returned as sparse tensors.")
            .doc("dense_keys", "The keys returned as dense tensors.")
            .doc("sparse_types", kSparseTypesDoc)
            .doc("dense_shapes", kDenseShapesDoc);
        ops.push_back(std::move(op));
    }
}

void addSequenceExampleOps(std::vector<OpDefBuilder>& ops)
{
    {
        OpDefBuilder op = parsingOp("ParseSequenceExample",
                                    "Parses a batch of serialized tf.train.SequenceExample protos: context features "
                                    "and feature lists, dense (padded) or sparse.");
        op.input("serialized: string")
            .input("debug_name: string")
            .input("context_dense_defaults: Tcontext_dense")
            .output("context_sparse_indices: Ncontext_sparse * int64")
            .output("context_sparse_values: context_sparse_types")
            .output("context_sparse_shapes: Ncontext_sparse * int64")
            .output("context_dense_values: Tcontext_dense")
            .output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
            .output("feature_list_sparse_values: feature_list_sparse_types")
            .output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
            .output("feature_list_dense_values: feature_list_dense_types")
            .output("feature_list_dense_lengths: Nfeature_list_dense * int64")
            .attr("feature_list_dense_missing_assumed_empty: list(string) >= 0")
            .attr("context_sparse_keys: list(string) >= 0")
            .attr("context_dense_keys: list(string) >= 0")
            .attr("feature_list_sparse_keys: list(string) >= 0")
            .attr("feature_list_dense_keys: list(string) >= 0")
            .attr("Ncontext_sparse: int >= 0 = 0")
            .attr("Ncontext_dense: int >= 0 = 0")
            .attr("Nfeature_list_sparse: int >= 0 = 0")
            .attr("Nfeature_list_dense: int >= 0 = 0")
            .attr("context_sparse_types: list({float,int64,string}) >= 0 = []")
            .attr("Tcontext_dense: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_dense_types: list({float,int64,string}) >= 0 = []")
            .attr("context_dense_shapes: list(shape) >= 0 = []")
            .attr("feature_list_sparse_types: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_dense_shapes: list(shape) >= 0 = []")
            .doc("serialized", "A vector of serialized tf.train.SequenceExample protos.")
            .doc("debug_name", "Names of the protos (or empty), for error messages only.")
            .doc("context_dense_defaults", "One tensor per context dense key: its default (of the key's shape) or "
                                           "empty when required.")
            .doc("feature_list_dense_lengths", "Per feature-list dense key: the number of steps of each example.")
            .doc("feature_list_dense_missing_assumed_empty",
                 "Feature-list dense keys that may be missing: a missing list then has no steps.")
            .doc("context_dense_shapes", "The shape of each context dense feature (fully defined).")
            .doc("feature_list_dense_shapes", "The shape of one step of each feature-list dense feature.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("ParseSequenceExampleV2",
                                    "Parses serialized tf.train.SequenceExample protos (a batch or one) into dense, "
                                    "sparse and ragged tensors.");
        op.input("serialized: string")
            .input("debug_name: string")
            .input("context_sparse_keys: string")
            .input("context_dense_keys: string")
            .input("context_ragged_keys: string")
            .input("feature_list_sparse_keys: string")
            .input("feature_list_dense_keys: string")
            .input("feature_list_ragged_keys: string")
            .input("feature_list_dense_missing_assumed_empty: bool")
            .input("context_dense_defaults: Tcontext_dense")
            .output("context_sparse_indices: Ncontext_sparse * int64")
            .output("context_sparse_values: context_sparse_types")
            .output("context_sparse_shapes: Ncontext_sparse * int64")
            .output("context_dense_values: Tcontext_dense")
            .output("context_ragged_values: context_ragged_value_types")
            .output("context_ragged_row_splits: context_ragged_split_types")
            .output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
            .output("feature_list_sparse_values: feature_list_sparse_types")
            .output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
            .output("feature_list_dense_values: feature_list_dense_types")
            .output("feature_list_dense_lengths: Nfeature_list_dense * int64")
            .output("feature_list_ragged_values: feature_list_ragged_value_types")
            .output("feature_list_ragged_outer_splits: feature_list_ragged_split_types")
            .output("feature_list_ragged_inner_splits: feature_list_ragged_split_types")
            .attr("Ncontext_sparse: int >= 0 = 0")
            .attr("Tcontext_dense: list({float,int64,string}) >= 0 = []")
            .attr("context_sparse_types: list({float,int64,string}) >= 0 = []")
            .attr("context_ragged_value_types: list({float,int64,string}) >= 0 = []")
            .attr("context_ragged_split_types: list({int32,int64}) >= 0 = []")
            .attr("context_dense_shapes: list(shape) >= 0 = []")
            .attr("Nfeature_list_sparse: int >= 0 = 0")
            .attr("Nfeature_list_dense: int >= 0 = 0")
            .attr("feature_list_dense_types: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_sparse_types: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_ragged_value_types: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_ragged_split_types: list({int32,int64}) >= 0 = []")
            .attr("feature_list_dense_shapes: list(shape) >= 0 = []")
            .doc("serialized", "A scalar or vector of serialized tf.train.SequenceExample protos.")
            .doc("debug_name", "Names of the protos, shaped as serialized (or empty), for error messages only.")
            .doc("feature_list_dense_missing_assumed_empty",
                 "One bool per feature-list dense key: true when the list may be missing (then it has no steps).");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("ParseSingleSequenceExample",
                                    "Parses one serialized tf.train.SequenceExample proto: context features and "
                                    "feature lists, dense or sparse.");
        op.input("serialized: string")
            .input("feature_list_dense_missing_assumed_empty: string")
            .input("context_sparse_keys: Ncontext_sparse * string")
            .input("context_dense_keys: Ncontext_dense * string")
            .input("feature_list_sparse_keys: Nfeature_list_sparse * string")
            .input("feature_list_dense_keys: Nfeature_list_dense * string")
            .input("context_dense_defaults: Tcontext_dense")
            .input("debug_name: string")
            .output("context_sparse_indices: Ncontext_sparse * int64")
            .output("context_sparse_values: context_sparse_types")
            .output("context_sparse_shapes: Ncontext_sparse * int64")
            .output("context_dense_values: Tcontext_dense")
            .output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
            .output("feature_list_sparse_values: feature_list_sparse_types")
            .output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
            .output("feature_list_dense_values: feature_list_dense_types")
            .attr("Ncontext_sparse: int >= 0 = 0")
            .attr("Ncontext_dense: int >= 0 = 0")
            .attr("Nfeature_list_sparse: int >= 0 = 0")
            .attr("Nfeature_list_dense: int >= 0 = 0")
            .attr("context_sparse_types: list({float,int64,string}) >= 0 = []")
            .attr("Tcontext_dense: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_dense_types: list({float,int64,string}) >= 0 = []")
            .attr("context_dense_shapes: list(shape) >= 0 = []")
            .attr("feature_list_sparse_types: list({float,int64,string}) >= 0 = []")
            .attr("feature_list_dense_shapes: list(shape) >= 0 = []")
            .doc("serialized", "A scalar: one serialized tf.train.SequenceExample.")
            .doc("feature_list_dense_missing_assumed_empty",
                 "Vector of feature-list dense keys that may be missing (then they have no steps).")
            .doc("debug_name", "A scalar name of the proto for error messages (may be empty).");
        ops.push_back(std::move(op));
    }
}

void addOtherOps(std::vector<OpDefBuilder>& ops)
{
    {
        OpDefBuilder op = parsingOp("DecodeRaw", "Reinterprets the bytes of each string as a vector of numbers.");
        op.input("bytes: string")
            .output("output: out_type")
            .attr("out_type: {half,float,double,int32,uint16,uint8,int16,int8,int64,complex64,complex128,bool}")
            .attr("little_endian: bool = true")
            .doc("bytes", "Strings that all have the same length, a multiple of the size of out_type.")
            .doc("output", "The input's shape plus one dimension: the string length / the element size.")
            .doc("little_endian", "Whether the bytes are little-endian (ignored for one-byte types).");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("DecodeCSV", "Converts CSV records (RFC 4180) to one tensor per column.");
        op.input("records: string")
            .input("record_defaults: OUT_TYPE")
            .output("output: OUT_TYPE")
            .attr("OUT_TYPE: list({float,double,int32,int64,string})")
            .attr("field_delim: string = ','")
            .attr("use_quote_delim: bool = true")
            .attr("na_value: string = ''")
            .attr("select_cols: list(int) = []")
            .doc("records", "Each string is one record; every record has the same fields.")
            .doc("record_defaults", "One tensor per column: a scalar (or one-element vector) default used for an "
                                    "empty or NA field, or empty when the column is required.")
            .doc("output", "One tensor per column, shaped as records.")
            .doc("field_delim", "The one-character field delimiter.")
            .doc("use_quote_delim", "Whether a double quote starts a quoted field (in which \"\" is a quote).")
            .doc("na_value", "A field equal to this is missing, as an empty field.")
            .doc("select_cols", "Strictly increasing indices of the columns to return (all when empty).");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("StringToNumber", "Converts each string to a number of out_type.");
        op.input("string_tensor: string")
            .output("output: out_type")
            .attr("out_type: {float, double, int32, int64} = DT_FLOAT")
            .doc("out_type", "The number type. Integer overflow is an error; float overflow gives infinity.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("SerializeTensor", "Serializes a tensor as a tensorflow.TensorProto.");
        op.input("tensor: T").output("serialized: string").attr("T: type").doc("serialized", "A scalar string.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = parsingOp("ParseTensor", "Parses a serialized tensorflow.TensorProto into a tensor.");
        op.input("serialized: string")
            .output("output: out_type")
            .attr("out_type: type")
            .doc("serialized", "A scalar string holding a serialized TensorProto.")
            .doc("out_type", "The dtype the serialized tensor must have (no conversion takes place).");
        ops.push_back(std::move(op));
    }
}

// --- Shape functions -------------------------------------------------------------------------------

/// TensorFlow's GetDenseShapes: every dimension but the first must be known (the first may be
/// unknown: a variable-length feature).
Status checkDenseShapes(const std::vector<TensorShape>& shapes, const std::string& attr)
{
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        bool ok = shapes[i].rank() >= 0;
        for (int d = 1; ok && d < shapes[i].rank(); ++d)
            ok = shapes[i].dim(d) >= 0;
        if (!ok)
            return invalidArgumentError(attr + "[" + std::to_string(i) +
                                        "] has unknown rank or unknown inner dimensions: " + shapes[i].toString());
    }
    return Status::ok();
}

/// The sparse outputs of `count` features: indices [?, rank], values [?], dense shapes [rank];
/// `rank` -1 when unknown.
void setSparseOutputs(C& c, int count, std::int64_t rank, int& at)
{
    for (int i = 0; i < count; ++i)
        c.setOutput(at++, TensorShape{-1, rank});
    for (int i = 0; i < count; ++i)
        c.setOutput(at++, TensorShape{-1});
    for (int i = 0; i < count; ++i)
        c.setOutput(at++, TensorShape{rank});
}

void setDenseOutputs(C& c, const TensorShape& prefix, const std::vector<TensorShape>& shapes, int& at)
{
    for (const TensorShape& shape : shapes)
        c.setOutput(at++, prefix.concatenate(shape));
}

/// Ragged outputs: values [?], row splits [examples + 1] (and inner splits [?] for feature lists).
void setRaggedOutputs(C& c, int count, std::int64_t examples, bool twoLevels, int& at)
{
    for (int i = 0; i < count; ++i)
        c.setOutput(at++, TensorShape{-1});
    for (int i = 0; i < count; ++i)
        c.setOutput(at++, TensorShape{examples < 0 ? -1 : examples + 1});
    for (int i = 0; twoLevels && i < count; ++i)
        c.setOutput(at++, TensorShape{-1});
}

/// A count attr against the lengths of the lists it goes with.
Status checkCount(std::int64_t count, const std::string& countName,
                  std::initializer_list<std::pair<const char*, std::size_t>> lists)
{
    for (const auto& [name, size] : lists) {
        if (static_cast<std::int64_t>(size) != count)
            return invalidArgumentError(countName + " (" + std::to_string(count) + ") must match the size of " + name +
                                        " (" + std::to_string(size) + ")");
    }
    return Status::ok();
}

#define PARSING_TRY(var, expr)                                                                                         \
    auto var##_expected_ = (expr);                                                                                     \
    if (!var##_expected_)                                                                                              \
        return var##_expected_.error();                                                                                \
    auto var = std::move(*var##_expected_)

Status parseExampleShape(C& c)
{
    PARSING_TRY(numSparse, c.attrInt("Nsparse"));
    PARSING_TRY(numDense, c.attrInt("Ndense"));
    PARSING_TRY(sparseTypes, c.attrTypeList("sparse_types"));
    PARSING_TRY(denseTypes, c.attrTypeList("Tdense"));
    PARSING_TRY(denseShapes, c.attrShapeList("dense_shapes"));
    if (static_cast<std::size_t>(numSparse) != sparseTypes.size())
        return invalidArgumentError("len(sparse_keys) != len(sparse_types)");
    if (static_cast<std::size_t>(numDense) != denseTypes.size())
        return invalidArgumentError("len(dense_keys) != len(dense_types)");
    if (static_cast<std::size_t>(numDense) != denseShapes.size())
        return invalidArgumentError("len(dense_keys) != len(dense_shapes)");
    if (Status s = checkDenseShapes(denseShapes, "dense_shapes"); !s.isOk())
        return s;
    PARSING_TRY(input, c.withRank(0, 1));
    if (auto names = c.withRank(1, 1); !names)
        return names.error();
    int at = 0;
    setSparseOutputs(c, static_cast<int>(numSparse), 2, at);
    setDenseOutputs(c, input, denseShapes, at);
    return Status::ok();
}

Status parseExampleV2Shape(C& c)
{
    PARSING_TRY(numSparse, c.attrInt("num_sparse"));
    PARSING_TRY(sparseTypes, c.attrTypeList("sparse_types"));
    PARSING_TRY(denseTypes, c.attrTypeList("Tdense"));
    PARSING_TRY(denseShapes, c.attrShapeList("dense_shapes"));
    PARSING_TRY(raggedTypes, c.attrTypeList("ragged_value_types"));
    PARSING_TRY(splitTypes, c.attrTypeList("ragged_split_types"));
    if (static_cast<std::size_t>(numSparse) != sparseTypes.size())
        return invalidArgumentError("len(sparse_keys) != len(sparse_types)");
    if (denseTypes.size() != denseShapes.size())
        return invalidArgumentError("len(dense_keys) != len(dense_shapes)");
    if (raggedTypes.size() != splitTypes.size())
        return invalidArgumentError("len(ragged_keys) != len(ragged_split_types)");
    if (Status s = checkDenseShapes(denseShapes, "dense_shapes"); !s.isOk())
        return s;
    PARSING_TRY(input, c.withRankAtMost(0, 1));
    if (auto names = c.withRankAtMost(1, 1); !names)
        return names.error();
    const std::int64_t examples = input.rank() == 1 ? input.dim(0) : -1;
    int at = 0;
    setSparseOutputs(c, static_cast<int>(numSparse), input.rank() < 0 ? -1 : input.rank() + 1, at);
    setDenseOutputs(c, input, denseShapes, at);
    setRaggedOutputs(c, static_cast<int>(raggedTypes.size()), examples, false, at);
    return Status::ok();
}

Status parseSingleExampleShape(C& c)
{
    PARSING_TRY(numSparse, c.attrInt("num_sparse"));
    PARSING_TRY(sparseKeys, c.attrStringList("sparse_keys"));
    PARSING_TRY(denseKeys, c.attrStringList("dense_keys"));
    PARSING_TRY(sparseTypes, c.attrTypeList("sparse_types"));
    PARSING_TRY(denseTypes, c.attrTypeList("Tdense"));
    PARSING_TRY(denseShapes, c.attrShapeList("dense_shapes"));
    if (sparseKeys.size() != sparseTypes.size())
        return invalidArgumentError("len(sparse_keys) != len(sparse_types)");
    if (static_cast<std::size_t>(numSparse) != sparseKeys.size())
        return invalidArgumentError("len(sparse_keys) != num_sparse");
    if (denseKeys.size() != denseTypes.size())
        return invalidArgumentError("len(dense_keys) != len(dense_types)");
    if (denseKeys.size() != denseShapes.size())
        return invalidArgumentError("len(dense_keys) != len(dense_shapes)");
    if (Status s = checkDenseShapes(denseShapes, "dense_shapes"); !s.isOk())
        return s;
    PARSING_TRY(input, c.withRank(0, 0));
    int at = 0;
    setSparseOutputs(c, static_cast<int>(numSparse), 1, at);
    setDenseOutputs(c, input, denseShapes, at);
    return Status::ok();
}

/// The attrs both batched sequence ops and the single one share, checked for consistent counts.
struct SequenceAttrs {
    std::int64_t contextSparse = 0;
    std::int64_t featureListSparse = 0;
    std::int64_t featureListDense = 0;
    std::vector<TensorShape> contextDenseShapes;
    std::vector<TensorShape> featureListDenseShapes;
};

Status sequenceAttrs(C& c, bool keysAsAttrs, bool hasContextDenseCount, SequenceAttrs& a)
{
    PARSING_TRY(contextSparse, c.attrInt("Ncontext_sparse"));
    PARSING_TRY(featureListSparse, c.attrInt("Nfeature_list_sparse"));
    PARSING_TRY(featureListDense, c.attrInt("Nfeature_list_dense"));
    PARSING_TRY(contextSparseTypes, c.attrTypeList("context_sparse_types"));
    PARSING_TRY(contextDenseTypes, c.attrTypeList("Tcontext_dense"));
    PARSING_TRY(contextDenseShapes, c.attrShapeList("context_dense_shapes"));
    PARSING_TRY(featureListSparseTypes, c.attrTypeList("feature_list_sparse_types"));
    PARSING_TRY(featureListDenseTypes, c.attrTypeList("feature_list_dense_types"));
    PARSING_TRY(featureListDenseShapes, c.attrShapeList("feature_list_dense_shapes"));
    std::int64_t contextDense = static_cast<std::int64_t>(contextDenseTypes.size());
    if (hasContextDenseCount) {
        PARSING_TRY(n, c.attrInt("Ncontext_dense"));
        contextDense = n;
    }
    Status s = checkCount(contextSparse, "Ncontext_sparse", {{"context_sparse_types", contextSparseTypes.size()}});
    if (s.isOk())
        s = checkCount(
            contextDense, "Ncontext_dense",
            {{"Tcontext_dense", contextDenseTypes.size()}, {"context_dense_shapes", contextDenseShapes.size()}});
    if (s.isOk())
        s = checkCount(featureListSparse, "Nfeature_list_sparse",
                       {{"feature_list_sparse_types", featureListSparseTypes.size()}});
    if (s.isOk())
        s = checkCount(featureListDense, "Nfeature_list_dense",
                       {{"feature_list_dense_types", featureListDenseTypes.size()},
                        {"feature_list_dense_shapes", featureListDenseShapes.size()}});
    if (s.isOk() && keysAsAttrs) {
        PARSING_TRY(contextSparseKeys, c.attrStringList("context_sparse_keys"));
        PARSING_TRY(contextDenseKeys, c.attrStringList("context_dense_keys"));
        PARSING_TRY(featureListSparseKeys, c.attrStringList("feature_list_sparse_keys"));
        PARSING_TRY(featureListDenseKeys, c.attrStringList("feature_list_dense_keys"));
        s = checkCount(contextSparse, "Ncontext_sparse", {{"context_sparse_keys", contextSparseKeys.size()}});
        if (s.isOk())
            s = checkCount(contextDense, "Ncontext_dense", {{"context_dense_keys", contextDenseKeys.size()}});
        if (s.isOk())
            s = checkCount(featureListSparse, "Nfeature_list_sparse",
                           {{"feature_list_sparse_keys", featureListSparseKeys.size()}});
        if (s.isOk())
            s = checkCount(featureListDense, "Nfeature_list_dense",
                           {{"feature_list_dense_keys", featureListDenseKeys.size()}});
    }
    if (!s.isOk())
        return s;
    a.contextSparse = contextSparse;
    a.featureListSparse = featureListSparse;
    a.featureListDense = featureListDense;
    a.contextDenseShapes = std::move(contextDenseShapes);
    a.featureListDenseShapes = std::move(featureListDenseShapes);
    return Status::ok();
}

Status parseSequenceExampleShape(C& c)
{
    SequenceAttrs a;
    if (Status s = sequenceAttrs(c, true, true, a); !s.isOk())
        return s;
    PARSING_TRY(input, c.withRank(0, 1));
    if (auto names = c.withRank(1, 1); !names)
        return names.error();
    int at = 0;
    setSparseOutputs(c, static_cast<int>(a.contextSparse), 2, at);
    setDenseOutputs(c, input, a.contextDenseShapes, at);
    setSparseOutputs(c, static_cast<int>(a.featureListSparse), 3, at);
    setDenseOutputs(c, TensorShape{input.dim(0), -1}, a.featureListDenseShapes, at);
    for (std::int64_t i = 0; i < a.featureListDense; ++i)
        c.setOutput(at++, input);
    return Status::ok();
}

Status parseSequenceExampleV2Shape(C& c)
{
    SequenceAttrs a;
    if (Status s = sequenceAttrs(c, false, false, a); !s.isOk())
        return s;
    PARSING_TRY(contextRaggedTypes, c.attrTypeList("context_ragged_value_types"));
    PARSING_TRY(contextSplitTypes, c.attrTypeList("context_ragged_split_types"));
    PARSING_TRY(listRaggedTypes, c.attrTypeList("feature_list_ragged_value_types"));
    PARSING_TRY(listSplitTypes, c.attrTypeList("feature_list_ragged_split_types"));
    if (contextRaggedTypes.size() != contextSplitTypes.size())
        return invalidArgumentError("len(context_ragged_value_types) != len(context_ragged_split_types)");
    if (listRaggedTypes.size() != listSplitTypes.size())
        return invalidArgumentError("len(feature_list_ragged_value_types) != len(feature_list_ragged_split_types)");
    PARSING_TRY(input, c.withRankAtMost(0, 1));
    if (auto names = c.withRankAtMost(1, 1); !names)
        return names.error();
    const std::int64_t examples = input.rank() == 1 ? input.dim(0) : -1;
    const std::int64_t rank = input.rank();
    int at = 0;
    setSparseOutputs(c, static_cast<int>(a.contextSparse), rank < 0 ? -1 : rank + 1, at);
    setDenseOutputs(c, input, a.contextDenseShapes, at);
    setRaggedOutputs(c, static_cast<int>(contextRaggedTypes.size()), examples, false, at);
    setSparseOutputs(c, static_cast<int>(a.featureListSparse), rank < 0 ? -1 : rank + 2, at);
    setDenseOutputs(c, input.concatenate(TensorShape{-1}), a.featureListDenseShapes, at);
    for (std::int64_t i = 0; i < a.featureListDense; ++i)
        c.setOutput(at++, input);
    setRaggedOutputs(c, static_cast<int>(listRaggedTypes.size()), examples, true, at);
    return Status::ok();
}

Status parseSingleSequenceExampleShape(C& c)
{
    SequenceAttrs a;
    if (Status s = sequenceAttrs(c, false, true, a); !s.isOk())
        return s;
    PARSING_TRY(input, c.withRank(0, 0));
    if (auto missing = c.withRank(1, 1); !missing)
        return missing.error();
    int at = 0;
    setSparseOutputs(c, static_cast<int>(a.contextSparse), 1, at);
    setDenseOutputs(c, input, a.contextDenseShapes, at);
    setSparseOutputs(c, static_cast<int>(a.featureListSparse), 2, at);
    setDenseOutputs(c, TensorShape{-1}, a.featureListDenseShapes, at);
    return Status::ok();
}

/// DecodeRaw: the input's shape plus one unknown dimension (it depends on the data).
Status decodeRawShape(C& c)
{
    c.setOutput(0, c.input(0).concatenate(TensorShape{-1}));
    return Status::ok();
}

/// DecodeCSV: each default a scalar or a vector of at most one element; outputs shaped as records.
Status decodeCsvShape(C& c)
{
    for (int i = 1; i < c.numInputs(); ++i) {
        PARSING_TRY(v, c.withRankAtMost(i, 1));
        if (v.rank() == 1 && v.dim(0) > 1)
            return invalidArgumentError("Shape of a default must be a length-0 or length-1 vector, or a scalar.");
    }
    for (int i = 0; i < c.numOutputs(); ++i)
        c.setOutput(i, c.input(0));
    return Status::ok();
}

#undef PARSING_TRY

std::vector<std::pair<std::string, ShapeFunction>> parsingShapeFunctions()
{
    return {
        {"ParseExample", parseExampleShape},
        {"ParseExampleV2", parseExampleV2Shape},
        {"ParseSingleExample", parseSingleExampleShape},
        {"ParseSequenceExample", parseSequenceExampleShape},
        {"ParseSequenceExampleV2", parseSequenceExampleV2Shape},
        {"ParseSingleSequenceExample", parseSingleSequenceExampleShape},
        {"DecodeRaw", decodeRawShape},
        {"DecodeCSV", decodeCsvShape},
        {"StringToNumber", unchangedShape},
        {"SerializeTensor", scalarShape},
        {"ParseTensor", unknownShape},
    };
}

} // namespace

Status registerParsingOps(OpRegistry& registry)
{
    std::vector<OpDefBuilder> ops;
    addExampleOps(ops);
    addSequenceExampleOps(ops);
    addOtherOps(ops);
    for (const OpDefBuilder& builder : ops) {
        if (Status status = registry.registerOp(builder); !status.isOk())
            return status;
    }
    for (auto& [name, function] : parsingShapeFunctions()) {
        if (Status status = registry.setShapeFunction(name, std::move(function)); !status.isOk())
            return status;
    }
    return Status::ok();
}

} // namespace tstudio
