// The nn family's gradients of gradient ops (nn_grad_second_order.cpp) against central differences
// (float32, max error < 1e-3; distinct pooling inputs so no window has a tie, features away from
// Softsign's kink at 0), the node names TensorFlow 1.15 builds for MaxPoolGrad's gradient, the
// nested tf.gradients scope of FusedBatchNormGrad's, and the MaxPoolGradGrad kernel against NumPy
// (tools/golden/max_pool_grad_grad.py).
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "kernels/kernels.h"
#include "ops/ops.h"
#include "runtime/session.h"

#include "gradient_test_support.h"
#include "kernel_harness.h"

#include <QtTest>

#include <algorithm>
#include <functional>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestNnGradSecondOrder : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

    /// float32 settings (delta and tolerance 1e-3) for every case.
    void check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build)
    {
        m_checks.check(name, xs, build, false);
    }

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    void cleanupTestCase()
    {
        qInfo("worst float32 error %g (%s)", m_checks.worst.error, qPrintable(m_checks.worst.name));
    }

    /// MaxPoolGradGrad against NumPy: NHWC and NCHW, five geometries, float/double/half/int32/uint8,
    /// ties (the first maximum), an orig_output that is not the maximum, NaN, and the errors.
    void maxPoolGradGradKernelGoldenCases()
    {
        QString error;
        auto h = KernelHarness::create({registerNnOps}, {registerNnCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        int n = 0;
        const QStringList failures = runGoldenCases(*h, goldenDir() + "/max_pool_grad_grad.json", &n);
        for (const QString& failure : failures)
            qWarning("%s", qPrintable(failure));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QVERIFY2(n >= 40, qPrintable(QString("only %1 golden cases").arg(n)));
    }

    /// MaxPoolGradGrad's shape function: MaxPool's output shape; grad must merge with orig_input.
    void maxPoolGradGradShape()
    {
        GraphBuilder b(m_checks.registries().ops);
        const AttrMap attrs = poolAttrs(2, 2, "VALID");
        auto x = ops::placeholder(b, tf::DT_FLOAT, {1, 4, 4, 2}, "x");
        auto y = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "y");
        auto g = ops::placeholder(b, tf::DT_FLOAT, {1, 4, 4, 2}, "g");
        auto op = b.op("MaxPoolGradGrad", {*x, *y, *g}, attrs);
        QVERIFY(op);
        QCOMPARE(op->output(0).shape().toString(), std::string("[1,2,2,2]"));
        auto bad = ops::placeholder(b, tf::DT_FLOAT, {1, 4, 4, 3}, "bad");
        auto refused = b.op("MaxPoolGradGrad", {*x, *y, *bad}, attrs);
        QVERIFY(!refused);
        QVERIFY2(refused.error().toString().find("Dimension 3 in both shapes must be equal, but are 2 and 3") !=
                     std::string::npos,
                 refused.error().toString().c_str());
        auto wrongOutput = ops::placeholder(b, tf::DT_FLOAT, {1, 3, 3, 2}, "wrong_output");
        QVERIFY(!b.op("MaxPoolGradGrad", {*x, *wrongOutput, *g}, attrs));
    }

    /// y = MaxPoolGrad(x, MaxPool(x), g) and y = MaxPoolGradGrad(x, MaxPool(x), gg), with respect to
    /// x (zero: the routing is constant near distinct inputs) and to the gradient input.
    void maxPoolGradients()
    {
        const std::int64_t in = 5;
        const Tensor x = filled({2, in, in, 2}, distinctValues(101));
        for (const char* padding : {"SAME", "VALID"}) {
            for (int k : {2, 3}) {
                for (int stride : {1, 2}) {
                    const QString suffix = QStringLiteral(" %1 k%2 stride %3").arg(padding).arg(k).arg(stride);
                    const AttrMap attrs = poolAttrs(k, stride, padding);
                    const std::int64_t out = pooledSize(in, k, stride, padding);
                    check("MaxPoolGrad" + suffix, {x, filled({2, out, out, 2}, small)},
                          [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                              auto pooled = outputOf(b.op("MaxPool", {v[0]}, attrs));
                              if (!pooled)
                                  return pooled;
                              return outputOf(b.op("MaxPoolGrad", {v[0], *pooled, v[1]}, attrs));
                          });
                    check("MaxPoolGradGrad" + suffix, {x, filled({2, in, in, 2}, small)},
                          [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                              auto pooled = outputOf(b.op("MaxPool", {v[0]}, attrs));
                              if (!pooled)
                                  return pooled;
                              return outputOf(b.op("MaxPoolGradGrad", {v[0], *pooled, v[1]}, attrs));
                          });
                }
            }
        }
        const AttrMap nchw = poolAttrs(2, 2, "SAME", true);
        check("MaxPoolGrad NCHW", {filled({1, 2, 5, 5}, distinctValues(53)), filled({1, 2, 3, 3}, small)},
              [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                  auto pooled = outputOf(b.op("MaxPool", {v[0]}, nchw));
                  if (!pooled)
                      return pooled;
                  return outputOf(b.op("MaxPoolGrad", {v[0], *pooled, v[1]}, nchw));
              });
        check("MaxPoolGradGrad NCHW", {filled({1, 2, 5, 5}, distinctValues(53)), filled({1, 2, 5, 5}, small)},
              [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                  auto pooled = outputOf(b.op("MaxPool", {v[0]}, nchw));
                  if (!pooled)
                      return pooled;
                  return outputOf(b.op("MaxPoolGradGrad", {v[0], *pooled, v[1]}, nchw));
              });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// The second derivative of sum(MaxPool(x)^2 * w) through nested gradients: d/dx of the first
    /// gradient's weighted sum reaches MaxPoolGrad's gradient (MaxPoolGradGrad) and back.
    void maxPoolNestedSecondDerivative()
    {
        const AttrMap attrs = poolAttrs(3, 2, "SAME");
        check("MaxPool second derivative", {filled({1, 5, 5, 2}, distinctValues(53)), filled({1, 5, 5, 2}, small)},
              [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                  auto pooled = outputOf(b.op("MaxPool", {v[0]}, attrs));
                  if (!pooled)
                      return pooled;
                  auto squared = outputOf(b.op("Square", {*pooled}));
                  if (!squared)
                      return squared;
                  auto first = addSymbolicGradients(b, {*squared}, {v[0]});
                  if (!first)
                      return unexpected(first.error());
                  return outputOf(b.op("Mul", {*(*first)[0], v[1]}));
              });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// TensorFlow's _MaxPoolGradGrad: zeros shaped as each pooled tensor, then MaxPoolGradGrad with
    /// the forward attrs; _MaxPoolGradGradGrad the same with MaxPoolGrad.
    void maxPoolGradientNodes()
    {
        for (const char* type : {"MaxPoolGrad", "MaxPoolGradGrad"}) {
            GraphBuilder b(m_checks.registries().ops);
            const AttrMap attrs = poolAttrs(2, 2, "VALID");
            auto x = ops::placeholder(b, tf::DT_FLOAT, {1, 4, 4, 2}, "x");
            auto y = ops::placeholder(b, tf::DT_FLOAT, {1, 2, 2, 2}, "y");
            auto g = ops::placeholder(
                b, tf::DT_FLOAT, std::string(type) == "MaxPoolGrad" ? TensorShape{1, 2, 2, 2} : TensorShape{1, 4, 4, 2},
                "g");
            auto op = b.op(type, {*x, *y, *g}, attrs);
            QVERIFY(op);
            auto grads = addSymbolicGradients(b, {op->output(0)}, {*x, *y, *g});
            QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
            const std::string s = std::string("gradients/") + type + "_grad/";
            const std::string other = std::string(type) == "MaxPoolGrad" ? "MaxPoolGradGrad" : "MaxPoolGrad";
            QCOMPARE(nodeOpsUnder(b, s),
                     (std::vector<std::string>{"Shape=Const", "zeros/Const=Const", "zeros=Fill", "Shape_1=Const",
                                               "zeros_1/Const=Const", "zeros_1=Fill", other + "=" + other}));
            QCOMPARE(inputsOf(b, s + other), (std::vector<std::string>{"x", "y", "gradients/Fill"}));
            const tf::NodeDef* node = b.findNode(s + other);
            QCOMPARE(node->attr().at("strides").list().i(1), std::int64_t(2));
            QCOMPARE(node->attr().at("padding").s(), std::string("VALID"));
            QCOMPARE(node->attr().at("data_format").s(), std::string("NHWC"));
            QCOMPARE((*grads)[0]->name(), s + "zeros:0");
            QCOMPARE((*grads)[1]->name(), s + "zeros_1:0");
            QCOMPARE((*grads)[2]->name(), s + other + ":0");
        }
    }

    /// FusedBatchNormGrad V1/V2/V3 in training (reserve spaces from the forward op on the same x,
    /// as tf.gradients builds them), NHWC and NCHW, and in inference (NHWC, population statistics):
    /// each of x_backprop, scale_backprop and offset_backprop with respect to y_backprop, x, scale.
    void fusedBatchNormGradGradients()
    {
        const Tensor dy = filled({2, 2, 3, 3}, small);
        const Tensor x = filled({2, 2, 3, 3}, signedAwayFromKinks);
        const Tensor dyNchw = filled({2, 3, 2, 3}, small);
        const Tensor xNchw = filled({2, 3, 2, 3}, signedAwayFromKinks);
        const Tensor scale = filled({3}, positive);
        const std::vector<std::pair<const char*, const char*>> versions = {
            {"FusedBatchNorm", "FusedBatchNormGrad"},
            {"FusedBatchNormV2", "FusedBatchNormGradV2"},
            {"FusedBatchNormV3", "FusedBatchNormGradV3"}};
        for (const auto& version : versions) {
            // Plain copies, which the lambda below may capture (clang 14 cannot capture a structured binding).
            const auto forward = version.first;
            const auto backward = version.second;
            for (const char* format : {"NHWC", "NCHW"}) {
                for (int output = 0; output < 3; ++output) {
                    const QString name = QStringLiteral("%1 training %2 output %3").arg(backward, format).arg(output);
                    const bool nchw = std::string(format) == "NCHW";
                    check(name, {nchw ? dyNchw : dy, nchw ? xNchw : x, scale},
                          [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                              const AttrMap attrs = {{"is_training", attr::b(true)},
                                                     {"epsilon", attr::f(0.001f)},
                                                     {"data_format", attr::s(format)}};
                              auto offset = ops::constant(b, {0.1, -0.2, 0.3}, TensorShape{3});
                              auto empty = ops::constant(b, std::vector<double>{}, TensorShape{0});
                              auto bn = b.op(forward, {v[1], v[2], *offset, *empty, *empty}, attrs);
                              if (!bn)
                                  return unexpected(bn.error());
                              std::vector<OpInput> inputs = {v[0], v[1], v[2], bn->output(3), bn->output(4)};
                              if (std::string(backward) == "FusedBatchNormGradV3")
                                  inputs.emplace_back(bn->output(5));
                              return outputOf(b.op(backward, std::move(inputs), attrs), output);
                          });
                }
            }
            for (int output = 0; output < 3; ++output) {
                check(QStringLiteral("%1 inference output %2").arg(backward).arg(output), {dy, x, scale},
                      [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                          auto mean = ops::constant(b, {0.1, -0.2, 0.3}, TensorShape{3});
                          auto variance = ops::constant(b, {0.5, 1.5, 0.8}, TensorShape{3});
                          std::vector<OpInput> inputs = {v[0], v[1], v[2], *mean, *variance};
                          if (std::string(backward) == "FusedBatchNormGradV3")
                              inputs.emplace_back(*ops::constant(b, std::vector<double>{}, TensorShape{0}));
                          return outputOf(b.op(backward, std::move(inputs),
                                               {{"is_training", attr::b(false)}, {"epsilon", attr::f(0.001f)}}),
                                          output);
                      });
            }
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// A second derivative through batch norm as a training loss builds it: the first gradient's
    /// y_backprop depends on x (through y), so the nested call must count only the partial
    /// derivatives (the outer call follows y_backprop back to x itself).
    void fusedBatchNormNestedSecondDerivative()
    {
        for (const char* type : {"FusedBatchNorm", "FusedBatchNormV3"}) {
            check(QString(type) + " second derivative",
                  {filled({2, 2, 2, 3}, signedAwayFromKinks), filled({3}, positive), filled({2, 2, 2, 3}, small)},
                  [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                      auto offset = ops::constant(b, {0.1, -0.2, 0.3}, TensorShape{3});
                      auto empty = ops::constant(b, std::vector<double>{}, TensorShape{0});
                      auto bn = b.op(type, {v[0], v[1], *offset, *empty, *empty},
                                     {{"is_training", attr::b(true)}, {"epsilon", attr::f(0.001f)}});
                      if (!bn)
                          return unexpected(bn.error());
                      // loss = sum(y^2 * c) with varied weights c; output = sum(d loss / dx * w).
                      std::vector<double> weights;
                      for (int i = 0; i < 24; ++i)
                          weights.push_back(0.2 + 0.1 * ((i * 5) % 7));
                      auto c = ops::constant(b, weights, TensorShape{2, 2, 2, 3});
                      auto squared = outputOf(b.op("Square", {bn->output(0)}));
                      if (!squared)
                          return squared;
                      auto loss = outputOf(b.op("Mul", {*squared, *c}));
                      auto first = addSymbolicGradients(b, {*loss}, {v[0]});
                      if (!first)
                          return unexpected(first.error());
                      auto weighted = outputOf(b.op("Mul", {*(*first)[0], v[2]}));
                      return outputOf(b.op("Sum", {*weighted, *ops::constantInts(b, {0, 1, 2, 3}, {4})}));
                  });
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// The gradient of FusedBatchNormGrad comes from a nested tf.gradients call inside its
    /// "<op>_grad" scope ("<op>_grad/gradients/..."), and the statistics inputs get none.
    void fusedBatchNormGradNestedScope()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto dy = ops::placeholder(b, tf::DT_FLOAT, {2, 2, 2, 3}, "dy");
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 2, 2, 3}, "x");
        auto scale = ops::placeholder(b, tf::DT_FLOAT, {3}, "scale");
        auto mean = ops::placeholder(b, tf::DT_FLOAT, {3}, "mean");
        auto variance = ops::placeholder(b, tf::DT_FLOAT, {3}, "variance");
        auto grad = b.op("FusedBatchNormGrad", {*dy, *x, *scale, *mean, *variance}, {{"is_training", attr::b(true)}});
        QVERIFY(grad);
        auto grads = addSymbolicGradients(b, {grad->output(0)}, {*dy, *x, *scale, *mean, *variance});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        const std::string s = "gradients/FusedBatchNormGrad_grad/";
        for (int i = 0; i < 3; ++i) {
            QVERIFY((*grads)[static_cast<std::size_t>(i)]);
            QVERIFY2((*grads)[static_cast<std::size_t>(i)]->name().starts_with(s + "gradients/"),
                     (*grads)[static_cast<std::size_t>(i)]->name().c_str());
        }
        QVERIFY(!(*grads)[3]);
        QVERIFY(!(*grads)[4]);
        QCOMPARE(b.findNode(s + "StopGradient")->op(), std::string("StopGradient"));
        QCOMPARE(b.findNode(s + "Rsqrt")->op(), std::string("Rsqrt"));
        // The outer call's own names continue after the nested one: a second gradients call is
        // "gradients_1" at the top level, not inside the op's scope.
        auto again = addSymbolicGradients(b, {grad->output(1)}, {*x});
        QVERIFY2(again, again ? "" : again.error().toString().c_str());
        QVERIFY2((*again)[0]->name().starts_with("gradients_1/FusedBatchNormGrad_grad/gradients/"),
                 (*again)[0]->name().c_str());
    }

    /// SoftsignGrad(g, f) = g / (1 + |f|)^2 (no gradient in TensorFlow 1.15), features away from 0.
    void softsignGradGradient()
    {
        check("SoftsignGrad", {filled({2, 3}, small), filled({2, 3}, signedAwayFromKinks)},
              [](GraphBuilder& b, const std::vector<Output>& v) {
                  return outputOf(b.op("SoftsignGrad", {v[0], v[1]}));
              });
        check("Softsign second derivative", {filled({2, 3}, signedAwayFromKinks), filled({2, 3}, small)},
              [](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                  auto y = outputOf(b.op("Softsign", {v[0]}));
                  if (!y)
                      return y;
                  auto squared = outputOf(b.op("Square", {*y}));
                  auto first = addSymbolicGradients(b, {*squared}, {v[0]});
                  if (!first)
                      return unexpected(first.error());
                  return outputOf(b.op("Mul", {*(*first)[0], v[1]}));
              });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// LRNGrad(g, x, y) (no gradient in TensorFlow 1.15): with y an independent input, and with
    /// y = LRN(x) as tf.gradients builds it; depth radius 1 and 2.
    void lrnGradGradient()
    {
        const AttrMap radius2 = {
            {"depth_radius", attr::i(2)}, {"bias", attr::f(2.0f)}, {"alpha", attr::f(0.3f)}, {"beta", attr::f(0.75f)}};
        const AttrMap radius1 = {
            {"depth_radius", attr::i(1)}, {"bias", attr::f(1.0f)}, {"alpha", attr::f(0.2f)}, {"beta", attr::f(0.5f)}};
        for (const AttrMap& attrs : {radius1, radius2}) {
            const QString suffix = QStringLiteral(" radius %1").arg(attrs.at("depth_radius").i());
            check("LRNGrad" + suffix,
                  {filled({1, 2, 2, 5}, small), filled({1, 2, 2, 5}, signedAwayFromKinks),
                   filled({1, 2, 2, 5}, positive)},
                  [=](GraphBuilder& b, const std::vector<Output>& v) {
                      return outputOf(b.op("LRNGrad", {v[0], v[1], v[2]}, attrs));
                  });
            check("LRNGrad of LRN" + suffix, {filled({2, 1, 2, 6}, small), filled({2, 1, 2, 6}, signedAwayFromKinks)},
                  [=](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
                      auto y = outputOf(b.op("LRN", {v[1]}, attrs));
                      if (!y)
                          return y;
                      return outputOf(b.op("LRNGrad", {v[0], v[1], *y}, attrs));
                  });
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// The LRNGrad gradient needs the depth: an unknown one is a clear error, not a crash.
    void lrnGradUnknownDepthIsAnError()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto g = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "g");
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "x");
        auto y = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "y");
        auto op = b.op("LRNGrad", {*g, *x, *y});
        QVERIFY(op);
        auto grads = addSymbolicGradients(b, {op->output(0)}, {*x});
        QVERIFY(!grads);
        QCOMPARE(grads.error().code(), StatusCode::kUnimplemented);
        QVERIFY2(grads.error().toString().find("LRNGrad") != std::string::npos, grads.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestNnGradSecondOrder)
#include "test_nn_grad_second_order.moc"
