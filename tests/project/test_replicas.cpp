// The project key "replicas": a project trained as two towers on two CPU devices follows the
// one-device loss curve of the same global batch and ends at the same variables; the towers run on
// /device:CPU:0 and /device:CPU:1 (the step trace says so) and the log says how towers map to
// devices; bad values name the key.
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "core/log.h"
#include "core/try.h"
#include "framework/allocator.h"
#include "io/atomic_file.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/npy.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "proto/config.pb.h"
#include "proto/step_stats.pb.h"
#include "registries/default_registries.h"
#include "project/run/training_setup.h"

#include <google/protobuf/text_format.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <mutex>
#include <set>

using namespace tstudio;
using namespace tstudio::project;

namespace {

constexpr int kExamples = 256;
constexpr int kInputs = 4;
constexpr int kHidden = 8;
const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";

const Registries& registries()
{
    static std::unique_ptr<Registries> r = [] {
        auto made = makeDefaultRegistries();
        return made ? std::move(*made) : nullptr;
    }();
    return *r;
}

std::vector<double> pattern(int count, double scale, double phase)
{
    std::vector<double> out;
    for (int i = 0; i < count; ++i)
        out.push_back(scale * std::sin(0.7 * i + phase));
    return out;
}

/// x [?,4], y [?,1]; loss = mean(square(tanh(x @ w1 + b1) @ w2 + b2 - y)) named "loss".
Expected<std::string> mlpGraphText()
{
    GraphBuilder b(registries().ops);
    TSTUDIO_TRY(x, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, kInputs}), "x"));
    TSTUDIO_TRY(y, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, 1}), "y"));
    TSTUDIO_TRY(w1, getVariable(b, "w1", TensorShape({kInputs, kHidden}), tensorflow::DT_FLOAT,
                                Initializer::constant(pattern(kInputs * kHidden, 0.5, 0.3))));
    TSTUDIO_TRY(b1, getVariable(b, "b1", TensorShape({kHidden}), tensorflow::DT_FLOAT,
                                Initializer::constant(pattern(kHidden, 0.1, 1.1))));
    TSTUDIO_TRY(w2, getVariable(b, "w2", TensorShape({kHidden, 1}), tensorflow::DT_FLOAT,
                                Initializer::constant(pattern(kHidden, 0.4, 2.0))));
    TSTUDIO_TRY(b2, getVariable(b, "b2", TensorShape({1}), tensorflow::DT_FLOAT, Initializer::zeros()));
    TSTUDIO_TRY(h0, ops::matMul(b, x, w1.value()));
    TSTUDIO_TRY(h1, ops::add(b, h0, b1.value()));
    TSTUDIO_TRY(h, ops::firstOutput(b.op("Tanh", {h1})));
    TSTUDIO_TRY(p0, ops::matMul(b, h, w2.value()));
    TSTUDIO_TRY(p, ops::add(b, p0, b2.value()));
    TSTUDIO_TRY(d, ops::sub(b, p, y));
    TSTUDIO_TRY(sq, ops::square(b, d));
    TSTUDIO_TRY(axes, ops::constantInts(b, {0, 1}, TensorShape({2})));
    TSTUDIO_TRY(loss, b.op("Mean", {sq, axes}, {}, "loss"));
    (void)loss;
    std::string text;
    google::protobuf::TextFormat::PrintToString(b.graphDef(), &text);
    return text;
}

/// x.npy [256,4] and y.npy [256,1] of y = sin(x0) + 0.5 x1 x2 - 0.3 x3.
bool writeData(const std::filesystem::path& dir)
{
    CpuAllocator allocator;
    std::vector<float> xv, yv;
    for (int r = 0; r < kExamples; ++r) {
        float row[kInputs];
        for (int c = 0; c < kInputs; ++c) {
            row[c] = static_cast<float>(std::sin(0.91 * r + 1.7 * c) * 1.5);
            xv.push_back(row[c]);
        }
        yv.push_back(static_cast<float>(std::sin(row[0]) + 0.5 * row[1] * row[2] - 0.3 * row[3]));
    }
    auto x = Tensor::fromVector(allocator, TensorShape({kExamples, kInputs}), xv);
    auto y = Tensor::fromVector(allocator, TensorShape({kExamples, 1}), yv);
    return x && y && writeNpy(dir / "x.npy", *x).isOk() && writeNpy(dir / "y.npy", *y).isOk();
}

nlohmann::json projectJson(const std::string& graph, const std::filesystem::path& dir, const std::string& logdir)
{
    return {{"format", "tensorstudio-project"},
            {"version", 1},
            {"graph", {{"pbtxt", graph}}},
            {"data",
             {{"sources",
               {{{"type", "numpy"},
                 {"files", {(dir / "x.npy").string(), (dir / "y.npy").string()}},
                 {"feeds", {{"x", "x"}, {"y", "y"}}}}}}}},
            {"training", {{"loss", "loss:0"}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.2}}}}},
            {"batch_size", 32},
            {"steps", 200},
            {"hooks", {{"checkpoint_every_secs", nullptr}, {"summary_every_steps", nullptr}}},
            {"logdir", logdir}};
}

Expected<Project> parse(const nlohmann::json& doc)
{
    return parseProject(doc.dump(), "towers.tsproj");
}

double relDiff(double a, double b)
{
    return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-12});
}

struct Run {
    std::vector<double> losses; ///< by step
    std::map<std::string, std::vector<float>> variables;
    std::map<std::string, std::set<std::string>> nodesByDevice; ///< of the traced step
    std::vector<std::string> trainingLog;
    std::string error;
};

Run train(const Project& project)
{
    Run run;
    std::mutex mutex;
    const LogSinkId sink = addLogSink([&](const LogRecord& r) {
        if (r.source == "training") {
            std::lock_guard lock(mutex);
            run.trainingLog.push_back(r.message);
        }
    });
    TrainRunOptions options;
    options.threads = 1;
    options.progressEverySteps = 1;
    options.onProgress = [&](const TrainProgress& p) {
        if (p.loss)
            run.losses.push_back(*p.loss);
    };
    options.traceAtStep = 3;
    options.onTrace = [&](std::int64_t, const tensorflow::RunMetadata& metadata) {
        for (const auto& dev : metadata.step_stats().dev_stats())
            for (const auto& node : dev.node_stats())
                run.nodesByDevice[dev.device()].insert(node.node_name());
    };
    auto result = trainProject(project, registries(), options);
    removeLogSink(sink);
    if (!result) {
        run.error = result.error().toString();
        return run;
    }
    auto reader = TensorBundleReader::open(result->lastCheckpoint);
    if (!reader) {
        run.error = reader.error().toString();
        return run;
    }
    CpuAllocator allocator;
    for (const char* name : {"w1", "b1", "w2", "b2"}) {
        auto t = reader->read(name, allocator);
        if (!t) {
            run.error = t.error().toString();
            return run;
        }
        const auto values = t->values<float>();
        run.variables[name] = std::vector<float>(values.begin(), values.end());
    }
    return run;
}

} // namespace

class TestReplicas : public QObject {
    Q_OBJECT

private slots:
    void twoTowersFollowTheOneDeviceCurve()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(writeData(root));
        auto graph = mlpGraphText();
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());

        auto single = parse(projectJson(*graph, root, (root / "one").string()));
        QVERIFY2(single, single ? "" : single.error().toString().c_str());
        nlohmann::json towersDoc = projectJson(*graph, root, (root / "two").string());
        towersDoc["replicas"] = 2;
        auto towers = parse(towersDoc);
        QVERIFY2(towers, towers ? "" : towers.error().toString().c_str());
        QCOMPARE(towers->replicas, std::int64_t(2));
        QCOMPARE(single->replicas, std::int64_t(1));
        // Saved only when not 1.
        QVERIFY(projectToJson(*towers).find("\"replicas\": 2") != std::string::npos);
        QVERIFY(projectToJson(*single).find("\"replicas\"") == std::string::npos);

        const Run one = train(*single);
        QVERIFY2(one.error.empty(), one.error.c_str());
        const Run two = train(*towers);
        QVERIFY2(two.error.empty(), two.error.c_str());

        QCOMPARE(one.losses.size(), std::size_t(200));
        QCOMPARE(two.losses.size(), std::size_t(200));
        double worst = 0;
        for (std::size_t step = 0; step < 200; ++step) {
            QVERIFY2(relDiff(one.losses[step], two.losses[step]) <= 1e-5,
                     qPrintable(QString("step %1: one device %2, two towers %3")
                                    .arg(step)
                                    .arg(one.losses[step], 0, 'g', 9)
                                    .arg(two.losses[step], 0, 'g', 9)));
            worst = std::max(worst, relDiff(one.losses[step], two.losses[step]));
        }
        QVERIFY2(one.losses.back() < 0.5 * one.losses.front(), "the MLP should learn");
        qInfo("loss %.6f -> %.6f over 200 steps; largest relative difference one device vs two towers: %.3g",
              one.losses.front(), one.losses.back(), worst);
        for (const auto& [name, values] : one.variables) {
            const std::vector<float>& other = two.variables.at(name);
            QCOMPARE(values.size(), other.size());
            for (std::size_t i = 0; i < values.size(); ++i)
                QVERIFY2(relDiff(values[i], other[i]) <= 1e-5 || std::abs(values[i] - other[i]) <= 1e-7,
                         qPrintable(QString("%1[%2]: %3 vs %4").arg(name.c_str()).arg(i).arg(values[i]).arg(other[i])));
        }

        // The traced step: each tower ran on its own CPU device, the variables' reads on CPU:0.
        const auto& cpu0 = two.nodesByDevice.at(kCpu0);
        const auto& cpu1 = two.nodesByDevice.at(kCpu1);
        for (const char* node : {"MatMul", "Tanh", "loss"}) {
            QVERIFY2(cpu0.count(std::string("tower_0/") + node) && !cpu1.count(std::string("tower_0/") + node), node);
            QVERIFY2(cpu1.count(std::string("tower_1/") + node) && !cpu0.count(std::string("tower_1/") + node), node);
        }
        QVERIFY(cpu0.count("w1/read") && cpu0.count("tower_batches/x"));
        QVERIFY(!cpu0.count("loss") && !cpu1.count("loss")); // the one-device forward pass does not run
        QVERIFY(one.nodesByDevice.count(kCpu1) == 0);

        bool logged = false;
        for (const std::string& line : two.trainingLog)
            logged = logged || line == "replicas: 2 towers, batch 32 split 16 per tower: tower_0 on /device:CPU:0, "
                                       "tower_1 on /device:CPU:1; variables and averaged gradients on /device:CPU:0";
        QVERIFY2(logged, two.trainingLog.empty() ? "(no training log)" : two.trainingLog.front().c_str());
    }

    void badReplicasNameTheKey()
    {
        const nlohmann::json base = projectJson("node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: "
                                                "DT_FLOAT } } }",
                                                "/nonexistent", "logs");
        nlohmann::json doc = base;
        doc["replicas"] = 3;
        auto uneven = parse(doc);
        QVERIFY(!uneven);
        QCOMPARE(uneven.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(uneven.error().message(), std::string("towers.tsproj: replicas: batch_size 32 does not split evenly "
                                                       "into 3 towers; choose a batch_size divisible by replicas"));
        doc["replicas"] = 0;
        auto zero = parse(doc);
        QVERIFY(!zero);
        QCOMPARE(zero.error().message(),
                 std::string("towers.tsproj: replicas: must be at least 1 (one tower per device), got 0"));
        doc["replicas"] = -2;
        QVERIFY(!parse(doc));
        doc["replicas"] = "two";
        auto text = parse(doc);
        QVERIFY(!text);
        QVERIFY2(text.error().message().rfind("towers.tsproj: replicas: ", 0) == 0, text.error().message().c_str());
        doc["replicas"] = 4;
        QVERIFY(parse(doc));

        // A graph's own train op cannot be split.
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(writeData(root));
        auto graph = mlpGraphText();
        QVERIFY(graph);
        nlohmann::json withTrainOp = projectJson(*graph, root, "logs");
        withTrainOp["replicas"] = 2;
        withTrainOp["training"] = {{"loss", "loss:0"}, {"train_op", "loss"}};
        auto p = parse(withTrainOp);
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        auto prepared = prepareTraining(*p, registries().ops);
        QVERIFY(!prepared);
        QVERIFY2(prepared.error().message().find("replicas: 2 towers need training.optimizer") != std::string::npos,
                 prepared.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestReplicas)
#include "test_replicas.moc"
