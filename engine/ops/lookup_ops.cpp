// The lookup-table ops of TensorFlow 1.15 (lookup_ops.cc): the tables (HashTable,
// MutableHashTable, MutableHashTableOfTensors, MutableDenseHashTable; the V2 forms with resource
// handles, the V1 forms with Ref(string) handles), their access ops (Find, Insert, RemoveV2, Size,
// Export, Import) and initializers (InitializeTable, InitializeTableFromTextFile), with
// TensorFlow's names, attrs, defaults and shape functions.
#include "ops/op_families.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"

#include <string>
#include <vector>

namespace tstudio {

namespace {

using SIC = ShapeInferenceContext;

/// The handle input 0: a scalar resource (V2) or a [2] string ref (V1).
Status checkHandle(SIC& c, bool v2)
{
    if (v2) {
        auto handle = c.withRank(0, 0);
        return handle ? Status::ok() : handle.error();
    }
    auto handle = c.withRank(0, 1);
    if (!handle)
        return handle.error();
    if (auto d = SIC::withValue(handle->dim(0), 2); !d)
        return d.error();
    return Status::ok();
}

ShapeFunction handleOnly(bool v2)
{
    return [v2](SIC& c) { return checkHandle(c, v2); };
}

/// Find: the default value is a scalar or a vector; the values' shape depends on the table
/// (TensorFlow knows it only from handle data this engine does not carry): unknown.
ShapeFunction findShape(bool v2)
{
    return [v2](SIC& c) -> Status {
        if (Status s = checkHandle(c, v2); !s.isOk())
            return s;
        if (auto d = c.withRankAtMost(2, 1); !d)
            return d.error();
        return unknownShape(c);
    };
}

/// Size: a scalar count.
ShapeFunction sizeShape(bool v2)
{
    return [v2](SIC& c) -> Status {
        if (Status s = checkHandle(c, v2); !s.isOk())
            return s;
        return scalarShape(c);
    };
}

/// Export: keys a vector, values unknown (at least rank 1 in TensorFlow, which this engine
/// cannot say).
ShapeFunction exportShape(bool v2)
{
    return [v2](SIC& c) -> Status {
        if (Status s = checkHandle(c, v2); !s.isOk())
            return s;
        c.setOutput(0, TensorShape{TensorShape::kUnknownDim});
        c.setOutput(1, TensorShape::unknown());
        return Status::ok();
    };
}

/// InitializeTable and LookupTableImportV2: keys a vector, values the same shape.
ShapeFunction keysMatchValuesShape(bool v2)
{
    return [v2](SIC& c) -> Status {
        if (Status s = checkHandle(c, v2); !s.isOk())
            return s;
        auto keys = c.withRank(1, 1);
        if (!keys)
            return keys.error();
        if (auto merged = keys->merge(c.input(2)); !merged)
            return merged.error();
        return Status::ok();
    };
}

/// InitializeTableFromTextFile: the filename is a scalar.
ShapeFunction textFileShape(bool v2)
{
    return [v2](SIC& c) -> Status {
        if (Status s = checkHandle(c, v2); !s.isOk())
            return s;
        if (auto f = c.withRank(1, 0); !f)
            return f.error();
        return Status::ok();
    };
}

/// The V1 tables' handle, a [2] string ref.
Status twoElementOutput(SIC& c)
{
    c.setOutput(0, TensorShape{2});
    return Status::ok();
}

/// MutableDenseHashTableV2: the empty key is a scalar or a vector; a scalar handle.
Status denseTableShape(SIC& c)
{
    if (auto k = c.withRankAtMost(0, 1); !k)
        return k.error();
    if (auto shape = c.attrShape("value_shape"); !shape)
        return shape.error();
    return scalarShape(c);
}

/// MutableHashTableOfTensorsV2: value_shape must be a valid shape; a scalar handle.
Status tableOfTensorsShape(SIC& c)
{
    if (auto shape = c.attrShape("value_shape"); !shape)
        return shape.error();
    return scalarShape(c);
}

OpDefBuilder tableOp(const std::string& name, bool v2, std::string summary)
{
    OpDefBuilder op(name);
    op.summary(std::move(summary))
        .category(op_category::kState)
        .output(v2 ? "table_handle: resource" : "table_handle: Ref(string)")
        .attr("container: string = ''")
        .attr("shared_name: string = ''")
        .attr("use_node_name_sharing: bool = false")
        .attr("key_dtype: type")
        .attr("value_dtype: type")
        .setIsStateful()
        .doc("shared_name", "Tables of one shared_name are one table across the nodes of a session.")
        .doc("use_node_name_sharing", "Without a shared_name, share the table under the node's name.");
    return op;
}

/// An op taking a table handle as input 0.
OpDefBuilder accessOp(const std::string& name, bool v2, std::string summary)
{
    OpDefBuilder op(name);
    op.summary(std::move(summary))
        .category(op_category::kState)
        .input(v2 ? "table_handle: resource" : "table_handle: Ref(string)");
    return op;
}

struct LookupOp {
    OpDefBuilder def;
    ShapeFunction shape;
};

void addTables(std::vector<LookupOp>& ops)
{
    for (bool v2 : {false, true}) {
        const std::string suffix = v2 ? "V2" : "";
        ops.push_back({tableOp("HashTable" + suffix, v2,
                               "A hash table filled once by an initializer, then read-only (lookups before that "
                               "fail)."),
                       v2 ? ShapeFunction(scalarShape) : ShapeFunction(twoElementOutput)});
        ops.push_back({tableOp("MutableHashTable" + suffix, v2,
                               "A hash table of scalar values that LookupTableInsert and LookupTableRemoveV2 "
                               "change."),
                       v2 ? ShapeFunction(scalarShape) : ShapeFunction(twoElementOutput)});
        OpDefBuilder ofTensors = tableOp("MutableHashTableOfTensors" + suffix, v2,
                                         "A mutable hash table whose values are vectors of value_shape.");
        ofTensors.attr("value_shape: shape = {}");
        ops.push_back(
            {std::move(ofTensors), v2 ? ShapeFunction(tableOfTensorsShape) : ShapeFunction(twoElementOutput)});
        OpDefBuilder dense = tableOp("MutableDenseHashTable" + suffix, v2,
                                     "A mutable open-addressing hash table whose buckets are checkpointed as they "
                                     "are; empty_key marks free buckets and may not be used as a key.");
        dense.input("empty_key: key_dtype");
        if (v2)
            dense.input("deleted_key: key_dtype").doc("deleted_key", "Marks removed entries; may not be a key.");
        dense.attr("value_shape: shape = {}")
            .attr("initial_num_buckets: int = 131072")
            .attr("max_load_factor: float = 0.8")
            .doc("initial_num_buckets", "The starting number of buckets, a power of 2 of at least 4.")
            .doc("max_load_factor", "The share of full buckets (in (0, 1)) above which the table doubles.");
        ops.push_back({std::move(dense), v2 ? ShapeFunction(denseTableShape) : ShapeFunction(twoElementOutput)});
    }
}

void addAccess(std::vector<LookupOp>& ops)
{
    for (bool v2 : {false, true}) {
        const std::string suffix = v2 ? "V2" : "";
        {
            OpDefBuilder op = accessOp("LookupTableFind" + suffix, v2,
                                       "Looks keys up: one value per key, default_value for keys not in the table.");
            op.input("keys: Tin")
                .input("default_value: Tout")
                .output("values: Tout")
                .attr("Tin: type")
                .attr("Tout: type");
            ops.push_back({std::move(op), findShape(v2)});
        }
        {
            OpDefBuilder op = accessOp("LookupTableInsert" + suffix, v2,
                                       "Adds entries to a mutable table, replacing the values of keys already in it.");
            op.input("keys: Tin").input("values: Tout").attr("Tin: type").attr("Tout: type");
            ops.push_back({std::move(op), handleOnly(v2)});
        }
        {
            OpDefBuilder op = accessOp("LookupTableSize" + suffix, v2, "The number of entries of a table.");
            op.output("size: int64");
            ops.push_back({std::move(op), sizeShape(v2)});
        }
        {
            OpDefBuilder op = accessOp("LookupTableExport" + suffix, v2, "Every key and value of a table.");
            op.output("keys: Tkeys").output("values: Tvalues").attr("Tkeys: type").attr("Tvalues: type");
            ops.push_back({std::move(op), exportShape(v2)});
        }
        {
            OpDefBuilder op = accessOp("LookupTableImport" + suffix, v2,
                                       "Replaces a table's contents by the given keys and values (initializes a "
                                       "HashTable).");
            op.input("keys: Tin").input("values: Tout").attr("Tin: type").attr("Tout: type");
            ops.push_back({std::move(op), v2 ? keysMatchValuesShape(true) : handleOnly(false)});
        }
    }
    OpDefBuilder remove = accessOp("LookupTableRemoveV2", true,
                                   "Removes keys and their values from a mutable table; absent keys are ignored.");
    remove.input("keys: Tin").attr("Tin: type");
    ops.push_back({std::move(remove), [](SIC& c) -> Status {
                       if (Status s = checkHandle(c, true); !s.isOk())
                           return s;
                       if (auto k = c.withRankAtLeast(1, 1); !k)
                           return k.error();
                       return Status::ok();
                   }});
}

void addInitializers(std::vector<LookupOp>& ops)
{
    for (bool v2 : {false, true}) {
        const std::string suffix = v2 ? "V2" : "";
        {
            OpDefBuilder op = accessOp("InitializeTable" + suffix, v2,
                                       "Fills a table once from a key vector and a value vector of equal length.");
            op.input("keys: Tkey").input("values: Tval").attr("Tkey: type").attr("Tval: type");
            ops.push_back({std::move(op), keysMatchValuesShape(v2)});
        }
        {
            OpDefBuilder op = accessOp("InitializeTableFromTextFile" + suffix, v2,
                                       "Fills a table once from a text file, one entry per line.");
            op.input("filename: string")
                .attr("key_index: int >= -2")
                .attr("value_index: int >= -2")
                .attr("vocab_size: int >= -1 = -1")
                .attr("delimiter: string = '\\t'")
                .description("key_index and value_index pick a column of the line split at `delimiter` (from 0), "
                             "-1 the line number (int64, from 0) or -2 the whole line. A positive vocab_size reads "
                             "that many lines (the file must have them); -1 reads every line. A table already "
                             "initialized is left as it is.")
                .doc("filename", "The file's path, a scalar.");
            ops.push_back({std::move(op), textFileShape(v2)});
        }
    }
}

} // namespace

Status registerLookupOps(OpRegistry& registry)
{
    std::vector<LookupOp> ops;
    addTables(ops);
    addAccess(ops);
    addInitializers(ops);
    for (const LookupOp& op : ops) {
        if (Status s = registry.registerOp(op.def); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(op.def.opName(), op.shape); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
