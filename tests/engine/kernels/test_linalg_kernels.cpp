// Tests for the linalg kernels: NumPy golden cases (tools/golden/linalg.py), GEMM builds per instruction
// set against a double-precision reference, thread-count independence, and bfloat16 products.
#define EIGEN_USE_THREADS
#include "core/cpu_features.h"
#include "devices/cpu/cpu_device.h"
#include "framework/memory_poison.h"
#include "framework/node_def_validation.h"
#include "kernels/kernels.h"
#include "kernels/linalg/gemm_cpu.h"
#include "ops/ops.h"

#include "kernel_harness.h"

#include <google/protobuf/text_format.h>
#include <unsupported/Eigen/CXX11/Tensor>

#include <QTest>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    QString err;
    auto h = KernelHarness::create({registerMathOps}, {registerLinalgCpuKernels}, &err);
    if (!h)
        qWarning("%s", qPrintable(err));
    return h;
}

template <typename T> std::vector<T> randomValues(std::size_t count, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<T> v(count);
    for (T& x : v) {
        if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
            const double re = dist(gen);
            x = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(dist(gen)));
        } else {
            x = static_cast<T>(dist(gen));
        }
    }
    return v;
}

/// op(A) * op(B) in long double (complex: in std::complex<long double>), row-major.
template <typename T> auto referenceProduct(const linalg::GemmArgs<T>& g)
{
    using Wide = std::conditional_t<std::is_floating_point_v<T>, long double, std::complex<long double>>;
    auto conj = [](Wide v, bool c) {
        if constexpr (std::is_floating_point_v<T>)
            return v;
        else
            return c ? std::conj(v) : v;
    };
    std::vector<Wide> c(static_cast<std::size_t>(g.m * g.n));
    for (std::int64_t i = 0; i < g.m; ++i) {
        for (std::int64_t j = 0; j < g.n; ++j) {
            Wide sum = 0;
            for (std::int64_t p = 0; p < g.k; ++p) {
                const Wide a = static_cast<Wide>(g.transposeA ? g.a[p * g.lda + i] : g.a[i * g.lda + p]);
                const Wide b = static_cast<Wide>(g.transposeB ? g.b[j * g.ldb + p] : g.b[p * g.ldb + j]);
                sum += conj(a, g.conjugateA) * conj(b, g.conjugateB);
            }
            c[static_cast<std::size_t>(i * g.n + j)] = sum;
        }
    }
    return c;
}

template <typename T>
linalg::GemmArgs<T> gemmArgs(const std::vector<T>& a, const std::vector<T>& b, std::vector<T>& c, std::int64_t m,
                             std::int64_t n, std::int64_t k, bool ta, bool tb, bool ca = false, bool cb = false)
{
    linalg::GemmArgs<T> g;
    g.a = a.data();
    g.b = b.data();
    g.c = c.data();
    g.m = m;
    g.n = n;
    g.k = k;
    g.lda = ta ? m : k;
    g.ldb = tb ? k : n;
    g.ldc = n;
    g.transposeA = ta;
    g.transposeB = tb;
    g.conjugateA = ca;
    g.conjugateB = cb;
    return g;
}

/// Max |computed - reference| / (1 + |reference|) over the product.
template <typename T, typename Wide> double maxError(const std::vector<T>& c, const std::vector<Wide>& ref)
{
    double worst = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const double err = static_cast<double>(std::abs(static_cast<Wide>(c[i]) - ref[i]) / (1 + std::abs(ref[i])));
        worst = std::max(worst, std::isnan(err) ? 1e30 : err);
    }
    return worst;
}

/// Whether the processor has `isa` and this build has its GEMM unit: the AVX2 and AVX-512 units are
/// compiled by GCC only (kernels/isa/isa_unit_begin.h), so a clang build has the baseline alone.
bool cpuHas(const char* isa)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    __builtin_cpu_init();
    if (std::strcmp(isa, "avx512") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
    if (std::strcmp(isa, "avx2") == 0) {
        // F16C from CPUID leaf 1: clang 14's __builtin_cpu_supports does not know "f16c".
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
    }
#endif
    return std::strcmp(isa, "baseline") == 0;
}

template <typename T> void checkTileKernels(const linalg::GemmTileKernels& kernels, double tolerance)
{
    linalg::GemmTileFunction<T> tile;
    if constexpr (std::is_same_v<T, float>)
        tile = kernels.f32;
    else if constexpr (std::is_same_v<T, double>)
        tile = kernels.f64;
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        tile = kernels.c64;
    else
        tile = kernels.c128;
    // Shapes with remainders in every SIMD width, vectors, and conjugated operands.
    struct Shape {
        std::int64_t m, n, k;
    };
    int seed = 1;
    for (const Shape s :
         {Shape{1, 1, 1}, Shape{7, 5, 3}, Shape{33, 17, 65}, Shape{1, 70, 40}, Shape{70, 1, 40}, Shape{100, 90, 300}}) {
        for (int flags = 0; flags < 16; ++flags) {
            const bool ta = flags & 1, tb = flags & 2, ca = flags & 4, cb = flags & 8;
            const auto a = randomValues<T>(static_cast<std::size_t>(s.m * s.k), seed++);
            const auto b = randomValues<T>(static_cast<std::size_t>(s.k * s.n), seed++);
            std::vector<T> c(static_cast<std::size_t>(s.m * s.n), T(42));
            const auto g = gemmArgs(a, b, c, s.m, s.n, s.k, ta, tb, ca, cb);
            tile(g, 0, s.m, 0, s.n);
            const double err = maxError(c, referenceProduct(g));
            QVERIFY2(err < tolerance, qPrintable(QStringLiteral("%1 %2x%3x%4 flags %5: error %6")
                                                     .arg(kernels.isa)
                                                     .arg(s.m)
                                                     .arg(s.n)
                                                     .arg(s.k)
                                                     .arg(flags)
                                                     .arg(err)));
        }
    }
}

} // namespace

class TestLinalgKernels : public QObject {
    Q_OBJECT
private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        QVERIFY(h);
        int n = 0;
        const QStringList failures = runGoldenCases(*h, goldenDir() + "/linalg.json", &n);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QVERIFY(n > 100);
    }

    void cpuIsaSwitchCapsTheGemmBuild()
    {
        // TSTUDIO_CPU_ISA (set by this test's _isa_ twins in CTest) caps the build cpuGemm picks,
        // so the AVX2 and baseline dispatch runs here as on a CPU without AVX-512.
        const QByteArray cap = qgetenv("TSTUDIO_CPU_ISA");
        if (!cap.isEmpty())
            QCOMPARE(QString::fromStdString(cpuLevelName(cpuLevelCap())), QString::fromLatin1(cap));
        QVERIFY(static_cast<int>(cpuLevel()) <= static_cast<int>(cpuLevelCap()));
        // The unit of the highest set allowed; a unit this compiler cannot build answers with the
        // baseline (a clang build has only the baseline: kernels/isa/isa_unit_begin.h).
        const char* want = cpuHasLevel(CpuLevel::kAvx512) ? linalg::gemmTileKernelsAvx512().isa
                           : cpuHasLevel(CpuLevel::kAvx2) ? linalg::gemmTileKernelsAvx2().isa
                                                          : "baseline";
        QCOMPARE(QString::fromLatin1(linalg::cpuGemmIsa()), QString::fromLatin1(want));
    }

    void everyGemmBuildMatchesAWideReference()
    {
        qInfo("cpuGemm uses the %s build on this CPU", linalg::cpuGemmIsa());
        using Builds = const linalg::GemmTileKernels& (*)();
        for (Builds build : {Builds(&linalg::gemmTileKernelsBaseline), Builds(&linalg::gemmTileKernelsAvx2),
                             Builds(&linalg::gemmTileKernelsAvx512)}) {
            const linalg::GemmTileKernels& kernels = build();
            if (!cpuHas(kernels.isa)) {
                qInfo("skipping the %s build: this CPU lacks it", kernels.isa);
                continue;
            }
            checkTileKernels<float>(kernels, 1e-5);
            checkTileKernels<double>(kernels, 1e-13);
            checkTileKernels<std::complex<float>>(kernels, 1e-5);
            checkTileKernels<std::complex<double>>(kernels, 1e-13);
        }
    }

    void gemmResultDoesNotDependOnThreadCount()
    {
        // Row splits (tall products) and column splits (short, wide ones) must both give the bits
        // of the undivided product (one thread), whatever the number of threads.
        Eigen::ThreadPool pool(5);
        struct Shape {
            std::int64_t m, n, k;
        };
        // A batch-100 training step's products (100 x 500 x 784 splits its columns, 784 x 500 x
        // 100 its rows), the PTB model's softmax (400 x 10000 x 200, and its gradients), odd
        // remainders of 1, 3 and 4 rows or columns, and sides just over two tiles.
        for (const Shape s : {Shape{1000, 300, 200}, Shape{333, 77, 129}, Shape{129, 64, 64}, Shape{40, 2000, 64},
                              Shape{1, 4096, 128}, Shape{3, 1000, 500}, Shape{100, 500, 784}, Shape{97, 10, 500},
                              Shape{784, 500, 100}, Shape{33, 700, 300}, Shape{400, 10000, 200},
                              Shape{200, 10000, 400}, Shape{400, 200, 10000}, Shape{20, 803, 400},
                              Shape{35, 33, 1000}, Shape{5, 99, 3000}}) {
            const auto a = randomValues<float>(static_cast<std::size_t>(s.m * s.k), 11);
            const auto b = randomValues<float>(static_cast<std::size_t>(s.k * s.n), 12);
            // Every transposition: float products run on oneDNN's sgemm or Eigen's GEMM by shape
            // and transposition (gemm_cpu.cpp), and both must keep this property.
            for (const auto& [transposeA, transposeB] :
                 {std::pair{false, true}, std::pair{false, false}, std::pair{true, false}, std::pair{true, true}}) {
                std::vector<float> single(static_cast<std::size_t>(s.m * s.n));
                linalg::cpuGemm<float>(nullptr, gemmArgs(a, b, single, s.m, s.n, s.k, transposeA, transposeB));
                for (int threads : {1, 2, 3, 5}) {
                    Eigen::ThreadPoolDevice device(&pool, threads);
                    std::vector<float> multi(single.size(), -1.0f);
                    linalg::cpuGemm<float>(&device, gemmArgs(a, b, multi, s.m, s.n, s.k, transposeA, transposeB));
                    QVERIFY2(std::memcmp(single.data(), multi.data(), single.size() * sizeof(float)) == 0,
                             qPrintable(QStringLiteral("%1x%2x%3 (transpose %4 %5) on %6 threads")
                                            .arg(s.m)
                                            .arg(s.n)
                                            .arg(s.k)
                                            .arg(transposeA)
                                            .arg(transposeB)
                                            .arg(threads)));
                }
            }
        }
    }

    void matMulKernelIsThreadCountIndependent()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const auto av = randomValues<double>(300 * 170, 5);
        const auto bv = randomValues<double>(170 * 90, 6);
        const Tensor a = tensor(h->allocator(), TensorShape{300, 170}, av);
        const Tensor b = tensor(h->allocator(), TensorShape{170, 90}, bv);
        const std::string text = "op: 'MatMul' attr { key: 'T' value { type: DT_DOUBLE } }";
        CpuDevice one(0, 1), four(0, 4);
        auto r1 = h->runOn(one, text, {a, b});
        auto r4 = h->runOn(four, text, {a, b});
        QVERIFY(r1 && r4);
        QCOMPARE(compareTensors((*r4)[0], (*r1)[0], 0.0, 0.0), std::string());
        // And the numbers are right.
        std::vector<double> c(300 * 90);
        const auto ref = referenceProduct(gemmArgs(av, bv, c, 300, 90, 170, false, false));
        const auto got = (*r1)[0].values<double>();
        QVERIFY(maxError(std::vector<double>(got.begin(), got.end()), ref) < 1e-13);
    }

    void batchMatMulParallelOverBatchesEqualsSequential()
    {
        // Small matrices run one batch per thread, each product single-threaded: same bits as one thread.
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor x = tensor(h->allocator(), TensorShape{50, 6, 7}, randomValues<float>(50 * 42, 7));
        const Tensor y = tensor(h->allocator(), TensorShape{1, 7, 5}, randomValues<float>(35, 8));
        const std::string text = "op: 'BatchMatMulV2' attr { key: 'T' value { type: DT_FLOAT } }";
        CpuDevice one(0, 1), three(0, 3);
        auto r1 = h->runOn(one, text, {x, y});
        auto r3 = h->runOn(three, text, {x, y});
        QVERIFY(r1 && r3);
        QCOMPARE((*r1)[0].shape().toString(), std::string("[50,6,5]"));
        QCOMPARE(compareTensors((*r3)[0], (*r1)[0], 0.0, 0.0), std::string());
    }

    void anEmptyInnerDimensionGivesZeros()
    {
        // [2,0] x [0,3] is a [2,3] of sums over nothing: zeros, whatever the output's memory held
        // (poisoned here, so an unwritten element would show as NaN).
        const bool poisoned = poisonUninitializedMemory();
        setPoisonUninitializedMemory(true);
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor a = tensor(h->allocator(), TensorShape{2, 0}, std::vector<float>{});
        const Tensor b = tensor(h->allocator(), TensorShape{0, 3}, std::vector<float>{});
        const Tensor x = tensor(h->allocator(), TensorShape{4, 2, 0}, std::vector<float>{});
        const Tensor y = tensor(h->allocator(), TensorShape{1, 0, 3}, std::vector<float>{});
        auto product = h->run("op: 'MatMul' attr { key: 'T' value { type: DT_FLOAT } }", {a, b});
        auto batched = h->run("op: 'BatchMatMulV2' attr { key: 'T' value { type: DT_FLOAT } }", {x, y});
        setPoisonUninitializedMemory(poisoned);
        QVERIFY(product && batched);
        QCOMPARE((*product)[0].shape(), TensorShape({2, 3}));
        QCOMPARE((*batched)[0].shape(), TensorShape({4, 2, 3}));
        for (const Tensor* t : {&(*product)[0], &(*batched)[0]})
            for (float v : t->values<float>())
                QCOMPARE(v, 0.0f);
    }

    void bfloat16ProductsAreComputedInFloat()
    {
        // NumPy has no bfloat16, so these are checked here: small integers are exact in bfloat16,
        // and 1 + 2^-9 rounds to 1 only after the float product (TensorFlow rounds once).
        auto h = makeHarness();
        QVERIFY(h);
        using B = Eigen::bfloat16;
        const Tensor a = tensor<B>(h->allocator(), TensorShape{2, 3}, {B(1), B(2), B(3), B(-1), B(0), B(4)});
        const Tensor b = tensor<B>(h->allocator(), TensorShape{3, 2}, {B(1), B(-2), B(0), B(1), B(2), B(3)});
        auto r = h->run("op: 'MatMul' attr { key: 'T' value { type: DT_BFLOAT16 } }", {a, b});
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        const Tensor want = tensor<B>(h->allocator(), TensorShape{2, 2}, {B(7), B(9), B(7), B(14)});
        QCOMPARE(compareTensors((*r)[0], want, 0.0, 0.0), std::string());

        const Tensor x = tensor<B>(h->allocator(), TensorShape{1, 1, 2}, {B(1), B(0.5f)});
        const Tensor y = tensor<B>(h->allocator(), TensorShape{2, 2, 1}, {B(3), B(2), B(-1), B(4)});
        auto rb = h->run("op: 'BatchMatMulV2' attr { key: 'T' value { type: DT_BFLOAT16 } }", {x, y});
        QVERIFY2(rb, rb ? "" : rb.error().toString().c_str());
        const Tensor wantB = tensor<B>(h->allocator(), TensorShape{2, 1, 1}, {B(4), B(1)});
        QCOMPARE(compareTensors((*rb)[0], wantB, 0.0, 0.0), std::string());
    }

    void registersTensorFlowsTypes()
    {
        auto h = makeHarness();
        QVERIFY(h);
        for (const char* op : {"MatMul", "BatchMatMul", "BatchMatMulV2"})
            QCOMPARE(h->kernels().kernelsFor(op).size(), std::size_t(8));
    }
};

QTEST_GUILESS_MAIN(TestLinalgKernels)
#include "test_linalg_kernels.moc"
