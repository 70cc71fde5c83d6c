// tf.lookup's table builders as TensorFlow 1.15's lookup_ops.py writes them: the scopes, node
// names, shared names and collections of StaticHashTableV1, its initializers and
// IdTableWithHashBuckets.
#include "builder/lookup_ops.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"

#include <cstdio>
#include <random>
#include <span>

namespace tstudio::lookup {

namespace {

namespace tf = tensorflow;

Expected<Output> stringConstant(GraphBuilder& b, const std::string& value, std::string_view name)
{
    TSTUDIO_AD_TRY(proto, makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&value, 1)));
    return ops::constant(b, proto, name);
}

Expected<Output> stringVector(GraphBuilder& b, const std::vector<std::string>& values, std::string_view name)
{
    TSTUDIO_AD_TRY(proto, makeStringTensorProto(TensorShape{static_cast<std::int64_t>(values.size())},
                                                std::span<const std::string>(values)));
    return ops::constant(b, proto, name);
}

/// Python's str(uuid.uuid4()): 32 random hex digits in groups 8-4-4-4-12, version 4, variant 10.
std::string uuid4()
{
    static std::mt19937_64 generator{std::random_device{}()};
    std::uint64_t high = generator();
    std::uint64_t low = generator();
    high = (high & ~0xF000ULL) | 0x4000ULL;
    low = (low & ~(0xC000ULL << 48)) | (0x8000ULL << 48);
    char text[40];
    std::snprintf(text, sizeof text, "%08llx-%04llx-%04llx-%04llx-%012llx", static_cast<unsigned long long>(high >> 32),
                  static_cast<unsigned long long>((high >> 16) & 0xFFFF),
                  static_cast<unsigned long long>(high & 0xFFFF), static_cast<unsigned long long>(low >> 48),
                  static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
    return text;
}

/// The dtype name Python prints in lookup_ops' errors ("string", "int64").
std::string pyName(DataType d)
{
    return dataTypeName(d);
}

/// math_ops.range(limit) for an int32 tensor limit: "range/start", "range/delta" and the Range "range".
Expected<Output> rangeTo(GraphBuilder& b, const Output& limit)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("range"));
    TSTUDIO_AD_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), limit.baseDtype(), "start"));
    TSTUDIO_AD_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), limit.baseDtype(), "delta"));
    return py::genOp(b, "Range", {start, limit, delta}, {}, scope.name());
}

/// The ids 0..size(vocabulary)-1 as int64: "Size", "range" and "Cast" in the current scope.
Expected<Output> positionsOf(GraphBuilder& b, const Output& vocabulary)
{
    TSTUDIO_AD_TRY(count, py::size(b, vocabulary));
    TSTUDIO_AD_TRY(positions, rangeTo(b, count));
    return py::cast(b, positions, tf::DT_INT64);
}

/// The default value constant of InitializableLookupTableBase ("Const").
Expected<Output> defaultConstant(GraphBuilder& b, DataType valueDtype, std::int64_t number, const std::string& text)
{
    if (valueDtype == tf::DT_STRING)
        return stringConstant(b, text, "Const");
    return ops::constantInts(b, {number}, TensorShape::scalar(), valueDtype, "Const");
}

/// StaticHashTableV1.__init__ in the current scope: the default "Const", then the HashTableV2
/// "hash_table" with `sharedName`. The initializer is added by the caller.
Expected<Table> hashTable(GraphBuilder& b, DataType keyDtype, DataType valueDtype, const std::string& sharedName,
                          std::int64_t defaultNumber, const std::string& defaultText)
{
    Table table;
    table.keyDtype = keyDtype;
    table.valueDtype = valueDtype;
    table.lookupKeyDtype = keyDtype;
    TSTUDIO_AD_TRY(fallback, defaultConstant(b, valueDtype, defaultNumber, defaultText));
    table.defaultValue = fallback;
    TSTUDIO_AD_TRY(op, b.op("HashTableV2", {},
                            {{"shared_name", attr::s(sharedName)},
                             {"key_dtype", attr::type(keyDtype)},
                             {"value_dtype", attr::type(valueDtype)}},
                            "hash_table"));
    table.handle = op.output(0);
    // StaticHashTable's name is the last part of its node's name.
    table.name = op.name().substr(op.name().rfind('/') + 1);
    return table;
}

/// TextFileInitializer.initialize in scope "table_init": "asset_filepath" and
/// InitializeTableFromTextFileV2, recorded in the table-initializer and asset collections.
Expected<Operation> initializeFromFile(GraphBuilder& b, const Table& table, const std::string& file,
                                       std::int64_t keyIndex, std::int64_t valueIndex,
                                       const std::optional<std::int64_t>& vocabSize, const std::string& delimiter)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("table_init"));
    TSTUDIO_AD_TRY(path, stringConstant(b, file, "asset_filepath"));
    TSTUDIO_AD_TRY(init, b.op("InitializeTableFromTextFileV2", {table.handle, path},
                              {{"key_index", attr::i(keyIndex)},
                               {"value_index", attr::i(valueIndex)},
                               {"vocab_size", attr::i(vocabSize.value_or(-1))},
                               {"delimiter", attr::s(delimiter)}}));
    b.collections().add(graph_keys::kTableInitializers, init);
    b.collections().add(graph_keys::kAssetFilepaths, path);
    return init;
}

/// KeyValueTensorInitializer.initialize in scope "table_init": LookupTableImportV2.
Expected<Operation> initializeFromTensors(GraphBuilder& b, const Table& table, const Output& keys, const Output& values)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("table_init"));
    TSTUDIO_AD_TRY(init, b.op("LookupTableImportV2", {table.handle, keys, values}));
    b.collections().add(graph_keys::kTableInitializers, init);
    return init;
}

/// TextFileInitializer's _shared_name.
std::string fileSharedName(const std::string& file, const std::optional<std::int64_t>& vocabSize, std::int64_t keyIndex,
                           std::int64_t valueIndex)
{
    std::string name = "hash_table_" + file + "_";
    if (vocabSize)
        name += std::to_string(*vocabSize) + "_";
    return name + std::to_string(keyIndex) + "_" + std::to_string(valueIndex);
}

Status checkOovAndKeys(std::int64_t numOovBuckets, DataType keyDtype)
{
    if (numOovBuckets < 0)
        return invalidArgumentError("num_oov_buckets must be greater or equal than 0, got " +
                                    std::to_string(numOovBuckets) + ".");
    if (!isInteger(keyDtype) && keyDtype != tf::DT_STRING)
        return invalidArgumentError("Only integer and string keys are supported.");
    return Status::ok();
}

/// IdTableWithHashBuckets around `table` (only when there are OOV buckets).
Table withBuckets(Table table, std::int64_t numOovBuckets, HasherSpec hasher, DataType lookupKeyDtype)
{
    table.numOovBuckets = numOovBuckets;
    table.hasher = hasher;
    table.lookupKeyDtype = lookupKeyDtype;
    return table;
}

/// HashTable.lookup: "<table>_Lookup/LookupTableFindV2" with the keys' shape.
Expected<Output> findValues(GraphBuilder& b, const Table& table, const Output& keys, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? table.name + "_Lookup" : std::string(name)));
    TSTUDIO_AD_TRY(values, py::genOp(b, "LookupTableFindV2", {table.handle, keys, table.defaultValue}));
    if (Status s = b.setShape(values, keys.shape()); !s.isOk())
        return unexpected(s);
    return values;
}

Expected<Output> tableSize(GraphBuilder& b, const Table& table, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? table.name + "_Size" : std::string(name)));
    return py::genOp(b, "LookupTableSizeV2", {table.handle});
}

Expected<Output> hashBuckets(GraphBuilder& b, const Table& table, const Output& values)
{
    Output strings = values;
    if (values.baseDtype() != tf::DT_STRING) {
        TSTUDIO_AD_TRY(asString, py::genOp(b, "AsString", {values}));
        strings = asString;
    }
    AttrMap attrs = {{"num_buckets", attr::i(table.numOovBuckets)}};
    const char* op = "StringToHashBucketFast";
    if (table.hasher.kind == HasherSpec::Kind::kStrong) {
        op = "StringToHashBucketStrong";
        attrs["key"] = attr::ints({table.hasher.key[0], table.hasher.key[1]});
    } else if (table.hasher.kind == HasherSpec::Kind::kLegacy) {
        op = "StringToHashBucket";
    }
    return py::genOp(b, op, {strings}, std::move(attrs), "hash_bucket");
}

} // namespace

Expected<Output> lookup(GraphBuilder& b, const Table& table, const Output& keys, std::string_view name)
{
    if (keys.baseDtype() != table.lookupKeyDtype)
        return unexpected(invalidArgumentError("Signature mismatch. Keys must be dtype " +
                                               pyName(table.lookupKeyDtype) + ", got " + pyName(keys.baseDtype()) +
                                               "."));
    Output values = keys;
    if (table.keyDtype == tf::DT_INT64) {
        TSTUDIO_AD_TRY(cast, py::cast(b, keys, tf::DT_INT64));
        values = cast;
    }
    if (table.numOovBuckets == 0)
        return findValues(b, table, values, name);
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? table.name + "_Lookup" : std::string(name)));
    TSTUDIO_AD_TRY(buckets, hashBuckets(b, table, values));
    TSTUDIO_AD_TRY(ids, findValues(b, table, values, {}));
    TSTUDIO_AD_TRY(count, tableSize(b, table, {}));
    TSTUDIO_AD_TRY(shifted, py::genOp(b, "Add", {buckets, count}));
    TSTUDIO_AD_TRY(known, py::genOp(b, "NotEqual", {ids, table.defaultValue}));
    return py::whereV2(b, known, ids, shifted);
}

Expected<Output> size(GraphBuilder& b, const Table& table, std::string_view name)
{
    if (table.numOovBuckets == 0)
        return tableSize(b, table, name);
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? table.name + "_Size" : std::string(name)));
    TSTUDIO_AD_TRY(count, tableSize(b, table, {}));
    return py::binary(b, py::Operator::kAdd, count, static_cast<double>(table.numOovBuckets));
}

Expected<Table> indexTableFromFile(GraphBuilder& b, const IndexTableFromFileOptions& options)
{
    if (options.vocabularyFile.empty())
        return unexpected(invalidArgumentError("vocabulary_file must be specified and must not be empty."));
    if (options.vocabSize && *options.vocabSize < 1)
        return unexpected(invalidArgumentError("vocab_size must be greater than 0, got " +
                                               std::to_string(*options.vocabSize) +
                                               ". vocabulary_file: " + options.vocabularyFile));
    if (Status s = checkOovAndKeys(options.numOovBuckets, options.keyDtype); !s.isOk())
        return unexpected(s);
    TSTUDIO_AD_TRY(outer, b.nameScope(options.name.empty() ? "string_to_index" : options.name));
    const DataType tableKey = isInteger(options.keyDtype) ? tf::DT_INT64 : options.keyDtype;
    Table table;
    {
        TSTUDIO_AD_TRY(inner, b.nameScope("hash_table"));
        TSTUDIO_AD_TRY(made, hashTable(b, tableKey, tf::DT_INT64,
                                       fileSharedName(options.vocabularyFile, options.vocabSize, options.keyColumnIndex,
                                                      options.valueColumnIndex),
                                       options.defaultValue, {}));
        table = std::move(made);
        TSTUDIO_AD_TRY(init, initializeFromFile(b, table, options.vocabularyFile, options.keyColumnIndex,
                                                options.valueColumnIndex, options.vocabSize, options.delimiter));
        table.initializer = init;
    }
    if (options.numOovBuckets > 0)
        return withBuckets(std::move(table), options.numOovBuckets, options.hasher, options.keyDtype);
    return table;
}

Expected<Table> indexTableFromTensor(GraphBuilder& b, const Output& vocabularyList, std::int64_t numOovBuckets,
                                     std::int64_t defaultValue, HasherSpec hasher, DataType dtype,
                                     std::string_view name)
{
    if (Status s = checkOovAndKeys(numOovBuckets, dtype); !s.isOk())
        return unexpected(s);
    const DataType vocabDtype = vocabularyList.baseDtype();
    if (isInteger(vocabDtype) != isInteger(dtype))
        return unexpected(invalidArgumentError(std::string("Expected ") +
                                               (isInteger(dtype) ? "integer" : "non-integer") + ", got " +
                                               pyName(vocabDtype) + "."));
    if (!isInteger(dtype) && vocabDtype != dtype)
        return unexpected(invalidArgumentError("Expected " + pyName(dtype) + ", got " + pyName(vocabDtype) + "."));
    TSTUDIO_AD_TRY(outer, b.nameScope(name.empty() ? "string_to_index" : name));
    TSTUDIO_AD_TRY(ids, positionsOf(b, vocabularyList));
    Table table;
    {
        TSTUDIO_AD_TRY(inner, b.nameScope("hash_table"));
        TSTUDIO_AD_TRY(keys, py::cast(b, vocabularyList, isInteger(vocabDtype) ? tf::DT_INT64 : vocabDtype));
        TSTUDIO_AD_TRY(made, hashTable(b, keys.baseDtype(), tf::DT_INT64, "hash_table_" + uuid4(), defaultValue, {}));
        table = std::move(made);
        TSTUDIO_AD_TRY(init, initializeFromTensors(b, table, keys, ids));
        table.initializer = init;
    }
    if (numOovBuckets > 0)
        return withBuckets(std::move(table), numOovBuckets, hasher, dtype);
    return table;
}

Expected<Table> indexTableFromTensor(GraphBuilder& b, const std::vector<std::string>& vocabulary,
                                     std::int64_t numOovBuckets, std::int64_t defaultValue, HasherSpec hasher,
                                     std::string_view name)
{
    // Python converts the list inside the function's scope, so the Const is "<scope>/Const".
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? "string_to_index" : name));
    TSTUDIO_AD_TRY(words, stringVector(b, vocabulary, "Const"));
    return indexTableFromTensor(b, words, numOovBuckets, defaultValue, hasher, tf::DT_STRING, scope.name());
}

Expected<Table> indexToStringTableFromFile(GraphBuilder& b, const IndexToStringTableFromFileOptions& options)
{
    if (options.vocabularyFile.empty())
        return unexpected(invalidArgumentError("vocabulary_file must be specified and must not be empty."));
    if (options.vocabSize && *options.vocabSize < 1)
        return unexpected(
            invalidArgumentError("vocab_size must be greater than 0, got " + std::to_string(*options.vocabSize) + "."));
    TSTUDIO_AD_TRY(scope, b.nameScope(options.name.empty() ? "index_to_string" : options.name));
    TSTUDIO_AD_TRY(table, hashTable(b, tf::DT_INT64, tf::DT_STRING,
                                    fileSharedName(options.vocabularyFile, options.vocabSize, options.keyColumnIndex,
                                                   options.valueColumnIndex),
                                    0, options.defaultValue));
    TSTUDIO_AD_TRY(init, initializeFromFile(b, table, options.vocabularyFile, options.keyColumnIndex,
                                            options.valueColumnIndex, options.vocabSize, options.delimiter));
    table.initializer = init;
    return table;
}

Expected<Table> indexToStringTableFromTensor(GraphBuilder& b, const Output& vocabularyList,
                                             std::string_view defaultValue, std::string_view name)
{
    if (vocabularyList.baseDtype() != tf::DT_STRING)
        return unexpected(
            invalidArgumentError("vocabulary_list must be string, got " + pyName(vocabularyList.baseDtype())));
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? "index_to_string" : name));
    TSTUDIO_AD_TRY(keys, positionsOf(b, vocabularyList));
    TSTUDIO_AD_TRY(table,
                   hashTable(b, tf::DT_INT64, tf::DT_STRING, "hash_table_" + uuid4(), 0, std::string(defaultValue)));
    TSTUDIO_AD_TRY(init, initializeFromTensors(b, table, keys, vocabularyList));
    table.initializer = init;
    return table;
}

Expected<Operation> tablesInitializer(GraphBuilder& b, std::string_view name)
{
    std::vector<Operation> initializers;
    for (const CollectionItem& item : b.collections().get(graph_keys::kTableInitializers)) {
        if (const auto* op = std::get_if<Operation>(&item))
            initializers.push_back(*op);
    }
    if (initializers.empty())
        return ops::noOp(b, name);
    return ops::group(b, initializers, name);
}

} // namespace tstudio::lookup
