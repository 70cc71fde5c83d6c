// HParamsView: the hparams plugin's sessions as a table, parallel coordinates and a scatter-plot matrix.
#include "dashboard/hparams_view.h"

#include "common/background_run.h"
#include "dashboard/hparams_parallel_view.h"
#include "dashboard/hparams_scatter_view.h"
#include "io/events/hparams.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tstudio::dashboard {
namespace {

constexpr int kMatrixRowRole = Qt::UserRole + 1;
constexpr int kKeyRole = Qt::UserRole + 2;

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

QString keyOf(const HParamsColumn& c)
{
    return QString::fromStdString((c.kind == HParamsColumn::Kind::Metric ? "m:" : "h:") + c.key);
}

/// The sessions that hold a value in `column` all hold the same one (an optimizer's beta1 set only
/// in the Adam runs, say): it tells them apart in nothing another column does not.
bool constantColumn(const HParamsMatrix& matrix, std::size_t index)
{
    const events::HParamValue* first = nullptr;
    for (const HParamsRow& row : matrix.rows) {
        const events::HParamValue& v = row.values[index];
        if (std::holds_alternative<std::monostate>(v))
            continue;
        if (!first)
            first = &v;
        else if (v != *first)
            return false;
    }
    return true;
}

} // namespace

HParamsView::HParamsView(QWidget* parent)
    : QWidget(parent), m_status(new QLabel(this)), m_filter(new QLineEdit(this)), m_columns(new QListWidget(this)),
      m_colourBy(new QComboBox(this)), m_columnsLabel(new QLabel(this)), m_colourLabel(new QLabel(this)),
      m_views(new QTabWidget(this)), m_table(new QTableWidget(this)), m_parallel(new HParamsParallelView(this)),
      m_scatter(new HParamsScatterView(this))
{
    m_status->setObjectName("hparamsStatus");
    m_status->setWordWrap(true);
    m_filter->setObjectName("hparamsFilter");
    m_filter->setClearButtonEnabled(true);
    m_columns->setObjectName("hparamsColumns");
    m_colourBy->setObjectName("hparamsColourBy");
    m_views->setObjectName("hparamsViews");
    m_table->setObjectName("hparamsTable");
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_views->addTab(m_table, QString());
    m_views->addTab(m_parallel, QString());
    m_views->addTab(m_scatter, QString());

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_colourLabel);
    sideLayout->addWidget(m_colourBy);
    sideLayout->addWidget(m_columnsLabel);
    sideLayout->addWidget(m_columns, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(side);
    splitter->addWidget(m_views);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({190, 900});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_filter);
    layout->addWidget(splitter, 1);

    connect(m_filter, &QLineEdit::textChanged, this, &HParamsView::applyFilter);
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) { activateRow(row); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { activateRow(row); });
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row, int, int, int) {
        const QTableWidgetItem* item = row >= 0 ? m_table->item(row, 0) : nullptr;
        const int matrixRow = item ? item->data(kMatrixRowRole).toInt() : -1;
        if (matrixRow != m_state.selected) {
            setSelected(matrixRow);
            pushState();
        }
    });
    connect(m_columns, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        const QString key = item->data(kKeyRole).toString();
        if (item->checkState() == Qt::Checked) {
            m_hiddenKeys.remove(key);
            m_shownKeys.insert(key);
        } else {
            m_hiddenKeys.insert(key);
            m_shownKeys.remove(key);
        }
        pushState();
    });
    connect(m_colourBy, &QComboBox::activated, this, [this](int index) {
        m_colourKey = m_colourBy->itemData(index).toString();
        m_colourChosen = true;
        pushState();
    });
    connect(m_parallel, &HParamsParallelView::rowClicked, this, &HParamsView::selectSession);
    connect(m_scatter, &HParamsScatterView::rowClicked, this, &HParamsView::selectSession);
    connect(m_parallel, &HParamsParallelView::rowActivated, this, &HParamsView::activateSession);
    connect(m_scatter, &HParamsScatterView::rowActivated, this, &HParamsView::activateSession);
    connect(m_parallel, &HParamsParallelView::brushesChanged, this, &HParamsView::applyFilter);
    connect(m_parallel, &HParamsParallelView::scaleToggled, this, [this](std::size_t column) {
        if (m_matrix && column < m_matrix->columns.size())
            setLogScale(QString::fromStdString(m_matrix->columns[column].title),
                        m_state.scale(column) != AxisScale::Log);
    });
    retranslateUi();
}

HParamsView::~HParamsView() = default;

void HParamsView::activateRow(int row)
{
    if (const QTableWidgetItem* item = m_table->item(row, 0))
        emit sessionActivated(item->text());
}

void HParamsView::activateSession(int matrixRow)
{
    selectSession(matrixRow);
    if (m_matrix && matrixRow >= 0 && static_cast<std::size_t>(matrixRow) < m_matrix->rows.size())
        emit sessionActivated(QString::fromStdString(m_matrix->rows[static_cast<std::size_t>(matrixRow)].run));
}

void HParamsView::setLogDirectories(const QStringList& roots)
{
    m_roots = roots;
    reload();
}

int HParamsView::sessionCount() const
{
    return m_matrix ? static_cast<int>(m_matrix->rows.size()) : 0;
}

int HParamsView::shownCount() const
{
    return static_cast<int>(std::count(m_state.shown.begin(), m_state.shown.end(), true));
}

void HParamsView::reload()
{
    if (m_watcher || m_roots.isEmpty())
        return;
    m_watcher = new QFutureWatcher<std::shared_ptr<const HParamsMatrix>>(this);
    auto error = std::make_shared<QString>();
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this, error] {
        auto* watcher = m_watcher;
        m_watcher = nullptr;
        watcher->deleteLater();
        m_matrix = watcher->result();
        m_error = *error;
        fill();
        emit ready();
    });
    std::vector<std::string> roots;
    for (const QString& r : m_roots)
        roots.push_back(r.toStdString());
    m_watcher->setFuture(runInBackground([roots, error]() {
        std::vector<std::pair<std::string, events::HParamsExperiment>> experiments;
        for (const std::string& root : roots) {
            auto read = events::readHParams(root);
            if (!read) {
                *error = QString::fromStdString(read.error().message());
                continue;
            }
            experiments.emplace_back(QDir(QString::fromStdString(root)).dirName().toStdString(), std::move(*read));
        }
        return std::shared_ptr<const HParamsMatrix>(std::make_shared<HParamsMatrix>(buildHParamsMatrix(experiments)));
    }));
}

void HParamsView::fill()
{
    m_state = HParamsPlotState{};
    m_constant.clear(); // once per matrix, not at every choice or brush
    if (m_matrix)
        for (std::size_t c = 0; c < m_matrix->columns.size(); ++c)
            m_constant.push_back(constantColumn(*m_matrix, c));
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setRowCount(0);
    fillColumnChoices();
    if (!m_matrix) {
        pushState();
        retranslateUi();
        return;
    }
    const HParamsMatrix& m = *m_matrix;
    QStringList headers{tr("Run"), tr("Status")};
    for (const HParamsColumn& c : m.columns)
        headers << QString::fromStdString(c.title);
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(m.rows.size()));
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
        const HParamsRow& row = m.rows[r];
        const int at = static_cast<int>(r);
        QTableWidgetItem* run = cell(row.run);
        run->setData(kMatrixRowRole, at);
        m_table->setItem(at, 0, run);
        const QString status = row.status == "success"   ? tr("success")
                               : row.status == "failure" ? tr("failure")
                               : row.status == "running" ? tr("running")
                                                         : tr("unknown");
        m_table->setItem(at, 1, cell(status.toStdString()));
        for (std::size_t c = 0; c < m.columns.size(); ++c)
            m_table->setItem(at, static_cast<int>(c) + 2, cell(row.values[c]));
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    // The chosen session stays chosen by its run.
    int selected = -1;
    for (std::size_t r = 0; r < m.rows.size() && !m_selectedRun.isEmpty(); ++r)
        if (QString::fromStdString(m.rows[r].run) == m_selectedRun)
            selected = static_cast<int>(r);
    setSelected(selected);
    if (const int tableRow = tableRowOf(m_state.selected); tableRow >= 0) {
        const QSignalBlocker block(m_table);
        m_table->setCurrentCell(tableRow, 0);
    }
    pushState(); // the plots take the new matrix (and drop the brushes of the old one) first
    applyFilter();
    retranslateUi();
}

void HParamsView::fillColumnChoices()
{
    const QSignalBlocker blockList(m_columns);
    const QSignalBlocker blockCombo(m_colourBy);
    m_columns->clear();
    m_colourBy->clear();
    m_colourBy->addItem(tr("(none)"), QString());
    if (!m_matrix)
        return;
    // The first metric colours the plots until the user chooses, as TensorBoard's.
    if (!m_colourChosen) {
        const auto metrics = m_matrix->metricColumns();
        m_colourKey = metrics.empty() ? QString() : keyOf(m_matrix->columns[metrics.front()]);
    }
    for (const HParamsColumn& c : m_matrix->columns) {
        const QString title = QString::fromStdString(c.title);
        auto* item = new QListWidgetItem(c.kind == HParamsColumn::Kind::Metric ? tr("%1 (metric)").arg(title) : title,
                                         m_columns);
        item->setData(kKeyRole, keyOf(c));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(isHidden(c) ? Qt::Unchecked : Qt::Checked);
        m_colourBy->addItem(title, keyOf(c));
    }
    m_colourBy->setCurrentIndex(std::max(0, m_colourBy->findData(m_colourKey)));
}

bool HParamsView::isHidden(const HParamsColumn& column) const
{
    const QString key = keyOf(column);
    if (m_hiddenKeys.contains(key))
        return true;
    if (m_shownKeys.contains(key) || !m_matrix || m_matrix->rows.size() < 2 ||
        column.kind != HParamsColumn::Kind::HParam)
        return false;
    const auto index = static_cast<std::size_t>(&column - m_matrix->columns.data());
    return index < m_constant.size() && m_constant[index];
}

int HParamsView::constantHiddenCount() const
{
    int n = 0;
    if (m_matrix)
        for (const HParamsColumn& c : m_matrix->columns)
            n += !m_hiddenKeys.contains(keyOf(c)) && isHidden(c);
    return n;
}

std::optional<std::size_t> HParamsView::columnTitled(const QString& title) const
{
    if (!m_matrix)
        return std::nullopt;
    for (std::size_t c = 0; c < m_matrix->columns.size(); ++c)
        if (QString::fromStdString(m_matrix->columns[c].title) == title)
            return c;
    return std::nullopt;
}

bool HParamsView::setColumnShown(const QString& title, bool shown)
{
    const std::optional<std::size_t> c = columnTitled(title);
    if (!c)
        return false;
    QListWidgetItem* item = m_columns->item(static_cast<int>(*c));
    item->setCheckState(shown ? Qt::Checked : Qt::Unchecked); // itemChanged does the rest
    return true;
}

bool HParamsView::setColourColumn(const QString& title)
{
    if (title.isEmpty()) {
        m_colourKey.clear();
    } else {
        const std::optional<std::size_t> c = columnTitled(title);
        if (!c)
            return false;
        m_colourKey = keyOf(m_matrix->columns[*c]);
    }
    m_colourChosen = true;
    m_colourBy->setCurrentIndex(std::max(0, m_colourBy->findData(m_colourKey)));
    pushState();
    return true;
}

bool HParamsView::setLogScale(const QString& title, bool log)
{
    const std::optional<std::size_t> c = columnTitled(title);
    if (!c || !m_matrix->columns[*c].numeric || !m_matrix->columns[*c].positive)
        return false;
    const QString key = keyOf(m_matrix->columns[*c]);
    if (log)
        m_logKeys.insert(key);
    else
        m_logKeys.remove(key);
    pushState();
    return true;
}

void HParamsView::setPage(Page page)
{
    m_views->setCurrentIndex(static_cast<int>(page));
}

HParamsView::Page HParamsView::page() const
{
    return static_cast<Page>(m_views->currentIndex());
}

int HParamsView::tableRowOf(int matrixRow) const
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (const QTableWidgetItem* item = m_table->item(r, 0); item && item->data(kMatrixRowRole).toInt() == matrixRow)
            return r;
    return -1;
}

void HParamsView::selectSession(int row)
{
    if (!m_matrix || row >= static_cast<int>(m_matrix->rows.size()))
        row = -1;
    setSelected(row);
    const QSignalBlocker block(m_table);
    const int tableRow = tableRowOf(row);
    if (tableRow >= 0) {
        m_table->setCurrentCell(tableRow, 0);
        m_table->scrollToItem(m_table->item(tableRow, 0));
    } else {
        m_table->clearSelection();
    }
    pushState();
}

void HParamsView::setSelected(int row)
{
    m_state.selected = row;
    const QString run = m_matrix && row >= 0 && static_cast<std::size_t>(row) < m_matrix->rows.size()
                            ? QString::fromStdString(m_matrix->rows[static_cast<std::size_t>(row)].run)
                            : QString();
    if (run != m_selectedRun) {
        m_selectedRun = run;
        emit sessionSelected(run);
    }
}

void HParamsView::applyFilter()
{
    const QString needle = m_filter->text().trimmed();
    const std::size_t rows = m_matrix ? m_matrix->rows.size() : 0;
    m_state.shown.assign(rows, true);
    for (int r = 0; r < m_table->rowCount(); ++r) {
        bool match = needle.isEmpty();
        for (int c = 0; !match && c < m_table->columnCount(); ++c)
            if (const QTableWidgetItem* item = m_table->item(r, c); item && !m_table->isColumnHidden(c))
                match = item->text().contains(needle, Qt::CaseInsensitive);
        const auto matrixRow = static_cast<std::size_t>(m_table->item(r, 0)->data(kMatrixRowRole).toInt());
        match = match && insideBrushes(*m_matrix, matrixRow, m_parallel->brushes());
        m_state.shown[matrixRow] = match;
        m_table->setRowHidden(r, !match);
    }
    pushState();
    retranslateUi();
}

void HParamsView::pushState()
{
    m_state.matrix = m_matrix;
    m_state.columns.clear();
    m_state.scales.clear();
    m_state.colourColumn.reset();
    if (m_matrix) {
        for (std::size_t c = 0; c < m_matrix->columns.size(); ++c) {
            const QString key = keyOf(m_matrix->columns[c]);
            const bool shown = !isHidden(m_matrix->columns[c]);
            if (shown)
                m_state.columns.push_back(c);
            m_table->setColumnHidden(static_cast<int>(c) + 2, !shown);
            m_state.scales.push_back(m_logKeys.contains(key) ? AxisScale::Log : AxisScale::Linear);
            if (key == m_colourKey)
                m_state.colourColumn = c;
        }
    }
    if (m_matrix && (!m_state.positions || m_positionsMatrix != m_matrix || m_positionsScales != m_state.scales)) {
        m_state.positions = hparamsPositions(*m_matrix, m_state.scales);
        m_positionsMatrix = m_matrix;
        m_positionsScales = m_state.scales;
    }
    m_parallel->setState(m_state);
    m_scatter->setState(m_state);
}

void HParamsView::retranslateUi()
{
    m_filter->setPlaceholderText(tr("Filter sessions (any cell)"));
    m_views->setTabText(0, tr("Table"));
    m_views->setTabText(1, tr("Parallel Coordinates"));
    m_views->setTabText(2, tr("Scatter Plot Matrix"));
    m_columnsLabel->setText(tr("Columns shown:"));
    m_colourLabel->setText(tr("Colour by:"));
    m_colourBy->setItemText(0, tr("(none)"));
    if (!m_error.isEmpty())
        m_status->setText(tr("Cannot read the hyperparameters: %1").arg(m_error));
    else if (!m_matrix)
        m_status->setText(tr("Reading the hparams plugin's data…"));
    else if (sessionCount() == 0)
        m_status->setText(tr("No hyperparameter sessions: write them with TensorFlow's hparams API "
                             "(hp.hparams) or PyTorch's SummaryWriter.add_hparams."));
    else if (shownCount() < sessionCount())
        m_status->setText(tr("%1 of %n session(s) kept by the filter and the axis ranges; double-click a session "
                             "to chart its runs alone.",
                             nullptr, sessionCount())
                              .arg(shownCount()));
    else
        m_status->setText(tr("%n session(s); click a column header to sort by it, drag along an axis of the "
                             "parallel coordinates to keep a range, double-click a session to chart its runs alone.",
                             nullptr, sessionCount()));
    if (const int constant = constantHiddenCount(); constant > 0 && m_error.isEmpty())
        m_status->setText(m_status->text() + QLatin1Char(' ') +
                          tr("%n hparam(s) with the same value in every session hidden (tick them in the list to "
                             "show them).",
                             nullptr, constant));
}

void HParamsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_matrix)
            fill();
        else
            retranslateUi();
    }
    QWidget::changeEvent(event);
}

} // namespace tstudio::dashboard
