// The save/restore subgraph of a tf.train.Saver (V2 checkpoints, sharded or not), built node for
// node as TensorFlow 1.x's BulkSaverBuilder builds it, and the SaverDef that describes it.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"
#include "proto/saver.pb.h"

#include <map>
#include <string>
#include <vector>

namespace tstudio {

/// What tf.train.Saver(...) takes that shapes its subgraph and its SaverDef.
struct SaverGraphOptions {
    /// The name scope of the subgraph (Saver's `name`); "" means "save". Made unique as any name
    /// scope ("save_1" for a second saver).
    std::string name;
    /// SaverDef.max_to_keep (0: keep every checkpoint's files; the state file lists the latest only).
    int maxToKeep = 5;
    /// SaverDef.keep_checkpoint_every_n_hours.
    float keepCheckpointEveryNHours = 10000.0f;
    /// The default value of the filename tensor (Saver's `filename`).
    std::string filename = "model";
    /// The filename tensor's layout. false (TensorFlow 1.15): "save/filename/input" (Const),
    /// "save/filename" (PlaceholderWithDefault) and "save/Const" (PlaceholderWithDefault of it).
    /// true (the older layout, e.g. TensorFlow 1.3 and 1.11): "save/Const" is a plain string Const.
    /// Either way SaverDef.filename_tensor_name is "save/Const:0" and can be fed.
    bool filenameAsConst = false;
    /// Saver's `sharded`: one SaveV2 per device into a temporary directory, merged by
    /// MergeV2Checkpoints (see buildSaverGraph). tf.train.Saver's default is false;
    /// tf.train.Scaffold's default saver (MonitoredTrainingSession's) uses true.
    bool sharded = false;
    /// The 32 hex digits of the sharded saver's temporary directory, "<prefix>_temp_<id>", which
    /// TensorFlow draws with uuid4 when the graph is built; empty: drawn at random likewise.
    std::string shardedTempId;
    /// Saver's reshape: a checkpoint value with the variable's number of elements but another
    /// shape is restored reshaped ("save/Reshape" before each Assign, which skips validate_shape).
    bool reshape = false;
};

/// Variables by the name their value has in checkpoints (Saver's var_list as a dict). The map is
/// ordered bytewise, which is the order TensorFlow sorts the saveables in.
using SaveableVariables = std::map<std::string, Variable>;

/// var_list as a list: each variable under its node name. InvalidArgument "At least two variables
/// have the same name: x" for a repeated name.
Expected<SaveableVariables> saveablesByName(const std::vector<Variable>& variables);

/// Adds the saver subgraph for `variables` to `b` and returns its SaverDef. The nodes, in
/// TensorFlow's order, under scope "save/" (see SaverGraphOptions::name):
///   the filename tensor "save/Const" (see SaverGraphOptions::filenameAsConst);
///   "save/SaveV2/tensor_names", "save/SaveV2/shape_and_slices" (string Consts: the names, "" each),
///   "save/SaveV2" (SaveV2 of every variable's ref, dtypes = their value types);
///   "save/control_dependency" (Identity of the filename, control input ^save/SaveV2, colocated
///   with save/Const): the save tensor, whose value is the prefix written;
///   on "/device:CPU:0": "save/RestoreV2/tensor_names", "save/RestoreV2/shape_and_slices" and one
///   "save/RestoreV2" reading every tensor (TensorFlow >= 1.5's bulk restore);
///   "save/Assign", "save/Assign_1", ... (Assign(variable, RestoreV2:i), validate_shape when the
///   variable's shape is fully defined, colocated with the variable);
///   "save/restore_all" (NoOp with a control input on every Assign).
/// SaverDef: filename_tensor_name "save/Const:0", save_tensor_name "save/control_dependency:0",
/// restore_op_name "save/restore_all", max_to_keep, keep_checkpoint_every_n_hours, version V2,
/// sharded false.
///
/// With options.sharded (BaseSaverBuilder._AddShardedSaveOpsForV2 and _AddShardedRestoreOps of
/// TensorFlow 1.15), the variables are grouped by the canonical name of their device, the groups
/// sorted by it, one shard each; after the filename tensor come
///   "save/StringJoin/inputs_1" (the suffix "_temp_<32 hex digits>/part") and "save/StringJoin"
///   (the prefix joined with it), "save/num_shards" (int32);
///   per shard i, on the shard's device with /device:CPU:0 as its device part:
///   "save/ShardedFilename/shard" (int32 i) and "save/ShardedFilename" ("<joined>-0000i-of-0000N"),
///   "save/SaveV2/tensor_names", "save/SaveV2/shape_and_slices", "save/SaveV2", and
///   "save/control_dependency" colocated with the ShardedFilename (suffixed _1, _2, ... after
///   the first shard);
///   after every shard's save, on the last shard's CPU: "save/MergeV2Checkpoints/checkpoint_prefixes"
///   (Pack of the ShardedFilenames), "save/MergeV2Checkpoints" (into the prefix,
///   delete_old_dirs true) and "save/Identity" (the prefix, after the merge): the save tensor;
///   per shard, on the shard's device: "save/RestoreV2..." on cpu:0, its Assigns and the group
///   "save/restore_shard" (_1, ...); "save/restore_all" groups those.
/// SaverDef: save_tensor_name "save/Identity:0", sharded true, the rest as above. A save writes
/// PREFIX_temp_<id>/part-0000i-of-0000N.{index,data-00000-of-00001}, then merges them into
/// PREFIX.index and PREFIX.data-0000i-of-0000N and removes the emptied temporary directory.
/// Errors (nothing is added to `b` for the first two): InvalidArgument "No variables to save" for
/// an empty map; "The same saveable will be restored with two names: x" when one variable appears
/// under two names; InvalidArgument for an empty name, for a variable whose device does not parse
/// and for a shardedTempId that is not 32 hex digits; GraphBuilder::op's errors (a variable of
/// another graph, ...).
Expected<tensorflow::SaverDef> buildSaverGraph(GraphBuilder& b, const SaveableVariables& variables,
                                               const SaverGraphOptions& options = {});

} // namespace tstudio
