// Event files and log directories written by TensorFlow 1.14, TensorFlow 2 Keras and PyTorch's
// SummaryWriter (../shared/fixtures), read as `tstudio events`, the dashboard and the graph viewer
// read them (LogDirectory, readEventGraphs): TF 1 simple values and SessionLogs, tagged run
// metadata, images, TF 2 plugin tensors (pr_curves, graph_keras_model, graph_run_metadata_graph),
// the hparams plugin's metadata-only summaries, and a profiler run. Expected values are the fixtures
// README's; the TF 1 loss values were decoded independently of the engine (Python's struct over the
// record framing and the protobuf wire format).
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "io/events/event_graphs.h"
#include "io/events/log_directory.h"
#include "io/events/summary_values.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/summary.pb.h"

#include "fixture_paths.h"
#include "test_files.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace tstudio;
using namespace tstudio::events;
using tstudio::testing::fixturePath;
using tstudio::testing::missingFixture;
namespace tf = tensorflow;

namespace {

template <typename T> const char* err(const Expected<T>& e)
{
    static thread_local std::string text;
    text = e ? "ok" : e.error().toString();
    return text.c_str();
}

std::vector<std::int64_t> steps(const std::vector<ScalarSample>& samples)
{
    std::vector<std::int64_t> out;
    for (const ScalarSample& s : samples)
        out.push_back(s.step);
    return out;
}

std::vector<std::int64_t> stepRange(std::int64_t first, std::int64_t last, std::int64_t by)
{
    std::vector<std::int64_t> out;
    for (std::int64_t s = first; s <= last; s += by)
        out.push_back(s);
    return out;
}

} // namespace

class TestEventFixtures : public QObject {
    Q_OBJECT

    CpuAllocator m_allocator;

    /// The tensor of a kept sample (a serialized Summary.Value), as the engine decodes TensorProtos.
    Expected<Tensor> tensorOf(const ValueSample& sample)
    {
        tf::Summary_Value value;
        if (!value.ParseFromString(*sample.value))
            return unexpected(dataLossError("the kept sample is not a Summary.Value"));
        return Tensor::fromProto(m_allocator, value.tensor());
    }

    /// Column `c` (the six rows TP, FP, TN, FN, precision, recall) of a pr_curves tensor [6, 127].
    static std::vector<float> prColumn(const Tensor& t, int c)
    {
        std::vector<float> out;
        for (int row = 0; row < 6; ++row)
            out.push_back(t.values<float>()[std::size_t(row * 127 + c)]);
        return out;
    }

private slots:
    /// tf1-estimator-tfdata/model: the second training session of an Estimator (TensorFlow 1.14):
    /// 27 records — file_version, 2 graph_def and 2 meta_graph_def events, SessionLog CHECKPOINT at
    /// 1000 and 2000 and START at 1001, simple_value `loss` (10 values, steps 1001-1901) and
    /// `global_step/sec` (9 values). The START comes before the first value it could purge.
    void tensorFlow1EstimatorEvents()
    {
        const std::string dir = fixturePath("tf1-estimator-tfdata/model");
        if (dir.empty())
            QSKIP(missingFixture("tf1-estimator-tfdata/model"));
        LogDirectory logs(dir);
        Status s = logs.reload();
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(logs.warnings().empty());
        QCOMPARE(logs.runs(), std::vector<std::string>{"."});
        QVERIFY(logs.withRun(".", [&](const EventAccumulator& acc) {
            QCOMPARE(acc.fileVersion(), 2.0);
            QCOMPARE(acc.eventsRead(), std::uint64_t(27));
            QCOMPARE(acc.malformedRecords(), std::uint64_t(0));
            QCOMPARE(acc.purgedSamples(), std::uint64_t(0));
            QCOMPARE(acc.firstEventWallTime().value_or(0), 1567057356.0);
            const auto tags = acc.tags();
            QCOMPARE(tags.size(), std::size_t(2));
            QCOMPARE(tags[0].tag, std::string("loss"));
            QCOMPARE(tags[0].plugin, std::string("scalars"));
            QCOMPARE(tags[1].tag, std::string("global_step/sec"));
            const auto loss = acc.scalars("loss");
            QCOMPARE(steps(loss), stepRange(1001, 1901, 100));
            QCOMPARE(float(loss.front().value), 133.18429565429688f);
            QCOMPARE(float(loss.back().value), 8.27594703878276e-08f);
            QCOMPARE(loss.front().wallTime, 1567057357.0400548);
            QCOMPARE(steps(acc.scalars("global_step/sec")), stepRange(1101, 1901, 100));
            QVERIFY(!acc.graphDef().empty());
            QVERIFY(!acc.metaGraphDef().empty());
        }));

        // The graph viewer's reading: both graphs and both meta graphs; the last of each is the
        // 293-node graph of model.ckpt-2000.meta.
        auto graphs = readEventGraphs(dir);
        QVERIFY2(graphs.has_value(), err(graphs));
        QVERIFY(graphs->warnings.empty());
        QCOMPARE(graphs->graphs.size(), std::size_t(2));
        QCOMPARE(graphs->metaGraphs.size(), std::size_t(2));
        QVERIFY(graphs->runMetadata.empty());
        auto first = parseEventGraph(graphs->graphs[0]);
        auto last = parseEventGraph(graphs->graphs[1]);
        auto lastMeta = parseEventMetaGraph(graphs->metaGraphs[1]);
        QVERIFY2(first.has_value(), err(first));
        QVERIFY2(last.has_value(), err(last));
        QVERIFY2(lastMeta.has_value(), err(lastMeta));
        QCOMPARE(first->node_size(), 154);
        QCOMPARE(last->node_size(), 293);
        QCOMPARE(lastMeta->graph_def().node_size(), 293);
        QCOMPARE(graphs->graphs[1].origin.offset, std::uint64_t(61658));
    }

    /// events-pytorch-fashion-mnist: PyTorch's SummaryWriter (one run, 12 files): the traced graph
    /// (101 TorchScript nodes, producer 22) with a tagged RunMetadata `step1` naming /device:CPU:0,
    /// 15 `training_loss` values, 15 PNGs 864 x 3456, and ten pr_curves tensors [6, 127].
    void pyTorchRunMetadataScalarsImagesAndPrCurves()
    {
        const std::string dir = fixturePath("events-pytorch-fashion-mnist/runs/fashion_mnist_experiment_1");
        if (dir.empty())
            QSKIP(missingFixture("events-pytorch-fashion-mnist"));

        auto graphs = readEventGraphs(dir);
        QVERIFY2(graphs.has_value(), err(graphs));
        QVERIFY(graphs->warnings.empty());
        QCOMPARE(graphs->files.size(), std::size_t(12));
        QCOMPARE(graphs->runMetadata.size(), std::size_t(1));
        QCOMPARE(graphs->runMetadata[0].tag, std::string("step1"));
        QCOMPARE(graphs->runMetadata[0].runMetadata.size(), std::size_t(19));
        auto metadata = parseEventRunMetadata(graphs->runMetadata[0]);
        QVERIFY2(metadata.has_value(), err(metadata));
        QCOMPARE(metadata->step_stats().dev_stats_size(), 1);
        QCOMPARE(metadata->step_stats().dev_stats(0).device(), std::string("/device:CPU:0"));
        QCOMPARE(graphs->graphs.size(), std::size_t(1));
        auto graph = parseEventGraph(graphs->graphs[0]);
        QVERIFY2(graph.has_value(), err(graph));
        QCOMPARE(graph->node_size(), 101);
        QCOMPARE(graph->versions().producer(), 22);
        std::set<std::string> ops;
        for (const tf::NodeDef& node : graph->node())
            ops.insert(node.op());
        for (const char* op : {"prim::Constant", "aten::_convolution", "aten::addmm", "IO Node"})
            QVERIFY2(ops.count(op), op);

        LogDirectory logs(dir);
        Status s = logs.reload();
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(logs.runs(), std::vector<std::string>{"."});
        QVERIFY(logs.withRun(".", [&](const EventAccumulator& acc) {
            QCOMPARE(acc.runMetadataTags(), std::vector<std::string>{"step1"});
            QCOMPARE(acc.purgedSamples(), std::uint64_t(0));

            const auto loss = acc.scalars("training_loss");
            QCOMPARE(steps(loss), stepRange(999, 14999, 1000));
            QCOMPARE(float(loss.front().value), 1.5234301f);
            QCOMPARE(loss.front().wallTime, 1583091853.647697);
            QCOMPARE(float(loss.back().value), 0.42252302f);

            const auto images = acc.tagInfo("predictions_vs._actuals");
            QVERIFY(images.has_value());
            QCOMPARE(int(images->kind), int(TagKind::kImage));
            QCOMPARE(images->valuesRead, std::uint64_t(15));
            const auto kept = acc.values("predictions_vs._actuals");
            QCOMPARE(kept.size(), std::size_t(4)); // TensorBoard's default for images
            auto decoded = decodeImages(*kept.back().value, "predictions_vs._actuals");
            QVERIFY2(decoded.has_value(), err(decoded));
            QCOMPARE(decoded->width, 864);
            QCOMPARE(decoded->height, 3456);
            QCOMPARE(decoded->encoded.at(0).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));

            const std::vector<std::string> classes = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                      "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle Boot"};
            for (const std::string& name : classes) {
                const auto info = acc.tagInfo(name);
                QVERIFY2(info.has_value(), name.c_str());
                QCOMPARE(info->plugin, std::string("pr_curves"));
                QCOMPARE(info->pluginContent, std::string("\x10\x7f")); // num_thresholds 127
                QCOMPARE(int(info->kind), int(TagKind::kTensor));
                QCOMPARE(info->valuesRead, std::uint64_t(1));
                QCOMPARE(info->firstStep, std::int64_t(0));
            }
            // Trouser at threshold 0: TP 1060, FP 8940, TN 0, FN 0, precision 0.106, recall 1.
            const auto trouser = acc.values("Trouser");
            QCOMPARE(trouser.size(), std::size_t(1));
            auto tensor = tensorOf(trouser[0]);
            QVERIFY2(tensor.has_value(), err(tensor));
            QVERIFY2(tensor->shape() == TensorShape({6, 127}), tensor->shape().toString().c_str());
            QCOMPARE(prColumn(*tensor, 0), (std::vector<float>{1060, 8940, 0, 0, 0.106f, 1}));
        }));
    }

    /// events-pytorch-hparams-prcurve: add_hparams' layout, a run folder holding only a file_version
    /// record and a timestamped sub-run with the hparams plugin's three metadata-only summaries and
    /// two simple_value metrics. The metrics are the README's table; the plugin content of
    /// session_start_info carries each run's own values (float64 lr and batch_size, the optimizer).
    void hparamsLogDirectory()
    {
        const std::string root = fixturePath("events-pytorch-hparams-prcurve/runs");
        if (root.empty())
            QSKIP(missingFixture("events-pytorch-hparams-prcurve"));
        LogDirectory logs(root);
        Status s = logs.reload();
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(logs.warnings().empty());
        QCOMPARE(logs.runs(),
                 (std::vector<std::string>{"hparams_search_exp_1", "hparams_search_exp_1/1771595857.3236299",
                                           "hparams_search_exp_2", "hparams_search_exp_2/1771595857.3322473",
                                           "hparams_search_exp_3", "hparams_search_exp_3/1771595857.339544",
                                           "pr_curve_experiment"}));
        struct Row {
            std::string run;
            double lr;
            double batchSize;
            std::string optimizer;
            float accuracy;
            float loss;
        };
        const std::vector<Row> table = {
            {"hparams_search_exp_1/1771595857.3236299", 0.1, 32, "SGD", 84.0356f, 1.1832732f},
            {"hparams_search_exp_2/1771595857.3322473", 0.01, 64, "Adam", 95.5f, 0.12f},
            {"hparams_search_exp_3/1771595857.339544", 0.001, 128, "Adam", 78.535027f, 1.2194173f},
        };
        auto bytesOf = [](double v) { return std::string(reinterpret_cast<const char*>(&v), sizeof v); };
        for (const Row& row : table) {
            QVERIFY(logs.withRun(row.run.substr(0, row.run.find('/')), [&](const EventAccumulator& acc) {
                QCOMPARE(acc.eventsRead(), std::uint64_t(1));
                QVERIFY(acc.tags().empty());
            }));
            QVERIFY(logs.withRun(row.run, [&](const EventAccumulator& acc) {
                QCOMPARE(acc.eventsRead(), std::uint64_t(6));
                QCOMPARE(acc.scalars("hparam/Final_Val_Accuracy").size(), std::size_t(1));
                QCOMPARE(float(acc.scalars("hparam/Final_Val_Accuracy")[0].value), row.accuracy);
                QCOMPARE(float(acc.scalars("hparam/Final_Val_Loss")[0].value), row.loss);
                for (const char* tag :
                     {"_hparams_/experiment", "_hparams_/session_start_info", "_hparams_/session_end_info"}) {
                    const auto info = acc.tagInfo(tag);
                    QVERIFY2(info.has_value(), tag);
                    QCOMPARE(info->plugin, std::string("hparams"));
                    QVERIFY2(!info->pluginContent.empty(), tag);
                    QCOMPARE(info->valuesRead, std::uint64_t(1));
                }
                const std::string experiment = acc.tagInfo("_hparams_/experiment")->pluginContent;
                for (const char* name :
                     {"lr", "batch_size", "optimizer", "hparam/Final_Val_Accuracy", "hparam/Final_Val_Loss"})
                    QVERIFY2(experiment.find(name) != std::string::npos, name);
                const std::string start = acc.tagInfo("_hparams_/session_start_info")->pluginContent;
                QVERIFY2(start.find(bytesOf(row.lr)) != std::string::npos, row.run.c_str());
                QVERIFY2(start.find(bytesOf(row.batchSize)) != std::string::npos, row.run.c_str());
                QVERIFY2(start.find(row.optimizer) != std::string::npos, row.run.c_str());
            }));
        }
    }

    /// The same directory's pr_curve_experiment: two files of one run, each with
    /// `Evaluations/PR_Curve` at steps 0-4 (float_val tensors [6, 127]); a file_version 2 run is not
    /// purged when its second file starts again at step 0, as TensorBoard keeps it. Column 0 is
    /// [200, 800, 0, 0, 0.2, 1] everywhere; column 63 is the README's at step 0 of the first file and
    /// [200, 0, 800, 0, 1, 1] from step 2 on.
    void prCurveTensors()
    {
        const std::string dir = fixturePath("events-pytorch-hparams-prcurve/runs/pr_curve_experiment");
        if (dir.empty())
            QSKIP(missingFixture("events-pytorch-hparams-prcurve/runs/pr_curve_experiment"));
        LogDirectory logs(dir);
        Status s = logs.reload();
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(logs.withRun(".", [&](const EventAccumulator& acc) {
            const auto info = acc.tagInfo("Evaluations/PR_Curve");
            QVERIFY(info.has_value());
            QCOMPARE(info->plugin, std::string("pr_curves"));
            QCOMPARE(info->pluginContent, std::string("\x10\x7f"));
            QCOMPARE(info->valuesRead, std::uint64_t(10));
            QCOMPARE(acc.purgedSamples(), std::uint64_t(0));
            const auto samples = acc.values("Evaluations/PR_Curve");
            QCOMPARE(samples.size(), std::size_t(10));
            for (std::size_t i = 0; i < samples.size(); ++i) {
                QCOMPARE(samples[i].step, std::int64_t(i % 5));
                auto tensor = tensorOf(samples[i]);
                QVERIFY2(tensor.has_value(), err(tensor));
                QCOMPARE(int(tensor->dtype()), int(tf::DT_FLOAT));
                QVERIFY2(tensor->shape() == TensorShape({6, 127}), tensor->shape().toString().c_str());
                QCOMPARE(prColumn(*tensor, 0), (std::vector<float>{200, 800, 0, 0, 0.2f, 1}));
                if (i == 0)
                    QCOMPARE(prColumn(*tensor, 63), (std::vector<float>{86, 406, 394, 114, 0.17479675f, 0.43f}));
                if (samples[i].step >= 2)
                    QCOMPARE(prColumn(*tensor, 63), (std::vector<float>{200, 0, 800, 0, 1, 1}));
                // decodePrCurve (the PR Curves tab's reading): the same column, by threshold.
                auto curve = decodePrCurve(*samples[i].value, "Evaluations/PR_Curve");
                QVERIFY2(curve.has_value(), err(curve));
                QCOMPARE(curve->thresholds(), std::size_t(127));
                QCOMPARE(curve->truePositives[0], 200.0);
                QCOMPARE(curve->falsePositives[0], 800.0);
                QCOMPARE(curve->precision[0], double(0.2f));
                QCOMPARE(curve->recall[0], 1.0);
                QCOMPARE(curve->threshold(63), 0.5);
                if (i == 0)
                    QCOMPARE(curve->trueNegatives[63], 394.0);
            }
        }));
    }

    /// events-keras-profiler/logs: a TensorFlow 2 Keras run with profile_batch=2. The `train` run
    /// holds the model config, the `batch_2` run-metadata summary and epoch_loss as simple values;
    /// the root holds the profile marker file (file_version only). plugins/profile holds no event
    /// file, so it adds no run.
    void kerasProfilerLogDirectory()
    {
        const std::string dir = fixturePath("events-keras-profiler/logs");
        if (dir.empty())
            QSKIP(missingFixture("events-keras-profiler/logs"));
        LogDirectory logs(dir);
        Status s = logs.reload();
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(logs.warnings().empty());
        QCOMPARE(logs.runs(), (std::vector<std::string>{".", "train"}));
        QVERIFY(logs.withRun(".", [&](const EventAccumulator& acc) {
            QCOMPARE(acc.eventsRead(), std::uint64_t(1));
            QCOMPARE(acc.fileVersion(), 2.0);
            QVERIFY(acc.tags().empty());
        }));
        QVERIFY(logs.withRun("train", [&](const EventAccumulator& acc) {
            QCOMPARE(acc.eventsRead(), std::uint64_t(8));
            const auto loss = acc.scalars("epoch_loss");
            QCOMPARE(steps(loss), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
            const std::vector<float> expected = {4.1181836f, 3.3526998f, 2.932396f, 2.6254685f, 2.3807073f};
            for (std::size_t i = 0; i < expected.size(); ++i)
                QCOMPARE(float(loss[i].value), expected[i]);
            const auto keras = acc.tagInfo("keras");
            QVERIFY(keras.has_value());
            QCOMPARE(keras->plugin, std::string("graph_keras_model"));
            const auto config = acc.kerasModelConfig();
            QVERIFY(config.has_value());
            QVERIFY(config->find("\"keras_version\": \"2.4.0\"") != std::string::npos);
            const auto batch = acc.tagInfo("batch_2");
            QVERIFY(batch.has_value());
            QCOMPARE(batch->plugin, std::string("graph_run_metadata_graph"));
            QCOMPARE(batch->firstStep, std::int64_t(2));
            QCOMPARE(batch->valuesRead, std::uint64_t(1));
        }));
    }
};

QTEST_GUILESS_MAIN(TestEventFixtures)
#include "test_event_fixtures.moc"
