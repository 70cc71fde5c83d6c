// BreakpointListView: the debugger's Breakpoints tab: a spec line to add from, the editable table, Remove.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace tstudio::debugger_ui {

class BreakpointListModel;

/// Adds breakpoints from one line of parseBreakpoint's syntax ("op:MatMul", "any if has_nan"; Return or Add),
/// edits them in place (check box, a combo box for the target kind, text for pattern and condition) and removes
/// the selected rows. Refused specs and edits show their reason in red under the line. Object names:
/// "breakpointSpecEdit", "addBreakpointButton", "removeBreakpointButton", "breakpointErrorLabel",
/// "breakpointTable". GUI thread only.
class BreakpointListView : public QWidget {
    Q_OBJECT
public:
    explicit BreakpointListView(QWidget* parent = nullptr);

    BreakpointListModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    /// Shows `message` as an error; empty hides the line.
    void showError(const QString& message);
    QString errorText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void addFromSpec();
    void removeSelected();

    BreakpointListModel* m_model = nullptr;
    QLineEdit* m_spec = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_remove = nullptr;
    QLabel* m_error = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace tstudio::debugger_ui
