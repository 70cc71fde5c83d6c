// Tests for the parsing kernels: NumPy golden cases (tools/golden/parsing.py: DecodeRaw, StringToNumber,
// DecodeCSV, SerializeTensor/ParseTensor, ParseExample over hand-encoded bytes), then the Example and
// SequenceExample parse kernels on tf.train.Example protos built here, their error texts, and the
// shape functions of every parsing op.
#include "kernels/kernels.h"
#include "ops/ops.h"

#include "io/npy.h"
#include "kernel_harness.h"
#include "proto/example.pb.h"
#include "shape_fn_testing.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

// --- Building inputs -----------------------------------------------------------------------------------

tf::Feature floats(std::initializer_list<float> v)
{
    tf::Feature f;
    f.mutable_float_list();
    for (float x : v)
        f.mutable_float_list()->add_value(x);
    return f;
}

tf::Feature ints(std::initializer_list<std::int64_t> v)
{
    tf::Feature f;
    f.mutable_int64_list();
    for (std::int64_t x : v)
        f.mutable_int64_list()->add_value(x);
    return f;
}

tf::Feature bytes(std::initializer_list<const char*> v)
{
    tf::Feature f;
    f.mutable_bytes_list();
    for (const char* x : v)
        f.mutable_bytes_list()->add_value(x);
    return f;
}

std::string example(std::initializer_list<std::pair<const char*, tf::Feature>> features)
{
    tf::Example ex;
    for (const auto& [key, f] : features)
        (*ex.mutable_features()->mutable_feature())[key] = f;
    return ex.SerializeAsString();
}

/// One map entry of Features, as wire bytes: field 1 { key (1), value (2) }.
std::string entryBytes(const std::string& key, const std::string& feature)
{
    std::string entry = "\x0a" + std::string(1, static_cast<char>(key.size())) + key + "\x12" +
                        std::string(1, static_cast<char>(feature.size())) + feature;
    return "\x0a" + std::string(1, static_cast<char>(entry.size())) + entry;
}

/// An Example whose map entries are written in this order (a key may repeat, as concatenated
/// Examples hold it).
std::string exampleOfEntries(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::string features;
    for (const auto& [key, feature] : entries)
        features += entryBytes(key, feature);
    return "\x0a" + std::string(1, static_cast<char>(features.size())) + features;
}

Tensor strings(const std::vector<std::string>& values, const TensorShape& shape)
{
    static CpuAllocator allocator;
    auto t = Tensor::allocate(allocator, tf::DT_STRING, shape);
    if (!t || static_cast<std::size_t>(t->numElements()) != values.size())
        qFatal("bad string tensor in a test");
    std::copy(values.begin(), values.end(), t->strings().begin());
    return *t;
}

Tensor vec(const std::vector<std::string>& values)
{
    return strings(values, TensorShape{static_cast<std::int64_t>(values.size())});
}

Tensor scalar(const std::string& value)
{
    return strings({value}, TensorShape::scalar());
}

template <typename T> std::vector<T> valuesOf(const Tensor& t)
{
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

// --- Node text -------------------------------------------------------------------------------------------

std::string attrText(const std::string& key, const std::string& value)
{
    return " attr { key: '" + key + "' value { " + value + " } }";
}

std::string typeList(const std::vector<DataType>& types)
{
    std::string out = "list { ";
    for (DataType t : types)
        out += "type: " + tf::DataType_Name(t) + " ";
    return out + "}";
}

std::string shapeList(const std::vector<TensorShape>& shapes)
{
    std::string out = "list { ";
    for (const TensorShape& s : shapes) {
        out += "shape { ";
        for (std::int64_t d : s.dims())
            out += "dim { size: " + std::to_string(d) + " } ";
        out += "} ";
    }
    return out + "}";
}

std::string stringList(const std::vector<std::string>& values)
{
    std::string out = "list { ";
    for (const std::string& v : values)
        out += "s: '" + v + "' ";
    return out + "}";
}

std::string error(const Expected<std::vector<Tensor>>& r)
{
    return r ? std::string("ok") : r.error().message();
}

// --- The golden manifest, whose string tensors are written inline ----------------------------------------

Expected<Tensor> goldenValue(const QJsonValue& value, const QString& dir, Allocator& allocator)
{
    if (value.isString())
        return readNpy((dir + "/" + value.toString()).toStdString(), allocator);
    const QJsonObject o = value.toObject();
    std::vector<std::int64_t> dims;
    for (const QJsonValue& d : o.value("shape").toArray())
        dims.push_back(d.toInteger());
    auto t = Tensor::allocate(allocator, tf::DT_STRING, TensorShape(dims));
    if (!t)
        return t;
    const QJsonArray hex = o.value("hex").toArray();
    if (hex.size() != t->numElements())
        return unexpected(invalidArgumentError("golden string tensor: element count differs from its shape"));
    for (int i = 0; i < hex.size(); ++i)
        t->strings()[static_cast<std::size_t>(i)] = QByteArray::fromHex(hex[i].toString().toLatin1()).toStdString();
    return t;
}

QStringList runParsingGolden(KernelHarness& harness, int* count)
{
    const QString path = goldenDir() + "/parsing.json";
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {"cannot read " + path};
    const QString dir = QFileInfo(path).absolutePath();
    QStringList failures;
    *count = 0;
    for (const QJsonValue& value : QJsonDocument::fromJson(file.readAll()).object().value("cases").toArray()) {
        const QJsonObject c = value.toObject();
        const QString name = c.value("name").toString();
        ++*count;
        std::vector<Tensor> inputs;
        QString problem;
        for (const QJsonValue& in : c.value("inputs").toArray()) {
            auto t = goldenValue(in, dir, harness.allocator());
            if (!t) {
                problem = QString::fromStdString(t.error().message());
                break;
            }
            inputs.push_back(*t);
        }
        if (!problem.isEmpty()) {
            failures << name + ": " + problem;
            continue;
        }
        auto outputs = harness.run(c.value("node").toString().toStdString(), inputs);
        if (c.contains("error")) {
            const QString want = c.value("error").toString();
            if (outputs)
                failures << name + ": expected an error containing '" + want + "', got success";
            else if (!QString::fromStdString(outputs.error().message()).contains(want))
                failures << name + ": expected '" + want +
                                "', got: " + QString::fromStdString(outputs.error().message());
            continue;
        }
        if (!outputs) {
            failures << name + ": " + QString::fromStdString(outputs.error().toString());
            continue;
        }
        const QJsonArray expected = c.value("outputs").toArray();
        if (static_cast<std::size_t>(expected.size()) != outputs->size()) {
            failures << name + QStringLiteral(": %1 outputs, expected %2").arg(outputs->size()).arg(expected.size());
            continue;
        }
        for (int i = 0; i < expected.size(); ++i) {
            auto want = goldenValue(expected[i], dir, harness.allocator());
            const std::string diff = want ? compareTensors((*outputs)[static_cast<std::size_t>(i)], *want,
                                                           c.value("rtol").toDouble(), c.value("atol").toDouble())
                                          : want.error().message();
            if (!diff.empty())
                failures << name + QStringLiteral(": output %1 ").arg(i) + QString::fromStdString(diff);
        }
    }
    return failures;
}

} // namespace

class TestParsingKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<KernelHarness> m_h;
    OpRegistry m_ops;

    /// ParseExample with sparse keys (types), dense keys (types, shapes) and defaults.
    Expected<std::vector<Tensor>> parseExample(const std::vector<std::string>& serialized,
                                               const std::vector<std::string>& names,
                                               const std::vector<std::pair<std::string, DataType>>& sparse,
                                               const std::vector<std::pair<std::string, TensorShape>>& dense,
                                               const std::vector<Tensor>& defaults)
    {
        std::vector<DataType> sparseTypes;
        std::vector<DataType> denseTypes;
        std::vector<TensorShape> shapes;
        std::vector<Tensor> inputs{vec(serialized), vec(names)};
        for (const auto& [key, type] : sparse) {
            sparseTypes.push_back(type);
            inputs.push_back(scalar(key));
        }
        for (std::size_t i = 0; i < dense.size(); ++i) {
            denseTypes.push_back(defaults[i].dtype());
            shapes.push_back(dense[i].second);
            inputs.push_back(scalar(dense[i].first));
        }
        inputs.insert(inputs.end(), defaults.begin(), defaults.end());
        const std::string node = "op: 'ParseExample'" + attrText("Nsparse", "i: " + std::to_string(sparse.size())) +
                                 attrText("Ndense", "i: " + std::to_string(dense.size())) +
                                 attrText("sparse_types", typeList(sparseTypes)) + attrText("Tdense", typeList(denseTypes)) +
                                 attrText("dense_shapes", shapeList(shapes));
        return m_h->run(node, inputs);
    }

    Tensor floatTensor(const std::vector<float>& v, const TensorShape& shape)
    {
        return tensor<float>(m_h->allocator(), shape, v);
    }
    Tensor int64Tensor(const std::vector<std::int64_t>& v, const TensorShape& shape)
    {
        return tensor<std::int64_t>(m_h->allocator(), shape, v);
    }

private slots:
    void initTestCase()
    {
        m_h = KernelHarness::createOrWarn({registerParsingOps}, {registerParsingCpuKernels});
        QVERIFY(m_h);
        QVERIFY(registerParsingOps(m_ops).isOk());
    }

    void goldenCases()
    {
        int count = 0;
        const QStringList failures = runParsingGolden(*m_h, &count);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QCOMPARE(count, 119);
    }

    void parseExampleBatch()
    {
        // Three examples: a fixed [2] float (default), a variable-length [?] int64 (padding -1), a
        // sparse string feature; the second example lacks all three.
        const std::vector<std::string> batch = {
            example({{"xy", floats({1, 2})}, {"ids", ints({4, 5, 6})}, {"words", bytes({"a", "b"})}}),
            example({{"other", floats({9})}}),
            example({{"xy", floats({3, 4})}, {"ids", ints({7})}, {"words", bytes({"c"})}}),
        };
        auto out =
            parseExample(batch, {}, {{"words", tf::DT_STRING}}, {{"ids", TensorShape{-1}}, {"xy", TensorShape{2}}},
                         {int64Tensor({-1}, TensorShape::scalar()), floatTensor({0.5f, 0.25f}, TensorShape{2})});
        QVERIFY2(out, error(out).c_str());
        QCOMPARE(out->size(), std::size_t(5));
        QCOMPARE(valuesOf<std::int64_t>((*out)[0]), (std::vector<std::int64_t>{0, 0, 0, 1, 2, 0}));
        QCOMPARE(valuesOf<std::string>((*out)[1]), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[2]), (std::vector<std::int64_t>{3, 2}));
        QCOMPARE((*out)[3].shape(), (TensorShape{3, 3}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[3]), (std::vector<std::int64_t>{4, 5, 6, -1, -1, -1, 7, -1, -1}));
        QCOMPARE(valuesOf<float>((*out)[4]), (std::vector<float>{1, 2, 0.5f, 0.25f, 3, 4}));
    }

    void parseExampleWireRules()
    {
        const std::string three = floats({1, 2, 3}).SerializeAsString();
        const std::string one = floats({7}).SerializeAsString();
        const std::string empty; // a Feature with no list set
        const auto spec = std::vector<std::pair<std::string, TensorShape>>{{"a", TensorShape{-1}}};
        auto run = [&](const std::vector<std::pair<std::string, std::string>>& entries) {
            return parseExample({exampleOfEntries(entries)}, {}, {{"s", tf::DT_FLOAT}}, spec,
                                {floatTensor({0}, TensorShape::scalar())});
        };
        // A key given twice: the later entry wins (protobuf's map rule), for dense and sparse keys.
        auto twice = run({{"a", three}, {"a", one}, {"s", one}, {"s", three}});
        QVERIFY2(twice, error(twice).c_str());
        QCOMPARE(valuesOf<float>((*twice)[3]), (std::vector<float>{7}));
        QCOMPARE(valuesOf<float>((*twice)[1]), (std::vector<float>{1, 2, 3}));
        // An empty Feature last: a dense key falls back to the earlier entry, a sparse key has none.
        auto emptyLast = run({{"a", three}, {"a", empty}, {"s", three}, {"s", empty}});
        QVERIFY2(emptyLast, error(emptyLast).c_str());
        QCOMPARE(valuesOf<float>((*emptyLast)[3]), (std::vector<float>{1, 2, 3}));
        QCOMPARE((*emptyLast)[1].numElements(), std::int64_t(0));
        // Unpacked float values (field 1 as fixed32 one by one) read as packed ones.
        const std::string unpacked = std::string("\x12\x0a\x0d\x00\x00\xc0\x3f\x0d\x00\x00\x20\x40", 12);
        auto u = run({{"a", unpacked}});
        QVERIFY2(u, error(u).c_str());
        QCOMPARE(valuesOf<float>((*u)[3]), (std::vector<float>{1.5f, 2.5f}));
        // Damaged bytes of a feature nobody asked for do not matter; of a requested one they do.
        const std::string damaged = "\x12\x05\x0a\x09";
        QVERIFY(run({{"unused", damaged}, {"a", one}}));
        QCOMPARE(error(run({{"a", damaged}})), std::string("Name: <unknown>, Key: a, Index: 0.  Can't parse serialized "
                                                           "Example."));
        QCOMPARE(error(run({{"a", "\x2a\x00"}})),
                 std::string("Name: <unknown>, Key: a, Index: 0.  Can't parse serialized Example."));
        // A damaged Example: the outer structure cannot be read.
        QCOMPARE(error(parseExample({std::string("\x0a\x05\x0a\x03", 4)}, {"r7"}, {}, spec,
                                    {floatTensor({0}, TensorShape::scalar())})),
                 std::string("Could not parse example input, value: '") + std::string("\x0a\x05\x0a\x03", 4) + "'");
        // Unknown top-level fields are skipped.
        QVERIFY(run({{"a", one}}));
        auto skipped = parseExample({std::string("\x10\x05", 2) + exampleOfEntries({{"a", one}})}, {}, {}, spec,
                                    {floatTensor({0}, TensorShape::scalar())});
        QVERIFY2(skipped, error(skipped).c_str());
        QCOMPARE(valuesOf<float>((*skipped)[0]), (std::vector<float>{7}));
    }

    void parseExampleErrors()
    {
        const std::vector<std::pair<std::string, TensorShape>> dense = {{"a", TensorShape{2}}};
        const Tensor required = floatTensor({}, TensorShape{0});
        QCOMPARE(error(parseExample({example({{"a", floats({1, 2})}}), example({})}, {"first", "second"}, {}, dense,
                                    {required})),
                 std::string("Name: second, Feature: a (data type: float) is required but could not be found."));
        QCOMPARE(error(parseExample({example({{"a", bytes({"x", "y"})}})}, {}, {}, dense, {required})),
                 std::string("Name: <unknown>, Key: a, Index: 0.  Data types don't match. Data type: string but "
                             "expected type: float"));
        QCOMPARE(error(parseExample({example({{"a", floats({1})}})}, {}, {}, dense, {required})),
                 std::string("Name: <unknown>, Key: a, Index: 0.  Number of float values != expected.  Values size: "
                             "1 but output shape: [2]"));
        QCOMPARE(error(parseExample({example({{"s", ints({1})}})}, {}, {{"s", tf::DT_STRING}}, {}, {})),
                 std::string("Name: <unknown>, Key: s, Index: 0.  Data types don't match. Expected type: string, "
                             "Actual type: int64"));
        // Defaults checked as TensorFlow checks them.
        QCOMPARE(error(parseExample({example({})}, {}, {}, dense, {floatTensor({1, 2, 3}, TensorShape{3})})),
                 std::string("def_value[0].shape() == [3] is not compatible with dense_shapes_[0] == [2]"));
        QCOMPARE(error(parseExample({example({})}, {}, {}, {{"v", TensorShape{-1, 2}}},
                                    {floatTensor({1, 2}, TensorShape{2})})),
                 std::string("dense_shape[0] is a variable length shape: [?,2], therefore def_value[0] must contain "
                             "a single element (the padding element).  But its shape is: [2]"));
        QCOMPARE(error(parseExample({example({})}, {"a", "b"}, {}, dense, {required})),
                 std::string("Expected len(names) == len(serialized), but got: 2 vs. 1"));
        QCOMPARE(error(parseExample({example({})}, {}, {{"a", tf::DT_FLOAT}}, dense, {required})),
                 std::string("Duplicate feature key 'a'"));
        // The serialized input must be a vector.
        const std::string node = "op: 'ParseExample'" + attrText("Nsparse", "i: 0") + attrText("Ndense", "i: 0") +
                                 attrText("sparse_types", "list { }") + attrText("Tdense", "list { }") +
                                 attrText("dense_shapes", "list { }");
        QCOMPARE(error(m_h->run(node, {scalar(example({})), vec({})})),
                 std::string("Expected serialized to be a vector, got shape: []"));
        // Attrs checked when the kernel is built.
        const std::string badShape = "op: 'ParseExample'" + attrText("Nsparse", "i: 0") + attrText("Ndense", "i: 1") +
                                     attrText("sparse_types", "list { }") + attrText("Tdense", typeList({tf::DT_FLOAT})) +
                                     attrText("dense_shapes", shapeList({TensorShape{2, -1}}));
        QVERIFY(error(m_h->run(badShape, {vec({}), vec({}), scalar("a"), required}))
                    .find("dense_shapes[0] has unknown rank or unknown inner dimensions: [2,?]") != std::string::npos);
    }

    void parseExampleV2()
    {
        const std::string node =
            "op: 'ParseExampleV2'" + attrText("num_sparse", "i: 1") + attrText("sparse_types", typeList({tf::DT_INT64})) +
            attrText("Tdense", typeList({tf::DT_FLOAT})) + attrText("dense_shapes", shapeList({TensorShape::scalar()})) +
            attrText("ragged_value_types", typeList({tf::DT_STRING})) +
            attrText("ragged_split_types", typeList({tf::DT_INT32}));
        const std::vector<std::string> batch = {
            example({{"r", bytes({"a", "b"})}, {"d", floats({1})}, {"s", ints({3})}}), example({{"d", floats({2})}}),
            example({{"r", bytes({"c"})}, {"d", floats({3})}})};
        auto out =
            m_h->run(node, {vec(batch), vec({}), vec({"s"}), vec({"d"}), vec({"r"}), floatTensor({}, TensorShape{0})});
        QVERIFY2(out, error(out).c_str());
        QCOMPARE(out->size(), std::size_t(6));
        QCOMPARE(valuesOf<std::int64_t>((*out)[0]), (std::vector<std::int64_t>{0, 0}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[2]), (std::vector<std::int64_t>{3, 1}));
        QCOMPARE(valuesOf<float>((*out)[3]), (std::vector<float>{1, 2, 3}));
        QCOMPARE(valuesOf<std::string>((*out)[4]), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE((*out)[5].dtype(), tf::DT_INT32);
        QCOMPARE(valuesOf<std::int32_t>((*out)[5]), (std::vector<std::int32_t>{0, 2, 2, 3}));

        // A scalar input: single-example shapes, empty row splits, the single-example wording.
        auto one = m_h->run(
            node, {scalar(batch[0]), scalar(""), vec({"s"}), vec({"d"}), vec({"r"}), floatTensor({}, TensorShape{0})});
        QVERIFY2(one, error(one).c_str());
        QCOMPARE((*one)[0].shape(), (TensorShape{1, 1}));
        QCOMPARE(valuesOf<std::int64_t>((*one)[2]), (std::vector<std::int64_t>{1}));
        QCOMPARE((*one)[3].shape(), TensorShape::scalar());
        QCOMPARE(valuesOf<std::string>((*one)[4]), (std::vector<std::string>{"a", "b"}));
        QCOMPARE((*one)[5].shape(), (TensorShape{0}));
        QCOMPARE(error(m_h->run(node, {scalar(example({})), scalar(""), vec({"s"}), vec({"d"}), vec({"r"}),
                                       floatTensor({}, TensorShape{0})})),
                 std::string("Feature: d (data type: float) is required but could not be found."));
        QCOMPARE(error(m_h->run(node, {vec(batch), vec({}), vec({"s"}), vec({"d", "e"}), vec({"r"}),
                                       floatTensor({}, TensorShape{0})})),
                 std::string("Expected len(dense_keys) == len(dense_types) but got: 2 vs. 1"));
        QCOMPARE(error(m_h->run(node, {vec(batch), vec({"x"}), vec({"s"}), vec({"d"}), vec({"r"}),
                                       floatTensor({}, TensorShape{0})})),
                 std::string("Expected names have the same shape as serialized: name.shape=[1], serialized.shape=[3]"));
    }

    void parseSingleExample()
    {
        const std::string node = "op: 'ParseSingleExample'" + attrText("num_sparse", "i: 1") +
                                 attrText("sparse_keys", stringList({"v"})) + attrText("dense_keys", stringList({"a", "q"})) +
                                 attrText("sparse_types", typeList({tf::DT_FLOAT})) +
                                 attrText("Tdense", typeList({tf::DT_INT64, tf::DT_FLOAT})) +
                                 attrText("dense_shapes", shapeList({TensorShape{2}, TensorShape{-1, 2}}));
        const Tensor required = int64Tensor({}, TensorShape{0});
        const Tensor padding = floatTensor({0}, TensorShape::scalar());
        auto out = m_h->run(
            node,
            {scalar(example({{"a", ints({4, 5})}, {"v", floats({0.5f, 1.5f})}, {"q", floats({1, 2, 3, 4, 5, 6})}})),
             required, padding});
        QVERIFY2(out, error(out).c_str());
        QCOMPARE((*out)[0].shape(), (TensorShape{2, 1}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[0]), (std::vector<std::int64_t>{0, 1}));
        QCOMPARE(valuesOf<float>((*out)[1]), (std::vector<float>{0.5f, 1.5f}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[2]), (std::vector<std::int64_t>{2}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[3]), (std::vector<std::int64_t>{4, 5}));
        QCOMPARE((*out)[4].shape(), (TensorShape{3, 2}));
        // A missing variable-length feature has no rows; a missing sparse one no values.
        auto missing = m_h->run(node, {scalar(example({{"a", ints({1, 2})}})), required, padding});
        QVERIFY2(missing, error(missing).c_str());
        QCOMPARE((*missing)[4].shape(), (TensorShape{0, 2}));
        QCOMPARE((*missing)[0].shape(), (TensorShape{0, 1}));
        QCOMPARE(error(m_h->run(node, {scalar(example({{"a", ints({1, 2, 3})}})), required, padding})),
                 std::string("Key: a.  Can't parse serialized Example."));
        QCOMPARE(error(m_h->run(node,
                                {scalar(example({{"a", ints({1, 2})}, {"q", floats({1, 2, 3})}})), required, padding})),
                 std::string("Key: q.  Can't parse serialized Example."));
        QCOMPARE(error(m_h->run(node, {scalar(example({{"a", floats({1, 2})}})), required, padding})),
                 std::string("Key: a.  Data types don't match. Data type: float but expected type: int64"));
        QCOMPARE(error(m_h->run(node, {scalar(example({})), required, padding})),
                 std::string("Feature: a (data type: int64) is required but could not be found."));
        QCOMPARE(error(m_h->run(node, {scalar(exampleOfEntries({{"a", "\x1a\x05\x0a\x09"}})), required, padding})),
                 std::string("Key: a.  Can't parse serialized Example."));
        QCOMPARE(error(m_h->run(node, {vec({example({})}), required, padding})),
                 std::string("Expected serialized to be a scalar, got shape: [1]"));
    }

    void parseSequenceExampleBatch()
    {
        auto sequence = [](bool withWeight, std::vector<std::vector<float>> frames,
                           std::vector<std::vector<std::int64_t>> ids) {
            tf::SequenceExample ex;
            (*ex.mutable_context()->mutable_feature())["len"] = ints({static_cast<std::int64_t>(frames.size())});
            if (withWeight)
                (*ex.mutable_context()->mutable_feature())["weight"] = floats({0.5f});
            (*ex.mutable_context()->mutable_feature())["tags"] = bytes({"x"});
            auto& lists = *ex.mutable_feature_lists()->mutable_feature_list();
            for (const auto& f : frames) {
                tf::Feature* feature = lists["frames"].add_feature();
                for (float v : f)
                    feature->mutable_float_list()->add_value(v);
            }
            for (const auto& i : ids) {
                tf::Feature* feature = lists["ids"].add_feature();
                feature->mutable_int64_list();
                for (std::int64_t v : i)
                    feature->mutable_int64_list()->add_value(v);
            }
            return ex.SerializeAsString();
        };
        const std::vector<std::string> batch = {sequence(true, {{1, 2}, {3, 4}, {5, 6}}, {{7}, {}, {8, 9}}),
                                                sequence(false, {{10, 11}}, {{12}})};
        const std::string node =
            "op: 'ParseSequenceExample'" + attrText("Ncontext_sparse", "i: 1") + attrText("Ncontext_dense", "i: 2") +
            attrText("Nfeature_list_sparse", "i: 1") + attrText("Nfeature_list_dense", "i: 2") +
            attrText("context_sparse_keys", stringList({"tags"})) +
            attrText("context_dense_keys", stringList({"len", "weight"})) +
            attrText("feature_list_sparse_keys", stringList({"ids"})) +
            attrText("feature_list_dense_keys", stringList({"frames", "absent"})) +
            attrText("feature_list_dense_missing_assumed_empty", stringList({"absent"})) +
            attrText("context_sparse_types", typeList({tf::DT_STRING})) +
            attrText("Tcontext_dense", typeList({tf::DT_INT64, tf::DT_FLOAT})) +
            attrText("context_dense_shapes", shapeList({TensorShape::scalar(), TensorShape::scalar()})) +
            attrText("feature_list_sparse_types", typeList({tf::DT_INT64})) +
            attrText("feature_list_dense_types", typeList({tf::DT_FLOAT, tf::DT_INT64})) +
            attrText("feature_list_dense_shapes", shapeList({TensorShape{2}, TensorShape{3}}));
        const std::vector<Tensor> defaults = {int64Tensor({}, TensorShape{0}), floatTensor({1}, TensorShape::scalar())};
        auto run = [&](const std::vector<std::string>& serialized, const std::vector<std::string>& names,
                       const std::string& n = std::string()) {
            return m_h->run(n.empty() ? node : n, {vec(serialized), vec(names), defaults[0], defaults[1]});
        };
        auto out = run(batch, {"s0", "s1"});
        QVERIFY2(out, error(out).c_str());
        QCOMPARE(out->size(), std::size_t(12));
        QCOMPARE(valuesOf<std::int64_t>((*out)[0]), (std::vector<std::int64_t>{0, 0, 1, 0})); // tags indices
        QCOMPARE(valuesOf<std::string>((*out)[1]), (std::vector<std::string>{"x", "x"}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[2]), (std::vector<std::int64_t>{2, 1}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[3]), (std::vector<std::int64_t>{3, 1})); // len
        QCOMPARE(valuesOf<float>((*out)[4]), (std::vector<float>{0.5f, 1}));            // weight (default)
        QCOMPARE(valuesOf<std::int64_t>((*out)[5]), (std::vector<std::int64_t>{0, 0, 0, 0, 2, 0, 0, 2, 1, 1, 0, 0}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[6]), (std::vector<std::int64_t>{7, 8, 9, 12}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[7]), (std::vector<std::int64_t>{2, 3, 2}));
        QCOMPARE((*out)[8].shape(), (TensorShape{2, 3, 2}));
        QCOMPARE(valuesOf<float>((*out)[8]), (std::vector<float>{1, 2, 3, 4, 5, 6, 10, 11, 0, 0, 0, 0}));
        QCOMPARE((*out)[9].shape(), (TensorShape{2, 0, 3}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[10]), (std::vector<std::int64_t>{3, 1}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[11]), (std::vector<std::int64_t>{0, 0}));

        // Errors name the example.
        tf::SequenceExample noFrames;
        (*noFrames.mutable_context()->mutable_feature())["len"] = ints({1});
        QCOMPARE(error(run({batch[0], noFrames.SerializeAsString()}, {"s0", "s1"})),
                 std::string("Name: s1, Feature list 'frames' is required but could not be found.  Did you mean to "
                             "include it in feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"));
        QCOMPARE(error(run({sequence(true, {{1, 2}, {3, 4, 5, 6}}, {})}, {"bad"})),
                 std::string("Name: bad, Key: frames, Index: 1.  Number of values != expected.  values size: 4 but "
                             "output shape: [2]"));
        QCOMPARE(error(run({sequence(true, {{1, 2}, {3, 4, 5}}, {})}, {"bad"})),
                 std::string("Feature list 'frames' has an unexpected number of values.  Total values size: 5 is not "
                             "consistent with output shape: [?,2]"));
        tf::SequenceExample noLen = noFrames;
        noLen.mutable_context()->mutable_feature()->erase("len");
        *(*noLen.mutable_feature_lists()->mutable_feature_list())["frames"].add_feature() = floats({1, 2});
        QCOMPARE(error(run({noLen.SerializeAsString()}, {"r3"})),
                 std::string("Name: r3, Feature: len (data type: int64) is required but could not be found."));
        tf::SequenceExample wrongType = noLen;
        (*wrongType.mutable_context()->mutable_feature())["len"] = floats({1});
        QCOMPARE(error(run({wrongType.SerializeAsString()}, {"r4"})),
                 std::string("Name: r4, Context feature: len.  Data types don't match. Expected type: int64"));
        QCOMPARE(error(run({std::string("\x0a\x09", 2)}, {"broken"})),
                 std::string("Invalid protocol message input, example id: broken"));
    }

    void parseSequenceExampleV2Ragged()
    {
        tf::SequenceExample ex;
        (*ex.mutable_context()->mutable_feature())["c"] = ints({1, 2, 3});
        auto& lists = *ex.mutable_feature_lists()->mutable_feature_list();
        *lists["r"].add_feature() = floats({1});
        *lists["r"].add_feature() = floats({});
        *lists["r"].add_feature() = floats({2, 3});
        const std::string serialized = ex.SerializeAsString();
        const std::string node = "op: 'ParseSequenceExampleV2'" + attrText("Ncontext_sparse", "i: 0") +
                                 attrText("Nfeature_list_sparse", "i: 0") + attrText("Nfeature_list_dense", "i: 0") +
                                 attrText("Tcontext_dense", "list { }") +
                                 attrText("context_ragged_value_types", typeList({tf::DT_INT64})) +
                                 attrText("context_ragged_split_types", typeList({tf::DT_INT64})) +
                                 attrText("feature_list_ragged_value_types", typeList({tf::DT_FLOAT})) +
                                 attrText("feature_list_ragged_split_types", typeList({tf::DT_INT32}));
        const Tensor noBools = tensor<bool>(m_h->allocator(), TensorShape{0}, std::vector<bool>{});
        auto out = m_h->run(node, {vec({serialized, example({})}), vec({}), vec({}), vec({}), vec({"c"}), vec({}),
                                   vec({}), vec({"r"}), noBools});
        QVERIFY2(out, error(out).c_str());
        QCOMPARE(out->size(), std::size_t(5));
        QCOMPARE(valuesOf<std::int64_t>((*out)[0]), (std::vector<std::int64_t>{1, 2, 3}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[1]), (std::vector<std::int64_t>{0, 3, 3}));
        QCOMPARE(valuesOf<float>((*out)[2]), (std::vector<float>{1, 2, 3}));
        QCOMPARE(valuesOf<std::int32_t>((*out)[3]), (std::vector<std::int32_t>{0, 3, 3}));    // outer
        QCOMPARE(valuesOf<std::int32_t>((*out)[4]), (std::vector<std::int32_t>{0, 1, 1, 3})); // inner
        auto one = m_h->run(node, {scalar(serialized), scalar(""), vec({}), vec({}), vec({"c"}), vec({}), vec({}),
                                   vec({"r"}), noBools});
        QVERIFY2(one, error(one).c_str());
        QCOMPARE((*one)[1].shape(), (TensorShape{0}));
        QCOMPARE(valuesOf<std::int32_t>((*one)[4]), (std::vector<std::int32_t>{0, 1, 1, 3}));
    }

    void parseSingleSequenceExample()
    {
        tf::SequenceExample ex;
        (*ex.mutable_context()->mutable_feature())["c"] = floats({0.5f, 1.5f});
        auto& lists = *ex.mutable_feature_lists()->mutable_feature_list();
        *lists["f"].add_feature() = ints({1, 2});
        *lists["f"].add_feature() = ints({3, 4});
        *lists["w"].add_feature() = bytes({"a"});
        *lists["w"].add_feature() = bytes({"b", "c"});
        const std::string node = "op: 'ParseSingleSequenceExample'" + attrText("Ncontext_sparse", "i: 0") +
                                 attrText("Ncontext_dense", "i: 1") + attrText("Nfeature_list_sparse", "i: 1") +
                                 attrText("Nfeature_list_dense", "i: 2") +
                                 attrText("Tcontext_dense", typeList({tf::DT_FLOAT})) +
                                 attrText("context_dense_shapes", shapeList({TensorShape{2}})) +
                                 attrText("feature_list_sparse_types", typeList({tf::DT_STRING})) +
                                 attrText("feature_list_dense_types", typeList({tf::DT_INT64, tf::DT_FLOAT})) +
                                 attrText("feature_list_dense_shapes", shapeList({TensorShape{2}, TensorShape::scalar()}));
        const Tensor required = floatTensor({}, TensorShape{0});
        auto run = [&](const std::vector<std::string>& missing) {
            return m_h->run(node, {scalar(ex.SerializeAsString()), vec(missing), scalar("c"), scalar("w"), scalar("f"),
                                   scalar("g"), required, scalar("seq9")});
        };
        auto out = run({"g"});
        QVERIFY2(out, error(out).c_str());
        QCOMPARE(out->size(), std::size_t(6));
        QCOMPARE(valuesOf<float>((*out)[0]), (std::vector<float>{0.5f, 1.5f}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[1]), (std::vector<std::int64_t>{0, 0, 1, 0, 1, 1}));
        QCOMPARE(valuesOf<std::string>((*out)[2]), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[3]), (std::vector<std::int64_t>{2, 2}));
        QCOMPARE((*out)[4].shape(), (TensorShape{2, 2}));
        QCOMPARE(valuesOf<std::int64_t>((*out)[4]), (std::vector<std::int64_t>{1, 2, 3, 4}));
        QCOMPARE((*out)[5].shape(), (TensorShape{0}));
        QCOMPARE(error(run({})),
                 std::string("Name: seq9, Feature list 'g' is required but could not be found.  Did you "
                             "mean to include it in feature_list_dense_missing_assumed_empty or "
                             "feature_list_dense_defaults?"));
        QCOMPARE(error(run({"g", "zz"})), std::string("feature_list_dense_missing_assumed_empty names 'zz', which is "
                                                      "not in feature_list_dense_keys"));
    }

    void truncatedInputsFailCleanly()
    {
        // Every prefix of a valid Example and SequenceExample either parses or fails with
        // InvalidArgument: the wire reader never reads past the bytes it has.
        const std::string full =
            example({{"a", floats({1, 2})}, {"s", bytes({"xyz", "w"})}, {"i", ints({1, 300, -5, 1LL << 40})}});
        int failures = 0;
        for (std::size_t n = 0; n < full.size(); ++n) {
            auto r = parseExample({full.substr(0, n)}, {}, {{"s", tf::DT_STRING}, {"i", tf::DT_INT64}},
                                  {{"a", TensorShape{-1}}}, {floatTensor({0}, TensorShape::scalar())});
            if (!r) {
                ++failures;
                QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
            }
        }
        QVERIFY(failures > 0);
        auto whole = parseExample({full}, {}, {{"s", tf::DT_STRING}, {"i", tf::DT_INT64}}, {{"a", TensorShape{-1}}},
                                  {floatTensor({0}, TensorShape::scalar())});
        QVERIFY2(whole, error(whole).c_str());
        QCOMPARE(valuesOf<std::int64_t>((*whole)[3]), (std::vector<std::int64_t>{1, 300, -5, 1LL << 40}));

        tf::SequenceExample ex;
        (*ex.mutable_context()->mutable_feature())["c"] = ints({5});
        *(*ex.mutable_feature_lists()->mutable_feature_list())["f"].add_feature() = floats({1, 2});
        const std::string sequence = ex.SerializeAsString();
        const std::string node =
            "op: 'ParseSequenceExample'" + attrText("Ncontext_sparse", "i: 1") + attrText("Nfeature_list_sparse", "i: 1") +
            attrText("context_sparse_keys", stringList({"c"})) + attrText("context_dense_keys", "list { }") +
            attrText("feature_list_sparse_keys", stringList({"f"})) + attrText("feature_list_dense_keys", "list { }") +
            attrText("feature_list_dense_missing_assumed_empty", "list { }") +
            attrText("context_sparse_types", typeList({tf::DT_INT64})) +
            attrText("feature_list_sparse_types", typeList({tf::DT_FLOAT}));
        failures = 0;
        for (std::size_t n = 0; n < sequence.size(); ++n) {
            auto r = m_h->run(node, {vec({sequence.substr(0, n)}), vec({})});
            if (!r) {
                ++failures;
                QCOMPARE(r.error().code(), StatusCode::kInvalidArgument);
            }
        }
        QVERIFY(failures > 0);
        auto parsed = m_h->run(node, {vec({sequence}), vec({})});
        QVERIFY2(parsed, error(parsed).c_str());
        QCOMPARE(valuesOf<float>((*parsed)[4]), (std::vector<float>{1, 2}));
    }

    void shapeFunctions()
    {
        const std::string example2 = "Nsparse=1;Ndense=2;sparse_types=[int64];Tdense=[float,string];"
                                     "dense_shapes=[[2],[?,3]]";
        INFER_OK(m_ops, "ParseExample", example2, "[5];[0];[];[];[];[0];[]", "[?,2];[?];[2];[5,2];[5,?,3]");
        INFER_OK(m_ops, "ParseExample", example2, "?;?;[];[];[];[0];[]", "[?,2];[?];[2];[?,2];[?,?,3]");
        INFER_ERROR(m_ops, "Shape must be rank 1 but is rank 0", "ParseExample", example2, "[];[0];[];[];[];[0];[]");
        INFER_ERROR(m_ops, "dense_shapes[0] has unknown rank or unknown inner dimensions: [2,?]", "ParseExample",
                    "Nsparse=0;Ndense=1;sparse_types=[];Tdense=[float];dense_shapes=[[2,?]]", "[5];[0];[];[0]");
        const std::string v2 = "num_sparse=1;sparse_types=[int64];Tdense=[float];dense_shapes=[[2]];"
                               "ragged_value_types=[string];ragged_split_types=[int32]";
        INFER_OK(m_ops, "ParseExampleV2", v2, "[4];[0];[1];[1];[1];[2]", "[?,2];[?];[2];[4,2];[?];[5]");
        INFER_OK(m_ops, "ParseExampleV2", v2, "[];[];[1];[1];[1];[2]", "[?,1];[?];[1];[2];[?];[?]");
        INFER_OK(m_ops, "ParseExampleV2", v2, "?;?;[1];[1];[1];[2]", "[?,?];[?];[?];?;[?];[?]");
        INFER_OK(m_ops, "ParseSingleExample",
                 "num_sparse=1;sparse_keys=['s'];dense_keys=['d'];sparse_types=[float];Tdense=[int64];"
                 "dense_shapes=[[?,2]]",
                 "[];[]", "[?,1];[?];[1];[?,2]");
        INFER_ERROR(m_ops, "len(sparse_keys) != num_sparse", "ParseSingleExample",
                    "num_sparse=2;sparse_keys=['s'];dense_keys=[];sparse_types=[float];Tdense=[];dense_shapes=[]",
                    "[]");
        const std::string seq = "Ncontext_sparse=1;Ncontext_dense=1;Nfeature_list_sparse=1;Nfeature_list_dense=1;"
                                "context_sparse_keys=['a'];context_dense_keys=['b'];feature_list_sparse_keys=['c'];"
                                "feature_list_dense_keys=['d'];feature_list_dense_missing_assumed_empty=[];"
                                "context_sparse_types=[int64];Tcontext_dense=[float];context_dense_shapes=[[3]];"
                                "feature_list_sparse_types=[string];feature_list_dense_types=[float];"
                                "feature_list_dense_shapes=[[2]]";
        INFER_OK(m_ops, "ParseSequenceExample", seq, "[6];[0];[3]", "[?,2];[?];[2];[6,3];[?,3];[?];[3];[6,?,2];[6]");
        INFER_ERROR(m_ops, "Ncontext_dense (2) must match the size of Tcontext_dense (1)", "ParseSequenceExample",
                    "Ncontext_sparse=1;Ncontext_dense=2;Nfeature_list_sparse=1;Nfeature_list_dense=1;"
                    "context_sparse_keys=['a'];context_dense_keys=['b'];feature_list_sparse_keys=['c'];"
                    "feature_list_dense_keys=['d'];feature_list_dense_missing_assumed_empty=[];"
                    "context_sparse_types=[int64];Tcontext_dense=[float];context_dense_shapes=[[3]];"
                    "feature_list_sparse_types=[string];feature_list_dense_types=[float];"
                    "feature_list_dense_shapes=[[2]]",
                    "[6];[0];[3]");
        INFER_OK(m_ops, "ParseSequenceExampleV2",
                 "Ncontext_sparse=0;Nfeature_list_sparse=0;Nfeature_list_dense=1;Tcontext_dense=[];"
                 "feature_list_dense_types=[int64];feature_list_dense_shapes=[[]];"
                 "context_ragged_value_types=[float];context_ragged_split_types=[int64];"
                 "feature_list_ragged_value_types=[string];feature_list_ragged_split_types=[int32]",
                 "[3];[0];[0];[0];[1];[0];[1];[1];[1]", "[?];[4];[3,?];[3];[?];[4];[?]");
        INFER_OK(m_ops, "ParseSingleSequenceExample",
                 "Ncontext_sparse=1;Ncontext_dense=0;Nfeature_list_sparse=0;Nfeature_list_dense=1;"
                 "context_sparse_types=[float];feature_list_dense_types=[int64];feature_list_dense_shapes=[[4]]",
                 "[];[0];[];[];[]", "[?,1];[?];[1];[?,4]");
        INFER_OK(m_ops, "DecodeRaw", "out_type=float", "[2,3]", "[2,3,?]");
        INFER_OK(m_ops, "DecodeRaw", "out_type=uint8", "?", "?");
        INFER_OK(m_ops, "DecodeCSV", "OUT_TYPE=[float,string]", "[4,2];[1];[]", "[4,2];[4,2]");
        INFER_ERROR(m_ops, "Shape of a default must be a length-0 or length-1 vector, or a scalar.", "DecodeCSV",
                    "OUT_TYPE=[float]", "[4];[2]");
        INFER_ERROR(m_ops, "Shape must be at most rank 1 but is rank 2", "DecodeCSV", "OUT_TYPE=[float]", "[4];[1,1]");
        INFER_OK(m_ops, "StringToNumber", "", "[2,?]", "[2,?]");
        INFER_OK(m_ops, "SerializeTensor", "T=float", "[3,4]", "[]");
        INFER_OK(m_ops, "ParseTensor", "out_type=int32", "[]", "?");
    }
};

QTEST_GUILESS_MAIN(TestParsingKernels)
#include "test_parsing_kernels.moc"
