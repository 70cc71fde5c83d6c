// RecordTableModel: the records of a TFRecord file as table rows, fetched lazily from a TfRecordIndex.
#pragma once

#include "data/tfrecord_index.h"

#include <QAbstractTableModel>
#include <QCache>
#include <QString>

#include <memory>

namespace tstudio::records {

/// One row per record found so far: its number (from 0), offset, payload size and a one-line
/// summary of its features ("label: 3 · image_raw: JPEG 2.1 KB · height: 28"). Rows are added in
/// batches by fetchMore (a view asks when scrolled to the end) or ensureRow (a jump); the count of
/// records the index knows comes from setKnownRecords, which the viewer calls as indexing
/// proceeds. Offsets are read in blocks and the summaries per record, both on demand and cached,
/// so a file of millions of records costs what is on screen. Summary reads happen on the GUI
/// thread; the index is thread-safe, so a worker may go on indexing meanwhile.
/// Models hold no colours: a damaged record's summary says so and kProblemRole is true.
class RecordTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { kRecordColumn, kOffsetColumn, kSizeColumn, kFeaturesColumn, kColumnCount };
    /// True for a record whose data cannot be read (damaged).
    static constexpr int kProblemRole = Qt::UserRole + 1;
    /// The record number (qulonglong) of a row.
    static constexpr int kRecordRole = Qt::UserRole + 2;
    /// Rows added per fetchMore.
    static constexpr int kFetchBatch = 512;
    /// Records larger than this are not read for their one-line summary.
    static constexpr quint64 kMaxSummaryBytes = quint64(64) << 20;

    explicit RecordTableModel(std::shared_ptr<data::TfRecordIndex> index, QObject* parent = nullptr);

    /// The index now knows `count` records: the first batch is shown at once, later ones when fetched.
    void setKnownRecords(quint64 count);
    quint64 knownRecords() const { return m_known; }
    /// Adds rows up to record `n` when the index knows it; false otherwise.
    bool ensureRow(quint64 n);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

private:
    struct Summary {
        QString text;
        bool problem = false;
    };
    const data::RecordLocation* location(int row) const;
    const Summary* summary(int row) const;
    void addRows(int count);

    std::shared_ptr<data::TfRecordIndex> m_index;
    quint64 m_known = 0;
    int m_rows = 0;
    static constexpr int kBlock = 256;
    mutable QCache<int, std::vector<data::RecordLocation>> m_blocks{256};
    mutable QCache<int, Summary> m_summaries{4096};
};

/// "512 B", "2.1 KB", "3.4 MB" in the current locale.
QString formatByteSize(quint64 bytes);

} // namespace tstudio::records
