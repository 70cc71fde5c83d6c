// Tests for TimelineView and TimelineCanvas: layout and op colours, W/S/A/D and the tools, box selection
// totals, measuring, search, dependency arrows, the details pane, steps and comparison, nodeActivated,
// showNode, a 1,000,000-event trace drawn with bounded work, and a real traced MNIST step looked at as PNG.
#include "profiler/timeline_details.h"
#include "profiler/timeline_view.h"

#include "../../viewmodel/profiler/timeline_test_traces.h"

#include "book_mnist.h"
#include "common/op_style.h"
#include "framework/op_registry.h"
#include "profiler/trace_builder.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace tstudio;
using namespace tstudio::profiler;
using namespace tstudio::profiler::timeline;
using tstudio::testing::timeline::denseTrace;
using tstudio::testing::timeline::twoStepTrace;

namespace {

std::uint32_t exec(const TimelineView& view, const std::string& name, std::uint32_t step)
{
    return view.index()->firstExecution(view.index()->findNode(name), step);
}

/// Widget y of the middle of the row showing `lane`.
int laneY(const TimelineCanvas& canvas, std::uint32_t lane)
{
    for (const TimelineRow& row : canvas.rows())
        if (row.kind == RowKind::Lane && row.index == lane)
            return int(CanvasMetrics{}.rulerHeight + row.y - canvas.scrollY() + row.height / 2);
    return -1;
}

QColor categoryColour(const OpRegistry& ops, const std::string& op)
{
    const OpRegistration* reg = ops.find(op);
    return opCategoryColour(reg ? std::string_view(reg->category) : std::string_view{});
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

    std::unique_ptr<TimelineView> makeView(std::shared_ptr<const ProfileTrace> trace, QSize size = {1200, 600})
    {
        auto view = std::make_unique<TimelineView>(&m_registries->ops);
        view->resize(size);
        view->setTrace(std::move(trace));
        view->show();
        if (!QTest::qWaitForWindowExposed(view.get()))
            return nullptr;
        view->canvas()->resetView();
        return view;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void lanesUnderDevicesAndBoxesInCategoryColours()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        const auto& rows = canvas->rows();
        QCOMPARE(rows.size(), std::size_t(6));
        QCOMPARE(rows[0].kind, RowKind::Device);
        QCOMPARE(rows[1].kind, RowKind::Memory);
        QCOMPARE(rows[5].kind, RowKind::Lane);
        QCOMPARE(rows[5].index, 2u); // the GPU stream under the GPU header
        canvas->frameTraceRange(0, 25000);
        const QImage image = canvas->grab().toImage();
        for (const char* name : {"mm", "add", "relu", "loss"}) {
            const std::uint32_t e = exec(*view, name, 0);
            const QRectF box = canvas->eventRect(e);
            QVERIFY(canvas->rect().contains(box.center().toPoint()));
            QCOMPARE(canvas->eventAt(box.center()), e);
            const std::string& op = view->index()->trace().nodes[view->index()->trace().events[e].node].op;
            QCOMPARE(image.pixelColor(int(box.left()) + 1, int(box.top()) + 2).rgb(),
                     categoryColour(m_registries->ops, op).rgb());
        }
        // MatMul and Relu are of different categories, so the timeline tells them apart.
        QVERIFY(categoryColour(m_registries->ops, "MatMul") != categoryColour(m_registries->ops, "Relu"));
        // Collapsing a device hides its lanes; a click on its header toggles it.
        const int header = int(CanvasMetrics{}.rulerHeight + rows[4].y + 5);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(20, header));
        QVERIFY(canvas->isGroupCollapsed(1));
        QCOMPARE(canvas->rows().size(), std::size_t(5));
        // Its events are then drawn in the header row and can still be clicked there.
        const std::uint32_t relu = exec(*view, "relu", 0);
        const double x = (canvas->xOfTraceTime(16000) + canvas->xOfTraceTime(17000)) / 2;
        QCOMPARE(canvas->eventAt(QPointF(x, header)), relu);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(20, header));
        QVERIFY(!canvas->isGroupCollapsed(1));
    }

    void keysZoomAndPanAsTheChromeTraceViewer()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        canvas->setFocus();
        const TimeWindow w0 = canvas->window();
        const double centre = w0.startNs + w0.spanNs / 2;
        QTest::keyClick(canvas, Qt::Key_W);
        TimeWindow w = canvas->window();
        QCOMPARE(w.spanNs, w0.spanNs * 0.8);
        QCOMPARE(w.startNs + w.spanNs / 2, centre); // around the view centre: the mouse is elsewhere
        QTest::keyClick(canvas, Qt::Key_S);
        QCOMPARE(canvas->window().spanNs, w0.spanNs);
        const TimeWindow before = canvas->window();
        QTest::keyClick(canvas, Qt::Key_A);
        QCOMPARE(canvas->window().startNs, before.startNs - 0.1 * before.spanNs);
        QCOMPARE(canvas->window().spanNs, before.spanNs);
        QTest::keyClick(canvas, Qt::Key_D);
        QTest::keyClick(canvas, Qt::Key_D);
        QCOMPARE(canvas->window().startNs, before.startNs + 0.1 * before.spanNs);
        // With the mouse over the time area W and S zoom around the time under it.
        const int mouseX = int(CanvasMetrics{}.labelWidth + canvas->timeAreaWidth() * 0.25);
        QTest::mouseMove(canvas, QPoint(mouseX, laneY(*canvas, 0)));
        const double under = canvas->window().timeAt(mouseX - CanvasMetrics{}.labelWidth, canvas->timeAreaWidth());
        QTest::keyClick(canvas, Qt::Key_W);
        QTest::keyClick(canvas, Qt::Key_W);
        QVERIFY(canvas->window().spanNs < before.spanNs * 0.65);
        QVERIFY(std::fabs(canvas->window().timeAt(mouseX - CanvasMetrics{}.labelWidth, canvas->timeAreaWidth()) -
                          under) < 1e-6 * before.spanNs);
        // Holding W keeps zooming until it is released.
        const double held = canvas->window().spanNs;
        QTest::keyPress(canvas, Qt::Key_W);
        QTest::qWait(150);
        QTest::keyRelease(canvas, Qt::Key_W);
        const double afterHold = canvas->window().spanNs;
        QVERIFY2(afterHold < held * 0.8 * 0.95, qPrintable(QString("%1 -> %2").arg(held).arg(afterHold)));
        QTest::qWait(60);
        QCOMPARE(canvas->window().spanNs, afterHold);
        // 0 shows everything again; Ctrl+wheel zooms at the cursor.
        QTest::keyClick(canvas, Qt::Key_0);
        QCOMPARE(canvas->window(), w0);
        QWheelEvent wheel(QPointF(mouseX, laneY(*canvas, 0)), canvas->mapToGlobal(QPointF(mouseX, 50)), QPoint(),
                          QPoint(0, 120), Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas, &wheel);
        QCOMPARE(canvas->window().spanNs, w0.spanNs * 0.8);
        // Keys 1-4 pick the tools, as the toolbar does.
        QTest::keyClick(canvas, Qt::Key_3);
        QCOMPARE(view->mode(), TimelineMode::Zoom);
        QTest::keyClick(canvas, Qt::Key_4);
        QCOMPARE(view->mode(), TimelineMode::Timing);
        QTest::keyClick(canvas, Qt::Key_1);
        QCOMPARE(view->mode(), TimelineMode::Select);
    }

    void boxSelectionTotalsOpsByType()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        canvas->frameTraceRange(0, 40000);
        // From just before 0 on thread 1 to 15.5 us on thread 2: x, mm, add on thread 1; w, b on thread 2.
        const QPoint from(int(canvas->xOfTraceTime(-200)), laneY(*canvas, 0));
        const QPoint to(int(canvas->xOfTraceTime(15500)), laneY(*canvas, 1));
        QTest::mousePress(canvas, Qt::LeftButton, {}, from);
        QTest::mouseMove(canvas, (from + to) / 2);
        QTest::mouseMove(canvas, to);
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, to);
        QVERIFY(canvas->hasBoxSelection());
        QCOMPARE(canvas->boxLanes(), (std::vector<std::uint32_t>{0, 1}));
        const auto& totals = view->details()->selectionTotals();
        QVERIFY(totals.has_value());
        QCOMPARE(totals->count, std::int64_t(5));
        QCOMPARE(totals->totalNs, std::int64_t(15000));
        QCOMPARE(totals->byOp.front().op, std::string("MatMul"));
        const QString text = view->details()->toPlainText();
        QVERIFY2(text.contains("MatMul") && text.contains("Const") && text.contains(QString::fromUtf8("15 \xC2\xB5s")),
                 qPrintable(text));
        // Escape ends the selection.
        canvas->setFocus();
        QTest::keyClick(canvas, Qt::Key_Escape);
        QVERIFY(!canvas->hasBoxSelection());
        QVERIFY(!view->details()->selectionTotals().has_value());
    }

    void timingToolMeasuresASpan()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        canvas->frameTraceRange(0, 25000);
        view->setMode(TimelineMode::Timing);
        const QPoint from(int(std::round(canvas->xOfTraceTime(2000))), laneY(*canvas, 0));
        const QPoint to(int(std::round(canvas->xOfTraceTime(12000))), laneY(*canvas, 0));
        QTest::mousePress(canvas, Qt::LeftButton, {}, from);
        QTest::mouseMove(canvas, to);
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, to);
        QVERIFY(canvas->hasMeasure());
        const double nsPerPixel = canvas->window().spanNs / canvas->timeAreaWidth();
        QVERIFY(std::fabs(canvas->measureStartNs() - 2000) <= nsPerPixel);
        QVERIFY(std::fabs(canvas->measureEndNs() - 12000) <= nsPerPixel);
        QVERIFY(!canvas->hasBoxSelection());
        QCOMPARE(canvas->selectedEvent(), kNoIndex); // measuring does not select
        // The span is written on the ruler in the measure colour.
        const QImage image = canvas->grab().toImage();
        int labelPixels = 0;
        for (int x = from.x(); x <= to.x(); ++x)
            labelPixels += image.pixelColor(x, 6).rgb() == QColor(0x1e, 0x88, 0xe5).rgb();
        QVERIFY(labelPixels > 10);
        // A drag on the ruler measures in any tool; a click there clears it.
        view->setMode(TimelineMode::Select);
        QTest::mousePress(canvas, Qt::LeftButton, {}, QPoint(to.x(), 10));
        QTest::mouseMove(canvas, QPoint(to.x() + 100, 10));
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, QPoint(to.x() + 100, 10));
        QVERIFY(std::fabs(canvas->measureStartNs() - 12000) <= nsPerPixel);
        QVERIFY(std::fabs(canvas->measureEndNs() - 12000 - 100 * nsPerPixel) <= nsPerPixel);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(to.x(), 10));
        QVERIFY(!canvas->hasMeasure());
    }

    void searchStepsThroughMatchesInTimeOrder()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        auto* edit = view->findChild<QLineEdit*>();
        QVERIFY(edit);
        view->setSearchText("M");
        const auto matches = view->search().matches();
        QCOMPARE(matches.size(), std::size_t(4));
        QCOMPARE(matches[0], exec(*view, "mm", 0));
        QCOMPARE(matches[1], exec(*view, "loss", 0));
        QCOMPARE(matches[2], exec(*view, "mm", 1));
        QCOMPARE(matches[3], exec(*view, "loss", 1));
        // Matches keep their colour, the rest fade.
        TimelineCanvas* canvas = view->canvas();
        canvas->frameTraceRange(0, 25000);
        const QImage image = canvas->grab().toImage();
        auto pixelOf = [&](const char* name) {
            const QRectF box = canvas->eventRect(exec(*view, name, 0));
            return image.pixelColor(int(box.left()) + 1, int(box.top()) + 2).rgb();
        };
        QCOMPARE(pixelOf("mm"), categoryColour(m_registries->ops, "MatMul").rgb());
        QVERIFY(pixelOf("add") != categoryColour(m_registries->ops, "Add").rgb());
        QSignalSpy activated(view.get(), &TimelineView::nodeActivated);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(view->selectedEvent(), matches[0]);
        QTest::keyClick(edit, Qt::Key_Return);
        QTest::keyClick(edit, Qt::Key_Return);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(view->selectedEvent(), matches[3]);
        bool labelled = false;
        for (QLabel* label : view->findChildren<QLabel*>())
            labelled = labelled || label->text() == "4 of 4";
        QVERIFY(labelled);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(view->selectedEvent(), matches[0]); // wraps
        QTest::keyClick(edit, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(view->selectedEvent(), matches[3]); // and back
        // The current match is scrolled into view; searching selects without moving the graph viewer.
        QVERIFY(view->canvas()->rect().contains(view->canvas()->eventRect(matches[3]).center().toPoint()));
        QCOMPARE(activated.count(), 0);
        // Typing runs the search after a short pause.
        QTest::keyClicks(edit, "u");
        QTRY_COMPARE(view->search().matches().size(), std::size_t(2)); // "Mu": MatMul
    }

    void clickSelectsOpDrawsArrowsAndFillsDetails()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        canvas->frameTraceRange(0, 25000);
        const std::uint32_t add = exec(*view, "add", 0);
        const QRectF box = canvas->eventRect(add);
        // Before the selection, just left of add's box is empty lane.
        const QPoint arrowHead(int(box.left()) - 3, int(box.center().y()));
        const QRgb empty = canvas->grab().toImage().pixel(arrowHead);
        QSignalSpy activated(view.get(), &TimelineView::nodeActivated);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, box.center().toPoint());
        QCOMPARE(view->selectedEvent(), add);
        QCOMPARE(activated.count(), 0); // a click selects; it asks for no graph
        // Arrows come from mm and b of the same step and go to relu.
        const auto& producers = canvas->producerLinks();
        QCOMPARE(producers.size(), std::size_t(2));
        QCOMPARE(producers[0].event, exec(*view, "mm", 0));
        QCOMPARE(producers[1].event, exec(*view, "b", 0));
        QCOMPARE(canvas->consumerLinks().size(), std::size_t(1));
        QCOMPARE(canvas->consumerLinks()[0].event, exec(*view, "relu", 0));
        const QColor head = canvas->grab().toImage().pixelColor(arrowHead);
        QVERIFY2(head.rgb() != empty && head.lightness() < 100, qPrintable(head.name()));

        const QString text = view->details()->toPlainText();
        for (const char* expected :
             {"add", "Add", "/job:localhost/replica:0/task:0/device:CPU:0", "thread 1", "Duration", "2 \xC2\xB5s",
              "13 \xC2\xB5s after the step's start", "[100,500]", "float32", "Inputs", "mm", "Consumers", "relu",
              "Show in graph", "200 KB (200000 B)"})
            QVERIFY2(text.contains(QString::fromUtf8(expected)),
                     qPrintable(QString("%1 not in:\n%2").arg(expected, text)));
        // The producer link moves the selection to mm, still without asking for a graph.
        emit view->details()->anchorClicked(QUrl(QString("event:%1").arg(exec(*view, "mm", 0))));
        QCOMPARE(view->selectedEvent(), exec(*view, "mm", 0));
        QCOMPARE(activated.count(), 0);
        QVERIFY(view->details()->toPlainText().contains("400000 B")); // mm's peak bytes
        // A click on empty space clears the selection.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(int(canvas->xOfTraceTime(18500)), laneY(*canvas, 0)));
        QCOMPARE(view->selectedEvent(), kNoIndex);
        QVERIFY(!view->showSelectedInGraph()); // nothing selected: nothing to show
        QCOMPARE(activated.count(), 0);
    }

    void onlyExplicitRequestsAskForTheGraph()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        canvas->frameTraceRange(0, 25000);
        QSignalSpy activated(view.get(), &TimelineView::nodeActivated);
        const std::uint32_t add = exec(*view, "add", 0);
        const QPoint onAdd = canvas->eventRect(add).center().toPoint();
        // Several single clicks, on ops and beside them: selections only.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, onAdd);
        QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->eventRect(exec(*view, "relu", 0)).center().toPoint());
        QTest::mouseClick(canvas, Qt::LeftButton, {}, onAdd);
        QCOMPARE(view->selectedEvent(), add);
        QCOMPARE(activated.count(), 0);
        // A double click asks for the op's node.
        QTest::mouseDClick(canvas, Qt::LeftButton, {}, canvas->eventRect(add).center().toPoint());
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, canvas->eventRect(add).center().toPoint());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QString("add"));
        QCOMPARE(view->selectedEvent(), add);
        // So do "Show in graph" in the details pane and the context menu's action.
        emit view->details()->anchorClicked(QUrl(QString("graph:relu")));
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).toString(), QString("relu"));
        view->selectEvent(exec(*view, "mm", 0));
        QCOMPARE(activated.count(), 2);
        QVERIFY(view->showSelectedInGraph());
        QCOMPARE(activated.count(), 3);
        QCOMPARE(activated.at(2).at(0).toString(), QString("mm"));
    }

    void stepsAndComparisonShareTheZoom()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        auto boxes = view->findChildren<QComboBox*>();
        QCOMPARE(boxes.size(), 2);
        QCOMPARE(boxes[0]->count(), 3);
        QCOMPARE(boxes[0]->itemText(1), QString::fromUtf8("Step 10 \xC2\xB7 25 \xC2\xB5s"));
        QVERIFY(!boxes[1]->isEnabled()); // nothing to compare while all steps are shown
        QSignalSpy stepChanged(view.get(), &TimelineView::stepChanged);
        boxes[0]->setCurrentIndex(2);
        emit boxes[0]->activated(2); // the user picks step 11
        QCOMPARE(stepChanged.count(), 1);
        QCOMPARE(stepChanged.at(0).at(0).toInt(), 1);
        view->setStep(1);
        QCOMPARE(stepChanged.count(), 1); // unchanged: nothing to tell
        TimelineCanvas* a = view->canvas();
        TimelineCanvas* b = view->compareCanvas();
        QCOMPARE(a->anchorNs(), 200000.0);
        QCOMPARE(a->window(), framing(0, 35000, 0.02));
        QVERIFY(boxes[1]->isEnabled());
        QVERIFY(!b->isVisible());
        view->setCompareStep(0);
        QVERIFY(b->isVisible());
        QVERIFY2(b->height() > 200 && a->height() > 200,
                 qPrintable(QString("%1 %2").arg(a->height()).arg(b->height())));
        QCOMPARE(b->anchorNs(), 0.0);
        QCOMPARE(a->window(), framing(0, 35000, 0.02));
        QCOMPARE(b->window(), a->window());
        // Zooming one zooms the other.
        a->setFocus();
        QTest::keyClick(a, Qt::Key_W);
        QCOMPARE(b->window(), a->window());
        b->setFocus();
        QTest::keyClick(b, Qt::Key_D);
        QCOMPARE(a->window(), b->window());
        // Both are aligned at their step's start: mm sits 2 us after it in both.
        QCOMPARE(a->xOfTraceTime(202000), b->xOfTraceTime(2000));
        const QString text = view->details()->toPlainText();
        QVERIFY2(text.contains("Step 11 (A) and step 10 (B)") && text.contains(QString::fromUtf8("-10 \xC2\xB5s")),
                 qPrintable(text));
        // Each canvas selects its own step's ops only.
        const QRectF mmB = b->eventRect(exec(*view, "mm", 0));
        QTest::mouseClick(b, Qt::LeftButton, {}, mmB.center().toPoint());
        QCOMPARE(view->selectedEvent(), exec(*view, "mm", 0));
        QCOMPARE(a->selectedEvent(), kNoIndex);
        QCOMPARE(b->eventAt(b->eventRect(exec(*view, "mm", 0)).center()), exec(*view, "mm", 0));
        QCOMPARE(a->eventAt(QPointF(a->xOfTraceTime(212000), laneY(*a, 0))), exec(*view, "mm", 1));
        // Ending the comparison hides the second canvas; "All steps" shows everything.
        view->setCompareStep(-1);
        QVERIFY(!b->isVisible());
        view->setStep(-1);
        QCOMPARE(stepChanged.count(), 2);
        QCOMPARE(stepChanged.at(1).at(0).toInt(), -1);
        QCOMPARE(a->anchorNs(), 0.0);
        QVERIFY(!boxes[1]->isEnabled());
    }

    void showNodeSelectsAndRevealsWithoutSignalling()
    {
        auto view = makeView(twoStepTrace());
        QVERIFY(view);
        TimelineCanvas* canvas = view->canvas();
        QSignalSpy activated(view.get(), &TimelineView::nodeActivated);
        canvas->setGroupCollapsed(1, true);
        QVERIFY(view->showNode("relu"));
        const std::uint32_t relu = exec(*view, "relu", 0);
        QCOMPARE(view->selectedEvent(), relu);
        QVERIFY(!canvas->isGroupCollapsed(1));
        const QRectF box = canvas->eventRect(relu);
        QVERIFY(canvas->rect().contains(box.toRect()));
        QVERIFY2(box.width() >= 4, qPrintable(QString::number(box.width()))); // zoomed in enough to see
        QCOMPARE(activated.count(), 0);
        view->setStep(1);
        QVERIFY(view->showNode("mm"));
        QCOMPARE(view->selectedEvent(), exec(*view, "mm", 1));
        QVERIFY(!view->showNode("init")); // in the graph but never ran
        QVERIFY(!view->showNode("nope"));
        QCOMPARE(activated.count(), 0);
    }

    void emptyAndDamagedTracesAreShownSafely()
    {
        // Smoke test for the drawing paths plus checks of what is shown: no trace, an empty trace, and a
        // trace whose indices point outside its tables.
        auto view = makeView(nullptr);
        QVERIFY(view);
        QVERIFY(view->canvas()->rows().empty());
        QVERIFY(view->details()->toPlainText().contains("No trace."));
        view->setTrace(std::make_shared<const ProfileTrace>());
        QVERIFY(!view->showNode("x"));
        view->canvas()->grab();

        auto damaged = std::make_shared<ProfileTrace>();
        damaged->devices.push_back(TraceDevice{"/device:CPU:0", "CPU"});
        damaged->nodes.push_back(TraceNode{"a", "Add", {"missing", "^a"}});
        for (int k = 0; k < 3; ++k) {
            TraceEvent e;
            e.startNs = k * 1000;
            e.durationNs = 500;
            e.node = k == 1 ? 77u : 0u; // no such node
            e.lane = 0;
            e.step = k == 2 ? 9u : kNoIndex; // no such step
            e.firstOutput = 5;               // no such outputs
            e.outputCount = 2;
            damaged->events.push_back(e);
        }
        damaged->lanes.push_back(TraceLane{0, LaneKind::Thread, "t", 0, 0, 40}); // claims 40 events
        damaged->lanes.push_back(TraceLane{5, LaneKind::Thread, "u", 0, 90, 3}); // no such device or events
        damaged->memory.push_back(MemoryCounter{"cpu", 3, {{0, 10}, {2000, 30}}, 30});
        view->setTrace(damaged);
        TimelineCanvas* canvas = view->canvas();
        canvas->grab();
        for (std::uint32_t e = 0; e < 3; ++e) {
            view->selectEvent(e);
            canvas->grab();
        }
        view->selectEvent(1);
        QVERIFY(view->details()->toPlainText().contains("(unknown node)"));
        view->selectEvent(0);
        QVERIFY(view->details()->toPlainText().contains("not in the trace")); // input "missing"
        view->setSearchText("a");
        QCOMPARE(view->search().matches().size(), std::size_t(2));
    }

    void millionEventsDrawWithBoundedWork()
    {
        QElapsedTimer timer;
        timer.start();
        auto trace = denseTrace(4, 250000);
        QCOMPARE(trace->events.size(), std::size_t(1000000));
        auto view = makeView(trace, {1600, 900});
        QVERIFY(view);
        qInfo("1,000,000 events: trace made and opened in %lld ms", static_cast<long long>(timer.elapsed()));
        TimelineCanvas* canvas = view->canvas();
        QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);
        {
            QPainter painter(&image);
            canvas->render(painter, image.size());
        }
        const FrameCounters whole = canvas->lastFrameCounters();
        image.save("/tmp/timeline_million.png");
        // Four lanes over ~1400 pixel columns: a few thousand pieces, not a million.
        QVERIFY2(whole.pieces > 4 && whole.pieces < 4 * 2000, qPrintable(QString::number(whole.pieces)));
        QVERIFY2(whole.drawCalls() < 20000, qPrintable(QString::number(whole.drawCalls())));
        QVERIFY(whole.searches < 4 * 2100);
        // The lanes are painted: at the middle of the first lane the colour is an op category's.
        const int y = laneY(*canvas, 0);
        const QColor painted = image.pixelColor(int(CanvasMetrics{}.labelWidth) + 300, y);
        QVERIFY(painted != canvas->palette().color(QPalette::Base));
        // Zoomed in, boxes are drawn one by one with names, still few.
        canvas->setWindow(TimeWindow{1e8, 10000});
        {
            QPainter painter(&image);
            canvas->render(painter, image.size());
        }
        QVERIFY(canvas->lastFrameCounters().pieces >= 4 * 10 && canvas->lastFrameCounters().pieces <= 4 * 11);
        QVERIFY2(canvas->lastFrameCounters().texts >= 4 * 10,
                 qPrintable(QString::number(canvas->lastFrameCounters().texts)));
        const TimelineBenchStats bench = view->benchFrames(90);
        QCOMPARE(bench.frames, 90);
        QVERIFY2(bench.maxPieces < 4 * 2000, qPrintable(QString::number(bench.maxPieces)));
        QVERIFY(bench.meanDrawCalls < 20000);
        qInfo("benchFrames(90) at 1600x900: mean %.2f ms, median %.2f, p95 %.2f, max %.2f, %.0f draw calls",
              bench.meanMs, bench.medianMs, bench.p95Ms, bench.maxMs, bench.meanDrawCalls);
    }

    void realTracedMnistSteps()
    {
        // The book's MNIST network trained three steps by our Session with FULL_TRACE.
        auto net = examples::buildBookMnist(m_registries->ops);
        QVERIFY2(net, net ? "" : net.error().toString().c_str());
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        QVERIFY(session.create(net->graph).isOk());
        std::vector<Tensor> none;
        QVERIFY(session.run({}, {}, {net->init}, &none).isOk());
        QRandomGenerator random(3);
        const std::int64_t batch = 100;
        std::vector<float> images(std::size_t(batch * 784)), labels(std::size_t(batch * 10), 0.f);
        for (float& v : images)
            v = float(random.generateDouble());
        for (std::int64_t i = 0; i < batch; ++i)
            labels[std::size_t(i * 10 + random.bounded(10))] = 1.f;
        Allocator& allocator = session.devices()[0]->allocator();
        auto x = Tensor::fromVector<float>(allocator, TensorShape{batch, 784}, images);
        auto y = Tensor::fromVector<float>(allocator, TensorShape{batch, 10}, labels);
        QVERIFY(x && y);
        std::vector<TracedStep> steps;
        for (int step = 0; step < 3; ++step) {
            tensorflow::RunOptions runOptions;
            runOptions.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
            tensorflow::RunMetadata metadata;
            std::vector<Tensor> out;
            const Status s = session.run(runOptions, {{net->inputs, *x}, {net->labels, *y}}, {net->loss}, {net->train},
                                         &out, &metadata);
            QVERIFY2(s.isOk(), s.toString().c_str());
            steps.push_back(TracedStep{step + 1, metadata.step_stats()});
        }
        auto trace = std::make_shared<const ProfileTrace>(traceFromStepStats(steps));
        QCOMPARE(trace->steps.size(), std::size_t(3));
        auto view = makeView(trace, {1500, 820});
        QVERIFY(view);
        view->setStep(1);
        QVERIFY(view->showNode("layer1/MatMul"));
        const std::uint32_t matmul = view->selectedEvent();
        QCOMPARE(trace->events[matmul].step, 1u);
        // Its weights come from this step's read of layer1/weights.
        bool weights = false;
        for (const DependencyLink& link : view->canvas()->producerLinks())
            weights = weights || (link.input.rfind("layer1/weights", 0) == 0 && link.event < trace->events.size() &&
                                  trace->events[link.event].step == 1);
        QVERIFY(weights);
        QVERIFY(view->details()->toPlainText().contains("[100,500]"));
        view->canvas()->frameTraceRange(trace->steps[1].startNs, trace->steps[1].endNs, 0.02);
        QVERIFY(view->grab().save("/tmp/timeline_mnist.png"));
        view->setCompareStep(2);
        QVERIFY(view->grab().save("/tmp/timeline_mnist_compare.png"));
        qInfo("screenshots: /tmp/timeline_mnist.png, /tmp/timeline_mnist_compare.png (%zu events)",
              trace->events.size());
    }
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
