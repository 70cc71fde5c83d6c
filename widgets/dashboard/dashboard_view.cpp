// DashboardView: the dashboard tab's polling, runs and views.
#include "dashboard/dashboard_view.h"

#include "dashboard/custom_scalars_view.h"
#include "dashboard/hparams_view.h"
#include "dashboard/pr_curves_view.h"
#include "dashboard/projector_view.h"

#include "common/background_run.h"
#include "dashboard/audio_view.h"
#include "dashboard/distribution_view.h"
#include "dashboard/histogram_view.h"
#include "dashboard/images_view.h"
#include "dashboard/run_removal.h"
#include "dashboard/runs_panel.h"
#include "dashboard/scalars_view.h"
#include "dashboard/text_view.h"
#include "common/empty_state.h"
#include "dashboard/scalar_chart.h"
#include "dashboard/scalar_export.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::dashboard {
namespace {

const QStringList& tabIds()
{
    static const QStringList ids = {QStringLiteral("scalars"),       QStringLiteral("images"),
                                    QStringLiteral("graphs"),        QStringLiteral("distributions"),
                                    QStringLiteral("histograms"),    QStringLiteral("text"),
                                    QStringLiteral("audio"),         QStringLiteral("pr_curves"),
                                    QStringLiteral("hparams"),       QStringLiteral("custom_scalars"),
                                    QStringLiteral("projector")};
    return ids;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

constexpr int kPathRole = Qt::UserRole + 1;

} // namespace

DashboardView::DashboardView(QWidget* parent)
    : QWidget(parent), m_watcher(new QFutureWatcher<Expected<FeedUpdate>>(this)), m_timer(new QTimer(this))
{
    buildUi();
    m_timer->setInterval(400); // a poll takes a little time: more than two updates a second
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_following)
            startPoll();
    });
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        // A poll of directories no longer followed is dropped; every other result is applied: the
        // feed reports a change once, so a lost result would lose that change for good. The poll
        // stays in flight until its tags are all handed over (applyPendingTags may take turns).
        if (m_pollGeneration == m_generation) {
            applyUpdate(m_watcher->result());
        } else {
            m_pollAgain = true;
            pollDone();
        }
    });
    retranslateUi();
}

DashboardView::~DashboardView()
{
    m_timer->stop();
    m_watcher->waitForFinished(); // the worker uses m_feed, which it shares; wait for tidiness
}

void DashboardView::buildUi()
{
    setObjectName(QStringLiteral("dashboard"));
    m_toolBar = new QToolBar(this);
    m_toolBar->setIconSize(QSize(16, 16));
    m_followAction = m_toolBar->addAction(QString());
    m_followAction->setCheckable(true);
    m_followAction->setChecked(true);
    connect(m_followAction, &QAction::toggled, this, &DashboardView::setFollowing);
    m_addAction = m_toolBar->addAction(QString());
    connect(m_addAction, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Add Log Directory"), m_roots.value(0));
        if (!dir.isEmpty() && !m_roots.contains(dir))
            setLogDirectories(m_roots + QStringList{dir});
    });
    m_reloadAction = m_toolBar->addAction(QString());
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    m_reloadAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_reloadAction);
    connect(m_reloadAction, &QAction::triggered, this, &DashboardView::reloadNow);
    m_exportAction = m_toolBar->addAction(QString());
    m_exportAction->setObjectName(QStringLiteral("exportScalars"));
    connect(m_exportAction, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, tr("Export Scalars"), QStringLiteral("scalars.csv"),
                                                          tr("CSV (*.csv);;JSON (*.json)"));
        if (file.isEmpty())
            return;
        QString error;
        if (exportVisibleScalars(file, &error))
            emit message(tr("Exported the scalars of the visible runs to %1").arg(QDir::toNativeSeparators(file)));
        else
            emit message(tr("Could not export the scalars to %1: %2").arg(QDir::toNativeSeparators(file), error));
    });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("dashboardStatus"));
    m_status->setContentsMargins(12, 0, 6, 0);
    m_toolBar->addWidget(m_status);

    m_runs = new RunsPanel(this);
    connect(m_runs, &RunsPanel::stylesChanged, this, &DashboardView::applyStyles);
    connect(m_runs, &RunsPanel::deleteRunRequested, this, &DashboardView::confirmDeleteRun);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("dashboardTabs"));
    m_tabs->setDocumentMode(true);
    m_scalars = new ScalarsView(m_tabs);
    m_images = new ImagesView(m_tabs);
    m_graphsPage = new QWidget(m_tabs);
    m_graphsHint = new QLabel(m_graphsPage);
    m_graphsHint->setWordWrap(true);
    m_graphs = new QTreeWidget(m_graphsPage);
    m_graphs->setObjectName(QStringLiteral("dashboardGraphs"));
    m_graphs->setColumnCount(2);
    m_graphs->setRootIsDecorated(false);
    m_graphs->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* open = new QPushButton(m_graphsPage);
    open->setObjectName(QStringLiteral("openGraph"));
    auto openSelected = [this] {
        if (QTreeWidgetItem* item = m_graphs->currentItem())
            emit openGraphRequested(item->text(0));
    };
    connect(open, &QPushButton::clicked, this, openSelected);
    connect(m_graphs, &QTreeWidget::itemActivated, this, openSelected);
    auto* graphsLayout = new QVBoxLayout(m_graphsPage);
    graphsLayout->addWidget(m_graphsHint);
    graphsLayout->addWidget(m_graphs, 1);
    graphsLayout->addWidget(open, 0, Qt::AlignLeft);
    m_distributions = new DistributionView(m_tabs);
    m_histograms = new HistogramView(m_tabs);
    m_text = new TextView(m_tabs);
    m_audio = new AudioView(m_tabs);
    m_prCurves = new PrCurvesView(m_tabs);
    m_hparams = new HParamsView(m_tabs);
    m_customScalars = new CustomScalarsView(m_tabs);
    m_projector = new ProjectorView(m_tabs);
    for (QWidget* page : std::initializer_list<QWidget*>{m_scalars, m_images, m_graphsPage, m_distributions,
                                                          m_histograms, m_text, m_audio, m_prCurves, m_hparams,
                                                          m_customScalars, m_projector})
        m_tabs->addTab(page, QString());
    // The hparams are read when the tab is shown (and on Reload), not at every poll.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_hparams)
            m_hparams->reload();
    });
    connect(m_hparams, &HParamsView::ready, this, &DashboardView::retranslateUi);
    // A session chosen in the HParams tab: its runs alone in the charts (TensorBoard's table-to-
    // scalars link). The root's own run is named after its folder.
    connect(m_hparams, &HParamsView::sessionActivated, this, [this](const QString& session) {
        const QStringList runs = runsOfSession(session);
        if (runs.isEmpty())
            return;
        m_runs->showOnly(runs);
        showTab(QStringLiteral("scalars"));
    });
    // A session chosen (not yet activated): its runs stand out in every scalar chart.
    connect(m_hparams, &HParamsView::sessionSelected, this,
            [this](const QString& session) { m_scalars->setHighlightedRuns(runsOfSession(session)); });

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_runs);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({230, 1000});
    m_empty = EmptyState::cover(splitter, QStringLiteral("dashboard"));
    m_empty->addButton(m_addAction);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolBar);
    layout->addWidget(splitter, 1);
}

void DashboardView::retranslateUi()
{
    m_followAction->setText(tr("Follow files"));
    m_followAction->setToolTip(tr("Re-read the log directories every 0.4 seconds (pause to freeze the view)"));
    m_addAction->setText(tr("Add Log Directory…"));
    m_addAction->setToolTip(tr("Compare the runs of another log directory in this dashboard"));
    m_reloadAction->setText(tr("Reload"));
    m_reloadAction->setToolTip(tr("Read what is new now (%1)").arg(m_reloadAction->shortcut().toString(QKeySequence::NativeText)));
    m_exportAction->setText(tr("Export Scalars…"));
    m_exportAction->setToolTip(tr("Save every scalar tag of every visible run in one CSV or JSON file"));
    const QStringList names = {tr("Scalars"), tr("Images"),    tr("Graphs"),    tr("Distributions"),
                               tr("Histograms"), tr("Text"), tr("Audio"), tr("PR Curves"), tr("HParams"),
                               tr("Custom Scalars"), tr("Projector")};
    for (int i = 0; i < names.size(); ++i) {
        const int count = tabCount(tabIds()[i]);
        m_tabs->setTabText(i, count > 0 ? QStringLiteral("%1 (%2)").arg(names[i]).arg(count) : names[i]);
    }
    m_graphs->setHeaderLabels({tr("Run"), tr("Run metadata")});
    m_graphsHint->setText(tr("Runs whose event files hold a graph. Open one in the graph viewer to explore it "
                             "and colour it by the compute time and memory of a RunMetadata step."));
    if (auto* open = m_graphsPage->findChild<QPushButton*>(QStringLiteral("openGraph")))
        open->setText(tr("Open in Graph Viewer"));
    updateStatus();
}

void DashboardView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void DashboardView::setLogDirectories(const QStringList& roots)
{
    ++m_generation;
    m_roots = roots;
    std::vector<std::string> paths;
    for (const QString& r : roots)
        paths.push_back(r.toStdString());
    m_feed = std::make_shared<DashboardFeed>(std::move(paths));
    m_hparams->setLogDirectories(roots);
    m_customScalars->setSaveDirectory(roots.isEmpty() ? QString() : roots.front());
    m_projector->setLogDirectories(roots);
    QStringList absolute;
    for (const QString& r : roots)
        absolute << QDir::cleanPath(QDir(r).absolutePath());
    m_runs->setSettingsKey(absolute.join(QLatin1Char('\n')));
    m_firstDataMs = -1;
    m_sinceOpen.start();
    startPoll();
    m_timer->start();
}

void DashboardView::setFollowing(bool following)
{
    m_following = following;
    if (m_followAction->isChecked() != following)
        m_followAction->setChecked(following);
    if (following)
        startPoll();
    updateStatus();
}

void DashboardView::reloadNow()
{
    startPoll();
    m_hparams->reload();
}

void DashboardView::setInterval(int milliseconds)
{
    m_timer->setInterval(std::max(50, milliseconds));
}

bool DashboardView::isPolling() const
{
    return m_inFlight;
}

void DashboardView::startPoll()
{
    if (!m_feed)
        return;
    // In flight until its result has been handed over (not merely computed): setting a new future
    // before the watcher's finished signal is delivered would drop that result.
    if (m_inFlight) {
        m_pollAgain = m_pollAgain || sender() != m_timer;
        return;
    }
    std::shared_ptr<DashboardFeed> feed = m_feed;
    m_inFlight = true;
    m_pollGeneration = m_generation;
    m_watcher->setFuture(runInBackground([feed] { return feed->poll(); }));
}

void DashboardView::applyUpdate(const Expected<FeedUpdate>& result)
{
    ++m_polls;
    m_sincePoll.start();
    if (!result) {
        m_lastError = q(result.error().message());
        updateStatus();
        emit updated();
        pollDone();
        return;
    }
    m_lastError.clear();
    const FeedUpdate& update = *result;
    m_lastPollSeconds = update.seconds;
    // A folder of thousands of damaged event files would flood the console with a line each: the
    // first few say what is wrong, one more line counts the rest.
    constexpr std::size_t kWarningsShown = 20;
    for (std::size_t i = 0; i < update.warnings.size() && i < kWarningsShown; ++i)
        emit message(q(update.warnings[i]));
    if (update.warnings.size() > kWarningsShown)
        emit message(tr("… and %n more warning(s) like these while reading the log directory", nullptr,
                        static_cast<int>(update.warnings.size() - kWarningsShown)));

    QStringList runs;
    m_runFolders.clear();
    for (const RunInfo& r : update.runs) {
        runs << q(r.run);
        m_runFolders[q(r.run)] = q(r.directory);
    }
    removeRuns(update.removed);
    m_runs->addRuns(runs);
    applyStyles();
    m_pending = update;
    m_pendingNext = 0;
    applyPendingTags();
}

void DashboardView::openFirstTabWithData()
{
    // Open on the first tab that has something, as TensorBoard does.
    if (m_openedOnData || tabCount(currentTab()) > 0)
        return;
    for (const QString& id : tabIds())
        if (tabCount(id) > 0) {
            showTab(id);
            m_openedOnData = true;
            return;
        }
}

void DashboardView::pollDone()
{
    m_inFlight = false;
    if (m_pollAgain) {
        m_pollAgain = false;
        startPoll();
    }
}

void DashboardView::applyPendingTags()
{
    if (!m_pending)
        return;
    if (m_pollGeneration != m_generation) { // the directories changed meanwhile: drop the rest
        m_pending.reset();
        m_pollAgain = true;
        pollDone();
        return;
    }
    // 20 ms a turn: creating a card costs about a millisecond, and the frame after it paints them.
    constexpr qint64 kSliceNs = 20'000'000;
    QElapsedTimer slice;
    slice.start();
    const FeedUpdate& update = *m_pending;
    while (m_pendingNext < update.changed.size()) {
        if (m_pendingNext > 0 && slice.nsecsElapsed() > kSliceNs) {
            // The first tab with data shows now, so that the cards still to come are added to a
            // shown tab a slice at a time instead of being laid out and painted all at once.
            openFirstTabWithData();
            QTimer::singleShot(1, this, &DashboardView::applyPendingTags); // 1 ms: see RedrawQueue
            return;
        }
        const TagData& d = update.changed[m_pendingNext++];
        const QString run = q(d.run), tag = q(d.tag);
        QString tab;
        switch (d.kind) {
        case events::TagKind::kScalar:
            m_scalars->setScalars(run, tag, d.scalars);
            m_customScalars->setScalars(run, tag, d.scalars);
            tab = QStringLiteral("scalars");
            break;
        case events::TagKind::kHistogram:
            m_histograms->setHistograms(run, tag, d.histograms);
            m_distributions->setHistograms(run, tag, d.histograms);
            tab = QStringLiteral("histograms");
            break;
        case events::TagKind::kImage:
            m_images->setImages(run, tag, d.values);
            tab = QStringLiteral("images");
            break;
        case events::TagKind::kAudio:
            m_audio->setAudio(run, tag, d.values);
            tab = QStringLiteral("audio");
            break;
        case events::TagKind::kText:
            m_text->setText(run, tag, d.values);
            tab = QStringLiteral("text");
            break;
        case events::TagKind::kTensor:
            if (d.plugin == "pr_curves") {
                m_prCurves->setCurves(run, tag, d.values);
                tab = QStringLiteral("pr_curves");
            } else if (d.plugin == events::kCustomScalarsPlugin && d.tag == events::kCustomScalarsTag) {
                m_customScalars->setLayoutSamples(run, d.values);
                m_customScalars->refresh(); // the tab's count is the layout's charts
            }
            break; // other plugins' tensors: not a view of this dashboard
        }
        if (!tab.isEmpty())
            m_tagsSeen.insert({tab, tag});
    }
    updateGraphs(update.runs);
    if (m_firstDataMs < 0 && !update.changed.empty()) {
        m_firstDataMs = static_cast<double>(m_sinceOpen.nsecsElapsed()) / 1e6;
        openFirstTabWithData();
    }
    retranslateUi();
    m_pending.reset();
    emit updated();
    pollDone();
}

bool DashboardView::exportVisibleScalars(const QString& file, QString* error) const
{
    std::vector<ScalarChart::Samples> held; // keeps the samples the series point into alive
    std::vector<dashboard::RunTagScalars> series;
    const QStringList tags = m_scalars->tags();
    for (const RunStyle& style : m_runs->styles()) {
        if (!style.visible)
            continue;
        for (const QString& tag : tags) {
            ScalarChart* chart = m_scalars->chart(tag);
            ScalarChart::Samples samples = chart ? chart->samples(style.run) : nullptr;
            if (!samples || samples->empty())
                continue;
            held.push_back(samples);
            series.push_back({style.run.toStdString(), tag.toStdString(), std::span(*samples)});
        }
    }
    if (series.empty()) {
        if (error)
            *error = tr("No visible run has scalars.");
        return false;
    }
    const std::string text = file.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)
                                 ? dashboard::allScalarsJson(series)
                                 : dashboard::allScalarsCsv(series);
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !out.commit()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

void DashboardView::removeRuns(const std::vector<std::string>& runs)
{
    for (const std::string& name : runs) {
        const QString run = q(name);
        m_runs->removeRun(run);
        m_scalars->removeRun(run);
        m_customScalars->removeRun(run);
        for (RunCardsView* view : {static_cast<RunCardsView*>(m_images), static_cast<RunCardsView*>(m_text),
                                   static_cast<RunCardsView*>(m_audio), static_cast<RunCardsView*>(m_prCurves)})
            view->removeRun(run);
        for (const auto& [tab, tag] : m_tagsSeen)
            if (tab == QLatin1String("histograms")) {
                m_histograms->setHistograms(run, tag, {});
                m_distributions->setHistograms(run, tag, {});
            }
        for (QTreeWidgetItem* item : m_graphs->findItems(run, Qt::MatchExactly, 0))
            delete item;
        emit message(tr("Run %1: its event files are gone; it left the dashboard").arg(run));
    }
}

bool DashboardView::deleteRunFolder(const QString& run, bool toTrash, QString* error)
{
    auto fail = [&](const QString& text) {
        if (error)
            *error = text;
        return false;
    };
    const auto it = m_runFolders.find(run);
    if (it == m_runFolders.end())
        return fail(tr("There is no run %1").arg(run));
    std::vector<std::filesystem::path> folders;
    for (const auto& [name, folder] : m_runFolders)
        folders.emplace_back(folder.toStdString());
    Expected<RunRemoval> plan = planRunRemoval(it->second.toStdString(), folders);
    if (!plan)
        return fail(q(plan.error().message()));
    const Status status = toTrash ? moveRunToTrash(*plan) : deleteRunPermanently(*plan);
    reloadNow(); // whatever went, the poll sees it
    if (!status.isOk())
        return fail(q(status.message()));
    return true;
}

void DashboardView::confirmDeleteRun(const QString& run)
{
    const auto it = m_runFolders.find(run);
    if (it == m_runFolders.end())
        return;
    std::vector<std::filesystem::path> folders;
    for (const auto& [name, folder] : m_runFolders)
        folders.emplace_back(folder.toStdString());
    Expected<RunRemoval> plan = planRunRemoval(it->second.toStdString(), folders);
    const QString title = tr("Delete Run Folder");
    if (!plan) {
        QMessageBox::warning(this, title, q(plan.error().message()));
        return;
    }
    const QString folder = q(plan->folder.string());
    const QString what =
        plan->wholeFolder
            ? tr("The folder %1 and everything in it (event files, checkpoints, exports) will be moved to the trash.")
                  .arg(folder)
            : tr("Other runs lie in folders below %1: only the %n file(s) directly in it will be moved to the "
                 "trash; those runs stay.",
                 nullptr, static_cast<int>(plan->paths.size()))
                  .arg(folder);
    QMessageBox ask(QMessageBox::Warning, title, tr("Delete the folder of run %1?").arg(run),
                    QMessageBox::Cancel, this);
    ask.setInformativeText(what);
    QPushButton* trash = ask.addButton(tr("Move to Trash"), QMessageBox::DestructiveRole);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    if (ask.clickedButton() != trash)
        return;
    QString error;
    if (deleteRunFolder(run, true, &error)) {
        emit message(tr("Moved the folder of run %1 to the trash: %2").arg(run, folder));
        return;
    }
    // No trash here (or not for that file system): deleting for good is a second, explicit choice.
    const auto answer = QMessageBox::question(
        this, title, tr("%1\n\nDelete what is left of run %2 permanently? This cannot be undone.").arg(error, run),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return;
    if (deleteRunFolder(run, false, &error))
        emit message(tr("Deleted the folder of run %1 permanently: %2").arg(run, folder));
    else
        QMessageBox::warning(this, title, error);
}

void DashboardView::applyStyles()
{
    const QVector<RunStyle> styles = m_runs->styles();
    m_scalars->setRuns(styles);
    m_histograms->setRuns(styles);
    m_distributions->setRuns(styles);
    m_images->setRuns(styles);
    m_text->setRuns(styles);
    m_prCurves->setRuns(styles);
    m_customScalars->setRuns(styles);
    m_audio->setRuns(styles);
}

void DashboardView::updateGraphs(const std::vector<RunInfo>& runs)
{
    for (const RunInfo& r : runs) {
        if (!r.hasGraph && r.runMetadataTags.empty())
            continue;
        const QString run = q(r.run);
        QList<QTreeWidgetItem*> found = m_graphs->findItems(run, Qt::MatchExactly, 0);
        QTreeWidgetItem* item = found.isEmpty() ? new QTreeWidgetItem(m_graphs) : found.front();
        item->setText(0, run);
        item->setData(0, kPathRole, q(r.directory));
        item->setToolTip(0, q(r.directory));
        QStringList tags;
        for (const std::string& t : r.runMetadataTags)
            tags << q(t);
        item->setText(1, tags.isEmpty() ? QString() : tags.join(QStringLiteral(", ")));
    }
    if (!m_graphs->currentItem() && m_graphs->topLevelItemCount() > 0)
        m_graphs->setCurrentItem(m_graphs->topLevelItem(0));
}

Expected<std::optional<RunGraph>> DashboardView::runGraph(const QString& run) const
{
    if (!m_feed)
        return std::optional<RunGraph>();
    return m_feed->runGraph(run.toStdString());
}

int DashboardView::tabCount(const QString& id) const
{
    if (id == QLatin1String("graphs"))
        return m_graphs->topLevelItemCount();
    if (id == QLatin1String("hparams"))
        return m_hparams->sessionCount();
    if (id == QLatin1String("projector"))
        return static_cast<int>(m_projector->embeddings().size());
    if (id == QLatin1String("custom_scalars")) {
        int charts = 0;
        for (const events::CustomCategory& c : m_customScalars->layout().categories)
            charts += static_cast<int>(c.charts.size());
        return charts;
    }
    // Distributions show the histogram tags.
    const QString tab = id == QLatin1String("distributions") ? QStringLiteral("histograms") : id;
    return static_cast<int>(std::count_if(m_tagsSeen.begin(), m_tagsSeen.end(),
                                          [&](const auto& seen) { return seen.first == tab; }));
}

void DashboardView::updateStatus()
{
    QString text;
    if (!m_lastError.isEmpty())
        text = tr("Cannot read: %1").arg(m_lastError);
    else if (m_polls == 0)
        text = m_roots.isEmpty() ? QString() : tr("Reading %1…").arg(m_roots.join(QStringLiteral(", ")));
    else
        text = tr("%1 · %n run(s)", nullptr, static_cast<int>(m_runs->runs().size()))
                   .arg(m_roots.join(QStringLiteral(", "))) +
               QStringLiteral(" · ") +
               (m_following ? tr("following (read in %1 ms)").arg(m_lastPollSeconds * 1000.0, 0, 'f', 0)
                            : tr("paused"));
    m_status->setText(text);
    m_empty->setVisible(m_lastError.isEmpty() && m_runs->runs().empty() && (m_polls > 0 || m_roots.isEmpty()));
    m_empty->setTitle(tr("No runs yet"));
    m_empty->setText(m_roots.isEmpty()
                         ? tr("Add a log directory to compare its runs here, or train a project: the dashboard follows "
                              "its run from the first step.")
                         : tr("Nothing in %1 holds events yet. Runs appear here as soon as training writes event files "
                              "there: start one from the Training panel, or add another log directory.")
                               .arg(m_roots.join(QStringLiteral(", "))));
    m_status->setStyleSheet(m_lastError.isEmpty() ? QString() : QStringLiteral("color: #c62828;"));
}

QStringList DashboardView::runsOfSession(const QString& session) const
{
    QString name = session;
    if (name == QLatin1String(".") && m_roots.size() == 1)
        name = QDir(m_roots.front()).dirName();
    QStringList runs;
    if (name.isEmpty())
        return runs;
    for (const QString& run : m_runs->runs())
        if (run == name || run.startsWith(name + QLatin1Char('/')))
            runs << run;
    return runs;
}

void DashboardView::showTab(const QString& id)
{
    const int index = static_cast<int>(tabIds().indexOf(id));
    if (index >= 0)
        m_tabs->setCurrentIndex(index);
}

QString DashboardView::currentTab() const
{
    return tabIds().value(m_tabs->currentIndex());
}

} // namespace tstudio::dashboard
