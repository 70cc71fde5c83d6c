// End-to-end tests of `tstudio train PROJECT` as a user runs it: progress and summary lines, the log
// directory (checkpoints, state file, event file checked by an independent decoder), refusal to
// overwrite an earlier run, crash (SIGKILL) and resume, and the errors of the MNIST examples.
#include "gpu_test_gate.h"
#include "process_run.h"

#include "io/events/event_file_loader.h"
#include "proto/event.pb.h"

#include "devices/gpu_probe.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <map>

namespace {

using tstudio::testing::ProcessRun;

ProcessRun runTstudio(const QStringList& args) { return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args); }

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The event files of a log directory (not of its subdirectories), sorted by name.
QStringList eventFiles(const QString& dir)
{
    QStringList files = QDir(dir).entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files, QDir::Name);
    for (QString& f : files)
        f = dir + "/" + f;
    return files;
}

/// Every record of `path` through our loader; fails the test on damage.
std::vector<tensorflow::Event> readEvents(const QString& path, bool* ok)
{
    std::vector<tensorflow::Event> events;
    tstudio::events::EventFileLoader loader(path.toStdString());
    std::vector<tstudio::events::LoadWarning> warnings;
    const tstudio::Status s = loader.readNew(
        [&](std::string_view payload, std::uint64_t) {
            tensorflow::Event e;
            e.ParseFromArray(payload.data(), static_cast<int>(payload.size()));
            events.push_back(e);
        },
        warnings);
    *ok = s.isOk() && warnings.empty() && loader.corruptRecords() == 0;
    return events;
}

/// (step -> value) of scalar `tag` as `tstudio events --csv` reports it (the reader's view, with
/// TensorBoard's purges applied). Fails on a duplicated step.
std::map<qint64, double> scalarsFromReader(const QString& logdir, const QString& tag, QString* problem)
{
    std::map<qint64, double> values;
    const ProcessRun r = runTstudio({"events", logdir, "--csv", "--tag", "^" + tag + "$"});
    if (r.exitCode != 0) {
        *problem = r.err;
        return values;
    }
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(',');
        if (cells.size() != 5 || cells[1] != tag)
            continue;
        const qint64 step = cells[2].toLongLong();
        if (values.count(step))
            *problem = QStringLiteral("step %1 appears twice").arg(step);
        values[step] = cells[4].toDouble();
    }
    return values;
}

} // namespace

class TestTstudioTrain : public QObject {
    Q_OBJECT
private slots:
    /// A fresh run: progress lines, the summary line, checkpoints at the asked steps, and an event
    /// file whose records all pass their CRCs, starting with the file_version event.
    void trainsTheBuiltInExample()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString logdir = dir.filePath("run");
        const ProcessRun r = runTstudio({"train", "spirals", "--steps", "400", "--threads", "1", "--logdir", logdir,
                                         "--set", "hooks.checkpoint_every_steps=100", "--set", "hooks.log_every_steps=100"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        // Progress goes to stderr, the result to stdout.
        QVERIFY2(r.err.contains("400/400  loss "), qPrintable(r.err));
        QVERIFY2(!r.out.contains("400/400  loss "), qPrintable(r.out));
        QVERIFY2(r.err.startsWith("training 'Two spirals (2-64-64-2 ReLU, Adam)' ("), qPrintable(r.err));
        QVERIFY2(r.err.section('\n', 0, 0).endsWith("spirals.tsproj)"), qPrintable(r.err));
        // A classifier: its accuracy follows the loss (default_accuracy.h), on the progress line too.
        QVERIFY2(QRegularExpression("400/400  loss [0-9.e-]+  accuracy [0-9.]+  ").match(r.err).hasMatch(), qPrintable(r.err));
        const QRegularExpression summary("trained: global step 0 -> 400 in [0-9:]+ \\([0-9.]+ steps/s\\), final loss "
                                         "([0-9.e-]+), accuracy ([0-9.]+), log directory .*, checkpoint model.ckpt-400\n");
        const auto match = summary.match(r.out);
        QVERIFY2(match.hasMatch(), qPrintable(r.out));
        QVERIFY2(match.captured(1).toDouble() < 0.6, qPrintable(r.out)); // ln 2 = 0.69 is chance level
        QVERIFY2(match.captured(2).toDouble() > 0.5, qPrintable(r.out)); // two classes: 0.5 is chance level

        const QString state = readText(logdir + "/checkpoint");
        QVERIFY2(state.startsWith("model_checkpoint_path: \"model.ckpt-400\""), qPrintable(state));
        for (int step : {0, 100, 200, 300, 400})
            QVERIFY2(QFile::exists(logdir + QStringLiteral("/model.ckpt-%1.index").arg(step)), qPrintable(state));
        QVERIFY(QFile::exists(logdir + "/graph.pbtxt"));

        const QStringList files = eventFiles(logdir);
        QCOMPARE(files.size(), 1);
        QVERIFY(QFileInfo(files[0]).fileName().contains(QRegularExpression("^events\\.out\\.tfevents\\.[0-9]{10}\\.")));
        bool ok = false;
        const auto events = readEvents(files[0], &ok);
        QVERIFY2(ok, "a record of the event file is damaged");
        QVERIFY(events.size() > 3);
        QCOMPARE(QString::fromStdString(events[0].file_version()), QStringLiteral("brain.Event:2"));
        bool graph = false;
        for (const auto& e : events)
            graph = graph || e.has_graph_def();
        QVERIFY(graph);

        // The loss summaries, as our reader gives them, at TensorFlow's steps (1, 101, ...).
        QString problem;
        const auto loss = scalarsFromReader(logdir, "loss", &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(loss.size(), std::size_t{4});
        QCOMPARE(loss.begin()->first, qint64{1});
        QCOMPARE(loss.rbegin()->first, qint64{301});

        // An independent decoder (Python, protoc-generated classes, its own CRC) reads the same.
        if (!tstudio::testing::pythonWithProtobuf())
            QSKIP("/usr/bin/python3 with google.protobuf not available: the independent decoding was not checked");
        const ProcessRun py = tstudio::testing::runProcess(
            QStringLiteral("/usr/bin/python3"), {QStringLiteral(TSTUDIO_SOURCE_DIR "/tools/events/decode_events.py"), logdir});
        QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        const ProcessRun ours = runTstudio({"events", logdir, "--csv"});
        QCOMPARE(ours.out, py.out);
    }

    /// A second fresh run into the same directory would mix two runs' checkpoints: refused.
    void refusesToOverwriteAnEarlierRun()
    {
        QTemporaryDir dir;
        const QString logdir = dir.filePath("run");
        QCOMPARE(runTstudio({"train", "spirals", "--steps", "50", "--logdir", logdir}).exitCode, 0);
        const ProcessRun r = runTstudio({"train", "spirals", "--steps", "100", "--logdir", logdir});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("already holds checkpoints (latest model.ckpt-50); pass --resume"), qPrintable(r.err));
        QVERIFY(readText(logdir + "/checkpoint").startsWith("model_checkpoint_path: \"model.ckpt-50\""));
    }

    /// Killed with SIGKILL mid-run, then started again with --resume: the run continues from the
    /// latest checkpoint's global step, and the event files of both runs read as one curve with
    /// every step once.
    void resumesAfterAKill()
    {
        QTemporaryDir dir;
        const QString logdir = dir.filePath("run");
        QProcess p;
        p.start(QStringLiteral(TSTUDIO_TSTUDIO_EXE),
                {"train", "spirals", "--steps", "100000000", "--threads", "1", "--logdir", logdir, "--set",
                 "hooks.checkpoint_every_steps=200", "--set", "hooks.summary_every_steps=50", "--set",
                 "hooks.checkpoint_every_secs=null"});
        QVERIFY(p.waitForStarted());
        // Wait for a checkpoint past the first (step 0 is written at start), then kill.
        QElapsedTimer clock;
        clock.start();
        QString state;
        while (clock.elapsed() < 60000) {
            state = readText(logdir + "/checkpoint");
            if (state.contains("model.ckpt-") && !state.startsWith("model_checkpoint_path: \"model.ckpt-0\""))
                break;
            QTest::qWait(20);
        }
        QTest::qWait(100); // let it run on past the checkpoint, writing summaries that must be dropped
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        state = readText(logdir + "/checkpoint");
        const QRegularExpression latest("model_checkpoint_path: \"model.ckpt-([0-9]+)\"");
        const auto m = latest.match(state);
        QVERIFY2(m.hasMatch(), qPrintable(state));
        const qint64 restoredStep = m.captured(1).toLongLong();
        QVERIFY2(restoredStep >= 200, qPrintable(state));

        const qint64 target = restoredStep + 300;
        const ProcessRun r = runTstudio({"train", "spirals", "--steps", QString::number(target), "--threads", "1",
                                         "--logdir", logdir, "--resume", "--set", "hooks.checkpoint_every_steps=200",
                                         "--set", "hooks.summary_every_steps=50", "--set", "hooks.checkpoint_every_secs=null"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QStringLiteral("resumed: global step %1 -> %2 ").arg(restoredStep).arg(target)),
                 qPrintable(r.out));
        QVERIFY(readText(logdir + "/checkpoint").startsWith(QStringLiteral("model_checkpoint_path: \"model.ckpt-%1\"").arg(target)));
        QCOMPARE(eventFiles(logdir).size(), 2);

        QString problem;
        const auto loss = scalarsFromReader(logdir, "loss", &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // One curve: steps 1, 51, 101, ... up to the last summary before the target, none twice.
        qint64 expected = 1;
        for (const auto& [step, value] : loss) {
            QCOMPARE(step, expected);
            QVERIFY(std::isfinite(value));
            expected += 50;
        }
        QVERIFY2(expected > target - 50, qPrintable(QStringLiteral("curve ends at %1 of %2").arg(expected - 50).arg(target)));
    }

    /// --device gpu trains on GPU:0 to the CPU's loss, and its checkpoint, written from GPU memory,
    /// resumes in a session with no GPU device (--device cpu), as on a machine without a GPU.
    void trainsOnTheGpuAndResumesOnTheCpu()
    {
        REQUIRE_GPU_OR_SKIP();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QRegularExpression summary("final loss ([0-9.e-]+),");
        double loss[2] = {0, 0};
        for (const bool gpu : {false, true}) {
            const QString logdir = dir.filePath(gpu ? "gpu" : "cpu");
            const ProcessRun r = runTstudio({"train", "spirals", "--steps", "400", "--threads", "1", "--device",
                                             gpu ? "gpu" : "cpu", "--logdir", logdir});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
            const auto match = summary.match(r.out);
            QVERIFY2(match.hasMatch(), qPrintable(r.out));
            loss[gpu] = match.captured(1).toDouble();
        }
        QVERIFY2(loss[1] < 0.6 && std::abs(loss[1] - loss[0]) < 0.05,
                 qPrintable(QStringLiteral("final loss GPU %1, CPU %2").arg(loss[1]).arg(loss[0])));
        const ProcessRun resumed = runTstudio({"train", "spirals", "--steps", "450", "--threads", "1", "--device", "cpu",
                                               "--logdir", dir.filePath("gpu"), "--resume"});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err + resumed.out));
        QVERIFY2(resumed.out.contains("global step 400 -> 450"), qPrintable(resumed.out));
    }

    /// The MNIST examples need their data directory; --device gpu needs a GPU.
    void explainsWhatIsMissing()
    {
        ProcessRun r = runTstudio({"train", "book-mnist"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("data.dir: not set; it must name a folder holding t10k-images-idx3-ubyte[.gz] and "
                                "t10k-labels-idx1-ubyte[.gz]; pass --set data.dir=DIR"),
                 qPrintable(r.err));
        r = runTstudio({"train", "lenet", "--set", "data.dir=/nonexistent"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent"), qPrintable(r.err));
        r = runTstudio({"train", "no-such.tsproj"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no-such.tsproj"), qPrintable(r.err));
        if (!tstudio::probeGpus().devices.empty())
            return; // a GPU is there: trainsOnTheGpu covers --device gpu
        QTemporaryDir dir;
        r = runTstudio({"train", "spirals", "--device", "gpu", "--logdir", dir.filePath("gpu")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("device 'gpu'") && r.err.contains("no usable GPU"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestTstudioTrain)
#include "test_tstudio_train.moc"
