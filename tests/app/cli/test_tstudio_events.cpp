// End-to-end tests of `tstudio events` as a user runs it: listing, --csv against decode_events.py, --json, damage.
#include "process_run.h"
#include "../../support/test_files.h"
#include "io/events/event_file_writer.h"
#include "io/record_framing.h"

#include "proto/summary.pb.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = tstudio::testing::ProcessRun;

Run run(const QString& program, const QStringList& args)
{
    return tstudio::testing::runProcess(program, args, 120000);
}

Run runTstudio(const QStringList& args) { return run(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args); }

using tstudio::testing::pythonWithProtobuf;

/// A log directory written by our writer: run "train" with a TF 1 and a TF 2 scalar, a tag with a
/// comma in its name, and a histogram.
void writeLogs(const std::string& root)
{
    auto writer = tstudio::events::EventFileWriter::open(root + "/train");
    QVERIFY(writer.has_value());
    for (int step = 0; step < 12; ++step) {
        tensorflow::Summary s;
        auto* loss = s.add_value();
        loss->set_tag("loss");
        loss->set_simple_value(3.0f / float(step + 1));
        auto* acc = s.add_value();
        acc->set_tag("metrics/acc,top1");
        acc->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
        acc->mutable_tensor()->set_dtype(tensorflow::DT_DOUBLE);
        acc->mutable_tensor()->add_double_val(0.1 * step);
        auto* h = s.add_value();
        h->set_tag("weights");
        h->mutable_histo()->add_bucket_limit(1.0);
        h->mutable_histo()->add_bucket(2.0);
        QVERIFY((*writer)->addSummary(s, step * 10).isOk());
    }
    QVERIFY((*writer)->close().isOk());
}

} // namespace

class TestTstudioEvents : public QObject {
    Q_OBJECT
private slots:
    void csvMatchesTheIndependentDecoder()
    {
        QTemporaryDir dir;
        writeLogs(dir.path().toStdString());
        Run r = runTstudio({"events", dir.path(), "--csv"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 24);
        QCOMPARE(lines[0], QStringLiteral("run,tag,step,wall_time,value"));
        QVERIFY(lines[1].startsWith(QStringLiteral("train,loss,0,")));
        QVERIFY(lines[1].endsWith(QStringLiteral(",3")));
        QVERIFY(lines[13].startsWith(QStringLiteral("train,\"metrics/acc,top1\",0,")));
        QVERIFY(lines[14].endsWith(QStringLiteral(",0.1"))); // double, shortest form

        // --tag filters by regular expression.
        Run filtered = runTstudio({"events", dir.path(), "--csv", "--tag", "^metrics/"});
        QCOMPARE(filtered.out.split('\n', Qt::SkipEmptyParts).size(), 1 + 12);

        if (!pythonWithProtobuf())
            QSKIP("/usr/bin/python3 with google.protobuf not available: decode_events.py comparison skipped");
        Run py = run(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(TSTUDIO_SOURCE_DIR "/tools/events/decode_events.py"), dir.path()});
        QCOMPARE(py.exitCode, 0);
        QCOMPARE(r.out, py.out); // byte for byte
    }

    void kerasFixtureCsvMatchesTheDecoder()
    {
        const QString fixture = tstudio::testing::fixturesDir() + QStringLiteral("/tfevents-keras");
        if (!QDir(fixture).exists())
            QSKIP("fixtures/tfevents-keras not found (set TSTUDIO_FIXTURES or provide ../shared/fixtures)");
        if (!pythonWithProtobuf())
            QSKIP("/usr/bin/python3 with google.protobuf not available: decode_events.py comparison skipped");
        Run r = runTstudio({"events", fixture, "--csv"});
        QCOMPARE(r.exitCode, 0);
        Run py = run(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(TSTUDIO_SOURCE_DIR "/tools/events/decode_events.py"), fixture});
        QCOMPARE(py.exitCode, 0);
        QCOMPARE(r.out.count('\n'), 181);
        QCOMPARE(r.out, py.out);
    }

    /// --hparams on PyTorch's add_hparams fixture: one row per session, and the JSON's sessions.
    void hparamsOfTheFixture()
    {
        const QString fixture =
            tstudio::testing::fixturesDir() + QStringLiteral("/events-pytorch-hparams-prcurve/runs");
        if (!QDir(fixture).exists())
            QSKIP("fixtures/events-pytorch-hparams-prcurve not found (set TSTUDIO_FIXTURES or provide "
                  "../shared/fixtures)");
        Run r = runTstudio({"events", fixture, "--hparams"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("3 session(s), 3 hparam(s), 2 metric(s)\n"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("hparams_search_exp_2/[0-9.]+\tsuccess\t0.01\t64\tAdam\t95.5\t")),
                 qPrintable(r.out));
        Run j = runTstudio({"events", fixture, "--hparams", "--json"});
        QCOMPARE(j.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QCOMPARE(o["sessions"].toArray().size(), 3);
        const QJsonObject first = o["sessions"].toArray()[0].toObject();
        QCOMPARE(first["hparams"].toObject()["optimizer"].toString(), QString("SGD"));
        QCOMPARE(first["metrics"].toObject()["hparam/Final_Val_Loss"].toObject()["value"].toDouble(),
                 double(1.1832732f));
        QCOMPARE(o["metrics"].toArray()[1].toObject()["tag"].toString(), QString("hparam/Final_Val_Loss"));
    }

    void listingAndJson()
    {
        QTemporaryDir dir;
        writeLogs(dir.path().toStdString());
        Run r = runTstudio({"events", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("weights\\s+histograms\\s+12 values"))), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("run train: 13 events")));

        Run j = runTstudio({"events", dir.path(), "--json"});
        QCOMPARE(j.exitCode, 0);
        const QJsonObject tags =
            QJsonDocument::fromJson(j.out.toUtf8()).object()["runs"].toObject()["train"].toObject()["tags"].toObject();
        QCOMPARE(tags["loss"].toObject()["plugin"].toString(), QStringLiteral("scalars"));
        QCOMPARE(tags["loss"].toObject()["samples"].toArray().size(), 12);
        QCOMPARE(tags["loss"].toObject()["samples"].toArray()[11].toObject()["step"].toInt(), 110);
        QCOMPARE(tags["metrics/acc,top1"].toObject()["samples"].toArray()[3].toObject()["value"].toDouble(), 0.1 * 3);
        QCOMPARE(tags["weights"].toObject()["values_read"].toInt(), 12);

        Run both = runTstudio({"events", dir.path(), "--json", "--csv"});
        QVERIFY(both.exitCode != 0);
        Run missing = runTstudio({"events", dir.path() + "/nope"});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QStringLiteral("nope")));
    }

    void damagedRecordIsAWarningOnStderr()
    {
        QTemporaryDir dir;
        writeLogs(dir.path().toStdString());
        const QStringList files = QDir(dir.filePath("train")).entryList(QDir::Files);
        QCOMPARE(files.size(), 1);
        QFile file(dir.filePath("train/" + files[0]));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QByteArray bytes = file.readAll();
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x40);
        file.seek(0);
        file.write(bytes);
        file.close();
        Run r = runTstudio({"events", dir.path(), "--csv"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QStringLiteral("warning: ")) && r.err.contains(files[0]), qPrintable(r.err));
        QCOMPARE(r.out.split('\n', Qt::SkipEmptyParts).size(), 1 + 22); // one event (two scalars) lost
    }
};

QTEST_GUILESS_MAIN(TestTstudioEvents)
#include "test_tstudio_events.moc"
