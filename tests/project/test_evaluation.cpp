// Evaluation while training (a project's "eval" section): its JSON, the metrics in evaluation mode
// checked against a direct computation from the checkpoint, the eval event file, the best
// checkpoint, early stopping and the errors of a bad eval section. The data is made here: numpy
// files of a 3-class problem, a dense layer behind dropout driven by the learning phase.
#include "builder/graph_builder.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/events/log_directory.h"
#include "io/events/summary_values.h"
#include "io/npy.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "losses/losses.h"
#include "project/run/project_evaluate.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"

#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/text_format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

using namespace tstudio;
using namespace tstudio::project;
using json = nlohmann::json;

namespace {

constexpr std::int64_t kExamples = 200;
constexpr std::int64_t kFeatures = 4;
constexpr std::int64_t kClasses = 3;
constexpr std::int64_t kHeldOut = 50; ///< the last 50 examples

struct Data {
    std::vector<float> x; ///< [kExamples, kFeatures]
    std::vector<std::int64_t> y;
};

/// Normal features; the label is the argmax of a fixed linear map of them (learnable, not trivial).
Data makeData()
{
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const float map[kFeatures][kClasses] = {{1.0f, -0.5f, 0.2f}, {-0.3f, 1.0f, 0.4f}, {0.5f, 0.3f, -1.0f}, {0.1f, -0.2f, 0.3f}};
    Data d;
    for (std::int64_t i = 0; i < kExamples; ++i) {
        float scores[kClasses] = {0, 0, 0};
        for (std::int64_t f = 0; f < kFeatures; ++f) {
            const float v = normal(rng);
            d.x.push_back(v);
            for (std::int64_t c = 0; c < kClasses; ++c)
                scores[c] += v * map[f][c];
        }
        d.y.push_back(std::max_element(scores, scores + kClasses) - scores);
    }
    return d;
}

void writeData(const std::filesystem::path& dir, const Data& d)
{
    CpuAllocator allocator;
    auto x = Tensor::fromVector(allocator, TensorShape({kExamples, kFeatures}), d.x);
    auto y = Tensor::fromVector(allocator, TensorShape({kExamples}), d.y);
    if (!x || !y || !writeNpy(dir / "x.npy", *x).isOk() || !writeNpy(dir / "y.npy", *y).isOk())
        qFatal("writing the test data failed");
}

/// x -> dropout(0.5, learning phase) -> dense(3) "logits"; the mean cross entropy "loss".
std::string graphText()
{
    GraphBuilder b(testing::sharedRegistries().ops);
    auto x = ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, kFeatures}), "x");
    auto y = ops::placeholder(b, tensorflow::DT_INT64, TensorShape({-1}), "y");
    auto phase = learningPhase(b);
    layers::DropoutOptions drop;
    drop.rate = 0.5;
    drop.seed = 3;
    auto dropped = layers::dropout(b, *x, drop, *phase);
    layers::DenseOptions dense;
    dense.units = kClasses;
    dense.name = "logits";
    auto logits = layers::dense(b, *dropped, dense);
    if (!logits)
        qFatal("%s", logits.error().toString().c_str());
    losses::LossOptions lossOptions;
    lossOptions.scope = "loss";
    auto loss = losses::sparseSoftmaxCrossEntropy(b, *y, *logits, lossOptions);
    if (!loss)
        qFatal("%s", loss.error().toString().c_str());
    std::string text;
    google::protobuf::TextFormat::PrintToString(b.toGraphDef(), &text);
    return text;
}

json projectJson(const std::string& graph)
{
    json p = {{"format", "tensorstudio-project"},
              {"version", 1},
              {"graph", {{"pbtxt", graph}}},
              {"data",
               {{"sources", json::array({{{"type", "numpy"},
                                          {"files", {"x.npy", "y.npy"}},
                                          {"skip", 0},
                                          {"take", kExamples - kHeldOut},
                                          {"feeds", {{"x", "x"}, {"y", "y"}}}}})}}},
              {"training",
               {{"loss", "loss/value:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.5}}}}},
              {"batch_size", 30},
              {"steps", 40},
              {"hooks",
               {{"checkpoint_every_steps", nullptr},
                {"checkpoint_every_secs", nullptr},
                {"summary_every_steps", 10},
                {"log_every_steps", nullptr}}},
              {"logdir", "runs"},
              {"eval",
               {{"sources", json::array({{{"from", 0}, {"skip", kExamples - kHeldOut}, {"take", kHeldOut}}})},
                {"every_steps", 10},
                {"batch_size", 20},
                {"metrics",
                 json::array({{{"kind", "loss"}},
                              {{"kind", "accuracy"}, {"labels", "y"}, {"logits", "logits/BiasAdd"}},
                              {{"kind", "top_k_accuracy"}, {"labels", "y"}, {"logits", "logits/BiasAdd"}, {"k", 2}},
                              {{"kind", "mean"}, {"name", "input_mean"}, {"tensor", "dropout/cond/Merge"}}})},
                {"best", {{"metric", "accuracy"}}}}}};
    return p;
}

Expected<Project> parse(const json& doc, const std::filesystem::path& root)
{
    auto p = parseProject(doc.dump(), "p.tsproj");
    if (p)
        p->location = root / "p.tsproj";
    return p;
}

std::string err(const Status& s)
{
    return s.toString();
}

/// The held-out examples' logits from a checkpoint's kernel and bias (dropout off), one row of
/// kClasses per example.
std::vector<std::array<double, kClasses>> heldOutLogits(const Data& d, const std::string& prefix)
{
    CpuAllocator allocator;
    auto reader = TensorBundleReader::open(prefix);
    if (!reader)
        qFatal("%s", reader.error().toString().c_str());
    auto kernel = reader->read("logits/kernel", allocator);
    auto bias = reader->read("logits/bias", allocator);
    if (!kernel || !bias)
        qFatal("no logits/kernel or logits/bias in %s", prefix.c_str());
    const auto w = kernel->values<float>();
    const auto bb = bias->values<float>();
    std::vector<std::array<double, kClasses>> out;
    for (std::int64_t i = kExamples - kHeldOut; i < kExamples; ++i) {
        std::array<double, kClasses> logits{};
        for (std::int64_t c = 0; c < kClasses; ++c) {
            double s = bb[static_cast<std::size_t>(c)];
            for (std::int64_t f = 0; f < kFeatures; ++f)
                s += static_cast<double>(d.x[static_cast<std::size_t>(i * kFeatures + f)]) *
                     w[static_cast<std::size_t>(f * kClasses + c)];
            logits[static_cast<std::size_t>(c)] = s;
        }
        out.push_back(logits);
    }
    return out;
}

/// The held-out examples' metrics computed directly from a checkpoint's kernel and bias (dropout
/// off): accuracy, top-2 accuracy, the mean of per-batch mean cross entropies (batches of 20) and
/// the mean of the inputs.
struct Direct {
    double accuracy = 0;
    double top2 = 0;
    double loss = 0;
    double inputMean = 0;
};

Direct direct(const Data& d, const std::string& prefix)
{
    const auto rows = heldOutLogits(d, prefix);
    Direct out;
    std::int64_t correct = 0, top2 = 0;
    double batchLoss = 0, lossSum = 0, inputSum = 0;
    int batches = 0, inBatch = 0;
    for (std::int64_t i = kExamples - kHeldOut; i < kExamples; ++i) {
        const auto& row = rows[static_cast<std::size_t>(i - (kExamples - kHeldOut))];
        const double* logits = row.data();
        for (std::int64_t f = 0; f < kFeatures; ++f)
            inputSum += d.x[static_cast<std::size_t>(i * kFeatures + f)];
        const std::int64_t label = d.y[static_cast<std::size_t>(i)];
        const std::int64_t best = std::max_element(logits, logits + kClasses) - logits;
        correct += best == label;
        int above = 0;
        for (std::int64_t c = 0; c < kClasses; ++c)
            above += logits[c] > logits[label];
        top2 += above < 2;
        const double m = *std::max_element(logits, logits + kClasses);
        double z = 0;
        for (double l : row)
            z += std::exp(l - m);
        batchLoss += -(logits[label] - m - std::log(z));
        if (++inBatch == 20 || i == kExamples - 1) {
            lossSum += batchLoss / inBatch;
            ++batches;
            batchLoss = 0;
            inBatch = 0;
        }
    }
    out.accuracy = static_cast<double>(correct) / kHeldOut;
    out.top2 = static_cast<double>(top2) / kHeldOut;
    out.loss = lossSum / batches;
    out.inputMean = inputSum / (kHeldOut * kFeatures);
    return out;
}

/// The held-out examples' pr_curves tables from a checkpoint's kernel and bias, [classes, 6, T]:
/// per class c the softmax probability of c against label == c; at threshold t / (T - 1) a
/// probability above it counts as a positive prediction.
std::vector<double> directCurves(const Data& d, const std::string& prefix, std::int64_t thresholds)
{
    const auto rows = heldOutLogits(d, prefix);
    std::vector<double> out(static_cast<std::size_t>(kClasses * 6 * thresholds), 0.0);
    auto cell = [&](std::int64_t c, int row, std::int64_t t) -> double& {
        return out[static_cast<std::size_t>((c * 6 + row) * thresholds + t)];
    };
    for (std::int64_t i = kExamples - kHeldOut; i < kExamples; ++i) {
        const auto& row = rows[static_cast<std::size_t>(i - (kExamples - kHeldOut))];
        const double* logits = row.data();
        const double m = *std::max_element(logits, logits + kClasses);
        double z = 0;
        for (double l : row)
            z += std::exp(l - m);
        for (std::int64_t c = 0; c < kClasses; ++c) {
            const double probability = std::exp(logits[c] - m) / z;
            const bool positive = d.y[static_cast<std::size_t>(i)] == c;
            for (std::int64_t t = 0; t < thresholds; ++t) {
                const bool predicted = probability > static_cast<double>(t) / static_cast<double>(thresholds - 1);
                cell(c, predicted ? (positive ? 0 : 1) : (positive ? 3 : 2), t) += 1; // TP, FP, TN, FN
            }
        }
    }
    for (std::int64_t c = 0; c < kClasses; ++c)
        for (std::int64_t t = 0; t < thresholds; ++t) {
            const double tp = cell(c, 0, t), fp = cell(c, 1, t), fn = cell(c, 3, t);
            cell(c, 4, t) = tp / std::max(1e-7, tp + fp);
            cell(c, 5, t) = tp / std::max(1e-7, tp + fn);
        }
    return out;
}

bool near(double a, double b, double rel)
{
    return std::fabs(a - b) <= rel * std::max(1.0, std::fabs(b));
}

} // namespace

class TestEvaluation : public QObject {
    Q_OBJECT

private slots:
    /// The eval section round-trips byte for byte; a split copies the training source's type.
    /// The checkpoint an evaluation restores: a prefix as given, else the latest of the directory
    /// named or of the log directory. Without one the error names the project file and the folder,
    /// and leaves the remedy to the caller (no command-line flag in the project layer's words).
    void evaluationCheckpointIsFoundOrSaidMissing()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        Project p;
        p.location = root / "eval.tsproj";
        p.logdir = "run";
        auto missing = evaluationCheckpoint(p);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kNotFound);
        const std::string said = missing.error().message();
        QVERIFY2(said.rfind("eval.tsproj: no checkpoint in log directory '" + (root / "run").string() + "' (", 0) == 0,
                 said.c_str());
        QVERIFY2(said.find("--") == std::string::npos && said.find("train first") == std::string::npos, said.c_str());

        EvaluateOptions named;
        named.checkpoint = (root / "elsewhere").string();
        std::filesystem::create_directories(root / "elsewhere");
        auto inDirectory = evaluationCheckpoint(p, named);
        QVERIFY(!inDirectory);
        QVERIFY2(inDirectory.error().message().find("no checkpoint in directory '" + named.checkpoint + "'") !=
                     std::string::npos,
                 inDirectory.error().message().c_str());

        // A checkpoint in the log directory (its state file and index) is found; a prefix is taken as given.
        std::filesystem::create_directories(root / "run");
        std::ofstream(root / "run" / "checkpoint") << "model_checkpoint_path: \"model.ckpt-5\"\n";
        std::ofstream(root / "run" / "model.ckpt-5.index") << "";
        auto found = evaluationCheckpoint(p);
        QVERIFY2(found, found ? "" : found.error().toString().c_str());
        QCOMPARE(std::filesystem::path(*found).filename().string(), std::string("model.ckpt-5"));
        EvaluateOptions prefix;
        prefix.checkpoint = (root / "other" / "model.ckpt-9").string();
        QCOMPARE(*evaluationCheckpoint(p, prefix), prefix.checkpoint);
    }

    void evalSectionRoundTrips()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        auto p = parse(projectJson("node { name: \"x\" op: \"NoOp\" }"), root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        QVERIFY(p->eval);
        QCOMPARE(p->eval->sources.size(), std::size_t(1));
        QCOMPARE(p->eval->sources[0].source.type(), std::string("numpy"));
        QCOMPARE(std::get<NumpyParams>(p->eval->sources[0].source.params).skip, kExamples - kHeldOut);
        QCOMPARE(p->eval->metrics.size(), std::size_t(4));
        const std::string written = projectToJson(*p);
        auto again = parseProject(written, "p.tsproj");
        QVERIFY2(again, again ? "" : err(again.error()).c_str());
        QCOMPARE(projectToJson(*again), written);
        const auto eval = nlohmann::ordered_json::parse(written).at("eval");
        QCOMPARE(eval.at("sources").at(0).dump(), std::string(R"({"from":0,"skip":150,"take":50})"));
        QCOMPARE(eval.at("best").dump(), std::string(R"({"metric":"accuracy"})"));
    }

    /// Each mistake in an eval section is refused naming its key.
    void badEvalSectionsAreRefused_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no sources") << R"({"sources": []})" << "p.tsproj: eval.sources: expected an array of data sources";
        QTest::newRow("no schedule") << R"({"every_steps": null})"
                                     << "p.tsproj: eval: say when to evaluate: every_steps, every_secs or after_checkpoint";
        QTest::newRow("unknown kind") << R"({"metrics": [{"kind": "acuracy"}]})"
                                      << "p.tsproj: eval.metrics[0].kind: expected one of";
        QTest::newRow("no labels") << R"({"metrics": [{"kind": "accuracy", "predictions": "p"}]})"
                                   << "p.tsproj: eval.metrics[0].labels: required for accuracy";
        QTest::newRow("both predictions and logits")
            << R"({"metrics": [{"kind": "accuracy", "labels": "y", "predictions": "p", "logits": "l"}]})"
            << "p.tsproj: eval.metrics[0].logits: give either predictions or logits, not both";
        QTest::newRow("key of another kind") << R"({"metrics": [{"kind": "loss", "k": 3}]})"
                                             << "p.tsproj: eval.metrics[0].k: unknown key";
        QTest::newRow("two of one name") << R"({"metrics": [{"kind": "loss"}, {"kind": "loss"}]})"
                                         << "p.tsproj: eval.metrics[1]: another metric is named 'loss'";
        QTest::newRow("best of an unlisted metric") << R"({"best": {"metric": "auc"}})"
                                                    << "p.tsproj: eval.best.metric: 'auc' is not one of eval.metrics";
        QTest::newRow("mean without mode")
            << R"({"early_stopping": {"metric": "input_mean", "patience": 2}})"
            << "p.tsproj: eval.early_stopping.mode: required for a mean metric";
        QTest::newRow("split past the sources") << R"({"sources": [{"from": 3}]})"
                                                << "p.tsproj: eval.sources[0].from: expected the index of one of "
                                                   "data.sources (0 to 0), got 3";
    }
    void badEvalSectionsAreRefused()
    {
        QFETCH(QString, patch);
        QFETCH(QString, expected);
        json doc = projectJson("node { name: \"x\" op: \"NoOp\" }");
        doc["eval"].merge_patch(json::parse(patch.toStdString()));
        auto p = parseProject(doc.dump(), "p.tsproj");
        QVERIFY(!p);
        QVERIFY2(p.error().message().starts_with(expected.toStdString()), p.error().message().c_str());
    }

    /// A project fed by its graph's queue runners has no sources to split for evaluation.
    void splitWithoutTrainingSourcesIsRefused()
    {
        json doc = projectJson("node { name: \"x\" op: \"NoOp\" }");
        doc["data"]["sources"] = json::array();
        doc["eval"]["sources"] = json::parse(R"([{"from": 0}])");
        auto p = parseProject(doc.dump(), "p.tsproj");
        QVERIFY(!p);
        QCOMPARE(p.error().message(),
                 std::string("p.tsproj: eval.sources[0].from: the project has no data sources to split (a graph whose "
                             "queue runners feed it trains without them); give the evaluation a source of its own"));
    }

    /// Training with evaluation every 10 steps: evaluations at 10, 20, 30 and 40, in evaluation mode
    /// (the dropout's output is its input), each metric equal to a direct computation from that
    /// step's checkpoint, written to <logdir>/eval, the best kept in <logdir>/best.
    void evaluatesWhileTraining()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const Data data = makeData();
        writeData(root, data);
        auto p = parse(projectJson(graphText()), root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        std::vector<std::int64_t> seen;
        TrainRunOptions options;
        options.onEvaluation = [&](const EvalResult& r) { seen.push_back(r.step); };
        auto result = trainProject(*p, testing::sharedRegistries(), options);
        QVERIFY2(result, result ? "" : err(result.error()).c_str());
        QCOMPARE(seen, (std::vector<std::int64_t>{10, 20, 30, 40}));
        QCOMPARE(result->evaluations.size(), std::size_t(4));
        const std::filesystem::path logdir = root / "runs";
        for (const EvalResult& r : result->evaluations) {
            QCOMPARE(r.batches, std::int64_t(3));
            QCOMPARE(r.examples, kHeldOut);
            QCOMPARE(r.checkpoint, (logdir / ("model.ckpt-" + std::to_string(r.step))).string());
            const Direct expected = direct(data, r.checkpoint);
            QVERIFY2(near(*r.metric("accuracy"), expected.accuracy, 1e-6), formatEvalMetrics(r).c_str());
            QVERIFY2(near(*r.metric("top_2_accuracy"), expected.top2, 1e-6), formatEvalMetrics(r).c_str());
            QVERIFY2(near(*r.metric("loss"), expected.loss, 1e-5), formatEvalMetrics(r).c_str());
            QVERIFY2(near(*r.metric("input_mean"), expected.inputMean, 1e-5), formatEvalMetrics(r).c_str());
        }
        // It learns: the held-out accuracy at the end is well above chance.
        QVERIFY2(*result->evaluations.back().metric("accuracy") > 0.6, formatEvalMetrics(result->evaluations.back()).c_str());

        // <logdir>/eval holds each metric at each evaluated step, as tf.estimator writes them.
        events::LogDirectory logs(logdir.string());
        QVERIFY(logs.reload().isOk());
        const auto runs = logs.runs();
        QVERIFY2(std::find(runs.begin(), runs.end(), "eval") != runs.end(), "no eval run");
        std::vector<std::int64_t> steps;
        std::vector<double> values;
        logs.withRun("eval", [&](const events::EventAccumulator& a) {
            for (const events::ScalarSample& s : a.scalars("accuracy")) {
                steps.push_back(s.step);
                values.push_back(s.value);
            }
        });
        QCOMPARE(steps, (std::vector<std::int64_t>{10, 20, 30, 40}));
        for (std::size_t i = 0; i < values.size(); ++i)
            QVERIFY(near(values[i], *result->evaluations[i].metric("accuracy"), 1e-6));

        // The best by accuracy (the first evaluation of the highest) is kept in <logdir>/best.
        double bestValue = -1;
        std::int64_t bestStep = 0;
        for (const EvalResult& r : result->evaluations)
            if (*r.metric("accuracy") > bestValue) {
                bestValue = *r.metric("accuracy");
                bestStep = r.step;
            }
        QVERIFY(result->best);
        QCOMPARE(result->best->step, bestStep);
        auto kept = latestCheckpoint(logdir / "best");
        QVERIFY2(kept, kept ? "" : err(kept.error()).c_str());
        QCOMPARE(kept->filename().string(), "model.ckpt-" + std::to_string(bestStep));
        const double keptAccuracy = direct(data, kept->string()).accuracy;
        QVERIFY2(near(keptAccuracy, bestValue, 1e-6), qPrintable(QString("%1 vs %2").arg(keptAccuracy).arg(bestValue)));
        auto record = readBestCheckpointRecord(logdir / "best");
        QVERIFY(record && *record);
        QCOMPARE((*record)->metric, std::string("accuracy"));
        QCOMPARE((*record)->mode, std::string("max"));
        // Only the best's files are there.
        int indexFiles = 0;
        for (const auto& entry : std::filesystem::directory_iterator(logdir / "best"))
            indexFiles += entry.path().extension() == ".index";
        QCOMPARE(indexFiles, 1);
    }

    /// A pr_curve metric: per class, TensorBoard's pr_curves table of the held-out examples (softmax
    /// of the logits, a score above i / (T - 1) counted positive, precision tp / max(1e-7, tp + fp))
    /// equal to a direct computation from each evaluation's checkpoint, written to <logdir>/eval as
    /// pr_curves summaries "pr_curve/class_<c>" that the PR Curves tab's decoder reads back.
    void prCurvesWhileTraining()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const Data data = makeData();
        writeData(root, data);
        json doc = projectJson(graphText());
        constexpr std::int64_t kThresholds = 11;
        doc["eval"]["metrics"].push_back(
            {{"kind", "pr_curve"}, {"labels", "y"}, {"logits", "logits/BiasAdd"}, {"num_thresholds", kThresholds}});
        doc["eval"]["every_steps"] = 20;
        auto p = parse(doc, root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        auto result = trainProject(*p, testing::sharedRegistries(), {});
        QVERIFY2(result, result ? "" : err(result.error()).c_str());
        QCOMPARE(result->evaluations.size(), std::size_t(2));
        for (const EvalResult& r : result->evaluations) {
            QCOMPARE(r.metrics.size(), std::size_t(4)); // the curves are not a number
            QVERIFY(!r.metric("pr_curve"));
            QCOMPARE(r.curves.size(), std::size_t(1));
            const EvalCurves& curves = r.curves.front();
            QCOMPARE(curves.name, std::string("pr_curve"));
            QCOMPARE(curves.classes, kClasses);
            QCOMPARE(curves.thresholds, kThresholds);
            const std::vector<double> expected = directCurves(data, r.checkpoint, kThresholds);
            QCOMPARE(curves.values.size(), expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i)
                QVERIFY2(near(curves.values[i], expected[i], 1e-5),
                         qPrintable(QString("value %1: %2, expected %3").arg(i).arg(curves.values[i]).arg(
                             expected[i])));
            // Every class's counts add up to the held-out examples at every threshold.
            for (std::int64_t c = 0; c < kClasses; ++c)
                for (std::int64_t t = 0; t < kThresholds; ++t) {
                    double sum = 0;
                    for (int row = 0; row < 4; ++row)
                        sum += curves.values[static_cast<std::size_t>((c * 6 + row) * kThresholds + t)];
                    QCOMPARE(sum, double(kHeldOut));
                }
        }
        // The eval run holds one pr_curves summary per class and evaluation.
        events::LogDirectory logs((root / "runs").string());
        QVERIFY(logs.reload().isOk());
        for (std::int64_t c = 0; c < kClasses; ++c) {
            const std::string tag = "pr_curve/class_" + std::to_string(c);
            std::vector<events::ValueSample> samples;
            logs.withRun("eval", [&](const events::EventAccumulator& a) { samples = a.values(tag); });
            QCOMPARE(samples.size(), std::size_t(2));
            QCOMPARE(samples.back().step, result->evaluations.back().step);
            auto curve = events::decodePrCurve(*samples.back().value, tag);
            QVERIFY2(curve, curve ? "" : err(curve.error()).c_str());
            QCOMPARE(curve->thresholds(), std::size_t(kThresholds));
            const EvalCurves& last = result->evaluations.back().curves.front();
            for (std::int64_t t = 0; t < kThresholds; ++t) {
                const auto at = [&](int row) {
                    return last.values[static_cast<std::size_t>((c * 6 + row) * kThresholds + t)];
                };
                QCOMPARE(curve->truePositives[static_cast<std::size_t>(t)], double(at(0)));
                QCOMPARE(curve->falsePositives[static_cast<std::size_t>(t)], double(at(1)));
                QCOMPARE(curve->recall[static_cast<std::size_t>(t)], double(at(5)));
            }
        }
        // A curve is no number to keep the best checkpoint by.
        doc["eval"]["best"] = {{"metric", "pr_curve"}};
        auto refused = parse(doc, root);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message().find("eval.best.metric: 'pr_curve' is a pr_curve") != std::string::npos,
                 refused.error().message().c_str());
    }

    /// eval.after_checkpoint evaluates each checkpoint the hook saves, and the final one.
    void evaluatesAfterEachCheckpoint()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeData(root, makeData());
        json doc = projectJson(graphText());
        doc["hooks"]["checkpoint_every_steps"] = 15;
        doc["eval"]["every_steps"] = nullptr;
        doc["eval"]["after_checkpoint"] = true;
        doc["eval"]["best"] = nullptr;
        auto p = parse(doc, root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        auto result = trainProject(*p, testing::sharedRegistries());
        QVERIFY2(result, result ? "" : err(result.error()).c_str());
        std::vector<std::int64_t> steps;
        for (const EvalResult& r : result->evaluations)
            steps.push_back(r.step);
        QCOMPARE(steps, (std::vector<std::int64_t>{15, 30, 40}));
        QVERIFY(!std::filesystem::exists(root / "runs" / "best"));
    }

    /// Early stopping with a min_delta no evaluation can beat stops after `patience` evaluations
    /// without improvement, before the last step, and says why.
    void earlyStoppingEndsTheRun()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeData(root, makeData());
        json doc = projectJson(graphText());
        doc["eval"]["early_stopping"] = {{"metric", "loss"}, {"patience", 2}, {"min_delta", 1e9}};
        auto p = parse(doc, root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        auto result = trainProject(*p, testing::sharedRegistries());
        QVERIFY2(result, result ? "" : err(result.error()).c_str());
        QCOMPARE(result->evaluations.size(), std::size_t(3));
        QCOMPARE(result->lastStep, std::int64_t(30));
        QVERIFY2(result->earlyStopped.starts_with("loss has not improved on "), result->earlyStopped.c_str());
        QVERIFY2(result->earlyStopped.ends_with("(step 10) for 2 evaluations"), result->earlyStopped.c_str());
        // The run's checkpoint is its last step's.
        QCOMPARE(result->lastCheckpoint, (root / "runs" / "model.ckpt-30").string());
    }

    /// Bad eval sections that only the graph or the data can reveal are refused before anything is
    /// written: the log directory keeps what it held and gains no checkpoint.
    void badEvaluationsFailBeforeTraining_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no batch")
            << R"({"sources": [{"type": "csv", "files": ["empty.csv"], "columns": [{"name": "a", "dtype": "float32"},
                  {"name": "b", "dtype": "float32"}, {"name": "c", "dtype": "float32"},
                  {"name": "d", "dtype": "float32"}, {"name": "label", "dtype": "int64"}],
                  "feeds": {"x": ["a", "b", "c", "d"], "y": "label"}}]})"
            << "p.tsproj: eval.sources[0] (csv): the files hold no records";
        QTest::newRow("no batch from a stream")
            << R"({"sources": [{"type": "tfrecord", "files": ["empty.tfrecord"], "features": {
                  "x": {"dtype": "float32", "shape": [4]}, "y": {"dtype": "int64", "shape": []}},
                  "feeds": {"x": "x", "y": "y"}}]})"
            << "p.tsproj: eval.sources[0] (tfrecord): yields no batch: the source holds no example";
        QTest::newRow("labels of the wrong shape")
            << R"({"best": null, "metrics": [{"kind": "accuracy", "labels": "y", "predictions": "logits/BiasAdd"}]})"
            << "p.tsproj: eval.metrics[0]: 'y:0' (int64 [?]) and 'logits/BiasAdd:0' (float [?,3]): ";
        QTest::newRow("not in the graph") << R"({"best": null, "metrics": [{"kind": "mean", "tensor": "nope", "name": "m"}]})"
                                          << "p.tsproj: eval.metrics[0].tensor: 'nope:0' is not in the graph";
        QTest::newRow("auc of class ids")
            << R"({"best": null, "metrics": [{"kind": "auc", "labels": "y", "predictions": "y"}]})"
            << "p.tsproj: eval.metrics[0].predictions: 'y:0' (int64 [?]) is not floating-point";
        QTest::newRow("placeholder no eval source feeds")
            << R"({"sources": [{"type": "numpy", "files": ["x.npy"], "feeds": {"x": "x"}}]})"
            << "p.tsproj: eval.metrics[0] (loss): needs placeholder 'y', which no eval source feeds (they feed x)";
        QTest::newRow("feed of the wrong dtype")
            << R"({"sources": [{"type": "numpy", "files": ["x.npy", "y.npy"], "feeds": {"x": "y", "y": "y"}}]})"
            << "p.tsproj: eval.sources[0].feeds.x: placeholder 'x' expects float [?,4] but the source gives int64 [?]";
    }
    void badEvaluationsFailBeforeTraining()
    {
        QFETCH(QString, patch);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeData(root, makeData());
        std::ofstream(root / "empty.csv").flush();
        std::ofstream(root / "empty.tfrecord").flush();
        std::filesystem::create_directories(root / "runs");
        {
            std::ofstream keep(root / "runs" / "notes.txt");
            keep << "mine";
        }
        json doc = projectJson(graphText());
        doc["eval"].merge_patch(json::parse(patch.toStdString()));
        auto p = parse(doc, root);
        QVERIFY2(p, p ? "" : err(p.error()).c_str());
        auto result = trainProject(*p, testing::sharedRegistries());
        QVERIFY(!result);
        QVERIFY2(result.error().message().starts_with(expected.toStdString()), result.error().message().c_str());
        std::vector<std::string> files;
        for (const auto& entry : std::filesystem::directory_iterator(root / "runs"))
            files.push_back(entry.path().filename().string());
        QCOMPARE(files, std::vector<std::string>{"notes.txt"});
    }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "test_evaluation.moc"
