// tf.layers.conv2d_transpose: variables, node names and shapes as TensorFlow 1.15 builds them,
// forward values against NumPy (tools/golden/conv2d_transpose.py: the transposed convolution from
// its definition), gradients for the input, kernel and bias through the layer's graph against
// central differences, and errors.
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layers/conv2d_transpose.h"

#include "gradient_test_support.h"
#include "layer_test_support.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::layers;
using testing::constantFrom;
using testing::layerGolden;
namespace tf = tensorflow;

namespace {

std::vector<std::int64_t> ints(const tf::AttrValue& value)
{
    return {value.list().i().begin(), value.list().i().end()};
}

std::vector<double> doubles(const Tensor& t)
{
    auto v = t.values<double>();
    return {v.begin(), v.end()};
}

Tensor doubleTensor(const TensorShape& shape, const std::vector<double>& values)
{
    return *Tensor::fromVector(testing::layerTestAllocator(), shape, values);
}

} // namespace

class TestConv2DTranspose : public QObject {
    Q_OBJECT

private:
    const Registries* m_registries = nullptr;

    Expected<Tensor> run(const GraphBuilder& b, const std::string& fetch,
                         const std::vector<std::pair<std::string, Tensor>>& feeds = {})
    {
        return testing::runLayerGraph(*m_registries, b, fetch, feeds);
    }

    void expectClose(const Expected<Tensor>& actual, const Tensor& expected, double tol = 1e-5)
    {
        QVERIFY2(actual.has_value(), actual ? "" : actual.error().toString().c_str());
        const std::string diff = testing::compareTensors(*actual, expected, tol, tol);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    /// Builds the layer on a float64 input of `inShape`, the loss sum(y * r) with fixed weights r,
    /// and its gradients for the input, the kernel and the bias; then compares each gradient
    /// element with a central difference of the loss, perturbing the fed input or the fed values
    /// of "<layer>/kernel/read" and "<layer>/bias/read".
    void checkGradients(const TensorShape& inShape, Conv2DTransposeOptions options, const QString& label)
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_DOUBLE, inShape, "x");
        const auto pattern = [](std::int64_t i) { return 0.1 * static_cast<double>((i * 7) % 11) - 0.45; };
        const std::int64_t channels = inShape.dim(options.dataFormat == "channels_first" ? 1 : 3);
        std::vector<double> kernelValues(
            static_cast<std::size_t>(options.kernelSize[0] * options.kernelSize[1] * options.filters * channels));
        for (std::size_t i = 0; i < kernelValues.size(); ++i)
            kernelValues[i] = pattern(static_cast<std::int64_t>(i) + 3);
        options.kernelInitializer = Initializer::constant(kernelValues);
        options.biasInitializer =
            Initializer::constant(std::vector<double>(static_cast<std::size_t>(options.filters), 0.2));
        auto y = conv2dTranspose(b, *x, options);
        QVERIFY2(y, y ? "" : y.error().toString().c_str());
        const std::int64_t ySize = *y->shape().numElements();
        std::vector<double> weights(static_cast<std::size_t>(ySize));
        for (std::size_t i = 0; i < weights.size(); ++i)
            weights[i] = pattern(static_cast<std::int64_t>(i) * 5 + 1);
        auto r = ops::constant(b, weights, y->shape(), tf::DT_DOUBLE, "r");
        auto product = ops::mul(b, *y, *r);
        std::vector<std::int64_t> axes{0, 1, 2, 3};
        auto axesT = ops::constantInts(b, axes, {4});
        auto loss = ops::sum(b, *product, *axesT);
        QVERIFY(loss);
        const std::string scope = options.name.empty() ? "conv2d_transpose" : options.name;
        auto kernelRead = b.tensor(scope + "/kernel/read");
        auto biasRead = b.tensor(scope + "/bias/read");
        QVERIFY(kernelRead && biasRead);
        auto grads = addSymbolicGradients(b, {*loss}, {*x, *kernelRead, *biasRead});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QVERIFY(globalVariablesInitializer(b).has_value());

        std::vector<double> xValues(static_cast<std::size_t>(*inShape.numElements()));
        for (std::size_t i = 0; i < xValues.size(); ++i)
            xValues[i] = pattern(static_cast<std::int64_t>(i));
        auto session = testing::layerSession(*m_registries, b);
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        std::vector<std::pair<std::string, Tensor>> feeds{{"x:0", doubleTensor(inShape, xValues)}};
        std::vector<std::string> fetches;
        for (const auto& g : *grads)
            fetches.push_back(g->name());
        fetches.push_back(kernelRead->name());
        fetches.push_back(biasRead->name());
        const Status s = session->run(feeds, fetches, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        const std::vector<std::vector<double>> symbolic{doubles(out[0]), doubles(out[1]), doubles(out[2])};
        std::vector<std::vector<double>> point{xValues, doubles(out[3]), doubles(out[4])};
        const std::vector<std::string> fed{"x:0", kernelRead->name(), biasRead->name()};
        const std::vector<TensorShape> shapes{inShape, kernelRead->shape(), biasRead->shape()};
        const double delta = 1e-6;
        double worst = 0.0;
        for (std::size_t which = 0; which < 3; ++which) {
            QCOMPARE(symbolic[which].size(), point[which].size());
            for (std::size_t j = 0; j < point[which].size(); ++j) {
                double sides[2];
                for (int side = 0; side < 2; ++side) {
                    std::vector<std::vector<double>> p = point;
                    p[which][j] += side == 0 ? delta : -delta;
                    std::vector<std::pair<std::string, Tensor>> f;
                    for (std::size_t k = 0; k < 3; ++k)
                        f.push_back({fed[k], doubleTensor(shapes[k], p[k])});
                    std::vector<Tensor> l;
                    const Status run = session->run(f, {loss->name()}, {}, &l);
                    QVERIFY2(run.isOk(), run.toString().c_str());
                    sides[side] = l[0].values<double>()[0];
                }
                const double numeric = (sides[0] - sides[1]) / (2 * delta);
                worst = std::max(worst, std::abs(numeric - symbolic[which][j]));
            }
        }
        QVERIFY2(worst < 1e-6, qPrintable(QString("%1: max gradient error %2").arg(label).arg(worst)));
    }

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries);
    }

    void sameStridesNamesAndValues()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3, 4, 3}, "x");
        Conv2DTransposeOptions options;
        options.filters = 5;
        options.kernelSize = {3, 3};
        options.strides = {2, 2};
        options.padding = "same";
        options.activation = Activation::kRelu;
        options.kernelInitializer = constantFrom(layerGolden("conv2d_transpose_same.kernel"));
        options.biasInitializer = constantFrom(layerGolden("conv2d_transpose_same.bias"));
        auto y = conv2dTranspose(b, *x, options);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("conv2d_transpose/Relu:0"));
        QCOMPARE(y->shape(), (TensorShape{-1, 6, 8, 5}));
        QCOMPARE(TensorShape::fromProto(b.findNode("conv2d_transpose/kernel")->attr().at("shape").shape()).value(),
                 (TensorShape{3, 3, 5, 3}));
        QCOMPARE(TensorShape::fromProto(b.findNode("conv2d_transpose/bias")->attr().at("shape").shape()).value(),
                 (TensorShape{5}));
        QCOMPARE(testing::nodeOpsUnder(b, "conv2d_transpose/"),
                 (std::vector<std::string>{"kernel/Initializer/Const=Const",
                                           "kernel=VariableV2",
                                           "kernel/Assign=Assign",
                                           "kernel/read=Identity",
                                           "bias/Initializer/Const=Const",
                                           "bias=VariableV2",
                                           "bias/Assign=Assign",
                                           "bias/read=Identity",
                                           "Shape=Shape",
                                           "strided_slice/stack=Const",
                                           "strided_slice/stack_1=Const",
                                           "strided_slice/stack_2=Const",
                                           "strided_slice=StridedSlice",
                                           "strided_slice_1/stack=Const",
                                           "strided_slice_1/stack_1=Const",
                                           "strided_slice_1/stack_2=Const",
                                           "strided_slice_1=StridedSlice",
                                           "strided_slice_2/stack=Const",
                                           "strided_slice_2/stack_1=Const",
                                           "strided_slice_2/stack_2=Const",
                                           "strided_slice_2=StridedSlice",
                                           "mul/y=Const",
                                           "mul=Mul",
                                           "mul_1/y=Const",
                                           "mul_1=Mul",
                                           "stack/3=Const",
                                           "stack=Pack",
                                           "strided_slice_3/stack=Const",
                                           "strided_slice_3/stack_1=Const",
                                           "strided_slice_3/stack_2=Const",
                                           "strided_slice_3=StridedSlice",
                                           "conv2d_transpose=Conv2DBackpropInput",
                                           "BiasAdd=BiasAdd",
                                           "Relu=Relu"}));
        const tf::NodeDef* conv = b.findNode("conv2d_transpose/conv2d_transpose");
        QCOMPARE(conv->input(0), std::string("conv2d_transpose/stack"));
        QCOMPARE(conv->input(1), std::string("conv2d_transpose/kernel/read"));
        QCOMPARE(conv->input(2), std::string("x"));
        QCOMPARE(ints(conv->attr().at("strides")), (std::vector<std::int64_t>{1, 2, 2, 1}));
        QCOMPARE(ints(conv->attr().at("dilations")), (std::vector<std::int64_t>{1, 1, 1, 1}));
        QCOMPARE(conv->attr().at("padding").s(), std::string("SAME"));
        QCOMPARE(conv->attr().at("data_format").s(), std::string("NHWC"));
        QCOMPARE(b.findNode("conv2d_transpose/stack/3")->attr().at("value").tensor().int_val(0), 5);
        QVERIFY(globalVariablesInitializer(b).has_value());
        expectClose(run(b, y->name(), {{"x:0", layerGolden("conv2d_transpose_same.x")}}),
                    layerGolden("conv2d_transpose_same.out"));
    }

    void validStridesAndKnownShapes()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{1, 4, 3, 2}, "x");
        Conv2DTransposeOptions options;
        options.filters = 4;
        options.kernelSize = {3, 2};
        options.strides = {2, 2};
        options.name = "up";
        options.kernelInitializer = constantFrom(layerGolden("conv2d_transpose_valid.kernel"));
        options.biasInitializer = constantFrom(layerGolden("conv2d_transpose_valid.bias"));
        auto y = conv2dTranspose(b, *x, options);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("up/BiasAdd:0"));
        QCOMPARE(y->shape(), (TensorShape{1, 9, 6, 4})); // 4 * 2 + max(3 - 2, 0), 3 * 2 + 0
        // A fully defined input: array_ops.shape is a constant; VALID adds max(k - s, 0).
        QCOMPARE(testing::opOf(b, "up/Shape"), std::string("Const"));
        QCOMPARE(testing::opOf(b, "up/add"), std::string("AddV2"));
        QCOMPARE(testing::opOf(b, "up/add_1"), std::string("AddV2"));
        QCOMPARE(b.findNode("up/conv2d_transpose")->attr().at("padding").s(), std::string("VALID"));
        QVERIFY(globalVariablesInitializer(b).has_value());
        expectClose(run(b, y->name(), {{"x:0", layerGolden("conv2d_transpose_valid.x")}}),
                    layerGolden("conv2d_transpose_valid.out"));

        // A kernel smaller than the stride leaves gaps: out = in * stride.
        GraphBuilder c(m_registries->ops);
        auto x2 = ops::placeholder(c, tf::DT_FLOAT, TensorShape{1, 3, 3, 2}, "x");
        options.filters = 3;
        options.kernelSize = {1, 1};
        options.strides = {3, 2};
        options.name.clear();
        options.kernelInitializer = constantFrom(layerGolden("conv2d_transpose_valid_small_kernel.kernel"));
        options.biasInitializer = constantFrom(layerGolden("conv2d_transpose_valid_small_kernel.bias"));
        auto y2 = conv2dTranspose(c, *x2, options);
        QVERIFY2(y2.has_value(), y2 ? "" : y2.error().toString().c_str());
        QCOMPARE(y2->shape(), (TensorShape{1, 9, 6, 3}));
        QVERIFY(globalVariablesInitializer(c).has_value());
        expectClose(run(c, y2->name(), {{"x:0", layerGolden("conv2d_transpose_valid_small_kernel.x")}}),
                    layerGolden("conv2d_transpose_valid_small_kernel.out"));
    }

    void channelsFirstGoesThroughNhwc()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3, 4, 4}, "x");
        Conv2DTransposeOptions options;
        options.filters = 2;
        options.kernelSize = {2, 2};
        options.dataFormat = "channels_first";
        options.kernelInitializer = constantFrom(layerGolden("conv2d_transpose_nchw.kernel"));
        options.biasInitializer = constantFrom(layerGolden("conv2d_transpose_nchw.bias"));
        auto y = conv2dTranspose(b, *x, options);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        QCOMPARE(y->shape(), (TensorShape{-1, 2, 5, 5}));
        QCOMPARE(TensorShape::fromProto(b.findNode("conv2d_transpose/kernel")->attr().at("shape").shape()).value(),
                 (TensorShape{2, 2, 2, 3}));
        QCOMPARE(testing::inputsOf(b, "conv2d_transpose/transpose"),
                 (std::vector<std::string>{"x", "conv2d_transpose/transpose/perm"}));
        QCOMPARE(testing::inputsOf(b, "conv2d_transpose/stack_1"),
                 (std::vector<std::string>{"conv2d_transpose/strided_slice_3", "conv2d_transpose/strided_slice_4",
                                           "conv2d_transpose/strided_slice_5", "conv2d_transpose/strided_slice_6"}));
        QCOMPARE(testing::inputsOf(b, "conv2d_transpose/conv2d_transpose"),
                 (std::vector<std::string>{"conv2d_transpose/stack_1", "conv2d_transpose/kernel/read",
                                           "conv2d_transpose/transpose"}));
        QCOMPARE(b.findNode("conv2d_transpose/conv2d_transpose")->attr().at("data_format").s(), std::string("NHWC"));
        QCOMPARE(testing::inputsOf(b, "conv2d_transpose/BiasAdd").front(), std::string("conv2d_transpose/transpose_1"));
        QCOMPARE(b.findNode("conv2d_transpose/BiasAdd")->attr().at("data_format").s(), std::string("NCHW"));
        QVERIFY(globalVariablesInitializer(b).has_value());
        expectClose(run(b, y->name(), {{"x:0", layerGolden("conv2d_transpose_nchw.x")}}),
                    layerGolden("conv2d_transpose_nchw.out"));
    }

    void gradientsThroughTheLayer()
    {
        Conv2DTransposeOptions same;
        same.filters = 3;
        same.kernelSize = {3, 2};
        same.strides = {2, 1};
        same.padding = "same";
        checkGradients(TensorShape{2, 3, 3, 2}, same, "same, strides (2, 1)");
        Conv2DTransposeOptions valid;
        valid.filters = 2;
        valid.kernelSize = {2, 3};
        valid.strides = {2, 2};
        valid.activation = Activation::kTanh;
        valid.name = "deconv";
        checkGradients(TensorShape{1, 3, 2, 3}, valid, "valid, strides 2, tanh");
        Conv2DTransposeOptions first;
        first.filters = 2;
        first.kernelSize = {2, 2};
        first.dataFormat = "channels_first";
        checkGradients(TensorShape{1, 2, 3, 3}, first, "channels_first");
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        Conv2DTransposeOptions options;
        options.filters = 2;
        options.kernelSize = {2, 2};
        auto x3 = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2, 3, 4}, "x3");
        auto r = conv2dTranspose(b, *x3, options);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().message(), std::string("Input 0 of layer conv2d_transpose is incompatible with the layer: "
                                                  "expected ndim=4, found ndim=3. Full shape received: [2, 3, 4]"));
        auto open = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2, 3, 4, -1}, "open");
        r = conv2dTranspose(b, *open, options);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().message(),
                 std::string("The channel dimension of the inputs should be defined. Found `None`."));
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2, 3, 4, 1}, "x");
        options.padding = "full";
        QVERIFY(!conv2dTranspose(b, *x, options).has_value());
        options.padding = "valid";
        options.filters = 0;
        QVERIFY(!conv2dTranspose(b, *x, options).has_value());
        QCOMPARE(deconvOutputLength(5, 3, 2, "VALID"), std::int64_t(11));
        QCOMPARE(deconvOutputLength(5, 1, 2, "VALID"), std::int64_t(10));
        QCOMPARE(deconvOutputLength(5, 3, 2, "SAME"), std::int64_t(10));
        QCOMPARE(deconvOutputLength(-1, 3, 2, "SAME"), std::int64_t(-1));
    }
};

QTEST_GUILESS_MAIN(TestConv2DTranspose)
#include "test_conv2d_transpose.moc"
