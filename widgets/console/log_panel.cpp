// LogPanel: filter bar over a table view of the LogModel.
#include "console/log_panel.h"

#include "console/log_model.h"
#include "common/empty_state.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QShortcut>
#include <QStyle>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace tstudio {

/// Keeps rows at or above a severity whose source or message contains the search text.
class LogFilterModel : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setMinimumSeverity(int severity)
    {
        m_minSeverity = severity;
        invalidateFilter();
    }

    void setText(const QString& text)
    {
        m_text = text;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const QModelIndex index = sourceModel()->index(row, LogModel::kMessageColumn, parent);
        if (index.data(LogModel::kSeverityRole).toInt() < m_minSeverity)
            return false;
        if (m_text.isEmpty())
            return true;
        const QString source = sourceModel()->index(row, LogModel::kSourceColumn, parent).data().toString();
        return index.data().toString().contains(m_text, Qt::CaseInsensitive) ||
               source.contains(m_text, Qt::CaseInsensitive);
    }

private:
    int m_minSeverity = static_cast<int>(LogSeverity::kInfo);
    QString m_text;
};

LogPanel::LogPanel(LogModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_filter(new LogFilterModel(this)),
      m_severity(new QComboBox(this)),
      m_search(new QLineEdit(this)),
      m_clear(new QToolButton(this)),
      m_copy(new QToolButton(this)),
      m_view(new QTableView(this)),
      m_count(new QLabel(this))
{
    setObjectName(QStringLiteral("logPanel"));
    m_filter->setSourceModel(model);
    m_view->setModel(m_filter);
    m_view->setObjectName(QStringLiteral("logView"));
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(LogModel::kTimeColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(LogModel::kSeverityColumn, QHeaderView::Fixed);
    m_view->horizontalHeader()->setSectionResizeMode(LogModel::kSourceColumn, QHeaderView::ResizeToContents);

    for (int s = 0; s <= static_cast<int>(LogSeverity::kError); ++s)
        m_severity->addItem(QString(), s);
    m_severity->setCurrentIndex(static_cast<int>(LogSeverity::kInfo));
    m_search->setClearButtonEnabled(true);
    m_copy->setAutoRaise(true);
    m_clear->setAutoRaise(true);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_severity);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_count);
    bar->addWidget(m_copy);
    bar->addWidget(m_clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view);
    m_empty = EmptyState::cover(m_view, QStringLiteral("console"));
    // A message hidden by the filters still means the console is not empty.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &LogPanel::updateCount);
    connect(m_model, &QAbstractItemModel::modelReset, this, &LogPanel::updateCount);

    connect(m_severity, &QComboBox::currentIndexChanged, this, [this](int i) {
        const int severity = m_severity->itemData(i).toInt();
        m_filter->setMinimumSeverity(severity);
        // Debug messages are only produced while someone wants to see them.
        if (severity == static_cast<int>(LogSeverity::kDebug))
            setMinLogSeverity(LogSeverity::kDebug);
        else if (minLogSeverity() == LogSeverity::kDebug)
            setMinLogSeverity(LogSeverity::kInfo);
        updateCount();
    });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setText(text);
        updateCount();
    });
    connect(m_clear, &QToolButton::clicked, m_model, &LogModel::clear);
    connect(m_copy, &QToolButton::clicked, this, &LogPanel::copySelection);
    auto* copyShortcut = new QShortcut(QKeySequence::Copy, m_view);
    copyShortcut->setContext(Qt::WidgetShortcut);
    copyShortcut->setObjectName(QStringLiteral("consoleCopyShortcut"));
    connect(copyShortcut, &QShortcut::activated, this, &LogPanel::copySelection);

    // Follow new messages unless the user has scrolled up to read older ones.
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this](int value) { m_followTail = value >= m_view->verticalScrollBar()->maximum(); });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_followTail)
            m_view->scrollToBottom();
        updateCount();
    });
    connect(m_filter, &QAbstractItemModel::modelReset, this, &LogPanel::updateCount);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &LogPanel::updateCount);

    retranslateUi();
}

int LogPanel::visibleRowCount() const { return m_filter->rowCount(); }

void LogPanel::setMinimumSeverity(int severity)
{
    const int index = m_severity->findData(severity);
    if (index >= 0)
        m_severity->setCurrentIndex(index);
}

void LogPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void LogPanel::retranslateUi()
{
    for (int i = 0; i < m_severity->count(); ++i) {
        const auto severity = static_cast<LogSeverity>(m_severity->itemData(i).toInt());
        m_severity->setItemText(i, tr("%1 and above").arg(LogModel::severityText(severity)));
    }
    m_severity->setToolTip(tr("Lowest severity to show"));
    // Named for Help ▸ Keyboard Shortcuts, which lists QShortcuts as well as actions.
    if (auto* copy = findChild<QShortcut*>(QStringLiteral("consoleCopyShortcut")))
        copy->setWhatsThis(tr("Copy the selected messages"));
    m_search->setPlaceholderText(tr("Filter messages"));
    m_clear->setText(tr("Clear"));
    m_clear->setToolTip(tr("Clear the console"));
    m_copy->setText(tr("Copy"));
    // Wide enough for the longest severity label in this language, plus its icon.
    int widest = fontMetrics().horizontalAdvance(m_model->headerData(LogModel::kSeverityColumn, Qt::Horizontal, Qt::DisplayRole).toString());
    for (int s = 0; s <= static_cast<int>(LogSeverity::kError); ++s)
        widest = std::max(widest, fontMetrics().horizontalAdvance(LogModel::severityText(static_cast<LogSeverity>(s))));
    m_view->horizontalHeader()->resizeSection(LogModel::kSeverityColumn, widest + style()->pixelMetric(QStyle::PM_SmallIconSize) + 24);
    m_copy->setToolTip(tr("Copy selected messages"));
    // The model's header and severity texts are translated too; ask the view to fetch them again.
    emit m_model->headerDataChanged(Qt::Horizontal, 0, LogModel::kColumnCount - 1);
    if (m_model->rowCount() > 0)
        emit m_model->dataChanged(m_model->index(0, 0),
                                  m_model->index(m_model->rowCount() - 1, LogModel::kColumnCount - 1));
    updateCount();
}

void LogPanel::copySelection()
{
    QList<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows << m_filter->mapToSource(index).row();
    std::sort(rows.begin(), rows.end());
    if (!rows.isEmpty())
        QApplication::clipboard()->setText(m_model->toPlainText(rows));
}

void LogPanel::updateCount()
{
    m_count->setText(tr("%n message(s)", nullptr, m_filter->rowCount()));
    m_empty->setVisible(m_model->rowCount() == 0);
    m_empty->setTitle(tr("No messages yet"));
    m_empty->setText(tr("What TensorStudio does with your files and runs is logged here: each file opened and what it "
                        "was detected as, training progress, warnings and errors."));
}

} // namespace tstudio
