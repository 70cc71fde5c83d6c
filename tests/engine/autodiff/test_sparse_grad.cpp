// The sparse family's gradients against central differences (float32 < 1e-3, float64 < 1e-6):
// SparseTensorDenseMatMul w.r.t. values and the dense matrix (every adjoint combination),
// SparseSegmentSum/Mean/SqrtN and their WithNumSegments forms, SegmentSum, SparseAdd,
// SparseTensorDenseAdd, SparseFillEmptyRows (values and default_value), SparseReorder, SparseSlice,
// values through sparse_reshape; the node names and ops TensorFlow 1.15's Python builds for two of
// them; SparseConcat, SparseReshape and SparseAddGrad as not differentiable.
#include "autodiff/gradients.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_ops.h"
#include "gradient_test_support.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
using ops::firstOutput;
namespace tf = tensorflow;

namespace {

const char* err(const auto& expected)
{
    static std::string text;
    text = expected ? std::string() : expected.error().toString();
    return text.c_str();
}

Expected<Output> int64s(GraphBuilder& b, const std::vector<std::int64_t>& values, const TensorShape& shape)
{
    return ops::constantInts(b, values, shape, tf::DT_INT64);
}

Expected<Output> int32s(GraphBuilder& b, const std::vector<std::int64_t>& values, const TensorShape& shape)
{
    return ops::constantInts(b, values, shape, tf::DT_INT32);
}

/// Output `i` of an op built from Expected inputs, or the first error.
Expected<Output> outputOfOp(GraphBuilder& b, std::string_view type, std::vector<Expected<Output>> inputs, int i = 0,
                            AttrMap attrs = {})
{
    std::vector<OpInput> in;
    for (auto& e : inputs) {
        if (!e)
            return unexpected(e.error());
        in.emplace_back(*e);
    }
    return outputOf(b.op(type, std::move(in), std::move(attrs)), i);
}

} // namespace

class TestSparseGrad : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    void sparseTensorDenseMatMul()
    {
        // A [3, 4] with five entries (one row empty), B [4, 2] or its adjoint [2, 4].
        const std::vector<std::int64_t> indices = {0, 1, 0, 3, 1, 0, 1, 2, 2, 2};
        for (bool adjA : {false, true}) {
            for (bool adjB : {false, true}) {
                for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
                    const std::vector<std::int64_t> shape =
                        adjA ? std::vector<std::int64_t>{4, 3} : std::vector<std::int64_t>{3, 4};
                    // With adjoint_a the same entries index the transposed shape.
                    std::vector<std::int64_t> ix = indices;
                    if (adjA) {
                        for (std::size_t i = 0; i < ix.size(); i += 2)
                            std::swap(ix[i], ix[i + 1]);
                    }
                    const TensorShape bShape = adjB ? TensorShape{2, 4} : TensorShape{4, 2};
                    const QString name = QString("SparseTensorDenseMatMul adj_a=%1 adj_b=%2 %3")
                                             .arg(adjA)
                                             .arg(adjB)
                                             .arg(dtype == tf::DT_FLOAT ? "float" : "double");
                    m_checks.check(name, {filled(dtype, {5}, signedAwayFromKinks), filled(dtype, bShape, small)},
                                   [=](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                                       return outputOfOp(b, "SparseTensorDenseMatMul",
                                                         {int64s(b, ix, {5, 2}), in[0], int64s(b, shape, {2}), in[1]},
                                                         0,
                                                         {{"adjoint_a", attr::b(adjA)}, {"adjoint_b", attr::b(adjB)}});
                                   });
                }
            }
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    void sparseSegmentReductions()
    {
        // Repeated and skipped rows, a gap in the segments (segment 1 empty).
        const std::vector<std::int64_t> indices = {0, 2, 2, 4, 1};
        const std::vector<std::int64_t> segments = {0, 0, 0, 2, 3};
        for (const char* op : {"SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"}) {
            for (bool withNum : {false, true}) {
                for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
                    const std::string type = std::string(op) + (withNum ? "WithNumSegments" : "");
                    m_checks.check(QString::fromStdString(type) + (dtype == tf::DT_FLOAT ? " float" : " double"),
                                   {filled(dtype, {5, 3}, signedAwayFromKinks)},
                                   [=](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                                       std::vector<Expected<Output>> inputs = {in[0], int32s(b, indices, {5}),
                                                                               int32s(b, segments, {5})};
                                       if (withNum)
                                           inputs.push_back(int32s(b, {6}, TensorShape::scalar()));
                                       return outputOfOp(b, type, std::move(inputs));
                                   });
                }
            }
        }
        m_checks.check("SegmentSum", {filled({5, 2}, signedAwayFromKinks)},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return outputOfOp(b, "SegmentSum", {in[0], int32s(b, {0, 0, 2, 2, 3}, {5})});
                       });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    void sparseAddAndDenseAdd()
    {
        // a and b share [0,1] and [2,2]; the threshold 0 keeps every sum.
        m_checks.check("SparseAdd", {filled({3}, signedAwayFromKinks), filled({4}, positive)},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return outputOfOp(b, "SparseAdd",
                                             {int64s(b, {0, 1, 1, 0, 2, 2}, {3, 2}), in[0], int64s(b, {3, 4}, {2}),
                                              int64s(b, {0, 1, 1, 3, 2, 2, 2, 3}, {4, 2}), in[1],
                                              int64s(b, {3, 4}, {2}), ops::constant(b, 0.0)},
                                             1);
                       });
        m_checks.check("SparseTensorDenseAdd", {filled({3}, signedAwayFromKinks), filled({2, 3}, small)},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return outputOfOp(
                               b, "SparseTensorDenseAdd",
                               {int64s(b, {0, 1, 1, 2, 0, 1}, {3, 2}), in[0], int64s(b, {2, 3}, {2}), in[1]});
                       });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    void structuralOps()
    {
        // Rows 1 and 4 of [5, 6] are empty: default_value's gradient sums two output gradients.
        m_checks.check("SparseFillEmptyRows",
                       {filled({4}, signedAwayFromKinks), filled(TensorShape::scalar(), positive)},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return outputOfOp(
                               b, "SparseFillEmptyRows",
                               {int64s(b, {0, 1, 0, 3, 2, 0, 3, 1}, {4, 2}), in[0], int64s(b, {5, 6}, {2}), in[1]}, 1);
                       });
        m_checks.check("SparseReorder", {filled({4}, signedAwayFromKinks)},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return outputOfOp(
                               b, "SparseReorder",
                               {int64s(b, {0, 3, 0, 1, 3, 1, 2, 0}, {4, 2}), in[0], int64s(b, {4, 5}, {2})}, 1);
                       });
        m_checks.check("SparseSlice", {filled({5}, signedAwayFromKinks)},
                       [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                           return outputOfOp(b, "SparseSlice",
                                             {int64s(b, {0, 2, 0, 4, 0, 5, 1, 0, 1, 1}, {5, 2}), in[0],
                                              int64s(b, {2, 7}, {2}), int64s(b, {0, 4}, {2}), int64s(b, {2, 3}, {2})},
                                             1);
                       });
        // Values pass through sparse_reshape's Identity into a product with a dense matrix.
        m_checks.check(
            "sparse_reshape then sparse_tensor_dense_matmul", {filled({3}, signedAwayFromKinks)},
            [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                TSTUDIO_AD_TRY(indices, int64s(b, {0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1}, {3, 4}));
                TSTUDIO_AD_TRY(sp, sparse::makeSparseTensor(b, indices, in[0], {2, 2, 3, 2}));
                TSTUDIO_AD_TRY(flat, sparse::sparseReshape(b, sp, std::vector<std::int64_t>{4, -1}));
                TSTUDIO_AD_TRY(dense, ops::constant(b, std::vector<double>{0.5, -1.0, 2.0, 1.5, -0.5, 0.25}, {6, 1}));
                return sparse::sparseTensorDenseMatmul(b, flat, dense);
            });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// The nodes _SparseTensorDenseMatMulGrad and _SparseSegmentSumGrad build.
    void gradientNodes()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto values = ops::placeholder(b, tf::DT_FLOAT, {2}, "values");
        auto dense = ops::placeholder(b, tf::DT_FLOAT, {3, 4}, "b");
        auto indices = int64s(b, {0, 1, 1, 2}, {2, 2});
        auto shape = int64s(b, {2, 3}, {2});
        auto product = b.op("SparseTensorDenseMatMul", {*indices, *values, *shape, *dense});
        QVERIFY2(product, err(product));
        auto grads = addSymbolicGradients(b, {product->output(0)}, {*values, *dense});
        QVERIFY2(grads, err(grads));
        QCOMPARE(
            nodeOpsUnder(b, "gradients/SparseTensorDenseMatMul_grad/"),
            (std::vector<std::string>{
                "SparseTensorDenseMatMul=SparseTensorDenseMatMul", "strided_slice/stack=Const",
                "strided_slice/stack_1=Const", "strided_slice/stack_2=Const", "strided_slice=StridedSlice",
                "strided_slice_1/stack=Const", "strided_slice_1/stack_1=Const", "strided_slice_1/stack_2=Const",
                "strided_slice_1=StridedSlice", "GatherV2/axis=Const", "GatherV2=GatherV2", "GatherV2_1/axis=Const",
                "GatherV2_1=GatherV2", "mul=Mul", "Sum/reduction_indices=Const", "Sum=Sum"}));
        QVERIFY(
            b.findNode("gradients/SparseTensorDenseMatMul_grad/SparseTensorDenseMatMul")->attr().at("adjoint_a").b());

        auto data = ops::placeholder(b, tf::DT_FLOAT, {5, 3}, "data");
        auto sum = b.op("SparseSegmentSum", {*data, *int32s(b, {0, 4}, {2}), *int32s(b, {0, 1}, {2})});
        QVERIFY2(sum, err(sum));
        auto g2 = addSymbolicGradients(b, {sum->output(0)}, {*data});
        QVERIFY2(g2, err(g2));
        // shape(data) is known: a constant "Shape", then [0], the gather of grad and the segment sum.
        QCOMPARE(nodeOpsUnder(b, "gradients_1/SparseSegmentSum_grad/"),
                 (std::vector<std::string>{"Shape=Const", "strided_slice/stack=Const", "strided_slice/stack_1=Const",
                                           "strided_slice/stack_2=Const", "strided_slice=StridedSlice",
                                           "GatherV2/axis=Const", "GatherV2=GatherV2",
                                           "UnsortedSegmentSum=UnsortedSegmentSum"}));
    }

    void notDifferentiable()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto values = ops::placeholder(b, tf::DT_FLOAT, {2}, "values");
        auto indices = int64s(b, {0, 1, 1, 0}, {2, 2});
        auto shape = int64s(b, {2, 2}, {2});
        auto concat = b.op("SparseConcat",
                           {std::vector<Output>{*indices, *indices}, std::vector<Output>{*values, *values},
                            std::vector<Output>{*shape, *shape}},
                           {{"concat_dim", attr::i(0)}});
        QVERIFY2(concat, err(concat));
        auto grads = addSymbolicGradients(b, {concat->output(1)}, {*values});
        QVERIFY2(grads, err(grads));
        QVERIFY(!(*grads)[0].has_value());
        for (const char* op : {"SparseConcat", "SparseReshape", "SparseAddGrad", "SparseSliceGrad",
                               "SparseFillEmptyRowsGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"}) {
            const OpRegistration* r = m_checks.registries().ops.find(op);
            QVERIFY2(r && r->notDifferentiable && !r->gradient, op);
        }
    }
};

QTEST_GUILESS_MAIN(TestSparseGrad)
#include "test_sparse_grad.moc"
