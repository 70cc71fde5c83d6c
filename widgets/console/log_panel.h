// LogPanel: the console dock's content: a filterable, searchable table of log messages.
#pragma once

#include <QWidget>

class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;
class QLabel;

namespace tstudio {

class EmptyState;
class LogModel;
class LogFilterModel;

class LogPanel : public QWidget {
    Q_OBJECT
public:
    explicit LogPanel(LogModel* model, QWidget* parent = nullptr);

    /// Rows currently shown after the severity and text filters.
    int visibleRowCount() const;
    /// Shows messages of this severity and above (an int of LogSeverity).
    void setMinimumSeverity(int severity);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void copySelection();
    void updateCount();

    LogModel* m_model;
    LogFilterModel* m_filter;
    QComboBox* m_severity;
    QLineEdit* m_search;
    QToolButton* m_clear;
    QToolButton* m_copy;
    QTableView* m_view;
    EmptyState* m_empty = nullptr; ///< over the table while nothing has been logged
    QLabel* m_count;
    bool m_followTail = true;
};

} // namespace tstudio
