// A project's summaries in the event files its training writes: the "summaries" key (tensors of the
// graph and a data source's images, summarised from the placeholder it feeds), a MetaGraphDef's own
// "summaries" collection and the summary ops of a plain GraphDef; the key's JSON form and its errors.
#include "../support/tiny_mnist.h"
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "io/formats/graph_def_io.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/events/log_directory.h"
#include "io/events/summary_values.h"
#include "layers/layer_catalog.h"
#include "model/meta_graph.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"
#include "summary/summary.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

using namespace tstudio;
using namespace tstudio::project;
namespace tf = tensorflow;
using json = nlohmann::json;

namespace {

constexpr auto* registries = &testing::sharedRegistries;

/// images (float32 [?,784]) and labels (int64 [?]) -> Dense "dense" (10) -> sparse softmax cross
/// entropy "xent" ("xent/value:0"); also a string Const "note" and an evaluation placeholder
/// "eval_accuracy" that no source feeds. With `ownSummaries`, tf.summary.scalar("my_loss", loss),
/// tf.summary.histogram("logits", logits) and tf.summary.scalar("eval", eval_accuracy) too.
GraphBuilder& buildNet(GraphBuilder& b, bool ownSummaries)
{
    auto images = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 784}, "images");
    auto labels = ops::placeholder(b, tf::DT_INT64, TensorShape{-1}, "labels");
    auto eval = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "eval_accuracy");
    if (!images || !labels || !eval)
        qFatal("placeholders");
    auto logits = layers::expandLayer(b, "Dense", "dense", {{"units", attr::i(10)}}, {*images});
    if (!logits)
        qFatal("%s", logits.error().toString().c_str());
    auto loss = layers::expandLayer(b, "SparseSoftmaxCrossEntropy", "xent", {{"total_loss", attr::b(false)}},
                                    {*labels, logits->front()});
    if (!loss)
        qFatal("%s", loss.error().toString().c_str());
    if (loss->front().name() != "xent/value:0")
        qFatal("loss is %s", loss->front().name().c_str());
    const std::string text[] = {"hello"};
    auto proto = makeStringTensorProto(TensorShape::scalar(), text);
    if (!proto || !ops::constant(b, *proto, "note"))
        qFatal("note");
    if (ownSummaries) {
        if (!summary::scalar(b, "my_loss", loss->front()) || !summary::histogram(b, "logits", logits->front()) ||
            !summary::scalar(b, "eval", *eval))
            qFatal("summaries");
    }
    return b;
}

std::string graphText(bool ownSummaries)
{
    GraphBuilder b(registries().ops);
    auto text = serializeGraphDef(buildNet(b, ownSummaries).graphDef(), GraphDefFormat::kText);
    if (!text)
        qFatal("%s", text.error().toString().c_str());
    return *text;
}

/// The project: the net's graph inline (or `graphFile`), a tiny MNIST in `root`, GradientDescent,
/// summaries and checkpoints every 3 steps, 7 steps.
json baseProject(const std::filesystem::path& root, bool ownSummaries = false, const std::string& graphFile = {})
{
    json p = {
        {"format", "tensorstudio-project"},
        {"version", 1},
        {"name", "summaries"},
        {"data",
         {{"dir", root.string()},
          {"sources",
           json::array(
               {{{"type", "mnist"}, {"set", "t10k"}, {"feeds", {{"images", "images"}, {"labels", "labels"}}}}})}}},
        {"training", {{"loss", "xent/value:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.1}}}}},
        {"batch_size", 20},
        {"steps", 7},
        {"hooks",
         {{"summary_every_steps", 3},
          {"checkpoint_every_steps", 3},
          {"checkpoint_every_secs", nullptr},
          {"log_every_steps", nullptr}}},
        {"logdir", "runs"}};
    if (graphFile.empty())
        p["graph"] = {{"pbtxt", graphText(ownSummaries)}};
    else
        p["graph"] = {{"file", graphFile}};
    return p;
}

Expected<Project> parse(const json& doc, const std::filesystem::path& root)
{
    auto p = parseProject(doc.dump(), "p.tsproj");
    if (p)
        p->location = root / "p.tsproj";
    return p;
}

/// Every tag of the run in `logdir`.
std::set<std::string> tagsIn(events::LogDirectory& logs)
{
    std::set<std::string> tags;
    logs.withRun(".", [&](const events::EventAccumulator& a) {
        for (const events::TagInfo& t : a.tags())
            tags.insert(t.tag);
    });
    return tags;
}

std::shared_ptr<const std::string> valueAt(events::LogDirectory& logs, const std::string& tag, std::int64_t step)
{
    std::shared_ptr<const std::string> found;
    logs.withRun(".", [&](const events::EventAccumulator& a) {
        for (const events::ValueSample& s : a.values(tag))
            if (s.step == step)
                found = s.value;
    });
    return found;
}

std::string err(const Status& s)
{
    return s.toString();
}

} // namespace

class TestProjectSummaries : public QObject {
    Q_OBJECT

private slots:
    /// The key's entries are written: a data source's images (MNIST rows shown as 28x28 images),
    /// the same rows as sound, a weight's histogram, the loss as a scalar, a string as text; with
    /// tf.estimator's "loss" beside them. The histogram at step 4 is the kernel of model.ckpt-3 (a
    /// summary is written at the step after the one whose variables it read, as TensorFlow's
    /// SummarySaverHook does).
    void keyEntriesAreWritten()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(test::writeTinyMnist(root, 200));
        json doc = baseProject(root);
        doc["summaries"] = json::array({
            {{"kind", "image"}, {"source", 0}, {"component", "images"}, {"max_outputs", 2}},
            {{"kind", "audio"},
             {"source", 0},
             {"component", "images"},
             {"sample_rate", 8000},
             {"max_outputs", 1},
             {"tag", "rows_as_sound"}},
            {{"kind", "histogram"}, {"tensor", "dense/kernel"}},
            {{"kind", "scalar"}, {"tensor", "xent/value:0"}, {"tag", "cross_entropy"}},
            {{"kind", "text"}, {"tensor", "note:0"}},
        });
        auto p = parse(doc, root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        QCOMPARE(p->summaries.size(), std::size_t(5));
        QCOMPARE(p->summaries[0].source, std::optional<std::int64_t>(0));
        QCOMPARE(p->summaries[1].sampleRate, std::optional<double>(8000));

        // The JSON form reads back the same.
        const std::string written = projectToJson(*p);
        auto again = parseProject(written, "again.tsproj");
        QVERIFY2(again, again ? "" : err(again.error()).c_str());
        QCOMPARE(projectToJson(*again), written);
        QCOMPARE(nlohmann::ordered_json::parse(written).at("summaries").at(0).dump(),
                 std::string(R"({"kind":"image","source":0,"component":"images","max_outputs":2})"));

        auto result = trainProject(*p, registries());
        QVERIFY2(result, result ? "" : err(result.error()).c_str());
        QCOMPARE(result->lastStep, std::int64_t(7));

        events::LogDirectory logs((root / "runs").string());
        QVERIFY(logs.reload().isOk());
        const std::set<std::string> tags = tagsIn(logs);
        for (const char* tag : {"images_0/image/0", "images_0/image/1", "rows_as_sound/audio", "dense/kernel_0",
                                "cross_entropy", "note_0", "loss"})
            QVERIFY2(tags.count(tag), tag);

        auto image = valueAt(logs, "images_0/image/1", 4);
        QVERIFY(image);
        auto images = events::decodeImages(*image, "images_0/image/1");
        QVERIFY2(images, images ? "" : err(images.error()).c_str());
        QCOMPARE(images->width, 28);
        QCOMPARE(images->height, 28);
        auto sound = valueAt(logs, "rows_as_sound/audio", 4);
        QVERIFY(sound);
        auto clips = events::decodeAudio(*sound, "rows_as_sound/audio");
        QVERIFY2(clips, clips ? "" : err(clips.error()).c_str());
        QCOMPARE(clips->sampleRate, 8000.0);
        QCOMPARE(clips->encoded.size(), std::size_t(1));
        auto note = valueAt(logs, "note_0", 4);
        QVERIFY(note);
        auto strings = events::decodeText(*note, "note_0");
        QVERIFY2(strings, strings ? "" : err(strings.error()).c_str());
        QCOMPARE(*strings, std::vector<std::string>{"hello"});
        std::vector<std::int64_t> lossSteps;
        logs.withRun(".", [&](const events::EventAccumulator& a) {
            for (const events::ScalarSample& s : a.scalars("cross_entropy")) {
                lossSteps.push_back(s.step);
                QVERIFY(std::isfinite(s.value) && s.value > 0);
            }
        });
        QCOMPARE(lossSteps, (std::vector<std::int64_t>{1, 4, 7}));

        // The histogram written at step 7 (by the run that took the variables from step 6 to 7) is
        // that of the kernel in model.ckpt-6 or model.ckpt-7: TensorFlow orders a summary's read of a
        // variable and the same run's update of it in no way, and neither does this test.
        auto kernelSummary = valueAt(logs, "dense/kernel_0", 7);
        QVERIFY(kernelSummary);
        auto histogram = events::decodeHistogram(*kernelSummary, "dense/kernel_0");
        QVERIFY2(histogram, histogram ? "" : err(histogram.error()).c_str());
        double count = 0;
        for (const events::HistogramBucket& bucket : histogram->buckets)
            count += bucket.count;
        QCOMPARE(count, 7840.0);
        CpuAllocator allocator;
        std::vector<std::pair<double, double>> ranges; // (min, max) of the kernel in model.ckpt-6 and -7
        for (const char* checkpoint : {"model.ckpt-6", "model.ckpt-7"}) {
            auto reader = TensorBundleReader::open((root / "runs" / checkpoint).string());
            QVERIFY2(reader, reader ? "" : err(reader.error()).c_str());
            auto kernel = reader->read("dense/kernel", allocator);
            QVERIFY(kernel);
            const auto values = kernel->values<float>();
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            ranges.emplace_back(*lo, *hi);
        }
        QVERIFY(ranges[0] != ranges[1]); // the step changed the kernel: the check below can fail
        const std::pair<double, double> range{histogram->buckets.front().left, histogram->buckets.back().right};
        QVERIFY2(range == ranges[0] || range == ranges[1],
                 (std::to_string(range.first) + " .. " + std::to_string(range.second)).c_str());
    }

    /// A MetaGraphDef's "summaries" collection is what its training writes (the evaluation summary,
    /// whose placeholder no source feeds, is left out rather than stopping every summary step); a
    /// plain GraphDef's summary ops likewise.
    void graphsOwnSummariesAreWritten()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(test::writeTinyMnist(root, 200));
        GraphBuilder b(registries().ops);
        auto meta = exportMetaGraph(buildNet(b, true));
        QVERIFY2(meta, meta ? "" : err(meta.error()).c_str());
        QVERIFY(meta->collection_def().count("summaries"));
        QVERIFY(writeMetaGraphFile(root / "net.meta", *meta).isOk());

        for (const bool fromMeta : {true, false}) {
            json doc = fromMeta ? baseProject(root, true, "net.meta") : baseProject(root, true);
            doc["logdir"] = fromMeta ? "meta" : "plain";
            auto p = parse(doc, root);
            QVERIFY2(p, p ? "" : err(p.error()).c_str());
            auto result = trainProject(*p, registries());
            QVERIFY2(result, result ? "" : err(result.error()).c_str());
            events::LogDirectory logs((root / (fromMeta ? "meta" : "plain")).string());
            QVERIFY(logs.reload().isOk());
            const std::set<std::string> tags = tagsIn(logs);
            QVERIFY2(tags.count("my_loss") && tags.count("logits") && tags.count("loss"), fromMeta ? "meta" : "plain");
            QVERIFY(!tags.count("eval"));
            std::size_t losses = 0;
            logs.withRun(".", [&](const events::EventAccumulator& a) { losses = a.scalars("my_loss").size(); });
            QCOMPARE(losses, std::size_t(3));
        }
    }

    /// What the key cannot take, named by its JSON path and the tensor.
    void badEntriesSayWhy()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(test::writeTinyMnist(root, 200));
        const json base = baseProject(root);
        const json good1 = {{"kind", "scalar"}, {"tensor", "xent/value:0"}};
        const json good2 = {{"kind", "histogram"}, {"tensor", "dense/bias"}};
        const auto trainError = [&](const json& entry) {
            json doc = base;
            doc["summaries"] = json::array({good1, good2, entry});
            auto p = parse(doc, root);
            if (!p)
                return "parse: " + p.error().message();
            auto result = trainProject(*p, registries());
            return result ? std::string("trained") : result.error().message();
        };
        QCOMPARE(trainError({{"kind", "histogram"}, {"tensor", "x:0"}}),
                 std::string("p.tsproj: summaries[2].tensor: 'x:0' is not in the graph"));
        QCOMPARE(trainError({{"kind", "image"}, {"tensor", "images"}}),
                 std::string("p.tsproj: summaries[2].tensor: 'images:0': an image summary needs uint8, float16, "
                             "float32 or float64 [batch, height, width, channels] with 1, 3 or 4 channels, got "
                             "float32 [?,784] (\"shape\" reshapes each example first, e.g. [28, 28, 1])"));
        QCOMPARE(trainError({{"kind", "image"}, {"source", 0}, {"component", "images"}, {"shape", {28, 28, 3}}}),
                 std::string("p.tsproj: summaries[2].shape: [28,28,3] holds 2352 values but an example of "
                             "'images:0' (float32 [?,784]) has 784"));
        QCOMPARE(trainError({{"kind", "scalar"}, {"tensor", "dense/kernel"}}),
                 std::string("p.tsproj: summaries[2].tensor: 'dense/kernel:0': a scalar summary needs a real-number "
                             "scalar (shape []), got float32 [784,10]"));
        QCOMPARE(trainError({{"kind", "text"}, {"tensor", "images:0"}}),
                 std::string("p.tsproj: summaries[2].tensor: 'images:0': a text summary needs strings, got float32 "
                             "[?,784]"));
        QCOMPARE(trainError({{"kind", "scalar"}, {"tensor", "eval_accuracy"}}),
                 std::string("p.tsproj: summaries[2].tensor: 'eval_accuracy:0' needs placeholder 'eval_accuracy', "
                             "which no data source feeds"));
        QCOMPARE(trainError({{"kind", "audio"}, {"source", 0}, {"component", "labels"}, {"sample_rate", 8000}}),
                 std::string("p.tsproj: summaries[2].component: 'labels:0': an audio summary needs float32 [batch, "
                             "frames] or [batch, frames, channels], got int64 [?] (\"shape\" reshapes each example "
                             "first, e.g. [28, 28, 1])"));

        // What the JSON itself cannot be.
        QCOMPARE(trainError({{"kind", "images"}, {"tensor", "images"}}),
                 std::string("parse: p.tsproj: summaries[2].kind: expected one of scalar, histogram, image, audio, "
                             "text, got 'images'"));
        QCOMPARE(trainError({{"kind", "image"}, {"tensor", "images"}, {"source", 0}}),
                 std::string("parse: p.tsproj: summaries[2]: give either \"tensor\" (a tensor of the graph) or "
                             "\"source\" (a data source's component), not both"));
        QCOMPARE(trainError({{"kind", "image"}}),
                 std::string("parse: p.tsproj: summaries[2]: needs \"tensor\" (a tensor of the graph) or \"source\" "
                             "(an index of data.sources) with \"component\""));
        QCOMPARE(
            trainError({{"kind", "image"}, {"source", 3}, {"component", "images"}}),
            std::string("parse: p.tsproj: summaries[2].source: expected an index of data.sources (0 to 0), got 3"));
        QCOMPARE(trainError({{"kind", "image"}, {"source", 0}, {"component", "pixels"}}),
                 std::string("parse: p.tsproj: summaries[2].component: the mnist source has no component 'pixels' "
                             "(it has images, labels)"));
        QCOMPARE(trainError({{"kind", "image"}, {"source", 0}}),
                 std::string("parse: p.tsproj: summaries[2].component: required with \"source\" (one of images, "
                             "labels)"));
        QCOMPARE(trainError({{"kind", "audio"}, {"tensor", "images"}}),
                 std::string("parse: p.tsproj: summaries[2].sample_rate: required for an audio summary (samples per "
                             "second, e.g. 16000)"));
        QCOMPARE(trainError({{"kind", "audio"}, {"tensor", "images"}, {"sample_rate", 0}}),
                 std::string("parse: p.tsproj: summaries[2].sample_rate: expected a positive number, got 0"));
        QCOMPARE(trainError({{"kind", "scalar"}, {"tensor", "xent/value"}, {"max_outputs", 2}}),
                 std::string("parse: p.tsproj: summaries[2].max_outputs: only applies to image and audio summaries"));
        QCOMPARE(trainError({{"kind", "image"}, {"tensor", "images"}, {"max_outputs", 0}}),
                 std::string("parse: p.tsproj: summaries[2].max_outputs: expected a positive integer, got 0"));
        QCOMPARE(trainError({{"kind", "text"}, {"tensor", "note"}, {"family", "notes"}}),
                 std::string("parse: p.tsproj: summaries[2].family: tf.summary.text takes no family"));
        QCOMPARE(trainError({{"kind", "text"}, {"tensor", "note"}, {"tag_name", "n"}}),
                 std::string("parse: p.tsproj: summaries[2].tag_name: unknown key (expected one of kind, tensor, "
                             "source, component, tag, family, max_outputs, sample_rate, shape)"));
        json notAList = base;
        notAList["summaries"] = {{"kind", "scalar"}};
        auto p = parse(notAList, root);
        QVERIFY(!p);
        QCOMPARE(p.error().message(), std::string("p.tsproj: summaries: expected an array of {\"kind\", \"tensor\" or "
                                                  "\"source\", ...}, got an object"));
    }
};

QTEST_GUILESS_MAIN(TestProjectSummaries)
#include "test_project_summaries.moc"
