// Restoring a TensorFlow 2 SavedModel's variables from its object-based checkpoint: each
// SavedVariable of the object graph found in the checkpoint's own object graph
// (_CHECKPOINTABLE_OBJECT_GRAPH) by its path, and assigned to the graph's VarHandleOp for it.
#pragma once

#include "core/expected.h"
#include "model/saved_object_graph.h"
#include "proto/trackable_object_graph.pb.h"

#include <string>
#include <vector>

namespace tstudio {

class CheckpointReader;
class Session;
struct ImportedMetaGraph;

/// The checkpoint key of TensorFlow 2's object graph.
inline constexpr std::string_view kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

/// The TrackableObjectGraph a checkpoint holds under kObjectGraphKey. Errors: NotFound "checkpoint
/// 'P' has no _CHECKPOINTABLE_OBJECT_GRAPH entry: it is not an object-based (TensorFlow 2)
/// checkpoint"; DataLoss naming the checkpoint when the entry is not a string scalar holding a
/// TrackableObjectGraph.
Expected<tensorflow::TrackableObjectGraph> readCheckpointObjectGraph(const CheckpointReader& reader);

/// The checkpoint key of the value of `variable`: its path walked through `checkpointGraph` from the
/// root by local names (a variable no path reaches, such as an optimizer's slot, by its node id,
/// which TensorFlow keeps the same in both graphs), then that object's "VARIABLE_VALUE" attribute.
/// NotFound naming the variable, its object graph node and path, and the checkpoint `prefix`.
Expected<std::string> variableCheckpointKey(const SavedObjectVariable& variable,
                                            const tensorflow::TrackableObjectGraph& checkpointGraph,
                                            const std::string& prefix);

struct ObjectGraphRestoreResult {
    std::vector<std::string> restored; ///< "<variable name> <- <checkpoint key>", in object graph order
    /// Variables of the object graph that no node of the graph holds (nothing to assign to).
    std::vector<std::string> withoutHandle;
};

/// Restores every variable of `info` that the graph holds into the session holding `imported`'s
/// graph (the others, such as optimizer slots, are listed in withoutHandle). The graph's
/// handle of a variable is found as TensorFlow's loader binds captures: for each call node of the
/// graph whose function has bound_inputs in the object graph, its last inputs are the handles of
/// those objects; else a VarHandleOp whose shared_name is the variable's name. Values are read from
/// the checkpoint at `prefix` (keys from variableCheckpointKey), checked against the SavedVariable's
/// dtype and shape, and assigned by AssignVariableOp nodes added to the session under a fresh scope
/// ("restore_objects", "restore_objects_1", ...), fed by Placeholders. Errors: the reader's;
/// readCheckpointObjectGraph's and variableCheckpointKey's; NotFound "variable 'dense/kernel'
/// (object graph node 5, path 'layer_with_weights-0/kernel'): key '...' is missing from checkpoint
/// 'P'"; InvalidArgument naming variable, key and both dtypes or shapes; the run's errors.
Expected<ObjectGraphRestoreResult> restoreObjectGraphVariables(Session& session, const ImportedMetaGraph& imported,
                                                               const tensorflow::SavedObjectGraph& objectGraph,
                                                               const SavedObjectGraphInfo& info,
                                                               const std::string& prefix);

} // namespace tstudio
