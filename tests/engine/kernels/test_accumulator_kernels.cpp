// Tests for the conditional accumulators (ConditionalAccumulator and its Resource and Sparse forms):
// means and sums checked against hand computations, stale gradients dropped, the global step a take
// advances, takes that wait for applies of other runs (and wake on a deadline or Session::close),
// and the errors' words with the node named.
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "built_graph.h"

#include <QtTest>

#include <chrono>
#include <future>
#include <thread>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

using testing::mustOp;

Output placeholder(GraphBuilder& b, DataType dtype, std::string_view name)
{
    return mustOp(b.op("Placeholder", {}, {{"dtype", attr::type(dtype)}}, name)).output(0);
}

template <typename T> Tensor values(const TensorShape& shape, const std::vector<T>& data)
{
    static CpuAllocator allocator;
    auto t = Tensor::fromVector<T>(allocator, shape, data);
    if (!t)
        qFatal("%s", t.error().toString().c_str());
    return *t;
}

template <typename T> std::vector<T> elements(const Tensor& t)
{
    auto span = t.values<T>();
    return {span.begin(), span.end()};
}

bool contains(const Status& s, std::string_view text)
{
    return s.message().find(text) != std::string::npos;
}

/// The accumulator ops of one kind around one accumulator "acc": "apply" (local step "step" and
/// gradient "g" fed; the sparse form "indices", "values", "shape"), "take" (num_required "n"),
/// "count", "set_step" (fed "new_step").
enum class Kind { kRef, kResource, kSparse };

} // namespace

class TestAccumulatorKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    std::unique_ptr<Session> session(const GraphBuilder& b)
    {
        return testing::mustSession(m_registries->ops, m_registries->kernels, b);
    }

    void build(GraphBuilder& b, Kind kind, const TensorShape& shape, const char* reduction = "MEAN",
               DataType dtype = tf::DT_FLOAT)
    {
        const char* create = kind == Kind::kRef        ? "ConditionalAccumulator"
                             : kind == Kind::kResource ? "ResourceConditionalAccumulator"
                                                       : "SparseConditionalAccumulator";
        auto acc = mustOp(b.op(create, {},
                               {{"dtype", attr::type(dtype)},
                                {"shape", attr::shape(shape)},
                                {"shared_name", attr::s("w:0/grad_accum")},
                                {"reduction_type", attr::s(reduction)}},
                               "acc"));
        const Output handle = acc.output(0);
        const Output step = placeholder(b, tf::DT_INT64, "step");
        const Output n = placeholder(b, tf::DT_INT32, "n");
        const Output newStep = placeholder(b, tf::DT_INT64, "new_step");
        const std::string prefix = kind == Kind::kResource ? "Resource" : "";
        if (kind == Kind::kSparse) {
            mustOp(b.op("SparseAccumulatorApplyGradient",
                        {handle, step, placeholder(b, tf::DT_INT64, "indices"), placeholder(b, dtype, "values"),
                         placeholder(b, tf::DT_INT64, "shape")},
                        {{"has_known_shape", attr::b(true)}}, "apply"));
            mustOp(b.op("SparseAccumulatorTakeGradient", {handle, n}, {{"dtype", attr::type(dtype)}}, "take"));
        } else {
            mustOp(b.op(prefix + "AccumulatorApplyGradient", {handle, step, placeholder(b, dtype, "g")}, {}, "apply"));
            mustOp(b.op(prefix + "AccumulatorTakeGradient", {handle, n}, {{"dtype", attr::type(dtype)}}, "take"));
        }
        mustOp(b.op(prefix + "AccumulatorNumAccumulated", {handle}, {}, "count"));
        mustOp(b.op(prefix + "AccumulatorSetGlobalStep", {handle, newStep}, {}, "set_step"));
    }

    static Status apply(Session& s, std::int64_t step, const std::vector<float>& g, const TensorShape& shape)
    {
        return s.run({{"step", values<std::int64_t>(TensorShape::scalar(), {step})}, {"g", values<float>(shape, g)}},
                     {}, {"apply"}, nullptr);
    }

    static Status applySparse(Session& s, std::int64_t step, const std::vector<std::int64_t>& rows,
                              const std::vector<float>& v, std::int64_t cols)
    {
        const auto n = static_cast<std::int64_t>(rows.size());
        return s.run({{"step", values<std::int64_t>(TensorShape::scalar(), {step})},
                      {"indices", values<std::int64_t>(TensorShape({n}), rows)},
                      {"values", values<float>(TensorShape({n, cols}), v)},
                      {"shape", values<std::int64_t>(TensorShape({2}), {10, cols})}},
                     {}, {"apply"}, nullptr);
    }

    static std::int32_t count(Session& s)
    {
        std::vector<Tensor> out;
        if (Status st = s.run({}, {"count:0"}, {}, &out); !st.isOk())
            qFatal("%s", st.toString().c_str());
        return out[0].scalar<std::int32_t>();
    }

    static Expected<Tensor> take(Session& s, std::int32_t n, const tf::RunOptions* options = nullptr)
    {
        std::vector<Tensor> out;
        Status st = options ? s.run(*options, {{"n", values<std::int32_t>(TensorShape::scalar(), {n})}}, {"take:0"}, {},
                                    &out, nullptr)
                            : s.run({{"n", values<std::int32_t>(TensorShape::scalar(), {n})}}, {"take:0"}, {}, &out);
        if (!st.isOk())
            return unexpected(st);
        return out[0];
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    void opDefinitionsAreTensorFlows()
    {
        const OpRegistration* op = m_registries->ops.find("ConditionalAccumulator");
        QVERIFY(op);
        QCOMPARE(op->opDef.output_arg(0).type(), tf::DT_STRING);
        QVERIFY(op->opDef.output_arg(0).is_ref());
        QVERIFY(op->opDef.is_stateful());
        QCOMPARE(op->opDef.attr_size(), 5);
        QCOMPARE(op->opDef.attr(4).name(), std::string("reduction_type"));
        QCOMPARE(op->opDef.attr(4).default_value().s(), std::string("MEAN"));
        QCOMPARE(op->opDef.attr(4).allowed_values().list().s_size(), 2);
        const OpRegistration* resource = m_registries->ops.find("ResourceAccumulatorTakeGradient");
        QVERIFY(resource);
        QCOMPARE(resource->opDef.input_arg(0).type(), tf::DT_RESOURCE);
        QVERIFY(!resource->opDef.is_stateful()); // as TensorFlow: only the creating ops are stateful
        const OpRegistration* sparse = m_registries->ops.find("SparseAccumulatorApplyGradient");
        QVERIFY(sparse);
        QCOMPARE(sparse->opDef.input_arg_size(), 5);
        QCOMPARE(sparse->opDef.attr(1).name(), std::string("has_known_shape"));
        for (const char* name : {"ConditionalAccumulator", "AccumulatorApplyGradient", "AccumulatorTakeGradient",
                                 "ResourceConditionalAccumulator", "SparseAccumulatorTakeGradient",
                                 "AccumulatorNumAccumulated", "ResourceAccumulatorSetGlobalStep"})
            QVERIFY2(m_registries->ops.find(name)->notDifferentiable, name);
    }

    void meanOfTheAppliedGradients_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("ref") << int(Kind::kRef);
        QTest::newRow("resource") << int(Kind::kResource);
    }

    void meanOfTheAppliedGradients()
    {
        QFETCH(int, kind);
        GraphBuilder b(m_registries->ops);
        build(b, Kind(kind), TensorShape({2}));
        auto s = session(b);
        QVERIFY(apply(*s, 0, {1.0f, 2.0f}, TensorShape({2})).isOk());
        QVERIFY(apply(*s, 0, {3.0f, -6.0f}, TensorShape({2})).isOk());
        QVERIFY(apply(*s, 1, {0.5f, 0.25f}, TensorShape({2})).isOk()); // newer than the step: accepted
        QCOMPARE(count(*s), 3);
        auto mean = take(*s, 3);
        QVERIFY2(mean, mean ? "" : mean.error().toString().c_str());
        // (1 + 3 + 0.5) / 3, (2 - 6 + 0.25) / 3
        QCOMPARE(elements<float>(*mean), (std::vector<float>{4.5f / 3.0f, -3.75f / 3.0f}));
        QCOMPARE(count(*s), 0);
        // The take advanced the accumulator's step to 1: a gradient of step 0 is now stale.
        QVERIFY(apply(*s, 0, {9.0f, 9.0f}, TensorShape({2})).isOk());
        QCOMPARE(count(*s), 0);
        QVERIFY(apply(*s, 1, {2.0f, 4.0f}, TensorShape({2})).isOk());
        QCOMPARE(count(*s), 1);
        mean = take(*s, 1);
        QVERIFY(mean);
        QCOMPARE(elements<float>(*mean), (std::vector<float>{2.0f, 4.0f}));
    }

    void sumReductionAndSetGlobalStep()
    {
        GraphBuilder b(m_registries->ops);
        build(b, Kind::kResource, TensorShape({2}), "SUM");
        auto s = session(b);
        QVERIFY(
            s->run({{"new_step", values<std::int64_t>(TensorShape::scalar(), {5})}}, {}, {"set_step"}, nullptr).isOk());
        QVERIFY(apply(*s, 4, {1.0f, 1.0f}, TensorShape({2})).isOk()); // stale: dropped without checks
        QVERIFY(apply(*s, 4, {1.0f}, TensorShape({1})).isOk());       // stale and misshapen: dropped too
        QCOMPARE(count(*s), 0);
        QVERIFY(apply(*s, 5, {1.0f, 2.0f}, TensorShape({2})).isOk());
        QVERIFY(apply(*s, 7, {10.0f, 20.0f}, TensorShape({2})).isOk());
        auto sum = take(*s, 2);
        QVERIFY(sum);
        QCOMPARE(elements<float>(*sum), (std::vector<float>{11.0f, 22.0f}));
    }

    void takeWaitsForTheAppliesOfOtherRuns()
    {
        GraphBuilder b(m_registries->ops);
        build(b, Kind::kResource, TensorShape({1}));
        auto s = session(b);
        auto taken = std::async(std::launch::async, [&] { return take(*s, 2); });
        QVERIFY(apply(*s, 0, {1.0f}, TensorShape({1})).isOk());
        QCOMPARE(taken.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
        QVERIFY(apply(*s, 0, {4.0f}, TensorShape({1})).isOk());
        // Served by the apply that satisfied it: a later apply of step 0 is already stale.
        QVERIFY(apply(*s, 0, {100.0f}, TensorShape({1})).isOk());
        auto mean = taken.get();
        QVERIFY2(mean, mean ? "" : mean.error().toString().c_str());
        QCOMPARE(elements<float>(*mean), (std::vector<float>{2.5f}));
        QCOMPARE(count(*s), 0);
    }

    void waitingTakeEndsAtTheDeadlineAndOnClose()
    {
        GraphBuilder b(m_registries->ops);
        build(b, Kind::kRef, TensorShape({1}));
        auto s = session(b);
        tf::RunOptions options;
        options.set_timeout_in_ms(50);
        auto late = take(*s, 1, &options);
        QVERIFY(!late);
        QCOMPARE(late.error().code(), StatusCode::kDeadlineExceeded);
        QVERIFY2(contains(late.error(), "accumulator 'w:0/grad_accum'"), late.error().toString().c_str());
        QVERIFY2(contains(late.error(), "node 'take'"), late.error().toString().c_str());
        // The abandoned take is gone: an apply is not handed to it.
        QVERIFY(apply(*s, 0, {3.0f}, TensorShape({1})).isOk());
        QCOMPARE(count(*s), 1);
        QVERIFY(take(*s, 1));

        auto waiting = std::async(std::launch::async, [&] { return take(*s, 1); });
        QCOMPARE(waiting.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
        s->close();
        QCOMPARE(waiting.wait_for(std::chrono::seconds(5)), std::future_status::ready);
        auto closed = waiting.get();
        QVERIFY(!closed);
        QCOMPARE(closed.error().code(), StatusCode::kCancelled);
    }

    void sparseRowsAreAveragedOverTheGradientsThatHaveThem()
    {
        GraphBuilder b(m_registries->ops);
        build(b, Kind::kSparse, TensorShape::scalar()); // SyncReplicasOptimizer's shape=()
        auto s = session(b);
        QVERIFY(applySparse(*s, 0, {1, 4}, {1, 2, 3, 4}, 2).isOk());
        QVERIFY(applySparse(*s, 0, {0, 4}, {10, 20, 30, 40}, 2).isOk());
        std::vector<Tensor> out;
        Status st =
            s->run({{"n", values<std::int32_t>(TensorShape::scalar(), {2})}}, {"take:0", "take:1", "take:2"}, {}, &out);
        QVERIFY2(st.isOk(), st.toString().c_str());
        QCOMPARE(elements<std::int64_t>(out[0]), (std::vector<std::int64_t>{0, 1, 4}));
        // Row 0 from the second only, row 1 from the first only, row 4 the mean of both.
        QCOMPARE(elements<float>(out[1]), (std::vector<float>{10, 20, 1, 2, 33.0f / 2, 44.0f / 2}));
        // The first dimension of an accumulator without a known shape is -1, as TensorFlow's.
        QCOMPARE(elements<std::int64_t>(out[2]), (std::vector<std::int64_t>{-1, 2}));
    }

    void sparseShapeIsChecked()
    {
        GraphBuilder b(m_registries->ops);
        build(b, Kind::kSparse, TensorShape({10, 3}));
        auto s = session(b);
        Status st = applySparse(*s, 0, {1}, {1, 2}, 2);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "Shape mismatch: expected shape dim 1 to be 3, got 2"), st.toString().c_str());
        QVERIFY2(contains(st, "node 'apply'"), st.toString().c_str());
    }

    void errorsNameTheNode()
    {
        GraphBuilder b(m_registries->ops);
        build(b, Kind::kResource, TensorShape({2}));
        auto s = session(b);
        Status st = apply(*s, 0, {1.0f, 2.0f, 3.0f}, TensorShape({3}));
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "Shape mismatch: expected [2], got [3]"), st.toString().c_str());
        QVERIFY2(contains(st, "node 'apply'"), st.toString().c_str());
        QVERIFY(apply(*s, 0, {1.0f, 2.0f}, TensorShape({2})).isOk());
        auto none = take(*s, 0);
        QVERIFY(!none);
        QVERIFY2(contains(none.error(), "Argument num_required must be positive, but was 0"),
                 none.error().toString().c_str());
        st = s->run(
            {{"step", values<std::int64_t>(TensorShape({2}), {0, 0})}, {"g", values<float>(TensorShape({2}), {1, 1})}},
            {}, {"apply"}, nullptr);
        QVERIFY2(contains(st, "Argument local_step must be scalar, but had bad shape [2]"), st.toString().c_str());
    }

    void dtypeMismatchIsRefused()
    {
        GraphBuilder b(m_registries->ops);
        auto acc = mustOp(b.op("ResourceConditionalAccumulator", {},
                               {{"dtype", attr::type(tf::DT_FLOAT)},
                                {"shape", attr::shape(TensorShape({1}))},
                                {"shared_name", attr::s("a")}},
                               "acc"));
        mustOp(b.op("ResourceAccumulatorApplyGradient",
                    {acc.output(0), placeholder(b, tf::DT_INT64, "step"), placeholder(b, tf::DT_DOUBLE, "g")}, {},
                    "apply"));
        auto s = session(b);
        Status st = s->run({{"step", values<std::int64_t>(TensorShape::scalar(), {0})},
                            {"g", values<double>(TensorShape({1}), {1.0})}},
                           {}, {"apply"}, nullptr);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "accumulator 'a' holds float, the op's dtype is double"), st.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestAccumulatorKernels)
#include "test_accumulator_kernels.moc"
