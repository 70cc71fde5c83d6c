// Tests for the Debugger tab as a document's: its title names the document, its breakpoints and watches are
// the document's (only the user's edits are reported back), another document starts it afresh (a paused run
// of the previous one cancelled, nothing of its state carried into the next run), the document's end resets it,
// and a run of an unchanged graph keeps the graph shown while an edited graph is shown again.
#include "debugger/debugger_view.h"
#include "debugger/debugging_tab.h"
#include "graph_viewer/graph_viewer.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QSignalSpy>
#include <QTest>

#include <google/protobuf/text_format.h>

#include <chrono>
#include <future>
#include <memory>

using namespace tstudio;
using namespace tstudio::debugger_ui;
using namespace std::chrono_literals;

namespace {

/// x @ w, then Relu, then out.
const char* kGraph = R"(
node { name: 'x' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
       attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } }
                                            float_val: [1, -2, 3, 4] } } } }
node { name: 'w' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
       attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } }
                                            float_val: [0.5, -1, 2, 1] } } } }
node { name: 'MatMul' op: 'MatMul' input: 'x' input: 'w' attr { key: 'T' value { type: DT_FLOAT } } }
node { name: 'Relu' op: 'Relu' input: 'MatMul' attr { key: 'T' value { type: DT_FLOAT } } }
node { name: 'out' op: 'Identity' input: 'Relu' attr { key: 'T' value { type: DT_FLOAT } } }
)";

debugger::Breakpoint breakpoint(const char* spec)
{
    return debugger::parseBreakpoint(spec).value();
}

/// One document's debugged run: a Session over kGraph (plus `extra` nodes) whose controller starts with the
/// document's saved breakpoints and watches, as the Training panel hands it over; run on another thread.
struct DocumentRun {
    std::shared_ptr<const tensorflow::GraphDef> graph;
    std::unique_ptr<Session> session;
    std::shared_ptr<DebugController> controller = std::make_shared<DebugController>();
    std::future<Status> result;
    std::vector<Tensor> outputs;

    ~DocumentRun()
    {
        if (result.valid()) {
            controller->cancel();
            result.wait();
        }
        controller->sessionClosing();
    }

    bool create(const Registries& registries, const project::DebuggerSettings& saved, const std::string& extra = {})
    {
        auto g = std::make_shared<tensorflow::GraphDef>();
        if (!google::protobuf::TextFormat::ParseFromString(kGraph + extra, g.get()))
            return false;
        graph = g;
        SessionOptions options;
        options.ops = &registries.ops;
        options.kernels = &registries.kernels;
        session = std::make_unique<Session>(options);
        auto set = debugger::BreakpointSet::create(saved.breakpoints);
        if (!set)
            return false;
        controller->setBreakpoints(std::move(*set));
        controller->setWatched(saved.watch);
        return session->create(*g).isOk();
    }

    void start()
    {
        result = std::async(std::launch::async, [this] {
            return session->run(tensorflow::RunOptions(), {}, {"out"}, {}, &outputs, nullptr, controller.get());
        });
    }

    Status wait()
    {
        if (result.wait_for(20s) != std::future_status::ready)
            return internalError("the run did not finish");
        return result.get();
    }
};

} // namespace

class TestDebuggingTab : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        m_registries = std::move(*registries);
    }

    void titleNamesTheDocument()
    {
        DebuggingTab tab(m_registries.get());
        QCOMPARE(tab.title(), QStringLiteral("Debugger"));
        QSignalSpy retitled(&tab, &DebuggingTab::titleChanged);
        QObject document;
        tab.setDocument(&document, QStringLiteral("a.tsproj"));
        QCOMPARE(tab.document(), &document);
        QCOMPARE(tab.title(), QStringLiteral("Debugger — a.tsproj"));
        QCOMPARE(retitled.count(), 1);
        QCOMPARE(retitled.last().at(0).toString(), tab.title());
        // Save As renamed it.
        tab.setDocumentName(QStringLiteral("b.tsproj"));
        QCOMPARE(retitled.count(), 2);
        QCOMPARE(retitled.last().at(0).toString(), QStringLiteral("Debugger — b.tsproj"));
        tab.setDocumentName(QStringLiteral("b.tsproj"));
        QCOMPARE(retitled.count(), 2);
    }

    void onlyTheUsersEditsGoBackToTheDocument()
    {
        DebuggingTab tab(m_registries.get());
        QObject document;
        tab.setDocument(&document, QStringLiteral("a.tsproj"));
        QSignalSpy edited(&tab, &DebuggingTab::settingsEdited);
        // The document's own settings (its project's, or F9 in its editor) are shown, not reported back.
        const project::DebuggerSettings saved{{breakpoint("op:MatMul")}, {"x:0", "MatMul:0"}};
        tab.setSettings(saved);
        QCOMPARE(edited.count(), 0);
        QCOMPARE(tab.settings().breakpoints, saved.breakpoints);
        QCOMPARE(tab.settings().watch, (std::vector<std::string>{"MatMul:0", "x:0"}));
        // F9 in the tab's graph is the user's: reported, with the document's breakpoint kept.
        emit tab.graphViewer()->breakpointToggleRequested(QStringLiteral("Relu"));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(tab.settings().breakpoints.size(), std::size_t(2));
        QCOMPARE(tab.settings().breakpoints[0], breakpoint("op:MatMul"));
        QCOMPARE(tab.settings().breakpoints[1], breakpoint("node:Relu"));
        tab.debugger()->toggleNodeBreakpoint(QStringLiteral("Relu"));
        QCOMPARE(edited.count(), 2);
        QCOMPARE(tab.settings().breakpoints, saved.breakpoints);
    }

    void anotherDocumentStartsAfresh()
    {
        DebuggingTab tab(m_registries.get());
        tab.resize(1200, 700);
        tab.show();
        QObject documentA;
        QObject documentB;
        QSignalSpy edited(&tab, &DebuggingTab::settingsEdited);

        // A's run pauses at A's breakpoint, A's watch armed.
        DocumentRun runA;
        QVERIFY(runA.create(*m_registries, {{breakpoint("op:MatMul")}, {"x:0"}}));
        tab.setDocument(&documentA, QStringLiteral("a.tsproj"));
        tab.attach(runA.controller, runA.graph, QStringLiteral("a.tsproj (training graph)"));
        QCOMPARE(tab.settings().watch, (std::vector<std::string>{"x:0"}));
        QSignalSpy paused(tab.debugger(), &DebuggerView::pausedAt);
        runA.start();
        QVERIFY(paused.wait(10000));
        QCOMPARE(tab.debugger()->pausedNode(), QStringLiteral("MatMul"));

        // B's run: A's paused run is cancelled (nobody could resume it here), the panel is empty,
        // and no breakpoint or watch of A is in B's run.
        tab.setDocument(&documentB, QStringLiteral("b.tsproj"));
        QCOMPARE(tab.title(), QStringLiteral("Debugger — b.tsproj"));
        const Status endA = runA.wait();
        QCOMPARE(endA.code(), StatusCode::kCancelled);
        QCOMPARE(tab.debugger()->runState(), DebuggerView::RunState::kDetached);
        QVERIFY(tab.debugger()->executedNodeNames().isEmpty());
        QVERIFY(tab.settings().breakpoints.empty());
        QVERIFY(tab.settings().watch.empty());
        QVERIFY(tab.graphViewer()->isHidden());

        DocumentRun runB;
        QVERIFY(runB.create(*m_registries, {{breakpoint("node:Relu")}, {}}));
        tab.attach(runB.controller, runB.graph, QStringLiteral("b.tsproj (training graph)"));
        QVERIFY(!tab.graphViewer()->isHidden());
        QCOMPARE(tab.settings().breakpoints, (std::vector<debugger::Breakpoint>{breakpoint("node:Relu")}));
        QVERIFY(runB.controller->watched().empty());
        QCOMPARE(runB.controller->breakpoints().breakpoints(), (std::vector<debugger::Breakpoint>{breakpoint("node:Relu")}));
        runB.start();
        QVERIFY(paused.wait(10000));
        QCOMPARE(tab.debugger()->pausedNode(), QStringLiteral("Relu"));
        // Switching documents is not the user's edit: neither document's settings were reported.
        QCOMPARE(edited.count(), 0);
        tab.debugger()->action(DebuggerView::Action::kRunContinue)->trigger();
        QVERIFY(runB.wait().isOk());
    }

    void theDocumentsEndResetsTheTab()
    {
        DebuggingTab tab(m_registries.get());
        tab.resize(1200, 700);
        tab.show();
        auto document = std::make_unique<QObject>();
        tab.setDocument(document.get(), QStringLiteral("a.tsproj"));
        DocumentRun run;
        QVERIFY(run.create(*m_registries, {{breakpoint("op:MatMul")}, {}}));
        tab.attach(run.controller, run.graph, QStringLiteral("a.tsproj (training graph)"));
        QSignalSpy paused(tab.debugger(), &DebuggerView::pausedAt);
        QSignalSpy closed(&tab, &DebuggingTab::documentClosed);
        run.start();
        QVERIFY(paused.wait(10000));

        document.reset();
        QCOMPARE(closed.count(), 1);
        QCOMPARE(tab.document(), nullptr);
        QCOMPARE(tab.title(), QStringLiteral("Debugger"));
        QCOMPARE(run.wait().code(), StatusCode::kCancelled);
        QCOMPARE(tab.debugger()->runState(), DebuggerView::RunState::kDetached);
        QVERIFY(tab.settings().breakpoints.empty());
        QVERIFY(tab.graphViewer()->isHidden());
    }

    void anEditedGraphIsShownAgain()
    {
        DebuggingTab tab(m_registries.get());
        tab.resize(1200, 700);
        tab.show();
        QObject document;
        tab.setDocument(&document, QStringLiteral("a.tsproj"));
        QSignalSpy loaded(tab.graphViewer(), &graph_viewer::GraphViewer::loaded);
        DocumentRun first;
        QVERIFY(first.create(*m_registries, {}));
        tab.attach(first.controller, first.graph, QStringLiteral("a.tsproj (training graph)"));
        QVERIFY(loaded.wait(10000));
        QVERIFY(tab.graphViewer()->isReady());
        QCOMPARE(tab.graphViewer()->graph()->node_size(), 5);

        // The next run of the same graph keeps the layout (and the user's view of it).
        DocumentRun again;
        QVERIFY(again.create(*m_registries, {}));
        tab.attach(again.controller, again.graph, QStringLiteral("a.tsproj (training graph)"));
        QVERIFY(tab.graphViewer()->isReady()); // a new load would have started at once, not ready
        QCOMPARE(loaded.count(), 1);

        // The document's graph was edited since: the same title, but the new graph is shown.
        DocumentRun edited;
        QVERIFY(edited.create(*m_registries, {},
                              "node { name: 'extra' op: 'Identity' input: 'out' attr { key: 'T' value { type: DT_FLOAT } } }"));
        tab.attach(edited.controller, edited.graph, QStringLiteral("a.tsproj (training graph)"));
        QVERIFY(!tab.graphViewer()->isReady());
        QVERIFY(loaded.wait(10000));
        QCOMPARE(tab.graphViewer()->graph()->node_size(), 6);
    }
};

QTEST_MAIN(TestDebuggingTab)
#include "test_debugging_tab.moc"
