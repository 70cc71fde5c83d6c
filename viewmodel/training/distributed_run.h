// DistributedRun: one `mpirun ... tstudio train --distributed` job run as a child process (QProcess),
// its output read line by line as it comes, rank 0's progress picked out, and Stop as SIGTERM then kill.
#pragma once

#include "project/distributed/mpi_launch.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <deque>
#include <vector>

Q_DECLARE_METATYPE(tstudio::project::MpiProgress)

namespace tstudio::training_panel {

/// Lives on the GUI thread and never blocks it (QProcess's signals), except in its destructor: a job
/// still running then gets SIGTERM and at most `stopGraceMs` + 1 s to end before it is killed.
/// Signals: output for every line (all ranks and mpirun's own), progressed for rank 0's progress
/// lines, finished exactly once after start().
class DistributedRun : public QObject {
    Q_OBJECT
public:
    /// `program` is mpirun, `arguments` what project::mpirunArguments gave.
    DistributedRun(QString program, QStringList arguments, QObject* parent = nullptr);
    ~DistributedRun() override;

    /// Starts the process; once only. A program that cannot start gives finished(false, ...).
    void start();
    /// SIGTERM to mpirun (which passes it to the ranks), SIGKILL when it has not ended after the
    /// grace period. The job ends with finished(..., stopped = true).
    void stop();
    bool isRunning() const { return m_running; }
    bool stopRequested() const { return m_stopRequested; }
    /// How long stop() waits for mpirun to end after SIGTERM before it kills it (default 5000 ms).
    void setStopGraceMs(int milliseconds) { m_graceMs = milliseconds; }
    /// Seconds since start().
    double elapsedSeconds() const;
    /// The last lines of output (at most 200), oldest first: what mpiFailureLines reads.
    std::vector<project::MpiOutputLine> tail() const { return {m_tail.begin(), m_tail.end()}; }
    QString program() const { return m_program; }
    QStringList arguments() const { return m_arguments; }

signals:
    /// One line of output. rank -1: mpirun's own line; error: from a stderr.
    void output(int rank, bool error, const QString& text);
    /// Rank 0 printed a progress line.
    void progressed(const tstudio::project::MpiProgress& progress);
    /// exitCode is mpirun's (-1 when it did not start or crashed); ok: exit code 0 and not stopped;
    /// `startError` is QProcess's reason when the program did not start (else empty).
    void finished(bool ok, int exitCode, bool stopped, const QString& startError);

private:
    void read(QProcess::ProcessChannel channel);
    void take(std::vector<project::MpiOutputLine> lines);
    void end(bool ok, int exitCode, const QString& startError);

    QString m_program;
    QStringList m_arguments;
    QProcess* m_process = nullptr;
    project::MpiOutputReader m_readers[2] = {project::MpiOutputReader(false), project::MpiOutputReader(true)};
    std::deque<project::MpiOutputLine> m_tail;
    QElapsedTimer m_clock;
    int m_graceMs = 5000;
    bool m_running = false;
    bool m_stopRequested = false;
    bool m_ended = false;
};

} // namespace tstudio::training_panel
