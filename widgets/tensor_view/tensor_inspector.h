// TensorInspector: one tensor of a debugged run in detail: facts, health summary, table, histogram,
// heat map, images and the history of a watched tensor across session runs.
#pragma once

#include "debugger/debug_controller.h"
#include "debugger/tensor_slice.h"
#include "tensor_view/value_history_chart.h"
#include "debugger/value_ranges.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <QString>
#include <QWidget>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QToolButton;

namespace tstudio::debugger_ui {

class TensorHeatMap;
class TensorHistogramChart;
class TensorImageGrid;
class TensorTableModel;

/// The debugger's tensor inspector (tfdbg's `pt` and `print_tensor` in a panel).
///
/// Layout: a header (tensor name, a Watch toggle, Save .npy), the facts line (dtype, shape, elements,
/// bytes), the health summary (counts of NaN, -Inf, negative, zero, positive, +Inf; min, max, mean and
/// std of the finite values, from computeTensorStatistics), a NumPy slice and tfdbg highlight ranges,
/// and tabs: Table, Histogram, Heat map, Images, History. A tab that does not apply to the tensor (or
/// to its slice) is disabled and its tooltip says why.
///
/// Tensors of rank > 2 show in the table with the last axis as columns and one row per combination of
/// the leading indices (row headers "[i, j]"); the slice narrows them. The slice applies to the
/// table, the heat map and the images; the health summary, the histogram and Save .npy use the whole
/// tensor. Highlight ranges mark table cells and shade the histogram.
///
/// setTensor keeps a private copy of the value (so a run that goes on cannot change what is shown).
/// setHistory takes DebugController::history(name); choosing a run in the History tab (or clicking
/// the chart) shows that run's value in every other tab until the current value is chosen again.
///
/// Threads: GUI thread only. Cost: statistics and the histogram are computed once per tensor, table
/// cells when they are drawn, the heat map and images once per change.
class TensorInspector : public QWidget {
    Q_OBJECT
public:
    enum class View { Table, Histogram, HeatMap, Images, History };

    explicit TensorInspector(QWidget* parent = nullptr);
    ~TensorInspector() override;

    /// Shows `value` under `name` ("layer1/MatMul:0"). A new name clears the slice, the history and
    /// the watch state shown; the same name (a later run) keeps the slice when it still applies.
    void setTensor(const QString& name, const Tensor& value);
    /// Back to the hint "Select a tensor ...".
    void clear();
    bool hasTensor() const;
    QString tensorName() const { return m_name; }

    /// The watched values of this tensor, oldest first (DebugController::history).
    void setHistory(const std::vector<WatchedValue>& history);
    /// Shows the value of history run `run` in the other tabs (nullopt: the current value). False
    /// when no such run is in the history.
    bool showHistoryRun(std::optional<std::int64_t> run);
    std::optional<std::int64_t> shownHistoryRun() const { return m_historyRun; }

    /// NumPy basic slice for the table, heat map and images ("[::5, :2]"; "" for the whole tensor).
    /// False, with the reason shown under the fields (message()), when it does not parse or does not
    /// fit the tensor; the previous slice then stays.
    bool setSlice(const QString& text);
    QString slice() const { return m_sliceText; }
    /// tfdbg's `pt -r` ranges ("[[-inf, -1], [1, inf]]"; "" for none). False, with the reason, when
    /// malformed or when the tensor has no real values.
    bool setHighlightRanges(const QString& text);
    QString highlightRanges() const { return m_rangesText; }

    void setView(View view);
    View view() const;
    bool isViewEnabled(View view) const;
    /// Why a view is disabled (empty when it is enabled).
    QString viewDisabledReason(View view) const;

    /// Writes the whole shown tensor as .npy (atomically, engine/io/npy.h). False with `*error` set
    /// (also shown in message()) for string tensors, when nothing is shown, or on I/O errors.
    bool saveNpy(const QString& path, QString* error = nullptr);

    /// The Watch toggle, without emitting watchToggled.
    void setWatched(bool watched);
    bool isWatched() const;

    /// The last error or note shown under the slice and highlight fields.
    QString message() const;
    /// The value shown (the current one or a history run's) and its slice.
    const Tensor& shownTensor() const { return m_shown; }
    const Tensor& slicedTensor() const { return m_sliced; }

    TensorTableModel* tableModel() const { return m_tableModel; }
    QTableView* tableView() const { return m_table; }
    TensorHistogramChart* histogramChart() const { return m_histogram; }
    TensorHeatMap* heatMap() const { return m_heatMap; }
    TensorImageGrid* imageGrid() const { return m_images; }
    ValueHistoryChart* historyChart() const { return m_historyChart; }

signals:
    void watchToggled(const QString& tensorName, bool watched);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    void retranslateUi();
    /// Everything derived from m_shown: facts, health, slice, views, tab states.
    void refreshShown();
    void refreshFacts();
    void refreshHealth();
    void refreshSliced();
    void refreshTabs();
    void refreshHistory();
    void showMessage(const QString& text, bool error);
    /// "12 of 1,000 values lie in the highlighted ranges" for the shown tensor, or "".
    QString rangesNote() const;
    void saveWithDialog();
    void onHistoryComboChanged(int index);

    // Declared first so that it is destroyed last: every tensor below may live in it.
    std::unique_ptr<CpuAllocator> m_allocator;

    QString m_name;
    Tensor m_current;
    Tensor m_shown;
    Tensor m_sliced;
    debugger::TensorSlice m_slice;
    QString m_sliceText;
    std::optional<debugger::ValueRanges> m_ranges;
    QString m_rangesText;
    std::vector<WatchedValue> m_history;
    std::vector<HistoryPoint> m_historyPoints;
    std::optional<std::int64_t> m_historyRun;
    View m_preferredView = View::Table;
    bool m_updatingTabs = false;
    QString m_message;
    bool m_messageIsError = false;

    QStackedWidget* m_stack = nullptr;
    QLabel* m_hint = nullptr;
    QLabel* m_nameLabel = nullptr;
    QToolButton* m_watchButton = nullptr;
    QPushButton* m_saveButton = nullptr;
    QLabel* m_factsLabel = nullptr;
    QWidget* m_healthBox = nullptr;
    std::array<QLabel*, 10> m_healthCaptions{};
    std::array<QLabel*, 10> m_healthValues{};
    QLabel* m_healthNote = nullptr;
    QLabel* m_sliceLabel = nullptr;
    QLineEdit* m_sliceEdit = nullptr;
    QLabel* m_rangesLabel = nullptr;
    QLineEdit* m_rangesEdit = nullptr;
    QLabel* m_messageLabel = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_table = nullptr;
    TensorTableModel* m_tableModel = nullptr;
    TensorHistogramChart* m_histogram = nullptr;
    TensorHeatMap* m_heatMap = nullptr;
    TensorImageGrid* m_images = nullptr;
    QWidget* m_historyPage = nullptr;
    QLabel* m_historyRunLabel = nullptr;
    QComboBox* m_historyCombo = nullptr;
    ValueHistoryChart* m_historyChart = nullptr;
};

} // namespace tstudio::debugger_ui
