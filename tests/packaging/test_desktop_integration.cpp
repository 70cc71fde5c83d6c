// The desktop integration installed with the programs (packaging/): the desktop entry and the AppStream
// metadata validate cleanly with the freedesktop tools, the MIME types are read by shared-mime-info and
// give the right type for each file kind (by name, and for Chrome traces by content), the three files
// name the same types, and the icon is drawn at every fixed size of the hicolor theme.
#include "process_run.h"
#include "test_files.h"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QImage>
#include <QMimeDatabase>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

namespace {

using tstudio::testing::ProcessRun;

const QString kPackaging = QStringLiteral(TSTUDIO_SOURCE_DIR "/packaging/");
const QString kAppId = QStringLiteral("org.tensorstudio.TensorStudio");

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QSet<QString> matches(const QString& text, const QString& pattern)
{
    QSet<QString> out;
    const QRegularExpression re(pattern);
    for (auto it = re.globalMatch(text); it.hasNext();)
        out.insert(it.next().captured(1));
    return out;
}

/// A shared-mime-info database in `data`: our types beside the system's, compiled by
/// update-mime-database, and the only one this process and its children read (XDG_DATA_DIRS). Empty
/// when ready, else why not.
QString prepareMimeDatabase(const QTemporaryDir& data)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("update-mime-database"));
    if (tool.isEmpty())
        return QStringLiteral("update-mime-database (shared-mime-info) is not installed");
    if (!QDir(data.path()).mkpath(QStringLiteral("mime/packages")) ||
        !QFile::copy(kPackaging + QStringLiteral("tensorstudio-mime.xml"), data.filePath(QStringLiteral("mime/packages/tensorstudio.xml"))))
        return QStringLiteral("cannot copy the MIME types into ") + data.path();
    // The system's own definitions beside ours, as an installation has them.
    for (const QString& file : QDir(QStringLiteral("/usr/share/mime/packages")).entryList({QStringLiteral("*.xml")}))
        QFile::copy(QStringLiteral("/usr/share/mime/packages/") + file, data.filePath(QStringLiteral("mime/packages/") + file));
    // Only this folder is searched (update-mime-database notes any other on standard error).
    qputenv("XDG_DATA_DIRS", data.path().toUtf8());
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const ProcessRun r = tstudio::testing::runProcess(tool, {data.filePath(QStringLiteral("mime"))});
    if (r.exitCode != 0 || !r.err.trimmed().isEmpty() || !QFile::exists(data.filePath(QStringLiteral("mime/mime.cache"))))
        return QStringLiteral("update-mime-database failed: ") + r.err;
    return {};
}

/// Each file's MIME type as QMimeDatabase gives it in a child process (which reads XDG_DATA_DIRS
/// afresh: this test program itself, see main below), by file name.
QMap<QString, QString> mimeTypesOf(const QStringList& paths)
{
    const QString script = QStringLiteral("for f in \"$@\"; do printf '%s %s\\n' \"$f\" \"$(\"$0\" \"$f\")\"; done");
    QStringList args{QStringLiteral("-c"), script, QCoreApplication::applicationFilePath()};
    args << paths;
    qputenv("TSTUDIO_MIME_QUERY", "1");
    const ProcessRun types = tstudio::testing::runProcess(QStringLiteral("/bin/sh"), args);
    qunsetenv("TSTUDIO_MIME_QUERY");
    QMap<QString, QString> got;
    for (const QString& line : types.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        got.insert(QFileInfo(line.section(QLatin1Char(' '), 0, 0)).fileName(), line.section(QLatin1Char(' '), 1));
    return got;
}

} // namespace

class TestDesktopIntegration : public QObject {
    Q_OBJECT

private slots:
    void desktopEntryValidates()
    {
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
        if (tool.isEmpty())
            QSKIP("desktop-file-validate (desktop-file-utils) is not installed");
        const ProcessRun r = tstudio::testing::runProcess(tool, {kPackaging + kAppId + QStringLiteral(".desktop")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.trimmed().isEmpty() && r.err.trimmed().isEmpty(), qPrintable(r.out + r.err)); // not even hints
    }

    void metainfoValidates()
    {
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("appstreamcli"));
        if (tool.isEmpty())
            QSKIP("appstreamcli (appstream) is not installed");
        const ProcessRun r = tstudio::testing::runProcess(
            tool, {QStringLiteral("validate"), QStringLiteral("--no-net"), kPackaging + kAppId + QStringLiteral(".metainfo.xml")});
        QCOMPARE(r.exitCode, 0);
        // Errors (E:), warnings (W:) and infos (I:) would be listed; only pedantic notes are allowed.
        static const QRegularExpression issue(QStringLiteral("^[EWI]: "), QRegularExpression::MultilineOption);
        QVERIFY2(!issue.match(r.out + r.err).hasMatch(), qPrintable(r.out + r.err));
    }

    void threeFilesNameTheSameTypes()
    {
        const QString desktop = readText(kPackaging + kAppId + QStringLiteral(".desktop"));
        const QString metainfo = readText(kPackaging + kAppId + QStringLiteral(".metainfo.xml"));
        const QString mime = readText(kPackaging + QStringLiteral("tensorstudio-mime.xml"));
        QSet<QString> fromDesktop;
        for (const QString& type : desktop.section(QStringLiteral("MimeType="), 1).section(QLatin1Char('\n'), 0, 0)
                                       .split(QLatin1Char(';'), Qt::SkipEmptyParts))
            fromDesktop.insert(type);
        const QSet<QString> fromMetainfo = matches(metainfo, QStringLiteral("<mediatype>([^<]+)</mediatype>"));
        const QSet<QString> fromMime = matches(mime, QStringLiteral("<mime-type type=\"([^\"]+)\""));
        QCOMPARE(fromDesktop.size(), 8);
        QCOMPARE(fromDesktop, fromMime);
        QCOMPARE(fromMetainfo, fromMime);
        QVERIFY(metainfo.contains(QStringLiteral("<launchable type=\"desktop-id\">") + kAppId + QStringLiteral(".desktop<")));
        QVERIFY(desktop.contains(QStringLiteral("\nIcon=") + kAppId + QLatin1Char('\n')));
    }

    void mimeTypesIdentifyEachKind()
    {
        QTemporaryDir data;
        QVERIFY(data.isValid());
        if (const QString problem = prepareMimeDatabase(data); !problem.isEmpty())
            QSKIP(qPrintable(problem));

        // A child process reads the database from there (QMimeDatabase reads XDG_DATA_DIRS once).
        QTemporaryDir files;
        QVERIFY(files.isValid());
        auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(files.filePath(name));
            return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
        };
        QVERIFY(write(QStringLiteral("model.pb"), QByteArray("\x0a\x05\x0a\x01x", 5)));
        QVERIFY(write(QStringLiteral("graph.pbtxt"), "node { name: \"x\" op: \"Placeholder\" }\n"));
        QVERIFY(write(QStringLiteral("model.ckpt-5.meta"), QByteArray("\x0a\x02\x08\x01", 4)));
        QVERIFY(write(QStringLiteral("saved_model.pb"), QByteArray("\x08\x01", 2)));
        QVERIFY(write(QStringLiteral("events.out.tfevents.1700000000.host"), QByteArray(12, '\0')));
        QVERIFY(write(QStringLiteral("train.tfrecord"), QByteArray(16, '\0')));
        QVERIFY(write(QStringLiteral("spirals.tsproj"), "{\n  \"format\": \"tensorstudio-project\",\n  \"version\": 1\n}\n"));
        QVERIFY(write(QStringLiteral("timeline.json"), "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"MatMul\"}]}\n"));
        QVERIFY(write(QStringLiteral("step_3_trace"), "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"MatMul\"}]}\n"));
        QVERIFY(write(QStringLiteral("settings.json"), "{\"language\": \"en\"}\n"));
        QStringList paths;
        for (const QString& n : QDir(files.path()).entryList(QDir::Files, QDir::Name))
            paths << files.filePath(n);
        const QMap<QString, QString> got = mimeTypesOf(paths);
        QCOMPARE(got.value(QStringLiteral("model.pb")), QStringLiteral("application/x-tensorflow-graphdef"));
        QCOMPARE(got.value(QStringLiteral("graph.pbtxt")), QStringLiteral("text/x-tensorflow-graphdef"));
        QCOMPARE(got.value(QStringLiteral("model.ckpt-5.meta")), QStringLiteral("application/x-tensorflow-metagraph"));
        QCOMPARE(got.value(QStringLiteral("saved_model.pb")), QStringLiteral("application/x-tensorflow-savedmodel"));
        QCOMPARE(got.value(QStringLiteral("events.out.tfevents.1700000000.host")), QStringLiteral("application/x-tensorflow-events"));
        QCOMPARE(got.value(QStringLiteral("train.tfrecord")), QStringLiteral("application/x-tfrecord"));
        QCOMPARE(got.value(QStringLiteral("spirals.tsproj")), QStringLiteral("application/x-tensorstudio-project"));
        // A Chrome trace by its content where no file name decides: shared-mime-info's readers (GIO's
        // and Qt's alike) let a glob match (*.json) win over content, so a trace named .json stays JSON.
        QCOMPARE(got.value(QStringLiteral("step_3_trace")), QStringLiteral("application/x-chrome-trace"));
        QCOMPARE(got.value(QStringLiteral("timeline.json")), QStringLiteral("application/json"));
        QCOMPARE(got.value(QStringLiteral("settings.json")), QStringLiteral("application/json"));
    }

    /// Files TensorFlow wrote (../shared/fixtures): each gets the type of its kind.
    void mimeTypesOfFilesTensorFlowWrote()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: TensorFlow's files not checked");
        QTemporaryDir data;
        QVERIFY(data.isValid());
        if (const QString problem = prepareMimeDatabase(data); !problem.isEmpty())
            QSKIP(qPrintable(problem));
        const QList<QPair<QString, QString>> expected = {
            {"tf2onnx/regression/graphdef/frozen.pb", "application/x-tensorflow-graphdef"},
            {"tf1-estimator-tfdata/model/graph.pbtxt", "text/x-tensorflow-graphdef"},
            {"tf1-estimator-tfdata/model/model.ckpt-2000.meta", "application/x-tensorflow-metagraph"},
            {"tf2-module-serving/regress_model/1/saved_model.pb", "application/x-tensorflow-savedmodel"},
            {"tf1-estimator-tfdata/model/events.out.tfevents.1567057356.leimao-evolvx", "application/x-tensorflow-events"},
            {"tfrecord-example/data/test.tfrecord", "application/x-tfrecord"},
            {"tfrecord-example/data/data.tfrecords", "application/x-tfrecord"},
        };
        QStringList paths;
        for (const auto& [file, type] : expected) {
            QVERIFY2(QFile::exists(fixtures + QLatin1Char('/') + file), qPrintable(file));
            paths << fixtures + QLatin1Char('/') + file;
        }
        const QMap<QString, QString> got = mimeTypesOf(paths);
        for (const auto& [file, type] : expected)
            QCOMPARE(got.value(QFileInfo(file).fileName()), type);
    }

    void iconDrawnAtEverySize()
    {
        for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
            const QString path = QStringLiteral(TSTUDIO_ICON_DIR "/%1x%1/").arg(size) + kAppId + QStringLiteral(".png");
            QImage icon(path);
            QVERIFY2(!icon.isNull(), qPrintable(path));
            QCOMPARE(icon.size(), QSize(size, size));
            QVERIFY(icon.hasAlphaChannel());
            // Drawn: the middle is opaque (the icon's rounded square), a corner is transparent.
            QCOMPARE(qAlpha(icon.pixel(size / 2, size / 2)), 255);
            QCOMPARE(qAlpha(icon.pixel(0, 0)), 0);
        }
    }
};

int main(int argc, char** argv)
{
    // The child mode of mimeTypesIdentifyEachKind: print one file's MIME type.
    if (qEnvironmentVariableIsSet("TSTUDIO_MIME_QUERY") && argc == 2) {
        QCoreApplication app(argc, argv);
        std::printf("%s\n", qPrintable(QMimeDatabase().mimeTypeForFile(QString::fromLocal8Bit(argv[1])).name()));
        return 0;
    }
    QCoreApplication app(argc, argv);
    TestDesktopIntegration test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_desktop_integration.moc"
