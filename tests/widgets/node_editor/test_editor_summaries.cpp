// The node editor's summaries: the Summaries palette group, "Add summaries" on the selected layers
// (one undo step), and a document with summary nodes and a layer with summaries on trained through
// its project: every summary is in the event files, and the layer's mean, stddev, max, min and
// histogram of its weights are those of the checkpoint's variables.
#include "../../support/tiny_mnist.h"
#include "builder/attr_values.h"
#include "document/document_commands.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/events/log_directory.h"
#include "io/events/summary_values.h"
#include "node_editor/document_builder.h"
#include "node_editor/document_project.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_item.h"
#include "node_editor/node_palette.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"

#include "../../support/shared_registries.h"
#include "../../support/document_edits.h"

#include <QAction>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

using namespace tstudio;
using namespace tstudio::node_editor;
namespace tf = tensorflow;
using Params = std::map<std::string, tf::AttrValue>;

namespace {

constexpr auto* registries = &testing::sharedRegistries;

constexpr auto* layer = &testing::addLayerNode;
void link(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot) { testing::connectNodes(doc, from, output, to, slot); }

bool summariesOn(const GraphDocument& doc, DocNodeId id)
{
    const DocNode* n = doc.node(id);
    const auto it = n->attrs.find("summaries");
    return it != n->attrs.end() && it->second.b();
}

/// Population statistics of the float values of `t`: mean, stddev, max, min.
std::array<double, 4> statistics(const Tensor& t)
{
    const auto v = t.values<float>();
    double sum = 0;
    for (float f : v)
        sum += f;
    const double mean = sum / static_cast<double>(v.size());
    double squares = 0;
    for (float f : v)
        squares += (f - mean) * (f - mean);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return {mean, std::sqrt(squares / static_cast<double>(v.size())), *hi, *lo};
}

} // namespace

class TestEditorSummaries : public QObject {
    Q_OBJECT

private slots:
    /// The palette's Summaries group, default names after the kind, and "Add summaries": on for each
    /// selected layer with weights in one undo step; a selection without one only says so.
    void addSummariesOnTheSelection()
    {
        NodeEditor editor(&registries());
        QVERIFY(editor.palette()->visibleGroups().contains(QStringLiteral("Summaries")));
        const QStringList entries = editor.palette()->visibleEntries();
        for (const char* type : {"ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummary", "TextSummary"})
            QVERIFY2(entries.contains(QStringLiteral("layer:") + QString::fromLatin1(type)), type);
        const DocNodeId scalar = editor.addNode(QStringLiteral("layer:ScalarSummary"), QPointF(0, 300));
        QCOMPARE(editor.document()->node(scalar)->name, std::string("scalar"));

        const QList<QAction*> actions = editor.actions();
        QVERIFY(std::any_of(actions.begin(), actions.end(),
                            [](QAction* a) { return a->text() == QStringLiteral("Add summaries"); }));

        const DocNodeId input = editor.addNode(QStringLiteral("layer:Input"), QPointF(0, 0));
        const DocNodeId dense = editor.addNode(QStringLiteral("layer:Dense"), QPointF(250, 0));
        const DocNodeId conv = editor.addNode(QStringLiteral("layer:Conv2D"), QPointF(500, 0));
        auto* status = editor.findChild<QLabel*>(QStringLiteral("editorStatus"));
        QVERIFY(status);

        QVERIFY(editor.showNode(QStringLiteral("input")));
        const int before = editor.document()->undoStack()->count();
        editor.addSummariesToSelection();
        QCOMPARE(editor.document()->undoStack()->count(), before);
        QCOMPARE(status->text(),
                 QStringLiteral("Select layer nodes with weights (Dense, Conv2D, BatchNorm) to add summaries to."));

        for (DocNodeId id : {input, dense, conv})
            editor.scene()->nodeItem(id)->setSelected(true);
        editor.addSummariesToSelection();
        QVERIFY(summariesOn(*editor.document(), dense));
        QVERIFY(summariesOn(*editor.document(), conv));
        QVERIFY(!editor.document()->node(input)->attrs.count("summaries"));
        QCOMPARE(editor.document()->undoStack()->count(), before + 1);
        QCOMPARE(editor.document()->undoStack()->undoText(), QStringLiteral("Add summaries"));
        editor.addSummariesToSelection();
        QCOMPARE(status->text(),
                 QStringLiteral("The selected layers have summaries already (the attribute \"summaries\")."));
        editor.document()->undoStack()->undo();
        QVERIFY(!summariesOn(*editor.document(), dense));
        QVERIFY(!summariesOn(*editor.document(), conv));
    }

    /// MnistSource -> Dense "hidden" (summaries on) -> Dense "logits" -> SparseSoftmaxCrossEntropy
    /// -> Adam, with ScalarSummary (loss), HistogramSummary (logits), ImageSummary (the images
    /// reshaped to 28x28x1) and AudioSummary (the rows as sound) nodes, trained 7 steps with
    /// summaries and checkpoints every 3 steps.
    void documentSummariesAreWritten()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(test::writeTinyMnist(root, 200));
        GraphDocument doc(&registries().ops);
        installLayerPorts(doc);
        const DocNodeId mnist =
            layer(doc, "MnistSource", "mnist", {{"set", attr::s("t10k")}, {"dir", attr::s(root.string())}}, {0, 0});
        const DocNodeId hidden =
            layer(doc, "Dense", "hidden",
                  {{"units", attr::i(16)}, {"activation", attr::s("relu")}, {"summaries", attr::b(true)}}, {200, 0});
        const DocNodeId logits = layer(doc, "Dense", "logits", {{"units", attr::i(10)}}, {400, 0});
        const DocNodeId loss = layer(doc, "SparseSoftmaxCrossEntropy", "xent", {}, {600, 60});
        const DocNodeId adam = layer(doc, "Adam", "adam", {{"learning_rate", attr::f(0.01f)}}, {800, 60});
        const DocNodeId lossValue = layer(doc, "ScalarSummary", "loss_value", {}, {800, 160});
        const DocNodeId logitsHist = layer(doc, "HistogramSummary", "logits_hist", {}, {600, 160});
        tf::AttrValue imageShape;
        for (std::int64_t d : {-1, 28, 28, 1})
            imageShape.mutable_list()->add_i(d);
        const DocNodeId reshape = layer(doc, "Reshape", "as_images", {{"shape", imageShape}}, {200, 200});
        const DocNodeId digits = layer(doc, "ImageSummary", "digits", {{"max_outputs", attr::i(2)}}, {400, 200});
        const DocNodeId rows = layer(doc, "AudioSummary", "rows",
                                     {{"sample_rate", attr::i(8000)}, {"max_outputs", attr::i(1)}}, {400, 300});
        link(doc, mnist, 0, hidden, 0);
        link(doc, hidden, 0, logits, 0);
        link(doc, mnist, 1, loss, 0);
        link(doc, logits, 0, loss, 1);
        link(doc, loss, 0, adam, 0);
        link(doc, loss, 0, lossValue, 0);
        link(doc, logits, 0, logitsHist, 0);
        link(doc, mnist, 0, reshape, 0);
        link(doc, reshape, 0, digits, 0);
        link(doc, mnist, 0, rows, 0);

        auto p = documentProject(doc, registries().ops, newProject("summaries"));
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        p->location = root / "summaries.tsproj";
        p->batchSize = 20;
        p->steps = 7;
        p->hooks.summaryEverySteps = 3;
        p->hooks.checkpointEverySteps = 3;
        p->hooks.checkpointEverySecs.reset();
        p->hooks.logEverySteps.reset();

        // The project keeps the layer's param: reopened, the document still has summaries on.
        auto state = editorState(*p, registries().ops);
        QVERIFY2(state, state ? "" : state.error().toString().c_str());
        QVERIFY(state->layersKept);
        const auto hiddenDef = std::find_if(state->graph.node().begin(), state->graph.node().end(),
                                            [](const tf::NodeDef& n) { return n.name() == "hidden"; });
        QVERIFY(hiddenDef != state->graph.node().end());
        QVERIFY(hiddenDef->attr().count("summaries") && hiddenDef->attr().at("summaries").b());

        project::TrainRunOptions options;
        options.logdir = root / "runs";
        auto result = project::trainProject(*p, registries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(7));

        events::LogDirectory logs((root / "runs").string());
        QVERIFY(logs.reload().isOk());
        std::set<std::string> tags;
        logs.withRun(".", [&](const events::EventAccumulator& a) {
            for (const events::TagInfo& t : a.tags())
                tags.insert(t.tag);
        });
        std::vector<std::string> wanted{"loss_value",     "logits_hist", "digits/image/0",
                                        "digits/image/1", "rows/audio",  "loss"};
        for (const char* what : {"hidden/kernel", "hidden/bias", "hidden/activations"})
            for (const char* stat : {"mean", "stddev", "max", "min", "histogram"})
                wanted.push_back(std::string(what) + "/summaries/" + stat);
        for (const std::string& tag : wanted)
            QVERIFY2(tags.count(tag), tag.c_str());

        // The summaries written at step 7 (by the run that took the variables from step 6 to 7) are
        // those of the variables in model.ckpt-6 or model.ckpt-7, all five of the same one:
        // TensorFlow orders a summary's read of a variable and the same run's update in no way.
        CpuAllocator allocator;
        for (const char* variable : {"hidden/kernel", "hidden/bias"}) {
            std::vector<double> written; // mean, stddev, max, min, histogram count, left edge, right edge
            for (const char* stat : {"mean", "stddev", "max", "min"}) {
                const std::string tag = std::string(variable) + "/summaries/" + stat;
                logs.withRun(".", [&](const events::EventAccumulator& a) {
                    for (const events::ScalarSample& s : a.scalars(tag))
                        if (s.step == 7)
                            written.push_back(s.value);
                });
            }
            const std::string histogramTag = std::string(variable) + "/summaries/histogram";
            std::shared_ptr<const std::string> serialized;
            logs.withRun(".", [&](const events::EventAccumulator& a) {
                for (const events::ValueSample& s : a.values(histogramTag))
                    if (s.step == 7)
                        serialized = s.value;
            });
            QVERIFY2(written.size() == 4 && serialized, variable);
            auto histogram = events::decodeHistogram(*serialized, histogramTag);
            QVERIFY(histogram);
            double count = 0;
            for (const events::HistogramBucket& b : histogram->buckets)
                count += b.count;
            written.push_back(count);
            written.push_back(histogram->buckets.front().left);
            written.push_back(histogram->buckets.back().right);

            std::vector<std::vector<double>> expected;
            for (const char* checkpoint : {"model.ckpt-6", "model.ckpt-7"}) {
                auto reader = TensorBundleReader::open((root / "runs" / checkpoint).string());
                QVERIFY2(reader, reader ? "" : reader.error().toString().c_str());
                auto value = reader->read(variable, allocator);
                QVERIFY(value);
                const std::array<double, 4> stats = statistics(*value);
                expected.push_back({stats[0], stats[1], stats[2], stats[3], static_cast<double>(value->numElements()),
                                    stats[3], stats[2]});
            }
            QVERIFY(expected[0] != expected[1]); // the step changed the variable: the check can fail
            const auto matches = [&](const std::vector<double>& e) {
                for (std::size_t k = 0; k < e.size(); ++k) {
                    const double tolerance = k < 2 ? 1e-5 * std::abs(e[k]) + 1e-7 : 0.0; // mean, stddev: float sums
                    if (std::abs(written[k] - e[k]) > tolerance)
                        return false;
                }
                return true;
            };
            std::string text;
            for (double w : written)
                text += std::to_string(w) + " ";
            QVERIFY2(matches(expected[0]) || matches(expected[1]), (std::string(variable) + ": " + text).c_str());
        }
        // The activations' histogram counts a batch of 20 rows of 16 units.
        std::shared_ptr<const std::string> activations;
        logs.withRun(".", [&](const events::EventAccumulator& a) {
            const auto samples = a.values("hidden/activations/summaries/histogram");
            if (!samples.empty())
                activations = samples.back().value;
        });
        QVERIFY(activations);
        auto histogram = events::decodeHistogram(*activations, "activations");
        QVERIFY(histogram);
        double count = 0;
        for (const events::HistogramBucket& b : histogram->buckets)
            count += b.count;
        QCOMPARE(count, 320.0);
    }
};

QTEST_MAIN(TestEditorSummaries)
#include "test_editor_summaries.moc"
