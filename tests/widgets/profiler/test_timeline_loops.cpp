// Tests for the timeline on a traced tf.while_loop step: the body's repeated executions are labelled with
// their iteration, odd iterations are shaded apart from even ones, and the details show frame and iteration.
#include "profiler/timeline_details.h"
#include "profiler/timeline_painter.h"
#include "profiler/timeline_view.h"

#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "graph_run.h"
#include "profiler/chrome_trace_json.h"
#include "profiler/trace_builder.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QApplication>
#include <QFile>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QImage>
#include <QRegularExpression>
#include <QTest>
#include <QToolTip>

#include <algorithm>
#include <map>

using namespace tstudio;
using namespace tstudio::profiler;
using namespace tstudio::profiler::timeline;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

constexpr int kIterations = 5;

/// i, x = 0, 1.0; while i < 5: i, x = i + 1, x * 2.
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

} // namespace

class TestTimelineLoops : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;
    std::shared_ptr<const ProfileTrace> m_trace;

    /// The events of `node`, ordered by iteration.
    std::vector<std::uint32_t> executionsOf(const std::string& node) const
    {
        std::vector<std::uint32_t> events;
        const std::uint32_t index = m_trace->findNode(node);
        for (std::uint32_t e = 0; e < m_trace->events.size(); ++e)
            if (m_trace->events[e].node == index)
                events.push_back(e);
        std::sort(events.begin(), events.end(), [this](std::uint32_t a, std::uint32_t b) {
            return m_trace->events[a].iteration < m_trace->events[b].iteration;
        });
        return events;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
        GraphBuilder b(m_registries->ops);
        QVERIFY(doublingLoop(b));
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        QVERIFY(session.create(b.graphDef()).isOk());
        tf::RunOptions run;
        run.set_trace_level(tf::RunOptions::FULL_TRACE);
        tf::RunMetadata metadata;
        std::vector<Tensor> out;
        QVERIFY(session.run(run, {}, {"while/Exit_1"}, {}, &out, &metadata).isOk());
        m_trace = std::make_shared<const ProfileTrace>(traceFromStepStats(metadata.step_stats(), 1));
        // For a look in the app: TSTUDIO_LOOP_TRACE=<file.json> writes the trace for --panel profiler.
        if (const QString path = qEnvironmentVariable("TSTUDIO_LOOP_TRACE"); !path.isEmpty()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(chromeTraceJson(*m_trace, {})));
        }
    }

    /// "Mul  while/mul (iteration 3)" when it fits, then shorter forms; events outside loops as before.
    void labelsNameTheIteration()
    {
        const std::vector<std::uint32_t> muls = executionsOf("while/mul");
        QCOMPARE(muls.size(), std::size_t(kIterations));
        const TraceEvent& third = m_trace->events[muls[3]];
        QCOMPARE(third.iteration, std::int64_t(3));
        const QFontMetricsF metrics(QFont{});
        const QString full = QStringLiteral("Mul  while/mul (iteration 3)");
        QCOMPARE(TimelinePainter::eventLabel(*m_trace, third, metrics, 1000), full);
        QCOMPARE(TimelinePainter::eventLabel(*m_trace, third, metrics, metrics.horizontalAdvance(full) - 1),
                 QString("Mul (iteration 3)"));
        QCOMPARE(TimelinePainter::eventLabel(*m_trace, third, metrics, metrics.horizontalAdvance("Mul #3")),
                 QString("Mul #3"));
        QCOMPARE(TimelinePainter::eventLabel(*m_trace, third, metrics, metrics.horizontalAdvance("Mul")),
                 QString("Mul"));
        QCOMPARE(TimelinePainter::eventLabel(*m_trace, third, metrics, 2), QString());
        const std::vector<std::uint32_t> consts = executionsOf("x0");
        QCOMPARE(consts.size(), std::size_t(1));
        QCOMPARE(TimelinePainter::eventLabel(*m_trace, m_trace->events[consts[0]], metrics, 1000),
                 QString("Const  x0"));
    }

    /// Each of the 5 Mul boxes, zoomed to fill the canvas: iterations 0, 2, 4 in the op's colour, 1 and 3
    /// darker; a click shows frame and iteration in the details.
    void alternateIterationsAreShadedAndDetailed()
    {
        auto view = std::make_unique<TimelineView>(&m_registries->ops);
        view->resize(1200, 600);
        view->setTrace(m_trace);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        TimelineCanvas* canvas = view->canvas();
        canvas->resetView();
        std::vector<QColor> colours;
        for (std::uint32_t e : executionsOf("while/mul")) {
            const TraceEvent& event = m_trace->events[e];
            canvas->frameTraceRange(double(event.startNs),
                                    double(event.startNs + std::max<std::int64_t>(1, event.durationNs)));
            QCoreApplication::processEvents(); // deferred layout first: the box measured is the box grabbed
            const QRectF box = canvas->eventRect(e);
            QVERIFY(box.width() > 100);
            QCOMPARE(canvas->eventAt(box.center()), e);
            const QImage image = canvas->grab().toImage();
            // The box's colour: the most common of seven pixels along its top. The time grid's lines
            // cross the box where the recorded times put them, so any one pixel may be a line's
            // (a fresh clone's CI run read #aac5e0 for #a6cbf0 where a line crossed).
            std::map<QRgb, int> seen;
            for (int k = 0; k < 7; ++k)
                ++seen[image.pixel(int(std::max(box.left(), 200.0)) + 3 + 9 * k, int(box.top()) + 2)];
            colours.push_back(QColor(std::max_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) {
                                         return a.second < b.second;
                                     })->first));
        }
        QCOMPARE(colours.size(), std::size_t(kIterations));
        QCOMPARE(colours[0], colours[2]);
        QCOMPARE(colours[2], colours[4]);
        QCOMPARE(colours[1], colours[3]);
        QVERIFY(colours[1] != colours[0]);
        QVERIFY2(colours[1].lightness() < colours[0].lightness(),
                 qPrintable(colours[0].name() + " " + colours[1].name()));

        const std::uint32_t third = executionsOf("while/mul")[3];
        // The tooltip over iteration 3's box names it.
        const TraceEvent& thirdEvent = m_trace->events[third];
        canvas->frameTraceRange(double(thirdEvent.startNs),
                                double(thirdEvent.startNs + std::max<std::int64_t>(1, thirdEvent.durationNs)));
        const QPoint over = canvas->eventRect(third).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, over, canvas->mapToGlobal(over));
        QApplication::sendEvent(canvas, &help);
        QTRY_VERIFY2(QToolTip::text().contains("iteration 3 of while/while_context"), qPrintable(QToolTip::text()));
        view->selectEvent(third);
        const QString text = view->details()->toPlainText();
        for (const char* expected : {"while/mul", "Loop frame", "while/while_context", "Iteration"})
            QVERIFY2(text.contains(QString::fromUtf8(expected)),
                     qPrintable(QString("%1 not in:\n%2").arg(expected, text)));
        QVERIFY2(text.contains(QRegularExpression("Iteration\\s*3")), qPrintable(text));
        // Outside the loop: no loop rows.
        view->selectEvent(executionsOf("x0")[0]);
        QVERIFY(!view->details()->toPlainText().contains("Loop frame"));

        if (const QString png = qEnvironmentVariable("TSTUDIO_TIMELINE_LOOP_PNG"); !png.isEmpty()) {
            // Iteration 3 of the loop, wide enough for labels.
            std::int64_t start = m_trace->endNs(), end = 0;
            for (const TraceEvent& e : m_trace->events)
                if (e.inLoop() && e.iteration == 3) {
                    start = std::min(start, e.startNs);
                    end = std::max(end, e.startNs + e.durationNs);
                }
            view->selectEvent(third);
            canvas->frameTraceRange(double(start), double(end), 0.01);
            QVERIFY(view->grab().save(png));
        }
    }
};

QTEST_MAIN(TestTimelineLoops)
#include "test_timeline_loops.moc"
