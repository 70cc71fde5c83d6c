// tstudio's manual page and shell completions (app/cli/cli_reference.h): made from the command line's
// definitions, so every subcommand and option `tstudio --help` lists is in them; the page renders
// without groff warnings; the bash completion completes subcommands, options, choices and file kinds.
#include "process_run.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

using tstudio::testing::ProcessRun;

ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, 60000);
}

/// The subcommand names of a --help text's "Subcommands:" section.
QStringList subcommandsIn(const QString& help)
{
    QStringList names;
    const qsizetype at = help.indexOf(QStringLiteral("Subcommands:"));
    if (at < 0)
        return names;
    static const QRegularExpression line(QStringLiteral("^  ([a-z][a-z0-9-]*)\\s"), QRegularExpression::MultilineOption);
    QString section = help.mid(at);
    section = section.left(section.indexOf(QStringLiteral("\n\n"))); // the examples follow
    auto it = line.globalMatch(section);
    while (it.hasNext())
        names << it.next().captured(1);
    return names;
}

/// The long option names of a --help text's "Options:" section ("--json", ...), without --help.
QStringList longOptionsIn(const QString& help)
{
    QStringList names;
    static const QRegularExpression option(QStringLiteral("^\\s+(?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*)"),
                                           QRegularExpression::MultilineOption);
    auto it = option.globalMatch(help.left(help.indexOf(QStringLiteral("Subcommands:"))));
    while (it.hasNext()) {
        const QString name = it.next().captured(1);
        if (name != QLatin1String("--help"))
            names << name;
    }
    return names;
}

/// Every subcommand path below the top ("inspect", ..., "data make-tfrecord").
QStringList allPaths()
{
    QStringList paths;
    QStringList pending = subcommandsIn(runTstudio({QStringLiteral("--help")}).out);
    while (!pending.isEmpty()) {
        const QString path = pending.takeFirst();
        paths << path;
        QStringList args = path.split(QLatin1Char(' '));
        args << QStringLiteral("--help");
        for (const QString& sub : subcommandsIn(runTstudio(args).out))
            pending << path + QLatin1Char(' ') + sub;
    }
    return paths;
}

QString roffCode(QString s) { return s.replace(QLatin1Char('-'), QStringLiteral("\\-")); }

} // namespace

class TestTstudioReference : public QObject {
    Q_OBJECT

private slots:
    void manPageHasEverySubcommandAndOption()
    {
        const ProcessRun man = runTstudio({QStringLiteral("man")});
        QVERIFY2(man.exitCode == 0, qPrintable(man.err));
        const QStringList paths = allPaths();
        QVERIFY2(paths.size() >= 16, qPrintable(paths.join(QLatin1Char(','))));
        QVERIFY(paths.contains(QStringLiteral("data make-tfrecord")));
        for (const QString& path : paths) {
            QVERIFY2(man.out.contains(QStringLiteral(".SS \"") + roffCode(QStringLiteral("tstudio ") + path) + QLatin1Char('"')),
                     qPrintable(path));
            QStringList args = path.split(QLatin1Char(' '));
            args << QStringLiteral("--help");
            const ProcessRun help = runTstudio(args);
            QCOMPARE(help.exitCode, 0);
            // --help shows the same examples as the page.
            QVERIFY2(help.out.contains(QStringLiteral("Examples:\n  tstudio ")) ||
                         help.out.contains(QStringLiteral("Examples:\n  mpirun")),
                     qPrintable(path + QStringLiteral(": ") + help.out.right(400)));
            for (const QString& option : longOptionsIn(help.out))
                QVERIFY2(man.out.contains(QStringLiteral("\\fB") + roffCode(option) + QStringLiteral("\\fR")),
                         qPrintable(path + QStringLiteral(" ") + option));
        }
        for (const char* section : {".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH SEE ALSO"})
            QVERIFY2(man.out.contains(QLatin1String(section)), section);
    }

    void manPageRendersWithoutWarnings()
    {
        const QString manProgram = QStandardPaths::findExecutable(QStringLiteral("man"));
        if (manProgram.isEmpty())
            QSKIP("man (man-db) is not installed");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString page = dir.filePath(QStringLiteral("tstudio.1"));
        const ProcessRun written = runTstudio({QStringLiteral("man"), QStringLiteral("--output"), page});
        QVERIFY2(written.exitCode == 0 && QFile::exists(page), qPrintable(written.err));
        qputenv("MANWIDTH", "80");
        const ProcessRun shown =
            tstudio::testing::runProcess(manProgram, {QStringLiteral("--warnings"), QStringLiteral("-l"), page}, 60000);
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.err.trimmed().isEmpty(), qPrintable(shown.err.left(2000)));
        QVERIFY(shown.out.contains(QStringLiteral("EXIT STATUS")));
        QVERIFY(shown.out.contains(QStringLiteral("tstudio data make-tfrecord")));
    }

    /// tensorstudio's page, from its parser's help: every long option of --help, rendered clean.
    void guiManPageHasEveryOption()
    {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        const QString gui = QStringLiteral(TSTUDIO_GUI_EXE);
        const ProcessRun help = tstudio::testing::runProcess(gui, {QStringLiteral("--language"), QStringLiteral("en"), QStringLiteral("--help")}, 60000);
        QCOMPARE(help.exitCode, 0);
        static const QRegularExpression option(QStringLiteral("^  (?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)"), QRegularExpression::MultilineOption);
        QStringList options;
        for (auto it = option.globalMatch(help.out); it.hasNext();)
            options << it.next().captured(1);
        QVERIFY2(options.size() > 30 && options.contains(QStringLiteral("--screenshot")) && options.contains(QStringLiteral("--man")),
                 qPrintable(options.join(QLatin1Char(' '))));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString page = dir.filePath(QStringLiteral("tensorstudio.1"));
        const ProcessRun written = tstudio::testing::runProcess(gui, {QStringLiteral("--language"), QStringLiteral("en"), QStringLiteral("--man"), page}, 60000);
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        QFile f(page);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.startsWith(QStringLiteral(".\\\" The manual page of tensorstudio")));
        for (const QString& name : options)
            QVERIFY2(text.contains(QStringLiteral("\\fB") + roffCode(name) + QStringLiteral("\\fR")), qPrintable(name));
        // A description that wraps over several lines of --help is one paragraph of the page.
        QVERIFY(text.contains(QStringLiteral("train the open project to step N (into a temporary log directory; profiler: step 3 is profiled) before capturing.")));
        const QString manProgram = QStandardPaths::findExecutable(QStringLiteral("man"));
        if (!manProgram.isEmpty()) {
            qputenv("MANWIDTH", "80");
            const ProcessRun shown = tstudio::testing::runProcess(manProgram, {QStringLiteral("--warnings"), QStringLiteral("-l"), page}, 60000);
            QCOMPARE(shown.exitCode, 0);
            QVERIFY2(shown.err.trimmed().isEmpty(), qPrintable(shown.err.left(2000)));
        }
        const ProcessRun bad = tstudio::testing::runProcess(gui, {QStringLiteral("--man"), QStringLiteral("/nonexistent-folder/tensorstudio.1")}, 60000);
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QStringLiteral("/nonexistent-folder/tensorstudio.1")), qPrintable(bad.err));
    }

    void bashCompletionCompletes()
    {
        const QString bash = QStandardPaths::findExecutable(QStringLiteral("bash"));
        if (bash.isEmpty())
            QSKIP("bash is not installed");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString script = dir.filePath(QStringLiteral("tstudio.bash"));
        QCOMPARE(runTstudio({QStringLiteral("completion"), QStringLiteral("bash"), QStringLiteral("-o"), script}).exitCode, 0);
        for (const char* name : {"model.pb", "graph.pbtxt", "run.tsproj", "notes.txt"}) {
            QFile f(dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("logs")));
        // Each line: the words typed (the last one being completed) and what COMPREPLY then holds.
        const QString harness = QStringLiteral(
            "source '%1'\n"
            "cd '%2'\n"
            "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _tstudio;"
            " printf '%s|' \"$*\"; printf '%s\\n' \"$(printf '%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' ')\"; }\n"
            "t tstudio be\n"
            "t tstudio bench ''\n"
            "t tstudio bench --only ''\n"
            "t tstudio train --th\n"
            "t tstudio train ''\n"
            "t tstudio run ''\n"
            "t tstudio events ''\n"
            "t tstudio data ''\n"
            "t tstudio data make-tfrecord --encoding ''\n"
            "t tstudio --ver\n")
                                    .arg(script, dir.path());
        const ProcessRun r = tstudio::testing::runProcessWithInput(bash, {QStringLiteral("-s")}, harness.toUtf8(), 60000);
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.err));
        QMap<QString, QString> got;
        for (const QString& line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            got.insert(line.section(QLatin1Char('|'), 0, 0), line.section(QLatin1Char('|'), 1).trimmed());
        QCOMPARE(got.value(QStringLiteral("tstudio be")), QStringLiteral("bench"));
        QVERIFY2(got.value(QStringLiteral("tstudio bench ")).split(QLatin1Char(' ')).contains(QStringLiteral("overhead")),
                 qPrintable(r.out));
        QCOMPARE(got.value(QStringLiteral("tstudio bench --only ")), QStringLiteral("images lenet mlp pipelines ptb resnet"));
        QCOMPARE(got.value(QStringLiteral("tstudio train --th")), QStringLiteral("--threads"));
        // Projects and the shipped examples for train; graphs for run; folders for a log directory.
        QCOMPARE(got.value(QStringLiteral("tstudio train ")),
                 QStringLiteral("book-mnist lenet logs mnist-notes ptb-small run.tsproj seq2seq-reverse "
                                "spirals word2vec"));
        QCOMPARE(got.value(QStringLiteral("tstudio run ")), QStringLiteral("graph.pbtxt logs model.pb"));
        QCOMPARE(got.value(QStringLiteral("tstudio events ")), QStringLiteral("logs"));
        QCOMPARE(got.value(QStringLiteral("tstudio data ")), QStringLiteral("make-tfrecord"));
        QCOMPARE(got.value(QStringLiteral("tstudio data make-tfrecord --encoding ")), QStringLiteral("encoded raw"));
        QCOMPARE(got.value(QStringLiteral("tstudio --ver")), QStringLiteral("--version"));
    }

    void zshCompletionIsValid()
    {
        const QString zsh = QStandardPaths::findExecutable(QStringLiteral("zsh"));
        if (zsh.isEmpty())
            QSKIP("zsh is not installed: its completion script is not checked");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString script = dir.filePath(QStringLiteral("_tstudio"));
        QCOMPARE(runTstudio({QStringLiteral("completion"), QStringLiteral("zsh"), QStringLiteral("-o"), script}).exitCode, 0);
        QFile f(script);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.startsWith(QStringLiteral("#compdef tstudio\n")));
        // Every subcommand has its function, and its parent dispatches to it.
        for (const QString& path : allPaths()) {
            QString function = QStringLiteral("_tstudio_") + path;
            function.replace(QLatin1Char(' '), QLatin1Char('_')).replace(QLatin1Char('-'), QLatin1Char('_'));
            QVERIFY2(text.contains(QLatin1Char('\n') + function + QStringLiteral("() {")), qPrintable(function));
            QVERIFY2(text.contains(QStringLiteral(") ") + function + QStringLiteral(" ;;")), qPrintable(function));
        }
        const ProcessRun syntax = tstudio::testing::runProcess(zsh, {QStringLiteral("-n"), script}, 60000);
        QVERIFY2(syntax.exitCode == 0 && syntax.err.isEmpty(), qPrintable(syntax.err));
    }

    /// The exit codes the manual documents: 0 (help and version included), 1 for a failure (a path
    /// that cannot be written, named), 2 for every wrong command line (CLI11's own codes are 100+).
    void exitCodesAsDocumented()
    {
        const ProcessRun r = runTstudio({QStringLiteral("completion"), QStringLiteral("bash"), QStringLiteral("--output"),
                                      QStringLiteral("/nonexistent-folder/tstudio")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("/nonexistent-folder/tstudio")), qPrintable(r.err));
        QCOMPARE(runTstudio({QStringLiteral("completion"), QStringLiteral("fish")}).exitCode, 2);
        QCOMPARE(runTstudio({}).exitCode, 2);
        QCOMPARE(runTstudio({QStringLiteral("no-such-command")}).exitCode, 2);
        QCOMPARE(runTstudio({QStringLiteral("train"), QStringLiteral("--steps"), QStringLiteral("x"), QStringLiteral("spirals")}).exitCode, 2);
        QCOMPARE(runTstudio({QStringLiteral("--version")}).exitCode, 0);
        QCOMPARE(runTstudio({QStringLiteral("train"), QStringLiteral("--help")}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestTstudioReference)
#include "test_tstudio_reference.moc"
