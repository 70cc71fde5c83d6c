// Writing a model in TensorFlow 2's SavedModel layout (tf.saved_model.save / Keras model.save):
// the computation as library functions called through StatefulPartitionedCall, resource variables,
// an object graph, and an object-based checkpoint.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

class OpRegistry;
struct SessionOptions;

/// A variable of the model and its place in the object tree.
struct Tf2SavedVariable {
    std::string node; ///< its node in the forward graph (VariableV2, Variable or VarHandleOp)
    /// Local names from the root object ({"layer_with_weights-0", "kernel"}); the last one names
    /// the variable inside its parent, which is the root or an object of Tf2SavedModelSpec::objects.
    std::vector<std::string> path;
    Tensor value; ///< written to the checkpoint; dtype and shape must match the node's attrs
    bool trainable = true;
};

/// An object of the tree that is not a variable (a Keras layer, a tf.Module).
struct Tf2SavedObject {
    std::vector<std::string> path;
    std::string identifier; ///< SavedUserObject.identifier: "_tf_keras_layer", "_generic_user_object"
    /// Further paths to the same object (Keras lists a layer as "layer-0" and "layer_with_weights-0").
    std::vector<std::vector<std::string>> aliases;
};

/// One signature: its inputs are Placeholders of the forward graph, its outputs graph tensors.
struct Tf2SavedSignature {
    std::string key = "serving_default";
    std::vector<std::pair<std::string, std::string>> inputs;  ///< input key -> Placeholder node
    std::vector<std::pair<std::string, std::string>> outputs; ///< output key -> tensor ("node:k")
};

/// What writeTf2SavedModel saves.
struct Tf2SavedModelSpec {
    /// The forward computation, as GraphBuilder builds it (ref or resource variables, Placeholders).
    tensorflow::GraphDef graph;
    std::string rootIdentifier = "_generic_user_object"; ///< "_tf_keras_sequential" for Keras
    std::vector<Tf2SavedObject> objects;
    std::vector<Tf2SavedVariable> variables;
    std::vector<Tf2SavedSignature> signatures;
    /// The root's tf.function child whose concrete functions are the signatures' bodies.
    std::string callName = "__call__";
    std::vector<std::string> tags{"serve"};
};

/// What tf2MetaGraph makes.
struct Tf2MetaGraph {
    tensorflow::MetaGraphDef metaGraph;
    std::string checkpointObjectGraph; ///< serialized TrackableObjectGraph
};

/// The MetaGraphDef TensorFlow 2 writes for `spec` (ops from `ops`), with the serialized
/// TrackableObjectGraph the checkpoint holds under _CHECKPOINTABLE_OBJECT_GRAPH:
///  - graph_def: per signature a Placeholder "<key>_<input>" (serving_default_dense_input) and a
///    StatefulPartitionedCall of "__inference_signature_wrapper_<n>", which calls the body
///    "__inference_<callName>_<n>" (the forward graph between the inputs and outputs, reading its
///    variables through ReadVariableOp of resource arguments) through another
///    StatefulPartitionedCall; one VarHandleOp per variable (named as the variable node,
///    shared_name the same) passed as captured inputs; "saver_filename", the object graph "Const",
///    the save call "StatefulPartitionedCall_<k>" (SaveV2 in "__inference__traced_save_<n>") and the
///    restore call "StatefulPartitionedCall_<k+1>" (RestoreV2 and AssignVariableOp in
///    "__inference__traced_restore_<n>"); "NoOp" as init op;
///  - saver_def {filename_tensor_name "saver_filename:0", save_tensor_name, restore_op_name, V2};
///  - signature_def: each signature (outputs "StatefulPartitionedCall:i" in output-key order) and
///    "__saved_model_init_op";
///  - object_graph_def: root, objects and variables (ids as in the checkpoint's object graph), then
///    the "signatures" map with one bare concrete function per signature and the root's
///    tf.function callName; concrete_functions with bound_inputs (the variables captured) and
///    input/output signatures (TensorSpecs).
/// Errors (InvalidArgument unless said): a path whose parent is not an object or the root, or two
/// objects on one path; a variable node missing or not a variable, or whose value does not fit;
/// a signature without outputs, an input that is not a Placeholder; functionFromGraph's.
Expected<Tf2MetaGraph> tf2MetaGraph(const Tf2SavedModelSpec& spec, const OpRegistry& ops);

/// Saves `spec` as a TensorFlow 2 SavedModel in `dir` (which must not exist or be empty):
/// saved_model.pb holding tf2MetaGraph's MetaGraphDef, and variables/variables.{index,
/// data-00000-of-00001} written by running the MetaGraph's own save function in a Session made
/// with `sessionOptions` (each VarHandleOp first assigned its value), as TensorFlow writes them:
/// keys "<path>/.ATTRIBUTES/VARIABLE_VALUE" and _CHECKPOINTABLE_OBJECT_GRAPH. The directory
/// appears whole or not at all (saveSavedModel). Errors: tf2MetaGraph's, the session's,
/// saveSavedModel's.
Status writeTf2SavedModel(const std::filesystem::path& dir, const Tf2SavedModelSpec& spec,
                          const SessionOptions& sessionOptions);

} // namespace tstudio
