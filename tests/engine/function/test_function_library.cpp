// Tests for the function library: FunctionDefs (written here as text) instantiated with attrs and
// called by name and through (Stateful)PartitionedCall, list arguments, nested calls, resource
// arguments, control outputs, shapes through calls, the errors of bad calls and bodies, and a
// GraphDef's library kept by the writer. Expected values are closed forms computed in the tests.
#include "runtime_test_support.h"

#include "framework/allocator.h"
#include "function/function_instantiation.h"
#include "function/function_library.h"
#include "function/function_op_gaps.h"
#include "io/formats/graph_def_io.h"
#include "function/shape_refiner.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

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

/// mul_add(x: T, y: T) -> out: T = x * y + x, for T in {float, double}.
const char* kMulAdd = R"pb(
  function {
    signature {
      name: 'mul_add'
      input_arg { name: 'x' type_attr: 'T' }
      input_arg { name: 'y' type_attr: 'T' }
      output_arg { name: 'out' type_attr: 'T' }
      attr { name: 'T' type: 'type' allowed_values { list { type: [ DT_FLOAT, DT_DOUBLE ] } } }
    }
    node_def { name: 'prod' op: 'Mul' input: 'x' input: 'y' attr { key: 'T' value { placeholder: 'T' } } }
    node_def { name: 'sum' op: 'AddV2' input: 'prod:z:0' input: 'x' attr { key: 'T' value { placeholder: 'T' } } }
    ret { key: 'out' value: 'sum:z:0' }
  }
)pb";

/// sum_first(xs: N * T) -> (total: T, first: T) = (xs[0] + ... + xs[N-1], xs[0]).
const char* kSumFirst = R"pb(
  function {
    signature {
      name: 'sum_first'
      input_arg { name: 'xs' type_attr: 'T' number_attr: 'N' }
      output_arg { name: 'total' type_attr: 'T' }
      output_arg { name: 'first' type_attr: 'T' }
      attr { name: 'N' type: 'int' has_minimum: true minimum: 1 }
      attr { name: 'T' type: 'type' }
    }
    node_def {
      name: 'add'
      op: 'AddN'
      input: 'xs'
      attr { key: 'N' value { placeholder: 'N' } }
      attr { key: 'T' value { placeholder: 'T' } }
    }
    ret { key: 'total' value: 'add:sum:0' }
    ret { key: 'first' value: 'xs:0' }
  }
)pb";

/// twice_mul_add(x: float, y: float) -> r: float = 2 * mul_add(x, y) (a call by name inside);
/// thrice(x, y) -> r: float = 3 * twice_mul_add(x, y) (a PartitionedCall inside).
const char* kNested = R"pb(
  function {
    signature {
      name: 'twice_mul_add'
      input_arg { name: 'x' type: DT_FLOAT }
      input_arg { name: 'y' type: DT_FLOAT }
      output_arg { name: 'r' type: DT_FLOAT }
    }
    node_def { name: 'inner' op: 'mul_add' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }
    node_def {
      name: 'two'
      op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } }
    }
    node_def { name: 'scaled' op: 'Mul' input: 'inner:out:0' input: 'two:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'r' value: 'scaled:z:0' }
  }
  function {
    signature {
      name: 'thrice'
      input_arg { name: 'x' type: DT_FLOAT }
      input_arg { name: 'y' type: DT_FLOAT }
      output_arg { name: 'r' type: DT_FLOAT }
    }
    node_def {
      name: 'call'
      op: 'PartitionedCall'
      input: 'x'
      input: 'y'
      attr { key: 'Tin' value { list { type: [ DT_FLOAT, DT_FLOAT ] } } }
      attr { key: 'Tout' value { list { type: DT_FLOAT } } }
      attr { key: 'f' value { func { name: 'twice_mul_add' } } }
    }
    node_def {
      name: 'three'
      op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 3 } } }
    }
    node_def { name: 'scaled' op: 'Mul' input: 'call:output:0' input: 'three:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'r' value: 'scaled:z:0' }
  }
)pb";

/// bump(v: resource, delta: float) -> now: float: v += delta, then the value of v.
/// side(v: resource, x: float) -> y: float = x, with v += 1 as a control output;
/// side_lost: the same without the control output (its AssignAdd is pruned, as in TensorFlow).
const char* kResourceFunctions = R"pb(
  function {
    signature {
      name: 'bump'
      input_arg { name: 'v' type: DT_RESOURCE }
      input_arg { name: 'delta' type: DT_FLOAT }
      output_arg { name: 'now' type: DT_FLOAT }
      is_stateful: true
    }
    node_def { name: 'add' op: 'AssignAddVariableOp' input: 'v' input: 'delta' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node_def { name: 'read' op: 'ReadVariableOp' input: 'v' input: '^add' attr { key: 'dtype' value { type: DT_FLOAT } } }
    ret { key: 'now' value: 'read:value:0' }
  }
  function {
    signature {
      name: 'side'
      input_arg { name: 'v' type: DT_RESOURCE }
      input_arg { name: 'x' type: DT_FLOAT }
      output_arg { name: 'y' type: DT_FLOAT }
      is_stateful: true
      control_output: 'bump_v'
    }
    node_def {
      name: 'one'
      op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: [ 1, 1 ] } } }
    }
    node_def { name: 'add' op: 'AssignAddVariableOp' input: 'v' input: 'one:output:0' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node_def { name: 'pass' op: 'Identity' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'y' value: 'pass:output:0' }
    control_ret { key: 'bump_v' value: 'add' }
  }
  function {
    signature {
      name: 'side_lost'
      input_arg { name: 'v' type: DT_RESOURCE }
      input_arg { name: 'x' type: DT_FLOAT }
      output_arg { name: 'y' type: DT_FLOAT }
      is_stateful: true
    }
    node_def {
      name: 'one'
      op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: [ 1, 1 ] } } }
    }
    node_def { name: 'add' op: 'AssignAddVariableOp' input: 'v' input: 'one:output:0' attr { key: 'dtype' value { type: DT_FLOAT } } }
    node_def { name: 'pass' op: 'Identity' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
    ret { key: 'y' value: 'pass:output:0' }
  }
)pb";

/// endless(x: float) -> y: float = endless(x): recursion without a base case.
const char* kEndless = R"pb(
  function {
    signature {
      name: 'endless'
      input_arg { name: 'x' type: DT_FLOAT }
      output_arg { name: 'y' type: DT_FLOAT }
    }
    node_def { name: 'again' op: 'endless' input: 'x' }
    ret { key: 'y' value: 'again:y:0' }
  }
)pb";

std::string library(const std::string& functions)
{
    return "library {" + functions + "}\n";
}

std::string doubleConst(const std::string& name, const std::vector<double>& values)
{
    std::string text = "node { name: '" + name +
                       "' op: 'Const' attr { key: 'dtype' value { type: DT_DOUBLE } } attr { key: 'value' value { "
                       "tensor { dtype: DT_DOUBLE tensor_shape { dim { size: " +
                       std::to_string(values.size()) + " } }";
    for (double v : values)
        text += " double_val: " + std::to_string(v);
    return text + " } } } }\n";
}

std::string typeListAttr(const std::string& key, const std::vector<std::string>& types)
{
    std::string text = "attr { key: '" + key + "' value { list {";
    for (const std::string& t : types)
        text += " type: " + t;
    return text + " } } }";
}

/// A (Stateful)PartitionedCall node of `function` with `fattrs` ("attr { ... }" text inside f).
std::string partitionedCall(const std::string& name, const std::string& op, const std::string& function,
                            const std::vector<std::string>& inputs, const std::vector<std::string>& tin,
                            const std::vector<std::string>& tout, const std::string& fattrs = "")
{
    std::string text = "node { name: '" + name + "' op: '" + op + "'";
    for (const std::string& input : inputs)
        text += " input: '" + input + "'";
    return text + " " + typeListAttr("Tin", tin) + " " + typeListAttr("Tout", tout) +
           " attr { key: 'f' value { func { name: '" + function + "' " + fattrs + " } } } }\n";
}

/// A resource variable "v" holding `initial` (a vector of 2), with "v/init" to run once.
std::string resourceVariable(float a, float b)
{
    return "node { name: 'v' op: 'VarHandleOp' attr { key: 'dtype' value { type: DT_FLOAT } }"
           " attr { key: 'shape' value { shape { dim { size: 2 } } } } attr { key: 'shared_name' value { s: 'v' } }"
           " attr { key: 'container' value { s: '' } } }\n" +
           floatConstNode("v/initial", {2}, std::to_string(a) + ", " + std::to_string(b)) +
           "node { name: 'v/init' op: 'AssignVariableOp' input: 'v' input: 'v/initial'"
           " attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
           "node { name: 'v/read' op: 'ReadVariableOp' input: 'v' attr { key: 'dtype' value { type: DT_FLOAT } } }\n";
}

std::vector<float> floats(const Tensor& t)
{
    if (!t.isInitialized() || t.dtype() != tensorflow::DT_FLOAT)
        return {};
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}

std::vector<double> doubles(const Tensor& t)
{
    if (!t.isInitialized() || t.dtype() != tensorflow::DT_DOUBLE)
        return {};
    auto v = t.values<double>();
    return {v.begin(), v.end()};
}

/// Runs `session` for `fetches`; on error warns and returns empty tensors (which compare unequal).
std::vector<Tensor> fetch(Session& session, const std::vector<std::string>& fetches,
                          const std::vector<std::string>& targets = {})
{
    std::vector<Tensor> out;
    const Status s = session.run({}, fetches, targets, &out);
    if (!s.isOk())
        qWarning("run failed: %s", s.toString().c_str());
    return s.isOk() ? out : std::vector<Tensor>(fetches.size());
}

const std::vector<float> kA = {1.5f, -2.0f, 3.0f};
const std::vector<float> kB = {2.0f, 0.5f, -1.0f};

/// a * b + a element by element: what mul_add computes.
std::vector<float> mulAdd(const std::vector<float>& a, const std::vector<float>& b, float scale = 1.0f)
{
    std::vector<float> out;
    for (std::size_t i = 0; i < a.size(); ++i)
        out.push_back(scale * (a[i] * b[i] + a[i]));
    return out;
}

std::string abConsts()
{
    return floatConstNode("a", {3}, "1.5, -2, 3") + floatConstNode("b", {3}, "2, 0.5, -1");
}

} // namespace

class TestFunctionLibrary : public QObject {
    Q_OBJECT
private slots:
    void polymorphicFunctionCalledByNameForFloatAndDouble()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(kMulAdd) + abConsts() +
            "node { name: 'call_f' op: 'mul_add' input: 'a' input: 'b' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
            doubleConst("da", {1.25, -4.0}) + doubleConst("db", {0.1, 3.0}) +
            "node { name: 'call_d' op: 'mul_add' input: 'da' input: 'db' attr { key: 'T' value { type: DT_DOUBLE } } }\n";
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const auto out = fetch(*session, {"call_f:0", "call_d"});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(out[0].dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(floats(out[0]), mulAdd(kA, kB));
        QCOMPARE(out[1].dtype(), tensorflow::DT_DOUBLE);
        QCOMPARE(doubles(out[1]), (std::vector<double>{1.25 * 0.1 + 1.25, -4.0 * 3.0 - 4.0}));
        // A second run reuses the instantiations and gives the same values.
        QCOMPARE(floats(fetch(*session, {"call_f"}).at(0)), mulAdd(kA, kB));
    }

    void statefulAndPlainPartitionedCalls()
    {
        Fixture f;
        std::string error;
        const std::string fattr = "attr { key: 'T' value { type: DT_FLOAT } }";
        const std::string graph =
            library(kMulAdd) + abConsts() +
            partitionedCall("spc", "StatefulPartitionedCall", "mul_add", {"a", "b"}, {"DT_FLOAT", "DT_FLOAT"},
                            {"DT_FLOAT"}, fattr) +
            partitionedCall("pc", "PartitionedCall", "mul_add", {"b", "a"}, {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT"},
                            fattr);
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const auto out = fetch(*session, {"spc:0", "pc:0"});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(floats(out[0]), mulAdd(kA, kB));
        QCOMPARE(floats(out[1]), mulAdd(kB, kA));
        // The call's defaults are filled in as for any op.
        const tensorflow::NodeDef& spc = session->graph()->node(*session->graph()->findNode("spc"));
        QVERIFY(spc.attr().count("config_proto") == 1);
        QCOMPARE(spc.attr().at("executor_type").s(), std::string());
    }

    void listArgumentsAndTwoOutputs()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(kSumFirst) + abConsts() + floatConstNode("c", {3}, "10, 20, 30") +
            "node { name: 'by_name' op: 'sum_first' input: 'a' input: 'b' input: 'c'"
            " attr { key: 'N' value { i: 3 } } attr { key: 'T' value { type: DT_FLOAT } } }\n" +
            partitionedCall("spc", "StatefulPartitionedCall", "sum_first", {"c", "a"}, {"DT_FLOAT", "DT_FLOAT"},
                            {"DT_FLOAT", "DT_FLOAT"},
                            "attr { key: 'N' value { i: 2 } } attr { key: 'T' value { type: DT_FLOAT } }");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const auto out = fetch(*session, {"by_name:0", "by_name:1", "spc:0", "spc:1"});
        QCOMPARE(out.size(), std::size_t(4));
        const std::vector<float> c = {10, 20, 30};
        std::vector<float> abc, ca;
        for (std::size_t i = 0; i < 3; ++i) {
            abc.push_back(kA[i] + kB[i] + c[i]);
            ca.push_back(c[i] + kA[i]);
        }
        QCOMPARE(floats(out[0]), abc);
        QCOMPARE(floats(out[1]), kA);
        QCOMPARE(floats(out[2]), ca);
        QCOMPARE(floats(out[3]), c);
    }

    void instantiationExpandsListsAndNamesArgAndRetvalNodes()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        tensorflow::FunctionDefLibrary proto;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(kSumFirst, &proto));
        FunctionLibrary lib(ops);
        QVERIFY(lib.add(proto).isOk());
        FunctionCallTarget target{"sum_first", {}};
        target.attrs["N"].set_i(2);
        target.attrs["T"].set_type(tensorflow::DT_DOUBLE);
        auto body = instantiateFunction(lib, target);
        QVERIFY2(body, body ? "" : body.error().toString().c_str());
        QCOMPARE(body->argNodes, (std::vector<std::string>{"xs_0", "xs_1"}));
        QCOMPARE(body->argTypes, (std::vector<DataType>{tensorflow::DT_DOUBLE, tensorflow::DT_DOUBLE}));
        QCOMPARE(body->retNodes, (std::vector<std::string>{"total_RetVal", "first_RetVal"}));
        QCOMPARE(body->retTensors, (std::vector<std::string>{"add:0", "xs_0:0"}));
        // The body node got the call's attrs and graph-style inputs.
        const tensorflow::NodeDef* add = nullptr;
        for (const auto& node : body->graph.node())
            if (node.name() == "add")
                add = &node;
        QVERIFY(add);
        QCOMPARE(add->input_size(), 2);
        QCOMPARE(add->input(0), std::string("xs_0"));
        QCOMPARE(add->input(1), std::string("xs_1"));
        QCOMPARE(add->attr().at("T").type(), tensorflow::DT_DOUBLE);
        QCOMPARE(add->attr().at("N").i(), std::int64_t(2));
        // Equal attrs give equal keys, different ones different keys.
        FunctionCallTarget same = target;
        QCOMPARE(instantiationKey(same), instantiationKey(target));
        same.attrs["N"].set_i(3);
        QVERIFY(instantiationKey(same) != instantiationKey(target));
    }

    void nestedCallsByNameAndPartitioned()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(std::string(kMulAdd) + kNested) + abConsts() +
            partitionedCall("twice", "StatefulPartitionedCall", "twice_mul_add", {"a", "b"},
                            {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT"}) +
            "node { name: 'six' op: 'thrice' input: 'a' input: 'b' }\n";
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        const auto out = fetch(*session, {"twice", "six"});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(floats(out[0]), mulAdd(kA, kB, 2.0f));
        QCOMPARE(floats(out[1]), mulAdd(kA, kB, 6.0f));
    }

    void resourceArgumentChangesTheCallersVariable()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(kResourceFunctions) + resourceVariable(1.0f, -3.0f) + floatConstNode("delta", {2}, "0.5, 2") +
            partitionedCall("bump", "StatefulPartitionedCall", "bump", {"v", "delta"}, {"DT_RESOURCE", "DT_FLOAT"},
                            {"DT_FLOAT"});
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        QVERIFY(session->run({}, {}, {"v/init"}, nullptr).isOk());
        QCOMPARE(floats(fetch(*session, {"bump"}).at(0)), (std::vector<float>{1.5f, -1.0f}));
        QCOMPARE(floats(fetch(*session, {"bump"}).at(0)), (std::vector<float>{2.0f, 1.0f}));
        // The caller reads its own variable: the function changed it.
        QCOMPARE(floats(fetch(*session, {"v/read"}).at(0)), (std::vector<float>{2.0f, 1.0f}));
    }

    void controlOutputsRunEvenWhenUnused()
    {
        Fixture f;
        std::string error;
        const std::string graph =
            library(kResourceFunctions) + resourceVariable(0.0f, 10.0f) + floatConstNode("x", {1}, "7") +
            partitionedCall("side", "StatefulPartitionedCall", "side", {"v", "x"}, {"DT_RESOURCE", "DT_FLOAT"},
                            {"DT_FLOAT"}) +
            partitionedCall("lost", "StatefulPartitionedCall", "side_lost", {"v", "x"}, {"DT_RESOURCE", "DT_FLOAT"},
                            {"DT_FLOAT"});
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        QVERIFY(session->run({}, {}, {"v/init"}, nullptr).isOk());
        QCOMPARE(floats(fetch(*session, {"side"}).at(0)), (std::vector<float>{7.0f}));
        QCOMPARE(floats(fetch(*session, {"v/read"}).at(0)), (std::vector<float>{1.0f, 11.0f}));
        // Without the control output the AssignAdd feeds nothing the call returns: pruned.
        QCOMPARE(floats(fetch(*session, {"lost"}).at(0)), (std::vector<float>{7.0f}));
        QCOMPARE(floats(fetch(*session, {"v/read"}).at(0)), (std::vector<float>{1.0f, 11.0f}));
        // As a target only, the call still runs its control outputs.
        QVERIFY(session->run({}, {}, {"side"}, nullptr).isOk());
        QCOMPARE(floats(fetch(*session, {"v/read"}).at(0)), (std::vector<float>{2.0f, 12.0f}));
    }

    void shapesSeeThroughCalls()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        const std::string fattr = "attr { key: 'T' value { type: DT_FLOAT } }";
        const std::string text =
            library(std::string(kMulAdd) + kNested) +
            "node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: 2 } dim { size: 3 } } } } }\n"
            "node { name: 'q' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: 2 } dim { size: 3 } } } } }\n"
            "node { name: 'r' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: -1 } dim { size: 3 } } } } }\n"
            "node { name: 's' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: 2 } dim { size: -1 } } } } }\n"
            "node { name: 'by_name' op: 'mul_add' input: 'p' input: 'q' " +
            fattr + " }\n" +
            partitionedCall("spc", "StatefulPartitionedCall", "mul_add", {"r", "s"}, {"DT_FLOAT", "DT_FLOAT"},
                            {"DT_FLOAT"}, fattr) +
            "node { name: 'nested' op: 'thrice' input: 'p' input: 'q' }\n";
        tensorflow::GraphDef def;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(text, &def));
        auto graph = Graph::fromGraphDef(def);
        QVERIFY(graph);
        auto shapes = inferGraphShapes(*graph, ops, testAllocator());
        QVERIFY2(shapes, shapes ? "" : shapes.error().toString().c_str());
        QVERIFY2(shapes->status().isOk(), shapes->status().toString().c_str());
        const TensorShape expected(std::vector<std::int64_t>{2, 3});
        for (const char* name : {"by_name:0", "spc:0", "nested:0"}) {
            const InferredOutput* out = shapes->find(*graph, name);
            QVERIFY2(out, name);
            QCOMPARE(out->dtype, tensorflow::DT_FLOAT);
            QVERIFY2(out->shape == expected, (std::string(name) + " is " + out->shape.toString()).c_str());
        }
    }

    void shapeInferenceReportsABadCall()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        const std::string text = library(kMulAdd) + floatConstNode("a", {3}, "1, 2, 3") +
                                 partitionedCall("spc", "StatefulPartitionedCall", "absent", {"a"}, {"DT_FLOAT"},
                                                 {"DT_FLOAT"});
        tensorflow::GraphDef def;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(text, &def));
        auto graph = Graph::fromGraphDef(def);
        QVERIFY(graph);
        auto shapes = inferGraphShapes(*graph, ops, testAllocator());
        QVERIFY(shapes);
        QCOMPARE(shapes->status().code(), StatusCode::kNotFound);
        QVERIFY2(shapes->status().message().find("node 'spc': function 'absent' is not in the graph's library") !=
                     std::string::npos,
                 shapes->status().message().c_str());
        QVERIFY(shapes->find(*graph, "spc:0")->shape.isUnknownRank());
    }

    void missingFunctionFailsCreate()
    {
        Fixture f;
        std::string error;
        auto session = f.session(library(kMulAdd) + abConsts() +
                                     partitionedCall("call", "StatefulPartitionedCall", "nowhere", {"a", "b"},
                                                     {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT"}),
                                 &error);
        QVERIFY(!session);
        QCOMPARE(QString::fromStdString(error),
                 QString("NotFound: node 'call' (op 'StatefulPartitionedCall'): function 'nowhere' is not in the "
                         "graph's library"));
        // A call by name of an unknown function is an unknown op, in TensorFlow's words.
        session = f.session(abConsts() + "node { name: 'call' op: 'nowhere' input: 'a' }\n", &error);
        QVERIFY(!session);
        QVERIFY2(error.find("node 'call': Op type not registered 'nowhere'") != std::string::npos, error.c_str());
    }

    void endlessRecursionStopsWithTheDepthError()
    {
        Fixture f;
        std::string error;
        auto session = f.session(library(kEndless) + floatConstNode("x", {1}, "1") +
                                     "node { name: 'call' op: 'endless' input: 'x' }\n",
                                 &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({}, {"call"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kResourceExhausted);
        QVERIFY2(s.message().starts_with("node 'call' (op 'endless'): function 'endless' is called more than 100 deep"),
                 s.message().c_str());
        QVERIFY2(s.message().find("innermost call is node 'again'") != std::string::npos, s.message().c_str());
        // Reported once, not through a hundred levels of prefixes.
        QVERIFY2(s.message().size() < 300, s.message().c_str());
        // The session is still usable.
        QCOMPARE(session->run({}, {"x"}, {}, &out).code(), StatusCode::kOk);
    }

    void callsThatDoNotMatchTheSignatureFailCreate()
    {
        Fixture f;
        const std::string fattr = "attr { key: 'T' value { type: DT_FLOAT } }";
        std::string error;
        // One argument where mul_add takes two.
        auto session = f.session(library(kMulAdd) + abConsts() +
                                     partitionedCall("call", "StatefulPartitionedCall", "mul_add", {"a"},
                                                     {"DT_FLOAT"}, {"DT_FLOAT"}, fattr),
                                 &error);
        QVERIFY(!session);
        QCOMPARE(QString::fromStdString(error),
                 QString("InvalidArgument: node 'call' (op 'StatefulPartitionedCall'): function 'mul_add' has 2 "
                         "argument tensors (float, float), but Tin lists 1 (float)"));
        // Tin's dtype against the instantiation's.
        session = f.session(library(kMulAdd) + abConsts() + doubleConst("d", {1.0, 2.0, 3.0}) +
                                partitionedCall("call", "PartitionedCall", "mul_add", {"a", "d"},
                                                {"DT_FLOAT", "DT_DOUBLE"}, {"DT_FLOAT"}, fattr),
                            &error);
        QVERIFY(!session);
        QCOMPARE(QString::fromStdString(error),
                 QString("InvalidArgument: node 'call' (op 'PartitionedCall'): function 'mul_add': argument 1 is "
                         "float, but Tin[1] is double"));
        // Tout against the results.
        session = f.session(library(kMulAdd) + abConsts() +
                                partitionedCall("call", "PartitionedCall", "mul_add", {"a", "b"},
                                                {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT", "DT_FLOAT"}, fattr),
                            &error);
        QVERIFY(!session);
        QVERIFY2(error.find("function 'mul_add' has 1 result tensors (float), but Tout lists 2") != std::string::npos,
                 error.c_str());
        // A dtype the function's attr does not allow.
        session = f.session(library(kMulAdd) + intConstNode("i", 3) +
                                "node { name: 'call' op: 'mul_add' input: 'i' input: 'i'"
                                " attr { key: 'T' value { type: DT_INT32 } } }\n",
                            &error);
        QVERIFY(!session);
        QVERIFY2(error.find("Value for attr 'T' of int32 is not in the list of allowed values") != std::string::npos,
                 error.c_str());
        // A call by name with the wrong number of inputs.
        session = f.session(library(kMulAdd) + abConsts() +
                                "node { name: 'call' op: 'mul_add' input: 'a' " + fattr + " }\n",
                            &error);
        QVERIFY(!session);
        QVERIFY2(error.find("{{node call}}") != std::string::npos, error.c_str());
    }

    void bodyInputNamingAMissingOutputArg()
    {
        Fixture f;
        const char* bad = R"pb(
          function {
            signature {
              name: 'bad'
              input_arg { name: 'x' type: DT_FLOAT }
              output_arg { name: 'y' type: DT_FLOAT }
            }
            node_def { name: 'n' op: 'Identity' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
            node_def { name: 'm' op: 'Identity' input: 'n:wrong:0' attr { key: 'T' value { type: DT_FLOAT } } }
            ret { key: 'y' value: 'm:output:0' }
          }
        )pb";
        // As in TensorFlow, a body is read when a run reaches its call, not when the graph is created.
        std::string error;
        auto session = f.session(library(bad) + floatConstNode("x", {1}, "1") +
                                     partitionedCall("call", "StatefulPartitionedCall", "bad", {"x"}, {"DT_FLOAT"},
                                                     {"DT_FLOAT"}),
                                 &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({}, {"call"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("node 'call' (op 'StatefulPartitionedCall'): function 'bad': node 'm': input "
                                  "'n:wrong:0' is not found") != std::string::npos,
                 s.message().c_str());
        // A ret naming a missing tensor, and a ret of the wrong dtype.
        const char* badRet = R"pb(
          function {
            signature {
              name: 'bad_ret'
              input_arg { name: 'x' type: DT_FLOAT }
              output_arg { name: 'y' type: DT_INT32 }
            }
            node_def { name: 'n' op: 'Identity' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
            ret { key: 'y' value: 'n:output:0' }
          }
        )pb";
        session = f.session(library(badRet) + floatConstNode("x", {1}, "1") +
                                partitionedCall("call", "StatefulPartitionedCall", "bad_ret", {"x"}, {"DT_FLOAT"},
                                                {"DT_INT32"}),
                            &error);
        QVERIFY2(session, error.c_str());
        s = session->run({}, {"call"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("function 'bad_ret': output 'y' is 'n:output:0' of dtype float, but the signature "
                                  "calls for int32") != std::string::npos,
                 s.message().c_str());
    }

    void unreachedFunctionMayUseAnUnknownOp()
    {
        // A TF 2 SavedModel's saver function (`__inference__traced_save_*`) uses string and file ops
        // that only the saver's own call reaches: a graph holding such a call must load and run
        // everything else; only a run that reaches the call meets the missing op.
        const char* saver = R"pb(
          function {
            signature {
              name: '__inference__traced_save_7'
              input_arg { name: 'x' type: DT_FLOAT }
              output_arg { name: 'y' type: DT_FLOAT }
              is_stateful: true
            }
            node_def { name: 'odd' op: 'NoSuchSaverOp' input: 'x' attr { key: 'T' value { type: DT_FLOAT } } }
            ret { key: 'y' value: 'odd:output:0' }
          }
        )pb";
        Fixture f;
        const std::string fattr = "attr { key: 'T' value { type: DT_FLOAT } }";
        std::string error;
        auto session = f.session(library(std::string(kMulAdd) + saver) + abConsts() +
                                     partitionedCall("save", "StatefulPartitionedCall", "__inference__traced_save_7",
                                                     {"a"}, {"DT_FLOAT"}, {"DT_FLOAT"}) +
                                     partitionedCall("call", "PartitionedCall", "mul_add", {"a", "b"},
                                                     {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT"}, fattr),
                                 &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({}, {"call"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out.size(), std::size_t(1));
        s = session->run({}, {"save"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QVERIFY2(s.message().find("function '__inference__traced_save_7': node 'odd': Op type not registered "
                                  "'NoSuchSaverOp'") != std::string::npos,
                 s.message().c_str());
        // The signature is still checked when the graph is created: a call of the wrong arity fails there.
        session = f.session(library(saver) + abConsts() +
                                partitionedCall("save", "StatefulPartitionedCall", "__inference__traced_save_7",
                                                {"a", "b"}, {"DT_FLOAT", "DT_FLOAT"}, {"DT_FLOAT"}),
                            &error);
        QVERIFY(!session);
        QVERIFY2(error.find("function '__inference__traced_save_7' has 1 argument tensors (float), but Tin lists 2") !=
                     std::string::npos,
                 error.c_str());
    }

    void functionsLackingOpsAreListed()
    {
        // What `tstudio inspect` warns about: bodies naming ops neither registered nor in the library.
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        tensorflow::FunctionDefLibrary proto;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(std::string(kMulAdd) + R"pb(
          function {
            signature { name: 'saver' input_arg { name: 'x' type: DT_STRING } }
            node_def { name: 'a' op: 'ZetaSaverOp' input: 'x' }
            node_def { name: 'b' op: 'AlphaSaverOp' input: 'x' }
            node_def { name: 'c' op: 'ZetaSaverOp' input: 'x' }
            node_def { name: 'd' op: 'mul_add' input: 'x' input: 'x' }
            node_def { name: 'e' op: 'Identity' input: 'x' }
          }
        )pb",
                                                                &proto));
        const std::vector<FunctionOpGap> gaps = functionsLackingOps(proto, ops);
        QCOMPARE(gaps.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(gaps[0].function), QString("saver"));
        QCOMPARE(gaps[0].ops, (std::vector<std::string>{"AlphaSaverOp", "ZetaSaverOp"}));
    }

    void libraryErrors()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        FunctionLibrary lib(ops);
        tensorflow::FunctionDefLibrary proto;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(kMulAdd, &proto));
        QVERIFY(lib.add(proto).isOk());
        QVERIFY(lib.add(proto).isOk()); // an identical duplicate is ignored
        QCOMPARE(lib.size(), std::size_t(1));
        tensorflow::FunctionDefLibrary changed = proto;
        changed.mutable_function(0)->mutable_node_def(1)->set_op("Sub");
        Status s = lib.add(changed);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("Cannot add function 'mul_add' because a different function with the same name already "
                         "exists."));
        tensorflow::FunctionDefLibrary shadow = proto;
        shadow.mutable_function(0)->mutable_signature()->set_name("MatMul");
        s = lib.add(shadow);
        QCOMPARE(QString::fromStdString(s.message()),
                 QString("Cannot add function 'MatMul' because an op with the same name already exists."));
        QVERIFY(!lib.contains("MatMul"));
        QCOMPARE(lib.lookUpOpDef("mul_add").value()->name(), std::string("mul_add"));
        QCOMPARE(lib.lookUpOpDef("nope").error().code(), StatusCode::kNotFound);
    }

    void extendAddsFunctions()
    {
        Fixture f;
        std::string error;
        auto session = f.session(library(kMulAdd) + abConsts(), &error);
        QVERIFY2(session, error.c_str());
        tensorflow::GraphDef more;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(
            library(kSumFirst) + "node { name: 'both' op: 'sum_first' input: 'a' input: 'b'"
                                 " attr { key: 'N' value { i: 2 } } attr { key: 'T' value { type: DT_FLOAT } } }\n",
            &more));
        const Status s = session->extend(more);
        QVERIFY2(s.isOk(), s.toString().c_str());
        std::vector<float> sum;
        for (std::size_t i = 0; i < kA.size(); ++i)
            sum.push_back(kA[i] + kB[i]);
        QCOMPARE(floats(fetch(*session, {"both"}).at(0)), sum);
        QCOMPARE(session->graph()->graphDef().library().function_size(), 2);
        // A different body under a known name is refused.
        tensorflow::GraphDef clash;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(library(kSumFirst), &clash));
        clash.mutable_library()->mutable_function(0)->mutable_node_def(0)->set_name("renamed");
        QCOMPARE(session->extend(clash).code(), StatusCode::kInvalidArgument);
    }

    void graphDefLibraryRoundTrips()
    {
        tensorflow::GraphDef def;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(library(std::string(kMulAdd) + kSumFirst) + abConsts() +
                                                                  "node { name: 'call' op: 'mul_add' input: 'a' "
                                                                  "input: 'b' attr { key: 'T' value { type: "
                                                                  "DT_FLOAT } } }\n",
                                                              &def));
        QCOMPARE(def.library().function_size(), 2);
        for (GraphDefFormat format : {GraphDefFormat::kBinary, GraphDefFormat::kText}) {
            auto bytes = serializeGraphDef(def, format);
            QVERIFY(bytes);
            auto back = parseGraphDef(*bytes, "round trip");
            QVERIFY2(back, back ? "" : back.error().toString().c_str());
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(back->library(), def.library()));
        }
        // The session keeps the library in its graph, for export.
        Fixture f;
        std::string error;
        auto session = f.session(library(std::string(kMulAdd) + kSumFirst) + abConsts(), &error);
        QVERIFY2(session, error.c_str());
        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(session->graph()->graphDef().library(),
                                                                   def.library()));
    }
};

QTEST_GUILESS_MAIN(TestFunctionLibrary)
#include "test_function_library.moc"
