// The benchmark commands README.md and docs/*.md name exist: each `tstudio bench WHAT` is accepted
// by tstudio (`tstudio bench WHAT --help` exits 0, an unknown WHAT does not), each
// `tensorstudio --bench-NAME` option is listed by `tensorstudio --help`, and each tools/ or scripts/
// script they name is in the source tree. A figure in the README must name the command that
// reproduces it, so a renamed or removed benchmark has to take its figures with it.
#include "process_run.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

/// One mention of a command in a document: the name and "README.md:45".
struct Mention {
    QString name;
    QString where;
};

QString sourceDir()
{
    const QString fromEnvironment = qEnvironmentVariable("TSTUDIO_SOURCE_DIR");
    return fromEnvironment.isEmpty() ? QStringLiteral(TSTUDIO_SOURCE_DIR) : fromEnvironment;
}

/// README.md and docs/*.md, relative to the source directory.
QStringList documents()
{
    QStringList files{QStringLiteral("README.md")};
    const QDir docs(QDir(sourceDir()).filePath(QStringLiteral("docs")));
    for (const QString& name : docs.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        files << QStringLiteral("docs/") + name;
    return files;
}

/// Every match of `pattern` in the documents; capture 1 holds one name or several joined by '|'
/// (`tstudio bench mlp|lenet|resnet` names three).
QList<Mention> mentionsOf(const QRegularExpression& pattern, QString* error)
{
    QList<Mention> mentions;
    for (const QString& relative : documents()) {
        QFile file(QDir(sourceDir()).filePath(relative));
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read ") + file.fileName();
            return {};
        }
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            auto it = pattern.globalMatch(lines[i]);
            while (it.hasNext()) {
                const QRegularExpressionMatch m = it.next();
                for (const QString& name : m.captured(1).split(QLatin1Char('|')))
                    mentions.append({name, relative + QLatin1Char(':') + QString::number(i + 1)});
            }
        }
    }
    return mentions;
}

/// `tstudio bench WHAT`, WHAT in lower case (an upper-case placeholder such as MODEL is not a name).
const QRegularExpression kBenchPattern(QStringLiteral(R"(\btstudio bench ([a-z0-9]+(?:\|[a-z0-9]+)*))"));
/// `--bench-NAME` options of tensorstudio (and their arguments' options, --bench-data, --bench-steps).
const QRegularExpression kGuiBenchPattern(QStringLiteral(R"((?<![\w-])--(bench-[a-z]+))"));
/// Scripts under tools/ or scripts/ (not build/tools/..., which are built programs).
const QRegularExpression
    kScriptPattern(QStringLiteral(R"((?<![\w/])((?:tools|scripts)/[A-Za-z0-9_./-]+\.(?:py|sh))\b)"));

tstudio::testing::ProcessRun runTstudio(const QStringList& args)
{
    return tstudio::testing::runProcess(QStringLiteral(TSTUDIO_TSTUDIO_EXE), args, 60000);
}

} // namespace

class TestReadmeBenchCommands : public QObject {
    Q_OBJECT
private slots:
    void patternsFindWhatTheyShould()
    {
        // The extraction itself, on lines shaped as the README writes them.
        const auto names = [](const QRegularExpression& pattern, const QString& line) {
            QStringList out;
            auto it = pattern.globalMatch(line);
            while (it.hasNext())
                out << it.next().captured(1).split(QLatin1Char('|'));
            return out;
        };
        QCOMPARE(names(kBenchPattern, "build/app/tstudio bench mlp|lenet|resnet [--threads N]"),
                 (QStringList{"mlp", "lenet", "resnet"}));
        QCOMPARE(names(kBenchPattern, "(`tstudio bench images`, 28x28) and `tstudio bench MODEL --device gpu`"),
                 QStringList{"images"});
        QCOMPARE(names(kGuiBenchPattern, "tensorstudio --bench-live P --bench-data DIR --no-bench-x"),
                 (QStringList{"bench-live", "bench-data"}));
        QCOMPARE(names(kScriptPattern, "`tools/bench/pillow_decode.py DIR`, build/tools/bench/x.sh, scripts/test.sh"),
                 (QStringList{"tools/bench/pillow_decode.py", "scripts/test.sh"}));
    }

    void everyBenchSubcommandExists()
    {
        QString error;
        const QList<Mention> mentions = mentionsOf(kBenchPattern, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(mentions.size() >= 10, "README.md names under 10 `tstudio bench` commands: is the pattern stale?");

        // The check can fail: tstudio refuses a WHAT it does not know, --help or not.
        const auto unknown = runTstudio({"bench", "no-such-benchmark", "--help"});
        QVERIFY2(unknown.exitCode != 0, qPrintable(unknown.out + unknown.err));

        QStringList missing;
        QSet<QString> checked;
        for (const Mention& m : mentions) {
            if (checked.contains(m.name))
                continue;
            checked.insert(m.name);
            const auto r = runTstudio({"bench", m.name, "--help"});
            if (r.exitCode != 0)
                missing << QStringLiteral("%1: `tstudio bench %2` is not a bench subcommand (exit %3): %4")
                               .arg(m.where, m.name, QString::number(r.exitCode), r.err.trimmed());
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join('\n')));
    }

    void everyGuiBenchOptionExists()
    {
        QString error;
        const QList<Mention> mentions = mentionsOf(kGuiBenchPattern, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(!mentions.isEmpty(), "README.md names no `tensorstudio --bench-` option: is the pattern stale?");

        const auto help = tstudio::testing::runProcess(QStringLiteral(TSTUDIO_GUI_EXE), {"--help"}, 60000);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("--bench-layout"), qPrintable(help.out + help.err));
        QStringList missing;
        for (const Mention& m : mentions) {
            const QRegularExpression option(QStringLiteral("(?<![\\w-])--%1\\b(?!-)").arg(m.name));
            if (!option.match(help.out).hasMatch())
                missing << QStringLiteral("%1: `--%2` is not an option of tensorstudio").arg(m.where, m.name);
        }
        QVERIFY2(!QRegularExpression(QStringLiteral("--bench-no-such-option\\b")).match(help.out).hasMatch(),
                 "the help text matches anything");
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join('\n')));
    }

    void everyNamedScriptExists()
    {
        QString error;
        const QList<Mention> mentions = mentionsOf(kScriptPattern, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!mentions.isEmpty());
        QStringList missing;
        for (const Mention& m : mentions)
            if (!QFileInfo::exists(QDir(sourceDir()).filePath(m.name)))
                missing << QStringLiteral("%1: %2 does not exist").arg(m.where, m.name);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestReadmeBenchCommands)
#include "test_readme_bench_commands.moc"
