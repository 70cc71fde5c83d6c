// parseExample / parseSingleExample / parseSingleSequenceExample: values as tf.parse_example gives them, and TF's error
// texts.
#include "data/example_parser.h"

#include "proto/example.pb.h"

#include <QTest>

#include <cmath>
#include <span>
#include <string_view>

using namespace tstudio;
using namespace tstudio::data;
namespace tf = tensorflow;

namespace {

CpuAllocator& allocator()
{
    static CpuAllocator a;
    return a;
}

tf::Feature floats(std::initializer_list<float> v)
{
    tf::Feature f;
    f.mutable_float_list(); // set even when empty, as tf.train.Feature(float_list=...) does
    for (float x : v)
        f.mutable_float_list()->add_value(x);
    return f;
}
tf::Feature ints(std::initializer_list<std::int64_t> v)
{
    tf::Feature f;
    f.mutable_int64_list(); // set even when empty, as tf.train.Feature(int64_list=...) does
    for (std::int64_t x : v)
        f.mutable_int64_list()->add_value(x);
    return f;
}
tf::Feature bytes(std::initializer_list<const char*> v)
{
    tf::Feature f;
    f.mutable_bytes_list(); // set even when empty, as tf.train.Feature(bytes_list=...) does
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

template <typename T> std::vector<T> values(const Tensor& t)
{
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

Tensor tensor(std::vector<float> v, TensorShape shape)
{
    return *Tensor::fromVector(allocator(), shape, v);
}

} // namespace

class TestExampleParser : public QObject {
    Q_OBJECT

private slots:
    void denseAndVarLenBatch()
    {
        const std::vector<std::string> batch = {
            example({{"x", floats({1, 2, 3})}, {"label", ints({7})}, {"tags", bytes({"a", "b"})}}),
            example({{"x", floats({4, 5, 6})}, {"tags", bytes({"c"})}, {"unused", ints({1})}}),
            example({{"x", floats({7, 8, 9})}, {"label", ints({9})}}),
        };
        ExampleFeatures spec;
        spec.dense.push_back({"x", tf::DT_FLOAT, TensorShape{3}, std::nullopt});
        spec.dense.push_back({"label", tf::DT_INT64, TensorShape::scalar(),
                              *Tensor::fromVector<std::int64_t>(allocator(), TensorShape::scalar(), {-1})});
        spec.sparse.push_back({"tags", tf::DT_STRING});
        auto parsed = parseExample(batch, spec, allocator());
        QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
        const Tensor& x = parsed->dense.at("x");
        QCOMPARE(x.shape(), (TensorShape{3, 3}));
        QCOMPARE(values<float>(x), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(parsed->dense.at("label").shape(), (TensorShape{3}));
        QCOMPARE(values<std::int64_t>(parsed->dense.at("label")), (std::vector<std::int64_t>{7, -1, 9}));
        const SparseTensor& tags = parsed->sparse.at("tags");
        QCOMPARE(tags.indices.shape(), (TensorShape{3, 2}));
        QCOMPARE(values<std::int64_t>(tags.indices), (std::vector<std::int64_t>{0, 0, 0, 1, 1, 0}));
        QCOMPARE(values<std::string>(tags.values), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(values<std::int64_t>(tags.denseShape), (std::vector<std::int64_t>{3, 2}));
    }

    void floatListsPackedUnpackedAndDamaged()
    {
        // Example{features{feature{key: "a" value{float_list{<list>}}}}} written byte by byte.
        auto withFloatList = [](const std::string& list) {
            const std::string feature = "\x12" + std::string(1, char(list.size())) + list;
            const std::string entry = "\x0a\x01" "a" "\x12" + std::string(1, char(feature.size())) + feature;
            const std::string features = "\x0a" + std::string(1, char(entry.size())) + entry;
            return "\x0a" + std::string(1, char(features.size())) + features;
        };
        auto bits = [](float v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
        const std::string packed = withFloatList("\x0a\x0c" + bits(1.5f) + bits(-0.0f) + bits(3e38f));
        const std::string unpacked = withFloatList("\x0d" + bits(1.5f) + "\x0d" + bits(-0.0f) + "\x0d" + bits(3e38f));
        ExampleFeatures spec;
        spec.dense.push_back({"a", tf::DT_FLOAT, TensorShape{3}, std::nullopt});
        for (const std::string& record : {packed, unpacked, example({{"a", floats({1.5f, -0.0f, 3e38f})}})}) {
            auto parsed = parseExample(std::vector<std::string>{record, record}, spec, allocator());
            QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
            const std::vector<float> got = values<float>(parsed->dense.at("a"));
            QCOMPARE(got, (std::vector<float>{1.5f, -0.0f, 3e38f, 1.5f, -0.0f, 3e38f}));
            QVERIFY(std::signbit(got[1]));
            // Views of the same records parse the same.
            const std::vector<std::string_view> views{record, record};
            auto fromViews = parseExample(std::span<const std::string_view>(views), spec, allocator());
            QVERIFY(fromViews);
            QCOMPARE(values<float>(fromViews->dense.at("a")), got);
        }
        // A packed run whose length is not a whole number of floats is damaged.
        const std::string damaged = withFloatList("\x0a\x05" + bits(1.5f) + "x");
        auto bad = parseExample(std::vector<std::string>{packed, damaged}, spec, allocator());
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(),
                 std::string("Name: <unknown>, Key: a, Index: 1.  Can't parse serialized Example."));
    }

    void multiDimensionalDenseWithDefault()
    {
        ExampleFeatures spec;
        spec.dense.push_back({"m", tf::DT_FLOAT, TensorShape{2, 2}, tensor({0.5f, 0.5f, 0.5f, 0.5f}, {2, 2})});
        const std::vector<std::string> batch = {example({{"m", floats({1, 2, 3, 4})}}), example({})};
        auto parsed = parseExample(batch, spec, allocator());
        QVERIFY(parsed);
        QCOMPARE(parsed->dense.at("m").shape(), (TensorShape{2, 2, 2}));
        QCOMPARE(values<float>(parsed->dense.at("m")), (std::vector<float>{1, 2, 3, 4, 0.5f, 0.5f, 0.5f, 0.5f}));
    }

    void errorsAsTensorFlowWordsThem()
    {
        ExampleFeatures spec;
        spec.dense.push_back({"a", tf::DT_FLOAT, TensorShape{3}, std::nullopt});
        const std::string good = example({{"a", floats({1, 2, 3})}});
        auto err = [&](const std::vector<std::string>& batch, const ExampleFeatures& s,
                       std::vector<std::string> names = {}) {
            auto r = parseExample(batch, s, allocator(), names);
            return r ? std::string("ok") : r.error().message();
        };
        QCOMPARE(err({good, example({})}, spec),
                 std::string("Name: <unknown>, Feature: a (data type: float) is required but could not be found."));
        QCOMPARE(err({good, example({{"a", ints({1, 2, 3})}})}, spec, {"first", "second"}),
                 std::string("Name: second, Key: a, Index: 1.  Data types don't match. Data type: int64 but expected "
                             "type: float"));
        QCOMPARE(err({example({{"a", floats({1, 2})}})}, spec),
                 std::string("Name: <unknown>, Key: a, Index: 0.  Number of float values != expected.  Values size: 2 "
                             "but output shape: [3]"));
        QCOMPARE(err({"\xff\xff\xff"}, spec), std::string("Could not parse example input, value: '\xff\xff\xff'"));

        ExampleFeatures sparse;
        sparse.sparse.push_back({"s", tf::DT_INT64});
        QCOMPARE(err({example({{"s", floats({1})}})}, sparse),
                 std::string("Name: <unknown>, Key: s, Index: 0.  Data types don't match. Expected type: int64, "
                             "Actual type: float"));
        ExampleFeatures badDtype;
        badDtype.sparse.push_back({"s", tf::DT_INT32});
        QCOMPARE(err({good}, badDtype), std::string("Invalid config dtype: int32"));
        ExampleFeatures badDefault;
        badDefault.dense.push_back({"a", tf::DT_FLOAT, TensorShape{3}, tensor({1, 2}, {2})});
        QCOMPARE(err({good}, badDefault), std::string("feature 'a': default_value has 2 elements, shape [3] needs 3"));
        QCOMPARE(err({good}, spec, {"x", "y"}),
                 std::string("Expected len(names) == len(serialized), but got: 2 vs. 1"));
    }

    void singleExample()
    {
        ExampleFeatures spec;
        spec.dense.push_back({"a", tf::DT_INT64, TensorShape{2}, std::nullopt});
        spec.sparse.push_back({"v", tf::DT_FLOAT});
        auto parsed =
            parseSingleExample(example({{"a", ints({4, 5})}, {"v", floats({0.5f, 1.5f, 2.5f})}}), spec, allocator());
        QVERIFY(parsed);
        QCOMPARE(parsed->dense.at("a").shape(), (TensorShape{2}));
        QCOMPARE(values<std::int64_t>(parsed->dense.at("a")), (std::vector<std::int64_t>{4, 5}));
        const SparseTensor& v = parsed->sparse.at("v");
        QCOMPARE(v.indices.shape(), (TensorShape{3, 1}));
        QCOMPARE(values<std::int64_t>(v.indices), (std::vector<std::int64_t>{0, 1, 2}));
        QCOMPARE(values<float>(v.values), (std::vector<float>{0.5f, 1.5f, 2.5f}));
        QCOMPARE(values<std::int64_t>(v.denseShape), (std::vector<std::int64_t>{3}));

        auto wrongSize = parseSingleExample(example({{"a", ints({4, 5, 6})}}), spec, allocator());
        QVERIFY(!wrongSize);
        QCOMPARE(wrongSize.error().message(), std::string("Key: a.  Can't parse serialized Example."));
        auto missing = parseSingleExample(example({}), spec, allocator());
        QVERIFY(!missing);
        QCOMPARE(missing.error().message(),
                 std::string("Feature: a (data type: int64) is required but could not be found."));
    }

    void sequenceExample()
    {
        tf::SequenceExample ex;
        (*ex.mutable_context()->mutable_feature())["length"] = ints({3});
        (*ex.mutable_context()->mutable_feature())["ids"] = ints({10, 11});
        auto& lists = *ex.mutable_feature_lists()->mutable_feature_list();
        for (auto f : {floats({1, 2}), floats({3, 4}), floats({5, 6})})
            *lists["frames"].add_feature() = f;
        for (auto f : {bytes({"a"}), bytes({}), bytes({"b", "c", "d"})})
            *lists["words"].add_feature() = f;
        const std::string serialized = ex.SerializeAsString();

        SequenceFeatures spec;
        spec.contextDense.push_back({"length", tf::DT_INT64, TensorShape::scalar(), std::nullopt});
        spec.contextDense.push_back(
            {"weight", tf::DT_FLOAT, TensorShape::scalar(), tensor({0.25f}, TensorShape::scalar())});
        spec.contextSparse.push_back({"ids", tf::DT_INT64});
        spec.sequenceDense.push_back({"frames", tf::DT_FLOAT, TensorShape{2}, false});
        spec.sequenceDense.push_back({"absent", tf::DT_FLOAT, TensorShape{4}, true});
        spec.sequenceSparse.push_back({"words", tf::DT_STRING});
        auto parsed = parseSingleSequenceExample(serialized, spec, allocator(), "seq0");
        QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
        QCOMPARE(values<std::int64_t>(parsed->context.dense.at("length")), (std::vector<std::int64_t>{3}));
        QCOMPARE(values<float>(parsed->context.dense.at("weight")), (std::vector<float>{0.25f}));
        QCOMPARE(values<std::int64_t>(parsed->context.sparse.at("ids").values), (std::vector<std::int64_t>{10, 11}));
        QCOMPARE(parsed->context.sparse.at("ids").indices.shape(), (TensorShape{2, 1}));
        const Tensor& frames = parsed->sequence.dense.at("frames");
        QCOMPARE(frames.shape(), (TensorShape{3, 2}));
        QCOMPARE(values<float>(frames), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(parsed->sequence.dense.at("absent").shape(), (TensorShape{0, 4}));
        const SparseTensor& words = parsed->sequence.sparse.at("words");
        QCOMPARE(values<std::int64_t>(words.indices), (std::vector<std::int64_t>{0, 0, 2, 0, 2, 1, 2, 2}));
        QCOMPARE(values<std::string>(words.values), (std::vector<std::string>{"a", "b", "c", "d"}));
        QCOMPARE(values<std::int64_t>(words.denseShape), (std::vector<std::int64_t>{3, 3}));
    }

    void sequenceExampleErrors()
    {
        tf::SequenceExample ex;
        auto& lists = *ex.mutable_feature_lists()->mutable_feature_list();
        *lists["a"].add_feature() = ints({1, 2});
        *lists["a"].add_feature() = ints({1, 2, 3});
        const std::string serialized = ex.SerializeAsString();
        auto err = [&](const SequenceFeatures& s) {
            auto r = parseSingleSequenceExample(serialized, s, allocator(), "in1");
            return r ? std::string("ok") : r.error().message();
        };
        SequenceFeatures missingList;
        missingList.sequenceDense.push_back({"b", tf::DT_INT64, TensorShape{2}, false});
        QCOMPARE(err(missingList), std::string("Name: in1, Feature list 'b' is required but could not be found.  Did "
                                               "you mean to include it in feature_list_dense_missing_assumed_empty or "
                                               "feature_list_dense_defaults?"));
        SequenceFeatures wrongSize;
        wrongSize.sequenceDense.push_back({"a", tf::DT_INT64, TensorShape{2}, false});
        QCOMPARE(err(wrongSize), std::string("Name: in1, Key: a, Index: 1.  Number of int64 values != expected.  "
                                             "values size: 3 but output shape: [2]"));
        SequenceFeatures wrongType;
        wrongType.sequenceDense.push_back({"a", tf::DT_FLOAT, TensorShape{2}, false});
        QVERIFY(err(wrongType).starts_with(
            "Name: in1, Feature list: a, Index: 0.  Data types don't match. Expected type: float  Feature is: "
            "int64_list {"));
        SequenceFeatures missingContext;
        missingContext.contextDense.push_back({"c", tf::DT_FLOAT, TensorShape::scalar(), std::nullopt});
        QCOMPARE(err(missingContext),
                 std::string("Name: in1, Context feature 'c' is required but could not be found."));
    }
};

QTEST_GUILESS_MAIN(TestExampleParser)
#include "test_example_parser.moc"
