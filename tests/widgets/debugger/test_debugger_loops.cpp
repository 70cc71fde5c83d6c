// Tests for the debugger panel on a tf.while_loop: a breakpoint on a body node pauses in every iteration
// with the frame and iteration in the status, and the execution list shows each execution of the body
// node with its iteration.
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "debugger/breakpoint_list_model.h"
#include "debugger/debugger_view.h"
#include "debugger/execution_list_model.h"
#include "tensor_view/tensor_inspector.h"
#include "graph_run.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <chrono>
#include <future>
#include <memory>

using namespace tstudio;
using namespace tstudio::debugger_ui;
using namespace std::chrono_literals;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

using Action = DebuggerView::Action;
constexpr int kIterations = 5;

/// i, x = 0, 1.0; while i < 5: i, x = i + 1, x * 2 (x is 32 at the end, fetched as while/Exit_1).
Expected<std::vector<Output>> doublingLoop(GraphBuilder& b)
{
    TSTUDIO_TRY(i0, scalarInt32(b, 0, "i0"));
    TSTUDIO_TRY(x0, ops::constant(b, 1.0, tf::DT_FLOAT, "x0"));
    return whileLoop(
        b,
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
            TSTUDIO_TRY(n, scalarInt32(g, kIterations, "Less/y"));
            TSTUDIO_TRY(less, g.op("Less", {v[0], n}));
            return less.output(0);
        },
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
            TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
            TSTUDIO_TRY(i, ops::add(g, v[0], one, "add"));
            TSTUDIO_TRY(two, ops::constant(g, 2.0, tf::DT_FLOAT, "mul/y"));
            TSTUDIO_TRY(x, ops::mul(g, v[1], two, "mul"));
            return std::vector<Output>{i, x};
        },
        {i0, x0});
}

/// The loop's Session with a DebugController; runs start on another thread when the view asks.
struct LoopRun {
    std::shared_ptr<const tf::GraphDef> graph;
    std::unique_ptr<Session> session;
    std::shared_ptr<DebugController> controller = std::make_shared<DebugController>();
    std::future<Status> result;
    std::vector<Tensor> outputs;

    ~LoopRun()
    {
        if (result.valid()) {
            controller->cancel();
            result.wait();
        }
        controller->sessionClosing();
    }

    bool create(const Registries& registries)
    {
        GraphBuilder b(registries.ops);
        if (!doublingLoop(b))
            return false;
        graph = std::make_shared<tf::GraphDef>(b.graphDef());
        SessionOptions options;
        options.ops = &registries.ops;
        options.kernels = &registries.kernels;
        session = std::make_unique<Session>(options);
        return session->create(*graph).isOk();
    }

    void connect(DebuggerView& view)
    {
        QObject::connect(&view, &DebuggerView::startRequested, &view, [this, &view] {
            outputs.clear();
            result = std::async(std::launch::async, [this] {
                return session->run(tf::RunOptions(), {}, {"while/Exit_1"}, {}, &outputs, nullptr, controller.get());
            });
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

/// The execution list's rows for `node`: (display text, tooltip).
QList<QPair<QString, QString>> rowsOf(const ExecutionListModel* model, const QString& node)
{
    QList<QPair<QString, QString>> rows;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, ExecutionListModel::kNode);
        if (index.data(ExecutionListModel::kNodeNameRole).toString() == node)
            rows.append({index.data().toString(), index.data(Qt::ToolTipRole).toString()});
    }
    return rows;
}

} // namespace

class TestDebuggerLoops : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        m_registries = std::move(*registries);
    }

    void breakpointInLoopBodyShowsEachIteration()
    {
        LoopRun run;
        QVERIFY(run.create(*m_registries));
        DebuggerView view;
        view.resize(1200, 800);
        view.show();
        run.connect(view);
        view.attach(run.controller, run.graph);
        QSignalSpy paused(&view, &DebuggerView::pausedAt);
        QVERIFY(view.breakpointModel()->addFromSpec("node:while/mul"));

        view.action(Action::kRunContinue)->trigger();
        for (int k = 0; k < kIterations; ++k) {
            QTRY_VERIFY_WITH_TIMEOUT(view.isPaused(), 10000);
            QCOMPARE(paused.last().at(0).toString(), QString("while/mul"));
            const QString status =
                QStringLiteral("Paused before while/mul (breakpoint node:while/mul) in frame while/while_context, "
                               "iteration %1")
                    .arg(k);
            QCOMPARE(view.statusText(), status);
            QCOMPARE(view.findChild<QLabel*>("statusLabel")->text(), status);
            // The list has the body's Mul of the iterations before this one.
            QTRY_COMPARE(rowsOf(view.executionModel(), "while/mul").size(), k);
            // The paused node's input is this iteration's x: 2^k.
            QVERIFY(view.showTensor("while/Identity_1:0"));
            QCOMPARE(view.inspector()->shownTensor().scalar<float>(), float(1 << k));

            if (k == 3)
                if (const QString png = qEnvironmentVariable("TSTUDIO_DEBUGGER_LOOP_PNG"); !png.isEmpty()) {
                    QApplication::processEvents();
                    QVERIFY(view.grab().save(png));
                }
            view.action(Action::kRunContinue)->trigger();
        }
        QTRY_COMPARE_WITH_TIMEOUT(view.runState(), DebuggerView::RunState::kFinished, 10000);
        QVERIFY(run.wait().isOk());
        QCOMPARE(run.outputs.at(0).scalar<float>(), 32.0f);

        // Every execution of the body's Mul, in order, with its iteration; the condition's Less once more.
        QList<QPair<QString, QString>> expected;
        for (int k = 0; k < kIterations; ++k)
            expected.append({QStringLiteral("while/mul (iteration %1)").arg(k),
                             QStringLiteral("while/mul in frame while/while_context, iteration %1").arg(k)});
        QTRY_COMPARE(rowsOf(view.executionModel(), "while/mul"), expected);
        const auto less = rowsOf(view.executionModel(), "while/Less");
        QCOMPARE(less.size(), kIterations + 1);
        QCOMPARE(less.last().first, QString("while/Less (iteration 5)"));
        // Outside the loop: the plain name.
        QCOMPARE(rowsOf(view.executionModel(), "x0"), (QList<QPair<QString, QString>>{{"x0", "x0"}}));
    }

    /// A breakpoint table entry "if iteration == 2" pauses once, in iteration 2.
    void iterationConditionFromTheBreakpointTable()
    {
        LoopRun run;
        QVERIFY(run.create(*m_registries));
        DebuggerView view;
        run.connect(view);
        view.attach(run.controller, run.graph);
        QVERIFY(view.breakpointModel()->addFromSpec("node:while/mul if iteration == 2"));
        QCOMPARE(view.breakpointModel()->index(0, BreakpointListModel::kCondition).data().toString(),
                 QString("iteration == 2"));
        view.action(Action::kRunContinue)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(view.isPaused(), 10000);
        QCOMPARE(view.statusText(), QString("Paused before while/mul (breakpoint node:while/mul if iteration == 2) in "
                                            "frame while/while_context, iteration 2"));
        view.action(Action::kRunContinue)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(view.runState(), DebuggerView::RunState::kFinished, 10000);
        QVERIFY(run.wait().isOk());
        QTRY_COMPARE(rowsOf(view.executionModel(), "while/mul").size(), kIterations);
    }
};

QTEST_MAIN(TestDebuggerLoops)
#include "test_debugger_loops.moc"
