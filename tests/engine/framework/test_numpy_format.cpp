// `tstudio inspect --values` prints tensors as NumPy prints arrays (what TensorFlow's
// inspect_checkpoint shows): every case of tools/golden/numpy_print.py, text written by NumPy.
#include "framework/numpy_format.h"

#include "io/npy.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace tstudio;

namespace {

const QString kGolden = QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden");

Expected<Tensor> caseTensor(const QJsonObject& c, Allocator& allocator)
{
    if (c.contains("npy"))
        return readNpy((kGolden + "/" + c["npy"].toString()).toStdString(), allocator);
    std::vector<std::string> values;
    for (const auto& hex : c["strings"].toArray())
        values.push_back(QByteArray::fromHex(hex.toString().toLatin1()).toStdString());
    std::vector<std::int64_t> dims;
    for (const auto& d : c["shape"].toArray())
        dims.push_back(d.toInteger());
    return Tensor::fromVector<std::string>(allocator, TensorShape(dims), values);
}

} // namespace

class TestNumpyFormat : public QObject {
    Q_OBJECT
private slots:
    void matchesNumpy()
    {
        QFile file(kGolden + "/numpy_print.json");
        QVERIFY2(file.open(QIODevice::ReadOnly), "tests/data/golden/numpy_print.json is missing");
        const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).array();
        QVERIFY(cases.size() >= 50);
        CpuAllocator allocator;
        QStringList failures;
        for (const auto& item : cases) {
            const QJsonObject c = item.toObject();
            auto tensor = caseTensor(c, allocator);
            QVERIFY2(tensor, qPrintable(c["name"].toString()));
            NumpyPrintOptions options;
            options.threshold = c["threshold"].toInteger();
            auto text = formatLikeNumpy(*tensor, options);
            QVERIFY2(text, qPrintable(c["name"].toString()));
            const QString expected = c["text"].toString();
            if (QString::fromStdString(*text) != expected)
                failures << c["name"].toString() + ":\n--- NumPy\n" + expected + "\n--- ours\n" +
                                QString::fromStdString(*text);
        }
        QVERIFY2(failures.isEmpty(), qPrintable(QString::number(failures.size()) + " differ\n" + failures.join("\n")));
    }

    void refusesHandles()
    {
        CpuAllocator allocator;
        auto handles = Tensor::allocate(allocator, tensorflow::DT_RESOURCE, TensorShape{2});
        QVERIFY(handles);
        auto text = formatLikeNumpy(*handles);
        QVERIFY(!text);
        QCOMPARE(text.error().code(), StatusCode::kUnimplemented);
    }
};

QTEST_GUILESS_MAIN(TestNumpyFormat)
#include "test_numpy_format.moc"
