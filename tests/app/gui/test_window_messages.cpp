// The window's messages in a person's words: the GPU sentence (with CUDA's error as the details),
// a dialog and a cleared status bar when a file cannot be opened, and tab titles that follow a
// language switch.
#include "app_settings.h"
#include "gpu_status_text.h"
#include "language_manager.h"
#include "main_window.h"
#include "window_test.h"

#include "../../support/test_files.h"

#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace tstudio;

class TestWindowMessages : public tstudio::testing::WindowTest {
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(openWindow());
    }

    void cleanup()
    {
        closeWindow();
        QVERIFY(m_languages.setLanguage(QStringLiteral("en")));
    }

    /// Each state of the probe gets its own sentence; the engine's reason goes to the details.
    void gpuSentenceNamesTheState()
    {
        GpuProbeReport none;
        none.compiledIn = true;
        none.unavailableReason = "no NVIDIA GPU or driver on this machine (CUDA reports cudaErrorInsufficientDriver)";
        QCOMPARE(gpuHeadline(none), QStringLiteral("No NVIDIA GPU driver found — training runs on the CPU"));
        QVERIFY(gpuDetails(none).contains("cudaErrorInsufficientDriver"));
        QVERIFY(!gpuIsBroken(none));

        GpuProbeReport hidden = none;
        hidden.hiddenByVisibleDevices = true;
        hidden.unavailableReason = "CUDA_VISIBLE_DEVICES='' hides every GPU (CUDA finds no device)";
        QVERIFY(gpuHeadline(hidden).startsWith("CUDA_VISIBLE_DEVICES hides every GPU"));

        GpuProbeReport notBuilt;
        notBuilt.unavailableReason = "no GPU support compiled in";
        QVERIFY(gpuHeadline(notBuilt).startsWith("This build has no GPU support"));

        GpuProbeReport broken;
        broken.compiledIn = true;
        broken.brokenReason = "an NVIDIA driver is loaded (/proc/driver/nvidia/version) but CUDA cannot use it: "
                              "cudaErrorInsufficientDriver";
        QVERIFY(gpuHeadline(broken).contains("cannot be used"));
        QVERIFY(gpuIsBroken(broken));
        QVERIFY(gpuDetails(broken).contains("/proc/driver/nvidia/version"));

        GpuProbeReport usable;
        usable.compiledIn = true;
        usable.devices.push_back({0, "NVIDIA H100", 9, 0, 80ull << 30, 132, "0000:01:00.0"});
        QVERIFY(gpuHeadline(usable).contains("NVIDIA H100"));
        QVERIFY(gpuDetails(usable).contains("compute capability 9.0"));
    }

    /// A truncated binary graph: a dialog names the file and the reason, and the status bar no
    /// longer says "Opening…".
    void failedOpenShowsADialogAndClearsTheStatusBar_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        // A GraphDef whose first node field says 200 bytes follow, and 3 do.
        QTest::newRow("truncated .pb") << "cut.pb" << QByteArray("\x0a\xc8\x01\x0a\x01x", 6);
        QTest::newRow("broken .tsproj") << "broken.tsproj"
                                        << QByteArray("{\"format\": \"tensorstudio-project\", \"version\": 1, \"graph\": ");
    }

    void failedOpenShowsADialogAndClearsTheStatusBar()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        const QString path = m_dir.filePath(name);
        QVERIFY(tstudio::testing::writeFile(path, content.toStdString()));
        m_window->openPath(path);
        QVERIFY(QTest::qWaitFor([&] { return m_window->pendingOpens() == 0; }, 20000));
        QMessageBox* box = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] {
                box = m_window->findChild<QMessageBox*>(QStringLiteral("openErrorDialog"));
                return box != nullptr && box->isVisible();
            },
            5000));
        QVERIFY2(box->text().contains(path), qPrintable(box->text()));
        QVERIFY(!box->informativeText().trimmed().isEmpty());
        const QString status = m_window->statusBar()->currentMessage();
        QVERIFY2(!status.startsWith("Opening"), qPrintable(status));
        QVERIFY2(status.contains(name), qPrintable(status));
        box->close();
    }

    /// Tabs made before a switch to Chinese get Chinese titles too.
    void tabTitlesFollowTheLanguage()
    {
        m_window->newGraph();
        const int index = m_window->documents()->currentIndex();
        QCOMPARE(m_window->documents()->tabText(index), QStringLiteral("Untitled graph"));
        QVERIFY(m_languages.setLanguage(QStringLiteral("zh_CN")));
        QTRY_VERIFY(m_window->documents()->tabText(index) != QStringLiteral("Untitled graph"));
        const QString chinese = m_window->documents()->tabText(index);
        QVERIFY2(std::any_of(chinese.begin(), chinese.end(), [](QChar c) { return c.unicode() >= 0x4e00; }),
                 qPrintable(chinese));
        QVERIFY(m_languages.setLanguage(QStringLiteral("en")));
        QTRY_COMPARE(m_window->documents()->tabText(index), QStringLiteral("Untitled graph"));
    }

private:
};

QTEST_MAIN(TestWindowMessages)
#include "test_window_messages.moc"
