// HParamsView: the dashboard's HParams tab, TensorBoard's table view of a hyperparameter experiment:
// one row per session with its status, hyperparameters and metrics, sortable and filterable.
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTableWidget;

namespace tstudio::events {
struct HParamsExperiment;
}

namespace tstudio::dashboard {

/// The sessions of the hparams plugin's data (engine: events::readHParams, on a worker) of every
/// log directory shown (a session's run carries its directory's name when there are several).
/// Columns: Run, Status, one per hparam (display name, else name), one per metric (display name,
/// else "group/tag"); numbers sort as numbers; an empty cell is a value the session lacks. The
/// filter keeps rows whose cells hold its text. reload() reads again (the dashboard calls it when
/// the tab is shown and on Reload); ready() follows each read. Double-clicking a row (or Return)
/// emits sessionActivated with its run.
///
/// Object names: "hparamsTable", "hparamsFilter", "hparamsStatus". GUI thread only.
class HParamsView : public QWidget {
    Q_OBJECT
public:
    explicit HParamsView(QWidget* parent = nullptr);
    ~HParamsView() override;

    void setLogDirectories(const QStringList& roots);
    void reload();
    bool isBusy() const { return m_watcher != nullptr; }
    /// Sessions read (the tab's count).
    int sessionCount() const;
    QTableWidget* table() const { return m_table; }
    /// The run of the session in table row `row` (as the Run column shows it), emitted as
    /// sessionActivated; what a double-click or Return on a row does.
    void activateRow(int row);

signals:
    void ready();
    /// A session was chosen: the dashboard shows its runs (the run and those below it) alone.
    void sessionActivated(const QString& run);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void fill();
    void applyFilter();

    QStringList m_roots;
    std::shared_ptr<const std::vector<std::pair<QString, events::HParamsExperiment>>> m_data;
    QString m_error;
    QLabel* m_status;
    QLineEdit* m_filter;
    QTableWidget* m_table;
    QFutureWatcher<std::shared_ptr<const std::vector<std::pair<QString, events::HParamsExperiment>>>>* m_watcher =
        nullptr;
};

} // namespace tstudio::dashboard
