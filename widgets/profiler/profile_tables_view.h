// ProfileTablesView: tfprof's aggregated views of a trace in tabs (op types, name scopes, nodes, advice), with
// sorting, a name filter, minimum thresholds and CSV export.
#pragma once

#include "core/status.h"

#include <QFutureWatcher>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QSpinBox;
class QPushButton;
class QTabWidget;
class QTimer;
class QTreeView;
class QTreeWidget;
class QTreeWidgetItem;

namespace tensorflow {
class GraphDef;
}

namespace tstudio::profiler {
struct ProfileTrace;
}

namespace tstudio::profiler::tables {

class ProfileTableModel;
class TfprofViewTab;
struct BuiltTables;

/// The tabs "Op types", "Name scopes" (a tree with totals per scope), "Nodes", "Advice" and "tfprof"
/// (tfprof's scope view under all its options, TfprofViewTab) over one trace.
/// Tables are built (engine: buildProfileTable, profileAdvice) on the GUI thread for small traces and on a
/// worker (QtConcurrent) from workerThreshold() events up; a newer setTrace or setStep drops older results.
/// The filter field takes a regular expression searched in names (red, with the error as tooltip, while
/// invalid); the threshold fields keep rows whose totals reach a time (us), requested bytes or float ops.
/// Header clicks sort (numbers by total; the scope view also has a self-time column). Export CSV…
/// writes the current tab's filtered, sorted rows (profileTableCsv) atomically. Double-clicking (or Return
/// on) a node or scope row, or an advice item that names nodes, emits nodeActivated.
///
/// Object names: "filterEdit", "minTimeEdit", "minBytesEdit", "minFlopsEdit", "exportButton", "statusLabel",
/// "tabs", "opTypesView", "scopesView", "nodesView", "adviceList". GUI thread only.
class ProfileTablesView : public QWidget {
    Q_OBJECT
public:
    enum Tab { kOpTypes, kScopes, kNodes, kAdvice, kTfprof };

    explicit ProfileTablesView(QWidget* parent = nullptr);
    ~ProfileTablesView() override;

    /// Shows `trace` (null clears); `graph` (may be null) gives attrs for float ops, the variables'
    /// parameters and the nodes that did not run. Keeps the step when the new trace has it, else -1.
    void setTrace(std::shared_ptr<const ProfileTrace> trace, std::shared_ptr<const tensorflow::GraphDef> graph);
    /// The trainable_variables collection for the parameter counts (else the fallback rule of
    /// model_parameters.h). Takes effect at the next setTrace.
    void setTrainableVariables(std::optional<std::vector<std::string>> names);
    /// -1: every step averaged per step (tfprof's default); else an index into ProfileTrace::steps.
    /// Out-of-range indices fall back to -1.
    void setStep(int stepIndexOrMinus1);
    int step() const { return m_step; }

    /// Traces with at least this many events are tabulated on a worker thread (default 100,000).
    void setWorkerThreshold(std::size_t events) { m_workerThreshold = events; }
    std::size_t workerThreshold() const { return m_workerThreshold; }
    bool isBusy() const;

    /// The model of a table tab (kOpTypes, kScopes, kNodes), as shown; nullptr for kAdvice and kTfprof.
    QAbstractItemModel* model(Tab tab) const;
    QTreeView* tableView(Tab tab) const;
    QTreeWidget* adviceList() const { return m_advice; }
    TfprofViewTab* tfprofTab() const { return m_tfprof; }
    Tab currentTab() const;
    void setCurrentTab(Tab tab);

    /// Writes the rows `tab` shows as CSV to `path` (QSaveFile: a temporary file renamed into place).
    /// FailedPrecondition for the advice tab or before any trace; the file system's error naming `path`.
    Status exportCsv(Tab tab, const QString& path) const;

signals:
    /// A node (or scope) row or an advice item naming a node was activated.
    void nodeActivated(const QString& nodeName);
    /// Tables for the current trace and step are shown (also after an empty trace).
    void tablesReady();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void rebuild();
    void showBuilt(std::shared_ptr<const BuiltTables> built);
    void fillAdvice();
    void applyFilters();
    void updateStatus();
    void activateIndex(const QModelIndex& index);
    void activateAdvice(QTreeWidgetItem* item);
    void exportCurrent();

    std::shared_ptr<const ProfileTrace> m_trace;
    std::shared_ptr<const tensorflow::GraphDef> m_graph;
    std::optional<std::vector<std::string>> m_trainable;
    std::shared_ptr<const BuiltTables> m_built;
    int m_step = -1;
    std::size_t m_workerThreshold = 100'000;
    quint64 m_generation = 0;
    QFutureWatcher<std::shared_ptr<const BuiltTables>>* m_watcher;

    QLineEdit* m_filter;
    QLineEdit* m_hide;        ///< tfprof's hide_name_regexes (whole names)
    QLabel* m_maxDepthLabel;
    QSpinBox* m_maxDepth;     ///< tfprof's max_depth for the scope tree (-1: all)
    QLabel* m_minTimeLabel;
    QLineEdit* m_minTime;
    QLabel* m_minBytesLabel;
    QLineEdit* m_minBytes;
    QLabel* m_minFlopsLabel;
    QLineEdit* m_minFlops;
    QPushButton* m_export;
    QLabel* m_status;
    QTabWidget* m_tabs;
    QTreeView* m_views[3];
    ProfileTableModel* m_models[3];
    QTreeWidget* m_advice;
    TfprofViewTab* m_tfprof;
    QTimer* m_filterTimer;
    QString m_filterError;
};

} // namespace tstudio::profiler::tables
