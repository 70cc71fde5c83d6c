// The object graph of a TensorFlow 2 SavedModel (MetaGraphDef.object_graph_def): its objects by
// path, its variables, its tf.functions and signatures, checked against the graph's library.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "proto/meta_graph.pb.h"
#include "proto/struct.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// A SavedVariable of the object graph.
struct SavedObjectVariable {
    int nodeId = -1;
    /// The local names from the root to the variable along the first path a breadth-first walk of
    /// the children finds (the path TensorFlow's checkpoint keys are made of); empty for a variable
    /// no child edge reaches (an optimizer's slot variable).
    std::vector<std::string> path;
    std::string name; ///< SavedVariable.name, e.g. "dense/kernel"
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape shape;
    bool trainable = false;
};

/// One concrete function of a tf.function (or of a signature) of the object graph.
struct SavedConcreteFunctionInfo {
    std::string function;         ///< the FunctionDef's name in the graph's library
    std::vector<int> boundInputs; ///< object graph node ids of the captured inputs (variables), in order
    /// The arguments as saved_model_cli lists them under "Callable with:": one entry per positional
    /// ("Argument #1") or keyword ("Named Argument #1") argument, each with its lines
    /// ("dense_input: TensorSpec(shape=(None, 5), dtype=tf.float32, name='dense_input')", or
    /// "DType: bool" and "Value: False").
    std::vector<std::pair<std::string, std::vector<std::string>>> arguments;
    std::string outputSignature; ///< output_signature in Python's repr ("" when absent)
};

/// A function object of the object graph: a tf.function (SavedFunction) or a bare concrete function.
struct SavedObjectFunction {
    int nodeId = -1;
    std::string path; ///< "__call__", "signatures/serving_default"
    std::vector<SavedConcreteFunctionInfo> concreteFunctions;
};

/// What readSavedObjectGraph found.
struct SavedObjectGraphInfo {
    int nodeCount = 0;
    /// Per node id: its first path from the root, '/'-joined ("" for the root; "<unreachable>" for a
    /// node no path reaches).
    std::vector<std::string> paths;
    std::vector<SavedObjectVariable> variables;
    /// Functions reachable from the root, in path order; the root's own tf.functions first.
    std::vector<SavedObjectFunction> functions;
    /// The root's "signatures" map: signature key -> concrete function name.
    std::map<std::string, std::string> signatureFunctions;
};

/// True when `meta` carries an object graph (a TensorFlow 2 SavedModel).
bool hasObjectGraph(const tensorflow::MetaGraphDef& meta);

/// Reads meta.object_graph_def and checks it: every node id it refers to (children, dependencies,
/// slot variables, bound inputs) is in range, every concrete function it names is in
/// concrete_functions or the graph's function library, and each SignatureDef output computed by a
/// (Stateful)PartitionedCall calls a function of the library. `file` names the SavedModel file in
/// errors. Errors: InvalidArgument "SavedModel 'D/saved_model.pb': object graph node 1 has child
/// 'kernel' with node id 42, but the object graph has 7 nodes";
/// NotFound "... signature 'serving_default' (output 'dense_1') is computed by node
/// 'StatefulPartitionedCall', which calls function 'f', but the graph's function library has no
/// function of that name"; NotFound for a concrete function named by the object graph and missing
/// from the library. A MetaGraphDef without an object graph gives an empty result.
Expected<SavedObjectGraphInfo> readSavedObjectGraph(const tensorflow::MetaGraphDef& meta, std::string_view file);

/// A StructuredValue as Python's repr prints the value it stands for: None, True, 3, 'text',
/// (a, b), [a], {'k': v}, TensorSpec(shape=(None, 5), dtype=tf.float32, name='x'), tf.float32,
/// TensorShape([None, 5]), Name(a=1).
std::string structuredValueRepr(const tensorflow::StructuredValue& value);

/// "tf.float32", "tf.int64", ... (TensorFlow's Python name of a dtype).
std::string pythonDtypeName(DataType dtype);

/// The checkpoint key of `name` in an object's attributes: the path's local names escaped as
/// TensorFlow escapes them ('.' -> "..", '/' -> ".S"), joined with '/', then "/.ATTRIBUTES/<name>"
/// ("layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE").
std::string objectAttributeKey(const std::vector<std::string>& path, std::string_view name);

/// The checkpoint key of a variable's value (objectAttributeKey with "VARIABLE_VALUE").
inline std::string variableValueKey(const std::vector<std::string>& path)
{
    return objectAttributeKey(path, "VARIABLE_VALUE");
}

} // namespace tstudio
