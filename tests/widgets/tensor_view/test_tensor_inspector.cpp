// Tests for the debugger's tensor inspector: NumPy's element text and histogram counts (golden values from
// tools/golden/tensor_inspector.py), health numbers, tabs enabled per rank and dtype, slicing, highlighting,
// heat map, images, .npy round trip, watched history, and an offscreen PNG when TSTUDIO_INSPECTOR_PNG is set.
#include "tensor_view/tensor_heat_map.h"
#include "tensor_view/tensor_histogram_chart.h"
#include "tensor_view/tensor_image_grid.h"
#include "tensor_view/tensor_inspector.h"
#include "tensor_view/tensor_real_values.h"
#include "tensor_view/tensor_table_model.h"
#include "tensor_view/tensor_value_text.h"
#include "tensor_view/value_histogram.h"

#include "framework/allocator.h"
#include "io/npy.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>

using namespace tstudio;
using namespace tstudio::debugger_ui;
using View = TensorInspector::View;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

QJsonObject golden()
{
    QFile file(QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/tensor_inspector.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

double jsonNumber(const QJsonValue& v)
{
    if (v.isString()) {
        const QString s = v.toString();
        if (s == "-0.0") // QJson reads the number -0.0 as 0
            return -0.0;
        return s == "nan" ? kNaN : s == "inf" ? kInf : -kInf;
    }
    return v.toDouble();
}

template <typename T>
Tensor make(Allocator& allocator, TensorShape shape, std::vector<T> values)
{
    auto t = Tensor::fromVector<T>(allocator, shape, values);
    if (!t)
        qFatal("cannot make a test tensor: %s", t.error().message().c_str());
    return *t;
}

QString healthText(const TensorInspector& inspector, const char* field)
{
    auto* label = inspector.findChild<QLabel*>(field);
    return label ? label->text() : QStringLiteral("<missing %1>").arg(field);
}

/// The row-major element at a table cell of the inspector's current table, as a double.
double cellValue(const TensorTableModel* model, int row, int column)
{
    return elementAsDouble(model->tensor(), model->flatIndex(row, column)).value_or(-12345);
}

} // namespace

class TestTensorInspector : public QObject {
    Q_OBJECT

    CpuAllocator m_allocator;

private slots:
    void elementTextMatchesNumpy()
    {
        const QJsonObject g = golden();
        if (g.isEmpty())
            QFAIL("tests/data/golden/tensor_inspector.json is missing (run tools/golden/tensor_inspector.py)");
        int checked = 0;
        for (const QJsonValue& item : g["element_text"].toArray()) {
            const QJsonObject c = item.toObject();
            const QString dtype = c["dtype"].toString();
            const QJsonValue v = c["value"];
            Tensor t;
            const auto scalar = TensorShape::scalar();
            if (dtype == "float16")
                t = make<Eigen::half>(m_allocator, scalar, {Eigen::half(static_cast<float>(jsonNumber(v)))});
            else if (dtype == "float32")
                t = make<float>(m_allocator, scalar, {static_cast<float>(jsonNumber(v))});
            else if (dtype == "float64")
                t = make<double>(m_allocator, scalar, {jsonNumber(v)});
            else if (dtype == "complex64")
                t = make<std::complex<float>>(m_allocator, scalar,
                                              {{static_cast<float>(jsonNumber(v.toArray()[0])),
                                                static_cast<float>(jsonNumber(v.toArray()[1]))}});
            else if (dtype == "complex128")
                t = make<std::complex<double>>(m_allocator, scalar,
                                               {{jsonNumber(v.toArray()[0]), jsonNumber(v.toArray()[1])}});
            else if (dtype == "bool")
                t = make<bool>(m_allocator, scalar, {v.toBool()});
            else if (dtype == "int8")
                t = make<std::int8_t>(m_allocator, scalar, {static_cast<std::int8_t>(v.toInteger())});
            else if (dtype == "uint8")
                t = make<std::uint8_t>(m_allocator, scalar, {static_cast<std::uint8_t>(v.toInteger())});
            else if (dtype == "int16")
                t = make<std::int16_t>(m_allocator, scalar, {static_cast<std::int16_t>(v.toInteger())});
            else if (dtype == "uint16")
                t = make<std::uint16_t>(m_allocator, scalar, {static_cast<std::uint16_t>(v.toInteger())});
            else if (dtype == "int32")
                t = make<std::int32_t>(m_allocator, scalar, {static_cast<std::int32_t>(v.toInteger())});
            else if (dtype == "uint32")
                t = make<std::uint32_t>(m_allocator, scalar, {static_cast<std::uint32_t>(v.toInteger())});
            else if (dtype == "int64")
                t = make<std::int64_t>(m_allocator, scalar, {static_cast<std::int64_t>(v.toInteger())});
            else if (dtype == "uint64") // beyond qint64: JSON gives a double; 2^64 - 1 is the only case
                t = make<std::uint64_t>(m_allocator, scalar, {std::numeric_limits<std::uint64_t>::max()});
            else if (dtype == "bytes")
                t = make<std::string>(m_allocator, scalar, {QByteArray::fromHex(v.toString().toLatin1()).toStdString()});
            else
                QFAIL(qPrintable("unexpected golden dtype " + dtype));
            QCOMPARE(formatElement(t, 0) + "  (" + dtype + ")", c["text"].toString() + "  (" + dtype + ")");
            ++checked;
        }
        QVERIFY(checked > 300);
    }

    void bfloat16TextRoundTrips()
    {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> exponent(-20, 20);
        for (int i = 0; i < 2000; ++i) {
            const Eigen::bfloat16 v(std::pow(10.0f, exponent(rng)) * (i % 3 ? 1.0f : -1.0f));
            const QString text = formatBFloat16(v);
            QCOMPARE(static_cast<float>(Eigen::bfloat16(text.toFloat())), static_cast<float>(v));
            // Short: bfloat16's 8 significant bits never need more than 4 significant decimal digits.
            QString digits = QString(text).remove('-').section('e', 0, 0).remove('.');
            while (digits.startsWith('0'))
                digits.remove(0, 1);
            while (digits.endsWith('0'))
                digits.chop(1);
            QVERIFY2(digits.size() <= 4, qPrintable(text));
        }
        QCOMPARE(formatBFloat16(Eigen::bfloat16(1.0f)), QString("1.0"));
        QCOMPARE(formatBFloat16(Eigen::bfloat16(-kInf)), QString("-inf"));
    }

    void histogramCountsMatchNumpy()
    {
        const QJsonObject g = golden();
        if (g.isEmpty())
            QFAIL("tests/data/golden/tensor_inspector.json is missing (run tools/golden/tensor_inspector.py)");
        for (const QJsonValue& item : g["histograms"].toArray()) {
            const QJsonObject c = item.toObject();
            const QString dtype = c["dtype"].toString();
            std::vector<double> values;
            for (const QJsonValue& v : c["values"].toArray())
                values.push_back(v.isBool() ? (v.toBool() ? 1.0 : 0.0) : jsonNumber(v));
            const bool integral = dtype.startsWith("int") || dtype.startsWith("uint") || dtype == "bool";
            const ValueHistogram h = computeValueHistogram(values, integral);
            const QJsonArray counts = c["counts"].toArray();
            QVERIFY2(h.bins.size() == static_cast<std::size_t>(counts.size()), qPrintable(c["name"].toString()));
            for (int i = 0; i < counts.size(); ++i)
                QVERIFY2(h.bins[static_cast<std::size_t>(i)].y == counts[i].toDouble(),
                         qPrintable(QString("%1 bin %2").arg(c["name"].toString()).arg(i)));
            QCOMPARE(h.left, c["left"].toDouble());
            QCOMPARE(h.right, c["right"].toDouble());
        }
    }

    void floatTensorHealthAndTabs()
    {
        // 3 x 4: two NaN, one -inf, one +inf, two zeros, finite values -2, -1, 1, 2, 3, 5.
        const Tensor t = make<float>(m_allocator, {3, 4},
                                     {-2, -1, 0, 0, 1, 2, 3, 5, float(kNaN), float(kNaN), float(-kInf), float(kInf)});
        TensorInspector inspector;
        QVERIFY(!inspector.hasTensor());
        inspector.setTensor("layer1/MatMul:0", t);
        QVERIFY(inspector.hasTensor());
        QCOMPARE(inspector.findChild<QLabel*>("tensorName")->text(), QString("layer1/MatMul:0"));
        const QString facts = inspector.findChild<QLabel*>("tensorFacts")->text();
        QVERIFY2(facts.contains("float32") && facts.contains("[3,4]") && facts.contains("12 element") &&
                     facts.contains("48 B"),
                 qPrintable(facts));
        QCOMPARE(healthText(inspector, "healthNaN"), QString("2"));
        QCOMPARE(healthText(inspector, "healthNegInf"), QString("1"));
        QCOMPARE(healthText(inspector, "healthNegative"), QString("2"));
        QCOMPARE(healthText(inspector, "healthZero"), QString("2"));
        QCOMPARE(healthText(inspector, "healthPositive"), QString("4"));
        QCOMPARE(healthText(inspector, "healthPosInf"), QString("1"));
        QCOMPARE(healthText(inspector, "healthMin"), QString("-2.0"));
        QCOMPARE(healthText(inspector, "healthMax"), QString("5.0"));
        // Finite values -2 -1 0 0 1 2 3 5: mean 1, population variance (9+4+1+1+0+1+4+16)/8 = 4.5.
        QCOMPARE(healthText(inspector, "healthMean"), QString("1"));
        QCOMPARE(healthText(inspector, "healthStd"), QString::number(std::sqrt(4.5), 'g', 6));

        QVERIFY(inspector.isViewEnabled(View::Table));
        QVERIFY(inspector.isViewEnabled(View::Histogram));
        QVERIFY(inspector.isViewEnabled(View::HeatMap));
        QVERIFY(!inspector.isViewEnabled(View::Images));
        QVERIFY(inspector.viewDisabledReason(View::Images).contains("[3,4]"));
        QVERIFY(!inspector.isViewEnabled(View::History));
        QVERIFY(inspector.viewDisabledReason(View::History).contains("Watch"));

        const TensorTableModel* model = inspector.tableModel();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->columnCount(), 4);
        QCOMPARE(model->data(model->index(0, 0)).toString(), QString("-2.0"));
        QCOMPARE(model->data(model->index(2, 0)).toString(), QString("nan"));
        QCOMPARE(model->data(model->index(2, 2)).toString(), QString("-inf"));
        QCOMPARE(model->cellState(2, 1), TensorTableModel::CellState::kNaN);
        QCOMPARE(model->cellState(2, 3), TensorTableModel::CellState::kInfinite);
        QCOMPARE(model->cellState(1, 1), TensorTableModel::CellState::kNormal);
        QCOMPARE(model->data(model->index(1, 2), Qt::ToolTipRole).toString(), QString("[1, 2] = 3.0"));

        // The histogram leaves out the four non-finite values.
        QCOMPARE(inspector.histogramChart()->histogram().finiteCount, 8);
        QCOMPARE(inspector.histogramChart()->histogram().nonFiniteCount, 4);

        // A later run of the same tensor keeps the slice; the inspector holds its own copy.
        QVERIFY(inspector.setSlice("[1:]"));
        const Tensor next = make<float>(m_allocator, {3, 4}, std::vector<float>(12, 7.0f));
        inspector.setTensor("layer1/MatMul:0", next);
        QCOMPARE(inspector.slice(), QString("[1:]"));
        QCOMPARE(inspector.tableModel()->rowCount(), 2);
        QVERIFY(!inspector.shownTensor().sharesBufferWith(next));
        QCOMPARE(healthText(inspector, "healthPositive"), QString("12"));
        // Another tensor starts without the slice.
        inspector.setTensor("other:0", next);
        QCOMPARE(inspector.slice(), QString());
        QCOMPARE(inspector.tableModel()->rowCount(), 3);

        inspector.clear();
        QVERIFY(!inspector.hasTensor());
        QCOMPARE(inspector.tableModel()->rowCount(), 0);
    }

    void intBoolStringAndUninitialized()
    {
        TensorInspector inspector;
        inspector.setTensor("labels:0", make<std::int32_t>(m_allocator, {6}, {3, 1, 4, 1, 5, -9}));
        QCOMPARE(inspector.tableModel()->rowCount(), 6);
        QCOMPARE(inspector.tableModel()->columnCount(), 1);
        QCOMPARE(inspector.tableModel()->data(inspector.tableModel()->index(5, 0)).toString(), QString("-9"));
        QCOMPARE(healthText(inspector, "healthMin"), QString("-9"));
        QCOMPARE(healthText(inspector, "healthMax"), QString("5"));
        QVERIFY(inspector.isViewEnabled(View::Histogram));
        QVERIFY(inspector.histogramChart()->histogram().binPerInteger);
        QCOMPARE(inspector.histogramChart()->histogram().bins.size(), std::size_t(15)); // -9 .. 5
        QVERIFY(!inspector.isViewEnabled(View::HeatMap));
        QVERIFY(inspector.viewDisabledReason(View::HeatMap).contains("1-D"));

        inspector.setTensor("mask:0", make<bool>(m_allocator, {2, 3}, {true, false, true, true, false, false}));
        QCOMPARE(healthText(inspector, "healthZero"), QString("3"));
        QCOMPARE(healthText(inspector, "healthPositive"), QString("3"));
        QCOMPARE(inspector.tableModel()->data(inspector.tableModel()->index(0, 0)).toString(), QString("True"));
        QVERIFY(inspector.isViewEnabled(View::HeatMap));
        QCOMPARE(inspector.histogramChart()->histogram().bins.size(), std::size_t(2));

        inspector.setTensor("names:0", make<std::string>(m_allocator, {2}, {"cat", "it's"}));
        QCOMPARE(inspector.tableModel()->data(inspector.tableModel()->index(1, 0)).toString(), QString("b\"it's\""));
        QVERIFY(inspector.isViewEnabled(View::Table));
        for (View v : {View::Histogram, View::HeatMap, View::Images, View::History}) {
            QVERIFY(!inspector.isViewEnabled(v));
            QVERIFY(inspector.viewDisabledReason(v).contains("string"));
        }
        QVERIFY(inspector.view() == View::Table);
        auto* note = inspector.findChild<QLabel*>("healthNote");
        QVERIFY(!note->isHidden());
        QVERIFY(note->text().contains("string"));
        QVERIFY(!inspector.setHighlightRanges("[0, 1]"));
        QVERIFY(inspector.message().contains("string"));
        QTemporaryDir dir;
        QString error;
        QVERIFY(!inspector.saveNpy(dir.filePath("names.npy"), &error));
        QVERIFY(error.contains("string"));
        QVERIFY(!QFile::exists(dir.filePath("names.npy")));

        inspector.setTensor("v:0", Tensor::uninitialized(tensorflow::DT_FLOAT));
        for (View v : {View::Table, View::Histogram, View::HeatMap, View::Images, View::History})
            QVERIFY(!inspector.isViewEnabled(v));
        QVERIFY(inspector.findChild<QLabel*>("tensorFacts")->text().contains("uninitialized"));
        QCOMPARE(inspector.tableModel()->rowCount(), 0);
    }

    void slicingChangesTheTable()
    {
        std::vector<float> values(6 * 8);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<float>(i);
        TensorInspector inspector;
        inspector.setTensor("w:0", make<float>(m_allocator, {6, 8}, values));
        const TensorTableModel* model = inspector.tableModel();
        QCOMPARE(model->rowCount(), 6);
        QCOMPARE(model->columnCount(), 8);
        QVERIFY(inspector.setSlice("[::5, :2]"));
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->columnCount(), 2);
        QCOMPARE(cellValue(model, 1, 1), 41.0); // element [5, 1]
        QVERIFY(inspector.findChild<QLineEdit*>("sliceEdit")->text() == "[::5, :2]");
        QVERIFY(inspector.setSlice("[-1]"));
        QCOMPARE(model->rowCount(), 8);
        QCOMPARE(model->columnCount(), 1);
        QCOMPARE(cellValue(model, 7, 0), 47.0);
        QVERIFY(!inspector.isViewEnabled(View::HeatMap));

        // Errors leave the previous slice in place and say why.
        QVERIFY(!inspector.setSlice("[1:a]"));
        QVERIFY(!inspector.message().isEmpty());
        QCOMPARE(inspector.slice(), QString("[-1]"));
        QCOMPARE(model->rowCount(), 8);
        QVERIFY(!inspector.setSlice("[7]"));
        QVERIFY2(inspector.message().contains("out of bounds"), qPrintable(inspector.message()));
        QVERIFY(!inspector.setSlice("[0, 0, 0]"));
        QVERIFY(inspector.setSlice(""));
        QCOMPARE(model->rowCount(), 6);
        QVERIFY(inspector.message().isEmpty());

        // Rank 4: rows are the leading indices, the last axis the columns; slices pick 2-D views.
        std::vector<float> images(2 * 3 * 4 * 5);
        for (std::size_t i = 0; i < images.size(); ++i)
            images[i] = static_cast<float>(i) * 0.5f;
        inspector.setTensor("conv:0", make<float>(m_allocator, {2, 3, 4, 5}, images));
        QCOMPARE(model->rowCount(), 24);
        QCOMPARE(model->columnCount(), 5);
        QCOMPARE(model->headerData(23, Qt::Vertical).toString(), QString("[1, 2, 3]"));
        QCOMPARE(model->indexText(23, 4), QString("[1, 2, 3, 4]"));
        QVERIFY(!inspector.isViewEnabled(View::HeatMap));
        QVERIFY(inspector.setSlice("[1, ..., 2]"));
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->columnCount(), 4);
        QVERIFY(inspector.isViewEnabled(View::HeatMap));
        QCOMPARE(inspector.heatMap()->image().size(), QSize(4, 3));
        QCOMPARE(cellValue(model, 2, 3), static_cast<double>(((1 * 3 + 2) * 4 + 3) * 5 + 2) * 0.5);
        // The headers and a cell's index name source positions, not the slice's own.
        QCOMPARE(model->headerData(2, Qt::Vertical).toString(), QString("2"));
        QCOMPARE(model->indexText(2, 3), QString("[1, 2, 3, 2]"));
        QVERIFY(inspector.setSlice("[:, 1:, ::-2, 1::3]"));
        QCOMPARE(model->rowCount(), 2 * 2 * 2);
        QCOMPARE(model->columnCount(), 2);
        QCOMPARE(model->headerData(0, Qt::Horizontal).toString(), QString("1"));
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QString("4"));
        QCOMPARE(model->headerData(3, Qt::Vertical).toString(), QString("[0, 2, 1]"));
        QCOMPARE(model->indexText(3, 1), QString("[0, 2, 1, 4]"));
        QCOMPARE(cellValue(model, 3, 1), static_cast<double>(((0 * 3 + 2) * 4 + 1) * 5 + 4) * 0.5);
        QVERIFY(inspector.setSlice(""));
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QString("1"));
    }

    void highlightMarksExactlyTheCellsInRange()
    {
        std::mt19937 rng(11);
        std::normal_distribution<float> normal(0, 1.2f);
        std::vector<float> values(20 * 30);
        for (auto& v : values)
            v = normal(rng);
        values[7] = -1.0f; // closed intervals: the ends count
        values[8] = 1.0f;
        values[9] = float(kNaN);
        TensorInspector inspector;
        inspector.setTensor("act:0", make<float>(m_allocator, {20, 30}, values));
        QVERIFY(inspector.setHighlightRanges("[[-inf, -1], [1, inf]]"));
        const TensorTableModel* model = inspector.tableModel();
        int highlighted = 0;
        for (int r = 0; r < 20; ++r)
            for (int c = 0; c < 30; ++c) {
                const float v = values[static_cast<std::size_t>(r * 30 + c)];
                const bool expected = v <= -1.0f || v >= 1.0f;
                const auto state = static_cast<TensorTableModel::CellState>(
                    model->data(model->index(r, c), TensorTableModel::CellStateRole).toInt());
                QVERIFY2((state == TensorTableModel::CellState::kHighlighted) == expected,
                         qPrintable(QString("cell %1,%2 value %3").arg(r).arg(c).arg(v)));
                highlighted += expected;
            }
        QVERIFY(highlighted > 100);
        QCOMPARE(model->cellState(0, 9), TensorTableModel::CellState::kNaN);
        QVERIFY2(inspector.message().startsWith(QString("%1 of 600").arg(highlighted)), qPrintable(inspector.message()));
        // The marks follow the slice.
        QVERIFY(inspector.setSlice("[0, 7:10]"));
        QCOMPARE(model->cellState(0, 0), TensorTableModel::CellState::kHighlighted);
        QCOMPARE(model->cellState(1, 0), TensorTableModel::CellState::kHighlighted);
        QCOMPARE(model->cellState(2, 0), TensorTableModel::CellState::kNaN);

        QVERIFY(!inspector.setHighlightRanges("[2, 1]"));
        QVERIFY(!inspector.message().isEmpty());
        QCOMPARE(inspector.highlightRanges(), QString("[[-inf, -1], [1, inf]]"));
        QVERIFY(inspector.setHighlightRanges(""));
        QCOMPARE(model->cellState(0, 0), TensorTableModel::CellState::kNormal);
    }

    void heatMapColoursAndTooltips()
    {
        const Tensor t = make<double>(m_allocator, {2, 3}, {0.0, 1.0, 2.0, 4.0, kNaN, -kInf});
        TensorHeatMap map;
        map.resize(400, 300);
        map.setTensor(t);
        QVERIFY(map.hasTensor());
        QCOMPARE(map.low(), 0.0);
        QCOMPARE(map.high(), 4.0);
        const QImage& image = map.image();
        QCOMPARE(image.size(), QSize(3, 2));
        QCOMPARE(QColor(image.pixel(0, 0)), TensorHeatMap::scaleColour(0.0));
        QCOMPARE(QColor(image.pixel(0, 1)), TensorHeatMap::scaleColour(1.0));
        QCOMPARE(image.pixel(1, 1), TensorHeatMap::kNaNColour);
        QCOMPARE(image.pixel(2, 1), TensorHeatMap::kNegInfColour);
        QVERIFY(TensorHeatMap::scaleColour(0.0) != TensorHeatMap::scaleColour(1.0));
        // Mid-scale 2.0 sits at fraction 0.5.
        const QColor mid = QColor(image.pixel(2, 0));
        const QColor expected = TensorHeatMap::scaleColour(0.5);
        QVERIFY(std::abs(mid.green() - expected.green()) <= 2 && std::abs(mid.red() - expected.red()) <= 2);

        const QRectF plot = map.plotRect();
        const QPointF cell12(plot.left() + plot.width() * 2.5 / 3, plot.top() + plot.height() * 0.75);
        QCOMPARE(map.toolTipAt(cell12), QString("[1, 2] = -inf"));
        QCOMPARE(map.toolTipAt(QPointF(plot.left() + 1, plot.top() + 1)), QString("[0, 0] = 0.0"));
        QVERIFY(map.toolTipAt(QPointF(plot.right() + 20, plot.top() + 5)).isEmpty());

        // A tensor that is not 2-D clears the map.
        map.setTensor(make<double>(m_allocator, {3}, {1, 2, 3}));
        QVERIFY(!map.hasTensor());
        QVERIFY(map.image().isNull());

        // 1000 x 1000 renders to one image of that size; the table makes text only for cells asked.
        std::vector<float> big(1000 * 1000);
        for (std::size_t i = 0; i < big.size(); ++i)
            big[i] = static_cast<float>(i % 1000) - static_cast<float>(i / 1000);
        TensorInspector inspector;
        inspector.setTensor("big:0", make<float>(m_allocator, {1000, 1000}, big));
        QCOMPARE(inspector.tableModel()->rowCount(), 1000);
        QCOMPARE(inspector.tableModel()->data(inspector.tableModel()->index(999, 0)).toString(), QString("-999.0"));
        QVERIFY(inspector.isViewEnabled(View::HeatMap));
        QCOMPARE(inspector.heatMap()->image().size(), QSize(1000, 1000));
        QCOMPARE(QColor(inspector.heatMap()->image().pixel(999, 0)), TensorHeatMap::scaleColour(1.0));
    }

    void imagesEnableForImageShapes()
    {
        // [2, 2, 3, 1]: grey images; min -1 is black, max 3 white, NaN red.
        const Tensor grey = make<float>(m_allocator, {2, 2, 3, 1},
                                        {-1, 0, 1, 2, 3, 1, /* image 1 */ 0, float(kNaN), 3, 3, -1, 1});
        TensorImageGrid grid;
        grid.resize(500, 300);
        QVERIFY(TensorImageGrid::unsuitableReason(grey).isEmpty());
        grid.setTensor(grey);
        QCOMPARE(grid.totalImages(), 2);
        QCOMPARE(grid.imageCount(), 2);
        QCOMPARE(grid.image(0).size(), QSize(3, 2));
        QCOMPARE(grid.image(0).pixel(0, 0), qRgb(0, 0, 0));
        QCOMPARE(grid.image(0).pixel(1, 1), qRgb(255, 255, 255));
        QCOMPARE(grid.image(0).pixel(1, 0), qRgb(64, 64, 64)); // 0 -> 0.25 -> 63.75 rounds to 64
        QCOMPARE(grid.image(1).pixel(1, 0), qRgb(255, 0, 0));
        const QRectF second = grid.imageRect(1);
        QVERIFY(second.width() > 0);
        const auto hit = grid.hitAt(second.center());
        QVERIFY(hit && hit->image == 1);

        // RGB uint8 shows its values as they are.
        const Tensor rgb = make<std::uint8_t>(m_allocator, {1, 2, 3}, {10, 128, 250, 0, 0, 0});
        grid.setTensor(rgb);
        QCOMPARE(grid.totalImages(), 1);
        QCOMPARE(grid.image(0).pixel(0, 0), qRgb(10, 128, 250));

        // Two channels, rank 2, strings: no images, with reasons.
        QVERIFY(!TensorImageGrid::unsuitableReason(make<float>(m_allocator, {1, 2, 2, 2}, std::vector<float>(8))).isEmpty());
        QVERIFY(!TensorImageGrid::unsuitableReason(make<float>(m_allocator, {4, 4}, std::vector<float>(16))).isEmpty());
        QVERIFY(!TensorImageGrid::unsuitableReason(make<std::string>(m_allocator, {1, 1, 1}, {"x"})).isEmpty());

        TensorInspector inspector;
        inspector.setTensor("images:0", make<float>(m_allocator, {3, 4, 5, 3}, std::vector<float>(180, 0.5f)));
        QVERIFY(inspector.isViewEnabled(View::Images));
        QVERIFY(!inspector.isViewEnabled(View::HeatMap));
        QVERIFY(inspector.setSlice("[0]")); // 3-D HWC is one image
        QVERIFY(inspector.isViewEnabled(View::Images));
        QCOMPARE(inspector.imageGrid()->totalImages(), 1);
        QVERIFY(inspector.setSlice("[0, ..., 0]")); // now 2-D: a heat map, no image
        QVERIFY(!inspector.isViewEnabled(View::Images));
        QVERIFY(inspector.isViewEnabled(View::HeatMap));
        inspector.setView(View::HeatMap);
        QVERIFY(inspector.view() == View::HeatMap);
        // The preferred view comes back when it applies again.
        QVERIFY(inspector.setSlice("[0, 0, 0]"));
        QVERIFY(inspector.view() == View::Table);
        QVERIFY(inspector.setSlice("[0, ..., 1]"));
        QVERIFY(inspector.view() == View::HeatMap);
    }

    void saveNpyRoundTrip()
    {
        const Tensor t = make<float>(m_allocator, {2, 3}, {1.5f, -2.0f, float(kNaN), float(kInf), 0.0f, 1e-30f});
        TensorInspector inspector;
        inspector.setTensor("x:0", t);
        QVERIFY(inspector.setSlice("[0]")); // the slice does not limit what is saved
        QTemporaryDir dir;
        const QString path = dir.filePath("x.npy");
        QString error;
        QVERIFY2(inspector.saveNpy(path, &error), qPrintable(error));
        auto back = readNpy(std::filesystem::path(path.toStdString()), m_allocator);
        QVERIFY2(back.has_value(), back ? "" : back.error().message().c_str());
        QCOMPARE(back->dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(back->shape().toString(), std::string("[2,3]"));
        QCOMPARE(std::memcmp(back->tensorData().data(), t.tensorData().data(), t.tensorData().size()), 0);
        QVERIFY(!inspector.saveNpy(dir.filePath("missing/dir/x.npy"), &error));
        QVERIFY(!error.isEmpty());
    }

    void historyDrivesTheChart()
    {
        std::vector<WatchedValue> history;
        for (std::int64_t run : {0, 1, 2, 4}) {
            const float base = static_cast<float>(run);
            history.push_back({run, make<float>(m_allocator, {3}, {base - 1, base, base + 4})});
        }
        TensorInspector inspector;
        inspector.resize(800, 600);
        inspector.setTensor("loss:0", make<float>(m_allocator, {3}, {10, 11, 12}));
        QVERIFY(!inspector.isViewEnabled(View::History));
        inspector.setHistory(history);
        QVERIFY(inspector.isViewEnabled(View::History));
        ValueHistoryChart* chart = inspector.historyChart();
        QCOMPARE(chart->points().size(), std::size_t(4));
        for (std::size_t i = 0; i < 4; ++i) {
            const double run = static_cast<double>(history[i].run);
            QCOMPARE(chart->points()[i].run, history[i].run);
            QCOMPARE(chart->points()[i].min, run - 1);
            QCOMPARE(chart->points()[i].mean, run + 1);
            QCOMPARE(chart->points()[i].max, run + 4);
        }
        inspector.setView(View::History);
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        // Max above mean above min; later runs further right.
        const QPointF min0 = *chart->pointPosition(0, 0);
        const QPointF max0 = *chart->pointPosition(0, 2);
        const QPointF min3 = *chart->pointPosition(3, 0);
        QVERIFY(max0.y() < min0.y());
        QVERIFY(min3.x() > min0.x());
        QVERIFY(min3.y() < min0.y());

        // Choosing a run shows its value everywhere; the current value comes back with nullopt.
        QVERIFY(inspector.showHistoryRun(2));
        QCOMPARE(inspector.shownHistoryRun(), std::optional<std::int64_t>(2));
        QCOMPARE(cellValue(inspector.tableModel(), 0, 0), 1.0);
        QCOMPARE(healthText(inspector, "healthMax"), QString("6.0"));
        QVERIFY(inspector.findChild<QLabel*>("tensorFacts")->text().contains("run 2"));
        QCOMPARE(chart->selectedRun(), std::optional<std::int64_t>(2));
        QVERIFY(!inspector.showHistoryRun(3));
        auto* combo = inspector.findChild<QComboBox*>("historyRun");
        QCOMPARE(combo->count(), 5);
        combo->setCurrentIndex(0);
        QVERIFY(!inspector.shownHistoryRun());
        QCOMPARE(cellValue(inspector.tableModel(), 0, 0), 10.0);

        // A click on the chart picks the nearest run.
        QTest::mouseClick(chart, Qt::LeftButton, {}, min3.toPoint());
        QCOMPARE(inspector.shownHistoryRun(), std::optional<std::int64_t>(4));
        QCOMPARE(cellValue(inspector.tableModel(), 2, 0), 8.0);

        // A longer history keeps the summaries of the runs already seen and adds the new one.
        history.push_back({5, make<float>(m_allocator, {3}, {-3, 0, 3})});
        inspector.setHistory(history);
        QCOMPARE(chart->points().size(), std::size_t(5));
        QCOMPARE(chart->points().back().min, -3.0);
        QCOMPARE(inspector.shownHistoryRun(), std::optional<std::int64_t>(4));
    }

    void watchButtonSignals()
    {
        TensorInspector inspector;
        inspector.setTensor("w:0", make<float>(m_allocator, {1}, {1}));
        QSignalSpy spy(&inspector, &TensorInspector::watchToggled);
        auto* button = inspector.findChild<QToolButton*>();
        QVERIFY(button && button->isCheckable());
        button->click();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QString("w:0"));
        QCOMPARE(spy.at(0).at(1).toBool(), true);
        QVERIFY(inspector.isWatched());
        inspector.setWatched(false);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!inspector.isWatched());
    }

    void screenshot()
    {
        // Every view of the inspector rendered to a PNG: into TSTUDIO_INSPECTOR_PNG's name (to look
        // at them), else into a temporary folder; each must load back at the window's size.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = qEnvironmentVariable("TSTUDIO_INSPECTOR_PNG");
        if (path.isEmpty())
            path = dir.filePath("inspector.png");
        std::mt19937 rng(3);
        std::normal_distribution<float> normal(0, 0.8f);
        std::vector<float> values(64 * 10);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = normal(rng) + 0.02f * static_cast<float>(i % 10) * static_cast<float>(i / 10) / 8.0f;
        values[13] = float(kNaN);
        values[57] = float(kInf);
        TensorInspector inspector;
        inspector.resize(960, 640);
        inspector.setTensor("layer1/dense/MatMul:0", make<float>(m_allocator, {64, 10}, values));
        std::vector<WatchedValue> history;
        for (int run = 0; run < 12; ++run) {
            std::vector<float> v(50);
            for (auto& x : v)
                x = normal(rng) * (1.0f + 0.1f * static_cast<float>(run)) - 0.05f * static_cast<float>(run);
            history.push_back({run, make<float>(m_allocator, {50}, v)});
        }
        inspector.setHistory(history);
        inspector.setWatched(true);
        QVERIFY(inspector.setHighlightRanges("[[-inf, -1.5], [1.5, inf]]"));
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        QCoreApplication::processEvents();
        QVERIFY(inspector.grab().save(path));
        const QString base = path.endsWith(".png") ? path.chopped(4) : path;
        inspector.setView(View::Histogram);
        QCoreApplication::processEvents();
        QVERIFY(inspector.grab().save(base + "_histogram.png"));
        inspector.setView(View::HeatMap);
        QCoreApplication::processEvents();
        QVERIFY(inspector.grab().save(base + "_heatmap.png"));
        inspector.setView(View::History);
        QCoreApplication::processEvents();
        QVERIFY(inspector.grab().save(base + "_history.png"));
        std::vector<float> digits(8 * 28 * 28);
        for (int n = 0; n < 8; ++n)
            for (int y = 0; y < 28; ++y)
                for (int x = 0; x < 28; ++x) {
                    const double r = std::hypot(x - 14.0, y - 14.0);
                    digits[static_cast<std::size_t>((n * 28 + y) * 28 + x)] =
                        static_cast<float>(std::exp(-std::pow(r - 4.0 - n, 2) / 6.0));
                }
        inspector.setTensor("input/images:0", make<float>(m_allocator, {8, 28, 28, 1}, digits));
        inspector.setView(View::Images);
        QCoreApplication::processEvents();
        QVERIFY(inspector.grab().save(base + "_images.png"));
        inspector.setTensor("labels:0", make<std::string>(m_allocator, {3}, {"cat", "dog", "it's"}));
        QCoreApplication::processEvents();
        QVERIFY(inspector.grab().save(base + "_strings.png"));
        for (const QString& file : {path, base + "_histogram.png", base + "_heatmap.png", base + "_history.png",
                                    base + "_images.png", base + "_strings.png"}) {
            const QImage image(file);
            QVERIFY2(!image.isNull(), qPrintable(file));
            QCOMPARE(image.size(), inspector.grab().size());
        }
    }
};

QTEST_MAIN(TestTensorInspector)
#include "test_tensor_inspector.moc"
