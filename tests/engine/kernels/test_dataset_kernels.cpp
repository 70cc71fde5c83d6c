// Tests for the tf.data kernels: DT_VARIANT tensors; pipelines built as TensorFlow 1.15 builds them
// (dataset ops, map/filter/interleave functions in the GraphDef's library, Iterator + MakeIterator or
// OneShotIterator, IteratorGetNext until OutOfRange) compared element by element with closed forms
// computed here and with NumPy (tools/golden/datasets.py); TFRecord/text/fixed-length files the tests
// write; shuffles as multisets and reproducible with a seed; file and memory caches; prefetch and
// parallel map threads; and the errors of bad structures, functions and missing functions.
#include "builder/attr_values.h"
#include "builder/dataset.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "data/tfrecord_writer.h"
#include "kernels/dataset/batch_parse.h"
#include "proto/example.pb.h"
#include "framework/allocator.h"
#include "framework/variant.h"
#include "kernel_harness.h"
#include "runtime/session.h"
#include "fixture_paths.h"
#include "shared_registries.h"

#include <google/protobuf/text_format.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <numeric>

using namespace tstudio;
using namespace tstudio::testing;
using namespace tstudio::ops;
namespace tf = tensorflow;

namespace {

/// The functions the pipelines use, as TensorFlow 1.15 writes them into the GraphDef's library.
const char* kLibrary = R"pb(
  function {
    signature {
      name: 'sq_plus_one'
      input_arg { name: 'x' type: DT_INT64 }
      output_arg { name: 'y' type: DT_INT64 }
    }
    node_def { name: 'sq' op: 'Mul' input: 'x' input: 'x' attr { key: 'T' value { type: DT_INT64 } } }
    node_def {
      name: 'one' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 1 } } }
    }
    node_def { name: 'add' op: 'AddV2' input: 'sq:z:0' input: 'one:output:0' attr { key: 'T' value { type: DT_INT64 } } }
    ret { key: 'y' value: 'add:z:0' }
  }
  function {
    signature {
      name: 'is_even'
      input_arg { name: 'x' type: DT_INT64 }
      output_arg { name: 'keep' type: DT_BOOL }
    }
    node_def {
      name: 'two' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 2 } } }
    }
    node_def {
      name: 'zero' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 0 } } }
    }
    node_def { name: 'mod' op: 'FloorMod' input: 'x' input: 'two:output:0' attr { key: 'T' value { type: DT_INT64 } } }
    node_def { name: 'eq' op: 'Equal' input: 'mod:z:0' input: 'zero:output:0' attr { key: 'T' value { type: DT_INT64 } } }
    ret { key: 'keep' value: 'eq:z:0' }
  }
  function {
    signature {
      name: 'add_captured'
      input_arg { name: 'x' type: DT_INT64 }
      input_arg { name: 'c' type: DT_INT64 }
      output_arg { name: 'y' type: DT_INT64 }
    }
    node_def { name: 'add' op: 'AddV2' input: 'x' input: 'c' attr { key: 'T' value { type: DT_INT64 } } }
    ret { key: 'y' value: 'add:z:0' }
  }
  function {
    signature {
      name: 'fill_x'
      input_arg { name: 'x' type: DT_INT64 }
      output_arg { name: 'v' type: DT_INT64 }
    }
    node_def {
      name: 'shape' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT32 } }
      attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1 } } }
    }
    node_def {
      name: 'dims' op: 'Reshape' input: 'x' input: 'shape:output:0'
      attr { key: 'T' value { type: DT_INT64 } }
      attr { key: 'Tshape' value { type: DT_INT32 } }
    }
    node_def {
      name: 'fill' op: 'Fill' input: 'dims:output:0' input: 'x'
      attr { key: 'T' value { type: DT_INT64 } }
      attr { key: 'index_type' value { type: DT_INT64 } }
    }
    ret { key: 'v' value: 'fill:output:0' }
  }
  function {
    signature {
      name: 'repeat_six'
      input_arg { name: 'x' type: DT_INT64 }
      output_arg { name: 'd' type: DT_VARIANT }
    }
    node_def {
      name: 'six' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 6 } } }
    }
    node_def {
      name: 'one' op: 'TensorDataset' input: 'x'
      attr { key: 'Toutput_types' value { list { type: DT_INT64 } } }
      attr { key: 'output_shapes' value { list { shape {} } } }
    }
    node_def {
      name: 'rep' op: 'RepeatDataset' input: 'one:handle:0' input: 'six:output:0'
      attr { key: 'output_types' value { list { type: DT_INT64 } } }
      attr { key: 'output_shapes' value { list { shape {} } } }
    }
    ret { key: 'd' value: 'rep:handle:0' }
  }
  function {
    signature {
      name: 'repeat_x'
      input_arg { name: 'x' type: DT_INT64 }
      output_arg { name: 'd' type: DT_VARIANT }
    }
    node_def {
      name: 'one' op: 'TensorDataset' input: 'x'
      attr { key: 'Toutput_types' value { list { type: DT_INT64 } } }
      attr { key: 'output_shapes' value { list { shape {} } } }
    }
    node_def {
      name: 'rep' op: 'RepeatDataset' input: 'one:handle:0' input: 'x'
      attr { key: 'output_types' value { list { type: DT_INT64 } } }
      attr { key: 'output_shapes' value { list { shape {} } } }
    }
    ret { key: 'd' value: 'rep:handle:0' }
  }
  function {
    signature {
      name: 'to_float'
      input_arg { name: 'x' type: DT_INT64 }
      output_arg { name: 'y' type: DT_FLOAT }
    }
    node_def {
      name: 'cast' op: 'Cast' input: 'x'
      attr { key: 'SrcT' value { type: DT_INT64 } }
      attr { key: 'DstT' value { type: DT_FLOAT } }
      attr { key: 'Truncate' value { b: false } }
    }
    ret { key: 'y' value: 'cast:y:0' }
  }
  function {
    signature {
      name: 'make_range'
      output_arg { name: 'd' type: DT_VARIANT }
    }
    node_def {
      name: 'start' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 0 } } }
    }
    node_def {
      name: 'stop' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 3 } } }
    }
    node_def {
      name: 'step' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape {} int64_val: 1 } } }
    }
    node_def {
      name: 'range' op: 'RangeDataset' input: 'start:output:0' input: 'stop:output:0' input: 'step:output:0'
      attr { key: 'output_types' value { list { type: DT_INT64 } } }
      attr { key: 'output_shapes' value { list { shape {} } } }
    }
    node_def {
      name: 'model' op: 'ModelDataset' input: 'range:handle:0'
      attr { key: 'output_types' value { list { type: DT_INT64 } } }
      attr { key: 'output_shapes' value { list { shape {} } } }
    }
    ret { key: 'd' value: 'model:handle:0' }
  }
  function {
    signature {
      name: 'parse_xy'
      input_arg { name: 'record' type: DT_STRING }
      output_arg { name: 'x' type: DT_FLOAT }
      output_arg { name: 'y' type: DT_INT64 }
    }
    node_def {
      name: 'x_default' op: 'Const'
      attr { key: 'dtype' value { type: DT_FLOAT } }
      attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: [ 9, 8, 7 ] } } }
    }
    node_def {
      name: 'y_default' op: 'Const'
      attr { key: 'dtype' value { type: DT_INT64 } }
      attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape { dim { size: 0 } } } } }
    }
    node_def {
      name: 'ParseSingleExample' op: 'ParseSingleExample'
      input: 'record' input: 'x_default:output:0' input: 'y_default:output:0'
      attr { key: 'num_sparse' value { i: 0 } }
      attr { key: 'sparse_keys' value { list {} } }
      attr { key: 'sparse_types' value { list {} } }
      attr { key: 'dense_keys' value { list { s: [ 'x', 'y' ] } } }
      attr { key: 'Tdense' value { list { type: [ DT_FLOAT, DT_INT64 ] } } }
      attr { key: 'dense_shapes' value { list { shape { dim { size: 3 } } shape {} } } }
    }
    ret { key: 'x' value: 'ParseSingleExample:dense_values:0' }
    ret { key: 'y' value: 'ParseSingleExample:dense_values:1' }
  }
)pb";

template <typename T> T must(Expected<T> value)
{
    if (!value)
        qFatal("%s", value.error().toString().c_str());
    return std::move(*value);
}

tf::AttrValue shapesAttr(const std::vector<TensorShape>& shapes)
{
    tf::AttrValue value;
    value.mutable_list();
    for (const TensorShape& shape : shapes)
        *value.mutable_list()->add_shape() = shape.toProto();
    return value;
}

tf::AttrValue funcAttr(const std::string& name)
{
    tf::AttrValue value;
    value.mutable_func()->set_name(name);
    return value;
}

bool contains(const Status& s, std::string_view text)
{
    return s.message().find(text) != std::string::npos;
}

/// A graph of dataset ops with the library above; every dataset has one or more int64 components
/// unless said otherwise.
class Pipeline {
public:
    Pipeline() : b(sharedRegistries().ops)
    {
        tf::FunctionDefLibrary library;
        if (!google::protobuf::TextFormat::ParseFromString(kLibrary, &library))
            qFatal("kLibrary does not parse");
        // parse_xy_identity: parse_xy with Identity nodes on its results (a function the batched-parse
        // rewrite does not recognise, computing the same). parse_fixture(_identity): the same for the
        // ../shared/fixtures file tfrecord-example/data/data.tfrecords ("features" float [9], "lable" int64).
        auto withIdentity = [&library](const tf::FunctionDef& f, const std::string& name) {
            tf::FunctionDef* copy = library.add_function();
            *copy = f;
            copy->mutable_signature()->set_name(name);
            for (const auto& [out, type] : {std::pair<std::string, tf::DataType>{"x", tf::DT_FLOAT}, {"y", tf::DT_INT64}}) {
                tf::NodeDef* identity = copy->add_node_def();
                identity->set_name("identity_" + out);
                identity->set_op("Identity");
                identity->add_input((*copy->mutable_ret())[out]);
                (*identity->mutable_attr())["T"].set_type(type);
                (*copy->mutable_ret())[out] = "identity_" + out + ":output:0";
            }
        };
        const tf::FunctionDefLibrary written = library;
        for (const tf::FunctionDef& f : written.function())
            if (f.signature().name() == "parse_xy") {
                withIdentity(f, "parse_xy_identity");
                tf::FunctionDef fixture = f;
                fixture.mutable_signature()->set_name("parse_fixture");
                for (tf::NodeDef& node : *fixture.mutable_node_def()) {
                    if (node.name() == "x_default") { // required: an empty default
                        auto* value = (*node.mutable_attr())["value"].mutable_tensor();
                        value->clear_float_val();
                        value->mutable_tensor_shape()->mutable_dim(0)->set_size(0);
                    } else if (node.op() == "ParseSingleExample") {
                        auto& keys = *(*node.mutable_attr())["dense_keys"].mutable_list();
                        keys.set_s(0, "features");
                        keys.set_s(1, "lable");
                        (*node.mutable_attr())["dense_shapes"].mutable_list()->mutable_shape(0)->mutable_dim(0)->set_size(9);
                    }
                }
                *library.add_function() = fixture;
                withIdentity(fixture, "parse_fixture_identity");
            }
        if (Status s = b.addFunctions(library); !s.isOk())
            qFatal("%s", s.toString().c_str());
    }

    GraphBuilder b;

    Output i64(std::int64_t v) { return must(constantInts(b, {v}, TensorShape::scalar(), tf::DT_INT64, "c")); }
    Output boolean(bool v)
    {
        tf::TensorProto proto;
        proto.set_dtype(tf::DT_BOOL);
        proto.mutable_tensor_shape();
        proto.add_bool_val(v);
        return must(constant(b, proto, "flag"));
    }
    Output str(const std::string& v)
    {
        tf::TensorProto proto;
        proto.set_dtype(tf::DT_STRING);
        proto.mutable_tensor_shape();
        proto.add_string_val(v);
        return must(constant(b, proto, "s"));
    }
    Output strings(const std::vector<std::string>& values)
    {
        tf::TensorProto proto;
        proto.set_dtype(tf::DT_STRING);
        proto.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
        for (const std::string& v : values)
            proto.add_string_val(v);
        return must(constant(b, proto, "files"));
    }

    /// An op with output_types / output_shapes of `types` scalars unless `shapes` is given.
    Output dataset(const std::string& op, std::vector<OpInput> inputs, AttrMap attrs = {},
                   std::vector<DataType> types = {tf::DT_INT64}, std::vector<TensorShape> shapes = {},
                   const std::string& name = {})
    {
        if (shapes.empty())
            shapes.assign(types.size(), TensorShape::scalar());
        attrs.emplace(op == "TensorDataset" || op == "TensorSliceDataset" || op == "PaddedBatchDatasetV2"
                          ? "Toutput_types"
                          : "output_types",
                      attr::types(types));
        attrs.emplace("output_shapes", shapesAttr(shapes));
        return must(b.op(op, std::move(inputs), std::move(attrs), name)).output(0);
    }

    Output range(std::int64_t start, std::int64_t stop, std::int64_t step = 1)
    {
        return dataset("RangeDataset", {i64(start), i64(stop), i64(step)});
    }
    Output map(const Output& input, const std::string& fn, std::vector<DataType> types = {tf::DT_INT64},
               std::vector<TensorShape> shapes = {}, const std::string& name = {})
    {
        return dataset("MapDataset", {input, std::vector<Output>{}}, {{"f", funcAttr(fn)}}, types, shapes, name);
    }

    /// IteratorV2 "iterator" + MakeIterator "make" + IteratorGetNext "next" over `d`.
    void iterate(const Output& d, std::vector<DataType> types = {tf::DT_INT64}, std::vector<TensorShape> shapes = {})
    {
        if (shapes.empty())
            shapes.assign(types.size(), TensorShape::scalar());
        Output it = must(b.op("IteratorV2", {},
                              {{"shared_name", attr::s("")},
                               {"container", attr::s("")},
                               {"output_types", attr::types(types)},
                               {"output_shapes", shapesAttr(shapes)}},
                              "iterator"))
                        .output(0);
        must(b.op("MakeIterator", {d, it}, {}, "make"));
        must(b.op("IteratorGetNext", {it},
                  {{"output_types", attr::types(types)}, {"output_shapes", shapesAttr(shapes)}}, "next"));
        m_components = static_cast<int>(types.size());
    }

    std::unique_ptr<Session> session() const
    {
        SessionOptions options;
        options.ops = &sharedRegistries().ops;
        options.kernels = &sharedRegistries().kernels;
        auto s = std::make_unique<Session>(options);
        if (Status status = s->create(b.graphDef()); !status.isOk())
            qFatal("%s", status.toString().c_str());
        return s;
    }

    /// Runs "make", then "next" until OutOfRange: every element, or the first other error.
    Expected<std::vector<std::vector<Tensor>>> drain(Session& s, int limit = 100000) const
    {
        if (Status st = s.run({}, {}, {"make"}, nullptr); !st.isOk())
            return unexpected(st);
        return drainNext(s, limit);
    }
    Expected<std::vector<std::vector<Tensor>>> drainNext(Session& s, int limit = 100000) const
    {
        std::vector<std::string> fetches;
        for (int i = 0; i < m_components; ++i)
            fetches.push_back("next:" + std::to_string(i));
        std::vector<std::vector<Tensor>> out;
        for (int n = 0; n < limit; ++n) {
            std::vector<Tensor> element;
            Status st = s.run({}, fetches, {}, &element);
            if (st.code() == StatusCode::kOutOfRange) {
                if (!contains(st, "End of sequence"))
                    return unexpected(st);
                return out;
            }
            if (!st.isOk())
                return unexpected(st);
            out.push_back(std::move(element));
        }
        return out;
    }

    /// The int64 scalars of the elements' component 0.
    Expected<std::vector<std::int64_t>> scalars(int limit = 100000) const
    {
        auto s = session();
        auto elements = drain(*s, limit);
        if (!elements)
            return unexpected(elements.error());
        std::vector<std::int64_t> out;
        for (const auto& e : *elements)
            out.push_back(e[0].scalar<std::int64_t>());
        return out;
    }

private:
    int m_components = 1;
};

std::vector<std::int64_t> values64(const Tensor& t)
{
    auto v = t.values<std::int64_t>();
    return {v.begin(), v.end()};
}

std::vector<std::int64_t> iota64(std::int64_t from, std::int64_t to)
{
    std::vector<std::int64_t> v(static_cast<std::size_t>(to - from));
    std::iota(v.begin(), v.end(), from);
    return v;
}

class TestValue : public VariantValue {
public:
    explicit TestValue(int v) : value(v) {}
    std::string typeName() const override { return "TestValue"; }
    std::string debugString() const override { return "TestValue(" + std::to_string(value) + ")"; }
    int value;
};

} // namespace

class TestDatasetKernels : public QObject {
    Q_OBJECT

private slots:
    void variantTensorsShareTheirObjects()
    {
        CpuAllocator allocator;
        Tensor t = must(Tensor::allocate(allocator, tf::DT_VARIANT, TensorShape{2}));
        QVERIFY(t.values<Variant>()[0].isEmpty());
        auto value = std::make_shared<const TestValue>(7);
        t.values<Variant>()[1] = Variant(value);
        Tensor copy = must(t.deepCopy(allocator));
        QVERIFY(!copy.sharesBufferWith(t));
        QCOMPARE(copy.values<Variant>()[1].as<TestValue>().get(), value.get()); // copied by reference
        QCOMPARE(QString::fromStdString(t.debugString()),
                 QString("Tensor<type: variant shape: [2] values: <empty variant> TestValue(7)>"));
        tf::TensorProto proto;
        t.toProto(&proto, true);
        QCOMPARE(proto.variant_val_size(), 2);
        QCOMPARE(QString::fromStdString(proto.variant_val(1).type_name()), QString("TestValue"));
        QCOMPARE(Tensor::fromProto(allocator, proto).error().code(), StatusCode::kUnimplemented);
        value.reset();
        QCOMPARE(copy.values<Variant>()[1].as<TestValue>()->value, 7); // kept alive by the tensors
    }

    void rangeMapFilterBatchAndEndOfSequence()
    {
        Pipeline p;
        Output d = p.map(p.range(0, 10), "sq_plus_one");
        d = p.dataset("FilterDataset", {d, std::vector<Output>{}}, {{"predicate", funcAttr("is_even")}});
        d = p.dataset("BatchDatasetV2", {d, p.i64(3), p.boolean(false)}, {}, {tf::DT_INT64}, {TensorShape{-1}});
        p.iterate(d, {tf::DT_INT64}, {TensorShape{-1}});
        // x*x + 1 is even for odd x: 2, 10, 26, 50, 82.
        std::vector<std::int64_t> expected;
        for (std::int64_t x = 0; x < 10; ++x)
            if ((x * x + 1) % 2 == 0)
                expected.push_back(x * x + 1);
        auto s = p.session();
        auto batches = must(p.drain(*s));
        QCOMPARE(batches.size(), std::size_t{2});
        QCOMPARE(values64(batches[0][0]), std::vector<std::int64_t>(expected.begin(), expected.begin() + 3));
        QCOMPARE(values64(batches[1][0]), std::vector<std::int64_t>(expected.begin() + 3, expected.end()));
        QCOMPARE(batches[1][0].shape(), TensorShape{2});
        // Still at the end: OutOfRange again.
        std::vector<Tensor> out;
        const Status again = s->run({}, {"next:0"}, {}, &out);
        QCOMPARE(again.code(), StatusCode::kOutOfRange);
        QVERIFY2(contains(again, "End of sequence"), again.toString().c_str());
        // MakeIterator again starts over.
        QCOMPARE(must(p.drain(*s)).size(), std::size_t{2});
    }

    void batchDropRemainderAndCapturedArguments()
    {
        Pipeline p;
        Output d = p.dataset("MapDataset", {p.range(0, 7), std::vector<Output>{p.i64(100)}},
                             {{"f", funcAttr("add_captured")}, {"Targuments", attr::types({tf::DT_INT64})}});
        d = p.dataset("BatchDatasetV2", {d, p.i64(3), p.boolean(true)}, {}, {tf::DT_INT64}, {TensorShape{3}});
        p.iterate(d, {tf::DT_INT64}, {TensorShape{3}});
        auto s = p.session();
        auto batches = must(p.drain(*s));
        QCOMPARE(batches.size(), std::size_t{2}); // 7 = 2 * 3 + 1: the last one is dropped
        QCOMPARE(values64(batches[0][0]), std::vector<std::int64_t>({100, 101, 102}));
        QCOMPARE(values64(batches[1][0]), std::vector<std::int64_t>({103, 104, 105}));
    }

    void paddedBatchPadsToTheLongestElement()
    {
        Pipeline p;
        Output d = p.map(p.range(1, 6), "fill_x", {tf::DT_INT64}, {TensorShape{-1}});
        Output padded = must(constantInts(p.b, {-1}, TensorShape{1}, tf::DT_INT64, "padded_shape"));
        d = p.dataset("PaddedBatchDatasetV2",
                      {d, p.i64(2), std::vector<Output>{padded}, std::vector<Output>{p.i64(-9)}, p.boolean(false)}, {},
                      {tf::DT_INT64}, {TensorShape{-1, -1}});
        p.iterate(d, {tf::DT_INT64}, {TensorShape{-1, -1}});
        auto s = p.session();
        auto batches = must(p.drain(*s));
        // Elements [x] * x for x = 1..5, two per batch, padded with -9 to the batch's longest.
        QCOMPARE(batches.size(), std::size_t{3});
        QCOMPARE(batches[0][0].shape(), (TensorShape{2, 2}));
        QCOMPARE(values64(batches[0][0]), std::vector<std::int64_t>({1, -9, 2, 2}));
        QCOMPARE(batches[1][0].shape(), (TensorShape{2, 4}));
        QCOMPARE(values64(batches[1][0]), std::vector<std::int64_t>({3, 3, 3, -9, 4, 4, 4, 4}));
        QCOMPARE(batches[2][0].shape(), (TensorShape{1, 5}));
        QCOMPARE(values64(batches[2][0]), std::vector<std::int64_t>({5, 5, 5, 5, 5}));

        // drop_remainder, and a fixed padded size of 6.
        Pipeline q;
        Output e = q.map(q.range(1, 6), "fill_x", {tf::DT_INT64}, {TensorShape{-1}});
        Output six = must(constantInts(q.b, {6}, TensorShape{1}, tf::DT_INT64, "padded_shape"));
        e = q.dataset("PaddedBatchDatasetV2",
                      {e, q.i64(2), std::vector<Output>{six}, std::vector<Output>{q.i64(0)}, q.boolean(true)}, {},
                      {tf::DT_INT64}, {TensorShape{2, 6}});
        q.iterate(e, {tf::DT_INT64}, {TensorShape{2, 6}});
        auto t = q.session();
        auto fixed = must(q.drain(*t));
        QCOMPARE(fixed.size(), std::size_t{2});
        QCOMPARE(values64(fixed[1][0]), std::vector<std::int64_t>({3, 3, 3, 0, 0, 0, 4, 4, 4, 4, 0, 0}));
    }

    void batchOfDifferentShapesFails()
    {
        Pipeline p;
        Output d = p.map(p.range(1, 4), "fill_x", {tf::DT_INT64}, {TensorShape{-1}});
        d = p.dataset("BatchDatasetV2", {d, p.i64(2), p.boolean(false)}, {}, {tf::DT_INT64}, {TensorShape{-1, -1}},
                      "batch");
        p.iterate(d, {tf::DT_INT64}, {TensorShape{-1, -1}});
        auto s = p.session();
        auto result = p.drain(*s);
        QVERIFY(!result);
        QVERIFY2(contains(result.error(), "Cannot batch tensors with different shapes in component 0"),
                 result.error().toString().c_str());
        QVERIFY2(contains(result.error(), "'batch'"), result.error().toString().c_str());
    }

    void shuffleIsAPermutationReproducibleWithASeed()
    {
        auto shuffled = [](std::int64_t seed, std::int64_t seed2, bool reshuffle, std::int64_t epochs) {
            Pipeline p;
            Output d = p.dataset("ShuffleDataset", {p.range(0, 100), p.i64(10), p.i64(seed), p.i64(seed2)},
                                 {{"reshuffle_each_iteration", attr::b(reshuffle)}});
            d = p.dataset("RepeatDataset", {d, p.i64(epochs)});
            p.iterate(d);
            return must(p.scalars());
        };
        const std::vector<std::int64_t> a = shuffled(7, 3, true, 2);
        QCOMPARE(a.size(), std::size_t{200});
        std::vector<std::int64_t> first(a.begin(), a.begin() + 100), second(a.begin() + 100, a.end());
        QVERIFY(first != iota64(0, 100)); // 1 in 100! to fail by chance
        QVERIFY(first != second);         // reshuffled for the second epoch
        // A buffer of 10 moves no element more than 9 places earlier than its input position.
        for (std::size_t i = 0; i < first.size(); ++i)
            QVERIFY(first[i] <= static_cast<std::int64_t>(i) + 9);
        std::sort(first.begin(), first.end());
        std::sort(second.begin(), second.end());
        QCOMPARE(first, iota64(0, 100));
        QCOMPARE(second, iota64(0, 100));
        // The same seeds: the same sequence of epochs, in a new session of a new graph.
        QCOMPARE(shuffled(7, 3, true, 2), a);
        // Without reshuffling every epoch repeats the first one's order.
        const std::vector<std::int64_t> fixed = shuffled(7, 3, false, 2);
        QCOMPARE(std::vector<std::int64_t>(fixed.begin(), fixed.begin() + 100),
                 std::vector<std::int64_t>(fixed.begin() + 100, fixed.end()));
        // seed == seed2 == 0: fresh random seeds each time.
        QVERIFY(shuffled(0, 0, true, 1) != shuffled(0, 0, true, 1));
    }

    void shuffleV3TakesItsSeedsWithADummyGenerator()
    {
        auto shuffled = [](bool dummy) {
            Pipeline p;
            Output generator =
                dummy ? must(p.b.op("DummySeedGenerator", {}, {}, "gen")).output(0)
                      : must(p.b.op("AnonymousSeedGenerator", {p.i64(5), p.i64(6), p.boolean(false)}, {}, "gen"))
                            .output(0);
            Output d = p.dataset("ShuffleDatasetV3", {p.range(0, 50), p.i64(50), p.i64(5), p.i64(6), generator});
            p.iterate(d);
            return must(p.scalars());
        };
        const auto a = shuffled(true);
        auto sorted = a;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(sorted, iota64(0, 50));
        QCOMPARE(shuffled(true), a);
        QCOMPARE(shuffled(false), shuffled(false));
    }

    void repeatTakeSkipZipConcatenate()
    {
        {
            Pipeline p;
            Output d = p.dataset("RepeatDataset", {p.range(0, 5), p.i64(2)});
            d = p.dataset("SkipDataset", {d, p.i64(3)});
            d = p.dataset("TakeDataset", {d, p.i64(5)});
            p.iterate(d);
            QCOMPARE(must(p.scalars()), std::vector<std::int64_t>({3, 4, 0, 1, 2}));
        }
        {
            Pipeline p;
            Output d = p.dataset("RepeatDataset", {p.range(0, 3), p.i64(-1)});
            d = p.dataset("TakeDataset", {d, p.i64(7)});
            p.iterate(d);
            QCOMPARE(must(p.scalars()), std::vector<std::int64_t>({0, 1, 2, 0, 1, 2, 0}));
        }
        {
            Pipeline p; // an empty input ends even an infinite repeat
            p.iterate(p.dataset("RepeatDataset", {p.range(0, 0), p.i64(-1)}));
            QCOMPARE(must(p.scalars()), std::vector<std::int64_t>{});
        }
        {
            Pipeline p;
            Output d = p.dataset("ZipDataset", {std::vector<Output>{p.range(0, 3), p.range(10, 20)}}, {},
                                 {tf::DT_INT64, tf::DT_INT64});
            p.iterate(d, {tf::DT_INT64, tf::DT_INT64});
            auto s = p.session();
            auto pairs = must(p.drain(*s));
            QCOMPARE(pairs.size(), std::size_t{3});
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                QCOMPARE(pairs[i][0].scalar<std::int64_t>(), static_cast<std::int64_t>(i));
                QCOMPARE(pairs[i][1].scalar<std::int64_t>(), static_cast<std::int64_t>(10 + i));
            }
        }
        {
            Pipeline p;
            p.iterate(p.dataset("ConcatenateDataset", {p.range(0, 2), p.range(5, 7)}));
            QCOMPARE(must(p.scalars()), std::vector<std::int64_t>({0, 1, 5, 6}));
        }
        {
            Pipeline p;
            Output rows = must(constantInts(p.b, {4, 5, 6}, TensorShape{3}, tf::DT_INT64, "rows"));
            Output base = p.dataset("TensorSliceDataset", {std::vector<Output>{rows}});
            p.iterate(p.dataset("SkipDataset", {base, p.i64(-1)}));
            QCOMPARE(must(p.scalars()), std::vector<std::int64_t>{});
        }
    }

    void tensorSliceAndDatasetToSingleElement()
    {
        Pipeline p;
        Output rows = must(constantInts(p.b, {1, 2, 3, 4, 5, 6}, TensorShape{3, 2}, tf::DT_INT64, "rows"));
        Output d = p.dataset("TensorSliceDataset", {std::vector<Output>{rows}}, {}, {tf::DT_INT64}, {TensorShape{2}});
        p.iterate(d, {tf::DT_INT64}, {TensorShape{2}});
        Output single = p.dataset("TensorDataset", {std::vector<Output>{p.i64(42)}});
        must(p.b.op(
            "DatasetToSingleElement", {single},
            {{"output_types", attr::types({tf::DT_INT64})}, {"output_shapes", shapesAttr({TensorShape::scalar()})}},
            "single"));
        must(p.b.op(
            "DatasetToSingleElement", {p.range(0, 2)},
            {{"output_types", attr::types({tf::DT_INT64})}, {"output_shapes", shapesAttr({TensorShape::scalar()})}},
            "two"));
        auto s = p.session();
        auto elements = must(p.drain(*s));
        QCOMPARE(elements.size(), std::size_t{3});
        QCOMPARE(values64(elements[2][0]), std::vector<std::int64_t>({5, 6}));
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {"single:0"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<std::int64_t>(), std::int64_t{42});
        const Status more = s->run({}, {"two:0"}, {}, &out);
        QVERIFY2(contains(more, "Dataset had more than one element."), more.toString().c_str());
    }

    void tfRecordDatasetReadsPlainAndGzipFiles()
    {
        QTemporaryDir dir;
        const std::string plain = dir.filePath("a.tfrecord").toStdString();
        const std::string gzip = dir.filePath("b.tfrecord.gz").toStdString();
        const std::vector<std::string> a = {"alpha", "", std::string("bin\0ary", 7)};
        const std::vector<std::string> b = {"x", "yy", "zzz", "wwww"};
        QVERIFY(data::writeRecords(plain, a).isOk());
        QVERIFY(data::writeRecords(gzip, b, data::Compression::kGzip).isOk());
        auto read = [](const std::vector<std::string>& files, const std::string& compression) {
            Pipeline p;
            Output d = must(p.b.op("TFRecordDataset", {p.strings(files), p.str(compression), p.i64(0)}, {}, "records"))
                           .output(0);
            p.iterate(d, {tf::DT_STRING});
            auto s = p.session();
            auto elements = p.drain(*s);
            std::vector<std::string> out;
            if (!elements)
                return std::make_pair(elements.error(), out);
            for (const auto& e : *elements)
                out.push_back(e[0].scalar<std::string>());
            return std::make_pair(Status::ok(), out);
        };
        QCOMPARE(read({plain}, "").second, a);
        QCOMPARE(read({gzip}, "GZIP").second, b);
        const std::string zlib = dir.filePath("c.tfrecord.z").toStdString();
        QVERIFY(data::writeRecords(zlib, b, data::Compression::kZlib).isOk());
        QCOMPARE(read({zlib, plain}, "ZLIB").first.code(), StatusCode::kDataLoss); // the second is not ZLIB
        QCOMPARE(read({zlib}, "ZLIB").second, b);
        QCOMPARE(read({plain, plain}, "").second.size(), std::size_t{6});
        // The gzip file read as uncompressed is damaged data, and a missing file is NotFound.
        QVERIFY(!read({gzip}, "").first.isOk());
        const Status missing = read({dir.filePath("none").toStdString()}, "").first;
        QCOMPARE(missing.code(), StatusCode::kNotFound);
        QCOMPARE(read({plain}, "LZ4").first.code(), StatusCode::kInvalidArgument);
    }

    void parsingMapBeforeBatchParsesWholeBatches()
    {
        // map(parse_single_example) -> shuffle -> batch runs as shuffle -> batch -> parse_example
        // (batch_parse.h). The same pipeline whose function also has Identity nodes is not rewritten: both
        // must give the same batches, epochs and errors.
        QTemporaryDir dir;
        std::vector<std::string> records;
        for (int i = 0; i < 23; ++i) {
            tf::Example example;
            auto& features = *example.mutable_features()->mutable_feature();
            if (i % 7 != 3) { // 3, 10, 17: x missing, its default
                auto* x = features["x"].mutable_float_list();
                for (float v : {float(i), i + 0.5f, -float(i)})
                    x->add_value(v);
            }
            features["y"].mutable_int64_list()->add_value(100 + i);
            records.push_back(example.SerializeAsString());
        }
        const std::string good = dir.filePath("good.tfrecord").toStdString();
        QVERIFY(data::writeRecords(good, records).isOk());
        std::vector<std::string> damaged = records;
        damaged[11] = "not an Example";
        const std::string bad = dir.filePath("bad.tfrecord").toStdString();
        QVERIFY(data::writeRecords(bad, damaged).isOk());

        auto run = [](const std::string& file, const std::string& fn, bool parallel, bool drop) {
            Pipeline p;
            Output d = must(p.b.op("TFRecordDataset", {p.strings({file}), p.str(""), p.i64(0)}, {}, "records")).output(0);
            const std::vector<DataType> types = {tf::DT_FLOAT, tf::DT_INT64};
            const std::vector<TensorShape> shapes = {TensorShape({3}), TensorShape::scalar()};
            if (parallel)
                d = p.dataset("ParallelMapDatasetV2", {d, std::vector<Output>{}, p.i64(2)}, {{"f", funcAttr(fn)}}, types,
                              shapes);
            else
                d = p.map(d, fn, types, shapes);
            d = p.dataset("ShuffleDataset", {d, p.i64(8), p.i64(5), p.i64(6)}, {{"reshuffle_each_iteration", attr::b(true)}},
                          types, shapes);
            const std::vector<TensorShape> batched = {TensorShape({drop ? 5 : -1, 3}), TensorShape({drop ? 5 : -1})};
            d = p.dataset("BatchDatasetV2", {d, p.i64(5), p.boolean(drop)}, {}, types, batched);
            d = p.dataset("RepeatDataset", {d, p.i64(2)}, {}, types, batched);
            p.iterate(d, types, batched);
            auto s = p.session();
            return p.drain(*s);
        };
        auto equal = [](const std::vector<std::vector<Tensor>>& a, const std::vector<std::vector<Tensor>>& b) {
            if (a.size() != b.size())
                return false;
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (a[i][0].shape() != b[i][0].shape() || a[i][1].shape() != b[i][1].shape())
                    return false;
                const auto xa = a[i][0].values<float>(), xb = b[i][0].values<float>();
                const auto ya = a[i][1].values<std::int64_t>(), yb = b[i][1].values<std::int64_t>();
                if (!std::equal(xa.begin(), xa.end(), xb.begin(), xb.end()) ||
                    !std::equal(ya.begin(), ya.end(), yb.begin(), yb.end()))
                    return false;
            }
            return true;
        };
        for (const bool parallel : {false, true})
            for (const bool drop : {false, true}) {
                const std::int64_t before = tfdata::batchParseIteratorsMade();
                auto rewritten = run(good, "parse_xy", parallel, drop);
                QVERIFY2(rewritten, rewritten ? "" : rewritten.error().toString().c_str());
                QVERIFY(tfdata::batchParseIteratorsMade() > before); // the rewrite ran
                const std::int64_t between = tfdata::batchParseIteratorsMade();
                auto plain = run(good, "parse_xy_identity", parallel, drop);
                QVERIFY2(plain, plain ? "" : plain.error().toString().c_str());
                QCOMPARE(tfdata::batchParseIteratorsMade(), between); // not rewritten
                // 2 epochs of 23 records in batches of 5: 4 full + 1 of 3 each, or 4 with drop_remainder.
                QCOMPARE(rewritten->size(), std::size_t{drop ? 8u : 10u});
                QVERIFY(equal(*rewritten, *plain));
                // Each epoch holds every record once; x's default where it was missing.
                std::vector<std::int64_t> ys;
                for (std::size_t k = 0; k < rewritten->size() / 2; ++k)
                    for (std::int64_t i = 0; i < (*rewritten)[k][1].numElements(); ++i) {
                        const std::int64_t y = (*rewritten)[k][1].values<std::int64_t>()[static_cast<std::size_t>(i)];
                        ys.push_back(y);
                        const float x0 = (*rewritten)[k][0].values<float>()[static_cast<std::size_t>(3 * i)];
                        QCOMPARE(x0, (y - 100) % 7 == 3 ? 9.0f : float(y - 100));
                    }
                QCOMPARE(ys.size(), std::size_t{drop ? 20u : 23u});
                std::sort(ys.begin(), ys.end());
                QCOMPARE(std::adjacent_find(ys.begin(), ys.end()), ys.end());
            }
        // A damaged record: the same error, in the same words, with and without the rewrite.
        auto rewrittenError = run(bad, "parse_xy", false, false);
        auto plainError = run(bad, "parse_xy_identity", false, false);
        QVERIFY(!rewrittenError && !plainError);
        QCOMPARE(rewrittenError.error().code(), plainError.error().code());
        QCOMPARE(QString::fromStdString(rewrittenError.error().message()),
                 QString::fromStdString(plainError.error().message()).replace("parse_xy_identity", "parse_xy"));
    }

    void parsingMapOnAFileTensorFlowWrote()
    {
        // tfrecord-example/data/data.tfrecords (TensorFlow 1.x's TFRecordWriter): 10 Examples, record i holds
        // "features" nine i.0 and "lable" [i], in either map order. map(parse) -> shuffle -> batch(4), with
        // and without the batched-parse rewrite.
        const std::string file = fixturePath("tfrecord-example/data/data.tfrecords");
        if (file.empty())
            QSKIP(missingFixture("tfrecord-example/data/data.tfrecords").constData());
        auto run = [&file](const std::string& fn) {
            Pipeline p;
            Output d = must(p.b.op("TFRecordDataset", {p.strings({file}), p.str(""), p.i64(0)}, {}, "records")).output(0);
            const std::vector<DataType> types = {tf::DT_FLOAT, tf::DT_INT64};
            d = p.map(d, fn, types, {TensorShape({9}), TensorShape::scalar()});
            d = p.dataset("ShuffleDataset", {d, p.i64(4), p.i64(3), p.i64(4)}, {{"reshuffle_each_iteration", attr::b(true)}},
                          types, {TensorShape({9}), TensorShape::scalar()});
            const std::vector<TensorShape> batched = {TensorShape({-1, 9}), TensorShape({-1})};
            d = p.dataset("BatchDatasetV2", {d, p.i64(4), p.boolean(false)}, {}, types, batched);
            p.iterate(d, types, batched);
            auto s = p.session();
            return must(p.drain(*s));
        };
        const std::int64_t before = tfdata::batchParseIteratorsMade();
        const auto rewritten = run("parse_fixture");
        QVERIFY(tfdata::batchParseIteratorsMade() > before);
        const auto plain = run("parse_fixture_identity");
        QCOMPARE(rewritten.size(), std::size_t{3}); // 4 + 4 + 2
        QCOMPARE(plain.size(), rewritten.size());
        std::vector<std::int64_t> labels;
        for (std::size_t k = 0; k < rewritten.size(); ++k) {
            QCOMPARE(rewritten[k][0].shape(), plain[k][0].shape());
            const auto x = rewritten[k][0].values<float>(), px = plain[k][0].values<float>();
            const auto y = rewritten[k][1].values<std::int64_t>(), py = plain[k][1].values<std::int64_t>();
            QVERIFY(std::equal(x.begin(), x.end(), px.begin(), px.end()));
            QVERIFY(std::equal(y.begin(), y.end(), py.begin(), py.end()));
            for (std::size_t i = 0; i < y.size(); ++i) {
                labels.push_back(y[i]);
                for (std::size_t j = 0; j < 9; ++j)
                    QCOMPARE(x[9 * i + j], float(y[i]));
            }
        }
        std::sort(labels.begin(), labels.end());
        QCOMPARE(labels, iota64(0, 10));
    }

    void textLineAndFixedLengthRecords()
    {
        QTemporaryDir dir;
        const std::string text = dir.filePath("lines.txt").toStdString();
        std::ofstream(text) << "one\ntwo\r\n\nthree";
        const std::string fixed = dir.filePath("fixed.bin").toStdString();
        std::ofstream(fixed, std::ios::binary) << "HDRaaabbbcccFT";
        {
            Pipeline p;
            Output d = must(p.b.op("TextLineDataset", {p.str(text), p.str(""), p.i64(0)}, {}, "lines")).output(0);
            p.iterate(d, {tf::DT_STRING});
            auto s = p.session();
            std::vector<std::string> lines;
            for (const auto& e : must(p.drain(*s)))
                lines.push_back(e[0].scalar<std::string>());
            QCOMPARE(lines, std::vector<std::string>({"one", "two", "", "three"}));
        }
        auto records = [&](std::int64_t header, std::int64_t record, std::int64_t footer) {
            Pipeline p;
            Output d = must(p.b.op("FixedLengthRecordDatasetV2",
                                   {p.str(fixed), p.i64(header), p.i64(record), p.i64(footer), p.i64(0), p.str("")}, {},
                                   "fixed"))
                           .output(0);
            p.iterate(d, {tf::DT_STRING});
            auto s = p.session();
            auto elements = p.drain(*s);
            std::vector<std::string> out;
            if (!elements)
                return std::make_pair(elements.error(), out);
            for (const auto& e : *elements)
                out.push_back(e[0].scalar<std::string>());
            return std::make_pair(Status::ok(), out);
        };
        QCOMPARE(records(3, 3, 2).second, std::vector<std::string>({"aaa", "bbb", "ccc"}));
        const Status bad = records(3, 4, 2).first;
        QCOMPARE(bad.code(), StatusCode::kDataLoss);
        QVERIFY2(contains(bad, "not an exact multiple of the record length (4 bytes)"), bad.toString().c_str());
    }

    void cacheWritesAFileThatLaterIteratorsRead()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("cache").toStdString();
        auto cached = [&](std::int64_t start) {
            Pipeline p;
            Output d = p.dataset("CacheDataset", {p.range(start, start + 5), p.str(prefix)});
            p.iterate(d);
            return must(p.scalars());
        };
        QCOMPARE(cached(0), iota64(0, 5));
        QVERIFY(QFile::exists(QString::fromStdString(prefix + ".index")));
        QVERIFY(!QFile::exists(QString::fromStdString(prefix + "_0.lockfile")));
        // The cache exists: its elements come back even though the input is now 100..104.
        QCOMPARE(cached(100), iota64(0, 5));

        // An incomplete pass leaves no cache behind.
        const std::string partial = dir.filePath("partial").toStdString();
        {
            Pipeline p;
            p.iterate(p.dataset("CacheDataset", {p.range(0, 5), p.str(partial)}));
            auto s = p.session();
            QVERIFY(s->run({}, {}, {"make"}, nullptr).isOk());
            std::vector<Tensor> out;
            QVERIFY(s->run({}, {"next:0"}, {}, &out).isOk());
        }
        QVERIFY(!QFile::exists(QString::fromStdString(partial + ".index")));
        QVERIFY(!QFile::exists(QString::fromStdString(partial + "_0.lockfile")));
    }

    void memoryCacheServesLaterEpochs()
    {
        Pipeline p;
        Output d = p.map(p.range(0, 3), "sq_plus_one");
        d = p.dataset("CacheDataset", {d, p.str("")});
        d = p.dataset("RepeatDataset", {d, p.i64(3)});
        p.iterate(d);
        QCOMPARE(must(p.scalars()), std::vector<std::int64_t>({1, 2, 5, 1, 2, 5, 1, 2, 5}));
    }

    void prefetchAndParallelMapKeepTheOrder()
    {
        std::vector<std::int64_t> expected;
        for (std::int64_t x = 0; x < 300; ++x)
            expected.push_back(x * x + 1);
        {
            Pipeline p;
            Output d = p.dataset("ParallelMapDatasetV2", {p.range(0, 300), std::vector<Output>{}, p.i64(8)},
                                 {{"f", funcAttr("sq_plus_one")}});
            p.iterate(p.dataset("PrefetchDataset", {d, p.i64(4)}));
            QCOMPARE(must(p.scalars()), expected);
        }
        {
            Pipeline p; // V1 (int32 num_parallel_calls), AUTOTUNE prefetch
            Output calls = must(constantInts(p.b, {3}, TensorShape::scalar(), tf::DT_INT32, "calls"));
            Output d = p.dataset("ParallelMapDataset", {p.range(0, 300), std::vector<Output>{}, calls},
                                 {{"f", funcAttr("sq_plus_one")}});
            p.iterate(p.dataset("PrefetchDataset", {d, p.i64(-1)}));
            QCOMPARE(must(p.scalars()), expected);
        }
    }

    void closingTheSessionStopsTheThreads()
    {
        Pipeline p;
        Output d = p.dataset("RepeatDataset", {p.range(0, 10), p.i64(-1)});
        d = p.dataset("ParallelMapDatasetV2", {d, std::vector<Output>{}, p.i64(4)}, {{"f", funcAttr("sq_plus_one")}});
        p.iterate(p.dataset("PrefetchDataset", {d, p.i64(8)}));
        auto s = p.session();
        auto first = must(p.drain(*s, 25)); // an infinite pipeline, mid-stream
        QCOMPARE(first.size(), std::size_t{25});
        QCOMPARE(first[24][0].scalar<std::int64_t>(), std::int64_t{4 * 4 + 1});
        s->close();
        std::vector<Tensor> out;
        QCOMPARE(s->run({}, {"next:0"}, {}, &out).code(), StatusCode::kFailedPrecondition);
        s.reset(); // joins the prefetch and map threads; a hang here fails the test by its timeout
    }

    void flatMapAndInterleaveOrder()
    {
        {
            Pipeline p;
            Output d =
                p.dataset("FlatMapDataset", {p.range(1, 4), std::vector<Output>{}}, {{"f", funcAttr("repeat_x")}});
            p.iterate(d);
            QCOMPARE(must(p.scalars()), std::vector<std::int64_t>({1, 2, 2, 3, 3, 3}));
        }
        // TensorFlow's documented example: Dataset.range(1, 6).interleave(lambda x:
        // Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4).
        const std::vector<std::int64_t> documented = {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3,
                                                      3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5};
        {
            Pipeline p;
            Output d = p.dataset("InterleaveDataset", {p.range(1, 6), std::vector<Output>{}, p.i64(2), p.i64(4)},
                                 {{"f", funcAttr("repeat_six")}});
            p.iterate(d);
            QCOMPARE(must(p.scalars()), documented);
        }
        {
            Pipeline p;
            Output d = p.dataset("ParallelInterleaveDatasetV3",
                                 {p.range(1, 6), std::vector<Output>{}, p.i64(2), p.i64(4), p.i64(2)},
                                 {{"f", funcAttr("repeat_six")}});
            p.iterate(d);
            QCOMPARE(must(p.scalars()), documented);
        }
        {
            Pipeline p;
            Output d =
                p.dataset("ParallelInterleaveDatasetV4",
                          {p.range(1, 6), std::vector<Output>{}, p.i64(2), p.i64(4), p.i64(3), p.i64(1), p.i64(2)},
                          {{"f", funcAttr("repeat_six")}});
            p.iterate(d);
            QCOMPARE(must(p.scalars()), documented);
        }
    }

    void oneShotIteratorStartsOverInEachSession()
    {
        Pipeline p;
        Output it = must(p.b.op("OneShotIterator", {},
                                {{"dataset_factory", funcAttr("make_range")},
                                 {"output_types", attr::types({tf::DT_INT64})},
                                 {"output_shapes", shapesAttr({TensorShape::scalar()})}},
                                "one_shot"))
                        .output(0);
        must(p.b.op(
            "IteratorGetNext", {it},
            {{"output_types", attr::types({tf::DT_INT64})}, {"output_shapes", shapesAttr({TensorShape::scalar()})}},
            "next"));
        QCOMPARE(must(p.b.tensor("next:0")).shape(), TensorShape::scalar()); // shapes from output_shapes
        auto first = p.session();
        auto elements = must(p.drainNext(*first, 2));
        QCOMPARE(elements.size(), std::size_t{2});
        QCOMPARE(elements[1][0].scalar<std::int64_t>(), std::int64_t{1});
        auto second = p.session();
        QCOMPARE(must(p.drainNext(*second))[0][0].scalar<std::int64_t>(), std::int64_t{0});
        auto rest = must(p.drainNext(*first));
        QCOMPARE(rest.size(), std::size_t{1});
        QCOMPARE(rest[0][0].scalar<std::int64_t>(), std::int64_t{2});
    }

    void stringHandlesNameTheIterator()
    {
        Pipeline p;
        p.iterate(p.range(5, 8));
        Output handle =
            must(p.b.op("IteratorToStringHandle", {must(p.b.tensor("iterator"))}, {}, "to_string")).output(0);
        Output back = must(p.b.op("IteratorFromStringHandleV2", {handle},
                                  {{"output_types", attr::types({tf::DT_INT64})},
                                   {"output_shapes", shapesAttr({TensorShape::scalar()})}},
                                  "from_string"))
                          .output(0);
        must(p.b.op(
            "IteratorGetNext", {back},
            {{"output_types", attr::types({tf::DT_INT64})}, {"output_shapes", shapesAttr({TensorShape::scalar()})}},
            "next_via_string"));
        auto s = p.session();
        QVERIFY(s->run({}, {}, {"make"}, nullptr).isOk());
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {"next:0"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<std::int64_t>(), std::int64_t{5});
        const Status st = s->run({}, {"next_via_string:0"}, {}, &out);
        QVERIFY2(st.isOk(), st.toString().c_str());
        QCOMPARE(out[0].scalar<std::int64_t>(), std::int64_t{6}); // the same iterator
    }

    void uninitializedIteratorFails()
    {
        Pipeline p;
        p.iterate(p.range(0, 3));
        auto s = p.session();
        std::vector<Tensor> out;
        const Status st = s->run({}, {"next:0"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kFailedPrecondition);
        QVERIFY2(contains(st, "iterator has not been initialized"), st.toString().c_str());
    }

    void mapFunctionOfTheWrongTypeNamesNodeAndFunction()
    {
        Pipeline p;
        p.iterate(p.map(p.range(0, 3), "to_float", {tf::DT_INT64}, {}, "bad_map"));
        auto s = p.session();
        const Status st = s->run({}, {}, {"make"}, nullptr);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "bad_map") && contains(st, "to_float") && contains(st, "output_types"),
                 st.toString().c_str());
    }

    void missingFunctionNamesNodeAndFunction()
    {
        Pipeline p;
        Output d = p.dataset("MapDataset", {p.range(0, 3), std::vector<Output>{}}, {{"f", funcAttr("no_such_fn")}},
                             {tf::DT_INT64}, {}, "lost_map");
        p.iterate(d);
        SessionOptions options;
        options.ops = &sharedRegistries().ops;
        options.kernels = &sharedRegistries().kernels;
        Session s(options);
        Status st = s.create(p.b.graphDef());
        if (st.isOk())
            st = s.run({}, {}, {"make"}, nullptr);
        QVERIFY(!st.isOk());
        QVERIFY2(contains(st, "no_such_fn"), st.toString().c_str());
        QVERIFY2(contains(st, "lost_map"), st.toString().c_str());
    }

    void structureMismatchesAreClearErrors()
    {
        {
            Pipeline p; // the iterator expects strings, the dataset gives int64
            p.iterate(p.range(0, 3), {tf::DT_STRING});
            auto s = p.session();
            const Status st = s->run({}, {}, {"make"}, nullptr);
            QCOMPARE(st.code(), StatusCode::kInvalidArgument);
            QVERIFY2(contains(st, "RangeDataset") && contains(st, "string"), st.toString().c_str());
        }
        {
            Pipeline p; // a map whose result has another shape than output_shapes says
            p.iterate(p.map(p.range(1, 3), "fill_x", {tf::DT_INT64}, {TensorShape{3}}, "shaped_map"), {tf::DT_INT64},
                      {TensorShape{3}});
            auto s = p.session();
            auto result = p.drain(*s);
            QVERIFY(!result);
            QVERIFY2(contains(result.error(), "shaped_map") && contains(result.error(), "fill_x") &&
                         contains(result.error(), "output_shapes[0] is [3]"),
                     result.error().toString().c_str());
        }
        {
            Pipeline p; // a filter predicate that does not return bool
            p.iterate(p.dataset("FilterDataset", {p.range(0, 3), std::vector<Output>{}},
                                {{"predicate", funcAttr("sq_plus_one")}}, {tf::DT_INT64}, {}, "bad_filter"));
            auto s = p.session();
            const Status st = s->run({}, {}, {"make"}, nullptr);
            QVERIFY2(contains(st, "bad_filter") && contains(st, "scalar bool"), st.toString().c_str());
        }
    }
    void builderApiWritesTensorFlowsNodes()
    {
        Pipeline p;
        namespace ds = tstudio::dataset;
        auto d = must(ds::range(p.b, 0, 10));
        d = must(ds::map(p.b, d, "sq_plus_one", {tf::DT_INT64}, {TensorShape::scalar()}, {.numParallelCalls = 2}));
        d = must(ds::filter(p.b, d, "is_even"));
        d = must(ds::batch(p.b, d, 2, true));
        d = must(ds::prefetch(p.b, d, 1));
        auto it = must(ds::makeInitializableIterator(p.b, d));
        QCOMPARE(it.next[0].shape(), TensorShape({2}));
        for (const char* node : {"RangeDataset", "start", "stop", "step", "ParallelMapDataset", "num_parallel_calls",
                                 "FilterDataset", "BatchDatasetV2", "batch_size", "drop_remainder", "PrefetchDataset",
                                 "buffer_size", "IteratorV2", "MakeIterator", "IteratorGetNext"})
            QVERIFY2(p.b.findNode(node), node);
        auto s = p.session();
        QVERIFY(s->run({}, {}, {it.initializer.name()}, nullptr).isOk());
        std::vector<std::vector<std::int64_t>> batches;
        std::vector<Tensor> out;
        Status st;
        while ((st = s->run({}, {it.next[0].name()}, {}, &out)).isOk())
            batches.push_back(values64(out[0]));
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        // x*x + 1 even for x = 1, 3, 5, 7, 9: 2, 10, 26, 50, 82; pairs, the odd one out dropped.
        QCOMPARE(batches, (std::vector<std::vector<std::int64_t>>{{2, 10}, {26, 50}}));
    }
    /// Pipelines whose every element NumPy computed (tools/golden/datasets.py writes
    /// tests/data/golden/datasets.json): the same ops and functions, element by element, shapes
    /// and values exact.
    void numpyGoldenPipelines()
    {
        QFile file(goldenDir() + "/datasets.json");
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).object().value("cases").toArray();
        QCOMPARE(cases.size(), 7);
        for (const QJsonValue& c : cases) {
            const std::string name = c.toObject().value("name").toString().toStdString();
            const bool floats = c.toObject().value("dtype").toString() == "DT_FLOAT";
            const tf::DataType dtype = floats ? tf::DT_FLOAT : tf::DT_INT64;
            Pipeline p;
            Output d;
            std::vector<TensorShape> shapes{TensorShape{-1}};
            if (name == "range_map_filter_batch") {
                d = p.map(p.range(0, 50), "sq_plus_one");
                d = p.dataset("FilterDataset", {d, std::vector<Output>{}}, {{"predicate", funcAttr("is_even")}});
                d = p.dataset("BatchDatasetV2", {d, p.i64(4), p.boolean(false)}, {}, {dtype}, shapes);
            } else if (name == "skip_take_repeat_batch_drop") {
                d = p.dataset("SkipDataset", {p.range(3, 40, 3), p.i64(2)});
                d = p.dataset("TakeDataset", {d, p.i64(9)});
                d = p.dataset("RepeatDataset", {d, p.i64(2)});
                shapes = {TensorShape{5}};
                d = p.dataset("BatchDatasetV2", {d, p.i64(5), p.boolean(true)}, {}, {dtype}, shapes);
            } else if (name == "concatenate_map_to_float_batch") {
                d = p.dataset("ConcatenateDataset", {p.range(0, 5), p.range(10, 13)});
                d = p.map(d, "to_float", {tf::DT_FLOAT});
                d = p.dataset("BatchDatasetV2", {d, p.i64(3), p.boolean(false)}, {}, {dtype}, shapes);
            } else if (name == "map_fill_padded_batch") {
                d = p.map(p.range(1, 8), "fill_x", {tf::DT_INT64}, {TensorShape{-1}});
                Output padded = must(constantInts(p.b, {-1}, TensorShape{1}, tf::DT_INT64, "padded_shape"));
                shapes = {TensorShape{-1, -1}};
                d = p.dataset("PaddedBatchDatasetV2",
                              {d, p.i64(3), std::vector<Output>{padded}, std::vector<Output>{p.i64(-1)},
                               p.boolean(false)},
                              {}, {dtype}, shapes);
            } else if (name == "map_captured_batch_drop") {
                d = p.dataset("MapDataset", {p.range(0, 11), std::vector<Output>{p.i64(100)}},
                              {{"f", funcAttr("add_captured")}, {"Targuments", attr::types({tf::DT_INT64})}});
                shapes = {TensorShape{4}};
                d = p.dataset("BatchDatasetV2", {d, p.i64(4), p.boolean(true)}, {}, {dtype}, shapes);
            } else if (name == "flat_map_repeat_x_batch") {
                d = p.dataset("FlatMapDataset", {p.range(1, 5), std::vector<Output>{}}, {{"f", funcAttr("repeat_x")}});
                d = p.dataset("BatchDatasetV2", {d, p.i64(4), p.boolean(false)}, {}, {dtype}, shapes);
            } else if (name == "interleave_repeat_six") {
                d = p.dataset("InterleaveDataset", {p.range(1, 6), std::vector<Output>{}, p.i64(2), p.i64(4)},
                              {{"f", funcAttr("repeat_six")}});
                shapes = {TensorShape::scalar()};
            } else {
                QFAIL(qPrintable(QString("unknown golden pipeline '%1'").arg(QString::fromStdString(name))));
            }
            p.iterate(d, {dtype}, shapes);
            auto s = p.session();
            auto elements = p.drain(*s);
            QVERIFY2(elements, elements ? "" : elements.error().toString().c_str());
            const QJsonArray expected = c.toObject().value("elements").toArray();
            QVERIFY2(static_cast<qsizetype>(elements->size()) == expected.size(),
                     qPrintable(QString("%1: %2 elements, NumPy %3")
                                    .arg(QString::fromStdString(name))
                                    .arg(elements->size())
                                    .arg(expected.size())));
            for (qsizetype i = 0; i < expected.size(); ++i) {
                const Tensor& got = (*elements)[static_cast<std::size_t>(i)][0];
                const QJsonObject want = expected[i].toObject();
                std::vector<std::int64_t> dims;
                for (const QJsonValue& dim : want.value("shape").toArray())
                    dims.push_back(dim.toInteger());
                const QString where = QString("%1 element %2").arg(QString::fromStdString(name)).arg(i);
                QVERIFY2(got.shape() == TensorShape(dims), qPrintable(where + ": shape"));
                const QJsonArray values = want.value("values").toArray();
                QVERIFY2(got.numElements() == values.size(), qPrintable(where + ": size"));
                for (qsizetype k = 0; k < values.size(); ++k) {
                    const bool same = floats ? got.values<float>()[static_cast<std::size_t>(k)] ==
                                                   static_cast<float>(values[k].toDouble())
                                             : got.values<std::int64_t>()[static_cast<std::size_t>(k)] ==
                                                   values[k].toInteger();
                    QVERIFY2(same, qPrintable(where + QString(": value %1").arg(k)));
                }
            }
        }
    }

    void olderAndNewerOpFormsBehaveTheSame()
    {
        {
            Pipeline p; // OptimizeDataset and ModelDataset (TensorFlow 1.15's make_one_shot_iterator) pass through
            Output d = p.dataset("OptimizeDataset", {p.range(0, 3), p.strings({"map_and_batch_fusion"})});
            d = p.dataset("ModelDataset", {d});
            d = p.dataset("BatchDataset", {d, p.i64(2)}, {}, {tf::DT_INT64}, {TensorShape{-1}});
            p.iterate(d, {tf::DT_INT64}, {TensorShape{-1}});
            auto s = p.session();
            auto batches = must(p.drain(*s));
            QCOMPARE(batches.size(), std::size_t{2});
            QCOMPARE(values64(batches[1][0]), std::vector<std::int64_t>({2}));
        }
        {
            Pipeline p; // CacheDatasetV2 with an anonymous memory cache, ShuffleDatasetV2 with a seed generator
            Output cache = must(p.b.op("AnonymousMemoryCache", {}, {}, "memory")).output(0);
            Output d = p.dataset("CacheDatasetV2", {p.range(0, 20), p.str(""), cache});
            Output generator =
                must(p.b.op("AnonymousRandomSeedGenerator", {p.i64(1), p.i64(2)}, {}, "generator")).output(0);
            d = p.dataset("ShuffleDatasetV2", {d, p.i64(5), generator});
            d = p.dataset("RepeatDataset", {d, p.i64(2)});
            p.iterate(d);
            auto values = must(p.scalars());
            QCOMPARE(values.size(), std::size_t{40});
            std::sort(values.begin(), values.end());
            std::vector<std::int64_t> twice;
            for (std::int64_t v = 0; v < 20; ++v)
                twice.insert(twice.end(), {v, v});
            QCOMPARE(values, twice);
        }
        {
            Pipeline p; // the V1 iterator ops, IteratorGetNextSync, AnonymousIteratorV2 and DeleteIterator
            Output it = must(p.b.op("AnonymousIteratorV2", {},
                                    {{"output_types", attr::types({tf::DT_INT64})},
                                     {"output_shapes", shapesAttr({TensorShape::scalar()})}},
                                    "anonymous"))
                            .output(0);
            must(p.b.op("MakeIterator", {p.range(3, 5), it}, {}, "make"));
            must(p.b.op("IteratorGetNextSync", {it},
                        {{"output_types", attr::types({tf::DT_INT64})},
                         {"output_shapes", shapesAttr({TensorShape::scalar()})}},
                        "next"));
            auto s = p.session();
            // Each run of AnonymousIteratorV2 makes a new iterator: MakeIterator and GetNext in one run.
            std::vector<Tensor> out;
            QVERIFY(s->run({}, {"next:0"}, {"make"}, &out).isOk());
            QCOMPARE(out[0].scalar<std::int64_t>(), std::int64_t{3});
        }
        {
            Pipeline p; // FixedLengthRecordDataset (V1), ParallelInterleaveDatasetV2, padded batch V1
            Output d = p.dataset("ParallelInterleaveDatasetV2",
                                 {p.range(1, 4), std::vector<Output>{}, p.i64(3), p.i64(1), p.i64(3)},
                                 {{"f", funcAttr("repeat_x")}});
            Output padded = must(constantInts(p.b, {}, TensorShape{0}, tf::DT_INT64, "padded_shape"));
            d = p.dataset("PaddedBatchDataset",
                          {d, p.i64(4), std::vector<Output>{padded}, std::vector<Output>{p.i64(0)}}, {}, {tf::DT_INT64},
                          {TensorShape{-1}});
            p.iterate(d, {tf::DT_INT64}, {TensorShape{-1}});
            auto s = p.session();
            auto batches = must(p.drain(*s));
            // Cycle of 3, one at a time: 1 2 3 | 2 3 | 3.
            QCOMPARE(batches.size(), std::size_t{2});
            QCOMPARE(values64(batches[0][0]), std::vector<std::int64_t>({1, 2, 3, 2}));
            QCOMPARE(values64(batches[1][0]), std::vector<std::int64_t>({3, 3}));
        }
    }
};

QTEST_GUILESS_MAIN(TestDatasetKernels)
#include "test_dataset_kernels.moc"
