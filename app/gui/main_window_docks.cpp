// MainWindow's docks: the panels (console, training), their layout saved and restored.
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
    m_sessionConsole = new node_editor::SessionConsole(this);
    QDockWidget* session = addPanel(QStringLiteral("session"), m_sessionConsole, Qt::BottomDockWidgetArea);
    tabifyDockWidget(training, session);
    // "debug LINE": the run of the document's session waits in the Debugger tab.
    m_sessionConsole->setDebugHandler([this](std::shared_ptr<DebugController> controller,
                                             std::shared_ptr<const tensorflow::GraphDef> graph,
                                             node_editor::NodeEditor* editor, const QString&) {
        // The name the document's tab shows.
        const int index = m_documents->indexOf(editor);
        QString name = index >= 0 ? m_documents->tabText(index) : editor->windowTitle();
        if (name.endsWith(QStringLiteral(" *")))
            name.chop(2);
        showSessionDebugging(std::move(controller), std::move(graph), editor, name);
    });
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

} // namespace tstudio
