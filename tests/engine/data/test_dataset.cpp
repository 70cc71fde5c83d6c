// The dataset pipeline: sources, map, shuffle, batch, repeat, prefetch (threads, errors, shutdown), and a training loop
// fed by it.
#include "data/dataset.h"
#include "data/example_parser.h"
#include "data/tfrecord_writer.h"

#include "autodiff/gradients.h"
#include "autodiff/gradients_registry.h"
#include "builder/ops_sugar.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "proto/example.pb.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <numeric>
#include <set>
#include <thread>

using namespace tstudio;
using namespace tstudio::data;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

CpuAllocator& allocator()
{
    static CpuAllocator a;
    return a;
}

template <typename T> Tensor vec(std::vector<T> v, TensorShape shape = TensorShape::unknown())
{
    if (shape.isUnknownRank())
        shape = TensorShape{static_cast<std::int64_t>(v.size())};
    return *Tensor::fromVector(allocator(), shape, v);
}

/// Every element's first component as an int64 scalar.
std::vector<std::int64_t> drainScalars(const Dataset& ds)
{
    std::vector<std::int64_t> out;
    auto it = ds.makeIterator();
    for (;;) {
        auto e = it->getNext();
        if (!e) {
            qWarning("%s", e.error().toString().c_str());
            return out;
        }
        if (!*e)
            return out;
        out.push_back((**e)[0].scalar<std::int64_t>());
    }
}

Dataset range(std::int64_t n)
{
    std::vector<std::int64_t> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), 0);
    return Dataset::fromTensorSlices({vec(v)}, allocator());
}

std::string errorOf(const Dataset& ds)
{
    auto it = ds.makeIterator();
    for (int i = 0; i < 1000; ++i) {
        auto e = it->getNext();
        if (!e)
            return e.error().message();
        if (!*e)
            return "end";
    }
    return "no error";
}

} // namespace

class TestDataset : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void sourcesAndMap()
    {
        auto one = Dataset::fromTensors({vec<float>({1, 2}), vec<std::string>({"a"})}, allocator());
        auto it = one.makeIterator();
        auto e = it->getNext();
        QVERIFY(e && *e);
        QCOMPARE((**e)[0].shape(), (TensorShape{2}));
        QCOMPARE((**e)[1].strings()[0], std::string("a"));
        QVERIFY(!*it->getNext());
        QVERIFY(!*it->getNext()); // the end is sticky

        // Slices of a matrix and a string vector, then a map squaring the rows.
        auto slices = Dataset::fromTensorSlices(
            {vec<float>({1, 2, 3, 4, 5, 6}, {3, 2}), vec<std::string>({"x", "y", "z"})}, allocator());
        auto squared = slices.map([](Element el) -> Expected<Element> {
            for (float& v : el[0].values<float>())
                v = v * v;
            return el;
        });
        it = squared.makeIterator();
        std::vector<float> seen;
        std::string names;
        while (auto next = it->getNext()) {
            if (!*next)
                break;
            QCOMPARE((**next)[0].shape(), (TensorShape{2}));
            for (float v : (**next)[0].values<float>())
                seen.push_back(v);
            names += (**next)[1].scalar<std::string>();
        }
        QCOMPARE(seen, (std::vector<float>{1, 4, 9, 16, 25, 36}));
        QCOMPARE(names, std::string("xyz"));
        QCOMPARE(squared.describe(), std::string("TensorSliceDataset -> Map"));

        auto bad = Dataset::fromTensorSlices({vec<float>({1, 2, 3}), vec<float>({1, 2})}, allocator());
        QCOMPARE(bad.status().code(), StatusCode::kInvalidArgument);
        QCOMPARE(errorOf(bad.batch(2)), bad.status().message());
    }

    void batchAndRepeat()
    {
        auto batches = range(5).batch(2);
        auto it = batches.makeIterator();
        std::vector<TensorShape> shapes;
        std::vector<std::int64_t> flat;
        while (auto e = it->getNext()) {
            if (!*e)
                break;
            shapes.push_back((**e)[0].shape());
            for (auto v : (**e)[0].values<std::int64_t>())
                flat.push_back(v);
        }
        QCOMPARE(shapes, (std::vector<TensorShape>{TensorShape{2}, TensorShape{2}, TensorShape{1}}));
        QCOMPARE(flat, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
        QCOMPARE(drainScalars(range(5).batch(2, true).map([](Element e) -> Expected<Element> {
                     return Element{*Tensor::fromVector<std::int64_t>(allocator(), TensorShape::scalar(),
                                                                      {e[0].values<std::int64_t>()[1]})};
                 })),
                 (std::vector<std::int64_t>{1, 3}));
        QCOMPARE(drainScalars(range(3).repeat(2)), (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2}));
        QCOMPARE(drainScalars(range(3).repeat(0)), std::vector<std::int64_t>{});
        auto endlessIt = range(2).repeat().makeIterator();
        for (int i = 0; i < 101; ++i)
            QCOMPARE((*endlessIt->getNext())->at(0).scalar<std::int64_t>(), std::int64_t(i % 2));
        // Repeating nothing forever ends instead of spinning.
        QCOMPARE(drainScalars(range(0).repeat()), std::vector<std::int64_t>{});
        QCOMPARE(errorOf(range(3).batch(0)), std::string("Batch size must be greater than zero."));
        QCOMPARE(range(3).repeat(-2).status().code(), StatusCode::kInvalidArgument);
    }

    void batchRefusesMismatchedShapes()
    {
        auto ragged =
            Dataset::fromTensors({vec<float>({1, 2})}, allocator()).repeat(1).map([](Element e) -> Expected<Element> {
                return e;
            });
        // Two elements of shapes [2] and [3] in component 0.
        auto two = range(2).map([](Element e) -> Expected<Element> {
            const std::int64_t i = e[0].scalar<std::int64_t>();
            return Element{e[0], *Tensor::allocate(allocator(), tf::DT_FLOAT, TensorShape{2 + i})};
        });
        QCOMPARE(errorOf(two.batch(2)), std::string("Cannot batch tensors with different shapes in component 1. First "
                                                    "element had shape [2] and element 1 had shape [3]."));
        QCOMPARE(drainScalars(ragged.batch(1).map([](Element) -> Expected<Element> {
                     return Element{*Tensor::fromVector<std::int64_t>(allocator(), TensorShape::scalar(), {7})};
                 })),
                 (std::vector<std::int64_t>{7}));
    }

    void shuffleIsASeededPermutation()
    {
        const auto once = drainScalars(range(100).shuffle(10, 42));
        QCOMPARE(once.size(), std::size_t(100));
        QCOMPARE(std::set<std::int64_t>(once.begin(), once.end()).size(), std::size_t(100));
        std::vector<std::int64_t> sorted(100);
        std::iota(sorted.begin(), sorted.end(), 0);
        QVERIFY(once != sorted);
        // A buffer of 10 never moves an element earlier than 9 places before its input position.
        for (std::size_t i = 0; i < once.size(); ++i)
            QVERIFY2(once[i] <= static_cast<std::int64_t>(i) + 9, qPrintable(QString::number(i)));
        // The same seed gives the same order for a fresh pipeline ...
        QCOMPARE(drainScalars(range(100).shuffle(10, 42)), once);
        QVERIFY(drainScalars(range(100).shuffle(10, 43)) != once);
        // ... and each epoch of a repeat is shuffled differently unless told otherwise.
        const auto epochs = drainScalars(range(20).shuffle(20, 7).repeat(2));
        QCOMPARE(epochs.size(), std::size_t(40));
        QVERIFY(std::vector<std::int64_t>(epochs.begin(), epochs.begin() + 20) !=
                std::vector<std::int64_t>(epochs.begin() + 20, epochs.end()));
        const auto same = drainScalars(range(20).shuffle(20, 7, false).repeat(2));
        QCOMPARE(std::vector<std::int64_t>(same.begin(), same.begin() + 20),
                 std::vector<std::int64_t>(same.begin() + 20, same.end()));
        QCOMPARE(errorOf(range(3).shuffle(0)), std::string("buffer_size must be greater than zero."));
    }

    void prefetchKeepsOrderAndPropagatesErrors()
    {
        std::vector<std::int64_t> expected(50);
        std::iota(expected.begin(), expected.end(), 0);
        QCOMPARE(drainScalars(range(50).prefetch(4)), expected);
        QCOMPARE(drainScalars(range(50).prefetch(1).batch(5).prefetch(2).map([](Element e) -> Expected<Element> {
                     return Element{*Tensor::fromVector<std::int64_t>(allocator(), TensorShape::scalar(),
                                                                      {e[0].values<std::int64_t>()[4]})};
                 })),
                 (std::vector<std::int64_t>{4, 9, 14, 19, 24, 29, 34, 39, 44, 49}));

        // An error from a map running on the prefetch thread reaches getNext after the elements before it.
        auto failing = range(10).map([](Element e) -> Expected<Element> {
            if (e[0].scalar<std::int64_t>() == 6)
                return unexpected(invalidArgumentError("element 6 is bad"));
            return e;
        });
        auto it = failing.prefetch(3).makeIterator();
        for (std::int64_t i = 0; i < 6; ++i)
            QCOMPARE((*it->getNext())->at(0).scalar<std::int64_t>(), i);
        auto err = it->getNext();
        QVERIFY(!err);
        QCOMPARE(err.error().message(), std::string("element 6 is bad"));
        QCOMPARE(it->getNext().error().message(), std::string("element 6 is bad"));
    }

    void prefetchShutsDownMidStream()
    {
        // An endless, slowish producer: destroying the iterator stops and joins its thread.
        std::atomic<int> produced{0};
        auto endless = range(3).repeat().map([&](Element e) -> Expected<Element> {
            ++produced;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return e;
        });
        {
            auto it = endless.prefetch(8).makeIterator();
            for (int i = 0; i < 5; ++i)
                QVERIFY(*it->getNext());
        }
        const int atDestruction = produced.load();
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QCOMPARE(produced.load(), atDestruction);
        QVERIFY(atDestruction <= 5 + 8 + 1); // never more than the buffer ahead
        // An iterator destroyed before its first getNext never started a thread.
        {
            auto unused = endless.prefetch(2).makeIterator();
        }
    }

    void recordsAndLinesFromFiles()
    {
        const fs::path dir = m_dir.path().toStdString();
        std::vector<std::string> serialized;
        for (int i = 0; i < 6; ++i) {
            tf::Example ex;
            auto& features = *ex.mutable_features()->mutable_feature();
            features["x"].mutable_float_list()->add_value(static_cast<float>(i));
            features["x"].mutable_float_list()->add_value(static_cast<float>(10 * i));
            features["y"].mutable_int64_list()->add_value(i % 2);
            serialized.push_back(ex.SerializeAsString());
        }
        QVERIFY(writeRecords(dir / "a.tfrecord.gz", {serialized.begin(), serialized.begin() + 4}, Compression::kGzip)
                    .isOk());
        QVERIFY(
            writeRecords(dir / "b.tfrecord.gz", {serialized.begin() + 4, serialized.end()}, Compression::kGzip).isOk());
        ExampleFeatures spec;
        spec.dense.push_back({"x", tf::DT_FLOAT, TensorShape{2}, std::nullopt});
        spec.dense.push_back({"y", tf::DT_INT64, TensorShape::scalar(), std::nullopt});
        // tf.data's usual shape: records -> batch of serialized strings -> parse_example.
        auto parsed =
            Dataset::tfRecordFiles({dir / "a.tfrecord.gz", dir / "b.tfrecord.gz"}, allocator(), Compression::kGzip)
                .batch(4)
                .map([&](Element e) -> Expected<Element> {
                    auto p = parseExample(e[0].strings(), spec, allocator());
                    if (!p)
                        return unexpected(p.error());
                    return Element{p->dense.at("x"), p->dense.at("y")};
                });
        QCOMPARE(parsed.describe(), std::string("TFRecordDataset(2 files, GZIP) -> Batch(4) -> Map"));
        auto it = parsed.makeIterator();
        auto first = it->getNext();
        QVERIFY2(first && *first, first ? "end" : first.error().toString().c_str());
        QCOMPARE((**first)[0].shape(), (TensorShape{4, 2}));
        QCOMPARE((**first)[0].values<float>()[7], 30.0f);
        auto second = it->getNext();
        QVERIFY(second && *second);
        QCOMPARE((**second)[1].shape(), (TensorShape{2}));
        QCOMPARE((**second)[1].values<std::int64_t>()[1], std::int64_t(1));
        QVERIFY(!*it->getNext());

        // A damaged file ends the stream with the reader's error naming it.
        {
            std::ofstream out(dir / "bad.tfrecord", std::ios::binary);
            out << "definitely not records";
        }
        QCOMPARE(errorOf(Dataset::tfRecordFiles({dir / "bad.tfrecord"}, allocator()).prefetch(2)),
                 "corrupted record at 0 in '" + (dir / "bad.tfrecord").string() + "' (is this a TFRecord file?)");
        QVERIFY(errorOf(Dataset::tfRecordFiles({dir / "none.tfrecord"}, allocator())).find("none.tfrecord") !=
                std::string::npos);

        {
            std::ofstream out(dir / "lines.csv", std::ios::binary);
            out << "a,1\r\nb,2\n\nc,3";
        }
        auto lines = Dataset::textLines({dir / "lines.csv"}, allocator()).makeIterator();
        std::vector<std::string> got;
        while (auto e = lines->getNext()) {
            if (!*e)
                break;
            got.push_back((**e)[0].scalar<std::string>());
        }
        QCOMPARE(got, (std::vector<std::string>{"a,1", "b,2", "", "c,3"}));
    }

    /// The pipeline feeding a training loop: y = x·w_true learnt by gradient descent on
    /// mean((x·w - y)^2) with the gradient from addSymbolicGradients, batches from
    /// shuffle -> batch -> repeat -> prefetch fed into a Session.
    void feedsATrainingLoop()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        QVERIFY(registerAllGradients(ops).isOk());
        KernelRegistry kernels;
        QVERIFY(registerCpuKernels(kernels).isOk());

        GraphBuilder b(ops);
        Output x = *ops::placeholder(b, tf::DT_FLOAT, {-1, 3}, "x");
        Output y = *ops::placeholder(b, tf::DT_FLOAT, {-1, 1}, "y");
        Output w = *ops::placeholder(b, tf::DT_FLOAT, {3, 1}, "w");
        auto pred = ops::matMul(b, x, w);
        auto diff = ops::sub(b, *pred, y);
        auto sq = ops::square(b, *diff);
        auto axes = ops::constantInts(b, {0, 1}, TensorShape{2});
        auto loss = b.op("Mean", {*sq, *axes}, {}, "loss");
        QVERIFY(loss);
        auto grads = addSymbolicGradients(b, {loss->output(0)}, {w});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        SessionOptions options;
        options.ops = &ops;
        options.kernels = &kernels;
        Session session(options);
        QVERIFY(session.create(b.graphDef()).isOk());

        // 64 samples of y = x·[1, -2, 0.5].
        const float trueW[3] = {1.0f, -2.0f, 0.5f};
        std::vector<float> xs, ys;
        for (int i = 0; i < 64; ++i) {
            float row[3] = {std::sin(0.7f * i), std::cos(1.3f * i), 0.05f * static_cast<float>(i % 17) - 0.4f};
            xs.insert(xs.end(), row, row + 3);
            ys.push_back(row[0] * trueW[0] + row[1] * trueW[1] + row[2] * trueW[2]);
        }
        auto pipeline = Dataset::fromTensorSlices({vec(xs, {64, 3}), vec(ys, {64, 1})}, allocator())
                            .shuffle(64, 1)
                            .batch(16)
                            .repeat(60)
                            .prefetch(2);
        auto it = pipeline.makeIterator();
        Tensor weights = vec<float>({0, 0, 0}, {3, 1});
        float firstLoss = -1, lastLoss = -1;
        int steps = 0;
        for (;;) {
            auto batch = it->getNext();
            QVERIFY2(batch, batch ? "" : batch.error().toString().c_str());
            if (!*batch)
                break;
            QCOMPARE((**batch)[0].shape(), (TensorShape{16, 3}));
            std::vector<Tensor> out;
            const Status s = session.run({{"x", (**batch)[0]}, {"y", (**batch)[1]}, {"w", weights}},
                                         {loss->output(0).name(), (*grads)[0]->name()}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            (firstLoss < 0 ? firstLoss : lastLoss) = out[0].scalar<float>();
            auto wv = weights.values<float>();
            for (int k = 0; k < 3; ++k)
                wv[static_cast<std::size_t>(k)] -= 0.3f * out[1].values<float>()[static_cast<std::size_t>(k)];
            ++steps;
        }
        QCOMPARE(steps, 60 * 4);
        QVERIFY2(lastLoss < 1e-4f * firstLoss, qPrintable(QString("loss %1 -> %2").arg(firstLoss).arg(lastLoss)));
        for (int k = 0; k < 3; ++k)
            QVERIFY2(std::abs(weights.values<float>()[static_cast<std::size_t>(k)] - trueW[k]) < 1e-2f,
                     qPrintable(QString::number(weights.values<float>()[static_cast<std::size_t>(k)])));
    }
};

QTEST_GUILESS_MAIN(TestDataset)
#include "test_dataset.moc"
