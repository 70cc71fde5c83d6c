// CheckpointVariablesView: the checkpoint tab: every tensor of a V2 checkpoint with its statistics, filterable,
// exportable.
#pragma once

#include "core/status.h"

#include <QFutureWatcher>
#include <QString>
#include <QWidget>

#include <memory>

class QAbstractItemModel;
class QAction;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QToolBar;
class QTreeView;

namespace tstudio {
class CheckpointReader;
}

namespace tstudio::graph_viewer {

class CheckpointVariablesModel;
class TensorValueDialog;
struct CheckpointScanReport;
struct CheckpointValueRead;

/// Lists the tensors of a V2 checkpoint (PREFIX.index + PREFIX.data-*) in a sortable, filterable table: name,
/// dtype, shape, stored size, and min / max / mean / std / sparsity over the finite values (as
/// computeTensorStatistics defines them). The index is read and every tensor's statistics computed on a worker
/// thread (QtConcurrent), one tensor in memory at a time; the table fills in as they arrive while a progress bar
/// shows how far it got. Setting another checkpoint or destroying the view cancels the work (the worker stops
/// after the tensor it is reading). Errors opening the checkpoint are shown in the view, naming the file; a
/// tensor that cannot be read shows "unreadable" with the reason as tooltip.
///
/// The toolbar and the context menu offer "Show values" (also a double-click or Enter on a row: the tensor is read
/// on a worker only then, and opens in a TensorValueDialog) and "Export as .npy…" for the selected tensor.
///
/// Object names: "filterEdit", "tensorTable", "progressBar", "messageLabel", "showValuesAction", "exportAction".
/// GUI thread only.
class CheckpointVariablesView : public QWidget {
    Q_OBJECT
    Q_MOC_INCLUDE("graph_viewer/tensor_value_dialog.h")
public:
    /// Table columns.
    enum Column { kName, kDType, kShape, kSize, kMin, kMax, kMean, kStd, kSparsity, kColumnCount };
    /// The role the table sorts by: numbers as double (or qint64 for sizes), text as QString. Statistics not
    /// (yet) known are invalid QVariants.
    static constexpr int kSortRole = Qt::UserRole;

    explicit CheckpointVariablesView(QWidget* parent = nullptr);
    ~CheckpointVariablesView() override;

    /// Starts reading the checkpoint at `prefix` (a path without ".index"); cancels any earlier one.
    void setCheckpoint(const QString& prefix);
    QString checkpoint() const { return m_prefix; }

    /// Reads tensor `name` and writes it to `path` as .npy, atomically (a temporary file renamed into place).
    /// Errors: FailedPrecondition when no checkpoint is open; the reader's errors (NotFound naming the tensor,
    /// DataLoss, ...); Unimplemented for string tensors (.npy has no such dtype); the file system's, naming
    /// `path`. Blocks while it reads and writes: the GUI action runs it on a worker thread.
    Status exportTensor(const QString& name, const QString& path) const;

    /// Reads tensor `name` on a worker thread and opens its values in a TensorValueDialog (valuesShown); a read
    /// error is shown in the view's message line, naming the tensor (valuesFailed). One read at a time: a second
    /// request while one runs replaces the one to show.
    void showValues(const QString& name);

    /// The filtered and sorted table, as the view shows it.
    QAbstractItemModel* model() const;
    /// True while the index is read or statistics are computed.
    bool isBusy() const;
    /// The error shown instead of the table, or empty.
    QString errorText() const;

signals:
    /// The checkpoint's index was read: the table lists `tensorCount` tensors (statistics follow).
    void loaded(int tensorCount);
    /// The worker is done: every tensor's statistics are in, or opening failed. Not emitted for work cancelled
    /// by a newer setCheckpoint.
    void statisticsFinished();
    /// The checkpoint could not be opened; `message` names the file.
    void loadFailed(const QString& message);
    /// The scan is done and `count` tensors could not be read (a data shard cut short, say): the
    /// index opened, so only their rows say "unreadable"; `message` names the checkpoint and the
    /// first such tensor with its reader's reason, for a console or status line.
    void tensorsUnreadable(int count, const QString& message);
    /// showValues opened `dialog` (it deletes itself when closed).
    void valuesShown(TensorValueDialog* dialog);
    /// showValues could not read the tensor; `message` names it and says why.
    void valuesFailed(const QString& message);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void cancelScan();
    void onReportsReady(int begin, int end);
    void onScanFinished();
    void updateActions();
    void exportSelected();
    QString selectedTensor() const;
    void showMessage(const QString& text, bool error);

    QString m_prefix;
    std::shared_ptr<const CheckpointReader> m_reader;
    QFutureWatcher<CheckpointScanReport>* m_scan = nullptr;
    QFutureWatcher<Status>* m_export = nullptr;
    QFutureWatcher<CheckpointValueRead>* m_valueRead = nullptr;
    QString m_pendingValues; ///< a showValues request waiting for the running read
    CheckpointVariablesModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QToolBar* m_toolBar;
    QLineEdit* m_filter;
    QAction* m_exportAction;
    QAction* m_showValuesAction;
    QTreeView* m_table;
    QProgressBar* m_progress;
    QLabel* m_message;
    QLabel* m_count;
    QString m_error;
    /// Tensors of this scan that could not be read, and the first one's name and reason.
    int m_unreadable = 0;
    QString m_firstUnreadable;
};

} // namespace tstudio::graph_viewer
