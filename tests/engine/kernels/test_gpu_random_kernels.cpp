// Tests for the GPU random kernels (RandomUniform, RandomStandardNormal, TruncatedNormal,
// RandomUniformInt): a seeded op gives the CPU kernel's numbers (TensorFlow's: both devices fill the
// same Philox groups from the same generator positions), uniform values bit for bit and normals up
// to the last bits of the GPU's math functions; bad shapes and bounds fail on both. Skipped where
// there is no GPU; the registrations (int32 shapes only, as TensorFlow's GPU kernels) and the cases
// themselves are checked everywhere.
#include "devices/gpu_devices.h"
#include "devices/gpu_probe.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"
#include "gpu_registration_table.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;

std::string typeAttr(DataType dtype, const char* attr)
{
    return std::string(" attr { key: '") + attr + "' value { type: " + tensorflow::DataType_Name(dtype) + " } }";
}
std::string seeds(std::int64_t seed, std::int64_t seed2)
{
    return " attr { key: 'seed' value { i: " + std::to_string(seed) +
           " } } attr { key: 'seed2' value { i: " + std::to_string(seed2) + " } }";
}

/// One run: equal within (rtol, atol) on both devices, or (`bad`) rejected by both.
struct Case {
    std::string node;
    std::vector<Tensor> inputs;
    double rtol = 0;
    double atol = 0;
    bool bad = false;
};

/// Normals go through log, sqrt, sin and cos, whose last bits differ between glibc and CUDA; half
/// values are those floats rounded, so a float one ulp off may round to the next half.
void normalTolerance(DataType dtype, Case& c)
{
    c.rtol = dtype == DT_DOUBLE ? 1e-12 : dtype == DT_FLOAT ? 1e-5 : 2e-3;
    c.atol = dtype == DT_DOUBLE ? 1e-13 : dtype == DT_FLOAT ? 1e-6 : 1e-3;
}

std::vector<Case> makeCases(Allocator& allocator)
{
    auto shape = [&](std::vector<std::int64_t> dims, DataType dtype = DT_INT32) {
        const TensorShape s{static_cast<std::int64_t>(dims.size())};
        if (dtype == DT_INT64)
            return tensor<std::int64_t>(allocator, s, dims);
        return tensor<std::int32_t>(allocator, s, std::vector<std::int32_t>(dims.begin(), dims.end()));
    };
    auto scalar = [&](std::int64_t v, DataType dtype) {
        if (dtype == DT_INT64)
            return tensor<std::int64_t>(allocator, TensorShape::scalar(), {v});
        return tensor<std::int32_t>(allocator, TensorShape::scalar(), {static_cast<std::int32_t>(v)});
    };
    const std::vector<std::vector<std::int64_t>> shapes = {{}, {1}, {7}, {3, 5}, {0, 4}, {1000003}, {2, 3, 257}};
    std::vector<Case> cases;
    for (DataType dtype : {DT_HALF, DT_FLOAT, DT_DOUBLE}) {
        for (const char* op : {"RandomUniform", "RandomStandardNormal", "TruncatedNormal"}) {
            const std::string base =
                std::string("op: '") + op + "'" + typeAttr(dtype, "dtype") + typeAttr(DT_INT32, "T");
            for (const auto& dims : shapes) {
                for (auto [seed, seed2] : {std::pair<std::int64_t, std::int64_t>{7, 11}, {87654321, 0}, {0, 3}}) {
                    Case c{base + seeds(seed, seed2), {shape(dims)}};
                    if (std::string(op) != "RandomUniform")
                        normalTolerance(dtype, c);
                    cases.push_back(c);
                }
            }
            cases.push_back({base + seeds(1, 2), {shape({2, -1})}, 0, 0, true});
            cases.push_back(
                {base + seeds(1, 2), {tensor<std::int32_t>(allocator, TensorShape{1, 2}, {2, 2})}, 0, 0, true});
        }
    }
    for (DataType dtype : {DT_INT32, DT_INT64}) {
        const std::string base = "op: 'RandomUniformInt'" + typeAttr(dtype, "Tout") + typeAttr(DT_INT32, "T");
        std::vector<std::pair<std::int64_t, std::int64_t>> bounds = {{-5, 17}, {0, 1}, {-1000000, 1000000}};
        if (dtype == DT_INT64)
            bounds.push_back({-(std::int64_t(1) << 40), std::int64_t(1) << 41});
        for (const auto& dims : shapes) {
            for (auto [lo, hi] : bounds)
                cases.push_back({base + seeds(5, 9), {shape(dims), scalar(lo, dtype), scalar(hi, dtype)}});
        }
        cases.push_back({base + seeds(5, 9), {shape({3}), scalar(4, dtype), scalar(4, dtype)}, 0, 0, true});
        cases.push_back({base + seeds(5, 9), {shape({3}), shape({1, 2}, dtype), scalar(4, dtype)}, 0, 0, true});
        // An empty output is fine whatever the bounds, on both devices.
        cases.push_back({base + seeds(5, 9), {shape({0}), scalar(4, dtype), scalar(4, dtype)}});
    }
    return cases;
}

Table expectedRegistrations()
{
    Table t;
    for (const char* op : {"RandomUniform", "RandomStandardNormal", "TruncatedNormal"})
        t[op] = {{"dtype", {DT_HALF, DT_FLOAT, DT_DOUBLE}, {"shape"}}};
    t["RandomUniformInt"] = {{"Tout", {DT_INT32, DT_INT64}, {"shape", "minval", "maxval"}}};
    return t;
}

} // namespace

class TestGpuRandomKernels : public QObject {
    Q_OBJECT

private slots:
    void registrationsMatchTensorFlow()
    {
        if (!probeGpus().compiledIn)
            QSKIP("no GPU support compiled in: no GPU kernels are registered");
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        const std::string problem = checkRegistrations(*h, expectedRegistrations());
        QVERIFY2(problem.empty(), problem.c_str());
        // TensorFlow's GPU samplers take an int32 shape only; an int64 shape stays on the CPU.
        for (const KernelDef& def : h->kernels().kernelsFor("RandomUniform")) {
            if (def.deviceType != "GPU")
                continue;
            const auto found = std::find_if(def.typeConstraints.begin(), def.typeConstraints.end(),
                                            [](const auto& c) { return c.first == "T"; });
            QVERIFY2(found != def.typeConstraints.end() && found->second == std::vector<DataType>{DT_INT32},
                     "the GPU RandomUniform must be constrained to T=int32");
        }
    }

    void casesBehaveOnTheCpu()
    {
        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        const QStringList failures = cpuCaseFailures(*h, makeCases(h->allocator()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void seededNumbersMatchTheCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        const QStringList failures = gpuCaseFailures(h, makeCases(h.allocator()), [](const Case& c) {
            return std::pair{c.rtol, c.atol};
        });
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    /// Uniform floats are exact multiples of 2^-23 in [0, 1) on the GPU too, and a run of 10^6
    /// has the mean and spread of the uniform distribution (a GPU fill that repeated or skipped
    /// Philox groups would still match nothing above, but this says what went wrong).
    void uniformValuesAreWellFormed()
    {
        GPU_HARNESS_OR_SKIP(h);
        auto shape = tensor<std::int32_t>(h.allocator(), TensorShape{1}, {1000000});
        auto out = h.runOnGpu("op: 'RandomUniform'" + typeAttr(DT_FLOAT, "dtype") + typeAttr(DT_INT32, "T") + seeds(3, 4), {shape});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        double sum = 0, squares = 0;
        for (float v : (*out)[0].values<float>()) {
            QVERIFY(v >= 0.0f && v < 1.0f);
            QCOMPARE(std::ldexp(v, 23), std::floor(std::ldexp(v, 23)));
            sum += v;
            squares += static_cast<double>(v) * v;
        }
        const double mean = sum / 1e6;
        QVERIFY2(std::fabs(mean - 0.5) < 3e-3, qPrintable(QString("mean %1").arg(mean)));
        QVERIFY(std::fabs(squares / 1e6 - mean * mean - 1.0 / 12) < 3e-3);
    }
};

QTEST_GUILESS_MAIN(TestGpuRandomKernels)
#include "test_gpu_random_kernels.moc"
