// The main-window fixture the GUI tests share: a MainWindow over settings in a temporary INI file,
// made in a test function's init() (openWindow) and destroyed in its cleanup() (closeWindow).
#pragma once

#include "app_settings.h"
#include "language_manager.h"
#include "main_window.h"

#include <QObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

namespace tstudio::testing {

/// A Qt Test class's base: the window, its settings and languages as members.
class WindowTest : public QObject {
protected:
    /// Makes the window (its layout not persisted), lets `prepare` set it up before it shows (open
    /// errors without dialogs, a size), shows it and waits until it is exposed. False when the
    /// settings folder is missing or the window is not exposed.
    bool openWindow(const std::function<void(MainWindow&)>& prepare = {})
    {
        if (!m_dir.isValid())
            return false;
        m_qsettings = std::make_unique<QSettings>(m_dir.filePath("settings.ini"), QSettings::IniFormat);
        m_settings = std::make_unique<AppSettings>(m_qsettings.get());
        m_window = std::make_unique<MainWindow>(m_settings.get(), &m_languages);
        m_window->setPersistLayout(false);
        if (prepare)
            prepare(*m_window);
        m_window->show();
        return QTest::qWaitForWindowExposed(m_window.get());
    }

    /// Destroys the window, then its settings.
    void closeWindow()
    {
        m_window.reset();
        m_settings.reset();
        m_qsettings.reset();
    }

    QTemporaryDir m_dir; ///< the settings file, and whatever a test writes beside it
    LanguageManager m_languages;
    std::unique_ptr<QSettings> m_qsettings;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<MainWindow> m_window;
};

} // namespace tstudio::testing
