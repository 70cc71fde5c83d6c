// tstudio train --distributed as a user runs it: a world of one without mpirun; under `mpirun -np 2
// --oversubscribe` on localhost, a rank killed mid-training ends the whole job within 10 s with a
// line naming the rank, and the rerun with -np 1 (a different number of ranks) resumes from the
// last checkpoint; a hostfile with a host that does not exist fails before any training, and
// `tstudio hostfile` names the file, line and host. The mpirun cases skip without mpirun.
#include "distributed/mpi_context.h"
#include "project/distributed/distributed_status.h"
#include "io/checkpoint/checkpoint_state.h"
#include "process_run.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <optional>
#include <sys/types.h>
#include <thread>

using namespace tstudio;

namespace {

const QString kTstudio = QStringLiteral(TSTUDIO_TSTUDIO_EXE);
const QString kSpirals = QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj");

QString mpirun()
{
    return QStandardPaths::findExecutable(QStringLiteral("mpirun"));
}

/// mpirun's arguments for `ranks` ranks on localhost, as CI runs them (run_mpi.sh's).
QStringList localRanks(int ranks)
{
    return {QStringLiteral("-np"),
            QString::number(ranks),
            QStringLiteral("--oversubscribe"),
            QStringLiteral("--host"),
            QStringLiteral("localhost:%1").arg(ranks),
            QStringLiteral("--mca"),
            QStringLiteral("btl"),
            QStringLiteral("self,vader,tcp")};
}

/// The spirals example for ever (until killed), a checkpoint every 50 steps, into `logdir`.
QStringList trainArgs(const QString& logdir)
{
    return {kTstudio,
            QStringLiteral("train"),
            kSpirals,
            QStringLiteral("--distributed"),
            QStringLiteral("--logdir"),
            logdir,
            QStringLiteral("--threads"),
            QStringLiteral("1"),
            QStringLiteral("--set"),
            QStringLiteral("hooks.checkpoint_every_steps=50"),
            QStringLiteral("--set"),
            QStringLiteral("hooks.checkpoint_every_secs=null")};
}

/// The global step of the latest checkpoint in `logdir`, or nullopt.
std::optional<std::int64_t> latestStep(const std::filesystem::path& logdir)
{
    auto latest = latestCheckpoint(logdir);
    if (!latest)
        return std::nullopt;
    const std::string name = latest->filename().string();
    const std::size_t dash = name.rfind('-');
    if (dash == std::string::npos)
        return std::nullopt;
    return std::stoll(name.substr(dash + 1));
}

bool processExists(std::int64_t pid)
{
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

void allowRoot(QProcess& p)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
}

} // namespace

class TestTstudioDistributed : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }

    /// Without mpirun: one rank, and the log says so; the run trains and checkpoints as usual.
    void withoutMpirunAWorldOfOne()
    {
        if (!distributed::mpiBuilt()) {
            const auto run =
                testing::runProcess(kTstudio, {QStringLiteral("train"), kSpirals, QStringLiteral("--distributed")});
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(
                         QStringLiteral("this build has no MPI support (install openmpi-bin and libopenmpi-dev)")),
                     qPrintable(run.err));
            return;
        }
        QTemporaryDir dir;
        const QString logdir = dir.path() + QStringLiteral("/run");
        const auto run = testing::runProcess(
            kTstudio, {QStringLiteral("train"), kSpirals, QStringLiteral("--distributed"), QStringLiteral("--scale-lr"),
                       QStringLiteral("--steps"), QStringLiteral("20"), QStringLiteral("--logdir"), logdir});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QString first = run.err.section(QLatin1Char('\n'), 0, 0); // messages go to stderr
        QVERIFY2(first.startsWith(QStringLiteral("rank 0 of 1 on ")), qPrintable(first));
        QVERIFY2(first.contains(QStringLiteral("a world of one (not started by mpirun or srun)")), qPrintable(first));
        QVERIFY2(run.out.contains(QStringLiteral("trained: global step 0 -> 20")), qPrintable(run.out));
        auto status = project::readDistributedStatus(std::filesystem::path(logdir.toStdString()) / "distributed.json");
        QVERIFY2(status, status ? "" : status.error().toString().c_str());
        QCOMPARE(status->state, std::string("finished"));
        QCOMPARE(status->size, 1);
        QCOMPARE(status->lastStep, std::optional<std::int64_t>(20));
        QVERIFY(!std::filesystem::exists(std::filesystem::path(logdir.toStdString()) / "worker_1"));
    }

    void scaleLrNeedsDistributed()
    {
        const auto run =
            testing::runProcess(kTstudio, {QStringLiteral("train"), kSpirals, QStringLiteral("--scale-lr")});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(QStringLiteral("--scale-lr requires --distributed")), qPrintable(run.err));
    }

    /// Kill rank 1 with SIGKILL while the job trains: every rank is gone within 10 s, and the output
    /// names rank 1; then -np 1 with --resume continues from the last checkpoint.
    void killedRankEndsTheJobAndTheRerunResumes()
    {
        if (!distributed::mpiBuilt())
            QSKIP("this build has no MPI support");
        if (mpirun().isEmpty())
            QSKIP("mpirun not found (install openmpi-bin)");
        QTemporaryDir dir;
        const QString logdir = dir.path() + QStringLiteral("/run");
        const std::filesystem::path log(logdir.toStdString());
        QProcess job;
        allowRoot(job);
        job.setProcessChannelMode(QProcess::MergedChannels);
        job.start(mpirun(), localRanks(2) + trainArgs(logdir));
        QVERIFY2(job.waitForStarted(30000), qPrintable(job.errorString()));

        // Wait (at most 180 s) until both ranks train: the status file names them and a checkpoint
        // after step 0 exists.
        std::optional<project::DistributedStatus> status;
        QElapsedTimer waiting;
        waiting.start();
        while (waiting.elapsed() < 180000 && job.state() == QProcess::Running) {
            auto s = project::readDistributedStatus(log / project::kDistributedStatusFileName);
            if (s && s->ranks.size() == 2 && latestStep(log).value_or(0) >= 100) {
                status = *s;
                break;
            }
            job.waitForReadyRead(200);
        }
        QByteArray output = job.readAll();
        QVERIFY2(status, qPrintable(QStringLiteral("the job never got to step 100: ") + QString::fromUtf8(output)));
        QCOMPARE(status->state, std::string("running"));
        QCOMPARE(status->size, 2);
        QVERIFY(output.contains("rank 0 of 2 on ") || output.contains("rank 1 of 2 on "));
        const std::int64_t rank0 = status->ranks[0].pid;
        const std::int64_t rank1 = status->ranks[1].pid;
        QVERIFY(processExists(rank0) && processExists(rank1));

        QElapsedTimer sinceKill;
        sinceKill.start();
        QCOMPARE(::kill(static_cast<pid_t>(rank1), SIGKILL), 0);
        // A hang fails the test after 60 s instead of blocking CTest.
        const bool ended = job.waitForFinished(60000);
        const qint64 ms = sinceKill.elapsed();
        if (!ended) {
            job.kill();
            job.waitForFinished(10000);
        }
        output += job.readAll();
        const QString text = QString::fromUtf8(output);
        QVERIFY2(ended, qPrintable(QStringLiteral("the job still ran 60 s after rank 1 was killed: ") + text));
        qInfo("the job ended %lld ms after rank 1 was killed (exit code %d)", static_cast<long long>(ms),
              job.exitCode());
        QVERIFY2(ms < 10000, qPrintable(QStringLiteral("the job took %1 ms to end").arg(ms)));
        QVERIFY(job.exitStatus() != QProcess::NormalExit || job.exitCode() != 0);
        // mpirun's "process rank 1 with PID ... exited on signal 9 (Killed)", and rank 0's own line
        // naming the rank that is gone (mpirun terminates the others with SIGTERM).
        QVERIFY2(text.contains(QStringLiteral("process rank 1 ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("rank 0 of 2: stopped: the MPI job is ending (rank 1, pid %1 on this "
                                              "host, has exited)")
                                   .arg(rank1)),
                 qPrintable(text));
        // Rank 0 is gone too (nothing hangs in a collective).
        QElapsedTimer reaping;
        reaping.start();
        while (processExists(rank0) && reaping.elapsed() < 5000)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY2(!processExists(rank0), "rank 0 outlived the job");

        // The rerun with one rank resumes from the last checkpoint and trains 20 steps more.
        const std::int64_t last = latestStep(log).value_or(-1);
        QVERIFY(last >= 100);
        QProcess rerun;
        allowRoot(rerun);
        rerun.setProcessChannelMode(QProcess::MergedChannels);
        rerun.start(mpirun(),
                    localRanks(1) + trainArgs(logdir) +
                        QStringList{QStringLiteral("--resume"), QStringLiteral("--steps"), QString::number(last + 20)});
        QVERIFY(rerun.waitForStarted(30000));
        const bool rerunEnded = rerun.waitForFinished(180000);
        const QString rerunText = QString::fromUtf8(rerun.readAll());
        if (!rerunEnded)
            rerun.kill();
        QVERIFY2(rerunEnded && rerun.exitCode() == 0, qPrintable(rerunText));
        QVERIFY2(rerunText.contains(QStringLiteral("rank 0 of 1 on ")), qPrintable(rerunText));
        QVERIFY2(rerunText.contains(QStringLiteral("resumed: global step %1 -> %2").arg(last).arg(last + 20)),
                 qPrintable(rerunText));
        QCOMPARE(latestStep(log), std::optional<std::int64_t>(last + 20));
        auto after = project::readDistributedStatus(log / project::kDistributedStatusFileName);
        QVERIFY(after.has_value());
        QCOMPARE(after->state, std::string("finished"));
        QCOMPARE(after->size, 1);
        QCOMPARE(after->firstStep, std::optional<std::int64_t>(last));
    }

    /// A hostfile naming a host that does not exist: mpirun fails before any rank starts (no
    /// training, no log directory), and `tstudio hostfile` says which host on which line.
    void badHostfileFailsBeforeTraining()
    {
        QTemporaryDir dir;
        const QString hostfile = dir.path() + QStringLiteral("/hosts");
        const std::string text = "# two machines\nlocalhost slots=1\nno-such-host.invalid slots=1\n";
        FILE* f = std::fopen(hostfile.toLocal8Bit().constData(), "w");
        QVERIFY(f);
        std::fputs(text.c_str(), f);
        std::fclose(f);

        const auto checked = testing::runProcess(
            kTstudio, {QStringLiteral("hostfile"), hostfile, QStringLiteral("--np"), QStringLiteral("2")});
        QCOMPARE(checked.exitCode, 1);
        QVERIFY2(checked.err.contains(QStringLiteral("hostfile '%1' line 3: host 'no-such-host.invalid' does not "
                                                     "resolve")
                                          .arg(hostfile)),
                 qPrintable(checked.err));
        const auto tooFew = testing::runProcess(kTstudio, {QStringLiteral("hostfile"), hostfile, QStringLiteral("--np"),
                                                           QStringLiteral("3"), QStringLiteral("--no-resolve")});
        QCOMPARE(tooFew.exitCode, 1);
        QVERIFY2(tooFew.err.contains(QStringLiteral("3 ranks but only 2 slots (localhost 1, no-such-host.invalid 1); "
                                                    "pass --oversubscribe or add slots")),
                 qPrintable(tooFew.err));

        if (mpirun().isEmpty())
            QSKIP("mpirun not found (install openmpi-bin): only `tstudio hostfile` was checked");
        const QString logdir = dir.path() + QStringLiteral("/run");
        QProcess job;
        allowRoot(job);
        job.setProcessChannelMode(QProcess::MergedChannels);
        job.start(mpirun(),
                  QStringList{QStringLiteral("--hostfile"), hostfile, QStringLiteral("-np"), QStringLiteral("2")} +
                      trainArgs(logdir));
        QVERIFY(job.waitForStarted(30000));
        const bool ended = job.waitForFinished(60000);
        if (!ended)
            job.kill();
        const QString out = QString::fromUtf8(job.readAll());
        QVERIFY2(ended, qPrintable(QStringLiteral("mpirun still ran after 60 s: ") + out));
        QVERIFY2(job.exitStatus() != QProcess::NormalExit || job.exitCode() != 0, qPrintable(out));
        // Open MPI's own words: ssh's "Could not resolve hostname no-such-host" (Open MPI drops
        // the domain) and/or "ORTE was unable to reliably start one or more daemons".
        QVERIFY2(out.contains(QStringLiteral("no-such-host")) ||
                     out.contains(QStringLiteral("unable to reliably start")),
                 qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral(" of 2 on ")), qPrintable(out)); // no rank started
        QVERIFY(!std::filesystem::exists(logdir.toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestTstudioDistributed)
#include "test_tstudio_distributed.moc"
