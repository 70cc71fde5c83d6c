// Offscreen tests of the Debugger tab as one document's, in the main window with two projects open:
// the tab names the document it debugs (and follows its Save As), breakpoints and watches set there are
// that document's only, F9 in another document's editor leaves it alone, Run in it trains its document
// whichever the Training panel shows, another document's debugged run takes it over without carrying
// anything across, and closing the debugged document closes it (a paused run cancelled); a line of the
// Session console run under the debugger ("debug LINE") is stepped in the same tab on the document's
// live session.
#include "app_settings.h"
#include "language_manager.h"
#include "main_window.h"
#include "window_test.h"

#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "tensor_view/tensor_inspector.h"
#include "graph_viewer/graph_viewer.h"
#include "node_editor/node_editor.h"
#include "node_editor/session_console.h"
#include "training/training_panel.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace tstudio;

namespace {

const QString kExamples = QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/");

debugger::Breakpoint breakpoint(const char* spec)
{
    return debugger::parseBreakpoint(spec).value();
}

bool contains(const std::vector<std::string>& list, const QString& item)
{
    return std::find(list.begin(), list.end(), item.toStdString()) != list.end();
}

} // namespace

class TestDebuggerDocuments : public tstudio::testing::WindowTest {
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        for (const char* name : {"spirals_forward.pbtxt", "a.tsproj", "b.tsproj"}) // from the test before
            QFile::remove(m_dir.filePath(QString::fromLatin1(name)));
        // Two projects of the same graph (the spirals example: its data is generated), side by side.
        QVERIFY(QFile::copy(kExamples + "spirals_forward.pbtxt", m_dir.filePath("spirals_forward.pbtxt")));
        QVERIFY(QFile::copy(kExamples + "spirals.tsproj", m_dir.filePath("a.tsproj")));
        QVERIFY(QFile::copy(kExamples + "spirals.tsproj", m_dir.filePath("b.tsproj")));
        QVERIFY(openWindow([](MainWindow& window) { window.setOpenErrorDialogs(false); }));
    }

    void cleanup()
    {
        closeWindow();
    }

    void eachDocumentHasItsOwnDebugger()
    {
        node_editor::NodeEditor* a = open("a.tsproj");
        node_editor::NodeEditor* b = open("b.tsproj");
        QVERIFY(a && b && a != b);
        QTabWidget* tabs = m_window->documents();
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        QSignalSpy finished(panel, &training_panel::TrainingPanel::runFinished);
        a->setDebuggerSettings({{breakpoint("op:MatMul")}, {}});

        // A's debugged run pauses at A's breakpoint: the tab is A's and says so.
        tabs->setCurrentWidget(a);
        debugger_ui::DebuggingTab* tab = debugToBreakpoint("a-run");
        QVERIFY2(tab, qPrintable(panel->statusText()));
        QCOMPARE(tab->document(), static_cast<QObject*>(a));
        QCOMPARE(tabs->tabText(tabs->indexOf(tab)), QStringLiteral("Debugger — a.tsproj"));
        debugger_ui::DebuggerView* view = tab->debugger();
        const QString matmul = view->pausedNode();
        QTRY_VERIFY_WITH_TIMEOUT(tab->graphViewer()->graph() != nullptr, 10000);
        QString input;
        for (const tensorflow::NodeDef& node : tab->graphViewer()->graph()->node())
            if (QString::fromStdString(node.name()) == matmul)
                input = QString::fromStdString(node.input(0));
        QVERIFY2(!input.isEmpty(), qPrintable(matmul));
        // A watch set there is A's.
        QVERIFY(view->showTensor(input));
        emit view->inspector()->watchToggled(view->shownTensor(), true);
        QVERIFY(contains(a->project()->debugger.watch, view->shownTensor()));
        const QString watched = view->shownTensor();

        // With B in front, F9 in B's editor is B's only: A's debugger and project keep theirs.
        tabs->setCurrentWidget(b);
        const std::vector<debugger::Breakpoint> aBreakpoints = a->project()->debugger.breakpoints;
        QCOMPARE(view->breakpointList(), aBreakpoints);
        QVERIFY(b->showNode(matmul));
        b->toggleBreakpointsOnSelection();
        QCOMPARE(b->project()->debugger.breakpoints.size(), std::size_t(1));
        QCOMPARE(view->breakpointList(), aBreakpoints);
        QCOMPARE(a->project()->debugger.breakpoints, aBreakpoints);
        // F9 in the Debugger tab's graph, B still the Training panel's document, goes to A's project.
        emit tab->graphViewer()->breakpointToggleRequested(matmul);
        QCOMPARE(a->project()->debugger.breakpoints.size(), aBreakpoints.size() + 1);
        QCOMPARE(b->project()->debugger.breakpoints.size(), std::size_t(1));
        QVERIFY(!contains(b->project()->debugger.watch, watched));
        view->toggleNodeBreakpoint(matmul);
        QCOMPARE(a->project()->debugger.breakpoints, aBreakpoints);

        // Stop, then Run in the tab while B is in front: it is A's training that runs again (into a
        // new log directory: the stopped run's holds checkpoints).
        view->action(debugger_ui::DebuggerView::Action::kStop)->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY(!panel->isRunning());
        tabs->setCurrentWidget(a);
        panel->logDirectoryEdit()->setText(m_dir.filePath("a-run-2"));
        tabs->setCurrentWidget(b);
        view->action(debugger_ui::DebuggerView::Action::kRunContinue)->trigger();
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));
        QCOMPARE(panel->runningDocument(), static_cast<const QObject*>(a));
        QTRY_VERIFY_WITH_TIMEOUT(view->isPaused(), 30000);
        QCOMPARE(tab->document(), static_cast<QObject*>(a));
        view->action(debugger_ui::DebuggerView::Action::kStop)->trigger();
        QVERIFY(finished.wait(60000));

        // B's debugged run takes the tab over: B's name, B's breakpoints, none of A's watches.
        tabs->setCurrentWidget(b);
        debugger_ui::DebuggingTab* bTab = debugToBreakpoint("b-run");
        QVERIFY2(bTab, qPrintable(panel->statusText()));
        QCOMPARE(bTab, tab);
        QCOMPARE(tab->document(), static_cast<QObject*>(b));
        QCOMPARE(tabs->tabText(tabs->indexOf(tab)), QStringLiteral("Debugger — b.tsproj"));
        QCOMPARE(view->breakpointList(), b->project()->debugger.breakpoints);
        QVERIFY(view->watchList().empty());
        QVERIFY(!contains(view->controller()->watched(), watched));
        QVERIFY(contains(a->project()->debugger.watch, watched)); // A keeps it for its next run

        // Save As renames the document: the tab follows.
        QVERIFY(b->saveAs(m_dir.filePath("b2.tsproj")).isOk());
        QCOMPARE(tabs->tabText(tabs->indexOf(tab)), QStringLiteral("Debugger — b2.tsproj"));

        // Closing B while its run is paused closes its Debugger tab; the run ends.
        QPointer<debugger_ui::DebuggingTab> guard(tab);
        discardOnQuestion();
        emit tabs->tabCloseRequested(tabs->indexOf(b));
        QVERIFY(guard.isNull());
        QVERIFY(finished.wait(60000));
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY(!qobject_cast<debugger_ui::DebuggingTab*>(tabs->widget(i)));
        QCOMPARE(tabs->indexOf(a) >= 0, true);
    }

    /// "debug LINE" in the Session console: the Debugger tab opens on the document paused before the
    /// run's first node, stops at the document's breakpoint, shows the live values, and the run's
    /// values reach the console; Run in the tab debugs the line again; closing the document while it
    /// waits ends it.
    void sessionConsoleLinesRunInTheDebugger()
    {
        node_editor::NodeEditor* a = open("a.tsproj");
        QVERIFY(a);
        a->setDebuggerSettings({{breakpoint("op:MatMul")}, {}});
        QTabWidget* tabs = m_window->documents();
        node_editor::SessionConsole* console = m_window->sessionConsole();
        QCOMPARE(console->editor(), a);
        QSignalSpy ended(console, &node_editor::SessionConsole::debuggedRunFinished);
        QVERIFY(console->submit(QStringLiteral("debug dense_2/BiasAdd with inputs[4,2]=1,2,3,4,5,6,7,8")));
        auto* tab = qobject_cast<debugger_ui::DebuggingTab*>(tabs->currentWidget());
        QVERIFY(tab);
        QCOMPARE(tab->document(), static_cast<QObject*>(a));
        debugger_ui::DebuggerView* view = tab->debugger();
        QTRY_VERIFY_WITH_TIMEOUT(view->isPaused(), 10000); // before the first node
        view->action(debugger_ui::DebuggerView::Action::kRunContinue)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(view->isPaused() && view->pausedNode().endsWith(QStringLiteral("MatMul")), 10000);
        // The inspector shows the live session's values: the fed input of the first layer.
        QVERIFY2(view->showTensor(QStringLiteral("inputs:0")), qPrintable(view->pausedNode()));
        // Continue past the next layers' MatMuls to the end.
        QVERIFY(QTest::qWaitFor(
            [&] {
                if (view->isPaused())
                    view->action(debugger_ui::DebuggerView::Action::kRunContinue)->trigger();
                return !ended.isEmpty();
            },
            20000));
        QCOMPARE(ended.back().at(0).toBool(), true);
        const QString transcript = console->transcript()->toPlainText();
        QVERIFY2(transcript.contains(QStringLiteral("dense_2/BiasAdd:0  float32 [4,2]")), qPrintable(transcript));

        // Run in the tab debugs the line again; closing the document while it waits ends it.
        view->action(debugger_ui::DebuggerView::Action::kRunContinue)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(console->isDebugging() && view->isPaused(), 10000);
        QPointer<debugger_ui::DebuggingTab> guard(tab);
        discardOnQuestion();
        emit tabs->tabCloseRequested(tabs->indexOf(a));
        QVERIFY(guard.isNull());
        QVERIFY(!console->isDebugging());
    }

private:
    node_editor::NodeEditor* open(const QString& name)
    {
        m_window->openPath(m_dir.filePath(name));
        if (!QTest::qWaitFor([this] { return m_window->pendingOpens() == 0; }, 20000))
            return nullptr;
        return qobject_cast<node_editor::NodeEditor*>(m_window->documents()->currentWidget());
    }

    /// Starts the debugged training of the document in front into `run` (many steps) and returns the
    /// Debugger tab once the run is paused.
    debugger_ui::DebuggingTab* debugToBreakpoint(const QString& run)
    {
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        panel->logDirectoryEdit()->setText(m_dir.filePath(run));
        panel->stepsBox()->setValue(100000);
        panel->setDebugging(true);
        if (!panel->start())
            return nullptr;
        debugger_ui::DebuggingTab* found = nullptr;
        const bool settled = QTest::qWaitFor(
            [&] {
                for (int i = 0; i < m_window->documents()->count(); ++i)
                    if (auto* tab = qobject_cast<debugger_ui::DebuggingTab*>(m_window->documents()->widget(i)))
                        if (tab->debugger()->isPaused())
                            found = tab;
                return found != nullptr || !panel->isRunning();
            },
            60000);
        return settled ? found : nullptr;
    }

    /// Answers the "unsaved changes" question of the next close with Discard.
    void discardOnQuestion()
    {
        QTimer::singleShot(0, this, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->button(QMessageBox::Discard)->click();
        });
    }

};

QTEST_MAIN(TestDebuggerDocuments)
#include "test_debugger_documents.moc"
