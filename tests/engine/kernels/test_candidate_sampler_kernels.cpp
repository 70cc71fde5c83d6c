// Tests for the candidate sampling kernels: NumPy golden cases (tools/golden/candidate_sampling.py),
// the stream a second run continues from, unseeded samplers, unique samples, and the log-uniform
// distribution's frequencies against its probabilities.
#include "kernels/kernels.h"
#include "kernels/random/range_sampler.h"
#include "ops/ops.h"

#include "kernel_harness.h"
#include "ref_kernel_runner.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerRandomOps, registerCandidateSamplingOps}, {registerRandomCpuKernels});
}

std::string samplerNode(const char* op, std::int64_t numTrue, std::int64_t numSampled, bool unique,
                        std::int64_t rangeMax, std::int64_t seed, std::int64_t seed2)
{
    return std::string("op: '") + op + "' attr { key: 'num_true' value { i: " + std::to_string(numTrue) +
           " } } attr { key: 'num_sampled' value { i: " + std::to_string(numSampled) +
           " } } attr { key: 'unique' value { b: " + (unique ? "true" : "false") +
           " } } attr { key: 'range_max' value { i: " + std::to_string(rangeMax) +
           " } } attr { key: 'seed' value { i: " + std::to_string(seed) + " } } attr { key: 'seed2' value { i: " +
           std::to_string(seed2) + " } }";
}

std::vector<std::int64_t> int64s(const Tensor& t)
{
    const auto v = t.values<std::int64_t>();
    return {v.begin(), v.end()};
}

} // namespace

class TestCandidateSamplerKernels : public QObject {
    Q_OBJECT
private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        const QString failures = goldenFailures(h.get(), "candidate_sampling.json", CaseCount::exactly(17));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    void secondRunContinuesAfterTheReservedBlock()
    {
        // Each run reserves (2048 * num_sampled + 3) / 4 Philox calls; the second run samples from
        // the generator skipped past them, as TensorFlow's kernel does.
        auto h = makeHarness();
        QVERIFY(h);
        const std::int64_t numSampled = 6;
        RefKernelRunner kernel(*h, samplerNode("LogUniformCandidateSampler", 1, numSampled, true, 500, 21, 22), 1);
        QVERIFY2(kernel.error().isEmpty(), qPrintable(kernel.error()));
        const Tensor classes = tensor<std::int64_t>(h->allocator(), TensorShape{2, 1}, {3, 17});
        auto first = kernel.run({TensorValue{classes}});
        auto second = kernel.run({TensorValue{classes}});
        QVERIFY(first.status.isOk() && second.status.isOk());

        random::PhiloxRandom generator(21, 22);
        generator.skip(static_cast<std::uint64_t>((2048 * numSampled + 3) / 4));
        random::SimplePhilox rnd(&generator);
        const random::LogUniformSampler sampler(500);
        std::vector<std::int64_t> want(static_cast<std::size_t>(numSampled));
        std::vector<float> wantCounts(want.size());
        sampler.sampleBatchGetExpectedCount(rnd, true, want, wantCounts, {}, {});
        QCOMPARE(int64s(second.outputs[0].get()), want);
        QVERIFY(int64s(first.outputs[0].get()) != want);
    }

    void unseededSamplersDiffer()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor classes = tensor<std::int64_t>(h->allocator(), TensorShape{1, 1}, {0});
        const std::string node = samplerNode("UniformCandidateSampler", 1, 16, true, 1000000, 0, 0);
        auto a = h->run(node, {classes});
        auto b = h->run(node, {classes});
        QVERIFY(a && b);
        QVERIFY(int64s((*a)[0]) != int64s((*b)[0]));
    }

    void uniqueSamplesAreDistinctAndInRange()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor classes = tensor<std::int64_t>(h->allocator(), TensorShape{1, 1}, {0});
        // num_sampled == range_max: every class exactly once, each with inclusion probability ~1.
        auto out = h->run(samplerNode("LogUniformCandidateSampler", 1, 30, true, 30, 5, 9), {classes});
        QVERIFY(out);
        const auto drawn = int64s((*out)[0]);
        QCOMPARE(std::set<std::int64_t>(drawn.begin(), drawn.end()).size(), std::size_t{30});
        QCOMPARE(*std::min_element(drawn.begin(), drawn.end()), std::int64_t{0});
        QCOMPARE(*std::max_element(drawn.begin(), drawn.end()), std::int64_t{29});
        for (float count : (*out)[2].values<float>())
            QVERIFY(count > 0.0f && count <= 1.0f);
    }

    void logUniformFrequenciesFollowTheProbabilities()
    {
        // 40 runs of 2,500 samples with replacement over 20 classes: each class's frequency within
        // 5 standard deviations of n * P(k), P(k) = log((k + 2) / (k + 1)) / log(21).
        auto h = makeHarness();
        QVERIFY(h);
        RefKernelRunner kernel(*h, samplerNode("LogUniformCandidateSampler", 1, 2500, false, 20, 3, 4), 1);
        QVERIFY2(kernel.error().isEmpty(), qPrintable(kernel.error()));
        const Tensor classes = tensor<std::int64_t>(h->allocator(), TensorShape{1, 1}, {0});
        std::vector<double> counts(20);
        const int runs = 40;
        for (int r = 0; r < runs; ++r) {
            auto result = kernel.run({TensorValue{classes}});
            QVERIFY(result.status.isOk());
            for (std::int64_t k : int64s(result.outputs[0].get())) {
                QVERIFY(k >= 0 && k < 20);
                counts[static_cast<std::size_t>(k)] += 1;
            }
        }
        const double n = 2500.0 * runs;
        for (int k = 0; k < 20; ++k) {
            const double p = std::log((k + 2.0) / (k + 1.0)) / std::log(21.0);
            const double sigma = std::sqrt(n * p * (1 - p));
            QVERIFY2(std::abs(counts[static_cast<std::size_t>(k)] - n * p) < 5 * sigma,
                     qPrintable(QString("class %1: %2 draws, expected %3").arg(k).arg(counts[k]).arg(n * p)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCandidateSamplerKernels)
#include "test_candidate_sampler_kernels.moc"
