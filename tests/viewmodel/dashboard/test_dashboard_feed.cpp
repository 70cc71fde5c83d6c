// Tests for the dashboard's feed: run names after their folders, with one or several log directories.
#include "dashboard/dashboard_feed.h"

#include "io/events/event_file_writer.h"
#include "proto/summary.pb.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

/// One scalar "loss" = 1 at step 0 in a new event file in `dir`.
bool writeRun(const QString& dir)
{
    auto writer = events::EventFileWriter::open(dir.toStdString());
    if (!writer)
        return false;
    tensorflow::Summary summary;
    auto* value = summary.add_value();
    value->set_tag("loss");
    value->set_simple_value(1.0f);
    return (*writer)->addSummary(summary, 0).isOk() && (*writer)->close().isOk();
}

std::vector<std::string> runNames(const FeedUpdate& update)
{
    std::vector<std::string> names;
    for (const RunInfo& run : update.runs)
        names.push_back(run.run);
    return names;
}

std::vector<std::string> changedRuns(const FeedUpdate& update)
{
    std::vector<std::string> names;
    for (const TagData& data : update.changed)
        names.push_back(data.run);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

class TestDashboardFeed : public QObject {
    Q_OBJECT
private slots:
    void rootRunIsNamedAfterItsFolder()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + "/spirals-run";
        QVERIFY(writeRun(root));
        QVERIFY(writeRun(root + "/eval"));
        // A trailing slash names the same folder.
        DashboardFeed feed({(root + "/").toStdString()});
        auto update = feed.poll();
        QVERIFY(update.has_value());
        QCOMPARE(runNames(*update), (std::vector<std::string>{"eval", "spirals-run"}));
        QCOMPARE(changedRuns(*update), (std::vector<std::string>{"eval", "spirals-run"}));
        const auto self = std::find_if(update->runs.begin(), update->runs.end(),
                                       [](const RunInfo& r) { return r.run == "spirals-run"; });
        QCOMPARE(QDir::cleanPath(QString::fromStdString(self->directory)), QDir::cleanPath(root));
        // The name finds the run again (the graph lookup maps it back to the root itself).
        auto graph = feed.runGraph("spirals-run");
        QVERIFY(graph.has_value());
        QVERIFY(!graph->has_value()); // the run exists but wrote no graph
    }

    void aRunWhoseFilesAreGoneIsReportedRemovedOnce()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + "/logs";
        QVERIFY(writeRun(root + "/train"));
        QVERIFY(writeRun(root + "/eval"));
        DashboardFeed feed({root.toStdString()});
        auto first = feed.poll();
        QVERIFY(first.has_value());
        QCOMPARE(runNames(*first), (std::vector<std::string>{"eval", "train"}));
        QVERIFY(first->removed.empty());

        QVERIFY(QDir(root + "/train").removeRecursively());
        auto second = feed.poll();
        QVERIFY(second.has_value());
        QCOMPARE(runNames(*second), (std::vector<std::string>{"eval"}));
        QCOMPARE(second->removed, (std::vector<std::string>{"train"}));
        auto third = feed.poll();
        QVERIFY(third.has_value());
        QVERIFY(third->removed.empty()); // said once

        // A new run of that name is a new run: all its tags are reported again.
        QVERIFY(writeRun(root + "/train"));
        auto fourth = feed.poll();
        QVERIFY(fourth.has_value());
        QCOMPARE(changedRuns(*fourth), (std::vector<std::string>{"train"}));
        QCOMPARE(runNames(*fourth), (std::vector<std::string>{"eval", "train"}));
    }

    void severalRootsArePrefixedWithTheirFolders()
    {
        QTemporaryDir tmp;
        QVERIFY(writeRun(tmp.path() + "/a"));
        QVERIFY(writeRun(tmp.path() + "/b"));
        QVERIFY(writeRun(tmp.path() + "/b/train"));
        DashboardFeed feed({(tmp.path() + "/a").toStdString(), (tmp.path() + "/b").toStdString()});
        auto update = feed.poll();
        QVERIFY(update.has_value());
        QCOMPARE(runNames(*update), (std::vector<std::string>{"a", "b", "b/train"}));
    }

    void aRunInsideWithTheRootsNameLeavesTheRootDot()
    {
        // "logs" holding a run "logs": naming the root "logs" too would merge two runs.
        QTemporaryDir tmp;
        const QString root = tmp.path() + "/logs";
        QVERIFY(writeRun(root));
        QVERIFY(writeRun(root + "/logs"));
        DashboardFeed feed({root.toStdString()});
        auto update = feed.poll();
        QVERIFY(update.has_value());
        QCOMPARE(runNames(*update), (std::vector<std::string>{".", "logs"}));
    }

    void dotRootIsNamedAfterTheWorkingDirectory()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + "/workdir";
        QVERIFY(writeRun(root));
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(root));
        DashboardFeed feed({"."});
        auto update = feed.poll();
        QDir::setCurrent(previous);
        QVERIFY(update.has_value());
        QCOMPARE(runNames(*update), (std::vector<std::string>{"workdir"}));
    }
};

QTEST_GUILESS_MAIN(TestDashboardFeed)
#include "test_dashboard_feed.moc"
