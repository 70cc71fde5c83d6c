// UiMap: where the window's named widgets are on screen, written to a JSON file for a test that
// drives the real window from outside (xdotool clicks at those places, as a person would).
#pragma once

#include <QObject>
#include <QString>

class QTimer;
class QWidget;

namespace tstudio {

/// Every `intervalMs` writes `path` (a temporary file, then a rename, so a reader never sees half a
/// file) with one entry per visible widget that has an objectName or is a button with text:
///   {"widgets": [{"name", "class", "text", "x", "y", "w", "h", "enabled", "checked"?, "points"?}],
///    "tabs": [{"text", "current"}], "status": "...", "focus": "objectName", "dialogs": [title, ...]}
/// in global (screen) coordinates; "points" is a scalar chart's drawn point count (the first curve
/// point a person sees). Turned on by the environment variable TSTUDIO_UI_MAP=FILE in tensorstudio;
/// nothing of it runs otherwise.
class UiMap : public QObject {
    Q_OBJECT
public:
    UiMap(QWidget* window, QString path, int intervalMs = 200, QObject* parent = nullptr);

    /// Writes the file now.
    void write();

private:
    QWidget* m_window;
    QString m_path;
    QTimer* m_timer;
};

} // namespace tstudio
