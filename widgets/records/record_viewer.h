// RecordViewer: a document tab for TFRecord files: records indexed on a worker, features, images, statistics.
#pragma once

#include "data/example_summary.h"
#include "data/tfrecord_index.h"

#include <QFuture>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace tstudio {
class EmptyState;
}

namespace tstudio::records {

class FeatureStatisticsTree;
class RecordDetailTree;
class RecordTableModel;

/// Shows one TFRecord file: a table of its records (number, offset, size, features in a line),
/// the selected record's features as a tree with images decoded inline, and per-feature
/// statistics over the first kStatisticsSample records. The file is indexed on a worker thread
/// (record headers only, see data::TfRecordIndex) while the table fills; "Go to record" jumps to
/// a record as soon as the index reaches it, without reading the records before it. A damaged or
/// truncated record ends the index: the records before it stay listed and a banner names the
/// record, its offset and the file. Closing the tab cancels the worker and waits for it (it checks
/// every few hundred records). GUI thread only.
class RecordViewer : public QWidget {
    Q_OBJECT
public:
    /// Statistics are gathered over this many records from the start of the file.
    static constexpr quint64 kStatisticsSample = 1000;

    explicit RecordViewer(QWidget* parent = nullptr);
    ~RecordViewer() override;

    /// Opens `path` and starts indexing. False when it cannot be opened (errorText says why).
    bool open(const QString& path, data::Compression compression = data::Compression::kNone);

    /// Selects record `n` (from 0), now when it is indexed, else once the index reaches it; when
    /// the file turns out to be shorter the status line says so and nothing is selected.
    void goToRecord(quint64 n);
    /// The selected record, or -1.
    qint64 currentRecord() const;

    bool isIndexing() const { return m_indexing; }
    bool statisticsReady() const { return m_statisticsReady; }
    /// Why the index stopped early or the file could not be opened; empty when all is well.
    QString errorText() const { return m_errorText; }
    /// The status line ("1,234 records · 12.3 MB", "Looking for record 90,000…").
    QString statusText() const;
    QString path() const { return m_path; }

    RecordTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    RecordDetailTree* detailTree() const { return m_detail; }
    FeatureStatisticsTree* statisticsTree() const { return m_statistics; }
    QTabWidget* tabs() const { return m_tabs; }
    QSpinBox* recordBox() const { return m_recordBox; }

signals:
    /// The index grew or finished.
    void indexProgressed(quint64 records, bool finished);
    void statisticsUpdated();
    /// The detail pane shows record `n`.
    void recordShown(quint64 n);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void startWorker();
    void stopWorker();
    void onProgress(quint64 records, quint64 offset, bool finished);
    void onStatistics(const data::ExampleStatistics& statistics);
    void showRow(int row);
    void updateStatus();

    std::shared_ptr<data::TfRecordIndex> m_index;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
    QFuture<void> m_worker;
    QString m_path;
    bool m_indexing = false;
    bool m_statisticsReady = false;
    quint64 m_scannedOffset = 0;
    quint64 m_sampled = 0;
    std::optional<quint64> m_pendingJump;
    QString m_errorText;
    QString m_jumpNote;

    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_banner;
    EmptyState* m_empty = nullptr; ///< over the records while there are none to show
    QProgressBar* m_progress;
    QLabel* m_goLabel;
    QSpinBox* m_recordBox;
    QPushButton* m_goButton;
    RecordTableModel* m_model = nullptr;
    QTableView* m_table;
    QTabWidget* m_tabs;
    RecordDetailTree* m_detail;
    FeatureStatisticsTree* m_statistics;
    QLabel* m_statisticsNote;
};

} // namespace tstudio::records
