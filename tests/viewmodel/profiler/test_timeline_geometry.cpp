// Tests for the timeline's Qt-free geometry: zoom and pan arithmetic, ruler ticks and texts, row layout, and
// the lane walk that merges sub-pixel events (checked against a brute-force pixel coverage).
#include "profiler/timeline_geometry.h"

#include "timeline_test_traces.h"

#include <QRandomGenerator>
#include <QTest>

#include <set>

using namespace tstudio::profiler;
using namespace tstudio::profiler::timeline;
using tstudio::testing::timeline::denseTrace;
using tstudio::testing::timeline::twoStepTrace;

namespace {

/// Pixel columns covered by the lane's events, one event at a time (what drawing every event would paint).
std::set<int> bruteCoverage(const ProfileTrace& t, std::uint32_t lane, const TimeWindow& w, double width)
{
    std::set<int> columns;
    const TraceLane& l = t.lanes[lane];
    for (std::uint32_t i = l.firstEvent; i < l.firstEvent + l.eventCount; ++i) {
        const TraceEvent& e = t.events[i];
        if (double(e.startNs + e.durationNs) < w.startNs || double(e.startNs) > w.endNs())
            continue;
        const double xs = w.xOf(double(e.startNs), width);
        const double xe = w.xOf(double(e.startNs + e.durationNs), width);
        const int c0 = int(std::floor(xs));
        const int c1 = std::max(c0 + 1, int(std::ceil(xe)));
        for (int c = c0; c < c1; ++c)
            columns.insert(c);
    }
    return columns;
}

} // namespace

class TestTimelineGeometry : public QObject {
    Q_OBJECT
private slots:
    void zoomKeepsThePivotInPlace()
    {
        const TimeWindow w{1000, 10000};
        const TimeWindow in = zoomedAround(w, 0.5, 3500, 1e9);
        QCOMPARE(in.spanNs, 5000.0);
        // 3500 was a quarter of the way across and still is.
        QCOMPARE(in.xOf(3500, 800), w.xOf(3500, 800));
        QCOMPARE(in.startNs, 2250.0);
        // Limits: never closer than kMinSpanNs, never wider than the maximum.
        QCOMPARE(zoomedAround(w, 1e-9, 3500, 1e9).spanNs, kMinSpanNs);
        QCOMPARE(zoomedAround(w, 1e9, 3500, 50000).spanNs, 50000.0);
        QCOMPARE(panned(w, -2500).startNs, -1500.0);
    }

    void framingAddsMargins()
    {
        const TimeWindow w = framing(100, 1100, 0.05);
        QCOMPARE(w.startNs, 50.0);
        QCOMPARE(w.spanNs, 1100.0);
        QVERIFY(framing(500, 500).spanNs >= kMinSpanNs);
        // A window far to the right of the trace is brought back so half of it still shows the trace.
        const TimeWindow lost = clampedTo(TimeWindow{1e9, 1000}, 0, 5000);
        QCOMPARE(lost.startNs, 4500.0);
        const TimeWindow left = clampedTo(TimeWindow{-1e9, 1000}, 0, 5000);
        QCOMPARE(left.endNs(), 500.0);
    }

    void durationAndByteTexts()
    {
        QCOMPARE(formatDuration(850), std::string("850 ns"));
        QCOMPARE(formatDuration(12345), std::string("12.3 \xC2\xB5s"));
        QCOMPARE(formatDuration(1.25e6), std::string("1.25 ms"));
        QCOMPARE(formatDuration(2.5e9), std::string("2.5 s"));
        QCOMPARE(formatDuration(999.9), std::string("1 \xC2\xB5s"));
        QCOMPARE(formatDuration(0), std::string("0 ns"));
        QCOMPARE(formatDuration(-20000), std::string("-20 \xC2\xB5s"));
        QCOMPARE(formatBytes(512), std::string("512 B"));
        QCOMPARE(formatBytes(1536), std::string("1.54 KB"));
        QCOMPARE(formatBytes(1568000), std::string("1.57 MB"));
        QCOMPARE(formatBytes(std::int64_t(3) << 30), std::string("3.22 GB"));
    }

    void rulerTicksAdaptToZoom()
    {
        // 1 ms over 1000 px with majors at least 90 px apart: every 100 us, minors every 20 us.
        const auto ticks = rulerTicks(TimeWindow{0, 1e6}, 1000, 90);
        QCOMPARE(majorTickInterval(TimeWindow{0, 1e6}, 1000, 90), 1e5);
        QCOMPARE(ticks.size(), std::size_t(51));
        QVERIFY(ticks[0].major);
        QCOMPARE(ticks[0].label, std::string("0 \xC2\xB5s"));
        QVERIFY(!ticks[1].major);
        QCOMPARE(ticks[1].timeNs, 20000.0);
        QCOMPARE(ticks[5].label, std::string("100 \xC2\xB5s"));
        // Zoomed in to 2 us: majors every 200 ns (a "2" interval splits in four).
        const auto fine = rulerTicks(TimeWindow{1000, 2000}, 1000, 90);
        QCOMPARE(majorTickInterval(TimeWindow{1000, 2000}, 1000, 90), 200.0);
        QCOMPARE(fine.front().timeNs, 1000.0);
        QCOMPARE(fine.front().label, std::string("1000 ns"));
        QCOMPARE(fine[1].timeNs, 1050.0);
        // Labels use the unit of the interval, as the Chrome trace viewer writes "1000 ms".
        const auto coarse = rulerTicks(TimeWindow{0, 5e9}, 1000, 90);
        QCOMPARE(majorTickInterval(TimeWindow{0, 5e9}, 1000, 90), 5e8);
        QCOMPARE(coarse[5].label, std::string("500 ms"));
        QCOMPARE(coarse[10].label, std::string("1000 ms"));
        const auto seconds = rulerTicks(TimeWindow{0, 5e10}, 1000, 90);
        QCOMPARE(seconds[5].label, std::string("5 s"));
        // A window that does not start on a tick: the first tick is the next minor one.
        const auto shifted = rulerTicks(TimeWindow{1234, 1e6}, 1000, 90);
        QCOMPARE(shifted.front().timeNs, 20000.0);
        QVERIFY(!shifted.front().major);
        // Majors are never closer than asked.
        for (double width : {300.0, 777.0, 1600.0})
            for (double span : {1e3, 3.3e5, 7.7e7})
                QVERIFY(majorTickInterval(TimeWindow{0, span}, width, 90) * width / span >= 90 - 1e-6);
    }

    void rowsGroupLanesUnderDevicesWithMemoryFirst()
    {
        const auto trace = twoStepTrace();
        const auto rows = layoutRows(*trace, {}, RowMetrics{22, 40, 20});
        QCOMPARE(rows.size(), std::size_t(6)); // CPU header, cpu memory, 2 threads, GPU header, stream
        QCOMPARE(rows[0].kind, RowKind::Device);
        QCOMPARE(rows[0].index, 0u);
        QCOMPARE(rows[1].kind, RowKind::Memory);
        QCOMPARE(rows[2].kind, RowKind::Lane);
        QCOMPARE(rows[2].index, 0u);
        QCOMPARE(rows[3].index, 1u);
        QCOMPARE(rows[4].kind, RowKind::Device);
        QCOMPARE(rows[4].index, 1u);
        QCOMPARE(rows[5].index, 2u);
        QCOMPARE(rows[5].y, 22.0 + 40 + 20 + 20 + 22);
        QCOMPARE(rowsHeight(rows), 22.0 + 40 + 20 + 20 + 22 + 20);
        QCOMPARE(rowAt(rows, 0), 0);
        QCOMPARE(rowAt(rows, 61.9), 1);
        QCOMPARE(rowAt(rows, 62), 2);
        QCOMPARE(rowAt(rows, -1), -1);
        QCOMPARE(rowAt(rows, 1e6), -1);
        // Collapsing the CPU leaves its header only.
        const auto collapsed = layoutRows(*trace, {1}, RowMetrics{22, 40, 20});
        QCOMPARE(collapsed.size(), std::size_t(3));
        QCOMPARE(collapsed[1].kind, RowKind::Device);
        QCOMPARE(collapsed[1].y, 22.0);
    }

    void lanesWithoutDeviceGetTheirOwnGroup()
    {
        ProfileTrace t;
        t.devices.push_back(TraceDevice{"/device:CPU:0", "CPU"});
        t.lanes.push_back(TraceLane{0, LaneKind::Thread, "thread 1", 1, 0, 0});
        t.lanes.push_back(TraceLane{kNoIndex, LaneKind::Imported, "main", 7, 0, 0});
        QCOMPARE(groupCount(t), 2u);
        const auto rows = layoutRows(t, {});
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[2].kind, RowKind::Device);
        QCOMPARE(rows[2].index, 1u);
        QCOMPARE(rows[3].index, 1u);
    }

    void walkMergesDenseEventsIntoColumns()
    {
        // 100,000 events of 400 ns every 1000 ns (100 ms) seen whole over 1000 px: 100 events per pixel.
        const auto trace = denseTrace(1, 100000);
        const TimeWindow all{0, 1e8};
        WalkCounters counters;
        std::int64_t events = 0;
        std::uint32_t next = 0;
        bool contiguous = true;
        walkLane(
            *trace, 0, 0, all, 1000, -1e300, 1e300,
            [&](const LanePiece& p) {
                contiguous = contiguous && p.firstEvent == next && p.merged;
                next = p.firstEvent + p.eventCount;
                events += p.eventCount;
            },
            &counters);
        QVERIFY(contiguous);
        QCOMPARE(events, std::int64_t(100000)); // every event is in exactly one piece
        QVERIFY2(counters.pieces <= 1001, qPrintable(QString::number(counters.pieces)));
        QVERIFY(counters.searches <= 1002);

        // Zoomed to 10 us over 1000 px every event is 40 px wide and drawn alone.
        std::vector<LanePiece> pieces;
        walkLane(*trace, 0, 0, TimeWindow{50000, 10000}, 1000, -1e300, 1e300,
                 [&](const LanePiece& p) { pieces.push_back(p); });
        QCOMPARE(pieces.size(), std::size_t(11)); // starts 50000 ... 60000
        QVERIFY(!pieces[0].merged);
        QCOMPARE(pieces[0].firstEvent, 50u);
        QCOMPARE(pieces[0].x0, 0.0);
        QCOMPARE(pieces[0].x1, 40.0);
        // The anchor shifts times: anchored at 50 us, window [0, 10 us] shows the same.
        std::vector<LanePiece> anchored;
        walkLane(*trace, 0, 50000, TimeWindow{0, 10000}, 1000, -1e300, 1e300,
                 [&](const LanePiece& p) { anchored.push_back(p); });
        QCOMPARE(anchored.size(), pieces.size());
        QCOMPARE(anchored[3].firstEvent, pieces[3].firstEvent);
        // The clip leaves out what lies outside it.
        std::vector<LanePiece> clipped;
        walkLane(*trace, 0, 0, TimeWindow{50000, 10000}, 1000, 52500, 55000,
                 [&](const LanePiece& p) { clipped.push_back(p); });
        QCOMPARE(clipped.size(), std::size_t(3)); // 52000 (ends 52400 < 52500: out), 53000, 54000, 55000
        QCOMPARE(clipped.front().firstEvent, 53u);
    }

    void wideEventAfterNarrowOnesInOneColumnIsDrawnAlone()
    {
        ProfileTrace t;
        t.devices.push_back(TraceDevice{"cpu", "CPU"});
        t.nodes.push_back(TraceNode{"n", "Add", {}});
        // Column width 10 ns: three 1 ns events in column 0, then one starting at 5 ns lasting 100 ns.
        for (auto [start, duration] : {std::pair{0, 1}, {2, 1}, {4, 1}, {5, 100}, {300, 1}}) {
            TraceEvent e;
            e.startNs = start;
            e.durationNs = duration;
            e.node = 0;
            e.lane = 0;
            t.events.push_back(e);
        }
        t.lanes.push_back(TraceLane{0, LaneKind::Thread, "t", 0, 0, 5});
        std::vector<LanePiece> pieces;
        walkLane(t, 0, 0, TimeWindow{0, 1000}, 100, -1e300, 1e300, [&](const LanePiece& p) { pieces.push_back(p); });
        QCOMPARE(pieces.size(), std::size_t(3));
        QVERIFY(pieces[0].merged);
        QCOMPARE(pieces[0].eventCount, 3u);
        QVERIFY(!pieces[1].merged);
        QCOMPARE(pieces[1].firstEvent, 3u);
        QCOMPARE(pieces[1].x1, 10.5);
        QVERIFY(pieces[2].merged);
        QCOMPARE(pieces[2].firstEvent, 4u);
        QCOMPARE(pieces[2].x0, 30.0);
    }

    void walkCoversTheSamePixelsAsDrawingEveryEvent()
    {
        QRandomGenerator random(11);
        for (int round = 0; round < 40; ++round) {
            ProfileTrace t;
            t.devices.push_back(TraceDevice{"cpu", "CPU"});
            t.nodes.push_back(TraceNode{"n", "Add", {}});
            std::int64_t time = 0;
            const int count = 50 + int(random.bounded(3000));
            for (int i = 0; i < count; ++i) {
                TraceEvent e;
                time += random.bounded(random.bounded(2) ? 5 : 5000);
                e.startNs = time;
                e.durationNs = random.bounded(random.bounded(4) ? 30 : 40000);
                e.node = 0;
                time += e.durationNs;
                t.events.push_back(e);
            }
            t.lanes.push_back(TraceLane{0, LaneKind::Thread, "t", 0, 0, std::uint32_t(count)});
            const double end = double(time);
            const TimeWindow w{end * random.bounded(1000) / 2000.0,
                               std::max(100.0, end * random.bounded(1, 1000) / 1000.0)};
            const double width = 200 + random.bounded(1400);
            std::set<int> walked;
            walkLane(t, 0, 0, w, width, -1e300, 1e300, [&](const LanePiece& p) {
                const int c0 = int(std::floor(p.x0));
                const int c1 = std::max(c0 + 1, int(std::ceil(p.x1)));
                for (int c = c0; c < c1; ++c)
                    walked.insert(c);
            });
            QCOMPARE(walked, bruteCoverage(t, 0, w, width));
        }
    }
};

QTEST_GUILESS_MAIN(TestTimelineGeometry)
#include "test_timeline_geometry.moc"
