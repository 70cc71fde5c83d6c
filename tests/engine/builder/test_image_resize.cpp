// tf.image.resize_images / resize_bilinear / resize_nearest_neighbor and tf.sparse_to_dense: the
// nodes TensorFlow 1.15 builds (scopes, sizes, the 3-D image path, skipping a resize to the same
// size), their errors, and values against small NumPy results (embedded below).
#include "builder/graph_builder.h"
#include "builder/image_resize.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_to_dense.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "model_test_support.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

class TestImageResize : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_reg;

    std::vector<double> run(const GraphBuilder& b, const std::string& fetch)
    {
        auto out = runGraph(*m_reg, b, {}, {fetch});
        if (!out) {
            qWarning("%s", out.error().toString().c_str());
            return {};
        }
        std::vector<double> values;
        const Tensor& t = out->front();
        if (t.dtype() == tf::DT_INT32) {
            for (std::int32_t v : t.values<std::int32_t>())
                values.push_back(v);
        } else {
            for (float v : t.values<float>())
                values.push_back(v);
        }
        return values;
    }

private slots:
    void initTestCase()
    {
        auto reg = makeDefaultRegistries();
        QVERIFY(reg.has_value());
        m_reg = std::move(*reg);
    }

    void resizeImagesOfABatch()
    {
        GraphBuilder b(m_reg->ops);
        // [1, 2, 2, 1]: 0 1 / 2 3.
        auto images = ops::constant(b, std::vector<double>{0, 1, 2, 3}, {1, 2, 2, 1}, tf::DT_FLOAT, "images");
        auto y = image::resizeImages(b, *images, {4, 4});
        QVERIFY2(y, err(y));
        QCOMPARE(y->node(), std::string("resize/ResizeBilinear"));
        QCOMPARE(y->shape(), TensorShape({1, 4, 4, 1}));
        QCOMPARE(inputsOf(b, "resize/ResizeBilinear"), (std::vector<std::string>{"images", "resize/size"}));
        QCOMPARE(opOf(b, "resize/size"), std::string("Const"));
        QVERIFY(!b.findNode("resize/ResizeBilinear")->attr().at("align_corners").b());
        QVERIFY(!b.findNode("resize/ResizeBilinear")->attr().at("half_pixel_centers").b());
        // NumPy, legacy coordinates i * 0.5: rows 0, 0.5, 1, 1 (clamped) over the 2x2 image.
        const std::vector<double> want{0, 0.5, 1, 1, 1, 1.5, 2, 2, 2, 2.5, 3, 3, 2, 2.5, 3, 3};
        QCOMPARE(run(b, y->name()), want);

        // Nearest neighbor with align_corners in a named scope; the dtype is kept.
        auto ints = ops::constantInts(b, {0, 1, 2, 3}, {1, 2, 2, 1}, tf::DT_INT32, "ints");
        auto n = image::resizeImages(b, *ints, {3, 3}, image::ResizeMethod::kNearestNeighbor, true, "up");
        QVERIFY2(n, err(n));
        QCOMPARE(n->node(), std::string("up/ResizeNearestNeighbor"));
        QCOMPARE(n->baseDtype(), tf::DT_INT32);
        QVERIFY(b.findNode("up/ResizeNearestNeighbor")->attr().at("align_corners").b());
        // NumPy: round(i * 0.5) = 0, 1, 1 (halves away from zero).
        QCOMPARE(run(b, n->name()), (std::vector<double>{0, 1, 1, 2, 3, 3, 2, 3, 3}));

        // A size tensor of unknown value: height and width stay unknown.
        auto size = ops::placeholder(b, tf::DT_INT32, {2}, "size");
        auto u = image::resizeImages(b, *images, *size);
        QVERIFY2(u, err(u));
        QCOMPARE(u->node(), std::string("resize_1/ResizeBilinear"));
        QCOMPARE(u->shape(), TensorShape({1, -1, -1, 1}));
    }

    void resizeImagesOfOneImage()
    {
        GraphBuilder b(m_reg->ops);
        auto image = ops::placeholder(b, tf::DT_UINT8, {5, 6, 3}, "image");
        auto y = image::resizeImages(b, *image, {2, 3});
        QVERIFY2(y, err(y));
        QCOMPARE(y->node(), std::string("resize/Squeeze"));
        QCOMPARE(y->shape(), TensorShape({2, 3, 3}));
        QCOMPARE(y->baseDtype(), tf::DT_FLOAT);
        QCOMPARE(nodeOpsUnder(b, "resize/"),
                 (std::vector<std::string>{"size=Const", "ExpandDims/dim=Const", "ExpandDims=ExpandDims",
                                           "ResizeBilinear=ResizeBilinear", "Squeeze=Squeeze"}));
        // The same size: no resize op, the image comes back (TensorFlow's skip_resize_if_same).
        auto same = image::resizeImages(b, *image, {5, 6});
        QVERIFY2(same, err(same));
        QCOMPARE(same->node(), std::string("resize_1/Squeeze"));
        QVERIFY(b.findNode("resize_1/ResizeBilinear") == nullptr);
        QCOMPARE(same->baseDtype(), tf::DT_UINT8);
    }

    void resizeImagesErrors()
    {
        GraphBuilder b(m_reg->ops);
        auto flat = ops::placeholder(b, tf::DT_FLOAT, {4, 4}, "flat");
        auto bad = image::resizeImages(b, *flat, {2, 2});
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("'images' must have either 3 or 4 dimensions."));
        auto unknown = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "unknown");
        QCOMPARE(image::resizeImages(b, *unknown, {2, 2}).error().message(),
                 std::string("'images' contains no shape."));
        auto images = ops::placeholder(b, tf::DT_FLOAT, {1, 4, 4, 1}, "images");
        auto three = ops::constantInts(b, {1, 2, 3}, {3});
        QCOMPARE(image::resizeImages(b, *images, *three).error().message(),
                 std::string("'size' must be a 1-D Tensor of 2 elements: new_height, new_width"));
        QCOMPARE(image::resizeImages(b, *images, {2, 2}, image::ResizeMethod::kArea).error().code(),
                 StatusCode::kUnimplemented);
    }

    void directOpWrappers()
    {
        GraphBuilder b(m_reg->ops);
        auto images = ops::constant(b, std::vector<double>{0, 1, 2, 3}, {1, 2, 2, 1}, tf::DT_FLOAT, "images");
        auto y = image::resizeBilinear(b, *images, {3, 3}, false, true);
        QVERIFY2(y, err(y));
        QCOMPARE(y->node(), std::string("ResizeBilinear"));
        QCOMPARE(inputsOf(b, "ResizeBilinear"), (std::vector<std::string>{"images", "ResizeBilinear/size"}));
        QCOMPARE(y->shape(), TensorShape({1, 3, 3, 1}));
        // NumPy, half-pixel coordinates (i + 0.5) * 2/3 - 0.5 = -1/6, 1/2, 7/6 (clamped into the image).
        const std::vector<double> want{0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3};
        const auto got = run(b, y->name());
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY2(std::abs(got[i] - want[i]) < 1e-6, qPrintable(QString::number(got[i])));
        auto n = image::resizeNearestNeighbor(b, *images, {1, 1});
        QVERIFY2(n, err(n));
        QCOMPARE(n->node(), std::string("ResizeNearestNeighbor"));
        QCOMPARE(run(b, n->name()), (std::vector<double>{0}));
        auto again = image::resizeNearestNeighbor(b, *images, {1, 1});
        QVERIFY(again);
        QCOMPARE(again->node(), std::string("ResizeNearestNeighbor_1"));
        QCOMPARE(inputsOf(b, again->node()).back(), std::string("ResizeNearestNeighbor_1/size"));
    }

    void sparseToDense()
    {
        GraphBuilder b(m_reg->ops);
        auto indices = ops::constantInts(b, {0, 1, 2, 0}, {2, 2}, tf::DT_INT64, "indices");
        auto shape = ops::constantInts(b, {3, 2}, {2}, tf::DT_INT64, "shape");
        auto values = ops::constant(b, std::vector<double>{5, 7}, {2}, tf::DT_FLOAT, "values");
        auto d = sparse::sparseToDense(b, *indices, *shape, *values);
        QVERIFY2(d, err(d));
        QCOMPARE(d->node(), std::string("SparseToDense"));
        QCOMPARE(d->shape(), TensorShape({3, 2}));
        QCOMPARE(inputsOf(b, "SparseToDense"),
                 (std::vector<std::string>{"indices", "shape", "values", "SparseToDense/default_value"}));
        QVERIFY(b.findNode("SparseToDense")->attr().at("validate_indices").b());
        QCOMPARE(run(b, d->name()), (std::vector<double>{0, 5, 0, 0, 7, 0}));
        auto fill = ops::constant(b, -1.0, tf::DT_FLOAT, "fill");
        auto e = sparse::sparseToDense(b, *indices, *shape, *values, *fill, false, "dense");
        QVERIFY2(e, err(e));
        QCOMPARE(inputsOf(b, "dense").back(), std::string("fill"));
        QVERIFY(!b.findNode("dense")->attr().at("validate_indices").b());
        QCOMPARE(run(b, e->name()), (std::vector<double>{-1, 5, -1, -1, 7, -1}));
        // Unsorted indices fail when the op runs, in TensorFlow's words.
        auto unsorted = ops::constantInts(b, {2, 0, 0, 1}, {2, 2}, tf::DT_INT64, "unsorted");
        auto u = sparse::sparseToDense(b, *unsorted, *shape, *values);
        QVERIFY(u);
        auto out = runGraph(*m_reg, b, {}, {u->name()});
        QVERIFY(!out);
        QVERIFY2(out.error().message().find("indices[1] = [0,1] is out of order") != std::string::npos,
                 out.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestImageResize)
#include "test_image_resize.moc"
