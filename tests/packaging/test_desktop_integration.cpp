// The desktop integration installed with the programs (packaging/): the desktop entry and the AppStream
// metadata validate cleanly with the freedesktop tools, the MIME types are read by shared-mime-info and
// give the right type for each file kind (by name, and for Chrome traces by content), the three files
// name the same types, and the icon is drawn at every fixed size of the hicolor theme.
#include "process_run.h"

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
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("update-mime-database"));
        if (tool.isEmpty())
            QSKIP("update-mime-database (shared-mime-info) is not installed");
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir(data.path()).mkpath(QStringLiteral("mime/packages")));
        QVERIFY(QFile::copy(kPackaging + QStringLiteral("tensorstudio-mime.xml"),
                            data.filePath(QStringLiteral("mime/packages/tensorstudio.xml"))));
        // The system's own definitions beside ours, as an installation has them.
        for (const QString& file : QDir(QStringLiteral("/usr/share/mime/packages")).entryList({QStringLiteral("*.xml")}))
            QFile::copy(QStringLiteral("/usr/share/mime/packages/") + file, data.filePath(QStringLiteral("mime/packages/") + file));
        // Only this folder is searched (update-mime-database notes any other on standard error).
        qputenv("XDG_DATA_DIRS", data.path().toUtf8());
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        const ProcessRun r = tstudio::testing::runProcess(tool, {data.filePath(QStringLiteral("mime"))});
        QVERIFY2(r.exitCode == 0 && r.err.trimmed().isEmpty(), qPrintable(r.err));
        QVERIFY(QFile::exists(data.filePath(QStringLiteral("mime/mime.cache"))));

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
        const QStringList names = QDir(files.path()).entryList(QDir::Files, QDir::Name);
        const QString script = QStringLiteral("for f in \"$@\"; do printf '%s %s\\n' \"$f\" \"$(\"$0\" \"$f\")\"; done");
        // The child: this test program itself, asked for one file's type (see main below).
        QStringList args{QStringLiteral("-c"), script, QCoreApplication::applicationFilePath()};
        for (const QString& n : names)
            args << files.filePath(n);
        qputenv("TSTUDIO_MIME_QUERY", "1");
        const ProcessRun types = tstudio::testing::runProcess(QStringLiteral("/bin/sh"), args);
        qunsetenv("TSTUDIO_MIME_QUERY");
        QVERIFY2(types.exitCode == 0, qPrintable(types.err));
        QMap<QString, QString> got;
        for (const QString& line : types.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            got.insert(QFileInfo(line.section(QLatin1Char(' '), 0, 0)).fileName(), line.section(QLatin1Char(' '), 1));
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
