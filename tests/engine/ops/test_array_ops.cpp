// Tests for the array op family: OpDefs against TensorFlow's (the fixtures' stripped_op_list and
// TF 1.15 facts), and every shape function one line per case in TensorFlow's test notation.
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/array_shape_fns.h"
#include "ops/ops.h"
#include "ops/strided_slice_spec.h"

#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"

#include "../../support/test_files.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QFile>
#include <QTest>

#include <deque>
#include <optional>
#include <set>

using namespace tstudio;
using tensorflow::AttrValue;
using tensorflow::NodeDef;
using tensorflow::OpDef;

// --- The notation ------------------------------------------------------------------------------------
//
// A case is one line: INFER_OK(node, "inputs", "outputs") or INFER_ERROR(node, "inputs", "message").
// Inputs and outputs are shapes separated by ';': "?" is unknown rank, "[2,?,3]" a shape with an
// unknown dim, "[]" a scalar. An input may carry its known value: "[2]=[3,-1]" is a 1-D input of
// shape [2] holding 3 and -1 (in the input's dtype, int32 or int64), "[]=4" a scalar holding 4.
// INFER_ERROR passes when the
// shape function fails with InvalidArgument and its message contains the given text.

namespace {

AttrValue I(std::int64_t v)
{
    AttrValue a;
    a.set_i(v);
    return a;
}

AttrValue Type(DataType t)
{
    AttrValue a;
    a.set_type(t);
    return a;
}

AttrValue S(const std::string& s)
{
    AttrValue a;
    a.set_s(s);
    return a;
}

AttrValue Ints(std::initializer_list<std::int64_t> values)
{
    AttrValue a;
    a.mutable_list(); // an empty list is still a list
    for (std::int64_t v : values)
        a.mutable_list()->add_i(v);
    return a;
}

AttrValue Types(std::initializer_list<DataType> types)
{
    AttrValue a;
    for (DataType t : types)
        a.mutable_list()->add_type(t);
    return a;
}

/// "?" or "[2,?,3]".
TensorShape parseShape(const std::string& text)
{
    if (text == "?")
        return TensorShape::unknown();
    if (text.size() < 2 || text.front() != '[' || text.back() != ']')
        qFatal("test bug: bad shape '%s'", text.c_str());
    std::vector<std::int64_t> dims;
    const std::string body = text.substr(1, text.size() - 2);
    std::size_t start = 0;
    while (!body.empty() && start <= body.size()) {
        const std::size_t comma = std::min(body.find(',', start), body.size());
        const std::string item = body.substr(start, comma - start);
        dims.push_back(item == "?" ? -1 : std::stoll(item));
        start = comma + 1;
    }
    return TensorShape(std::move(dims));
}

/// "[3,-1]", "[]" or, for a scalar, "3".
std::vector<std::int64_t> parseValues(const std::string& text)
{
    if (text.empty() || text.front() != '[')
        return {std::stoll(text)};
    std::vector<std::int64_t> values;
    const std::string body = text.substr(1, text.size() - 2);
    for (std::size_t start = 0; !body.empty() && start <= body.size();) {
        const std::size_t comma = std::min(body.find(',', start), body.size());
        values.push_back(std::stoll(body.substr(start, comma - start)));
        start = comma + 1;
    }
    return values;
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> items;
    if (text.empty())
        return items;
    std::size_t start = 0;
    while (true) {
        const std::size_t semicolon = text.find(';', start);
        items.push_back(text.substr(start, semicolon - start));
        if (semicolon == std::string::npos)
            return items;
        start = semicolon + 1;
    }
}

AttrValue ShapeAttr(const std::string& notation)
{
    AttrValue a;
    *a.mutable_shape() = parseShape(notation).toProto();
    return a;
}

/// A Const `value`: a float tensor of the given shape (the shape function reads only the shape).
AttrValue TensorAttr(std::initializer_list<std::int64_t> dims)
{
    AttrValue a;
    a.mutable_tensor()->set_dtype(tensorflow::DT_FLOAT);
    for (std::int64_t d : dims)
        a.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(d);
    return a;
}

NodeDef node(const std::string& op, std::initializer_list<std::pair<std::string, AttrValue>> attrs = {})
{
    NodeDef n;
    n.set_name("n");
    n.set_op(op);
    for (const auto& [name, value] : attrs)
        (*n.mutable_attr())[name] = value;
    return n;
}

/// The registry the tests share: the array family alone.
const OpRegistry& registry()
{
    static OpRegistry* instance = [] {
        auto* r = new OpRegistry();
        const Status status = registerArrayOps(*r);
        if (!status.isOk())
            qFatal("registerArrayOps failed: %s", status.toString().c_str());
        return r;
    }();
    return *instance;
}

struct Inference {
    QString setupError; ///< a mistake in the test line itself
    Status status;
    std::vector<TensorShape> outputs;
};

/// Runs `nodeDef`'s shape function on the inputs spelled `inputs`. Type attrs the line leaves out
/// get the first allowed dtype (float when any), and defaults are filled as for an imported graph.
Inference infer(NodeDef nodeDef, const std::string& inputs)
{
    Inference result;
    auto registration = registry().lookUp(nodeDef.op());
    if (!registration) {
        result.setupError = QString::fromStdString(registration.error().toString());
        return result;
    }
    const OpDef& opDef = (*registration)->opDef;
    for (const auto& attr : opDef.attr()) {
        if (attr.type() == "type" && !attr.has_default_value() && nodeDef.attr().count(attr.name()) == 0) {
            const bool restricted = attr.has_allowed_values() && attr.allowed_values().list().type_size() > 0;
            (*nodeDef.mutable_attr())[attr.name()] =
                Type(restricted ? attr.allowed_values().list().type(0) : tensorflow::DT_FLOAT);
        }
    }
    addDefaultAttrs(opDef, &nodeDef);

    const std::vector<std::string> specs = splitList(inputs);
    for (std::size_t i = 0; i < specs.size(); ++i)
        nodeDef.add_input("x" + std::to_string(i));
    if (Status valid = validateNodeDef(opDef, nodeDef); !valid.isOk()) {
        result.setupError = QString::fromStdString(valid.toString());
        return result;
    }
    auto inputTypes = inputTypesForNode(opDef, nodeDef);
    auto outputTypes = outputTypesForNode(opDef, nodeDef);
    if (!inputTypes || !outputTypes) {
        result.setupError = "cannot compute the node's dtypes";
        return result;
    }

    static CpuAllocator allocator;
    std::deque<Tensor> values; // stable addresses for the context's pointers
    std::vector<TensorShape> shapes;
    std::vector<const Tensor*> valuePointers;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const std::size_t equals = specs[i].find('=');
        shapes.push_back(parseShape(specs[i].substr(0, equals)));
        valuePointers.push_back(nullptr);
        if (equals == std::string::npos)
            continue;
        const std::vector<std::int64_t> numbers = parseValues(specs[i].substr(equals + 1));
        const DataType dtype = baseType((*inputTypes)[i]);
        Expected<Tensor> tensor = unexpected(invalidArgumentError("unsupported value dtype"));
        if (dtype == tensorflow::DT_INT32)
            tensor =
                Tensor::fromVector(allocator, shapes.back(), std::vector<std::int32_t>(numbers.begin(), numbers.end()));
        else if (dtype == tensorflow::DT_INT64)
            tensor = Tensor::fromVector(allocator, shapes.back(), numbers);
        if (!tensor) {
            result.setupError = QString::fromStdString("input " + std::to_string(i) + ": " + tensor.error().toString());
            return result;
        }
        values.push_back(std::move(*tensor));
        valuePointers.back() = &values.back();
    }
    ShapeInferenceContext context(nodeDef, opDef, shapes, *inputTypes, valuePointers,
                                  static_cast<int>(outputTypes->size()));
    result.status = (*registration)->shapeFunction(context);
    result.outputs = context.outputs();
    return result;
}

QString joinShapes(const std::vector<TensorShape>& shapes)
{
    QStringList parts;
    for (const TensorShape& s : shapes)
        parts << (s.isUnknownRank() ? QString("?") : QString::fromStdString(s.toString()));
    return parts.join(';');
}

/// Empty when the outputs equal `expected`, else what went wrong.
QString checkOk(const NodeDef& n, const std::string& inputs, const std::string& expected)
{
    const Inference result = infer(n, inputs);
    if (!result.setupError.isEmpty())
        return "test line is wrong: " + result.setupError;
    if (!result.status.isOk())
        return QString::fromStdString(n.op() + "(" + inputs + ") failed: " + result.status.toString());
    std::vector<TensorShape> want;
    for (const std::string& s : splitList(expected))
        want.push_back(parseShape(s));
    if (result.outputs != want) {
        return QString::fromStdString(n.op() + "(" + inputs + "): expected " + expected + ", got ") +
               joinShapes(result.outputs);
    }
    return {};
}

/// Empty when the shape function fails with InvalidArgument mentioning `message`.
QString checkError(const NodeDef& n, const std::string& inputs, const std::string& message)
{
    const Inference result = infer(n, inputs);
    if (!result.setupError.isEmpty())
        return "test line is wrong: " + result.setupError;
    if (result.status.isOk())
        return QString::fromStdString(n.op() + "(" + inputs + ") succeeded with ") + joinShapes(result.outputs) +
               QString::fromStdString(", expected the error: " + message);
    if (result.status.code() != StatusCode::kInvalidArgument ||
        result.status.message().find(message) == std::string::npos) {
        return QString::fromStdString(n.op() + "(" + inputs + "): expected an error containing '" + message +
                                      "', got " + result.status.toString());
    }
    return {};
}

#define INFER_OK(n, inputs, expected)                                                                                  \
    do {                                                                                                               \
        const QString failure = checkOk(n, inputs, expected);                                                          \
        QVERIFY2(failure.isEmpty(), qPrintable(failure));                                                              \
    } while (false)

#define INFER_ERROR(n, inputs, message)                                                                                \
    do {                                                                                                               \
        const QString failure = checkError(n, inputs, message);                                                        \
        QVERIFY2(failure.isEmpty(), qPrintable(failure));                                                              \
    } while (false)

/// Empty when equal, else both messages and the differences.
QString differences(const OpDef& actual, const OpDef& expected)
{
    std::string report;
    google::protobuf::util::MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&report);
    if (differencer.Compare(expected, actual))
        return {};
    return QString::fromStdString("OpDef " + expected.name() + " differs (expected -> actual):\n" + report +
                                  "actual:\n" + actual.DebugString());
}

/// An OpDef without its documentation, which TensorFlow strips from MetaGraphDefs.
OpDef withoutDocs(OpDef opDef)
{
    opDef.clear_summary();
    opDef.clear_description();
    for (auto& arg : *opDef.mutable_input_arg())
        arg.clear_description();
    for (auto& arg : *opDef.mutable_output_arg())
        arg.clear_description();
    for (auto& attr : *opDef.mutable_attr())
        attr.clear_description();
    return opDef;
}

OpDef opDefFromText(const std::string& text)
{
    OpDef opDef;
    if (!google::protobuf::TextFormat::ParseFromString(text, &opDef))
        qFatal("test bug: cannot parse expected OpDef: %s", text.c_str());
    return opDef;
}

/// The stripped_op_list of a fixture MetaGraphDef (or of a SavedModel's first MetaGraphDef).
std::optional<tensorflow::OpList> fixtureOpList(const QString& relativePath, bool savedModel, std::string* version)
{
    QFile file(tstudio::testing::fixturesDir() + "/" + relativePath);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    tensorflow::MetaGraphDef meta;
    if (savedModel) {
        tensorflow::SavedModel model;
        if (!model.ParseFromArray(bytes.constData(), static_cast<int>(bytes.size())) || model.meta_graphs_size() == 0)
            return std::nullopt;
        meta = model.meta_graphs(0);
    } else if (!meta.ParseFromArray(bytes.constData(), static_cast<int>(bytes.size()))) {
        return std::nullopt;
    }
    *version = meta.meta_info_def().tensorflow_version();
    return meta.meta_info_def().stripped_op_list();
}

} // namespace

class TestArrayOps : public QObject {
    Q_OBJECT
private slots:
    // --- Registration ---------------------------------------------------------------------------------

    void registersTheFamilyWithShapeFunctionsAndCategory()
    {
        const QStringList names = QString("BroadcastArgs BroadcastGradientArgs BroadcastTo Concat ConcatOffset "
                                          "ConcatV2 Const Cumprod Cumsum DynamicStitch ExpandDims Fill Gather "
                                          "GatherV2 Identity IdentityN InvertPermutation ListDiff MirrorPad OneHot "
                                          "OnesLike "
                                          "Pack Pad PadV2 ParallelDynamicStitch Placeholder "
                                          "PlaceholderV2 PlaceholderWithDefault PreventGradient Rank Reshape "
                                          "ReverseSequence ReverseV2 Shape ShapeN Size Slice Snapshot Split "
                                          "SplitV Squeeze StopGradient StridedSlice StridedSliceGrad Tile Transpose "
                                          "Unique Unpack Where ZerosLike")
                                      .split(' ');
        std::vector<std::string> expected;
        for (const QString& name : names)
            expected.push_back(name.toStdString());
        std::vector<std::string> sorted = expected;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(registry().opNames(), sorted);
        for (const std::string& name : expected) {
            const OpRegistration* r = registry().find(name);
            QVERIFY2(r != nullptr, name.c_str());
            QVERIFY2(static_cast<bool>(r->shapeFunction), name.c_str());
            QCOMPARE(QString::fromStdString(r->category), QString("Array"));
            QVERIFY2(!r->opDef.summary().empty(), name.c_str());
            QVERIFY2(!r->opDef.is_stateful(), name.c_str());
        }
        // A second registration into the same registry is refused, not silently duplicated.
        OpRegistry twice;
        QVERIFY(registerArrayOps(twice).isOk());
        QCOMPARE(registerArrayOps(twice).code(), StatusCode::kAlreadyExists);
    }

    void opDefsEqualTensorFlowsInTheFixtures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("savedModel");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QStringList>("ops");
        // TF 1.11: the reference.
        QTest::newRow("tf2onnx checkpoint (TF 1.11)") << "tf2onnx/regression/checkpoint/model.meta" << false << "1.11.0"
                                                      << QStringList{"BroadcastGradientArgs",
                                                                     "Const",
                                                                     "DynamicStitch",
                                                                     "Fill",
                                                                     "Identity",
                                                                     "Placeholder",
                                                                     "Rank",
                                                                     "Reshape",
                                                                     "Shape",
                                                                     "Size",
                                                                     "Tile",
                                                                     "ZerosLike"};
        QTest::newRow("tf2onnx saved_model (TF 1.11)")
            << "tf2onnx/regression/saved_model/saved_model.pb" << true << "1.11.0"
            << QStringList{"BroadcastGradientArgs",
                           "Const",
                           "DynamicStitch",
                           "Fill",
                           "Identity",
                           "Pack",
                           "Placeholder",
                           "Rank",
                           "Reshape",
                           "Shape",
                           "Size",
                           "Tile",
                           "ZerosLike"};
        // TF 1.3: Fill had no index_type attr yet (its dims input was plain int32); checked below.
        QTest::newRow("mnist book (TF 1.3)")
            << "tf1-mnist-book/mnist_model-29001.meta" << false << "1.3.0"
            << QStringList{"BroadcastGradientArgs", "Const",   "ExpandDims", "Fill", "Identity", "Placeholder",
                           "PreventGradient",       "Reshape", "Shape",      "Tile", "ZerosLike"};
    }

    void opDefsEqualTensorFlowsInTheFixtures()
    {
        QFETCH(QString, path);
        QFETCH(bool, savedModel);
        QFETCH(QString, version);
        QFETCH(QStringList, ops);
        if (tstudio::testing::fixturesDir().isEmpty())
            QSKIP("fixtures not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        std::string fileVersion;
        const auto list = fixtureOpList(path, savedModel, &fileVersion);
        if (!list)
            QSKIP(qPrintable("fixture " + path + " is missing or unreadable"));
        QCOMPARE(QString::fromStdString(fileVersion), version);

        QStringList compared;
        for (const OpDef& stored : list->op()) {
            const OpRegistration* ours = registry().find(stored.name());
            if (ours == nullptr)
                continue; // another family's op
            compared << QString::fromStdString(stored.name());
            if (version == "1.3.0" && stored.name() == "Fill") {
                // TF 1.3's Fill: `dims: int32`, no index_type. A graph using it still validates against
                // TF 1.11+'s OpDef, where index_type defaults to int32.
                QCOMPARE(stored.input_arg(0).type(), tensorflow::DT_INT32);
                QCOMPARE(stored.attr_size(), 1);
                QVERIFY(!differences(withoutDocs(ours->opDef), stored).isEmpty());
                continue;
            }
            const QString diff = differences(withoutDocs(ours->opDef), stored);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        // The loader must not skip silently: exactly these ops of the family are in the file.
        QCOMPARE(compared, ops);
    }

    void opDefsOfOpsNotInTheFixtures()
    {
        // TensorFlow 1.15's OpDefs (ops_history_v1 and array_ops.cc), for the ops whose arg order,
        // defaults or type lists are easiest to get wrong.
        const char* const expected[] = {
            R"pb(name: "ConcatV2"
                 input_arg { name: "values" type_attr: "T" number_attr: "N" }
                 input_arg { name: "axis" type_attr: "Tidx" }
                 output_arg { name: "output" type_attr: "T" }
                 attr { name: "N" type: "int" has_minimum: true minimum: 2 }
                 attr { name: "T" type: "type" }
                 attr {
                   name: "Tidx" type: "type" default_value { type: DT_INT32 }
                   allowed_values { list { type: [ DT_INT32, DT_INT64 ] } }
                 })pb",
            R"pb(name: "Split"
                 input_arg { name: "split_dim" type: DT_INT32 }
                 input_arg { name: "value" type_attr: "T" }
                 output_arg { name: "output" type_attr: "T" number_attr: "num_split" }
                 attr { name: "num_split" type: "int" has_minimum: true minimum: 1 }
                 attr { name: "T" type: "type" })pb",
            R"pb(name: "SplitV"
                 input_arg { name: "value" type_attr: "T" }
                 input_arg { name: "size_splits" type_attr: "Tlen" }
                 input_arg { name: "split_dim" type: DT_INT32 }
                 output_arg { name: "output" type_attr: "T" number_attr: "num_split" }
                 attr { name: "num_split" type: "int" has_minimum: true minimum: 1 }
                 attr { name: "T" type: "type" }
                 attr {
                   name: "Tlen" type: "type" default_value { type: DT_INT64 }
                   allowed_values { list { type: [ DT_INT32, DT_INT64 ] } }
                 })pb",
            R"pb(name: "Unpack"
                 input_arg { name: "value" type_attr: "T" }
                 output_arg { name: "output" type_attr: "T" number_attr: "num" }
                 attr { name: "num" type: "int" has_minimum: true }
                 attr { name: "T" type: "type" }
                 attr { name: "axis" type: "int" default_value { i: 0 } })pb",
            R"pb(name: "StridedSlice"
                 input_arg { name: "input" type_attr: "T" }
                 input_arg { name: "begin" type_attr: "Index" }
                 input_arg { name: "end" type_attr: "Index" }
                 input_arg { name: "strides" type_attr: "Index" }
                 output_arg { name: "output" type_attr: "T" }
                 attr { name: "T" type: "type" }
                 attr { name: "Index" type: "type" allowed_values { list { type: [ DT_INT32, DT_INT64 ] } } }
                 attr { name: "begin_mask" type: "int" default_value { i: 0 } }
                 attr { name: "end_mask" type: "int" default_value { i: 0 } }
                 attr { name: "ellipsis_mask" type: "int" default_value { i: 0 } }
                 attr { name: "new_axis_mask" type: "int" default_value { i: 0 } }
                 attr { name: "shrink_axis_mask" type: "int" default_value { i: 0 } })pb",
            R"pb(name: "Squeeze"
                 input_arg { name: "input" type_attr: "T" }
                 output_arg { name: "output" type_attr: "T" }
                 attr { name: "T" type: "type" }
                 attr { name: "squeeze_dims" type: "list(int)" default_value { list {} } has_minimum: true })pb",
            R"pb(name: "GatherV2"
                 input_arg { name: "params" type_attr: "Tparams" }
                 input_arg { name: "indices" type_attr: "Tindices" }
                 input_arg { name: "axis" type_attr: "Taxis" }
                 output_arg { name: "output" type_attr: "Tparams" }
                 attr { name: "batch_dims" type: "int" default_value { i: 0 } }
                 attr { name: "Tparams" type: "type" }
                 attr { name: "Tindices" type: "type" allowed_values { list { type: [ DT_INT32, DT_INT64 ] } } }
                 attr { name: "Taxis" type: "type" allowed_values { list { type: [ DT_INT32, DT_INT64 ] } } })pb",
            R"pb(name: "OneHot"
                 input_arg { name: "indices" type_attr: "TI" }
                 input_arg { name: "depth" type: DT_INT32 }
                 input_arg { name: "on_value" type_attr: "T" }
                 input_arg { name: "off_value" type_attr: "T" }
                 output_arg { name: "output" type_attr: "T" }
                 attr { name: "axis" type: "int" default_value { i: -1 } }
                 attr { name: "T" type: "type" }
                 attr {
                   name: "TI" type: "type" default_value { type: DT_INT64 }
                   allowed_values { list { type: [ DT_UINT8, DT_INT32, DT_INT64 ] } }
                 })pb",
            // numbertype in dtype enum order, then bool (ops_history_v1/Where.pbtxt, last entry).
            R"pb(name: "Where"
                 input_arg { name: "input" type_attr: "T" }
                 output_arg { name: "index" type: DT_INT64 }
                 attr {
                   name: "T" type: "type" default_value { type: DT_BOOL }
                   allowed_values {
                     list {
                       type: [ DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, DT_INT64,
                               DT_QINT8, DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_UINT16, DT_COMPLEX128, DT_HALF,
                               DT_UINT32, DT_UINT64, DT_BOOL ]
                     }
                   }
                 })pb",
            R"pb(name: "MirrorPad"
                 input_arg { name: "input" type_attr: "T" }
                 input_arg { name: "paddings" type_attr: "Tpaddings" }
                 output_arg { name: "output" type_attr: "T" }
                 attr { name: "T" type: "type" }
                 attr {
                   name: "Tpaddings" type: "type" default_value { type: DT_INT32 }
                   allowed_values { list { type: [ DT_INT32, DT_INT64 ] } }
                 }
                 attr { name: "mode" type: "string" allowed_values { list { s: [ "REFLECT", "SYMMETRIC" ] } } })pb",
            R"pb(name: "PlaceholderV2"
                 output_arg { name: "output" type_attr: "dtype" }
                 attr { name: "dtype" type: "type" }
                 attr { name: "shape" type: "shape" }
                 deprecation { version: 23 explanation: "Placeholder now behaves the same as PlaceholderV2." })pb",
            R"pb(name: "IdentityN"
                 input_arg { name: "input" type_list_attr: "T" }
                 output_arg { name: "output" type_list_attr: "T" }
                 attr { name: "T" type: "list(type)" has_minimum: true minimum: 1 })pb",
            R"pb(name: "ReverseV2"
                 input_arg { name: "tensor" type_attr: "T" }
                 input_arg { name: "axis" type_attr: "Tidx" }
                 output_arg { name: "output" type_attr: "T" }
                 attr {
                   name: "Tidx" type: "type" default_value { type: DT_INT32 }
                   allowed_values { list { type: [ DT_INT32, DT_INT64 ] } }
                 }
                 attr {
                   name: "T" type: "type"
                   allowed_values {
                     list {
                       type: [ DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32, DT_INT64, DT_BOOL, DT_BFLOAT16,
                               DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_STRING ]
                     }
                   }
                 })pb",
            R"pb(name: "Cumsum"
                 input_arg { name: "x" type_attr: "T" }
                 input_arg { name: "axis" type_attr: "Tidx" }
                 output_arg { name: "out" type_attr: "T" }
                 attr { name: "exclusive" type: "bool" default_value { b: false } }
                 attr { name: "reverse" type: "bool" default_value { b: false } }
                 attr {
                   name: "T" type: "type"
                   allowed_values {
                     list {
                       type: [ DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, DT_INT64,
                               DT_QINT8, DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_UINT16, DT_COMPLEX128, DT_HALF,
                               DT_UINT32, DT_UINT64 ]
                     }
                   }
                 }
                 attr {
                   name: "Tidx" type: "type" default_value { type: DT_INT32 }
                   allowed_values { list { type: [ DT_INT32, DT_INT64 ] } }
                 })pb",
        };
        for (const char* text : expected) {
            const OpDef want = opDefFromText(text);
            const OpRegistration* ours = registry().find(want.name());
            QVERIFY2(ours != nullptr, want.name().c_str());
            const QString diff = differences(withoutDocs(ours->opDef), want);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
    }

    // --- Sources and identities -----------------------------------------------------------------------

    void constAndPlaceholders()
    {
        INFER_OK(node("Const", {{"value", TensorAttr({2, 3})}, {"dtype", Type(tensorflow::DT_FLOAT)}}), "", "[2,3]");
        INFER_OK(node("Const", {{"value", TensorAttr({})}, {"dtype", Type(tensorflow::DT_FLOAT)}}), "", "[]");
        INFER_OK(node("Const", {{"value", TensorAttr({0})}, {"dtype", Type(tensorflow::DT_FLOAT)}}), "", "[0]");
        INFER_ERROR(node("Const", {{"value", TensorAttr({-1, 3})}, {"dtype", Type(tensorflow::DT_FLOAT)}}), "",
                    "Shape [?,3] is not fully defined");

        INFER_OK(node("Placeholder", {{"shape", ShapeAttr("[2,?]")}}), "", "[2,?]");
        INFER_OK(node("Placeholder", {{"shape", ShapeAttr("[]")}}), "", "[]");
        INFER_OK(node("Placeholder", {{"shape", ShapeAttr("?")}}), "", "?");
        INFER_OK(node("Placeholder"), "", "?"); // the default: unknown_rank
        INFER_OK(node("PlaceholderV2", {{"shape", ShapeAttr("[?,4]")}}), "", "[?,4]");

        INFER_OK(node("PlaceholderWithDefault", {{"shape", ShapeAttr("[?,3]")}}), "[2,3]", "[?,3]");
        INFER_OK(node("PlaceholderWithDefault", {{"shape", ShapeAttr("?")}}), "[2,3]", "?");
        INFER_ERROR(node("PlaceholderWithDefault", {{"shape", ShapeAttr("[?,3]")}}), "[2,4]",
                    "Dimension 1 in both shapes must be equal, but are 4 and 3. Shapes are [2,4] and [?,3].");
        INFER_ERROR(node("PlaceholderWithDefault", {{"shape", ShapeAttr("[?,3]")}}), "[3]",
                    "Shapes must be equal rank, but are 1 and 2");
    }

    void placeholderWithoutShapeAttrIsUnknownRank()
    {
        // A NodeDef whose defaults were never filled in (no `shape` attr at all).
        const OpDef& opDef = registry().find("Placeholder")->opDef;
        NodeDef n = node("Placeholder", {{"dtype", Type(tensorflow::DT_FLOAT)}});
        ShapeInferenceContext c(n, opDef, {}, {}, {}, 1);
        c.setOutput(0, TensorShape{7});
        QVERIFY(placeholderShape(c).isOk());
        QVERIFY(c.output(0).isUnknownRank());
    }

    void identitiesKeepTheirInputShape()
    {
        for (const char* op : {"Identity", "Snapshot", "StopGradient", "PreventGradient", "ZerosLike", "OnesLike"}) {
            INFER_OK(node(op), "[2,?]", "[2,?]");
            INFER_OK(node(op), "?", "?");
        }
        INFER_OK(node("IdentityN", {{"T", Types({tensorflow::DT_FLOAT, tensorflow::DT_INT32})}}), "[2];?", "[2];?");
        INFER_OK(node("Cumsum"), "[2,3];[]", "[2,3]");
        INFER_OK(node("Cumprod"), "[2,3];[]", "[2,3]");
    }

    // --- Shapes ---------------------------------------------------------------------------------------

    void shapeSizeRank()
    {
        INFER_OK(node("Shape"), "[2,3]", "[2]");
        INFER_OK(node("Shape"), "[]", "[0]");
        INFER_OK(node("Shape"), "?", "[?]");
        INFER_OK(node("ShapeN", {{"N", I(3)}}), "[2,3];?;[]", "[2];[?];[0]");
        INFER_OK(node("Size"), "[2,3]", "[]");
        INFER_OK(node("Size"), "?", "[]");
        INFER_OK(node("Rank"), "?", "[]");
    }

    // --- Reshaping ------------------------------------------------------------------------------------

    void reshape()
    {
        const NodeDef r = node("Reshape");
        INFER_OK(r, "[2,3];[2]=[3,2]", "[3,2]");
        INFER_OK(r, "[2,3];[2]=[3,-1]", "[3,2]");
        INFER_OK(r, "[4,3];[3]=[2,-1,3]", "[2,2,3]");
        INFER_OK(r, "[0,3];[2]=[-1,3]", "[0,3]");
        INFER_OK(r, "[2,3];[1]=[-1]", "[6]");
        INFER_OK(r, "[];[0]=[]", "[]");
        INFER_OK(r, "[1];[0]=[]", "[]");
        INFER_ERROR(r, "[6];[1]=[4]", "Cannot reshape a tensor with 6 elements to shape [4] (4 elements)");
        INFER_ERROR(r, "[2,3];[0]=[]", "Cannot reshape a tensor with 6 elements to shape [] (1 elements)");
        INFER_ERROR(r, "[6];[2]=[4,-1]", "Dimension size must be evenly divisible by 4 but is 6");
        // One unknown dim in the input: a fully known output is checked, a partial one kept.
        INFER_OK(r, "[?,3];[2]=[2,3]", "[2,3]");
        INFER_ERROR(r, "[?,3];[2]=[4,5]", "Dimension size must be evenly divisible by 3 but is 20");
        INFER_OK(r, "[?,3];[2]=[3,-1]", "[3,?]");
        INFER_OK(r, "[2,?,?];[2]=[-1,2]", "[?,2]");
        INFER_OK(r, "[2,3];[2]=[-1,-1]", "[?,?]");
        INFER_OK(r, "?;[2]=[-1,4]", "[?,4]");
        // The shape input unknown: its length gives the rank.
        INFER_OK(r, "[2,3];[2]", "[?,?]");
        INFER_OK(r, "[2,3];[?]", "?");
        INFER_OK(r, "[2,3];?", "?");
        INFER_ERROR(r, "[2,3];[]=1", "Shape must be rank 1 but is rank 0");
        INFER_ERROR(r, "[2,3];[2]=[-2,3]", "Invalid value in tensor used for shape: -2");
        INFER_OK(node("Reshape", {{"Tshape", Type(tensorflow::DT_INT64)}}), "[2,3];[2]=[-1,2]", "[3,2]");
    }

    void expandDims()
    {
        const NodeDef e = node("ExpandDims");
        INFER_OK(e, "[2,3];[]=0", "[1,2,3]");
        INFER_OK(e, "[2,3];[]=1", "[2,1,3]");
        INFER_OK(e, "[2,3];[]=2", "[2,3,1]");
        INFER_OK(e, "[2,3];[]=-1", "[2,3,1]");
        INFER_OK(e, "[2,3];[]=-3", "[1,2,3]");
        INFER_OK(e, "[];[]=0", "[1]");
        INFER_OK(e, "[2,3];[1]=[1]", "[2,1,3]"); // a one-element vector is accepted
        INFER_ERROR(e, "[2,3];[]=3", "dim 3 not in the interval [-3, 2].");
        INFER_ERROR(e, "[2,3];[]=-4", "dim -4 not in the interval [-3, 2].");
        INFER_ERROR(e, "[2,3];[2]=[0,1]", "'dim' input must be a tensor with a single value");
        INFER_OK(e, "[2,3];[]", "?");
        INFER_OK(e, "?;[]=0", "?");
        INFER_OK(node("ExpandDims", {{"Tdim", Type(tensorflow::DT_INT64)}}), "[2,3];[]=-1", "[2,3,1]");
    }

    void squeeze()
    {
        INFER_OK(node("Squeeze"), "[1,2,1,3]", "[2,3]");
        INFER_OK(node("Squeeze", {{"squeeze_dims", Ints({0})}}), "[1,2,1,3]", "[2,1,3]");
        INFER_OK(node("Squeeze", {{"squeeze_dims", Ints({-2})}}), "[1,2,1,3]", "[1,2,3]");
        INFER_OK(node("Squeeze", {{"squeeze_dims", Ints({0, 2})}}), "[1,2,1,3]", "[2,3]");
        INFER_ERROR(node("Squeeze", {{"squeeze_dims", Ints({1})}}), "[1,2,1,3]",
                    "Can not squeeze dim[1], expected a dimension of 1, got 2");
        INFER_ERROR(node("Squeeze", {{"squeeze_dims", Ints({4})}}), "[1,2,1,3]", "squeeze_dims[0] not in [-4,4).");
        INFER_ERROR(node("Squeeze", {{"squeeze_dims", Ints({0, -5})}}), "[1,2,1,3]", "squeeze_dims[1] not in [-4,4).");
        // An unknown dim: assumed 1 when listed; squeezing every 1 makes the result unknown.
        INFER_OK(node("Squeeze", {{"squeeze_dims", Ints({1})}}), "[1,?,3]", "[1,3]");
        INFER_OK(node("Squeeze"), "[1,?,3]", "?");
        INFER_OK(node("Squeeze"), "[2,3]", "[2,3]");
        INFER_OK(node("Squeeze"), "?", "?");
    }

    void transposeAndInvertPermutation()
    {
        const NodeDef t = node("Transpose");
        INFER_OK(t, "[2,3,4];[3]=[2,0,1]", "[4,2,3]");
        INFER_OK(t, "[2,?,4];[3]=[1,2,0]", "[?,4,2]");
        INFER_OK(t, "[2,3];[2]=[-1,0]", "[3,2]"); // as TensorFlow, negative entries count from the end
        INFER_OK(t, "[2,3,4];[3]", "[?,?,?]");
        INFER_OK(t, "?;[3]=[2,0,1]", "[?,?,?]");
        INFER_OK(t, "?;[3]", "[?,?,?]");
        INFER_OK(t, "?;[1]", "?"); // a one-element perm fits a scalar or a vector
        INFER_OK(t, "?;?", "?");
        INFER_OK(t, "[];[0]", "[]");
        INFER_ERROR(t, "[2,3,4];[2]=[1,0]", "Dimension must be 3 but is 2");
        INFER_ERROR(t, "[2,3,4];[3]=[0,1,3]", "perm dim 3 is out of range of input rank 3");
        INFER_ERROR(t, "[2,3];[2,2]", "Shape must be rank 1 but is rank 2");

        INFER_OK(node("InvertPermutation"), "[5]", "[5]");
        INFER_OK(node("InvertPermutation"), "?", "[?]");
        INFER_ERROR(node("InvertPermutation"), "[2,2]", "Shape must be rank 1 but is rank 2");
    }

    // --- Joining and splitting -------------------------------------------------------------------------

    void concatV2()
    {
        const NodeDef c = node("ConcatV2", {{"N", I(2)}});
        INFER_OK(c, "[2,3];[2,4];[]=1", "[2,7]");
        INFER_OK(c, "[2,3];[2,4];[]=-1", "[2,7]");
        INFER_OK(c, "[2,3];[4,3];[]=0", "[6,3]");
        INFER_OK(c, "[2,3];[4,3];[]=-2", "[6,3]");
        INFER_OK(c, "[2,3];[2,?];[]=1", "[2,?]");
        INFER_OK(c, "[?,3];[2,?];[]=0", "[?,3]");
        INFER_OK(c, "?;[2,4];[]=1", "[2,?]");
        INFER_OK(c, "[0,3];[2,3];[]=0", "[2,3]");
        INFER_ERROR(c, "[2,3];[3,4];[]=1",
                    "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].");
        INFER_ERROR(c, "[2,3];[2,4];[]=0",
                    "Dimension 0 in both shapes must be equal, but are 3 and 4. Shapes are [3] and [4].");
        INFER_ERROR(c, "[2,3];[2,3,1];[]=0", "Shapes must be equal rank, but are 1 and 2");
        INFER_ERROR(c, "[2,3];[2,3];[]=2", "Shape must be at least rank 3 but is rank 2");
        INFER_ERROR(c, "[2,3];[2,3];[]=-3", "Shape must be at least rank 3 but is rank 2");
        INFER_ERROR(c, "[2,3];[2,4];[1]", "Shape must be rank 0 but is rank 1");
        // The axis unknown: only the rank, which every input must have.
        INFER_OK(c, "[2,3];[2,3];[]", "[?,?]");
        INFER_OK(c, "?;[2,3];[]", "[?,?]");
        INFER_OK(c, "?;?;[]", "?");
        INFER_ERROR(c, "[];[];[]", "Can't concatenate scalars (use tf.stack instead)");
        INFER_ERROR(c, "[2,3];[2];[]", "Shape must be rank 2 but is rank 1");
        INFER_OK(node("ConcatV2", {{"N", I(3)}}), "[1,2];[3,2];[5,2];[]=0", "[9,2]");
        INFER_OK(node("ConcatV2", {{"N", I(2)}, {"Tidx", Type(tensorflow::DT_INT64)}}), "[2,3];[2,4];[]=1", "[2,7]");
    }

    void concatAndConcatOffset()
    {
        const NodeDef c = node("Concat", {{"N", I(2)}});
        INFER_OK(c, "[]=1;[2,3];[2,4]", "[2,7]");
        INFER_OK(c, "[];[2,3];[2,4]", "[?,?]");
        INFER_ERROR(c, "[]=0;[2,3];[2,4]",
                    "Dimension 0 in both shapes must be equal, but are 3 and 4. Shapes are [3] and [4].");
        INFER_OK(node("ConcatOffset", {{"N", I(2)}}), "[];[3];[3]", "[3];[3]");
        INFER_OK(node("ConcatOffset", {{"N", I(3)}}), "[];[2];[2];?", "[2];[2];?");
    }

    void split()
    {
        const NodeDef s = node("Split", {{"num_split", I(2)}});
        INFER_OK(s, "[]=1;[2,4]", "[2,2];[2,2]");
        INFER_OK(s, "[]=-1;[2,4]", "[2,2];[2,2]");
        INFER_OK(s, "[]=0;[?,4]", "[?,4];[?,4]");
        INFER_ERROR(s, "[]=0;[3,4]",
                    "Dimension size must be evenly divisible by 2 but is 3\n\tNumber of ways to split should evenly "
                    "divide the split dimension");
        INFER_ERROR(s, "[]=2;[2,4]", "Dimension size, given by scalar input 2 must be in range [-2, 2)");
        INFER_ERROR(s, "[]=-3;[2,4]", "Dimension size, given by scalar input -3 must be in range [-2, 2)");
        INFER_ERROR(s, "[1]=[0];[2,4]", "Input must be scalar but has rank 1");
        INFER_OK(s, "[];[2,4]", "[?,?];[?,?]");
        INFER_OK(s, "[]=1;?", "?;?");
        INFER_OK(s, "[]=-1;?", "?;?");
        INFER_OK(node("Split", {{"num_split", I(1)}}), "[]=0;[3,4]", "[3,4]");
        INFER_OK(node("Split", {{"num_split", I(3)}}), "[]=0;[6]", "[2];[2];[2]");
    }

    void splitV()
    {
        const NodeDef s = node("SplitV", {{"num_split", I(3)}});
        INFER_OK(s, "[10,4];[3]=[2,3,5];[]=0", "[2,4];[3,4];[5,4]");
        INFER_OK(s, "[10,4];[3]=[2,-1,5];[]=0", "[2,4];[3,4];[5,4]");
        INFER_OK(s, "[4,10];[3]=[2,3,5];[]=-1", "[4,2];[4,3];[4,5]");
        INFER_OK(s, "[?,4];[3]=[2,-1,5];[]=0", "[2,4];[?,4];[5,4]");
        INFER_ERROR(s, "[10,4];[3]=[2,3,4];[]=0", "can't split axis of size 10 into pieces of size [2,3,4]");
        INFER_ERROR(s, "[10,4];[3]=[2,-1,10];[]=0", "can't split axis of size 10 into pieces of size [2,-1,10]");
        INFER_ERROR(s, "[10,4];[3]=[2,-1,-1];[]=0", "size_splits can only have one -1");
        INFER_ERROR(s, "[10,4];[2]=[2,8];[]=0", "Length of size_splits should be equal to num_outputs");
        INFER_ERROR(s, "[10,4];[3]=[2,3,5];[]=2", "Dimension size, given by scalar input 2 must be in range [-2, 2)");
        INFER_OK(s, "[10,4];[3];[]=1", "[10,?];[10,?];[10,?]");
        INFER_OK(s, "[10,4];[3];[]", "[?,?];[?,?];[?,?]");
        // Sizes known, axis unknown: TensorFlow would read the last dim; only the rank is certain.
        INFER_OK(s, "[10,4];[3]=[1,1,2];[]", "[?,?];[?,?];[?,?]");
        INFER_OK(s, "?;[3]=[2,3,5];[]=0", "?;?;?");
        INFER_ERROR(s, "[];[3];[]", "Can't split scalars");
        INFER_OK(node("SplitV", {{"num_split", I(2)}, {"Tlen", Type(tensorflow::DT_INT32)}}), "[5];[2]=[1,4];[]=0",
                 "[1];[4]");
    }

    void packAndUnpack()
    {
        INFER_OK(node("Pack", {{"N", I(2)}}), "[3,4];[3,4]", "[2,3,4]");
        INFER_OK(node("Pack", {{"N", I(2)}, {"axis", I(1)}}), "[3,4];[3,4]", "[3,2,4]");
        INFER_OK(node("Pack", {{"N", I(2)}, {"axis", I(2)}}), "[3,4];[3,4]", "[3,4,2]");
        INFER_OK(node("Pack", {{"N", I(2)}, {"axis", I(-1)}}), "[3,4];[3,4]", "[3,4,2]");
        INFER_OK(node("Pack", {{"N", I(2)}, {"axis", I(-3)}}), "[3,4];[3,4]", "[2,3,4]");
        INFER_ERROR(node("Pack", {{"N", I(2)}, {"axis", I(3)}}), "[3,4];[3,4]", "Invalid axis: 3; must be in [-3,3)");
        INFER_ERROR(node("Pack", {{"N", I(2)}, {"axis", I(-4)}}), "[3,4];[3,4]", "Invalid axis: -4; must be in [-3,3)");
        INFER_OK(node("Pack", {{"N", I(2)}}), "[3,?];[?,4]", "[2,3,4]");
        INFER_OK(node("Pack", {{"N", I(2)}}), "?;[3]", "[2,3]");
        INFER_OK(node("Pack", {{"N", I(2)}}), "?;?", "?");
        INFER_OK(node("Pack", {{"N", I(1)}}), "[]", "[1]");
        INFER_OK(node("Pack", {{"N", I(3)}}), "[];[];[]", "[3]");
        INFER_ERROR(node("Pack", {{"N", I(2)}}), "[3,4];[3,5]",
                    "Dimension 1 in both shapes must be equal, but are 4 and 5. Shapes are [3,4] and [3,5].\n\tFrom "
                    "merging shape 0 with other shapes.");
        INFER_ERROR(node("Pack", {{"N", I(3)}}), "[3];[3];[3,4]",
                    "Shapes must be equal rank, but are 1 and 2\n\tFrom merging shape 1 with other shapes.");

        INFER_OK(node("Unpack", {{"num", I(3)}}), "[3,4]", "[4];[4];[4]");
        INFER_OK(node("Unpack", {{"num", I(3)}, {"axis", I(1)}}), "[2,3]", "[2];[2];[2]");
        INFER_OK(node("Unpack", {{"num", I(3)}, {"axis", I(-1)}}), "[2,3]", "[2];[2];[2]");
        INFER_OK(node("Unpack", {{"num", I(3)}}), "[?,4]", "[4];[4];[4]");
        INFER_OK(node("Unpack", {{"num", I(2)}}), "?", "?;?");
        INFER_OK(node("Unpack", {{"num", I(0)}}), "[0,2]", "");
        INFER_ERROR(node("Unpack", {{"num", I(3)}}), "[2,4]", "Dimension must be 3 but is 2");
        INFER_ERROR(node("Unpack", {{"num", I(3)}, {"axis", I(2)}}), "[3,4]", "Invalid axis: 2; must be in [-2,2)");
    }

    void tile()
    {
        const NodeDef t = node("Tile");
        INFER_OK(t, "[2,3];[2]=[2,3]", "[4,9]");
        INFER_OK(t, "[2,3];[2]=[0,1]", "[0,3]");
        INFER_OK(t, "[2,?];[2]=[2,3]", "[4,?]");
        INFER_OK(t, "[2,?];[2]=[2,1]", "[4,?]");
        INFER_OK(t, "[2,3];[2]", "[?,?]");
        INFER_OK(t, "[2,3];?", "[?,?]");
        INFER_OK(t, "?;[3]", "[?,?,?]");
        INFER_OK(t, "?;[3]=[1,2,3]", "[?,?,?]");
        INFER_OK(t, "?;?", "?");
        INFER_ERROR(t, "[2,3];[3]=[1,2,3]", "Shape must be rank 2 but is rank 3");
        INFER_ERROR(t, "[2,3];[3]", "Shape must be rank 2 but is rank 3");
    }

    void fill()
    {
        const NodeDef f = node("Fill");
        INFER_OK(f, "[2]=[2,3];[]", "[2,3]");
        INFER_OK(f, "[0]=[];[]", "[]");
        INFER_OK(f, "[2];[]", "[?,?]");
        INFER_OK(f, "?;[]", "?");
        INFER_ERROR(f, "[2]=[2,-1];[]", "Fill dimensions must be >= 0");
        INFER_ERROR(f, "[2]=[2,3];[1]", "Shape must be rank 0 but is rank 1");
        INFER_ERROR(f, "[];[]", "Shape must be rank 1 but is rank 0");
        INFER_OK(node("Fill", {{"index_type", Type(tensorflow::DT_INT64)}}), "[3]=[1,2,3];[]", "[1,2,3]");
    }

    void padFamily()
    {
        const NodeDef p = node("Pad");
        INFER_OK(p, "[2,3];[2,2]=[1,1,2,2]", "[4,7]");
        INFER_OK(p, "[2,?];[2,2]=[1,1,2,2]", "[4,?]");
        INFER_OK(p, "?;[2,2]=[0,1,2,3]", "[?,?]");
        INFER_OK(p, "[];[0,2]=[]", "[]");
        INFER_OK(p, "[2,3];[2,2]", "[?,?]");
        INFER_OK(p, "[2,3];[?,2]", "[?,?]");
        INFER_OK(p, "?;[3,2]", "[?,?,?]");
        INFER_OK(p, "?;[?,2]", "?");
        INFER_ERROR(p, "[2,3];[3,2]", "Shape must be rank 3 but is rank 2");
        INFER_ERROR(p, "[2,3];[2,3]", "Dimension must be 2 but is 3");
        INFER_ERROR(p, "[2,3];[2]", "Shape must be rank 2 but is rank 1");
        INFER_ERROR(p, "[2,3];[2,2]=[1,-1,0,0]", "Paddings must be non-negative");
        INFER_OK(node("PadV2"), "[2,3];[2,2]=[1,0,0,1];[]", "[3,4]");
        INFER_OK(node("MirrorPad", {{"mode", S("REFLECT")}}), "[2,3];[2,2]=[1,1,1,1]", "[4,5]");
        INFER_OK(node("Pad", {{"Tpaddings", Type(tensorflow::DT_INT64)}}), "[2];[1,2]=[3,4]", "[9]");
    }

    void reverseV2()
    {
        const NodeDef r = node("ReverseV2");
        INFER_OK(r, "[2,3];[1]=[1]", "[2,3]");
        INFER_OK(r, "[2,3];[2]=[0,-1]", "[2,3]");
        INFER_OK(r, "[2,3];[1]", "[2,3]");
        INFER_OK(r, "?;[1]=[5]", "?");
        INFER_ERROR(r, "[2,3];[2]=[0,-2]", "axis 0 specified more than once.");
        INFER_ERROR(r, "[2,3];[1]=[2]", "'axis'[0] = 2 is out of valid range [0, 1");
        INFER_ERROR(r, "[2,3];[1]=[-3]", "'axis'[0] = -3 is out of valid range [0, 1");
        INFER_ERROR(r, "[1,1,1,1,1,1,1,1,1];[1]", "reverse does not work on tensors with more than 8 dimensions");
        INFER_ERROR(r, "[2,3];[]", "Shape must be rank 1 but is rank 0");
    }

    // --- Slicing and gathering --------------------------------------------------------------------------

    void slice()
    {
        const NodeDef s = node("Slice");
        INFER_OK(s, "[4,5];[2]=[1,1];[2]=[2,3]", "[2,3]");
        INFER_OK(s, "[4,5];[2]=[1,1];[2]=[2,-1]", "[2,4]"); // -1: the rest of the dim after begin
        INFER_OK(s, "[4,5];[2];[2]=[2,-1]", "[2,?]");
        INFER_OK(s, "[4,5];[2]=[1,1];[2]", "[?,?]");
        INFER_OK(s, "[4,5];?;?", "[?,?]");
        INFER_OK(s, "?;[2]=[0,0];[2]=[1,-1]", "[1,?]");
        INFER_OK(s, "?;?;?", "?");
        INFER_ERROR(s, "[4,5];[2]=[1,6];[2]=[2,-1]", "Negative dimension size caused by subtracting 6 from 5");
        INFER_ERROR(s, "[4,5];[2]=[0,0];[2]=[2,-2]",
                    "Out of bounds slicing on dimension 1 of length 5: sizes vector cannot be < -1, but was -2");
        INFER_ERROR(s, "[4,5];[3];[3]", "Shape must be rank 3 but is rank 2");
        INFER_ERROR(s, "[4,5];[2];[3]",
                    "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].");
        INFER_OK(node("Slice", {{"Index", Type(tensorflow::DT_INT64)}}), "[4,5];[2]=[1,1];[2]=[2,3]", "[2,3]");
    }

    void stridedSlice()
    {
        // Each case is NumPy indexing of x; the expected shape is what NumPy gives for x[...]. Inputs:
        // x's shape; begin; end; strides; then the masks (bit i refers to entry i of the spec).
        auto ss = [](std::int64_t begin, std::int64_t end, std::int64_t ellipsis, std::int64_t newAxis,
                     std::int64_t shrink) {
            return node("StridedSlice", {{"begin_mask", I(begin)},
                                         {"end_mask", I(end)},
                                         {"ellipsis_mask", I(ellipsis)},
                                         {"new_axis_mask", I(newAxis)},
                                         {"shrink_axis_mask", I(shrink)}});
        };
        // x[1:4, 2:5], x.shape (5,6): 3 rows, 3 columns.
        INFER_OK(ss(0, 0, 0, 0, 0), "[5,6];[2]=[1,2];[2]=[4,5];[2]=[1,1]", "[3,3]");
        // x[1:4:2, ::-1]: rows 1 and 3; all 6 columns reversed (begin/end masked on entry 1).
        INFER_OK(ss(2, 2, 0, 0, 0), "[5,6];[2]=[1,0];[2]=[4,0];[2]=[2,-1]", "[2,6]");
        // x[-2:]: end masked; begin -2 is row 3; the columns come from the implicit trailing `...`.
        INFER_OK(ss(0, 1, 0, 0, 0), "[5,6];[1]=[-2];[1]=[0];[1]=[1]", "[2,6]");
        // x[:3]: begin masked.
        INFER_OK(ss(1, 0, 0, 0, 0), "[5,6];[1]=[2];[1]=[3];[1]=[1]", "[3,6]");
        // x[3] and x[-1]: a single index removes the dimension (shrink_axis).
        INFER_OK(ss(0, 0, 0, 0, 1), "[5,6];[1]=[3];[1]=[4];[1]=[1]", "[6]");
        INFER_OK(ss(0, 0, 0, 0, 1), "[5,6];[1]=[-1];[1]=[0];[1]=[1]", "[6]");
        // x[:, -1]: all rows of the last column.
        INFER_OK(ss(1, 1, 0, 0, 2), "[5,6];[2]=[0,-1];[2]=[0,0];[2]=[1,1]", "[5]");
        // x[5] and x[-6] on 5 rows: IndexError in NumPy, an error here.
        INFER_ERROR(ss(0, 0, 0, 0, 1), "[5,6];[1]=[5];[1]=[6];[1]=[1]", "slice index 5 of dimension 0 out of bounds.");
        INFER_ERROR(ss(0, 0, 0, 0, 1), "[5,6];[1]=[-6];[1]=[-5];[1]=[1]",
                    "slice index -1 of dimension 0 out of bounds.");
        // x[..., 1] on (5,6,7): the ellipsis stands for the first two dims; the last is indexed.
        INFER_OK(ss(0, 0, 1, 0, 2), "[5,6,7];[2]=[0,1];[2]=[0,2];[2]=[1,1]", "[5,6]");
        // x[1:3, ...] on (5,6,7): an explicit ellipsis at the end.
        INFER_OK(ss(0, 0, 2, 0, 0), "[5,6,7];[2]=[1,0];[2]=[3,0];[2]=[1,1]", "[2,6,7]");
        // x[..., ::-2] on (5,6): columns 5, 3, 1.
        INFER_OK(ss(2, 2, 1, 0, 0), "[5,6];[2]=[0,0];[2]=[0,0];[2]=[1,-2]", "[5,3]");
        // x[np.newaxis, :, 2] on (5,6): a new leading axis, all rows, column 2.
        INFER_OK(ss(2, 2, 0, 1, 4), "[5,6];[3]=[0,0,2];[3]=[0,0,3];[3]=[1,1,1]", "[1,5]");
        // x[:, np.newaxis] on (5,6).
        INFER_OK(ss(1, 1, 0, 2, 0), "[5,6];[2]=[0,0];[2]=[0,0];[2]=[1,1]", "[5,1,6]");
        // x[..., np.newaxis] on (5,6): new axes after the ellipsis do not consume input dims.
        INFER_OK(ss(0, 0, 1, 2, 0), "[5,6];[2]=[0,0];[2]=[0,0];[2]=[1,1]", "[5,6,1]");
        // An entry that is both new axis and shrink is a new axis.
        INFER_OK(ss(0, 0, 0, 1, 1), "[5];[1]=[0];[1]=[0];[1]=[1]", "[1,5]");
        // x[::2] on (5,): elements 0, 2, 4.
        INFER_OK(ss(1, 1, 0, 0, 0), "[5];[1]=[0];[1]=[0];[1]=[2]", "[3]");
        // x[4:1:-1]: 4, 3, 2; x[1:4:-1]: empty; x[10:20]: empty (clamped); x[-100:100]: everything.
        INFER_OK(ss(0, 0, 0, 0, 0), "[5];[1]=[4];[1]=[1];[1]=[-1]", "[3]");
        INFER_OK(ss(0, 0, 0, 0, 0), "[5];[1]=[1];[1]=[4];[1]=[-1]", "[0]");
        INFER_OK(ss(0, 0, 0, 0, 0), "[5];[1]=[10];[1]=[20];[1]=[1]", "[0]");
        INFER_OK(ss(0, 0, 0, 0, 0), "[5];[1]=[-100];[1]=[100];[1]=[1]", "[5]");
        // x[-1:-6:-1] (reversed, begin/end given): 5 elements; x[0:5:3]: 0, 3.
        INFER_OK(ss(0, 0, 0, 0, 0), "[5];[1]=[-1];[1]=[-6];[1]=[-1]", "[5]");
        INFER_OK(ss(0, 0, 0, 0, 0), "[5];[1]=[0];[1]=[5];[1]=[3]", "[2]");
        // Unknown input dims stay unknown (1 when shrunk).
        INFER_OK(ss(0, 0, 0, 0, 0), "[?,6];[2]=[1,2];[2]=[3,4];[2]=[1,1]", "[?,2]");
        INFER_OK(ss(0, 0, 0, 0, 1), "[?,6];[1]=[2];[1]=[3];[1]=[1]", "[6]");
        // begin/end unknown: only masked (whole) or shrunk entries have a size.
        INFER_OK(ss(0, 0, 0, 0, 0), "[5,6];[2];[2];[2]=[1,1]", "[?,?]");
        INFER_OK(ss(3, 3, 0, 0, 0), "[5,6];[2];[2];[2]=[1,2]", "[5,3]");
        INFER_OK(ss(0, 0, 0, 0, 1), "[5,6];[1];[1];[1]=[1]", "[6]");
        // Strides, the spec length or the input rank unknown: nothing is known.
        INFER_OK(ss(0, 0, 0, 0, 0), "[5,6];[2]=[0,0];[2]=[1,1];[2]", "?");
        INFER_OK(ss(0, 0, 0, 0, 0), "[5,6];[?];[?];[?]", "?");
        INFER_OK(ss(0, 0, 0, 0, 0), "?;[1]=[0];[1]=[1];[1]=[1]", "?");
        // Errors.
        INFER_ERROR(ss(0, 0, 0, 0, 0), "[5];[1]=[0];[1]=[1];[1]=[0]", "strides[0] must be non-zero");
        INFER_ERROR(ss(0, 0, 3, 0, 0), "[5,6];[2]=[0,0];[2]=[0,0];[2]=[1,1]",
                    "Multiple ellipses in slice spec not allowed");
        INFER_ERROR(ss(0, 0, 0, 0, 0), "[5];[2]=[0,0];[2]=[1,1];[2]=[1,1]",
                    "Index out of range using input dim 1; input has only 1 dims");
        INFER_ERROR(ss(0, 0, 0, 0, 1), "[5];[1]=[1];[1]=[2];[1]=[-1]", "only stride 1 allowed on non-range indexing.");
        INFER_ERROR(ss(0, 0, 0, 0, 0), "[5,6];[2];[3];[2]",
                    "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].");
        INFER_ERROR(ss(0, 0, 0, 0, 0), "[5,6];[2];[2];[2,1]", "Shape must be rank 1 but is rank 2");
        INFER_OK(node("StridedSlice", {{"Index", Type(tensorflow::DT_INT64)}}), "[5,6];[2]=[1,2];[2]=[4,5];[2]=[1,1]",
                 "[3,3]");

        INFER_OK(node("StridedSliceGrad"), "[2]=[5,6];[2];[2];[2];[3,3]", "[5,6]");
        INFER_OK(node("StridedSliceGrad"), "[2];[2];[2];[2];?", "[?,?]");
    }

    void stridedSliceResolutionForKernels()
    {
        static CpuAllocator allocator;
        auto vec = [](std::vector<std::int32_t> v) {
            return *Tensor::fromVector(allocator, TensorShape{static_cast<std::int64_t>(v.size())}, v);
        };
        // x[:] on (5,6): the identity; the dense ranges are the whole dims.
        Tensor b = vec({0}), e = vec({0}), s = vec({1});
        auto all = resolveStridedSlice(TensorShape{5, 6}, &b, &e, s, {.begin = 1, .end = 1});
        QVERIFY(all.has_value());
        QVERIFY(all->isIdentity);
        QVERIFY(all->isSimpleSlice);
        QCOMPARE(all->begin, (std::vector<std::int64_t>{0, 0}));
        QCOMPARE(all->end, (std::vector<std::int64_t>{5, 6}));
        QCOMPARE(all->strides, (std::vector<std::int64_t>{1, 1}));
        // x[-1, ::-2] on (5,6): row 4 (shrunk: processing dim 1), columns 5, 3, 1.
        Tensor b2 = vec({-1, 0}), e2 = vec({0, 0}), s2 = vec({1, -2});
        auto picked = resolveStridedSlice(TensorShape{5, 6}, &b2, &e2, s2, {.begin = 2, .end = 2, .shrinkAxis = 1});
        QVERIFY(picked.has_value());
        QCOMPARE(picked->processingShape, (TensorShape{1, 3}));
        QCOMPARE(picked->finalShape, (TensorShape{3}));
        QCOMPARE(picked->begin, (std::vector<std::int64_t>{4, 5}));
        QCOMPARE(picked->end, (std::vector<std::int64_t>{5, -1}));
        QVERIFY(!picked->isIdentity);
        QVERIFY(!picked->isSimpleSlice);
        // Mismatched spec lengths, as a kernel would see them.
        Tensor e3 = vec({0, 0, 0});
        auto bad = resolveStridedSlice(TensorShape{5, 6}, &b2, &e3, s2, {});
        QVERIFY(!bad.has_value());
        QCOMPARE(QString::fromStdString(bad.error().message()),
                 QString("Expected begin, end, and strides to be 1D equal size tensors, but got shapes [2], [3], and "
                         "[2] instead."));
    }

    void gather()
    {
        INFER_OK(node("Gather"), "[5,6];[3]", "[3,6]");
        INFER_OK(node("Gather"), "[5,6];[2,3]", "[2,3,6]");
        INFER_OK(node("Gather"), "[5];[]", "[]");
        INFER_OK(node("Gather"), "?;[3]", "?");
        INFER_OK(node("Gather"), "[5,6];?", "?");
        INFER_ERROR(node("Gather"), "[];[3]", "Shape must be at least rank 1 but is rank 0");

        const NodeDef g = node("GatherV2");
        INFER_OK(g, "[5,6,7];[3];[]=1", "[5,3,7]");
        INFER_OK(g, "[5,6,7];[3];[]=-1", "[5,6,3]");
        INFER_OK(g, "[5,6,7];[2,3];[]=0", "[2,3,6,7]");
        INFER_OK(g, "[5,6,7];[];[]=2", "[5,6]");
        INFER_OK(g, "[5,6,7];[3];[]", "[?,?,?]");
        INFER_OK(g, "?;[3];[]", "?");
        INFER_OK(g, "?;[3];[]=0", "?");
        INFER_ERROR(g, "[5,6,7];[3];[]=3", "Shape must be at least rank 4 but is rank 3");
        INFER_ERROR(g, "[5,6,7];[3];[]=-4", "Shape must be at least rank 4 but is rank 3");
        INFER_ERROR(g, "[5,6,7];[3];[1]", "Shape must be rank 0 but is rank 1");
        INFER_ERROR(g, "[];[3];[]=0", "Shape must be at least rank 1 but is rank 0");
        // batch_dims: the leading dims of indices are the batch, shared with params.
        INFER_OK(node("GatherV2", {{"batch_dims", I(1)}}), "[5,6,7];[5,3];[]=1", "[5,3,7]");
        INFER_OK(node("GatherV2", {{"batch_dims", I(-1)}}), "[5,6,7];[5,3];[]=1", "[5,3,7]");
        INFER_ERROR(node("GatherV2", {{"batch_dims", I(2)}}), "[5,6,7];[5];[]=2",
                    "Shape must be at least rank 2 but is rank 1");
        INFER_ERROR(node("GatherV2", {{"batch_dims", I(3)}}), "[5,6,7];[5,6,7];[]=2",
                    "Shape must be at least rank 4 but is rank 3");
        INFER_OK(node("GatherV2", {{"Taxis", Type(tensorflow::DT_INT64)}}), "[5,6,7];[3];[]=1", "[5,3,7]");
    }

    void oneHot()
    {
        INFER_OK(node("OneHot"), "[3];[]=4;[];[]", "[3,4]");
        INFER_OK(node("OneHot", {{"axis", I(0)}}), "[3];[]=4;[];[]", "[4,3]");
        INFER_OK(node("OneHot", {{"axis", I(1)}}), "[2,3];[]=5;[];[]", "[2,5,3]");
        INFER_OK(node("OneHot"), "[2,3];[]=5;[];[]", "[2,3,5]");
        INFER_OK(node("OneHot"), "[];[]=4;[];[]", "[4]");
        INFER_OK(node("OneHot"), "[3];[];[];[]", "[3,?]");
        INFER_OK(node("OneHot"), "?;[]=4;[];[]", "?");
        INFER_ERROR(node("OneHot"), "[3];[]=-1;[];[]",
                    "Dimension size, given by scalar input 1, must be non-negative but is -1");
        INFER_ERROR(node("OneHot", {{"axis", I(-2)}}), "[3];[]=4;[];[]", "axis must be >= -1");
    }

    // --- Broadcasting, stitching, data-dependent ---------------------------------------------------------

    void broadcasting()
    {
        const NodeDef b = node("BroadcastTo");
        INFER_OK(b, "[3];[2]=[2,3]", "[2,3]");
        INFER_OK(b, "[1,3];[3]=[4,2,3]", "[4,2,3]");
        INFER_OK(b, "[2];[2]=[3,4]", "[3,4]"); // TF 1.15 only checks that 2 divides 4
        INFER_OK(b, "?;[2]=[3,4]", "[3,4]");
        INFER_OK(b, "[2];[2]", "[?,?]");
        INFER_OK(b, "[2];[2]=[3,-1]", "[3,?]");
        INFER_ERROR(b, "[2,3];[1]=[3]", "Cannot broadcast a tensor with shape [2,3] shape [3]");
        INFER_ERROR(b, "[2];[2]=[3,3]", "Cannot broadcast a tensor with shape [2] shape [3,3]");

        INFER_OK(node("BroadcastArgs"), "[2];[3]", "[3]");
        INFER_OK(node("BroadcastArgs"), "[?];[3]", "[?]");
        INFER_ERROR(node("BroadcastArgs"), "[2,2];[3]", "Shape must be rank 1 but is rank 2");
        INFER_OK(node("BroadcastGradientArgs"), "[2];[3]", "[?];[?]");
        INFER_ERROR(node("BroadcastGradientArgs"), "[];[3]", "Shape must be rank 1 but is rank 0");
    }

    void dynamicStitch()
    {
        const NodeDef d = node("DynamicStitch", {{"N", I(2)}});
        INFER_OK(d, "[2]=[0,1];[3]=[2,3,4];[2,5];[3,5]", "[5,5]");
        INFER_OK(d, "[2];[3]=[2,3,4];[2,5];[3,5]", "[?,5]");
        INFER_OK(d, "[2,2]=[0,1,2,3];[]=4;[2,2,7];[7]", "[5,7]");
        INFER_OK(d, "[2]=[0,1];[1]=[2];[2];[1]", "[3]");
        INFER_OK(d, "?;[2]=[0,1];?;[2,3]", "[?,3]");
        INFER_OK(d, "?;?;?;?", "?");
        INFER_ERROR(d, "[2]=[0,1];[3]=[2,3,4];[2,5];[3,6]",
                    "Dimension 0 in both shapes must be equal, but are 5 and 6. Shapes are [5] and [6].");
        INFER_ERROR(d, "[2]=[0,1];[3]=[2,3,4];[3,5];[3,5]", "Dimensions must be equal, but are 3 and 2");
        INFER_ERROR(d, "[2,2]=[0,1,2,3];[1]=[4];[2];[1]", "Shape must be at least rank 2 but is rank 1");
        INFER_OK(node("ParallelDynamicStitch", {{"N", I(2)}}), "[2]=[0,1];[3]=[2,3,4];[2,5];[3,5]", "[5,5]");
    }

    void whereAndUnique()
    {
        INFER_OK(node("Where"), "[2,3]", "[?,2]");
        INFER_OK(node("Where"), "[]", "[?,0]");
        INFER_OK(node("Where"), "?", "[?,?]");
        INFER_OK(node("Unique"), "[5]", "[?];[5]");
        INFER_OK(node("Unique"), "?", "[?];?");
        INFER_ERROR(node("Unique"), "[2,2]", "Shape must be rank 1 but is rank 2");
        INFER_OK(node("ListDiff"), "[5];[3]", "[?];[?]");
        INFER_OK(node("ListDiff"), "?;?", "[?];[?]");
        INFER_ERROR(node("ListDiff"), "[];?", "Shape must be rank 1 but is rank 0");
        INFER_ERROR(node("ListDiff"), "?;[]", "Shape must be rank 1 but is rank 0");
    }
};

QTEST_GUILESS_MAIN(TestArrayOps)
#include "test_array_ops.moc"
