// The book's MNIST model as TensorFlow 1.3 saved it (tf1-mnist-book): mnist_model-29001 restored into
// mnist_model-29001.meta through the MetaGraphDef's own SaverDef predicts the first 200 MNIST test
// images as an independent NumPy evaluation of the checkpoint's weights does
// (tools/golden/mnist_checkpoint.py); the directory's `checkpoint` file picks 29001; and the
// moving averages restore into the variables, as ExponentialMovingAverage.variables_to_restore().
#include "../../support/test_files.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/idx_file.h"
#include "io/npy.h"
#include "model/saver.h"
#include "proto/meta_graph.pb.h"
#include "proto/variable.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

const QString kGoldenDir = QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/mnist_checkpoint");
constexpr std::int64_t kImages = 200;
constexpr const char* kOutput = "layer2/add:0";
constexpr const char* kInput = "x-input:0";

/// max |a - b| / max |b|: the difference relative to the output's scale.
double relativeDifference(std::span<const float> actual, std::span<const float> expected)
{
    double scale = std::numeric_limits<float>::min();
    double worst = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        scale = std::max(scale, std::abs(double(expected[i])));
        const double d = std::abs(double(actual[i]) - double(expected[i]));
        worst = std::max(worst, std::isnan(d) ? std::numeric_limits<double>::infinity() : d);
    }
    return worst / scale;
}

std::vector<std::int32_t> argmaxRows(const Tensor& logits)
{
    const auto values = logits.values<float>();
    const std::int64_t cols = logits.shape().dim(1);
    std::vector<std::int32_t> result;
    for (std::int64_t r = 0; r < logits.shape().dim(0); ++r) {
        const auto row = values.subspan(static_cast<std::size_t>(r * cols), static_cast<std::size_t>(cols));
        result.push_back(static_cast<std::int32_t>(std::max_element(row.begin(), row.end()) - row.begin()));
    }
    return result;
}

/// Outlives every tensor of the test (tensors keep a pointer to their allocator).
CpuAllocator& testCpu()
{
    static CpuAllocator cpu;
    return cpu;
}

Tensor stringTensor(const std::vector<std::string>& values, bool scalar)
{
    CpuAllocator& cpu = testCpu();
    const TensorShape shape = scalar ? TensorShape::scalar() : TensorShape{static_cast<std::int64_t>(values.size())};
    return Tensor::fromVector<std::string>(cpu, shape, values).value();
}

} // namespace

class TestMnistCheckpoint : public QObject {
    Q_OBJECT

private:
    QString m_fixtures;
    std::unique_ptr<Registries> m_registries;
    tensorflow::MetaGraphDef m_meta;
    std::optional<Tensor> m_images;
    std::optional<Tensor> m_logits, m_predictions, m_emaLogits, m_emaPredictions;
    double m_rtol = 0;
    std::map<std::string, double> m_figures; ///< for the report in cleanupTestCase

    QString fixture(const QString& relative) const { return QDir(m_fixtures).filePath(relative); }
    std::string checkpointPrefix(int step) const
    {
        return fixture("tf1-mnist-book/mnist_model-" + QString::number(step)).toStdString();
    }

    std::unique_ptr<Session> importMeta()
    {
        auto session = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        if (Status s = session->create(m_meta.graph_def()); !s.isOk())
            qFatal("create: %s", s.toString().c_str());
        return session;
    }

    /// Saver(saver_def=...).restore(sess, prefix): the imported graph's own save/restore nodes.
    Status restore(Session& session, const std::string& prefix)
    {
        auto saver = Saver::fromSaverDef(m_meta.saver_def());
        if (!saver)
            return saver.error();
        return saver->restore(session, prefix);
    }

    /// Runs the SaverDef's restore op by hand, its filename tensor fed `prefix`, plus `feeds`.
    Status restoreFeeding(Session& session, const std::string& prefix,
                          std::vector<std::pair<std::string, Tensor>> feeds)
    {
        const auto& saver = m_meta.saver_def();
        feeds.emplace_back(saver.filename_tensor_name(), stringTensor({prefix}, true));
        std::vector<Tensor> none;
        return session.run(feeds, {}, {saver.restore_op_name()}, &none);
    }

    Expected<Tensor> evaluate(Session& session)
    {
        std::vector<Tensor> out;
        if (Status s = session.run({{kInput, *m_images}}, {kOutput}, {}, &out); !s.isOk())
            return unexpected(s);
        return std::move(out.at(0));
    }

    /// Compares logits with a golden pair; records the figure under `label`.
    void compare(const Tensor& logits, const Tensor& goldenLogits, const Tensor& goldenPredictions,
                 const std::string& label)
    {
        QCOMPARE(logits.dtype(), tensorflow::DT_FLOAT);
        QCOMPARE(logits.shape().toString(), goldenLogits.shape().toString());
        const std::vector<std::int32_t> predicted = argmaxRows(logits);
        const auto expected = goldenPredictions.values<std::int32_t>();
        QVERIFY(std::equal(predicted.begin(), predicted.end(), expected.begin(), expected.end()));
        const double relative = relativeDifference(logits.values<float>(), goldenLogits.values<float>());
        m_figures[label] = relative;
        QVERIFY2(relative <= m_rtol, qPrintable(QString::fromStdString(label) + ": relative difference " +
                                                QString::number(relative) + " > " + QString::number(m_rtol)));
    }

    /// The tensor_names Const of each RestoreV2 of the saver, keyed by the variable its Assign
    /// writes: save/restore_all <- ^save/Assign_k (variable, save/RestoreV2_k) <- tensor_names.
    std::map<std::string, std::string> restoreNamesByVariable() const
    {
        std::map<std::string, const tensorflow::NodeDef*> nodes;
        for (const auto& node : m_meta.graph_def().node())
            nodes[node.name()] = &node;
        std::map<std::string, std::string> result;
        const auto* restoreAll = nodes.at(m_meta.saver_def().restore_op_name());
        for (const std::string& input : restoreAll->input()) {
            const auto* assign = nodes.at(input.substr(1)); // "^save/Assign_k"
            if (assign->op() != "Assign")
                continue;
            const auto* restoreV2 = nodes.at(assign->input(1));
            if (restoreV2->op() == "RestoreV2")
                result[assign->input(0)] = restoreV2->input(1);
        }
        return result;
    }

private slots:
    void initTestCase()
    {
        QFile manifestFile(kGoldenDir + "/manifest.json");
        QVERIFY2(manifestFile.open(QIODevice::ReadOnly), qPrintable("no " + kGoldenDir + "/manifest.json"));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        m_rtol = manifest.value("rtol").toDouble();
        QVERIFY(m_rtol > 0 && m_rtol <= 1e-5);
        QCOMPARE(manifest.value("images").toObject().value("count").toInt(), int(kImages));
        CpuAllocator& cpu = testCpu();
        const auto golden = [&](const char* name) {
            auto t = readNpy((kGoldenDir + "/" + name).toStdString(), cpu);
            if (!t)
                qFatal("%s", t.error().toString().c_str());
            return std::move(*t);
        };
        m_logits = golden("logits.npy");
        m_predictions = golden("predictions.npy");
        m_emaLogits = golden("ema_logits.npy");
        m_emaPredictions = golden("ema_predictions.npy");
        QCOMPARE(m_logits->shape().toString(), std::string("[200,10]"));
        QCOMPARE(m_predictions->dtype(), tensorflow::DT_INT32);

        m_fixtures = fixturesDir();
        if (m_fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: the tf1-mnist-book checkpoint is not checked");
        for (const char* needed : {"tf1-mnist-book/mnist_model-29001.meta", "tf1-mnist-book/mnist_model-29001.index",
                                   "tf1-mnist-book/checkpoint", "mnist/t10k-images-idx3-ubyte.gz"}) {
            if (!QFile::exists(fixture(needed)))
                QSKIP(qPrintable("fixture " + QString(needed) + " is absent from " + m_fixtures));
        }
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
        QFile metaFile(fixture("tf1-mnist-book/mnist_model-29001.meta"));
        QVERIFY(metaFile.open(QIODevice::ReadOnly));
        QVERIFY(m_meta.ParseFromString(metaFile.readAll().toStdString()));
        QCOMPARE(m_meta.saver_def().version(), tensorflow::SaverDef::V2);

        auto images = readIdxFile(fixture("mnist/t10k-images-idx3-ubyte.gz").toStdString(), cpu, kImages);
        QVERIFY2(images, images ? "" : images.error().toString().c_str());
        std::vector<float> pixels;
        for (std::uint8_t p : images->values<std::uint8_t>())
            pixels.push_back(static_cast<float>(p) / 255.0f); // as the NumPy script: a rounded division
        m_images = Tensor::fromVector<float>(cpu, TensorShape{kImages, 784}, pixels).value();
    }

    void restoresThroughItsSaverDefAndMatchesNumPy()
    {
        auto session = importMeta();
        // Nothing is initialised yet: the variables must come from the checkpoint.
        auto before = evaluate(*session);
        QVERIFY(!before);
        QCOMPARE(before.error().code(), StatusCode::kFailedPrecondition);

        Status restored = restore(*session, checkpointPrefix(29001));
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        auto logits = evaluate(*session);
        QVERIFY2(logits, logits ? "" : logits.error().toString().c_str());
        compare(*logits, *m_logits, *m_predictions, "29001");

        std::vector<Tensor> step;
        QVERIFY(session->run({}, {"Variable:0"}, {}, &step).isOk());
        QCOMPARE(step.at(0).scalar<std::int32_t>(), 29001);
    }

    /// The comparison tells checkpoints apart: the previous one restores but misses the golden.
    void anotherCheckpointDoesNotMatch()
    {
        auto session = importMeta();
        Status restored = restore(*session, checkpointPrefix(28001));
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        auto logits = evaluate(*session);
        QVERIFY(logits);
        const double relative = relativeDifference(logits->values<float>(), m_logits->values<float>());
        m_figures["28001 (must differ)"] = relative;
        QVERIFY2(relative > 100 * m_rtol, qPrintable("28001 is as close as " + QString::number(relative)));
    }

    void restoresTheLatestCheckpointOfItsDirectory()
    {
        auto latest = latestCheckpoint(fixture("tf1-mnist-book").toStdString());
        QVERIFY2(latest, latest ? "" : latest.error().toString().c_str());
        QCOMPARE(QString::fromStdString(latest->filename().string()), QStringLiteral("mnist_model-29001"));
        QCOMPARE(QString::fromStdString(latest->lexically_normal().string()),
                 QString::fromStdString(std::filesystem::path(checkpointPrefix(29001)).lexically_normal().string()));
        auto session = importMeta();
        Status restored = restore(*session, latest->string());
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        auto logits = evaluate(*session);
        QVERIFY(logits);
        compare(*logits, *m_logits, *m_predictions, "latest");
    }

    /// ExponentialMovingAverage.variables_to_restore(): each variable of the
    /// moving_average_variables collection is restored from its average's key, every other
    /// variable from its own. The graph's saver restores one tensor per RestoreV2, so feeding a
    /// RestoreV2's tensor_names with the average's key is that saver's name map.
    void restoresTheMovingAveragesIntoTheVariables()
    {
        const auto& collections = m_meta.collection_def();
        QVERIFY(collections.count("moving_average_variables"));
        std::set<std::string> averaged;
        for (const std::string& bytes : collections.at("moving_average_variables").bytes_list().value()) {
            tensorflow::VariableDef def;
            QVERIFY(def.ParseFromString(bytes));
            averaged.insert(def.variable_name().substr(0, def.variable_name().rfind(':')));
        }
        QCOMPARE(averaged,
                 (std::set<std::string>{"layer1/biases", "layer1/weights", "layer2/biases", "layer2/weights"}));

        const auto namesByVariable = restoreNamesByVariable();
        auto reader = TensorBundleReader::open(checkpointPrefix(29001));
        QVERIFY(reader);
        std::vector<std::pair<std::string, Tensor>> feeds;
        for (const std::string& variable : averaged) {
            QVERIFY2(namesByVariable.count(variable), variable.c_str());
            const std::string averageKey = variable + "/ExponentialMovingAverage";
            QVERIFY(reader->contains(averageKey));
            feeds.emplace_back(namesByVariable.at(variable) + ":0", stringTensor({averageKey}, false));
        }
        auto session = importMeta();
        Status restored = restoreFeeding(*session, checkpointPrefix(29001), feeds);
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        auto logits = evaluate(*session);
        QVERIFY2(logits, logits ? "" : logits.error().toString().c_str());
        compare(*logits, *m_emaLogits, *m_emaPredictions, "moving averages");
        // And they are not the plain variables' logits.
        const double plain = relativeDifference(logits->values<float>(), m_logits->values<float>());
        m_figures["moving averages vs plain (must differ)"] = plain;
        QVERIFY(plain > 100 * m_rtol);
        // The variable that has no average (the global step) still comes from its own key.
        std::vector<Tensor> step;
        QVERIFY(session->run({}, {"Variable:0", "layer1/weights:0"}, {}, &step).isOk());
        QCOMPARE(step.at(0).scalar<std::int32_t>(), 29001);
        CpuAllocator& cpu = testCpu();
        auto average = reader->read("layer1/weights/ExponentialMovingAverage", cpu);
        QVERIFY(average);
        QVERIFY(std::equal(step[1].values<float>().begin(), step[1].values<float>().end(),
                           average->values<float>().begin(), average->values<float>().end()));
    }

    void cleanupTestCase()
    {
        for (const auto& [label, figure] : m_figures)
            qInfo("%s: max|engine - NumPy| / max|NumPy| = %.3g", label.c_str(), figure);
    }
};

QTEST_GUILESS_MAIN(TestMnistCheckpoint)
#include "test_mnist_checkpoint.moc"
