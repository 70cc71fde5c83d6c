// ProfileTableModel: one tfprof view (op types, name scopes as a tree, or nodes) as a QAbstractItemModel,
// sorted by the engine's sortProfileTable so 100,000 rows need no proxy.
#pragma once

#include "profiler/profile_tables.h"

#include <QAbstractItemModel>
#include <QString>

#include <vector>

namespace tstudio::profiler::tables {

/// Shows a ProfileTable it owns (already filtered). Columns depend on the view: the name (op type, the
/// scope's last name component in the tree, the full node name), the node's op (scope and node views),
/// runs, nodes (op view), time, self time (scope view), accelerator and CPU time, requested, peak, residual
/// and output bytes, float ops, parameters and devices. Display text uses ns/us/ms/s, B/KB/MB/GB and
/// k/M/G (powers of 1000, as tfprof); kValueRole gives the raw number (qint64) or text. Sorting
/// (QAbstractItemModel::sort, e.g. from a header click) reorders every level of the tree in place and
/// keeps persistent indexes, so expanded scopes stay expanded. GUI thread only.
class ProfileTableModel : public QAbstractItemModel {
    Q_OBJECT
public:
    /// Raw value of a cell: qint64 for numbers, QString for text.
    static constexpr int kValueRole = Qt::UserRole;
    /// The graph node or scope a row stands for (empty for op-type rows): what nodeActivated sends.
    static constexpr int kNodeNameRole = Qt::UserRole + 1;

    struct Column {
        ProfileColumn column;
        bool self = false;
    };

    explicit ProfileTableModel(ProfileView view, QObject* parent = nullptr);

    ProfileView view() const { return m_view; }
    /// Replaces the table, then sorts it by the current sort column.
    void setTable(ProfileTable table);
    const ProfileTable& table() const { return m_table; }
    const std::vector<Column>& columns() const { return m_columns; }
    /// The column index showing `column` (total), or -1.
    int columnOf(ProfileColumn column, bool self = false) const;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    /// Header titles follow the language (LanguageChange).
    void retranslate();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

    /// "850 ns", "12.3 us", "1.23 ms", "2.50 s".
    static QString formatTime(qint64 ns);
    /// "512 B", "1.23 KB", "4.56 MB", "1.20 GB".
    static QString formatBytes(qint64 bytes);
    /// "999", "1.23 k", "4.56 M", "7.89 G", "1.00 T".
    static QString formatCount(qint64 n);

private:
    void applySort();
    void updatePositions();
    QString display(const ProfileRow& row, const Column& column) const;

    ProfileView m_view;
    std::vector<Column> m_columns;
    ProfileTable m_table;
    /// Position of each row within its parent's list (or the roots).
    std::vector<int> m_position;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
};

} // namespace tstudio::profiler::tables
