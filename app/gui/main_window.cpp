// MainWindow: the window itself (its construction, the start page, examples, dialogs and window
// events); its actions and menus, docks and document routing are in main_window_{actions,docks,documents}.cpp.
#include "main_window.h"
#include "main_window_internal.h"

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
#include "io/formats/graph_file.h"
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

using namespace main_window_detail;

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
        // "" (the launch has begun) clears the card's last message; exampleTrainingSettled shows the end.
        m_startPage->showExampleMessage(id, trainExample(id, folder));
    });
    connect(this, &MainWindow::exampleTrainingSettled, m_startPage, &StartPage::showExampleMessage);
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
    // Read on a worker like any opened project (the gallery's larger projects build their graphs from
    // layers); the tab shows at once and the open finishes with pathOpened.
    ++m_pendingOpens;
    openInEditorInBackground(path, fileKindDisplayName(FileKind::kProject));
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
    if (m_exampleLaunching)
        return tr("An example is being opened for training: wait for it to start.");
    m_exampleLaunching = true;
    // The data folder's check and a project copy naming it are file work, done on a worker.
    using Launch = tl::expected<ExampleLaunch, QString>;
    auto* watcher = new QFutureWatcher<Launch>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id, fileName = example->fileName] {
        watcher->deleteLater();
        const Launch launch = watcher->future().takeResult();
        if (!launch) {
            settleExampleTraining(id, launch.error());
            return;
        }
        // Opened as any project is (an open tab is reused), then trained with the panel's own Start.
        for (int i = 0; i < m_documents->count(); ++i) {
            auto* open = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(i));
            if (open && open->property(kPathProperty).toString() == launch->projectPath) {
                m_documents->setCurrentWidget(open);
                updateCentralPage();
                if (!open->isEnabled()) // still being read by another open
                    settleExampleTraining(id, tr("%1 is still being opened: train it when it is shown.").arg(fileName));
                else
                    startExampleTraining(open, id, *launch);
                return;
            }
        }
        ++m_pendingOpens;
        openInEditorInBackground(launch->projectPath, fileKindDisplayName(FileKind::kProject),
                                 [this, id, fileName, launch = *launch](node_editor::NodeEditor* editor) {
                                     if (!editor) {
                                         settleExampleTraining(
                                             id, tr("%1 could not be opened; the Console says why.").arg(fileName));
                                         return;
                                     }
                                     rememberRecentFile(launch.projectPath);
                                     updateRecentMenu();
                                     startExampleTraining(editor, id, launch);
                                 });
    });
    watcher->setFuture(
        runInBackground([example = *example, dataFolder] { return prepareExampleLaunch(example, dataFolder); }));
    return {};
}

void MainWindow::startExampleTraining(node_editor::NodeEditor* editor, const QString& id, const ExampleLaunch& launch)
{
    bindTrainingPanel(editor);
    m_trainingPanel->logDirectoryEdit()->setText(freshExampleLogDirectory(m_trainingPanel->logDirectoryEdit()->text(), id));
    if (!launch.panelDataFolder.isEmpty())
        m_trainingPanel->dataFolderEdit()->setText(launch.panelDataFolder);
    showPanel(QStringLiteral("training"));
    settleExampleTraining(id, m_trainingPanel->start() ? QString() : m_trainingPanel->statusText());
}

void MainWindow::settleExampleTraining(const QString& id, const QString& problem)
{
    m_exampleLaunching = false;
    emit exampleTrainingSettled(id, problem);
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
