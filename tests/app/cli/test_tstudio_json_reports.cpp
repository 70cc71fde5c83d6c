// `--json` of the subcommands that report what they wrote (docs/cli-json.md): freeze, convert-checkpoint,
// export and hostfile print one JSON document on standard output with the documented keys, and the
// values agree with the files written. Everything here is made by the test (a spirals run of 20 steps).
#include "process_run.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using tstudio::testing::ProcessRun;

ProcessRun runTstudio(const QStringList& args) { return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, 300000); }

/// The JSON object a run printed; null (and a failure message) when its output is not one.
QJsonObject jsonOf(const ProcessRun& r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    return error.error == QJsonParseError::NoError && doc.isObject() ? doc.object() : QJsonObject();
}

QStringList keysOf(const QJsonObject& o)
{
    QStringList keys = o.keys();
    keys.sort();
    return keys;
}

} // namespace

class TestTstudioJsonReports : public QObject {
    Q_OBJECT

private slots:
    void hostfile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath("hosts");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# two hosts\nnode1 slots=2\nnode2\n");
        f.close();
        const ProcessRun r = runTstudio({"hostfile", file, "--np", "3", "--no-resolve", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"file", "hosts", "ranks", "resolved", "slots"}));
        QCOMPARE(o["slots"].toInt(), 3);
        QCOMPARE(o["ranks"].toInt(), 3);
        QCOMPARE(o["resolved"].toBool(), false);
        const QJsonArray hosts = o["hosts"].toArray();
        QCOMPARE(hosts.size(), 2);
        QCOMPARE(hosts[0].toObject()["host"].toString(), QString("node1"));
        QCOMPARE(hosts[0].toObject()["slots"].toInt(), 2);
        QCOMPARE(hosts[1].toObject()["slots"].toInt(), 1);
        // Errors stay on standard error, with the usual exit status, and no JSON.
        const ProcessRun bad = runTstudio({"hostfile", file, "--np", "4", "--no-resolve", "--json"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.out.isEmpty());
        QVERIFY2(bad.err.startsWith("tstudio hostfile: "), qPrintable(bad.err));
    }

    void exportFreezeAndConvert()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString logdir = dir.filePath("run");
        const ProcessRun trained = runTstudio({"train", "spirals", "--steps", "20", "--threads", "1", "--logdir", logdir});
        QVERIFY2(trained.exitCode == 0, qPrintable(trained.err + trained.out));

        const QString savedModel = dir.filePath("export/saved_model");
        const QString frozen = dir.filePath("export/frozen.pb");
        ProcessRun r = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd", "--saved-model",
                                   savedModel, "--frozen", frozen, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"averaged", "checkpoint", "frozen_graph", "inputs", "learning_phase_fixed",
                                         "outputs", "project", "saved_model", "variables"}));
        QCOMPARE(o["checkpoint"].toString(), logdir + "/model.ckpt-20");
        QCOMPARE(o["outputs"].toArray()[0].toObject()["tensor"].toString(), QString("dense_2/BiasAdd:0"));
        QCOMPARE(o["inputs"].toArray()[0].toObject()["key"].toString(), QString("inputs"));
        const int exportedVariables = o["variables"].toInt();
        QVERIFY(exportedVariables > 0);
        QCOMPARE(o["saved_model"].toObject()["path"].toString(), savedModel);
        QCOMPARE(o["saved_model"].toObject()["tags"].toArray()[0].toString(), QString("serve"));
        QCOMPARE(o["frozen_graph"].toObject()["path"].toString(), frozen);
        QVERIFY(o["frozen_graph"].toObject()["nodes"].toInt() > 0);
        QVERIFY(QFile::exists(savedModel + "/saved_model.pb") && QFile::exists(frozen));
        // Only the frozen graph: the SavedModel is null.
        r = runTstudio({"export", "spirals", "--logdir", logdir, "--outputs", "dense_2/BiasAdd", "--frozen",
                        dir.filePath("export/frozen2.pb"), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(jsonOf(r)["saved_model"].isNull());

        // freeze the exported SavedModel again from its own variables.
        const QString refrozen = dir.filePath("refrozen.pb");
        r = runTstudio({"freeze", savedModel, "--outputs", "dense_2/BiasAdd", "-o", refrozen, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"bytes", "checkpoint", "frozen_variables", "nodes", "nodes_before", "output"}));
        QCOMPARE(o["output"].toString(), refrozen);
        QCOMPARE(o["bytes"].toInteger(), QFileInfo(refrozen).size());
        QCOMPARE(o["frozen_variables"].toArray().size(), exportedVariables);
        QVERIFY(o["nodes"].toInt() <= o["nodes_before"].toInt());

        // convert-checkpoint: the run's V2 checkpoint rewritten.
        r = runTstudio({"convert-checkpoint", logdir + "/model.ckpt-20", dir.filePath("converted/model.ckpt"), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = jsonOf(r);
        QCOMPARE(keysOf(o), (QStringList{"bytes", "destination", "partitioned", "source", "source_format", "tensors"}));
        QCOMPARE(o["destination"].toString(), dir.filePath("converted/model.ckpt"));
        QVERIFY(o["tensors"].toInt() > 0);
        QVERIFY(o["bytes"].toInteger() > 0);
        QCOMPARE(o["partitioned"].toInt(), 0);
        QVERIFY(QFile::exists(dir.filePath("converted/model.ckpt.index")));
    }
};

QTEST_GUILESS_MAIN(TestTstudioJsonReports)
#include "test_tstudio_json_reports.moc"
