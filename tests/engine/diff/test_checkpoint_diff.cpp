// checkpointDiff (diff/checkpoint_diff.h) on checkpoints the test writes: tensors added and removed,
// a dtype and a shape change, float changes with their max |delta|, relative change and count,
// NaN on one side, a zero tensor that became nonzero, equal strings and ints, and identical files.
#include "diff/checkpoint_diff.h"
#include "framework/allocator.h"
#include "io/checkpoint/tensor_bundle_writer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace tstudio;
using namespace tstudio::diff;

namespace {

CpuAllocator& cpu()
{
    static CpuAllocator allocator;
    return allocator;
}

struct Entry {
    std::string name;
    Tensor value;
};

bool write(const std::string& prefix, const std::vector<Entry>& entries)
{
    auto writer = TensorBundleWriter::create(prefix);
    if (!writer)
        return false;
    for (const Entry& e : entries)
        if (!(*writer)->add(e.name, e.value).isOk())
            return false;
    return (*writer)->finish().isOk();
}

Tensor floats(const TensorShape& shape, std::vector<float> values)
{
    return *Tensor::fromVector<float>(cpu(), shape, values);
}

const TensorChange* changeOf(const CheckpointDiff& d, const std::string& name)
{
    for (const TensorChange& c : d.common)
        if (c.name == name)
            return &c;
    return nullptr;
}

} // namespace

class TestCheckpointDiff : public QObject {
    Q_OBJECT
private slots:
    void tensorByTensor()
    {
        QTemporaryDir tmp;
        const std::string a = tmp.filePath("a").toStdString(), b = tmp.filePath("b").toStdString();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        QVERIFY(write(a, {{"w", floats({2, 2}, {1, 2, 3, 4})},
                          {"bias", floats({2}, {0, 0})},
                          {"step", *Tensor::fromVector<std::int64_t>(cpu(), TensorShape::scalar(), {10})},
                          {"shape_changed", floats({2}, {1, 1})},
                          {"dtype_changed", floats({1}, {1})},
                          {"nan", floats({2}, {nan, 1})},
                          {"old", floats({1}, {5})}}));
        QVERIFY(write(b, {{"w", floats({2, 2}, {1, 2.5f, 3, 2})},
                          {"bias", floats({2}, {0, 3})},
                          {"step", *Tensor::fromVector<std::int64_t>(cpu(), TensorShape::scalar(), {10})},
                          {"shape_changed", floats({3}, {1, 1, 1})},
                          {"dtype_changed", *Tensor::fromVector<double>(cpu(), TensorShape({1}), {1})},
                          {"nan", floats({2}, {nan, 1})},
                          {"new", floats({1}, {6})}}));
        auto ra = CheckpointReader::open(a), rb = CheckpointReader::open(b);
        QVERIFY(ra && rb);
        auto d = checkpointDiff(*ra, *rb);
        QVERIFY2(d, d ? "" : d.error().toString().c_str());
        QCOMPARE(d->removed, std::vector<std::string>({"old"}));
        QCOMPARE(d->added, std::vector<std::string>({"new"}));
        QCOMPARE(d->common.size(), std::size_t(6));
        QVERIFY(!d->identical());

        const TensorChange* w = changeOf(*d, "w");
        QVERIFY(w && w->compared && w->changed());
        QCOMPARE(w->maxAbsDelta, 2.0);
        QCOMPARE(w->changedElements, std::int64_t(2));
        QCOMPARE(w->elements, std::int64_t(4));
        QVERIFY(std::abs(w->relativeChange - std::sqrt((0.25 + 4.0) / 30.0)) < 1e-12);
        const TensorChange* bias = changeOf(*d, "bias");
        QCOMPARE(bias->maxAbsDelta, 3.0);
        QVERIFY(std::isinf(bias->relativeChange)); // from zero
        const TensorChange* step = changeOf(*d, "step");
        QVERIFY(step->compared && !step->changed());
        QCOMPARE(step->maxAbsDelta, 0.0);
        QCOMPARE(step->relativeChange, 0.0);
        const TensorChange* shape = changeOf(*d, "shape_changed");
        QVERIFY(!shape->compared && shape->changed());
        QCOMPARE(shape->shapeBefore, std::string("[2]"));
        QCOMPARE(shape->shapeAfter, std::string("[3]"));
        const TensorChange* dtype = changeOf(*d, "dtype_changed");
        QVERIFY(!dtype->compared && dtype->changed());
        QCOMPARE(dtype->dtypeBefore, std::string("float"));
        QCOMPARE(dtype->dtypeAfter, std::string("double"));
        const TensorChange* nanChange = changeOf(*d, "nan");
        QVERIFY(!nanChange->changed()); // NaN on both sides counts as equal
    }

    void nanOnOneSideAndStrings()
    {
        QTemporaryDir tmp;
        const std::string a = tmp.filePath("a").toStdString(), b = tmp.filePath("b").toStdString();
        QVERIFY(write(a, {{"v", floats({2}, {1, 2})},
                          {"s", *Tensor::fromVector<std::string>(cpu(), TensorShape({2}), {"x", "y"})}}));
        QVERIFY(write(b, {{"v", floats({2}, {std::numeric_limits<float>::quiet_NaN(), 2})},
                          {"s", *Tensor::fromVector<std::string>(cpu(), TensorShape({2}), {"x", "z"})}}));
        auto ra = CheckpointReader::open(a), rb = CheckpointReader::open(b);
        auto d = checkpointDiff(*ra, *rb);
        QVERIFY(d);
        const TensorChange* v = changeOf(*d, "v");
        QVERIFY(std::isnan(v->maxAbsDelta));
        QCOMPARE(v->changedElements, std::int64_t(1));
        const TensorChange* s = changeOf(*d, "s");
        QVERIFY(s->compared && s->changed());
        QCOMPARE(s->changedElements, std::int64_t(1));
        QCOMPARE(s->maxAbsDelta, 1.0);

        auto same = checkpointDiff(*ra, *ra);
        QVERIFY(same && same->identical());
    }
};

QTEST_GUILESS_MAIN(TestCheckpointDiff)
#include "test_checkpoint_diff.moc"
