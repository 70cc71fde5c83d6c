// The desktop's recently used files (see desktop_recent_files.h). The bookmark file's layout is the
// freedesktop Desktop Bookmark Specification's, as GLib's GBookmarkFile writes it: one <bookmark>
// per file URI with added/modified/visited times, and in its freedesktop metadata the MIME type and
// the applications that used it. Elements are handled by their literal (prefixed) names, as GLib
// writes and reads them.
#include "desktop_recent_files.h"

#include <QDateTime>
#include <QDir>
#include <QDomDocument>
#include <QFile>
#include <QFileInfo>
#include <QMimeDatabase>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

namespace tstudio {
namespace {

const QString kAppName = QStringLiteral("TensorStudio");
const QString kMetadataOwner = QStringLiteral("http://freedesktop.org");

QString timestamp() { return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000Z")); }

QDomElement ensureChild(QDomDocument& doc, QDomElement parent, const QString& tag)
{
    QDomElement e = parent.firstChildElement(tag);
    if (e.isNull())
        e = parent.appendChild(doc.createElement(tag)).toElement();
    return e;
}

/// The child `tag` of `parent` whose attribute `key` is `value`, made (with that attribute) when there
/// is none; `made` says which.
QDomElement childWhere(QDomDocument& doc, QDomElement parent, const QString& tag, const QString& key, const QString& value,
                       bool* made = nullptr)
{
    for (QDomElement e = parent.firstChildElement(tag); !e.isNull(); e = e.nextSiblingElement(tag)) {
        if (e.attribute(key) == value) {
            if (made)
                *made = false;
            return e;
        }
    }
    QDomElement e = parent.appendChild(doc.createElement(tag)).toElement();
    e.setAttribute(key, value);
    if (made)
        *made = true;
    return e;
}

void fail(QString* error, const QString& text)
{
    if (error)
        *error = text;
}

} // namespace

QString desktopRecentFilesPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("recently-used.xbel"));
}

bool addDesktopRecentFile(const QString& path, QString* error, const QString& xbelPath)
{
    QDomDocument doc;
    QFile existing(xbelPath);
    if (existing.exists()) {
        if (!existing.open(QIODevice::ReadOnly)) {
            fail(error, QStringLiteral("%1: %2").arg(xbelPath, existing.errorString()));
            return false;
        }
        QString message;
        int line = 0;
        if (!doc.setContent(&existing, false, &message, &line) || doc.documentElement().tagName() != QLatin1String("xbel")) {
            fail(error, QStringLiteral("%1 is not a bookmark file (line %2: %3); left as it is")
                            .arg(xbelPath)
                            .arg(line)
                            .arg(message.isEmpty() ? QStringLiteral("no <xbel> root") : message));
            return false;
        }
    } else {
        doc.setContent(QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xbel version=\"1.0\"\n"
                                      "      xmlns:bookmark=\"http://www.freedesktop.org/standards/desktop-bookmarks\"\n"
                                      "      xmlns:mime=\"http://www.freedesktop.org/standards/shared-mime-info\"\n>\n</xbel>\n"));
    }
    QDomElement root = doc.documentElement();
    // GLib reads these prefixes only where they are declared.
    if (!root.hasAttribute(QStringLiteral("xmlns:bookmark")))
        root.setAttribute(QStringLiteral("xmlns:bookmark"), QStringLiteral("http://www.freedesktop.org/standards/desktop-bookmarks"));
    if (!root.hasAttribute(QStringLiteral("xmlns:mime")))
        root.setAttribute(QStringLiteral("xmlns:mime"), QStringLiteral("http://www.freedesktop.org/standards/shared-mime-info"));

    const QString uri = QString::fromUtf8(QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toEncoded());
    const QString now = timestamp();
    bool newBookmark = false;
    QDomElement bookmark = childWhere(doc, root, QStringLiteral("bookmark"), QStringLiteral("href"), uri, &newBookmark);
    if (newBookmark)
        bookmark.setAttribute(QStringLiteral("added"), now);
    bookmark.setAttribute(QStringLiteral("modified"), now);
    bookmark.setAttribute(QStringLiteral("visited"), now);

    QDomElement info = ensureChild(doc, bookmark, QStringLiteral("info"));
    QDomElement metadata = childWhere(doc, info, QStringLiteral("metadata"), QStringLiteral("owner"), kMetadataOwner);
    QDomElement mime = ensureChild(doc, metadata, QStringLiteral("mime:mime-type"));
    mime.setAttribute(QStringLiteral("type"), QMimeDatabase().mimeTypeForFile(path).name());
    QDomElement applications = ensureChild(doc, metadata, QStringLiteral("bookmark:applications"));
    bool newApplication = false;
    QDomElement application =
        childWhere(doc, applications, QStringLiteral("bookmark:application"), QStringLiteral("name"), kAppName, &newApplication);
    if (newApplication)
        application.setAttribute(QStringLiteral("exec"), QStringLiteral("'tensorstudio %u'"));
    application.setAttribute(QStringLiteral("modified"), now);
    application.setAttribute(QStringLiteral("count"), application.attribute(QStringLiteral("count")).toInt() + 1);

    QDir().mkpath(QFileInfo(xbelPath).absolutePath());
    QSaveFile out(xbelPath); // a temporary file, renamed over the list once complete
    if (!out.open(QIODevice::WriteOnly) || out.write(doc.toByteArray(2)) < 0 || !out.commit()) {
        fail(error, QStringLiteral("%1: %2").arg(xbelPath, out.errorString()));
        return false;
    }
    return true;
}

} // namespace tstudio
