// The mpirun child process of a distributed training run.
#include "training/distributed_run.h"

#include <QTimer>

#include <string_view>

namespace tstudio::training_panel {
namespace {

constexpr std::size_t kTailLines = 200;

} // namespace

DistributedRun::DistributedRun(QString program, QStringList arguments, QObject* parent)
    : QObject(parent), m_program(std::move(program)), m_arguments(std::move(arguments))
{
    qRegisterMetaType<project::MpiProgress>();
}

DistributedRun::~DistributedRun()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return;
    // The window is closing with the job still going: end it rather than leave ranks behind.
    m_process->disconnect(this);
    m_process->terminate();
    if (!m_process->waitForFinished(m_graceMs)) {
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

void DistributedRun::start()
{
    if (m_process)
        return;
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] { read(QProcess::StandardOutput); });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] { read(QProcess::StandardError); });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            end(false, -1, m_process->errorString());
    });
    connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        read(QProcess::StandardOutput);
        read(QProcess::StandardError);
        for (project::MpiOutputReader& reader : m_readers)
            take(reader.finish());
        const bool crashed = status == QProcess::CrashExit;
        end(!crashed && exitCode == 0 && !m_stopRequested, crashed ? -1 : exitCode, QString());
    });
    m_running = true;
    m_clock.start();
    m_process->start(m_program, m_arguments);
    m_process->closeWriteChannel(); // rank 0's stdin: at its end, never the terminal's
}

void DistributedRun::stop()
{
    if (!m_running || !m_process)
        return;
    m_stopRequested = true;
    m_process->terminate(); // SIGTERM: mpirun passes it on to every rank
    QTimer::singleShot(m_graceMs, this, [this] {
        if (m_process && m_process->state() != QProcess::NotRunning)
            m_process->kill();
    });
}

double DistributedRun::elapsedSeconds() const
{
    return m_clock.isValid() ? static_cast<double>(m_clock.elapsed()) / 1000.0 : 0.0;
}

void DistributedRun::read(QProcess::ProcessChannel channel)
{
    if (!m_process)
        return;
    m_process->setReadChannel(channel);
    const QByteArray bytes = m_process->readAll();
    take(m_readers[channel == QProcess::StandardError ? 1 : 0].feed(std::string_view(bytes.constData(), bytes.size())));
}

void DistributedRun::take(std::vector<project::MpiOutputLine> lines)
{
    for (project::MpiOutputLine& line : lines) {
        // tstudio train reports on stderr: its progress and evaluations are no errors.
        if (line.rank >= 0 && line.error && project::isTrainReportLine(line.text))
            line.error = false;
        if (line.rank == 0 && !line.error)
            if (auto progress = project::parseMpiProgress(line.text))
                emit progressed(*progress);
        emit output(line.rank, line.error, QString::fromStdString(line.text));
        m_tail.push_back(std::move(line));
        if (m_tail.size() > kTailLines)
            m_tail.pop_front();
    }
}

void DistributedRun::end(bool ok, int exitCode, const QString& startError)
{
    if (m_ended)
        return;
    m_ended = true;
    m_running = false;
    emit finished(ok, exitCode, m_stopRequested, startError);
}

} // namespace tstudio::training_panel
