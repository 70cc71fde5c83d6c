// ProfileTableModel: rows of a ProfileTable by index, their formatted values, and in-place sorting.
#include "profiler/profile_table_model.h"

namespace tstudio::profiler::tables {
namespace {

bool isNumeric(ProfileColumn column)
{
    return column != ProfileColumn::Name && column != ProfileColumn::OpType && column != ProfileColumn::Devices;
}

QString lastComponent(const std::string& name)
{
    const std::size_t slash = name.rfind('/');
    return QString::fromStdString(slash == std::string::npos ? name : name.substr(slash + 1));
}

QString twoDecimals(double value)
{
    return QString::number(value, 'f', 2);
}

} // namespace

ProfileTableModel::ProfileTableModel(ProfileView view, QObject* parent) : QAbstractItemModel(parent), m_view(view)
{
    using C = ProfileColumn;
    m_columns.push_back({C::Name});
    if (view != ProfileView::ByOpType)
        m_columns.push_back({C::OpType});
    m_columns.push_back({C::Runs});
    if (view == ProfileView::ByOpType)
        m_columns.push_back({C::Nodes});
    m_columns.push_back({C::Time});
    if (view == ProfileView::ByScope)
        m_columns.push_back({C::Time, true});
    for (C c : {C::AcceleratorTime, C::CpuTime, C::RequestedBytes, C::PeakBytes, C::ResidualBytes, C::OutputBytes,
                C::FloatOps, C::Parameters, C::Devices})
        m_columns.push_back({c});
    m_sortColumn = columnOf(C::Time);
}

int ProfileTableModel::columnOf(ProfileColumn column, bool self) const
{
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].column == column && m_columns[i].self == self)
            return static_cast<int>(i);
    return -1;
}

void ProfileTableModel::setTable(ProfileTable table)
{
    beginResetModel();
    m_table = std::move(table);
    applySort();
    updatePositions();
    endResetModel();
}

void ProfileTableModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

void ProfileTableModel::applySort()
{
    if (m_sortColumn < 0 || m_sortColumn >= static_cast<int>(m_columns.size()))
        return;
    const Column& c = m_columns[static_cast<std::size_t>(m_sortColumn)];
    sortProfileTable(m_table, c.column, m_sortOrder == Qt::DescendingOrder, c.self);
}

void ProfileTableModel::updatePositions()
{
    m_position.assign(m_table.rows.size(), 0);
    for (std::size_t i = 0; i < m_table.roots.size(); ++i)
        m_position[m_table.roots[i]] = static_cast<int>(i);
    for (const ProfileRow& row : m_table.rows)
        for (std::size_t i = 0; i < row.children.size(); ++i)
            m_position[row.children[i]] = static_cast<int>(i);
}

void ProfileTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= static_cast<int>(m_columns.size()))
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    m_sortColumn = column;
    m_sortOrder = order;
    applySort();
    updatePositions();
    // Rows keep their internal ids (row indices); only their positions moved.
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& index : before) {
        const auto row = static_cast<std::size_t>(index.internalId());
        after.push_back(row < m_position.size() ? createIndex(m_position[row], index.column(), index.internalId())
                                                : QModelIndex());
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QModelIndex ProfileTableModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= columnCount())
        return {};
    const std::vector<std::uint32_t>* list = &m_table.roots;
    if (parent.isValid()) {
        const auto p = static_cast<std::size_t>(parent.internalId());
        if (p >= m_table.rows.size())
            return {};
        list = &m_table.rows[p].children;
    }
    if (static_cast<std::size_t>(row) >= list->size())
        return {};
    return createIndex(row, column, static_cast<quintptr>((*list)[static_cast<std::size_t>(row)]));
}

QModelIndex ProfileTableModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const auto row = static_cast<std::size_t>(child.internalId());
    if (row >= m_table.rows.size())
        return {};
    const std::uint32_t parent = m_table.rows[row].parent;
    if (parent == kNoIndex || parent >= m_table.rows.size())
        return {};
    return createIndex(m_position[parent], 0, static_cast<quintptr>(parent));
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_table.roots.size());
    if (parent.column() != 0)
        return 0;
    const auto p = static_cast<std::size_t>(parent.internalId());
    return p < m_table.rows.size() ? static_cast<int>(m_table.rows[p].children.size()) : 0;
}

int ProfileTableModel::columnCount(const QModelIndex&) const
{
    return static_cast<int>(m_columns.size());
}

QString ProfileTableModel::display(const ProfileRow& row, const Column& column) const
{
    switch (column.column) {
    case ProfileColumn::Name: {
        if (m_view != ProfileView::ByScope)
            return QString::fromStdString(row.name);
        // The name below the parent shown; a row that a hidden scope's place moved up keeps the part
        // of its name that no longer shows above it ("gradients/dense_1" at the top).
        if (row.parent == kNoIndex)
            return QString::fromStdString(row.name);
        const std::string prefix = m_table.rows[row.parent].name + "/";
        return row.name.starts_with(prefix) ? QString::fromStdString(row.name.substr(prefix.size()))
                                            : lastComponent(row.name);
    }
    case ProfileColumn::OpType: return QString::fromStdString(row.opType);
    case ProfileColumn::Devices: {
        QStringList names;
        for (std::uint32_t d : row.devices)
            if (d < m_table.devices.size())
                names << QString::fromStdString(m_table.devices[d]);
        return names.join(QLatin1Char('|'));
    }
    case ProfileColumn::Time:
    case ProfileColumn::AcceleratorTime:
    case ProfileColumn::CpuTime: return formatTime(profileValue(row, column.column, column.self));
    case ProfileColumn::RequestedBytes:
    case ProfileColumn::PeakBytes:
    case ProfileColumn::ResidualBytes:
    case ProfileColumn::OutputBytes: return formatBytes(profileValue(row, column.column, column.self));
    case ProfileColumn::FloatOps: {
        const QString text = formatCount(profileValue(row, column.column, column.self));
        return row.floatOpsIncomplete ? text + QStringLiteral(" *") : text;
    }
    case ProfileColumn::Runs:
    case ProfileColumn::Nodes:
    case ProfileColumn::Parameters: return formatCount(profileValue(row, column.column, column.self));
    }
    return {};
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.column() >= columnCount())
        return {};
    const auto r = static_cast<std::size_t>(index.internalId());
    if (r >= m_table.rows.size())
        return {};
    const ProfileRow& row = m_table.rows[r];
    const Column& column = m_columns[static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole: return display(row, column);
    case kValueRole:
        if (isNumeric(column.column))
            return QVariant::fromValue<qint64>(profileValue(row, column.column, column.self));
        return column.column == ProfileColumn::Name ? QString::fromStdString(row.name) : display(row, column);
    case kNodeNameRole: return m_view == ProfileView::ByOpType ? QString() : QString::fromStdString(row.name);
    case Qt::TextAlignmentRole:
        return isNumeric(column.column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        if (column.column == ProfileColumn::Name)
            return row.opType.empty() || m_view == ProfileView::ByOpType
                       ? QString::fromStdString(row.name)
                       : tr("%1 (%2)").arg(QString::fromStdString(row.name), QString::fromStdString(row.opType));
        if (column.column == ProfileColumn::Devices) {
            QString devices = display(row, column);
            return devices.replace(QLatin1Char('|'), QLatin1Char('\n'));
        }
        if (column.column == ProfileColumn::FloatOps && row.floatOpsIncomplete)
            return tr("Some executions have unknown shapes; their float operations are not counted.");
        if (isNumeric(column.column) && m_view == ProfileView::ByScope)
            return tr("total %1, self %2")
                .arg(display(row, {column.column, false}), display(row, {column.column, true}));
        return {};
    default: return {};
    }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    const Column& c = m_columns[static_cast<std::size_t>(section)];
    if (role == Qt::TextAlignmentRole)
        return isNumeric(c.column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    switch (c.column) {
    case ProfileColumn::Name:
        return m_view == ProfileView::ByOpType  ? tr("Op type")
               : m_view == ProfileView::ByScope ? tr("Scope")
                                                : tr("Node");
    case ProfileColumn::OpType: return tr("Op");
    case ProfileColumn::Runs: return tr("Runs");
    case ProfileColumn::Nodes: return tr("Nodes");
    case ProfileColumn::Time: return c.self ? tr("Self time") : tr("Time");
    case ProfileColumn::AcceleratorTime: return tr("Accelerator");
    case ProfileColumn::CpuTime: return tr("CPU");
    case ProfileColumn::RequestedBytes: return tr("Requested");
    case ProfileColumn::PeakBytes: return tr("Peak");
    case ProfileColumn::ResidualBytes: return tr("Residual");
    case ProfileColumn::OutputBytes: return tr("Output");
    case ProfileColumn::FloatOps: return tr("Float ops");
    case ProfileColumn::Parameters: return tr("Parameters");
    case ProfileColumn::Devices: return tr("Devices");
    }
    return {};
}

QString ProfileTableModel::formatTime(qint64 ns)
{
    if (ns < 1000)
        return tr("%1 ns").arg(ns);
    if (ns < 1'000'000)
        return tr("%1 us").arg(QString::number(double(ns) / 1e3, 'f', 1));
    if (ns < 1'000'000'000LL)
        return tr("%1 ms").arg(QString::number(double(ns) / 1e6, 'f', 2));
    return tr("%1 s").arg(QString::number(double(ns) / 1e9, 'f', 2));
}

QString ProfileTableModel::formatBytes(qint64 bytes)
{
    if (bytes < 1000)
        return tr("%1 B").arg(bytes);
    if (bytes < 1'000'000)
        return tr("%1 KB").arg(twoDecimals(double(bytes) / 1e3));
    if (bytes < 1'000'000'000LL)
        return tr("%1 MB").arg(twoDecimals(double(bytes) / 1e6));
    return tr("%1 GB").arg(twoDecimals(double(bytes) / 1e9));
}

QString ProfileTableModel::formatCount(qint64 n)
{
    if (n < 1000)
        return QString::number(n);
    if (n < 1'000'000)
        return tr("%1 k").arg(twoDecimals(double(n) / 1e3));
    if (n < 1'000'000'000LL)
        return tr("%1 M").arg(twoDecimals(double(n) / 1e6));
    if (n < 1'000'000'000'000LL)
        return tr("%1 G").arg(twoDecimals(double(n) / 1e9));
    return tr("%1 T").arg(twoDecimals(double(n) / 1e12));
}

} // namespace tstudio::profiler::tables
