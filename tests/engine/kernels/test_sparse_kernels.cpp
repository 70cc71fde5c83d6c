// Tests for the SparseToDense kernel: NumPy golden cases (tools/golden/sparse.py) covering the index
// forms, dtypes, validate_indices and TensorFlow's error texts.
#include "kernels/kernels.h"
#include "ops/register_all_ops.h"

#include "kernel_harness.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

class TestSparseKernels : public QObject {
    Q_OBJECT

private slots:
    void goldenCases()
    {
        auto h = KernelHarness::createOrWarn({registerSparseOps}, {registerSparseCpuKernels});
        const QString failures = goldenFailures(h.get(), "sparse.json", CaseCount::exactly(21));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }
};

QTEST_GUILESS_MAIN(TestSparseKernels)
#include "test_sparse_kernels.moc"
