// Building blocks of the graphs TensorFlow 2 writes into SavedModels: call nodes, argument names,
// and the traced save and restore functions with their calls and SaverDef.
#pragma once

#include "framework/data_type.h"
#include "proto/graph.pb.h"
#include "proto/saver.pb.h"

#include <set>
#include <string>
#include <vector>

namespace tstudio {

/// Makes `node` a StatefulPartitionedCall of `function` with TensorFlow 2's attrs: f, Tin, Tout,
/// config, config_proto, executor_type, _read_only_resource_inputs (the positions of the resource
/// inputs) and _collective_manager_ids (empty). Inputs are the caller's to add.
void setStatefulCallAttrs(tensorflow::NodeDef& node, const std::string& function, const std::vector<DataType>& in,
                          const std::vector<DataType>& out);

/// Unique argument names within one function: take("x") gives "x", then "x_1", ... (each made a
/// valid argument name by functionArgName).
class FunctionArgNames {
public:
    std::string take(const std::string& wanted);

private:
    std::set<std::string> m_used;
};

/// One variable as the save and restore functions see it.
struct Tf2SaverVariable {
    std::string handle; ///< its VarHandleOp in the graph
    std::string key;    ///< its checkpoint key ("<path>/.ATTRIBUTES/VARIABLE_VALUE")
    DataType dtype = tensorflow::DT_INVALID;
};

/// Adds to `graph` what TensorFlow 2 saves and restores a SavedModel's variables with, and returns
/// the SaverDef naming it (V2):
///  - the Placeholder "saver_filename" (string scalar) and the Const "Const" holding
///    `checkpointObjectGraph` (the serialized TrackableObjectGraph);
///  - `saveFunction`(file_prefix, values..., object graph): SaveV2 of every value under its key and
///    the object graph under _CHECKPOINTABLE_OBJECT_GRAPH to file_prefix, returning file_prefix
///    after it; called by "StatefulPartitionedCall_<firstCall>" with "<handle>/Read/ReadVariableOp"
///    of each variable (the SaverDef's save tensor is its output 0);
///  - `restoreFunction`(file_prefix, handles...): RestoreV2 of the keys, each value through an
///    Identity into an AssignVariableOp (control outputs), returning file_prefix after a NoOp on
///    them; called by "StatefulPartitionedCall_<firstCall + 1>" (the SaverDef's restore op).
/// Both functions go into graph.library.
tensorflow::SaverDef addTf2SaverFunctions(tensorflow::GraphDef& graph, const std::vector<Tf2SaverVariable>& variables,
                                          const std::string& checkpointObjectGraph, const std::string& saveFunction,
                                          const std::string& restoreFunction, int firstCall);

} // namespace tstudio
