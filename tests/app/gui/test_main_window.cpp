// Offscreen tests of the main window: opening files (menu path, drop, errors), the console, the
// recent-files menu, the settings and about dialogs, and screenshots.
#include "about_dialog.h"
#include "app_settings.h"
#include "language_manager.h"
#include "main_window.h"
#include "window_test.h"
#include "screenshot.h"
#include "settings_dialog.h"

#include "console/log_model.h"
#include "console/log_panel.h"
#include "document/file_summary_view.h"
#include "dashboard/dashboard_view.h"
#include "dashboard/scalar_chart.h"
#include "dashboard/scalars_view.h"
#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "tensor_view/tensor_inspector.h"
#include "io/checkpoint/checkpoint_state.h"
#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/tensor_value_dialog.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "tensor_view/tensor_table_model.h"
#include "node_editor/node_editor.h"
#include "profiler/profiler_view.h"
#include "training/training_panel.h"

#include "../../support/test_files.h"

#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QLineEdit>
#include <QSpinBox>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <regex>
#include <QPushButton>
#include <QTest>

using namespace tstudio;

namespace {

const char* kGraphText = R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Neg" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
versions { producer: 27 }
)";

bool waitForOpens(MainWindow& window)
{
    return QTest::qWaitFor([&] { return window.pendingOpens() == 0; }, 20000);
}

/// Waits (log records are queued onto the GUI thread) until the console shows a matching entry.
bool logContains(const LogModel& model, LogSeverity severity, const QString& text)
{
    return QTest::qWaitFor(
        [&] {
            for (int i = 0; i < model.rowCount(); ++i)
                if (model.entry(i).severity == severity && model.entry(i).message.contains(text))
                    return true;
            return false;
        },
        5000);
}

} // namespace

class TestMainWindow : public tstudio::testing::WindowTest {
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(openWindow());
    }

    void cleanup()
    {
        closeWindow();
    }

    void startsWithStartPageAndConsole()
    {
        QCOMPARE(m_window->documents()->count(), 0);
        QVERIFY(m_window->findChild<QWidget*>("startPage")->isVisible());
        QCOMPARE(m_window->panelNames(), (QStringList{"console", "session", "training"}));
        QVERIFY(m_window->panel("console")->isVisible());
        QVERIFY(!m_window->showPanel("no-such-panel"));
        // Engine messages reach the console through the log bridge.
        logWarning("engine-test", "a warning from the engine");
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kWarning, "a warning from the engine"));
    }

    void openingAGraphShowsItsKind()
    {
        const QString path = m_dir.filePath("graph.unknown-extension");
        QVERIFY(tstudio::testing::writeFile(path, kGraphText));
        QSignalSpy opened(m_window.get(), &MainWindow::pathOpened);
        m_window->openPath(path);
        QVERIFY(waitForOpens(*m_window));
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(1).toBool(), true);
        QCOMPARE(m_window->documents()->count(), 1);
        // A graph opens in the graph viewer, whatever the file is called.
        auto* viewer = qobject_cast<graph_viewer::GraphViewer*>(m_window->documents()->currentWidget());
        QVERIFY(viewer);
        QVERIFY(viewer->isReady());
        QCOMPARE(viewer->graph()->node_size(), 2);
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kInfo, "detected GraphDef (text)"));
        QCOMPARE(m_settings->recentFiles().value(0), path);
        QVERIFY(m_window->recentMenu()->actions().first()->text().contains(path));

        // Opening it again switches to the existing tab.
        m_window->openPath(path);
        QVERIFY(waitForOpens(*m_window));
        QCOMPARE(m_window->documents()->count(), 1);
    }

    /// At 1024x700 the welcome page gets the room (at least two thirds of the height between the menu
    /// bar and the status bar) with the console short below it; an error brings the console back when
    /// it was closed, but does not cover the Training panel in front of it (which shows its own failure).
    void welcomePageGetsTheRoomAndErrorsShowTheConsole()
    {
        m_window->resize(1024, 700);
        QVERIFY(QTest::qWaitFor([&] { return m_window->height() == 700; }, 5000));
        QCoreApplication::processEvents();
        auto* start = m_window->findChild<QWidget*>("startPage");
        QVERIFY(start->isVisible());
        const int area = m_window->statusBar()->geometry().top() - m_window->menuBar()->geometry().bottom();
        QVERIFY2(start->height() * 3 >= area * 2, qPrintable(QStringLiteral("%1 of %2").arg(start->height()).arg(area)));
        QDockWidget* console = m_window->panel("console");
        QVERIFY(console->isVisible());

        console->close();
        QVERIFY(!console->isVisible());
        logWarning("engine-test", "only a warning");
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kWarning, "only a warning"));
        QVERIFY(!console->isVisible());
        logError("engine-test", "an error to read");
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kError, "an error to read"));
        QVERIFY(QTest::qWaitFor([&] { return console->isVisible(); }, 5000));

        QVERIFY(m_window->showPanel("training"));
        QVERIFY(m_window->panel("training")->isVisible());
        logError("engine-test", "another error");
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kError, "another error"));
        QCoreApplication::processEvents();
        QVERIFY(m_window->panel("training")->isVisible());
    }

    /// The Training panel's run controls stay in view however short its dock: only the settings scroll.
    void trainingStartStaysInView()
    {
        m_window->resize(1024, 700);
        m_window->openPath(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/lenet.tsproj"));
        QVERIFY(waitForOpens(*m_window));
        QVERIFY(m_window->showPanel("training"));
        QDockWidget* dock = m_window->panel("training");
        auto* startButton = m_window->trainingPanel()->findChild<QPushButton*>("trainingStart");
        auto* progress = m_window->trainingPanel()->findChild<QWidget*>("trainingProgress");
        QVERIFY(startButton && progress);
        for (int height : {0, 160}) {
            if (height > 0)
                m_window->resizeDocks({dock}, {height}, Qt::Vertical);
            QVERIFY(QTest::qWaitFor([&] { return startButton->isVisible(); }, 5000));
            QCoreApplication::processEvents();
            // Wholly visible: not clipped by the scroll area's viewport, the dock or the window.
            QCOMPARE(startButton->visibleRegion().boundingRect(), startButton->rect());
            QCOMPARE(progress->visibleRegion().boundingRect(), progress->rect());
            const QRect inDock(startButton->mapTo(dock, QPoint(0, 0)), startButton->size());
            QVERIFY(dock->rect().contains(inDock));
        }
    }

    /// The spirals example project opened in the editor and trained from it (F5): the run writes
    /// into its log directory, a dashboard tab follows it and its loss chart grows while training
    /// runs; Stop ends the run cleanly with a final checkpoint.
    void trainingFromTheEditorUpdatesTheDashboard()
    {
        m_window->openPath(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj"));
        QVERIFY(waitForOpens(*m_window));
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_window->documents()->currentWidget());
        QVERIFY(editor);
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        // Bound to the open project: its log directory next to the .tsproj, its steps.
        QCOMPARE(panel->logDirectoryEdit()->text(), QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/runs/spirals"));
        QCOMPARE(panel->stepsBox()->value(), 3000);
        // What the user types stays when F5 binds the same document again.
        const QString logdir = m_dir.filePath(QStringLiteral("spirals-run"));
        panel->logDirectoryEdit()->setText(logdir);
        panel->stepsBox()->setValue(1000000);
        QSignalSpy finished(panel, &training_panel::TrainingPanel::runFinished);
        emit editor->trainRequested(); // binds the panel to the editor and shows its settings
        QVERIFY(!panel->isRunning()); // nothing runs before the user checked them and pressed Start
        QVERIFY2(panel->statusText().contains(QStringLiteral("press Start")), qPrintable(panel->statusText()));
        QCOMPARE(panel->logDirectoryEdit()->text(), logdir);
        QTest::mouseClick(panel->startButton(), Qt::LeftButton);
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));
        dashboard::DashboardView* view = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((view = qobject_cast<dashboard::DashboardView*>(m_window->documents()->currentWidget())), 30000);
        QCOMPARE(view->logDirectories(), QStringList{logdir});
        dashboard::ScalarChart* chart = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((chart = view->scalars()->chart(QStringLiteral("loss"))), 30000);
        auto samples = [chart] { return chart->csv(QStringLiteral("spirals-run")).count(QStringLiteral("\r\n")); };
        QTRY_VERIFY_WITH_TIMEOUT(samples() >= 2, 30000);
        const auto before = samples();
        QTRY_VERIFY_WITH_TIMEOUT(samples() > before, 30000); // live: the chart grows while training runs
        QVERIFY(panel->isRunning());
        panel->stop();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().at(0).toBool(), true);
        const std::int64_t last = panel->lastProgress().step;
        QVERIFY(last > 0);
        QVERIFY(QFile::exists(logdir + QStringLiteral("/model.ckpt-%1.index").arg(last)));
        // The run's steps and log directory are the document's project now (Ctrl+S writes them).
        QVERIFY(editor->isModified());
        QCOMPARE(editor->project()->steps, std::int64_t(1000000));
        QCOMPARE(editor->project()->logdir, logdir.toStdString());
    }

    /// Profile in the Training panel traces one step and opens it in a profiler tab (with the project's
    /// graph: parameters counted); clicking an op there selects its node in a graph viewer opened on that
    /// graph, whose "Show in Timeline" goes back; the trace exported and opened again reads back whole.
    void profilingFromTheTrainingPanel()
    {
        m_window->openPath(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj"));
        QVERIFY(waitForOpens(*m_window));
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_window->documents()->currentWidget());
        QVERIFY(editor);
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        panel->logDirectoryEdit()->setText(m_dir.filePath(QStringLiteral("profiled-run")));
        panel->stepsBox()->setValue(1000000);
        QSignalSpy profiled(panel, &training_panel::TrainingPanel::profiled);
        QSignalSpy finished(panel, &training_panel::TrainingPanel::runFinished);
        emit editor->trainRequested();
        QTest::mouseClick(panel->startButton(), Qt::LeftButton);
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));
        panel->profileNextStep();
        QVERIFY(profiled.wait(30000));
        panel->stop();
        QVERIFY(finished.wait(30000));

        profiler::ProfilerView* view = nullptr;
        for (int i = 0; i < m_window->documents()->count(); ++i)
            if (auto* p = qobject_cast<profiler::ProfilerView*>(m_window->documents()->widget(i)))
                view = p;
        QVERIFY(view);
        QVERIFY(view->trace());
        QCOMPARE(view->trace()->steps.size(), std::size_t(1));
        QVERIFY(view->graph());
        const std::uint32_t loss = view->trace()->findNode("sparse_softmax_cross_entropy_loss/value");
        QVERIFY(loss != profiler::kNoIndex);

        // Profiler -> graph: a viewer opens on the profile's graph with the node selected.
        emit view->nodeActivated(QStringLiteral("sparse_softmax_cross_entropy_loss/value"));
        graph_viewer::GraphViewer* viewer = nullptr;
        for (int i = 0; i < m_window->documents()->count(); ++i)
            if (auto* g = qobject_cast<graph_viewer::GraphViewer*>(m_window->documents()->widget(i)))
                viewer = g;
        QVERIFY(viewer);
        QTRY_VERIFY_WITH_TIMEOUT(viewer->isReady() && viewer->canvas()->selected() >= 0, 30000);
        QCOMPARE(QString::fromStdString(viewer->hierarchy()->node(viewer->canvas()->selected()).nodeName),
                 QStringLiteral("sparse_softmax_cross_entropy_loss/value"));
        // Graph -> profiler: Show in Timeline selects the op in the profile's tab.
        QVERIFY(viewer->showInTimelineAction()->isEnabled());
        m_window->documents()->setCurrentWidget(viewer);
        emit viewer->showInTimelineRequested(QStringLiteral("sparse_softmax_cross_entropy_loss/value"));
        QCOMPARE(m_window->documents()->currentWidget(), static_cast<QWidget*>(view));

        // Export and open again: a Chrome trace tab with the same executions.
        const QString file = m_dir.filePath(QStringLiteral("spirals.trace.json"));
        QString error;
        QVERIFY2(view->exportChromeTrace(file, &error), qPrintable(error));
        m_window->openPath(file);
        QVERIFY(waitForOpens(*m_window));
        auto* reopened = qobject_cast<profiler::ProfilerView*>(m_window->documents()->currentWidget());
        QVERIFY(reopened && reopened != view);
        QVERIFY2(reopened->trace(), qPrintable(reopened->errorText()));
        QCOMPARE(reopened->trace()->events.size(), view->trace()->events.size());
    }

    void debuggingFromTheTrainingPanel()
    {
        m_window->openPath(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj"));
        QVERIFY(waitForOpens(*m_window));
        auto* editor = qobject_cast<node_editor::NodeEditor*>(m_window->documents()->currentWidget());
        QVERIFY(editor);
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        QSignalSpy finished(panel, &training_panel::TrainingPanel::runFinished);
        panel->setDebugging(true);

        // The project's saved breakpoint (on every MatMul) holds from the first step.
        project::DebuggerSettings saved;
        saved.breakpoints.push_back(debugger::parseBreakpoint("op:MatMul").value());
        editor->setDebuggerSettings(saved);

        // Starts a run to `steps` in `dir` under the debugger and returns the Debugger tab once the
        // run is paused at the breakpoint.
        auto runToBreakpoint = [&](const QString& dir, int steps) -> debugger_ui::DebuggingTab* {
            panel->logDirectoryEdit()->setText(m_dir.filePath(dir));
            panel->stepsBox()->setValue(steps);
            emit editor->trainRequested();
            QTest::mouseClick(panel->startButton(), Qt::LeftButton);
            if (!panel->isRunning())
                return nullptr;
            for (int i = 0; i < 300; ++i) {
                QTest::qWait(100);
                for (int t = 0; t < m_window->documents()->count(); ++t)
                    if (auto* d = qobject_cast<debugger_ui::DebuggingTab*>(m_window->documents()->widget(t)))
                        if (d->debugger()->isPaused())
                            return d;
            }
            return nullptr;
        };

        // Pause at the breakpoint, look at a tensor, resume, finish.
        debugger_ui::DebuggingTab* tab = runToBreakpoint(QStringLiteral("debugged-run"), 5);
        QVERIFY2(tab, qPrintable(panel->statusText()));
        debugger_ui::DebuggerView* view = tab->debugger();
        const QString matmul = view->pausedNode();
        // The hit brings the Debugger forward (not the dashboard) and the panel says where it waits.
        QTRY_COMPARE_WITH_TIMEOUT(m_window->documents()->currentWidget(), static_cast<QWidget*>(tab), 5000);
        QTRY_VERIFY2_WITH_TIMEOUT(panel->statusText().startsWith(QStringLiteral("Paused at ") + matmul),
                                  qPrintable(panel->statusText()), 5000);
        const tensorflow::NodeDef* node = nullptr;
        // The Debugger tab's graph viewer lays the graph out on a worker: wait for it.
        QTRY_VERIFY_WITH_TIMEOUT(tab->graphViewer()->graph() != nullptr, 10000);
        for (const tensorflow::NodeDef& n : tab->graphViewer()->graph()->node())
            if (QString::fromStdString(n.name()) == matmul)
                node = &n;
        QVERIFY2(node && node->op() == "MatMul", qPrintable(matmul));
        QVERIFY2(view->statusText().contains(matmul), qPrintable(view->statusText()));
        QVERIFY2(view->showTensor(QString::fromStdString(node->input(0))), qPrintable(view->statusText()));
        QVERIFY(view->inspector()->hasTensor());
        QCOMPARE(view->inspector()->shownTensor().rank(), 2);
        // F9 on the paused node in the graph adds a breakpoint, kept with the document's project.
        emit tab->graphViewer()->breakpointToggleRequested(matmul);
        QVERIFY(view->breakpointNodes().contains(matmul));
        QVERIFY(editor->isModified());
        QVERIFY(m_window->documents()->tabText(m_window->documents()->indexOf(editor)).endsWith(QStringLiteral(" *")));
        QCOMPARE(editor->project()->debugger.breakpoints.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(editor->project()->debugger.breakpoints[1].pattern), matmul);
        // F9 in the node editor on the node holding the MatMul (a layer node: a breakpoint on its
        // scope) reaches the attached debugger; again removes it.
        view->toggleNodeBreakpoint(matmul); // off again: only op:MatMul is left
        QCOMPARE(view->breakpointList().size(), std::size_t(1));
        QVERIFY(editor->showNode(matmul));
        const std::size_t breakpointsBefore = view->breakpointList().size();
        editor->toggleBreakpointsOnSelection();
        QCOMPARE(view->breakpointList().size(), breakpointsBefore + 1);
        const debugger::Breakpoint added = view->breakpointList().back();
        QVERIFY2((added.target == debugger::Breakpoint::Target::kNameRegex &&
                  std::regex_search(matmul.toStdString(), std::regex(added.pattern))) ||
                     (added.target == debugger::Breakpoint::Target::kNode && added.pattern == matmul.toStdString()),
                 added.pattern.c_str());
        editor->toggleBreakpointsOnSelection();
        QCOMPARE(view->breakpointList().size(), breakpointsBefore);
        // Without breakpoints, Continue runs the remaining steps to the end.
        view->setBreakpoints({});
        view->action(debugger_ui::DebuggerView::Action::kRunContinue)->trigger();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QVERIFY2(panel->statusText().contains(QStringLiteral("Finished at step 5")), qPrintable(panel->statusText()));

        // Stop while paused: the run ends cleanly and the last checkpoint stays the latest (no
        // checkpoint of the interrupted, half-done step).
        QVERIFY(editor->project()->debugger.breakpoints.empty()); // cleared in the panel above
        editor->setDebuggerSettings(saved);
        tab = runToBreakpoint(QStringLiteral("stopped-run"), 1000000);
        QVERIFY2(tab, qPrintable(panel->statusText()));
        const std::string logdir = m_dir.filePath(QStringLiteral("stopped-run")).toStdString();
        auto before = latestCheckpoint(logdir);
        QVERIFY(before);
        tab->debugger()->action(debugger_ui::DebuggerView::Action::kStop)->trigger();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QVERIFY2(panel->statusText().contains(QStringLiteral("not saved")), qPrintable(panel->statusText()));
        auto after = latestCheckpoint(logdir);
        QVERIFY(after);
        QCOMPARE(after->string(), before->string());
        QVERIFY(QFile::exists(QString::fromStdString(after->string() + ".index")));
        panel->setDebugging(false);
    }

    void openingAMissingFileReportsAnError()
    {
        const QString path = m_dir.filePath("missing.pb");
        m_window->openPath(path);
        QVERIFY(waitForOpens(*m_window));
        QCOMPARE(m_window->documents()->count(), 0);
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kError, "missing.pb"));
        QVERIFY(!m_settings->recentFiles().contains(path));
    }

    void droppingFilesOpensThem()
    {
        const QString a = m_dir.filePath("a.pbtxt");
        const QString b = m_dir.filePath("b.bin");
        QVERIFY(tstudio::testing::writeFile(a, kGraphText));
        QVERIFY(tstudio::testing::writeFile(b, "random bytes that are no model"));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(a), QUrl::fromLocalFile(b)});
        // As a window system delivers it: the window must accept the drag before it gets the drop.
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_window.get(), &drop);
        QVERIFY(waitForOpens(*m_window));
        // Unrecognised content is a failed open: no tab, an error in the console naming the file.
        QCOMPARE(m_window->documents()->count(), 1);
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kError, "unrecognised content"));
        QVERIFY(logContains(*m_window->logModel(), LogSeverity::kError, "b.bin"));
    }

    void consoleFiltersBySeverityAndText()
    {
        LogPanel* panel = m_window->logPanel();
        m_window->logModel()->clear();
        logInfo("filter-test", "alpha message");
        logError("filter-test", "beta failure");
        QVERIFY(QTest::qWaitFor([&] { return m_window->logModel()->rowCount() >= 2; }, 5000));
        const int all = panel->visibleRowCount();
        panel->setMinimumSeverity(int(LogSeverity::kError));
        QVERIFY(panel->visibleRowCount() < all);
        QVERIFY(panel->visibleRowCount() >= 1);
        panel->setMinimumSeverity(int(LogSeverity::kInfo));
        QCOMPARE(panel->visibleRowCount(), all);
    }

    void settingsDialogSavesAndAppliesChoices()
    {
        SettingsDialog dialog(m_settings.get(), &m_languages, m_window.get());
        QVERIFY(dialog.deviceBox()->count() >= 1);
        QCOMPARE(dialog.deviceBox()->itemData(0).toString(), QString("/device:CPU:0"));
        dialog.themeBox()->setCurrentIndex(dialog.themeBox()->findData("dark"));
        dialog.apply();
        QCOMPARE(m_settings->theme(), Theme::kDark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        dialog.themeBox()->setCurrentIndex(dialog.themeBox()->findData("light"));
        dialog.apply();
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 150);
    }

    void aboutDialogListsVersions()
    {
        AboutDialog dialog;
        const QString text = dialog.componentsText();
        QVERIFY(text.contains(QStringLiteral("Qt\t%1").arg(qVersion())));
        QVERIFY(text.contains("Eigen\t3.4"));
        QVERIFY(text.contains("protobuf\t3.21"));
        QVERIFY(text.contains("CUDA"));  // either the versions found or "no GPU support compiled in"
    }

    void screenshotWritesAPng()
    {
        const QString out = m_dir.filePath("shot.png");
        ScreenshotRequest request;
        request.outputFile = out;
        request.panel = "console";
        request.openExample = true;
        request.size = QSize(900, 600);
        QCOMPARE(takeScreenshot(*m_window, request), 0);
        QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(900, 600) * m_window->devicePixelRatio());
        QCOMPARE(m_window->documents()->count(), 1);  // the example graph was opened

        request.panel = "no-such-panel";
        QCOMPARE(takeScreenshot(*m_window, request), 1);

        request.panel = "about";
        request.outputFile = m_dir.filePath("about.png");
        QCOMPARE(takeScreenshot(*m_window, request), 0);
        QVERIFY(!QImage(request.outputFile).isNull());
    }

    /// --panel value: a Const node's value and a checkpoint tensor beside a MetaGraph, each in the value
    /// window with the requested view and slice; names that hold no value fail with the reason.
    void valueScreenshotsShowConstsAndCheckpointTensors()
    {
        QTemporaryDir dir;
        const QString meta = dir.filePath("model.ckpt-7.meta");
        QString table;
        for (int i = 0; i < 12; ++i)
            table += QStringLiteral(" float_val: %1").arg(i);
        QVERIFY(tstudio::testing::writeFile(
            meta, QStringLiteral("graph_def {\n"
                                 " node { name: 'table' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }\n"
                                 "  attr { key: 'value' value { tensor { dtype: DT_FLOAT\n"
                                 "   tensor_shape { dim { size: 3 } dim { size: 4 } }%1 } } } }\n"
                                 " node { name: 'w' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }\n"
                                 "  attr { key: 'shape' value { shape { dim { size: 5 } dim { size: 6 } } } } }\n"
                                 "}\n")
                      .arg(table)
                      .toStdString()));
        CpuAllocator allocator;
        std::vector<float> w(30);
        for (int i = 0; i < 30; ++i)
            w[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i);
        auto writer = TensorBundleWriter::create(dir.filePath("model.ckpt-7").toStdString());
        QVERIFY(writer);
        auto value = Tensor::fromVector(allocator, TensorShape{5, 6}, w);
        QVERIFY(value);
        QVERIFY((*writer)->add("w", *value).isOk());
        QVERIFY((*writer)->finish().isOk());
        m_window->openPath(meta);
        QVERIFY(waitForOpens(*m_window));

        auto shownDialog = [&](const QString& name) -> graph_viewer::TensorValueDialog* {
            for (auto* dialog : m_window->findChildren<graph_viewer::TensorValueDialog*>())
                if (dialog->inspector()->tensorName() == name)
                    return dialog;
            return nullptr;
        };
        ScreenshotRequest request;
        request.panel = "value";
        request.size = QSize(800, 600);
        request.outputFile = dir.filePath("table.png");
        request.select = "table";
        request.dashboardTab = "table";
        request.find = "[1:, ::2]";
        QCOMPARE(takeScreenshot(*m_window, request), 0);
        QVERIFY(!QImage(request.outputFile).isNull());
        graph_viewer::TensorValueDialog* dialog = shownDialog("table");
        QVERIFY(dialog);
        QCOMPARE(dialog->inspector()->view(), debugger_ui::TensorInspector::View::Table);
        QCOMPARE(dialog->inspector()->slicedTensor().shape(), (TensorShape{2, 2}));
        QCOMPARE(dialog->inspector()->tableModel()->headerData(1, Qt::Vertical).toString(), QString("2"));
        QCOMPARE(dialog->inspector()->tableModel()->headerData(1, Qt::Horizontal).toString(), QString("2"));
        dialog->close();

        request.outputFile = dir.filePath("w.png");
        request.select = "w"; // a variable: its value comes from the checkpoint beside the MetaGraph
        request.dashboardTab = "heatmap";
        request.find.clear();
        QCOMPARE(takeScreenshot(*m_window, request), 0);
        const QImage shot(request.outputFile); // the dialog at the size asked, or its minimum
        QCOMPARE(shot.height(), qRound(600 * m_window->devicePixelRatio()));
        QVERIFY(shot.width() >= qRound(800 * m_window->devicePixelRatio()));
        dialog = shownDialog("w");
        QVERIFY(dialog);
        QCOMPARE(dialog->inspector()->view(), debugger_ui::TensorInspector::View::HeatMap);
        QCOMPARE(dialog->inspector()->shownTensor().values<float>()[29], 14.5f);
        dialog->close();

        request.select = "no_such_tensor";
        QCOMPARE(takeScreenshot(*m_window, request), 1);
        request.select = "table";
        request.find = "[7]"; // out of bounds: refused, naming why
        QCOMPARE(takeScreenshot(*m_window, request), 1);
    }

private:
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
