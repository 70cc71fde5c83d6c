// Tests for input pipelines with queue runners: string_input_producer with num_epochs over TFRecord
// files, batch / shuffle_batch shapes, QueueRunner + Coordinator, and MonitoredTrainingSession
// ending cleanly at the end of the input (final checkpoint) or stopped in the middle; and the
// issue's test: a linear model trained from TFRecord -> reader -> DecodeRaw -> batch reaches the
// same losses as the same batches fed.
#include "builder/attr_values.h"
#include "training/input_pipeline.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "data/tfrecord_writer.h"
#include "io/checkpoint/checkpoint_state.h"
#include "runtime/session.h"
#include "training/coordinator.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/monitored_session.h"
#include "training/queue_runner.h"
#include "training_test_support.h"

#include "built_graph.h"

#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <chrono>
#include <cstring>
#include <set>

using namespace tstudio;
using namespace tstudio::training;
using testing::TrainingRegistries;
namespace tf = tensorflow;
using Clock = std::chrono::steady_clock;

namespace {

/// 4 little-endian floats (x0, x1, x2, y) as one raw record.
std::string rawRecord(const std::array<float, 4>& v)
{
    std::string bytes(16, '\0');
    std::memcpy(bytes.data(), v.data(), 16);
    return bytes;
}

/// Example k: x = (k/10, 1 - k/20, (k % 3) - 1), y = 2 x0 - x1 + 0.5 x2 + 0.25.
std::array<float, 4> example(int k)
{
    const float x0 = static_cast<float>(k) / 10.0f;
    const float x1 = 1.0f - static_cast<float>(k) / 20.0f;
    const float x2 = static_cast<float>(k % 3) - 1.0f;
    return {x0, x1, x2, 2.0f * x0 - x1 + 0.5f * x2 + 0.25f};
}

template <typename T> T must(Expected<T> value)
{
    if (!value)
        qFatal("%s", value.error().toString().c_str());
    return std::move(*value);
}

/// pred = x @ w + b, loss = mean((pred - y)^2), GradientDescent(0.1) with a global step.
struct Model {
    std::string train;
    std::string loss;
};
Model linearModel(GraphBuilder& b, const Output& x, const Output& y)
{
    auto w = must(getVariable(b, "w", TensorShape({3, 1}), tf::DT_FLOAT, Initializer::constant(0.0)));
    auto bias = must(getVariable(b, "b", TensorShape({1}), tf::DT_FLOAT, Initializer::constant(0.0)));
    auto pred = must(ops::add(b, must(ops::matMul(b, x, w.value())), bias.value()));
    auto sq = must(ops::square(b, must(ops::sub(b, pred, y))));
    auto axes = must(ops::constantInts(b, {0, 1}, TensorShape({2})));
    auto loss = must(b.op("Mean", {sq, axes}, {}, "loss"));
    auto step = must(getOrCreateGlobalStep(b));
    GradientDescentOptimizer opt(0.1);
    auto train = must(opt.minimize(b, loss.output(0), step));
    return {train.name(), loss.output(0).name()};
}

bool contains(const Status& s, std::string_view text)
{
    return s.message().find(text) != std::string::npos;
}

} // namespace

class TestQueueRunner : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::vector<std::string> m_files; ///< 3 files of 4 examples each: examples 0..11 in order

    std::unique_ptr<Session> session(const GraphBuilder& b)
    {
        return testing::mustSession(TrainingRegistries::get().ops, TrainingRegistries::get().kernels, b);
    }

    /// string_input_producer(files, numEpochs, shuffle=False) -> TFRecordReader -> value.
    Output readRecords(GraphBuilder& b, input::QueueRunnerDefs& runners, std::optional<std::int64_t> numEpochs,
                       const std::vector<std::string>& files)
    {
        input::InputProducerOptions o;
        o.numEpochs = numEpochs;
        o.shuffle = false;
        auto queue = must(input::stringInputProducer(b, runners, files, o));
        auto reader = must(b.op("TFRecordReaderV2", {}, {}, "TFRecordReaderV2"));
        auto read = must(b.op("ReaderReadV2", {reader.output(0), queue}, {}, "ReaderReadV2"));
        return read.output(1);
    }

    /// The decoded example: x [3] and y [1] from the raw record.
    std::pair<Output, Output> decode(GraphBuilder& b, const Output& value)
    {
        auto floats = must(b.op("DecodeRaw", {value}, {{"out_type", attr::type(tf::DT_FLOAT)}}, "DecodeRaw"));
        Output decoded = floats.output(0);
        if (Status s = b.setShape(decoded, TensorShape({4})); !s.isOk())
            qFatal("%s", s.toString().c_str());
        decoded = must(b.tensor(decoded.name()));
        auto x = must(b.op("Slice", {decoded, must(ops::constantInts(b, {0}, TensorShape({1}))),
                                     must(ops::constantInts(b, {3}, TensorShape({1})))}, {}, "x"));
        auto y = must(b.op("Slice", {decoded, must(ops::constantInts(b, {3}, TensorShape({1}))),
                                     must(ops::constantInts(b, {1}, TensorShape({1})))}, {}, "y"));
        return {x.output(0), y.output(0)};
    }

    /// Builds the global and local initializers (before the Session is created).
    static std::vector<std::string> initializers(GraphBuilder& b)
    {
        return {must(globalVariablesInitializer(b)).name(), must(localVariablesInitializer(b)).name()};
    }

    MonitoredTrainingSessionOptions monitoredOptions(const std::string& dir, input::QueueRunnerDefs runners)
    {
        MonitoredTrainingSessionOptions o;
        o.session.ops = &TrainingRegistries::get().ops;
        o.session.kernels = &TrainingRegistries::get().kernels;
        o.checkpointDir = dir;
        o.queueRunners = std::move(runners);
        o.logStepCountSteps = 0;
        o.stopGracePeriodSecs = 1;
        return o;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (int f = 0; f < 3; ++f) {
            std::vector<std::string> records;
            for (int k = 0; k < 4; ++k)
                records.push_back(rawRecord(example(4 * f + k)));
            m_files.push_back(m_dir.filePath(QString("part-%1.tfrecord").arg(f)).toStdString());
            QVERIFY(data::writeRecords(m_files.back(), records).isOk());
        }
    }

    void stringInputProducerReadsEveryEpochThenOutOfRange()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        input::QueueRunnerDefs runners;
        const Output value = readRecords(b, runners, 2, m_files);
        QCOMPARE(runners.size(), std::size_t{1});
        QCOMPARE(runners[0].queue_name(), std::string("input_producer"));
        QCOMPARE(runners[0].enqueue_op_name(0), std::string("input_producer/input_producer_EnqueueMany"));
        QCOMPARE(runners[0].close_op_name(), std::string("input_producer/input_producer_Close"));
        QCOMPARE(runners[0].cancel_op_name(), std::string("input_producer/input_producer_Close_1"));
        // The MetaGraphDef form round-trips: a bytes_list of serialized QueueRunnerDef.
        const tf::CollectionDef collection = input::queueRunnersCollection(runners);
        QCOMPARE(collection.bytes_list().value_size(), 1);
        auto back = input::queueRunnersFromCollection(collection);
        QVERIFY(back);
        QCOMPARE(back->at(0).SerializeAsString(), runners[0].SerializeAsString());
        tf::CollectionDef junk;
        junk.mutable_bytes_list()->add_value("\xff\xff");
        QVERIFY(!input::queueRunnersFromCollection(junk));
        QVERIFY(b.findNode("input_producer/limit_epochs/epochs"));
        QCOMPARE(b.findNode("input_producer/limit_epochs/CountUpTo")->op(), std::string("CountUpTo"));
        QVERIFY(b.findNode("input_producer/fraction_of_32_full"));
        const auto inits = initializers(b);
        auto s = session(b);
        QVERIFY(s->run({}, {}, inits, nullptr).isOk());
        Coordinator coord;
        QVERIFY(startQueueRunners(*s, coord, runners).isOk());
        std::vector<std::string> got;
        std::vector<Tensor> out;
        for (int i = 0; i < 24; ++i) {
            Status st = s->run({}, {value.name()}, {}, &out);
            QVERIFY2(st.isOk(), st.toString().c_str());
            got.push_back(out[0].strings()[0]);
        }
        for (int epoch = 0; epoch < 2; ++epoch)
            for (int k = 0; k < 12; ++k)
                QCOMPARE(got[static_cast<std::size_t>(12 * epoch + k)], rawRecord(example(k)));
        Status st = s->run({}, {value.name()}, {}, &out);
        QCOMPARE(st.code(), StatusCode::kOutOfRange);
        QVERIFY2(contains(st, "FIFOQueue '_") && contains(st, "_input_producer' is closed and has insufficient "
                                                              "elements (requested 1, current size 0)"),
                 st.toString().c_str());
        coord.requestStop();
        QVERIFY(coord.join(1).isOk());
        QCOMPARE(coord.liveThreads(), std::size_t{0});
    }

    void batchAndShuffleBatchShapes()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        input::QueueRunnerDefs runners;
        auto [x, y] = decode(b, readRecords(b, runners, 1, m_files));
        input::BatchOptions bo;
        bo.batchSize = 5;
        bo.allowSmallerFinalBatch = true;
        auto batched = must(input::batch(b, runners, {x, y}, bo));
        QCOMPARE(batched[0].node(), std::string("batch"));
        QCOMPARE(batched[0].shape(), TensorShape({-1, 3}));
        QCOMPARE(batched[1].shape(), TensorShape({-1, 1}));
        QCOMPARE(b.findNode("batch")->op(), std::string("QueueDequeueUpToV2"));
        QCOMPARE(b.findNode("batch/fifo_queue")->op(), std::string("FIFOQueueV2"));
        QVERIFY(b.findNode("batch/fraction_of_32_full"));
        QCOMPARE(runners.size(), std::size_t{2});
        QCOMPARE(runners[1].enqueue_op_name(0), std::string("batch/fifo_queue_enqueue"));

        const auto inits = initializers(b);
        auto s = session(b);
        QVERIFY(s->run({}, {}, inits, nullptr).isOk());
        Coordinator coord;
        QVERIFY(startQueueRunners(*s, coord, runners).isOk());
        std::vector<Tensor> out;
        std::vector<std::int64_t> sizes;
        std::vector<float> firstColumn;
        for (int i = 0; i < 3; ++i) {
            Status st = s->run({}, {batched[0].name(), batched[1].name()}, {}, &out);
            QVERIFY2(st.isOk(), st.toString().c_str());
            sizes.push_back(out[0].shape().dim(0));
            for (std::int64_t r = 0; r < out[0].shape().dim(0); ++r)
                firstColumn.push_back(out[0].values<float>()[static_cast<std::size_t>(3 * r)]);
        }
        QCOMPARE(sizes, (std::vector<std::int64_t>{5, 5, 2})); // the smaller final batch
        for (int k = 0; k < 12; ++k)
            QCOMPARE(firstColumn[static_cast<std::size_t>(k)], example(k)[0]);
        QCOMPARE(s->run({}, {batched[0].name()}, {}, &out).code(), StatusCode::kOutOfRange);
        coord.requestStop();
        QVERIFY(coord.join(1).isOk());

        GraphBuilder b2(TrainingRegistries::get().ops);
        b2.setRandomSeed(42);
        input::QueueRunnerDefs runners2;
        auto [x2, y2] = decode(b2, readRecords(b2, runners2, 1, m_files));
        input::ShuffleBatchOptions so;
        so.batchSize = 4;
        so.capacity = 10;
        so.minAfterDequeue = 3;
        auto shuffled = must(input::shuffleBatch(b2, runners2, {x2, y2}, so));
        QCOMPARE(shuffled[0].shape(), TensorShape({4, 3}));
        QCOMPARE(b2.findNode("shuffle_batch/random_shuffle_queue")->op(), std::string("RandomShuffleQueueV2"));
        QVERIFY(b2.findNode("shuffle_batch/fraction_over_3_of_7_full"));
        const auto inits2 = initializers(b2);
        auto s2 = session(b2);
        QVERIFY(s2->run({}, {}, inits2, nullptr).isOk());
        Coordinator coord2;
        QVERIFY(startQueueRunners(*s2, coord2, runners2).isOk());
        std::multiset<float> seen;
        for (int i = 0; i < 3; ++i) {
            Status st = s2->run({}, {shuffled[0].name()}, {}, &out);
            QVERIFY2(st.isOk(), st.toString().c_str());
            QCOMPARE(out[0].shape(), TensorShape({4, 3}));
            for (int r = 0; r < 4; ++r)
                seen.insert(out[0].values<float>()[static_cast<std::size_t>(3 * r)]);
        }
        std::multiset<float> all;
        for (int k = 0; k < 12; ++k)
            all.insert(example(k)[0]);
        QCOMPARE(seen, all); // every example once, in some order
        coord2.requestStop();
        QVERIFY(coord2.join(1).isOk());
    }

    void pipelineTrainsToTheSameLossesAsFeeds()
    {
        // The pipeline: 2 epochs of 12 examples, batches of 4, one thread, FIFO order.
        const QString dir = m_dir.filePath("train_pipeline");
        std::vector<double> pipelineLosses;
        {
            GraphBuilder b(TrainingRegistries::get().ops);
            input::QueueRunnerDefs runners;
            auto [x, y] = decode(b, readRecords(b, runners, 2, m_files));
            input::BatchOptions bo;
            bo.batchSize = 4;
            auto batched = must(input::batch(b, runners, {x, y}, bo));
            const Model model = linearModel(b, batched[0], batched[1]);
            auto mts = MonitoredTrainingSession::create(b, monitoredOptions(dir.toStdString(), runners));
            QVERIFY2(mts, mts ? "" : mts.error().toString().c_str());
            Status end;
            for (int guard = 0; guard < 100 && !(*mts)->shouldStop(); ++guard) {
                auto out = (*mts)->run({model.loss}, {}, {model.train});
                if (!out) {
                    end = out.error();
                    break;
                }
                pipelineLosses.push_back(static_cast<double>((*out)[0].scalar<float>()));
            }
            QCOMPARE(end.code(), StatusCode::kOutOfRange); // the end of the last epoch
            QVERIFY((*mts)->shouldStop());
            QVERIFY2((*mts)->close().isOk(), "close");
        }
        QCOMPARE(pipelineLosses.size(), std::size_t{6});
        // The final checkpoint, at global step 6.
        auto state = readCheckpointState(dir.toStdString());
        QVERIFY2(state, state ? "" : state.error().toString().c_str());
        QVERIFY2(QString::fromStdString(state->model_checkpoint_path()).endsWith("model.ckpt-6"),
                 state->model_checkpoint_path().c_str());

        // The same model fed the same batches.
        GraphBuilder b(TrainingRegistries::get().ops);
        auto x = must(ops::placeholder(b, tf::DT_FLOAT, TensorShape({4, 3}), "fx"));
        auto y = must(ops::placeholder(b, tf::DT_FLOAT, TensorShape({4, 1}), "fy"));
        const Model model = linearModel(b, x, y);
        const auto inits = initializers(b);
        auto s = session(b);
        QVERIFY(s->run({}, {}, inits, nullptr).isOk());
        static CpuAllocator allocator;
        std::vector<double> fedLosses;
        for (int step = 0; step < 6; ++step) {
            std::vector<float> xs, ys;
            for (int r = 0; r < 4; ++r) {
                const auto e = example((4 * step + r) % 12);
                xs.insert(xs.end(), {e[0], e[1], e[2]});
                ys.push_back(e[3]);
            }
            std::vector<Tensor> out;
            Status st = s->run({{"fx:0", *Tensor::fromVector<float>(allocator, TensorShape({4, 3}), xs)},
                                {"fy:0", *Tensor::fromVector<float>(allocator, TensorShape({4, 1}), ys)}},
                               {model.loss}, {model.train}, &out);
            QVERIFY2(st.isOk(), st.toString().c_str());
            fedLosses.push_back(static_cast<double>(out[0].scalar<float>()));
        }
        for (std::size_t i = 0; i < fedLosses.size(); ++i)
            QVERIFY2(std::abs(pipelineLosses[i] - fedLosses[i]) <= 1e-6,
                     qPrintable(QString("step %1: %2 vs %3").arg(i).arg(pipelineLosses[i]).arg(fedLosses[i])));
        // And both are the losses of plain gradient descent on these batches, computed independently
        // with NumPy 1.24 in float32 (w, b from zero; d = x w + b - y; loss = mean(d^2); w -= 0.1 *
        // 2 x^T d / 4; b -= 0.1 * 2 sum(d) / 4).
        const double numpy[6] = {0.53125, 0.7446702718734741, 2.652432441711426,
                                 1.1759166717529297, 0.12363873422145844, 1.179268717765808};
        for (std::size_t i = 0; i < 6; ++i)
            QVERIFY2(std::abs(pipelineLosses[i] - numpy[i]) <= 1e-5 * std::max(1.0, numpy[i]),
                     qPrintable(QString("step %1: %2, NumPy %3").arg(i).arg(pipelineLosses[i]).arg(numpy[i])));
    }

    void stopInTheMiddleClosesQueuesAndJoinsQuickly()
    {
        const QString dir = m_dir.filePath("train_stopped");
        GraphBuilder b(TrainingRegistries::get().ops);
        input::QueueRunnerDefs runners;
        auto [x, y] = decode(b, readRecords(b, runners, std::nullopt, m_files)); // endless epochs
        input::BatchOptions bo;
        bo.batchSize = 4;
        bo.numThreads = 2;
        auto batched = must(input::batch(b, runners, {x, y}, bo));
        const Model model = linearModel(b, batched[0], batched[1]);
        auto mts = MonitoredTrainingSession::create(b, monitoredOptions(dir.toStdString(), runners));
        QVERIFY2(mts, mts ? "" : mts.error().toString().c_str());
        for (int i = 0; i < 3; ++i) {
            auto out = (*mts)->run({model.loss}, {}, {model.train});
            QVERIFY2(out, out ? "" : out.error().toString().c_str());
        }
        // The queues are full now: the enqueue threads wait on them.
        const auto start = Clock::now();
        QVERIFY((*mts)->close().isOk());
        QVERIFY(Clock::now() - start < std::chrono::seconds(1));
        auto state = readCheckpointState(dir.toStdString());
        QVERIFY(state);
        QVERIFY2(QString::fromStdString(state->model_checkpoint_path()).endsWith("model.ckpt-3"),
                 state->model_checkpoint_path().c_str());
        mts->reset();
    }

    void corruptRecordInThePipelineIsReported()
    {
        const std::string corrupt = m_dir.filePath("corrupt.tfrecord").toStdString();
        QVERIFY(data::writeRecords(corrupt, {rawRecord(example(0)), rawRecord(example(1))}).isOk());
        {
            std::FILE* f = std::fopen(corrupt.c_str(), "r+b");
            QVERIFY(f);
            std::fseek(f, 32 + 12 + 3, SEEK_SET); // inside the second record's data
            std::fputc('!', f);
            std::fclose(f);
        }
        GraphBuilder b(TrainingRegistries::get().ops);
        input::QueueRunnerDefs runners;
        auto [x, y] = decode(b, readRecords(b, runners, 1, {corrupt}));
        input::BatchOptions bo;
        bo.batchSize = 2;
        auto batched = must(input::batch(b, runners, {x, y}, bo));
        const Model model = linearModel(b, batched[0], batched[1]);
        auto mts = MonitoredTrainingSession::create(b, monitoredOptions("", runners));
        QVERIFY2(mts, mts ? "" : mts.error().toString().c_str());
        auto out = (*mts)->run({model.loss}, {}, {model.train});
        QVERIFY(!out);
        QCOMPARE(out.error().code(), StatusCode::kDataLoss);
        QVERIFY2(contains(out.error(), "corrupted record at 44 in '" + corrupt + "'"), out.error().toString().c_str());
        QVERIFY((*mts)->close().code() == StatusCode::kDataLoss);
    }
};

QTEST_GUILESS_MAIN(TestQueueRunner)
#include "test_queue_runner.moc"
