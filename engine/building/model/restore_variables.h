// Restoring a session's variables from a checkpoint (V2, or V1) for a graph without a saver: every
// variable by name (what tf.train.Saver() with no arguments restores). Graphs with a SaverDef
// restore through it (model/saver.h).
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "proto/graph.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class Session;
class CheckpointReader;

/// True for the ops that hold a variable: Variable, VariableV2 (ref) and VarHandleOp (resource).
bool isVariableOp(std::string_view op);

/// The checkpoint key a saver subgraph restores into each variable: for every Assign (or
/// AssignVariableOp) whose value is output i of a RestoreV2 node (directly or through Identity
/// nodes), variable name -> element i of that RestoreV2's tensor_names Const; for a V1 saver's
/// Restore or RestoreSlice node, its tensor_name Const. Variables the graph restores no other way
/// are absent; so is anything that does not parse as expected.
std::map<std::string, std::string> saverCheckpointKeys(const tensorflow::GraphDef& graph);

/// The value a checkpoint holds for `variable` (a Variable, VariableV2 or VarHandleOp NodeDef):
/// the tensor named like the variable, else the one `saverKeys` (saverCheckpointKeys) maps it
/// to, checked against the variable's "dtype" and "shape" attrs. NotFound naming the variable,
/// the checkpoint and the keys tried; InvalidArgument naming the variable and both dtypes or
/// both shapes when they differ; the reader's errors.
Expected<Tensor> readVariableFromCheckpoint(const tensorflow::NodeDef& variable, const CheckpointReader& reader,
                                            const std::map<std::string, std::string>& saverKeys, Allocator& allocator);

struct RestoredVariables {
    std::vector<std::string> restored;        ///< variable names, in graph order
    std::vector<std::string> notInCheckpoint; ///< variables the checkpoint has no tensor for
};

/// Assigns every variable of the session's graph that the checkpoint at `prefix` (V2 or V1, see
/// CheckpointReader::open) holds (under
/// the variable's name, or the key the graph's saver subgraph uses) from that tensor, by adding
/// to the session a Placeholder and an Assign (ref variables) or AssignVariableOp (resource
/// variables) per variable under a fresh name scope ("restore_variables", "restore_variables_1",
/// ...) and running them with the checkpoint's tensors fed. Variables absent from the checkpoint
/// are left as they are and listed. Errors: FailedPrecondition when the session has no graph;
/// the checkpoint's errors (naming the file); InvalidArgument naming the variable and both
/// dtypes or shapes when the checkpoint's tensor does not fit the variable; the run's errors.
Expected<RestoredVariables> restoreVariablesByName(Session& session, const std::string& prefix);

} // namespace tstudio
