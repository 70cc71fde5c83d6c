// Tests for TensorSlice: NumPy's basic indexing against NumPy's own results (tools/golden/tensor_slice.py).
#include "debugger/tensor_slice.h"

#include "framework/resource_handle.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include "../../support/text_mutations.h"

#include <QTest>

#include <complex>
#include <functional>

using namespace tstudio;
using namespace tstudio::debugger;

namespace {

const QString kGoldenFile = QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/tensor_slice.json");

std::vector<std::int64_t> toDims(const QJsonArray& array)
{
    std::vector<std::int64_t> dims;
    for (const QJsonValue& v : array)
        dims.push_back(v.toInteger());
    return dims;
}

/// The value stored at row-major source position `i` for a test tensor of type T: distinct per
/// position, so a result's values tell which positions were picked.
template <typename T> T valueAt(std::int64_t i)
{
    if constexpr (std::is_same_v<T, std::string>)
        return "s" + std::to_string(i) + std::string(static_cast<std::size_t>(i % 23), 'x'); // some beyond SSO
    else if constexpr (std::is_same_v<T, bool>)
        return i % 3 == 1;
    else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
        return T(static_cast<typename T::value_type>(i), static_cast<typename T::value_type>(-2 * i));
    else if constexpr (std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
        return T(static_cast<float>(i % 200));
    else
        return static_cast<T>(i * 7 % 127);
}

/// Empty when slicing a tensor of T holding valueAt(position) gives `expected` positions in `shape`.
template <typename T>
QString checkDtype(const TensorShape& input, const TensorSlice& slice, const TensorShape& shape,
                   const std::vector<std::int64_t>& positions)
{
    CpuAllocator allocator;
    const std::int64_t n = *input.numElements();
    std::vector<T> values;
    for (std::int64_t i = 0; i < n; ++i)
        values.push_back(valueAt<T>(i));
    auto tensor = Tensor::fromVector(allocator, input, values);
    if (!tensor)
        return QString::fromStdString(tensor.error().toString());
    auto result = applyTensorSlice(*tensor, slice, allocator);
    if (!result)
        return QString::fromStdString(result.error().toString());
    if (result->dtype() != kDataTypeOf<T>)
        return QStringLiteral("dtype %1").arg(QString::fromStdString(dataTypeName(result->dtype())));
    if (!(result->shape() == shape))
        return QStringLiteral("shape %1, NumPy says %2")
            .arg(QString::fromStdString(result->shape().toString()), QString::fromStdString(shape.toString()));
    const auto got = result->template values<T>();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        if (!(got[i] == valueAt<T>(positions[i])))
            return QStringLiteral("%1: element %2 is not source position %3")
                .arg(QString::fromStdString(dataTypeName(kDataTypeOf<T>)))
                .arg(i)
                .arg(positions[i]);
    }
    return {};
}

QString errorText(const Status& status)
{
    return QString::fromStdString(status.message());
}

} // namespace

class TestTensorSlice : public QObject {
    Q_OBJECT
private slots:
    void matchesNumPy_data()
    {
        QTest::addColumn<QJsonObject>("testCase");
        QFile file(kGoldenFile);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).object().value("cases").toArray();
        QCOMPARE(cases.size(), 510);
        for (const QJsonValue& c : cases)
            QTest::newRow(qPrintable(c.toObject().value("name").toString())) << c.toObject();
    }
    void matchesNumPy()
    {
        QFETCH(QJsonObject, testCase);
        const std::string text = testCase.value("slice").toString().toStdString();
        const TensorShape input(toDims(testCase.value("input").toArray()));
        auto slice = parseTensorSlice(text);
        QVERIFY2(slice, slice ? "" : slice.error().toString().c_str());
        // The canonical text reads back as the same slice.
        auto reparsed = parseTensorSlice(formatTensorSlice(*slice));
        QVERIFY2(reparsed, qPrintable(QString::fromStdString(formatTensorSlice(*slice))));
        QVERIFY(*reparsed == *slice);

        auto shape = slicedShape(input, *slice);
        if (testCase.contains("error")) {
            // NumPy says "array"; a TensorStudio tensor is called a tensor.
            const QString numpyText = testCase.value("error").toString().replace("array", "tensor");
            QVERIFY2(!shape, "NumPy refuses this index");
            QCOMPARE(shape.error().code(), StatusCode::kInvalidArgument);
            QCOMPARE(errorText(shape.error()), numpyText);
            CpuAllocator allocator;
            auto tensor = Tensor::allocate(allocator, tensorflow::DT_FLOAT, input);
            QVERIFY(tensor);
            auto result = applyTensorSlice(*tensor, *slice, allocator);
            QVERIFY(!result);
            QCOMPARE(errorText(result.error()), numpyText);
            return;
        }
        QVERIFY2(shape, shape ? "" : shape.error().toString().c_str());
        const TensorShape expectedShape(toDims(testCase.value("output").toArray()));
        QCOMPARE(shape->toString(), expectedShape.toString());
        const std::vector<std::int64_t> positions = toDims(testCase.value("values").toArray());
        QCOMPARE(static_cast<std::int64_t>(positions.size()), *expectedShape.numElements());

        // The origin maps each result element back to the source position NumPy took it from.
        auto origin = sliceOrigin(input, *slice);
        QVERIFY2(origin, origin ? "" : origin.error().toString().c_str());
        QCOMPARE(static_cast<int>(origin->axes.size()), expectedShape.rank());
        QCOMPARE(static_cast<int>(origin->picked.size()), input.rank());
        std::vector<std::int64_t> at(static_cast<std::size_t>(expectedShape.rank()), 0);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            std::int64_t rest = static_cast<std::int64_t>(i);
            for (std::size_t a = at.size(); a-- > 0;) {
                at[a] = rest % expectedShape.dim(static_cast<int>(a));
                rest /= expectedShape.dim(static_cast<int>(a));
            }
            const std::vector<std::int64_t> source = origin->sourceIndex(at);
            std::int64_t flat = 0;
            for (int a = 0; a < input.rank(); ++a) {
                const std::int64_t p = source[static_cast<std::size_t>(a)];
                const QString where = QStringLiteral("element %1, axis %2: %3").arg(i).arg(a).arg(p);
                QVERIFY2(p >= 0 && p < input.dim(a), qPrintable(where));
                flat = flat * input.dim(a) + p;
            }
            QCOMPARE(flat, positions[i]);
        }

        // Every dtype: plain numbers of each width, bool, complex and strings.
        const QString failures[] = {
            checkDtype<float>(input, *slice, expectedShape, positions),
            checkDtype<double>(input, *slice, expectedShape, positions),
            checkDtype<Eigen::half>(input, *slice, expectedShape, positions),
            checkDtype<Eigen::bfloat16>(input, *slice, expectedShape, positions),
            checkDtype<std::int8_t>(input, *slice, expectedShape, positions),
            checkDtype<std::int16_t>(input, *slice, expectedShape, positions),
            checkDtype<std::int32_t>(input, *slice, expectedShape, positions),
            checkDtype<std::int64_t>(input, *slice, expectedShape, positions),
            checkDtype<std::uint8_t>(input, *slice, expectedShape, positions),
            checkDtype<std::uint16_t>(input, *slice, expectedShape, positions),
            checkDtype<std::uint32_t>(input, *slice, expectedShape, positions),
            checkDtype<std::uint64_t>(input, *slice, expectedShape, positions),
            checkDtype<bool>(input, *slice, expectedShape, positions),
            checkDtype<std::complex<float>>(input, *slice, expectedShape, positions),
            checkDtype<std::complex<double>>(input, *slice, expectedShape, positions),
            checkDtype<std::string>(input, *slice, expectedShape, positions),
        };
        for (const QString& failure : failures)
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    void quantizedAndResourceTensors()
    {
        CpuAllocator allocator;
        auto slice = parseTensorSlice("[::-2]");
        QVERIFY(slice);
        // Quantized dtypes are stored as integers of their width.
        auto q = Tensor::allocate(allocator, tensorflow::DT_QINT16, TensorShape{5});
        QVERIFY(q);
        auto raw = q->values<std::int16_t>();
        for (int i = 0; i < 5; ++i)
            raw[static_cast<std::size_t>(i)] = static_cast<std::int16_t>(1000 * i - 2000);
        auto qs = applyTensorSlice(*q, *slice, allocator);
        QVERIFY(qs);
        QCOMPARE(qs->dtype(), tensorflow::DT_QINT16);
        QCOMPARE(std::vector<std::int16_t>(qs->values<std::int16_t>().begin(), qs->values<std::int16_t>().end()),
                 (std::vector<std::int16_t>{2000, 0, -2000}));

        auto handles = Tensor::allocate(allocator, tensorflow::DT_RESOURCE, TensorShape{2, 2});
        QVERIFY(handles);
        for (int i = 0; i < 4; ++i)
            handles->values<ResourceHandle>()[static_cast<std::size_t>(i)].name = "var" + std::to_string(i);
        auto column = parseTensorSlice("[:, 1]");
        QVERIFY(column);
        auto hs = applyTensorSlice(*handles, *column, allocator);
        QVERIFY(hs);
        QCOMPARE(hs->shape().toString(), std::string("[2]"));
        QCOMPARE(hs->values<ResourceHandle>()[0].name, std::string("var1"));
        QCOMPARE(hs->values<ResourceHandle>()[1].name, std::string("var3"));
    }

    void resultIsACopy()
    {
        CpuAllocator allocator;
        auto tensor = Tensor::fromVector<float>(allocator, TensorShape{2, 2}, {1, 2, 3, 4});
        QVERIFY(tensor);
        auto whole = applyTensorSlice(*tensor, TensorSlice{}, allocator);
        QVERIFY(whole);
        QVERIFY(!whole->sharesBufferWith(*tensor));
        tensor->values<float>()[0] = 9;
        QCOMPARE(whole->values<float>()[0], 1.0f);
    }

    void uninitializedTensor()
    {
        CpuAllocator allocator;
        auto result = applyTensorSlice(Tensor::uninitialized(tensorflow::DT_FLOAT), TensorSlice{}, allocator);
        QVERIFY(!result);
        QCOMPARE(result.error().code(), StatusCode::kFailedPrecondition);
        QVERIFY(result.error().message().find("uninitialized") != std::string::npos);
    }

    void shapeNotFullyDefined()
    {
        auto shape = slicedShape(TensorShape::unknown(), TensorSlice{});
        QVERIFY(!shape);
        QCOMPARE(shape.error().code(), StatusCode::kInvalidArgument);
        shape = slicedShape(TensorShape{-1, 3}, TensorSlice{});
        QVERIFY(!shape);
        QCOMPARE(shape.error().code(), StatusCode::kInvalidArgument);
    }

    void parsesEveryForm()
    {
        auto s = parseTensorSlice(" [ 1 : -1 , ... , None, np.newaxis, numpy.newaxis, Ellipsis2 ] ");
        QVERIFY(!s); // "Ellipsis2" is a name, not an ellipsis
        s = parseTensorSlice(" [ 1 : -1 , ... , None, np.newaxis, -3, ::-2, 4:, :7, : ] ");
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QCOMPARE(s->items.size(), std::size_t(9));
        QCOMPARE(s->items[0].kind, SliceItem::Kind::kRange);
        QCOMPARE(*s->items[0].start, std::int64_t(1));
        QCOMPARE(*s->items[0].stop, std::int64_t(-1));
        QVERIFY(!s->items[0].step);
        QCOMPARE(s->items[1].kind, SliceItem::Kind::kEllipsis);
        QCOMPARE(s->items[2].kind, SliceItem::Kind::kNewAxis);
        QCOMPARE(s->items[3].kind, SliceItem::Kind::kNewAxis);
        QCOMPARE(s->items[4].kind, SliceItem::Kind::kIndex);
        QCOMPARE(s->items[4].index, std::int64_t(-3));
        QCOMPARE(*s->items[5].step, std::int64_t(-2));
        QVERIFY(!s->items[5].start && !s->items[5].stop);
        QCOMPARE(formatTensorSlice(*s), std::string("[1:-1, ..., None, None, -3, ::-2, 4:, :7, :]"));

        QVERIFY(parseTensorSlice("")->items.empty());
        QVERIFY(parseTensorSlice("   ")->items.empty());
        QVERIFY(parseTensorSlice("[]")->items.empty()); // NumPy's a[()]
        QCOMPARE(formatTensorSlice(TensorSlice{}), std::string());
        QCOMPARE(formatTensorSlice(*parseTensorSlice("[::5,:2]")), std::string("[::5, :2]"));
        QCOMPARE(formatTensorSlice(*parseTensorSlice("[::]")), std::string("[:]"));
        QCOMPARE(formatTensorSlice(*parseTensorSlice("[::1]")), std::string("[::1]"));
        QCOMPARE(formatTensorSlice(*parseTensorSlice("[- -3, +2, 00,]")), std::string("[3, 2, 0]"));
        QCOMPARE(formatTensorSlice(*parseTensorSlice("[Ellipsis]")), std::string("[...]"));
        QCOMPARE(formatTensorSlice(*parseTensorSlice("[\t0 ]")), std::string("[0]"));
        // Range ends beyond 64 bits clamp (as Python clamps them); an index that large is refused.
        auto huge = parseTensorSlice("[-99999999999999999999:99999999999999999999]");
        QVERIFY(huge);
        QCOMPARE(*huge->items[0].start, std::numeric_limits<std::int64_t>::min());
        QCOMPARE(*huge->items[0].stop, std::numeric_limits<std::int64_t>::max());
        QCOMPARE(parseTensorSlice("[-9223372036854775808]")->items[0].index, std::numeric_limits<std::int64_t>::min());
    }

    void parseErrorsNameTheColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QList<QPair<QString, QString>> cases = {
            {"[1:a]", "slice '[1:a]': expected an integer at column 4"},
            {"1:2", "slice '1:2': expected '[' at column 1"},
            {"[1:2", "slice '[1:2': expected ',' or ']' at column 5"},
            {"[1 2]", "slice '[1 2]': expected ',' or ']' at column 4"},
            {"[", "slice '[': expected an integer, a slice 'start:stop:step', '...' or None at column 2"},
            {"[,]", "slice '[,]': expected an integer, a slice 'start:stop:step', '...' or None at column 2"},
            {"[1,,2]", "slice '[1,,2]': expected an integer, a slice 'start:stop:step', '...' or None at column 4"},
            {"[::0]", "slice '[::0]': slice step cannot be zero at column 4"},
            {"[1:5: -0 ]", "slice '[1:5: -0 ]': slice step cannot be zero at column 7"},
            {"[..., 1, ...]", "slice '[..., 1, ...]': an index can only have a single ellipsis ('...') at column 10"},
            {"[1:2:3:4]", "slice '[1:2:3:4]': expected ',' or ']' at column 7"},
            {"[1.5]", "slice '[1.5]': expected an integer at column 2"},
            {"[1e3]", "slice '[1e3]': expected an integer at column 2"},
            {"[07]", "slice '[07]': leading zeros are not allowed in an integer at column 2"},
            {"[-]", "slice '[-]': expected an integer at column 3"},
            {"[Nonesuch]",
             "slice '[Nonesuch]': expected an integer, a slice 'start:stop:step', '...' or None at column 2"},
            {"[0] x", "slice '[0] x': expected nothing after ']' at column 5"},
            {"[0][1]", "slice '[0][1]': expected nothing after ']' at column 4"},
            {"[9223372036854775808]",
             "slice '[9223372036854775808]': the index does not fit in a 64-bit integer at column 2"},
            {"[:, x]", "slice '[:, x]': expected an integer, a slice 'start:stop:step', '...' or None at column 5"},
        };
        for (const auto& [text, message] : cases)
            QTest::newRow(qPrintable(text)) << text << message;
    }
    void parseErrorsNameTheColumn()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto slice = parseTensorSlice(text.toStdString());
        QVERIFY2(!slice, qPrintable(QString::fromStdString(formatTensorSlice(slice.value_or(TensorSlice{})))));
        QCOMPARE(slice.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(errorText(slice.error()), message);
    }

    void builtSlicesAreChecked()
    {
        // Slices made in code skip the parser; slicedShape still refuses what NumPy refuses.
        TensorSlice twoEllipses{{SliceItem{SliceItem::Kind::kEllipsis}, SliceItem{SliceItem::Kind::kEllipsis}}};
        auto shape = slicedShape(TensorShape{2}, twoEllipses);
        QVERIFY(!shape);
        QCOMPARE(errorText(shape.error()), QString("an index can only have a single ellipsis ('...')"));
        SliceItem zeroStep;
        zeroStep.step = 0;
        shape = slicedShape(TensorShape{2}, TensorSlice{{zeroStep}});
        QVERIFY(!shape);
        QCOMPARE(errorText(shape.error()), QString("slice step cannot be zero"));
    }

    void splitsExpressions()
    {
        QCOMPARE(splitTensorExpression("layer1/MatMul:0[::5, :2]"),
                 (std::pair<std::string, std::string>{"layer1/MatMul:0", "[::5, :2]"}));
        QCOMPARE(splitTensorExpression("hidden/Relu:0"), (std::pair<std::string, std::string>{"hidden/Relu:0", ""}));
        QCOMPARE(splitTensorExpression("a[0][1]"), (std::pair<std::string, std::string>{"a", "[0][1]"}));
        QCOMPARE(splitTensorExpression(""), (std::pair<std::string, std::string>{"", ""}));
    }

    void largeTensor()
    {
        // The inspector slices whole layers; a 1000x1000 float tensor must be quick (timing printed,
        // not asserted: timing targets belong in `tstudio bench`).
        CpuAllocator allocator;
        auto tensor = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape{1000, 1000});
        QVERIFY(tensor);
        auto values = tensor->values<float>();
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<float>(i);
        for (const char* text : {"[:, :]", "[::-1, ::-1]", "[::5, :2]", "[:, 3]", "[1:-1:3, None, ::-7]"}) {
            auto slice = parseTensorSlice(text);
            QVERIFY(slice);
            QElapsedTimer timer;
            timer.start();
            auto result = applyTensorSlice(*tensor, *slice, allocator);
            const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
            QVERIFY(result);
            qInfo("%s on [1000, 1000] float: %.2f ms", text, ms);
            if (std::string_view(text) == "[::-1, ::-1]") {
                QCOMPARE(result->values<float>()[0], 999999.0f);
                QCOMPARE(result->values<float>()[1000], 998999.0f);
            }
            if (std::string_view(text) == "[:, 3]")
                QCOMPARE(result->values<float>()[999], 999003.0f);
        }
    }

    void fuzzParser()
    {
        // Random texts over the slice alphabet (and some random bytes), half of them valid slices with a
        // few characters changed: each parses to a slice whose canonical text reads back the same, or
        // fails with InvalidArgument naming a column.
        QRandomGenerator random(20240812);
        const std::string alphabet = "[]:,.-+ 0123456789Nonenp.newaxisE\t";
        const std::string seeds[] = {"[::5, :2]", "[1:-1, ..., 0]", "[None, :, np.newaxis]", "[-3, 2:7:2, ...]",
                                     "[::-1, 0,]"};
        auto randomChar = [&] { return testing::randomTextChar(random, alphabet); };
        int parsed = 0, refused = 0;
        for (int i = 0; i < 5000; ++i) {
            std::string text;
            if (i % 2) {
                text = testing::mutatedText(random, seeds[random.bounded(5)], alphabet);
            } else {
                if (random.bounded(2))
                    text += '[';
                const int length = static_cast<int>(random.bounded(14));
                for (int j = 0; j < length; ++j)
                    text += randomChar();
                if (random.bounded(3))
                    text += ']';
            }
            auto slice = parseTensorSlice(text);
            if (slice) {
                ++parsed;
                auto again = parseTensorSlice(formatTensorSlice(*slice));
                QVERIFY2(again && *again == *slice, text.c_str());
                // Applying it to a small tensor gives a result or NumPy's index errors, never a crash.
                CpuAllocator allocator;
                auto tensor = Tensor::allocate(allocator, tensorflow::DT_INT32, TensorShape{3, 4});
                auto result = applyTensorSlice(*tensor, *slice, allocator);
                if (result)
                    QCOMPARE(result->shape(), *slicedShape(TensorShape{3, 4}, *slice));
                else
                    QCOMPARE(result.error().code(), StatusCode::kInvalidArgument);
            } else {
                ++refused;
                QCOMPARE(slice.error().code(), StatusCode::kInvalidArgument);
                QVERIFY2(slice.error().message().find(" at column ") != std::string::npos,
                         slice.error().message().c_str());
            }
        }
        qInfo("fuzz: %d parsed, %d refused", parsed, refused);
        QVERIFY(parsed > 300);
        QVERIFY(refused > 1000);
    }
};

QTEST_GUILESS_MAIN(TestTensorSlice)
#include "test_tensor_slice.moc"
