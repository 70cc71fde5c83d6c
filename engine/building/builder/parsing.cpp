// tf.io's parsing functions: the feature specs turned into the ops' keys, types, shapes and default
// tensors as TensorFlow's _ParseOpParams does (sorted keys, Consts named as Python names them), then
// one parse op in "<scope>/<Op>/" and its outputs sorted back by key.
#include "builder/parsing.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_ops.h"
#include "builder/tensor_proto_values.h"

#include <algorithm>
#include <limits>

namespace tstudio::parsing {

namespace {

namespace tf = tensorflow;

/// What a parse op needs of a Features map (TensorFlow's _ParseOpParams).
struct OpParams {
    std::vector<std::string> sparseKeys;
    std::vector<DataType> sparseTypes;
    std::vector<std::string> denseKeys;
    std::vector<DataType> denseTypes;
    std::vector<TensorShape> denseShapes;
    std::vector<std::optional<Tensor>> denseDefaults;
    std::vector<bool> allowMissing; ///< per dense key: a FixedLenSequenceFeature with allow_missing
    std::vector<std::string> raggedKeys;
    std::vector<DataType> raggedTypes;
    std::vector<DataType> splitTypes;
    std::vector<std::pair<std::string, SparseFeature>> sparseFeatures; ///< merged after parsing, sorted by key

    std::size_t numFeatures() const { return sparseKeys.size() + denseKeys.size() + raggedKeys.size(); }
};

/// Where a Features map is used: its allowed kinds and how FixedLenSequenceFeature is read.
enum class Use { kExample, kExampleV2, kContext, kSequence, kSequenceV2 };

/// Python's re.sub("[^A-Za-z0-9_.\\-/]", "_", key), for Const names made from keys.
std::string sanitize(const std::string& key)
{
    std::string out = key;
    for (char& c : out) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '.' || c == '-' || c == '/';
        if (!ok)
            c = '_';
    }
    return out;
}

std::string kindName(const Feature& f)
{
    static const char* const names[] = {"FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature", "RaggedFeature",
                                        "SparseFeature"};
    return names[f.index()];
}

Status addFixedLen(OpParams& p, const std::string& key, const FixedLenFeature& f)
{
    if (f.shape.rank() > 0 && f.shape.dim(0) < 0)
        return invalidArgumentError("First dimension of shape for feature " + key +
                                    " unknown. Consider using FixedLenSequenceFeature.");
    if (!f.shape.isFullyDefined())
        return invalidArgumentError("All dimensions of shape for feature " + key + " need to be known but received " +
                                    f.shape.toString() + ".");
    p.denseKeys.push_back(key);
    p.denseTypes.push_back(f.dtype);
    p.denseShapes.push_back(f.shape);
    p.denseDefaults.push_back(f.defaultValue);
    p.allowMissing.push_back(false);
    return Status::ok();
}

/// A dtype as Python's str() prints it in ValueErrors: "<dtype: 'float32'>".
std::string pyDtype(DataType dtype)
{
    return "<dtype: '" + dataTypeName(dtype) + "'>";
}

/// _features_to_raw_params for a SparseFeature: its sorted index keys (int64) and its value key join
/// the sparse keys unless already there with the same type.
Status addSparseFeature(OpParams& p, const std::string& key, const SparseFeature& f)
{
    if (f.indexKeys.empty() ||
        std::any_of(f.indexKeys.begin(), f.indexKeys.end(), [](const std::string& k) { return k.empty(); }))
        return invalidArgumentError("Missing index_key for SparseFeature " + key + ".");
    if (f.valueKey.empty())
        return invalidArgumentError("Missing value_key for SparseFeature " + key + ".");
    if (f.size.size() != f.indexKeys.size())
        return invalidArgumentError("sp_ids and vocab_size have to have equal lengths.");
    const auto typeOf = [&p](const std::string& k) -> std::optional<DataType> {
        const auto at = std::find(p.sparseKeys.begin(), p.sparseKeys.end(), k);
        if (at == p.sparseKeys.end())
            return std::nullopt;
        return p.sparseTypes[static_cast<std::size_t>(at - p.sparseKeys.begin())];
    };
    std::vector<std::string> indexKeys = f.indexKeys;
    std::sort(indexKeys.begin(), indexKeys.end());
    for (const std::string& indexKey : indexKeys) {
        if (const auto known = typeOf(indexKey)) {
            if (*known != tf::DT_INT64)
                return invalidArgumentError("Conflicting type " + pyDtype(*known) + " vs int64 for feature " +
                                            indexKey + ".");
        } else {
            p.sparseKeys.push_back(indexKey);
            p.sparseTypes.push_back(tf::DT_INT64);
        }
    }
    if (const auto known = typeOf(f.valueKey)) {
        if (*known != f.dtype)
            return invalidArgumentError("Conflicting type " + pyDtype(*known) + " vs " + pyDtype(f.dtype) +
                                        " for feature " + f.valueKey + ".");
    } else {
        p.sparseKeys.push_back(f.valueKey);
        p.sparseTypes.push_back(f.dtype);
    }
    p.sparseFeatures.emplace_back(key, f);
    return Status::ok();
}

Expected<OpParams> paramsOf(const Features& features, Use use)
{
    OpParams p;
    const bool example = use == Use::kExample || use == Use::kExampleV2;
    const bool ragged = use == Use::kExampleV2 || use == Use::kSequenceV2;
    for (const auto& [key, feature] : features) { // std::map: sorted keys, as TensorFlow sorts them
        Status s;
        if (const auto* fixed = std::get_if<FixedLenFeature>(&feature);
            fixed && use != Use::kSequence && use != Use::kSequenceV2) {
            s = addFixedLen(p, key, *fixed);
        } else if (const auto* var = std::get_if<VarLenFeature>(&feature)) {
            p.sparseKeys.push_back(key);
            p.sparseTypes.push_back(var->dtype);
        } else if (const auto* seq = std::get_if<FixedLenSequenceFeature>(&feature); seq && use != Use::kContext) {
            if (example && !seq->allowMissing)
                return unexpected(
                    invalidArgumentError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True."));
            if (!example && seq->defaultValue)
                return unexpected(invalidArgumentError("Value feature_list.dense_defaults[" + key + "] must be None"));
            p.denseKeys.push_back(key);
            p.denseTypes.push_back(seq->dtype);
            // In an Example the first dimension is the variable number of blocks.
            p.denseShapes.push_back(example ? TensorShape{-1}.concatenate(seq->shape) : seq->shape);
            p.denseDefaults.push_back(seq->defaultValue);
            p.allowMissing.push_back(seq->allowMissing);
        } else if (const auto* sf = std::get_if<SparseFeature>(&feature); sf && example) {
            s = addSparseFeature(p, key, *sf);
        } else if (const auto* rag = std::get_if<RaggedFeature>(&feature); rag && ragged) {
            p.raggedKeys.push_back(key);
            p.raggedTypes.push_back(rag->dtype);
            p.splitTypes.push_back(rag->rowSplitsDtype);
        } else {
            std::string hint;
            if (std::holds_alternative<RaggedFeature>(feature))
                hint = use == Use::kExample ? ": use parseExampleV2" : ": use parseSequenceExampleV2";
            return unexpected(invalidArgumentError("Unsupported " + kindName(feature) + " " + key + hint));
        }
        if (!s.isOk())
            return unexpected(s);
    }
    return p;
}

/// A Const holding a host tensor, laid out as make_tensor_proto lays it out.
Expected<Output> hostConstant(GraphBuilder& b, const Tensor& value, std::string_view name)
{
    tf::TensorProto proto;
    value.toProto(&proto, makeTensorProtoUsesContent(value.dtype(), value.numElements()));
    return ops::constant(b, proto, name);
}

/// A Const of `dtype` and `shape` with `values` (strings) or zeros (numbers): empty defaults,
/// padding 0 / "".
Expected<Output> emptyOrZero(GraphBuilder& b, DataType dtype, const TensorShape& shape, std::string_view name)
{
    if (dtype == tf::DT_STRING) {
        std::vector<std::string> values(static_cast<std::size_t>(*shape.numElements()));
        TSTUDIO_AD_TRY(proto, makeStringTensorProto(shape, values));
        return ops::constant(b, proto, name);
    }
    std::vector<double> values(static_cast<std::size_t>(*shape.numElements()), 0.0);
    TSTUDIO_AD_TRY(proto, makeTensorProto(dtype, shape, values));
    return ops::constant(b, proto, name);
}

Expected<Output> stringConstant(GraphBuilder& b, const std::vector<std::string>& values, const TensorShape& shape,
                                std::string_view name)
{
    TSTUDIO_AD_TRY(proto, makeStringTensorProto(shape, values));
    return ops::constant(b, proto, name);
}

/// _ParseOpParams._make_dense_default: the tensor given as dense_defaults[i], built in the current scope.
Expected<Output> denseDefault(GraphBuilder& b, const std::string& key, const TensorShape& shape, DataType dtype,
                              const std::optional<Tensor>& value)
{
    const bool variable = shape.rank() > 0 && shape.dim(0) < 0;
    if (value && value->dtype() != dtype)
        return unexpected(invalidArgumentError("default_value of feature " + key + " has dtype " +
                                               dataTypeString(value->dtype()) + ", expected " + dataTypeString(dtype)));
    if (variable) {
        if (!value)
            return emptyOrZero(b, dtype, TensorShape::scalar(), "Const");
        if (value->numElements() != 1)
            return unexpected(invalidArgumentError("default_value of feature " + key +
                                                   " is a padding value and must hold one element, got " +
                                                   std::to_string(value->numElements())));
        TSTUDIO_AD_TRY(padding, hostConstant(b, *value, "padding_" + sanitize(key)));
        return py::reshape(b, padding, std::vector<std::int64_t>{});
    }
    if (!value)
        return emptyOrZero(b, dtype, TensorShape{0}, "Const");
    if (value->numElements() != *shape.numElements())
        return unexpected(invalidArgumentError("default_value of feature " + key + " has " +
                                               std::to_string(value->numElements()) + " elements but shape " +
                                               shape.toString() + " needs " + std::to_string(*shape.numElements())));
    TSTUDIO_AD_TRY(def, hostConstant(b, *value, "key_" + sanitize(key)));
    return py::reshape(b, def, std::vector<std::int64_t>(shape.dims().begin(), shape.dims().end()));
}

Expected<std::vector<Output>> denseDefaults(GraphBuilder& b, const OpParams& p)
{
    std::vector<Output> out;
    for (std::size_t i = 0; i < p.denseKeys.size(); ++i) {
        TSTUDIO_AD_TRY(d, denseDefault(b, p.denseKeys[i], p.denseShapes[i], p.denseTypes[i], p.denseDefaults[i]));
        out.push_back(d);
    }
    return out;
}

/// One scalar string Const per key: "<prefix>_0", "<prefix>_1", ... (op_def_library's list inputs).
Expected<std::vector<Output>> keyConstants(GraphBuilder& b, const std::vector<std::string>& keys,
                                           const std::string& prefix)
{
    std::vector<Output> out;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        TSTUDIO_AD_TRY(c, stringConstant(b, {keys[i]}, TensorShape::scalar(), prefix + "_" + std::to_string(i)));
        out.push_back(c);
    }
    return out;
}

tf::AttrValue shapesAttr(const std::vector<TensorShape>& shapes)
{
    tf::AttrValue v;
    auto* list = v.mutable_list();
    for (const TensorShape& s : shapes)
        *list->add_shape() = s.toProto();
    return v;
}

/// The sparse then dense outputs of a parse op from output `at` on, keyed; `at` moves past them.
void collectOutputs(const Operation& op, int& at, const std::vector<std::string>& sparseKeys,
                    const std::vector<std::string>& denseKeys, ParsedOutputs& out)
{
    const int ns = static_cast<int>(sparseKeys.size());
    for (int i = 0; i < ns; ++i)
        out.sparse[sparseKeys[static_cast<std::size_t>(i)]] = {op.output(at + i), op.output(at + ns + i),
                                                               op.output(at + 2 * ns + i)};
    at += 3 * ns;
    for (const std::string& key : denseKeys)
        out.dense[key] = op.output(at++);
}

void collectRagged(const Operation& op, int& at, const std::vector<std::string>& keys, bool twoLevels,
                   ParsedOutputs& out)
{
    const int n = static_cast<int>(keys.size());
    for (int i = 0; i < n; ++i) {
        RaggedOutput r;
        r.values = op.output(at + i);
        if (twoLevels) {
            r.outerSplits = op.output(at + n + i);
            r.rowSplits = op.output(at + 2 * n + i);
        } else {
            r.rowSplits = op.output(at + n + i);
        }
        out.ragged[keys[static_cast<std::size_t>(i)]] = r;
    }
    at += (twoLevels ? 3 : 2) * n;
}

/// x[...] of constant bounds (Tensor.__getitem__): "strided_slice/stack", "stack_1", "stack_2" and
/// the StridedSlice "strided_slice".
Expected<Output> stridedSlice(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& begin,
                              const std::vector<std::int64_t>& end, int beginMask, int endMask)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(beginT, py::intVector(b, begin, "stack"));
    TSTUDIO_AD_TRY(endT, py::intVector(b, end, "stack_1"));
    TSTUDIO_AD_TRY(strides, py::intVector(b, std::vector<std::int64_t>(begin.size(), 1), "stack_2"));
    return py::genOp(b, "StridedSlice", {x, beginT, endT, strides},
                     {{"begin_mask", attr::i(beginMask)},
                      {"end_mask", attr::i(endMask)},
                      {"ellipsis_mask", attr::i(0)},
                      {"new_axis_mask", attr::i(0)},
                      {"shrink_axis_mask", attr::i(0)}},
                     scope.name());
}

/// math_ops.cast(python int, int64): the Const "Cast/x" (int32 when it fits, as Python converts an
/// int) and the Cast "Cast" to int64.
Expected<Output> int64Scalar(GraphBuilder& b, std::int64_t value)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Cast"));
    const bool fits =
        value >= std::numeric_limits<std::int32_t>::min() && value <= std::numeric_limits<std::int32_t>::max();
    TSTUDIO_AD_TRY(x, ops::constantInts(b, {value}, TensorShape::scalar(), fits ? tf::DT_INT32 : tf::DT_INT64, "x"));
    if (!fits)
        return x;
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(tf::DT_INT64)}}, scope.name());
}

/// sparse_ops.sparse_merge(sp_ids, sp_values, vocab_size, already_sorted) in the scope "SparseMerge":
/// the indices are sp_ids[0].indices without their last column followed by each id vector, the
/// values sp_values.values, the dense shape sp_ids[0].dense_shape[:-1] + vocab_size; reordered to
/// row-major order by SparseReorder unless already sorted.
Expected<SparseOutput> sparseMerge(GraphBuilder& b, const std::vector<SparseOutput>& ids, const SparseOutput& values,
                                   const std::vector<std::int64_t>& sizes, bool alreadySorted)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("SparseMerge"));
    std::vector<Output> indexColumns(1);
    for (const SparseOutput& id : ids) {
        TSTUDIO_AD_TRY(asInt64, py::cast(b, id.values, tf::DT_INT64));
        TSTUDIO_AD_TRY(column, py::expandDims(b, asInt64, 1));
        indexColumns.push_back(column);
    }
    std::vector<Output> vocabSizes;
    for (const std::int64_t size : sizes) {
        TSTUDIO_AD_TRY(v, int64Scalar(b, size));
        vocabSizes.push_back(v);
    }
    TSTUDIO_AD_TRY(kept, stridedSlice(b, ids.front().indices, {0, 0}, {0, -1}, 3, 1));
    indexColumns.front() = kept;
    Output indices;
    {
        TSTUDIO_AD_TRY(concat, b.nameScope("concat"));
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(op, py::genOp(b, "ConcatV2", {OpInput(indexColumns), axis}, {}, concat.name()));
        indices = op;
    }
    TSTUDIO_AD_TRY(outer, stridedSlice(b, ids.front().denseShape, {0}, {-1}, 1, 0));
    Output denseShape;
    {
        TSTUDIO_AD_TRY(concat, b.nameScope("concat"));
        Output packed;
        {
            // The Python list [vocab_size...] is auto-packed while ConcatV2's values are converted.
            TSTUDIO_AD_TRY(pack, b.nameScope("values_1"));
            TSTUDIO_AD_TRY(p, py::genOp(b, "Pack", {OpInput(vocabSizes)}, {}, pack.name()));
            packed = p;
        }
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(
            op, py::genOp(b, "ConcatV2", {OpInput(std::vector<Output>{outer, packed}), axis}, {}, concat.name()));
        denseShape = op;
    }
    if (alreadySorted)
        return SparseOutput{indices, values.values, denseShape};
    TSTUDIO_AD_TRY(merged, sparse::makeSparseTensor(indices, values.values, denseShape));
    TSTUDIO_AD_TRY(sorted, sparse::sparseReorder(b, merged));
    return SparseOutput{sorted.indices, sorted.values, denseShape};
}

/// _construct_sparse_tensors_for_sparse_features: each SparseFeature (sorted by key) merged from the
/// parsed index and value keys, then every key that is not a requested feature dropped.
Status mergeSparseFeatures(GraphBuilder& b, const OpParams& p, const Features& features, ParsedOutputs& out)
{
    if (p.sparseFeatures.empty())
        return Status::ok();
    for (const auto& [key, feature] : p.sparseFeatures) {
        std::vector<SparseOutput> ids;
        for (const std::string& indexKey : feature.indexKeys)
            ids.push_back(out.sparse.at(indexKey));
        TSTUDIO_AD_TRY(merged,
                       sparseMerge(b, ids, out.sparse.at(feature.valueKey), feature.size, feature.alreadySorted));
        out.sparse[key] = merged;
    }
    std::erase_if(out.sparse, [&features](const auto& entry) { return !features.contains(entry.first); });
    return Status::ok();
}

/// The scope of a parse function (`name` or the default) and the op's name inside it ("<scope>/<name or Op>").
std::string innerName(std::string_view name, std::string_view opType)
{
    return std::string(name.empty() ? opType : name);
}

Expected<ParsedOutputs> parseExampleImpl(GraphBuilder& b, const Output& serialized, const Features& features,
                                         const std::optional<Output>& exampleNames, std::string_view name, bool v2)
{
    if (features.empty())
        return unexpected(invalidArgumentError("Missing: features was {}."));
    TSTUDIO_AD_TRY(p, paramsOf(features, v2 ? Use::kExampleV2 : Use::kExample));
    if (v2 && !p.raggedKeys.empty() && serialized.shape().rank() < 0)
        return unexpected(invalidArgumentError("serialized must have statically-known rank to parse ragged features."));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? "ParseExample" : name));
    TSTUDIO_AD_TRY(defaults, denseDefaults(b, p));
    const std::string opType = v2 ? "ParseExampleV2" : "ParseExample";
    TSTUDIO_AD_TRY(inner, b.nameScope(innerName(name, opType)));
    Output names;
    if (exampleNames) {
        names = *exampleNames;
    } else {
        TSTUDIO_AD_TRY(empty, stringConstant(b, {}, TensorShape{0}, "names"));
        names = empty;
    }
    AttrMap attrs = {{"sparse_types", attr::types(p.sparseTypes)},
                     {"Tdense", attr::types(p.denseTypes)},
                     {"dense_shapes", shapesAttr(p.denseShapes)}};
    std::vector<OpInput> inputs{serialized, names};
    if (v2) {
        for (const auto& [keys, argName] :
             {std::pair{&p.sparseKeys, "sparse_keys"}, std::pair{&p.denseKeys, "dense_keys"},
              std::pair{&p.raggedKeys, "ragged_keys"}}) {
            TSTUDIO_AD_TRY(k, stringConstant(b, *keys, TensorShape{static_cast<std::int64_t>(keys->size())}, argName));
            inputs.emplace_back(k);
        }
        attrs["num_sparse"] = attr::i(static_cast<std::int64_t>(p.sparseKeys.size()));
        attrs["ragged_value_types"] = attr::types(p.raggedTypes);
        attrs["ragged_split_types"] = attr::types(p.splitTypes);
    } else {
        TSTUDIO_AD_TRY(sparseKeys, keyConstants(b, p.sparseKeys, "sparse_keys"));
        TSTUDIO_AD_TRY(denseKeys, keyConstants(b, p.denseKeys, "dense_keys"));
        inputs.emplace_back(sparseKeys);
        inputs.emplace_back(denseKeys);
        attrs["Nsparse"] = attr::i(static_cast<std::int64_t>(p.sparseKeys.size()));
        attrs["Ndense"] = attr::i(static_cast<std::int64_t>(p.denseKeys.size()));
    }
    inputs.emplace_back(defaults);
    TSTUDIO_AD_TRY(op, b.op(opType, std::move(inputs), std::move(attrs), inner.name()));
    ParsedOutputs out;
    int at = 0;
    collectOutputs(op, at, p.sparseKeys, p.denseKeys, out);
    collectRagged(op, at, p.raggedKeys, false, out);
    inner.close(); // SparseFeatures are merged in the caller's scope
    scope.close();
    TSTUDIO_AD_CHECK(mergeSparseFeatures(b, p, features, out));
    return out;
}

} // namespace

Expected<ParsedOutputs> parseExample(GraphBuilder& b, const Output& serialized, const Features& features,
                                     const std::optional<Output>& exampleNames, std::string_view name)
{
    return parseExampleImpl(b, serialized, features, exampleNames, name, false);
}

Expected<ParsedOutputs> parseExampleV2(GraphBuilder& b, const Output& serialized, const Features& features,
                                       const std::optional<Output>& exampleNames, std::string_view name)
{
    return parseExampleImpl(b, serialized, features, exampleNames, name, true);
}

Expected<ParsedOutputs> parseSingleExample(GraphBuilder& b, const Output& serialized, const Features& features,
                                           std::string_view name)
{
    if (features.empty())
        return unexpected(invalidArgumentError("Missing: features was {}."));
    TSTUDIO_AD_TRY(p, paramsOf(features, Use::kExample));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? "ParseSingleExample" : name));
    TSTUDIO_AD_TRY(defaults, denseDefaults(b, p));
    AttrMap attrs = {{"num_sparse", attr::i(static_cast<std::int64_t>(p.sparseKeys.size()))},
                     {"sparse_keys", attr::strings(p.sparseKeys)},
                     {"dense_keys", attr::strings(p.denseKeys)},
                     {"sparse_types", attr::types(p.sparseTypes)},
                     {"Tdense", attr::types(p.denseTypes)},
                     {"dense_shapes", shapesAttr(p.denseShapes)}};
    TSTUDIO_AD_TRY(inner, b.nameScope(innerName(name, "ParseSingleExample")));
    TSTUDIO_AD_TRY(op, b.op("ParseSingleExample", {serialized, OpInput(defaults)}, std::move(attrs), inner.name()));
    ParsedOutputs out;
    int at = 0;
    collectOutputs(op, at, p.sparseKeys, p.denseKeys, out);
    inner.close(); // SparseFeatures are merged in the caller's scope
    scope.close();
    TSTUDIO_AD_CHECK(mergeSparseFeatures(b, p, features, out));
    return out;
}

namespace {

/// The attrs both SequenceExample ops share.
AttrMap sequenceAttrs(const OpParams& context, const OpParams& lists)
{
    return {{"Ncontext_sparse", attr::i(static_cast<std::int64_t>(context.sparseKeys.size()))},
            {"Ncontext_dense", attr::i(static_cast<std::int64_t>(context.denseKeys.size()))},
            {"Nfeature_list_sparse", attr::i(static_cast<std::int64_t>(lists.sparseKeys.size()))},
            {"Nfeature_list_dense", attr::i(static_cast<std::int64_t>(lists.denseKeys.size()))},
            {"context_sparse_types", attr::types(context.sparseTypes)},
            {"Tcontext_dense", attr::types(context.denseTypes)},
            {"context_dense_shapes", shapesAttr(context.denseShapes)},
            {"feature_list_sparse_types", attr::types(lists.sparseTypes)},
            {"feature_list_dense_types", attr::types(lists.denseTypes)},
            {"feature_list_dense_shapes", shapesAttr(lists.denseShapes)}};
}

std::vector<std::string> missingAssumedEmpty(const OpParams& lists)
{
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < lists.denseKeys.size(); ++i)
        if (lists.allowMissing[i])
            keys.push_back(lists.denseKeys[i]);
    return keys;
}

} // namespace

Expected<ParsedSequenceOutputs> parseSequenceExample(GraphBuilder& b, const Output& serialized,
                                                     const Features& contextFeatures, const Features& sequenceFeatures,
                                                     const std::optional<Output>& exampleNames, std::string_view name)
{
    if (contextFeatures.empty() && sequenceFeatures.empty())
        return unexpected(invalidArgumentError("Missing features."));
    TSTUDIO_AD_TRY(context, paramsOf(contextFeatures, Use::kContext));
    TSTUDIO_AD_TRY(lists, paramsOf(sequenceFeatures, Use::kSequence));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? "ParseSequenceExample" : name));
    TSTUDIO_AD_TRY(defaults, denseDefaults(b, context));
    TSTUDIO_AD_TRY(inner, b.nameScope(innerName(name, "ParseSequenceExample")));
    Output names;
    if (exampleNames) {
        names = *exampleNames;
    } else {
        TSTUDIO_AD_TRY(empty, stringConstant(b, {}, TensorShape{0}, "debug_name"));
        names = empty;
    }
    AttrMap attrs = sequenceAttrs(context, lists);
    attrs["context_sparse_keys"] = attr::strings(context.sparseKeys);
    attrs["context_dense_keys"] = attr::strings(context.denseKeys);
    attrs["feature_list_sparse_keys"] = attr::strings(lists.sparseKeys);
    attrs["feature_list_dense_keys"] = attr::strings(lists.denseKeys);
    attrs["feature_list_dense_missing_assumed_empty"] = attr::strings(missingAssumedEmpty(lists));
    TSTUDIO_AD_TRY(
        op, b.op("ParseSequenceExample", {serialized, names, OpInput(defaults)}, std::move(attrs), inner.name()));
    ParsedSequenceOutputs out;
    int at = 0;
    collectOutputs(op, at, context.sparseKeys, context.denseKeys, out.context);
    collectOutputs(op, at, lists.sparseKeys, lists.denseKeys, out.featureLists);
    for (const std::string& key : lists.denseKeys)
        out.lengths[key] = op.output(at++);
    return out;
}

Expected<ParsedSequenceOutputs> parseSingleSequenceExample(GraphBuilder& b, const Output& serialized,
                                                           const Features& contextFeatures,
                                                           const Features& sequenceFeatures,
                                                           const std::optional<Output>& exampleName,
                                                           std::string_view name)
{
    if (contextFeatures.empty() && sequenceFeatures.empty())
        return unexpected(invalidArgumentError("Missing features."));
    TSTUDIO_AD_TRY(context, paramsOf(contextFeatures, Use::kContext));
    TSTUDIO_AD_TRY(lists, paramsOf(sequenceFeatures, Use::kSequence));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? "ParseSingleSequenceExample" : name));
    TSTUDIO_AD_TRY(defaults, denseDefaults(b, context));
    TSTUDIO_AD_TRY(inner, b.nameScope(innerName(name, "ParseSingleSequenceExample")));
    const std::vector<std::string> missing = missingAssumedEmpty(lists);
    TSTUDIO_AD_TRY(missingConst, stringConstant(b, missing, TensorShape{static_cast<std::int64_t>(missing.size())},
                                                "feature_list_dense_missing_assumed_empty"));
    TSTUDIO_AD_TRY(contextSparse, keyConstants(b, context.sparseKeys, "context_sparse_keys"));
    TSTUDIO_AD_TRY(contextDense, keyConstants(b, context.denseKeys, "context_dense_keys"));
    TSTUDIO_AD_TRY(listSparse, keyConstants(b, lists.sparseKeys, "feature_list_sparse_keys"));
    TSTUDIO_AD_TRY(listDense, keyConstants(b, lists.denseKeys, "feature_list_dense_keys"));
    Output debugName;
    if (exampleName) {
        debugName = *exampleName;
    } else {
        TSTUDIO_AD_TRY(empty, stringConstant(b, {""}, TensorShape::scalar(), "debug_name"));
        debugName = empty;
    }
    TSTUDIO_AD_TRY(op, b.op("ParseSingleSequenceExample",
                            {serialized, missingConst, OpInput(contextSparse), OpInput(contextDense),
                             OpInput(listSparse), OpInput(listDense), OpInput(defaults), debugName},
                            sequenceAttrs(context, lists), inner.name()));
    ParsedSequenceOutputs out;
    int at = 0;
    collectOutputs(op, at, context.sparseKeys, context.denseKeys, out.context);
    collectOutputs(op, at, lists.sparseKeys, lists.denseKeys, out.featureLists);
    return out;
}

Expected<Output> decodeRaw(GraphBuilder& b, const Output& bytes, DataType outType, bool littleEndian,
                           std::string_view name)
{
    return py::genOp(b, "DecodeRaw", {bytes},
                     {{"out_type", attr::type(outType)}, {"little_endian", attr::b(littleEndian)}}, name);
}

namespace {

/// decode_csv_v2's Python checks of select_cols.
Status checkSelectCols(const CsvOptions& options, std::size_t defaults)
{
    const std::vector<std::int64_t>& cols = options.selectCols;
    for (std::size_t i = 1; i < cols.size(); ++i)
        if (cols[i - 1] >= cols[i])
            return invalidArgumentError("select_cols is not strictly increasing.");
    if (!cols.empty() && cols.front() < 0)
        return invalidArgumentError("select_cols contains negative values.");
    if (!cols.empty() && cols.size() != defaults)
        return invalidArgumentError("Length of select_cols and record_defaults do not match.");
    return Status::ok();
}

Expected<std::vector<Output>> decodeCsvOp(GraphBuilder& b, const Output& records, const std::vector<Output>& defaults,
                                          const CsvOptions& options, std::string_view name)
{
    AttrMap attrs = {{"field_delim", attr::s(options.fieldDelim)},
                     {"use_quote_delim", attr::b(options.useQuoteDelim)},
                     {"na_value", attr::s(options.naValue)},
                     {"select_cols", attr::ints(options.selectCols)}};
    TSTUDIO_AD_TRY(op, b.op("DecodeCSV", {records, OpInput(defaults)}, std::move(attrs), name));
    return op.outputs();
}

} // namespace

Expected<std::vector<Output>> decodeCsv(GraphBuilder& b, const Output& records,
                                        const std::vector<Tensor>& recordDefaults, const CsvOptions& options,
                                        std::string_view name)
{
    TSTUDIO_AD_CHECK(checkSelectCols(options, recordDefaults.size()));
    // As a generated op wrapper: the defaults converted inside the op's scope, the op named after it.
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    std::vector<Output> defaults;
    for (std::size_t i = 0; i < recordDefaults.size(); ++i) {
        TSTUDIO_AD_TRY(c, hostConstant(b, recordDefaults[i], "record_defaults_" + std::to_string(i)));
        defaults.push_back(c);
    }
    return decodeCsvOp(b, records, defaults, options, scope.name());
}

Expected<std::vector<Output>> decodeCsv(GraphBuilder& b, const Output& records,
                                        const std::vector<Output>& recordDefaults, const CsvOptions& options,
                                        std::string_view name)
{
    TSTUDIO_AD_CHECK(checkSelectCols(options, recordDefaults.size()));
    return decodeCsvOp(b, records, recordDefaults, options, name);
}

Expected<Output> stringToNumber(GraphBuilder& b, const Output& strings, DataType outType, std::string_view name)
{
    return py::genOp(b, "StringToNumber", {strings}, {{"out_type", attr::type(outType)}}, name);
}

Expected<Output> serializeTensor(GraphBuilder& b, const Output& tensor, std::string_view name)
{
    return py::genOp(b, "SerializeTensor", {tensor}, {}, name);
}

Expected<Output> parseTensor(GraphBuilder& b, const Output& serialized, DataType outType, std::string_view name)
{
    return py::genOp(b, "ParseTensor", {serialized}, {{"out_type", attr::type(outType)}}, name);
}

} // namespace tstudio::parsing
