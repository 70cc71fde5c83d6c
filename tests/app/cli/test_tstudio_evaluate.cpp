// `tstudio train` with an eval section and `tstudio evaluate` as a user runs them: the eval lines while
// training, the best checkpoint, the JSON of an evaluation agreeing with the training's, and the
// errors (no eval section, a metric on a tensor of the wrong dtype) with nothing written.
#include "process_run.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

using tstudio::testing::ProcessRun;

ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args);
}

QString spiralsProject()
{
    return QStringLiteral(TSTUDIO_SOURCE_DIR) + "/examples/projects/spirals.tsproj";
}

/// Held-out spirals (another seed) scored by loss and accuracy, the best by accuracy kept.
QString evalSection(const QString& accuracy = QStringLiteral(R"("labels": "labels", "logits": "dense_2/BiasAdd")"))
{
    return QStringLiteral(R"(eval={"sources": [{"type": "two_spirals", "seed": 2, "points_per_class": 200,
        "feeds": {"inputs": "points", "labels": "labels"}}], "every_steps": 100,
        "metrics": [{"kind": "loss"}, {"kind": "accuracy", %1}],
        "best": {"metric": "accuracy"}})")
        .arg(accuracy);
}

} // namespace

class TestTstudioEvaluate : public QObject {
    Q_OBJECT

private slots:
    void trainEvaluatesAndEvaluateAgrees()
    {
        QTemporaryDir dir;
        const QString logdir = dir.filePath("run");
        ProcessRun train = runTstudio({"train", spiralsProject(), "--steps", "300", "--logdir", logdir, "--set",
                                       evalSection()});
        QVERIFY2(train.exitCode == 0, qPrintable(train.out + train.err));
        // One eval line per 100 steps, with both metrics.
        QRegularExpression line(R"(eval at step (\d+): loss = ([0-9.e-]+), accuracy = ([0-9.e-]+) \(4 batches)");
        QStringList steps;
        QString lastAccuracy;
        for (auto it = line.globalMatch(train.err); it.hasNext();) { // reports go to stderr
            auto m = it.next();
            steps << m.captured(1);
            lastAccuracy = m.captured(3);
        }
        QCOMPARE(steps, (QStringList{"100", "200", "300"}));
        QVERIFY2(train.out.contains(QRegularExpression(R"(best checkpoint: model\.ckpt-\d+ \(accuracy = )")),
                 qPrintable(train.out));
        QVERIFY(QDir(logdir + "/eval").exists());
        QVERIFY(QFile::exists(logdir + "/best/best_metric.json"));

        // The last checkpoint evaluated again gives what training printed.
        ProcessRun eval = runTstudio({"evaluate", spiralsProject(), "--logdir", logdir, "--json", "--set", evalSection()});
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.out + eval.err));
        const QJsonObject result = QJsonDocument::fromJson(eval.out.toUtf8()).object();
        QCOMPARE(result.value("global_step").toInt(), 300);
        QCOMPARE(result.value("examples").toInt(), 400);
        const double accuracy = result.value("metrics").toObject().value("accuracy").toDouble();
        QVERIFY2(std::abs(accuracy - lastAccuracy.toDouble()) < 5e-4, qPrintable(eval.out + " vs " + lastAccuracy));

        // The best checkpoint, named by its directory.
        ProcessRun best = runTstudio({"evaluate", spiralsProject(), "--checkpoint", logdir + "/best", "--set",
                                      evalSection()});
        QVERIFY2(best.exitCode == 0, qPrintable(best.out + best.err));
        QVERIFY2(best.out.contains(QRegularExpression(R"(^checkpoint model\.ckpt-\d+ \(global step \d+\), 4 batches, 400 examples)")),
                 qPrintable(best.out));
    }

    void errorsNameTheKeyAndWriteNothing()
    {
        QTemporaryDir dir;
        ProcessRun none = runTstudio({"evaluate", spiralsProject(), "--logdir", dir.filePath("none")});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("spirals.tsproj: the project has no eval section"), qPrintable(none.err));

        // No checkpoint to evaluate: where it looked, and the remedy in this tool's words.
        ProcessRun untrained = runTstudio({"evaluate", spiralsProject(), "--logdir", dir.filePath("none"), "--set",
                                           evalSection()});
        QCOMPARE(untrained.exitCode, 1);
        QVERIFY2(untrained.err.contains("spirals.tsproj: no checkpoint in log directory '" + dir.filePath("none") + "' ("),
                 qPrintable(untrained.err));
        QVERIFY2(untrained.err.contains("; train first (tstudio train), or pass --checkpoint PREFIX"),
                 qPrintable(untrained.err));
        QVERIFY(QDir().mkpath(dir.filePath("empty")));
        ProcessRun emptyFolder = runTstudio({"evaluate", spiralsProject(), "--checkpoint", dir.filePath("empty"), "--set",
                                             evalSection()});
        QCOMPARE(emptyFolder.exitCode, 1);
        QVERIFY2(emptyFolder.err.contains("no checkpoint in directory '" + dir.filePath("empty") + "'"),
                 qPrintable(emptyFolder.err));
        QVERIFY2(emptyFolder.err.contains("; pass a checkpoint prefix to --checkpoint"), qPrintable(emptyFolder.err));

        // Class ids against the raw scores (predictions where logits were meant): shapes that do not fit.
        const QString logdir = dir.filePath("bad");
        ProcessRun bad = runTstudio({"train", spiralsProject(), "--steps", "10", "--logdir", logdir, "--set",
                                     evalSection(R"("labels": "labels", "predictions": "dense_2/BiasAdd")")});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("spirals.tsproj: eval.metrics[1]: 'labels:0' (int64 [?]) and 'dense_2/BiasAdd:0' "
                                  "(float [?,2]): "),
                 qPrintable(bad.err));
        QVERIFY2(!QDir(logdir).exists() || QDir(logdir).isEmpty(), "the failed run wrote into its log directory");
    }
};

QTEST_GUILESS_MAIN(TestTstudioEvaluate)
#include "test_tstudio_evaluate.moc"
