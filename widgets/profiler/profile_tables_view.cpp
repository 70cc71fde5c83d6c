// ProfileTablesView: builds the three tables and the advice (on a worker for large traces), filters them as
// the fields change, and exports what a tab shows.
#include "profiler/profile_tables_view.h"

#include "profiler/tfprof_view_tab.h"

#include "common/background_run.h"
#include "profiler/profile_advice.h"
#include "profiler/profile_table_model.h"
#include "profiler/profile_tables.h"
#include "profiler/profile_trace.h"
#include "proto/graph.pb.h"

#include <QDoubleValidator>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tstudio::profiler::tables {

/// What one build produces: the three unfiltered tables and the advice, for one trace, graph and step.
struct BuiltTables {
    quint64 generation = 0;
    ProfileTable tables[3];
    std::vector<AdviceItem> advice;
    QString error;
};

namespace {

constexpr ProfileView kViews[3] = {ProfileView::ByOpType, ProfileView::ByScope, ProfileView::ByNode};
constexpr int kNodesRole = Qt::UserRole;

std::shared_ptr<const BuiltTables> buildAll(std::shared_ptr<const ProfileTrace> trace,
                                            std::shared_ptr<const tensorflow::GraphDef> graph,
                                            std::optional<std::vector<std::string>> trainable, int step,
                                            quint64 generation)
{
    auto built = std::make_shared<BuiltTables>();
    built->generation = generation;
    ProfileTableOptions options;
    options.step = step;
    options.graph = graph.get();
    options.trainableVariables = std::move(trainable);
    for (int i = 0; i < 3; ++i) {
        auto table = buildProfileTable(*trace, kViews[i], options);
        if (!table) {
            built->error = QString::fromStdString(table.error().message());
            return built;
        }
        built->tables[i] = std::move(*table);
    }
    ProfileAdviceOptions adviceOptions;
    adviceOptions.step = step;
    adviceOptions.graph = graph.get();
    auto advice = profileAdvice(*trace, adviceOptions);
    if (advice)
        built->advice = std::move(*advice);
    else
        built->error = QString::fromStdString(advice.error().message());
    return built;
}

/// Marks a field as invalid (red base, the reason as tooltip) or clears the mark.
void markInvalid(QLineEdit* edit, const QString& reason)
{
    const bool invalid = !reason.isEmpty();
    edit->setProperty("invalid", invalid);
    if (invalid) {
        QPalette palette = edit->parentWidget() ? edit->parentWidget()->palette() : edit->palette();
        palette.setColor(QPalette::Base, QColor(255, 214, 214));
        palette.setColor(QPalette::Text, Qt::black);
        edit->setPalette(palette);
    } else {
        edit->setPalette(QPalette()); // inherit again
    }
    edit->setToolTip(reason);
}

/// A threshold field's value times `scale`; nullopt when it does not parse. Empty is 0.
std::optional<qint64> threshold(const QLineEdit* edit, double scale)
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty())
        return 0;
    bool ok = false;
    const double value = QLocale::c().toDouble(text, &ok);
    if (!ok || value < 0 || value * scale > 9.0e18)
        return std::nullopt;
    return static_cast<qint64>(value * scale);
}

} // namespace

ProfileTablesView::ProfileTablesView(QWidget* parent)
    : QWidget(parent), m_watcher(new QFutureWatcher<std::shared_ptr<const BuiltTables>>(this)),
      m_filter(new QLineEdit(this)), m_hide(new QLineEdit(this)), m_maxDepthLabel(new QLabel(this)),
      m_maxDepth(new QSpinBox(this)), m_minTimeLabel(new QLabel(this)), m_minTime(new QLineEdit(this)),
      m_minBytesLabel(new QLabel(this)), m_minBytes(new QLineEdit(this)), m_minFlopsLabel(new QLabel(this)),
      m_minFlops(new QLineEdit(this)), m_export(new QPushButton(this)), m_status(new QLabel(this)),
      m_tabs(new QTabWidget(this)), m_advice(new QTreeWidget(this)), m_tfprof(new TfprofViewTab(this)),
      m_filterTimer(new QTimer(this))
{
    m_filter->setObjectName("filterEdit");
    m_filter->setClearButtonEnabled(true);
    m_hide->setObjectName("hideEdit");
    m_hide->setClearButtonEnabled(true);
    m_hide->setMinimumWidth(200);
    m_hide->setMaximumWidth(260);
    m_maxDepth->setObjectName("maxDepthSpin");
    m_maxDepth->setRange(-1, 99);
    m_maxDepth->setValue(-1);
    m_maxDepthLabel->setBuddy(m_maxDepth);
    m_minTime->setObjectName("minTimeEdit");
    m_minBytes->setObjectName("minBytesEdit");
    m_minFlops->setObjectName("minFlopsEdit");
    for (QLineEdit* edit : {m_minTime, m_minBytes, m_minFlops}) {
        edit->setMaximumWidth(90);
        auto* validator = new QDoubleValidator(0, 9.0e18, 3, edit);
        validator->setLocale(QLocale::c());
        validator->setNotation(QDoubleValidator::StandardNotation);
        edit->setValidator(validator);
    }
    m_minTimeLabel->setBuddy(m_minTime);
    m_minBytesLabel->setBuddy(m_minBytes);
    m_minFlopsLabel->setBuddy(m_minFlops);
    m_export->setObjectName("exportButton");
    m_status->setObjectName("statusLabel");
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tabs->setObjectName("tabs");

    const char* names[3] = {"opTypesView", "scopesView", "nodesView"};
    for (int i = 0; i < 3; ++i) {
        m_models[i] = new ProfileTableModel(kViews[i], this);
        auto* view = new QTreeView(this);
        view->setObjectName(names[i]);
        view->setModel(m_models[i]);
        view->setRootIsDecorated(kViews[i] == ProfileView::ByScope);
        view->setUniformRowHeights(true);
        view->setAlternatingRowColors(true);
        const int byTime = m_models[i]->sortColumn(); // enabling sorting sorts by the header's section 0
        view->setSortingEnabled(true);
        view->sortByColumn(byTime, Qt::DescendingOrder);
        view->header()->setStretchLastSection(true);
        view->setColumnWidth(0, kViews[i] == ProfileView::ByOpType ? 190 : 300);
        for (int c = 1; c < m_models[i]->columnCount() - 1; ++c)
            view->setColumnWidth(c, m_models[i]->columns()[std::size_t(c)].column == ProfileColumn::OpType ? 140 : 92);
        // Double-click and Enter, whatever the platform's single-click activation says.
        connect(view, &QTreeView::doubleClicked, this, &ProfileTablesView::activateIndex);
        view->installEventFilter(this);
        m_views[i] = view;
        m_tabs->addTab(view, QString());
    }
    m_advice->setObjectName("adviceList");
    m_advice->setColumnCount(2);
    m_advice->setColumnWidth(0, 150);
    m_advice->setWordWrap(true);
    m_advice->setUniformRowHeights(false);
    connect(m_advice, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) { activateAdvice(item); });
    m_advice->installEventFilter(this);
    m_tabs->addTab(m_advice, QString());
    m_tabs->addTab(m_tfprof, QString());
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this] { m_export->setEnabled(currentTab() < kAdvice && m_built); });

    auto* fields = new QHBoxLayout;
    fields->addWidget(m_filter, 1);
    fields->addWidget(m_hide);
    fields->addWidget(m_maxDepthLabel);
    fields->addWidget(m_maxDepth);
    fields->addWidget(m_minTimeLabel);
    fields->addWidget(m_minTime);
    fields->addWidget(m_minBytesLabel);
    fields->addWidget(m_minBytes);
    fields->addWidget(m_minFlopsLabel);
    fields->addWidget(m_minFlops);
    fields->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(fields);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);

    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    connect(m_filterTimer, &QTimer::timeout, this, &ProfileTablesView::applyFilters);
    for (QLineEdit* edit : {m_filter, m_hide, m_minTime, m_minBytes, m_minFlops})
        connect(edit, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_maxDepth, &QSpinBox::valueChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_export, &QPushButton::clicked, this, &ProfileTablesView::exportCurrent);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        std::shared_ptr<const BuiltTables> built = m_watcher->result();
        if (built && built->generation == m_generation)
            showBuilt(std::move(built));
    });
    m_export->setEnabled(false);
    retranslateUi();
}

ProfileTablesView::~ProfileTablesView() = default;

void ProfileTablesView::setTrace(std::shared_ptr<const ProfileTrace> trace,
                                 std::shared_ptr<const tensorflow::GraphDef> graph)
{
    m_trace = std::move(trace);
    m_graph = std::move(graph);
    if (!m_trace || m_step >= static_cast<int>(m_trace->steps.size()))
        m_step = -1;
    rebuild();
}

void ProfileTablesView::setTrainableVariables(std::optional<std::vector<std::string>> names)
{
    m_trainable = std::move(names);
}

void ProfileTablesView::setStep(int stepIndexOrMinus1)
{
    const int steps = m_trace ? static_cast<int>(m_trace->steps.size()) : 0;
    const int step = stepIndexOrMinus1 >= 0 && stepIndexOrMinus1 < steps ? stepIndexOrMinus1 : -1;
    if (step == m_step && m_built)
        return;
    m_step = step;
    rebuild();
}

bool ProfileTablesView::isBusy() const
{
    // Until the newest request's tables are shown (the worker may be done, its result still queued).
    return m_trace && (!m_built || m_built->generation != m_generation);
}

QAbstractItemModel* ProfileTablesView::model(Tab tab) const
{
    return tab >= kAdvice ? nullptr : m_models[tab];
}

QTreeView* ProfileTablesView::tableView(Tab tab) const
{
    return tab >= kAdvice ? nullptr : m_views[tab];
}

ProfileTablesView::Tab ProfileTablesView::currentTab() const
{
    return static_cast<Tab>(m_tabs->currentIndex());
}

void ProfileTablesView::setCurrentTab(Tab tab)
{
    m_tabs->setCurrentIndex(tab);
}

void ProfileTablesView::rebuild()
{
    const quint64 generation = ++m_generation;
    if (!m_trace) {
        auto empty = std::make_shared<BuiltTables>();
        empty->generation = generation;
        for (int i = 0; i < 3; ++i)
            empty->tables[i].view = kViews[i];
        showBuilt(std::move(empty));
        return;
    }
    if (m_trace->events.size() < m_workerThreshold) {
        showBuilt(buildAll(m_trace, m_graph, m_trainable, m_step, generation));
        return;
    }
    m_status->setText(tr("Building the tables of %n event(s)…", nullptr, static_cast<int>(m_trace->events.size())));
    m_watcher->setFuture(runInBackground([trace = m_trace, graph = m_graph, trainable = m_trainable, step = m_step, generation] {
        return buildAll(trace, graph, trainable, step, generation);
    }));
}

void ProfileTablesView::showBuilt(std::shared_ptr<const BuiltTables> built)
{
    m_built = std::move(built);
    applyFilters();
    fillAdvice();
    m_export->setEnabled(currentTab() < kAdvice);
    // The tfprof tab shares the scope table (kept alive with the build).
    m_tfprof->setScopes(m_built && m_trace ? std::shared_ptr<const ProfileTable>(m_built, &m_built->tables[kScopes])
                                           : nullptr);
    updateStatus();
    emit tablesReady();
}

void ProfileTablesView::fillAdvice()
{
    m_advice->clear();
    if (!m_built)
        return;
    for (const AdviceItem& advice : m_built->advice) {
        auto* item = new QTreeWidgetItem(m_advice);
        const bool warning = advice.severity == AdviceSeverity::Warning;
        item->setText(0, warning ? tr("Warning") : tr("Information"));
        item->setData(0, Qt::UserRole + 1, warning);
        item->setIcon(0,
                      style()->standardIcon(warning ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation));
        item->setText(1, QString::fromStdString(advice.text));
        item->setToolTip(1, QString::fromStdString(advice.text));
        QStringList nodes;
        for (const std::string& node : advice.nodes)
            nodes << QString::fromStdString(node);
        item->setData(0, kNodesRole, nodes);
        if (nodes.size() > 1)
            for (const QString& node : nodes) {
                auto* child = new QTreeWidgetItem(item);
                child->setText(1, node);
                child->setData(0, kNodesRole, QStringList{node});
            }
    }
}

void ProfileTablesView::applyFilters()
{
    m_filterTimer->stop();
    if (!m_built)
        return;
    ProfileFilter filter;
    const QString pattern = m_filter->text();
    QRegularExpression regex(pattern);
    m_filterError = regex.isValid() ? QString() : tr("Invalid regular expression: %1").arg(regex.errorString());
    markInvalid(m_filter, m_filterError);
    if (!regex.isValid())
        return; // the tables keep the last valid filter
    if (!pattern.isEmpty()) {
        regex.optimize();
        filter.nameMatches = [regex](const std::string& name) {
            return regex.match(QString::fromStdString(name)).hasMatch();
        };
    }
    // tfprof's hide_name_regexes: whole names; hidden rows' children move up.
    QRegularExpression hide(QRegularExpression::anchoredPattern(m_hide->text()));
    const QString hideError = hide.isValid() ? QString() : tr("Invalid regular expression: %1").arg(hide.errorString());
    markInvalid(m_hide, hideError);
    if (!hide.isValid())
        return;
    if (!m_hide->text().isEmpty()) {
        hide.optimize();
        filter.hideMatches = [hide](const std::string& name) {
            return hide.match(QString::fromStdString(name)).hasMatch();
        };
    }
    filter.maxDepth = m_maxDepth->value();
    const auto minTime = threshold(m_minTime, 1000.0);
    const auto minBytes = threshold(m_minBytes, 1.0);
    const auto minFlops = threshold(m_minFlops, 1.0);
    markInvalid(m_minTime, minTime ? QString() : tr("Expected a time in microseconds"));
    markInvalid(m_minBytes, minBytes ? QString() : tr("Expected a number of bytes"));
    markInvalid(m_minFlops, minFlops ? QString() : tr("Expected a number of float operations"));
    filter.minTimeNs = minTime.value_or(0);
    filter.minRequestedBytes = minBytes.value_or(0);
    filter.minFloatOps = minFlops.value_or(0);
    for (int i = 0; i < 3; ++i) {
        auto filtered = filterProfileTable(m_built->tables[i], filter);
        if (!filtered)
            continue;
        m_models[i]->setTable(std::move(*filtered));
    }
    QTreeView* scopes = m_views[kScopes];
    if (filter.nameMatches && m_models[kScopes]->table().rows.size() <= 5000)
        scopes->expandAll();
    else
        scopes->expandToDepth(0);
    updateStatus();
}

void ProfileTablesView::updateStatus()
{
    if (!m_built || !m_trace) {
        m_status->setText(m_trace ? QString() : tr("No trace"));
        return;
    }
    QStringList parts;
    if (!m_built->error.isEmpty())
        parts << m_built->error;
    const ProfileTable& nodes = m_built->tables[kNodes];
    if (m_step >= 0)
        parts << tr("Step %1").arg(m_trace->steps[std::size_t(m_step)].number);
    else
        parts << tr("Averaged over %n step(s)", nullptr, static_cast<int>(nodes.stepsCounted));
    parts << tr("%n event(s)", nullptr, static_cast<int>(m_trace->events.size()));
    parts << tr("%1 float operations, %2 parameters")
                 .arg(ProfileTableModel::formatCount(nodes.total.floatOps),
                      m_graph ? ProfileTableModel::formatCount(nodes.total.parameters) : tr("unknown"));
    if (nodes.floatOpsIncompleteNodes > 0)
        parts << tr("%n node(s) with unknown shapes (float ops marked *)", nullptr,
                    static_cast<int>(nodes.floatOpsIncompleteNodes));
    const int shown = m_models[kNodes]->rowCount();
    if (shown != static_cast<int>(nodes.rows.size()))
        parts << tr("%1 of %2 nodes shown").arg(shown).arg(nodes.rows.size());
    m_status->setText(parts.join(QStringLiteral(" · ")));
}

void ProfileTablesView::activateIndex(const QModelIndex& index)
{
    const QString name = index.siblingAtColumn(0).data(ProfileTableModel::kNodeNameRole).toString();
    if (!name.isEmpty())
        emit nodeActivated(name);
}

void ProfileTablesView::activateAdvice(QTreeWidgetItem* item)
{
    const QStringList nodes = item ? item->data(0, kNodesRole).toStringList() : QStringList();
    if (!nodes.isEmpty())
        emit nodeActivated(nodes.first());
}

Status ProfileTablesView::exportCsv(Tab tab, const QString& path) const
{
    if (tab >= kAdvice || !m_built)
        return failedPreconditionError("profile tables: nothing to export from this tab");
    const std::string csv = profileTableCsv(m_models[tab]->table());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return unavailableError("cannot write '" + path.toStdString() + "': " + file.errorString().toStdString());
    if (file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()) || !file.commit())
        return unavailableError("cannot write '" + path.toStdString() + "': " + file.errorString().toStdString());
    return Status();
}

void ProfileTablesView::exportCurrent()
{
    const Tab tab = currentTab();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), QString(), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const Status status = exportCsv(tab, path);
    if (!status.isOk())
        QMessageBox::warning(this, tr("Export CSV"), QString::fromStdString(status.message()));
}

void ProfileTablesView::retranslateUi()
{
    m_filter->setPlaceholderText(tr("Filter names (regular expression)"));
    m_hide->setPlaceholderText(tr("Hide names (regular expression)"));
    m_hide->setToolTip(tr("Rows whose whole name matches are hidden; their rows below move up a level "
                          "(tfprof's hide_name_regexes)"));
    m_maxDepthLabel->setText(tr("Depth:"));
    m_maxDepth->setSpecialValueText(tr("all"));
    m_maxDepth->setToolTip(tr("Scope levels shown below the top (0: the top level only; tfprof's max_depth)"));
    m_minTimeLabel->setText(tr("Min time (us):"));
    m_minBytesLabel->setText(tr("Min bytes:"));
    m_minFlopsLabel->setText(tr("Min float ops:"));
    m_export->setText(tr("Export CSV…"));
    m_export->setToolTip(tr("Save the rows of this tab, as filtered and sorted, as CSV"));
    m_tabs->setTabText(kOpTypes, tr("Op types"));
    m_tabs->setTabText(kScopes, tr("Name scopes"));
    m_tabs->setTabText(kNodes, tr("Nodes"));
    m_tabs->setTabText(kAdvice, tr("Advice"));
    m_tabs->setTabText(kTfprof, tr("tfprof"));
    m_advice->setHeaderLabels({tr("Severity"), tr("Advice")});
    for (ProfileTableModel* model : m_models)
        model->retranslate();
    fillAdvice();
    if (!m_filterError.isEmpty())
        applyFilters();
    updateStatus();
}

bool ProfileTablesView::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            if (watched == m_advice)
                activateAdvice(m_advice->currentItem());
            else if (auto* view = qobject_cast<QTreeView*>(watched))
                activateIndex(view->currentIndex());
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ProfileTablesView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::profiler::tables
