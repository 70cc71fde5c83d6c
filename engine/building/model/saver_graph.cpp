// Building the save/restore subgraph of a tf.train.Saver with the GraphBuilder.
#include "model/saver_graph.h"

#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "framework/device_name.h"

#include <random>
#include <set>

namespace tstudio {
namespace {

/// A string Const named `name` (in the current scope) holding `values` as a vector, or a scalar
/// when `scalar`.
Expected<Output> stringConst(GraphBuilder& b, const std::vector<std::string>& values, bool scalar,
                             std::string_view name)
{
    const TensorShape shape = scalar ? TensorShape::scalar() : TensorShape{static_cast<std::int64_t>(values.size())};
    auto proto = makeStringTensorProto(shape, values);
    if (!proto)
        return unexpected(proto.error());
    return ops::constant(b, *proto, name);
}

Expected<Output> firstOutput(const Expected<Operation>& op)
{
    if (!op)
        return unexpected(op.error());
    return op->output(0);
}

/// array_ops.placeholder_with_default(input, shape=()) named `name`.
Expected<Output> scalarPlaceholderWithDefault(GraphBuilder& b, const Output& input, std::string_view name)
{
    return firstOutput(b.op("PlaceholderWithDefault", {input}, {{"shape", attr::shape(TensorShape::scalar())}}, name));
}

/// The filename tensor, "save/Const" in either layout (see SaverGraphOptions::filenameAsConst).
Expected<Output> filenameTensor(GraphBuilder& b, const SaverGraphOptions& options)
{
    const std::string filename = options.filename.empty() ? "model" : options.filename;
    if (options.filenameAsConst)
        return stringConst(b, {filename}, true, "Const");
    Output withDefault;
    {
        // placeholder_with_default("model", name="filename") turns the literal into the Const
        // "filename/input" inside the op's own scope, then names the op after the scope.
        auto scope = b.nameScope("filename");
        if (!scope)
            return unexpected(scope.error());
        auto literal = stringConst(b, {filename}, true, "input");
        if (!literal)
            return unexpected(literal.error());
        auto placeholder = scalarPlaceholderWithDefault(b, *literal, scope->name());
        if (!placeholder)
            return unexpected(placeholder.error());
        withDefault = *placeholder;
    }
    // Kept under the name "Const" so that feeds of "save/Const:0" written for older graphs work.
    return scalarPlaceholderWithDefault(b, withDefault, "Const");
}

/// The string Consts "tensor_names" and "shape_and_slices" and the op `type` named after the
/// scope `type` (how op_def_library converts list arguments of gen_io_ops.save_v2 / restore_v2).
Expected<Operation> ioOp(GraphBuilder& b, std::string_view type, const Output& prefix,
                         const std::vector<std::string>& names, std::vector<OpInput> extraInputs, AttrMap attrs)
{
    auto scope = b.nameScope(type);
    if (!scope)
        return unexpected(scope.error());
    auto namesT = stringConst(b, names, false, "tensor_names");
    if (!namesT)
        return unexpected(namesT.error());
    auto slices = stringConst(b, std::vector<std::string>(names.size()), false, "shape_and_slices");
    if (!slices)
        return unexpected(slices.error());
    std::vector<OpInput> inputs{prefix, *namesT, *slices};
    for (OpInput& in : extraInputs)
        inputs.push_back(std::move(in));
    return b.op(type, std::move(inputs), std::move(attrs), scope->name());
}

/// BulkSaverBuilder.bulk_restore: one RestoreV2 of every tensor, read onto the CPU whatever the
/// variables' devices.
Expected<Operation> restoreOnCpu(GraphBuilder& b, const Output& prefix, const std::vector<std::string>& names,
                                 const std::vector<DataType>& dtypes)
{
    auto cpu = b.device("cpu:0");
    if (!cpu)
        return unexpected(cpu.error());
    return ioOp(b, "RestoreV2", prefix, names, {}, {{"dtypes", attr::types(dtypes)}});
}

/// control_flow_ops.with_dependencies([op], tensor): an Identity of `tensor`, colocated with it,
/// that runs after `op`, named "control_dependency".
Expected<Output> withDependency(GraphBuilder& b, const Operation& op, const Output& tensor)
{
    auto scope = b.nameScope("control_dependency");
    if (!scope)
        return unexpected(scope.error());
    auto producer = b.operation(tensor.node());
    if (!producer)
        return unexpected(producer.error());
    auto colocated = b.colocateWith(*producer);
    auto controls = b.controlDependencies({op});
    return ops::identity(b, tensor, scope->name());
}

/// One variable to save: its checkpoint name and the variable.
struct Saveable {
    std::string name;
    Variable variable;
};

/// Saver's reshape: the restored value reshaped to the variable's shape (a Const "Reshape/shape"
/// when the shape is fully defined, else the variable's Shape taken first), as
/// ReferenceVariableSaveable.restore does with restored_shapes.
Expected<Output> reshapedToVariable(GraphBuilder& b, const Variable& variable, const Output& value)
{
    std::optional<Output> shape;
    if (!variable.shape().isFullyDefined()) {
        auto dynamic = b.op("Shape", {variable.ref()}, {{"out_type", attr::type(tensorflow::DT_INT32)}}, "Shape");
        if (!dynamic)
            return unexpected(dynamic.error());
        shape = dynamic->output(0);
    }
    auto scope = b.nameScope("Reshape");
    if (!scope)
        return unexpected(scope.error());
    if (!shape) {
        auto dims = variable.shape().dims();
        auto constant = ops::constantInts(b, std::vector<std::int64_t>(dims.begin(), dims.end()),
                                          TensorShape{static_cast<std::int64_t>(dims.size())}, tensorflow::DT_INT32,
                                          "shape");
        if (!constant)
            return unexpected(constant.error());
        shape = *constant;
    }
    auto reshaped = b.op("Reshape", {value, *shape}, {}, scope->name());
    if (!reshaped)
        return unexpected(reshaped.error());
    return reshaped->output(0);
}

/// The Assigns of `saveables` from `restore`'s outputs, in order; with `reshape`, each value is
/// reshaped to its variable's shape first and assigned without validate_shape.
Expected<std::vector<Operation>> assignsFrom(GraphBuilder& b, const Operation& restore,
                                             const std::vector<Saveable>& saveables, bool reshape)
{
    std::vector<Operation> assigns;
    for (std::size_t i = 0; i < saveables.size(); ++i) {
        const Variable& variable = saveables[i].variable;
        Output value = restore.output(static_cast<int>(i));
        if (reshape) {
            auto reshaped = reshapedToVariable(b, variable, value);
            if (!reshaped)
                return unexpected(reshaped.error());
            value = *reshaped;
        }
        auto assign = b.op("Assign", {variable.ref(), value},
                           {{"validate_shape", attr::b(!reshape && variable.shape().isFullyDefined())}}, "Assign");
        if (!assign)
            return unexpected(assign.error());
        assigns.push_back(*assign);
    }
    return assigns;
}

/// A uuid4's 32 lowercase hex digits, as Python's uuid.uuid4().hex.
std::string randomHexId()
{
    std::random_device seed;
    std::mt19937_64 generator((static_cast<std::uint64_t>(seed()) << 32) ^ seed());
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 32; ++i)
        id.push_back(kDigits[generator() % 16]);
    return id;
}

/// saveable_object_util.set_cpu0: the device with /device:CPU:0 as its device part.
std::string onCpu0(const DeviceName& device)
{
    DeviceName cpu = device;
    cpu.type = "CPU";
    cpu.id = 0;
    return cpu.toString();
}

/// BaseSaverBuilder._GroupByDevices: saveables by the canonical name of their variable's device,
/// sorted by it; within a group in name order.
Expected<std::vector<std::pair<DeviceName, std::vector<Saveable>>>>
groupByDevice(GraphBuilder& b, const std::vector<Saveable>& saveables)
{
    std::map<std::string, std::pair<DeviceName, std::vector<Saveable>>> groups;
    for (const Saveable& saveable : saveables) {
        const tensorflow::NodeDef* node = b.findNode(saveable.variable.name());
        const std::string device = node ? node->device() : std::string();
        auto parsed = parseDeviceName(device);
        if (!parsed)
            return unexpected(
                invalidArgumentError("variable '" + saveable.variable.name() + "': " + parsed.error().message()));
        auto& group = groups[parsed->toString()];
        group.first = *parsed;
        group.second.push_back(saveable);
    }
    std::vector<std::pair<DeviceName, std::vector<Saveable>>> sorted;
    for (auto& [name, group] : groups)
        sorted.push_back(std::move(group));
    return sorted;
}

/// _AddShardedSaveOpsForV2: the save tensor "Identity".
Expected<Output> shardedSave(GraphBuilder& b, const Output& prefix,
                             const std::vector<std::pair<DeviceName, std::vector<Saveable>>>& shards,
                             const std::string& tempId)
{
    Output joined;
    {
        auto scope = b.nameScope("StringJoin");
        if (!scope)
            return unexpected(scope.error());
        auto suffix = stringConst(b, {"_temp_" + tempId + "/part"}, true, "inputs_1");
        if (!suffix)
            return unexpected(suffix.error());
        auto join = firstOutput(b.op("StringJoin", {OpInput(std::vector<Output>{prefix, *suffix})}, {}, scope->name()));
        if (!join)
            return unexpected(join.error());
        joined = *join;
    }
    auto numShards = ops::constantInts(b, {static_cast<std::int64_t>(shards.size())}, TensorShape::scalar(),
                                       tensorflow::DT_INT32, "num_shards");
    if (!numShards)
        return unexpected(numShards.error());
    std::vector<Output> partPrefixes;
    std::vector<Operation> saves;
    for (std::size_t shard = 0; shard < shards.size(); ++shard) {
        auto placed = b.device(onCpu0(shards[shard].first));
        if (!placed)
            return unexpected(placed.error());
        Output filename;
        {
            auto scope = b.nameScope("ShardedFilename");
            if (!scope)
                return unexpected(scope.error());
            auto index = ops::constantInts(b, {static_cast<std::int64_t>(shard)}, TensorShape::scalar(),
                                           tensorflow::DT_INT32, "shard");
            if (!index)
                return unexpected(index.error());
            auto name = firstOutput(b.op("ShardedFilename", {joined, *index, *numShards}, {}, scope->name()));
            if (!name)
                return unexpected(name.error());
            filename = *name;
        }
        std::vector<std::string> names;
        std::vector<Output> refs;
        for (const Saveable& saveable : shards[shard].second) {
            names.push_back(saveable.name);
            refs.push_back(saveable.variable.ref());
        }
        auto save = ioOp(b, "SaveV2", filename, names, {OpInput(refs)}, {});
        if (!save)
            return unexpected(save.error());
        auto saved = withDependency(b, *save, filename);
        if (!saved)
            return unexpected(saved.error());
        auto savedOp = b.operation(saved->node());
        if (!savedOp)
            return unexpected(savedOp.error());
        partPrefixes.push_back(filename);
        saves.push_back(*savedOp);
    }
    // After every shard's save, on the last shard's CPU: merge, then return the prefix.
    auto afterSaves = b.controlDependencies(saves);
    auto placed = b.device(onCpu0(shards.back().first));
    if (!placed)
        return unexpected(placed.error());
    Expected<Operation> merge = unexpected(internalError("unset"));
    {
        auto scope = b.nameScope("MergeV2Checkpoints");
        if (!scope)
            return unexpected(scope.error());
        auto packed = firstOutput(b.op("Pack", {OpInput(partPrefixes)}, {}, "checkpoint_prefixes"));
        if (!packed)
            return unexpected(packed.error());
        merge = b.op("MergeV2Checkpoints", {*packed, prefix}, {{"delete_old_dirs", attr::b(true)}}, scope->name());
        if (!merge)
            return unexpected(merge.error());
    }
    auto afterMerge = b.controlDependencies({*merge});
    return ops::identity(b, prefix, "Identity");
}

/// _AddShardedRestoreOps: per shard, on its device, a bulk restore and the group "restore_shard";
/// "restore_all" groups the shards.
Expected<Operation> shardedRestore(GraphBuilder& b, const Output& prefix,
                                   const std::vector<std::pair<DeviceName, std::vector<Saveable>>>& shards,
                                   bool reshape)
{
    std::vector<Operation> restores;
    for (const auto& [device, saveables] : shards) {
        auto placed = b.device(device.toString());
        if (!placed)
            return unexpected(placed.error());
        std::vector<std::string> names;
        std::vector<DataType> dtypes;
        for (const Saveable& saveable : saveables) {
            names.push_back(saveable.name);
            dtypes.push_back(saveable.variable.dtype());
        }
        auto restore = restoreOnCpu(b, prefix, names, dtypes);
        if (!restore)
            return unexpected(restore.error());
        auto assigns = assignsFrom(b, *restore, saveables, reshape);
        if (!assigns)
            return unexpected(assigns.error());
        auto shard = ops::group(b, *assigns, "restore_shard");
        if (!shard)
            return unexpected(shard.error());
        restores.push_back(*shard);
    }
    return ops::group(b, restores, "restore_all");
}

} // namespace

Expected<SaveableVariables> saveablesByName(const std::vector<Variable>& variables)
{
    SaveableVariables byName;
    for (const Variable& v : variables) {
        if (!byName.emplace(v.name(), v).second)
            return unexpected(invalidArgumentError("At least two variables have the same name: " + v.name()));
    }
    return byName;
}

Expected<tensorflow::SaverDef> buildSaverGraph(GraphBuilder& b, const SaveableVariables& variables,
                                               const SaverGraphOptions& options)
{
    if (variables.empty())
        return unexpected(invalidArgumentError("No variables to save"));
    std::set<std::string> seen;
    std::vector<Saveable> saveables;
    for (const auto& [name, variable] : variables) {
        if (name.empty())
            return unexpected(invalidArgumentError("the checkpoint name of variable '" + variable.name() +
                                                   "' is empty; every saved tensor needs a name"));
        if (!variable.isValid())
            return unexpected(invalidArgumentError("the variable to save as '" + name + "' is not a variable"));
        if (!seen.insert(variable.name()).second)
            return unexpected(invalidArgumentError("The same saveable will be restored with two names: " + name));
        saveables.push_back({name, variable});
    }
    std::string tempId = options.shardedTempId;
    if (options.sharded) {
        if (tempId.empty())
            tempId = randomHexId();
        if (tempId.size() != 32 || tempId.find_first_not_of("0123456789abcdef") != std::string::npos)
            return unexpected(invalidArgumentError("the sharded saver's temporary-directory id must be 32 lowercase "
                                                   "hex digits (a uuid4's hex), got '" +
                                                   tempId + "'"));
    }
    std::vector<std::pair<DeviceName, std::vector<Saveable>>> shards;
    if (options.sharded) {
        auto grouped = groupByDevice(b, saveables);
        if (!grouped)
            return unexpected(grouped.error());
        shards = std::move(*grouped);
    }

    auto scope = b.nameScope(options.name.empty() ? "save" : options.name);
    if (!scope)
        return unexpected(scope.error());
    auto filename = filenameTensor(b, options);
    if (!filename)
        return unexpected(filename.error());

    Expected<Output> saveTensor = unexpected(internalError("unset"));
    Expected<Operation> restoreAll = unexpected(internalError("unset"));
    if (options.sharded) {
        saveTensor = shardedSave(b, *filename, shards, tempId);
        if (!saveTensor)
            return unexpected(saveTensor.error());
        restoreAll = shardedRestore(b, *filename, shards, options.reshape);
    } else {
        std::vector<std::string> names;
        std::vector<Output> refs;
        std::vector<DataType> dtypes;
        for (const Saveable& saveable : saveables) {
            names.push_back(saveable.name);
            refs.push_back(saveable.variable.ref());
            dtypes.push_back(saveable.variable.dtype());
        }
        auto save = ioOp(b, "SaveV2", *filename, names, {OpInput(refs)}, {});
        if (!save)
            return unexpected(save.error());
        saveTensor = withDependency(b, *save, *filename);
        if (!saveTensor)
            return unexpected(saveTensor.error());
        auto restore = restoreOnCpu(b, *filename, names, dtypes);
        if (!restore)
            return unexpected(restore.error());
        auto assigns = assignsFrom(b, *restore, saveables, options.reshape);
        if (!assigns)
            return unexpected(assigns.error());
        restoreAll = ops::group(b, *assigns, "restore_all");
    }
    if (!restoreAll)
        return unexpected(restoreAll.error());

    tensorflow::SaverDef def;
    def.set_filename_tensor_name(filename->name());
    def.set_save_tensor_name(saveTensor->name());
    def.set_restore_op_name(restoreAll->name());
    def.set_max_to_keep(options.maxToKeep);
    def.set_sharded(options.sharded);
    def.set_keep_checkpoint_every_n_hours(options.keepCheckpointEveryNHours);
    def.set_version(tensorflow::SaverDef::V2);
    return def;
}

} // namespace tstudio
