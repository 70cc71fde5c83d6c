// One TensorStudio per user and display (see single_instance.h).
#include "single_instance.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QStandardPaths>

#include <memory>

namespace tstudio {
namespace {

constexpr qsizetype kMaxMessage = 1 << 20; ///< 1 MiB of paths is more than any launch sends

} // namespace

SingleInstance::SingleInstance(QObject* parent) : QObject(parent), m_server(new QLocalServer(this))
{
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::onConnection);
}

bool SingleInstance::enabledFor(const QString& platformName)
{
    const QByteArray setting = qgetenv("TSTUDIO_SINGLE_INSTANCE");
    if (setting == "0")
        return false;
    if (setting == "1")
        return true;
    return platformName != QLatin1String("offscreen") && platformName != QLatin1String("minimal");
}

QString SingleInstance::serverPath()
{
    // One per display: windows on two X servers (or a Wayland and an X session) are two desktops.
    QString display = qEnvironmentVariable("WAYLAND_DISPLAY");
    if (display.isEmpty())
        display = qEnvironmentVariable("DISPLAY");
    if (display.isEmpty())
        display = QStringLiteral("none");
    for (QChar& c : display)
        if (!c.isLetterOrNumber())
            c = QLatin1Char('_');
    // XDG_RUNTIME_DIR, or a private folder Qt makes when it is not set.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    return QDir(dir).filePath(QStringLiteral("tensorstudio-") + display);
}

SingleInstance::Forwarded SingleInstance::forward(const QStringList& paths, int timeoutMs)
{
    QLocalSocket socket;
    socket.connectToServer(serverPath());
    if (!socket.waitForConnected(timeoutMs))
        return Forwarded::kNoInstance;
    QJsonArray list;
    for (const QString& p : paths)
        list.append(QFileInfo(p).absoluteFilePath());
    socket.write(QJsonDocument(list).toJson(QJsonDocument::Compact) + '\n');
    if (!socket.waitForBytesWritten(timeoutMs))
        return Forwarded::kNoAnswer;
    QByteArray answer;
    while (!answer.contains('\n')) {
        if (!socket.waitForReadyRead(timeoutMs))
            return Forwarded::kNoAnswer;
        answer += socket.readAll();
    }
    return answer.startsWith("ok\n") ? Forwarded::kYes : Forwarded::kNoAnswer;
}

bool SingleInstance::listen(QString* error)
{
    const QString path = serverPath();
    if (m_server->listen(path))
        return true;
    // Nothing answered there (forward() was tried first): a socket left by an instance that died.
    QLocalServer::removeServer(path);
    if (m_server->listen(path))
        return true;
    if (error)
        *error = m_server->errorString();
    return false;
}

void SingleInstance::onConnection()
{
    while (QLocalSocket* socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QLocalSocket::readyRead, this, [this, socket, buffer] {
            *buffer += socket->readAll();
            if (buffer->size() > kMaxMessage) {
                socket->abort();
                return;
            }
            const qsizetype end = buffer->indexOf('\n');
            if (end < 0)
                return;
            const QJsonDocument doc = QJsonDocument::fromJson(buffer->left(end));
            buffer->clear();
            QStringList paths;
            for (const QJsonValue& v : doc.array())
                if (v.isString())
                    paths << v.toString();
            socket->write(doc.isArray() ? "ok\n" : "bad\n");
            socket->flush();
            socket->disconnectFromServer();
            if (doc.isArray())
                emit filesReceived(paths);
        });
    }
}

} // namespace tstudio
