// Tests for TimelineIndex and TimelineSearch: executions per node, producer and consumer executions (the
// timeline's arrows), box-selection totals, step comparison, memory range maxima, search order and wrap.
#include "profiler/timeline_index.h"
#include "profiler/timeline_search.h"

#include "timeline_test_traces.h"

#include <QRandomGenerator>
#include <QTest>

using namespace tstudio::profiler;
using namespace tstudio::profiler::timeline;
using tstudio::testing::timeline::TraceMaker;
using tstudio::testing::timeline::twoStepTrace;

namespace {

/// The execution of node `name` in step `step`.
std::uint32_t exec(const TimelineIndex& index, const std::string& name, std::uint32_t step)
{
    return index.firstExecution(index.findNode(name), step);
}

std::string nodeOf(const TimelineIndex& index, std::uint32_t event)
{
    return index.trace().nodes[index.trace().events[event].node].name;
}

} // namespace

class TestTimelineIndex : public QObject {
    Q_OBJECT
private slots:
    void executionsPerNodeInTimeOrder()
    {
        const TimelineIndex index(twoStepTrace());
        const std::uint32_t mm = index.findNode("mm");
        QVERIFY(mm != kNoIndex);
        QCOMPARE(index.findNode("nope"), kNoIndex);
        const auto runs = index.executions(mm);
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(index.trace().events[runs[0]].startNs, std::int64_t(2000));
        QCOMPARE(index.trace().events[runs[1]].startNs, std::int64_t(202000));
        QCOMPARE(index.firstExecution(mm, 1), runs[1]);
        QCOMPARE(index.firstExecution(mm, kNoIndex), runs[0]);
        QCOMPARE(index.firstExecution(index.findNode("init"), kNoIndex), kNoIndex); // never ran
        // Consumers of a node come from every node's inputs.
        const auto consumers = index.consumerNodes(index.findNode("init"));
        QCOMPARE(consumers.size(), std::size_t(1));
        QCOMPARE(index.trace().nodes[consumers[0]].name, std::string("loss"));
        QCOMPARE(std::string(inputNodeName("^init")), std::string("init"));
        QCOMPARE(std::string(inputNodeName("a/b:3")), std::string("a/b"));
    }

    void producersAreTheSameStepsExecutions()
    {
        const TimelineIndex index(twoStepTrace());
        for (std::uint32_t step : {0u, 1u}) {
            const auto links = index.producers(exec(index, "add", step));
            QCOMPARE(links.size(), std::size_t(2));
            QCOMPARE(links[0].input, std::string("mm"));
            QCOMPARE(links[0].event, exec(index, "mm", step));
            QCOMPARE(links[1].event, exec(index, "b", step));
            QVERIFY(!links[0].control);
        }
        // A control input is flagged; one whose node never ran has no execution.
        const auto loss = index.producers(exec(index, "loss", 1));
        QCOMPARE(loss.size(), std::size_t(2));
        QCOMPARE(loss[0].event, exec(index, "relu", 1));
        QVERIFY(loss[1].control);
        QCOMPARE(loss[1].node, index.findNode("init"));
        QCOMPARE(loss[1].event, kNoIndex);
        QVERIFY(index.producers(exec(index, "x", 0)).empty());
    }

    void consumersAreTheExecutionsFedByThisOne()
    {
        const TimelineIndex index(twoStepTrace());
        const auto fromMm = index.consumers(exec(index, "mm", 1));
        QCOMPARE(fromMm.size(), std::size_t(1));
        QCOMPARE(fromMm[0].event, exec(index, "add", 1));
        QVERIFY(!fromMm[0].control);
        const auto fromX = index.consumers(exec(index, "x", 0));
        QCOMPARE(fromX.size(), std::size_t(1));
        QCOMPARE(fromX[0].event, exec(index, "mm", 0));
        QVERIFY(index.consumers(exec(index, "loss", 0)).empty());
    }

    void repeatedExecutionsLinkToTheLatestFinishedOne()
    {
        // A loop body: "body" runs three times, each run feeding "use" which runs right after it.
        TraceMaker m;
        const std::uint32_t cpu = m.device("/device:CPU:0", "CPU");
        const std::uint32_t t1 = m.lane(cpu, "thread 1");
        const std::uint32_t t2 = m.lane(cpu, "thread 2");
        m.node("body", "Mul");
        m.node("use", "Add", {"body:0"});
        const std::uint32_t s = m.step(0, 0, 1000);
        for (int k = 0; k < 3; ++k) {
            m.event(t1, "body", s, k * 300, 100);
            m.event(t2, "use", s, k * 300 + 150, 100);
        }
        const TimelineIndex index(m.finish());
        const auto bodies = index.executions(index.findNode("body"));
        const auto uses = index.executions(index.findNode("use"));
        for (int k = 0; k < 3; ++k) {
            const auto producers = index.producers(uses[std::size_t(k)]);
            QCOMPARE(producers.size(), std::size_t(1));
            QCOMPARE(producers[0].event, bodies[std::size_t(k)]);
            const auto consumers = index.consumers(bodies[std::size_t(k)]);
            QCOMPARE(consumers.size(), std::size_t(1));
            QCOMPARE(consumers[0].event, uses[std::size_t(k)]);
        }
    }

    void selectionTotalsByOpType()
    {
        const TimelineIndex index(twoStepTrace());
        // Thread 1 over [0, 15 us]: x (1 us), mm (10 us), add (2 us).
        const SelectionTotals t1 = index.selectionTotals({0}, 0, 15000);
        QCOMPARE(t1.count, std::int64_t(3));
        QCOMPARE(t1.totalNs, std::int64_t(13000));
        QCOMPARE(t1.firstStartNs, std::int64_t(0));
        QCOMPARE(t1.lastEndNs, std::int64_t(15000));
        QCOMPARE(t1.byOp.size(), std::size_t(3));
        QCOMPARE(t1.byOp[0].op, std::string("MatMul"));
        QCOMPARE(t1.byOp[0].totalNs, std::int64_t(10000));
        QCOMPARE(t1.byOp[2].op, std::string("Placeholder"));
        // Both CPU threads over the whole trace: every CPU op of both steps; overlap at an edge counts.
        const SelectionTotals both = index.selectionTotals({0, 1}, 0, 1000000);
        QCOMPARE(both.count, std::int64_t(12));
        const SelectionTotals edge = index.selectionTotals({0}, 11999, 12000);
        QCOMPARE(edge.count, std::int64_t(1));
        // Restricted to a step.
        QCOMPARE(index.selectionTotals({0, 1}, 0, 1000000, 1).count, std::int64_t(6));
        QCOMPARE(index.selectionTotals({2}, 16500, 16600).byOp.at(0).op, std::string("Relu"));
        QCOMPARE(index.selectionTotals({}, 0, 1000000).count, std::int64_t(0));
    }

    void stepComparisonByOpType()
    {
        const TimelineIndex index(twoStepTrace());
        const auto changes = index.compareSteps(0, 1);
        QCOMPARE(changes.size(), std::size_t(6));       // Placeholder, Const, MatMul, Add, Relu, Sum
        QCOMPARE(changes[0].op, std::string("MatMul")); // +10 us, the largest change
        QCOMPARE(changes[0].nsA, std::int64_t(10000));
        QCOMPARE(changes[0].nsB, std::int64_t(20000));
        QCOMPARE(changes[1].op, std::string("Add")); // -1 us
        QCOMPARE(changes[1].nsB - changes[1].nsA, std::int64_t(-1000));
        QCOMPARE(changes[2].op, std::string("Const")); // unchanged ones by name
        QCOMPARE(changes[2].nsA, std::int64_t(2000));
        QCOMPARE(changes[2].nsB, std::int64_t(2000));
        QCOMPARE(changes[2].countB, std::int64_t(2));
        QVERIFY(index.compareSteps(0, 5).empty());
    }

    void memoryRangeMaximaMatchBruteForce()
    {
        TraceMaker m;
        const std::uint32_t cpu = m.device("/device:CPU:0", "CPU");
        QRandomGenerator random(5);
        std::vector<std::pair<std::int64_t, std::int64_t>> samples;
        for (int i = 0; i < 1537; ++i)
            samples.emplace_back(i * 10, std::int64_t(random.bounded(1000000)));
        m.memory("cpu", cpu, samples);
        const TimelineIndex index(m.finish());
        for (int round = 0; round < 2000; ++round) {
            const std::size_t a = random.bounded(1538);
            const std::size_t b = random.bounded(1538);
            const std::size_t first = std::min(a, b), last = std::max(a, b);
            std::int64_t expected = -1;
            for (std::size_t i = first; i < last; ++i)
                expected = std::max(expected, samples[i].second);
            QCOMPARE(index.memoryMax(0, first, last), expected);
        }
        std::size_t peak = 0;
        for (std::size_t i = 0; i < samples.size(); ++i)
            if (samples[i].second > samples[peak].second)
                peak = i;
        QCOMPARE(index.memoryPeakSample(0), peak);
        QCOMPARE(index.memoryMax(3, 0, 10), std::int64_t(-1));
    }

    void searchOrderNextPreviousAndWrap()
    {
        const TimelineIndex index(twoStepTrace());
        TimelineSearch search;
        // A case-insensitive substring of node or op names: "M" matches mm (and MatMul) and loss's op Sum.
        search.run(&index, QStringLiteral("M"), false);
        QVERIFY(search.active());
        std::vector<std::string> names;
        for (std::uint32_t e : search.matches())
            names.push_back(nodeOf(index, e));
        // mm (MatMul), loss (Sum) in each step, by start.
        QCOMPARE(names, (std::vector<std::string>{"mm", "loss", "mm", "loss"}));
        QCOMPARE(search.current(), -1);
        QCOMPARE(search.next(), search.matches()[0]);
        QCOMPARE(search.next(), search.matches()[1]);
        QCOMPARE(search.next(), search.matches()[2]);
        QCOMPARE(search.next(), search.matches()[3]);
        QCOMPARE(search.next(), search.matches()[0]);     // wraps to the first
        QCOMPARE(search.previous(), search.matches()[3]); // and back to the last
        QCOMPARE(search.current(), 3);
        // A fresh search starts before the first match: previous goes to the last.
        search.run(&index, QStringLiteral("^(x|w)$"), true);
        QCOMPARE(search.matches().size(), std::size_t(4));
        QCOMPARE(nodeOf(index, search.matches()[0]), std::string("x")); // x and w start together: lane order
        QCOMPARE(nodeOf(index, search.matches()[1]), std::string("w"));
        QCOMPARE(search.previous(), search.matches()[3]);
        // Restricted to one step.
        search.run(&index, QStringLiteral("relu"), false, 1);
        QCOMPARE(search.matches().size(), std::size_t(1));
        QCOMPARE(index.trace().events[search.matches()[0]].step, 1u);
        // An invalid pattern matches nothing and says why.
        search.run(&index, QStringLiteral("(unclosed"), true);
        QVERIFY(search.matches().empty());
        QVERIFY(!search.errorText().isEmpty());
        QCOMPARE(search.next(), kNoIndex);
        search.run(&index, QString(), false);
        QVERIFY(!search.active());
    }
};

QTEST_GUILESS_MAIN(TestTimelineIndex)
#include "test_timeline_index.moc"
