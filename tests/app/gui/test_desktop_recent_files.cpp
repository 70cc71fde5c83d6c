// The desktop's recently used files (app/gui/desktop_recent_files.h): a file joins the freedesktop
// bookmark file with its MIME type and this program among its applications; what other programs
// wrote there is kept; a second use refreshes the same bookmark; a file that is not a bookmark file
// is left untouched with an error naming it.
#include "desktop_recent_files.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QXmlStreamReader>

using namespace tstudio;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// What the test reads back from a bookmark file (with Qt Core's XML reader, independently of the
/// DOM the program writes with).
struct Application {
    QString exec, count;
};
struct Bookmark {
    QString added, visited, owner, mimeType, group;
    QMap<QString, Application> applications;
};
struct BookmarkFile {
    bool valid = false;
    QMap<QString, QString> rootAttributes;
    QMap<QString, Bookmark> bookmarks; ///< by href
};

BookmarkFile parse(const QByteArray& bytes)
{
    BookmarkFile file;
    QXmlStreamReader xml(bytes);
    xml.setNamespaceProcessing(false); // names as written: "bookmark:application"
    QString href;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QString name = xml.qualifiedName().toString();
        const QXmlStreamAttributes a = xml.attributes();
        if (name == "xbel") {
            for (const QXmlStreamAttribute& attr : a)
                file.rootAttributes.insert(attr.qualifiedName().toString(), attr.value().toString());
            for (const QXmlStreamNamespaceDeclaration& ns : xml.namespaceDeclarations())
                file.rootAttributes.insert("xmlns:" + ns.prefix().toString(), ns.namespaceUri().toString());
        } else if (name == "bookmark") {
            href = a.value("href").toString();
            file.bookmarks[href].added = a.value("added").toString();
            file.bookmarks[href].visited = a.value("visited").toString();
        } else if (name == "metadata") {
            file.bookmarks[href].owner = a.value("owner").toString();
        } else if (name == "mime:mime-type") {
            file.bookmarks[href].mimeType = a.value("type").toString();
        } else if (name == "bookmark:group") {
            file.bookmarks[href].group = xml.readElementText();
        } else if (name == "bookmark:application") {
            file.bookmarks[href].applications.insert(a.value("name").toString(),
                                                      Application{a.value("exec").toString(), a.value("count").toString()});
        }
    }
    file.valid = !xml.hasError();
    return file;
}

/// A list another program (gedit, as GLib writes it) left: kept as it is.
const QByteArray kOtherProgram =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xbel version=\"1.0\"\n"
    "      xmlns:bookmark=\"http://www.freedesktop.org/standards/desktop-bookmarks\"\n"
    "      xmlns:mime=\"http://www.freedesktop.org/standards/shared-mime-info\"\n"
    ">\n"
    "  <bookmark href=\"file:///home/someone/notes.txt\" added=\"2026-01-02T03:04:05.000000Z\" modified=\"2026-01-02T03:04:05.000000Z\" visited=\"2026-01-02T03:04:05.000000Z\">\n"
    "    <info>\n"
    "      <metadata owner=\"http://freedesktop.org\">\n"
    "        <mime:mime-type type=\"text/plain\"/>\n"
    "        <bookmark:groups><bookmark:group>Editors</bookmark:group></bookmark:groups>\n"
    "        <bookmark:applications>\n"
    "          <bookmark:application name=\"gedit\" exec=\"&apos;gedit %u&apos;\" modified=\"2026-01-02T03:04:05.000000Z\" count=\"3\"/>\n"
    "        </bookmark:applications>\n"
    "      </metadata>\n"
    "    </info>\n"
    "  </bookmark>\n"
    "</xbel>\n";

} // namespace

class TestDesktopRecentFiles : public QObject {
    Q_OBJECT

private slots:
    void addsBesideOtherProgramsEntries()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString xbel = dir.filePath("recently-used.xbel");
        QVERIFY(writeAll(xbel, kOtherProgram));
        QVERIFY(QDir(dir.path()).mkdir("model dir"));
        const QString graph = dir.filePath("model dir/tiny.pbtxt");
        QVERIFY(writeAll(graph, "node { name: \"x\" op: \"Placeholder\" }\n"));
        QString error;
        QVERIFY2(addDesktopRecentFile(graph, &error, xbel), qPrintable(error));

        BookmarkFile file = parse(readAll(xbel));
        QVERIFY(file.valid);
        QCOMPARE(file.bookmarks.size(), 2);
        // The other program's bookmark is as it was, groups and count included.
        const Bookmark notes = file.bookmarks.value("file:///home/someone/notes.txt");
        QCOMPARE(notes.added, QString("2026-01-02T03:04:05.000000Z"));
        QCOMPARE(notes.group, QString("Editors"));
        QCOMPARE(notes.applications.value("gedit").count, QString("3"));
        QCOMPARE(notes.mimeType, QString("text/plain"));
        // Ours: the URI percent-encoded, freedesktop metadata, a MIME type, this program once.
        const QString uri = QString::fromUtf8(QUrl::fromLocalFile(graph).toEncoded());
        QVERIFY(uri.contains("model%20dir"));
        QVERIFY2(file.bookmarks.contains(uri), readAll(xbel).constData());
        Bookmark ours = file.bookmarks.value(uri);
        QCOMPARE(ours.owner, QString("http://freedesktop.org"));
        // (The system's answer for .pbtxt: text/plain here, ours once the package's types are installed.)
        QVERIFY2(ours.mimeType.startsWith("text/"), qPrintable(ours.mimeType));
        QCOMPARE(ours.applications.value("TensorStudio").exec, QString("'tensorstudio %u'"));
        QCOMPARE(ours.applications.value("TensorStudio").count, QString("1"));
        const QString added = ours.added;
        QVERIFY(added.endsWith('Z') && added.contains('T'));

        // Used again: the same bookmark, counted twice, added time kept.
        QTest::qWait(5);
        QVERIFY(addDesktopRecentFile(graph, &error, xbel));
        file = parse(readAll(xbel));
        QVERIFY(file.valid);
        QCOMPARE(file.bookmarks.size(), 2);
        ours = file.bookmarks.value(uri);
        QCOMPARE(ours.added, added);
        QCOMPARE(ours.applications.value("TensorStudio").count, QString("2"));
        QVERIFY(ours.visited >= added);
        // The namespaces the prefixes need stay declared on the root.
        QVERIFY(file.rootAttributes.contains("xmlns:bookmark") && file.rootAttributes.contains("xmlns:mime"));
    }

    void createsTheFileWhenThereIsNone()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString xbel = dir.filePath("share/recently-used.xbel"); // its folder does not exist yet
        QString error;
        QVERIFY2(addDesktopRecentFile(dir.filePath("run.tsproj"), &error, xbel), qPrintable(error));
        const BookmarkFile file = parse(readAll(xbel));
        QVERIFY(file.valid);
        QCOMPARE(file.rootAttributes.value("version"), QString("1.0"));
        QCOMPARE(file.bookmarks.size(), 1);
    }

    void leavesAFileThatIsNotABookmarkFileAlone()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString xbel = dir.filePath("recently-used.xbel");
        for (const QByteArray& bad : {QByteArray("<xbel><bookmark href='x'>"), QByteArray("<html></html>"), QByteArray("\xff\xfe garbage")}) {
            QVERIFY(writeAll(xbel, bad));
            QString error;
            QVERIFY(!addDesktopRecentFile(dir.filePath("a.pb"), &error, xbel));
            QVERIFY2(error.contains(xbel), qPrintable(error));
            QCOMPARE(readAll(xbel), bad);
        }
    }
};

QTEST_GUILESS_MAIN(TestDesktopRecentFiles)
#include "test_desktop_recent_files.moc"
