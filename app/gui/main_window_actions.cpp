// MainWindow's actions and menus: their creation, texts (retranslateUi) and the menus that follow the
// documents (recent files, examples, Edit).
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
#include "node_editor/session_console.h"
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
    m_compareAction = new QAction(this);
    m_compareAction->setObjectName(QStringLiteral("compareAction"));
    connect(m_compareAction, &QAction::triggered, this, [this] {
        const QString filters = fileKindDialogFilters().join(QStringLiteral(";;"));
        const QString first = QFileDialog::getOpenFileName(this, tr("Compare: the First Graph or Checkpoint"),
                                                           QString(), filters);
        if (first.isEmpty())
            return;
        const QString second = QFileDialog::getOpenFileName(
            this, tr("Compare %1 with…").arg(QFileInfo(first).fileName()), QFileInfo(first).absolutePath(), filters);
        if (!second.isEmpty())
            compareFiles(QFileInfo(first).absoluteFilePath(), QFileInfo(second).absoluteFilePath());
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
    m_fileMenu->addAction(m_compareAction);
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
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->widget(index));
        if (editor)
            bindTrainingPanel(editor);
        // The Session dock follows the editor in front (and keeps each document's session).
        if (m_sessionConsole && (editor || index < 0))
            m_sessionConsole->setEditor(editor);
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
    m_compareAction->setText(tr("Co&mpare…"));
    m_compareAction->setStatusTip(tr("Compare two graphs (nodes added, removed, renamed, changed) or two checkpoints "
                                     "(each tensor's largest and relative change)"));
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
    if (QDockWidget* session = m_panels.value(QStringLiteral("session")))
        session->setWindowTitle(tr("Session"));
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

} // namespace tstudio
