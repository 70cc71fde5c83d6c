// AppSettings: typed access to the settings TensorStudio keeps between runs (QSettings).
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

namespace tstudio {

enum class Theme { kLight, kDark };

/// Reads and writes through a QSettings it does not own. Every setter writes at once, so a
/// crash loses nothing already chosen. Keys are listed in ARCHITECTURE.md.
class AppSettings {
public:
    static constexpr int kMaxRecentFiles = 10;

    explicit AppSettings(QSettings* settings);

    /// "en" or "zh_CN". Defaults to zh_CN when the system locale is Chinese, else en.
    QString language() const;
    void setLanguage(const QString& code);

    Theme theme() const;
    void setTheme(Theme theme);

    /// A TensorFlow device name, e.g. "/device:CPU:0" (the default) or "/device:GPU:0".
    QString defaultDevice() const;
    void setDefaultDevice(const QString& device);

    /// Most recent first, at most kMaxRecentFiles, no duplicates.
    QStringList recentFiles() const;
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    void clearRecentFiles();

    /// The window's geometry as last saved with this arrangement of screens (screenLayoutKey), else
    /// as last saved with any: a laptop alone and the same laptop docked each get their own.
    QByteArray windowGeometry(const QString& screenLayout = {}) const;
    void setWindowGeometry(const QByteArray& geometry, const QString& screenLayout = {});
    /// A short key for an arrangement of screens: each screen's name, size and position, in any order.
    struct ScreenPlace {
        QString name;
        int x = 0, y = 0, width = 0, height = 0;
    };
    static QString screenLayoutKey(QList<ScreenPlace> screens);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    void sync() { m_settings->sync(); }
    QSettings* qsettings() const { return m_settings; }

    static QString themeId(Theme theme);
    static Theme themeFromId(const QString& id);

private:
    QSettings* m_settings;
};

} // namespace tstudio
