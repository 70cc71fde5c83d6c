// The Training panel's "Run on N processes…": the dialog's choices round-trip through the settings and
// its preview is the exact command line; a job that fails shows mpirun's last relevant lines; Stop
// ends mpirun (SIGTERM, then kill when it ignores it) without blocking; a bad hostfile is refused
// before mpirun starts; and, where Open MPI and `tstudio train --distributed` exist, the spirals
// project trains on 2 processes with rank 0's log directory followed.
#include "project/distributed/mpi_launch.h"
#include "project/format/project_file.h"
#include "registries/default_registries.h"
#include "training/distributed_dialog.h"
#include "training/training_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMap>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <thread>

using namespace tstudio;
using namespace tstudio::training_panel;

namespace {

constexpr char kSpirals[] = TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj";
constexpr char kLenet[] = TSTUDIO_SOURCE_DIR "/examples/projects/lenet.tsproj";
constexpr char kTstudio[] = TSTUDIO_TSTUDIO_EXE;

/// Writes an executable shell script `name` with `body` into `dir`.
QString writeScript(const QTemporaryDir& dir, const QString& name, const QByteArray& body)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

bool hasEventFile(const QString& dir)
{
    return !QDir(dir).entryList({QStringLiteral("*tfevents*")}, QDir::Files).isEmpty();
}

/// PATH with `dir` first, for the test's lifetime.
class PathPrefix {
public:
    explicit PathPrefix(const QString& dir) : m_old(qgetenv("PATH"))
    {
        qputenv("PATH", dir.toLocal8Bit() + ':' + m_old);
    }
    ~PathPrefix() { qputenv("PATH", m_old); }

private:
    QByteArray m_old;
};

} // namespace

class TestDistributedRun : public QObject {
    Q_OBJECT

    /// A panel training the spirals example into `logdir` up to `steps`, its ranks running `tstudio`.
    void bind(TrainingPanel& panel, const QString& logdir, int steps,
              const QString& tstudio = QString::fromLatin1(kTstudio))
    {
        panel.setProjectSource([] { return project::loadProject(kSpirals); }, QStringLiteral("spirals"));
        panel.logDirectoryEdit()->setText(logdir);
        panel.stepsBox()->setValue(steps);
        panel.setTstudioExecutable(tstudio);
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TensorStudioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_distributed_run"));
        QSettings().clear();
        // Open MPI refuses root without these (containers and CI often run as root).
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }

    /// Choices are saved and loaded back; the dialog shows and returns them; the log directory is
    /// not part of what is remembered.
    void choicesRoundTripThroughSettings()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        const DistributedChoices defaults = DistributedChoices::load(settings);
        QCOMPARE(defaults.processes, 2);
        QVERIFY(!defaults.useHostfile);
        QVERIFY(!defaults.scaleLearningRate);

        DistributedChoices chosen;
        chosen.processes = 6;
        chosen.useHostfile = true;
        chosen.hostfile = QStringLiteral("/etc/my hosts");
        chosen.scaleLearningRate = true;
        chosen.logdir = QStringLiteral("/runs/x");
        chosen.save(settings);
        settings.sync();
        QSettings again(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        DistributedChoices loaded = DistributedChoices::load(again);
        QVERIFY(loaded.logdir.isEmpty());
        loaded.logdir = chosen.logdir;
        QVERIFY(loaded == chosen);
        QCOMPARE(again.value(QStringLiteral("training/distributed/hosts")).toString(), QStringLiteral("hostfile"));

        DistributedDialog dialog(loaded, [](const DistributedChoices& c) {
            return DistributedPreview{QStringLiteral("mpirun -np %1").arg(c.processes), QString()};
        });
        QCOMPARE(dialog.processesBox()->value(), 6);
        QVERIFY(dialog.hostfileButton()->isChecked());
        QCOMPARE(dialog.hostfileEdit()->text(), QStringLiteral("/etc/my hosts"));
        QVERIFY(dialog.scaleLearningRateBox()->isChecked());
        QCOMPARE(dialog.logDirectoryEdit()->text(), QStringLiteral("/runs/x"));
        QVERIFY(dialog.choices() == chosen);
        QCOMPARE(dialog.previewText(), QStringLiteral("mpirun -np 6"));
        dialog.processesBox()->setValue(3);
        dialog.thisMachineButton()->setChecked(true);
        QCOMPARE(dialog.previewText(), QStringLiteral("mpirun -np 3"));
        QVERIFY(!dialog.hostfileEdit()->isEnabled());
        QVERIFY(!dialog.choices().useHostfile);
        QVERIFY(dialog.runButton()->isEnabled());
    }

    /// The dialog of the panel previews the exact command; a missing mpirun disables Run and says
    /// what to install.
    void panelPreviewIsTheCommandLine()
    {
        QTemporaryDir bin, logs;
        const QString mpirun = writeScript(bin, QStringLiteral("mpirun"), "exit 0\n");
        PathPrefix path(bin.path());
        TrainingPanel panel(nullptr);
        bind(panel, logs.filePath(QStringLiteral("run 1")), 40, QStringLiteral("/opt/ts/tstudio"));
        panel.resumeBox()->setChecked(true);
        DistributedChoices c;
        c.processes = 3;
        c.scaleLearningRate = true;
        c.logdir = logs.filePath(QStringLiteral("run 1"));
        const DistributedPreview preview = panel.distributedPreview(c);
        QVERIFY2(preview.problem.isEmpty(), qPrintable(preview.problem));
        QCOMPARE(
            preview.commandLine,
            QStringLiteral("%1 -np 3 --host localhost:3 --oversubscribe --tag-output /opt/ts/tstudio train "
                           "'%2/distributed_project.tsproj' --distributed --scale-lr --logdir '%2' --steps 40 --resume "
                           "--threads %3")
                .arg(mpirun, c.logdir)
                .arg(project::threadsPerRankOnThisMachine(3, std::thread::hardware_concurrency())));

        QSignalSpy opened(&panel, &TrainingPanel::distributedDialogOpened);
        panel.openDistributedDialog();
        QCOMPARE(opened.size(), 1);
        auto* dialog = opened.front().at(0).value<DistributedDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->logDirectoryEdit()->text(), c.logdir); // the form's log directory
        QVERIFY(dialog->previewText().contains(QStringLiteral("--steps 40 --resume")));
        dialog->reject();

        qputenv("PATH", QByteArray("/nonexistent"));
        const DistributedPreview none = panel.distributedPreview(c);
        QVERIFY2(none.problem.contains(QStringLiteral("install Open MPI (the openmpi-bin package)")),
                 qPrintable(none.problem));
        QVERIFY(!panel.startDistributed(c));
        QVERIFY2(panel.statusText().contains(QStringLiteral("mpirun was not found")), qPrintable(panel.statusText()));
    }

    /// The replication is the project's: the dialog opens on it, the parameter servers count only when
    /// asynchronous, a count that leaves no worker is refused, and the launched project carries the choice.
    void replicationIsTheProjectsSetting()
    {
        QTemporaryDir bin, logs;
        writeScript(bin, QStringLiteral("mpirun"), "exit 0\n");
        PathPrefix path(bin.path());
        TrainingPanel panel(nullptr);
        bind(panel, logs.filePath(QStringLiteral("run")), 40, QStringLiteral("/opt/ts/tstudio"));
        panel.setProjectSource(
            [] {
                auto p = project::loadProject(kSpirals);
                if (p) {
                    p->distributed.asynchronous = true;
                    p->distributed.psTasks = 2;
                }
                return p;
            },
            QStringLiteral("spirals"));
        QSignalSpy opened(&panel, &TrainingPanel::distributedDialogOpened);
        panel.openDistributedDialog();
        QCOMPARE(opened.size(), 1);
        auto* dialog = opened.front().at(0).value<DistributedDialog*>();
        QCOMPARE(dialog->replicationBox()->currentIndex(), 1);
        QCOMPARE(dialog->psTasksBox()->value(), 2);
        QVERIFY(dialog->psTasksBox()->isEnabled());
        QVERIFY(!dialog->scaleLearningRateBox()->isEnabled());
        dialog->processesBox()->setValue(2);
        QVERIFY2(dialog->problemText().contains(QStringLiteral("leave no worker")), qPrintable(dialog->problemText()));
        QVERIFY(!dialog->runButton()->isEnabled());
        dialog->processesBox()->setValue(3);
        QVERIFY(dialog->runButton()->isEnabled());
        QVERIFY(dialog->choices().asynchronous);
        dialog->replicationBox()->setCurrentIndex(0);
        QVERIFY(!dialog->psTasksBox()->isEnabled());
        QVERIFY(dialog->scaleLearningRateBox()->isEnabled());
        QVERIFY(!dialog->choices().asynchronous);
        dialog->reject();
    }

    /// A job that fails: the status shows the headline and the ranks' and mpirun's last lines
    /// (progress lines left out), the console got every line with its rank, the GUI goes on.
    void failedJobShowsItsLastLines()
    {
        QTemporaryDir bin, logs;
        writeScript(bin, QStringLiteral("mpirun"),
                    "echo \"[1,0]<stderr>:training 'spirals'\" >&2\n"
                    "echo '[1,0]<stderr>:10/40  loss 0.5  20.0 steps/s  ETA 0:01' >&2\n"
                    "echo '[1,0]<stderr>:eval at step 10: loss = 0.5 (4 batches, 0.01 s)' >&2\n"
                    "echo '[1,1]<stderr>:error: rank 1 lost its connection' >&2\n"
                    "echo '--------------------------------------------------' >&2\n"
                    "echo 'mpirun detected that one or more processes exited with non-zero status' >&2\n"
                    "exit 3\n");
        PathPrefix path(bin.path());
        TrainingPanel panel(nullptr);
        const QString logdir = logs.filePath(QStringLiteral("run"));
        bind(panel, logdir, 40, QStringLiteral("/bin/true"));
        QSignalSpy output(&panel, &TrainingPanel::processOutput);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        DistributedChoices c;
        c.logdir = logdir;
        QVERIFY(panel.startDistributed(c));
        QVERIFY(panel.isRunning());
        QCOMPARE(panel.distributedProcesses(), 2);
        QVERIFY(!panel.startButton()->isEnabled());
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString message = finished.front().at(1).toString();
        QVERIFY2(message.startsWith(QStringLiteral("Training on 2 processes failed (mpirun exit code 3)")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("rank 1: error: rank 1 lost its connection")), qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("mpirun detected that one or more processes exited")));
        QVERIFY(!message.contains(QStringLiteral("steps/s")));
        QVERIFY(!message.contains(QStringLiteral("-----")));
        QVERIFY2(panel.statusText().contains(QStringLiteral("rank 1 lost its connection")),
                 qPrintable(panel.statusText()));
        QVERIFY(!message.contains(QStringLiteral("eval at step")));
        // stdout and stderr are separate pipes: their lines' order between them is not fixed.
        QCOMPARE(output.size(), 6);
        QMap<QString, QString> sourceOf;
        QMap<QString, bool> errorOf;
        for (const auto& args : output) {
            sourceOf[args.at(1).toString()] = args.at(0).toString();
            errorOf[args.at(1).toString()] = args.at(2).toBool();
        }
        QCOMPARE(sourceOf.value(QStringLiteral("training 'spirals'")), QStringLiteral("rank 0"));
        // tstudio train reports on stderr; its reports are no errors.
        QCOMPARE(errorOf.value(QStringLiteral("training 'spirals'")), false);
        QCOMPARE(errorOf.value(QStringLiteral("eval at step 10: loss = 0.5 (4 batches, 0.01 s)")), false);
        QCOMPARE(sourceOf.value(QStringLiteral("error: rank 1 lost its connection")), QStringLiteral("rank 1"));
        QCOMPARE(errorOf.value(QStringLiteral("error: rank 1 lost its connection")), true);
        QCOMPARE(
            sourceOf.value(QStringLiteral("mpirun detected that one or more processes exited with non-zero status")),
            QStringLiteral("mpirun"));
        // Rank 0's progress line reached the panel.
        QCOMPARE(panel.lastProgress().step, std::int64_t(10));
        QCOMPARE(panel.lastProgress().lastStep, std::int64_t(40));
        QVERIFY(!panel.isRunning());
        QVERIFY(panel.startButton()->isEnabled());
        // The project every rank trains was written beside the log, with its graph path rebased.
        auto written = project::loadProject((logdir + QStringLiteral("/distributed_project.tsproj")).toStdString());
        QVERIFY2(written, written ? "" : written.error().toString().c_str());
        QCOMPARE(written->name, std::string("Two spirals (2-64-64-2 ReLU, Adam)"));
        QVERIFY(project::readProjectGraph(*written));
    }

    /// Stop sends SIGTERM: a job that ends on it stops at once; one that ignores it is killed after
    /// the grace period. The GUI thread is never blocked meanwhile.
    void stopTerminatesThenKills()
    {
        QTemporaryDir bin, logs;
        writeScript(bin, QStringLiteral("mpirun"),
                    "trap 'echo terminated by SIGTERM >&2; exit 143' TERM\n"
                    "echo '[1,0]<stdout>:5/1000  loss 0.7  50.0 steps/s  ETA 0:20'\n"
                    "while true; do sleep 0.1; done\n");
        PathPrefix path(bin.path());
        TrainingPanel panel(nullptr);
        bind(panel, logs.filePath(QStringLiteral("run")), 1000, QStringLiteral("/bin/true"));
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QSignalSpy output(&panel, &TrainingPanel::processOutput);
        DistributedChoices c;
        c.processes = 4;
        c.logdir = logs.filePath(QStringLiteral("run"));
        QVERIFY(panel.startDistributed(c));
        QTRY_COMPARE_WITH_TIMEOUT(panel.lastProgress().step, std::int64_t(5), 10000);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Running on 4 processes")),
                 qPrintable(panel.statusText()));
        QVERIFY(panel.stopButton()->isEnabled());
        QElapsedTimer clock;
        clock.start();
        panel.stop();
        QVERIFY(clock.elapsed() < 500); // stop() returns at once
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.front().at(0).toBool(), true); // stopped by the user: not a failure
        QVERIFY2(panel.statusText().contains(QStringLiteral("Stopped the 4 processes at step 5")),
                 qPrintable(panel.statusText()));
        bool sawTerm = false;
        for (const auto& args : output)
            sawTerm = sawTerm || args.at(1).toString() == QStringLiteral("terminated by SIGTERM");
        QVERIFY(sawTerm);

        // A process that ignores SIGTERM is killed after the grace period.
        QTemporaryDir bin2;
        writeScript(bin2, QStringLiteral("mpirun"), "trap '' TERM\necho started\nwhile true; do sleep 0.1; done\n");
        PathPrefix stubbornPath(bin2.path());
        finished.clear();
        panel.setStopGraceMs(300);
        QVERIFY(panel.startDistributed(c));
        QSignalSpy started(&panel, &TrainingPanel::processOutput);
        QVERIFY(started.wait(10000)); // "started": the trap is set
        clock.restart();
        panel.stop();
        QVERIFY(finished.wait(10000));
        QVERIFY(clock.elapsed() >= 250);
        QVERIFY(!panel.isRunning());
    }

    /// A hostfile that cannot hold the ranks is refused before mpirun starts, naming the file.
    void badHostfileIsRefusedBeforeLaunch()
    {
        QTemporaryDir bin, logs;
        writeScript(bin, QStringLiteral("mpirun"), "echo should not run >&2\nexit 9\n");
        PathPrefix path(bin.path());
        const QString hostfile = logs.filePath(QStringLiteral("hosts"));
        QFile file(hostfile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# one slot here\nlocalhost slots=1\n");
        file.close();
        TrainingPanel panel(nullptr);
        bind(panel, logs.filePath(QStringLiteral("run")), 40, QStringLiteral("/bin/true"));
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QSignalSpy output(&panel, &TrainingPanel::processOutput);
        DistributedChoices c;
        c.processes = 3;
        c.useHostfile = true;
        c.hostfile = hostfile;
        c.logdir = logs.filePath(QStringLiteral("run"));
        QVERIFY(panel.startDistributed(c));
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString message = finished.front().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("3 ranks but only 1 slot")) &&
                     message.contains(QStringLiteral("hosts")),
                 qPrintable(message));
        // In the dialog's words: it has no --oversubscribe to pass.
        QVERIFY2(!message.contains(QStringLiteral("--oversubscribe")) &&
                     message.contains(QStringLiteral("choose fewer processes")),
                 qPrintable(message));
        QVERIFY(output.isEmpty()); // mpirun never ran
        QVERIFY(!panel.isRunning());
    }

    /// What the ranks would fail on at their start is found before mpirun starts, off the GUI thread,
    /// in the panel's words: a data folder without MNIST's files names the field and the panel's
    /// Browse…, not `tstudio train`'s --set. A settings problem that still comes from a rank gets the
    /// panel's remedy too, in the console and in the status.
    void settingsProblemsAreSaidInThePanelsWords()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, registries ? "" : registries.error().toString().c_str());
        QTemporaryDir bin, logs;
        writeScript(bin, QStringLiteral("mpirun"), "echo should not run >&2\nexit 9\n");
        PathPrefix path(bin.path());
        TrainingPanel panel(registries->get());
        panel.setProjectSource([] { return project::loadProject(kLenet); }, QStringLiteral("lenet"));
        const QString logdir = logs.filePath(QStringLiteral("run"));
        panel.logDirectoryEdit()->setText(logdir);
        panel.stepsBox()->setValue(10);
        panel.setTstudioExecutable(QStringLiteral("/bin/true"));
        const QString empty = logs.filePath(QStringLiteral("mnist"));
        QVERIFY(QDir().mkpath(empty));
        panel.dataFolderEdit()->setText(empty);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QSignalSpy output(&panel, &TrainingPanel::processOutput);
        DistributedChoices c;
        c.logdir = logdir;
        QVERIFY(panel.startDistributed(c));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Checking the project")), qPrintable(panel.statusText()));
        QVERIFY(panel.isRunning());
        QCOMPARE(panel.distributedProcesses(), 2);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString message = finished.front().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("data.dir: directory '%1' has no t10k-images-idx3-ubyte").arg(empty)),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("set the Data folder in the Training panel (Browse…)")) &&
                     !message.contains(QStringLiteral("--")),
                 qPrintable(message));
        QVERIFY2(panel.statusText().contains(QStringLiteral("set the Data folder")), qPrintable(panel.statusText()));
        QVERIFY(output.isEmpty()); // mpirun never ran
        QVERIFY(!QFile::exists(logdir + QStringLiteral("/distributed_project.tsproj")));
        QVERIFY(!panel.isRunning());
        QCOMPARE(panel.distributedProcesses(), 0);

        // A rank that says it in `tstudio train`'s words (a stand-in mpirun here).
        QTemporaryDir bin2;
        writeScript(bin2, QStringLiteral("mpirun"),
                    "echo \"[1,1]<stderr>:error: NotFound: lenet.tsproj: data.sources[0] (mnist): data.dir: '/gone' is "
                    "not a directory; pass --set data.dir=DIR\" >&2\nexit 1\n");
        PathPrefix path2(bin2.path());
        bind(panel, logs.filePath(QStringLiteral("run2")), 10, QStringLiteral("/bin/true"));
        finished.clear();
        QVERIFY(panel.startDistributed(c));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString failed = finished.front().at(1).toString();
        const QString inPanelWords = QStringLiteral("data.dir: '/gone' is not a directory; set the Data folder in the "
                                                    "Training panel (Browse…)");
        QVERIFY2(failed.contains(QStringLiteral("rank 1: error: NotFound: lenet.tsproj: data.sources[0] (mnist): ") +
                                 inPanelWords),
                 qPrintable(failed));
        QVERIFY2(!failed.contains(QStringLiteral("--set")), qPrintable(failed));
        QCOMPARE(output.size(), 1);
        QCOMPARE(output.front().at(0).toString(), QStringLiteral("rank 1"));
        QVERIFY2(output.front().at(1).toString().endsWith(inPanelWords), qPrintable(output.front().at(1).toString()));
    }

    /// The real thing: Open MPI runs `tstudio train --distributed` on 2 ranks on this machine; the
    /// panel shows rank 0's progress, signals runStarted on rank 0's log directory (what the main
    /// window's dashboard follows), and the job ends with rank 0's checkpoint and both ranks' events.
    void trainsOnTwoProcesses()
    {
        const QString mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
        if (mpirun.isEmpty())
            QSKIP("mpirun not found (install openmpi-bin): the 2-process run through the panel is skipped");
        QProcess help;
        help.start(QString::fromLatin1(kTstudio), {QStringLiteral("train"), QStringLiteral("--help")});
        QVERIFY(help.waitForFinished(60000));
        if (!help.readAllStandardOutput().contains("--distributed"))
            QSKIP("this tstudio has no `train --distributed` yet: the 2-process run through the panel is skipped");
        QTemporaryDir logs;
        const QString logdir = logs.filePath(QStringLiteral("run"));
        TrainingPanel panel(nullptr);
        bind(panel, logdir, 20);
        QSignalSpy started(&panel, &TrainingPanel::runStarted);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QSignalSpy output(&panel, &TrainingPanel::processOutput);
        QSignalSpy progressed(&panel, &TrainingPanel::progressed);
        DistributedChoices c;
        c.processes = 2;
        c.logdir = logdir;
        QVERIFY(panel.startDistributed(c));
        QVERIFY(finished.wait(240000));
        QStringList lines;
        for (const auto& args : output)
            lines << args.at(0).toString() + QStringLiteral(": ") + args.at(1).toString();
        QVERIFY2(finished.front().at(0).toBool(),
                 qPrintable(finished.front().at(1).toString() + "\n" + lines.join('\n')));
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.front().at(0).toString(), logdir);
        // Rank 0's own progress line (redrawn on its terminal) reached the panel, not only the end.
        QVERIFY(!progressed.isEmpty());
        QCOMPARE(progressed.back().at(0).value<project::TrainProgress>().step, std::int64_t(20));
        QCOMPARE(panel.lastProgress().step, std::int64_t(20));
        bool rank1Spoke = false;
        for (const auto& args : output)
            rank1Spoke = rank1Spoke || args.at(0).toString() == QStringLiteral("rank 1");
        QVERIFY2(rank1Spoke, qPrintable(lines.join('\n')));
        QVERIFY(hasEventFile(logdir));
        QVERIFY(QFile::exists(logdir + QStringLiteral("/model.ckpt-20.index")));
        QVERIFY(hasEventFile(logdir + QStringLiteral("/worker_1")));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Finished on 2 processes at step 20")),
                 qPrintable(panel.statusText()));
    }

    /// Asynchronous through the panel: 1 parameter server and 2 workers; the ranks say who they are
    /// and the server its updates; the project the ranks read says "async".
    void trainsAsynchronouslyOnThreeProcesses()
    {
        const QString mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
        if (mpirun.isEmpty())
            QSKIP("mpirun not found (install openmpi-bin): the 3-process run through the panel is skipped");
        QTemporaryDir logs;
        const QString logdir = logs.filePath(QStringLiteral("run"));
        TrainingPanel panel(nullptr);
        bind(panel, logdir, 40);
        QSignalSpy finished(&panel, &TrainingPanel::runFinished);
        QSignalSpy output(&panel, &TrainingPanel::processOutput);
        DistributedChoices c;
        c.processes = 3;
        c.logdir = logdir;
        c.asynchronous = true;
        c.psTasks = 1;
        QVERIFY(panel.startDistributed(c));
        QVERIFY(finished.wait(240000));
        QStringList lines;
        for (const auto& args : output)
            lines << args.at(0).toString() + QStringLiteral(": ") + args.at(1).toString();
        QVERIFY2(finished.front().at(0).toBool(),
                 qPrintable(finished.front().at(1).toString() + "\n" + lines.join('\n')));
        auto written = project::loadProject((logdir + QStringLiteral("/distributed_project.tsproj")).toStdString());
        QVERIFY(written);
        QVERIFY(written->distributed.asynchronous);
        const QString all = lines.join('\n');
        QVERIFY2(all.contains(QStringLiteral("rank 0 of 3: worker 0 of 2 (the chief), 1 ps task")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("job:ps/task:0 -> rank 2: ")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("parameter server: ")), qPrintable(all));
        QVERIFY(hasEventFile(logdir));
        QVERIFY(hasEventFile(logdir + QStringLiteral("/worker_1")));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Finished on 3 processes at step 4")),
                 qPrintable(panel.statusText()));
    }
};

QTEST_MAIN(TestDistributedRun)
#include "test_distributed_run.moc"
