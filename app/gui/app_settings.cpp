// AppSettings: keys, defaults and the recent-files list.
#include "app_settings.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>
#include <tuple>

namespace tstudio {
namespace {
const QString kLanguageKey = QStringLiteral("ui/language");
const QString kThemeKey = QStringLiteral("ui/theme");
const QString kDeviceKey = QStringLiteral("engine/defaultDevice");
const QString kRecentKey = QStringLiteral("files/recent");
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
} // namespace

AppSettings::AppSettings(QSettings* settings) : m_settings(settings) {}

QString AppSettings::language() const
{
    const QString fallback =
        QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
    const QString code = m_settings->value(kLanguageKey, fallback).toString();
    return code == QLatin1String("zh_CN") ? code : QStringLiteral("en");
}

void AppSettings::setLanguage(const QString& code) { m_settings->setValue(kLanguageKey, code); }

QString AppSettings::themeId(Theme theme) { return theme == Theme::kDark ? QStringLiteral("dark") : QStringLiteral("light"); }

Theme AppSettings::themeFromId(const QString& id) { return id == QLatin1String("dark") ? Theme::kDark : Theme::kLight; }

Theme AppSettings::theme() const { return themeFromId(m_settings->value(kThemeKey).toString()); }

void AppSettings::setTheme(Theme theme) { m_settings->setValue(kThemeKey, themeId(theme)); }

QString AppSettings::defaultDevice() const
{
    return m_settings->value(kDeviceKey, QStringLiteral("/device:CPU:0")).toString();
}

void AppSettings::setDefaultDevice(const QString& device) { m_settings->setValue(kDeviceKey, device); }

QStringList AppSettings::recentFiles() const { return m_settings->value(kRecentKey).toStringList(); }

void AppSettings::addRecentFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    m_settings->setValue(kRecentKey, files);
}

void AppSettings::removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    m_settings->setValue(kRecentKey, files);
}

void AppSettings::clearRecentFiles() { m_settings->remove(kRecentKey); }

QByteArray AppSettings::windowGeometry(const QString& screenLayout) const
{
    if (!screenLayout.isEmpty()) {
        const QByteArray forLayout = m_settings->value(kGeometryKey + QStringLiteral("/") + screenLayout).toByteArray();
        if (!forLayout.isEmpty())
            return forLayout;
    }
    // The plain key holds the last geometry saved with any arrangement (and what older versions saved).
    return m_settings->value(kGeometryKey).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray& geometry, const QString& screenLayout)
{
    m_settings->setValue(kGeometryKey, geometry);
    if (!screenLayout.isEmpty())
        m_settings->setValue(kGeometryKey + QStringLiteral("/") + screenLayout, geometry);
}

QString AppSettings::screenLayoutKey(QList<ScreenPlace> screens)
{
    std::sort(screens.begin(), screens.end(), [](const ScreenPlace& a, const ScreenPlace& b) {
        return std::tie(a.x, a.y, a.name) < std::tie(b.x, b.y, b.name);
    });
    QByteArray text;
    for (const ScreenPlace& s : screens)
        text += QStringLiteral("%1 %2x%3+%4+%5;").arg(s.name).arg(s.width).arg(s.height).arg(s.x).arg(s.y).toUtf8();
    // A settings key of its own: hex digits only (a screen's name may hold '/' or spaces).
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha1).toHex().left(16));
}

QByteArray AppSettings::windowState() const { return m_settings->value(kStateKey).toByteArray(); }

void AppSettings::setWindowState(const QByteArray& state) { m_settings->setValue(kStateKey, state); }

} // namespace tstudio
