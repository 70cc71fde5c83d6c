// ExecutionListModel: the nodes a debugged run executed, in order, as tfdbg's `lt` lists them, and the
// filter (node name regex, op regex, device) the debugger panel puts over it.
#pragma once

#include "debugger/debug_controller.h"

#include <QAbstractTableModel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace tstudio::debugger_ui {

/// One row per ExecutedNode (a node inside a loop has one row per iteration). Columns: the position in the
/// run (0-based), node name, op, device (short form "CPU:0", the full name as tooltip), output dtypes and
/// shapes ("float32, int32", "[2,3], []"; "dead" for an output a Switch did not take), output bytes, start
/// time from the beginning of the run (ms, as tfdbg's "t (ms)") and compute time. kValueRole holds the raw
/// value for sorting (qint64 or QString). Holds no values beyond what the controller gave; GUI thread only.
class ExecutionListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { kIndex, kNode, kOp, kDevice, kDtype, kShape, kSize, kStart, kDuration, kColumnCount };
    /// Raw cell value: qint64 for numbers, QString for text.
    static constexpr int kValueRole = Qt::UserRole;
    /// The node name of the row (any column).
    static constexpr int kNodeNameRole = Qt::UserRole + 1;
    /// The full device name of the row (any column).
    static constexpr int kDeviceRole = Qt::UserRole + 2;

    explicit ExecutionListModel(QObject* parent = nullptr);

    void setNodes(std::vector<ExecutedNode> nodes);
    void clear() { setNodes({}); }
    const std::vector<ExecutedNode>& nodes() const { return m_nodes; }
    /// The execution of `row`, or null.
    const ExecutedNode* nodeAt(int row) const;
    /// The row of the last execution of `node`, or -1.
    int lastRowOf(const QString& node) const;
    /// The distinct full device names, in order of first appearance.
    QStringList devices() const;
    /// Header titles follow the language (LanguageChange).
    void retranslate();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// "CPU:0" for "/job:localhost/replica:0/task:0/device:CPU:0" (what follows "device:"), else unchanged.
    static QString shortDevice(const std::string& device);
    /// "float32, int32" (TensorFlow's Python dtype names), "dead" for outputs not taken.
    static QString dtypesText(const ExecutedNode& node);
    /// "[2,3], []" (TensorFlow's shape spelling).
    static QString shapesText(const ExecutedNode& node);

private:
    std::vector<ExecutedNode> m_nodes;
};

/// Filters an ExecutionListModel by a node name regex, an op regex (both searched anywhere in the text,
/// case-sensitive, as tfdbg's `lt -n` / `-t`) and an exact full device name, and sorts by kValueRole.
/// An invalid regex filters nothing out and is reported by filterError().
class ExecutionFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ExecutionFilterModel(QObject* parent = nullptr);

    /// False (and filterError() says why) when the pattern does not compile; empty matches everything.
    bool setNameFilter(const QString& pattern);
    bool setOpFilter(const QString& pattern);
    /// Empty for every device.
    void setDeviceFilter(const QString& device);
    /// The first invalid pattern's error ("name filter: missing closing parenthesis"), or empty.
    QString filterError() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    bool setPattern(QRegularExpression& target, const QString& pattern);

    QRegularExpression m_name;
    QRegularExpression m_op;
    QString m_device;
};

} // namespace tstudio::debugger_ui
