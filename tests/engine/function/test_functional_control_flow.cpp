// Tests for the functional control flow ops If / StatelessIf and While / StatelessWhile: FunctionDefs
// written here as text (TensorFlow 1.15's node_def + ret form), run in sessions and checked against
// closed forms (sums of squares, factorials, triangle numbers, doubling), cond truthiness, loop
// variables that change shape, a resource variable updated in a loop body, nested loops, branches
// and calls, recursion through an If, a graph as TensorFlow 1.15 writes tf.while_loop / tf.cond
// with control flow v2, shapes seen through the functions, and the errors of bad conds, bodies and
// missing functions.
#include "runtime_test_support.h"

#include "framework/allocator.h"
#include "function/shape_refiner.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include <google/protobuf/text_format.h>

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

/// Every op definition and the CPU kernels of the array, math, state and function families.
struct Fixture : CpuKernelFixture {
    Fixture()
        : CpuKernelFixture(
              {registerArrayCpuKernels, registerMathCpuKernels, registerStateCpuKernels, registerFunctionCpuKernels})
    {
    }
};

std::string typeList(const std::string& key, const std::vector<std::string>& types)
{
    std::string text = "attr { key: '" + key + "' value { list {";
    for (const std::string& t : types)
        text += " type: " + t;
    return text + " } } }";
}

std::string funcAttr(const std::string& key, const std::string& function)
{
    return "attr { key: '" + key + "' value { func { name: '" + function + "' } } }";
}

/// An If (or StatelessIf) node `name` choosing between two float -> float functions.
std::string ifNode(const std::string& name, const std::string& op, const std::string& cond, const std::string& tcond,
                   const std::vector<std::string>& inputs, const std::vector<std::string>& tin,
                   const std::vector<std::string>& tout, const std::string& thenBranch, const std::string& elseBranch,
                   const std::string& extra = "")
{
    std::string text = "node { name: '" + name + "' op: '" + op + "' input: '" + cond + "'";
    for (const std::string& in : inputs)
        text += " input: '" + in + "'";
    return text + " attr { key: 'Tcond' value { type: " + tcond + " } } " + typeList("Tin", tin) + " " +
           typeList("Tout", tout) + " " + funcAttr("then_branch", thenBranch) + " " +
           funcAttr("else_branch", elseBranch) + " " + extra + " }\n";
}

std::string whileNode(const std::string& name, const std::string& op, const std::vector<std::string>& inputs,
                      const std::vector<std::string>& types, const std::string& cond, const std::string& body,
                      const std::string& extra = "")
{
    std::string text = "node { name: '" + name + "' op: '" + op + "'";
    for (const std::string& in : inputs)
        text += " input: '" + in + "'";
    return text + " " + typeList("T", types) + " " + funcAttr("cond", cond) + " " + funcAttr("body", body) + " " +
           extra + " }\n";
}

std::string library(const std::string& functions)
{
    return "library {" + functions + "}\n";
}

std::string scalarConst(const std::string& name, const std::string& dtype, const std::string& field,
                        const std::string& value)
{
    return "node { name: '" + name + "' op: 'Const' attr { key: 'dtype' value { type: " + dtype +
           " } } attr { key: 'value' value { tensor { dtype: " + dtype + " tensor_shape {} " + field + ": " + value +
           " } } } }\n";
}

std::string intPlaceholder(const std::string& name)
{
    return "node { name: '" + name +
           "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_INT32 } }"
           " attr { key: 'shape' value { shape {} } } }\n";
}

/// A body Const of int32 `value` named `name` (FunctionDef node_def form).
std::string intConstDef(const std::string& name, int value)
{
    return "node_def { name: '" + name +
           "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }"
           " attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: " +
           std::to_string(value) + " } } } }\n";
}

std::string binaryDef(const std::string& name, const std::string& op, const std::string& a, const std::string& b,
                      const std::string& type, const std::string& extra = "")
{
    return "node_def { name: '" + name + "' op: '" + op + "' input: '" + a + "' input: '" + b + "' " + extra +
           " attr { key: 'T' value { type: " + type + " } } }\n";
}

/// add_one(x: float) -> y = x + 1; times_two(x: float) -> y = x * 2.
const std::string kBranches = R"pb(
  function {
    signature { name: 'add_one' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } }
    }
    node_def { name: 'add' op: 'AddV2' input: 'x' input: 'one:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'y' value: 'add:z:0' }
  }
  function {
    signature { name: 'times_two' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } }
    node_def {
      name: 'two' op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } }
    }
    node_def { name: 'mul' op: 'Mul' input: 'x' input: 'two:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'y' value: 'mul:z:0' }
  }
)pb";

/// A while loop over (i, acc, n: int32): cond i < n; body (i + 1, acc + step(i), n).
std::string countingLoop(const std::string& name, const std::string& accumulate)
{
    return "function { signature { name: '" + name +
           "_cond' input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 }"
           " input_arg { name: 'n' type: DT_INT32 } output_arg { name: 'more' type: DT_BOOL } }\n" +
           binaryDef("less", "Less", "i", "n", "DT_INT32") + "ret { key: 'more' value: 'less:z:0' } }\n" +
           "function { signature { name: '" + name +
           "_body' input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 }"
           " input_arg { name: 'n' type: DT_INT32 } output_arg { name: 'i_next' type: DT_INT32 }"
           " output_arg { name: 'acc_next' type: DT_INT32 } output_arg { name: 'n_next' type: DT_INT32 } }\n" +
           intConstDef("one", 1) + binaryDef("next", "AddV2", "i", "one:output:0", "DT_INT32") + accumulate +
           "ret { key: 'i_next' value: 'next:z:0' } ret { key: 'acc_next' value: 'sum:z:0' }"
           " ret { key: 'n_next' value: 'n' } }\n";
}

/// sumsq: acc += i * i.  fact (i from 1): acc *= i.
const std::string kSumOfSquares = countingLoop("sumsq", binaryDef("sq", "Mul", "i", "i", "DT_INT32") +
                                                            binaryDef("sum", "AddV2", "acc", "sq:z:0", "DT_INT32"));
const std::string kFactorial = countingLoop("fact", binaryDef("next1", "AddV2", "i", "one:output:0", "DT_INT32") +
                                                        binaryDef("sum", "Mul", "acc", "next1:z:0", "DT_INT32"));

/// grow: (i: int32, x: float) while i < 3: (i + 1, concat([x, x], 0)).
const std::string kGrow = R"pb(
  function {
    signature {
      name: 'grow_cond'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'x' type: DT_FLOAT }
      output_arg { name: 'more' type: DT_BOOL }
    }
    node_def {
      name: 'three' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } }
    }
    node_def { name: 'less' op: 'Less' input: 'i' input: 'three:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'more' value: 'less:z:0' }
  }
  function {
    signature {
      name: 'grow_body'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'x' type: DT_FLOAT }
      output_arg { name: 'i_next' type: DT_INT32 } output_arg { name: 'x_next' type: DT_FLOAT }
    }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    node_def {
      name: 'axis' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } }
    }
    node_def { name: 'next' op: 'AddV2' input: 'i' input: 'one:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def {
      name: 'cat' op: 'ConcatV2' input: 'x' input: 'x' input: 'axis:output:0'
      attr { key: 'N' value { i: 2 } } attr { key: 'T' value { type: DT_FLOAT } }
      attr { key: 'Tidx' value { type: DT_INT32 } }
    }
    ret { key: 'i_next' value: 'next:z:0' }
    ret { key: 'x_next' value: 'cat:output:0' }
  }
)pb";

/// bump: (i: int32, v: resource) while i < 3: v += [1, 2]; (i + 1, v).
const std::string kBump = R"pb(
  function {
    signature {
      name: 'bump_cond'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'v' type: DT_RESOURCE }
      output_arg { name: 'more' type: DT_BOOL }
    }
    node_def {
      name: 'three' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } }
    }
    node_def { name: 'less' op: 'Less' input: 'i' input: 'three:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'more' value: 'less:z:0' }
  }
  function {
    signature {
      name: 'bump_body'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'v' type: DT_RESOURCE }
      output_arg { name: 'i_next' type: DT_INT32 } output_arg { name: 'v_next' type: DT_RESOURCE }
      is_stateful: true
    }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    node_def {
      name: 'delta' op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: [ 1, 2 ] } } }
    }
    node_def { name: 'add' op: 'AssignAddVariableOp' input: 'v' input: 'delta:output:0' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node_def { name: 'next' op: 'AddV2' input: 'i' input: 'one:output:0' input: '^add' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'i_next' value: 'next:z:0' }
    ret { key: 'v_next' value: 'v' }
  }
)pb";

/// outer_body(i, acc, n) = (i + 1, acc + tri(i) + pick(i), n), where tri(i) = 0 + 1 + ... + (i - 1) is an
/// inner While (tri_cond / tri_body over (k, s, m)) and pick(i) a StatelessIf on i (an int32: non-zero
/// is true) whose then-branch calls square(i) by name and whose else-branch returns 100.
const std::string kNested = countingLoop("tri", binaryDef("sum", "AddV2", "acc", "i", "DT_INT32")) + R"pb(
  function {
    signature { name: 'square' input_arg { name: 'x' type: DT_INT32 } output_arg { name: 'y' type: DT_INT32 } }
    node_def { name: 'mul' op: 'Mul' input: 'x' input: 'x' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'y' value: 'mul:z:0' }
  }
  function {
    signature { name: 'square_by_name' input_arg { name: 'x' type: DT_INT32 } output_arg { name: 'y' type: DT_INT32 } }
    node_def { name: 'call' op: 'square' input: 'x' }
    ret { key: 'y' value: 'call:y:0' }
  }
  function {
    signature { name: 'hundred' input_arg { name: 'x' type: DT_INT32 } output_arg { name: 'y' type: DT_INT32 } }
    node_def {
      name: 'c' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 100 } } }
    }
    ret { key: 'y' value: 'c:output:0' }
  }
  function {
    signature {
      name: 'outer_cond'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
      output_arg { name: 'more' type: DT_BOOL }
    }
    node_def { name: 'less' op: 'Less' input: 'i' input: 'n' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'more' value: 'less:z:0' }
  }
  function {
    signature {
      name: 'outer_body'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
      output_arg { name: 'i_next' type: DT_INT32 } output_arg { name: 'acc_next' type: DT_INT32 }
      output_arg { name: 'n_next' type: DT_INT32 }
    }
    node_def {
      name: 'zero' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } }
    }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    node_def {
      name: 'inner' op: 'While' input: 'zero:output:0' input: 'zero:output:0' input: 'i'
      attr { key: 'T' value { list { type: [ DT_INT32, DT_INT32, DT_INT32 ] } } }
      attr { key: 'cond' value { func { name: 'tri_cond' } } }
      attr { key: 'body' value { func { name: 'tri_body' } } }
    }
    node_def {
      name: 'pick' op: 'StatelessIf' input: 'i' input: 'i'
      attr { key: 'Tcond' value { type: DT_INT32 } }
      attr { key: 'Tin' value { list { type: DT_INT32 } } }
      attr { key: 'Tout' value { list { type: DT_INT32 } } }
      attr { key: 'then_branch' value { func { name: 'square_by_name' } } }
      attr { key: 'else_branch' value { func { name: 'hundred' } } }
    }
    node_def { name: 'next' op: 'AddV2' input: 'i' input: 'one:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'plus_tri' op: 'AddV2' input: 'acc' input: 'inner:output:1' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'plus_pick' op: 'AddV2' input: 'plus_tri:z:0' input: 'pick:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'i_next' value: 'next:z:0' }
    ret { key: 'acc_next' value: 'plus_pick:z:0' }
    ret { key: 'n_next' value: 'n' }
  }
)pb";

/// rfact(n: int32) = If(n > 1, rfact_step, rfact_base)(n): rfact_step(n) = n * rfact(n - 1) (a call by
/// name: the recursion runs through the If), rfact_base(n) = 1.
const std::string kRecursiveFactorial = R"pb(
  function {
    signature { name: 'rfact' input_arg { name: 'n' type: DT_INT32 } output_arg { name: 'r' type: DT_INT32 } }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    node_def { name: 'gt' op: 'Greater' input: 'n' input: 'one:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def {
      name: 'pick' op: 'If' input: 'gt:z:0' input: 'n'
      attr { key: 'Tcond' value { type: DT_BOOL } }
      attr { key: 'Tin' value { list { type: DT_INT32 } } }
      attr { key: 'Tout' value { list { type: DT_INT32 } } }
      attr { key: 'then_branch' value { func { name: 'rfact_step' } } }
      attr { key: 'else_branch' value { func { name: 'rfact_base' } } }
    }
    ret { key: 'r' value: 'pick:output:0' }
  }
  function {
    signature { name: 'rfact_step' input_arg { name: 'n' type: DT_INT32 } output_arg { name: 'r' type: DT_INT32 } }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    node_def { name: 'less' op: 'Sub' input: 'n' input: 'one:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'rec' op: 'rfact' input: 'less:z:0' }
    node_def { name: 'mul' op: 'Mul' input: 'n' input: 'rec:r:0' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'r' value: 'mul:z:0' }
  }
  function {
    signature { name: 'rfact_base' input_arg { name: 'n' type: DT_INT32 } output_arg { name: 'r' type: DT_INT32 } }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    ret { key: 'r' value: 'one:output:0' }
  }
)pb";

/// A resource variable "v" holding [a, b], with "v/init" to run once.
std::string resourceVariable(float a, float b)
{
    return "node { name: 'v' op: 'VarHandleOp' attr { key: 'dtype' value { type: DT_FLOAT } }"
           " attr { key: 'shape' value { shape { dim { size: 2 } } } } attr { key: 'shared_name' value { s: 'v' } }"
           " attr { key: 'container' value { s: '' } } }\n" +
           floatConstNode("v/initial", {2}, std::to_string(a) + ", " + std::to_string(b)) +
           "node { name: 'v/init' op: 'AssignVariableOp' input: 'v' input: 'v/initial'"
           " attr { key: 'dtype' value { type: DT_FLOAT } } }\n";
}

std::vector<float> floats(const Tensor& t)
{
    if (!t.isInitialized() || t.dtype() != tensorflow::DT_FLOAT)
        return {};
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}

std::int32_t int32Of(const Tensor& t)
{
    if (!t.isInitialized() || t.dtype() != tensorflow::DT_INT32 || t.numElements() != 1)
        return -999999;
    return t.values<std::int32_t>()[0];
}

/// Runs `session` for `fetches`; on error warns and returns empty tensors (which compare unequal).
std::vector<Tensor> fetch(Session& session, const std::vector<std::string>& fetches,
                          const std::vector<std::pair<std::string, Tensor>>& feeds = {})
{
    std::vector<Tensor> out;
    const Status s = session.run(feeds, fetches, {}, &out);
    if (!s.isOk())
        qWarning("run failed: %s", s.toString().c_str());
    return s.isOk() ? out : std::vector<Tensor>(fetches.size());
}

/// The error of running `fetch` in a session over `graph` (create's error when it fails there).
Status runError(const std::string& graph, const std::string& fetchName)
{
    Fixture f;
    std::string error;
    auto session = f.session(graph, &error);
    if (!session)
        return invalidArgumentError("create failed: " + error);
    std::vector<Tensor> out;
    return session->run({}, {fetchName}, {}, &out);
}

/// The graph's shapes (inferGraphShapes); fails the test through `ok` when it does not run.
struct Shapes {
    explicit Shapes(const std::string& text)
    {
        ok = registerAllOps(ops).isOk() && google::protobuf::TextFormat::ParseFromString(text, &def);
        if (!ok)
            return;
        auto built = Graph::fromGraphDef(def);
        ok = built.has_value();
        if (!ok)
            return;
        graph.emplace(std::move(*built));
        auto inferred = inferGraphShapes(*graph, ops, testAllocator());
        ok = inferred.has_value();
        if (ok)
            shapes.emplace(std::move(*inferred));
    }
    std::string shapeOf(const std::string& tensor) const
    {
        const InferredOutput* out = shapes->find(*graph, tensor);
        return out ? out->shape.toString() : "(none)";
    }

    OpRegistry ops;
    tensorflow::GraphDef def;
    std::optional<Graph> graph;
    std::optional<GraphShapes> shapes;
    bool ok = false;
};

const std::vector<float> kA = {1.5f, -2.0f, 3.0f};

std::string aConst()
{
    return floatConstNode("a", {3}, "1.5, -2, 3");
}

std::vector<float> plusOne()
{
    return {2.5f, -1.0f, 4.0f};
}

std::vector<float> timesTwo()
{
    return {3.0f, -4.0f, 6.0f};
}

} // namespace

class TestFunctionalControlFlow : public QObject {
    Q_OBJECT
private slots:
    void ifChoosesTheBranchByTruthiness()
    {
        Fixture f;
        std::string error;
        const std::vector<std::string> tf = {"DT_FLOAT"};
        const std::string graph =
            library(kBranches) + aConst() + scalarConst("yes", "DT_BOOL", "bool_val", "true") +
            scalarConst("no", "DT_BOOL", "bool_val", "false") + intConstNode("three", 3) + intConstNode("zero", 0) +
            scalarConst("half", "DT_FLOAT", "float_val", "0.5") + scalarConst("nought", "DT_FLOAT", "float_val", "0") +
            scalarConst("word", "DT_STRING", "string_val", "'w'") +
            scalarConst("blank", "DT_STRING", "string_val", "''") + floatConstNode("empty", {0}, "") +
            floatConstNode("zeros2", {2}, "0, 0") +
            ifNode("if_true", "If", "yes", "DT_BOOL", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_false", "If", "no", "DT_BOOL", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_three", "StatelessIf", "three", "DT_INT32", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_zero", "StatelessIf", "zero", "DT_INT32", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_half", "If", "half", "DT_FLOAT", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_nought", "If", "nought", "DT_FLOAT", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_word", "If", "word", "DT_STRING", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_blank", "If", "blank", "DT_STRING", {"a"}, tf, tf, "add_one", "times_two") +
            ifNode("if_empty", "If", "empty", "DT_FLOAT", {"a"}, tf, tf, "add_one", "times_two") +
            // A non-scalar is true when it has elements, whatever they are (zeros here).
            ifNode("if_zeros2", "If", "zeros2", "DT_FLOAT", {"a"}, tf, tf, "add_one", "times_two");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const std::vector<std::string> names = {"if_true",   "if_false", "if_three", "if_zero",  "if_half",
                                                "if_nought", "if_word",  "if_blank", "if_empty", "if_zeros2"};
        const auto out = fetch(*session, names);
        QCOMPARE(out.size(), names.size());
        const std::vector<bool> taken = {true, false, true, false, true, false, true, false, false, true};
        for (std::size_t i = 0; i < names.size(); ++i)
            QVERIFY2(floats(out[i]) == (taken[i] ? plusOne() : timesTwo()), names[i].c_str());
        // The defaults TensorFlow's OpDef gives: output_shapes = [].
        const tensorflow::NodeDef& node = session->graph()->node(*session->graph()->findNode("if_true"));
        QVERIFY(node.attr().count("output_shapes") == 1);
        QCOMPARE(node.attr().at("output_shapes").list().shape_size(), 0);
    }

    void whileComputesSumsOfSquaresAndFactorialsForAFedCount()
    {
        Fixture f;
        std::string error;
        const std::vector<std::string> t3 = {"DT_INT32", "DT_INT32", "DT_INT32"};
        const std::string graph =
            library(kSumOfSquares + kFactorial) + intConstNode("zero", 0) + intConstNode("one", 1) +
            intPlaceholder("n") + whileNode("sumsq", "While", {"zero", "zero", "n"}, t3, "sumsq_cond", "sumsq_body") +
            whileNode("fact", "StatelessWhile", {"zero", "one", "n"}, t3, "fact_cond", "fact_body");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        for (int n : {0, 1, 5, 10}) {
            const auto out = fetch(*session, {"sumsq:0", "sumsq:1", "sumsq:2", "fact:1"}, {{"n", intScalar(n)}});
            QCOMPARE(out.size(), std::size_t(4));
            QCOMPARE(int32Of(out[0]), n);                             // the counter ran n times
            QCOMPARE(int32Of(out[1]), n * (n - 1) * (2 * n - 1) / 6); // 0^2 + ... + (n-1)^2
            QCOMPARE(int32Of(out[2]), n);                             // passed through
            int factorial = 1;
            for (int k = 2; k <= n; ++k)
                factorial *= k;
            QCOMPARE(int32Of(out[3]), factorial);
        }
    }

    void loopVariablesChangeShape()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(kGrow) + intConstNode("zero", 0) + floatConstNode("x", {1}, "1.5") +
            whileNode("w", "While", {"zero", "x"}, {"DT_INT32", "DT_FLOAT"}, "grow_cond", "grow_body");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const auto out = fetch(*session, {"w:0", "w:1"});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(int32Of(out[0]), 3);
        QCOMPARE(out[1].shape(), TensorShape({8}));
        QCOMPARE(floats(out[1]), std::vector<float>(8, 1.5f));
    }

    void resourceVariableUpdatedInTheBody()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(kBump) + resourceVariable(1.0f, -3.0f) + intConstNode("zero", 0) +
            whileNode("w", "While", {"zero", "v"}, {"DT_INT32", "DT_RESOURCE"}, "bump_cond", "bump_body") +
            "node { name: 'after' op: 'ReadVariableOp' input: 'v' input: '^w' attr { key: 'dtype' value { type: "
            "DT_FLOAT } } }\n";
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        QVERIFY(session->run({}, {}, {"v/init"}, nullptr).isOk());
        // Three iterations, each adding [1, 2] to the caller's variable.
        QCOMPARE(floats(fetch(*session, {"after"}).at(0)), (std::vector<float>{4.0f, 3.0f}));
        QCOMPARE(floats(fetch(*session, {"after"}).at(0)), (std::vector<float>{7.0f, 9.0f}));
    }

    void nestedWhileIfAndCalls()
    {
        Fixture f;
        std::string error;
        const std::vector<std::string> t3 = {"DT_INT32", "DT_INT32", "DT_INT32"};
        const std::string graph = library(kNested) + intConstNode("zero", 0) + intPlaceholder("n") +
                                  whileNode("w", "While", {"zero", "zero", "n"}, t3, "outer_cond", "outer_body");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        for (int n : {1, 4, 7}) {
            // sum over i < n of tri(i) + (i != 0 ? i * i : 100), tri(i) = i (i - 1) / 2.
            int expected = 0;
            for (int i = 0; i < n; ++i)
                expected += i * (i - 1) / 2 + (i != 0 ? i * i : 100);
            QCOMPARE(int32Of(fetch(*session, {"w:1"}, {{"n", intScalar(n)}}).at(0)), expected);
        }
    }

    void endlessLoopStopsAtTheRunsDeadline()
    {
        const char* endless = R"pb(
  function {
    signature { name: 'always' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'yes' type: DT_BOOL } }
    node_def {
      name: 'yes' op: 'Const'
      attr { key: 'dtype' value { type: DT_BOOL } }
      attr { key: 'value' value { tensor { dtype: DT_BOOL tensor_shape {} bool_val: true } } }
    }
    ret { key: 'yes' value: 'yes:output:0' }
  }
)pb";
        Fixture f;
        std::string error;
        auto session = f.session(library(std::string(endless) + kBranches) + aConst() +
                                     whileNode("w", "While", {"a"}, {"DT_FLOAT"}, "always", "add_one"),
                                 &error);
        QVERIFY2(session, error.c_str());
        tensorflow::RunOptions options;
        options.set_timeout_in_ms(200);
        std::vector<Tensor> out;
        const Status s = session->run(options, {}, {"w"}, {}, &out, nullptr);
        QCOMPARE(s.code(), StatusCode::kDeadlineExceeded);
        QVERIFY2(s.message().starts_with("node 'w' (op 'While'): "), s.message().c_str());
    }

    void recursionThroughAnIf()
    {
        Fixture f;
        std::string error;
        auto session = f.session(library(kRecursiveFactorial) + intPlaceholder("n") +
                                     "node { name: 'call' op: 'rfact' input: 'n' }\n",
                                 &error);
        QVERIFY2(session, error.c_str());
        for (int n : {1, 2, 5, 10}) {
            int factorial = 1;
            for (int k = 2; k <= n; ++k)
                factorial *= k;
            QCOMPARE(int32Of(fetch(*session, {"call"}, {{"n", intScalar(n)}}).at(0)), factorial);
        }
    }

    void graphAsTensorFlowWritesControlFlowV2()
    {
        // tf.while_loop(lambda i, x: x < 100., lambda i, x: (i + 1, x * 2.), [0, 1.]) and
        // tf.cond(x > 50., lambda: x - 50., lambda: x + 50.) with control flow v2 in TensorFlow 1.15:
        // the While carries the loop counter and maximum_iterations, the internal attrs
        // _lower_using_switch_merge and _num_original_outputs, and Identity outputs.
        const char* text = R"pb(
node { name: 'Const' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
  attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
node { name: 'Const_1' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
  attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
node { name: 'while/maximum_iterations' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
  attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: -1 } } } }
node { name: 'while/loop_counter' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
  attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } } }
node {
  name: 'while' op: 'While'
  input: 'while/loop_counter' input: 'while/maximum_iterations' input: 'Const' input: 'Const_1'
  attr { key: 'T' value { list { type: [ DT_INT32, DT_INT32, DT_INT32, DT_FLOAT ] } } }
  attr { key: '_lower_using_switch_merge' value { b: true } }
  attr { key: '_num_original_outputs' value { i: 4 } }
  attr { key: 'body' value { func { name: 'while_body_10' } } }
  attr { key: 'cond' value { func { name: 'while_cond_9' } } }
  attr { key: 'output_shapes' value { list { shape {} shape {} shape {} shape {} } } }
  attr { key: 'parallel_iterations' value { i: 10 } }
}
node { name: 'while/Identity_2' op: 'Identity' input: 'while:2' attr { key: 'T' value { type: DT_INT32 } } }
node { name: 'while/Identity_3' op: 'Identity' input: 'while:3' attr { key: 'T' value { type: DT_FLOAT } } }
node { name: 'Greater/y' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
  attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 50 } } } }
node { name: 'Greater' op: 'Greater' input: 'while/Identity_3' input: 'Greater/y' attr { key: 'T' value { type: DT_FLOAT } } }
node {
  name: 'cond' op: 'If' input: 'Greater' input: 'while/Identity_3'
  attr { key: 'Tcond' value { type: DT_BOOL } }
  attr { key: 'Tin' value { list { type: DT_FLOAT } } }
  attr { key: 'Tout' value { list { type: DT_FLOAT } } }
  attr { key: '_lower_using_switch_merge' value { b: true } }
  attr { key: 'else_branch' value { func { name: 'cond_false_40' } } }
  attr { key: 'then_branch' value { func { name: 'cond_true_39' } } }
  attr { key: 'output_shapes' value { list { shape {} } } }
}
node { name: 'cond/Identity' op: 'Identity' input: 'cond' attr { key: 'T' value { type: DT_FLOAT } } }
library {
  function {
    signature {
      name: 'while_cond_9'
      input_arg { name: 'while_loop_counter' type: DT_INT32 }
      input_arg { name: 'while_maximum_iterations' type: DT_INT32 }
      input_arg { name: 'placeholder' type: DT_INT32 }
      input_arg { name: 'less_x' type: DT_FLOAT }
      output_arg { name: 'identity' type: DT_BOOL }
    }
    node_def { name: 'Less/y' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 100 } } } }
    node_def { name: 'Less' op: 'Less' input: 'less_x' input: 'Less/y:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    node_def { name: 'Identity' op: 'Identity' input: 'Less:z:0' attr { key: 'T' value { type: DT_BOOL } } }
    ret { key: 'identity' value: 'Identity:output:0' }
  }
  function {
    signature {
      name: 'while_body_10'
      input_arg { name: 'while_loop_counter' type: DT_INT32 }
      input_arg { name: 'while_maximum_iterations' type: DT_INT32 }
      input_arg { name: 'placeholder' type: DT_INT32 }
      input_arg { name: 'mul_x' type: DT_FLOAT }
      output_arg { name: 'identity' type: DT_INT32 }
      output_arg { name: 'identity_1' type: DT_INT32 }
      output_arg { name: 'identity_2' type: DT_INT32 }
      output_arg { name: 'identity_3' type: DT_FLOAT }
    }
    node_def { name: 'add/y' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
    node_def { name: 'add' op: 'AddV2' input: 'placeholder' input: 'add/y:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'mul/y' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } } }
    node_def { name: 'mul' op: 'Mul' input: 'mul_x' input: 'mul/y:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    node_def { name: 'add_1/y' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
    node_def { name: 'add_1' op: 'AddV2' input: 'while_loop_counter' input: 'add_1/y:output:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'Identity' op: 'Identity' input: 'add_1:z:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'Identity_1' op: 'Identity' input: 'while_maximum_iterations' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'Identity_2' op: 'Identity' input: 'add:z:0' attr { key: 'T' value { type: DT_INT32 } } }
    node_def { name: 'Identity_3' op: 'Identity' input: 'mul:z:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'identity' value: 'Identity:output:0' }
    ret { key: 'identity_1' value: 'Identity_1:output:0' }
    ret { key: 'identity_2' value: 'Identity_2:output:0' }
    ret { key: 'identity_3' value: 'Identity_3:output:0' }
  }
  function {
    signature {
      name: 'cond_true_39'
      input_arg { name: 'sub_while_identity_3' type: DT_FLOAT }
      output_arg { name: 'identity' type: DT_FLOAT }
    }
    node_def { name: 'sub/y' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 50 } } } }
    node_def { name: 'sub' op: 'Sub' input: 'sub_while_identity_3' input: 'sub/y:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    node_def { name: 'Identity' op: 'Identity' input: 'sub:z:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'identity' value: 'Identity:output:0' }
  }
  function {
    signature {
      name: 'cond_false_40'
      input_arg { name: 'add_while_identity_3' type: DT_FLOAT }
      output_arg { name: 'identity' type: DT_FLOAT }
    }
    node_def { name: 'add/y' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 50 } } } }
    node_def { name: 'add' op: 'AddV2' input: 'add_while_identity_3' input: 'add/y:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    node_def { name: 'Identity' op: 'Identity' input: 'add:z:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'identity' value: 'Identity:output:0' }
  }
}
versions { producer: 134 min_consumer: 12 }
)pb";
        Fixture f;
        std::string error;
        auto session = f.session(text, &error);
        QVERIFY2(session, error.c_str());
        const auto out = fetch(*session, {"while:0", "while/Identity_2", "while/Identity_3", "cond/Identity"});
        QCOMPARE(out.size(), std::size_t(4));
        QCOMPARE(int32Of(out[0]), 7); // the loop counter: 1 -> 128 in 7 doublings
        QCOMPARE(int32Of(out[1]), 7);
        QCOMPARE(floats(out[2]), std::vector<float>{128.0f});
        QCOMPARE(floats(out[3]), std::vector<float>{78.0f}); // 128 > 50: 128 - 50
        // The internal attrs are kept as written.
        const tensorflow::NodeDef& node = session->graph()->node(*session->graph()->findNode("while"));
        QCOMPARE(node.attr().at("_num_original_outputs").i(), std::int64_t(4));
        QVERIFY(node.attr().at("_lower_using_switch_merge").b());
    }

    void shapesSeeThroughIfAndWhile()
    {
        const char* functions = R"pb(
  function {
    signature { name: 'keep' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } }
    node_def { name: 'id' op: 'Identity' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'y' value: 'id:output:0' }
  }
  function {
    signature { name: 'widen' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } }
    node_def {
      name: 'axis' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
    }
    node_def {
      name: 'cat' op: 'ConcatV2' input: 'x' input: 'x' input: 'axis:output:0'
      attr { key: 'N' value { i: 2 } } attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tidx' value { type: DT_INT32 } }
    }
    ret { key: 'y' value: 'cat:output:0' }
  }
  function {
    signature { name: 'flatten' input_arg { name: 'x' type: DT_FLOAT } output_arg { name: 'y' type: DT_FLOAT } }
    node_def {
      name: 'shape' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: -1 } } }
    }
    node_def { name: 'flat' op: 'Reshape' input: 'x' input: 'shape:output:0' attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'Tshape' value { type: DT_INT32 } } }
    ret { key: 'y' value: 'flat:output:0' }
  }
)pb";
        const std::vector<std::string> tf = {"DT_FLOAT"};
        const std::string text =
            library(functions + kGrow + kSumOfSquares) +
            "node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: 2 } dim { size: 3 } } } } }\n"
            "node { name: 'c' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } }"
            " attr { key: 'shape' value { shape {} } } }\n" +
            scalarConst("yes", "DT_BOOL", "bool_val", "true") + intConstNode("zero", 0) + intPlaceholder("n") +
            floatConstNode("x", {1}, "1.5") +
            ifNode("same_rank", "If", "c", "DT_BOOL", {"p"}, tf, tf, "keep", "widen") +
            ifNode("other_rank", "StatelessIf", "c", "DT_BOOL", {"p"}, tf, tf, "keep", "flatten") +
            ifNode("known_cond", "If", "yes", "DT_BOOL", {"p"}, tf, tf, "keep", "widen") +
            ifNode("declared", "If", "c", "DT_BOOL", {"p"}, tf, tf, "keep", "flatten",
                   "attr { key: 'output_shapes' value { list { shape { dim { size: 6 } } } } }") +
            whileNode("grow", "While", {"zero", "x"}, {"DT_INT32", "DT_FLOAT"}, "grow_cond", "grow_body") +
            whileNode("grow_declared", "While", {"zero", "x"}, {"DT_INT32", "DT_FLOAT"}, "grow_cond", "grow_body",
                      "attr { key: 'output_shapes' value { list { shape {} shape { dim { size: 8 } } } } }") +
            whileNode("sumsq", "StatelessWhile", {"zero", "zero", "n"}, {"DT_INT32", "DT_INT32", "DT_INT32"},
                      "sumsq_cond", "sumsq_body");
        Shapes s(text);
        QVERIFY(s.ok);
        QVERIFY2(s.shapes->status().isOk(), s.shapes->status().toString().c_str());
        QCOMPARE(s.shapeOf("same_rank:0"), std::string("[2,?]"));      // [2,3] and [2,6] merged
        QCOMPARE(s.shapeOf("other_rank:0"), std::string("<unknown>")); // [2,3] and [6]: ranks differ
        QCOMPARE(s.shapeOf("known_cond:0"), std::string("[2,3]"));     // cond known: then_branch
        QCOMPARE(s.shapeOf("declared:0"), std::string("[6]"));         // output_shapes wins
        QCOMPARE(s.shapeOf("grow:0"), std::string("[]"));              // the counter stays a scalar
        QCOMPARE(s.shapeOf("grow:1"), std::string("[?]"));             // [1] -> [2] -> ...: the dim changes
        QCOMPARE(s.shapeOf("grow_declared:1"), std::string("[8]"));
        for (const char* name : {"sumsq:0", "sumsq:1", "sumsq:2"})
            QCOMPARE(s.shapeOf(name), std::string("[]"));
    }

    void shapeInferenceReportsAMissingBranch()
    {
        const std::vector<std::string> tf = {"DT_FLOAT"};
        Shapes s(library(kBranches) + aConst() + scalarConst("yes", "DT_BOOL", "bool_val", "true") +
                 ifNode("if", "If", "yes", "DT_BOOL", {"a"}, tf, tf, "add_one", "nowhere"));
        QVERIFY(s.ok);
        QCOMPARE(s.shapes->status().code(), StatusCode::kNotFound);
        QVERIFY2(s.shapes->status().message().find(
                     "node 'if': else_branch: function 'nowhere' is not in the graph's library") != std::string::npos,
                 s.shapes->status().message().c_str());
    }

    void badCondsBodiesAndMissingFunctions()
    {
        const std::vector<std::string> tf = {"DT_FLOAT"};
        const std::vector<std::string> t3 = {"DT_INT32", "DT_INT32", "DT_INT32"};
        const std::string loopInputs = intConstNode("zero", 0) + intConstNode("n", 3);
        // A missing branch.
        Status s = runError(library(kBranches) + aConst() + scalarConst("yes", "DT_BOOL", "bool_val", "true") +
                                ifNode("if", "If", "yes", "DT_BOOL", {"a"}, tf, tf, "nowhere", "times_two"),
                            "if");
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("node 'if' (op 'If'): then_branch: function 'nowhere' is not in the graph's library"));
        // A missing loop body.
        s = runError(library(kSumOfSquares) + loopInputs +
                         whileNode("w", "While", {"zero", "zero", "n"}, t3, "sumsq_cond", "absent_body"),
                     "w");
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("node 'w' (op 'While'): body: function 'absent_body' is not in the graph's library"));
        // A branch of the wrong dtypes: add_one takes float, Tin says int32.
        s = runError(library(kBranches) + intConstNode("i", 2) + scalarConst("yes", "DT_BOOL", "bool_val", "true") +
                         ifNode("if", "If", "yes", "DT_BOOL", {"i"}, {"DT_INT32"}, tf, "add_one", "times_two"),
                     "if");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("node 'if' (op 'If'): then_branch function 'add_one' takes tensor 0 as float, but Tin[0] "
                         "is int32"));
        // A body with another number of results than loop variables: grow_body for three int32 vars.
        s = runError(library(kGrow + kSumOfSquares) + loopInputs +
                         whileNode("w", "While", {"zero", "zero", "n"}, t3, "sumsq_cond", "grow_body"),
                     "w");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().starts_with("node 'w' (op 'While'): body function 'grow_body' takes 2 tensors (int32, "
                                         "float), but T lists 3 (int32, int32, int32)"),
                 s.message().c_str());
        // A body returning the wrong dtype for a loop variable.
        const std::string badBody = R"pb(
  function {
    signature {
      name: 'float_body'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
      output_arg { name: 'i_next' type: DT_INT32 } output_arg { name: 'acc_next' type: DT_FLOAT }
      output_arg { name: 'n_next' type: DT_INT32 }
    }
    node_def {
      name: 'f' op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } }
    }
    ret { key: 'i_next' value: 'i' } ret { key: 'acc_next' value: 'f:output:0' } ret { key: 'n_next' value: 'n' }
  }
)pb";
        s = runError(library(kSumOfSquares + badBody) + loopInputs +
                         whileNode("w", "While", {"zero", "zero", "n"}, t3, "sumsq_cond", "float_body"),
                     "w");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("node 'w' (op 'While'): body function 'float_body' returns tensor 1 as float, but T[1] is "
                         "int32"));
        // cond returning two tensors, and cond returning a scalar that is not boolean-convertible.
        const std::string badConds = R"pb(
  function {
    signature {
      name: 'two_cond'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
      output_arg { name: 'a' type: DT_BOOL } output_arg { name: 'b' type: DT_BOOL }
    }
    node_def { name: 'less' op: 'Less' input: 'i' input: 'n' attr { key: 'T' value { type: DT_INT32 } } }
    ret { key: 'a' value: 'less:z:0' } ret { key: 'b' value: 'less:z:0' }
  }
  function {
    signature {
      name: 'half_cond'
      input_arg { name: 'i' type: DT_INT32 } input_arg { name: 'acc' type: DT_INT32 } input_arg { name: 'n' type: DT_INT32 }
      output_arg { name: 'h' type: DT_HALF }
    }
    node_def {
      name: 'h' op: 'Const'
      attr { key: 'dtype' value { type: DT_HALF } }
      attr { key: 'value' value { tensor { dtype: DT_HALF tensor_shape {} half_val: 15360 } } }
    }
    ret { key: 'h' value: 'h:output:0' }
  }
)pb";
        s = runError(library(kSumOfSquares + badConds) + loopInputs +
                         whileNode("w", "While", {"zero", "zero", "n"}, t3, "two_cond", "sumsq_body"),
                     "w");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("node 'w' (op 'While'): cond function 'two_cond' returns 2 tensors (bool, bool); expected a "
                         "single scalar which can be converted to a boolean"));
        s = runError(library(kSumOfSquares + badConds) + loopInputs +
                         whileNode("w", "StatelessWhile", {"zero", "zero", "n"}, t3, "half_cond", "sumsq_body"),
                     "w");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().starts_with("node 'w' (op 'StatelessWhile'): cond function 'half_cond' returned a [] "
                                         "tensor that is not a boolean: "),
                 s.message().c_str());
        QVERIFY2(s.message().ends_with("cannot be converted to a boolean"), s.message().c_str());
        // An If whose cond is not boolean-convertible.
        s = runError(library(kBranches) + aConst() + scalarConst("h", "DT_HALF", "half_val", "15360") +
                         ifNode("if", "If", "h", "DT_HALF", {"a"}, tf, tf, "add_one", "times_two"),
                     "if");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().starts_with("node 'if' (op 'If'): cond: "), s.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestFunctionalControlFlow)
#include "test_functional_control_flow.moc"
