// Tests for ValueRanges: tfdbg's `pt -r` interval syntax and counts checked against NumPy one-liners.
#include "debugger/value_ranges.h"

#include <QRandomGenerator>
#include "../../support/text_mutations.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace tstudio;
using namespace tstudio::debugger;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T> std::int64_t count(const std::vector<T>& values, const char* ranges)
{
    CpuAllocator allocator;
    auto tensor = Tensor::fromVector(allocator, TensorShape{static_cast<std::int64_t>(values.size())}, values);
    auto parsed = parseValueRanges(ranges);
    if (!tensor || !parsed)
        return -1;
    auto n = countInRanges(*tensor, *parsed);
    return n ? *n : -2;
}

} // namespace

class TestValueRanges : public QObject {
    Q_OBJECT
private slots:
    void parsesOneIntervalOrAList()
    {
        auto one = parseValueRanges("[-inf, -1]");
        QVERIFY2(one, one ? "" : one.error().toString().c_str());
        QCOMPARE(one->ranges.size(), std::size_t(1));
        QCOMPARE(one->ranges[0].low, -kInf);
        QCOMPARE(one->ranges[0].high, -1.0);

        auto two = parseValueRanges(" [ [-inf,-1] , [ 1 , inf ] ] ");
        QVERIFY2(two, two ? "" : two.error().toString().c_str());
        QCOMPARE(two->ranges.size(), std::size_t(2));
        QCOMPARE(two->ranges[1].low, 1.0);
        QCOMPARE(two->ranges[1].high, kInf);

        // Python's float literals: float('.5'), float('1.'), float('-2.5e-3'), float('1E+2'), float('+ 3') is no
        // literal but Python's unary plus on 3; float('1e400') == inf, float('1e-400') == 0.0.
        auto numbers = parseValueRanges("[[.5, 1.], [-2.5e-3, 1E+2], [+ 3, 1e400], [-1e400, 1e-400], [00.25, 0.25]]");
        QVERIFY2(numbers, numbers ? "" : numbers.error().toString().c_str());
        QCOMPARE(numbers->ranges.size(), std::size_t(5));
        QCOMPARE(numbers->ranges[0].low, 0.5);
        QCOMPARE(numbers->ranges[0].high, 1.0);
        QCOMPARE(numbers->ranges[1].low, -2.5e-3);
        QCOMPARE(numbers->ranges[1].high, 100.0);
        QCOMPARE(numbers->ranges[2].low, 3.0);
        QCOMPARE(numbers->ranges[2].high, kInf);
        QCOMPARE(numbers->ranges[3].low, -kInf);
        QCOMPARE(numbers->ranges[3].high, 0.0);
        QCOMPARE(numbers->ranges[4].low, 0.25);

        // Trailing commas as in Python lists; a point interval; "" and "[]" are no ranges at all.
        QCOMPARE(parseValueRanges("[[1, 2,], [3, 3],]")->ranges.size(), std::size_t(2));
        QVERIFY(parseValueRanges("")->ranges.empty());
        QVERIFY(parseValueRanges("[ ]")->ranges.empty());
    }

    void formatsAsPythonWould()
    {
        QCOMPARE(formatValueRanges(*parseValueRanges("[[-inf,-1],[1,inf]]")), std::string("[[-inf, -1], [1, inf]]"));
        QCOMPARE(formatValueRanges(*parseValueRanges("[[-inf,-1]]")), std::string("[-inf, -1]"));
        // repr(0.1) == '0.1', repr(1e20) == '1e+20', repr(0.0001) == '0.0001', repr(1.5e-07) == '1.5e-07'
        QCOMPARE(formatValueRanges(*parseValueRanges("[0.1, 1e20]")), std::string("[0.1, 1e+20]"));
        QCOMPARE(formatValueRanges(*parseValueRanges("[1.5e-7, 0.0001]")), std::string("[1.5e-07, 0.0001]"));
        QCOMPARE(formatValueRanges(ValueRanges{}), std::string("[]"));
    }

    void errorsNameTheColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QList<QPair<QString, QString>> cases = {
            {"[3, 1]", "value ranges '[3, 1]': the interval's low end 3 is above its high end 1 at column 1"},
            {"[[0, 1], [inf, -inf]]", "value ranges '[[0, 1], [inf, -inf]]': the interval's low end inf is above its "
                                      "high end -inf at column 10"},
            {"-1, 1", "value ranges '-1, 1': expected '[' at column 1"},
            {"[1, a]", "value ranges '[1, a]': expected a number at column 5"},
            {"[1 2]", "value ranges '[1 2]': expected ',' between the two ends of an interval at column 4"},
            {"[1, 2, 3]", "value ranges '[1, 2, 3]': expected ']' after the two ends of an interval at column 8"},
            {"[1, 2", "value ranges '[1, 2': expected ']' after the two ends of an interval at column 6"},
            {"[nan, 1]", "value ranges '[nan, 1]': expected a number (NaN cannot bound an interval) at column 2"},
            {"[1e, 2]", "value ranges '[1e, 2]': expected a number at column 2"},
            {"[1.2.3, 4]", "value ranges '[1.2.3, 4]': expected a number at column 2"},
            {"[infinity, 1]", "value ranges '[infinity, 1]': expected a number at column 2"},
            {"[--1, 1]", "value ranges '[--1, 1]': expected a number at column 3"},
            {"[[0, 1] [2, 3]]", "value ranges '[[0, 1] [2, 3]]': expected ',' or ']' at column 9"},
            {"[[0, 1], 2]", "value ranges '[[0, 1], 2]': expected '[' to start an interval at column 10"},
            {"[1, [2, 3]]", "value ranges '[1, [2, 3]]': expected a number at column 5"},
            {"[0, 1] x", "value ranges '[0, 1] x': expected nothing after the closing ']' at column 8"},
            {"[", "value ranges '[': expected a number at column 2"},
        };
        for (const auto& [text, message] : cases)
            QTest::newRow(qPrintable(text)) << text << message;
    }
    void errorsNameTheColumn()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto ranges = parseValueRanges(text.toStdString());
        QVERIFY2(!ranges, qPrintable(QString::fromStdString(formatValueRanges(ranges.value_or(ValueRanges{})))));
        QCOMPARE(ranges.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(ranges.error().message()), message);
    }

    void containsIsClosedAndNeverNaN()
    {
        const ValueRanges r = *parseValueRanges("[[-inf, -1], [1, 2]]");
        QVERIFY(r.contains(-kInf));
        QVERIFY(r.contains(-1));
        QVERIFY(!r.contains(-0.999));
        QVERIFY(r.contains(1));
        QVERIFY(r.contains(2));
        QVERIFY(!r.contains(2.0000001));
        QVERIFY(!r.contains(kInf));
        QVERIFY(!r.contains(std::nan("")));
        QVERIFY(!parseValueRanges("[-inf, inf]")->contains(std::nan("")));
        QVERIFY(!ValueRanges{}.contains(0));
    }

    void countsMatchNumPy()
    {
        const float inf = std::numeric_limits<float>::infinity();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<float> a = {-inf, -3, -1, -0.5f, 0, 0.5f, 1, 2.5f, inf, nan};
        // a = np.array([-inf,-3,-1,-0.5,0,0.5,1,2.5,inf,nan], np.float32)
        // int((((a>=-inf)&(a<=-1))|((a>=1)&(a<=inf))).sum()) == 6
        QCOMPARE(count(a, "[[-inf, -1], [1, inf]]"), std::int64_t(6));
        // int(((a>=-0.5)&(a<=0.5)).sum()) == 3
        QCOMPARE(count(a, "[-0.5, 0.5]"), std::int64_t(3));
        // int(((a>=-inf)&(a<=inf)).sum()) == 9: NaN lies in no range
        QCOMPARE(count(a, "[-inf, inf]"), std::int64_t(9));

        // NumPy rounds the bound to the array's float type: a = np.array([0.1,0.2,0.3], np.float32);
        // int(((a>=0)&(a<=0.1)).sum()) == 1 and int(((a>=0.2)&(a<=0.3)).sum()) == 2 (float32(0.1) > 0.1).
        QCOMPARE(count(std::vector<float>{0.1f, 0.2f, 0.3f}, "[0, 0.1]"), std::int64_t(1));
        QCOMPARE(count(std::vector<float>{0.1f, 0.2f, 0.3f}, "[0.2, 0.3]"), std::int64_t(2));
        // b = np.array([0.1,0.2,0.3], np.float64); int(((b>=0)&(b<=0.1)).sum()) == 1
        QCOMPARE(count(std::vector<double>{0.1, 0.2, 0.3}, "[0, 0.1]"), std::int64_t(1));
        // h = np.linspace(-2,2,41).astype(np.float16); int(((h>=0.1)&(h<=0.3)).sum()) == 3
        std::vector<Eigen::half> h;
        for (int i = 0; i <= 40; ++i)
            h.push_back(Eigen::half(static_cast<float>(-2.0 + 4.0 * i / 40)));
        QCOMPARE(count(h, "[0.1, 0.3]"), std::int64_t(3));

        // b = np.arange(-50,50,dtype=np.int8);
        // int((((b>=-10)&(b<=-5))|((b>=3)&(b<=3))|((b>=40)&(b<=1e9))).sum()) == 17
        std::vector<std::int8_t> b;
        for (int i = -50; i < 50; ++i)
            b.push_back(static_cast<std::int8_t>(i));
        QCOMPARE(count(b, "[[-10, -5], [3, 3], [40, 1e9]]"), std::int64_t(17));
        // q = np.array([-3,-2,0,7,100], np.int16); int(((q>=-2.5)&(q<=7)).sum()) == 3
        QCOMPARE(count(std::vector<std::int16_t>{-3, -2, 0, 7, 100}, "[-2.5, 7]"), std::int64_t(3));
        // u = np.array([0,2**63,2**64-1], np.uint64); int(((u>=1e19)&(u<=inf)).sum()) == 1
        QCOMPARE(count(std::vector<std::uint64_t>{0, 1ull << 63, ~0ull}, "[1e19, inf]"), std::int64_t(1));
        // t = np.array([True,False,True,True]); int(((t>=0.5)&(t<=1)).sum()) == 3
        QCOMPARE(count(std::vector<bool>{true, false, true, true}, "[0.5, 1]"), std::int64_t(3));
        QCOMPARE(count(std::vector<float>{}, "[-inf, inf]"), std::int64_t(0));
    }

    void quantizedCountsItsStoredIntegers()
    {
        CpuAllocator allocator;
        auto q = Tensor::allocate(allocator, tensorflow::DT_QUINT8, TensorShape{4});
        QVERIFY(q);
        auto raw = q->values<std::uint8_t>();
        raw[0] = 0, raw[1] = 10, raw[2] = 200, raw[3] = 255;
        auto n = countInRanges(*q, *parseValueRanges("[10, 200]"));
        QVERIFY(n);
        QCOMPARE(*n, std::int64_t(2));
    }

    void refusesOtherDtypes()
    {
        CpuAllocator allocator;
        const ValueRanges all = *parseValueRanges("[-inf, inf]");
        for (DataType dtype :
             {tensorflow::DT_STRING, tensorflow::DT_COMPLEX64, tensorflow::DT_COMPLEX128, tensorflow::DT_RESOURCE}) {
            auto tensor = Tensor::allocate(allocator, dtype, TensorShape{2});
            QVERIFY(tensor);
            auto n = countInRanges(*tensor, all);
            QVERIFY(!n);
            QCOMPARE(n.error().code(), StatusCode::kInvalidArgument);
            QVERIFY2(n.error().message().find(dataTypeName(dtype)) != std::string::npos, n.error().message().c_str());
        }
        auto n = countInRanges(Tensor::uninitialized(tensorflow::DT_FLOAT), all);
        QVERIFY(!n);
        QCOMPARE(n.error().code(), StatusCode::kFailedPrecondition);
    }

    void fuzzParser()
    {
        // Random texts over the ranges alphabet (and some random bytes), half of them valid texts with a
        // few characters changed: each parses to ranges whose text reads back the same, or fails with
        // InvalidArgument naming a column.
        QRandomGenerator random(42);
        const std::string alphabet = "[[]], , -+.0123456789eEinfa \t";
        const std::string seeds[] = {"[-inf, -1]", "[[-inf, -1], [1, inf]]", "[[.5, 1.], [-2.5e-3, 1E+2],]",
                                     "[0, 1e308]", "[[1, 1], [2, 3], [4, 5]]"};
        auto randomChar = [&] { return testing::randomTextChar(random, alphabet); };
        int parsed = 0, refused = 0;
        for (int i = 0; i < 5000; ++i) {
            std::string text;
            if (i % 2) {
                text = testing::mutatedText(random, seeds[random.bounded(5)], alphabet);
            } else {
                const int length = static_cast<int>(random.bounded(16));
                if (random.bounded(4))
                    text += '[';
                for (int j = 0; j < length; ++j)
                    text += randomChar();
                if (random.bounded(2))
                    text += ']';
            }
            auto ranges = parseValueRanges(text);
            if (ranges) {
                ++parsed;
                for (const ValueRange& r : ranges->ranges)
                    QVERIFY2(r.low <= r.high, text.c_str());
                auto again = parseValueRanges(formatValueRanges(*ranges));
                QVERIFY2(again, formatValueRanges(*ranges).c_str());
                QCOMPARE(again->ranges.size(), ranges->ranges.size());
                for (std::size_t k = 0; k < ranges->ranges.size(); ++k) {
                    QCOMPARE(again->ranges[k].low, ranges->ranges[k].low);
                    QCOMPARE(again->ranges[k].high, ranges->ranges[k].high);
                }
            } else {
                ++refused;
                QCOMPARE(ranges.error().code(), StatusCode::kInvalidArgument);
                QVERIFY2(ranges.error().message().find(" at column ") != std::string::npos,
                         ranges.error().message().c_str());
            }
        }
        qInfo("fuzz: %d parsed, %d refused", parsed, refused);
        QVERIFY(parsed > 200);
        QVERIFY(refused > 1000);
    }
};

QTEST_GUILESS_MAIN(TestValueRanges)
#include "test_value_ranges.moc"
