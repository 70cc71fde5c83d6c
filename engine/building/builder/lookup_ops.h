// tf.lookup's graph-building API of TensorFlow 1.15 (lookup_ops.py): vocabulary tables from files
// and tensors, with out-of-vocabulary hash buckets, their lookups and tf.tables_initializer, built
// with TensorFlow's node names, shared names and collections.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::lookup {

/// TensorFlow's TextFileIndex: a column number, or the line number / the whole line.
inline constexpr std::int64_t kLineNumber = -1;
inline constexpr std::int64_t kWholeLine = -2;

/// tf.lookup's HasherSpec: which StringToHashBucket op gives out-of-vocabulary buckets.
struct HasherSpec {
    enum class Kind { kFast, kStrong, kLegacy };
    Kind kind = Kind::kFast;
    std::array<std::int64_t, 2> key{}; ///< StrongHashSpec's key

    static HasherSpec fast() { return {}; }
    static HasherSpec strong(std::int64_t k0, std::int64_t k1) { return {Kind::kStrong, {k0, k1}}; }
    static HasherSpec legacy() { return {Kind::kLegacy, {}}; }
};

/// A table as the Python objects hold it: a StaticHashTableV1 (HashTableV2 with an initializer and
/// a default value), possibly wrapped in an IdTableWithHashBuckets that sends missing keys to
/// num_oov_buckets buckets after the vocabulary.
struct Table {
    Output handle;         ///< the HashTableV2's resource handle
    Operation initializer; ///< the op filling it (also in the "table_initializer" collection)
    Output defaultValue;   ///< the Const default value
    DataType keyDtype = tensorflow::DT_STRING;
    DataType valueDtype = tensorflow::DT_INT64;
    /// The dtype lookup() takes (IdTableWithHashBuckets' key_dtype: int32 keys are cast to int64).
    DataType lookupKeyDtype = tensorflow::DT_STRING;
    /// The table's name for its ops' scopes: "hash_table" ("hash_table_Lookup", "hash_table_Size").
    std::string name;
    std::int64_t numOovBuckets = 0;
    HasherSpec hasher;
};

/// table.lookup(keys, name): without OOV buckets "<table>_Lookup/LookupTableFindV2" (values of the
/// keys' shape); with them, in the scope "<table>_Lookup", the bucket op "hash_bucket" (on
/// AsString of integer keys), the find "<table>_Lookup/LookupTableFindV2", "Add" of the table's
/// size ("<table>_Size/LookupTableSizeV2"), "NotEqual" to the default and "SelectV2" between the
/// id and the bucket. Integer keys for an int64 table are cast first ("Cast"). InvalidArgument
/// "Signature mismatch. Keys must be dtype string, got int64." for keys of another dtype.
Expected<Output> lookup(GraphBuilder& b, const Table& table, const Output& keys, std::string_view name = {});

/// table.size(): "<table>_Size/LookupTableSizeV2", plus "add" of num_oov_buckets when the table has them.
Expected<Output> size(GraphBuilder& b, const Table& table, std::string_view name = {});

/// The arguments of tf.lookup.index_table_from_file.
struct IndexTableFromFileOptions {
    std::string vocabularyFile;
    std::int64_t numOovBuckets = 0;
    std::optional<std::int64_t> vocabSize;
    std::int64_t defaultValue = -1;
    HasherSpec hasher;
    DataType keyDtype = tensorflow::DT_STRING; ///< string or an integer dtype
    std::string name;                          ///< default "string_to_index"
    std::int64_t keyColumnIndex = kWholeLine;
    std::int64_t valueColumnIndex = kLineNumber;
    std::string delimiter = "\t";
};

/// tf.lookup.index_table_from_file: in the scope "string_to_index" (or `name`), the scope
/// "hash_table" with the default "Const", the HashTableV2 "hash_table" (shared_name
/// "hash_table_<file>_<vocab_size>_<key column>_<value column>", vocab_size left out when not
/// given) and, in "table_init", the Const "asset_filepath" (the file, in the "asset_filepaths"
/// collection: a SavedModel feeds it its asset's path) and InitializeTableFromTextFileV2 (in the
/// "table_initializer" collection). InvalidArgument for an empty file name, negative
/// num_oov_buckets, vocab_size below 1, or keys neither string nor integer.
Expected<Table> indexTableFromFile(GraphBuilder& b, const IndexTableFromFileOptions& options);

/// tf.lookup.index_table_from_tensor(vocabulary_list, num_oov_buckets, default_value, hasher_spec,
/// dtype, name): in "string_to_index", "Size" and "range" of the vocabulary, "Cast" to int64 ids,
/// then in "hash_table" the default "Const", the HashTableV2 "hash_table" (shared_name
/// "hash_table_<uuid>", as TensorFlow makes one) and "table_init/LookupTableImportV2". Integer
/// vocabularies are cast to int64 ("hash_table/Cast"). Duplicate words fail when the initializer
/// runs.
Expected<Table> indexTableFromTensor(GraphBuilder& b, const Output& vocabularyList, std::int64_t numOovBuckets = 0,
                                     std::int64_t defaultValue = -1, HasherSpec hasher = {},
                                     DataType dtype = tensorflow::DT_STRING, std::string_view name = {});
/// As above with the words given as a list, made the Const "Const" of the scope as Python converts it.
Expected<Table> indexTableFromTensor(GraphBuilder& b, const std::vector<std::string>& vocabulary,
                                     std::int64_t numOovBuckets = 0, std::int64_t defaultValue = -1,
                                     HasherSpec hasher = {}, std::string_view name = {});

/// The arguments of tf.lookup.index_to_string_table_from_file.
struct IndexToStringTableFromFileOptions {
    std::string vocabularyFile;
    std::optional<std::int64_t> vocabSize;
    std::string defaultValue = "UNK";
    std::string name; ///< default "index_to_string"
    std::int64_t keyColumnIndex = kLineNumber;
    std::int64_t valueColumnIndex = kWholeLine;
    std::string delimiter = "\t";
};

/// tf.lookup.index_to_string_table_from_file: in "index_to_string", the default "Const", the
/// HashTableV2 "hash_table" and "table_init/asset_filepath" + "table_init/InitializeTableFromTextFileV2".
Expected<Table> indexToStringTableFromFile(GraphBuilder& b, const IndexToStringTableFromFileOptions& options);

/// tf.lookup.index_to_string_table_from_tensor(vocabulary_list, default_value, name): in
/// "index_to_string", "Size", "range", "Cast", the default "Const", "hash_table" and
/// "table_init/LookupTableImportV2".
Expected<Table> indexToStringTableFromTensor(GraphBuilder& b, const Output& vocabularyList,
                                             std::string_view defaultValue = "UNK", std::string_view name = {});

/// tf.tables_initializer(name): a NoOp "init_all_tables" with control inputs on every op of the
/// "table_initializer" collection (a plain NoOp when it is empty).
Expected<Operation> tablesInitializer(GraphBuilder& b, std::string_view name = "init_all_tables");

} // namespace tstudio::lookup
