// ProfilerView: the profiler tab: a trace's timeline above tfprof's tables, loaded from a file on a
// worker or handed over from a run in the IDE, with Chrome trace export.
#pragma once

#include "profiler/profile_trace.h"
#include "proto/graph.pb.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QPushButton;
class QSplitter;

namespace tstudio {
class EmptyState;
class OpRegistry;
}

namespace tstudio::profiler {

namespace tables {
class ProfileTablesView;
}
namespace timeline {
class TimelineView;
}

/// One trace per tab. The timeline's step selector also picks the step the tables show (-1: the
/// average per step). A click on an op selects it and shows its details; an explicit request (a double
/// click on an op or a table row, "Show in graph") emits nodeActivated, and the main window selects that
/// node in a graph viewer, opening one beside the profile when none has it; showNode goes the other way.
/// GUI thread only.
class ProfilerView : public QWidget {
    Q_OBJECT
public:
    /// `ops` (may be null) gives op categories for the colours; must outlive the view.
    explicit ProfilerView(const OpRegistry* ops, QWidget* parent = nullptr);
    ~ProfilerView() override;

    /// Reads a Chrome trace (.json, .json.gz), a RunMetadata .pb, an event file or a log directory on a
    /// worker thread; loaded (or failed) follows. A graph in the same event file gives the parameters.
    void openFile(const QString& path);
    /// Shows a trace made in this process (the Training panel's Profile); `graph` may be null.
    void setTrace(std::shared_ptr<const ProfileTrace> trace, std::shared_ptr<const tensorflow::GraphDef> graph,
                  const QString& title);

    std::shared_ptr<const ProfileTrace> trace() const { return m_trace; }
    std::shared_ptr<const tensorflow::GraphDef> graph() const { return m_graph; }
    QString title() const { return m_title; }
    QString path() const { return m_path; }
    bool isLoading() const { return m_loading; }
    QString errorText() const { return m_error; }
    timeline::TimelineView* timeline() const { return m_timeline; }
    tables::ProfileTablesView* tables() const { return m_tables; }

    /// Selects the node's first execution in the timeline's step; false when the trace lacks it.
    bool showNode(const QString& nodeName);
    /// Writes the trace as Chrome trace JSON (TensorFlow's timeline layout, with TensorStudio's args
    /// so that it reads back whole); the error names the file.
    bool exportChromeTrace(const QString& path, QString* error = nullptr);

signals:
    void nodeActivated(const QString& nodeName);
    /// The trace of openFile is shown (ok) or could not be read (!ok, errorText says why).
    void loaded(bool ok);
    void titleChanged(const QString& title);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Loaded;
    void retranslateUi();
    void showLoaded();
    void updateSummary();
    void exportInteractively();

    std::shared_ptr<const ProfileTrace> m_trace;
    std::shared_ptr<const tensorflow::GraphDef> m_graph;
    QString m_title;
    QString m_path;
    QString m_error;
    bool m_loading = false;
    double m_loadMs = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<std::shared_ptr<Loaded>>* m_watcher = nullptr;

    QLabel* m_summary = nullptr;
    QPushButton* m_export = nullptr;
    QSplitter* m_splitter = nullptr;
    EmptyState* m_empty = nullptr; ///< over the timeline and tables while there is no trace
    timeline::TimelineView* m_timeline = nullptr;
    tables::ProfileTablesView* m_tables = nullptr;
};

} // namespace tstudio::profiler
