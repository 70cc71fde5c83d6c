// The default log directory of a run: the project's own folder when it can be written, the user's
// data folder for read-only installs and unsaved graphs; untitled run names (chosen folders as the
// project stores them: test_project_relocation).
#include "project/run/log_directory.h"
#include "project/format/project_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace tstudio::project;
namespace fs = std::filesystem;

class TestDefaultLogDirectory : public QObject {
    Q_OBJECT

    static Project projectAt(const fs::path& file, const std::string& logdir)
    {
        Project p;
        p.name = "A long descriptive name (not a folder)";
        p.logdir = logdir;
        p.location = file;
        return p;
    }

private slots:
    void writableProjectFolderKeepsItsLogdir()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const Project p = projectAt(root / "spirals.tsproj", "runs/spirals");
        QCOMPARE(defaultLogDirectory(p, root / "userdata", "untitled-1"), root / "runs" / "spirals");
        QVERIFY(isWritableFolder(root / "runs" / "spirals")); // its nearest existing ancestor is
    }

    /// A read-only install (the example's folder made read-only, as a package installs it): the
    /// run goes under the user's data folder, named after the project file.
    void readOnlyProjectFolderUsesTheUserDataFolder()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const fs::path examples = root / "examples";
        fs::create_directories(examples);
        std::ofstream(examples / "spirals.tsproj") << "{}";
        fs::permissions(examples, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                        fs::perm_options::remove);
        QVERIFY(!isWritableFolder(examples));
        QVERIFY(!isWritableFolder(examples / "runs" / "spirals"));
        const Project p = projectAt(examples / "spirals.tsproj", "runs/spirals");
        QCOMPARE(defaultLogDirectory(p, root / "userdata", "untitled-1"), root / "userdata" / "runs" / "spirals");
        fs::permissions(examples, fs::perms::owner_write, fs::perm_options::add);
        QCOMPARE(defaultLogDirectory(p, root / "userdata", "untitled-1"), examples / "runs" / "spirals");
    }

    /// A graph without a project file: under the user's data folder; a log directory the user
    /// chose (absolute) is kept whatever the project.
    void unsavedAndChosenLogDirectories()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        Project p;
        p.logdir = "runs/model";
        QCOMPARE(defaultLogDirectory(p, root / "userdata", "untitled-3"), root / "userdata" / "runs" / "untitled-3");
        p.logdir = (root / "mine" / "run1").string();
        QCOMPARE(defaultLogDirectory(p, root / "userdata", "untitled-3"), root / "mine" / "run1");
        p.location = root / "x.tsproj";
        QCOMPARE(defaultLogDirectory(p, root / "userdata", "untitled-3"), root / "mine" / "run1");
    }

    /// untitled-N skips folders an earlier session left and numbers from `first`.
    void untitledNamesAreFresh()
    {
        QTemporaryDir dir;
        const fs::path data = dir.path().toStdString();
        int n = 0;
        QCOMPARE(untitledRunName(data, 1, &n), std::string("untitled-1"));
        QCOMPARE(n, 1);
        fs::create_directories(data / "runs" / "untitled-1");
        fs::create_directories(data / "runs" / "untitled-2");
        QCOMPARE(untitledRunName(data, 1, &n), std::string("untitled-3"));
        QCOMPARE(n, 3);
        QCOMPARE(untitledRunName(data, 5), std::string("untitled-5"));
    }
};

QTEST_MAIN(TestDefaultLogDirectory)
#include "test_default_log_directory.moc"
