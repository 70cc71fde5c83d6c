// ExecutionListView: the filter bar and the sortable table of executed nodes.
#include "debugger/execution_list_view.h"

#include "debugger/execution_list_model.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::debugger_ui {

ExecutionListView::ExecutionListView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* filters = new QHBoxLayout;
    m_nameLabel = new QLabel(this);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameFilterEdit"));
    m_name->setClearButtonEnabled(true);
    m_opLabel = new QLabel(this);
    m_op = new QLineEdit(this);
    m_op->setObjectName(QStringLiteral("opFilterEdit"));
    m_op->setClearButtonEnabled(true);
    m_device = new QComboBox(this);
    m_device->setObjectName(QStringLiteral("deviceFilterCombo"));
    m_device->addItem(QString(), QString());
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    filters->addWidget(m_nameLabel);
    filters->addWidget(m_name, 2);
    filters->addWidget(m_opLabel);
    filters->addWidget(m_op, 1);
    filters->addWidget(m_device);
    layout->addLayout(filters);

    m_model = new ExecutionListModel(this);
    m_filter = new ExecutionFilterModel(this);
    m_filter->setSourceModel(m_model);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("executionTable"));
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ExecutionListModel::kIndex, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->viewport()->installEventFilter(this); // the node column follows the table's width
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    layout->addWidget(m_table, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("filterStatusLabel"));
    layout->addWidget(m_status);

    connect(m_name, &QLineEdit::textChanged, this, &ExecutionListView::applyFilters);
    connect(m_op, &QLineEdit::textChanged, this, &ExecutionListView::applyFilters);
    connect(m_device, &QComboBox::currentIndexChanged, this, &ExecutionListView::applyFilters);
    const auto clicked = [this](const QModelIndex& index) {
        const QString node = index.data(ExecutionListModel::kNodeNameRole).toString();
        if (!node.isEmpty())
            emit nodeClicked(node);
    };
    connect(m_table, &QTableView::clicked, this, clicked);
    connect(m_table, &QTableView::activated, this, clicked);
    retranslateUi();
}

void ExecutionListView::setNodes(std::vector<ExecutedNode> nodes)
{
    m_model->setNodes(std::move(nodes));
    const QString chosen = m_device->currentData().toString();
    {
        const QSignalBlocker block(m_device);
        while (m_device->count() > 1)
            m_device->removeItem(1);
        for (const QString& device : m_model->devices())
            m_device->addItem(ExecutionListModel::shortDevice(device.toStdString()), device);
        m_device->setCurrentIndex(std::max(0, m_device->findData(chosen)));
    }
    applyFilters();
}

void ExecutionListView::scrollToBottom()
{
    m_table->scrollToBottom();
}

void ExecutionListView::applyFilters()
{
    const bool nameOk = m_filter->setNameFilter(m_name->text());
    const bool opOk = m_filter->setOpFilter(m_op->text());
    m_filter->setDeviceFilter(m_device->currentData().toString());
    m_name->setStyleSheet(nameOk ? QString() : QStringLiteral("background: #ffebee;"));
    m_op->setStyleSheet(opOk ? QString() : QStringLiteral("background: #ffebee;"));
    const QString error = m_filter->filterError();
    m_status->setText(error.isEmpty()
                          ? tr("Showing %1 of %2 executed nodes").arg(m_filter->rowCount()).arg(m_model->rowCount())
                          : tr("Invalid %1").arg(error));
}

void ExecutionListView::fitColumns()
{
    // The other columns as wide as typical values (not 100 px each), so that the node name, with a loop
    // node's "(iteration k)", keeps the room; and never narrower than their headers, which are wider
    // than the values in some languages ("t（毫秒）").
    QHeaderView* header = m_table->horizontalHeader();
    const QFontMetrics metrics = m_table->fontMetrics();
    static const std::pair<int, const char*> samples[] = {
        {ExecutionListModel::kIndex, "9999"},       {ExecutionListModel::kOp, "NextIteration"},
        {ExecutionListModel::kDevice, "GPU:0"},     {ExecutionListModel::kDtype, "float32, int32"},
        {ExecutionListModel::kShape, "[100,784]"},  {ExecutionListModel::kSize, "999.9 KB"},
        {ExecutionListModel::kStart, "1234.567"},   {ExecutionListModel::kDuration, "999.9 us"}};
    int others = 0;
    for (const auto& [column, sample] : samples) {
        const int width = std::max(metrics.horizontalAdvance(QLatin1String(sample)) + 18, header->sectionSizeHint(column));
        m_table->setColumnWidth(column, width);
        others += width;
    }
    const int least = std::max(metrics.horizontalAdvance(QStringLiteral("layer1/dense/MatMul")) + 18,
                               header->sectionSizeHint(ExecutionListModel::kNode));
    header->setSectionResizeMode(ExecutionListModel::kNode, QHeaderView::Interactive);
    m_table->setColumnWidth(ExecutionListModel::kNode, std::max(least, m_table->viewport()->width() - others));
}

bool ExecutionListView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void ExecutionListView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ExecutionListView::retranslateUi()
{
    m_nameLabel->setText(tr("Node:"));
    m_name->setPlaceholderText(tr("regex"));
    m_name->setToolTip(tr("Show the nodes whose name matches this regular expression"));
    m_opLabel->setText(tr("Op:"));
    m_op->setPlaceholderText(tr("regex"));
    m_op->setToolTip(tr("Show the nodes whose op type matches this regular expression"));
    m_device->setItemText(0, tr("All devices"));
    m_model->retranslate();
    applyFilters();
    fitColumns();
}

} // namespace tstudio::debugger_ui
