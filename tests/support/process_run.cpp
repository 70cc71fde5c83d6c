// Running a program from a test.
#include "process_run.h"

#include <QFile>
#include <QProcess>

namespace tstudio::testing {

namespace {

ProcessRun finish(QProcess& p, int timeoutMs)
{
    ProcessRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

ProcessRun runProcess(const QString& program, const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.start(program, args);
    return finish(p, timeoutMs);
}

ProcessRun runProcessWithInput(const QString& program, const QStringList& args, const QByteArray& input, int timeoutMs)
{
    QProcess p;
    p.start(program, args);
    p.write(input);
    p.closeWriteChannel();
    return finish(p, timeoutMs);
}

bool pythonWithProtobuf()
{
    return QFile::exists(QStringLiteral("/usr/bin/python3")) &&
           runProcess(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import google.protobuf")})
                   .exitCode == 0;
}

} // namespace tstudio::testing
