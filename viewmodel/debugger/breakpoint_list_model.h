// BreakpointListModel: the debugger's breakpoints as an editable table (enabled, target kind, pattern, condition).
#pragma once

#include "debugger/breakpoint.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QString>

#include <vector>

namespace tstudio::debugger_ui {

/// One row per debugger::Breakpoint, in the order the controller matches them. Columns: a check box (enabled),
/// the target kind, the pattern and the condition. Every edit is checked by writing the edited breakpoint as
/// text (formatBreakpoint) and reading it back (parseBreakpoint), so the table accepts exactly what a project
/// file or the terminal accepts: an edit that does not read back is refused, lastError() says why and
/// editRejected is emitted. Edit values (Qt::EditRole): kTarget takes a Target (int) or its keyword
/// ("node", "op", "regex", "any"; choosing "any" drops the pattern); kPattern the text; kCondition a
/// condition as formatCondition writes it ("has_nan", "max > 100"; empty for none). GUI thread only.
class BreakpointListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { kEnabled, kTarget, kPattern, kCondition, kColumnCount };
    /// The row's breakpoint as one line ("op:MatMul if has_nan"), on any column.
    static constexpr int kSpecRole = Qt::UserRole;

    explicit BreakpointListModel(QObject* parent = nullptr);

    void setBreakpoints(std::vector<debugger::Breakpoint> breakpoints);
    const std::vector<debugger::Breakpoint>& breakpoints() const { return m_breakpoints; }
    /// Appends the breakpoint `spec` describes (parseBreakpoint's syntax). False with *error set (the parser's
    /// message) when it does not parse.
    bool addFromSpec(const QString& spec, QString* error = nullptr);
    void add(debugger::Breakpoint breakpoint);
    /// Removes every node breakpoint on `node` (conditional ones too) or, when there is none, adds an
    /// unconditional one. True when it added.
    bool toggleNode(const QString& node);
    /// The nodes named by enabled node breakpoints (what the graph marks).
    QSet<QString> enabledNodes() const;
    QString lastError() const { return m_lastError; }
    /// Header titles follow the language (LanguageChange).
    void retranslate();

    /// "Node", "Op type", "Name regex", "Any node".
    static QString targetText(debugger::Breakpoint::Target target);
    /// "node", "op", "regex", "any": parseBreakpoint's prefixes.
    static QString targetKeyword(debugger::Breakpoint::Target target);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    /// The list changed (edit, add, remove, toggle, setBreakpoints).
    void breakpointsEdited();
    /// An edit was refused; `message` says why.
    void editRejected(const QString& message);

private:
    bool reject(const QString& message);

    std::vector<debugger::Breakpoint> m_breakpoints;
    QString m_lastError;
};

} // namespace tstudio::debugger_ui
