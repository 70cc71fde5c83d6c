// MainWindow's document routing: a path to the tab that shows it (viewer, editor, dashboard, profiler,
// records, debugger), tab titles, links between tabs, closing and saving documents.
#include "main_window.h"

#include "diff/model_diff_view.h"
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
#include "dashboard/projector_view.h"
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
        case formats::Viewer::kEditor:
            openInEditorInBackground(absolute, kind); // finishes the open when the file is read
            return;
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

diff_ui::ModelDiffView* MainWindow::compareFiles(const QString& first, const QString& second)
{
    auto* view = new diff_ui::ModelDiffView(m_documents);
    view->setObjectName(QStringLiteral("modelDiffView"));
    const int index = m_documents->addTab(view, QString());
    setTabTitle(view, [view] { return view->title(); });
    m_documents->setTabToolTip(index, first + QStringLiteral("\n") + second);
    m_documents->setCurrentIndex(index);
    connect(view, &diff_ui::ModelDiffView::ready, this, [this, view](bool ok) {
        if (ok)
            statusBar()->showMessage(tr("Compared %1").arg(view->title()), 10000);
        else
            logApp(LogSeverity::kError, tr("Cannot compare %1: %2").arg(view->title(), view->errorText()));
    });
    view->compare(first, second);
    m_documents->setTabText(index, view->title());
    updateCentralPage();
    return view;
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
    attachDebugger(std::move(controller), std::move(graph), document, title, tr("%1 (training graph)").arg(title),
                   false);
    statusBar()->showMessage(tr("Debugging the training of %1: set breakpoints, pause or step in the Debugger tab")
                                 .arg(title),
                             10000);
}

void MainWindow::showSessionDebugging(std::shared_ptr<DebugController> controller,
                                      std::shared_ptr<const tensorflow::GraphDef> graph,
                                      node_editor::NodeEditor* document, const QString& title)
{
    attachDebugger(std::move(controller), std::move(graph), document, title,
                   tr("%1 (interactive session)").arg(title), true);
    statusBar()->showMessage(
        tr("Debugging a run of the interactive session of %1: step, continue or stop it in the Debugger tab")
            .arg(title),
        10000);
}

void MainWindow::attachDebugger(std::shared_ptr<DebugController> controller,
                                std::shared_ptr<const tensorflow::GraphDef> graph, node_editor::NodeEditor* document,
                                const QString& title, const QString& graphTitle, bool sessionRun)
{
    m_debuggingSessionRun = sessionRun;
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
            // After a run of the interactive session, Run debugs its line again (tfdbg's next
            // session.run); otherwise Run trains the tab's document, whichever the Training panel shows.
            if (m_debuggingSessionRun) {
                if (!m_sessionConsole || !m_sessionConsole->debugAgain())
                    statusBar()->showMessage(tr("Debug a line of the Session console (debug LINE) to run it "
                                                "again under the debugger"),
                                             10000);
                return;
            }
            if (auto* editor = qobject_cast<node_editor::NodeEditor*>(tab->document()))
                bindTrainingPanel(editor);
            m_trainingPanel->setDebugging(true);
            m_trainingPanel->start();
        });
        connect(view, &debugger_ui::DebuggerView::stopRequested, this, [this] {
            if (!m_debuggingSessionRun) // the debugger cancels a session run itself
                m_trainingPanel->stop();
        });
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
    m_debugging->attach(std::move(controller), std::move(graph), graphTitle);
    m_documents->setCurrentWidget(m_debugging);
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
    connect(editor, &node_editor::NodeEditor::projectorRequested, this,
            [this, editor](const QString& variable) { openEmbeddingInProjector(editor, variable); });
    bindTrainingPanel(editor);
    updateCentralPage();
}

void MainWindow::openEmbeddingInProjector(node_editor::NodeEditor* editor, const QString& variable)
{
    // The project's log directory as the Training panel shows it (its last run's, else the field's):
    // where its checkpoints are.
    bindTrainingPanel(editor);
    QString logdir = m_trainingPanel->logDirectory();
    if (logdir.isEmpty())
        logdir = m_trainingPanel->logDirectoryEdit()->text().trimmed();
    if (logdir.isEmpty() || !QFileInfo::exists(QDir(logdir).filePath(QStringLiteral("checkpoint")))) {
        const QString text = tr("No checkpoint in %1 yet: train the project first, then open %2 in the Projector.")
                                 .arg(logdir.isEmpty() ? tr("the project's log directory") : logdir, variable);
        statusBar()->showMessage(text, 10000);
        logApp(LogSeverity::kWarning, text);
        return;
    }
    openDashboard({logdir}, true);
    auto* view = qobject_cast<dashboard::DashboardView*>(m_documents->currentWidget());
    if (!view)
        return;
    view->showTab(QStringLiteral("projector"));
    view->projector()->reload();
    if (!view->projector()->selectTensor(variable)) {
        const QString text = tr("The checkpoints in %1 hold no variable %2.").arg(logdir, variable);
        statusBar()->showMessage(text, 10000);
        logApp(LogSeverity::kWarning, text);
    }
}

bool MainWindow::openInEditor(const QString& path)
{
    newGraph();
    auto* editor = qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    return settleEditorOpen(editor, editor->openFile(path), QFileInfo(path).absoluteFilePath());
}

bool MainWindow::settleEditorOpen(node_editor::NodeEditor* editor, const Status& opened, const QString& absolute)
{
    if (!opened.isOk()) {
        closeDocument(m_documents->indexOf(editor));
        reportOpenFailure(absolute, QString::fromStdString(opened.message()));
        return false;
    }
    editor->setProperty(kPathProperty, absolute);
    m_documents->setTabText(m_documents->indexOf(editor), QFileInfo(absolute).fileName());
    return true;
}

void MainWindow::openInEditorInBackground(const QString& absolute, const QString& kindName,
                                          std::function<void(node_editor::NodeEditor*)> whenSettled)
{
    // The tab comes at once, disabled and saying what it reads; the file is read and the project's
    // graph built on a worker (readDocumentFile), and only the document is made here.
    newGraph();
    QPointer<node_editor::NodeEditor> editor =
        qobject_cast<node_editor::NodeEditor*>(m_documents->currentWidget());
    editor->setProperty(kPathProperty, absolute); // a second open of the path finds this tab
    m_documents->setTabText(m_documents->indexOf(editor), QFileInfo(absolute).fileName());
    editor->showReading(absolute);
    editor->setEnabled(false);
    using Read = Expected<node_editor::DocumentFile>;
    auto* watcher = new QFutureWatcher<Read>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, editor, absolute, kindName, whenSettled = std::move(whenSettled)] {
        watcher->deleteLater();
        Read read = watcher->future().takeResult();
        bool ok = false;
        if (editor) { // else its tab was closed while the file was read
            editor->setEnabled(true);
            const Status s = read ? editor->showDocumentFile(std::move(*read), absolute) : read.error();
            ok = settleEditorOpen(editor, s, absolute);
            if (ok)
                statusBar()->showMessage(tr("Opened %1 — %2").arg(QFileInfo(absolute).fileName(), kindName), 10000);
        }
        if (whenSettled)
            whenSettled(ok ? editor.data() : nullptr);
        finishOpen(absolute, ok);
    });
    const OpRegistry* ops = &m_registries->ops;
    watcher->setFuture(
        runInBackground([path = absolute.toStdString(), ops] { return node_editor::readDocumentFile(path, ops); }));
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

} // namespace tstudio
