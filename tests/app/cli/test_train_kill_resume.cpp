// Nothing lost (issue #52 point 7): `tstudio train` killed with SIGKILL at seeded random moments
// (startup, steps, checkpoint saves, event writes, best-checkpoint copies) always leaves a log
// directory that resumes from its latest complete checkpoint with one continuous loss curve, and a
// full disk (a small tmpfs in a user namespace) during a save fails clearly, keeping the previous
// checkpoint as the latest.
#include "process_run.h"

#include "project/run/best_checkpoint.h"
#include "framework/allocator.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/checkpoint_state.h"
#include "proto/event.pb.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstring>
#include <map>
#include <optional>
#include <poll.h>
#include <random>
#include <set>
#include <sys/inotify.h>
#include <unistd.h>

namespace {

using tstudio::testing::ProcessRun;

constexpr int kCheckpointEvery = 100;
constexpr int kSummaryEvery = 20;
constexpr int kProgressEvery = 10;
/// 100 rounds take about 3.5 minutes on a busy 2-core machine: the everyday run does 30 (CI's whole
/// build and test run has a time limit), and scripts/check-deep.sh runs 100 (TSTUDIO_KILL_ROUNDS).
constexpr int kDefaultKillRounds = 30;

ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args);
}

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// --- An event-file decoder of our own: TFRecord framing with a CRC32C written here, Events parsed
// by protobuf. It shares nothing with the engine's loader or accumulator, which it cross-checks.

std::uint32_t crc32c(const char* data, std::size_t n)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i)
        c = table[(c ^ static_cast<unsigned char>(data[i])) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

std::uint32_t maskedCrc(const char* data, std::size_t n)
{
    const std::uint32_t c = crc32c(data, n);
    return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

struct DecodedFile {
    std::vector<tensorflow::Event> events;
    bool truncatedTail = false; ///< the file ends inside a record (a writer killed mid-write)
    QString damage;             ///< a CRC or parse failure before the end: real corruption
};

DecodedFile decodeEventFile(const QString& path)
{
    DecodedFile out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.damage = path + ": cannot open";
        return out;
    }
    const QByteArray bytes = f.readAll();
    const char* data = bytes.constData();
    const qsizetype size = bytes.size();
    qsizetype pos = 0;
    auto u32 = [&](qsizetype at) {
        std::uint32_t v;
        std::memcpy(&v, data + at, 4);
        return v;
    };
    while (pos < size) {
        if (size - pos < 12) {
            out.truncatedTail = true;
            return out;
        }
        std::uint64_t length;
        std::memcpy(&length, data + pos, 8);
        if (maskedCrc(data + pos, 8) != u32(pos + 8)) {
            out.damage = QStringLiteral("%1: header CRC mismatch at offset %2").arg(path).arg(pos);
            return out;
        }
        if (length > static_cast<std::uint64_t>(size - pos - 12) ||
            size - pos - 12 - static_cast<qsizetype>(length) < 4) {
            out.truncatedTail = true;
            return out;
        }
        const char* payload = data + pos + 12;
        if (maskedCrc(payload, length) != u32(pos + 12 + static_cast<qsizetype>(length))) {
            out.damage = QStringLiteral("%1: data CRC mismatch at offset %2").arg(path).arg(pos);
            return out;
        }
        tensorflow::Event e;
        if (!e.ParseFromArray(payload, static_cast<int>(length))) {
            out.damage = QStringLiteral("%1: record at offset %2 is not an Event").arg(path).arg(pos);
            return out;
        }
        out.events.push_back(std::move(e));
        pos += 12 + static_cast<qsizetype>(length) + 4;
    }
    return out;
}

/// The event files directly in `dir`, in writing order: by the seconds in the name, then shorter
/// names first ("X" before "X.1" before "X.10", the writer's names for files opened in one second).
QStringList eventFilesInOrder(const QString& dir)
{
    QStringList files = QDir(dir).entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files);
    std::sort(files.begin(), files.end(), [](const QString& a, const QString& b) {
        const QString sa = a.mid(20, 10), sb = b.mid(20, 10);
        if (sa != sb)
            return sa < sb;
        if (a.size() != b.size())
            return a.size() < b.size();
        return a < b;
    });
    for (QString& f : files)
        f = dir + "/" + f;
    return files;
}

/// The step of a model.ckpt-N prefix (or file name), -1 when it is not one.
qint64 stepOfPrefix(const QString& prefix)
{
    static const QRegularExpression re("model\\.ckpt-([0-9]+)$");
    const auto m = re.match(QFileInfo(prefix).fileName());
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

/// Empty when the checkpoint `prefix` opens with the engine's reader, every tensor reads back (the
/// reader checks each one's CRC) and its global_step holds `step`; else what is wrong.
QString checkpointProblem(const QString& prefix, qint64 step)
{
    auto reader = tstudio::CheckpointReader::open(prefix.toStdString());
    if (!reader)
        return prefix + ": " + QString::fromStdString(reader.error().toString());
    tstudio::CpuAllocator cpu;
    bool sawStep = false;
    for (const auto& info : reader->tensors()) {
        auto t = reader->read(info.name, cpu);
        if (!t)
            return prefix + ": " + QString::fromStdString(t.error().toString());
        if (info.name == "global_step") {
            if (t->dtype() != tensorflow::DT_INT64 || t->numElements() != 1)
                return prefix + ": global_step is not an int64 scalar";
            const qint64 value = t->scalar<std::int64_t>();
            if (value != step)
                return QStringLiteral("%1: global_step holds %2, the name says %3").arg(prefix).arg(value).arg(step);
            sawStep = true;
        }
    }
    return sawStep ? QString() : prefix + ": no global_step tensor";
}

/// The latest checkpoint step of `dir` after checking its state file: it parses, names a complete
/// checkpoint (and so does every entry of all_model_checkpoint_paths). -1 when there is no state
/// file yet; *problem set on damage.
qint64 checkStateFile(const QString& dir, QString* problem)
{
    if (!QFile::exists(dir + "/checkpoint"))
        return -1;
    auto state = tstudio::readCheckpointState(dir.toStdString());
    if (!state) {
        *problem = dir + "/checkpoint: " + QString::fromStdString(state.error().toString());
        return -1;
    }
    const QString latest = QString::fromStdString(state->model_checkpoint_path());
    const qint64 step = stepOfPrefix(latest);
    if (step < 0) {
        *problem = dir + "/checkpoint names " + latest + ", not a model.ckpt-N prefix";
        return -1;
    }
    *problem = checkpointProblem(latest, step);
    for (const std::string& other : state->all_model_checkpoint_paths()) {
        if (!problem->isEmpty())
            break;
        const QString p = QString::fromStdString(other);
        if (!QFile::exists(p + ".index") || !QFile::exists(p + ".data-00000-of-00001"))
            *problem = dir + "/checkpoint lists " + p + ", whose files are missing";
    }
    return step;
}

/// The best-checkpoint copy (eval.best, the run's export) is readable whenever it exists.
QString bestCopyProblem(const QString& logdir)
{
    const QString best = logdir + "/best";
    auto record = tstudio::project::readBestCheckpointRecord(best.toStdString());
    if (!record)
        return QString::fromStdString(record.error().toString());
    if (*record) {
        const QString prefix = best + "/" + QString::fromStdString((*record)->checkpoint);
        if (QString p = checkpointProblem(prefix, (*record)->step); !p.isEmpty())
            return "best_metric.json names an unreadable copy: " + p;
    }
    QString problem;
    checkStateFile(best, &problem);
    return problem.isEmpty() ? QString() : "best/: " + problem;
}

/// Leftovers of interrupted writes: the bundle writer's "*.tempstate*" files, the sharded save's
/// "model.ckpt-N_temp_*" directories, writeFileAtomically's ".NAME.tmpNNN" files, the best copy's
/// "NAME.tmp" files.
QStringList tempLeftovers(const QString& dir)
{
    static const QRegularExpression hiddenTemp("^\\..*\\.tmp[0-9]+$");
    QStringList found;
    for (const QString& name : QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot))
        if (name.contains(".tempstate") || name.contains("_temp_") || hiddenTemp.match(name).hasMatch() ||
            name.endsWith(".tmp"))
            found << name;
    return found;
}

/// inotify on a directory and the directories created in it (best/, eval/, a sharded save's temp
/// directory), so that a kill can be timed to a file being created, renamed or written.
class DirWatch {
public:
    struct Change {
        std::uint32_t mask;
        QString name;
    };
    explicit DirWatch(const QString& dir) : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) { add(dir); }
    ~DirWatch()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool valid() const { return m_fd >= 0; }
    /// Waits up to `ms` for changes and returns them (new subdirectories are watched too).
    std::vector<Change> wait(int ms)
    {
        std::vector<Change> changes;
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, ms) <= 0)
            return changes;
        alignas(inotify_event) char buffer[16384];
        for (;;) {
            const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
            if (n <= 0)
                break;
            for (ssize_t at = 0; at < n;) {
                const auto* e = reinterpret_cast<const inotify_event*>(buffer + at);
                const QString name = e->len ? QString::fromUtf8(e->name) : QString();
                if ((e->mask & IN_CREATE) && (e->mask & IN_ISDIR) && m_dirs.count(e->wd))
                    add(m_dirs[e->wd] + "/" + name);
                changes.push_back({e->mask, name});
                at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
            }
        }
        return changes;
    }

private:
    void add(const QString& dir)
    {
        const int wd = inotify_add_watch(m_fd, QFile::encodeName(dir).constData(), IN_CREATE | IN_MOVED_TO | IN_MODIFY);
        if (wd >= 0)
            m_dirs[wd] = dir;
    }
    int m_fd;
    std::map<int, QString> m_dirs;
};

/// When a round's process is killed.
struct KillPlan {
    enum Kind { kAfterDelay, kAtTempFile, kAtRename, kAtEventWrite };
    Kind kind = kAfterDelay;
    int delayMs = 0; ///< kAfterDelay: from the process's start
    int nth = 1;     ///< the other kinds: at the nth such change in the log directory
    int extraUs = 0; ///< then this much later
};

const char* kindName(KillPlan::Kind k)
{
    switch (k) {
    case KillPlan::kAfterDelay: return "timed";
    case KillPlan::kAtTempFile: return "temp file created";
    case KillPlan::kAtRename: return "file renamed into place";
    case KillPlan::kAtEventWrite: return "event file written";
    }
    return "?";
}

bool matches(const KillPlan& plan, const DirWatch::Change& c)
{
    switch (plan.kind) {
    case KillPlan::kAtTempFile:
        return (c.mask & IN_CREATE) && (c.name.contains(".tempstate") || c.name.contains("_temp_") ||
                                        c.name.contains(QRegularExpression("\\.tmp[0-9]*$")));
    case KillPlan::kAtRename: return (c.mask & IN_MOVED_TO) != 0;
    case KillPlan::kAtEventWrite: return (c.mask & IN_MODIFY) && c.name.startsWith("events.out.tfevents.");
    case KillPlan::kAfterDelay: break;
    }
    return false;
}

/// A project the test writes: the spirals example with checkpoints every 100 steps, summaries every
/// 20, progress every 10, and an evaluation after each checkpoint that keeps the best checkpoint in
/// <logdir>/best (the export a run makes as it goes).
QString writeProject(const QString& dir, bool withEval)
{
    QFile in(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj"));
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QJsonObject p = QJsonDocument::fromJson(in.readAll()).object();
    QJsonObject graph = p["graph"].toObject();
    graph["file"] = QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/") + graph["file"].toString();
    p["graph"] = graph;
    p["steps"] = 100000000;
    QJsonObject hooks = p["hooks"].toObject();
    hooks["checkpoint_every_steps"] = kCheckpointEvery;
    hooks["checkpoint_every_secs"] = QJsonValue::Null;
    hooks["summary_every_steps"] = withEval ? QJsonValue(kSummaryEvery) : QJsonValue(QJsonValue::Null);
    hooks["log_every_steps"] = withEval ? QJsonValue(kProgressEvery) : QJsonValue(QJsonValue::Null);
    p["hooks"] = hooks;
    if (withEval) {
        QJsonObject source = p["data"].toObject()["sources"].toArray().at(0).toObject();
        source["seed"] = 2;
        source["points_per_class"] = 100;
        QJsonObject eval{{"sources", QJsonArray{source}},
                         {"every_steps", QJsonValue::Null},
                         {"every_secs", QJsonValue::Null},
                         {"after_checkpoint", true},
                         {"steps", QJsonValue::Null},
                         {"batch_size", QJsonValue::Null},
                         {"metrics", QJsonArray{QJsonObject{{"kind", "loss"}}}},
                         {"best", QJsonObject{{"metric", "loss"}, {"mode", "min"}}}};
        p["eval"] = eval;
    }
    const QString path = dir + (withEval ? "/kill.tsproj" : "/disk.tsproj");
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write(QJsonDocument(p).toJson());
    return path;
}

/// The first progress line's step ("110/100000000  loss ...") minus the progress period: the step
/// the run started from; -1 when it printed none.
qint64 startStepFromProgress(const QString& out)
{
    static const QRegularExpression line("^([0-9]+)/[0-9]+  loss ", QRegularExpression::MultilineOption);
    const auto m = line.match(out);
    return m.hasMatch() ? m.captured(1).toLongLong() - kProgressEvery : -1;
}

/// The step of the first SessionLog START among `events`, -1 when none.
qint64 firstStart(const std::vector<tensorflow::Event>& events)
{
    for (const auto& e : events)
        if (e.has_session_log() && e.session_log().status() == tensorflow::SessionLog::START)
            return e.step();
    return -1;
}

int envInt(const char* name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok ? v : fallback;
}

} // namespace

class TestTrainKillResume : public QObject {
    Q_OBJECT
private slots:
    /// TSTUDIO_KILL_ROUNDS rounds (default kDefaultKillRounds; TSTUDIO_KILL_SEED fixes the seed): each starts
    /// `tstudio train --resume` and SIGKILLs it at a moment drawn from the seeded generator: after a
    /// random delay, or right when the n-th temporary file appears, the n-th file is renamed into
    /// place, or the n-th write reaches an event file. After every kill the state file names a
    /// checkpoint that reads back whole, never older than the one before, and the best copy reads
    /// back; the next run starts from that checkpoint (its first progress line and the step of its
    /// SessionLog START say so). A last run finishes, and every event file, decoded here, gives one
    /// loss curve: every summary step once after the START purges, none missing.
    void killedAtRandomMomentsResumesWithOneCurve()
    {
        const int rounds = envInt("TSTUDIO_KILL_ROUNDS", kDefaultKillRounds);
        const quint64 seed = qEnvironmentVariableIsSet("TSTUDIO_KILL_SEED")
                                 ? qEnvironmentVariable("TSTUDIO_KILL_SEED").toULongLong()
                                 : std::random_device{}();
        qInfo("kill-and-resume: %d rounds, seed %llu (TSTUDIO_KILL_SEED=%llu repeats them)", rounds,
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
        std::mt19937_64 rng(seed);
        auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = writeProject(dir.path(), true);
        QVERIFY(!project.isEmpty());
        const QString logdir = dir.filePath("run");
        QVERIFY(QDir().mkpath(logdir));

        std::map<KillPlan::Kind, int> byKind;
        int interruptedSaves = 0, byProgress = 0, byStart = 0, triggerMissed = 0, truncatedTails = 0;
        qint64 latest = -1; // the state file's step after the previous kill (-1: no state file yet)
        QElapsedTimer total;
        total.start();
        for (int round = 0; round < rounds; ++round) {
            KillPlan plan;
            const int pick = uniform(0, 99);
            plan.kind = pick < 35   ? KillPlan::kAfterDelay
                        : pick < 60 ? KillPlan::kAtTempFile
                        : pick < 85 ? KillPlan::kAtRename
                                    : KillPlan::kAtEventWrite;
            // A run spends about its first second starting (loading the project, the restore) and
            // then saves a checkpoint (and evaluates, and maybe copies the best) every ~0.1 s: the
            // delays cover both, the counts reach the first few saves of a run.
            plan.delayMs = uniform(0, 2800);
            plan.nth = plan.kind == KillPlan::kAtTempFile ? uniform(1, 24)
                       : plan.kind == KillPlan::kAtRename ? uniform(1, 30)
                                                          : uniform(1, 40);
            plan.extraUs = uniform(0, 1500);
            ++byKind[plan.kind];
            const QString what = QStringLiteral("round %1 (%2, delay %3 ms, nth %4, +%5 us)")
                                     .arg(round)
                                     .arg(kindName(plan.kind))
                                     .arg(plan.delayMs)
                                     .arg(plan.nth)
                                     .arg(plan.extraUs);

            const QStringList filesBefore = eventFilesInOrder(logdir);
            const QStringList tempsBefore = tempLeftovers(logdir);
            DirWatch watch(logdir);
            QVERIFY(watch.valid());
            QProcess p;
            const QString outPath = dir.filePath(QStringLiteral("out-%1.txt").arg(round));
            p.setStandardOutputFile(outPath);
            p.setStandardErrorFile(dir.filePath(QStringLiteral("err-%1.txt").arg(round)));
            QStringList args{"train", project, "--threads", "1", "--logdir", logdir};
            if (round > 0)
                args << "--resume";
            QElapsedTimer clock;
            p.start(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args);
            QVERIFY(p.waitForStarted());
            clock.start();
            const pid_t pid = static_cast<pid_t>(p.processId());
            // A count not reached in 4 s (a run slowed down by a busy machine) is a timed kill then.
            const int limitMs = plan.kind == KillPlan::kAfterDelay ? plan.delayMs : 4000;
            int seen = 0;
            bool triggered = plan.kind == KillPlan::kAfterDelay;
            while (clock.elapsed() < limitMs) {
                const int left = static_cast<int>(limitMs - clock.elapsed());
                bool fire = false;
                for (const auto& change : watch.wait(std::max(0, std::min(left, 5))))
                    if (!fire && plan.kind != KillPlan::kAfterDelay && matches(plan, change) && ++seen == plan.nth)
                        fire = true;
                if (fire) {
                    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(plan.extraUs);
                    while (std::chrono::steady_clock::now() < until) {
                    }
                    triggered = true;
                    break;
                }
            }
            if (!triggered)
                ++triggerMissed;
            ::kill(pid, SIGKILL);
            QVERIFY(p.waitForFinished(20000));
            const QString out = readText(outPath);
            QVERIFY2(p.exitStatus() == QProcess::CrashExit,
                     qPrintable(what + ": the run ended by itself: " + out +
                                readText(dir.filePath(QStringLiteral("err-%1.txt").arg(round)))));

            // This run restored the checkpoint the previous kill left as the latest (step 0 when
            // there was none): its progress and its event file's START say where it started.
            const qint64 expectedStart = std::max<qint64>(latest, 0);
            if (const qint64 s = startStepFromProgress(out); s >= 0) {
                QVERIFY2(s == expectedStart,
                         qPrintable(QStringLiteral("%1: started from step %2, the latest checkpoint was %3")
                                        .arg(what)
                                        .arg(s)
                                        .arg(expectedStart)));
                ++byProgress;
            }
            for (const QString& file : eventFilesInOrder(logdir)) {
                if (filesBefore.contains(file))
                    continue;
                const DecodedFile decoded = decodeEventFile(file);
                QVERIFY2(decoded.damage.isEmpty(), qPrintable(what + ": " + decoded.damage));
                if (const qint64 start = firstStart(decoded.events); start >= 0) {
                    QVERIFY2(
                        start == expectedStart + 1,
                        qPrintable(QStringLiteral("%1: SessionLog START at step %2 in %3, the latest checkpoint was %4")
                                       .arg(what)
                                       .arg(start)
                                       .arg(file)
                                       .arg(expectedStart)));
                    ++byStart;
                }
            }

            // What the kill left: a state file naming a complete checkpoint, never going back.
            QString problem;
            const qint64 now = checkStateFile(logdir, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(what + ": " + problem));
            QVERIFY2(now >= latest, qPrintable(QStringLiteral("%1: the latest checkpoint went back from %2 to %3")
                                                   .arg(what)
                                                   .arg(latest)
                                                   .arg(now)));
            latest = now;
            problem = bestCopyProblem(logdir);
            QVERIFY2(problem.isEmpty(), qPrintable(what + ": " + problem));
            if (tempLeftovers(logdir).size() > tempsBefore.size())
                ++interruptedSaves;
        }
        const double killSeconds = static_cast<double>(total.elapsed()) / 1000.0;

        // The last run finishes from the latest checkpoint and removes what killed saves left.
        // (With a few rounds only step 0's checkpoint may exist, or none: the run is then a fresh one.)
        const qint64 restored = std::max<qint64>(latest, 0);
        const qint64 target = restored + 300;
        const ProcessRun last = runTstudio(
            {"train", project, "--threads", "1", "--logdir", logdir, "--resume", "--steps", QString::number(target)});
        QVERIFY2(last.exitCode == 0, qPrintable(last.err + last.out));
        QVERIFY2(last.out.contains(QStringLiteral("%1 global step %2 -> %3 ")
                                       .arg(restored > 0 ? "resumed:" : "trained:")
                                       .arg(restored)
                                       .arg(target)),
                 qPrintable(last.out));
        QString problem;
        QCOMPARE(checkStateFile(logdir, &problem), target);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(tempLeftovers(logdir).isEmpty(), qPrintable("left behind: " + tempLeftovers(logdir).join(", ")));
        QVERIFY2(tempLeftovers(logdir + "/best").isEmpty(),
                 qPrintable("left behind in best/: " + tempLeftovers(logdir + "/best").join(", ")));

        // One curve, decoded here with TensorBoard's rule: a SessionLog START at step S drops the
        // samples at steps >= S written before it (the steps after the checkpoint a run resumed from).
        std::map<qint64, float> loss;
        const QStringList files = eventFilesInOrder(logdir);
        for (qsizetype i = 0; i < files.size(); ++i) {
            const DecodedFile decoded = decodeEventFile(files[i]);
            QVERIFY2(decoded.damage.isEmpty(), qPrintable(decoded.damage));
            // Only a killed run's file may end inside a record; the last run closed its file.
            QVERIFY2(!decoded.truncatedTail || i + 1 < files.size(), qPrintable(files[i] + " ends inside a record"));
            truncatedTails += decoded.truncatedTail ? 1 : 0;
            for (const auto& e : decoded.events) {
                if (e.has_session_log() && e.session_log().status() == tensorflow::SessionLog::START)
                    loss.erase(loss.lower_bound(e.step()), loss.end());
                if (!e.has_summary())
                    continue;
                for (const auto& v : e.summary().value()) {
                    if (v.tag() != "loss")
                        continue;
                    QVERIFY2(
                        !loss.count(e.step()),
                        qPrintable(
                            QStringLiteral("loss at step %1 twice after the purges (%2)").arg(e.step()).arg(files[i])));
                    QVERIFY(std::isfinite(v.simple_value()));
                    loss[e.step()] = v.simple_value();
                }
            }
        }
        // Summaries at TensorFlow's steps 1, 21, 41, ... (every checkpoint step is a multiple of the
        // period, so a resumed run keeps the phase): none missing up to the last run's end.
        qint64 expected = 1;
        for (const auto& [step, value] : loss) {
            QVERIFY2(step == expected,
                     qPrintable(QStringLiteral("the curve has step %1 where %2 was due").arg(step).arg(expected)));
            expected += kSummaryEvery;
        }
        QVERIFY2(expected > target - kSummaryEvery,
                 qPrintable(QStringLiteral("the curve ends at %1 of %2").arg(expected - kSummaryEvery).arg(target)));

        // The product's reader (`tstudio events`, the dashboard's accumulator) sees the same curve.
        const ProcessRun csv = runTstudio({"events", logdir, "--csv", "--tag", "^loss$"});
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        std::map<qint64, double> read;
        const QStringList lines = csv.out.split('\n', Qt::SkipEmptyParts);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(',');
            if (cells.size() != 5 || cells[1] != "loss" || cells[0].contains("eval"))
                continue;
            QVERIFY2(!read.count(cells[2].toLongLong()), qPrintable("tstudio events: step twice: " + lines[i]));
            read[cells[2].toLongLong()] = cells[4].toDouble();
        }
        QCOMPARE(read.size(), loss.size());
        for (const auto& [step, value] : loss) {
            QVERIFY2(read.count(step), qPrintable(QStringLiteral("tstudio events lacks step %1").arg(step)));
            QVERIFY(std::abs(read[step] - static_cast<double>(value)) <= 1e-6 * std::max(1.0, std::abs(read[step])));
        }
        // The evaluation's event files hold no damage either (a killed writer may end mid-record).
        for (const QString& file : eventFilesInOrder(logdir + "/eval")) {
            const DecodedFile decoded = decodeEventFile(file);
            QVERIFY2(decoded.damage.isEmpty(), qPrintable(decoded.damage));
        }

        QString kinds;
        for (const auto& [kind, count] : byKind)
            kinds += QStringLiteral("%1%2 %3").arg(kinds.isEmpty() ? "" : ", ").arg(count).arg(kindName(kind));
        qInfo("kill-and-resume: %d kills in %.1f s (%s; %d counts not reached, killed at 4 s); %d left an "
              "interrupted write behind; restores checked by the progress line %d times, by the SessionLog START "
              "%d times; %d event files ended inside a record; final curve %zu loss points up to step %lld",
              rounds, killSeconds, qPrintable(kinds), triggerMissed, interruptedSaves, byProgress, byStart,
              truncatedTails, loss.size(), static_cast<long long>(target));
        if (rounds >= 20) // a few rounds may all end during start-up
            QVERIFY2(byProgress + byStart > 0, "no resumed run got far enough to show where it started");
    }

    /// The log directory on a small tmpfs (mounted in a user namespace) that holds the run's first
    /// checkpoints but not a later one; sizes sweep where the later save runs out: its data, its
    /// index, its .meta, the state file. Each run fails with ResourceExhausted naming the file and
    /// "No space left on device"; the state file still names the checkpoint before, which reads
    /// back whole and resumes; nothing of the failed save is left (no temporary files, no files of
    /// a checkpoint the state file does not list).
    void fullDiskDuringASaveKeepsThePreviousCheckpoint()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir().mkpath(dir.filePath("probe")));
        const ProcessRun probe =
            tstudio::testing::runProcess("unshare", {"--user", "--map-root-user", "--mount", "mount", "-t", "tmpfs",
                                                     "-o", "size=64k", "tmpfs", dir.filePath("probe")});
        if (probe.exitCode != 0)
            QSKIP(
                qPrintable("cannot mount a tmpfs in a user namespace here (unshare --user --map-root-user --mount): " +
                           probe.err.trimmed() + "; the full-disk case was not checked"));
        const QString project = writeProject(dir.path(), false);
        QVERIFY(!project.isEmpty());
        const QStringList common{"--threads", "1"};

        // A reference run on the real disk: what two checkpoints take, in 4 KiB pages as tmpfs counts.
        const QString ref = dir.filePath("ref");
        const ProcessRun r = runTstudio(QStringList{"train", project, "--logdir", ref, "--steps", "100"} + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto pages = [](qint64 bytes) { return (bytes + 4095) / 4096 * 4; };
        qint64 used = 0;
        for (const QFileInfo& f : QDir(ref).entryInfoList(QDir::Files | QDir::Hidden))
            used += pages(f.size());
        const qint64 data = pages(QFileInfo(ref + "/model.ckpt-100.data-00000-of-00001").size());
        const qint64 index = pages(QFileInfo(ref + "/model.ckpt-100.index").size());
        const qint64 meta = pages(QFileInfo(ref + "/model.ckpt-100.meta").size());
        QVERIFY(data > 8 && meta > 8);
        // Room for the events of the steps to 200 too (a few SessionLogs: one page).
        const qint64 base = used + 4;
        const std::vector<qint64> sizes{base + data / 2, base + data, base + data + index,
                                        base + data + index + meta / 2, base + data + index + meta};

        std::set<QString> stages;
        for (const qint64 kib : sizes) {
            const QString mount = dir.filePath(QStringLiteral("mnt-%1").arg(kib));
            const QString copy = dir.filePath(QStringLiteral("copy-%1").arg(kib));
            QVERIFY(QDir().mkpath(mount) && QDir().mkpath(copy));
            const QString what = QStringLiteral("tmpfs of %1 KiB").arg(kib);
            // Inside the namespace: mount, train, then copy the log directory out before the mount goes.
            const QString script = QStringLiteral("mount -t tmpfs -o size=%1k tmpfs \"$1\" || exit 90; "
                                                  "shift; \"$@\"; rc=$?; cp -a \"$0\"/. \"%2\"/; exit $rc")
                                       .arg(kib)
                                       .arg(copy);
            const ProcessRun run = tstudio::testing::runProcess(
                "unshare", QStringList{"--user", "--map-root-user", "--mount", "sh", "-c", script, mount, mount,
                                       QStringLiteral(TSTUDIO_TSTUDIO_EXE), "train", project, "--logdir",
                                       mount + "/run", "--steps", "100000"} +
                               common);
            QVERIFY2(run.exitCode != 90, qPrintable(what + ": mount failed: " + run.err));
            QVERIFY2(run.exitCode == 1,
                     qPrintable(QStringLiteral("%1: exit %2: %3%4").arg(what).arg(run.exitCode).arg(run.err, run.out)));
            QVERIFY2(run.err.contains("No space left on device") && run.err.contains(mount + "/run/"),
                     qPrintable(what + ": " + run.err));
            // The first quoted path is the file that did not fit ("run/model.ckpt-200_temp_.../part-..." for
            // a sharded save's data).
            static const QRegularExpression named("'[^']*/run/([^']*)'");
            const auto m = named.match(run.err);
            QVERIFY2(m.hasMatch(), qPrintable(what + ": the error names no file of the log directory: " + run.err));
            const QString failedFile = m.captured(1);
            stages.insert(QString(failedFile)
                              .replace(QRegularExpression("[0-9a-f]{32}"), "ID")
                              .replace(QRegularExpression("[0-9]+"), "N"));
            const QString logdir = copy + "/run";

            // The state file names a complete checkpoint older than the one that failed.
            QString problem;
            const qint64 latest = checkStateFile(logdir, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(what + ": " + problem));
            QVERIFY2(latest >= 0, qPrintable(what + ": no state file"));
            static const QRegularExpression failedStep("^\\.?model\\.ckpt-([0-9]+)");
            if (const auto f = failedStep.match(failedFile); f.hasMatch())
                QVERIFY2(latest < f.captured(1).toLongLong(),
                         qPrintable(QStringLiteral("%1: the state file names model.ckpt-%2 though its save failed: %3")
                                        .arg(what)
                                        .arg(latest)
                                        .arg(run.err)));
            QVERIFY2(QFile::exists(logdir + QStringLiteral("/model.ckpt-%1.meta").arg(latest)), qPrintable(what));
            // ... and the error says so, and what to do.
            QVERIFY2(run.err.contains(
                         QStringLiteral("; the latest checkpoint, model.ckpt-%1 in '%2/run', is intact: free some "
                                        "space and resume from it")
                             .arg(latest)
                             .arg(mount)),
                     qPrintable(what + ": " + run.err));

            // Nothing of the failed save stays behind.
            QVERIFY2(tempLeftovers(logdir).isEmpty(),
                     qPrintable(what + ": left behind: " + tempLeftovers(logdir).join(", ")));
            auto state = tstudio::readCheckpointState(logdir.toStdString());
            QVERIFY(state.has_value());
            std::set<qint64> listed;
            for (const std::string& p : state->all_model_checkpoint_paths())
                listed.insert(stepOfPrefix(QString::fromStdString(p)));
            for (const QString& name : QDir(logdir).entryList({"model.ckpt-*"}, QDir::Files)) {
                const qint64 step = name.section('.', 1, 1).mid(5).toLongLong();
                QVERIFY2(listed.count(step),
                         qPrintable(what + ": " + name + " belongs to no checkpoint the state file lists"));
            }
            // The event file decodes (a write that ran out of room may end it inside a record).
            for (const QString& file : eventFilesInOrder(logdir))
                QVERIFY2(decodeEventFile(file).damage.isEmpty(),
                         qPrintable(what + ": " + decodeEventFile(file).damage));

            // And the run resumes from it once there is room (the copy, on the real disk).
            const ProcessRun resumed = runTstudio(
                QStringList{"train", project, "--logdir", logdir, "--resume", "--steps", QString::number(latest + 50)} +
                common);
            QVERIFY2(resumed.exitCode == 0, qPrintable(what + ": " + resumed.err));
            QVERIFY2(resumed.out.contains(QStringLiteral("global step %1 -> %2 ").arg(latest).arg(latest + 50)),
                     qPrintable(what + ": " + resumed.out));
        }
        QStringList hit(stages.begin(), stages.end());
        qInfo("full disk: %zu sizes, the save ran out of room writing: %s", sizes.size(), qPrintable(hit.join("; ")));
        // The sweep reaches different points of the save (data, index, .meta or state file).
        QVERIFY2(stages.size() >= 3, qPrintable(hit.join("; ")));
    }
};

QTEST_GUILESS_MAIN(TestTrainKillResume)
#include "test_train_kill_resume.moc"
