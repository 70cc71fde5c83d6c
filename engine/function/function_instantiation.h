// Function instantiation: a FunctionDef and the attr values of a call turned into a runnable body
// graph, as TensorFlow's InstantiateFunction does (placeholders bound, argument lists expanded).
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "proto/attr_value.pb.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class FunctionLibrary;

/// Attr values by name, sorted (the canonical form of a call's attrs).
using FunctionAttrs = std::map<std::string, tensorflow::AttrValue>;

/// What a call node calls: the function's name and the attr values bound to its signature.
struct FunctionCallTarget {
    std::string name;
    FunctionAttrs attrs;
};

/// True for PartitionedCall and StatefulPartitionedCall (the function is their attr `f`).
bool isPartitionedCallOp(std::string_view op);
/// True when `node` calls a function of `library`: a partitioned call, or an op named after a
/// library function (a call by name).
bool isFunctionCall(const tensorflow::NodeDef& node, const FunctionLibrary& library);
/// The function `node` calls and its attrs: for a partitioned call attr `f` (name and attrs), for a
/// call by name the op and the node's attrs (those starting with '_' left out). InvalidArgument
/// when a partitioned call has no func-valued `f`.
Expected<FunctionCallTarget> functionCallTarget(const tensorflow::NodeDef& node);
/// A canonical text for (name, attrs): equal for equal instantiations ("f[T=DT_FLOAT]").
std::string instantiationKey(const FunctionCallTarget& target);

/// An instantiated function: a GraphDef with, in this order, one `_Arg` node per argument tensor
/// (attrs T, index; named after the argument, "x_0", "x_1", ... for a list), the body nodes (attrs
/// bound, defaults filled, inputs rewritten to "node:k" graph names, devices kept), and one
/// `_Retval` node per result tensor (attrs T, index; named "y_RetVal", "y_RetVal_0", ...).
/// `_Arg` and `_Retval` are not registered ops: a runner feeds the `_Arg` outputs and fetches
/// retTensors; a refiner stands Placeholders in for the `_Arg` nodes.
struct FunctionBody {
    std::string name;                         ///< the function's name
    tensorflow::GraphDef graph;               ///< without a library
    std::vector<DataType> argTypes;           ///< one per argument tensor
    std::vector<DataType> retTypes;           ///< one per result tensor
    std::vector<std::string> argNodes;        ///< the `_Arg` node of each argument tensor
    std::vector<std::string> retTensors;      ///< the tensor ("node:k") each result is
    std::vector<std::string> retNodes;        ///< the `_Retval` node of each result
    std::vector<std::string> controlRetNodes; ///< body nodes that must run (control_ret), by output name
};

/// Instantiates `target` from `library` with TensorFlow's rules:
///  - every attr of the signature is bound by target.attrs or has a default, and fits its AttrDef;
///  - an argument `x: N * T` or `x: Tlist` stands for its tensors ("x" all of them, "x:i" one);
///  - a body node output is named "node:out_arg" (the OpDef's output arg, all its tensors) or
///    "node:out_arg:i" (one of them); control inputs are "^node" (on an argument: dropped, as an
///    argument is available from the start);
///  - body attr values `placeholder: "T"` (also inside func attrs) take the call's value of T;
///  - `ret` maps each output arg of the signature to a body output; `control_ret` names body nodes.
/// Errors name the function, and the body node where there is one: InvalidArgument, e.g.
/// "function 'f': node 'mul': input 'y:z:0' is not found (no argument or body node output of that
/// name)", "function 'f': output 'out' is 'mul:z:0' of dtype double, but the signature calls for
/// float", "function 'f': attr 'T' is not bound by the call"; NotFound for a missing function
/// (missingFunctionError) or a body op that is neither registered nor a library function.
Expected<FunctionBody> instantiateFunction(const FunctionLibrary& library, const FunctionCallTarget& target);

/// The dtypes of a call's argument and result tensors.
struct FunctionSignatureTypes {
    std::vector<DataType> argTypes; ///< one per argument tensor
    std::vector<DataType> retTypes; ///< one per result tensor
};

/// What `target` takes and gives, from the function's signature and the call's attrs alone (each
/// signature attr bound or defaulted and checked against its AttrDef), without looking at the body:
/// what TensorFlow checks of a call when the graph is built. The body, with its ops, is read only
/// when a run reaches the call (instantiateFunction), so a function no run reaches may use ops
/// this build lacks (a TF 2 SavedModel's saver functions). NotFound for a missing function
/// (missingFunctionError); InvalidArgument as instantiateFunction's attr and argument errors.
Expected<FunctionSignatureTypes> functionSignatureTypes(const FunctionLibrary& library,
                                                        const FunctionCallTarget& target);

} // namespace tstudio
