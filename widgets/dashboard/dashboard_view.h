// DashboardView: the dashboard tab: the runs of one or more log directories, followed live, shown in
// TensorBoard's views (scalars, images, graphs, distributions, histograms, text, audio).
#pragma once

#include "dashboard/dashboard_feed.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <set>

class QAction;
class QLabel;
class QTabWidget;
class QTimer;
class QToolBar;
class QTreeWidget;

namespace tstudio {
class EmptyState;
}

namespace tstudio::dashboard {

class AudioView;
class HParamsView;
class CustomScalarsView;
class PrCurvesView;
class ProjectorView;
class DistributionView;
class HistogramView;
class ImagesView;
class RunsPanel;
class ScalarsView;
class TextView;

/// Reading runs on a worker thread (DashboardFeed::poll), one poll at a time; what changed is handed
/// to the views on the GUI thread. Following (on by default) polls every interval (400 ms), so files
/// that grow — a training run writing them — show up live; it can be paused. "Add Log Directory…"
/// follows another root in the same tab (runs then carry their root's folder name). Every tab's title counts
/// its tags. The Graphs tab lists the runs that hold a graph and their RunMetadata tags and opens them
/// in the graph viewer.
class DashboardView : public QWidget {
    Q_OBJECT
public:
    explicit DashboardView(QWidget* parent = nullptr);
    ~DashboardView() override;

    /// Follows `roots` (replacing what was followed) and reads them at once.
    void setLogDirectories(const QStringList& roots);
    QStringList logDirectories() const { return m_roots; }

    void setFollowing(bool following);
    bool isFollowing() const { return m_following; }
    /// Polls now (after the poll in flight, if any).
    void reloadNow();
    void setInterval(int milliseconds);
    /// True while a poll runs on the worker.
    bool isPolling() const;
    /// Polls applied so far.
    int pollCount() const { return m_polls; }
    /// Milliseconds from setLogDirectories to the first applied poll that had any data (-1 before).
    double firstDataMilliseconds() const { return m_firstDataMs; }
    /// The last poll's error ("" when it read every root).
    QString lastError() const { return m_lastError; }

    /// Tab ids: scalars, images, graphs, distributions, histograms, text, audio, pr_curves, hparams,
    /// custom_scalars, projector.
    void showTab(const QString& id);
    QString currentTab() const;

    RunsPanel* runsPanel() const { return m_runs; }
    ScalarsView* scalars() const { return m_scalars; }
    HistogramView* histograms() const { return m_histograms; }
    DistributionView* distributions() const { return m_distributions; }
    ImagesView* images() const { return m_images; }
    TextView* text() const { return m_text; }
    AudioView* audio() const { return m_audio; }
    HParamsView* hparams() const { return m_hparams; }
    PrCurvesView* prCurves() const { return m_prCurves; }
    CustomScalarsView* customScalars() const { return m_customScalars; }
    ProjectorView* projector() const { return m_projector; }
    QTreeWidget* graphsList() const { return m_graphs; }
    /// The graph of `run` as the feed holds it (see DashboardFeed::runGraph); nullopt before the
    /// first poll or when the run has no graph.
    Expected<std::optional<RunGraph>> runGraph(const QString& run) const;
    /// Writes every scalar tag of every visible run to `file` at once (TensorBoard downloads one run
    /// and tag at a time): JSON {"run": {"tag": [[wall_time, step, value], ...]}} when the name ends in
    /// .json, else CSV "run,tag,wall_time,step,value" (scalar_export.h). Through a temporary file then
    /// a rename. False with `error` set when nothing is shown or the file cannot be written.
    bool exportVisibleScalars(const QString& file, QString* error = nullptr) const;
    /// Deletes the folder of `run` as the Runs panel's "Delete Run Folder…" does once confirmed
    /// (run_removal.h: the folder, or only its own files where other runs lie below it), to the
    /// trash (`toTrash`) or for good, then polls: the run leaves every view when the poll finds its
    /// files gone. False with `error` set when the run is unknown or nothing could be deleted.
    bool deleteRunFolder(const QString& run, bool toTrash, QString* error = nullptr);

signals:
    /// A poll was applied (the views hold its data).
    void updated();
    /// "Open in graph viewer": a run's folder (a log directory the graph viewer reads).
    /// The user asked for the graph of `run` (runGraph gives it).
    void openGraphRequested(const QString& run);
    void message(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    /// The runs of an HParams session's run: itself and the runs below it (the root's "." is
    /// named after its folder when one directory is shown). Empty for an empty name.
    QStringList runsOfSession(const QString& session) const;
    void retranslateUi();
    void startPoll();
    void applyUpdate(const Expected<FeedUpdate>& update);
    /// Hands the pending update's changed tags to the views until a slice of the GUI thread's time is
    /// used, then continues in a later event-loop turn, so that a poll bringing many new tags (dozens
    /// of charts to create) never stalls the window; the last slice finishes the update.
    void applyPendingTags();
    /// The poll's result is handed over: the next poll may start.
    void pollDone();
    /// Shows the first tab that has data, once, unless the current one has some (TensorBoard's rule).
    void openFirstTabWithData();
    void applyStyles();
    /// The runs' folders gone: out of the Runs panel and every view.
    void removeRuns(const std::vector<std::string>& runs);
    /// "Delete Run Folder…": says what goes, asks, moves it to the trash (or, where there is no
    /// trash, asks again and deletes it for good).
    void confirmDeleteRun(const QString& run);
    void updateGraphs(const std::vector<RunInfo>& runs);
    void updateStatus();
    /// Tags with data in a tab (its title's count; graphs: runs listed).
    int tabCount(const QString& id) const;

    QStringList m_roots;
    std::shared_ptr<DashboardFeed> m_feed;
    QFutureWatcher<Expected<FeedUpdate>>* m_watcher;
    QTimer* m_timer;
    bool m_following = true;
    bool m_pollAgain = false;
    bool m_inFlight = false;   ///< a poll's result has not been handed over yet
    std::optional<FeedUpdate> m_pending; ///< an update being handed to the views in slices
    std::size_t m_pendingNext = 0;       ///< its next changed tag
    bool m_openedOnData = false;         ///< openFirstTabWithData chose a tab
    int m_generation = 0;      ///< bumped by setLogDirectories
    int m_pollGeneration = 0;  ///< the generation of the poll in flight
    int m_polls = 0;
    double m_firstDataMs = -1;
    QElapsedTimer m_sinceOpen;
    QElapsedTimer m_sincePoll;
    QString m_lastError;
    std::map<QString, QString> m_runFolders; ///< run -> its folder, from the last poll
    double m_lastPollSeconds = 0;
    std::set<std::pair<QString, QString>> m_tagsSeen; // (tab id, tag) with data; histograms also feed distributions

    QToolBar* m_toolBar = nullptr;
    QAction* m_followAction = nullptr;
    QAction* m_addAction = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_exportAction = nullptr;
    QLabel* m_status = nullptr;
    RunsPanel* m_runs = nullptr;
    EmptyState* m_empty = nullptr; ///< over the runs and views while no run has been read
    QTabWidget* m_tabs = nullptr;
    ScalarsView* m_scalars = nullptr;
    ImagesView* m_images = nullptr;
    QWidget* m_graphsPage = nullptr;
    QLabel* m_graphsHint = nullptr;
    QTreeWidget* m_graphs = nullptr;
    DistributionView* m_distributions = nullptr;
    HistogramView* m_histograms = nullptr;
    TextView* m_text = nullptr;
    AudioView* m_audio = nullptr;
    HParamsView* m_hparams = nullptr;
    PrCurvesView* m_prCurves = nullptr;
    CustomScalarsView* m_customScalars = nullptr;
    ProjectorView* m_projector = nullptr;
};

} // namespace tstudio::dashboard
