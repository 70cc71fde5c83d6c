// Tests for EventAccumulator and its reservoirs: TensorBoard's sampling (golden from Python), purges, plugin metadata.
#include "io/events/event_accumulator.h"
#include "io/events/python_random.h"
#include "io/events/reservoir.h"
#include "io/events/summary_values.h"

#include "kernel_harness.h"

#include "proto/config.pb.h"
#include "proto/event.pb.h"
#include "proto/summary.pb.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace tstudio;
using namespace tstudio::events;

namespace {

QJsonObject golden()
{
    QFile file(tstudio::testing::goldenDir() + "/events_reservoir.json");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

std::vector<std::int64_t> ints(const QJsonArray& array)
{
    std::vector<std::int64_t> out;
    for (const auto& v : array)
        out.push_back(static_cast<std::int64_t>(v.toDouble()));
    return out;
}

std::string serialized(const tensorflow::Event& event)
{
    return event.SerializeAsString();
}

std::string fileVersionEvent()
{
    tensorflow::Event e;
    e.set_wall_time(1.0);
    e.set_file_version("brain.Event:2");
    return serialized(e);
}

std::string scalarEvent(const std::string& tag, std::int64_t step, float value)
{
    tensorflow::Event e;
    e.set_step(step);
    e.set_wall_time(100.0 + double(step));
    auto* v = e.mutable_summary()->add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
    return serialized(e);
}

std::string histogramEvent(const std::string& tag, std::int64_t step)
{
    tensorflow::Event e;
    e.set_step(step);
    e.set_wall_time(100.0 + double(step));
    auto* v = e.mutable_summary()->add_value();
    v->set_tag(tag);
    auto* h = v->mutable_histo();
    h->set_min(-1.0);
    h->set_max(double(step));
    h->add_bucket_limit(0.0);
    h->add_bucket_limit(1.0);
    h->add_bucket(3.0);
    h->add_bucket(double(step));
    return serialized(e);
}

std::string tensorEvent(const std::string& tag, std::int64_t step, const std::string& plugin,
                        const tensorflow::TensorProto& tensor)
{
    tensorflow::Event e;
    e.set_step(step);
    e.set_wall_time(200.0 + double(step));
    auto* v = e.mutable_summary()->add_value();
    v->set_tag(tag);
    if (!plugin.empty()) {
        v->mutable_metadata()->mutable_plugin_data()->set_plugin_name(plugin);
        v->mutable_metadata()->mutable_plugin_data()->set_content("meta-" + plugin);
    }
    *v->mutable_tensor() = tensor;
    return serialized(e);
}

tensorflow::TensorProto floatScalar(float value, bool asContent)
{
    tensorflow::TensorProto t;
    t.set_dtype(tensorflow::DT_FLOAT);
    if (asContent)
        t.set_tensor_content(std::string(reinterpret_cast<const char*>(&value), 4));
    else
        t.add_float_val(value);
    return t;
}

std::string sessionLogEvent(tensorflow::SessionLog::SessionStatus status, std::int64_t step)
{
    tensorflow::Event e;
    e.set_step(step);
    e.set_wall_time(500.0);
    e.mutable_session_log()->set_status(status);
    return serialized(e);
}

std::vector<std::int64_t> steps(const std::vector<ScalarSample>& samples)
{
    std::vector<std::int64_t> out;
    for (const auto& s : samples)
        out.push_back(s.step);
    return out;
}

std::vector<std::int64_t> steps(const std::vector<ValueSample>& samples)
{
    std::vector<std::int64_t> out;
    for (const auto& s : samples)
        out.push_back(s.step);
    return out;
}

std::vector<std::int64_t> range(std::int64_t from, std::int64_t to)
{
    std::vector<std::int64_t> out;
    for (std::int64_t i = from; i < to; ++i)
        out.push_back(i);
    return out;
}

} // namespace

class TestEventAccumulator : public QObject {
    Q_OBJECT
private slots:
    void pythonRandomDrawsAsCPython()
    {
        const QJsonObject g = golden();
        if (g.isEmpty())
            QFAIL("tests/data/golden/events_reservoir.json is missing (run tools/golden/tb_reservoir.py)");
        const QJsonObject r = g["random"].toObject();
        PythonRandom random(0);
        for (std::int64_t expected : ints(r["getrandbits32"].toArray()))
            QCOMPARE(static_cast<std::int64_t>(random.getrandbits(32)), expected);
        for (std::int64_t expected : ints(r["getrandbits40"].toArray()))
            QCOMPARE(static_cast<std::int64_t>(random.getrandbits(40)), expected);
        const auto bounds = ints(r["randint_bounds"].toArray());
        const auto expected = ints(r["randint"].toArray());
        for (std::size_t i = 0; i < bounds.size(); ++i)
            QCOMPARE(static_cast<std::int64_t>(random.randintFromZero(std::uint64_t(bounds[i]))), expected[i]);
    }

    void reservoirKeepsWhatTensorBoardKeeps()
    {
        const QJsonObject g = golden();
        QVERIFY(!g.isEmpty());
        for (const auto& c : g["cases"].toArray()) {
            const QJsonObject cs = c.toObject();
            ReservoirBucket<std::int64_t> bucket(std::size_t(cs["size"].toInt()));
            for (int i = 0; i < cs["n"].toInt(); ++i)
                bucket.add(i);
            QCOMPARE(bucket.items(), ints(cs["kept"].toArray()));
            QCOMPARE(bucket.seen(), std::uint64_t(cs["seen"].toInt()));
            // The most recent item is always kept.
            QCOMPARE(bucket.items().back(), std::int64_t(cs["n"].toInt() - 1));
        }
    }

    void accumulatorSamplesPerKindWithDefaults()
    {
        const QJsonObject g = golden();
        QVERIFY(!g.isEmpty());
        std::vector<std::int64_t> histogramGolden, imageGolden;
        for (const auto& c : g["cases"].toArray()) {
            const QJsonObject cs = c.toObject();
            if (cs["size"].toInt() == 500 && cs["n"].toInt() == 2000)
                histogramGolden = ints(cs["kept"].toArray());
            if (cs["size"].toInt() == 4 && cs["n"].toInt() == 50)
                imageGolden = ints(cs["kept"].toArray());
        }
        EventAccumulator acc;
        QVERIFY(acc.addRecord(fileVersionEvent()));
        for (int step = 0; step < 2000; ++step) {
            QVERIFY(acc.addRecord(scalarEvent("loss", step, float(step) * 0.5f)));
            QVERIFY(acc.addRecord(histogramEvent("w", step)));
        }
        for (int step = 0; step < 50; ++step) {
            tensorflow::TensorProto images;
            images.set_dtype(tensorflow::DT_STRING);
            images.add_string_val("2");
            images.add_string_val("1");
            images.add_string_val("\x89PNG-" + std::to_string(step));
            QVERIFY(acc.addRecord(tensorEvent("pic", step, step == 0 ? "images" : "", images)));
        }
        QCOMPARE(acc.fileVersion(), 2.0);
        QCOMPARE(acc.scalars("loss").size(), std::size_t(2000)); // scalars: all kept by default
        QCOMPARE(acc.scalars("loss")[1999].value, 999.5);
        QCOMPARE(steps(acc.values("w")), histogramGolden);      // 500 of 2000, as TensorBoard
        QCOMPARE(steps(acc.values("pic")), imageGolden);        // 4 of 50
        QCOMPARE(acc.tagInfo("pic")->plugin, std::string("images"));
        QCOMPARE(acc.tagInfo("pic")->kind, TagKind::kImage);
        QCOMPARE(acc.tagInfo("pic")->valuesRead, std::uint64_t(50));
        QCOMPARE(acc.tagInfo("w")->plugin, std::string("histograms"));

        // The kept values decode.
        const auto histogram = decodeHistogram(*acc.values("w").back().value, "w");
        QVERIFY(histogram.has_value());
        QCOMPARE(histogram->buckets.size(), std::size_t(2));
        QCOMPARE(histogram->buckets[0].left, -1.0);  // [min] + bucket_limit[:-1]
        QCOMPARE(histogram->buckets[0].right, 0.0);
        QCOMPARE(histogram->buckets[1].right, 1999.0); // bucket_limit[:-1] + [max]
        QCOMPARE(histogram->buckets[1].count, 1999.0);
        const auto images = decodeImages(*acc.values("pic").back().value, "pic");
        QVERIFY(images.has_value());
        QCOMPARE(images->width, 2);
        QCOMPARE(images->encoded.at(0), std::string("\x89PNG-49"));

        // Smaller sizes at run time shrink what is kept (first and most recent stay), then sampling goes on.
        acc.setSizeGuidance(TagKind::kHistogram, 10);
        acc.setSizeGuidance(TagKind::kScalar, 3);
        QCOMPARE(acc.values("w").size(), std::size_t(10));
        QCOMPARE(acc.values("w").front().step, histogramGolden.front());
        QCOMPARE(acc.values("w").back().step, std::int64_t(1999));
        QCOMPARE(steps(acc.scalars("loss")), (std::vector<std::int64_t>{0, 1000, 1999}));
        for (int step = 2000; step < 2100; ++step) {
            acc.addRecord(histogramEvent("w", step));
            acc.addRecord(scalarEvent("loss", step, 1.0f));
        }
        QCOMPARE(acc.values("w").size(), std::size_t(10));
        QCOMPARE(acc.values("w").back().step, std::int64_t(2099));
        QCOMPARE(acc.scalars("loss").size(), std::size_t(3));
        QCOMPARE(acc.scalars("loss").back().step, std::int64_t(2099));
        QCOMPARE(acc.sizeGuidance(TagKind::kImage), std::size_t(4));
    }

    void sessionStartPurgesLaterSteps()
    {
        const QJsonObject purge = golden()["purge"].toObject();
        QVERIFY(!purge.isEmpty());
        EventAccumulator acc;
        acc.setSizeGuidance(TagKind::kHistogram, std::size_t(purge["size"].toInt()));
        acc.addRecord(fileVersionEvent());
        for (int step = 0; step < purge["n"].toInt(); ++step) {
            acc.addRecord(histogramEvent("h", step));
            acc.addRecord(scalarEvent("s", step, 1.0f));
        }
        // A restart from a checkpoint at step 60: later samples are orphans.
        acc.addRecord(sessionLogEvent(tensorflow::SessionLog::START, purge["purge_from"].toInt()));
        QCOMPARE(steps(acc.values("h")), ints(purge["kept_after_purge"].toArray()));
        QCOMPARE(steps(acc.scalars("s")), range(0, 60));
        QCOMPARE(acc.purgedSamples(), std::uint64_t(40 + purge["removed"].toInt()));
        for (int step = purge["readd_from"].toInt(); step < purge["readd_to"].toInt(); ++step) {
            acc.addRecord(histogramEvent("h", step));
            acc.addRecord(scalarEvent("s", step, 2.0f));
        }
        QCOMPARE(steps(acc.values("h")), ints(purge["kept"].toArray()));
        QCOMPARE(steps(acc.scalars("s")), range(0, 80));
        QCOMPARE(acc.scalars("s")[70].value, 2.0);
        // STOP and CHECKPOINT purge nothing.
        acc.addRecord(sessionLogEvent(tensorflow::SessionLog::STOP, 10));
        acc.addRecord(sessionLogEvent(tensorflow::SessionLog::CHECKPOINT, 10));
        QCOMPARE(acc.scalars("s").size(), std::size_t(80));
    }

    void withoutFileVersionStepsGoingBackPurgeTheirTags()
    {
        EventAccumulator acc;
        for (int step = 0; step < 10; ++step) {
            acc.addRecord(scalarEvent("a", step, 1.0f));
            acc.addRecord(scalarEvent("b", step, 1.0f));
        }
        acc.addRecord(scalarEvent("a", 5, 9.0f)); // back to step 5 for tag a only
        QCOMPARE(steps(acc.scalars("a")), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
        QCOMPARE(acc.scalars("a").back().value, 9.0);
        QCOMPARE(acc.scalars("b").size(), std::size_t(10));
        // With a file version, going back in steps alone purges nothing.
        EventAccumulator versioned;
        versioned.addRecord(fileVersionEvent());
        for (int step = 0; step < 10; ++step)
            versioned.addRecord(scalarEvent("a", step, 1.0f));
        versioned.addRecord(scalarEvent("a", 5, 9.0f));
        QCOMPARE(versioned.scalars("a").size(), std::size_t(11));
    }

    void tensorScalarsWithMetadataOnFirstEventOnly()
    {
        EventAccumulator acc;
        acc.addRecord(fileVersionEvent());
        for (int step = 0; step < 5; ++step)
            acc.addRecord(tensorEvent("acc", step, step == 0 ? "scalars" : "", floatScalar(0.25f * float(step), step % 2)));
        tensorflow::TensorProto d;
        d.set_dtype(tensorflow::DT_DOUBLE);
        d.add_double_val(0.1);
        acc.addRecord(tensorEvent("lr", 3, "scalars", d));
        tensorflow::TensorProto text;
        text.set_dtype(tensorflow::DT_STRING);
        text.add_string_val("hello");
        acc.addRecord(tensorEvent("note", 1, "text", text));
        acc.addRecord(tensorEvent("raw", 1, "", floatScalar(1.0f, false)));

        const auto info = acc.tagInfo("acc");
        QVERIFY(info.has_value());
        QCOMPARE(info->kind, TagKind::kScalar);
        QCOMPARE(info->plugin, std::string("scalars"));
        QCOMPARE(info->pluginContent, std::string("meta-scalars"));
        const auto samples = acc.scalars("acc");
        QCOMPARE(samples.size(), std::size_t(5));
        for (int step = 0; step < 5; ++step) {
            QCOMPARE(samples[std::size_t(step)].step, std::int64_t(step));
            QCOMPARE(samples[std::size_t(step)].value, double(0.25f * float(step)));
            QCOMPARE(samples[std::size_t(step)].wallTime, 200.0 + step);
            QVERIFY(samples[std::size_t(step)].float32);
        }
        QCOMPARE(acc.scalars("lr").at(0).value, 0.1);
        QVERIFY(!acc.scalars("lr").at(0).float32);
        QCOMPARE(acc.tagInfo("note")->kind, TagKind::kText);
        QCOMPARE(decodeText(*acc.values("note").at(0).value, "note")->at(0), std::string("hello"));
        // A tensor without any plugin is an "other tensor" tag, not a scalar.
        QCOMPARE(acc.tagInfo("raw")->kind, TagKind::kTensor);
        QCOMPARE(acc.tagInfo("raw")->plugin, std::string());
        QVERIFY(acc.scalars("raw").empty());
        QCOMPARE(acc.values("raw").size(), std::size_t(1));
        // Tags listed in first-seen order.
        std::vector<std::string> names;
        for (const auto& t : acc.tags())
            names.push_back(t.tag);
        QCOMPARE(names, (std::vector<std::string>{"acc", "lr", "note", "raw"}));
    }

    void metadataOnlyValuesArePluginData()
    {
        // The hparams plugin's summaries (add_hparams, hparams.summary) carry all their data in the
        // metadata and have no value; TensorBoard records them under their plugin.
        auto metadataOnly = [](const std::string& tag, const std::string& plugin, const std::string& content) {
            tensorflow::Event e;
            e.set_step(0);
            e.set_wall_time(300.0);
            auto* v = e.mutable_summary()->add_value();
            v->set_tag(tag);
            if (!plugin.empty() || !content.empty()) {
                v->mutable_metadata()->mutable_plugin_data()->set_plugin_name(plugin);
                v->mutable_metadata()->mutable_plugin_data()->set_content(content);
            }
            return serialized(e);
        };
        EventAccumulator acc;
        acc.addRecord(fileVersionEvent());
        acc.addRecord(metadataOnly("_hparams_/experiment", "hparams", "experiment-bytes"));
        acc.addRecord(metadataOnly("_hparams_/session_start_info", "hparams", "start-bytes"));
        acc.addRecord(metadataOnly("bare", "", ""));
        acc.addRecord(metadataOnly("nameless", "", "content without a plugin"));
        acc.addRecord(scalarEvent("hparam/accuracy", 0, 0.5f));

        std::vector<std::string> names;
        for (const auto& t : acc.tags())
            names.push_back(t.tag);
        QCOMPARE(names,
                 (std::vector<std::string>{"_hparams_/experiment", "_hparams_/session_start_info", "hparam/accuracy"}));
        const auto start = acc.tagInfo("_hparams_/session_start_info");
        QCOMPARE(start->kind, TagKind::kTensor);
        QCOMPARE(start->plugin, std::string("hparams"));
        QCOMPARE(start->pluginContent, std::string("start-bytes"));
        QCOMPARE(start->valuesRead, std::uint64_t(1));
        const auto kept = acc.values("_hparams_/session_start_info");
        QCOMPARE(kept.size(), std::size_t(1));
        tensorflow::Summary::Value value;
        QVERIFY(value.ParseFromString(*kept[0].value));
        QCOMPARE(value.metadata().plugin_data().content(), std::string("start-bytes"));
        QCOMPARE(acc.scalars("hparam/accuracy").size(), std::size_t(1));
    }

    void graphsRunMetadataAndKerasModel()
    {
        EventAccumulator acc;
        acc.addRecord(fileVersionEvent());
        tensorflow::Event graph;
        graph.set_graph_def("graph-bytes-1");
        acc.addRecord(serialized(graph));
        graph.set_graph_def("graph-bytes-2");
        acc.addRecord(serialized(graph));
        tensorflow::Event meta;
        meta.set_meta_graph_def("meta-bytes");
        acc.addRecord(serialized(meta));
        tensorflow::Event run;
        run.set_step(3);
        run.mutable_tagged_run_metadata()->set_tag("step3");
        run.mutable_tagged_run_metadata()->set_run_metadata("rm");
        acc.addRecord(serialized(run));
        tensorflow::TensorProto config;
        config.set_dtype(tensorflow::DT_STRING);
        config.add_string_val("{\"class_name\": \"Sequential\"}");
        acc.addRecord(tensorEvent("keras", 0, "graph_keras_model", config));

        QCOMPARE(acc.graphDef(), std::string("graph-bytes-2")); // the last graph
        QCOMPARE(acc.metaGraphDef(), std::string("meta-bytes"));
        QCOMPARE(acc.runMetadataTags(), std::vector<std::string>{"step3"});
        QCOMPARE(*acc.runMetadata("step3"), std::string("rm"));
        QVERIFY(!acc.runMetadata("nope"));
        QCOMPARE(*acc.kerasModelConfig(), std::string("{\"class_name\": \"Sequential\"}"));
        QCOMPARE(acc.tagInfo("keras")->plugin, std::string("graph_keras_model"));
        QCOMPARE(acc.eventsRead(), std::uint64_t(6));
    }

    void malformedRecordsAreCounted()
    {
        EventAccumulator acc;
        QVERIFY(!acc.addRecord(std::string("\x0a\xff\xff\xff\x0f", 5))); // field 1 with a wrong wire type
        QVERIFY(!acc.addRecord(std::string("\x2a\x10\x0a", 3)));         // summary longer than the record
        QCOMPARE(acc.malformedRecords(), std::uint64_t(2));
        QCOMPARE(acc.eventsRead(), std::uint64_t(0));
        QVERIFY(acc.tags().empty());
    }
};

QTEST_GUILESS_MAIN(TestEventAccumulator)
#include "test_event_accumulator.moc"
