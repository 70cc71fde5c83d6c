// ExecutionListModel and ExecutionFilterModel: the executed nodes of a debugged run, formatted, filtered, sorted.
#include "debugger/execution_list_model.h"

#include "framework/data_type.h"
#include "profiler/profile_table_model.h"

#include <set>

namespace tstudio::debugger_ui {
namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

using tstudio::profiler::tables::ProfileTableModel;

} // namespace

ExecutionListModel::ExecutionListModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void ExecutionListModel::setNodes(std::vector<ExecutedNode> nodes)
{
    beginResetModel();
    m_nodes = std::move(nodes);
    endResetModel();
}

const ExecutedNode* ExecutionListModel::nodeAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_nodes.size() ? &m_nodes[static_cast<std::size_t>(row)]
                                                                      : nullptr;
}

int ExecutionListModel::lastRowOf(const QString& node) const
{
    const std::string name = node.toStdString();
    for (std::size_t i = m_nodes.size(); i-- > 0;)
        if (m_nodes[i].node == name)
            return static_cast<int>(i);
    return -1;
}

QStringList ExecutionListModel::devices() const
{
    QStringList out;
    std::set<std::string> seen;
    for (const ExecutedNode& node : m_nodes)
        if (seen.insert(node.device).second)
            out << q(node.device);
    return out;
}

void ExecutionListModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, kColumnCount - 1);
}

int ExecutionListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_nodes.size());
}

int ExecutionListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

QString ExecutionListModel::shortDevice(const std::string& device)
{
    const std::size_t at = device.rfind("device:");
    return q(at == std::string::npos ? device : device.substr(at + 7));
}

QString ExecutionListModel::dtypesText(const ExecutedNode& node)
{
    QStringList parts;
    for (const ExecutedOutput& output : node.outputs)
        parts << (output.live ? q(dataTypeName(output.dtype)) : tr("dead"));
    return parts.join(QStringLiteral(", "));
}

QString ExecutionListModel::shapesText(const ExecutedNode& node)
{
    QStringList parts;
    for (const ExecutedOutput& output : node.outputs)
        parts << (output.live ? q(output.shape.toString()) : tr("dead"));
    return parts.join(QStringLiteral(", "));
}

QVariant ExecutionListModel::data(const QModelIndex& index, int role) const
{
    const ExecutedNode* node = index.isValid() ? nodeAt(index.row()) : nullptr;
    if (!node)
        return {};
    const int column = index.column();
    switch (role) {
    case kNodeNameRole: return q(node->node);
    case kDeviceRole: return q(node->device);
    case Qt::TextAlignmentRole:
        if (column == kIndex || column == kSize || column == kStart || column == kDuration)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == kDevice)
            return q(node->device);
        if (column == kNode && !node->frame.empty())
            return tr("%1 in frame %2, iteration %3").arg(q(node->node), q(node->frame)).arg(node->iteration);
        if (column == kNode)
            return q(node->node);
        return {};
    case kValueRole:
        switch (column) {
        case kIndex: return QVariant::fromValue<qint64>(index.row());
        case kSize: return QVariant::fromValue<qint64>(node->bytes());
        case kStart: return QVariant::fromValue<qint64>(node->startNanos);
        case kDuration: return QVariant::fromValue<qint64>(node->durationNanos);
        default: break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (column) {
        case kIndex: return QString::number(index.row());
        case kNode:
            if (role == Qt::DisplayRole && !node->frame.empty())
                return tr("%1 (iteration %2)").arg(q(node->node)).arg(node->iteration);
            return q(node->node);
        case kOp: return q(node->op);
        case kDevice: return role == kValueRole ? q(node->device) : shortDevice(node->device);
        case kDtype: return dtypesText(*node);
        case kShape: return shapesText(*node);
        case kSize: return ProfileTableModel::formatBytes(node->bytes());
        case kStart: return QString::number(static_cast<double>(node->startNanos) / 1e6, 'f', 3);
        case kDuration: return ProfileTableModel::formatTime(node->durationNanos);
        default: return {};
        }
    default: return {};
    }
}

QVariant ExecutionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case kIndex: return tr("Position in the run's execution order");
        case kSize: return tr("Bytes of the node's outputs");
        case kStart: return tr("Start of the node's computation, from the start of the run");
        case kDuration: return tr("Compute time of the node");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case kIndex: return tr("#");
    case kNode: return tr("Node");
    case kOp: return tr("Op");
    case kDevice: return tr("Device");
    case kDtype: return tr("Dtype");
    case kShape: return tr("Shape");
    case kSize: return tr("Size");
    case kStart: return tr("t (ms)");
    case kDuration: return tr("Time");
    default: return {};
    }
}

// --- ExecutionFilterModel --------------------------------------------------------------------------------------

ExecutionFilterModel::ExecutionFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(ExecutionListModel::kValueRole);
}

bool ExecutionFilterModel::setPattern(QRegularExpression& target, const QString& pattern)
{
    target.setPattern(pattern);
    invalidateFilter();
    return target.isValid();
}

bool ExecutionFilterModel::setNameFilter(const QString& pattern)
{
    return setPattern(m_name, pattern);
}

bool ExecutionFilterModel::setOpFilter(const QString& pattern)
{
    return setPattern(m_op, pattern);
}

void ExecutionFilterModel::setDeviceFilter(const QString& device)
{
    m_device = device;
    invalidateFilter();
}

QString ExecutionFilterModel::filterError() const
{
    if (!m_name.isValid())
        return tr("name filter: %1").arg(m_name.errorString());
    if (!m_op.isValid())
        return tr("op filter: %1").arg(m_op.errorString());
    return {};
}

bool ExecutionFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* source = sourceModel();
    if (!source)
        return true;
    const auto text = [&](int column, int role) {
        return source->data(source->index(sourceRow, column, sourceParent), role).toString();
    };
    const auto matches = [](const QRegularExpression& re, const QString& s) {
        return !re.isValid() || re.pattern().isEmpty() || re.match(s).hasMatch();
    };
    if (!m_device.isEmpty() && text(0, ExecutionListModel::kDeviceRole) != m_device)
        return false;
    return matches(m_name, text(0, ExecutionListModel::kNodeNameRole)) &&
           matches(m_op, text(ExecutionListModel::kOp, Qt::DisplayRole));
}

bool ExecutionFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(ExecutionListModel::kValueRole);
    const QVariant b = right.data(ExecutionListModel::kValueRole);
    if (a.typeId() == QMetaType::LongLong && b.typeId() == QMetaType::LongLong)
        return a.toLongLong() < b.toLongLong();
    return QString::compare(a.toString(), b.toString()) < 0;
}

} // namespace tstudio::debugger_ui
