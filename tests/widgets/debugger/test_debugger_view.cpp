// Tests for the debugger panel: a real Session run on another thread pauses at a breakpoint, the view lists the
// executed nodes and the paused node's tensors and node info, steps, steps over a name scope, stops after the
// first NaN, finishes; a view destroyed while paused cancels its run; the breakpoint table's edits round-trip.
#include "debugger/breakpoint_list_model.h"
#include "debugger/breakpoint_list_view.h"
#include "debugger/debugger_view.h"
#include "debugger/execution_list_model.h"
#include "debugger/execution_list_view.h"
#include "debugger/node_info_view.h"
#include "tensor_view/tensor_inspector.h"
#include "framework/allocator.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <google/protobuf/text_format.h>

#include <chrono>
#include <cmath>
#include <future>
#include <memory>

using namespace tstudio;
using namespace tstudio::debugger_ui;
using namespace std::chrono_literals;

namespace {

using Action = DebuggerView::Action;

std::string constNode(const std::string& name, const std::vector<float>& values)
{
    std::string text = "node { name: '" + name +
                       "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
                       "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } "
                       "dim { size: 2 } }";
    for (float v : values)
        text += " float_val: " + std::to_string(v);
    return text + " } } } }\n";
}

/// x @ w in scope layer1, then Relu, then out (which also waits for x through a control edge).
const std::string kGraph = constNode("x", {1, -2, 3, 4}) + constNode("layer1/w", {0.5f, -1, 2, 1}) +
                           "node { name: 'layer1/MatMul' op: 'MatMul' input: 'x' input: 'layer1/w' "
                           "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                           "node { name: 'layer1/Relu' op: 'Relu' input: 'layer1/MatMul' "
                           "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                           "node { name: 'out' op: 'Identity' input: 'layer1/Relu' input: '^x' "
                           "attr { key: 'T' value { type: DT_FLOAT } } }\n";

/// 0/0 makes NaN; "after" comes later.
const std::string kNanGraph = constNode("zero", {0, 0, 0, 0}) + constNode("one", {1, 1, 1, 1}) +
                              "node { name: 'ratio' op: 'RealDiv' input: 'one' input: 'one' "
                              "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                              "node { name: 'nan' op: 'RealDiv' input: 'zero' input: 'zero' "
                              "attr { key: 'T' value { type: DT_FLOAT } } }\n"
                              "node { name: 'after' op: 'Add' input: 'nan' input: 'ratio' "
                              "attr { key: 'T' value { type: DT_FLOAT } } }\n";

/// A Placeholder fed as a data source feeds it, then a scope that uses it once and a node that does not.
const std::string kFedGraph =
    "node { name: 'images' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
    constNode("layer1/w", {0.5f, -1, 2, 1}) +
    "node { name: 'layer1/MatMul' op: 'MatMul' input: 'images' input: 'layer1/w' "
    "attr { key: 'T' value { type: DT_FLOAT } } }\n"
    "node { name: 'layer1/Relu' op: 'Relu' input: 'layer1/MatMul' attr { key: 'T' value { type: DT_FLOAT } } }\n";

/// A Session over a text GraphDef with a DebugController, runs started on another thread when the view asks.
struct DebugRun {
    std::shared_ptr<const tensorflow::GraphDef> graph;
    std::unique_ptr<Session> session;
    std::shared_ptr<DebugController> controller = std::make_shared<DebugController>();
    std::future<Status> result;
    std::vector<Tensor> outputs;
    std::string fetch;
    std::vector<std::pair<std::string, Tensor>> feeds; ///< what each run is fed (a data source's batch)

    ~DebugRun()
    {
        if (result.valid()) {
            controller->cancel();
            result.wait();
        }
        controller->sessionClosing();
    }

    bool create(const Registries& registries, const std::string& text, std::string fetchName)
    {
        auto g = std::make_shared<tensorflow::GraphDef>();
        if (!google::protobuf::TextFormat::ParseFromString(text, g.get()))
            return false;
        graph = g;
        fetch = std::move(fetchName);
        SessionOptions options;
        options.ops = &registries.ops;
        options.kernels = &registries.kernels;
        session = std::make_unique<Session>(options);
        return session->create(*g).isOk();
    }

    /// Starts a run with the controller attached, on another thread.
    void start()
    {
        outputs.clear();
        result = std::async(std::launch::async, [this] {
            return session->run(tensorflow::RunOptions(), feeds, {fetch}, {}, &outputs, nullptr, controller.get());
        });
    }

    /// What the owner of a DebuggerView does on startRequested.
    void connect(DebuggerView& view)
    {
        QObject::connect(&view, &DebuggerView::startRequested, &view, [this, &view] {
            start();
            view.notifyRunStarted();
        });
    }

    Status wait()
    {
        if (result.wait_for(20s) != std::future_status::ready)
            return internalError("the run did not finish");
        return result.get();
    }
};

QStringList tensorRows(const QTreeWidget* tree)
{
    QStringList rows;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = tree->topLevelItem(i);
        rows << item->text(0) + ' ' + item->text(1) + ' ' + item->text(2) + ' ' + item->text(3);
    }
    return rows;
}

QStringList topLevelNodes(const QTreeWidget* tree)
{
    QStringList nodes;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        nodes << tree->topLevelItem(i)->text(0) + ' ' + tree->topLevelItem(i)->text(2);
    return nodes;
}

} // namespace

class TestDebuggerView : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        m_registries = std::move(*registries);
    }

    void pausesAtABreakpointStepsAndFinishes()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kGraph, "out"));
        DebuggerView view;
        view.resize(1200, 800);
        view.show();
        run.connect(view);
        view.attach(run.controller, run.graph);
        QSignalSpy paused(&view, &DebuggerView::pausedAt);
        QSignalSpy executed(&view, &DebuggerView::executedNodesChanged);
        QCOMPARE(view.runState(), DebuggerView::RunState::kIdle);
        QVERIFY(view.breakpointModel()->addFromSpec("op:MatMul"));

        view.action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("layer1/MatMul"));
        QVERIFY(view.isPaused());
        QCOMPARE(view.statusText(), QString("Paused before layer1/MatMul (breakpoint op:MatMul)"));
        QCOMPARE(view.findChild<QLabel*>("statusLabel")->text(), view.statusText());
        // The two constants ran; the list says what they made.
        QCOMPARE(view.executedNodeNames(), (QStringList{"x", "layer1/w"}));
        QCOMPARE(executed.last().at(0).toStringList(), (QStringList{"x", "layer1/w"}));
        ExecutionListModel* list = view.executionModel();
        QCOMPARE(list->rowCount(), 2);
        QCOMPARE(list->index(0, ExecutionListModel::kOp).data().toString(), QString("Const"));
        QCOMPARE(list->index(0, ExecutionListModel::kDtype).data().toString(), QString("float32"));
        QCOMPARE(list->index(0, ExecutionListModel::kShape).data().toString(), QString("[2,2]"));
        QCOMPARE(list->index(0, ExecutionListModel::kSize).data(ExecutionListModel::kValueRole).toLongLong(), 16);
        QCOMPARE(list->index(0, ExecutionListModel::kDevice).data().toString(), QString("CPU:0"));
        // The paused node's inputs, with their values from the pause.
        QCOMPARE(tensorRows(view.tensorsTree()),
                 (QStringList{"x:0 input 0 float32 [2,2]", "layer1/w:0 input 1 float32 [2,2]"}));
        // Node info: the paused node, its inputs and its consumer.
        NodeInfoView* info = view.nodeInfo();
        QCOMPARE(info->node(), QString("layer1/MatMul"));
        QCOMPARE(topLevelNodes(info->findChild<QTreeWidget*>("inputsTree")), (QStringList{"x x", "layer1/w layer1/w"}));
        QCOMPARE(topLevelNodes(info->findChild<QTreeWidget*>("consumersTree")),
                 (QStringList{"layer1/Relu layer1/MatMul"}));
        // An input in the inspector: x's value.
        QVERIFY(view.showTensor("layer1/w"));
        QCOMPARE(view.shownTensor(), QString("layer1/w:0"));
        QCOMPARE(view.inspector()->tensorName(), QString("layer1/w:0"));
        const Tensor& shown = view.inspector()->shownTensor();
        QCOMPARE(shown.values<float>()[0], 0.5f);
        QCOMPARE(shown.values<float>()[1], -1.0f);
        // Not run yet: no value, and the reason.
        QVERIFY(!view.showTensor("out:0"));
        QVERIFY(view.findChild<QLabel*>("tensorMessageLabel")->text().contains("has not run"));

        // Step: MatMul runs, the pause moves to Relu.
        view.action(Action::kStep)->trigger();
        QCOMPARE(paused.last().at(0).toString(), QString()); // running again
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("layer1/Relu"));
        QCOMPARE(view.statusText(), QString("Paused before layer1/Relu (step)"));
        QCOMPARE(view.executedNodeNames(), (QStringList{"x", "layer1/w", "layer1/MatMul"}));
        // x @ w = [[1*0.5 - 2*2, 1*-1 - 2*1], [3*0.5 + 4*2, 3*-1 + 4*1]] (checked with NumPy: np.array([[1,-2],[3,4]])
        // @ np.array([[0.5,-1],[2,1]]) == [[-3.5,-3],[9.5,1]]).
        QVERIFY(view.showTensor("layer1/MatMul:0"));
        const std::vector<float> product(view.inspector()->shownTensor().values<float>().begin(),
                                         view.inspector()->shownTensor().values<float>().end());
        QCOMPARE(product, (std::vector<float>{-3.5f, -3.0f, 9.5f, 1.0f}));

        // For a look at the panel: TSTUDIO_DEBUGGER_PNG=<path> writes it as it is now.
        if (const QString png = qEnvironmentVariable("TSTUDIO_DEBUGGER_PNG"); !png.isEmpty()) {
            view.breakpointModel()->addFromSpec("any if max > 100");
            view.breakpointModel()->addFromSpec("regex:^layer1/ if has_inf_or_nan");
            QApplication::processEvents();
            QVERIFY(view.grab().save(png));
            // The other tabs, next to it: "-breakpoints.png", "-nodeinfo.png".
            auto* left = view.findChild<QTabWidget*>("leftTabs");
            auto* right = view.findChild<QTabWidget*>("rightTabs");
            left->setCurrentIndex(1);
            right->setCurrentIndex(1);
            view.nodeInfo()->setDepth(3);
            QApplication::processEvents();
            QString base = png;
            base.chop(4);
            QVERIFY(view.grab().save(base + "-breakpoints-nodeinfo.png"));
            left->setCurrentIndex(0);
            right->setCurrentIndex(0);
            view.nodeInfo()->setDepth(1);
        }

        // Clicking an executed row shows that node.
        QSignalSpy activated(&view, &DebuggerView::nodeActivated);
        QTableView* table = view.executionView()->table();
        const QModelIndex row = table->model()->index(2, ExecutionListModel::kNode);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().at(0).toString(), QString("layer1/MatMul"));
        QCOMPARE(view.nodeInfo()->node(), QString("layer1/MatMul"));
        QCOMPARE(tensorRows(view.tensorsTree()),
                 (QStringList{"x:0 input 0 float32 [2,2]", "layer1/w:0 input 1 float32 [2,2]",
                              "layer1/MatMul:0 output 0 float32 [2,2]"}));

        // Continue: the run finishes with Relu's result.
        view.action(Action::kRunContinue)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(view.runState(), DebuggerView::RunState::kFinished, 10000);
        QVERIFY(run.wait().isOk());
        QCOMPARE(view.statusText(), QString("Finished run 1"));
        QCOMPARE(paused.last().at(0).toString(), QString());
        QTRY_COMPARE(view.executedNodeNames(), (QStringList{"x", "layer1/w", "layer1/MatMul", "layer1/Relu", "out"}));
        QCOMPARE(run.outputs.size(), std::size_t(1));
        const auto out = run.outputs[0].values<float>();
        QCOMPARE(std::vector<float>(out.begin(), out.end()), (std::vector<float>{0, 0, 9.5f, 1}));
    }

    void fedPlaceholderIsInspectable()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kFedGraph, "layer1/Relu"));
        static CpuAllocator allocator; // outlives the run and the view's copies
        auto batch = Tensor::fromVector<float>(allocator, TensorShape({2, 2}), {1, -2, 3, 4});
        QVERIFY(batch);
        run.feeds = {{"images", *batch}};
        DebuggerView view;
        view.resize(1200, 800);
        view.show();
        run.connect(view);
        view.attach(run.controller, run.graph);
        QSignalSpy paused(&view, &DebuggerView::pausedAt);
        // Paused before Relu: the fed tensor is no input of the node paused at, and its node never runs.
        QVERIFY(view.breakpointModel()->addFromSpec("node:layer1/Relu"));
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("layer1/Relu"));
        QVERIFY(!view.executedNodeNames().contains("images"));
        QVERIFY2(view.showTensor("images"), qPrintable(view.findChild<QLabel*>("tensorMessageLabel")->text()));
        QCOMPARE(view.shownTensor(), QString("images:0"));
        const Tensor& shown = view.inspector()->shownTensor();
        QCOMPARE(shown.shape(), TensorShape({2, 2}));
        QCOMPARE(shown.values<float>()[1], -2.0f);
        QCOMPARE(shown.values<float>()[3], 4.0f);
        // MatMul's inputs list it with the feed's dtype and shape, not as "not run".
        emit view.executionView()->nodeClicked("layer1/MatMul");
        QCOMPARE(tensorRows(view.tensorsTree()).first(), QString("images:0 input 0, fed float32 [2,2]"));
        // The Placeholder itself lists its fed output.
        emit view.executionView()->nodeClicked("images");
        QCOMPARE(tensorRows(view.tensorsTree()), (QStringList{"images:0 output 0, fed float32 [2,2]"}));
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(run.wait().isOk());
    }

    void executionListFilters()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kGraph, "out"));
        DebuggerView view;
        run.connect(view);
        view.attach(run.controller, run.graph);
        view.action(Action::kRunContinue)->trigger(); // no breakpoint: runs through
        QVERIFY(run.wait().isOk());
        QTRY_COMPARE(view.executionModel()->rowCount(), 5);
        ExecutionListView* list = view.executionView();
        auto* name = list->findChild<QLineEdit*>("nameFilterEdit");
        auto* op = list->findChild<QLineEdit*>("opFilterEdit");
        auto* status = list->findChild<QLabel*>("filterStatusLabel");
        name->setText("^layer1/");
        QCOMPARE(list->filter()->rowCount(), 3);
        QCOMPARE(status->text(), QString("Showing 3 of 5 executed nodes"));
        op->setText("Const|Relu");
        QCOMPARE(list->filter()->rowCount(), 2);
        name->setText("(");
        QVERIFY(status->text().startsWith("Invalid name filter"));
        QCOMPARE(list->filter()->rowCount(), 3); // the invalid filter filters nothing; the op filter still does
        name->clear();
        op->clear();
        auto* device = list->findChild<QComboBox*>("deviceFilterCombo");
        QCOMPARE(device->count(), 2);
        QCOMPARE(device->itemText(1), QString("CPU:0"));
        device->setCurrentIndex(1);
        QCOMPARE(list->filter()->rowCount(), 5);
        // Sorting by size keeps every row.
        list->table()->sortByColumn(ExecutionListModel::kSize, Qt::DescendingOrder);
        QCOMPARE(list->filter()->rowCount(), 5);
    }

    void stepOverScopeAndRunToCursor()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kGraph, "out"));
        DebuggerView view;
        run.connect(view);
        view.attach(run.controller, run.graph);
        QSignalSpy paused(&view, &DebuggerView::pausedAt);
        QVERIFY(!view.action(Action::kRunToCursor)->isEnabled());
        view.setCursorNode("layer1/MatMul");
        QVERIFY(view.action(Action::kRunToCursor)->isEnabled());
        view.action(Action::kRunToCursor)->trigger(); // starts the run
        QVERIFY(paused.wait(10000));
        QCOMPARE(view.statusText(), QString("Paused before layer1/MatMul (run to cursor)"));
        QVERIFY(view.action(Action::kStepOverScope)->isEnabled());
        view.action(Action::kStepOverScope)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("out"));
        QCOMPARE(view.statusText(), QString("Paused before out (stepped over scope)"));
        view.action(Action::kStop)->trigger();
        QCOMPARE(run.wait().code(), StatusCode::kCancelled);
        QTRY_COMPARE(view.statusText(), QString("Run 1 stopped"));
    }

    void stopsAfterTheFirstNaN()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kNanGraph, "after"));
        DebuggerView view;
        run.connect(view);
        view.action(Action::kStopOnNonFinite)->setChecked(true);
        view.attach(run.controller, run.graph);
        QSignalSpy paused(&view, &DebuggerView::pausedAt);
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("nan"));
        QCOMPARE(view.statusText(), QString("Paused after nan (output 0 of node 'nan' has NaN)"));
        // After the node: its output is listed and inspectable.
        QCOMPARE(tensorRows(view.tensorsTree()),
                 (QStringList{"zero:0 input 0 float32 [2,2]", "zero:0 input 1 float32 [2,2]",
                              "nan:0 output 0 float32 [2,2]"}));
        QVERIFY(view.showTensor("nan:0"));
        QVERIFY(std::isnan(view.inspector()->shownTensor().values<float>()[0]));
        // NaN + 1 is NaN again: the next stop is 'after'.
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("after"));
        // Without the stop the run goes to its end.
        view.action(Action::kStopOnNonFinite)->setChecked(false);
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(run.wait().isOk());
        QTRY_COMPARE(view.statusText(), QString("Finished run 1"));
    }

    void watchedHistoryAcrossRunsAndContinueRuns()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kGraph, "out"));
        DebuggerView view;
        run.connect(view);
        view.attach(run.controller, run.graph);
        view.setBreakpoints({*debugger::parseBreakpoint("node:layer1/Relu")});
        QSignalSpy paused(&view, &DebuggerView::pausedAt);
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toString(), QString("layer1/Relu"));

        // Watch MatMul's output with the inspector's Watch button: the controller keeps it from now on.
        QVERIFY(view.showTensor("layer1/MatMul:0"));
        QToolButton* watch = nullptr;
        for (QToolButton* button : view.inspector()->findChildren<QToolButton*>())
            if (button->isCheckable())
                watch = button;
        QVERIFY(watch);
        watch->click();
        QCOMPARE(run.controller->watched(), (std::vector<std::string>{"layer1/MatMul:0"}));
        QVERIFY(view.inspector()->historyChart()->points().empty()); // it ran before the watch began

        // Continue 1 run: this run ends without stopping at the breakpoint, the next pauses at its first node.
        view.findChild<QSpinBox*>("continueRunsSpin")->setValue(1);
        view.action(Action::kContinueRuns)->trigger();
        QVERIFY(run.wait().isOk());
        QTRY_COMPARE(view.statusText(), QString("Finished run 1"));
        run.start(); // the owner's next step, as a training loop runs them
        view.notifyRunStarted();
        QCOMPARE(view.statusText(), QString("Running"));
        QVERIFY(paused.wait(10000));
        QCOMPARE(view.statusText(), QString("Paused before x (paused)"));
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QCOMPARE(view.statusText(), QString("Paused before layer1/Relu (breakpoint node:layer1/Relu)"));

        // The second run's MatMul value is in the history, shown for the watched tensor.
        QVERIFY(view.showTensor("layer1/MatMul:0"));
        QVERIFY(view.inspector()->isWatched());
        const auto& points = view.inspector()->historyChart()->points();
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points[0].run, std::int64_t(1));
        QCOMPARE(points[0].max, 9.5);
        QCOMPARE(points[0].min, -3.5);
        view.action(Action::kRunContinue)->trigger();
        QVERIFY(run.wait().isOk());
        QTRY_COMPARE(view.statusText(), QString("Finished run 2"));
    }

    void destroyingAPausedViewCancelsItsRun()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kGraph, "out"));
        auto view = std::make_unique<DebuggerView>();
        run.connect(*view);
        view->attach(run.controller, run.graph);
        view->setBreakpoints({*debugger::parseBreakpoint("node:layer1/Relu")});
        QSignalSpy paused(view.get(), &DebuggerView::pausedAt);
        view->action(Action::kRunContinue)->trigger();
        QVERIFY(paused.wait(10000));
        QVERIFY(run.controller->isPaused());
        view.reset();
        const Status status = run.wait();
        QCOMPARE(status.code(), StatusCode::kCancelled);
        QVERIFY(run.outputs.empty());

        // A view destroyed while its run goes on leaves nothing that could stop it: the next run with the same
        // breakpoint list in the controller is not held.
        auto second = std::make_unique<DebuggerView>();
        second->attach(run.controller, run.graph);
        second->setBreakpoints({*debugger::parseBreakpoint("op:Relu")});
        QCOMPARE(run.controller->breakpoints().breakpoints().size(), std::size_t(1));
        second.reset();
        QVERIFY(run.controller->breakpoints().empty());
        QVERIFY(run.session->run({}, {"out"}, {}, &run.outputs, run.controller.get()).isOk());
    }

    void breakpointsReachTheControllerAndRoundTrip()
    {
        DebugRun run;
        QVERIFY(run.create(*m_registries, kGraph, "out"));
        DebuggerView view;
        view.attach(run.controller, run.graph);
        QSignalSpy changed(&view, &DebuggerView::breakpointsChanged);
        view.toggleNodeBreakpoint("layer1/Relu");
        QCOMPARE(changed.count(), 1);
        QCOMPARE(view.breakpointNodes(), (QSet<QString>{"layer1/Relu"}));
        QCOMPARE(run.controller->breakpoints().breakpoints().size(), std::size_t(1));
        QCOMPARE(debugger::formatBreakpoint(run.controller->breakpoints().breakpoints()[0]),
                 std::string("node:layer1/Relu"));

        // Added from the spec line; a bad spec shows the parser's message and adds nothing.
        BreakpointListView* panel = view.breakpointsView();
        auto* spec = panel->findChild<QLineEdit*>("breakpointSpecEdit");
        spec->setText("op:Log if has_nan");
        QTest::keyClick(spec, Qt::Key_Return);
        QCOMPARE(view.breakpointList().size(), std::size_t(2));
        QVERIFY(spec->text().isEmpty());
        spec->setText("op:");
        panel->findChild<QPushButton*>("addBreakpointButton")->click();
        QCOMPARE(view.breakpointList().size(), std::size_t(2));
        QVERIFY(panel->errorText().contains("op"));
        QCOMPARE(spec->text(), QString("op:"));

        // Edits: condition, enabled, target, pattern; refused edits keep the breakpoint.
        BreakpointListModel* model = view.breakpointModel();
        QVERIFY(model->setData(model->index(1, BreakpointListModel::kCondition), "max > 100", Qt::EditRole));
        QCOMPARE(model->index(1, 0).data(BreakpointListModel::kSpecRole).toString(), QString("op:Log if max > 100"));
        QVERIFY(!model->setData(model->index(1, BreakpointListModel::kCondition), "maxx > 1", Qt::EditRole));
        QVERIFY(!model->lastError().isEmpty());
        QVERIFY(panel->errorText() == model->lastError());
        QVERIFY(model->setData(model->index(1, BreakpointListModel::kTarget), "any", Qt::EditRole));
        QCOMPARE(model->index(1, 0).data(BreakpointListModel::kSpecRole).toString(), QString("any if max > 100"));
        QVERIFY(!(model->flags(model->index(1, BreakpointListModel::kPattern)) & Qt::ItemIsEditable));
        QVERIFY(!model->setData(model->index(0, BreakpointListModel::kPattern), "layer1/Relu:0", Qt::EditRole));
        QVERIFY(model->setData(model->index(0, BreakpointListModel::kTarget),
                               static_cast<int>(debugger::Breakpoint::Target::kNameRegex), Qt::EditRole));
        QVERIFY(model->setData(model->index(0, BreakpointListModel::kPattern), "^layer1/", Qt::EditRole));
        QVERIFY(!model->setData(model->index(0, BreakpointListModel::kPattern), "([", Qt::EditRole));
        QCOMPARE(model->index(0, 0).data(BreakpointListModel::kSpecRole).toString(), QString("regex:^layer1/"));
        QVERIFY(model->setData(model->index(0, BreakpointListModel::kEnabled), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(!view.breakpointList()[0].enabled);
        QCOMPARE(run.controller->breakpoints().breakpoints(), view.breakpointList());
        QVERIFY(view.breakpointNodes().isEmpty());

        // The list round-trips through setBreakpoints (what a project load does).
        const auto saved = view.breakpointList();
        DebuggerView other;
        other.setBreakpoints(saved);
        QCOMPARE(other.breakpointList(), saved);

        // Toggling a node with breakpoints removes them all; removing rows from the table.
        view.toggleNodeBreakpoint("out");
        model->setData(model->index(2, BreakpointListModel::kCondition), "has_inf", Qt::EditRole);
        view.toggleNodeBreakpoint("out");
        QCOMPARE(view.breakpointList().size(), std::size_t(2));
        QVERIFY(model->removeRows(0, 2));
        QVERIFY(view.breakpointList().empty());
        QVERIFY(run.controller->breakpoints().empty());
    }
};

QTEST_MAIN(TestDebuggerView)
#include "test_debugger_view.moc"
