// What MainWindow's source files share (main_window*.cpp): the layout's version, the property that
// holds a document's path, the platform's key bindings and the app's log line.
#pragma once

#include "core/log.h"

#include <QKeySequence>
#include <QList>
#include <QString>

namespace tstudio::main_window_detail {

/// The version of the dock layout saved in the settings (QMainWindow::saveState).
inline constexpr int kLayoutVersion = 1;
/// The property of a document widget that holds the absolute path it was opened from.
inline constexpr char kPathProperty[] = "tstudioPath";

/// The platform's bindings of `key`, or `fallback` where it has none.
inline QList<QKeySequence> standardOr(QKeySequence::StandardKey key, const QKeySequence& fallback)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    if (keys.isEmpty())
        keys.append(fallback);
    return keys;
}

/// A line in the Console from the application ("app").
inline void logApp(LogSeverity severity, const QString& message)
{
    logMessage(severity, "app", message.toStdString());
}

} // namespace tstudio::main_window_detail
