// HParamsView: the hparams plugin's sessions as a sortable, filterable table.
#include "dashboard/hparams_view.h"

#include "common/background_run.h"
#include "io/events/hparams.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace tstudio::dashboard {
namespace {

using Experiments = std::vector<std::pair<QString, events::HParamsExperiment>>;

/// A cell that sorts numbers as numbers.
QTableWidgetItem* cell(const events::HParamValue& value)
{
    auto* item = new QTableWidgetItem;
    if (const double* d = std::get_if<double>(&value))
        item->setData(Qt::DisplayRole, *d);
    else
        item->setData(Qt::DisplayRole, QString::fromStdString(events::hparamText(value)));
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QString metricTitle(const events::MetricDefinition& m)
{
    if (!m.displayName.empty())
        return QString::fromStdString(m.displayName);
    return QString::fromStdString(m.group.empty() ? m.tag : m.group + "/" + m.tag);
}

} // namespace

HParamsView::HParamsView(QWidget* parent)
    : QWidget(parent), m_status(new QLabel(this)), m_filter(new QLineEdit(this)), m_table(new QTableWidget(this))
{
    m_status->setObjectName("hparamsStatus");
    m_status->setWordWrap(true);
    m_filter->setObjectName("hparamsFilter");
    m_filter->setClearButtonEnabled(true);
    m_table->setObjectName("hparamsTable");
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &HParamsView::applyFilter);
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) { activateRow(row); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { activateRow(row); });
    retranslateUi();
}

void HParamsView::activateRow(int row)
{
    if (const QTableWidgetItem* item = m_table->item(row, 0))
        emit sessionActivated(item->text());
}

HParamsView::~HParamsView() = default;

void HParamsView::setLogDirectories(const QStringList& roots)
{
    m_roots = roots;
    reload();
}

int HParamsView::sessionCount() const
{
    int n = 0;
    if (m_data)
        for (const auto& [root, experiment] : *m_data)
            n += static_cast<int>(experiment.sessions.size());
    return n;
}

void HParamsView::reload()
{
    if (m_watcher || m_roots.isEmpty())
        return;
    m_watcher = new QFutureWatcher<std::shared_ptr<const Experiments>>(this);
    auto error = std::make_shared<QString>();
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this, error] {
        auto* watcher = m_watcher;
        m_watcher = nullptr;
        watcher->deleteLater();
        m_data = watcher->result();
        m_error = *error;
        fill();
        emit ready();
    });
    std::vector<std::string> roots;
    for (const QString& r : m_roots)
        roots.push_back(r.toStdString());
    m_watcher->setFuture(runInBackground([roots, error]() {
        auto out = std::make_shared<Experiments>();
        for (const std::string& root : roots) {
            auto read = events::readHParams(root);
            if (!read) {
                *error = QString::fromStdString(read.error().message());
                continue;
            }
            out->emplace_back(QDir(QString::fromStdString(root)).dirName(), std::move(*read));
        }
        return std::shared_ptr<const Experiments>(out);
    }));
}

void HParamsView::fill()
{
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setRowCount(0);
    if (!m_data) {
        retranslateUi();
        return;
    }
    // Columns: the union of every experiment's hparams and metrics, by name.
    std::vector<std::string> hparams;
    std::vector<std::pair<std::string, QString>> metrics; // key group + "\n" + tag, title
    std::set<std::string> seenHParams, seenMetrics;
    std::map<std::string, QString> hparamTitles;
    for (const auto& [root, experiment] : *m_data) {
        for (const auto& h : experiment.hparams)
            if (seenHParams.insert(h.name).second) {
                hparams.push_back(h.name);
                hparamTitles[h.name] = QString::fromStdString(h.displayName.empty() ? h.name : h.displayName);
            }
        for (const auto& m : experiment.metrics)
            if (seenMetrics.insert(m.group + "\n" + m.tag).second)
                metrics.emplace_back(m.group + "\n" + m.tag, metricTitle(m));
    }
    QStringList headers{tr("Run"), tr("Status")};
    for (const std::string& h : hparams)
        headers << hparamTitles[h];
    for (const auto& [key, title] : metrics)
        headers << title;
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    const bool prefix = m_data->size() > 1;
    for (const auto& [root, experiment] : *m_data)
        for (const events::HParamsSession& s : experiment.sessions) {
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            const QString run = QString::fromStdString(s.run);
            m_table->setItem(row, 0, cell(std::string((prefix ? root + "/" + run : run).toStdString())));
            const QString status = s.status == "success"   ? tr("success")
                                   : s.status == "failure" ? tr("failure")
                                   : s.status == "running" ? tr("running")
                                                           : tr("unknown");
            m_table->setItem(row, 1, cell(status.toStdString()));
            int column = 2;
            for (const std::string& h : hparams) {
                auto it = s.hparams.find(h);
                m_table->setItem(row, column++, cell(it == s.hparams.end() ? events::HParamValue{} : it->second));
            }
            for (const auto& [key, title] : metrics) {
                events::HParamValue value;
                for (const auto& [index, reading] : s.metrics) {
                    const auto& m = experiment.metrics[index];
                    if (m.group + "\n" + m.tag == key)
                        value = reading.value;
                }
                m_table->setItem(row, column++, cell(value));
            }
        }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    applyFilter();
    retranslateUi();
}

void HParamsView::applyFilter()
{
    const QString needle = m_filter->text().trimmed();
    for (int r = 0; r < m_table->rowCount(); ++r) {
        bool match = needle.isEmpty();
        for (int c = 0; !match && c < m_table->columnCount(); ++c)
            if (const QTableWidgetItem* item = m_table->item(r, c))
                match = item->text().contains(needle, Qt::CaseInsensitive);
        m_table->setRowHidden(r, !match);
    }
}

void HParamsView::retranslateUi()
{
    m_filter->setPlaceholderText(tr("Filter sessions (any cell)"));
    if (!m_error.isEmpty())
        m_status->setText(tr("Cannot read the hyperparameters: %1").arg(m_error));
    else if (!m_data)
        m_status->setText(tr("Reading the hparams plugin's data…"));
    else if (sessionCount() == 0)
        m_status->setText(tr("No hyperparameter sessions: write them with TensorFlow's hparams API "
                             "(hp.hparams) or PyTorch's SummaryWriter.add_hparams."));
    else
        m_status->setText(tr("%n session(s); click a column header to sort by it, double-click a session to "
                             "chart its runs alone.",
                             nullptr, sessionCount()));
}

void HParamsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_data)
            fill();
        else
            retranslateUi();
    }
    QWidget::changeEvent(event);
}

} // namespace tstudio::dashboard
