// End-to-end tests of `tstudio export PROJECT` as a user runs it: train the shipped spirals project,
// export a SavedModel and a frozen graph, run both with `tstudio run` and compare them with the
// training checkpoint run the same way; the errors of an output that needs a placeholder that is not
// an input and of a log directory without checkpoints; the log directory left as it was.
#include "process_run.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

namespace {

using tstudio::testing::ProcessRun;

ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args);
}

/// Every file under `dir` with the hash of its bytes.
std::map<QString, QByteArray> snapshot(const QString& dir)
{
    std::map<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            files[QDir(dir).relativeFilePath(path)] = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }
    return files;
}

void flatten(const QJsonValue& value, std::vector<double>& out)
{
    if (value.isArray())
        for (const QJsonValue& v : value.toArray())
            flatten(v, out);
    else
        out.push_back(value.toDouble());
}

/// The numbers of fetch `name` in `tstudio run`'s JSON ({"fetches": {name: {"values": [...]}}}).
std::vector<double> fetched(const QString& json, const QString& name)
{
    std::vector<double> values;
    const QJsonObject fetches = QJsonDocument::fromJson(json.toUtf8()).object().value("fetches").toObject();
    if (fetches.contains(name))
        flatten(fetches.value(name).toObject().value("values"), values);
    return values;
}

double relativeError(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.empty())
        return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(b[i]), 1e-3));
    return worst;
}

} // namespace

class TestTstudioExport : public QObject {
    Q_OBJECT
private slots:
    /// Export both forms from the latest checkpoint; `tstudio run` on each gives what the training
    /// checkpoint gives (rel 1e-6), and the log directory is unchanged.
    void exportsAndRunsBothForms()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString logdir = dir.filePath("run");
        const ProcessRun trained = runTstudio({"train", "spirals", "--steps", "40", "--threads", "1", "--logdir", logdir});
        QVERIFY2(trained.exitCode == 0, qPrintable(trained.err + trained.out));
        const auto before = snapshot(logdir);

        const QString savedModel = dir.filePath("export/saved_model");
        const QString frozen = dir.filePath("export/frozen.pb");
        const ProcessRun exported = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd",
                                                "--saved-model", savedModel, "--frozen", frozen});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err + exported.out));
        QVERIFY2(exported.out.contains("from checkpoint " + logdir + "/model.ckpt-40\n"), qPrintable(exported.out));
        QVERIFY2(exported.out.contains("  inputs:  inputs:0 (key inputs)\n"), qPrintable(exported.out));
        QVERIFY2(exported.out.contains("  outputs: dense_2/BiasAdd:0 (key dense_2/BiasAdd)\n"), qPrintable(exported.out));
        QVERIFY2(exported.out.contains("wrote SavedModel " + savedModel), qPrintable(exported.out));
        QVERIFY2(exported.out.contains("wrote frozen graph " + frozen), qPrintable(exported.out));
        QVERIFY(QFile::exists(savedModel + "/saved_model.pb"));
        QVERIFY(QFile::exists(savedModel + "/variables/variables.index"));

        const QString batch = QStringLiteral("[[0.1,0.2],[-0.5,0.3],[0.9,-0.7]]");
        const ProcessRun reference =
            runTstudio({"run", logdir + "/model.ckpt-40.meta", "--checkpoint", logdir, "--feed", "inputs:0=" + batch,
                        "--fetch", "dense_2/BiasAdd:0"});
        QVERIFY2(reference.exitCode == 0, qPrintable(reference.err));
        const std::vector<double> expected = fetched(reference.out, "dense_2/BiasAdd:0");
        QCOMPARE(expected.size(), std::size_t(6));

        const ProcessRun fromSaved =
            runTstudio({"run", savedModel, "--signature", "serving_default", "--feed", "inputs=" + batch});
        QVERIFY2(fromSaved.exitCode == 0, qPrintable(fromSaved.err));
        const std::vector<double> saved = fetched(fromSaved.out, "dense_2/BiasAdd");
        QVERIFY2(relativeError(saved, expected) <= 1e-6, qPrintable(fromSaved.out + reference.out));

        const ProcessRun fromFrozen =
            runTstudio({"run", frozen, "--feed", "inputs:0=" + batch, "--fetch", "dense_2/BiasAdd:0"});
        QVERIFY2(fromFrozen.exitCode == 0, qPrintable(fromFrozen.err));
        const std::vector<double> frozenValues = fetched(fromFrozen.out, "dense_2/BiasAdd:0");
        QVERIFY2(relativeError(frozenValues, expected) <= 1e-6, qPrintable(fromFrozen.out + reference.out));

        // Exporting into the same SavedModel directory again is refused; nothing there changes.
        const auto exportedFiles = snapshot(savedModel);
        const ProcessRun again = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd",
                                             "--saved-model", savedModel});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains("export.saved_model: '" + savedModel + "' already exists and is not empty"),
                 qPrintable(again.err));
        QCOMPARE(snapshot(savedModel), exportedFiles);
        QCOMPARE(snapshot(logdir), before);
    }

    /// An output that needs a placeholder that is not an input, and a log directory without a
    /// checkpoint: exit code 1, the message names the key and the node; nothing is written.
    void refusesClearly()
    {
        QTemporaryDir dir;
        const QString logdir = dir.filePath("run");
        QCOMPARE(runTstudio({"train", "spirals", "--steps", "5", "--threads", "1", "--logdir", logdir}).exitCode, 0);
        const auto before = snapshot(logdir);
        const QString frozen = dir.filePath("loss.pb");
        const ProcessRun r = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs",
                                         "sparse_softmax_cross_entropy_loss/value", "--inputs", "inputs", "--frozen", frozen});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("spirals.tsproj: export.outputs[0]: 'sparse_softmax_cross_entropy_loss/value' needs "
                                "placeholder 'labels', which is not among the inputs (export.inputs: inputs:0)"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(frozen));
        QCOMPARE(snapshot(logdir), before);

        const QString empty = dir.filePath("empty");
        QVERIFY(QDir().mkpath(empty));
        const ProcessRun none =
            runTstudio({"export", "spirals", "--logdir", empty, "--outputs", "dense_2/BiasAdd", "--frozen", frozen});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("no checkpoint to export: log directory '" + empty + "' has none"), qPrintable(none.err));
        QVERIFY(!QFile::exists(frozen));

        const ProcessRun nothing = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd"});
        QCOMPARE(nothing.exitCode, 1);
        QVERIFY2(nothing.err.contains("export: nothing to write: give export.saved_model"), qPrintable(nothing.err));
    }
};

QTEST_GUILESS_MAIN(TestTstudioExport)
#include "test_tstudio_export.moc"
