// tf.layers.dropout: the identity when not training; in training nn.dropout's nodes, the kept
// fraction (1 - rate) and the 1 / (1 - rate) scaling, noise_shape, a training tensor (tf.cond), a rate
// tensor, and TensorFlow's errors.
#include "builder/ops_sugar.h"
#include "layer_test_support.h"
#include "layers/dropout.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::layers;
namespace tf = tensorflow;

class TestDropoutLayer : public QObject {
    Q_OBJECT

private:
    const Registries* m_registries = nullptr;
    CpuAllocator m_allocator;

    Expected<Tensor> run(const GraphBuilder& b, const std::string& fetch,
                         const std::vector<std::pair<std::string, Tensor>>& feeds)
    {
        return testing::runLayerGraph(*m_registries, b, fetch, feeds);
    }

    Tensor ones(const TensorShape& shape)
    {
        return *Tensor::fromVector(m_allocator, shape,
                                   std::vector<float>(static_cast<std::size_t>(*shape.numElements()), 1.0f));
    }

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries);
    }

    void notTrainingIsIdentity()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "x");
        auto y = dropout(b, *x);
        QVERIFY(y.has_value());
        QCOMPARE(y->name(), std::string("dropout/Identity:0"));
        auto out = run(b, y->name(), {{"x:0", ones({2, 3})}});
        QVERIFY(out.has_value());
        for (float v : out->values<float>())
            QCOMPARE(v, 1.0f);
    }

    void trainingNodesFractionAndScale()
    {
        GraphBuilder b(m_registries->ops);
        b.setRandomSeed(7);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{200, 100}, "x");
        DropoutOptions options;
        options.rate = 0.3;
        auto y = dropout(b, *x, options, true);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("dropout/dropout/mul_1:0"));
        QCOMPARE(y->shape(), (TensorShape{200, 100}));
        for (const char* node : {"dropout/dropout/rate", "dropout/dropout/Shape", "dropout/dropout/random_uniform/min",
                                 "dropout/dropout/random_uniform/max", "dropout/dropout/random_uniform/RandomUniform",
                                 "dropout/dropout/random_uniform/sub", "dropout/dropout/random_uniform/mul",
                                 "dropout/dropout/random_uniform", "dropout/dropout/sub/x", "dropout/dropout/sub",
                                 "dropout/dropout/truediv/x", "dropout/dropout/truediv", "dropout/dropout/GreaterEqual",
                                 "dropout/dropout/mul", "dropout/dropout/Cast"})
            QVERIFY2(b.findNode(node), node);
        QCOMPARE(b.findNode("dropout/dropout/Shape")->op(), std::string("Const"));
        QCOMPARE(b.findNode("dropout/dropout/truediv")->op(), std::string("RealDiv"));
        QCOMPARE(b.findNode("dropout/dropout/random_uniform/RandomUniform")->attr().at("seed").i(), std::int64_t{7});

        auto out = run(b, y->name(), {{"x:0", ones({200, 100})}});
        QVERIFY2(out.has_value(), out ? "" : out.error().toString().c_str());
        const float scale = 1.0f / (1.0f - 0.3f);
        int kept = 0;
        for (float v : out->values<float>()) {
            if (v != 0.0f) {
                QCOMPARE(v, scale);
                ++kept;
            }
        }
        // 20000 Bernoulli(0.7) draws: the standard deviation of the fraction is 0.0032.
        const double fraction = kept / 20000.0;
        QVERIFY2(std::abs(fraction - 0.7) < 0.02, std::to_string(fraction).c_str());
    }

    void noiseShapeSharesTheMask()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 50}, "x");
        DropoutOptions options;
        options.rate = 0.5;
        options.noiseShape = std::vector<std::optional<std::int64_t>>{std::nullopt, 1};
        auto y = dropout(b, *x, options, true);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        for (const char* node : {"dropout/Shape", "dropout/strided_slice", "dropout/packed/1", "dropout/packed"})
            QVERIFY2(b.findNode(node), node);
        QCOMPARE(b.findNode("dropout/dropout/random_uniform/RandomUniform")->input(0), std::string("dropout/packed"));
        auto out = run(b, y->name(), {{"x:0", ones({40, 50})}});
        QVERIFY2(out.has_value(), out ? "" : out.error().toString().c_str());
        auto v = out->values<float>();
        int keptRows = 0;
        for (int r = 0; r < 40; ++r) {
            const float first = v[static_cast<std::size_t>(r * 50)];
            QVERIFY(first == 0.0f || first == 2.0f);
            keptRows += first != 0.0f;
            for (int c = 1; c < 50; ++c)
                QCOMPARE(v[static_cast<std::size_t>(r * 50 + c)], first);
        }
        QVERIFY(keptRows > 0 && keptRows < 40);
    }

    void trainingTensorBuildsCond()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{100, 100}, "x");
        auto training = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "training");
        DropoutOptions options;
        options.rate = 0.25;
        auto y = dropout(b, *x, options, *training);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("dropout/cond/Merge:0"));
        QCOMPARE(y->shape(), (TensorShape{100, 100}));
        const tf::NodeDef* sw = b.findNode("dropout/cond/Switch");
        QVERIFY(sw && sw->op() == "Switch" && sw->input(0) == "training" && sw->input(1) == "training");
        QCOMPARE(b.findNode("dropout/cond/switch_t")->input(0), std::string("dropout/cond/Switch:1"));
        QCOMPARE(b.findNode("dropout/cond/switch_f")->input(0), std::string("dropout/cond/Switch"));
        QCOMPARE(b.findNode("dropout/cond/pred_id")->input(0), std::string("training"));
        const tf::NodeDef* rate = b.findNode("dropout/cond/dropout/rate");
        QVERIFY(rate && rate->input_size() == 1 && rate->input(0) == "^dropout/cond/switch_t");
        QCOMPARE(b.findNode("dropout/cond/dropout/Shape")->input(0), std::string("^dropout/cond/switch_t"));
        const tf::NodeDef* xSwitch = b.findNode("dropout/cond/dropout/mul/Switch");
        QVERIFY(xSwitch && xSwitch->input(0) == "x" && xSwitch->input(1) == "dropout/cond/pred_id");
        QCOMPARE(xSwitch->attr().at("_class").list().s(0), std::string("loc:@x"));
        QCOMPARE(b.findNode("dropout/cond/dropout/mul")->input(0), std::string("dropout/cond/dropout/mul/Switch:1"));
        QCOMPARE(b.findNode("dropout/cond/dropout/mul")->input_size(), 2);
        QCOMPARE(b.findNode("dropout/cond/Identity")->input(0), std::string("dropout/cond/Identity/Switch"));
        const tf::NodeDef* merge = b.findNode("dropout/cond/Merge");
        QVERIFY(merge && merge->input(0) == "dropout/cond/Identity" && merge->input(1) == "dropout/cond/dropout/mul_1");

        auto on = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<bool>{true});
        auto off = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<bool>{false});
        auto trained = run(b, y->name(), {{"x:0", ones({100, 100})}, {"training:0", on}});
        QVERIFY2(trained.has_value(), trained ? "" : trained.error().toString().c_str());
        int kept = 0;
        for (float v : trained->values<float>()) {
            if (v != 0.0f) {
                QCOMPARE(v, 1.0f / (1.0f - 0.25f));
                ++kept;
            }
        }
        QVERIFY2(std::abs(kept / 10000.0 - 0.75) < 0.03, std::to_string(kept).c_str());
        auto inferred = run(b, y->name(), {{"x:0", ones({100, 100})}, {"training:0", off}});
        QVERIFY2(inferred.has_value(), inferred ? "" : inferred.error().toString().c_str());
        for (float v : inferred->values<float>())
            QCOMPARE(v, 1.0f);

        // A training value known while building acts as the bool: no cond.
        auto constant = ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_BOOL, "never");
        QVERIFY2(constant.has_value(), constant ? "" : constant.error().toString().c_str());
        auto plain = dropout(b, *x, options, *constant);
        QVERIFY(plain.has_value());
        QCOMPARE(plain->name(), std::string("dropout_1/Identity:0"));
        auto notBool = dropout(b, *x, options, *x);
        QVERIFY(!notBool.has_value());
    }

    /// A rate tensor (fed at run time) in a cond on a training tensor; a noise shape in the true branch.
    void rateTensorAndNoiseShapeInTheCond()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 50}, "x");
        auto rate = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "rate");
        auto training = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "training");
        DropoutOptions options;
        options.rateTensor = *rate;
        options.noiseShape = std::vector<std::optional<std::int64_t>>{std::nullopt, 1};
        auto y = dropout(b, *x, options, *training);
        QVERIFY2(y.has_value(), y ? "" : y.error().toString().c_str());
        QCOMPARE(y->name(), std::string("dropout/cond/Merge:0"));
        QVERIFY(b.findNode("dropout/cond/dropout/rate") == nullptr); // the tensor is the rate
        const tf::NodeDef* rateSwitch = b.findNode("dropout/cond/dropout/sub/Switch");
        QVERIFY(rateSwitch && rateSwitch->input(0) == "rate" && rateSwitch->input(1) == "dropout/cond/pred_id");
        QCOMPARE(b.findNode("dropout/cond/dropout/GreaterEqual")->input(1),
                 std::string("dropout/cond/dropout/sub/Switch:1"));
        // The noise shape is built in the branch (keras calls _get_noise_shape inside dropped_inputs).
        QCOMPARE(b.findNode("dropout/cond/Shape/Switch")->input(0), std::string("x"));
        QCOMPARE(b.findNode("dropout/cond/dropout/random_uniform/RandomUniform")->input(0),
                 std::string("dropout/cond/packed"));

        auto scalar = [&](float v) {
            return *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<float>{v});
        };
        auto on = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<bool>{true});
        auto off = *Tensor::fromVector(m_allocator, TensorShape::scalar(), std::vector<bool>{false});
        auto out = run(b, y->name(), {{"x:0", ones({40, 50})}, {"rate:0", scalar(0.75f)}, {"training:0", on}});
        QVERIFY2(out.has_value(), out ? "" : out.error().toString().c_str());
        auto v = out->values<float>();
        int keptRows = 0;
        for (int r = 0; r < 40; ++r) {
            const float first = v[static_cast<std::size_t>(r * 50)];
            QVERIFY(first == 0.0f || first == 4.0f); // 1 / (1 - 0.75)
            keptRows += first != 0.0f;
            for (int c = 1; c < 50; ++c)
                QCOMPARE(v[static_cast<std::size_t>(r * 50 + c)], first);
        }
        QVERIFY2(keptRows > 0 && keptRows < 30, std::to_string(keptRows).c_str());
        out = run(b, y->name(), {{"x:0", ones({40, 50})}, {"rate:0", scalar(0.75f)}, {"training:0", off}});
        QVERIFY2(out.has_value(), out ? "" : out.error().toString().c_str());
        for (float value : out->values<float>())
            QCOMPARE(value, 1.0f);

        // A rate tensor must have the input's dtype and be a scalar; a known 0 drops nothing.
        auto doubleRate = ops::placeholder(b, tf::DT_DOUBLE, TensorShape::scalar(), "double_rate");
        options.noiseShape.reset();
        options.rateTensor = *doubleRate;
        auto wrongType = dropout(b, *x, options, true);
        QVERIFY(!wrongType.has_value());
        QCOMPARE(wrongType.error().message(),
                 std::string("Tensor conversion requested dtype float32 for Tensor with dtype float64: double_rate:0"));
        auto zero = ops::constant(b, 0.0, tf::DT_FLOAT, "zero_rate");
        options.rateTensor = *zero;
        auto same = dropout(b, *x, options, true);
        QVERIFY(same.has_value());
        QCOMPARE(same->name(), std::string("x:0"));
    }

    void rateZeroAndErrors()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2, 3}, "x");
        DropoutOptions options;
        options.rate = 0.0;
        auto same = dropout(b, *x, options, true);
        QVERIFY(same.has_value());
        QCOMPARE(same->name(), std::string("x:0"));
        options.rate = 1.0;
        auto r = dropout(b, *x, options, true);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().message(),
                 std::string("rate must be a scalar tensor or a float in the range [0, 1), got 1"));
        // Not training: no check, as in TensorFlow.
        QVERIFY(dropout(b, *x, options, false).has_value());
        options.rate = 0.5;
        auto ints = ops::placeholder(b, tf::DT_INT32, TensorShape{2, 3}, "ints");
        r = dropout(b, *ints, options, true);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().message(), std::string("x has to be a floating point tensor since it's going to be scaled. "
                                                  "Got a int32 tensor instead."));
    }
};

QTEST_GUILESS_MAIN(TestDropoutLayer)
#include "test_dropout_layer.moc"
