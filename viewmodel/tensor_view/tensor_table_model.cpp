// A tensor's elements as a table with cell text made on demand (see tensor_table_model.h).
#include "tensor_view/tensor_table_model.h"

#include "tensor_view/tensor_real_values.h"
#include "tensor_view/tensor_value_text.h"

#include <QStringList>

#include <climits>
#include <cmath>
#include <vector>

namespace tstudio::debugger_ui {

namespace {

/// Qt's views count rows and columns in int; a larger tensor shows its first INT_MAX rows.
int clampToInt(std::int64_t n)
{
    return static_cast<int>(std::min<std::int64_t>(n, INT_MAX));
}

} // namespace

TensorTableModel::TensorTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TensorTableModel::setTensor(const Tensor& tensor, std::optional<debugger::SliceOrigin> origin)
{
    beginResetModel();
    m_tensor = tensor;
    m_origin = std::move(origin);
    m_valid = tensor.isInitialized() && tensor.dtype() != tensorflow::DT_RESOURCE &&
              tensor.dtype() != tensorflow::DT_VARIANT;
    m_rows = m_columns = 0;
    if (m_valid) {
        const auto dims = tensor.shape().dims();
        if (dims.empty()) {
            m_rows = m_columns = 1;
        } else if (dims.size() == 1) {
            m_rows = dims[0];
            m_columns = 1;
        } else {
            m_columns = dims.back();
            m_rows = m_columns > 0 ? tensor.numElements() / m_columns : 0;
            if (m_columns == 0) {
                // No elements, but keep the leading rows visible as the shape says.
                m_rows = 1;
                for (std::size_t i = 0; i + 1 < dims.size(); ++i)
                    m_rows *= dims[i];
            }
        }
    }
    endResetModel();
}

void TensorTableModel::clear()
{
    setTensor(Tensor::uninitialized(tensorflow::DT_FLOAT));
}

void TensorTableModel::setHighlight(std::optional<debugger::ValueRanges> ranges)
{
    m_ranges = std::move(ranges);
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {CellStateRole, Qt::BackgroundRole});
}

std::int64_t TensorTableModel::flatIndex(int row, int column) const
{
    if (!m_valid || row < 0 || column < 0 || row >= m_rows || column >= m_columns)
        return -1;
    const std::int64_t flat = static_cast<std::int64_t>(row) * m_columns + column;
    return flat < m_tensor.numElements() ? flat : -1;
}

QString TensorTableModel::indexText(int row, int column) const
{
    const std::int64_t flat = flatIndex(row, column);
    if (flat < 0)
        return {};
    const auto dims = m_tensor.shape().dims();
    std::vector<std::int64_t> index(dims.size());
    std::int64_t rest = flat;
    for (std::size_t i = dims.size(); i-- > 0;) {
        index[i] = rest % dims[i];
        rest /= dims[i];
    }
    if (m_origin)
        index = m_origin->sourceIndex(index);
    QStringList parts;
    for (std::int64_t i : index)
        parts.append(QString::number(i));
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString TensorTableModel::positionText(std::size_t axis, std::int64_t position) const
{
    return QString::number(m_origin ? m_origin->sourcePosition(axis, position) : position);
}

TensorTableModel::CellState TensorTableModel::cellState(int row, int column) const
{
    const std::int64_t flat = flatIndex(row, column);
    if (flat < 0)
        return CellState::kNormal;
    const auto value = elementAsDouble(m_tensor, flat);
    if (!value)
        return CellState::kNormal;
    if (m_ranges && m_ranges->contains(*value))
        return CellState::kHighlighted;
    if (std::isnan(*value))
        return CellState::kNaN;
    if (std::isinf(*value))
        return CellState::kInfinite;
    return CellState::kNormal;
}

int TensorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : clampToInt(m_rows);
}

int TensorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : clampToInt(m_columns);
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const std::int64_t flat = flatIndex(index.row(), index.column());
    if (flat < 0)
        return {};
    switch (role) {
    case Qt::DisplayRole: return formatElement(m_tensor, flat);
    case Qt::ToolTipRole:
        return tr("%1 = %2").arg(indexText(index.row(), index.column()), formatElement(m_tensor, flat, 4000));
    case Qt::TextAlignmentRole:
        return m_tensor.dtype() == tensorflow::DT_STRING ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                                         : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case CellStateRole: return static_cast<int>(cellState(index.row(), index.column()));
    case FlatIndexRole: return static_cast<qlonglong>(flat);
    default: return {};
    }
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || !m_valid)
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto dims = m_tensor.shape().dims();
    if (dims.empty())
        return orientation == Qt::Horizontal ? tr("value") : QString();
    if (orientation == Qt::Horizontal)
        return dims.size() == 1 ? tr("value") : positionText(dims.size() - 1, section);
    if (dims.size() <= 2)
        return positionText(0, section);
    // Leading indices of row `section`, in C order over dims[0 .. rank-2].
    QStringList parts;
    std::int64_t rest = section;
    for (std::size_t i = dims.size() - 1; i-- > 0;) {
        parts.prepend(positionText(i, dims[i] > 0 ? rest % dims[i] : 0));
        rest = dims[i] > 0 ? rest / dims[i] : 0;
    }
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace tstudio::debugger_ui
