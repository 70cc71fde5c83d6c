// benchQueues: the same MLP project fed from memory, trained from its graph's TFRecord queues and
// from its graph's tf.data pipeline.
#include "bench_queues.h"

#include "bench_report.h"

#include "builder/dataset.h"
#include "builder/graph_builder.h"
#include "training/input_pipeline.h"
#include "builder/ops_sugar.h"
#include "builder/parsing.h"
#include "cli_command.h"
#include "core/try.h"
#include "data/mnist.h"
#include "data/tfrecord_writer.h"
#include "io/atomic_file.h"
#include "io/npy.h"
#include "kernels/dataset/batch_parse.h"
#include "layers/dense.h"
#include "losses/losses.h"
#include "model/meta_graph.h"
#include "project_argument.h"
#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "proto/example.pb.h"
#include "registries/default_registries.h"
#include "project/format/json_text.h"

#include <google/protobuf/text_format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace tstudio::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t kPixels = 784;
constexpr std::int64_t kSyntheticExamples = 10000;

struct Examples {
    Tensor images; ///< float [N, 784] in [0, 1]
    Tensor labels; ///< int64 [N]
    std::string description;
};

/// The first of `names` (with or without ".gz") that exists in `dir`.
std::optional<fs::path> findIdx(const fs::path& dir, std::initializer_list<const char*> names)
{
    std::error_code ec;
    for (const char* name : names)
        for (const char* suffix : {"", ".gz"})
            if (fs::exists(dir / (std::string(name) + suffix), ec))
                return dir / (std::string(name) + suffix);
    return std::nullopt;
}

/// --data, else the shared fixtures' mnist folder when there is one.
std::optional<fs::path> mnistFolder(const std::string& given)
{
    if (!given.empty())
        return fs::path(given);
    std::vector<fs::path> candidates;
    if (const char* fixtures = std::getenv("TSTUDIO_FIXTURES"))
        candidates.push_back(fs::path(fixtures) / "mnist");
    candidates.push_back(fs::path(TSTUDIO_SOURCE_DIR) / ".." / "shared" / "fixtures" / "mnist");
    candidates.push_back(fs::path("..") / "shared" / "fixtures" / "mnist");
    std::error_code ec;
    for (const fs::path& dir : candidates)
        if (fs::is_directory(dir, ec))
            return dir.lexically_normal();
    return std::nullopt;
}

Expected<Examples> loadExamples(const std::string& given, Allocator& allocator)
{
    if (auto dir = mnistFolder(given)) {
        auto images = findIdx(*dir, {"train-images-idx3-ubyte", "t10k-images-idx3-ubyte"});
        auto labels = findIdx(*dir, {"train-labels-idx1-ubyte", "t10k-labels-idx1-ubyte"});
        if (images && labels) {
            TSTUDIO_TRY(mnist, data::loadMnist(*images, *labels, allocator));
            Examples out{mnist.images, mnist.labels, ""};
            out.description = "MNIST " + images->filename().string() + " (" +
                              std::to_string(mnist.images.shape().dim(0)) + " examples) from " + dir->string();
            return out;
        }
        if (!given.empty())
            return unexpected(notFoundError("--data '" + given +
                                            "' holds no train- or t10k-images-idx3-ubyte[.gz] with its labels file"));
    }
    // Deterministic stand-ins: the speed of either path does not depend on the pixel values.
    std::mt19937 random(1);
    std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
    std::vector<float> pixels(static_cast<std::size_t>(kSyntheticExamples * kPixels));
    for (float& p : pixels)
        p = pixel(random);
    std::vector<std::int64_t> labels(static_cast<std::size_t>(kSyntheticExamples));
    for (std::int64_t& l : labels)
        l = static_cast<std::int64_t>(random() % 10);
    TSTUDIO_TRY(images, Tensor::fromVector<float>(allocator, TensorShape({kSyntheticExamples, kPixels}), pixels));
    TSTUDIO_TRY(classes, Tensor::fromVector<std::int64_t>(allocator, TensorShape({kSyntheticExamples}), labels));
    return Examples{images, classes,
                    "10,000 synthetic 784-float examples (no MNIST idx files found; pass --data DIR for real ones)"};
}

/// Every example as a serialized tf.train.Example {"image": float [784], "label": int64}.
Status writeTfRecords(const Examples& examples, const fs::path& path)
{
    const std::int64_t n = examples.images.shape().dim(0);
    const auto pixels = examples.images.values<float>();
    const auto labels = examples.labels.values<std::int64_t>();
    std::vector<std::string> records;
    records.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        tensorflow::Example e;
        auto& features = *e.mutable_features()->mutable_feature();
        auto* image = features["image"].mutable_float_list()->mutable_value();
        image->Reserve(static_cast<int>(kPixels));
        for (std::int64_t j = 0; j < kPixels; ++j)
            image->Add(pixels[static_cast<std::size_t>(i * kPixels + j)]);
        features["label"].mutable_int64_list()->add_value(labels[static_cast<std::size_t>(i)]);
        records.push_back(e.SerializeAsString());
    }
    return data::writeRecords(path, records);
}

/// inputs -> dense(500, relu) -> dense(10); tf.losses.sparse_softmax_cross_entropy. The loss's name.
Expected<std::string> addMlp(GraphBuilder& b, const Output& images, const Output& labels)
{
    layers::DenseOptions hidden;
    hidden.units = 500;
    hidden.activation = layers::Activation::kRelu;
    TSTUDIO_TRY(h, layers::dense(b, images, hidden));
    layers::DenseOptions out;
    out.units = 10;
    TSTUDIO_TRY(logits, layers::dense(b, h, out));
    TSTUDIO_TRY(loss, losses::sparseSoftmaxCrossEntropy(b, labels, logits));
    return loss.name();
}

/// How a benchmark project gets its batches.
enum class Feeding { kMemory, kQueues, kDataset };

const char* feedingName(Feeding feeding)
{
    switch (feeding) {
    case Feeding::kMemory: return "memory";
    case Feeding::kQueues: return "queues";
    case Feeding::kDataset: return "dataset";
    }
    return "";
}

/// parse_mnist(record: string) -> (image: float [784], label: int64): tf.parse_single_example of
/// the records writeTfRecords writes, as the FunctionDef a Dataset.map of it puts in the library.
constexpr const char* kParseFunction = R"pb(
  signature {
    name: 'parse_mnist'
    input_arg { name: 'record' type: DT_STRING }
    output_arg { name: 'image' type: DT_FLOAT }
    output_arg { name: 'label' type: DT_INT64 }
  }
  node_def {
    name: 'image_default'
    op: 'Const'
    attr { key: 'dtype' value { type: DT_FLOAT } }
    attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 0 } } } } }
  }
  node_def {
    name: 'label_default'
    op: 'Const'
    attr { key: 'dtype' value { type: DT_INT64 } }
    attr { key: 'value' value { tensor { dtype: DT_INT64 tensor_shape { dim { size: 0 } } } } }
  }
  node_def {
    name: 'ParseSingleExample'
    op: 'ParseSingleExample'
    input: 'record'
    input: 'image_default:output:0'
    input: 'label_default:output:0'
    attr { key: 'num_sparse' value { i: 0 } }
    attr { key: 'sparse_keys' value { list {} } }
    attr { key: 'sparse_types' value { list {} } }
    attr { key: 'dense_keys' value { list { s: [ 'image', 'label' ] } } }
    attr { key: 'Tdense' value { list { type: [ DT_FLOAT, DT_INT64 ] } } }
    attr { key: 'dense_shapes' value { list { shape { dim { size: 784 } } shape {} } } }
  }
  ret { key: 'image' value: 'ParseSingleExample:dense_values:0' }
  ret { key: 'label' value: 'ParseSingleExample:dense_values:1' }
)pb";

/// The memory graph (placeholders "x" [?, 784] and "y" [?]), the queue graph or the tf.data graph,
/// written as a MetaGraphDef (with its queue runners, or with the iterator's initializer in the
/// "table_initializer" collection, which MonitoredTrainingSession's local init op runs); the loss's name.
Expected<std::string> writeGraph(const Registries& registries, Feeding feeding, const fs::path& records,
                                 std::int64_t batch, int readerThreads, const fs::path& path)
{
    GraphBuilder b(registries.ops);
    b.setRandomSeed(1);
    input::QueueRunnerDefs runners;
    Output images, labels;
    if (feeding == Feeding::kMemory) {
        TSTUDIO_TRY(x, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({-1, kPixels}), "x"));
        TSTUDIO_TRY(y, ops::placeholder(b, tensorflow::DT_INT64, TensorShape({-1}), "y"));
        images = x;
        labels = y;
    } else if (feeding == Feeding::kQueues) {
        input::InputProducerOptions producer;
        producer.shuffle = false; // one file
        TSTUDIO_TRY(files, input::stringInputProducer(b, runners, {records.string()}, producer));
        TSTUDIO_TRY(reader, b.op("TFRecordReaderV2", {}, {}, "TFRecordReaderV2"));
        TSTUDIO_TRY(count, ops::constantInts(b, {batch}, TensorShape::scalar(), tensorflow::DT_INT64, "num_records"));
        TSTUDIO_TRY(read, b.op("ReaderReadUpToV2", {reader.output(0), files, count}, {}, "ReaderReadUpToV2"));
        parsing::Features features;
        features["image"] = parsing::FixedLenFeature{TensorShape({kPixels}), tensorflow::DT_FLOAT, std::nullopt};
        features["label"] = parsing::FixedLenFeature{TensorShape::scalar(), tensorflow::DT_INT64, std::nullopt};
        TSTUDIO_TRY(parsed, parsing::parseExample(b, read.output(1), features));
        // Parsing runs on the runners' threads, a whole read at a time; the training step only
        // dequeues a ready batch.
        input::BatchOptions batching;
        batching.batchSize = batch;
        batching.numThreads = readerThreads;
        batching.enqueueMany = true;
        batching.capacity = 8 * batch;
        TSTUDIO_TRY(batched, input::batch(b, runners, {parsed.dense.at("image"), parsed.dense.at("label")}, batching));
        images = batched[0];
        labels = batched[1];
    } else {
        // TFRecordDataset -> map(parse_single_example) -> shuffle -> batch -> repeat -> prefetch,
        // the tf.data recipe; map runs on readerThreads threads, prefetch on its own.
        tensorflow::FunctionDefLibrary library;
        if (!google::protobuf::TextFormat::ParseFromString(kParseFunction, library.add_function()))
            return unexpected(internalError("the benchmark's parse function does not parse"));
        if (Status s = b.addFunctions(library); !s.isOk())
            return unexpected(s);
        TSTUDIO_TRY(source, dataset::tfRecord(b, {records.string()}));
        dataset::MapOptions parallel;
        parallel.numParallelCalls = readerThreads;
        TSTUDIO_TRY(parsed, dataset::map(b, source, "parse_mnist", {tensorflow::DT_FLOAT, tensorflow::DT_INT64},
                                         {TensorShape({kPixels}), TensorShape::scalar()}, parallel));
        TSTUDIO_TRY(shuffled, dataset::shuffle(b, parsed, 10000, 1));
        TSTUDIO_TRY(batched, dataset::batch(b, shuffled, batch, true));
        TSTUDIO_TRY(repeated, dataset::repeat(b, batched));
        TSTUDIO_TRY(prefetched, dataset::prefetch(b, repeated, 2));
        TSTUDIO_TRY(iterator, dataset::makeInitializableIterator(b, prefetched));
        b.collections().add("table_initializer", iterator.initializer);
        images = iterator.next.at(0);
        labels = iterator.next.at(1);
    }
    TSTUDIO_TRY(loss, addMlp(b, images, labels));
    MetaGraphExportOptions options;
    if (!runners.empty())
        options.extraCollections[std::string(input::kQueueRunnersKey)] = input::queueRunnersCollection(runners);
    TSTUDIO_TRY(meta, exportMetaGraph(b, options));
    if (Status s = writeMetaGraphFile(path, meta); !s.isOk())
        return unexpected(s);
    return loss;
}

/// The generated .tsproj: the graph's loss trained by GradientDescent(0.01), no summaries, only the
/// first and the final checkpoint.
Expected<project::Project> writeProject(const fs::path& path, const std::string& graph, const std::string& loss,
                                        Feeding feeding, std::int64_t batch, std::int64_t steps)
{
    const bool memory = feeding == Feeding::kMemory;
    nlohmann::json doc = {{"format", "tensorstudio-project"},
                          {"version", 1},
                          {"name", memory                       ? "MLP fed from memory"
                                   : feeding == Feeding::kQueues ? "MLP reading TFRecords through queues"
                                                                 : "MLP reading TFRecords through tf.data"},
                          {"graph", {{"file", graph}}},
                          {"training",
                           {{"loss", loss}, {"optimizer", {{"type", "GradientDescent"}, {"learning_rate", 0.01}}}}},
                          {"batch_size", batch},
                          {"steps", steps},
                          {"hooks",
                           {{"checkpoint_every_steps", nullptr},
                            {"checkpoint_every_secs", 600},
                            {"summary_every_steps", nullptr},
                            {"log_every_steps", nullptr}}}};
    if (memory)
        doc["data"] = {{"sources",
                        {{{"type", "numpy"}, {"files", {"x.npy", "y.npy"}}, {"feeds", {{"x", "x"}, {"y", "y"}}}}}}};
    if (Status s = writeFileAtomically(path, jsonText(doc, 2)); !s.isOk())
        return unexpected(s);
    return project::loadProject(path);
}

/// One training run of `project`; steps per second over the steps after the warm-up.
Expected<double> timeRun(const project::Project& project, const Registries& registries, int warmup, int steps,
                         int threads)
{
    TSTUDIO_TRY(logdir, temporaryLogDirectory("bench-queues"));
    project::TrainRunOptions options;
    options.logdir = logdir;
    options.threads = threads;
    options.steps = warmup + steps;
    options.progressEverySteps = 1;
    Clock::time_point warm, end;
    options.onProgress = [&](const project::TrainProgress& p) {
        if (p.step - p.firstStep == warmup)
            warm = Clock::now();
        if (p.step - p.firstStep == warmup + steps)
            end = Clock::now();
    };
    auto result = project::trainProject(project, registries, options);
    std::error_code ec;
    fs::remove_all(logdir, ec);
    if (!result)
        return unexpected(result.error());
    if (result->inputExhaustedAfter)
        return unexpected(internalError("the input ended after " + std::to_string(*result->inputExhaustedAfter) +
                                        " steps"));
    const double seconds = std::chrono::duration<double>(end - warm).count();
    if (seconds <= 0)
        return unexpected(internalError("the run did not reach step " + std::to_string(warmup + steps)));
    return static_cast<double>(steps) / seconds;
}

} // namespace

int benchQueues(const Registries& registries, const QueuesBenchArgs& args, BenchReport& report)
{
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "tstudio bench queues: %s\n", s.toString().c_str());
        return static_cast<int>(kExitFailure);
    };
    const int steps = args.steps > 0 ? args.steps : 2000;
    const int warmup = args.warmup > 0 ? args.warmup : 100;
    const std::int64_t batch = args.batch > 0 ? args.batch : 100;
    CpuAllocator allocator;
    auto examples = loadExamples(args.dataDir, allocator);
    if (!examples)
        return fail(examples.error());
    auto dir = temporaryLogDirectory("bench-queues-data");
    if (!dir)
        return fail(dir.error());
    struct Cleanup {
        fs::path dir;
        ~Cleanup()
        {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } cleanup{*dir};
    const fs::path records = *dir / "mnist.tfrecord";
    if (Status s = writeTfRecords(*examples, records); !s.isOk())
        return fail(s);
    if (Status s = writeNpy(*dir / "x.npy", examples->images); !s.isOk())
        return fail(s);
    if (Status s = writeNpy(*dir / "y.npy", examples->labels); !s.isOk())
        return fail(s);
    std::error_code ec;
    report.text("data: %s\n", examples->description.c_str());
    report.text("records: %s (%.1f MB of tf.train.Example)\n", records.string().c_str(),
                static_cast<double>(fs::file_size(records, ec)) / 1e6);

    const Feeding feedings[] = {Feeding::kMemory, Feeding::kQueues, Feeding::kDataset};
    std::vector<project::Project> projects;
    for (Feeding feeding : feedings) {
        const std::string name = feedingName(feeding);
        auto loss = writeGraph(registries, feeding, records, batch, args.readerThreads, *dir / (name + ".meta"));
        if (!loss)
            return fail(loss.error().withContext(name + " graph"));
        auto project =
            writeProject(*dir / (name + ".tsproj"), name + ".meta", *loss, feeding, batch, warmup + steps);
        if (!project)
            return fail(project.error());
        projects.push_back(std::move(*project));
    }
    report.text("MLP 784-500-10, batch %lld, %d steps timed after %d, %d round(s)\n", static_cast<long long>(batch),
                steps, warmup, args.repeat);
    double best[3] = {0, 0, 0};
    for (int round = 0; round < args.repeat; ++round)
        for (std::size_t kind = 0; kind < projects.size(); ++kind) {
            const std::string name = feedingName(feedings[kind]);
            auto rate = timeRun(projects[kind], registries, warmup, steps, args.threads);
            if (!rate)
                return fail(rate.error().withContext(name + " project"));
            report.text("  run %d %-7s %8.1f steps/s\n", round + 1, name.c_str(), *rate);
            std::fflush(report.json() ? stderr : stdout);
            best[kind] = std::max(best[kind], *rate);
        }
    const char* threads = args.readerThreads == 1 ? "" : "s";
    report.text("memory (a numpy source, fed): %.1f steps/s\n", best[0]);
    report.text("queues (TFRecord -> ReaderReadUpTo -> ParseExample -> batch, %d thread%s): %.1f steps/s\n",
                args.readerThreads, threads, best[1]);
    report.text("dataset (TFRecordDataset -> map(parse_single_example, %d thread%s) -> shuffle -> batch -> repeat -> "
                "prefetch): %.1f steps/s\n",
                args.readerThreads, threads, best[2]);
    report.text("queues / memory: %.2fx\n", best[0] > 0 ? best[1] / best[0] : 0.0);
    report.text("dataset / memory: %.2fx\n", best[0] > 0 ? best[2] / best[0] : 0.0);
    // Whether map(parse_single_example) -> shuffle -> batch ran as one parse per batch (batch_parse.h).
    report.text("tf.data batched parsing: %s\n", tfdata::batchParseIteratorsMade() > 0 ? "yes" : "no");
    report["data"] = examples->description;
    report["records"] = records.string();
    report["batch"] = batch;
    report["steps"] = steps;
    report["warmup"] = warmup;
    report["rounds"] = args.repeat;
    report["reader_threads"] = args.readerThreads;
    report["memory_steps_per_second"] = best[0];
    report["queues_steps_per_second"] = best[1];
    report["dataset_steps_per_second"] = best[2];
    report["queues_to_memory"] = best[0] > 0 ? nlohmann::ordered_json(best[1] / best[0]) : nlohmann::ordered_json(nullptr);
    report["dataset_to_memory"] = best[0] > 0 ? nlohmann::ordered_json(best[2] / best[0]) : nlohmann::ordered_json(nullptr);
    report["batched_parsing"] = tfdata::batchParseIteratorsMade() > 0;
    return kExitOk;
}

} // namespace tstudio::cli
