// Tests for the Session dock (SessionConsole) over a NodeEditor: values printed as NumPy prints them,
// variables kept between lines and seen by Evaluate…, Re-initialise and Close, the out-of-date
// state after an edit, the history keys, a console without an editor, and lines run under the
// debugger on the same session (tfdbg's wrapped session).
#include "builder/attr_values.h"
#include "debugger/debug_controller.h"
#include "builder/tensor_proto_values.h"
#include "document/document_commands.h"
#include "node_editor/evaluate_dialog.h"
#include "node_editor/interactive_session.h"
#include "node_editor/node_editor.h"
#include "node_editor/session_console.h"
#include "registries/default_registries.h"

#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

#include <google/protobuf/text_format.h>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

/// v = [1, 2] through "assign_v"; "bump" adds [1, 1] to it.
const char* kCounter = R"(
node { name: "v" op: "VariableV2" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 2 } } } } }
node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } }
    float_val: 1 float_val: 2 } } } }
node { name: "assign_v" op: "Assign" input: "v" input: "c" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "one" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 } } } }
node { name: "bump" op: "AssignAdd" input: "v" input: "one" attr { key: "T" value { type: DT_FLOAT } } }
)";

QString lastLines(const SessionConsole& console, int n)
{
    const QStringList lines = console.transcript()->toPlainText().split(QLatin1Char('\n'));
    return lines.mid(std::max<qsizetype>(0, lines.size() - n)).join(QLatin1Char('\n'));
}

} // namespace

class TestSessionConsole : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    bool loadCounter(NodeEditor& editor)
    {
        tensorflow::GraphDef graph;
        if (!google::protobuf::TextFormat::ParseFromString(kCounter, &graph))
            return false;
        return editor.loadGraphDef(graph, QStringLiteral("counter")).isOk();
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void variablesPersistAndEvaluateSharesThem()
    {
        NodeEditor editor(m_registries.get());
        QVERIFY(loadCounter(editor));
        SessionConsole console;
        console.setEditor(&editor);
        QVERIFY(console.statusText().contains("No session yet"));
        QVERIFY(console.submit("v"));
        QVERIFY2(lastLines(console, 2) == "v:0  float32 [2]\n[1. 2.]", qPrintable(lastLines(console, 4)));
        QVERIFY(console.transcript()->toPlainText().contains("Session started with 5 node(s)"));
        QVERIFY(console.submit("bump"));
        QVERIFY(console.submit("bump"));
        QCOMPARE(lastLines(console, 1), QString("[3. 4.]"));
        QVERIFY2(console.statusText().contains("3 run(s)"), qPrintable(console.statusText()));

        // Evaluate… sees the values the console's runs gave the variable.
        const DocNodeId v = editor.document()->findByName("v");
        EvaluateDialog dialog(editor.document(), m_registries.get(), v, nullptr, editor.interactiveSession());
        QVERIFY(dialog.evaluate());
        QCOMPARE(dialog.table()->item(0, 0)->text(), QString("3"));
        QCOMPARE(dialog.table()->item(0, 1)->text(), QString("4"));

        // Re-initialise: a new session, v from its initial value.
        QVERIFY(console.reinitialize());
        QVERIFY(console.submit("v"));
        QCOMPARE(lastLines(console, 1), QString("[1. 2.]"));
        console.closeSession();
        QVERIFY(!editor.interactiveSession()->isOpen());
        QVERIFY(console.statusText().contains("No session yet"));
    }

    /// "debug bump": the run waits before its first node in the controller the handler gets, the
    /// session refuses other lines meanwhile, and once the debugger lets it go the variable keeps what
    /// the debugged run did; a stopped run says so, and the line can be debugged again.
    void debuggedRunsShareTheSession()
    {
        NodeEditor editor(m_registries.get());
        QVERIFY(loadCounter(editor));
        SessionConsole console;
        console.setEditor(&editor);
        std::shared_ptr<DebugController> controller;
        std::shared_ptr<const tensorflow::GraphDef> graph;
        NodeEditor* debugged = nullptr;
        console.setDebugHandler([&](std::shared_ptr<DebugController> c, std::shared_ptr<const tensorflow::GraphDef> g,
                                    NodeEditor* e, const QString&) {
            controller = std::move(c);
            graph = std::move(g);
            debugged = e;
        });
        QSignalSpy finished(&console, &SessionConsole::debuggedRunFinished);
        QVERIFY(console.submit("v"));
        QCOMPARE(lastLines(console, 1), QString("[1. 2.]"));

        QVERIFY(console.submit("debug bump"));
        QVERIFY(controller);
        QCOMPARE(debugged, &editor);
        QVERIFY(graph && graph->node_size() == 5);
        QVERIFY(controller->waitUntilPaused(std::chrono::seconds(10)));
        auto pause = controller->pausePoint();
        QVERIFY(pause.has_value());
        QVERIFY2(pause->node == "v" || pause->node == "one" || pause->node == "bump", pause->node.c_str());
        QVERIFY(console.isDebugging());
        QVERIFY2(console.statusText().contains("under the debugger"), qPrintable(console.statusText()));
        // The session is the debugged run's until it ends.
        QVERIFY(!console.submit("v"));
        QVERIFY2(lastLines(console, 1).contains("A run under the debugger is in progress"),
                 qPrintable(lastLines(console, 2)));
        controller->step();
        QVERIFY(controller->waitUntilPaused(std::chrono::seconds(10)));
        controller->resume();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.back().at(0).toBool(), true);
        QVERIFY(!console.isDebugging());
        QVERIFY2(console.transcript()->toPlainText().contains("The debugged run finished."),
                 qPrintable(lastLines(console, 4)));
        QCOMPARE(lastLines(console, 2), QString("bump:0  float32 [2]\n[2. 3.]")); // AssignAdd's output
        // The debugged run changed the session's variable.
        QVERIFY(console.submit("v"));
        QCOMPARE(lastLines(console, 1), QString("[2. 3.]"));

        // Stopped in the debugger: the run ends Cancelled, before bump ran; the line again.
        QVERIFY(console.debugAgain());
        QVERIFY(controller->waitUntilPaused(std::chrono::seconds(10)));
        controller->cancel();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.back().at(0).toBool(), false);
        QVERIFY2(console.transcript()->toPlainText().contains("Stopped in the debugger"),
                 qPrintable(lastLines(console, 3)));
        QVERIFY(console.submit("v"));
        QCOMPARE(lastLines(console, 1), QString("[2. 3.]"));

        // Closing the session while a run waits in the debugger cancels it first.
        QVERIFY(console.submit("debug bump"));
        QVERIFY(controller->waitUntilPaused(std::chrono::seconds(10)));
        console.closeSession();
        QVERIFY(!console.isDebugging());
        QVERIFY(finished.wait(10000));
    }

    void anEditPutsTheSessionOutOfDate()
    {
        NodeEditor editor(m_registries.get());
        QVERIFY(loadCounter(editor));
        SessionConsole console;
        console.setEditor(&editor);
        QVERIFY(console.submit("bump"));
        auto proto = makeTensorProto(tensorflow::DT_FLOAT, TensorShape({2}), std::vector<double>{5, 6});
        QVERIFY(proto);
        auto set = SetAttrCommand::create(editor.document(), editor.document()->findByName("c"), "value",
                                          attr::tensor(*proto));
        QVERIFY(set);
        editor.document()->undoStack()->push(set->release());
        QVERIFY(!console.submit("v"));
        QVERIFY(lastLines(console, 1).contains("node 'c' is not the node the session holds"));
        QVERIFY2(console.statusText().startsWith("Out of date"), qPrintable(console.statusText()));
        QVERIFY(console.reinitialize());
        QVERIFY(console.submit("v"));
        QCOMPARE(lastLines(console, 1), QString("[5. 6.]"));
    }

    void historyAndEnter()
    {
        NodeEditor editor(m_registries.get());
        QVERIFY(loadCounter(editor));
        SessionConsole console;
        console.setEditor(&editor);
        console.input()->setText("v");
        QTest::keyClick(console.input(), Qt::Key_Return);
        QVERIFY(console.input()->text().isEmpty());
        QCOMPARE(lastLines(console, 1), QString("[1. 2.]"));
        console.input()->setText("bump");
        QTest::keyClick(console.input(), Qt::Key_Return);
        QTest::keyClick(console.input(), Qt::Key_Up);
        QCOMPARE(console.input()->text(), QString("bump"));
        QTest::keyClick(console.input(), Qt::Key_Up);
        QCOMPARE(console.input()->text(), QString("v"));
        QTest::keyClick(console.input(), Qt::Key_Down);
        QTest::keyClick(console.input(), Qt::Key_Down);
        QVERIFY(console.input()->text().isEmpty());
    }

    void eachEditorKeepsItsTranscriptAndAConsoleWithoutOneSaysSo()
    {
        SessionConsole console;
        QVERIFY(!console.submit("v"));
        QVERIFY(console.transcript()->toPlainText().contains("No graph is open in the editor"));
        QVERIFY(!console.input()->isEnabled());
        auto first = std::make_unique<NodeEditor>(m_registries.get());
        NodeEditor second(m_registries.get());
        QVERIFY(loadCounter(*first) && loadCounter(second));
        console.setEditor(first.get());
        QVERIFY(console.submit("bump"));
        console.setEditor(&second);
        QVERIFY(!console.transcript()->toPlainText().contains("bump"));
        QVERIFY(console.submit("v"));
        QCOMPARE(lastLines(console, 1), QString("[1. 2.]")); // its own session: not bumped
        console.setEditor(first.get());
        QVERIFY(console.transcript()->toPlainText().contains(">>> bump"));
        first.reset(); // the editor closes: the console follows none
        QVERIFY(console.editor() == nullptr);
        QVERIFY(!console.input()->isEnabled());
    }
};

QTEST_MAIN(TestSessionConsole)
#include "test_session_console.moc"
