// tf.metrics: values against NumPy after one and two update runs (weighted and not), reset by
// the local variables initializer, variable names and collections as TensorFlow 1.15 makes them.
#include "../losses/loss_test_support.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "metrics/metrics.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::losstest;
namespace tf = tensorflow;

namespace {

using MetricFn = std::function<Expected<metrics::MetricResult>(
    GraphBuilder&, const Output& labels, const Output& predictions, const metrics::MetricOptions&)>;

} // namespace

class TestMetrics : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_reg;
    Golden m_golden;

    /// Builds `fn` over placeholders of the case's batch shapes (batch 1 and 2 must have the same
    /// rank; the placeholders leave the batch dimension unknown when the batches differ in size),
    /// runs the local initializer, then
    /// the update op with batch 1 (compared with `key1` when given) and batch 2 (`key2`), then the
    /// value (again `key2`), then resets and checks the value is `resetValue`.
    void streaming(const char* caseName, const MetricFn& fn, bool weighted, const char* key1, const char* key2,
                   DataType labelDtype = tf::DT_FLOAT, DataType predictionDtype = tf::DT_FLOAT, double rtol = 1e-5,
                   double resetValue = 0.0)
    {
        QVERIFY(m_golden.has(caseName));
        GraphBuilder b(m_reg->ops);
        auto batchShape = [&](const char* key) {
            TensorShape s = m_golden.shape(caseName, key);
            std::string second(key);
            second.back() = '2';
            if (s == m_golden.shape(caseName, second.c_str()))
                return s;
            std::vector<std::int64_t> dims(s.dims().begin(), s.dims().end());
            dims[0] = -1;
            return TensorShape(dims);
        };
        const bool hasLabels = m_golden.shape(caseName, "labels1").rank() > 0;
        const char* valueKey = hasLabels ? "predictions" : "values";
        const std::string v1 = std::string(valueKey) + "1";
        const std::string v2 = std::string(valueKey) + "2";
        Output labels;
        if (hasLabels)
            labels = *ops::placeholder(b, labelDtype, batchShape("labels1"), "labels");
        const Output fed = *ops::placeholder(b, predictionDtype, batchShape(v1.c_str()), "predictions");
        // Our executor still runs a fed Placeholder that something has a control dependency on
        // (tf.metrics.mean has one on its values; TF moves such edges to the feed): an Identity
        // between them keeps these tests about the metrics.
        const Output predictions = *ops::identity(b, fed);
        metrics::MetricOptions options;
        if (weighted)
            options.weights = *ops::placeholder(b, tf::DT_FLOAT, batchShape("weights1"), "weights");
        auto result = fn(b, labels, predictions, options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        auto init = localVariablesInitializer(b);
        QVERIFY(init.has_value());
        Runner run(*m_reg, b);
        QVERIFY2(run.status().isOk(), run.status().toString().c_str());
        QVERIFY(run.runTargets({init->name()}).isOk());
        auto feeds = [&](int batch) {
            const std::string n = std::to_string(batch);
            Feeds f{{"predictions:0", m_golden.tensor(caseName, (std::string(valueKey) + n).c_str(), predictionDtype)}};
            if (hasLabels)
                f.push_back({"labels:0", m_golden.tensor(caseName, ("labels" + n).c_str(), labelDtype)});
            if (weighted)
                f.push_back({"weights:0", m_golden.tensor(caseName, ("weights" + n).c_str())});
            return f;
        };
        const auto u1 = run.fetch(result->updateOp.name(), feeds(1));
        if (key1)
            QVERIFY2(allClose(u1, m_golden.expected(caseName, key1), rtol),
                     qPrintable(show(u1) + " vs " + show(m_golden.expected(caseName, key1))));
        const auto u2 = run.fetch(result->updateOp.name(), feeds(2));
        QVERIFY2(allClose(u2, m_golden.expected(caseName, key2), rtol),
                 qPrintable(show(u2) + " vs " + show(m_golden.expected(caseName, key2))));
        // The value tensor reads the variables without changing them.
        for (int i = 0; i < 2; ++i) {
            const auto value = run.fetch(result->value.name());
            QVERIFY2(allClose(value, m_golden.expected(caseName, key2), rtol), qPrintable(show(value)));
        }
        // tf.local_variables_initializer() resets the metric.
        QVERIFY(run.runTargets({init->name()}).isOk());
        LOSS_COMPARE(run.fetch(result->value.name()), (std::vector<double>{resetValue}));
    }

private slots:
    void initTestCase()
    {
        auto reg = makeDefaultRegistries();
        QVERIFY(reg.has_value());
        m_reg = std::move(*reg);
        QVERIFY2(m_golden.load(), "tests/data/golden/losses_metrics.json is missing");
    }

    void meanVariablesAndNames()
    {
        GraphBuilder b(m_reg->ops);
        const Output values = *ops::placeholder(b, tf::DT_FLOAT, {4}, "values");
        metrics::MetricOptions options;
        options.metricsCollections = {"my_metrics"};
        options.updatesCollections = {std::string(graph_keys::kUpdateOps)};
        auto m = metrics::mean(b, values, options);
        QVERIFY2(m.has_value(), m ? "" : m.error().toString().c_str());
        QCOMPARE(m->value.node(), std::string("mean/value"));
        QCOMPARE(m->updateOp.node(), std::string("mean/update_op"));
        // _safe_div is math_ops.div_no_nan: one DivNoNan op each, over Maximum(count, 0).
        QCOMPARE(b.findNode("mean/value")->op(), std::string("DivNoNan"));
        QCOMPARE(b.findNode("mean/value")->input(1), std::string("mean/Maximum"));
        QCOMPARE(b.findNode("mean/update_op")->op(), std::string("DivNoNan"));
        QCOMPARE(b.findNode("mean/update_op")->input(1), std::string("mean/Maximum_1"));
        const auto local = localVariables(b);
        QCOMPARE(local.size(), std::size_t(2));
        QCOMPARE(local[0].name(), std::string("mean/total"));
        QCOMPARE(local[1].name(), std::string("mean/count"));
        QVERIFY(!local[0].trainable());
        QCOMPARE(b.collections().variables(metrics::kMetricVariables).size(), std::size_t(2));
        QVERIFY(globalVariables(b).empty());
        QVERIFY(trainableVariables(b).empty());
        QVERIFY(b.findNode("mean/total/Initializer/zeros") != nullptr);
        for (const char* name : {"mean/Size", "mean/Cast", "mean/Const", "mean/Sum", "mean/AssignAdd",
                                 "mean/AssignAdd_1", "mean/Maximum/y", "mean/Maximum", "mean/Maximum_1"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        QCOMPARE(b.findNode("mean/AssignAdd")->input(0), std::string("mean/total"));
        // The count update waits for the values (control_dependencies([values])).
        const auto& inputs = b.findNode("mean/AssignAdd_1")->input();
        QVERIFY(std::find(inputs.begin(), inputs.end(), "^values") != inputs.end());
        QCOMPARE(b.collections().get("my_metrics").size(), std::size_t(1));
        QCOMPARE(b.collections().get(graph_keys::kUpdateOps).size(), std::size_t(1));

        auto again = metrics::mean(b, values);
        QVERIFY(again.has_value());
        QCOMPARE(again->value.node(), std::string("mean_1/value"));
        QCOMPARE(localVariables(b)[2].name(), std::string("mean_1/total"));
    }

    void meanValues()
    {
        streaming(
            "metric_mean",
            [](GraphBuilder& b, const Output&, const Output& v, const metrics::MetricOptions& o) {
                return metrics::mean(b, v, o);
            },
            false, "update1", "update2");
        streaming(
            "metric_mean",
            [](GraphBuilder& b, const Output&, const Output& v, const metrics::MetricOptions& o) {
                return metrics::mean(b, v, o);
            },
            true, "weighted_update1", "weighted_update2");
    }

    void accuracy()
    {
        MetricFn fn = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::accuracy(b, l, p, o);
        };
        streaming("metric_accuracy", fn, false, "update1", "update2", tf::DT_INT64, tf::DT_INT32);
        streaming("metric_accuracy", fn, true, nullptr, "weighted_update2");
        GraphBuilder b(m_reg->ops);
        auto a = metrics::accuracy(b, *ops::placeholder(b, tf::DT_INT64, {3}, "l"),
                                   *ops::placeholder(b, tf::DT_INT32, {3}, "p"));
        QVERIFY(a.has_value());
        // Equal and Cast come before the "accuracy" scope, as in TF.
        QCOMPARE(b.findNode("Equal")->op(), std::string("Equal"));
        QCOMPARE(b.findNode("Cast")->input(0), std::string("p"));
        QCOMPARE(localVariables(b)[0].name(), std::string("accuracy/total"));
        auto bad = metrics::accuracy(b, *ops::placeholder(b, tf::DT_INT64, {3}, "l2"),
                                     *ops::placeholder(b, tf::DT_INT64, {4}, "p2"));
        QVERIFY(!bad.has_value());
        QCOMPARE(bad.error().message(), std::string("Shapes (4,) and (3,) are incompatible"));
    }

    void errorMetrics()
    {
        auto mae = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::meanAbsoluteError(b, l, p, o);
        };
        auto mse = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::meanSquaredError(b, l, p, o);
        };
        auto rmse = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::rootMeanSquaredError(b, l, p, o);
        };
        streaming("metric_errors", mae, true, nullptr, "mae");
        streaming("metric_errors", mse, true, nullptr, "mse");
        streaming("metric_errors", rmse, true, nullptr, "rmse");
        streaming("metric_errors", mse, false, nullptr, "mse_unweighted");

        GraphBuilder b(m_reg->ops);
        const Output l = *ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "l");
        auto r = metrics::rootMeanSquaredError(b, l, *ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "p"));
        QVERIFY(r.has_value());
        QCOMPARE(r->value.node(), std::string("Sqrt"));
        QCOMPARE(r->updateOp.node(), std::string("Sqrt_1"));
        QCOMPARE(localVariables(b)[0].name(), std::string("root_mean_squared_error/total"));
        QVERIFY(b.findNode("SquaredDifference") != nullptr);
    }

    void precisionAndRecall()
    {
        auto precision = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::precision(b, l, p, o);
        };
        auto recall = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::recall(b, l, p, o);
        };
        streaming("metric_precision_recall", precision, false, "precision1", "precision2", tf::DT_INT32, tf::DT_INT32);
        streaming("metric_precision_recall", recall, false, "recall1", "recall2", tf::DT_BOOL, tf::DT_FLOAT);
        streaming("metric_precision_recall", precision, true, nullptr, "weighted_precision2", tf::DT_INT32,
                  tf::DT_INT32);
        streaming("metric_precision_recall", recall, true, nullptr, "weighted_recall2", tf::DT_INT32, tf::DT_INT32);

        GraphBuilder b(m_reg->ops);
        auto p = metrics::precision(b, *ops::placeholder(b, tf::DT_INT32, {4}, "l"),
                                    *ops::placeholder(b, tf::DT_INT32, {4}, "p"));
        QVERIFY(p.has_value());
        QCOMPARE(p->value.node(), std::string("precision/value"));
        QCOMPARE(p->updateOp.node(), std::string("precision/update_op"));
        const auto local = localVariables(b);
        QCOMPARE(local.size(), std::size_t(2));
        QCOMPARE(local[0].name(), std::string("precision/true_positives/count"));
        QCOMPARE(local[1].name(), std::string("precision/false_positives/count"));
        for (const char* name : {"precision/Cast", "precision/Cast_1", "precision/true_positives/Equal/y",
                                 "precision/true_positives/LogicalAnd",
                                 "precision/true_positives/assert_type/statically_determined_correct_type",
                                 "precision/true_positives/Identity", "precision/true_positives/AssignAdd",
                                 "precision/add", "precision/Greater", "precision/truediv", "precision/value/e"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        QCOMPARE(b.findNode("precision/value")->op(), std::string("Select"));
    }

    void auc()
    {
        auto roc = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::auc(b, l, p, o);
        };
        auto pr = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::auc(b, l, p, o, 200, metrics::AucCurve::kPr);
        };
        auto minoring = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::auc(b, l, p, o, 200, metrics::AucCurve::kRoc, metrics::AucSummation::kMinoring);
        };
        auto ten = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::auc(b, l, p, o, 10);
        };
        streaming("metric_auc", roc, false, "roc1", "roc2", tf::DT_INT32);
        streaming("metric_auc", pr, false, nullptr, "pr2", tf::DT_INT32);
        streaming("metric_auc", minoring, false, nullptr, "roc_minoring2", tf::DT_BOOL);
        streaming("metric_auc", roc, true, nullptr, "roc_weighted2", tf::DT_INT32);
        streaming("metric_auc_ragged", roc, false, "roc1", "roc2", tf::DT_INT32);

        GraphBuilder b(m_reg->ops);
        const Output l = *ops::placeholder(b, tf::DT_INT32, {8}, "l");
        const Output p = *ops::placeholder(b, tf::DT_FLOAT, {8}, "p");
        auto a = metrics::auc(b, l, p);
        QVERIFY2(a.has_value(), a ? "" : a.error().toString().c_str());
        QCOMPARE(a->value.node(), std::string("auc/value"));
        QCOMPARE(a->updateOp.node(), std::string("auc/update_op"));
        const auto local = localVariables(b);
        QCOMPARE(local.size(), std::size_t(4));
        QCOMPARE(local[0].name(), std::string("auc/true_positives"));
        QCOMPARE(local[1].name(), std::string("auc/false_negatives"));
        QCOMPARE(local[2].name(), std::string("auc/true_negatives"));
        QCOMPARE(local[3].name(), std::string("auc/false_positives"));
        QCOMPARE(local[0].shape(), TensorShape({200}));
        for (const char* name : {"auc/Reshape",       "auc/Reshape_1",
                                 "auc/Const",         "auc/ExpandDims",
                                 "auc/stack",         "auc/Tile",
                                 "auc/transpose",     "auc/Tile_1",
                                 "auc/Greater",       "auc/LogicalNot",
                                 "auc/Tile_2",        "auc/LogicalNot_1",
                                 "auc/LogicalAnd_3",  "auc/Sum/reduction_indices",
                                 "auc/AssignAdd_3",   "auc/add/y",
                                 "auc/truediv",       "auc/truediv_1",
                                 "auc/strided_slice", "auc/strided_slice_3",
                                 "auc/truediv_2/y",   "auc/Mul"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        QCOMPARE(b.findNode("auc/value")->op(), std::string("Sum"));

        // 10 thresholds.
        streaming("metric_auc", ten, false, "roc_n10", "roc_n10_2", tf::DT_INT32);
    }

    void aucPerfectSeparation()
    {
        // Positives all above negatives: the thresholded ROC AUC is 1 within the epsilons.
        GraphBuilder b(m_reg->ops);
        auto labels = ops::constantInts(b, {0, 0, 1, 1, 0, 1}, {6});
        auto predictions = ops::constant(b, std::vector<double>{0.1, 0.3, 0.8, 0.9, 0.2, 0.7}, {6});
        auto a = metrics::auc(b, *labels, *predictions);
        QVERIFY(a.has_value());
        auto init = localVariablesInitializer(b);
        Runner run(*m_reg, b);
        QVERIFY(run.runTargets({init->name()}).isOk());
        const auto v = run.fetch(a->updateOp.name());
        QCOMPARE(v.size(), std::size_t(1));
        QVERIFY2(std::abs(v[0] - 1.0) < 1e-5, qPrintable(show(v)));
    }

    /// _confusion_matrix_at_thresholds asserts predictions in [0, 1] at run time, before counting.
    void aucPredictionsOutsideTheUnitInterval()
    {
        GraphBuilder b(m_reg->ops);
        const Output l = *ops::placeholder(b, tf::DT_INT32, {4}, "l");
        const Output p = *ops::placeholder(b, tf::DT_FLOAT, {4}, "p");
        auto a = metrics::auc(b, l, p);
        QVERIFY2(a.has_value(), a ? "" : a.error().toString().c_str());
        for (const char* name : {"auc/Cast/x", "auc/assert_greater_equal/GreaterEqual", "auc/assert_greater_equal/All",
                                 "auc/assert_greater_equal/Assert/Assert", "auc/Cast_1/x",
                                 "auc/assert_less_equal/LessEqual", "auc/assert_less_equal/Assert/Assert"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        QCOMPARE(b.findNode("auc/assert_less_equal/Assert/Assert")->op(), std::string("Assert"));
        // The labels' Cast waits for both checks.
        const auto& castInputs = b.findNode("auc/Cast_2")->input();
        QVERIFY(std::find(castInputs.begin(), castInputs.end(), "^auc/assert_greater_equal/Assert/Assert") !=
                castInputs.end());
        QVERIFY(std::find(castInputs.begin(), castInputs.end(), "^auc/assert_less_equal/Assert/Assert") !=
                castInputs.end());
        auto init = localVariablesInitializer(b);
        Runner run(*m_reg, b);
        QVERIFY(run.runTargets({init->name()}).isOk());
        CpuAllocator allocator;
        auto feeds = [&](std::vector<float> predictions) {
            return Feeds{{"l:0", *Tensor::fromVector(allocator, {4}, std::vector<std::int32_t>{0, 1, 0, 1})},
                         {"p:0", *Tensor::fromVector(allocator, {4}, predictions)}};
        };
        // The bounds themselves are inside.
        QCOMPARE(run.fetch(a->updateOp.name(), feeds({0.0f, 1.0f, 0.25f, 0.75f})).size(), std::size_t(1));
        QVERIFY(run.fetch(a->updateOp.name(), feeds({0.0f, 1.5f, 0.25f, 0.75f})).empty());
        QCOMPARE(run.status().code(), StatusCode::kInvalidArgument);
        QVERIFY2(run.status().message().find("assertion failed: [predictions must be in [0, 1]] [Condition x <= y did "
                                             "not hold element-wise:x (p:0) = ] [0 1.5 0.25...] [y (auc/Cast_1/x:0) "
                                             "= ] [1]") != std::string::npos,
                 run.status().message().c_str());
        QVERIFY(run.fetch(a->updateOp.name(), feeds({0.5f, 0.5f, -0.25f, 0.75f})).empty());
        QVERIFY2(run.status().message().find("[Condition x >= y did not hold element-wise:x (p:0) = ] [0.5 0.5 "
                                             "-0.25...] [y (auc/Cast/x:0) = ] [0]") != std::string::npos,
                 run.status().message().c_str());
    }

    void meanRelativeError()
    {
        MetricFn fn = [this](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            auto normalizer =
                ops::constant(b, m_golden.values("metric_relative_error", "normalizer"),
                              m_golden.shape("metric_relative_error", "normalizer"), tf::DT_FLOAT, "normalizer");
            return metrics::meanRelativeError(b, l, p, *normalizer, o);
        };
        streaming("metric_relative_error", fn, false, "update1", "update2");
        streaming("metric_relative_error", fn, true, nullptr, "weighted2");
        GraphBuilder b(m_reg->ops);
        const Output l = *ops::placeholder(b, tf::DT_FLOAT, {3, 2}, "l");
        const Output p = *ops::placeholder(b, tf::DT_FLOAT, {3, 2}, "p");
        const Output n = *ops::placeholder(b, tf::DT_FLOAT, {3, 2}, "n");
        auto r = metrics::meanRelativeError(b, l, p, n);
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        QCOMPARE(r->value.node(), std::string("mean_relative_error/value"));
        QCOMPARE(r->updateOp.node(), std::string("mean_relative_error/update_op"));
        QCOMPARE(localVariables(b)[0].name(), std::string("mean_relative_error/total"));
        for (const char* name : {"Equal/y", "Equal", "zeros_like", "sub", "Abs", "div", "Select"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        QCOMPARE(b.findNode("div")->op(), std::string("RealDiv"));
        QCOMPARE(b.findNode("Select")->input(0), std::string("Equal"));
        auto bad = metrics::meanRelativeError(b, l, p, *ops::placeholder(b, tf::DT_FLOAT, {2, 2}, "n2"));
        QVERIFY(!bad.has_value());
        QCOMPARE(bad.error().message(), std::string("Shapes (3, 2) and (2, 2) are incompatible"));
    }

    void meanCosineDistance()
    {
        MetricFn fn = [](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
            return metrics::meanCosineDistance(b, l, p, 1, o);
        };
        // Reset, the mean is 0 and the distance 1 - 0.
        streaming("metric_cosine_distance", fn, false, "update1", "update2", tf::DT_FLOAT, tf::DT_FLOAT, 1e-5, 1.0);
        streaming("metric_cosine_distance", fn, true, nullptr, "weighted2", tf::DT_FLOAT, tf::DT_FLOAT, 1e-5, 1.0);
        GraphBuilder b(m_reg->ops);
        const Output l = *ops::placeholder(b, tf::DT_FLOAT, {4, 3}, "l");
        auto r = metrics::meanCosineDistance(b, l, *ops::placeholder(b, tf::DT_FLOAT, {4, 3}, "p"), 1);
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        QCOMPARE(r->value.node(), std::string("Sub"));
        QCOMPARE(r->updateOp.node(), std::string("Sub_1"));
        QCOMPARE(b.findNode("Sub")->input(0), std::string("Sub/x"));
        QCOMPARE(b.findNode("Sub")->input(1), std::string("mean_cosine_distance/value"));
        QCOMPARE(b.findNode("Sub_1")->input(1), std::string("mean_cosine_distance/update_op"));
        QCOMPARE(b.findNode("Sum")->input(0), std::string("Mul"));
        QVERIFY(b.findNode("Sum")->attr().at("keep_dims").b());
        QCOMPARE(localVariables(b)[0].name(), std::string("mean_cosine_distance/total"));
    }

    void percentageBelow()
    {
        MetricFn fn = [](GraphBuilder& b, const Output&, const Output& v, const metrics::MetricOptions& o) {
            return metrics::percentageBelow(b, v, 0.4, o);
        };
        streaming("metric_percentage_below", fn, false, "update1", "update2");
        streaming("metric_percentage_below", fn, true, nullptr, "weighted2");
        GraphBuilder b(m_reg->ops);
        auto r = metrics::percentageBelow(b, *ops::placeholder(b, tf::DT_FLOAT, {4}, "v"), 0.5);
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        QCOMPARE(r->value.node(), std::string("percentage_below_threshold/value"));
        QCOMPARE(b.findNode("Less")->input(1), std::string("Less/y"));
        QCOMPARE(b.findNode("Cast")->input(0), std::string("Less"));
        QCOMPARE(localVariables(b)[1].name(), std::string("percentage_below_threshold/count"));
    }

    void sensitivityAndSpecificityAtRates()
    {
        auto sens = [](double s, int n = 200) {
            return MetricFn([s, n](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
                return metrics::sensitivityAtSpecificity(b, l, p, s, o, n);
            });
        };
        auto spec = [](double s, int n = 200) {
            return MetricFn([s, n](GraphBuilder& b, const Output& l, const Output& p, const metrics::MetricOptions& o) {
                return metrics::specificityAtSensitivity(b, l, p, s, o, n);
            });
        };
        streaming("metric_at_rates", sens(0.95), false, "sens_at_spec_1", "sens_at_spec_2", tf::DT_INT32);
        streaming("metric_at_rates", sens(0.9), true, nullptr, "sens_at_spec_weighted2", tf::DT_BOOL);
        streaming("metric_at_rates", sens(0.97, 10), false, nullptr, "sens_at_spec_n10_2", tf::DT_INT32);
        streaming("metric_at_rates", spec(0.95), false, "spec_at_sens_1", "spec_at_sens_2", tf::DT_INT32);
        streaming("metric_at_rates", spec(0.9), true, nullptr, "spec_at_sens_weighted2", tf::DT_INT32);
        streaming("metric_at_rates", spec(0.97, 10), false, nullptr, "spec_at_sens_n10_2", tf::DT_INT32);

        GraphBuilder b(m_reg->ops);
        const Output l = *ops::placeholder(b, tf::DT_INT32, {8}, "l");
        const Output p = *ops::placeholder(b, tf::DT_FLOAT, {8}, "p");
        auto s = metrics::sensitivityAtSpecificity(b, l, p, 0.5);
        QVERIFY2(s.has_value(), s ? "" : s.error().toString().c_str());
        QCOMPARE(s->value.node(), std::string("sensitivity_at_specificity/value"));
        QCOMPARE(s->updateOp.node(), std::string("sensitivity_at_specificity/update_op"));
        QCOMPARE(b.findNode("sensitivity_at_specificity/value")->op(), std::string("RealDiv"));
        const auto local = localVariables(b);
        QCOMPARE(local.size(), std::size_t(4));
        QCOMPARE(local[0].name(), std::string("sensitivity_at_specificity/true_positives"));
        QCOMPARE(local[3].name(), std::string("sensitivity_at_specificity/false_positives"));
        QCOMPARE(local[0].shape(), TensorShape({200}));
        for (const char* name :
             {"sensitivity_at_specificity/assert_greater_equal/Assert/Assert", "sensitivity_at_specificity/div",
              "sensitivity_at_specificity/Abs", "sensitivity_at_specificity/ArgMin/dimension",
              "sensitivity_at_specificity/ArgMin", "sensitivity_at_specificity/strided_slice/stack",
              "sensitivity_at_specificity/strided_slice"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        auto t = metrics::specificityAtSensitivity(b, l, p, 0.5);
        QVERIFY2(t.has_value(), t ? "" : t.error().toString().c_str());
        QCOMPARE(t->value.node(), std::string("specificity_at_sensitivity/value"));
        for (const char* name : {"specificity_at_sensitivity/Min", "specificity_at_sensitivity/Equal",
                                 "specificity_at_sensitivity/Cumsum", "specificity_at_sensitivity/ArgMax"})
            QVERIFY2(b.findNode(name) != nullptr, name);
        auto bad = metrics::sensitivityAtSpecificity(b, l, p, 1.5);
        QVERIFY(!bad.has_value());
        QCOMPARE(bad.error().message(), std::string("`specificity` must be in the range [0, 1]."));
        QCOMPARE(metrics::specificityAtSensitivity(b, l, p, -0.1).error().message(),
                 std::string("`sensitivity` must be in the range [0, 1]."));
    }

    /// mean_iou: the update op returns the accumulated confusion matrix (as TensorFlow's does), the
    /// value the mean IoU of the classes present; labels out of range fail at run time.
    void meanIou()
    {
        const char* c = "metric_mean_iou";
        for (bool weighted : {false, true}) {
            GraphBuilder b(m_reg->ops);
            const Output labels = *ops::placeholder(b, tf::DT_INT32, {2, 3}, "labels");
            const Output predictions = *ops::placeholder(b, tf::DT_INT64, {2, 3}, "predictions");
            metrics::MetricOptions options;
            if (weighted)
                options.weights = *ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "weights");
            auto m = metrics::meanIou(b, labels, predictions, 5, options);
            QVERIFY2(m.has_value(), m ? "" : m.error().toString().c_str());
            QCOMPARE(m->updateOp.node(), std::string("mean_iou/AssignAdd"));
            QCOMPARE(m->value.node(), std::string("mean_iou/Select_1"));
            QCOMPARE(m->updateOp.baseDtype(), tf::DT_DOUBLE);
            const auto local = localVariables(b);
            QCOMPARE(local.size(), std::size_t(1));
            QCOMPARE(local[0].name(), std::string("mean_iou/total_confusion_matrix"));
            QCOMPARE(local[0].shape(), TensorShape({5, 5}));
            auto init = localVariablesInitializer(b);
            QVERIFY(init.has_value());
            Runner run(*m_reg, b);
            QVERIFY2(run.status().isOk(), run.status().toString().c_str());
            QVERIFY(run.runTargets({init->name()}).isOk());
            auto feeds = [&](int batch) {
                const std::string n = std::to_string(batch);
                Feeds f{{"labels:0", m_golden.tensor(c, ("labels" + n).c_str(), tf::DT_INT32)},
                        {"predictions:0", m_golden.tensor(c, ("predictions" + n).c_str(), tf::DT_INT64)}};
                if (weighted)
                    f.push_back({"weights:0", m_golden.tensor(c, ("weights" + n).c_str())});
                return f;
            };
            const auto cm1 = run.fetch(m->updateOp.name(), feeds(1));
            if (!weighted) {
                QVERIFY2(allClose(cm1, m_golden.expected(c, "cm1")), qPrintable(show(cm1)));
                QVERIFY2(allClose(run.fetch(m->value.name()), m_golden.expected(c, "iou1")),
                         qPrintable(show(run.fetch(m->value.name()))));
            }
            const auto cm2 = run.fetch(m->updateOp.name(), feeds(2));
            QVERIFY2(allClose(cm2, m_golden.expected(c, weighted ? "weighted_cm2" : "cm2")), qPrintable(show(cm2)));
            const auto iou = run.fetch(m->value.name());
            QVERIFY2(allClose(iou, m_golden.expected(c, weighted ? "weighted_iou2" : "iou2")), qPrintable(show(iou)));
            QVERIFY(run.runTargets({init->name()}).isOk());
            LOSS_COMPARE(run.fetch(m->value.name()), (std::vector<double>{0.0}));
            if (weighted)
                continue;
            // A label of 5 with 5 classes, a negative prediction: TensorFlow's run-time checks.
            CpuAllocator allocator;
            Feeds bad{{"labels:0", *Tensor::fromVector(allocator, {2, 3}, std::vector<std::int32_t>{0, 1, 5, 2, 3, 4})},
                      {"predictions:0", m_golden.tensor(c, "predictions1", tf::DT_INT64)}};
            QVERIFY(run.fetch(m->updateOp.name(), bad).empty());
            QVERIFY2(run.status().message().find("`labels` out of bound") != std::string::npos,
                     run.status().message().c_str());
            Feeds negative{{"labels:0", m_golden.tensor(c, "labels1", tf::DT_INT32)},
                           {"predictions:0",
                            *Tensor::fromVector(allocator, {2, 3}, std::vector<std::int64_t>{0, -1, 2, 2, 3, 4})}};
            QVERIFY(run.fetch(m->updateOp.name(), negative).empty());
            QVERIFY2(run.status().message().find("`predictions` contains negative values") != std::string::npos,
                     run.status().message().c_str());
        }
        GraphBuilder b(m_reg->ops);
        auto bad = metrics::meanIou(b, *ops::placeholder(b, tf::DT_INT32, {3}, "l"),
                                    *ops::placeholder(b, tf::DT_INT32, {4}, "p"), 3);
        QVERIFY(!bad.has_value());
        QCOMPARE(bad.error().message(), std::string("Shapes (4,) and (3,) are incompatible"));
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "test_metrics.moc"
