// Tests for the queue kernels (FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2, enqueue,
// dequeue, close, size, CountUpTo): order, batching, padding, seeded shuffling, close semantics,
// dtype/shape errors, and waiting across concurrent Session::run calls (woken by an enqueue, a
// close, a timeout, Session::close).
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "kernels/random/philox_random.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "built_graph.h"

#include <QtTest>

#include <chrono>
#include <future>
#include <thread>

using namespace tstudio;
namespace tf = tensorflow;
using Clock = std::chrono::steady_clock;

namespace {

tf::AttrValue shapesAttr(const std::vector<TensorShape>& shapes)
{
    tf::AttrValue value;
    value.mutable_list();
    for (const TensorShape& shape : shapes)
        *value.mutable_list()->add_shape() = shape.toProto();
    return value;
}

Output placeholder(GraphBuilder& b, DataType dtype, std::string_view name)
{
    auto op = b.op("Placeholder", {}, {{"dtype", attr::type(dtype)}}, name);
    if (!op)
        qFatal("%s", op.error().toString().c_str());
    return op->output(0);
}

using testing::mustOp;

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

std::string errorText(const Status& s)
{
    return s.toString();
}

bool contains(const Status& s, std::string_view text)
{
    return s.message().find(text) != std::string::npos;
}

} // namespace

class TestQueueKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    std::unique_ptr<Session> session(const GraphBuilder& b)
    {
        return testing::mustSession(m_registries->ops, m_registries->kernels, b);
    }

    /// A FIFO queue of float scalars named "q" (shared_name "q"), one enqueue fed through "x",
    /// one dequeue, a close, a cancelling close and a size.
    struct ScalarQueue {
        Operation queue, enqueue, dequeue, close, cancel, size;
    };
    ScalarQueue scalarQueue(GraphBuilder& b, std::int64_t capacity = 10, const char* kind = "FIFOQueueV2")
    {
        ScalarQueue q;
        q.queue = mustOp(b.op(kind, {},
                              {{"component_types", attr::types({tf::DT_FLOAT})},
                               {"shapes", shapesAttr({TensorShape::scalar()})},
                               {"capacity", attr::i(capacity)},
                               {"shared_name", attr::s("q")}},
                              "queue"));
        q.enqueue = mustOp(b.op("QueueEnqueueV2", {q.queue.output(0), std::vector<Output>{placeholder(b, tf::DT_FLOAT, "x")}},
                                {}, "enqueue"));
        q.dequeue = mustOp(
            b.op("QueueDequeueV2", {q.queue.output(0)}, {{"component_types", attr::types({tf::DT_FLOAT})}}, "dequeue"));
        q.close = mustOp(b.op("QueueCloseV2", {q.queue.output(0)}, {}, "close"));
        q.cancel = mustOp(
            b.op("QueueCloseV2", {q.queue.output(0)}, {{"cancel_pending_enqueues", attr::b(true)}}, "cancel"));
        q.size = mustOp(b.op("QueueSizeV2", {q.queue.output(0)}, {}, "size"));
        return q;
    }

    static Status enqueueValue(Session& s, float v)
    {
        return s.run({{"x", values<float>(TensorShape::scalar(), {v})}}, {}, {"enqueue"}, nullptr);
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    void fifoDequeuesInEnqueueOrder()
    {
        GraphBuilder b(m_registries->ops);
        scalarQueue(b);
        auto s = session(b);
        for (float v : {3.5f, -1.0f, 8.0f})
            QVERIFY(enqueueValue(*s, v).isOk());
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {"size:0"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<std::int32_t>(), 3);
        std::vector<float> got;
        for (int i = 0; i < 3; ++i) {
            Status st = s->run({}, {"dequeue:0"}, {}, &out);
            QVERIFY2(st.isOk(), errorText(st).c_str());
            got.push_back(out[0].scalar<float>());
        }
        QCOMPARE(got, (std::vector<float>{3.5f, -1.0f, 8.0f}));
    }

    void closedEmptyQueueIsOutOfRangeAndRefusesEnqueues()
    {
        GraphBuilder b(m_registries->ops);
        scalarQueue(b);
        auto s = session(b);
        QVERIFY(enqueueValue(*s, 1.0f).isOk());
        QVERIFY(s->run({}, {}, {"close"}, nullptr).isOk());
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {"dequeue:0"}, {}, &out).isOk()); // what is left still comes out
        QCOMPARE(out[0].scalar<float>(), 1.0f);
        Status st = s->run({}, {"dequeue:0"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        QVERIFY2(contains(st, "FIFOQueue 'q' is closed and has insufficient elements (requested 1, current size 0)"),
                 errorText(st).c_str());
        QVERIFY2(contains(st, "node 'dequeue'"), errorText(st).c_str());
        st = enqueueValue(*s, 2.0f);
        QCOMPARE(st.code(), StatusCode::kCancelled);
        QVERIFY2(contains(st, "FIFOQueue 'q' is closed."), errorText(st).c_str());
    }

    void unsharedQueueIsNamedAfterItsNode()
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("FIFOQueueV2", {}, {{"component_types", attr::types({tf::DT_STRING})}}, "input_producer"));
        mustOp(b.op("QueueCloseV2", {queue.output(0)}, {}, "close"));
        mustOp(b.op("QueueDequeueV2", {queue.output(0)}, {{"component_types", attr::types({tf::DT_STRING})}}, "deq"));
        auto s = session(b);
        QVERIFY(s->run({}, {}, {"close"}, nullptr).isOk());
        std::vector<Tensor> out;
        Status st = s->run({}, {"deq:0"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        // TensorFlow's "_<id>_<node>" name for a queue without shared_name.
        const QRegularExpression name("FIFOQueue '_\\d+_input_producer' is closed and has insufficient elements "
                                      "\\(requested 1, current size 0\\)");
        QVERIFY2(name.match(QString::fromStdString(st.message())).hasMatch(), errorText(st).c_str());
    }

    void enqueueManyAndDequeueManyAndUpTo()
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("FIFOQueueV2", {},
                                 {{"component_types", attr::types({tf::DT_FLOAT, tf::DT_INT32})},
                                  {"shapes", shapesAttr({TensorShape({2}), TensorShape::scalar()})},
                                  {"shared_name", attr::s("pairs")}},
                                 "queue"));
        mustOp(b.op("QueueEnqueueManyV2",
                    {queue.output(0), std::vector<Output>{placeholder(b, tf::DT_FLOAT, "xs"),
                                                          placeholder(b, tf::DT_INT32, "ys")}},
                    {}, "enqueue_many"));
        auto n = ops::constantInts(b, {2}, TensorShape::scalar(), tf::DT_INT32, "n");
        mustOp(b.op("QueueDequeueManyV2", {queue.output(0), *n},
                    {{"component_types", attr::types({tf::DT_FLOAT, tf::DT_INT32})}}, "dequeue_many"));
        auto m = ops::constantInts(b, {5}, TensorShape::scalar(), tf::DT_INT32, "m");
        mustOp(b.op("QueueDequeueUpToV2", {queue.output(0), *m},
                    {{"component_types", attr::types({tf::DT_FLOAT, tf::DT_INT32})}}, "dequeue_up_to"));
        mustOp(b.op("QueueCloseV2", {queue.output(0)}, {}, "close"));
        auto s = session(b);
        Status st = s->run({{"xs", values<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6})},
                            {"ys", values<std::int32_t>(TensorShape({3}), {10, 20, 30})}},
                           {}, {"enqueue_many"}, nullptr);
        QVERIFY2(st.isOk(), errorText(st).c_str());
        std::vector<Tensor> out;
        st = s->run({}, {"dequeue_many:0", "dequeue_many:1"}, {}, &out);
        QVERIFY2(st.isOk(), errorText(st).c_str());
        QCOMPARE(out[0].shape(), TensorShape({2, 2}));
        QCOMPARE(elements<float>(out[0]), (std::vector<float>{1, 2, 3, 4}));
        QCOMPARE(elements<std::int32_t>(out[1]), (std::vector<std::int32_t>{10, 20}));
        QVERIFY(s->run({}, {}, {"close"}, nullptr).isOk());
        // Many: too few once closed, and the element stays for UpTo.
        st = s->run({}, {"dequeue_many:0", "dequeue_many:1"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        QVERIFY2(contains(st, "FIFOQueue 'pairs' is closed and has insufficient elements (requested 2, current size 1)"),
                 errorText(st).c_str());
        st = s->run({}, {"dequeue_up_to:0", "dequeue_up_to:1"}, {}, &out);
        QVERIFY2(st.isOk(), errorText(st).c_str());
        QCOMPARE(out[0].shape(), TensorShape({1, 2}));
        QCOMPARE(elements<float>(out[0]), (std::vector<float>{5, 6}));
        QCOMPARE(elements<std::int32_t>(out[1]), (std::vector<std::int32_t>{30}));
        st = s->run({}, {"dequeue_up_to:0", "dequeue_up_to:1"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        QVERIFY2(contains(st, "(requested 5, current size 0)"), errorText(st).c_str());
    }

    void paddingQueuePadsToTheBatchMaximum()
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("PaddingFIFOQueueV2", {},
                                 {{"component_types", attr::types({tf::DT_INT32, tf::DT_STRING})},
                                  {"shapes", shapesAttr({TensorShape({-1}), TensorShape::scalar()})}},
                                 "queue"));
        mustOp(b.op("QueueEnqueueV2",
                    {queue.output(0), std::vector<Output>{placeholder(b, tf::DT_INT32, "v"),
                                                          placeholder(b, tf::DT_STRING, "tag")}},
                    {}, "enqueue"));
        auto n = ops::constantInts(b, {3}, TensorShape::scalar(), tf::DT_INT32, "n");
        mustOp(b.op("QueueDequeueManyV2", {queue.output(0), *n},
                    {{"component_types", attr::types({tf::DT_INT32, tf::DT_STRING})}}, "dequeue_many"));
        auto s = session(b);
        const std::vector<std::vector<std::int32_t>> rows{{1, 2}, {3}, {4, 5, 6}};
        for (std::size_t i = 0; i < rows.size(); ++i) {
            Status st = s->run({{"v", values<std::int32_t>(TensorShape({static_cast<std::int64_t>(rows[i].size())}), rows[i])},
                                {"tag", values<std::string>(TensorShape::scalar(), {"t" + std::to_string(i)})}},
                               {}, {"enqueue"}, nullptr);
            QVERIFY2(st.isOk(), errorText(st).c_str());
        }
        std::vector<Tensor> out;
        Status st = s->run({}, {"dequeue_many:0", "dequeue_many:1"}, {}, &out);
        QVERIFY2(st.isOk(), errorText(st).c_str());
        QCOMPARE(out[0].shape(), TensorShape({3, 3}));
        QCOMPARE(elements<std::int32_t>(out[0]), (std::vector<std::int32_t>{1, 2, 0, 3, 0, 0, 4, 5, 6}));
        QCOMPARE(elements<std::string>(out[1]), (std::vector<std::string>{"t0", "t1", "t2"}));
    }

    void randomShuffleIsASeededPermutation()
    {
        // RandomShuffleQueue with seed 7, seed2 11: each dequeue takes element (Philox word % size)
        // and moves the last element into its place. The expected order is computed here from the
        // Philox4x32-10 stream (checked against Random123's vectors in test_random_kernels).
        const int count = 20;
        std::vector<float> pool;
        for (int i = 0; i < count; ++i)
            pool.push_back(static_cast<float>(i));
        random::PhiloxRandom parent(7, 11);
        random::SingleSampleAdapter<random::PhiloxRandom> words(&parent);
        std::vector<float> expected;
        while (!pool.empty()) {
            const std::size_t index = words() % pool.size();
            expected.push_back(pool[index]);
            pool[index] = pool.back();
            pool.pop_back();
        }

        auto runOnce = [&]() -> std::vector<float> {
            GraphBuilder b(m_registries->ops);
            auto queue = mustOp(b.op("RandomShuffleQueueV2", {},
                                     {{"component_types", attr::types({tf::DT_FLOAT})},
                                      {"shapes", shapesAttr({TensorShape::scalar()})},
                                      {"capacity", attr::i(50)},
                                      {"min_after_dequeue", attr::i(5)},
                                      {"seed", attr::i(7)},
                                      {"seed2", attr::i(11)}},
                                     "queue"));
            mustOp(b.op("QueueEnqueueManyV2", {queue.output(0), std::vector<Output>{placeholder(b, tf::DT_FLOAT, "xs")}},
                        {}, "enqueue_many"));
            mustOp(b.op("QueueDequeueV2", {queue.output(0)}, {{"component_types", attr::types({tf::DT_FLOAT})}},
                        "dequeue"));
            mustOp(b.op("QueueCloseV2", {queue.output(0)}, {}, "close"));
            auto s = session(b);
            std::vector<float> input;
            for (int i = 0; i < count; ++i)
                input.push_back(static_cast<float>(i));
            if (!s->run({{"xs", values<float>(TensorShape({count}), input)}}, {}, {"enqueue_many"}, nullptr).isOk())
                return {};
            // min_after_dequeue 5 holds 5 back until the close.
            std::vector<float> got;
            std::vector<Tensor> out;
            for (int i = 0; i < count - 5; ++i) {
                if (!s->run({}, {"dequeue:0"}, {}, &out).isOk())
                    return {};
                got.push_back(out[0].scalar<float>());
            }
            tensorflow::RunOptions options;
            options.set_timeout_in_ms(100);
            if (s->run(options, {}, {"dequeue:0"}, {}, &out, nullptr).code() != StatusCode::kDeadlineExceeded)
                return {};
            if (!s->run({}, {}, {"close"}, nullptr).isOk())
                return {};
            for (int i = 0; i < 5; ++i) {
                if (!s->run({}, {"dequeue:0"}, {}, &out).isOk())
                    return {};
                got.push_back(out[0].scalar<float>());
            }
            return got;
        };
        const std::vector<float> first = runOnce();
        QCOMPARE(first, expected);
        QCOMPARE(runOnce(), expected); // reproducible
        std::vector<float> sorted = first;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < count; ++i)
            QCOMPARE(sorted[static_cast<std::size_t>(i)], static_cast<float>(i));
        QVERIFY(first != sorted); // shuffled, not in order
    }

    void wrongDtypeNamesNodeAndComponent()
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("FIFOQueueV2", {}, {{"component_types", attr::types({tf::DT_FLOAT})}}, "queue"));
        mustOp(b.op("QueueEnqueueV2", {queue.output(0), std::vector<Output>{placeholder(b, tf::DT_INT32, "i")}}, {},
                    "bad_enqueue"));
        auto s = session(b);
        Status st = s->run({{"i", values<std::int32_t>(TensorShape::scalar(), {3})}}, {}, {"bad_enqueue"}, nullptr);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "node 'bad_enqueue'"), errorText(st).c_str());
        QVERIFY2(contains(st, "Signature mismatch, have: resource, int32-> expected: resource, float->"),
                 errorText(st).c_str());
        QVERIFY2(contains(st, "component 0 of FIFOQueue '_"), errorText(st).c_str());
        QVERIFY2(contains(st, "is float, the value given is int32"), errorText(st).c_str());
    }

    void wrongShapeIsRejected()
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("FIFOQueueV2", {},
                                 {{"component_types", attr::types({tf::DT_FLOAT})}, {"shapes", shapesAttr({TensorShape({2})})}},
                                 "queue"));
        mustOp(b.op("QueueEnqueueV2", {queue.output(0), std::vector<Output>{placeholder(b, tf::DT_FLOAT, "x")}}, {},
                    "enqueue"));
        mustOp(b.op("QueueEnqueueManyV2", {queue.output(0), std::vector<Output>{placeholder(b, tf::DT_FLOAT, "xs")}},
                    {}, "enqueue_many"));
        auto s = session(b);
        Status st = s->run({{"x", values<float>(TensorShape({3}), {1, 2, 3})}}, {}, {"enqueue"}, nullptr);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "Shape mismatch in tuple component 0. Expected [2], got [3]"), errorText(st).c_str());
        st = s->run({{"xs", values<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6})}}, {}, {"enqueue_many"}, nullptr);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "Shape mismatch in tuple component 0. Expected [?,2], got [2,3]"), errorText(st).c_str());
    }

    void dequeueManyNeedsShapes()
    {
        GraphBuilder b(m_registries->ops);
        auto queue = mustOp(b.op("FIFOQueueV2", {}, {{"component_types", attr::types({tf::DT_FLOAT})}}, "queue"));
        auto n = ops::constantInts(b, {2}, TensorShape::scalar(), tf::DT_INT32, "n");
        mustOp(b.op("QueueDequeueManyV2", {queue.output(0), *n}, {{"component_types", attr::types({tf::DT_FLOAT})}},
                    "dequeue_many"));
        auto s = session(b);
        std::vector<Tensor> out;
        Status st = s->run({}, {"dequeue_many:0"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(st, "FIFOQueue's DequeueMany and DequeueUpTo require the components to have specified shapes."),
                 errorText(st).c_str());
    }

    void blockedDequeueIsWokenByAnEnqueueFromAnotherThread()
    {
        GraphBuilder b(m_registries->ops);
        scalarQueue(b);
        auto s = session(b);
        auto waiting = std::async(std::launch::async, [&] {
            std::vector<Tensor> out;
            Status st = s->run({}, {"dequeue:0"}, {}, &out);
            return std::make_pair(st, st.isOk() ? out[0].scalar<float>() : -1.0f);
        });
        QVERIFY(waiting.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout); // it waits
        QVERIFY(enqueueValue(*s, 42.0f).isOk()); // another run proceeds meanwhile
        QVERIFY(waiting.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        auto [status, value] = waiting.get();
        QVERIFY2(status.isOk(), errorText(status).c_str());
        QCOMPARE(value, 42.0f);
    }

    void closeWakesBlockedDequeueAndCancelsBlockedEnqueue()
    {
        GraphBuilder b(m_registries->ops);
        scalarQueue(b, 1);
        auto s = session(b);
        QVERIFY(enqueueValue(*s, 1.0f).isOk());
        auto blockedEnqueue = std::async(std::launch::async, [&] { return enqueueValue(*s, 2.0f); });
        QVERIFY(blockedEnqueue.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout);
        const auto start = Clock::now();
        QVERIFY(s->run({}, {}, {"cancel"}, nullptr).isOk());
        QVERIFY(blockedEnqueue.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        Status st = blockedEnqueue.get();
        QCOMPARE(st.code(), StatusCode::kCancelled);
        QVERIFY2(contains(st, "Enqueue operation was cancelled"), errorText(st).c_str());
        QVERIFY(Clock::now() - start < std::chrono::seconds(1));

        GraphBuilder b2(m_registries->ops);
        scalarQueue(b2);
        auto s2 = session(b2);
        auto blockedDequeue = std::async(std::launch::async, [&] {
            std::vector<Tensor> out;
            return s2->run({}, {"dequeue:0"}, {}, &out);
        });
        QVERIFY(blockedDequeue.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout);
        QVERIFY(s2->run({}, {}, {"close"}, nullptr).isOk());
        QVERIFY(blockedDequeue.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        QCOMPARE(blockedDequeue.get().code(), StatusCode::kOutOfRange);
    }

    void timeoutOnEmptyQueueIsDeadlineExceeded()
    {
        GraphBuilder b(m_registries->ops);
        scalarQueue(b);
        auto s = session(b);
        tensorflow::RunOptions options;
        options.set_timeout_in_ms(100);
        std::vector<Tensor> out;
        const auto start = Clock::now();
        Status st = s->run(options, {}, {"dequeue:0"}, {}, &out, nullptr);
        const auto took = Clock::now() - start;
        QCOMPARE(st.code(), StatusCode::kDeadlineExceeded);
        QVERIFY2(contains(st, "FIFOQueue 'q'"), errorText(st).c_str());
        QVERIFY(took >= std::chrono::milliseconds(90));
        QVERIFY(took < std::chrono::seconds(2));
        // The queue still works afterwards.
        QVERIFY(enqueueValue(*s, 5.0f).isOk());
        QVERIFY(s->run({}, {"dequeue:0"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<float>(), 5.0f);
    }

    void sessionCloseWakesAWaitingRun()
    {
        GraphBuilder b(m_registries->ops);
        scalarQueue(b);
        auto s = session(b);
        auto waiting = std::async(std::launch::async, [&] {
            std::vector<Tensor> out;
            return s->run({}, {"dequeue:0"}, {}, &out);
        });
        QVERIFY(waiting.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout);
        s->close();
        QVERIFY(waiting.wait_for(std::chrono::seconds(1)) == std::future_status::ready);
        Status st = waiting.get();
        QCOMPARE(st.code(), StatusCode::kCancelled);
        QVERIFY2(contains(st, "Session has been closed."), errorText(st).c_str());
        st = enqueueValue(*s, 1.0f);
        QCOMPARE(st.code(), StatusCode::kFailedPrecondition);
        QVERIFY2(contains(st, "Attempted to use a closed Session."), errorText(st).c_str());
    }

    void countUpToStopsAtItsLimit()
    {
        GraphBuilder b(m_registries->ops);
        auto var = mustOp(b.op("VariableV2", {}, {{"dtype", attr::type(tf::DT_INT64)}, {"shape", attr::shape(TensorShape::scalar())}},
                               "epochs"));
        auto zero = ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT64, "zero");
        mustOp(b.op("Assign", {var.output(0), *zero}, {}, "init"));
        mustOp(b.op("CountUpTo", {var.output(0)}, {{"limit", attr::i(2)}}, "count"));
        auto s = session(b);
        QVERIFY(s->run({}, {}, {"init"}, nullptr).isOk());
        std::vector<Tensor> out;
        for (std::int64_t expected : {0, 1}) {
            Status st = s->run({}, {"count:0"}, {}, &out);
            QVERIFY2(st.isOk(), errorText(st).c_str());
            QCOMPARE(out[0].scalar<std::int64_t>(), expected);
        }
        Status st = s->run({}, {"count:0"}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        QVERIFY2(contains(st, "Reached limit of 2"), errorText(st).c_str());
    }
};

QTEST_GUILESS_MAIN(TestQueueKernels)
#include "test_queue_kernels.moc"
