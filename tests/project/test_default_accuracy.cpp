// The default accuracy of a classifier's training (default_accuracy.h): found behind sparse and
// one-hot softmax cross-entropy losses, its value checked against one worked out by hand, none for a
// regression loss, several heads or a graph that logs its own accuracy, and the spirals project's
// run writing "accuracy" to its event file and progress.
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "project/run/default_accuracy.h"
#include "io/events/log_directory.h"
#include "losses/losses.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "proto/summary.pb.h"
#include "summary/summary.h"

#include "../support/graph_run.h"
#include "../support/shared_registries.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>

using namespace tstudio;
using namespace tstudio::project;
namespace tf = tensorflow;

namespace {

const Registries& registries()
{
    return testing::sharedRegistries();
}

// Five examples of two features through W (2 x 3): logits = x W. The labels agree with the argmax
// of examples 0, 2 and 4 only, so the accuracy is 3 / 5.
const std::vector<float> kX = {1, 0, 0, 1, 1, 1, -1, 0, 0, -1};
const std::vector<float> kW = {2, 0, 1, 0, 3, 1};
// logits: [2 0 1] [0 3 1] [2 3 2] [-2 0 -1] [0 -3 -1] -> argmax 0, 1, 1, 1, 0
const std::vector<std::int64_t> kLabels = {0, 2, 1, 0, 0};

struct Net {
    Output x;
    Output labels;
    Output logits;
    Output loss;
};

/// x (float [?,2]) times the constant W: logits [?,3]; `sparse`: int64 class ids and
/// tf.losses.sparse_softmax_cross_entropy, else float one-hot labels and tf.losses.softmax_cross_entropy.
Net buildClassifier(GraphBuilder& b, bool sparse)
{
    Net n;
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 2}, "x");
    auto w = ops::constant(b, std::vector<double>(kW.begin(), kW.end()), TensorShape{2, 3}, tf::DT_FLOAT, "W");
    auto labels = sparse ? ops::placeholder(b, tf::DT_INT64, TensorShape{-1}, "labels")
                         : ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "labels");
    if (!x || !w || !labels)
        qFatal("inputs");
    auto logits = ops::matMul(b, *x, *w, false, false, "logits");
    if (!logits)
        qFatal("%s", logits.error().toString().c_str());
    auto loss = sparse ? losses::sparseSoftmaxCrossEntropy(b, *labels, *logits)
                       : losses::softmaxCrossEntropy(b, *labels, *logits);
    if (!loss)
        qFatal("%s", loss.error().toString().c_str());
    n.x = *x;
    n.labels = *labels;
    n.logits = *logits;
    n.loss = *loss;
    return n;
}

std::vector<std::pair<std::string, Tensor>> feeds(bool sparse)
{
    static CpuAllocator allocator; // outlives the tensors it hands out
    auto x = Tensor::fromVector(allocator, TensorShape({5, 2}), kX);
    if (!x)
        qFatal("x");
    std::vector<std::pair<std::string, Tensor>> out = {{"x:0", *x}};
    if (sparse) {
        auto y = Tensor::fromVector(allocator, TensorShape({5}), kLabels);
        out.emplace_back("labels:0", *y);
    } else {
        std::vector<float> oneHot(15, 0.0f);
        for (std::size_t i = 0; i < kLabels.size(); ++i)
            oneHot[i * 3 + static_cast<std::size_t>(kLabels[i])] = 1.0f;
        auto y = Tensor::fromVector(allocator, TensorShape({5, 3}), oneHot);
        out.emplace_back("labels:0", *y);
    }
    return out;
}

/// The accuracy computed the way the test's comment works it out, from kX, kW and kLabels.
double handAccuracy()
{
    int correct = 0;
    for (int i = 0; i < 5; ++i) {
        int best = 0;
        double bestValue = -1e9;
        for (int c = 0; c < 3; ++c) {
            const double v = kX[i * 2] * kW[c] + kX[i * 2 + 1] * kW[3 + c];
            if (v > bestValue) {
                bestValue = v;
                best = c;
            }
        }
        correct += best == kLabels[static_cast<std::size_t>(i)] ? 1 : 0;
    }
    return correct / 5.0;
}

/// The summary ops of SUMMARIES whose tag is `tag`.
std::vector<std::string> summariesTagged(const GraphBuilder& b, const std::string& tag)
{
    std::vector<std::string> out;
    for (const CollectionItem& item : b.collections().get(graph_keys::kSummaries)) {
        const Output* s = std::get_if<Output>(&item);
        if (!s)
            continue;
        const tf::NodeDef* node = b.findNode(s->node());
        const tf::NodeDef* tags = node && node->input_size() > 0 ? b.findNode(node->input(0)) : nullptr;
        if (tags && tags->attr().at("value").tensor().string_val_size() == 1 &&
            tags->attr().at("value").tensor().string_val(0) == tag)
            out.push_back(s->node());
    }
    return out;
}

} // namespace

class TestDefaultAccuracy : public QObject {
    Q_OBJECT
private slots:
    void handChecksItself() { QCOMPARE(handAccuracy(), 0.6); }

    void sparseAndOneHotLabels_data()
    {
        QTest::addColumn<bool>("sparse");
        QTest::newRow("sparse class ids") << true;
        QTest::newRow("one-hot labels") << false;
    }

    void sparseAndOneHotLabels()
    {
        QFETCH(bool, sparse);
        GraphBuilder b(registries().ops);
        const Net n = buildClassifier(b, sparse);
        auto classifier = classifierOfLoss(b, n.loss.name());
        QVERIFY(classifier);
        QCOMPARE(classifier->sparse, sparse);
        // The one-hot loss feeds the cross-entropy through Reshapes, its labels through a Cast
        // and StopGradient too.
        if (sparse) {
            QCOMPARE(classifier->logits, std::string("logits:0"));
            QCOMPARE(classifier->labels, std::string("labels:0"));
        } else {
            QCOMPARE(classifier->logits, std::string("softmax_cross_entropy_loss/xentropy/Reshape:0"));
            QCOMPARE(classifier->labels, std::string("softmax_cross_entropy_loss/xentropy/Reshape_1:0"));
        }
        auto added = addDefaultAccuracy(b, n.loss.name());
        QVERIFY2(added, added ? "" : added.error().toString().c_str());
        QVERIFY(added->has_value());
        QCOMPARE(**added, std::string("accuracy/Mean:0"));
        const std::vector<std::string> summaries = summariesTagged(b, "accuracy");
        QCOMPARE(summaries.size(), std::size_t(1));

        auto values = testing::runGraph(registries(), b, feeds(sparse), {**added, summaries.front() + ":0"});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE((*values)[0].scalar<float>(), static_cast<float>(handAccuracy()));
        tf::Summary summary;
        QVERIFY(summary.ParseFromString((*values)[1].scalar<std::string>()));
        QCOMPARE(summary.value_size(), 1);
        QCOMPARE(summary.value(0).tag(), std::string("accuracy"));
        QCOMPARE(summary.value(0).simple_value(), static_cast<float>(handAccuracy()));
        // The graph now logs an accuracy: a second call adds nothing.
        auto again = addDefaultAccuracy(b, n.loss.name());
        QVERIFY(again && !again->has_value());
    }

    void tagStaysAccuracyWhenTheNameIsTaken()
    {
        GraphBuilder b(registries().ops);
        const Net n = buildClassifier(b, true);
        QVERIFY(ops::constant(b, 1.0, tf::DT_FLOAT, "accuracy"));
        auto added = addDefaultAccuracy(b, n.loss.name());
        QVERIFY2(added && added->has_value(), added ? "none added" : added.error().toString().c_str());
        QCOMPARE(**added, std::string("accuracy_1/Mean:0"));
        QCOMPARE(summariesTagged(b, "accuracy").size(), std::size_t(1));
    }

    void regressionLossGetsNone()
    {
        GraphBuilder b(registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "x");
        auto y = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "y");
        QVERIFY(x && y);
        auto loss = losses::meanSquaredError(b, *y, *x);
        QVERIFY(loss);
        QVERIFY(!classifierOfLoss(b, loss->name()));
        const int before = b.nodeCount();
        auto added = addDefaultAccuracy(b, loss->name());
        QVERIFY(added);
        QVERIFY(!added->has_value());
        QCOMPARE(b.nodeCount(), before);
        QVERIFY(summariesTagged(b, "accuracy").empty());
    }

    void graphsOwnAccuracyWins()
    {
        GraphBuilder b(registries().ops);
        const Net n = buildClassifier(b, true);
        auto own = ops::constant(b, 0.5, tf::DT_FLOAT, "my_accuracy_value");
        QVERIFY(own);
        auto s = summary::scalar(b, "train/Accuracy", *own);
        QVERIFY(s);
        QVERIFY(logsAccuracy(b));
        auto added = addDefaultAccuracy(b, n.loss.name());
        QVERIFY(added && !added->has_value());
    }

    void twoHeadsAreAmbiguous()
    {
        GraphBuilder b(registries().ops);
        const Net n = buildClassifier(b, true);
        auto second = losses::sparseSoftmaxCrossEntropy(b, n.labels, n.logits);
        QVERIFY(second);
        auto total = ops::add(b, n.loss, *second, "total_loss");
        QVERIFY(total);
        QVERIFY(!classifierOfLoss(b, total->name()));
        QVERIFY(classifierOfLoss(b, n.loss.name())); // each head alone is a classifier
    }

    void spiralsRunLogsAccuracy()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto file = std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "spirals.tsproj";
        auto p = loadProject(file, {{"hooks.summary_every_steps", "5"}});
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        TrainRunOptions options;
        options.steps = 20;
        options.logdir = std::filesystem::path(dir.path().toStdString()) / "run";
        options.progressEverySteps = 10;
        std::vector<TrainProgress> progress;
        options.onProgress = [&](const TrainProgress& t) { progress.push_back(t); };
        auto result = trainProject(*p, registries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QVERIFY(result->finalAccuracy);
        QVERIFY(*result->finalAccuracy >= 0.0 && *result->finalAccuracy <= 1.0);
        QVERIFY(!progress.empty());
        for (const TrainProgress& t : progress)
            QVERIFY(t.accuracy);

        events::LogDirectory logs((dir.path() + "/run").toStdString());
        QVERIFY(logs.reload().isOk());
        std::vector<events::ScalarSample> samples;
        logs.withRun(".", [&](const events::EventAccumulator& a) { samples = a.scalars("accuracy"); });
        QCOMPARE(samples.size(), std::size_t(4)); // steps 1, 6, 11, 16 (every 5 from the first)
        for (const events::ScalarSample& s : samples) {
            QVERIFY(s.value >= 0.0 && s.value <= 1.0);
            // A batch of 100 examples: the accuracy is a whole number of hundredths.
            QVERIFY(std::abs(s.value * 100 - std::round(s.value * 100)) < 1e-4);
        }
    }
};

QTEST_APPLESS_MAIN(TestDefaultAccuracy)
#include "test_default_accuracy.moc"
