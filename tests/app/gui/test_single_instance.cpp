// One TensorStudio per user and display (app/gui/single_instance.h), as the programs run: a second
// launch hands its files (made absolute) to the running window, which opens them, and exits 0; a
// socket left by an instance that was killed is replaced by the next launch; --new-instance opts out.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/stat.h>

namespace {

/// The environment of every launch: offscreen, single instance on, private runtime and config folders.
QProcessEnvironment environment(const QString& runtime, const QString& config)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("TSTUDIO_SINGLE_INSTANCE"), QStringLiteral("1"));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    return env;
}

bool waitFor(const std::function<bool()>& done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QThread::msleep(50);
    }
    return true;
}

/// Whether the runtime folder holds the running instance's socket.
bool hasSocket(const QString& runtime)
{
    for (const QFileInfo& f : QDir(runtime).entryInfoList(QDir::System | QDir::Files))
        if (f.fileName().startsWith(QStringLiteral("tensorstudio-")))
            return true;
    return false;
}

} // namespace

class TestSingleInstance : public QObject {
    Q_OBJECT

private slots:
    void secondLaunchHandsItsFilesOver()
    {
        QTemporaryDir runtime, config, work;
        QVERIFY(runtime.isValid() && config.isValid() && work.isValid());
        QVERIFY(::chmod(QFile::encodeName(runtime.path()).constData(), 0700) == 0); // as XDG_RUNTIME_DIR must be
        {
            QFile graph(work.filePath(QStringLiteral("tiny.pbtxt")));
            QVERIFY(graph.open(QIODevice::WriteOnly));
            graph.write("node { name: \"x\" op: \"Placeholder\" attr { key: \"dtype\" value { type: DT_FLOAT } } }\n");
        }
        const QProcessEnvironment env = environment(runtime.path(), config.path());
        const QString program = QStringLiteral(TSTUDIO_GUI_EXE);

        QProcess first;
        first.setProcessEnvironment(env);
        first.start(program, {});
        QVERIFY(first.waitForStarted());
        QVERIFY2(waitFor([&] { return hasSocket(runtime.path()); }, 60000), qPrintable(first.readAllStandardError()));

        // A relative path, from another working directory: the running window gets it absolute.
        QProcess second;
        second.setProcessEnvironment(env);
        second.setWorkingDirectory(work.path());
        second.start(program, {QStringLiteral("tiny.pbtxt")});
        QVERIFY(second.waitForFinished(60000));
        QCOMPARE(second.exitCode(), 0);
        QVERIFY2(second.readAllStandardError().contains("handed 1 file(s) to the running TensorStudio"), "second launch");
        QByteArray firstErr;
        const QByteArray expected = "opening 1 file(s) from another launch: " + QFile::encodeName(work.filePath(QStringLiteral("tiny.pbtxt")));
        QVERIFY2(waitFor(
                     [&] {
                         first.waitForReadyRead(50);
                         firstErr += first.readAllStandardError();
                         return firstErr.contains(expected);
                     },
                     30000),
                 firstErr.constData());
        QCOMPARE(first.state(), QProcess::Running);

        // --new-instance: a window of its own, nothing handed over.
        QProcess own;
        own.setProcessEnvironment(env);
        own.start(program, {QStringLiteral("--new-instance")});
        QVERIFY(own.waitForStarted());
        QVERIFY(!own.waitForFinished(3000)); // still running: it did not hand over and exit
        QVERIFY(!own.readAllStandardError().contains("handed"));
        own.kill();
        own.waitForFinished();

        // Killed, the first instance leaves its socket; the next launch replaces it and runs on.
        first.kill();
        QVERIFY(first.waitForFinished());
        QVERIFY(hasSocket(runtime.path()));
        QProcess third;
        third.setProcessEnvironment(env);
        third.start(program, {});
        QVERIFY(third.waitForStarted());
        QVERIFY(!third.waitForFinished(3000));
        QVERIFY(!third.readAllStandardError().contains("did not answer"));
        QProcess fourth;
        fourth.setProcessEnvironment(env);
        fourth.start(program, {});
        QVERIFY(fourth.waitForFinished(60000));
        QCOMPARE(fourth.exitCode(), 0);
        QVERIFY(fourth.readAllStandardError().contains("handed 0 file(s) to the running TensorStudio"));
        third.kill();
        third.waitForFinished();
    }
};

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "test_single_instance.moc"
