// CheckpointVariablesView: a table model over a checkpoint's tensors, filled by a cancellable worker, and its view.
#include "graph_viewer/checkpoint_variables_view.h"

#include "common/background_run.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "graph_viewer/tensor_value_dialog.h"
#include "framework/tensor_statistics.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/npy.h"

#include <QAbstractTableModel>
#include <QAction>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPromise>
#include <QSortFilterProxyModel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace tstudio::graph_viewer {

/// A tensor read for "Show values". The allocator is declared first so that every copy frees its tensor before
/// giving up its share of the allocator.
struct CheckpointValueRead {
    std::shared_ptr<CpuAllocator> allocator;
    std::optional<Tensor> tensor;
    QString name;
    QString error;
};

/// One message from the worker: the listing, one tensor's statistics, or why the checkpoint cannot be read.
struct CheckpointScanReport {
    enum class Kind { kListing, kStatistics, kError };
    Kind kind = Kind::kError;
    std::shared_ptr<const CheckpointReader> reader; ///< kListing
    std::vector<BundleTensorInfo> tensors;            ///< kListing, in the reader's (name) order
    int row = -1;                                     ///< kStatistics: index into `tensors`
    std::optional<TensorStatistics> statistics;       ///< kStatistics, when computed
    bool failed = false;                              ///< kStatistics: the tensor could not be read
    QString message;                                  ///< kStatistics: why there are none; kError: the error
};

namespace {

using View = CheckpointVariablesView;

QString shapeText(const TensorShape& shape)
{
    QStringList dims;
    for (int i = 0; i < shape.rank(); ++i)
        dims << QString::number(shape.dim(i));
    return '[' + dims.join(QStringLiteral(", ")) + ']';
}

bool hasStatistics(DataType dtype)
{
    return isFloating(dtype) || isInteger(dtype) || isQuantized(dtype) || dtype == tensorflow::DT_BOOL;
}

/// The worker: opens the checkpoint, reports the listing, then each tensor's statistics, until cancelled.
void scanCheckpoint(QPromise<CheckpointScanReport>& promise, const std::string& prefix)
{
    promise.start();
    auto opened = CheckpointReader::open(prefix);
    if (!opened) {
        CheckpointScanReport report;
        report.message = QString::fromStdString(opened.error().message());
        promise.addResult(std::move(report));
        return;
    }
    auto reader = std::make_shared<const CheckpointReader>(std::move(*opened));
    std::vector<BundleTensorInfo> tensors = reader->tensors();
    const int count = static_cast<int>(tensors.size());
    promise.setProgressRange(0, count);
    {
        CheckpointScanReport listing;
        listing.kind = CheckpointScanReport::Kind::kListing;
        listing.reader = reader;
        listing.tensors = tensors;
        promise.addResult(std::move(listing));
    }
    CpuAllocator allocator;
    for (int row = 0; row < count; ++row) {
        if (promise.isCanceled())
            return;
        const BundleTensorInfo& info = tensors[static_cast<std::size_t>(row)];
        CheckpointScanReport report;
        report.kind = CheckpointScanReport::Kind::kStatistics;
        report.row = row;
        if (info.numSlices > 0) {
            report.message = CheckpointVariablesView::tr("partitioned into %n slice(s)", nullptr, info.numSlices);
        } else if (!hasStatistics(info.dtype)) {
            report.message = CheckpointVariablesView::tr("no statistics for %1 tensors")
                                 .arg(QString::fromStdString(dataTypeName(info.dtype)));
        } else if (auto tensor = reader->read(info.name, allocator); !tensor) {
            report.failed = true;
            report.message = QString::fromStdString(tensor.error().message());
        } else if (auto statistics = computeTensorStatistics(*tensor); !statistics) {
            report.failed = true;
            report.message = QString::fromStdString(statistics.error().message());
        } else {
            report.statistics = *statistics;
        }
        promise.addResult(std::move(report));
        promise.setProgressValue(row + 1);
    }
}

Status writeTensorAsNpy(const CheckpointReader& reader, const QString& name, const QString& path)
{
    CpuAllocator allocator;
    auto tensor = reader.read(name.toStdString(), allocator);
    if (!tensor)
        return tensor.error();
    return writeNpy(std::filesystem::path(path.toStdString()), *tensor);
}

} // namespace

// --- The model -------------------------------------------------------------------------------------------------

/// The tensors of one checkpoint and, as they arrive, their statistics. Appearance-free: the view aligns.
class CheckpointVariablesModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setTensors(std::vector<BundleTensorInfo> tensors)
    {
        beginResetModel();
        m_rows.clear();
        m_rows.reserve(tensors.size());
        for (auto& info : tensors)
            m_rows.push_back(Row{std::move(info), {}, false, false, {}});
        endResetModel();
    }

    void setReport(const CheckpointScanReport& report)
    {
        if (report.row < 0 || report.row >= rowCount())
            return;
        Row& row = m_rows[static_cast<std::size_t>(report.row)];
        row.done = true;
        row.failed = report.failed;
        row.statistics = report.statistics;
        row.message = report.message;
        emit dataChanged(index(report.row, View::kMin), index(report.row, View::kSparsity));
    }

    void retranslate() { emit headerDataChanged(Qt::Horizontal, 0, View::kColumnCount - 1); }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : View::kColumnCount; }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        switch (section) {
        case View::kName: return CheckpointVariablesView::tr("Name");
        case View::kDType: return CheckpointVariablesView::tr("DType");
        case View::kShape: return CheckpointVariablesView::tr("Shape");
        case View::kSize: return CheckpointVariablesView::tr("Size");
        case View::kMin: return CheckpointVariablesView::tr("Min");
        case View::kMax: return CheckpointVariablesView::tr("Max");
        case View::kMean: return CheckpointVariablesView::tr("Mean");
        case View::kStd: return CheckpointVariablesView::tr("Std");
        case View::kSparsity: return CheckpointVariablesView::tr("Sparsity");
        default: return {};
        }
    }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const Row& row = m_rows[static_cast<std::size_t>(index.row())];
        const int column = index.column();
        switch (role) {
        case Qt::DisplayRole: return display(row, column);
        case View::kSortRole: return sortValue(row, column);
        case Qt::ToolTipRole: return toolTip(row, column);
        case Qt::TextAlignmentRole:
            return column >= View::kSize ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        default: return {};
        }
    }

private:
    struct Row {
        BundleTensorInfo info;
        std::optional<TensorStatistics> statistics;
        bool done = false;
        bool failed = false;
        QString message;
    };

    static bool hasFinite(const TensorStatistics& s) { return s.elements > s.nanCount + s.negInfCount + s.posInfCount; }

    /// The number behind a statistics cell, or nothing (not computed, no finite value, empty tensor).
    static std::optional<double> statistic(const Row& row, int column)
    {
        if (!row.statistics)
            return std::nullopt;
        const TensorStatistics& s = *row.statistics;
        if (column == View::kSparsity)
            return s.elements > 0 ? std::optional<double>(s.sparsity) : std::nullopt;
        if (!hasFinite(s))
            return std::nullopt;
        switch (column) {
        case View::kMin: return s.min;
        case View::kMax: return s.max;
        case View::kMean: return s.mean;
        case View::kStd: return s.std;
        default: return std::nullopt;
        }
    }

    static QVariant display(const Row& row, int column)
    {
        switch (column) {
        case View::kName: return QString::fromStdString(row.info.name);
        case View::kDType: return QString::fromStdString(dataTypeName(row.info.dtype));
        case View::kShape: return shapeText(row.info.shape);
        case View::kSize: return QLocale().formattedDataSize(row.info.size);
        default: break;
        }
        if (!row.done)
            return {};
        if (!row.statistics) {
            if (column != View::kMin)
                return {};
            return row.failed ? CheckpointVariablesView::tr("unreadable") : QStringLiteral("\u2014");
        }
        const std::optional<double> value = statistic(row, column);
        if (!value)
            return {};
        if (column == View::kSparsity)
            return QStringLiteral("%1%").arg(*value * 100.0, 0, 'f', 1);
        return QString::number(*value, 'g', 6);
    }

    static QVariant sortValue(const Row& row, int column)
    {
        switch (column) {
        case View::kName: return QString::fromStdString(row.info.name);
        case View::kDType: return QString::fromStdString(dataTypeName(row.info.dtype));
        case View::kShape: {
            auto count = row.info.shape.numElements();
            return count ? QVariant(qint64(*count)) : QVariant();
        }
        case View::kSize: return QVariant(qint64(row.info.size));
        default: break;
        }
        const std::optional<double> value = statistic(row, column);
        return value ? QVariant(*value) : QVariant();
    }

    static QVariant toolTip(const Row& row, int column)
    {
        if (column == View::kName)
            return QString::fromStdString(row.info.name);
        if (column == View::kSize || column == View::kShape) {
            auto count = row.info.shape.numElements();
            return CheckpointVariablesView::tr("%1 elements, %2 bytes stored")
                .arg(count ? QString::number(*count) : QStringLiteral("?"))
                .arg(row.info.size);
        }
        if (column < View::kMin || !row.done)
            return {};
        if (!row.statistics)
            return row.message;
        const TensorStatistics& s = *row.statistics;
        QString text = CheckpointVariablesView::tr("%1 NaN, %2 -inf, %3 +inf, %4 zeros of %5 elements")
                           .arg(s.nanCount)
                           .arg(s.negInfCount)
                           .arg(s.posInfCount)
                           .arg(s.zeroCount)
                           .arg(s.elements);
        if (!hasFinite(s))
            text += '\n' + CheckpointVariablesView::tr("no finite values");
        else if (const std::optional<double> value = statistic(row, column))
            text += '\n' + QString::number(*value, 'g', 17);
        return text;
    }

    std::vector<Row> m_rows;
};

/// Sorts by kSortRole with cells that hold no number (not computed, no statistics) last in either order.
class TensorSortProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        const bool leftKnown = left.data(sortRole()).isValid();
        const bool rightKnown = right.data(sortRole()).isValid();
        if (leftKnown && rightKnown)
            return QSortFilterProxyModel::lessThan(left, right);
        if (leftKnown == rightKnown)
            return false;
        // Unknown is the largest when ascending and the smallest when descending, so it always ends last.
        return sortOrder() == Qt::AscendingOrder ? leftKnown : rightKnown;
    }
};

// --- The view --------------------------------------------------------------------------------------------------

CheckpointVariablesView::CheckpointVariablesView(QWidget* parent)
    : QWidget(parent), m_model(new CheckpointVariablesModel(this)), m_proxy(new TensorSortProxy(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(kName);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    m_toolBar = new QToolBar(this);
    m_filter = new QLineEdit(m_toolBar);
    m_filter->setObjectName(QStringLiteral("filterEdit"));
    m_filter->setClearButtonEnabled(true);
    m_toolBar->addWidget(m_filter);
    m_showValuesAction = new QAction(this);
    m_showValuesAction->setObjectName(QStringLiteral("showValuesAction"));
    m_toolBar->addAction(m_showValuesAction);
    m_exportAction = new QAction(this);
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_toolBar->addAction(m_exportAction);
    m_count = new QLabel(m_toolBar);
    m_count->setContentsMargins(8, 0, 4, 0);
    m_toolBar->addWidget(m_count);
    m_progress = new QProgressBar(m_toolBar);
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setMaximumWidth(200);
    m_progress->setVisible(false);
    m_toolBar->addWidget(m_progress)->setObjectName(QStringLiteral("progressBarAction"));
    layout->addWidget(m_toolBar);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setContentsMargins(6, 6, 6, 6);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    layout->addWidget(m_message);

    m_table = new QTreeView(this);
    m_table->setObjectName(QStringLiteral("tensorTable"));
    m_table->setModel(m_proxy);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(kName, Qt::AscendingOrder);
    m_table->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setColumnWidth(kName, 320);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->addAction(m_showValuesAction);
    m_table->addAction(m_exportAction);
    layout->addWidget(m_table, 1);
    layout->addStretch(0); // keeps an error message at the top while the table is hidden

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateActions();
    });
    connect(m_exportAction, &QAction::triggered, this, &CheckpointVariablesView::exportSelected);
    connect(m_showValuesAction, &QAction::triggered, this, [this] {
        const QString name = selectedTensor();
        if (!name.isEmpty())
            showValues(name);
    });
    // A double-click or Enter on a row opens its values, as in a file manager.
    connect(m_table, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString name = index.siblingAtColumn(kName).data(kSortRole).toString();
        if (!name.isEmpty())
            showValues(name);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CheckpointVariablesView::updateActions);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &CheckpointVariablesView::updateActions);
    retranslateUi();
}

CheckpointVariablesView::~CheckpointVariablesView()
{
    cancelScan();
    if (m_export)
        m_export->disconnect(this); // the export finishes on its own; nothing is left to report to
    if (m_valueRead)
        m_valueRead->disconnect(this);
}

void CheckpointVariablesView::cancelScan()
{
    if (!m_scan)
        return;
    m_scan->disconnect(this);
    m_scan->cancel();
    m_scan->deleteLater();
    m_scan = nullptr;
}

void CheckpointVariablesView::setCheckpoint(const QString& prefix)
{
    cancelScan();
    m_prefix = prefix;
    m_reader.reset();
    m_error.clear();
    m_unreadable = 0;
    m_firstUnreadable.clear();
    m_model->setTensors({});
    showMessage({}, false);
    m_progress->setRange(0, 0); // busy until the index is read
    m_progress->setVisible(true);

    m_scan = new QFutureWatcher<CheckpointScanReport>(this);
    connect(m_scan, &QFutureWatcherBase::resultsReadyAt, this, &CheckpointVariablesView::onReportsReady);
    connect(m_scan, &QFutureWatcherBase::finished, this, &CheckpointVariablesView::onScanFinished);
    connect(m_scan, &QFutureWatcherBase::progressRangeChanged, m_progress, &QProgressBar::setRange);
    connect(m_scan, &QFutureWatcherBase::progressValueChanged, m_progress, &QProgressBar::setValue);
    m_scan->setFuture(runInBackgroundWithPromise<CheckpointScanReport>(
        [prefix = prefix.toStdString()](QPromise<CheckpointScanReport>& promise) { scanCheckpoint(promise, prefix); }));
    updateActions();
}

void CheckpointVariablesView::onReportsReady(int begin, int end)
{
    for (int i = begin; i < end; ++i) {
        const CheckpointScanReport report = m_scan->resultAt(i);
        switch (report.kind) {
        case CheckpointScanReport::Kind::kListing:
            m_reader = report.reader;
            m_model->setTensors(report.tensors);
            retranslateUi();
            emit loaded(static_cast<int>(report.tensors.size()));
            break;
        case CheckpointScanReport::Kind::kStatistics:
            m_model->setReport(report);
            if (report.failed && m_unreadable++ == 0)
                m_firstUnreadable = tr("'%1': %2").arg(m_model->data(m_model->index(report.row, View::kName), Qt::DisplayRole).toString(),
                                                       report.message);
            break;
        case CheckpointScanReport::Kind::kError:
            // The reader's messages name the file; say which checkpoint when one does not.
            m_error = report.message.contains(m_prefix)
                          ? tr("Cannot read the checkpoint: %1").arg(report.message)
                          : tr("Cannot read the checkpoint %1: %2").arg(m_prefix, report.message);
            showMessage(m_error, true);
            emit loadFailed(m_error);
            break;
        }
    }
}

void CheckpointVariablesView::onScanFinished()
{
    m_progress->setVisible(false);
    m_scan->deleteLater();
    m_scan = nullptr;
    updateActions();
    if (m_unreadable > 0)
        emit tensorsUnreadable(m_unreadable, tr("%n tensor(s) of the checkpoint %1 cannot be read; the first, %2", nullptr,
                                                m_unreadable)
                                                 .arg(m_prefix, m_firstUnreadable));
    emit statisticsFinished();
}

bool CheckpointVariablesView::isBusy() const
{
    return m_scan != nullptr;
}

QString CheckpointVariablesView::errorText() const
{
    return m_error;
}

QAbstractItemModel* CheckpointVariablesView::model() const
{
    return m_proxy;
}

Status CheckpointVariablesView::exportTensor(const QString& name, const QString& path) const
{
    if (!m_reader)
        return failedPreconditionError("no checkpoint is open to export '" + name.toStdString() + "' from");
    return writeTensorAsNpy(*m_reader, name, path);
}

QString CheckpointVariablesView::selectedTensor() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows(kName);
    return rows.isEmpty() ? QString() : rows.front().data(kSortRole).toString();
}

void CheckpointVariablesView::updateActions()
{
    m_exportAction->setEnabled(m_reader && !selectedTensor().isEmpty() && !(m_export && m_export->isRunning()));
    m_showValuesAction->setEnabled(m_reader && !selectedTensor().isEmpty());
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    m_count->setText(shown == total ? tr("%n tensor(s)", nullptr, total)
                                    : tr("%1 of %n tensor(s)", nullptr, total).arg(shown));
}

void CheckpointVariablesView::exportSelected()
{
    const QString name = selectedTensor();
    if (name.isEmpty() || !m_reader)
        return;
    QString suggested = name;
    suggested.replace('/', '_');
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export tensor as .npy"), suggested + ".npy", tr("NumPy arrays (*.npy)"));
    if (path.isEmpty())
        return;
    if (!m_export) {
        m_export = new QFutureWatcher<Status>(this);
        connect(m_export, &QFutureWatcherBase::finished, this, [this] {
            const Status status = m_export->result();
            const QString target = m_export->property("path").toString();
            if (status.isOk())
                showMessage(tr("Exported %1 to %2").arg(m_export->property("tensor").toString(), target), false);
            else
                showMessage(tr("Export to %1 failed: %2").arg(target, QString::fromStdString(status.message())), true);
            updateActions();
        });
    }
    m_export->setProperty("path", path);
    m_export->setProperty("tensor", name);
    m_export->setFuture(
        runInBackground([reader = m_reader, name, path] { return writeTensorAsNpy(*reader, name, path); }));
    updateActions();
}

void CheckpointVariablesView::showValues(const QString& name)
{
    if (!m_reader) {
        const QString message = tr("No checkpoint is open to read %1 from").arg(name);
        showMessage(message, true);
        emit valuesFailed(message);
        return;
    }
    if (!m_valueRead) {
        m_valueRead = new QFutureWatcher<CheckpointValueRead>(this);
        connect(m_valueRead, &QFutureWatcherBase::finished, this, [this] {
            const CheckpointValueRead read = m_valueRead->result();
            if (!m_pendingValues.isEmpty()) {
                showValues(std::exchange(m_pendingValues, QString()));
                return;
            }
            if (!read.tensor) {
                const QString message = tr("Cannot read %1: %2").arg(read.name, read.error);
                showMessage(message, true);
                emit valuesFailed(message);
                return;
            }
            auto* dialog = new TensorValueDialog(read.name, tr("checkpoint %1").arg(QFileInfo(m_prefix).fileName()),
                                                 *read.tensor, this);
            dialog->show();
            emit valuesShown(dialog);
        });
    }
    if (m_valueRead->isRunning()) {
        m_pendingValues = name;
        return;
    }
    // Only now is the tensor read: the table holds statistics, never values.
    m_valueRead->setFuture(runInBackground([reader = m_reader, name] {
        CheckpointValueRead read;
        read.allocator = std::make_shared<CpuAllocator>();
        read.name = name;
        auto tensor = reader->read(name.toStdString(), *read.allocator);
        if (tensor)
            read.tensor = std::move(*tensor);
        else
            read.error = QString::fromStdString(tensor.error().message());
        return read;
    }));
}

void CheckpointVariablesView::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    QPalette palette = m_message->palette();
    palette.setColor(QPalette::WindowText,
                     error ? QColor(0xc6, 0x28, 0x28) : this->palette().color(QPalette::WindowText));
    m_message->setPalette(palette);
    m_table->setVisible(!error || m_model->rowCount() > 0);
}

void CheckpointVariablesView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void CheckpointVariablesView::retranslateUi()
{
    m_filter->setPlaceholderText(tr("Filter tensors by name"));
    m_showValuesAction->setText(tr("Show values"));
    m_showValuesAction->setToolTip(tr("Read the selected tensor and show its values in a table (double-click a row)"));
    m_exportAction->setText(tr("Export as .npy\u2026"));
    m_exportAction->setToolTip(tr("Write the selected tensor to a NumPy .npy file"));
    m_progress->setFormat(tr("Statistics %v of %m"));
    m_model->retranslate();
    updateActions();
}

} // namespace tstudio::graph_viewer
