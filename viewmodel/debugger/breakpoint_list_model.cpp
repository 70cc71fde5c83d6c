// BreakpointListModel: breakpoints shown and edited row by row, every edit checked by parseBreakpoint.
#include "debugger/breakpoint_list_model.h"

namespace tstudio::debugger_ui {
namespace {

using debugger::Breakpoint;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The breakpoint as parseBreakpoint reads it back from its text, or the parser's message.
Expected<Breakpoint> roundTrip(const Breakpoint& breakpoint)
{
    Expected<Breakpoint> parsed = debugger::parseBreakpoint(debugger::formatBreakpoint(breakpoint));
    if (parsed)
        parsed->enabled = breakpoint.enabled;
    return parsed;
}

} // namespace

BreakpointListModel::BreakpointListModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void BreakpointListModel::setBreakpoints(std::vector<debugger::Breakpoint> breakpoints)
{
    beginResetModel();
    m_breakpoints = std::move(breakpoints);
    endResetModel();
    emit breakpointsEdited();
}

bool BreakpointListModel::addFromSpec(const QString& spec, QString* error)
{
    Expected<Breakpoint> parsed = debugger::parseBreakpoint(spec.toStdString());
    if (!parsed) {
        m_lastError = q(parsed.error().message());
        if (error)
            *error = m_lastError;
        return false;
    }
    m_lastError.clear();
    add(std::move(*parsed));
    return true;
}

void BreakpointListModel::add(debugger::Breakpoint breakpoint)
{
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_breakpoints.push_back(std::move(breakpoint));
    endInsertRows();
    emit breakpointsEdited();
}

bool BreakpointListModel::toggleNode(const QString& node)
{
    const std::string name = node.toStdString();
    bool removed = false;
    for (std::size_t i = m_breakpoints.size(); i-- > 0;) {
        if (m_breakpoints[i].target != Breakpoint::Target::kNode || m_breakpoints[i].pattern != name)
            continue;
        beginRemoveRows({}, static_cast<int>(i), static_cast<int>(i));
        m_breakpoints.erase(m_breakpoints.begin() + static_cast<std::ptrdiff_t>(i));
        endRemoveRows();
        removed = true;
    }
    if (removed) {
        emit breakpointsEdited();
        return false;
    }
    Breakpoint breakpoint;
    breakpoint.target = Breakpoint::Target::kNode;
    breakpoint.pattern = name;
    add(std::move(breakpoint));
    return true;
}

QSet<QString> BreakpointListModel::enabledNodes() const
{
    QSet<QString> out;
    for (const Breakpoint& b : m_breakpoints)
        if (b.enabled && b.target == Breakpoint::Target::kNode)
            out.insert(q(b.pattern));
    return out;
}

void BreakpointListModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, kColumnCount - 1);
    if (!m_breakpoints.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1));
}

QString BreakpointListModel::targetText(debugger::Breakpoint::Target target)
{
    switch (target) {
    case Breakpoint::Target::kNode: return tr("Node");
    case Breakpoint::Target::kOpType: return tr("Op type");
    case Breakpoint::Target::kNameRegex: return tr("Name regex");
    case Breakpoint::Target::kAnyNode: return tr("Any node");
    }
    return {};
}

QString BreakpointListModel::targetKeyword(debugger::Breakpoint::Target target)
{
    switch (target) {
    case Breakpoint::Target::kNode: return QStringLiteral("node");
    case Breakpoint::Target::kOpType: return QStringLiteral("op");
    case Breakpoint::Target::kNameRegex: return QStringLiteral("regex");
    case Breakpoint::Target::kAnyNode: return QStringLiteral("any");
    }
    return {};
}

int BreakpointListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_breakpoints.size());
}

int BreakpointListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant BreakpointListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Breakpoint& b = m_breakpoints[static_cast<std::size_t>(index.row())];
    if (role == kSpecRole || role == Qt::ToolTipRole)
        return q(debugger::formatBreakpoint(b));
    switch (index.column()) {
    case kEnabled:
        if (role == Qt::CheckStateRole)
            return b.enabled ? Qt::Checked : Qt::Unchecked;
        return {};
    case kTarget:
        if (role == Qt::DisplayRole)
            return targetText(b.target);
        if (role == Qt::EditRole)
            return static_cast<int>(b.target);
        return {};
    case kPattern:
        if (role == Qt::DisplayRole || role == Qt::EditRole)
            return q(b.pattern);
        return {};
    case kCondition:
        if (role == Qt::EditRole)
            return q(debugger::formatCondition(b.condition));
        if (role == Qt::DisplayRole)
            return b.condition.kind == debugger::TensorCondition::Kind::kAlways
                       ? tr("always")
                       : q(debugger::formatCondition(b.condition));
        return {};
    default: return {};
    }
}

bool BreakpointListModel::reject(const QString& message)
{
    m_lastError = message;
    emit editRejected(message);
    return false;
}

bool BreakpointListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.row() >= rowCount())
        return false;
    Breakpoint edited = m_breakpoints[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case kEnabled:
        if (role != Qt::CheckStateRole)
            return false;
        edited.enabled = value.toInt() == Qt::Checked;
        break;
    case kTarget: {
        if (role != Qt::EditRole)
            return false;
        bool isNumber = false;
        const int number = value.toInt(&isNumber);
        std::optional<Breakpoint::Target> target;
        for (auto t : {Breakpoint::Target::kNode, Breakpoint::Target::kOpType, Breakpoint::Target::kNameRegex,
                       Breakpoint::Target::kAnyNode})
            if ((isNumber && number == static_cast<int>(t)) ||
                (!isNumber && value.toString().trimmed() == targetKeyword(t)))
                target = t;
        if (!target)
            return reject(tr("Unknown breakpoint target '%1': expected node, op, regex or any").arg(value.toString()));
        edited.target = *target;
        if (edited.target == Breakpoint::Target::kAnyNode)
            edited.pattern.clear();
        break;
    }
    case kPattern:
        if (role != Qt::EditRole)
            return false;
        edited.pattern = value.toString().trimmed().toStdString();
        break;
    case kCondition: {
        if (role != Qt::EditRole)
            return false;
        const QString text = value.toString().trimmed();
        if (text.isEmpty() || text == tr("always")) {
            edited.condition = {};
            break;
        }
        // The condition is read as part of a whole breakpoint, so its errors are the parser's.
        Expected<Breakpoint> parsed = debugger::parseBreakpoint("any if " + text.toStdString());
        if (!parsed)
            return reject(q(parsed.error().message()));
        edited.condition = parsed->condition;
        break;
    }
    default: return false;
    }
    Expected<Breakpoint> checked = roundTrip(edited);
    if (!checked)
        return reject(q(checked.error().message()));
    m_lastError.clear();
    Breakpoint& target = m_breakpoints[static_cast<std::size_t>(index.row())];
    if (*checked == target)
        return true;
    target = std::move(*checked);
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), kColumnCount - 1));
    emit breakpointsEdited();
    return true;
}

Qt::ItemFlags BreakpointListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const Breakpoint& b = m_breakpoints[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case kEnabled: return f | Qt::ItemIsUserCheckable;
    case kPattern: return b.target == Breakpoint::Target::kAnyNode ? f : f | Qt::ItemIsEditable;
    default: return f | Qt::ItemIsEditable;
    }
}

QVariant BreakpointListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == kCondition)
        return tr("has_inf_or_nan, has_nan, has_inf, or a statistic (min, max, mean, std, abs_max) compared with "
                  "a number, e.g. max > 100; iteration compared with a whole number (iteration == 3) pauses a node "
                  "inside a while loop in those iterations only; empty pauses before the node runs");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case kEnabled: return tr("On");
    case kTarget: return tr("Target");
    case kPattern: return tr("Pattern");
    case kCondition: return tr("Condition");
    default: return {};
    }
}

bool BreakpointListModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    m_breakpoints.erase(m_breakpoints.begin() + row, m_breakpoints.begin() + row + count);
    endRemoveRows();
    emit breakpointsEdited();
    return true;
}

} // namespace tstudio::debugger_ui
