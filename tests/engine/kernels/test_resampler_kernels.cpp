// tf.contrib.resampler's Resampler and ResamplerGrad (kernels/image/resampler_cpu.cpp): NumPy's
// values for half, float and double, points inside the image, on its zero-padded border, on whole
// pixels and outside, and TensorFlow's errors (tools/golden/resampler.py); the shape function.
#include "framework/op_registry.h"
#include "kernels/kernels.h"
#include "ops/ops.h"

#include "kernel_harness.h"
#include "shape_fn_testing.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

class TestResamplerKernels : public QObject {
    Q_OBJECT
private slots:
    void goldenCases()
    {
        auto h = KernelHarness::createOrWarn({registerImageOps}, {registerImageCpuKernels});
        const QString failures = goldenFailures(h.get(), "resampler.json", CaseCount::exactly(21));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    /// The output is warp's shape without its last dimension, then data's channels; unknown ranks
    /// stay unknown; ResamplerGrad's outputs are its inputs' shapes.
    void shapeFunctions()
    {
        OpRegistry ops;
        QVERIFY(registerImageOps(ops).isOk());
        INFER_OK(ops, "Resampler", "T=float", "[4,9,9,3];[4,5,6,2]", "[4,5,6,3]");
        INFER_OK(ops, "Resampler", "T=float", "[?,?,?,7];[2,10,2]", "[2,10,7]");
        INFER_OK(ops, "Resampler", "T=float", "[?,?,?,7];?", "?");
        INFER_ERROR(ops, "Shape must be at least rank 4 but is rank 3", "Resampler", "T=float", "[4,9,3];[4,5,2]");
        INFER_ERROR(ops, "Shape must be at least rank 2 but is rank 1", "Resampler", "T=float", "[4,9,9,3];[2]");
        INFER_OK(ops, "ResamplerGrad", "T=double", "[2,3,4,1];[2,5,2];[2,5,1]", "[2,3,4,1];[2,5,2]");
    }
};

QTEST_GUILESS_MAIN(TestResamplerKernels)
#include "test_resampler_kernels.moc"
