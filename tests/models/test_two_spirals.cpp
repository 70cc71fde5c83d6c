// The built-in example: two interleaved spirals, learned to >= 95% training accuracy (issue #5's
// check), and the data generator's contract.
#include "classifier_training.h"
#include "layer_networks.h"
#include "registries/default_registries.h"
#include "two_spirals_data.h"

#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::examples;

class TestTwoSpirals : public QObject {
    Q_OBJECT

private slots:
    void dataAreReproducibleAndOnTheSpirals()
    {
        CpuAllocator allocator;
        auto a = makeTwoSpirals(allocator, {200, 1.75, 0.0, 7});
        QVERIFY(a);
        QCOMPARE(a->points.shape().toString(), std::string("[400,2]"));
        QCOMPARE(a->labels.shape().toString(), std::string("[400]"));
        // Without noise every point lies on its spiral: radius t, angle 2 pi turns t + class pi.
        const auto p = a->points.values<float>();
        const auto l = a->labels.values<std::int32_t>();
        for (int i = 0; i < 400; ++i) {
            const double t = (i / 2 + 1) / 200.0;
            QCOMPARE(l[static_cast<std::size_t>(i)], i % 2);
            const double angle = 2 * M_PI * 1.75 * t + (i % 2) * M_PI;
            QVERIFY(std::abs(p[2 * i] - t * std::cos(angle)) < 1e-6);
            QVERIFY(std::abs(p[2 * i + 1] - t * std::sin(angle)) < 1e-6);
        }
        // The same seed gives the same noisy points, another seed other points.
        auto b = makeTwoSpirals(allocator, {200, 1.75, 0.05, 7});
        auto c = makeTwoSpirals(allocator, {200, 1.75, 0.05, 7});
        auto d = makeTwoSpirals(allocator, {200, 1.75, 0.05, 8});
        QVERIFY(b && c && d);
        QVERIFY(std::equal(b->points.values<float>().begin(), b->points.values<float>().end(), c->points.values<float>().begin()));
        QVERIFY(!std::equal(b->points.values<float>().begin(), b->points.values<float>().end(), d->points.values<float>().begin()));
    }

    void badOptionsAreRefused()
    {
        CpuAllocator allocator;
        QCOMPARE(makeTwoSpirals(allocator, {0}).error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(makeTwoSpirals(allocator, {10, 1.0, -1.0}).error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(makeTwoSpirals(allocator, {10, NAN}).error().code(), StatusCode::kInvalidArgument);
    }

    void learnsTheSpirals()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        CpuAllocator allocator;
        auto spirals = makeTwoSpirals(allocator);
        QVERIFY(spirals);
        LayerNetworkOptions options;
        options.optimizer = OptimizerKind::kAdam;
        options.learningRate = 0.01;
        auto graph = buildSpiralsNetwork((*registries)->ops, 64, options);
        QVERIFY2(graph, graph ? "" : graph.error().toString().c_str());
        // int32 labels from the generator; the network takes int64.
        auto labels = Tensor::allocate(allocator, tensorflow::DT_INT64, spirals->labels.shape());
        QVERIFY(labels);
        std::transform(spirals->labels.values<std::int32_t>().begin(), spirals->labels.values<std::int32_t>().end(),
                       labels->values<std::int64_t>().begin(), [](std::int32_t v) { return std::int64_t{v}; });
        // Mini-batches of 100 from the shuffled points, forever.
        const data::Dataset batches = data::Dataset::fromTensorSlices({spirals->points, *labels}, allocator)
                                          .shuffle(1000, 1)
                                          .repeat()
                                          .batch(100);
        ClassifierTrainingOptions training;
        training.steps = 3000;
        training.reportEvery = 1000;
        auto result = trainClassifier(*graph, **registries, batches, training, &spirals->points, &*labels,
                                      [](const TrainingProgress& p) {
                                          qInfo("step %lld: loss %.4f, batch accuracy %.2f", static_cast<long long>(p.step),
                                                double(p.loss), double(p.batchAccuracy));
                                      });
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        qInfo("training accuracy %.4f after %lld steps (%.0f steps/s)", *result->evalAccuracy,
              static_cast<long long>(training.steps), result->stepsPerSecond);
        QVERIFY2(*result->evalAccuracy >= 0.95, qPrintable(QString::number(*result->evalAccuracy)));
    }
};

QTEST_GUILESS_MAIN(TestTwoSpirals)
#include "test_two_spirals.moc"
