// Tests for the custom scalars plugin's layout: decoding what TensorBoard's summary_lib writes
// (made here from the plugin's Layout proto), merging the layouts of several runs as the plugin
// does, matching tag patterns from the tag's start, titles, writing a layout back, bad input.
#include "io/events/custom_scalars.h"

#include "proto/custom_scalar_layout.pb.h"
#include "proto/summary.pb.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::events;

namespace {

/// A Summary.Value as the plugin's summary writes it, serialized.
std::string layoutValue(const tensorboard::Layout& layout)
{
    tensorflow::Summary::Value v;
    v.set_tag("custom_scalars__config__");
    v.mutable_metadata()->mutable_plugin_data()->set_plugin_name("custom_scalars");
    v.mutable_tensor()->set_dtype(tensorflow::DT_STRING);
    v.mutable_tensor()->add_string_val(layout.SerializeAsString());
    return v.SerializeAsString();
}

tensorboard::Layout demoLayout()
{
    tensorboard::Layout layout;
    tensorboard::Category* losses = layout.add_category();
    losses->set_title("losses");
    tensorboard::Chart* chart = losses->add_chart();
    chart->set_title("losses");
    chart->mutable_multiline()->add_tag("loss.*");
    chart->mutable_multiline()->add_tag("eval/loss");
    tensorboard::Category* bounds = layout.add_category();
    bounds->set_title("bounds");
    bounds->set_closed(true);
    tensorboard::Chart* margin = bounds->add_chart();
    auto* series = margin->mutable_margin()->add_series();
    series->set_value("accuracy");
    series->set_lower("accuracy/lower");
    series->set_upper("accuracy/upper");
    return layout;
}

} // namespace

class TestCustomScalars : public QObject {
    Q_OBJECT
private slots:
    void decodesTheLayout()
    {
        auto layout = decodeCustomScalarsLayout(layoutValue(demoLayout()), "train");
        QVERIFY2(layout.has_value(), layout ? "" : layout.error().message().c_str());
        QCOMPARE(layout->categories.size(), std::size_t{2});
        const CustomCategory& losses = layout->categories[0];
        QCOMPARE(losses.title, std::string("losses"));
        QVERIFY(!losses.closed);
        QCOMPARE(losses.charts.size(), std::size_t{1});
        QVERIFY(!losses.charts[0].margin);
        QCOMPARE(losses.charts[0].tagPatterns, (std::vector<std::string>{"loss.*", "eval/loss"}));
        const CustomCategory& bounds = layout->categories[1];
        QVERIFY(bounds.closed);
        QVERIFY(bounds.charts[0].margin);
        QCOMPARE(bounds.charts[0].series.size(), std::size_t{1});
        QCOMPARE(bounds.charts[0].series[0], (MarginSeries{"accuracy", "accuracy/lower", "accuracy/upper"}));
        QCOMPARE(customChartTitle(losses.charts[0]), std::string("losses"));
        QCOMPARE(customChartTitle(bounds.charts[0]), std::string("accuracy")); // no title: the value tags
        QCOMPARE(customChartTitle(CustomChart{}), std::string("untitled"));
    }

    void badLayoutsAreRefusedNamingTheRun()
    {
        tensorflow::Summary::Value notAString;
        notAString.set_tag("custom_scalars__config__");
        notAString.mutable_tensor()->set_dtype(tensorflow::DT_FLOAT);
        notAString.mutable_tensor()->add_float_val(1);
        auto a = decodeCustomScalarsLayout(notAString.SerializeAsString(), "eval");
        QVERIFY(!a.has_value());
        QVERIFY(a.error().message().find("run 'eval'") != std::string::npos);

        tensorflow::Summary::Value garbage;
        garbage.mutable_tensor()->set_dtype(tensorflow::DT_STRING);
        garbage.mutable_tensor()->add_string_val(std::string("\xff\xff\xff", 3));
        auto b = decodeCustomScalarsLayout(garbage.SerializeAsString(), "train");
        QVERIFY(!b.has_value());
        QVERIFY(b.error().message().find("not a tensorboard.Layout") != std::string::npos);

        tensorboard::Layout future = demoLayout();
        future.set_version(2);
        auto c = decodeCustomScalarsLayout(layoutValue(future), "train");
        QVERIFY(!c.has_value());
        QVERIFY(c.error().message().find("version 2") != std::string::npos);
    }

    void layoutsMergeAsThePluginMergesThem()
    {
        auto first = decodeCustomScalarsLayout(layoutValue(demoLayout()), "a");
        tensorboard::Layout other;
        tensorboard::Category* losses = other.add_category();
        losses->set_title("losses");
        *losses->add_chart() = demoLayout().category(0).chart(0); // a duplicate: skipped
        tensorboard::Chart* extra = losses->add_chart();
        extra->set_title("train only");
        extra->mutable_multiline()->add_tag("train/.*");
        other.add_category()->set_title("more");
        auto second = decodeCustomScalarsLayout(layoutValue(other), "b");
        QVERIFY(first && second);
        const CustomScalarsLayout merged = mergeCustomScalarsLayouts({*first, *second});
        QCOMPARE(merged.categories.size(), std::size_t{3});
        QCOMPARE(merged.categories[0].title, std::string("losses"));
        QCOMPARE(merged.categories[0].charts.size(), std::size_t{2});
        QCOMPARE(merged.categories[0].charts[1].title, std::string("train only"));
        QCOMPARE(merged.categories[1].title, std::string("bounds"));
        QCOMPARE(merged.categories[2].title, std::string("more"));
    }

    void patternsMatchFromTheTagsStart()
    {
        const std::vector<std::string> tags{"loss", "loss/total", "eval/loss", "train_loss", "Loss"};
        auto m = tagsMatching("loss", tags);
        QVERIFY(m.has_value());
        QCOMPARE(*m, (std::vector<std::string>{"loss", "loss/total"})); // re.match: anchored at the start only
        QCOMPARE(*tagsMatching(".*loss$", tags), (std::vector<std::string>{"loss", "eval/loss", "train_loss"}));
        QCOMPARE(*tagsMatching("(?:train|eval)", tags), (std::vector<std::string>{"eval/loss", "train_loss"}));
        auto bad = tagsMatching("loss(", tags);
        QVERIFY(!bad.has_value());
        QVERIFY(bad.error().message().find("loss(") != std::string::npos);
        QVERIFY(!tagsMatching("", tags).has_value());
    }

    void aWrittenLayoutReadsBack()
    {
        auto layout = decodeCustomScalarsLayout(layoutValue(demoLayout()), "a");
        QVERIFY(layout.has_value());
        const tensorflow::Summary summary = customScalarsSummary(*layout);
        QCOMPARE(summary.value_size(), 1);
        const tensorflow::Summary::Value& v = summary.value(0);
        QCOMPARE(v.tag(), std::string("custom_scalars__config__"));
        QCOMPARE(v.metadata().plugin_data().plugin_name(), std::string("custom_scalars"));
        QCOMPARE(v.tensor().dtype(), tensorflow::DT_STRING);
        QCOMPARE(v.tensor().tensor_shape().dim_size(), 0);
        // Byte for byte the Layout the plugin's own writer would hold.
        QCOMPARE(v.tensor().string_val(0), demoLayout().SerializeAsString());
        auto back = decodeCustomScalarsLayout(v.SerializeAsString(), "a");
        QVERIFY(back.has_value());
        QCOMPARE(back->categories[1].charts[0], layout->categories[1].charts[0]);
    }
};

QTEST_APPLESS_MAIN(TestCustomScalars)
#include "test_custom_scalars.moc"
