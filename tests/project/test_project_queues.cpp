// Projects that train from their graph's own queue pipeline (a MetaGraphDef's "queue_runners"
// collection) or its own tf.data iterator (initialized through the "table_initializer" collection):
// the same losses as the same data fed through a project source, a clean end with a final checkpoint
// when the last epoch is read, checkpoints that keep the runners, and stops that return promptly
// (between steps, by the debugger's cancel, and while a step waits on an empty queue).
#include "builder/attr_values.h"
#include "builder/dataset.h"
#include "builder/graph_builder.h"
#include "training/input_pipeline.h"
#include "builder/ops_sugar.h"
#include "builder/parsing.h"
#include "builder/variables.h"
#include "data/tfrecord_writer.h"
#include "io/atomic_file.h"
#include "io/checkpoint/checkpoint_state.h"
#include "losses/losses.h"
#include "model/meta_graph.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "proto/example.pb.h"
#include "registries/default_registries.h"
#include "runtime/execution_observer.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "project/run/training_setup.h"

#include <google/protobuf/text_format.h>

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

using namespace tstudio;
using namespace tstudio::project;
namespace tf = tensorflow;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::int64_t kFeatures = 4; // D
constexpr std::int64_t kClasses = 3;
constexpr int kFiles = 3;
constexpr int kPerFile = 8;      // 24 examples
constexpr std::int64_t kBatch = 4;
constexpr std::int64_t kEpochs = 2; // 48 examples: 12 steps

const Registries& registries()
{
    static std::unique_ptr<Registries> r = [] {
        auto made = makeDefaultRegistries();
        if (!made)
            qFatal("%s", made.error().toString().c_str());
        return std::move(*made);
    }();
    return *r;
}

template <typename T> T must(Expected<T> value)
{
    if (!value)
        qFatal("%s", value.error().toString().c_str());
    return std::move(*value);
}

/// Example k: x_j = sin(0.7 k + j) + 0.1 j, y = k % 3.
std::pair<std::vector<float>, std::int64_t> example(int k)
{
    std::vector<float> x;
    for (int j = 0; j < kFeatures; ++j)
        x.push_back(static_cast<float>(std::sin(0.7 * k + j) + 0.1 * j));
    return {x, k % kClasses};
}

std::string serializedExample(int k)
{
    const auto [x, y] = example(k);
    tf::Example e;
    auto& features = *e.mutable_features()->mutable_feature();
    for (float v : x)
        features["x"].mutable_float_list()->add_value(v);
    features["y"].mutable_int64_list()->add_value(y);
    return e.SerializeAsString();
}

/// logits = x w + b (w glorot-uniform with an op seed, so both graphs start alike), the sparse
/// softmax cross entropy, GradientDescent(0.5) with a global step.
struct Model {
    std::string train;
    std::string loss;
};
Model softmaxModel(GraphBuilder& b, const Output& x, const Output& y)
{
    auto w = must(getVariable(b, "w", TensorShape({kFeatures, kClasses}), tf::DT_FLOAT, Initializer::glorotUniform(7)));
    auto bias = must(getVariable(b, "b", TensorShape({kClasses}), tf::DT_FLOAT, Initializer::zeros()));
    auto logits = must(ops::add(b, must(ops::matMul(b, x, w.value())), bias.value(), "logits"));
    auto loss = must(losses::sparseSoftmaxCrossEntropy(b, y, logits));
    auto step = must(training::getOrCreateGlobalStep(b));
    training::GradientDescentOptimizer opt(0.5);
    auto train = must(opt.minimize(b, loss, step));
    return {train.name(), loss.name()};
}

enum class Input {
    kQueues,      ///< string_input_producer -> TFRecordReaderV2 -> ParseSingleExample -> batch
    kPlaceholders, ///< x [?, D] and y [?], fed by a project source
    kStalled,     ///< batch over a queue nothing ever fills (a stalled reader)
    kDataset,     ///< TFRecordDataset -> map(parse_single_example) -> repeat -> batch, an initializable iterator
};

/// parse(record) -> (x: float [D], y: int64): tf.parse_single_example as a Dataset.map function.
const char* kParseFunction = R"pb(
  signature {
    name: 'parse'
    input_arg { name: 'record' type: DT_STRING }
    output_arg { name: 'x' type: DT_FLOAT }
    output_arg { name: 'y' type: DT_INT64 }
  }
  node_def {
    name: 'x_default'
    op: 'Const'
    attr { key: 'dtype' value { type: DT_FLOAT } }
    attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 0 } } } } }
  }
  node_def {
    name: 'y_default'
    op: 'Const'
    attr { key: 'dtype' value { type: DT_INT64 } }
    attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape { dim { size: 0 } } } } }
  }
  node_def {
    name: 'ParseSingleExample'
    op: 'ParseSingleExample'
    input: 'record'
    input: 'x_default:output:0'
    input: 'y_default:output:0'
    attr { key: 'num_sparse' value { i: 0 } }
    attr { key: 'sparse_keys' value { list {} } }
    attr { key: 'sparse_types' value { list {} } }
    attr { key: 'dense_keys' value { list { s: [ 'x', 'y' ] } } }
    attr { key: 'Tdense' value { list { type: [ DT_FLOAT, DT_INT64 ] } } }
    attr { key: 'dense_shapes' value { list { shape { dim { size: 4 } } shape {} } } }
  }
  ret { key: 'x' value: 'ParseSingleExample:dense_values:0' }
  ret { key: 'y' value: 'ParseSingleExample:dense_values:1' }
)pb";

/// Builds the graph and writes it as a MetaGraphDef (with the queue runners when it has any).
Model writeGraph(const std::filesystem::path& path, Input kind, const std::vector<std::string>& files,
                 std::optional<std::int64_t> numEpochs)
{
    GraphBuilder b(registries().ops);
    input::QueueRunnerDefs runners;
    Output x, y;
    if (kind == Input::kPlaceholders) {
        x = must(ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, kFeatures}), "x"));
        y = must(ops::placeholder(b, tf::DT_INT64, TensorShape({-1}), "y"));
    } else if (kind == Input::kDataset) {
        tf::FunctionDefLibrary library;
        if (!google::protobuf::TextFormat::ParseFromString(kParseFunction, library.add_function()))
            qFatal("the parse function does not parse");
        if (Status s = b.addFunctions(library); !s.isOk())
            qFatal("%s", s.toString().c_str());
        auto records = must(dataset::tfRecord(b, files));
        auto parsed = must(dataset::map(b, records, "parse", {tf::DT_FLOAT, tf::DT_INT64},
                                        {TensorShape({kFeatures}), TensorShape::scalar()}));
        auto epochs = must(dataset::repeat(b, parsed, numEpochs.value_or(-1)));
        auto batched = must(dataset::batch(b, epochs, kBatch));
        auto iterator = must(dataset::makeInitializableIterator(b, batched));
        // What TensorFlow 1.x programs do so that MonitoredTrainingSession initializes the iterator.
        b.collections().add("table_initializer", iterator.initializer);
        x = iterator.next.at(0);
        y = iterator.next.at(1);
    } else {
        std::vector<Output> example;
        if (kind == Input::kQueues) {
            input::InputProducerOptions producer;
            producer.shuffle = false;
            producer.numEpochs = numEpochs;
            auto files_ = must(input::stringInputProducer(b, runners, files, producer));
            auto reader = must(b.op("TFRecordReaderV2", {}, {}, "TFRecordReaderV2"));
            auto read = must(b.op("ReaderReadV2", {reader.output(0), files_}, {}, "ReaderReadV2"));
            parsing::Features features;
            features["x"] = parsing::FixedLenFeature{TensorShape({kFeatures}), tf::DT_FLOAT, std::nullopt};
            features["y"] = parsing::FixedLenFeature{TensorShape::scalar(), tf::DT_INT64, std::nullopt};
            auto parsed = must(parsing::parseSingleExample(b, read.output(1), features));
            example = {parsed.dense.at("x"), parsed.dense.at("y")};
        } else {
            auto queue = must(b.op("FIFOQueueV2", {},
                                   {{"component_types", attr::types({tf::DT_FLOAT, tf::DT_INT64})}}, "stalled"));
            auto dequeue = must(b.op("QueueDequeueV2", {queue.output(0)},
                                     {{"component_types", attr::types({tf::DT_FLOAT, tf::DT_INT64})}},
                                     "stalled_dequeue"));
            example = {dequeue.output(0), dequeue.output(1)};
        }
        input::BatchOptions batch;
        batch.batchSize = kBatch;
        batch.numThreads = 1; // one enqueue thread: the examples keep the files' order
        if (kind == Input::kStalled)
            batch.shapes = {TensorShape({kFeatures}), TensorShape::scalar()};
        auto batched = must(input::batch(b, runners, example, batch));
        x = batched[0];
        y = batched[1];
    }
    const Model model = softmaxModel(b, x, y);
    MetaGraphExportOptions options;
    if (!runners.empty())
        options.extraCollections[std::string(input::kQueueRunnersKey)] = input::queueRunnersCollection(runners);
    auto meta = must(exportMetaGraph(b, options));
    if (Status s = writeMetaGraphFile(path, meta); !s.isOk())
        qFatal("%s", s.toString().c_str());
    return model;
}

/// A project over `graph` (relative to the .tsproj), with `sources`, training the graph's own
/// train op; only the final checkpoint (and the first) is saved.
Project writeProject(const std::filesystem::path& file, const std::string& graph, const Model& model,
                     nlohmann::json sources, std::int64_t steps)
{
    nlohmann::json doc = {{"format", "tensorstudio-project"},
                          {"version", 1},
                          {"graph", {{"file", graph}}},
                          {"training", {{"train_op", model.train}, {"loss", model.loss}}},
                          {"batch_size", kBatch},
                          {"steps", steps},
                          {"hooks",
                           {{"checkpoint_every_steps", nullptr},
                            {"checkpoint_every_secs", 600},
                            {"summary_every_steps", nullptr},
                            {"log_every_steps", nullptr}}},
                          {"logdir", "runs/" + file.stem().string()}};
    if (!sources.is_null())
        doc["data"] = {{"sources", sources}};
    if (Status s = writeFileAtomically(file, doc.dump(2)); !s.isOk())
        qFatal("%s", s.toString().c_str());
    return must(loadProject(file));
}

/// Cancels the step that starts after `cancel` is set, as the debugger's Stop does.
class CancellingObserver : public ExecutionObserver {
public:
    std::atomic<bool> cancel{false};
    ObserverAction beforeNode(const NodeExecution&) override
    {
        return cancel.load() ? ObserverAction::kCancel : ObserverAction::kContinue;
    }
    ObserverAction afterNode(const NodeExecution&) override { return ObserverAction::kContinue; }
};

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

class TestProjectQueues : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::filesystem::path m_root;
    std::vector<std::string> m_files; ///< absolute; examples 0..23 in order
    Model m_queueModel;

    /// Trains `project` and returns the loss of every step (progress every step).
    std::vector<double> trainLosses(const Project& project, TrainRunResult* resultOut, TrainRunOptions options = {})
    {
        std::vector<double> losses;
        options.progressEverySteps = 1;
        options.onProgress = [&](const TrainProgress& p) {
            if (p.loss && static_cast<std::int64_t>(losses.size()) < p.step - p.firstStep)
                losses.push_back(*p.loss);
        };
        auto result = trainProject(project, registries(), options);
        if (!result)
            qFatal("%s", result.error().toString().c_str());
        if (resultOut)
            *resultOut = *result;
        return losses;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.path().toStdString();
        for (int f = 0; f < kFiles; ++f) {
            std::vector<std::string> records;
            for (int k = 0; k < kPerFile; ++k)
                records.push_back(serializedExample(f * kPerFile + k));
            m_files.push_back((m_root / ("part-" + std::to_string(f) + ".tfrecord")).string());
            QVERIFY(data::writeRecords(m_files.back(), records).isOk());
        }
        m_queueModel = writeGraph(m_root / "queues.meta", Input::kQueues, m_files, kEpochs);
    }

    /// The issue's test: project A trains from the graph's queues (no data sources), project B the
    /// same model fed by a tfrecord source over the same files in order; per-step losses agree,
    /// and A ends cleanly at the end of its epochs with a final checkpoint that restores.
    void queuesTrainLikeAFedSource()
    {
        Project a = writeProject(m_root / "a.tsproj", "queues.meta", m_queueModel, nullptr, 1000);
        QVERIFY(a.sources.empty());
        const Model fed = writeGraph(m_root / "fed.meta", Input::kPlaceholders, {}, std::nullopt);
        nlohmann::json source = {{"type", "tfrecord"},
                                 {"files", m_files},
                                 {"features", {{"x", {{"dtype", "float32"}, {"shape", {kFeatures}}}},
                                               {"y", {{"dtype", "int64"}}}}},
                                 {"shuffle_buffer", 1}, // a buffer of one keeps the files' order
                                 {"feeds", {{"x", "x"}, {"y", "y"}}}};
        const std::int64_t steps = kEpochs * kFiles * kPerFile / kBatch;
        Project b = writeProject(m_root / "b.tsproj", "fed.meta", fed, nlohmann::json::array({source}), steps);

        auto prepared = prepareTraining(a, registries().ops);
        QVERIFY2(prepared, prepared ? "" : prepared.error().toString().c_str());
        QCOMPARE(prepared->queueRunners.size(), std::size_t{2}); // input_producer and batch
        QCOMPARE(prepared->queueRunners[0].queue_name(), std::string("input_producer"));
        QCOMPARE(prepared->queueRunners[1].queue_name(), std::string("batch/fifo_queue"));

        TrainRunResult ra, rb;
        const std::vector<double> lossesA = trainLosses(a, &ra);
        const std::vector<double> lossesB = trainLosses(b, &rb);
        QCOMPARE(static_cast<std::int64_t>(lossesA.size()), steps);
        QCOMPARE(static_cast<std::int64_t>(lossesB.size()), steps);
        for (std::size_t i = 0; i < lossesA.size(); ++i)
            QVERIFY2(std::abs(lossesA[i] - lossesB[i]) <= 1e-6 * std::max(1.0, std::abs(lossesB[i])),
                     qPrintable(QString("step %1: queues %2, fed %3").arg(i).arg(lossesA[i], 0, 'g', 9)
                                    .arg(lossesB[i], 0, 'g', 9)));
        QVERIFY2(lossesA.back() < 0.9 * lossesA.front(), "the model learns"); // not a constant loss
        qInfo("queues vs fed, %zu steps: loss %.7f -> %.7f (fed %.7f -> %.7f)", lossesA.size(), lossesA.front(),
              lossesA.back(), lossesB.front(), lossesB.back());

        // A: the input ended after 12 steps, long before steps = 1000, with a final checkpoint.
        QVERIFY(ra.inputExhaustedAfter == std::optional<std::int64_t>(steps));
        QCOMPARE(ra.lastStep, steps);
        QVERIFY(!rb.inputExhaustedAfter);
        const std::filesystem::path logA = m_root / "runs" / "a";
        QCOMPARE(ra.lastCheckpoint, (logA / ("model.ckpt-" + std::to_string(steps))).string());
        QVERIFY(std::filesystem::exists(logA / ("model.ckpt-" + std::to_string(steps) + ".index")));

        // The checkpoint's .meta keeps the runners, as TensorFlow's graph collection does.
        auto meta = readMetaGraphFile(logA / ("model.ckpt-" + std::to_string(steps) + ".meta"));
        QVERIFY2(meta, meta ? "" : meta.error().toString().c_str());
        QVERIFY(meta->collection_def().count("queue_runners"));
        auto runners = input::queueRunnersFromCollection(meta->collection_def().at("queue_runners"));
        QVERIFY(runners);
        QCOMPARE(runners->size(), prepared->queueRunners.size());
        for (std::size_t i = 0; i < runners->size(); ++i)
            QCOMPARE((*runners)[i].SerializeAsString(), prepared->queueRunners[i].SerializeAsString());
        MetaGraphImportOptions importOptions;
        importOptions.ops = &registries().ops;
        auto reimported = importMetaGraph(*meta, importOptions);
        QVERIFY2(reimported, reimported ? "" : reimported.error().toString().c_str());
        QVERIFY(reimported->collections.count("queue_runners"));

        // The final checkpoint restores: resuming continues from step 12 and, its epoch counter
        // being a local variable (not checkpointed), reads two more epochs.
        TrainRunOptions resume;
        resume.resume = true;
        TrainRunResult rc;
        const std::vector<double> lossesC = trainLosses(a, &rc, resume);
        QVERIFY(rc.restored);
        QCOMPARE(rc.firstStep, steps);
        QCOMPARE(rc.lastStep, 2 * steps);
        QVERIFY(rc.inputExhaustedAfter == std::optional<std::int64_t>(steps));
        // Its first loss continues where the restored weights left off: below A's first.
        QVERIFY(!lossesC.empty() && lossesC.front() < lossesA.front());
    }

    /// A project trains from its graph's own tf.data iterator (no data sources): the iterator is
    /// initialized by the local init op through the "table_initializer" collection, the losses are
    /// those of the same examples fed by a source, and the end of the dataset (OutOfRange) ends
    /// training cleanly with a final checkpoint.
    void datasetIteratorTrainsLikeAFedSource()
    {
        const Model model = writeGraph(m_root / "dataset.meta", Input::kDataset, m_files, kEpochs);
        Project a = writeProject(m_root / "from_dataset.tsproj", "dataset.meta", model, nullptr, 1000);
        QVERIFY(a.sources.empty());
        auto prepared = prepareTraining(a, registries().ops);
        QVERIFY2(prepared, prepared ? "" : prepared.error().toString().c_str());
        QVERIFY(prepared->queueRunners.empty());

        const Model fed = writeGraph(m_root / "fed_for_dataset.meta", Input::kPlaceholders, {}, std::nullopt);
        nlohmann::json source = {{"type", "tfrecord"},
                                 {"files", m_files},
                                 {"features", {{"x", {{"dtype", "float32"}, {"shape", {kFeatures}}}},
                                               {"y", {{"dtype", "int64"}}}}},
                                 {"shuffle_buffer", 1},
                                 {"feeds", {{"x", "x"}, {"y", "y"}}}};
        const std::int64_t steps = kEpochs * kFiles * kPerFile / kBatch;
        Project b = writeProject(m_root / "fed_for_dataset.tsproj", "fed_for_dataset.meta", fed,
                                 nlohmann::json::array({source}), steps);
        TrainRunResult ra, rb;
        const std::vector<double> lossesA = trainLosses(a, &ra);
        const std::vector<double> lossesB = trainLosses(b, &rb);
        QCOMPARE(static_cast<std::int64_t>(lossesA.size()), steps);
        QCOMPARE(static_cast<std::int64_t>(lossesB.size()), steps);
        for (std::size_t i = 0; i < lossesA.size(); ++i)
            QVERIFY2(std::abs(lossesA[i] - lossesB[i]) <= 1e-6 * std::max(1.0, std::abs(lossesB[i])),
                     qPrintable(QString("step %1: dataset %2, fed %3").arg(i).arg(lossesA[i], 0, 'g', 9)
                                    .arg(lossesB[i], 0, 'g', 9)));
        QVERIFY2(lossesA.back() < 0.9 * lossesA.front(), "the model learns");
        QVERIFY(ra.inputExhaustedAfter == std::optional<std::int64_t>(steps));
        QCOMPARE(ra.lastStep, steps);
        const std::filesystem::path logA = m_root / "runs" / "from_dataset";
        QCOMPARE(ra.lastCheckpoint, (logA / ("model.ckpt-" + std::to_string(steps))).string());
        QVERIFY(std::filesystem::exists(logA / ("model.ckpt-" + std::to_string(steps) + ".index")));
        // The checkpoint's .meta keeps the library and the collection, so a resumed run starts the
        // iterator again.
        auto meta = readMetaGraphFile(logA / ("model.ckpt-" + std::to_string(steps) + ".meta"));
        QVERIFY2(meta, meta ? "" : meta.error().toString().c_str());
        QVERIFY(meta->collection_def().count("table_initializer"));
        QCOMPARE(meta->graph_def().library().function_size(), 1);
    }

    /// A project with neither data sources nor queue runners whose train op needs a placeholder
    /// is refused up front, naming what is missing; so is a queue_runners entry that is no
    /// QueueRunnerDef, naming the file and the collection.
    void missingInputIsAClearError()
    {
        const Model fed = writeGraph(m_root / "fed_only.meta", Input::kPlaceholders, {}, std::nullopt);
        Project p = writeProject(m_root / "nothing.tsproj", "fed_only.meta", fed, nullptr, 10);
        auto prepared = prepareTraining(p, registries().ops);
        QVERIFY(!prepared);
        QCOMPARE(prepared.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(prepared.error().message().find("nothing.tsproj: data.sources: the project has no data sources and "
                                                 "its graph no queue runners") != std::string::npos &&
                     prepared.error().message().find("needs placeholder 'x'") != std::string::npos,
                 prepared.error().toString().c_str());

        auto meta = must(readMetaGraphFile(m_root / "queues.meta"));
        (*meta.mutable_collection_def())["queue_runners"].mutable_bytes_list()->add_value("\xff\xff not a def");
        QVERIFY(writeMetaGraphFile(m_root / "bad_runners.meta", meta).isOk());
        Project bad = writeProject(m_root / "bad.tsproj", "bad_runners.meta", m_queueModel, nullptr, 10);
        auto refused = prepareTraining(bad, registries().ops);
        QVERIFY(!refused);
        const std::string text = refused.error().message();
        QVERIFY2(text.find("bad_runners.meta': collection 'queue_runners'") != std::string::npos &&
                     text.find("queue_runners entry 2 is not a QueueRunnerDef") != std::string::npos,
                 text.c_str());

        // A runner naming an op the graph lacks.
        auto meta2 = must(readMetaGraphFile(m_root / "queues.meta"));
        auto runners = must(input::queueRunnersFromCollection(meta2.collection_def().at("queue_runners")));
        runners[1].set_enqueue_op_name(0, "no_such_enqueue");
        (*meta2.mutable_collection_def())["queue_runners"] = input::queueRunnersCollection(runners);
        QVERIFY(writeMetaGraphFile(m_root / "missing_op.meta", meta2).isOk());
        Project missing = writeProject(m_root / "missing.tsproj", "missing_op.meta", m_queueModel, nullptr, 10);
        auto refused2 = prepareTraining(missing, registries().ops);
        QVERIFY(!refused2);
        QVERIFY2(refused2.error().message().find("entry 1 (queue 'batch/fifo_queue'): enqueue op 'no_such_enqueue' "
                                                 "is not in the graph") != std::string::npos,
                 refused2.error().toString().c_str());
    }

    /// Stopping between steps (the IDE's Stop, Ctrl+C) with endless epochs: the run ends at the
    /// step it was asked to, saves its final checkpoint, and close() stops the runners (the queues
    /// are full, their threads wait on them) and joins them at once.
    void stopBetweenStepsReturnsPromptly()
    {
        const Model model = writeGraph(m_root / "endless.meta", Input::kQueues, m_files, std::nullopt);
        Project p = writeProject(m_root / "endless.tsproj", "endless.meta", model, nullptr, 1000000);
        std::atomic<bool> stop{false};
        TrainRunOptions options;
        options.stopRequested = &stop;
        options.progressEverySteps = 1;
        Clock::time_point stoppedAt;
        options.onProgress = [&](const TrainProgress& progress) {
            if (progress.step == 5 && !stop) {
                stoppedAt = Clock::now();
                stop = true;
            }
        };
        auto result = trainProject(p, registries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        const double seconds = secondsSince(stoppedAt);
        QVERIFY2(seconds < 3, qPrintable(QString::number(seconds)));
        QCOMPARE(result->lastStep, std::int64_t(5));
        QVERIFY(!result->inputExhaustedAfter);
        QVERIFY(!result->stoppedMidStep);
        QCOMPARE(result->lastCheckpoint, (m_root / "runs" / "endless" / "model.ckpt-5").string());
    }

    /// The debugger's Stop cancels the step in flight: the run returns (no final checkpoint,
    /// stoppedMidStep) and the runner threads are joined (MonitoredTrainingSession's destructor
    /// joins every one; a hang would keep trainProject from returning).
    void observerCancelReturnsPromptly()
    {
        const Model model = writeGraph(m_root / "endless2.meta", Input::kQueues, m_files, std::nullopt);
        Project p = writeProject(m_root / "cancelled.tsproj", "endless2.meta", model, nullptr, 1000000);
        CancellingObserver observer;
        TrainRunOptions options;
        options.observer = &observer;
        options.progressEverySteps = 1;
        Clock::time_point cancelledAt;
        options.onProgress = [&](const TrainProgress& progress) {
            if (progress.step == 3 && !observer.cancel) {
                cancelledAt = Clock::now();
                observer.cancel = true;
            }
        };
        auto result = trainProject(p, registries(), options);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        const double seconds = secondsSince(cancelledAt);
        QVERIFY2(seconds < 3, qPrintable(QString::number(seconds)));
        QVERIFY(result->stoppedMidStep);
        QCOMPARE(result->lastStep, std::int64_t(3));
        // No final checkpoint after a cancelled step: the first one stays the latest.
        QCOMPARE(result->lastCheckpoint, (m_root / "runs" / "cancelled" / "model.ckpt-0").string());
    }

    /// A step waiting on an empty queue (a stalled reader) never gets back to the loop's stop
    /// check: the stop stops the queue runners, their cancel ops close the queues, the dequeue ends,
    /// and the run returns cleanly within the runners' grace period.
    void stopWhileAStepWaitsOnAnEmptyQueue()
    {
        const Model model = writeGraph(m_root / "stalled.meta", Input::kStalled, {}, std::nullopt);
        Project p = writeProject(m_root / "stalled.tsproj", "stalled.meta", model, nullptr, 1000000);
        std::atomic<bool> stop{false};
        std::atomic<bool> started{false};
        TrainRunOptions options;
        options.stopRequested = &stop;
        options.onStarted = [&](const TrainProgress&) { started = true; };
        Clock::time_point stoppedAt;
        std::thread stopper([&] {
            while (!started)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            std::this_thread::sleep_for(std::chrono::milliseconds(300)); // the first step waits by now
            stoppedAt = Clock::now();
            stop = true;
        });
        auto result = trainProject(p, registries(), options);
        stopper.join();
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        const double seconds = secondsSince(stoppedAt);
        // The batch runner's own thread waits on the stalled queue, which no cancel op closes: it is
        // woken by closing the session after the grace period (2 s).
        qInfo("stalled step stopped after %.2f s", seconds);
        QVERIFY2(seconds < 6, qPrintable(QString::number(seconds)));
        QCOMPARE(result->lastStep, std::int64_t(0));
        QVERIFY(!result->inputExhaustedAfter); // a stop, not the end of the input
    }
};

QTEST_GUILESS_MAIN(TestProjectQueues)
#include "test_project_queues.moc"
