// Tests for the per-instruction-set softmax cross-entropy rows (xent_rows.h) against a
// double-precision reference, for every build this CPU can run.
#include "kernels/isa/cpu_isa.h"
#include "kernels/nn/xent_rows.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace tstudio;
using namespace tstudio::nn;

namespace {

/// The builds this CPU runs: baseline always, then what detectCpuIsa allows.
std::vector<const XentRowKernels*> runnableBuilds()
{
    std::vector<const XentRowKernels*> builds = {&xentRowKernelsBaseline()};
    const CpuIsa isa = detectCpuIsa();
    if (isa == CpuIsa::kAvx2 || isa == CpuIsa::kAvx512)
        builds.push_back(&xentRowKernelsAvx2());
    if (isa == CpuIsa::kAvx512)
        builds.push_back(&xentRowKernelsAvx512());
    return builds;
}

bool near(double got, double want, double rtol, double atol)
{
    return std::abs(got - want) <= atol + rtol * std::abs(want);
}

} // namespace

class TestXentRows : public QObject {
    Q_OBJECT
private slots:
    void picksTheBuildForThisCpu()
    {
        const char* want = "baseline";
        switch (detectCpuIsa()) {
        case CpuIsa::kAvx512: want = "avx512"; break;
        case CpuIsa::kAvx2: want = "avx2"; break;
        case CpuIsa::kBaseline: break;
        }
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
        QCOMPARE(QByteArray(xentRowKernels().isa), QByteArray(want));
#else
        QCOMPARE(QByteArray(xentRowKernels().isa), QByteArray("baseline"));
#endif
    }

    void rowsMatchADoublePrecisionReference()
    {
        std::mt19937 random(7);
        std::uniform_real_distribution<float> logit(-20.0f, 20.0f);
        for (const XentRowKernels* build : runnableBuilds()) {
            for (std::int64_t classes : {1, 5, 16, 17, 63, 1000, 10000}) {
                std::vector<float> logits(static_cast<std::size_t>(classes));
                for (float& v : logits)
                    v = logit(random);
                for (std::int64_t label : {std::int64_t(0), classes / 2, classes - 1}) {
                    std::vector<float> backprop(logits.size(), -7.0f);
                    const float loss = build->sparseRow(logits.data(), classes, label, backprop.data());
                    double max = logits[0];
                    for (float v : logits)
                        max = std::max(max, double(v));
                    double sum = 0;
                    for (float v : logits)
                        sum += std::exp(double(v) - max);
                    const double wantLoss = std::log(sum) - (double(logits[std::size_t(label)]) - max);
                    QVERIFY2(near(loss, wantLoss, 1e-5, 1e-5),
                             qPrintable(QStringLiteral("%1, %2 classes, label %3: loss %4, expected %5")
                                            .arg(build->isa)
                                            .arg(classes)
                                            .arg(label)
                                            .arg(loss)
                                            .arg(wantLoss)));
                    for (std::int64_t j = 0; j < classes; ++j) {
                        const double p = std::exp(double(logits[std::size_t(j)]) - max) / sum;
                        const double want = j == label ? p - 1.0 : p;
                        QVERIFY2(near(backprop[std::size_t(j)], want, 1e-5, 1e-7),
                                 qPrintable(QStringLiteral("%1, %2 classes, label %3, class %4: %5, expected %6")
                                                .arg(build->isa)
                                                .arg(classes)
                                                .arg(label)
                                                .arg(j)
                                                .arg(backprop[std::size_t(j)])
                                                .arg(want)));
                    }
                }
            }
        }
    }

    void nanLogitGivesNanLoss()
    {
        for (const XentRowKernels* build : runnableBuilds()) {
            std::vector<float> logits(40, 1.0f);
            logits[23] = std::nanf("");
            std::vector<float> backprop(logits.size());
            QVERIFY2(std::isnan(build->sparseRow(logits.data(), 40, 3, backprop.data())), build->isa);
            QVERIFY(std::isnan(backprop[3]));
        }
    }
};

QTEST_GUILESS_MAIN(TestXentRows)
#include "test_xent_rows.moc"
