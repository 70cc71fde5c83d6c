// Tests for deleting a dashboard run from disk: what the plan takes (whole folder, or only the
// files of a folder that holds other runs), refusals, permanent deletion and the trash.
#include "dashboard/run_removal.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::dashboard;
namespace fs = std::filesystem;

namespace {

bool touch(const QString& path)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write("x") == 1;
}

fs::path p(const QString& path) { return fs::path(path.toStdString()); }

} // namespace

class TestRunRemoval : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aFolderWithoutOtherRunsGoesWhole()
    {
        QTemporaryDir tmp;
        const QString run = tmp.path() + "/logs/train";
        QVERIFY(touch(run + "/events.out.tfevents.1.host"));
        QVERIFY(touch(run + "/model.ckpt-10.index"));
        QVERIFY(touch(run + "/plugins/profile/x.trace"));
        const std::vector<fs::path> runs{p(tmp.path() + "/logs/eval"), p(run), p(tmp.path() + "/logs/train-2")};
        // The trailing slash and a sibling whose name starts alike change nothing.
        auto plan = planRunRemoval(p(run + "/"), runs);
        QVERIFY2(plan.has_value(), plan ? "" : plan.error().message().c_str());
        QVERIFY(plan->wholeFolder);
        QCOMPARE(plan->paths.size(), std::size_t{1});
        QCOMPARE(plan->paths[0], fs::weakly_canonical(p(run)));
        QVERIFY(deleteRunPermanently(*plan).isOk());
        QVERIFY(!QFileInfo::exists(run));
        QVERIFY(QFileInfo::exists(tmp.path() + "/logs"));
    }

    void aFolderHoldingOtherRunsLosesOnlyItsOwnFiles()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + "/logs";
        QVERIFY(touch(root + "/events.out.tfevents.1.host"));
        QVERIFY(touch(root + "/graph.pbtxt"));
        QVERIFY(touch(root + "/train/events.out.tfevents.2.host"));
        QVERIFY(touch(root + "/notes/readme.txt")); // a folder that is no run stays as well
        auto plan = planRunRemoval(p(root), {p(root), p(root + "/train")});
        QVERIFY(plan.has_value());
        QVERIFY(!plan->wholeFolder);
        QCOMPARE(plan->paths.size(), std::size_t{2});
        QCOMPARE(plan->paths[0].filename().string(), std::string("events.out.tfevents.1.host"));
        QCOMPARE(plan->paths[1].filename().string(), std::string("graph.pbtxt"));
        QVERIFY(deleteRunPermanently(*plan).isOk());
        QVERIFY(!QFileInfo::exists(root + "/events.out.tfevents.1.host"));
        QVERIFY(QFileInfo::exists(root + "/train/events.out.tfevents.2.host"));
        QVERIFY(QFileInfo::exists(root + "/notes/readme.txt"));
        // Nothing of its own left: nothing to remove, said so.
        auto again = planRunRemoval(p(root), {p(root), p(root + "/train")});
        QVERIFY(!again.has_value());
        QCOMPARE(again.error().code(), StatusCode::kFailedPrecondition);
        QVERIFY(again.error().message().find("holds other runs") != std::string::npos);
    }

    void notAFolderIsRefused()
    {
        QTemporaryDir tmp;
        auto missing = planRunRemoval(p(tmp.path() + "/nope"), {});
        QVERIFY(!missing.has_value());
        QCOMPARE(missing.error().code(), StatusCode::kInvalidArgument);
        QVERIFY(missing.error().message().find("/nope") != std::string::npos);
        QVERIFY(touch(tmp.path() + "/file"));
        QVERIFY(!planRunRemoval(p(tmp.path() + "/file"), {}).has_value());
    }

    void trashTakesTheFolderOrSaysWhy()
    {
        QTemporaryDir tmp;
        const QString run = tmp.path() + "/logs/old-run";
        QVERIFY(touch(run + "/events.out.tfevents.1.host"));
        auto plan = planRunRemoval(p(run), {p(run)});
        QVERIFY(plan.has_value());
        std::size_t moved = 0;
        const Status status = moveRunToTrash(*plan, &moved);
        if (status.isOk()) {
            QCOMPARE(moved, std::size_t{1});
            QVERIFY(!QFileInfo::exists(run)); // gone from its place, kept in the trash
        } else {
            // No trash for this file system here: nothing moved, the folder intact, the path named.
            QCOMPARE(moved, std::size_t{0});
            QCOMPARE(status.code(), StatusCode::kUnavailable);
            QVERIFY(status.message().find("old-run") != std::string::npos);
            QVERIFY(QFileInfo::exists(run + "/events.out.tfevents.1.host"));
            QSKIP("QFile::moveToTrash found no trash for the temporary folder; checked the refusal instead");
        }
    }
};

QTEST_GUILESS_MAIN(TestRunRemoval)
#include "test_run_removal.moc"
