// HParamsView: the dashboard's HParams tab, TensorBoard's hyperparameter views of an experiment: a
// table of the sessions (sortable, filterable), parallel coordinates and a scatter-plot matrix.
#pragma once

#include "dashboard/hparams_plot.h"

#include <QFutureWatcher>
#include <QSet>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QTabWidget;
class QTableWidget;

namespace tstudio::dashboard {

class HParamsParallelView;
class HParamsScatterView;

/// The sessions of the hparams plugin's data (engine: events::readHParams, on a worker) of every
/// log directory shown (a session's run carries its directory's name when there are several), as a
/// matrix (dashboard::buildHParamsMatrix) drawn three ways, as TensorBoard's tab does:
/// - Table: Run, Status, one column per hparam (display name, else name), one per metric (display
///   name, else "group/tag"); numbers sort as numbers; an empty cell is a value the session lacks.
/// - Parallel coordinates (HParamsParallelView): an axis per column, brushing on the axes.
/// - Scatter-plot matrix (HParamsScatterView): each metric against each hparam.
/// The side list chooses the columns every view shows (kept by name across reloads; an hparam with
/// the same value in every session that has one starts hidden, as it tells none apart); "Colour by"
/// colours the plots by a column. A session is kept when a cell holds the filter's text and it lies
/// inside every brush: the table hides the others, the plots draw them faint. Choosing a session in
/// any view chooses it in all; double-clicking it (or Return in the table) emits sessionActivated
/// with its run. reload() reads again (the dashboard calls it when the tab is shown and on Reload);
/// ready() follows each read.
///
/// Object names: "hparamsTable", "hparamsFilter", "hparamsStatus", "hparamsViews", "hparamsColumns",
/// "hparamsColourBy". GUI thread only.
class HParamsView : public QWidget {
    Q_OBJECT
public:
    enum class Page { Table, ParallelCoordinates, ScatterMatrix };

    explicit HParamsView(QWidget* parent = nullptr);
    ~HParamsView() override;

    void setLogDirectories(const QStringList& roots);
    void reload();
    bool isBusy() const { return m_watcher != nullptr; }
    /// Sessions read (the tab's count).
    int sessionCount() const;
    QTableWidget* table() const { return m_table; }
    HParamsParallelView* parallelView() const { return m_parallel; }
    HParamsScatterView* scatterView() const { return m_scatter; }
    /// What the views draw: the matrix, the chosen columns, colouring, the filter and the choice.
    const HParamsPlotState& plotState() const { return m_state; }

    void setPage(Page page);
    Page page() const;
    /// Shows or hides the column titled `title` (as the table's header shows it) in every view;
    /// false when there is no such column.
    bool setColumnShown(const QString& title, bool shown);
    /// Colours the plots by the column titled `title` (empty: none); false when there is none.
    bool setColourColumn(const QString& title);
    /// Switches the column titled `title` between linear and logarithmic axes (numeric columns whose
    /// values are all positive); false when it cannot.
    bool setLogScale(const QString& title, bool log);
    /// Chooses the session of matrix row `row` (-1: none) in every view.
    void selectSession(int row);
    /// The matrix rows the filters keep.
    int shownCount() const;

    /// The run of the session in table row `row` (as the Run column shows it), emitted as
    /// sessionActivated; what a double-click or Return on a row does.
    void activateRow(int row);

signals:
    void ready();
    /// A session was activated: the dashboard shows its runs (the run and those below it) alone.
    void sessionActivated(const QString& run);
    /// The chosen session changed (its run; empty: none): the dashboard highlights its runs in the
    /// scalar charts.
    void sessionSelected(const QString& run);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void fill();
    void fillColumnChoices();
    void applyFilter();
    void pushState();
    /// m_state.selected becomes `row`; sessionSelected when the run it names changed.
    void setSelected(int row);
    void activateSession(int matrixRow);
    std::optional<std::size_t> columnTitled(const QString& title) const;
    bool isHidden(const HParamsColumn& column) const;
    /// Hparams hidden because every session holds the same value (not hidden by the user).
    int constantHiddenCount() const;
    int tableRowOf(int matrixRow) const;

    QStringList m_roots;
    std::shared_ptr<const HParamsMatrix> m_matrix;
    HParamsPlotState m_state;
    /// What m_state.positions was worked out for.
    std::shared_ptr<const HParamsMatrix> m_positionsMatrix;
    std::vector<AxisScale> m_positionsScales;
    /// Choices kept by column key across reloads.
    /// Columns the user hid or showed; an hparam with the same value in every session is hidden
    /// until shown.
    QSet<QString> m_hiddenKeys, m_shownKeys, m_logKeys;
    /// Per matrix column: the sessions that have a value all hold the same one.
    std::vector<bool> m_constant;
    QString m_colourKey;
    bool m_colourChosen = false;
    QString m_error;
    QString m_selectedRun;
    QLabel* m_status;
    QLineEdit* m_filter;
    QListWidget* m_columns;
    QComboBox* m_colourBy;
    QLabel* m_columnsLabel;
    QLabel* m_colourLabel;
    QTabWidget* m_views;
    QTableWidget* m_table;
    HParamsParallelView* m_parallel;
    HParamsScatterView* m_scatter;
    QFutureWatcher<std::shared_ptr<const HParamsMatrix>>* m_watcher = nullptr;
};

} // namespace tstudio::dashboard
