// Tests for the TensorArray kernels (TensorArrayV3 and its Write/Read/Gather/Scatter/Concat/Split/
// Size/Close/Grad ops): sequences of ops against NumPy's values (tools/golden/tensor_array.py writes
// tests/data/golden/tensor_array.json), TensorFlow 1.15's zeros for unwritten elements, gradient
// arrays (aggregation, shapes copied from the forward array, shape_to_prepend), arrays living for one
// step, and bad uses, each a clear error naming the node and the index.
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "graph_run.h"
#include "kernel_harness.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace tstudio;
using testing::runGraph;
namespace tf = tensorflow;

namespace {

/// One state of an array built op by op: its handle and the flow its next op takes.
struct Array {
    Output handle;
    Output flow;
};

template <typename T> T must(Expected<T> value)
{
    if (!value)
        qFatal("test setup failed: %s", value.error().toString().c_str());
    return std::move(*value);
}

tf::DataType dtypeOf(const QJsonObject& array)
{
    static const std::map<QString, tf::DataType> names = {{"DT_FLOAT", tf::DT_FLOAT},
                                                          {"DT_DOUBLE", tf::DT_DOUBLE},
                                                          {"DT_INT32", tf::DT_INT32},
                                                          {"DT_INT64", tf::DT_INT64}};
    return names.at(array.value("dtype").toString());
}

TensorShape shapeOf(const QJsonObject& array)
{
    std::vector<std::int64_t> dims;
    for (const QJsonValue& d : array.value("shape").toArray())
        dims.push_back(d.toInteger());
    return TensorShape(dims);
}

/// A Const holding a golden array.
Output constantOf(GraphBuilder& b, const QJsonObject& array, std::string_view name = "Const")
{
    const tf::DataType dtype = dtypeOf(array);
    const QJsonArray values = array.value("values").toArray();
    if (dtype == tf::DT_INT32 || dtype == tf::DT_INT64) {
        std::vector<std::int64_t> v;
        for (const QJsonValue& x : values)
            v.push_back(x.toInteger());
        return must(ops::constantInts(b, v, shapeOf(array), dtype, name));
    }
    std::vector<double> v;
    for (const QJsonValue& x : values)
        v.push_back(x.toDouble());
    return must(ops::constant(b, v, shapeOf(array), dtype, name));
}

/// Empty when `got` has the golden array's dtype, shape and values (exactly: these ops only move
/// values, and NumPy added the aggregated float32 values in float32 as the kernel does).
QString compareWithGolden(const Tensor& got, const QJsonObject& want, const QString& where)
{
    if (got.dtype() != dtypeOf(want))
        return where + ": dtype " + QString::fromStdString(dataTypeName(got.dtype()));
    if (got.shape() != shapeOf(want))
        return where + ": shape " + QString::fromStdString(got.shape().toString()) + " instead of " +
               QString::fromStdString(shapeOf(want).toString());
    const QJsonArray values = want.value("values").toArray();
    for (qsizetype i = 0; i < values.size(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        double g = 0;
        switch (got.dtype()) {
        case tf::DT_FLOAT: g = got.values<float>()[k]; break;
        case tf::DT_DOUBLE: g = got.values<double>()[k]; break;
        case tf::DT_INT32: g = got.values<std::int32_t>()[k]; break;
        default: g = static_cast<double>(got.values<std::int64_t>()[k]); break;
        }
        const double w = got.dtype() == tf::DT_FLOAT ? static_cast<float>(values[i].toDouble()) : values[i].toDouble();
        if (g != w)
            return where + QString(": value %1 is %2, NumPy %3").arg(i).arg(g).arg(w);
    }
    return {};
}

bool contains(const Status& s, const std::string& text)
{
    return s.message().find(text) != std::string::npos;
}

} // namespace

class TestTensorArrayKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    /// TensorArrayV3 of `dtype` and `size` named `name`, with `attrs` added.
    static Array make(GraphBuilder& b, tf::DataType dtype, std::int64_t size, AttrMap attrs = {},
                      std::string_view name = "ta")
    {
        attrs["dtype"] = attr::type(dtype);
        Output n = must(ops::constantInts(b, {size}, TensorShape::scalar(), tf::DT_INT32, std::string(name) + "_size"));
        Operation op = must(b.op("TensorArrayV3", {n}, attrs, name));
        return {op.output(0), op.output(1)};
    }
    static Output index(GraphBuilder& b, std::int64_t i)
    {
        return must(ops::constantInts(b, {i}, TensorShape::scalar(), tf::DT_INT32, "index"));
    }
    static Output indices(GraphBuilder& b, const std::vector<std::int64_t>& v)
    {
        return must(ops::constantInts(b, v, TensorShape{static_cast<std::int64_t>(v.size())}, tf::DT_INT32, "indices"));
    }
    static Array write(GraphBuilder& b, const Array& a, std::int64_t i, const Output& value,
                       std::string_view name = "TensorArrayWriteV3")
    {
        return {a.handle,
                must(ops::firstOutput(b.op("TensorArrayWriteV3", {a.handle, index(b, i), value, a.flow}, {}, name)))};
    }
    static Output read(GraphBuilder& b, const Array& a, std::int64_t i, tf::DataType dtype = tf::DT_FLOAT,
                       std::string_view name = "TensorArrayReadV3")
    {
        return must(ops::firstOutput(
            b.op("TensorArrayReadV3", {a.handle, index(b, i), a.flow}, {{"dtype", attr::type(dtype)}}, name)));
    }
    static Output gather(GraphBuilder& b, const Array& a, const std::vector<std::int64_t>& at,
                         tf::DataType dtype = tf::DT_FLOAT, std::string_view name = "TensorArrayGatherV3")
    {
        return must(ops::firstOutput(
            b.op("TensorArrayGatherV3", {a.handle, indices(b, at), a.flow}, {{"dtype", attr::type(dtype)}}, name)));
    }
    static Array scatter(GraphBuilder& b, const Array& a, const std::vector<std::int64_t>& at, const Output& value,
                         std::string_view name = "TensorArrayScatterV3")
    {
        return {a.handle, must(ops::firstOutput(
                              b.op("TensorArrayScatterV3", {a.handle, indices(b, at), value, a.flow}, {}, name)))};
    }
    static Array split(GraphBuilder& b, const Array& a, const Output& value, const Output& lengths)
    {
        return {a.handle, must(ops::firstOutput(b.op("TensorArraySplitV3", {a.handle, value, lengths, a.flow})))};
    }
    static Operation concat(GraphBuilder& b, const Array& a, tf::DataType dtype = tf::DT_FLOAT,
                            std::string_view name = "TensorArrayConcatV3")
    {
        return must(b.op("TensorArrayConcatV3", {a.handle, a.flow}, {{"dtype", attr::type(dtype)}}, name));
    }
    static Output size(GraphBuilder& b, const Array& a)
    {
        return must(ops::firstOutput(b.op("TensorArraySizeV3", {a.handle, a.flow})));
    }
    static Output vec(GraphBuilder& b, const std::vector<double>& v, const TensorShape& shape)
    {
        return must(ops::constant(b, v, shape));
    }

    /// The error of running `fetch` (which must fail).
    Status failure(const GraphBuilder& b, const Output& fetch) const
    {
        auto values = runGraph(*m_registries, b, {}, {fetch.name()});
        return values ? Status::ok() : values.error();
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// Every sequence of tools/golden/tensor_array.py, built with the same ops, against NumPy.
    void numpyGoldenSequences()
    {
        QFile file(testing::goldenDir() + "/tensor_array.json");
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).object().value("cases").toArray();
        QCOMPARE(cases.size(), 7);
        for (const QJsonValue& c : cases) {
            const QJsonObject o = c.toObject();
            const QString name = o.value("name").toString();
            const QJsonArray in = o.value("inputs").toArray();
            const auto input = [&](int i) { return in[i].toObject(); };
            GraphBuilder b(m_registries->ops);
            std::vector<Output> fetches;
            if (name == "write_read_float") {
                Array a = make(b, tf::DT_FLOAT, 3);
                const QJsonArray at = o.value("write_at").toArray();
                for (int k = 0; k < 3; ++k)
                    a = write(b, a, at[k].toInteger(), constantOf(b, input(k)));
                for (const QJsonValue& i : o.value("read_at").toArray())
                    fetches.push_back(read(b, a, i.toInteger()));
            } else if (name == "scatter_gather_int32") {
                Array a = make(b, tf::DT_INT32, 5, {{"clear_after_read", attr::b(false)}});
                std::vector<std::int64_t> at, from;
                for (const QJsonValue& i : o.value("scatter_at").toArray())
                    at.push_back(i.toInteger());
                for (const QJsonValue& i : o.value("gather_at").toArray())
                    from.push_back(i.toInteger());
                a = scatter(b, a, at, constantOf(b, input(0)));
                fetches.push_back(gather(b, a, from, tf::DT_INT32));
            } else if (name == "split_concat_double") {
                Array a = make(b, tf::DT_DOUBLE, 4);
                a = split(b, a, constantOf(b, input(0)), constantOf(b, input(1)));
                Operation cat = concat(b, a, tf::DT_DOUBLE);
                fetches = {cat.output(0), cat.output(1)};
                Array other = make(b, tf::DT_DOUBLE, 4, {}, "other");
                other = split(b, other, constantOf(b, input(0)), constantOf(b, input(1)));
                fetches.push_back(read(b, other, 1, tf::DT_DOUBLE));
            } else if (name == "write_concat_ragged") {
                Array a = make(b, tf::DT_FLOAT, 4);
                for (int k = 0; k < 4; ++k)
                    a = write(b, a, k, constantOf(b, input(k)));
                Operation cat = concat(b, a);
                fetches = {cat.output(0), cat.output(1)};
            } else if (name == "dynamic_write_grows") {
                Array a = make(b, tf::DT_FLOAT, 0,
                               {{"dynamic_size", attr::b(true)}, {"element_shape", attr::shape(TensorShape{2})}});
                a = write(b, a, 3, constantOf(b, input(0)));
                a = write(b, a, 0, constantOf(b, input(1)));
                fetches = {size(b, a), gather(b, a, {0, 1, 2, 3})};
            } else if (name == "grad_writes_aggregate") {
                Array a = make(b, tf::DT_FLOAT, 3);
                for (int k = 0; k < 3; ++k)
                    a = write(b, a, k, constantOf(b, input(k)));
                Operation g = must(b.op("TensorArrayGradV3", {a.handle, a.flow}, {{"source", attr::s("gradients")}}));
                Array grad{g.output(0), g.output(1)};
                grad = write(b, grad, 1, constantOf(b, input(3)));
                grad = write(b, grad, 1, constantOf(b, input(4)));
                grad = write(b, grad, 0, constantOf(b, input(5)));
                fetches = {gather(b, grad, {0, 1, 2})};
            } else if (name == "unstack_stack_int64") {
                Array a = make(b, tf::DT_INT64, 4);
                a = scatter(b, a, {0, 1, 2, 3}, constantOf(b, input(0)));
                fetches = {gather(b, a, {0, 1, 2, 3}, tf::DT_INT64)};
            } else {
                QFAIL(qPrintable("unknown golden case " + name));
            }
            std::vector<std::string> names;
            for (const Output& f : fetches)
                names.push_back(f.name());
            auto values = runGraph(*m_registries, b, {}, names);
            QVERIFY2(values, qPrintable(name + ": " + QString::fromStdString(values ? "" : values.error().toString())));
            const QJsonArray outputs = o.value("outputs").toArray();
            QCOMPARE(static_cast<qsizetype>(values->size()), outputs.size());
            for (qsizetype i = 0; i < outputs.size(); ++i) {
                const QString problem = compareWithGolden((*values)[static_cast<std::size_t>(i)], outputs[i].toObject(),
                                                          name + QString(" output %1").arg(i));
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
        }
    }

    /// TensorFlow 1.15 reads an element never written as zeros when the element shape is fully
    /// defined (its tensor_array_ops_test ReadOrPackNotAllValuesAvailableFillsZeros).
    void unwrittenElementsReadAsZerosWhenTheShapeIsKnown()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 3, {{"element_shape", attr::shape(TensorShape{1, 2})}});
        Output first = read(b, a, 0);
        Array written = write(b, a, 1, vec(b, {4, 5}, TensorShape{1, 2}));
        Output stacked = gather(b, written, {0, 1, 2});
        Array other = make(b, tf::DT_FLOAT, 3, {{"element_shape", attr::shape(TensorShape{1, 2})}}, "other");
        other = write(b, other, 1, vec(b, {4, 5}, TensorShape{1, 2}));
        Output joined = concat(b, other).output(0);
        // One run each, as a read clears what it read.
        std::vector<Tensor> results;
        for (const Output& fetch : {first, stacked, joined}) {
            auto value = runGraph(*m_registries, b, {}, {fetch.name()});
            QVERIFY2(value, value ? "" : value.error().toString().c_str());
            results.push_back(value->at(0));
        }
        const std::vector<Tensor>* values = &results;
        QCOMPARE(values->at(0).shape(), TensorShape({1, 2}));
        QCOMPARE(std::vector<float>(values->at(0).values<float>().begin(), values->at(0).values<float>().end()),
                 std::vector<float>({0, 0}));
        QCOMPARE(values->at(1).shape(), TensorShape({3, 1, 2}));
        QCOMPARE(std::vector<float>(values->at(1).values<float>().begin(), values->at(1).values<float>().end()),
                 std::vector<float>({0, 0, 4, 5, 0, 0}));
        QCOMPARE(values->at(2).shape(), TensorShape({3, 2}));
        QCOMPARE(values->at(2).values<float>()[3], 5.0f);
    }

    /// identical_element_shapes: the first write fixes the element shape, so later unwritten
    /// elements read as zeros of it.
    void identicalShapesLearnTheShapeFromTheFirstWrite()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 3, {{"identical_element_shapes", attr::b(true)}});
        a = write(b, a, 2, vec(b, {1, 2, 3}, TensorShape{3}));
        Output stacked = gather(b, a, {2, 0});
        auto values = runGraph(*m_registries, b, {}, {stacked.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).shape(), TensorShape({2, 3}));
        QCOMPARE(values->at(0).values<float>()[2], 3.0f);
        QCOMPARE(values->at(0).values<float>()[5], 0.0f);
    }

    /// A gradient array knows the shape of each element the forward array wrote (zeros of it), and
    /// TensorArrayGradWithShape puts shape_to_prepend before it; a second TensorArrayGradV3 with the same
    /// source finds the same array.
    void gradientArraysCopyTheForwardShapes()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 2);
        a = write(b, a, 0, vec(b, {1, 2}, TensorShape{2}));
        a = write(b, a, 1, vec(b, {3, 4, 5}, TensorShape{3}));
        Operation g = must(b.op("TensorArrayGradV3", {a.handle, a.flow}, {{"source", attr::s("gradients")}}, "grad"));
        Array grad{g.output(0), g.output(1)};
        grad = write(b, grad, 0, vec(b, {7, 8}, TensorShape{2}));
        Operation again = [&] {
            auto after = b.controlDependencies({must(b.operation(grad.flow.node()))});
            return must(b.op("TensorArrayGradV3", {a.handle, a.flow}, {{"source", attr::s("gradients")}}, "again"));
        }();
        Array same{again.output(0), grad.flow};
        Output first = read(b, same, 0, tf::DT_FLOAT, "first");
        Output second = read(b, same, 1, tf::DT_FLOAT, "second");
        Operation prepend =
            must(b.op("TensorArrayGradWithShape",
                      {a.handle, a.flow, must(ops::constantInts(b, {4}, TensorShape{1}, tf::DT_INT32, "prepend"))},
                      {{"source", attr::s("gradients_1")}}));
        Output prepended = read(b, {prepend.output(0), prepend.output(1)}, 1, tf::DT_FLOAT, "prepended");
        auto values = runGraph(*m_registries, b, {}, {first.name(), second.name(), prepended.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).values<float>()[1], 8.0f);
        QCOMPARE(values->at(1).shape(), TensorShape({3}));
        QCOMPARE(values->at(1).values<float>()[2], 0.0f);
        QCOMPARE(values->at(2).shape(), TensorShape({4, 3}));
    }

    /// Arrays live in the step's container: the same graph runs again with fresh arrays, and the
    /// container is empty afterwards.
    void arraysLiveForOneStep()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 1);
        a = write(b, a, 0, vec(b, {2}, TensorShape::scalar()));
        Output value = read(b, a, 0);
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        QVERIFY(session.create(b.graphDef()).isOk());
        for (int run = 0; run < 2; ++run) {
            std::vector<Tensor> out;
            const Status s = session.run({}, {value.name()}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            QCOMPARE(out[0].values<float>()[0], 2.0f);
        }
    }

    void sizeAndClose()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 5);
        Output n = size(b, a);
        auto values = runGraph(*m_registries, b, {}, {n.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).scalar<std::int32_t>(), 5);
        Operation close = must(b.op("TensorArrayCloseV3", {a.handle}));
        Output after = [&] {
            auto deps = b.controlDependencies({close});
            return must(ops::firstOutput(b.op("TensorArraySizeV3", {a.handle, a.flow}, {}, "size_after_close")));
        }();
        const Status s = failure(b, after);
        QVERIFY2(contains(s, "TensorArray ta_") && contains(s, "has already been closed.") &&
                     contains(s, "'size_after_close'"),
                 s.toString().c_str());
    }

    // --- Bad uses: each error names the node and the index ---------------------------------------------

    void writingAnIndexTwiceFails()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 3);
        a = write(b, a, 2, vec(b, {1}, TensorShape{1}));
        a = write(b, a, 2, vec(b, {2}, TensorShape{1}), "second_write");
        const Status s = failure(b, a.flow);
        QVERIFY2(contains(s, "Could not write to TensorArray index 2 because it has already been written to.") &&
                     contains(s, "node 'second_write'"),
                 s.toString().c_str());
    }

    void readingAnIndexTwiceFailsWithClearAfterRead()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 3);
        a = write(b, a, 1, vec(b, {1}, TensorShape{1}));
        Output first = read(b, a, 1, tf::DT_FLOAT, "first_read");
        auto deps = b.controlDependencies({must(b.operation(first.node()))});
        Output second = read(b, a, 1, tf::DT_FLOAT, "second_read");
        deps.close();
        const Status s = failure(b, second);
        QVERIFY2(contains(s, "Could not read index 1 twice because it was cleared after a previous read") &&
                     contains(s, "node 'second_read'"),
                 s.toString().c_str());
        // clear_after_read=false allows it.
        GraphBuilder keep(m_registries->ops);
        Array k = make(keep, tf::DT_FLOAT, 3, {{"clear_after_read", attr::b(false)}});
        k = write(keep, k, 1, vec(keep, {1}, TensorShape{1}));
        Output r1 = read(keep, k, 1);
        auto after = keep.controlDependencies({must(keep.operation(r1.node()))});
        Output r2 = read(keep, k, 1);
        after.close();
        auto values = runGraph(*m_registries, keep, {}, {r1.name(), r2.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(1).values<float>()[0], 1.0f);
    }

    void readingAnUnwrittenIndexFailsWithoutAKnownShape()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 3);
        a = write(b, a, 0, vec(b, {1}, TensorShape{1}));
        Output r = read(b, a, 1, tf::DT_FLOAT, "read_unwritten");
        const Status s = failure(b, r);
        QVERIFY2(contains(s, "Could not read from TensorArray index 1 because it has not yet been written to.") &&
                     contains(s, "the element shape is not fully defined: <unknown>") &&
                     contains(s, "node 'read_unwritten'"),
                 s.toString().c_str());
    }

    void indicesOutOfRangeFailWithoutDynamicSize()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 3);
        Array w = write(b, a, 3, vec(b, {1}, TensorShape{1}), "write_past_end");
        Status s = failure(b, w.flow);
        QVERIFY2(contains(s, "Tried to write to index 3 but array is not resizeable and size is: 3") &&
                     contains(s, "node 'write_past_end'"),
                 s.toString().c_str());
        Output r = read(b, a, 5, tf::DT_FLOAT, "read_past_end");
        s = failure(b, r);
        QVERIFY2(contains(s, "Tried to read from index 5 but array size is: 3") && contains(s, "node 'read_past_end'"),
                 s.toString().c_str());
        Array sc = scatter(b, a, {0, 5}, vec(b, {1, 2}, TensorShape{2}), "scatter_past_end");
        s = failure(b, sc.flow);
        QVERIFY2(contains(s, "Max scatter index must be < array size (5 vs. 3)") &&
                     contains(s, "node 'scatter_past_end'"),
                 s.toString().c_str());
    }

    void inconsistentElementShapesFail()
    {
        {
            // identical_element_shapes (tf.TensorArray's infer_shape): caught at the write.
            GraphBuilder b(m_registries->ops);
            Array a = make(b, tf::DT_FLOAT, 3, {{"identical_element_shapes", attr::b(true)}});
            a = write(b, a, 0, vec(b, {1, 2}, TensorShape{2}));
            a = write(b, a, 1, vec(b, {1, 2, 3}, TensorShape{3}), "bad_write");
            const Status s = failure(b, a.flow);
            QVERIFY2(contains(s, "Could not write to TensorArray index 1 because the value shape is [3] which is "
                                 "incompatible with the TensorArray's inferred element shape: [2]") &&
                         contains(s, "node 'bad_write'"),
                     s.toString().c_str());
        }
        {
            // A given element shape.
            GraphBuilder b(m_registries->ops);
            Array a = make(b, tf::DT_FLOAT, 3, {{"element_shape", attr::shape(TensorShape{-1, 2})}});
            a = write(b, a, 2, vec(b, {1, 2, 3}, TensorShape{1, 3}), "bad_write");
            const Status s = failure(b, a.flow);
            QVERIFY2(contains(s, "index 2 because the value shape is [1,3]") &&
                         contains(s, "inferred element shape: [?,2]") && contains(s, "node 'bad_write'"),
                     s.toString().c_str());
        }
        {
            // Without either: caught when the elements are stacked.
            GraphBuilder b(m_registries->ops);
            Array a = make(b, tf::DT_FLOAT, 2);
            a = write(b, a, 0, vec(b, {1, 2}, TensorShape{2}));
            a = write(b, a, 1, vec(b, {1, 2, 3}, TensorShape{3}));
            Output stacked = gather(b, a, {0, 1}, tf::DT_FLOAT, "stack");
            const Status s = failure(b, stacked);
            QVERIFY2(contains(s, "TensorArray has inconsistent shapes.  Index 0 has shape: [2] but index 1 has "
                                 "shape: [3]") &&
                         contains(s, "node 'stack'"),
                     s.toString().c_str());
        }
        {
            GraphBuilder b(m_registries->ops);
            Array a = make(b, tf::DT_FLOAT, 2);
            a = write(b, a, 0, vec(b, {1, 2}, TensorShape{1, 2}));
            a = write(b, a, 1, vec(b, {1, 2, 3}, TensorShape{1, 3}));
            const Status s = failure(b, concat(b, a, tf::DT_FLOAT, "cat").output(0));
            QVERIFY2(contains(s, "Index 0 has (excepting dimension 0) shape: [2] but index 1 has (excepting dimension "
                                 "0) shape: [3]") &&
                         contains(s, "node 'cat'"),
                     s.toString().c_str());
        }
    }

    void otherBadInputs()
    {
        GraphBuilder b(m_registries->ops);
        Array a = make(b, tf::DT_FLOAT, 2);
        Array w = write(b, a, 0, vec(b, {1}, TensorShape{1}));
        Status s = failure(b, read(b, w, 0, tf::DT_INT32, "read_int"));
        QVERIFY2(contains(s, "TensorArray dtype is float but Op requested dtype int32."), s.toString().c_str());
        Array sp = split(b, a, vec(b, {1, 2, 3}, TensorShape{3}),
                         must(ops::constantInts(b, {1, 1}, TensorShape{2}, tf::DT_INT64)));
        s = failure(b, sp.flow);
        QVERIFY2(contains(s, "Expected sum of lengths to be equal to values.shape[0], but sum of lengths is 2 and "
                             "value's shape is: [3]"),
                 s.toString().c_str());
        Array sp3 = split(b, a, vec(b, {1, 2, 3}, TensorShape{3}),
                          must(ops::constantInts(b, {1, 1, 1}, TensorShape{3}, tf::DT_INT64)));
        s = failure(b, sp3.flow);
        QVERIFY2(contains(s, "TensorArray's size is not equal to the size of lengths (2 vs. 3)"), s.toString().c_str());
        Array scalars =
            write(b, write(b, make(b, tf::DT_FLOAT, 2, {}, "scalars"), 0, vec(b, {1}, TensorShape::scalar())), 1,
                  vec(b, {2}, TensorShape::scalar()));
        s = failure(b, concat(b, scalars).output(0));
        QVERIFY2(contains(s, "Concat saw a scalar shape at index 0 but requires at least vectors."),
                 s.toString().c_str());
        Output negative = must(ops::constantInts(b, {-1}, TensorShape::scalar(), tf::DT_INT32, "negative"));
        Operation bad = must(b.op("TensorArrayV3", {negative}, {{"dtype", attr::type(tf::DT_FLOAT)}}, "negative_size"));
        s = failure(b, bad.output(1));
        QVERIFY2(contains(s, "Size should be >= 0.") && contains(s, "node 'negative_size'"), s.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestTensorArrayKernels)
#include "test_tensor_array_kernels.moc"
