// One TensorStudio per user and display: a second launch (a file double-clicked in the file manager,
// `tensorstudio model.pb` in a terminal) hands its files to the running window and exits.
//
// The running instance listens on a local socket private to the user (in XDG_RUNTIME_DIR, named after
// the display); a launch connects, sends its files' absolute paths as one JSON array and a newline,
// and waits for "ok". A socket left by a crashed instance answers nothing: the next launch removes it
// and becomes the running instance.
#pragma once

#include <QObject>
#include <QStringList>

class QLocalServer;

namespace tstudio {

class SingleInstance : public QObject {
    Q_OBJECT

public:
    explicit SingleInstance(QObject* parent = nullptr);

    /// Whether a launch on `platformName` takes part: on a real display (not offscreen or minimal),
    /// unless TSTUDIO_SINGLE_INSTANCE is 0; on any platform when it is 1 (the tests).
    static bool enabledFor(const QString& platformName);
    /// The socket's path: the user's runtime directory and the display.
    static QString serverPath();

    enum class Forwarded {
        kYes,       ///< the running instance acknowledged the files
        kNoInstance, ///< nothing listens (no socket, or one a dead instance left)
        kNoAnswer,  ///< an instance listens but did not answer in time (busy): run alone beside it
    };
    /// Hands `paths` (made absolute against the current directory) to the running instance.
    static Forwarded forward(const QStringList& paths, int timeoutMs = 5000);

    /// Becomes the running instance (a stale socket is replaced: call it only after forward()
    /// found no instance). False with `error` set when the socket cannot be made; the program then
    /// runs on alone.
    bool listen(QString* error);

signals:
    /// Another launch handed these files over (empty: it only asked for the window).
    void filesReceived(const QStringList& paths);

private:
    void onConnection();
    QLocalServer* m_server; ///< a child of this object
};

} // namespace tstudio
