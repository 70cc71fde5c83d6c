// MainWindow: menus, docks, document tabs and asynchronous file opening.
#include "main_window.h"

#include "common/background_run.h"
#include "desktop_recent_files.h"

#include "about_dialog.h"
#include "example_gallery.h"
#include "export_dialog.h"
#include "gpu_status_text.h"
#include "guarded_application.h"
#include "help_browser.h"
#include "language_manager.h"
#include "settings_dialog.h"
#include "shortcuts_dialog.h"
#include "start_page.h"

#include "common/file_kind_text.h"
#include "console/engine_log_bridge.h"
#include "console/log_model.h"
#include "console/log_panel.h"
#include "dashboard/dashboard_view.h"
#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "document/file_summary_view.h"
#include "graph/graph_file.h"
#include "graph_viewer/checkpoint_variables_view.h"
#include "graph_viewer/graph_viewer.h"
#include "node_editor/node_editor.h"
#include "profiler/profiler_view.h"
#include "profiler/run_stats_from_trace.h"
#include "records/record_viewer.h"
#include "training/training_panel.h"
#include "io/file_kind_detector.h"
#include "io/formats/formats.h"
#include "registries/default_registries.h"

#include <QAction>
#include <QPointer>
#include <filesystem>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>

#include <algorithm>
#include <iterator>

namespace tstudio {
namespace {
constexpr int kLayoutVersion = 1;
const char* kPathProperty = "tstudioPath";

/// The platform's bindings of `key`, or `fallback` where it has none.
QList<QKeySequence> standardOr(QKeySequence::StandardKey key, const QKeySequence& fallback)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    if (keys.isEmpty())
        keys.append(fallback);
    return keys;
}

void logApp(LogSeverity severity, const QString& message)
{
    logMessage(severity, "app", message.toStdString());
}
} // namespace

MainWindow::MainWindow(AppSettings* settings, LanguageManager* languages, QWidget* parent)
    : QMainWindow(parent),
      m_settings(settings),
      m_languages(languages),
      m_logModel(new LogModel(10000, this)),
      m_central(new QStackedWidget(this)),
      m_startPage(new StartPage(settings, this)),
      m_documents(new QTabWidget(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    if (auto registries = makeDefaultRegistries())
        m_registries = std::move(*registries);
    else
        logApp(LogSeverity::kError, tr("The op registry could not be built: %1").arg(QString::fromStdString(registries.error().message())));
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks | GroupedDragging);
    m_logBridge = new EngineLogBridge(m_logModel, this);

    m_documents->setObjectName(QStringLiteral("documents"));
    m_documents->setDocumentMode(true);
    m_documents->setTabsClosable(true);
    m_documents->setMovable(true);
    m_central->addWidget(m_startPage);
    m_central->addWidget(m_documents);
    setCentralWidget(m_central);
    connect(m_documents, &QTabWidget::tabCloseRequested, this, &MainWindow::closeDocument);
    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::openFileDialog);
    connect(m_startPage, &StartPage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_startPage, &StartPage::newGraphRequested, this, &MainWindow::newGraph);
    connect(m_startPage, &StartPage::openProjectRequested, this, [this] {
        // The same types as Open File, the projects' own filter chosen.
        const QStringList filters = fileKindDialogFilters();
        QString chosen = filters.value(0);
        for (const QString& filter : filters.mid(1))
            if (filter.contains(QStringLiteral("*.tsproj")))
                chosen = filter;
        const QString file = QFileDialog::getOpenFileName(this, tr("Open Project"), QString(),
                                                          filters.join(QStringLiteral(";;")), &chosen);
        if (!file.isEmpty())
            openPath(file);
    });
    connect(m_startPage, &StartPage::openExampleRequested, this, &MainWindow::openExampleProject);
    connect(m_startPage, &StartPage::trainExampleRequested, this, [this](const QString& id, const QString& folder) {
        const QString problem = trainExample(id, folder);
        m_startPage->showExampleMessage(id, problem);
    });
    connect(m_startPage, &StartPage::backToDocumentsRequested, this, &MainWindow::updateCentralPage);
    connect(m_startPage, &StartPage::openPathRequested, this, &MainWindow::openPath);

    m_deviceLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_deviceLabel);

    // The guide answers the "help:<page>" links of the panels' empty states (common/empty_state.h);
    // its window, and the reading of its pages, wait for the first link, Help ▸ Guide or F1.
    QDesktopServices::setUrlHandler(QStringLiteral("help"), this, "openHelpUrl");
    createActions();
    createMenus();
    createPanels();
    m_defaultState = saveState(kLayoutVersion);
    retranslateUi();
    updateRecentMenu();
    updateCentralPage();
    resize(1280, 800);
}

MainWindow::~MainWindow()
{
    QDesktopServices::unsetUrlHandler(QStringLiteral("help"));
    // A training run reads the registries on its worker: stop it (the panel waits for it) first.
    delete m_trainingPanel;
    m_trainingPanel = nullptr;
    // Document views may have workers reading the registries: they go first, while the registries live
    // (child widgets would otherwise be deleted by ~QWidget, after the members).
    while (m_documents->count() > 0) {
        QWidget* page = m_documents->widget(0);
        m_documents->removeTab(0);
        delete page;
    }
}

void MainWindow::createActions()
{
    m_newGraphAction = new QAction(this);
    m_newGraphAction->setShortcut(QKeySequence::New);
    connect(m_newGraphAction, &QAction::triggered, this, &MainWindow::newGraph);
    m_saveAction = new QAction(this);
    m_saveAction->setObjectName(QStringLiteral("saveAction"));
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::saveCurrent);
    m_saveAsAction = new QAction(this);
    m_saveAsAction->setObjectName(QStringLiteral("saveAsAction"));
    // The platform's keys, or the common ones where the platform has none (X11 without a desktop
    // environment gives none for Save As, Quit and Preferences).
    m_saveAsAction->setShortcuts(standardOr(QKeySequence::SaveAs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveCurrentAs);
    m_exportAction = new QAction(this);
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setEnabled(false);
    connect(m_exportAction, &QAction::triggered, this, [this] {
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
        if (!editor)
            return;
        auto project = editor->trainingProject();
        if (!project) {
            QMessageBox::warning(this, tr("Export"), tr("This graph cannot be exported as a project: %1")
                                                         .arg(QString::fromStdString(project.error().message())));
            return;
        }
        ExportDialog dialog(m_registries.get(), std::move(*project), this);
        connect(&dialog, &ExportDialog::exported, this, [](const QString& savedModel, const QString& frozen) {
            QStringList written{savedModel, frozen};
            written.removeAll(QString());
            logApp(LogSeverity::kInfo, tr("Exported %1").arg(written.join(QStringLiteral(", "))));
        });
        dialog.exec();
    });
    m_openAction = new QAction(this);
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openFileDialog);
    m_openFolderAction = new QAction(this);
    m_openFolderAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(m_openFolderAction, &QAction::triggered, this, &MainWindow::openFolderDialog);
    m_openTraceAction = new QAction(this);
    connect(m_openTraceAction, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Open Profile Trace"), QString(),
            tr("Traces (*.json *.json.gz *.pb *tfevents*);;Chrome trace (*.json *.json.gz);;RunMetadata (*.pb);;All files (*)"));
        if (!file.isEmpty())
            openProfiler(QFileInfo(file).absoluteFilePath());
    });
    m_welcomeAction = new QAction(this);
    m_welcomeAction->setObjectName(QStringLiteral("welcomeAction"));
    connect(m_welcomeAction, &QAction::triggered, this, &MainWindow::showWelcome);
    m_closeTabAction = new QAction(this);
    m_closeTabAction->setShortcut(QKeySequence::Close);
    connect(m_closeTabAction, &QAction::triggered, this, [this] {
        if (m_documents->currentIndex() >= 0)
            closeDocument(m_documents->currentIndex());
    });
    m_clearRecentAction = new QAction(this);
    connect(m_clearRecentAction, &QAction::triggered, this, [this] {
        m_settings->clearRecentFiles();
        updateRecentMenu();
    });
    m_quitAction = new QAction(this);
    m_quitAction->setShortcuts(standardOr(QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q)));
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
    m_resetLayoutAction = new QAction(this);
    connect(m_resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);
    m_settingsAction = new QAction(this);
    m_settingsAction->setShortcuts(standardOr(QKeySequence::Preferences, QKeySequence(Qt::CTRL | Qt::Key_Comma)));
    m_settingsAction->setMenuRole(QAction::PreferencesRole);
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::showSettingsDialog);
    m_aboutAction = new QAction(this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAboutDialog);
    m_aboutQtAction = new QAction(this);
    m_aboutQtAction->setMenuRole(QAction::AboutQtRole);
    connect(m_aboutQtAction, &QAction::triggered, qApp, &QApplication::aboutQt);
    m_guideAction = new QAction(this);
    m_guideAction->setObjectName(QStringLiteral("guideAction"));
    m_guideAction->setShortcut(QKeySequence::HelpContents);
    connect(m_guideAction, &QAction::triggered, this, [this] { showGuide(); });
    m_shortcutsAction = new QAction(this);
    m_shortcutsAction->setObjectName(QStringLiteral("shortcutsAction"));
    connect(m_shortcutsAction, &QAction::triggered, this, &MainWindow::showShortcuts);
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->setObjectName(QStringLiteral("fileMenu"));
    m_fileMenu->addAction(m_newGraphAction);
    m_fileMenu->addAction(m_openAction);
    m_fileMenu->addAction(m_openFolderAction);
    m_fileMenu->addAction(m_openTraceAction);
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    m_examplesMenu = m_fileMenu->addMenu(QString());
    m_examplesMenu->setObjectName(QStringLiteral("examplesMenu"));
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_saveAction);
    m_fileMenu->addAction(m_saveAsAction);
    m_fileMenu->addAction(m_exportAction);
    m_fileMenu->addAction(m_closeTabAction);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);

    m_editMenu = menuBar()->addMenu(QString());
    m_editMenu->setObjectName(QStringLiteral("editMenu"));
    connect(m_documents, &QTabWidget::currentChanged, this, &MainWindow::updateEditMenu);
    connect(m_documents, &QTabWidget::currentChanged, this, [this](int index) {
        m_exportAction->setEnabled(qobject_cast<node_editor::NodeEditor*>(m_documents->widget(index)) != nullptr);
    });
    connect(m_documents, &QTabWidget::currentChanged, this, [this](int index) {
        if (auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(index)))
            bindTrainingPanel(editor);
    });
    m_viewMenu = menuBar()->addMenu(QString());
    m_viewMenu->setObjectName(QStringLiteral("viewMenu"));
    m_panelsMenu = m_viewMenu->addMenu(QString());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);

    m_toolsMenu = menuBar()->addMenu(QString());
    m_toolsMenu->setObjectName(QStringLiteral("toolsMenu"));
    m_toolsMenu->addAction(m_settingsAction);

    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->setObjectName(QStringLiteral("helpMenu"));
    m_helpMenu->addAction(m_welcomeAction);
    m_helpMenu->addAction(m_guideAction);
    m_helpMenu->addAction(m_shortcutsAction);
    m_helpMenu->addSeparator();
    m_helpMenu->addAction(m_aboutAction);
    m_helpMenu->addAction(m_aboutQtAction);
}

QDockWidget* MainWindow::addPanel(const QString& name, QWidget* content, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(this);
    dock->setObjectName(QStringLiteral("panel.%1").arg(name));  // the key saveState() uses
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    addDockWidget(area, dock);
    m_panels.insert(name, dock);
    m_panelsMenu->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createPanels()
{
    m_logPanel = new LogPanel(m_logModel, this);
    QDockWidget* console = addPanel(QStringLiteral("console"), m_logPanel, Qt::BottomDockWidgetArea);
    console->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_QuoteLeft));
    m_trainingPanel = new training_panel::TrainingPanel(m_registries.get(), this);
    QDockWidget* training = addPanel(QStringLiteral("training"), m_trainingPanel, Qt::BottomDockWidgetArea);
    tabifyDockWidget(console, training);
    console->raise();
    connect(m_trainingPanel, &training_panel::TrainingPanel::message, this,
            [](const QString& text) { logApp(LogSeverity::kInfo, text); });
    // A distributed run's output, every rank's, under its rank's name in the console.
    connect(m_trainingPanel, &training_panel::TrainingPanel::processOutput, this,
            [](const QString& source, const QString& text, bool error) {
                logMessage(error ? LogSeverity::kWarning : LogSeverity::kInfo, source.toStdString(),
                           text.toStdString());
            });
    connect(m_trainingPanel, &training_panel::TrainingPanel::runFinished, this, [this](bool ok, const QString& text) {
        if (ok)
            return;
        logApp(LogSeverity::kError, tr("Training failed: %1").arg(text));
        showPanel(QStringLiteral("training"));
    });
    connect(m_trainingPanel, &training_panel::TrainingPanel::runStarted, this,
            [this](const QString& logdir) {
                // Under the debugger the Debugger tab stays in front; the dashboard follows behind it.
                openDashboard({logdir}, !m_trainingPanel->isDebugging());
            });
    connect(m_trainingPanel, &training_panel::TrainingPanel::profiled, this, &MainWindow::showProfile);
    connect(m_trainingPanel, &training_panel::TrainingPanel::debugging, this, &MainWindow::showDebugging);
    connect(m_trainingPanel, &training_panel::TrainingPanel::showNodeRequested, this, [this](const QString& name) {
        for (int i = 0; i < m_documents->count(); ++i) {
            auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(i));
            if (editor && editor->showNode(name)) {
                m_documents->setCurrentIndex(i);
                return;
            }
        }
    });
    // The console starts short (its filter row and a few lines), so that the welcome page, what a newcomer
    // reads first, gets the room; it comes forward by itself when there is something to read: an error.
    resizeDocks({console}, {fontMetrics().height() * 8}, Qt::Vertical);
    connect(m_logModel, &QAbstractItemModel::rowsInserted, this, [this, console, training](const QModelIndex&, int first, int last) {
        bool error = false;
        for (int row = first; row <= last && !error; ++row)
            error = m_logModel->index(row, 0).data(LogModel::kSeverityRole).toInt() >= static_cast<int>(LogSeverity::kError);
        if (!error)
            return;
        // Shown (when closed) and raised, except over the Training panel in front of the console's own tab
        // group: it shows its run's failure with the remedy, which the console line repeats.
        if (console->toggleViewAction()->isChecked() && training->isVisible() && tabifiedDockWidgets(training).contains(console))
            return;
        showPanel(QStringLiteral("console"));
    });
}

void MainWindow::openDashboard(const QStringList& roots, bool inFront)
{
    QWidget* front = m_documents->currentWidget();
    for (int i = 0; i < m_documents->count(); ++i) {
        auto* existing = qobject_cast<dashboard::DashboardView*>(m_documents->widget(i));
        if (!existing)
            continue;
        for (const QString& followed : existing->logDirectories())
            for (const QString& root : roots)
                if (QDir(followed) == QDir(root) || QDir::cleanPath(root).startsWith(QDir::cleanPath(followed) + QLatin1Char('/'))) {
                    if (inFront)
                        m_documents->setCurrentIndex(i);
                    existing->reloadNow();
                    return;
                }
    }
    auto* view = new dashboard::DashboardView(m_documents);
    const QString first = roots.value(0);
    addDocument(view, first);
    const QString followed = QFileInfo(first).fileName();
    setTabTitle(view, [followed] { return tr("%1 (dashboard)").arg(followed); });
    connect(view, &dashboard::DashboardView::openGraphRequested, this, [this, view](const QString& run) {
        // The feed already holds the run's graph and run metadata: no event file is read again.
        auto graph = view->runGraph(run);
        if (!graph) {
            logApp(LogSeverity::kError, tr("Cannot show the graph of run %1: %2").arg(run, QString::fromStdString(graph.error().message())));
            return;
        }
        if (!*graph) {
            statusBar()->showMessage(tr("Run %1 has no graph yet").arg(run), 10000);
            return;
        }
        auto* viewer = new graph_viewer::GraphViewer(m_registries.get(), m_documents);
        const QString title = tr("%1 (graph of run)").arg(run);
        const int index = m_documents->addTab(viewer, title);
        setTabTitle(viewer, [run] { return tr("%1 (graph of run)").arg(run); });
        m_documents->setCurrentIndex(index);
        connect(viewer, &graph_viewer::GraphViewer::editRequested, this, &MainWindow::openGraphInEditor);
        connect(viewer, &graph_viewer::GraphViewer::showInTimelineRequested, this, &MainWindow::showNodeInProfiler);
        viewer->showGraph(std::move(*(*graph)->graph), title, std::move((*graph)->runMetadata));
        updateCentralPage();
        updateTimelineLinks();
    });
    connect(view, &dashboard::DashboardView::message, this, [](const QString& text) { logApp(LogSeverity::kWarning, text); });
    view->setLogDirectories(roots);
    if (!inFront && front)
        m_documents->setCurrentWidget(front);
    statusBar()->showMessage(tr("Following %1").arg(roots.join(QStringLiteral(", "))), 10000);
}

void MainWindow::bindTrainingPanel(node_editor::NodeEditor* editor)
{
    if (!m_trainingPanel || !editor)
        return;
    QPointer<node_editor::NodeEditor> guard(editor);
    m_trainingEditor = editor;
    // F9 in the editor reaches the Debugger tab only when the tab debugs this editor's document.
    disconnect(editor, &node_editor::NodeEditor::breakpointsEdited, this, nullptr);
    connect(editor, &node_editor::NodeEditor::breakpointsEdited, this, [this, guard] {
        if (guard && m_debugging && m_debugging->document() == guard.data() && guard->project())
            m_debugging->setSettings(guard->project()->debugger);
    });
    const int index = m_documents->indexOf(editor);
    const QString title = index >= 0 ? m_documents->tabText(index).remove(QStringLiteral(" *")) : tr("Untitled graph");
    m_trainingPanel->setProjectSource(
        [guard]() -> Expected<project::Project> {
            if (!guard)
                return unexpected(failedPreconditionError("the graph's tab was closed"));
            return guard->trainingProject();
        },
        title, editor,
        // The form's edits go into the document's project: what Ctrl+S saves is what the panel trains.
        [guard](const std::function<void(project::Project&)>& edit) {
            if (guard)
                guard->editProjectSettings(edit);
        });
}

bool MainWindow::showPanel(const QString& name)
{
    QDockWidget* dock = m_panels.value(name);
    if (!dock)
        return false;
    dock->show();
    dock->raise();
    // A bottom dock shown for its content gets the height that content needs (within half the
    // window), so that the Training panel's buttons are not scrolled off: the console's default
    // 220 px is too short for it, in Chinese more so.
    if (dockWidgetArea(dock) == Qt::BottomDockWidgetArea && dock->widget() != nullptr && !dock->isFloating()) {
        const int needed = dock->widget()->sizeHint().height() + (dock->height() - dock->widget()->height());
        if (dock->height() < needed)
            resizeDocks({dock}, {std::min(needed, height() / 2)}, Qt::Vertical);
    }
    return true;
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("TensorStudio"));
    m_fileMenu->setTitle(tr("&File"));
    m_newGraphAction->setText(tr("&New Graph"));
    m_newGraphAction->setStatusTip(tr("Compose a new graph in the node editor"));
    m_saveAction->setText(tr("&Save"));
    m_saveAction->setStatusTip(tr("Save the node editor's graph to its file, in the same kind"));
    m_saveAsAction->setText(tr("Save Graph &As…"));
    m_saveAsAction->setStatusTip(tr("Save the node editor's graph as .pbtxt, .pb, .meta or a .tsproj project"));
    m_exportAction->setText(tr("&Export…"));
    m_exportAction->setStatusTip(tr("Export the trained project as a SavedModel and/or a frozen graph for inference"));
    m_openAction->setText(tr("&Open File…"));
    m_openAction->setStatusTip(tr("Open a graph, MetaGraph, checkpoint, event file or TFRecord"));
    m_openFolderAction->setText(tr("Open &Folder…"));
    m_openFolderAction->setStatusTip(tr("Open a SavedModel, checkpoint directory or log directory"));
    m_openTraceAction->setText(tr("Open Profile &Trace…"));
    m_openTraceAction->setStatusTip(
        tr("Open a Chrome trace (TensorFlow timeline), a RunMetadata .pb or an event file's run metadata in the profiler"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_clearRecentAction->setText(tr("&Clear Recent Files"));
    m_examplesMenu->setTitle(tr("Open &Example"));
    m_welcomeAction->setText(tr("&Welcome"));
    m_welcomeAction->setStatusTip(tr("Show the welcome page: start actions, recent files and the example gallery"));
    updateExamplesMenu();
    m_closeTabAction->setText(tr("&Close Tab"));
    m_quitAction->setText(tr("&Quit"));
    m_editMenu->setTitle(tr("&Edit"));
    updateEditMenu();
    m_viewMenu->setTitle(tr("&View"));
    m_panelsMenu->setTitle(tr("&Panels"));
    m_resetLayoutAction->setText(tr("&Reset Layout"));
    m_toolsMenu->setTitle(tr("&Tools"));
    m_settingsAction->setText(tr("&Settings…"));
    m_helpMenu->setTitle(tr("&Help"));
    m_aboutAction->setText(tr("&About TensorStudio"));
    m_aboutQtAction->setText(tr("About &Qt"));
    m_guideAction->setText(tr("&Guide"));
    m_guideAction->setStatusTip(tr("Open the guide: the five-minute first network and a page for each panel"));
    m_shortcutsAction->setText(tr("&Keyboard Shortcuts"));
    m_shortcutsAction->setStatusTip(tr("List every keyboard shortcut and canvas gesture"));
    if (QDockWidget* console = m_panels.value(QStringLiteral("console")))
        console->setWindowTitle(tr("Console"));
    if (QDockWidget* training = m_panels.value(QStringLiteral("training")))
        training->setWindowTitle(tr("Training"));
    m_deviceLabel->setText(tr("Default device: %1").arg(m_settings->defaultDevice()));
    retranslateTabTitles();
    {
        const GpuProbeReport gpus = probeGpus();
        const QString details = gpuDetails(gpus);
        m_deviceLabel->setToolTip(details.isEmpty() ? gpuHeadline(gpus) : gpuHeadline(gpus) + QStringLiteral("\n") + details);
    }
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    int number = 1;
    for (const QString& file : files) {
        QAction* action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(number++ % 10).arg(file));
        connect(action, &QAction::triggered, this, [this, file] { openPath(file); });
    }
    if (files.isEmpty()) {
        QAction* none = m_recentMenu->addAction(tr("No recent files"));
        none->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(m_clearRecentAction);
    }
    m_startPage->refresh();
}

void MainWindow::updateCentralPage()
{
    m_central->setCurrentWidget(m_documents->count() > 0 ? static_cast<QWidget*>(m_documents) : m_startPage);
    m_startPage->setDocumentsOpen(false); // shown over open documents only by Help > Welcome
    m_closeTabAction->setEnabled(m_documents->count() > 0);
}

void MainWindow::openFileDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open File"), QString(),
                                                            fileKindDialogFilters().join(QStringLiteral(";;")));
    openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Folder"));
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::updateExamplesMenu()
{
    m_examplesMenu->clear();
    const QList<GalleryExample> examples = availableExamples();
    for (const GalleryExample& e : examples) {
        QAction* action = m_examplesMenu->addAction(e.title);
        action->setObjectName(QStringLiteral("openExample.%1").arg(e.id));
        action->setStatusTip(e.description);
        connect(action, &QAction::triggered, this, [this, id = e.id] { openExampleProject(id); });
    }
    if (examples.isEmpty()) {
        QAction* none = m_examplesMenu->addAction(tr("No example projects found (set TSTUDIO_EXAMPLES_DIR)"));
        none->setEnabled(false);
    }
}

void MainWindow::showWelcome()
{
    m_startPage->refresh();
    m_central->setCurrentWidget(m_startPage);
    m_startPage->setDocumentsOpen(m_documents->count() > 0);
}

bool MainWindow::openExample()
{
    if (!openExampleProject(QStringLiteral("spirals")))
        return false;
    statusBar()->showMessage(tr("The spirals example: press F5 to train it (the Training panel shows Start)"), 30000);
    return true;
}

bool MainWindow::openExampleProject(const QString& id)
{
    const std::optional<GalleryExample> example = findGalleryExample(id);
    const QString path = example ? exampleProjectPath(*example) : QString();
    if (path.isEmpty()) {
        logApp(LogSeverity::kError, tr("The example %1 was not found in the examples folder (%2); set TSTUDIO_EXAMPLES_DIR to "
                                       "the folder that holds the .tsproj files.")
                                        .arg(id, examplesDirectory().isEmpty() ? tr("none found") : examplesDirectory()));
        return false;
    }
    for (int i = 0; i < m_documents->count(); ++i)
        if (m_documents->widget(i)->property(kPathProperty).toString() == path) {
            m_documents->setCurrentIndex(i);
            updateCentralPage();
            return true;
        }
    if (!openInEditor(path))
        return false;
    rememberRecentFile(path);
    updateRecentMenu();
    return true;
}

QString MainWindow::trainExample(const QString& id, const QString& dataFolder)
{
    const std::optional<GalleryExample> example = findGalleryExample(id);
    if (!example)
        return tr("There is no example called %1.").arg(id);
    if (m_trainingPanel->isRunning())
        return tr("A training run is going on: stop it in the Training panel first.");
    const auto launch = prepareExampleLaunch(*example, dataFolder);
    if (!launch)
        return launch.error();
    // Opened as any project is (an open tab is reused), then trained with the panel's own Start.
    node_editor::NodeEditor* editor = nullptr;
    for (int i = 0; i < m_documents->count() && !editor; ++i)
        if (m_documents->widget(i)->property(kPathProperty).toString() == launch->projectPath)
            editor = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(i));
    if (editor) {
        m_documents->setCurrentWidget(editor);
        updateCentralPage();
    } else {
        if (!openInEditor(launch->projectPath))
            return tr("%1 could not be opened; the Console says why.").arg(example->fileName);
        rememberRecentFile(launch->projectPath);
        updateRecentMenu();
        editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    }
    bindTrainingPanel(editor);
    m_trainingPanel->logDirectoryEdit()->setText(freshExampleLogDirectory(m_trainingPanel->logDirectoryEdit()->text(), id));
    if (!launch->panelDataFolder.isEmpty())
        m_trainingPanel->dataFolderEdit()->setText(launch->panelDataFolder);
    showPanel(QStringLiteral("training"));
    if (!m_trainingPanel->start())
        return m_trainingPanel->statusText();
    return {};
}

void MainWindow::openPaths(const QStringList& paths)
{
    for (const QString& path : paths)
        openPath(path);
}

void MainWindow::openPath(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    GuardedApplication::noteCurrentFile(absolute);
    for (int i = 0; i < m_documents->count(); ++i) {
        if (m_documents->widget(i)->property(kPathProperty).toString() == absolute) {
            m_documents->setCurrentIndex(i);
            emit pathOpened(absolute, true);
            return;
        }
    }
    ++m_pendingOpens;
    statusBar()->showMessage(tr("Opening %1…").arg(absolute));
    auto* watcher = new QFutureWatcher<Expected<FileKindReport>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, absolute] {
        watcher->deleteLater();
        const Expected<FileKindReport> result = watcher->result();
        if (!result) {
            reportOpenFailure(absolute, QString::fromStdString(result.error().message()));
            m_settings->removeRecentFile(absolute);
            updateRecentMenu();
            finishOpen(absolute, false);
            return;
        }
        const FileKindReport& report = *result;
        const QString kind = fileKindDisplayName(report.kind);
        if (report.kind == FileKind::kUnknown) {
            // Nothing to show but its size: said as a failed open (a truncated download reads so).
            reportOpenFailure(absolute, tr("unrecognised content (%1)").arg(QString::fromStdString(report.detail)));
            finishOpen(absolute, false);
            return;
        }
        logApp(LogSeverity::kInfo, tr("%1: detected %2 (%3)").arg(absolute, kind, QString::fromStdString(report.detail)));
        rememberRecentFile(absolute);
        updateRecentMenu();
        switch (formats::viewerFor(report)) {
        case formats::Viewer::kGraph:
            openGraphViewer(absolute, kind, report);
            return;
        case formats::Viewer::kProfiler:
            --m_pendingOpens; // openProfiler counts its own open
            openProfiler(absolute);
            return;
        case formats::Viewer::kDashboard:
            openDashboard({absolute});
            finishOpen(absolute, true);
            return;
        case formats::Viewer::kEditor: {
            const bool ok = openInEditor(absolute);
            if (ok)
                statusBar()->showMessage(tr("Opened %1 — %2").arg(QFileInfo(absolute).fileName(), kind), 10000);
            finishOpen(absolute, ok);
            return;
        }
        case formats::Viewer::kRecords:
            openRecordViewer(absolute, kind);
            return;
        case formats::Viewer::kSummary:
            break;
        }
        addDocument(new FileSummaryView(report, m_documents), absolute);
        const QString title = m_documents->tabText(m_documents->currentIndex());
        statusBar()->showMessage(tr("Opened %1 — %2").arg(title, kind), 10000);
        finishOpen(absolute, true);
    });
    watcher->setFuture(runInBackground([p = absolute.toStdString()] { return detectFileKind(p); }));
}

void MainWindow::setTabTitle(QWidget* page, std::function<QString()> title)
{
    if (!m_tabTitles.contains(page))
        connect(page, &QObject::destroyed, this, [this, page] { m_tabTitles.remove(page); });
    m_tabTitles.insert(page, title);
    const int index = m_documents->indexOf(page);
    if (const QString text = title(); index >= 0 && !text.isEmpty())
        m_documents->setTabText(index, text);
}

void MainWindow::retranslateTabTitles()
{
    for (auto it = m_tabTitles.cbegin(); it != m_tabTitles.cend(); ++it) {
        const int index = m_documents->indexOf(it.key());
        if (const QString text = it.value()(); index >= 0 && !text.isEmpty())
            m_documents->setTabText(index, text);
    }
}

void MainWindow::reportOpenFailure(const QString& absolute, const QString& reason)
{
    logApp(LogSeverity::kError, tr("Cannot open %1: %2").arg(absolute, reason));
    // Replaces "Opening…", which would otherwise stay.
    statusBar()->showMessage(tr("Cannot open %1").arg(QFileInfo(absolute).fileName()), 10000);
    if (!m_openErrorDialogs)
        return;
    // Window-modal but not blocking: an open started from code (tests, several files at once)
    // goes on while the dialog waits.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open %1").arg(QFileInfo(absolute).fileName()),
                                tr("TensorStudio cannot open %1.").arg(absolute), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("openErrorDialog"));
    box->setInformativeText(tr("%1\n\nCheck that the file is complete (a download or copy may have been cut short) "
                               "and of a kind TensorStudio reads; the Console (Ctrl+`) keeps this message.")
                                .arg(reason));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::addDocument(QWidget* view, const QString& absolute)
{
    view->setProperty(kPathProperty, absolute);
    QString title = QFileInfo(absolute).fileName();
    if (title.isEmpty())
        title = absolute;
    const int index = m_documents->addTab(view, title);
    m_documents->setTabToolTip(index, absolute);
    m_documents->setCurrentIndex(index);
    updateCentralPage();
}

void MainWindow::openGraphViewer(const QString& absolute, const QString& kindName,
                                 std::optional<FileKindReport> report)
{
    auto* viewer = new graph_viewer::GraphViewer(m_registries.get(), m_documents);
    addDocument(viewer, absolute);
    connect(viewer, &graph_viewer::GraphViewer::titleChanged, this, [this, viewer](const QString& title) {
        const int index = m_documents->indexOf(viewer);
        if (index >= 0)
            m_documents->setTabText(index, title);
    });
    // The open counts as finished once the first view is shown (or loading failed).
    auto counted = std::make_shared<bool>(false);
    connect(viewer, &QObject::destroyed, this, [this, absolute, counted] {
        if (!*counted) {
            *counted = true;
            finishOpen(absolute, false);
        }
    });
    connect(viewer, &graph_viewer::GraphViewer::loaded, this, [this, viewer, absolute, kindName, counted](bool ok) {
        if (ok) {
            statusBar()->showMessage(tr("Opened %1 — %2 (%3 ms)").arg(QFileInfo(absolute).fileName(), kindName)
                                         .arg(viewer->firstViewMilliseconds(), 0, 'f', 0), 10000);
        } else {
            reportOpenFailure(absolute, viewer->errorText());
        }
        if (*counted)
            return;
        *counted = true;
        // Damaged variables leave the graph readable but would be told only in the viewer's side
        // tab, which a SavedModel does not show first: the console says so too. The view starts its
        // scan just before loaded(true), and its result arrives through the event loop, after this.
        if (auto* variables = ok ? viewer->findChild<graph_viewer::CheckpointVariablesView*>() : nullptr) {
            connect(variables, &graph_viewer::CheckpointVariablesView::loadFailed, this, [absolute](const QString& message) {
                logApp(LogSeverity::kWarning, tr("%1: its variables cannot be read. %2").arg(absolute, message));
            });
            // The index read but some tensors' bytes did not (a data shard cut short): said once, not per row.
            connect(variables, &graph_viewer::CheckpointVariablesView::tensorsUnreadable, this,
                    [absolute](int, const QString& message) {
                        logApp(LogSeverity::kWarning, tr("%1: its variables cannot be read. %2").arg(absolute, message));
                    });
        }
        finishOpen(absolute, ok);
    });
    connect(viewer, &graph_viewer::GraphViewer::editRequested, this, &MainWindow::openGraphInEditor);
    connect(viewer, &graph_viewer::GraphViewer::showInTimelineRequested, this, &MainWindow::showNodeInProfiler);
    updateTimelineLinks();
    viewer->open(absolute, -1, std::move(report));
}

void MainWindow::openRecordViewer(const QString& absolute, const QString& kindName)
{
    auto* viewer = new records::RecordViewer(m_documents);
    addDocument(viewer, absolute);
    // Damage found while indexing goes to the console too; the viewer keeps the records before it.
    connect(viewer, &records::RecordViewer::indexProgressed, this, [this, viewer, absolute](quint64, bool finished) {
        if (finished && !viewer->errorText().isEmpty())
            logApp(LogSeverity::kWarning, QStringLiteral("%1: %2").arg(absolute, viewer->errorText()));
    });
    const bool ok = viewer->open(absolute);
    if (ok)
        statusBar()->showMessage(tr("Opened %1 — %2").arg(QFileInfo(absolute).fileName(), kindName), 10000);
    else // the status bar said "Opening…" until now
        reportOpenFailure(absolute, viewer->errorText());
    finishOpen(absolute, ok);
}

profiler::ProfilerView* MainWindow::addProfilerTab(const QString& title)
{
    auto* view = new profiler::ProfilerView(&m_registries->ops, m_documents);
    const int index = m_documents->addTab(view, tr("%1 (profile)").arg(title));
    m_documents->setCurrentIndex(index);
    connect(view, &profiler::ProfilerView::nodeActivated, this,
            [this, view](const QString& name) { showNodeInGraph(view, name); });
    connect(view, &QObject::destroyed, this, [this] { QMetaObject::invokeMethod(this, [this] { updateTimelineLinks(); }, Qt::QueuedConnection); });
    updateCentralPage();
    updateTimelineLinks();
    return view;
}

void MainWindow::openProfiler(const QString& absolute)
{
    for (int i = 0; i < m_documents->count(); ++i)
        if (m_documents->widget(i)->property(kPathProperty).toString() == absolute) {
            m_documents->setCurrentIndex(i);
            emit pathOpened(absolute, true);
            return;
        }
    ++m_pendingOpens;
    rememberRecentFile(absolute);
    updateRecentMenu();
    profiler::ProfilerView* view = addProfilerTab(QFileInfo(absolute).fileName());
    view->setProperty(kPathProperty, absolute);
    m_documents->setTabToolTip(m_documents->indexOf(view), absolute);
    auto counted = std::make_shared<bool>(false);
    connect(view, &QObject::destroyed, this, [this, absolute, counted] {
        if (!*counted) {
            *counted = true;
            finishOpen(absolute, false);
        }
    });
    connect(view, &profiler::ProfilerView::loaded, this, [this, view, absolute, counted](bool ok) {
        if (ok)
            statusBar()->showMessage(tr("Opened %1 in the profiler").arg(QFileInfo(absolute).fileName()), 10000);
        else // the status bar said "Opening…" until now
            reportOpenFailure(absolute, view->errorText());
        if (!*counted) {
            *counted = true;
            finishOpen(absolute, ok);
        }
    });
    view->openFile(absolute);
}

void MainWindow::showProfile(std::shared_ptr<const profiler::ProfileTrace> trace,
                             std::shared_ptr<const tensorflow::GraphDef> graph, const QString& title)
{
    profiler::ProfilerView* view = addProfilerTab(title);
    view->setTrace(std::move(trace), std::move(graph), title);
    statusBar()->showMessage(tr("Profiled a step of %1").arg(title), 10000);
}

void MainWindow::showNodeInGraph(profiler::ProfilerView* profiler, const QString& nodeName)
{
    for (int i = 0; i < m_documents->count(); ++i) {
        auto* viewer = qobject_cast<graph_viewer::GraphViewer*>(m_documents->widget(i));
        if (viewer && viewer->isReady() && viewer->selectNodeNamed(nodeName)) {
            statusBar()->showMessage(tr("%1 selected in %2").arg(nodeName, m_documents->tabText(i)), 8000);
            return;
        }
    }
    if (!profiler->graph()) {
        statusBar()->showMessage(tr("No open graph has a node %1; open the model's graph to see it").arg(nodeName), 10000);
        return;
    }
    // A viewer on the profiler's own graph, coloured by the trace's compute time, in a tab next to it.
    const int here = m_documents->currentIndex();
    auto* viewer = new graph_viewer::GraphViewer(m_registries.get(), m_documents);
    m_documents->insertTab(here + 1, viewer, tr("%1 (graph)").arg(profiler->title()));
    setTabTitle(viewer, [profiled = profiler->title()] { return tr("%1 (graph)").arg(profiled); });
    connect(viewer, &graph_viewer::GraphViewer::editRequested, this, &MainWindow::openGraphInEditor);
    connect(viewer, &graph_viewer::GraphViewer::showInTimelineRequested, this, &MainWindow::showNodeInProfiler);
    viewer->setTimelineAvailable(true);
    connect(viewer, &graph_viewer::GraphViewer::loaded, viewer, [viewer, profiler = QPointer(profiler), nodeName](bool ok) {
        if (!ok)
            return;
        if (profiler && profiler->trace())
            viewer->setRunStats(profiler->title(), profiler::runStatsFromTrace(*profiler->trace()));
        viewer->selectNodeNamed(nodeName);
    });
    viewer->showGraph(*profiler->graph(), profiler->title());
    m_documents->setCurrentWidget(profiler);
    statusBar()->showMessage(tr("Opened the graph of %1 beside the profile").arg(profiler->title()), 8000);
}

void MainWindow::showNodeInProfiler(const QString& nodeName)
{
    for (int i = 0; i < m_documents->count(); ++i) {
        auto* view = qobject_cast<profiler::ProfilerView*>(m_documents->widget(i));
        if (view && view->showNode(nodeName)) {
            m_documents->setCurrentIndex(i);
            return;
        }
    }
    statusBar()->showMessage(tr("No profile holds an execution of %1").arg(nodeName), 8000);
}

void MainWindow::updateTimelineLinks()
{
    bool anyProfiler = false;
    for (int i = 0; i < m_documents->count(); ++i)
        anyProfiler = anyProfiler || qobject_cast<profiler::ProfilerView*>(m_documents->widget(i));
    for (int i = 0; i < m_documents->count(); ++i)
        if (auto* viewer = qobject_cast<graph_viewer::GraphViewer*>(m_documents->widget(i)))
            viewer->setTimelineAvailable(anyProfiler);
}

void MainWindow::showDebugging(std::shared_ptr<DebugController> controller,
                               std::shared_ptr<const tensorflow::GraphDef> graph, const QString& title)
{
    // The tab belongs to the document whose run it debugs: its title names it, its breakpoints and
    // watches are that document's project's, and it closes with the document.
    node_editor::NodeEditor* document = nullptr;
    for (int i = 0; i < m_documents->count(); ++i)
        if (m_trainingPanel->runningDocument() && m_documents->widget(i) == m_trainingPanel->runningDocument())
            document = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(i));
    // The name its tab shows (made again here, so that an untitled one follows the language).
    const auto documentName = [this](QWidget* page) {
        const auto made = m_tabTitles.constFind(page);
        QString name = made != m_tabTitles.cend() ? made.value()() : QString();
        if (name.isEmpty())
            name = m_documents->tabText(m_documents->indexOf(page));
        return name.endsWith(QStringLiteral(" *")) ? name.chopped(2) : name;
    };
    if (!m_debugging) {
        m_debugging = new debugger_ui::DebuggingTab(m_registries.get(), m_documents);
        debugger_ui::DebuggingTab* tab = m_debugging;
        m_documents->addTab(tab, tab->title());
        setTabTitle(tab, [tab, documentName] {
            if (auto* page = qobject_cast<QWidget*>(tab->document()))
                tab->setDocumentName(documentName(page));
            return tab->title();
        });
        connect(tab, &debugger_ui::DebuggingTab::titleChanged, this,
                [this, tab](const QString& text) { m_documents->setTabText(m_documents->indexOf(tab), text); });
        debugger_ui::DebuggerView* view = tab->debugger();
        connect(view, &debugger_ui::DebuggerView::startRequested, this, [this, tab] {
            // Run in the tab trains the tab's document, whichever the Training panel shows.
            if (auto* editor = qobject_cast<node_editor::NodeEditor*>(tab->document()))
                bindTrainingPanel(editor);
            m_trainingPanel->setDebugging(true);
            m_trainingPanel->start();
        });
        connect(view, &debugger_ui::DebuggerView::stopRequested, m_trainingPanel, &training_panel::TrainingPanel::stop);
        connect(tab, &debugger_ui::DebuggingTab::settingsEdited, this, [tab] {
            // Kept with the debugged document's project, saved with it as .tsproj.
            if (auto* editor = qobject_cast<node_editor::NodeEditor*>(tab->document()))
                editor->setDebuggerSettings(tab->settings());
        });
        connect(tab, &debugger_ui::DebuggingTab::documentClosed, this, [this, tab] {
            // Its run is stopped by the Training panel; a stale graph of a closed document stays nowhere.
            m_documents->removeTab(m_documents->indexOf(tab));
            delete tab;
        });
        connect(tab->graphViewer(), &graph_viewer::GraphViewer::editRequested, this, &MainWindow::openGraphInEditor);
        // A breakpoint hit brings the Debugger forward (the dashboard may be in front), and the
        // Training panel says where the run waits.
        connect(view, &debugger_ui::DebuggerView::pausedAt, this, [this](const QString& node) {
            if (!node.isEmpty() && m_debugging)
                m_documents->setCurrentWidget(m_debugging);
            if (m_trainingPanel) // gone first when the window closes
                m_trainingPanel->showDebuggerPause(node);
        });
    }
    const bool newDocument = m_debugging->document() != document;
    m_debugging->setDocument(document, document ? documentName(document) : title);
    if (document && newDocument) // Save As renames it (the editor's own handler has set its tab's text by now)
        connect(document, &node_editor::NodeEditor::titleChanged, m_debugging,
                [tab = m_debugging.data(), document, documentName] { tab->setDocumentName(documentName(document)); });
    m_debugging->attach(std::move(controller), std::move(graph), tr("%1 (training graph)").arg(title));
    m_documents->setCurrentWidget(m_debugging);
    statusBar()->showMessage(tr("Debugging the training of %1: set breakpoints, pause or step in the Debugger tab")
                                 .arg(title),
                             10000);
}

void MainWindow::finishOpen(const QString& path, bool ok)
{
    --m_pendingOpens;
    emit pathOpened(path, ok);
    if (m_pendingOpens == 0)
        emit allOpensFinished();
}

bool MainWindow::closeDocument(int index)
{
    QWidget* page = m_documents->widget(index);
    if (auto* editor = qobject_cast<node_editor::NodeEditor*>(page); editor && editor->isModified()) {
        m_documents->setCurrentIndex(index);
        const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                                  tr("The graph \"%1\" has unsaved changes. Save them?").arg(m_documents->tabText(index)),
                                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel)
            return false;
        if (answer == QMessageBox::Save && (!saveCurrent() || editor->isModified()))
            return false;
    }
    m_documents->removeTab(index);
    delete page;
    updateCentralPage();
    return true;
}

void MainWindow::updateEditMenu()
{
    if (!m_editMenu)
        return;
    m_editMenu->clear();
    QWidget* current = m_documents->currentWidget();
    if (current && qobject_cast<node_editor::NodeEditor*>(current)) {
        // The editor's own actions: the same objects as its toolbar, so text, state and shortcuts stay in step.
        m_editMenu->addActions(current->actions());
        m_editMenu->setEnabled(true);
        return;
    }
    if (current && qobject_cast<graph_viewer::GraphViewer*>(current)) {
        m_editMenu->addActions(current->actions());
        m_editMenu->setEnabled(!current->actions().isEmpty());
        return;
    }
    m_editMenu->setEnabled(false);
}

void MainWindow::newGraph()
{
    auto* editor = new node_editor::NodeEditor(m_registries.get(), m_documents);
    const int index = m_documents->addTab(editor, tr("Untitled graph"));
    // Until it has a file (titleChanged then names it), the tab follows the language.
    setTabTitle(editor, [editor] {
        return editor->filePath().isEmpty() ? tr("Untitled graph") + (editor->isModified() ? QStringLiteral(" *") : QString())
                                            : QString();
    });
    m_documents->setCurrentIndex(index);
    connect(editor, &node_editor::NodeEditor::titleChanged, this, [this, editor](const QString& title) {
        const int i = m_documents->indexOf(editor);
        if (i >= 0)
            m_documents->setTabText(i, title + (editor->isModified() ? QStringLiteral(" *") : QString()));
    });
    connect(editor, &node_editor::NodeEditor::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(editor, &node_editor::NodeEditor::viewRequested, this, &MainWindow::viewGraph);
    connect(editor, &node_editor::NodeEditor::trainRequested, this, [this, editor] {
        // The settings are shown to be checked; Start trains.
        bindTrainingPanel(editor);
        showPanel(QStringLiteral("training"));
        m_trainingPanel->prepareToStart();
    });
    connect(editor, &node_editor::NodeEditor::trainDistributedRequested, this, [this, editor] {
        bindTrainingPanel(editor);
        showPanel(QStringLiteral("training"));
        m_trainingPanel->openDistributedDialog();
    });
    connect(editor, &node_editor::NodeEditor::titleChanged, this, [this, editor] {
        if (m_documents->currentWidget() == editor)
            bindTrainingPanel(editor);
    });
    bindTrainingPanel(editor);
    updateCentralPage();
}

bool MainWindow::openInEditor(const QString& path)
{
    newGraph();
    auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    const Status s = editor->openFile(path);
    if (!s.isOk()) {
        closeDocument(m_documents->indexOf(editor));
        reportOpenFailure(QFileInfo(path).absoluteFilePath(), QString::fromStdString(s.message()));
        return false;
    }
    editor->setProperty(kPathProperty, QFileInfo(path).absoluteFilePath());
    m_documents->setTabText(m_documents->indexOf(editor), QFileInfo(path).fileName());
    return true;
}

void MainWindow::openGraphInEditor(const tensorflow::GraphDef& graph, const QString& title)
{
    newGraph();
    auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    const Status s = editor->loadGraphDef(graph, title);
    if (!s.isOk())
        logApp(LogSeverity::kError, tr("Cannot edit %1: %2").arg(title, QString::fromStdString(s.message())));
    m_documents->setTabText(m_documents->indexOf(editor), title);
}

void MainWindow::viewGraph(const tensorflow::GraphDef& graph, const QString& title)
{
    auto* viewer = new graph_viewer::GraphViewer(m_registries.get(), m_documents);
    const int index = m_documents->addTab(viewer, tr("%1 (view)").arg(title));
    setTabTitle(viewer, [title] { return tr("%1 (view)").arg(title); });
    m_documents->setCurrentIndex(index);
    connect(viewer, &graph_viewer::GraphViewer::editRequested, this, &MainWindow::openGraphInEditor);
    viewer->showGraph(graph, title);
    updateCentralPage();
}

namespace {

/// The Save As dialog's types, in order, with the extension each writes.
struct SaveType {
    const char* suffix;
    const char* filter; // translated in saveFilters()
};
constexpr SaveType kSaveTypes[] = {
    {"pbtxt", QT_TRANSLATE_NOOP("tstudio::MainWindow", "Text GraphDef (*.pbtxt)")},
    {"pb", QT_TRANSLATE_NOOP("tstudio::MainWindow", "Binary GraphDef (*.pb)")},
    {"meta", QT_TRANSLATE_NOOP("tstudio::MainWindow", "MetaGraph with variables and saver (*.meta)")},
    {"tsproj", QT_TRANSLATE_NOOP("tstudio::MainWindow", "TensorStudio project with layout and training (*.tsproj)")},
};

/// The save type of `path` by its extension; -1 when it is none of them.
int saveTypeOf(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (int i = 0; i < static_cast<int>(std::size(kSaveTypes)); ++i)
        if (suffix == QLatin1String(kSaveTypes[i].suffix))
            return i;
    return -1;
}

} // namespace

bool MainWindow::saveCurrent()
{
    auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    if (!editor) {
        statusBar()->showMessage(tr("Only a graph in the node editor can be saved"), 8000);
        return false;
    }
    const QString path = editor->filePath();
    if (path.isEmpty() || saveTypeOf(path) < 0)
        return saveCurrentAs();
    const Status s = editor->saveAs(path);
    if (!s.isOk()) {
        logApp(LogSeverity::kError, tr("Cannot save %1: %2").arg(path, QString::fromStdString(s.message())));
        showPanel(QStringLiteral("console"));
        return false;
    }
    bindTrainingPanel(editor);
    // A saved file is one to come back to: File > Open Recent and the welcome page list it.
    rememberRecentFile(QFileInfo(path).absoluteFilePath());
    updateRecentMenu();
    statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
    return true;
}

bool MainWindow::saveCurrentAs()
{
    auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    if (!editor) {
        statusBar()->showMessage(tr("Only a graph in the node editor can be saved"), 8000);
        return false;
    }
    QStringList filters;
    for (const SaveType& type : kSaveTypes)
        filters << tr(type.filter);
    // The document's own kind first: its file's, else a project when it belongs to one or trains.
    int kind = saveTypeOf(editor->filePath());
    if (kind < 0)
        kind = editor->suggestsProject() ? 3 : 0;
    QString filter = filters[kind];
    QString suggested = editor->filePath();
    if (suggested.isEmpty() || saveTypeOf(suggested) < 0) {
        const QString base = suggested.isEmpty() ? QStringLiteral("model") : QFileInfo(suggested).completeBaseName();
        suggested = QDir(QFileInfo(suggested).path()).filePath(base + QLatin1Char('.') + QLatin1String(kSaveTypes[kind].suffix));
    }
    QString file = m_saveFileChooser ? m_saveFileChooser(suggested, filter)
                                     : QFileDialog::getSaveFileName(this, tr("Save Graph As"), suggested,
                                                                    filters.join(QStringLiteral(";;")), &filter);
    if (file.isEmpty())
        return false;
    if (saveTypeOf(file) < 0) {
        const int chosen = std::max<int>(0, static_cast<int>(filters.indexOf(filter)));
        file += QLatin1Char('.') + QLatin1String(kSaveTypes[chosen].suffix);
    }
    const Status s = editor->saveAs(file);
    if (!s.isOk()) {
        logApp(LogSeverity::kError, tr("Cannot save %1: %2").arg(file, QString::fromStdString(s.message())));
        showPanel(QStringLiteral("console"));
        return false;
    }
    editor->setProperty(kPathProperty, QFileInfo(file).absoluteFilePath());
    m_documents->setTabToolTip(m_documents->indexOf(editor), QFileInfo(file).absoluteFilePath());
    bindTrainingPanel(editor);
    // A saved file is one to come back to: File > Open Recent and the welcome page list it.
    rememberRecentFile(QFileInfo(file).absoluteFilePath());
    updateRecentMenu();
    statusBar()->showMessage(tr("Saved %1").arg(file), 8000);
    return true;
}

void MainWindow::rememberRecentFile(const QString& path)
{
    m_settings->addRecentFile(path);
    if (!m_desktopRecentFiles)
        return;
    // The desktop's list is read, merged and rewritten off the GUI thread, one update at a time and in
    // order (a single worker), so two quick opens never write over each other.
    static QThreadPool desktopListWriter;
    desktopListWriter.setMaxThreadCount(1);
    desktopListWriter.start([path] {
        QString error;
        if (!addDesktopRecentFile(path, &error))
            logApp(LogSeverity::kWarning,
                   tr("The desktop's list of recent files was not updated: %1").arg(error)); // the log is thread-safe
    });
}

/// The arrangement of the screens the window may be on now (AppSettings::screenLayoutKey).
static QString currentScreenLayout()
{
    QList<AppSettings::ScreenPlace> places;
    for (const QScreen* screen : QGuiApplication::screens()) {
        const QRect g = screen->geometry();
        places.append({screen->name(), g.x(), g.y(), g.width(), g.height()});
    }
    return AppSettings::screenLayoutKey(places);
}

void MainWindow::restoreLayout()
{
    const QByteArray geometry = m_settings->windowGeometry(currentScreenLayout());
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = m_settings->windowState();
    if (!state.isEmpty() && !restoreState(state, kLayoutVersion))
        logApp(LogSeverity::kWarning, tr("The saved window layout could not be restored; using the default."));
}

void MainWindow::saveLayout()
{
    m_settings->setWindowGeometry(saveGeometry(), currentScreenLayout());
    m_settings->setWindowState(saveState(kLayoutVersion));
    m_settings->sync();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, kLayoutVersion);
    for (QDockWidget* dock : std::as_const(m_panels)) {
        dock->setFloating(false);
        dock->show();
    }
}

void MainWindow::showSettingsDialog()
{
    SettingsDialog dialog(m_settings, m_languages, this);
    if (dialog.exec() == QDialog::Accepted)
        m_deviceLabel->setText(tr("Default device: %1").arg(m_settings->defaultDevice()));
}

void MainWindow::showAboutDialog()
{
    AboutDialog dialog(this);
    dialog.exec();
}

void MainWindow::showGuide(const QString& page)
{
    QString id = page.isEmpty() ? HelpBrowser::pageForWidget(QApplication::focusWidget()) : page;
    if (id.isEmpty() || !HelpBrowser::pageIds().contains(id))
        id = page.isEmpty() ? QStringLiteral("walkthrough") : page;
    openHelpUrl(QUrl(QStringLiteral("help:") + id));
}

HelpBrowser* MainWindow::helpBrowser()
{
    if (!m_helpBrowser)
        m_helpBrowser = new HelpBrowser(this);
    return m_helpBrowser;
}

void MainWindow::openHelpUrl(const QUrl& url)
{
    helpBrowser()->openHelpUrl(url);
}

void MainWindow::showShortcuts()
{
    auto* dialog = new ShortcutsDialog(this, m_registries.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    for (int i = m_documents->count(); i-- > 0;) {
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(i));
        if (editor && editor->isModified() && !closeDocument(i)) {
            event->ignore();
            return;
        }
    }
    if (m_persistLayout)
        saveLayout();
    event->accept();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openPaths(paths);
}

} // namespace tstudio
