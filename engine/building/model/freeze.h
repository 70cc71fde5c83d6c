// Freezing a graph (TensorFlow's freeze_graph / convert_variables_to_constants): keep what the
// outputs need, turn the variables they read into constants holding a checkpoint's values.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tstudio {

struct FreezeOptions {
    /// Empty every NodeDef.device first, as freeze_graph's --clear_devices (default true) does.
    /// convert_variables_to_constants itself keeps them (but its Consts never carry one).
    bool clearDevices = true;
    /// variable_names_whitelist: when set, only these variables become constants.
    std::optional<std::set<std::string>> variableAllowlist;
    /// variable_names_blacklist: these variables stay variables.
    std::set<std::string> variableBlocklist;
    /// The graph's learning phase (builder/learning_phase.h: placeholder_with_default(True) that batch
    /// norm and dropout read) becomes a bool Const false, so that the frozen graph infers.
    bool learningPhaseFalse = true;
};

struct FrozenGraph {
    tensorflow::GraphDef graph;
    std::vector<std::string> frozenVariables; ///< node names, in graph order
    bool learningPhaseFixed = false;          ///< the learning phase was kept and made the Const false
};

/// extract_sub_graph: the nodes from which any of `outputNodes` can be reached, walking data
/// inputs, control inputs and colocation ("_class" "loc:@x") backwards, in their original order,
/// with the library and versions. InvalidArgument when `outputNodes` is empty, names a node that
/// is not in the graph ("output node 'y' is not in the graph"), or the graph itself is malformed
/// (Graph::fromGraphDef's errors). Colocation names of missing nodes are ignored.
Expected<tensorflow::GraphDef> extractSubGraph(const tensorflow::GraphDef& graph,
                                               const std::vector<std::string>& outputNodes);

/// Freezes `graph` for `outputNodes` (node names, not tensor names) with the values of the V2
/// checkpoint at `checkpointPrefix`, as freeze_graph + convert_variables_to_constants in
/// TensorFlow 1.15:
///  - pruned as extractSubGraph; devices cleared when options.clearDevices;
///  - every kept Variable / VariableV2 / VarHandleOp (subject to the allow/block lists) becomes a
///    Const of the same name with attrs dtype (the variable's) and value: the checkpoint tensor
///    under the variable's name, written as make_tensor_proto does (tensor_content for more than
///    one element of float, double, int8..int64, uint8, uint32, uint64 and the quantized types;
///    the typed field otherwise). No inputs, no device, no other attrs;
///  - ReadVariableOp of a frozen resource variable becomes Identity (first input, T = its dtype,
///    "_class" kept); Identity / control-flow nodes between it and the VarHandleOp keep their op
///    with T = that dtype and no "_output_shapes"; ResourceGather becomes GatherV2 with a
///    "<name>/axis" Const of 0;
///  - every other kept node is copied unchanged (so "x/read" stays an Identity of the Const);
///  - the graph's learning phase, when kept, becomes a bool Const false (options.learningPhaseFalse);
///  - the result has the nodes and the library, and no versions (as TensorFlow's).
/// When the checkpoint has no tensor of a variable's name, the key its saver subgraph restores
/// into the variable (RestoreV2 + Assign / AssignVariableOp) is used instead.
/// Errors: extractSubGraph's; the checkpoint's open/read errors (naming the file);
/// NotFound "variable 'w' is not in checkpoint 'PREFIX' (...)"; InvalidArgument naming the
/// variable, its dtype or shape and the checkpoint's when they differ; InvalidArgument "Cannot
/// find the variable that is an input to the ReadVariableOp" naming the node.
Expected<FrozenGraph> freezeGraph(const tensorflow::GraphDef& graph, const std::string& checkpointPrefix,
                                  const std::vector<std::string>& outputNodes, const FreezeOptions& options = {});

} // namespace tstudio
