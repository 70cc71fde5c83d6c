// Tests for ReverseSequence and DynamicPartition (engine/kernels/array/reverse_sequence_cpu.cpp,
// dynamic_partition_cpu.cpp): NumPy golden cases with TensorFlow's errors (tools/golden/array_sequence.py),
// strings, a large case on 1 and 4 threads against a loop written here, the shape functions one line per
// case, and both gradients against central differences with the ops TensorFlow 1.15's gradient functions emit.
#include "autodiff/gradients.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "devices/cpu/cpu_device.h"
#include "gradient_test_support.h"
#include "kernels/kernels.h"
#include "ops/ops.h"
#include "registries/register_all_ops.h"

#include "kernel_harness.h"
#include "shape_fn_testing.h"

#include <QTest>

#include <set>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerArrayOps, registerDataFlowOps}, {registerArrayCpuKernels});
}

const char* err(const Status& s)
{
    static std::string text;
    text = s.toString();
    return text.c_str();
}

/// Distinct values away from 0 (period 11), so a misplaced element changes the gradient.
double distinct(std::int64_t i)
{
    return (i % 2 ? -1.0 : 1.0) * (0.3 + 0.41 * double(i % 11));
}

/// sum_p (p + 1) * (outputs[p] summed over its rows), for the partitions in `used`.
Expected<Output> weightedPartitions(GraphBuilder& b, const Operation& op, const std::vector<int>& used)
{
    std::optional<Output> total;
    for (int p : used) {
        TSTUDIO_AD_TRY(c, ops::constant(b, double(p + 1), op.output(p).baseDtype()));
        TSTUDIO_AD_TRY(term, ops::mul(b, op.output(p), c));
        TSTUDIO_AD_TRY(axes, ops::constantInts(b, {0}, TensorShape{1}));
        TSTUDIO_AD_TRY(s, ops::sum(b, term, axes));
        if (total) {
            TSTUDIO_AD_TRY(sum, ops::add(b, *total, s));
            total = sum;
        } else {
            total = s;
        }
    }
    return *total;
}

} // namespace

class TestSequenceKernels : public QObject {
    Q_OBJECT

private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        const QString failures = goldenFailures(h.get(), "array_sequence.json", CaseCount::exactly(31));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    void strings()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor words = tensor<std::string>(h->allocator(), TensorShape{2, 3}, {"a", "b", "c", "d", "e", "f"});
        const Tensor lengths = tensor<std::int32_t>(h->allocator(), TensorShape{2}, {2, 3});
        auto rs = h->run("op: 'ReverseSequence' attr { key: 'T' value { type: DT_STRING } } "
                         "attr { key: 'Tlen' value { type: DT_INT32 } } attr { key: 'seq_dim' value { i: 1 } }",
                         {words, lengths});
        QVERIFY2(rs, rs ? "" : err(rs.error()));
        const auto r = (*rs)[0].strings();
        QCOMPARE(std::vector<std::string>(r.begin(), r.end()),
                 (std::vector<std::string>{"b", "a", "c", "f", "e", "d"}));

        const Tensor partitions = tensor<std::int32_t>(h->allocator(), TensorShape{2}, {1, 0});
        auto dp = h->run("op: 'DynamicPartition' attr { key: 'T' value { type: DT_STRING } } "
                         "attr { key: 'num_partitions' value { i: 3 } }",
                         {words, partitions});
        QVERIFY2(dp, dp ? "" : err(dp.error()));
        QCOMPARE(dp->size(), std::size_t(3));
        QCOMPARE((*dp)[0].shape(), (TensorShape{1, 3}));
        QCOMPARE((*dp)[1].shape(), (TensorShape{1, 3}));
        QCOMPARE((*dp)[2].shape(), (TensorShape{0, 3}));
        const auto p0 = (*dp)[0].strings();
        const auto p1 = (*dp)[1].strings();
        QCOMPARE(std::vector<std::string>(p0.begin(), p0.end()), (std::vector<std::string>{"d", "e", "f"}));
        QCOMPARE(std::vector<std::string>(p1.begin(), p1.end()), (std::vector<std::string>{"a", "b", "c"}));
    }

    /// A [7, 301, 33] time-major batch (seq_dim 0, batch_dim 1) with ragged lengths: the same on 1 and 4
    /// threads and equal to an element-by-element loop.
    void largeReverseIsThreadIndependent()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::int64_t time = 7, batch = 301, depth = 33;
        std::vector<float> values(static_cast<std::size_t>(time * batch * depth));
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = float(i);
        std::vector<std::int64_t> lengthValues(static_cast<std::size_t>(batch));
        for (std::int64_t b = 0; b < batch; ++b)
            lengthValues[static_cast<std::size_t>(b)] = (b * 5) % (time + 1);
        const Tensor in = tensor<float>(h->allocator(), TensorShape{time, batch, depth}, values);
        const Tensor lengths = tensor<std::int64_t>(h->allocator(), TensorShape{batch}, lengthValues);
        const char* text = "op: 'ReverseSequence' attr { key: 'T' value { type: DT_FLOAT } } "
                           "attr { key: 'seq_dim' value { i: 0 } } attr { key: 'batch_dim' value { i: 1 } }";
        CpuDevice one(0, 1);
        CpuDevice four(0, 4);
        auto a = h->runOn(one, text, {in, lengths});
        auto b = h->runOn(four, text, {in, lengths});
        QVERIFY2(a && b, "ReverseSequence failed");
        const auto x = (*a)[0].values<float>();
        const auto y = (*b)[0].values<float>();
        QVERIFY(std::equal(x.begin(), x.end(), y.begin(), y.end()));
        for (std::int64_t t = 0; t < time; ++t)
            for (std::int64_t n = 0; n < batch; ++n) {
                const std::int64_t len = lengthValues[static_cast<std::size_t>(n)];
                const std::int64_t from = t < len ? len - 1 - t : t;
                for (std::int64_t d = 0; d < depth; ++d)
                    QCOMPARE(x[static_cast<std::size_t>((t * batch + n) * depth + d)],
                             values[static_cast<std::size_t>((from * batch + n) * depth + d)]);
            }
    }

    /// TensorFlow 1.15's ArrayOpsTest.ReverseSequence_ShapeFn and DataFlowOpsTest.DynamicPartition cases.
    void shapeFunctions()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const OpRegistry& r = h->ops();
        INFER_OK(r, "ReverseSequence", "seq_dim=1;batch_dim=2", "?;[10]", "?");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 2", "ReverseSequence", "seq_dim=1;batch_dim=2", "?;[10,10]");
        INFER_ERROR(r, "batch_dim must be < input rank: 4 vs. 3", "ReverseSequence", "seq_dim=1;batch_dim=4",
                    "[1,2,3];[3]");
        INFER_ERROR(r, "seq_dim must be < input rank: 4 vs. 3", "ReverseSequence", "seq_dim=4;batch_dim=1",
                    "[1,2,3];[3]");
        INFER_OK(r, "ReverseSequence", "seq_dim=1;batch_dim=2", "[1,2,3];[3]", "[1,2,3]");
        INFER_OK(r, "ReverseSequence", "seq_dim=1;batch_dim=2", "[1,2,?];[3]", "[1,2,3]");
        INFER_OK(r, "ReverseSequence", "seq_dim=1;batch_dim=2", "[1,2,3];[?]", "[1,2,3]");
        INFER_OK(r, "ReverseSequence", "seq_dim=1", "[?,?,5];[4]", "[4,?,5]");
        INFER_ERROR(r, "Dimensions must be equal, but are 3 and 4", "ReverseSequence", "seq_dim=1", "[3,2];[4]");

        INFER_OK(r, "DynamicPartition", "T=float;num_partitions=4", "[6,3];[6]", "[?,3];[?,3];[?,3];[?,3]");
        INFER_OK(r, "DynamicPartition", "T=float;num_partitions=2", "?;[?]", "?;?");
        INFER_OK(r, "DynamicPartition", "T=float;num_partitions=2", "[?,3,4];?", "?;?");
        INFER_OK(r, "DynamicPartition", "T=float;num_partitions=2", "[2,3,4];[2,3]", "[?,4];[?,4]");
        INFER_OK(r, "DynamicPartition", "T=float;num_partitions=1", "[2];[]", "[?,2]");
        INFER_OK(r, "DynamicPartition", "T=float;num_partitions=3", "[5];[5]", "[?];[?];[?]");
        INFER_ERROR(r, "Dimensions must be equal, but are 4 and 3", "DynamicPartition", "T=float;num_partitions=2",
                    "[4,2];[3]");
        INFER_ERROR(r, "Shape must be at least rank 2 but is rank 1", "DynamicPartition", "T=float;num_partitions=2",
                    "[4];[4,1]");
    }

    /// The OpDefs as TensorFlow 1.15 registers them.
    void opDefinitions()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const OpRegistration* rs = h->ops().find("ReverseSequence");
        QVERIFY(rs != nullptr);
        const tf::OpDef& r = rs->opDef;
        QCOMPARE(r.input_arg_size(), 2);
        QCOMPARE(r.input_arg(1).name(), std::string("seq_lengths"));
        QCOMPARE(r.input_arg(1).type_attr(), std::string("Tlen"));
        std::set<std::string> attrs;
        for (const auto& a : r.attr()) {
            attrs.insert(a.name());
            if (a.name() == "batch_dim")
                QCOMPARE(a.default_value().i(), std::int64_t(0));
            if (a.name() == "Tlen") {
                QCOMPARE(a.default_value().type(), tf::DT_INT64);
                QCOMPARE(a.allowed_values().list().type_size(), 2);
            }
            if (a.name() == "seq_dim")
                QVERIFY(!a.has_default_value());
        }
        QCOMPARE(attrs, (std::set<std::string>{"seq_dim", "batch_dim", "T", "Tlen"}));
        QVERIFY(static_cast<bool>(rs->shapeFunction));

        const OpRegistration* dp = h->ops().find("DynamicPartition");
        QVERIFY(dp != nullptr);
        const tf::OpDef& d = dp->opDef;
        QCOMPARE(d.input_arg(1).type(), tf::DT_INT32);
        QCOMPARE(d.output_arg(0).name(), std::string("outputs"));
        QCOMPARE(d.output_arg(0).number_attr(), std::string("num_partitions"));
        QCOMPARE(d.attr(0).name(), std::string("num_partitions"));
        QVERIFY(d.attr(0).has_minimum());
        QCOMPARE(d.attr(0).minimum(), std::int64_t(1));
        QVERIFY(static_cast<bool>(dp->shapeFunction));
    }

    void gradientsMatchCentralDifferences()
    {
        GradientChecks checks;
        QCOMPARE(checks.start(), std::string());
        struct RsCase {
            const char* name;
            TensorShape shape;
            std::vector<std::int64_t> lengths;
            int seqDim;
            int batchDim;
            DataType tlen;
        };
        const std::vector<RsCase> cases = {
            {"ReverseSequence batch-major int64", {3, 4, 2}, {4, 1, 0}, 1, 0, tf::DT_INT64},
            {"ReverseSequence time-major int32", {4, 3, 2}, {2, 4, 3}, 0, 1, tf::DT_INT32},
            {"ReverseSequence batch after seq", {3, 2, 2}, {3, 1}, 0, 2, tf::DT_INT64},
        };
        for (const RsCase& c : cases) {
            for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
                checks.check(
                    QString(c.name) + (dtype == tf::DT_DOUBLE ? " double" : " float"),
                    {filled(dtype, c.shape, distinct)},
                    [&c](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(
                            len, ops::constantInts(b, c.lengths, TensorShape{std::int64_t(c.lengths.size())}, c.tlen));
                        return outputOf(b.op("ReverseSequence", {x[0], len},
                                             {{"seq_dim", attr::i(c.seqDim)}, {"batch_dim", attr::i(c.batchDim)}}));
                    });
            }
        }
        // Rows of [6, 3] into 4 partitions, one of them unused (it receives zeros).
        checks.check("DynamicPartition rows, partition 3 unused", {filled(tf::DT_DOUBLE, {6, 3}, distinct)},
                     [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                         TSTUDIO_AD_TRY(p, ops::constantInts(b, {0, 0, 2, 3, 2, 1}, TensorShape{6}));
                         TSTUDIO_AD_TRY(op, b.op("DynamicPartition", {x[0], p}, {{"num_partitions", attr::i(4)}}));
                         return weightedPartitions(b, op, {0, 1, 2});
                     });
        // Matrix partitions over [2, 3, 2]; an empty partition.
        checks.check("DynamicPartition matrix partitions", {filled(tf::DT_DOUBLE, {2, 3, 2}, distinct)},
                     [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                         TSTUDIO_AD_TRY(p, ops::constantInts(b, {2, 0, 2, 0, 2, 2}, TensorShape{2, 3}));
                         TSTUDIO_AD_TRY(op, b.op("DynamicPartition", {x[0], p}, {{"num_partitions", attr::i(4)}}));
                         return weightedPartitions(b, op, {0, 1, 2, 3});
                     });
        QVERIFY2(checks.failures.isEmpty(), qPrintable(checks.failures.join('\n')));
        QVERIFY(checks.cases >= 8);
    }

    /// The gradient functions emit TensorFlow 1.15's ops: ReverseSequence with the forward attrs, and
    /// range/Reshape/DynamicPartition/ParallelDynamicStitch/Reshape for DynamicPartition.
    void gradientGraphs()
    {
        GradientChecks checks;
        QCOMPARE(checks.start(), std::string());
        GraphBuilder b(checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 5, 3}, "x");
        auto len = ops::constantInts(b, {5, 2}, TensorShape{2}, tf::DT_INT32, "len");
        auto rs = b.op("ReverseSequence", {*x, *len}, {{"seq_dim", attr::i(1)}, {"batch_dim", attr::i(0)}}, "rs");
        QVERIFY2(rs, rs ? "" : err(rs.error()));
        auto p = ops::constantInts(b, {1, 0}, TensorShape{2}, tf::DT_INT32, "p");
        auto dp = b.op("DynamicPartition", {rs->output(0), *p}, {{"num_partitions", attr::i(2)}}, "dp");
        QVERIFY2(dp, dp ? "" : err(dp.error()));
        auto loss = ops::add(b, dp->output(0), dp->output(1));
        QVERIFY2(loss, loss ? "" : err(loss.error()));
        auto grads = addSymbolicGradients(b, {*loss}, {*x});
        QVERIFY2(grads, grads ? "" : err(grads.error()));
        QCOMPARE(opOf(b, "gradients/rs_grad/ReverseSequence"), std::string("ReverseSequence"));
        const tf::NodeDef* g = b.findNode("gradients/rs_grad/ReverseSequence");
        QCOMPARE(g->attr().at("seq_dim").i(), std::int64_t(1));
        QCOMPARE(g->attr().at("batch_dim").i(), std::int64_t(0));
        QCOMPARE(g->attr().at("Tlen").type(), tf::DT_INT32);
        QCOMPARE(inputsOf(b, "gradients/rs_grad/ReverseSequence")[1], std::string("len"));
        QCOMPARE(opOf(b, "gradients/dp_grad/DynamicPartition"), std::string("DynamicPartition"));
        QCOMPARE(opOf(b, "gradients/dp_grad/ParallelDynamicStitch"), std::string("ParallelDynamicStitch"));
        QCOMPARE(opOf(b, "gradients/dp_grad/range"), std::string("Range"));
        QCOMPARE(opOf(b, "gradients/dp_grad/Prod"), std::string("Prod"));
        QCOMPARE(inputsOf(b, "gradients/dp_grad/DynamicPartition"),
                 (std::vector<std::string>{"gradients/dp_grad/Reshape", "p"}));
        QCOMPARE(inputsOf(b, "gradients/dp_grad/Reshape_1")[0], std::string("gradients/dp_grad/ParallelDynamicStitch"));
    }
};

QTEST_GUILESS_MAIN(TestSequenceKernels)
#include "test_sequence_kernels.moc"
