// Real frozen graphs written by TensorFlow (tf2onnx's fc-layers, ae0 and lstm) run through Session
// on real MNIST test images, compared with an independent NumPy evaluation of the same graphs
// (tools/golden/tf2onnx_models.py, outputs in tests/data/golden/tf2onnx_models).
#include "runtime_test_support.h"

#include "../../support/test_files.h"
#include "io/formats/graph_def_io.h"
#include "io/idx_file.h"
#include "io/npy.h"
#include "registries/default_registries.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>
#include <map>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

const QString kGoldenDir = QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/tf2onnx_models");

/// The relative difference of two outputs, max |a - b| / max |b| (the error relative to the
/// output's scale), and the element where |a - b| is largest. Elementwise ratios are not the
/// measure: TensorFlow's Sigmoid (Eigen's rational approximation, which our engine uses too) is
/// accurate to ~1e-7 absolute, so on outputs near 1e-4 it differs from the exact sigmoid NumPy
/// computes by ~1e-3 of the element; `elementwise` keeps that figure for the report.
struct Worst {
    double relative = 0;
    double elementwise = 0;  ///< max |a - b| / |b| over the elements (for information)
    std::int64_t index = -1;
    float actual = 0;
    float expected = 0;
};

Worst worstRelative(std::span<const float> actual, std::span<const float> expected)
{
    constexpr double kTiny = std::numeric_limits<float>::min();
    double scale = kTiny;
    for (float b : expected)
        scale = std::max(scale, std::abs(double(b)));
    Worst worst;
    double largest = -1;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double a = actual[i];
        const double b = expected[i];
        double d = std::abs(a - b);
        if (std::isnan(d))
            d = std::numeric_limits<double>::infinity();
        worst.elementwise = std::max(worst.elementwise, d / std::max(std::abs(b), kTiny));
        if (d > largest) {
            largest = d;
            worst.index = static_cast<std::int64_t>(i);
            worst.actual = actual[i];
            worst.expected = expected[i];
        }
    }
    worst.relative = largest / scale;
    return worst;
}

QJsonObject readManifest()
{
    QFile f(kGoldenDir + "/manifest.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestFrozenModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_manifest = readManifest();
        QVERIFY2(!m_manifest.value("cases").toArray().isEmpty(), qPrintable("no cases in " + kGoldenDir + "/manifest.json"));
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, registries ? "" : registries.error().toString().c_str());
        m_registries = std::move(*registries);
        m_fixtures = fixturesDir();
    }

    void matchesNumPy_data()
    {
        QTest::addColumn<int>("caseIndex");
        const QJsonArray cases = readManifest().value("cases").toArray();
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject c = cases[i].toObject();
            const QString row = c.value("model").toString() + "/image" + QString::number(c.value("image_index").toInt());
            QTest::newRow(qPrintable(row)) << i;
        }
    }

    void matchesNumPy()
    {
        QFETCH(int, caseIndex);
        if (m_fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the tf2onnx frozen graphs are not checked");
        const QJsonObject c = m_manifest.value("cases").toArray()[caseIndex].toObject();
        if (!QFileInfo::exists(QDir(m_fixtures).filePath(c.value("graph").toString())))
            QSKIP(qPrintable("fixture " + c.value("graph").toString() + " is absent from " + m_fixtures));
        const double rtol = m_manifest.value("rtol").toDouble();
        QVERIFY(rtol > 0 && rtol <= 1e-5);

        std::vector<Tensor> out;
        const Status s = runCase(c, c.value("image_index").toInt(), &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        auto golden = readNpy((kGoldenDir + "/" + c.value("output").toString()).toStdString(), testAllocator());
        QVERIFY2(golden, golden ? "" : golden.error().toString().c_str());
        QCOMPARE(out[0].dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(out[0].shape().toString(), golden->shape().toString());

        const Worst worst = worstRelative(out[0].values<float>(), golden->values<float>());
        const QString model = c.value("model").toString();
        m_worstByModel[model] = std::max(m_worstByModel[model], worst.relative);
        m_worstElementwiseByModel[model] = std::max(m_worstElementwiseByModel[model], worst.elementwise);
        QVERIFY2(worst.relative <= rtol,
                 qPrintable(QString("%1: relative difference %2 > %3, largest at element %4: engine %5, NumPy %6")
                                .arg(QTest::currentDataTag())
                                .arg(worst.relative)
                                .arg(rtol)
                                .arg(worst.index)
                                .arg(double(worst.actual), 0, 'g', 9)
                                .arg(double(worst.expected), 0, 'g', 9)));
    }

    /// The comparison can tell images apart: the next image's output misses the golden by far.
    void anotherImageDoesNotMatch()
    {
        if (m_fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the tf2onnx frozen graphs are not checked");
        for (const QJsonValue& v : m_manifest.value("cases").toArray()) {
            const QJsonObject c = v.toObject();
            if (c.value("image_index").toInt() != 0 ||
                !QFileInfo::exists(QDir(m_fixtures).filePath(c.value("graph").toString())))
                continue;
            std::vector<Tensor> out;
            const Status s = runCase(c, 1, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            auto golden = readNpy((kGoldenDir + "/" + c.value("output").toString()).toStdString(), testAllocator());
            QVERIFY(golden);
            QVERIFY2(worstRelative(out[0].values<float>(), golden->values<float>()).relative > 1e-2,
                     qPrintable(c.value("model").toString()));
        }
    }

    void cleanupTestCase()
    {
        for (const auto& [model, worst] : m_worstByModel)
            qInfo("%s: worst relative difference to NumPy over the images: %.3g (elementwise %.3g)", qPrintable(model),
                  worst, m_worstElementwiseByModel[model]);
    }

private:
    /// Runs the case's graph on MNIST test image `imageIndex` and fetches its output.
    Status runCase(const QJsonObject& c, int imageIndex, std::vector<Tensor>* out)
    {
        Session* session = nullptr;
        if (Status s = sessionFor(c.value("graph").toString(), &session); !s.isOk())
            return s;
        const QString imagesFile = m_manifest.value("images").toObject().value("file").toString();
        auto images = readIdxFile(QDir(m_fixtures).filePath(imagesFile).toStdString(), testAllocator(), imageIndex + 1);
        if (!images)
            return images.error();
        if (images->shape().dim(0) != imageIndex + 1 || images->numElements() != (imageIndex + 1) * 784)
            return invalidArgumentError("expected at least " + std::to_string(imageIndex + 1) + " 28x28 images, read " +
                                        images->shape().toString());
        // The preprocessing the manifest names: float32(pixel) / float32(255).
        const auto pixels = images->values<std::uint8_t>().subspan(static_cast<std::size_t>(imageIndex) * 784, 784);
        std::vector<float> x(784);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = static_cast<float>(pixels[i]) / 255.0f;

        std::vector<std::pair<std::string, Tensor>> feeds = {{"X:0", floatTensor({1, 784}, x)}};
        const QJsonObject wanted = c.value("feeds").toObject();
        for (auto it = wanted.begin(); it != wanted.end(); ++it) {
            if (it.key() == "X:0")
                continue;
            if (!it.value().isDouble())
                return invalidArgumentError("manifest feed " + it.key().toStdString() + " is not a number");
            feeds.emplace_back(it.key().toStdString(), floatScalar(static_cast<float>(it.value().toDouble())));
        }
        return session->run(feeds, {c.value("fetch").toString().toStdString()}, {}, out);
    }

    /// One session per graph, reused by every image.
    Status sessionFor(const QString& graph, Session** session)
    {
        auto& slot = m_sessions[graph];
        if (!slot) {
            auto def = readGraphDef(QDir(m_fixtures).filePath(graph).toStdString());
            if (!def)
                return def.error();
            auto created = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
            if (Status s = created->create(std::move(*def)); !s.isOk())
                return s.withContext(graph.toStdString());
            slot = std::move(created);
        }
        *session = slot.get();
        return Status::ok();
    }

    QJsonObject m_manifest;
    QString m_fixtures;
    std::unique_ptr<Registries> m_registries;
    std::map<QString, std::unique_ptr<Session>> m_sessions;
    std::map<QString, double> m_worstByModel;
    std::map<QString, double> m_worstElementwiseByModel;
};

QTEST_GUILESS_MAIN(TestFrozenModels)
#include "test_frozen_models.moc"
