// Tests for the lines of a custom scalars chart: which (run, tag)s a multi-line chart's patterns
// pick, a margin chart's series per run, and bounds paired with the value by step.
#include "dashboard/custom_scalar_series.h"

#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

std::vector<std::string> keys(const std::vector<CustomSeries>& series)
{
    std::vector<std::string> out;
    for (const CustomSeries& s : series)
        out.push_back(s.key);
    return out;
}

events::ScalarSample at(std::int64_t step, double value)
{
    events::ScalarSample s;
    s.step = step;
    s.value = value;
    return s;
}

} // namespace

class TestCustomScalarSeries : public QObject {
    Q_OBJECT
private slots:
    void multilinePicksMatchingTagsOfEachRun()
    {
        events::CustomChart chart;
        chart.tagPatterns = {"loss", "acc$", "loss"}; // overlapping patterns: each tag once
        const std::vector<RunTags> runs{{"train", {"loss/total", "acc", "loss", "val_acc"}},
                                        {"eval", {"acc", "accuracy"}}};
        const auto series = customChartSeries(chart, runs, true);
        QCOMPARE(keys(series), (std::vector<std::string>{"acc (train)", "loss (train)", "loss/total (train)",
                                                         "acc (eval)"}));
        QCOMPARE(series[1].run, std::string("train"));
        QCOMPARE(series[1].tag, std::string("loss"));
        QCOMPARE(keys(customChartSeries(chart, {runs[1]}, false)), (std::vector<std::string>{"acc"}));
    }

    void badPatternsAreNamedOnce()
    {
        events::CustomChart chart;
        chart.tagPatterns = {"(unclosed", "acc"};
        std::vector<std::string> errors;
        const auto series = customChartSeries(chart, {{"a", {"acc"}}, {"b", {"acc"}}}, true, &errors);
        QCOMPARE(series.size(), std::size_t{2});
        QCOMPARE(errors.size(), std::size_t{1});
        QVERIFY(errors[0].find("(unclosed") != std::string::npos);
    }

    void marginSeriesNeedTheValueTag()
    {
        events::CustomChart chart;
        chart.margin = true;
        chart.series = {{"acc", "acc/lo", "acc/hi"}, {"f1", "f1/lo", "f1/hi"}};
        const auto series = customChartSeries(chart, {{"a", {"acc", "acc/lo"}}, {"b", {"f1"}}}, true);
        QCOMPARE(keys(series), (std::vector<std::string>{"acc (a)", "f1 (b)"}));
        QCOMPARE(series[0].lowerTag, std::string("acc/lo"));
        QCOMPARE(series[0].upperTag, std::string("acc/hi")); // missing in the run: no band there
    }

    void boundsPairByStep()
    {
        const std::vector<events::ScalarSample> value{at(0, 1), at(10, 2), at(20, 3), at(30, 4)};
        const std::vector<events::ScalarSample> bound{at(10, 5), at(0, 6), at(30, 7), at(30, 8), at(40, 9)};
        const std::vector<double> aligned = alignByStep(value, bound);
        QCOMPARE(aligned.size(), std::size_t{4});
        QCOMPARE(aligned[0], 6.0);
        QCOMPARE(aligned[1], 5.0);
        QVERIFY(std::isnan(aligned[2])); // no bound at step 20
        QCOMPARE(aligned[3], 8.0);       // the last written at step 30
        QVERIFY(alignByStep({}, bound).empty());
    }
};

QTEST_APPLESS_MAIN(TestCustomScalarSeries)
#include "test_custom_scalar_series.moc"
