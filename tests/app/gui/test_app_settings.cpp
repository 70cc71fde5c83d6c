// Tests that settings and the window layout persist between runs (QSettings in an INI file).
#include "app_settings.h"
#include "language_manager.h"
#include "main_window.h"

#include <QDockWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace tstudio;

class TestAppSettings : public QObject {
    Q_OBJECT

private slots:
    void valuesSurviveARestart()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("settings.ini");
        {
            QSettings qs(file, QSettings::IniFormat);
            AppSettings s(&qs);
            QCOMPARE(s.defaultDevice(), QString("/device:CPU:0"));
            s.setLanguage("zh_CN");
            s.setTheme(Theme::kDark);
            s.setDefaultDevice("/device:GPU:0");
        }
        QSettings qs(file, QSettings::IniFormat);
        AppSettings s(&qs);
        QCOMPARE(s.language(), QString("zh_CN"));
        QCOMPARE(s.theme(), Theme::kDark);
        QCOMPARE(s.defaultDevice(), QString("/device:GPU:0"));
    }

    /// The window's geometry per arrangement of screens: a laptop alone and docked each keep theirs;
    /// an arrangement never seen gets the last geometry saved; the key ignores the screens' order.
    void geometryPerScreenArrangement()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("settings.ini");
        using Place = AppSettings::ScreenPlace;
        const QString laptop = AppSettings::screenLayoutKey({Place{"eDP-1", 0, 0, 1920, 1080}});
        const QString docked =
            AppSettings::screenLayoutKey({Place{"eDP-1", 0, 0, 1920, 1080}, Place{"DP-2", 1920, 0, 2560, 1440}});
        QCOMPARE(AppSettings::screenLayoutKey({Place{"DP-2", 1920, 0, 2560, 1440}, Place{"eDP-1", 0, 0, 1920, 1080}}),
                 docked);
        QVERIFY(laptop != docked);
        QVERIFY(laptop != AppSettings::screenLayoutKey({Place{"eDP-1", 0, 0, 2560, 1440}})); // resolution changed
        QVERIFY(!laptop.contains('/') && laptop.size() == 16);
        {
            QSettings qs(file, QSettings::IniFormat);
            AppSettings s(&qs);
            s.setWindowGeometry("on the laptop", laptop);
            s.setWindowGeometry("docked", docked);
        }
        QSettings qs(file, QSettings::IniFormat);
        AppSettings s(&qs);
        QCOMPARE(s.windowGeometry(laptop), QByteArray("on the laptop"));
        QCOMPARE(s.windowGeometry(docked), QByteArray("docked"));
        QCOMPARE(s.windowGeometry(AppSettings::screenLayoutKey({Place{"HDMI-1", 0, 0, 1280, 1024}})), QByteArray("docked"));
        QCOMPARE(s.windowGeometry(), QByteArray("docked"));
    }

    void unknownLanguageFallsBackToEnglish()
    {
        QTemporaryDir dir;
        QSettings qs(dir.filePath("s.ini"), QSettings::IniFormat);
        qs.setValue("ui/language", "tlh");
        AppSettings s(&qs);
        QCOMPARE(s.language(), QString("en"));
    }

    void recentFilesAreOrderedUniqueAndBounded()
    {
        QTemporaryDir dir;
        QSettings qs(dir.filePath("s.ini"), QSettings::IniFormat);
        AppSettings s(&qs);
        for (int i = 0; i < 15; ++i)
            s.addRecentFile(QStringLiteral("/data/f%1.pb").arg(i));
        s.addRecentFile("/data/f10.pb");  // reopened: moves to the front, not duplicated
        const QStringList recent = s.recentFiles();
        QCOMPARE(recent.size(), AppSettings::kMaxRecentFiles);
        QCOMPARE(recent.first(), QString("/data/f10.pb"));
        QCOMPARE(recent.count("/data/f10.pb"), 1);
        QCOMPARE(recent.at(1), QString("/data/f14.pb"));
        QVERIFY(!recent.contains("/data/f4.pb"));
        s.removeRecentFile("/data/f10.pb");
        QCOMPARE(s.recentFiles().first(), QString("/data/f14.pb"));
        s.clearRecentFiles();
        QVERIFY(s.recentFiles().isEmpty());
    }

    void dockLayoutPersists()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("layout.ini");
        LanguageManager languages;
        {
            QSettings qs(file, QSettings::IniFormat);
            AppSettings s(&qs);
            MainWindow window(&s, &languages);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QDockWidget* console = window.panel("console");
            QVERIFY(console);
            QVERIFY(console->isVisible());
            window.removeDockWidget(console);
            window.addDockWidget(Qt::RightDockWidgetArea, console);
            console->show();
            QCOMPARE(window.dockWidgetArea(console), Qt::RightDockWidgetArea);
            window.close();  // writes the layout
        }
        {
            QSettings qs(file, QSettings::IniFormat);
            AppSettings s(&qs);
            QVERIFY(!s.windowState().isEmpty());
            MainWindow window(&s, &languages);
            window.restoreLayout();
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QCOMPARE(window.dockWidgetArea(window.panel("console")), Qt::RightDockWidgetArea);
            window.panel("console")->hide();
            window.close();
        }
        {
            QSettings qs(file, QSettings::IniFormat);
            AppSettings s(&qs);
            MainWindow window(&s, &languages);
            window.restoreLayout();
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(!window.panel("console")->isVisible());  // closed panels stay closed
            window.resetLayout();
            QVERIFY(window.panel("console")->isVisible());
            QCOMPARE(window.dockWidgetArea(window.panel("console")), Qt::BottomDockWidgetArea);
            window.setPersistLayout(false);
        }
    }
};

QTEST_MAIN(TestAppSettings)
#include "test_app_settings.moc"
