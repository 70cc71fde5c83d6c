// BreakpointListView: adding, editing and removing breakpoints, with the parser's errors on show.
#include "debugger/breakpoint_list_view.h"

#include "debugger/breakpoint_list_model.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace tstudio::debugger_ui {
namespace {

using debugger::Breakpoint;

/// The Target column's editor: the four kinds in a combo box.
class TargetDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override
    {
        auto* combo = new QComboBox(parent);
        for (auto target : {Breakpoint::Target::kNode, Breakpoint::Target::kOpType, Breakpoint::Target::kNameRegex,
                            Breakpoint::Target::kAnyNode})
            combo->addItem(BreakpointListModel::targetText(target), static_cast<int>(target));
        return combo;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        auto* combo = static_cast<QComboBox*>(editor);
        combo->setCurrentIndex(std::max(0, combo->findData(index.data(Qt::EditRole))));
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        model->setData(index, static_cast<QComboBox*>(editor)->currentData(), Qt::EditRole);
    }
};

} // namespace

BreakpointListView::BreakpointListView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* addRow = new QHBoxLayout;
    m_spec = new QLineEdit(this);
    m_spec->setObjectName(QStringLiteral("breakpointSpecEdit"));
    m_add = new QPushButton(this);
    m_add->setObjectName(QStringLiteral("addBreakpointButton"));
    m_remove = new QPushButton(this);
    m_remove->setObjectName(QStringLiteral("removeBreakpointButton"));
    addRow->addWidget(m_spec, 1);
    addRow->addWidget(m_add);
    addRow->addWidget(m_remove);
    layout->addLayout(addRow);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("breakpointErrorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setVisible(false);
    layout->addWidget(m_error);

    m_model = new BreakpointListModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("breakpointTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegateForColumn(BreakpointListModel::kTarget, new TargetDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(BreakpointListModel::kEnabled, QHeaderView::ResizeToContents);
    m_table->setColumnWidth(BreakpointListModel::kTarget, 110);
    m_table->setColumnWidth(BreakpointListModel::kPattern, 220);
    layout->addWidget(m_table, 1);

    connect(m_add, &QPushButton::clicked, this, &BreakpointListView::addFromSpec);
    connect(m_spec, &QLineEdit::returnPressed, this, &BreakpointListView::addFromSpec);
    connect(m_remove, &QPushButton::clicked, this, &BreakpointListView::removeSelected);
    connect(m_model, &BreakpointListModel::editRejected, this, &BreakpointListView::showError);
    retranslateUi();
}

void BreakpointListView::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

QString BreakpointListView::errorText() const
{
    return m_error->isVisibleTo(this) ? m_error->text() : QString();
}

void BreakpointListView::addFromSpec()
{
    QString error;
    if (m_model->addFromSpec(m_spec->text(), &error)) {
        m_spec->clear();
        showError({});
    } else {
        showError(error);
    }
}

void BreakpointListView::removeSelected()
{
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    for (int row : rows)
        m_model->removeRow(row);
}

void BreakpointListView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void BreakpointListView::retranslateUi()
{
    m_spec->setPlaceholderText(
        tr("node:NAME, op:TYPE, regex:PATTERN or any, optionally with if has_nan, has_inf, max > 100, ..."));
    m_spec->setToolTip(
        tr("A breakpoint as one line, e.g. op:MatMul, any if has_inf_or_nan or node:while/add if iteration == 3; "
           "Return adds it"));
    m_add->setText(tr("Add"));
    m_remove->setText(tr("Remove"));
    m_remove->setToolTip(tr("Remove the selected breakpoints"));
    m_model->retranslate();
}

} // namespace tstudio::debugger_ui
