// Turning part of a GraphDef into a FunctionDef, as tf.function traces a Python function: the
// nodes between given arguments and results become the body, variables become resource arguments.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

class OpRegistry;

/// One argument of the function and the graph node it stands for.
struct GraphFunctionArgument {
    std::string name; ///< the signature's input_arg name ([a-z][a-z0-9_]*)
    /// A Placeholder (the argument takes its dtype, and output 0 of the node becomes the argument),
    /// or a variable node (VariableV2, Variable, VarHandleOp): the argument is a DT_RESOURCE handle,
    /// and the body reads it with a ReadVariableOp named "<node>/ReadVariableOp" wherever the graph
    /// used the variable's value.
    std::string node;
};

/// What functionFromGraph makes.
struct GraphFunctionSpec {
    std::string name; ///< the FunctionDef's name, e.g. "__inference___call___42"
    std::vector<GraphFunctionArgument> args;
    /// The results in order: (output_arg name, graph tensor "node:k" or "node").
    std::vector<std::pair<std::string, std::string>> results;
};

/// The dtype of every output of `node` (its OpDef's output args expanded by the node's attrs;
/// ref types kept). InvalidArgument naming the node when an attr the OpDef needs is missing.
Expected<std::vector<DataType>> nodeOutputTypes(const tensorflow::NodeDef& node, const tensorflow::OpDef& opDef);

/// The FunctionDef computing spec.results from spec.args in `graph` (ops from `ops`): the body is
/// every node the results depend on (data and control inputs) up to the arguments, with its inputs
/// rewritten to the function form ("node:out_arg:i", argument names, "^node"), colocation attrs
/// ("_class") and devices dropped, ref dtypes in attrs made plain; the signature is marked stateful
/// when a body op is. Placeholder arguments get arg_attr "_user_specified_name" = the node's name.
/// Errors (InvalidArgument, naming the function): an argument node that is missing or is neither a
/// Placeholder nor a variable; a result tensor that is missing; a body node that needs a
/// Placeholder or variable that is not an argument ("function 'f': node 'dense/MatMul' depends on
/// 'x' (Placeholder), which is not one of its arguments"); NotFound for an op that is not in `ops`.
Expected<tensorflow::FunctionDef> functionFromGraph(const tensorflow::GraphDef& graph, const OpRegistry& ops,
                                                    const GraphFunctionSpec& spec);

/// `text` made into a valid argument name: lower case, other characters than [a-z0-9_] as '_', a
/// leading digit or '_' prefixed with 'a' ("dense/kernel" -> "dense_kernel").
std::string functionArgName(std::string_view text);

} // namespace tstudio
