// Running a program from a test: its exit code and both output streams (the CLI tests' helper).
#pragma once

#include <QString>
#include <QStringList>

namespace tstudio::testing {

struct ProcessRun {
    int exitCode = -1; ///< -1 when the program crashed or timed out
    QString out;
    QString err;
};

/// Runs `program` with `args` and waits up to `timeoutMs` (then kills it; err says "timed out").
ProcessRun runProcess(const QString& program, const QStringList& args, int timeoutMs = 120000);
/// The same with `input` written to the program's standard input, which is then closed.
ProcessRun runProcessWithInput(const QString& program, const QStringList& args, const QByteArray& input,
                               int timeoutMs = 120000);

/// True when /usr/bin/python3 can import google.protobuf (the independent event-file decoder's needs).
bool pythonWithProtobuf();

} // namespace tstudio::testing
