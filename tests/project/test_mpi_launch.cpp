// mpi_launch.h: mpirun's argument list for this machine and for a hostfile (scaled learning rate,
// paths with spaces), the shell line shown to the user, finding mpirun and tstudio, each rank's log
// directory, and reading mpirun's tagged output, rank 0's progress lines and a failed job's reasons.
#include "project/distributed/mpi_launch.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::project;

namespace {

using Args = std::vector<std::string>;

std::string joined(const Args& args)
{
    std::string out;
    for (const std::string& a : args)
        out += (out.empty() ? "" : "|") + a;
    return out;
}

/// Writes an executable (or not) file `name` into `dir`.
std::filesystem::path writeFile(const QTemporaryDir& dir, const QString& name, bool executable)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write("#!/bin/sh\nexit 0\n");
    file.close();
    file.setPermissions(executable ? QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                   : QFile::ReadOwner | QFile::WriteOwner);
    return path.toStdString();
}

} // namespace

class TestMpiLaunch : public QObject {
    Q_OBJECT

private slots:
    void thisMachine()
    {
        MpiLaunch launch;
        launch.processes = 4;
        launch.tstudio = "/opt/ts/tstudio";
        launch.project = "/p/spirals.tsproj";
        auto args = mpirunArguments(launch);
        QVERIFY(args);
        QCOMPARE(joined(*args),
                 std::string("-np|4|--host|localhost:4|--oversubscribe|--tag-output|/opt/ts/tstudio|train|"
                             "/p/spirals.tsproj|--distributed"));
    }

    void threadsPerRankOnOneMachine()
    {
        QCOMPARE(threadsPerRankOnThisMachine(2, 2), 1);
        QCOMPARE(threadsPerRankOnThisMachine(2, 16), 8);
        QCOMPARE(threadsPerRankOnThisMachine(3, 16), 5);
        QCOMPARE(threadsPerRankOnThisMachine(4, 2), 1);
        MpiLaunch launch;
        launch.processes = 2;
        launch.tstudio = "/opt/ts/tstudio";
        launch.project = "/p/spirals.tsproj";
        launch.threadsPerRank = 8;
        auto args = mpirunArguments(launch);
        QVERIFY(args);
        QCOMPARE(joined(*args), std::string("-np|2|--host|localhost:2|--oversubscribe|--tag-output|/opt/ts/tstudio|"
                                            "train|/p/spirals.tsproj|--distributed|--threads|8"));
    }

    void hostfileScaledWithEverything()
    {
        MpiLaunch launch;
        launch.processes = 8;
        launch.hosts = MpiHosts::kHostfile;
        launch.hostfile = "/etc/cluster/hosts";
        launch.scaleLearningRate = true;
        launch.tagOutput = false;
        launch.tstudio = "/opt/ts/tstudio";
        launch.project = "/p/a.tsproj";
        launch.logdir = "/runs/a";
        launch.steps = 500;
        launch.resume = true;
        auto args = mpirunArguments(launch);
        QVERIFY(args);
        QCOMPARE(joined(*args), std::string("-np|8|--hostfile|/etc/cluster/hosts|/opt/ts/tstudio|train|/p/a.tsproj|"
                                            "--distributed|--scale-lr|--logdir|/runs/a|--steps|500|--resume"));
    }

    /// Paths with spaces stay one argument each; the shell line quotes them so that it pastes.
    void pathsWithSpaces()
    {
        MpiLaunch launch;
        launch.processes = 2;
        launch.hosts = MpiHosts::kHostfile;
        launch.hostfile = "/home/me/my hosts";
        launch.tstudio = "/opt/Tensor Studio/tstudio";
        launch.project = "/home/me/My Projects/it's.tsproj";
        launch.logdir = "/home/me/runs/run 1";
        auto args = mpirunArguments(launch);
        QVERIFY(args);
        QCOMPARE(args->size(), std::size_t(11));
        QCOMPARE((*args)[3], std::string("/home/me/my hosts"));
        QCOMPARE((*args)[5], std::string("/opt/Tensor Studio/tstudio"));
        QCOMPARE((*args)[7], std::string("/home/me/My Projects/it's.tsproj"));
        QCOMPARE((*args)[10], std::string("/home/me/runs/run 1"));
        QCOMPARE(shellCommandLine("/usr/bin/mpirun", *args),
                 std::string("/usr/bin/mpirun -np 2 --hostfile '/home/me/my hosts' --tag-output "
                             "'/opt/Tensor Studio/tstudio' train '/home/me/My Projects/it'\\''s.tsproj' --distributed "
                             "--logdir '/home/me/runs/run 1'"));
    }

    void shellQuoting()
    {
        QCOMPARE(shellQuote("plain-path/a_b.c:1,2@x%y+z=w"), std::string("plain-path/a_b.c:1,2@x%y+z=w"));
        QCOMPARE(shellQuote(""), std::string("''"));
        QCOMPARE(shellQuote("a b"), std::string("'a b'"));
        QCOMPARE(shellQuote("$HOME"), std::string("'$HOME'"));
        QCOMPARE(shellQuote("x'y"), std::string("'x'\\''y'"));
    }

    void refusesWhatCannotRun()
    {
        MpiLaunch launch;
        launch.tstudio = "/t";
        launch.project = "/p.tsproj";
        launch.processes = 0;
        auto none = mpirunArguments(launch);
        QVERIFY(!none);
        QCOMPARE(none.error().message(), std::string("the number of processes must be at least 1, got 0"));
        launch.processes = 2;
        launch.hosts = MpiHosts::kHostfile;
        auto noFile = mpirunArguments(launch);
        QVERIFY(!noFile);
        QCOMPARE(noFile.error().message(), std::string("choose a hostfile for the ranks"));
        launch.hosts = MpiHosts::kThisMachine;
        launch.project.clear();
        QVERIFY(!mpirunArguments(launch));
    }

    void findsExecutablesOnPath()
    {
        QTemporaryDir a, b;
        writeFile(a, QStringLiteral("mpirun"), false); // not executable: skipped
        const auto real = writeFile(b, QStringLiteral("mpirun"), true);
        const std::string path = a.path().toStdString() + ":" + b.path().toStdString();
        auto found = findExecutableOnPath("mpirun", path);
        QVERIFY(found);
        QCOMPARE(found->string(), real.string());
        QVERIFY(!findExecutableOnPath("mpirun", a.path().toStdString()));
        QVERIFY(!findExecutableOnPath("mpiexec", path));
        QCOMPARE(findExecutableOnPath(real.string(), "")->string(), real.string()); // a path is taken as is
        auto located = locateMpirun(path);
        QVERIFY(located);
        auto missing = locateMpirun(a.path().toStdString());
        QVERIFY(!missing);
        QCOMPARE(missing.error().message(),
                 std::string("mpirun was not found on PATH: install Open MPI (the openmpi-bin package) to train on "
                             "several processes"));
    }

    void findsTstudioNextToTheProgram()
    {
        QTemporaryDir dir;
        const auto gui = writeFile(dir, QStringLiteral("tensorstudio"), true);
        auto missing = locateTstudio(gui);
        QVERIFY(!missing);
        QCOMPARE(missing.error().message(), "tstudio was not found next to " + gui.string() + " (expected " +
                                                (gui.parent_path() / "tstudio").string() + ")");
        const auto cli = writeFile(dir, QStringLiteral("tstudio"), true);
        auto found = locateTstudio(gui);
        QVERIFY(found);
        QCOMPARE(found->string(), cli.string());
    }

    void rankZeroOwnsTheLogDirectory()
    {
        QCOMPARE(rankLogDirectory("/runs/a", 0).string(), std::string("/runs/a"));
        QCOMPARE(rankLogDirectory("/runs/a", 1).string(), std::string("/runs/a/worker_1"));
        QCOMPARE(rankLogDirectory("/runs/a b", 12).string(), std::string("/runs/a b/worker_12"));
    }

    void tagsOfOutputLines()
    {
        MpiOutputLine out = parseMpiOutputLine("[1,0]<stdout>:training 'spirals'", false);
        QCOMPARE(out.rank, 0);
        QVERIFY(!out.error);
        QCOMPARE(out.text, std::string("training 'spirals'"));
        MpiOutputLine err = parseMpiOutputLine("[3,12]<stderr>:error: rank 1 died", false);
        QCOMPARE(err.rank, 12);
        QVERIFY(err.error);
        QCOMPARE(err.text, std::string("error: rank 1 died"));
        MpiOutputLine old = parseMpiOutputLine("[1,1]:hello", true);
        QCOMPARE(old.rank, 1);
        QVERIFY(old.error);
        QCOMPARE(old.text, std::string("hello"));
        // mpirun's own lines and brackets that are not a tag stay whole.
        for (const char* line : {"mpirun has detected an attempt to run as root.", "[x,0]<stdout>:a", "[1,0]text",
                                 "[1]<stdout>:a", "[ ]"}) {
            MpiOutputLine own = parseMpiOutputLine(line, true);
            QCOMPARE(own.rank, -1);
            QVERIFY(own.error);
            QCOMPARE(own.text, std::string(line));
        }
    }

    /// What Open MPI 4.1 forwarded from `tstudio train --distributed` on 2 ranks (rank 0 on a
    /// terminal redraws its progress line), fed in pieces cut anywhere, tags and escapes included.
    void readerSplitsRedrawnProgress()
    {
        const std::string raw = "[1,0]<stdout>:rank 0 of 2 on vm (pid 31728)\n"
                                "[1,0]<stdout>:\r[########----------------]  100/300  loss 0.2351  1286.5 steps/s  ETA "
                                "0:00\033[K\r[################--------]  200/300  loss 0.05137  1379.4 steps/s  ETA "
                                "0:00\033[K[1,0]<stdout>:\r[########################]  300/300  loss 0.01688  1114.9 "
                                "steps/s  ETA 0:00\033[K[1,1]<stdout>:rank 1 done\n"
                                "[1,0]<stdout>:\n"
                                "mpirun: untagged\n"
                                "[1,0]<stdout>:trained: global step 0 -> 300";
        for (std::size_t cut : {std::size_t(1), std::size_t(7), std::size_t(13), raw.size()}) {
            MpiOutputReader reader(false);
            std::vector<MpiOutputLine> lines;
            for (std::size_t i = 0; i < raw.size(); i += cut)
                for (MpiOutputLine& l : reader.feed(std::string_view(raw).substr(i, cut)))
                    lines.push_back(std::move(l));
            for (MpiOutputLine& l : reader.finish())
                lines.push_back(std::move(l));
            QCOMPARE(lines.size(), std::size_t(7));
            QCOMPARE(lines[0].rank, 0);
            QCOMPARE(lines[0].text, std::string("rank 0 of 2 on vm (pid 31728)"));
            for (int i = 1; i <= 3; ++i) {
                QCOMPARE(lines[i].rank, 0);
                auto p = parseMpiProgress(lines[i].text);
                QVERIFY2(p, lines[i].text.c_str());
                QCOMPARE(p->step, std::int64_t(100 * i));
                QCOMPARE(p->lastStep, std::int64_t(300));
            }
            QCOMPARE(lines[4].rank, 1);
            QCOMPARE(lines[4].text, std::string("rank 1 done"));
            QCOMPARE(lines[5].rank, -1);
            QVERIFY(!lines[5].error);
            QCOMPARE(lines[5].text, std::string("mpirun: untagged"));
            QCOMPARE(lines[6].rank, 0);
            QCOMPARE(lines[6].text, std::string("trained: global step 0 -> 300"));
        }
        // A progress update is complete at its "\033[K", before the next one arrives.
        MpiOutputReader reader(false);
        auto first = reader.feed("[1,0]<stdout>:\r[##--]  1/4  loss 1  2.0 steps/s  ETA 0:02\033[K");
        QCOMPARE(first.size(), std::size_t(1));
        QVERIFY(parseMpiProgress(first[0].text));
        // stderr: an untagged line is an error, a tagged one the rank's own stream.
        MpiOutputReader errors(true);
        auto both = errors.feed("[1,1]<stdout>:out\nplain\n");
        QCOMPARE(both.size(), std::size_t(2));
        QVERIFY(!both[0].error);
        QVERIFY(both[1].error);
    }

    void progressLines()
    {
        auto bar = parseMpiProgress("[######------------------]  1200/3000  loss 0.2345  52.3 steps/s  ETA 0:34");
        QVERIFY(bar);
        QCOMPARE(bar->step, std::int64_t(1200));
        QCOMPARE(bar->lastStep, std::int64_t(3000));
        QVERIFY(bar->loss && std::abs(*bar->loss - 0.2345) < 1e-12);
        QCOMPARE(bar->stepsPerSecond, 52.3);
        auto plain = parseMpiProgress("100/200  0.0 steps/s  ETA --:--");
        QVERIFY(plain);
        QVERIFY(!plain->loss);
        QCOMPARE(plain->step, std::int64_t(100));
        auto nan = parseMpiProgress("5/10  loss nan  1.0 steps/s  ETA 0:05");
        QVERIFY(nan && nan->loss && std::isnan(*nan->loss));
        // A classifier's line carries its accuracy (default_accuracy.h) after the loss.
        auto accuracy = parseMpiProgress("20/100  loss 0.3357  accuracy 0.92  13.0 steps/s  ETA 0:06");
        QVERIFY(accuracy && accuracy->loss && accuracy->accuracy);
        QCOMPARE(*accuracy->accuracy, 0.92);
        QVERIFY(!plain->accuracy);
        QVERIFY(!parseMpiProgress("training 'spirals' (/p/s.tsproj)"));
        QVERIFY(!parseMpiProgress("3/4"));
        QVERIFY(!parseMpiProgress("eval at step 100: accuracy 0.9 (10 batches, 0.20 s)"));
        QVERIFY(!parseMpiProgress(""));
    }

    /// tstudio train's reports on stderr (progress, "training", "eval at step", the rank's first line)
    /// are told apart from errors.
    void trainReportLines()
    {
        QVERIFY(isTrainReportLine("[######------------------]  1200/3000  loss 0.2345  52.3 steps/s  ETA 0:34"));
        QVERIFY(isTrainReportLine("training 'spirals' (/p/s.tsproj)"));
        QVERIFY(isTrainReportLine("eval at step 100: loss = 0.3, accuracy = 0.9 (4 batches, 0.02 s)"));
        QVERIFY(isTrainReportLine("rank 0 of 2 on vm (pid 31728); ranks: 0 vm (pid 31728), 1 vm (pid 31729)"));
        QVERIFY(!isTrainReportLine("rank 0 of 2: stopped: the MPI job is ending (another rank failed)"));
        QVERIFY(!isTrainReportLine("rank 1 of 2 on vm (pid 31729): global step 0 -> 20, event files in /l/worker_1"));
        QVERIFY(!isTrainReportLine("error: NotFound: lenet.tsproj: data.dir: '/gone' is not a folder"));
        QVERIFY(!isTrainReportLine("terminate called after throwing an instance of 'std::bad_alloc'"));
        QVERIFY(!isTrainReportLine("3/4"));
        QVERIFY(!isTrainReportLine(""));

        // A failure's explanation leaves rank 0's reports on stderr out.
        std::vector<MpiOutputLine> tail = {
            {0, true, "training 'spirals' (/p/s.tsproj)"},
            {0, true, "eval at step 100: loss = 0.3 (4 batches, 0.02 s)"},
            {1, true, "error: rank 1: the allreduce of 'w' failed"},
        };
        const auto lines = mpiFailureLines(tail, 8);
        QCOMPARE(lines.size(), std::size_t(1));
        QCOMPARE(lines[0].rank, 1);
    }

    void failureLinesSkipNoise()
    {
        std::vector<MpiOutputLine> tail = {
            {0, false, "training 'spirals'"},
            {0, false, "100/200  loss 0.5  10.0 steps/s  ETA 0:10"},
            {1, true, "error: rank 1: the allreduce of 'w' failed"},
            {-1, true, "--------------------------------------------------------------------------"},
            {-1, true, "Primary job  terminated normally, but 1 process returned"},
            {-1, true, "a non-zero exit code. Per user-direction, the job has been aborted."},
            {-1, true, "--------------------------------------------------------------------------"},
            {-1, true, "--------------------------------------------------------------------------"},
            {-1, true, "mpirun detected that one or more processes exited with non-zero status, thus causing"},
            {-1, true, ""},
            {-1, true, "  Process name: [[4562,1],1]  "},
            {-1, true, "  Exit code:    1"},
            {-1, true, "--------------------------------------------------------------------------"},
        };
        const auto lines = mpiFailureLines(tail, 3);
        QCOMPARE(lines.size(), std::size_t(3));
        QCOMPARE(lines[0].rank, 1);
        QCOMPARE(lines[0].text, std::string("error: rank 1: the allreduce of 'w' failed"));
        QCOMPARE(lines[1].text,
                 std::string("mpirun detected that one or more processes exited with non-zero status, thus causing"));
        QCOMPARE(lines[2].text, std::string("Process name: [[4562,1],1]"));
        QCOMPARE(mpiFailureLines(tail, 8).back().text, std::string("Exit code:    1"));

        // mpirun's refusal as root: its message from the headline, not its last lines.
        std::vector<MpiOutputLine> root = {
            {-1, true, "-----"},
            {-1, true, "mpirun has detected an attempt to run as root."},
            {-1, true, ""},
            {-1, true, "Running as root is *strongly* discouraged as any mistake (e.g., in"},
            {-1, true, "defining TMPDIR) or bug can result in catastrophic damage to the OS"},
            {-1, true, "We reiterate our advice against doing so - please proceed at your own risk."},
            {-1, true, "-----"}};
        const auto refused = mpiFailureLines(root, 2);
        QCOMPARE(refused.size(), std::size_t(2));
        QCOMPARE(refused[0].text, std::string("mpirun has detected an attempt to run as root."));

        // Rank 1 killed (-9) during a real 2-rank run on Open MPI 4.1: what mpirun then wrote.
        const std::string killed = "rank 0 of 2: stopped: the MPI job is ending (rank 1, pid 16442 on this host, has "
                                   "exited); the last checkpoint in the log directory stays the latest";
        std::vector<MpiOutputLine> dead = {
            {0, false, "95900/2000000  loss 0.005515  1657.5 steps/s  ETA 19:09"},
            {-1, true, "--------------------------------------------------------------------------"},
            {-1, true, "Primary job  terminated normally, but 1 process returned"},
            {-1, true, "a non-zero exit code. Per user-direction, the job has been aborted."},
            {-1, true, "--------------------------------------------------------------------------"},
            {0, true, killed},
            {-1, true, "--------------------------------------------------------------------------"},
            {-1, true, "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed)."},
            {-1, true, "--------------------------------------------------------------------------"}};
        const auto died = mpiFailureLines(dead, 8);
        QCOMPARE(died.size(), std::size_t(2));
        QCOMPARE(died[0].rank, 0);
        QCOMPARE(died[0].text, killed);
        QCOMPARE(died[1].text,
                 std::string("mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed)."));

        // Only the ranks' stdout: its last lines.
        std::vector<MpiOutputLine> plain = {{0, false, "a"}, {0, false, "b"}, {1, false, "c"}};
        const auto last = mpiFailureLines(plain, 2);
        QCOMPARE(last.size(), std::size_t(2));
        QCOMPARE(last[0].text, std::string("b"));
        QCOMPARE(last[1].text, std::string("c"));
    }
};

QTEST_GUILESS_MAIN(TestMpiLaunch)
#include "test_mpi_launch.moc"
