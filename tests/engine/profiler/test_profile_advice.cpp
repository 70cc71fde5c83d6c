// Tests for the profiler's advice on hand-written traces: expensive operations with their shares, NHWC
// convolutions on a GPU, device utilisation and idle gaps between ops.
#include "profiler/profile_advice.h"

#include "profile_trace_maker.h"
#include "proto/graph.pb.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::profiler;
using tstudio::testing::TraceMaker;

namespace {

using tstudio::testing::kCpu;
using tstudio::testing::kGpu;

std::vector<AdviceItem> advise(const ProfileTrace& trace, const ProfileAdviceOptions& options = {})
{
    auto items = profileAdvice(trace, options);
    if (!items)
        qFatal("profileAdvice: %s", items.error().toString().c_str());
    return std::move(*items);
}

/// The items of one checker, copied (the list they come from may be a temporary).
std::vector<AdviceItem> of(const std::vector<AdviceItem>& items, const std::string& checker)
{
    std::vector<AdviceItem> out;
    for (const AdviceItem& item : items)
        if (item.checker == checker)
            out.push_back(item);
    return out;
}

/// A GPU running a Conv2D and its backprop, a CPU running another Conv2D.
ProfileTrace convolutionTrace()
{
    TraceMaker m;
    const auto gpu = m.lane(m.device(kGpu));
    const auto cpu = m.lane(m.device(kCpu));
    const auto step = m.step(0);
    m.event(gpu, m.node("conv/Conv2D", "Conv2D"), step, 0, 1'000);
    m.event(gpu, m.node("grad/Conv2DBackpropInput", "Conv2DBackpropInput"), step, 2'000, 1'000);
    m.event(gpu, m.node("pool", "MaxPool"), step, 4'000, 1'000);
    m.event(cpu, m.node("cpu/Conv2D", "Conv2D"), step, 0, 1'000);
    return m.finish();
}

tensorflow::GraphDef formats(const std::string& conv, const std::string& grad)
{
    tensorflow::GraphDef graph;
    for (const auto& [name, op, format] : {std::tuple{"conv/Conv2D", "Conv2D", conv},
                                           std::tuple{"grad/Conv2DBackpropInput", "Conv2DBackpropInput", grad}}) {
        auto* node = graph.add_node();
        node->set_name(name);
        node->set_op(op);
        (*node->mutable_attr())["data_format"].set_s(format);
    }
    return graph;
}

} // namespace

class TestProfileAdvice : public QObject {
    Q_OBJECT

private slots:
    void nhwcConvolutionsOnAGpu()
    {
        const ProfileTrace trace = convolutionTrace();
        // No graph: Conv2D's data_format defaults to NHWC, so both GPU convolutions are reported.
        auto items = of(advise(trace), "data_format");
        QCOMPARE(items.size(), std::size_t(1));
        QCOMPARE(items[0].severity, AdviceSeverity::Warning);
        QCOMPARE(items[0].nodes, (std::vector<std::string>{"conv/Conv2D", "grad/Conv2DBackpropInput"}));
        QVERIFY2(items[0].text.find("2 convolutions run on a GPU with data_format NHWC") == 0, items[0].text.c_str());
        QVERIFY(items[0].text.find("NCHW") != std::string::npos);

        // The graph says which format each one has.
        const tensorflow::GraphDef mixed = formats("NCHW", "NHWC");
        ProfileAdviceOptions options;
        options.graph = &mixed;
        items = of(advise(trace, options), "data_format");
        QCOMPARE(items.size(), std::size_t(1));
        QCOMPARE(items[0].nodes, (std::vector<std::string>{"grad/Conv2DBackpropInput"}));
        const tensorflow::GraphDef nchw = formats("NCHW", "NCHW");
        options.graph = &nchw;
        QVERIFY(of(advise(trace, options), "data_format").empty());

        // A CPU-only trace gets no data_format advice.
        TraceMaker m;
        m.event(m.lane(m.device(kCpu)), m.node("c", "Conv2D"), m.step(0), 0, 10);
        QVERIFY(of(advise(m.finish()), "data_format").empty());
    }

    void idleGapsAndUtilisation()
    {
        // CPU: ops at [0,10us], [50,60us], [100,110us] and a second thread [52,58us] inside the second:
        // busy 30us of the 110us step, gaps of 40us each.
        TraceMaker m;
        const auto cpu = m.device(kCpu);
        const auto t1 = m.lane(cpu, 1);
        const auto t2 = m.lane(cpu, 2);
        const auto step = m.step(7);
        m.event(t1, m.node("first", "MatMul"), step, 0, 10'000);
        m.event(t1, m.node("second", "Add"), step, 50'000, 10'000);
        m.event(t2, m.node("inside", "Mul"), step, 52'000, 6'000);
        m.event(t1, m.node("third", "Relu"), step, 100'000, 10'000);
        const ProfileTrace trace = m.finish();
        const auto items = advise(trace);

        auto utilisation = of(items, "device_utilization");
        QCOMPARE(utilisation.size(), std::size_t(1));
        QCOMPARE(utilisation[0].severity, AdviceSeverity::Warning);
        QCOMPARE(QString::fromStdString(utilisation[0].text),
                 QString::fromStdString("device " + kCpu + " low utilization: 0.27 (busy 30us of 110us in step 7)"));

        auto gaps = of(items, "idle_gaps");
        QCOMPARE(gaps.size(), std::size_t(2));
        QCOMPARE(gaps[0].nodes, (std::vector<std::string>{"first", "second"}));
        QCOMPARE(gaps[1].nodes, (std::vector<std::string>{"second", "third"}));
        QCOMPARE(gaps[0].severity, AdviceSeverity::Warning); // 40 / 110 of the step
        QCOMPARE(QString::fromStdString(gaps[0].text),
                 QString::fromStdString("device " + kCpu +
                                        " is idle for 40us (36.36% of the step) in step 7, 10us "
                                        "after its start, between 'first' and 'second'"));

        // Gaps under the minimum are not listed; a higher warning share makes them information.
        ProfileAdviceOptions options;
        options.minGapNs = 50'000;
        QVERIFY(of(advise(trace, options), "idle_gaps").empty());
        options.minGapNs = 0;
        options.gapWarningShare = 0.5;
        options.maxGaps = 1;
        gaps = of(advise(trace, options), "idle_gaps");
        QCOMPARE(gaps.size(), std::size_t(1));
        QCOMPARE(gaps[0].severity, AdviceSeverity::Info);

        // A busy device is information.
        options.lowUtilization = 0.2;
        utilisation = of(advise(trace, options), "device_utilization");
        QCOMPARE(utilisation[0].severity, AdviceSeverity::Info);
        QVERIFY(utilisation[0].text.find(" utilization: 0.27") != std::string::npos);
    }

    void expensiveOperationsWithTheirShares()
    {
        TraceMaker m;
        const auto lane = m.lane(m.device(kCpu));
        const auto s0 = m.step(1);
        const auto s1 = m.step(2);
        const auto big = m.node("big", "MatMul");
        const auto small = m.node("small", "Add");
        m.event(lane, big, s0, 0, 600'000);
        m.event(lane, small, s0, 700'000, 200'000);
        m.event(lane, big, s1, 1'000'000, 800'000);
        m.event(lane, small, s1, 1'900'000, 200'000);
        const ProfileTrace trace = m.finish();
        auto items = of(advise(trace), "expensive_operations");
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].nodes, (std::vector<std::string>{"big"}));
        QCOMPARE(items[0].severity, AdviceSeverity::Warning); // 700 of 900 us per step
        QCOMPARE(QString::fromStdString(items[0].text),
                 QString("'big' (MatMul) takes 700us per step, 77.78% of all op time (accelerator 0ns, CPU 700us)"));
        QCOMPARE(items[1].severity, AdviceSeverity::Info);

        ProfileAdviceOptions one;
        one.step = 0;
        one.topOperations = 1;
        items = of(advise(trace, one), "expensive_operations");
        QCOMPARE(items.size(), std::size_t(1));
        QVERIFY(items[0].text.find("takes 600us in step 1, 75.00%") != std::string::npos);

        one.step = 9;
        auto bad = profileAdvice(trace, one);
        QVERIFY(!bad);
        QVERIFY(bad.error().message().find("step 9 is not a step of the trace") != std::string::npos);
        QVERIFY(advise(ProfileTrace()).empty());
    }
};

QTEST_GUILESS_MAIN(TestProfileAdvice)
#include "test_profile_advice.moc"
