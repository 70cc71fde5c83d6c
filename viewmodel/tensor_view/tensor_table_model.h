// TensorTableModel: a tensor's elements as a table (cell text made on demand), for the tensor inspector.
#pragma once

#include "debugger/tensor_slice.h"
#include "debugger/value_ranges.h"
#include "framework/tensor.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <optional>

namespace tstudio::debugger_ui {

/// Shows one tensor (already sliced by the inspector) as rows and columns:
///   rank 0: one cell; rank 1: one column, a row per element; rank 2: rows x columns;
///   rank k > 2: the last axis as columns and every combination of the leading k-1 indices as a
///   row, in C order; the row header names the leading indices ("[1, 2]").
/// Cell text is made when the view asks for it (NumPy's scalar printing, tensor_value_text.h), so a
/// million-element tensor costs no more than the cells on screen. The model keeps a copy of the Tensor
/// (sharing its buffer) and holds no colours: CellStateRole says what a view should mark.
class TensorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// What a cell holds, for the view to colour (an int in CellStateRole).
    enum class CellState { kNormal, kHighlighted, kNaN, kInfinite };
    static constexpr int CellStateRole = Qt::UserRole + 1;
    /// The element's row-major index in the tensor (qlonglong).
    static constexpr int FlatIndexRole = Qt::UserRole + 2;

    explicit TensorTableModel(QObject* parent = nullptr);

    /// Replaces the tensor (an initialized one; anything else shows no cells). `origin`: where a sliced
    /// tensor's elements lie in the tensor it was cut from, so the headers and the index in a cell's
    /// tooltip give source indices (row 100 of "[100:110]"); nullopt: the tensor's own indices.
    void setTensor(const Tensor& tensor, std::optional<debugger::SliceOrigin> origin = std::nullopt);
    void clear();
    const Tensor& tensor() const { return m_tensor; }
    /// Marks cells whose value lies in `ranges` (nullopt: none). Only real-valued dtypes are marked.
    void setHighlight(std::optional<debugger::ValueRanges> ranges);

    /// The row-major element index of a cell, or -1 outside the tensor.
    std::int64_t flatIndex(int row, int column) const;
    /// The full index of a cell as text, "[3, 0, 7]" ("[]" for a scalar); with an origin, in the source
    /// tensor (an integer index's axis included).
    QString indexText(int row, int column) const;
    CellState cellState(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Tensor m_tensor;
    bool m_valid = false;
    std::int64_t m_rows = 0;
    std::int64_t m_columns = 0;
    std::optional<debugger::ValueRanges> m_ranges;
    std::optional<debugger::SliceOrigin> m_origin;

    /// The label of `position` along the tensor's axis `axis`: the source position with an origin.
    QString positionText(std::size_t axis, std::int64_t position) const;
};

} // namespace tstudio::debugger_ui
