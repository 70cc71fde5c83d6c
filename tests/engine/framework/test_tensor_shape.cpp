// Tests for TensorShape: TensorFlow's shape strings, proto bytes, element counts and the shape algebra.
#include "framework/tensor_shape.h"

#include "../../support/test_files.h"

#include <QTest>

#include <limits>

using namespace tstudio;
using tstudio::testing::fromHex;

namespace {

TensorShape parse(const std::string& hex)
{
    tensorflow::TensorShapeProto proto;
    if (!proto.ParseFromString(fromHex(hex)))
        qFatal("test data is not a TensorShapeProto");
    auto shape = TensorShape::fromProto(proto);
    if (!shape)
        qFatal("%s", shape.error().toString().c_str());
    return *shape;
}

Status parseError(const std::string& hex)
{
    tensorflow::TensorShapeProto proto;
    if (!proto.ParseFromString(fromHex(hex)))
        qFatal("test data is not a TensorShapeProto");
    auto shape = TensorShape::fromProto(proto);
    return shape ? Status::ok() : shape.error();
}

QString str(const TensorShape& s)
{
    return QString::fromStdString(s.toString());
}

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

} // namespace

class TestTensorShape : public QObject {
    Q_OBJECT
private slots:
    void tensorflowSpelling()
    {
        QCOMPARE(str(TensorShape{2, -1, 3}), QString("[2,?,3]"));
        QCOMPARE(str(TensorShape::scalar()), QString("[]"));
        QCOMPARE(str(TensorShape::unknown()), QString("<unknown>"));
        QCOMPARE(str(TensorShape{0}), QString("[0]"));
        QCOMPARE(str(TensorShape::unknownDims(2)), QString("[?,?]"));
        // As PartialTensorShape, a default shape knows nothing, braces included.
        QCOMPARE(str(TensorShape()), QString("<unknown>"));
        QCOMPARE(str(TensorShape{}), QString("<unknown>"));
    }

    void rankAndDims()
    {
        const TensorShape s{4, -1, 7};
        QCOMPARE(s.rank(), 3);
        QCOMPARE(s.dim(0), std::int64_t(4));
        QCOMPARE(s.dim(1), TensorShape::kUnknownDim);
        QCOMPARE(s.dims().size(), std::size_t(3));
        QVERIFY(!s.isFullyDefined());
        QVERIFY(!s.isUnknownRank());
        QCOMPARE(TensorShape::unknown().rank(), -1);
        QVERIFY(TensorShape::unknown().isUnknownRank());
        QVERIFY(!TensorShape::unknown().isFullyDefined());
        QCOMPARE(TensorShape::scalar().rank(), 0);
        QVERIFY(TensorShape::scalar().isFullyDefined());
        // Sizes below -1 cannot be stored: the constructors make them unknown.
        QCOMPARE(str(TensorShape{3, -7}), QString("[3,?]"));
    }

    void numElements()
    {
        QCOMPARE(TensorShape({2, 3, 4}).numElements().value_or(-99), std::int64_t(24));
        QCOMPARE(TensorShape::scalar().numElements().value_or(-99), std::int64_t(1));
        QCOMPARE(TensorShape({5, 0, 3}).numElements().value_or(-99), std::int64_t(0));
        // A zero makes even an enormous product 0.
        QCOMPARE(TensorShape({kMax, kMax, 0}).numElements().value_or(-99), std::int64_t(0));
        QCOMPARE(TensorShape({kMax}).numElements().value_or(-99), kMax);
        QCOMPARE(TensorShape({kMax, 1}).numElements().value_or(-99), kMax);
        // 2^31 x 2^31 = 2^62 fits; 2^32 x 2^31 = 2^63 does not.
        QCOMPARE(TensorShape({std::int64_t(1) << 31, std::int64_t(1) << 31}).numElements().value_or(-99),
                 std::int64_t(1) << 62);
        auto overflow = TensorShape({std::int64_t(1) << 32, std::int64_t(1) << 31}).numElements();
        QVERIFY(!overflow);
        QCOMPARE(overflow.error().code(), StatusCode::kInvalidArgument);
    }

    void numElementsErrors()
    {
        auto huge = TensorShape({1000000000000, 1000000000000}).numElements();
        QVERIFY(!huge);
        QCOMPARE(huge.error().code(), StatusCode::kInvalidArgument);
        QVERIFY(huge.error().message().starts_with("shape [1000000000000,1000000000000] has too many elements"));
        QVERIFY(!TensorShape({kMax, 2}).numElements());

        auto partial = TensorShape({2, -1}).numElements();
        QVERIFY(!partial);
        QCOMPARE(partial.error(), invalidArgumentError("shape [2,?] is not fully defined"));
        QCOMPARE(TensorShape::unknown().numElements().error(),
                 invalidArgumentError("shape <unknown> is not fully defined"));
    }

    void fromProtoBytes()
    {
        // TensorShapeProto: field 2 (dim) is tag 12, Dim.size is field 1 (tag 08); -1 is the
        // 10-byte varint ff..01 (formats.md §0, verified there on a real file).
        QCOMPARE(str(parse("12 02 08 02  12 0b 08 ff ff ff ff ff ff ff ff ff 01  12 02 08 03")), QString("[2,?,3]"));
        QCOMPARE(str(parse("")), QString("[]"));
        QCOMPARE(str(parse("18 01")), QString("<unknown>"));  // unknown_rank = true
        // A dim with size 0 is an empty Dim message; names are ignored.
        QCOMPARE(str(parse("12 00  12 05 08 04 12 01 78")), QString("[0,4]"));
    }

    void toProtoBytes()
    {
        QCOMPARE(TensorShape({2, -1, 3}).toProto().SerializeAsString(),
                 fromHex("12 02 08 02  12 0b 08 ff ff ff ff ff ff ff ff ff 01  12 02 08 03"));
        QCOMPARE(TensorShape::unknown().toProto().SerializeAsString(), fromHex("18 01"));
        QCOMPARE(TensorShape::scalar().toProto().SerializeAsString(), std::string());
        QCOMPARE(TensorShape({1000000000}).toProto().SerializeAsString(), fromHex("12 06 08 80 94 eb dc 03"));
    }

    void fromProtoRejectsBadShapes()
    {
        // Dim size -2.
        Status s = parseError("12 02 08 02  12 0b 08 fe ff ff ff ff ff ff ff ff 01");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(), std::string("TensorShapeProto [2,-2] has dimension 1 of size -2; "
                                          "sizes must be >= 0, or -1 for unknown"));
        // unknown_rank together with a dimension.
        s = parseError("12 02 08 02  18 01");
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY(s.message().find("unknown_rank") != std::string::npos);
        // 255 dimensions: one more than TensorFlow allows.
        tensorflow::TensorShapeProto deep;
        for (int i = 0; i < 255; ++i)
            deep.add_dim()->set_size(1);
        QVERIFY(!TensorShape::fromProto(deep));
        deep.mutable_dim()->RemoveLast();
        QCOMPARE(TensorShape::fromProto(deep).value_or(TensorShape()).rank(), 254);
    }

    void fromDimsValidates()
    {
        const std::vector<std::int64_t> good{3, -1};
        QCOMPARE(str(TensorShape::fromDims(good).value_or(TensorShape())), QString("[3,?]"));
        const std::vector<std::int64_t> bad{3, -5};
        auto shape = TensorShape::fromDims(bad);
        QVERIFY(!shape);
        QCOMPARE(shape.error().code(), StatusCode::kInvalidArgument);
    }

    void compatibility_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("compatible");
        QTest::newRow("unknown dim") << "2,?,3" << "2,4,3" << true;
        QTest::newRow("rank differs") << "2,?,3" << "2,4" << false;
        QTest::newRow("dim differs") << "2,3" << "2,4" << false;
        QTest::newRow("unknown rank") << "unknown" << "2,4" << true;
        QTest::newRow("both unknown rank") << "unknown" << "unknown" << true;
        QTest::newRow("scalars") << "" << "" << true;
        QTest::newRow("scalar vs vector") << "" << "1" << false;
    }

    void compatibility()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, compatible);
        const TensorShape sa = shapeOf(a);
        const TensorShape sb = shapeOf(b);
        QCOMPARE(sa.isCompatibleWith(sb), compatible);
        QCOMPARE(sb.isCompatibleWith(sa), compatible);
        QCOMPARE(bool(sa.merge(sb)), compatible);
    }

    void merge()
    {
        QCOMPARE(str(TensorShape({2, -1}).merge(TensorShape{-1, 3}).value_or(TensorShape())), QString("[2,3]"));
        QCOMPARE(str(TensorShape::unknown().merge(TensorShape{1}).value_or(TensorShape())), QString("[1]"));
        QCOMPARE(str(TensorShape({1, -1}).merge(TensorShape::unknown()).value_or(TensorShape())), QString("[1,?]"));
        // TensorFlow's messages (InferenceContext::Merge).
        auto dims = TensorShape({2, 3}).merge(TensorShape{2, 4});
        QCOMPARE(dims.error(), invalidArgumentError("Dimension 1 in both shapes must be equal, but are 3 and 4. "
                                                    "Shapes are [2,3] and [2,4]."));
        auto ranks = TensorShape({2, 3}).merge(TensorShape{2, 3, 1});
        QCOMPARE(ranks.error(), invalidArgumentError("Shapes must be equal rank, but are 2 and 3"));
    }

    void concatenate()
    {
        QCOMPARE(str(TensorShape{2}.concatenate(TensorShape{3, -1})), QString("[2,3,?]"));
        QCOMPARE(str(TensorShape{2}.concatenate(TensorShape::unknown())), QString("<unknown>"));
        QCOMPARE(str(TensorShape::scalar().concatenate(TensorShape::scalar())), QString("[]"));
    }

    void equalityIsIdentity()
    {
        QVERIFY(TensorShape({2, -1}) == TensorShape({2, -1}));
        QVERIFY(TensorShape({2, -1}) != TensorShape({2, 3}));
        QVERIFY(TensorShape::unknown() != TensorShape::scalar());
        QVERIFY(TensorShape::unknown() == TensorShape());
        QVERIFY(TensorShape{1} != TensorShape({1, 1}));
    }

    /// Ranks up to InlineDims::kInline live in the shape, larger ones on the heap: copies, moves,
    /// assignments between the two kinds and self-assignment keep every dimension.
    void inlineAndHeapDimensions()
    {
        std::vector<std::int64_t> small = {2, 3, 4}, large;
        for (int i = 0; i < 11; ++i)
            large.push_back(i + 1);
        const TensorShape a(small), b(large);
        QCOMPARE(b.rank(), 11);
        QCOMPARE(str(b), QString("[1,2,3,4,5,6,7,8,9,10,11]"));
        TensorShape c = b; // heap copy
        QVERIFY(c == b);
        TensorShape d = std::move(c); // heap move
        QVERIFY(d == b);
        d = a; // heap -> inline
        QVERIFY(d == a);
        QCOMPARE(d.rank(), 3);
        d = b; // inline -> heap
        QVERIFY(d == b);
        const TensorShape& alias = d;
        d = alias; // self-assignment
        QVERIFY(d == b);
        TensorShape e = a;
        TensorShape f = std::move(e); // inline move
        QVERIFY(f == a);
        QCOMPARE(TensorShape::unknownDims(9).toString(), std::string("[?,?,?,?,?,?,?,?,?]"));
        QCOMPARE(TensorShape{7}.concatenate(b).rank(), 12);
        std::vector<std::int64_t> seven = {1, 2, 3, 4, 5, 6, 7}, eight = {1, 2, 3, 4, 5, 6, 7, 8};
        const TensorShape sevenDims(seven), eightDims(eight);
        TensorShape g = eightDims;
        g = sevenDims; // copied into the heap block that fits
        QCOMPARE(str(g), QString("[1,2,3,4,5,6,7]"));
        g = eightDims; // larger than the kept size: a new block
        QCOMPARE(str(g), QString("[1,2,3,4,5,6,7,8]"));
        g = a;
        QCOMPARE(str(g), QString("[2,3,4]"));
        QVERIFY(TensorShape(seven) != TensorShape(eight));
    }

private:
    static TensorShape shapeOf(const QString& text)
    {
        if (text == "unknown")
            return TensorShape::unknown();
        std::vector<std::int64_t> dims;
        for (const QString& part : text.split(',', Qt::SkipEmptyParts))
            dims.push_back(part == "?" ? -1 : part.toLongLong());
        return TensorShape(dims);
    }
};

QTEST_GUILESS_MAIN(TestTensorShape)
#include "test_tensor_shape.moc"
