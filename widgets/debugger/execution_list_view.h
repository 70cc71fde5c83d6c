// ExecutionListView: the debugger's execution list (tfdbg's `lt`) with its filter bar: node regex, op regex, device.
#pragma once

#include "debugger/debug_controller.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace tstudio::debugger_ui {

class ExecutionFilterModel;
class ExecutionListModel;

/// A sortable table over an ExecutionListModel behind an ExecutionFilterModel, a filter bar and a line saying
/// how many rows show ("Showing 3 of 12 executed nodes") or which filter is invalid (its field turns red).
/// Object names: "executionTable", "nameFilterEdit", "opFilterEdit", "deviceFilterCombo", "filterStatusLabel".
/// GUI thread only.
class ExecutionListView : public QWidget {
    Q_OBJECT
public:
    explicit ExecutionListView(QWidget* parent = nullptr);

    /// Replaces the rows (values in them are not needed; the device choices follow, keeping the chosen one).
    void setNodes(std::vector<ExecutedNode> nodes);
    ExecutionListModel* model() const { return m_model; }
    ExecutionFilterModel* filter() const { return m_filter; }
    QTableView* table() const { return m_table; }
    void scrollToBottom();

signals:
    /// A row was clicked or activated: its node.
    void nodeClicked(const QString& node);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void applyFilters();
    /// Each column as wide as its header (in the UI language, with the sort mark) and its typical values;
    /// the node column takes the rest of the width but never less than a typical name: past that the
    /// table scrolls instead of squeezing it.
    void fitColumns();

    ExecutionListModel* m_model = nullptr;
    ExecutionFilterModel* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_nameLabel = nullptr;
    QLineEdit* m_name = nullptr;
    QLabel* m_opLabel = nullptr;
    QLineEdit* m_op = nullptr;
    QComboBox* m_device = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace tstudio::debugger_ui
