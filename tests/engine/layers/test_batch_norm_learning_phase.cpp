// tf.layers.batch_normalization with `training` a tensor (the graph's learning phase): the smart_cond
// graphs TensorFlow 1.15 builds (fused and moments paths), UPDATE_OPS, and a small network trained
// with its updates under tf.control_dependencies(UPDATE_OPS): the moving statistics against the update
// rule computed here in doubles, inference against the formula, and no change when fed false.
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layer_test_support.h"
#include "layers/batch_normalization.h"
#include "layers/dense.h"
#include "training/gradient_descent.h"
#include "training/update_ops.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::layers;
namespace tf = tensorflow;

namespace {

std::vector<std::string> names(const std::vector<CollectionItem>& items)
{
    std::vector<std::string> out;
    for (const CollectionItem& item : items)
        out.push_back(collectionItemName(item));
    return out;
}

std::vector<std::string> inputsOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* n = b.findNode(node);
    if (n == nullptr)
        return {"<no node " + node + ">"};
    return {n->input().begin(), n->input().end()};
}

/// Step `step`'s batch: element i of channel c (the last axis, `channels` of them) around c + 1.
std::vector<float> batch(int step, std::int64_t elements, std::int64_t channels)
{
    std::vector<float> v(static_cast<std::size_t>(elements));
    for (std::int64_t i = 0; i < elements; ++i) {
        const std::int64_t c = i % channels;
        v[static_cast<std::size_t>(i)] = static_cast<float>(
            static_cast<double>(c + 1) + 0.8 * std::sin(1.3 * static_cast<double>(i) + 0.7 * step + c));
    }
    return v;
}

} // namespace

class TestBatchNormLearningPhase : public QObject {
    Q_OBJECT

private:
    const Registries* m_registries = nullptr;
    CpuAllocator m_allocator;

    Tensor floats(const TensorShape& shape, const std::vector<float>& v)
    {
        return *Tensor::fromVector(m_allocator, shape, v);
    }
    Tensor boolean(bool v) { return *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<bool>{v}); }

    static void expectClose(const std::vector<float>& actual, const std::vector<double>& expected, const char* what)
    {
        QCOMPARE(actual.size(), expected.size());
        for (std::size_t i = 0; i < actual.size(); ++i) {
            const double tolerance = 1e-5 * std::abs(expected[i]) + 1e-6;
            QVERIFY2(std::abs(static_cast<double>(actual[i]) - expected[i]) <= tolerance,
                     (std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(actual[i]) + ", expected " +
                      std::to_string(expected[i]))
                         .c_str());
        }
    }

    static std::vector<float> values(const Tensor& t)
    {
        auto v = t.values<float>();
        return {v.begin(), v.end()};
    }

    /// BN (first layer, training = the learning phase) -> dense(2) -> mean square, trained with
    /// GradientDescent under control_dependencies(UPDATE_OPS) for 4 steps; checks the moving statistics
    /// after each step, inference fed learning_phase false, and a step fed false changing nothing.
    void trainAndCheck(const TensorShape& shape, bool fused)
    {
        const std::int64_t channels = shape.dim(shape.rank() - 1);
        const std::int64_t elements = *shape.numElements();
        const std::int64_t perChannel = elements / channels;
        const double momentum = 0.9;
        const double epsilon = 1e-3;

        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, shape, "x");
        auto phase = learningPhase(b);
        QVERIFY2(phase, phase ? "" : phase.error().toString().c_str());
        BatchNormalizationOptions options;
        options.momentum = momentum;
        options.epsilon = epsilon;
        options.fused = fused;
        auto y = batchNormalization(b, *x, options, *phase);
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        QCOMPARE(b.findNode("batch_normalization/cond/FusedBatchNormV3") != nullptr, fused);
        auto flat = ops::reshape(b, *y, *ops::constantInts(b, {shape.dim(0), -1}, TensorShape{2}));
        QVERIFY(flat.has_value());
        DenseOptions denseOptions;
        denseOptions.units = 2;
        auto logits = dense(b, *flat, denseOptions);
        QVERIFY2(logits, logits ? "" : logits.error().toString().c_str());
        auto squared = ops::square(b, *logits);
        auto loss = ops::sum(b, *squared, *ops::constantInts(b, {0, 1}, TensorShape{2}), false, "loss");
        QVERIFY(loss.has_value());
        training::GradientDescentOptimizer sgd(0.05);
        Expected<Operation> train = [&] {
            ScopeGuard after = training::afterUpdateOps(b);
            return sgd.minimize(b, *loss);
        }();
        QVERIFY2(train, train ? "" : train.error().toString().c_str());
        QVERIFY(globalVariablesInitializer(b).has_value());

        auto s = testing::layerSession(*m_registries, b);
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {}, {"init"}, &out).isOk());
        const std::vector<std::string> statistics = {"batch_normalization/moving_mean:0",
                                                     "batch_normalization/moving_variance:0"};
        std::vector<double> movingMean(static_cast<std::size_t>(channels), 0.0);
        std::vector<double> movingVariance(static_cast<std::size_t>(channels), 1.0);
        for (int step = 0; step < 4; ++step) {
            const std::vector<float> data = batch(step, elements, channels);
            // Nothing fed: the learning phase's default, training.
            Status status = s->run({{"x:0", floats(shape, data)}}, {}, {train->name()}, &out);
            QVERIFY2(status.isOk(), status.toString().c_str());
            for (std::int64_t c = 0; c < channels; ++c) {
                double sum = 0.0;
                for (std::int64_t i = c; i < elements; i += channels)
                    sum += data[static_cast<std::size_t>(i)];
                const double mean = sum / static_cast<double>(perChannel);
                double squares = 0.0;
                for (std::int64_t i = c; i < elements; i += channels)
                    squares += (data[static_cast<std::size_t>(i)] - mean) * (data[static_cast<std::size_t>(i)] - mean);
                // The fused kernel's batch variance is Bessel-corrected, the moments path's is not.
                const double variance = squares / static_cast<double>(fused ? perChannel - 1 : perChannel);
                auto& mm = movingMean[static_cast<std::size_t>(c)];
                auto& mv = movingVariance[static_cast<std::size_t>(c)];
                mm -= (mm - mean) * (1.0 - momentum);
                mv -= (mv - variance) * (1.0 - momentum);
            }
            status = s->run({}, statistics, {}, &out);
            QVERIFY2(status.isOk(), status.toString().c_str());
            expectClose(values(out[0]), movingMean, "moving_mean");
            expectClose(values(out[1]), movingVariance, "moving_variance");
        }

        // Inference: learning_phase fed false normalises with the moving statistics.
        const std::vector<float> data = batch(9, elements, channels);
        auto feeds = learningPhaseFeeds(b.graphDef(), false, m_allocator);
        QVERIFY(feeds.has_value() && feeds->size() == 1);
        feeds->emplace_back("x:0", floats(shape, data));
        Status status = s->run(
            *feeds,
            {y->name(), "batch_normalization/gamma:0", "batch_normalization/beta:0", statistics[0], statistics[1]}, {},
            &out);
        QVERIFY2(status.isOk(), status.toString().c_str());
        const std::vector<float> gamma = values(out[1]);
        const std::vector<float> beta = values(out[2]);
        QVERIFY(gamma != std::vector<float>(gamma.size(), 1.0f)); // trained
        std::vector<double> expected(static_cast<std::size_t>(elements));
        for (std::int64_t i = 0; i < elements; ++i) {
            const auto c = static_cast<std::size_t>(i % channels);
            expected[static_cast<std::size_t>(i)] = gamma[c] * (data[static_cast<std::size_t>(i)] - movingMean[c]) /
                                                        std::sqrt(movingVariance[c] + epsilon) +
                                                    beta[c];
        }
        expectClose(values(out[0]), expected, "inference output");

        // A training step fed false (the updates run, with momentum 1 or the moving value): no change.
        const std::vector<float> meanBefore = values(out[3]);
        const std::vector<float> varianceBefore = values(out[4]);
        status = s->run(*feeds, {}, {train->name()}, &out);
        QVERIFY2(status.isOk(), status.toString().c_str());
        status = s->run({}, statistics, {}, &out);
        QVERIFY2(status.isOk(), status.toString().c_str());
        QCOMPARE(values(out[0]), meanBefore);
        QCOMPARE(values(out[1]), varianceBefore);
    }

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries);
    }

    /// Fused: smart_cond of the training and inference FusedBatchNormV3, then of the momentum.
    void fusedGraphAsTensorFlow()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 4, 4, 3}, "x");
        auto training = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "training");
        auto y = batchNormalization(b, *x, {}, *training);
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("batch_normalization/cond/Merge:0"));
        QCOMPARE(y->shape(), (TensorShape{-1, 4, 4, 3}));
        const std::string p = "batch_normalization/";
        QCOMPARE(
            inputsOf(b, p + "cond/FusedBatchNormV3"),
            (std::vector<std::string>{p + "cond/FusedBatchNormV3/Switch:1", p + "cond/FusedBatchNormV3/Switch_1:1",
                                      p + "cond/FusedBatchNormV3/Switch_2:1", p + "cond/Const", p + "cond/Const_1"}));
        QCOMPARE(inputsOf(b, p + "cond/FusedBatchNormV3/Switch_1"),
                 (std::vector<std::string>{p + "gamma/read", p + "cond/pred_id"}));
        QCOMPARE(inputsOf(b, p + "cond/Const"), std::vector<std::string>{"^" + p + "cond/switch_t"});
        QCOMPARE(b.findNode(p + "cond/FusedBatchNormV3")->attr().at("is_training").b(), true);
        QCOMPARE(
            inputsOf(b, p + "cond/FusedBatchNormV3_1"),
            (std::vector<std::string>{p + "cond/FusedBatchNormV3_1/Switch", p + "cond/FusedBatchNormV3_1/Switch_1",
                                      p + "cond/FusedBatchNormV3_1/Switch_2", p + "cond/FusedBatchNormV3_1/Switch_3",
                                      p + "cond/FusedBatchNormV3_1/Switch_4"}));
        QCOMPARE(inputsOf(b, p + "cond/FusedBatchNormV3_1/Switch_3"),
                 (std::vector<std::string>{p + "moving_mean/read", p + "cond/pred_id"}));
        QCOMPARE(b.findNode(p + "cond/FusedBatchNormV3_1")->attr().at("is_training").b(), false);
        QCOMPARE(inputsOf(b, p + "cond/Merge_2"),
                 (std::vector<std::string>{p + "cond/FusedBatchNormV3_1:2", p + "cond/FusedBatchNormV3:2"}));
        QCOMPARE(inputsOf(b, p + "cond_1/Const"), std::vector<std::string>{"^" + p + "cond_1/switch_t"});
        QCOMPARE(inputsOf(b, p + "cond_1/Const_1"), std::vector<std::string>{"^" + p + "cond_1/switch_f"});
        QCOMPARE(inputsOf(b, p + "cond_1/Merge"), (std::vector<std::string>{p + "cond_1/Const_1", p + "cond_1/Const"}));
        QCOMPARE(inputsOf(b, p + "AssignMovingAvg/sub"),
                 (std::vector<std::string>{p + "AssignMovingAvg/sub/x", p + "cond_1/Merge"}));
        QCOMPARE(inputsOf(b, p + "AssignMovingAvg_1/sub_1"),
                 (std::vector<std::string>{p + "moving_variance/read", p + "cond/Merge_2"}));
        QCOMPARE(names(b.collections().get(graph_keys::kUpdateOps)),
                 (std::vector<std::string>{p + "AssignMovingAvg", p + "AssignMovingAvg_1"}));

        // A known value builds the layer as the Python bool does.
        auto yes = ops::constantInts(b, {1}, TensorShape::scalar(), tf::DT_BOOL, "yes");
        auto direct = batchNormalization(b, *x, {}, *yes);
        QVERIFY2(direct, direct ? "" : direct.error().toString().c_str());
        QCOMPARE(direct->name(), std::string("batch_normalization_1/FusedBatchNormV3:0"));
        QVERIFY(!batchNormalization(b, *x, {}, *x).has_value()); // not a bool
    }

    /// Moments: the statistics and each update through its own smart_cond; the update Merges are UPDATE_OPS.
    void momentsGraphAsTensorFlow()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "x");
        auto training = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "training");
        auto y = batchNormalization(b, *x, {}, *training);
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("batch_normalization/batchnorm/add_1:0"));
        const std::string p = "batch_normalization/";
        QVERIFY(b.findNode(p + "moments/mean") != nullptr);
        QCOMPARE(inputsOf(b, p + "cond/Merge"), (std::vector<std::string>{p + "cond/Switch_2", p + "cond/Switch_1:1"}));
        QCOMPARE(inputsOf(b, p + "cond/Switch_1"),
                 (std::vector<std::string>{p + "moments/Squeeze", p + "cond/pred_id"}));
        QCOMPARE(inputsOf(b, p + "cond/Switch_2"),
                 (std::vector<std::string>{p + "moving_mean/read", p + "cond/pred_id"}));
        QCOMPARE(inputsOf(b, p + "cond_1/Switch_1"),
                 (std::vector<std::string>{p + "moments/Squeeze_1", p + "cond_1/pred_id"}));
        // The update in the true branch: the variable enters through a RefSwitch, the decay waits for the pivot.
        QCOMPARE(b.findNode(p + "cond_2/AssignMovingAvg")->op(), std::string("AssignSub"));
        QCOMPARE(inputsOf(b, p + "cond_2/AssignMovingAvg"),
                 (std::vector<std::string>{p + "cond_2/AssignMovingAvg/Switch:1", p + "cond_2/AssignMovingAvg/mul"}));
        QCOMPARE(b.findNode(p + "cond_2/AssignMovingAvg/Switch")->op(), std::string("RefSwitch"));
        QCOMPARE(inputsOf(b, p + "cond_2/AssignMovingAvg/decay"),
                 std::vector<std::string>{"^" + p + "cond_2/switch_t"});
        QCOMPARE(inputsOf(b, p + "cond_2/AssignMovingAvg/sub"),
                 (std::vector<std::string>{p + "cond_2/AssignMovingAvg/sub/Switch:1",
                                           p + "cond_2/AssignMovingAvg/sub/Switch_1:1"}));
        QCOMPARE(inputsOf(b, p + "cond_2/Merge"),
                 (std::vector<std::string>{p + "cond_2/Switch_1", p + "cond_2/AssignMovingAvg"}));
        QCOMPARE(inputsOf(b, p + "batchnorm/add"),
                 (std::vector<std::string>{p + "cond_1/Merge", p + "batchnorm/add/y"}));
        const std::vector<std::string> updates = {p + "cond_2/Merge", p + "cond_3/Merge"};
        QCOMPARE(names(b.collections().get(graph_keys::kUpdateOps)), updates);

        // A graph read back without collections: the update Merges are recovered by their AssignSubs.
        GraphBuilder imported(m_registries->ops);
        QVERIFY(imported.importGraphDef(b.graphDef()).isOk());
        auto recovered = training::recoverUpdateOps(imported);
        QVERIFY2(recovered, recovered ? "" : recovered.error().toString().c_str());
        QCOMPARE(names(imported.collections().get(graph_keys::kUpdateOps)), updates);
    }

    void fusedTrainingUpdatesAndInference() { trainAndCheck(TensorShape{4, 2, 2, 3}, true); }
    void momentsTrainingUpdatesAndInference() { trainAndCheck(TensorShape{6, 3}, false); }
};

QTEST_GUILESS_MAIN(TestBatchNormLearningPhase)
#include "test_batch_norm_learning_phase.moc"
