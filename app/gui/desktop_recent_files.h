// The desktop's list of recently used files: the freedesktop bookmark file
// ($XDG_DATA_HOME/recently-used.xbel) that GTK and KDE file dialogs, shells and file managers read.
// A file TensorStudio opens or saves is added there too, as it is to File > Open Recent.
#pragma once

#include <QString>

namespace tstudio {

/// Where the desktop keeps the list: $XDG_DATA_HOME (default ~/.local/share)/recently-used.xbel.
QString desktopRecentFilesPath();

/// Adds (or refreshes) `path` in the bookmark file at `xbelPath`: its MIME type, this program
/// ("TensorStudio", run as `tensorstudio %u`) among the applications that used it, with a use
/// count; every other bookmark and element is kept as it was. The file is replaced atomically. A
/// file that is not a bookmark file is left untouched: false with `error` naming it.
bool addDesktopRecentFile(const QString& path, QString* error = nullptr, const QString& xbelPath = desktopRecentFilesPath());

} // namespace tstudio
