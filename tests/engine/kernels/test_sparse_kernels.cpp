// Tests for the sparse kernels: NumPy golden cases (tools/golden/sparse.py) for SparseToDense,
// SparseReshape, SparseReorder, SparseConcat, SparseSlice(+Grad), SparseAdd(+Grad),
// SparseTensorDenseAdd, SparseTensorDenseMatMul, SparseFillEmptyRows(+Grad), the sparse segment
// reductions and their gradient ops, and SegmentSum, with TensorFlow's error texts; the shape
// functions one line per case; a hand-checked SparseReorder of ties.
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "kernel_harness.h"
#include "shape_fn_testing.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

class TestSparseKernels : public QObject {
    Q_OBJECT

private slots:
    void goldenCases()
    {
        auto h = KernelHarness::createOrWarn({registerSparseOps}, {registerSparseCpuKernels});
        const QString failures = goldenFailures(h.get(), "sparse.json", CaseCount::exactly(105));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    /// Repeated indices keep their input order (a stable sort), values moved with them.
    void reorderKeepsTiesInOrder()
    {
        auto h = KernelHarness::createOrWarn({registerSparseOps}, {registerSparseCpuKernels});
        QVERIFY(h);
        Allocator& a = h->allocator();
        auto out = h->run("op: 'SparseReorder' attr { key: 'T' value { type: DT_INT32 } }",
                          {tensor<std::int64_t>(a, {4, 1}, {2, 0, 2, 0}), tensor<std::int32_t>(a, {4}, {1, 2, 3, 4}),
                           tensor<std::int64_t>(a, {1}, {3})});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const auto indices = (*out)[0].values<std::int64_t>();
        const auto values = (*out)[1].values<std::int32_t>();
        QCOMPARE(std::vector<std::int64_t>(indices.begin(), indices.end()), (std::vector<std::int64_t>{0, 0, 2, 2}));
        QCOMPARE(std::vector<std::int32_t>(values.begin(), values.end()), (std::vector<std::int32_t>{2, 4, 1, 3}));
    }

    void shapeFunctions()
    {
        OpRegistry r;
        QVERIFY(registerSparseOps(r).isOk());
        INFER_OK(r, "SparseReshape", "", "[5,3];[3];[2]", "[5,2];[2]");
        INFER_ERROR(r, "Shape must be rank 2 but is rank 1", "SparseReshape", "", "[5];[3];[2]");
        INFER_OK(r, "SparseReorder", "T=float", "[?,3];[?];[3]", "[?,3];[?]");
        INFER_OK(r, "SparseConcat", "concat_dim=1;N=2;T=float", "[2,3];[4,3];[2];[4];[3];[3]", "[6,3];[6];[3]");
        INFER_ERROR(r, "Dimensions must be equal, but are 2 and 3", "SparseConcat", "concat_dim=0;N=2;T=float",
                    "[2,2];[4,3];[2];[4];[2];[3]");
        INFER_OK(r, "SparseSlice", "T=float", "[?,2];[?];[2];[2];[2]", "[?,2];[?];[2]");
        INFER_OK(r, "SparseSliceGrad", "T=float", "[?];[7,2];[2];[?,2]", "[7]");
        INFER_OK(r, "SparseAdd", "T=float;Treal=float", "[?,2];[?];[2];[?,2];[?];[2];[]", "[?,2];[?];[2]");
        INFER_OK(r, "SparseAddGrad", "T=float", "[?];[3,2];[4,2];[?,2]", "[3];[4]");
        INFER_OK(r, "SparseTensorDenseAdd", "T=float;Tindices=int64", "[?,2];[?];[2];[3,4]", "[3,4]");
        INFER_OK(r, "SparseTensorDenseMatMul", "T=float", "[?,2];[?];[2]=i64{3,4};[4,5]", "[3,5]");
        INFER_OK(r, "SparseTensorDenseMatMul", "T=float;adjoint_a=true;adjoint_b=true", "[?,2];[?];[2]=i64{3,4};[5,3]",
                 "[4,5]");
        INFER_ERROR(r, "Dimensions must be equal, but are 4 and 5", "SparseTensorDenseMatMul", "T=float",
                    "[?,2];[?];[2]=i64{3,4};[5,5]");
        INFER_OK(r, "SparseFillEmptyRows", "T=float", "[?,2];[?];[2]=i64{6,3};[]", "[?,2];[?];[6];[?]");
        INFER_ERROR(r, "dense_shape must not be empty", "SparseFillEmptyRows", "T=float", "[?,0];[?];[0];[]");
        INFER_OK(r, "SparseFillEmptyRowsGrad", "T=float", "[5];[8]", "[5];[]");
        INFER_OK(r, "SparseSegmentSum", "T=float", "[10,3,2];[4];[4]", "[?,3,2]");
        INFER_ERROR(r, "Dimension 0 in both shapes must be equal, but are 4 and 5", "SparseSegmentMean", "T=float",
                    "[10,3];[4];[5]");
        INFER_OK(r, "SparseSegmentSqrtNWithNumSegments", "T=float", "[10,3];[4];[4];[]={7}", "[7,3]");
        INFER_ERROR(r, "Cannot specify a negative value for num_segments", "SparseSegmentSumWithNumSegments", "T=float",
                    "[10,3];[4];[4];[]={-1}");
        INFER_OK(r, "SparseSegmentMeanGrad", "T=float", "[4,3];[6];[6];[]={10}", "[10,3]");
        INFER_OK(r, "SegmentSum", "T=float;Tindices=int32", "[10,3];[10]", "[?,3]");
        INFER_ERROR(r, "Shape must be at least rank 1 but is rank 0", "SegmentSum", "T=float;Tindices=int32", "[];[1]");
    }
};

QTEST_GUILESS_MAIN(TestSparseKernels)
#include "test_sparse_kernels.moc"
