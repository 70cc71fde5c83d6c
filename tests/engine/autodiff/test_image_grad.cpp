// The image family's gradients: ResizeBilinear and ResizeNearestNeighbor against central differences
// (legacy, align_corners and half-pixel coordinates, up- and downsampling), the two *Grad ops as
// functions of their gradient input (second derivatives), the node names and inputs TensorFlow
// 1.15's image_grad.py builds, and SparseToDense as not differentiable.
#include "autodiff/gradients.h"
#include "builder/image.h"
#include "builder/ops_sugar.h"
#include "gradient_test_support.h"
#include "model_test_support.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
using ops::firstOutput;
namespace tf = tensorflow;

namespace {

AttrMap resizeAttrs(bool align, bool halfPixel)
{
    return {{"align_corners", attr::b(align)}, {"half_pixel_centers", attr::b(halfPixel)}};
}

struct Mode {
    bool align;
    bool halfPixel;
    const char* name;
};
constexpr Mode kModes[] = {{false, false, "legacy"}, {true, false, "align_corners"}, {false, true, "half_pixel"}};

} // namespace

class TestImageGrad : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    void resizeOps()
    {
        const Tensor x = filled({2, 3, 4, 2}, signedAwayFromKinks);
        for (const Mode& mode : kModes) {
            for (auto size : {std::vector<std::int64_t>{5, 7}, std::vector<std::int64_t>{2, 3}}) {
                for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
                    const QString name = QString("%1 %2 to %3x%4").arg(op, mode.name).arg(size[0]).arg(size[1]);
                    m_checks.check(name, {x}, [=](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                        auto s = ops::constantInts(b, size, {2});
                        return firstOutput(b.op(op, {in[0], *s}, resizeAttrs(mode.align, mode.halfPixel)));
                    });
                }
            }
        }
        // Double images are interpolated in float (as TensorFlow does): float32's step and tolerance.
        m_checks.check(
            "ResizeBilinear (double)", {filled({1, 3, 3, 1}, small, tf::DT_DOUBLE)},
            [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                auto s = ops::constantInts(b, {4, 5}, {2});
                auto y = firstOutput(b.op("ResizeBilinear", {in[0], *s}));
                if (!y)
                    return y;
                return firstOutput(b.op("Cast", {*y}, {{"DstT", attr::type(tf::DT_DOUBLE)}}));
            },
            false);
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// The *Grad ops are linear in their gradient input; their gradients are the forward resizes.
    void gradOpsAsFunctions()
    {
        const Tensor grads = filled({1, 5, 7, 2}, small);
        const Tensor original = filled({1, 3, 4, 2}, positive);
        for (const Mode& mode : kModes) {
            m_checks.check(QString("ResizeBilinearGrad ") + mode.name, {grads},
                           [=](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                               auto image = ops::constant(b, std::vector<double>(24, 0.5), {1, 3, 4, 2});
                               return firstOutput(b.op("ResizeBilinearGrad", {in[0], *image},
                                                       resizeAttrs(mode.align, mode.halfPixel)));
                           });
            m_checks.check(QString("ResizeNearestNeighborGrad ") + mode.name, {grads},
                           [=](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                               auto s = ops::constantInts(b, {3, 4}, {2});
                               return firstOutput(b.op("ResizeNearestNeighborGrad", {in[0], *s},
                                                       resizeAttrs(mode.align, mode.halfPixel)));
                           });
        }
        // tf.gradients of tf.gradients through a bilinear resize: d/dx of sum(resize(x)^2).
        m_checks.check("d/dx grad ResizeBilinear", {original},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           auto s = ops::constantInts(b, {5, 6}, {2});
                           auto y = firstOutput(b.op("ResizeBilinear", {in[0], *s}));
                           if (!y)
                               return y;
                           auto squared = ops::square(b, *y);
                           auto axes = ops::constantInts(b, {0, 1, 2, 3}, {4});
                           auto total = ops::sum(b, *squared, *axes);
                           auto grads = addSymbolicGradients(b, {*total}, {in[0]});
                           if (!grads)
                               return unexpected(grads.error());
                           return *(*grads)[0];
                       });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// tf.contrib.resampler: the gradient of data and of warp (points off the pixel grid, some on
    /// the zero-padded border, one outside) against central differences; the nodes TensorFlow's
    /// _resampler_grad builds.
    void resampler()
    {
        const Tensor data = filled({1, 3, 4, 2}, signedAwayFromKinks);
        const std::vector<double> points{0.3, 0.6, 1.6, 1.2, -0.4, 0.7, 3.45, 2.3, 2.7, -0.6, 4.5, 1.5};
        const Tensor warp = filled({1, 6, 2}, [&](std::int64_t i) { return points[static_cast<std::size_t>(i)]; });
        m_checks.check("Resampler", {data, warp},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return image::resampler(b, in[0], in[1]);
                       });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));

        GraphBuilder b(m_checks.registries().ops);
        auto d = ops::placeholder(b, tf::DT_FLOAT, {1, 3, 4, 2}, "data");
        auto w = ops::placeholder(b, tf::DT_FLOAT, {1, 6, 2}, "warp");
        QVERIFY(d && w);
        auto sampled = image::resampler(b, *d, *w);
        QVERIFY2(sampled, err(sampled));
        QCOMPARE(sampled->node(), std::string("resampler/Resampler"));
        QCOMPARE(sampled->shape(), (TensorShape{1, 6, 2}));
        auto grads = addSymbolicGradients(b, {*sampled}, {*d, *w});
        QVERIFY2(grads, err(grads));
        QCOMPARE(opOf(b, "gradients/resampler/Resampler_grad/ResamplerGrad"), std::string("ResamplerGrad"));
        QCOMPARE((*grads)[0]->name(), std::string("gradients/resampler/Resampler_grad/ResamplerGrad:0"));
        QCOMPARE((*grads)[1]->name(), std::string("gradients/resampler/Resampler_grad/ResamplerGrad:1"));
    }

    void gradientNodes()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3, 4, 1}, "x");
        auto size = ops::constantInts(b, {6, 8}, {2}, tf::DT_INT32, "size");
        auto bilinear = b.op("ResizeBilinear", {*x, *size}, resizeAttrs(true, false));
        auto nearest = b.op("ResizeNearestNeighbor", {*x, *size}, resizeAttrs(false, true));
        QVERIFY(bilinear && nearest);
        auto grads = addSymbolicGradients(b, {bilinear->output(0), nearest->output(0)}, {*x});
        QVERIFY2(grads, err(grads));
        const std::string bg = "gradients/ResizeBilinear_grad/";
        QCOMPARE(nodeOpsUnder(b, bg), (std::vector<std::string>{"ResizeBilinearGrad=ResizeBilinearGrad"}));
        QCOMPARE(inputsOf(b, bg + "ResizeBilinearGrad"), (std::vector<std::string>{"gradients/Fill", "x"}));
        QVERIFY(b.findNode(bg + "ResizeBilinearGrad")->attr().at("align_corners").b());
        const std::string ng = "gradients/ResizeNearestNeighbor_grad/";
        // The image's height and width are known: a constant made inside the op's scope.
        QCOMPARE(nodeOpsUnder(b, ng),
                 (std::vector<std::string>{"ResizeNearestNeighborGrad/size=Const",
                                           "ResizeNearestNeighborGrad=ResizeNearestNeighborGrad"}));
        QCOMPARE(inputsOf(b, ng + "ResizeNearestNeighborGrad"),
                 (std::vector<std::string>{"gradients/Fill_1", ng + "ResizeNearestNeighborGrad/size"}));
        QVERIFY(b.findNode(ng + "ResizeNearestNeighborGrad")->attr().at("half_pixel_centers").b());

        // Unknown height and width: shape(image)[1:3].
        auto y = ops::placeholder(b, tf::DT_FLOAT, {-1, -1, -1, 3}, "y");
        auto r = b.op("ResizeNearestNeighbor", {*y, *size});
        QVERIFY(r);
        auto g2 = addSymbolicGradients(b, {r->output(0)}, {*y});
        QVERIFY2(g2, err(g2));
        const std::string s = "gradients_1/ResizeNearestNeighbor_1_grad/";
        QCOMPARE(nodeOpsUnder(b, s),
                 (std::vector<std::string>{"Shape=Shape", "strided_slice/stack=Const", "strided_slice/stack_1=Const",
                                           "strided_slice/stack_2=Const", "strided_slice=StridedSlice",
                                           "ResizeNearestNeighborGrad=ResizeNearestNeighborGrad"}));
        QCOMPARE(inputsOf(b, s + "ResizeNearestNeighborGrad"),
                 (std::vector<std::string>{"gradients_1/Fill", s + "strided_slice"}));
        // The size input gets no gradient.
        auto none = addSymbolicGradients(b, {r->output(0)}, {*size});
        QVERIFY2(none, err(none));
        QVERIFY(!(*none)[0].has_value());
    }

    void sparseToDenseIsNotDifferentiable()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto values = ops::placeholder(b, tf::DT_FLOAT, {2}, "values");
        auto indices = ops::constantInts(b, {0, 2}, {2});
        auto shape = ops::constantInts(b, {4}, {1});
        auto zero = ops::constant(b, 0.0);
        auto dense = b.op("SparseToDense", {*indices, *shape, *values, *zero});
        QVERIFY2(dense, err(dense));
        auto grads = addSymbolicGradients(b, {dense->output(0)}, {*values});
        QVERIFY2(grads, err(grads));
        QVERIFY(!(*grads)[0].has_value());
    }
};

QTEST_GUILESS_MAIN(TestImageGrad)
#include "test_image_grad.moc"
