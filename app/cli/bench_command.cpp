// tstudio bench: figures for the engine's speed targets (matmul GFLOPS, per-node overhead,
// checkpoint save and restore throughput).
#include "cli_command.h"

#include "background_load.h"
#include "bench_all.h"
#include "bench_datasets.h"
#include "bench_evaluation.h"
#include "bench_events.h"
#include "bench_functions.h"
#include "bench_support.h"
#include "bench_queues.h"
#include "bench_report.h"
#include "bench_ptb.h"
#include "bench_training.h"

#include "core/affinity_cores.h"
#include "framework/node_attrs.h"
#include "image_pipeline_bench.h"
#include "training/embedding_bench.h"
#include "io/checkpoint/tensor_bundle_index.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <thread>

namespace tstudio::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchArgs {
    std::string what;
    int size = 1024;
    std::string shape; ///< matmul: "M,K,N" instead of size^3
    bool transposeA = false;
    bool transposeB = false;
    int threads = 0;
    int repeat = 10;
    int nodes = 10000;
    int steps = 0;
    int warmup = 0;
    int megabytes = 500;
    int tensorMegabytes = 20;
    std::string dir;
    int runs = 1;
    std::string keep;
    bool trace = false;
    int profileSteps = 0;
    bool debug = false;
    bool repeatGiven = false;
    bool nodesGiven = false;
    std::string device = "cpu";
    int batch = 0;
    bool noCudaGraphs = false;
    bool noRemapping = false;
    std::string project = "mnist-notes";
    std::vector<std::string> sets;
    std::string data;
    int readerThreads = 2;
    bool convertFirst = false;
    int backgroundLoad = 0;
    BenchAllArgs all; ///< bench all: its own options (--only, --rounds, --tools, --python)
};

tensorflow::NodeDef makeNode(const std::string& name, const std::string& op, std::initializer_list<std::string> inputs)
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.set_op(op);
    for (const auto& in : inputs)
        node.add_input(in);
    (*node.mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    return node;
}

tensorflow::NodeDef placeholder(const std::string& name)
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.set_op("Placeholder");
    (*node.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    return node;
}

std::unique_ptr<Session> makeSession(const Registries& registries, int threads)
{
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    options.config.set_intra_op_parallelism_threads(threads);
    options.config.set_inter_op_parallelism_threads(1);
    return std::make_unique<Session>(options);
}

int benchMatmul(const Registries& registries, const BenchArgs& args, BenchReport& report)
{
    std::int64_t m = args.size;
    std::int64_t k = args.size;
    std::int64_t n = args.size;
    if (!args.shape.empty()) {
        char tail = 0;
        long long mm = 0, kk = 0, nn = 0;
        if (std::sscanf(args.shape.c_str(), "%lld,%lld,%lld%c", &mm, &kk, &nn, &tail) != 3 || mm < 1 || kk < 1 ||
            nn < 1 || mm * kk > (1LL << 28) || kk * nn > (1LL << 28) || mm * nn > (1LL << 28))
            return fail(invalidArgumentError("--shape '" + args.shape +
                                             "': expected M,K,N (positive, each matrix at most 2^28 elements)"));
        m = mm;
        k = kk;
        n = nn;
    }
    tensorflow::GraphDef graph;
    *graph.add_node() = placeholder("a");
    *graph.add_node() = placeholder("b");
    auto mm = makeNode("product", "MatMul", {"a", "b"});
    (*mm.mutable_attr())["transpose_a"].set_b(args.transposeA);
    (*mm.mutable_attr())["transpose_b"].set_b(args.transposeB);
    *graph.add_node() = mm;
    auto session = makeSession(registries, args.threads);
    if (Status s = session->create(graph); !s.isOk())
        return fail(s);
    CpuAllocator cpu;
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    auto random = [&](std::int64_t rows, std::int64_t cols) {
        std::vector<float> values(static_cast<std::size_t>(rows * cols));
        for (float& v : values)
            v = dist(rng);
        return Tensor::fromVector<float>(cpu, TensorShape{rows, cols}, values);
    };
    auto a = args.transposeA ? random(k, m) : random(m, k);
    auto b = args.transposeB ? random(n, k) : random(k, n);
    if (!a || !b)
        return fail(!a ? a.error() : b.error());
    std::vector<std::pair<std::string, Tensor>> feeds{{"a", *a}, {"b", *b}};
    std::vector<Tensor> out;
    if (Status s = session->run(feeds, {"product"}, {}, &out); !s.isOk())  // warm-up: kernels, pools
        return fail(s);
    std::vector<double> seconds;
    for (int r = 0; r < args.repeat; ++r) {
        const auto start = Clock::now();
        if (Status s = session->run(feeds, {"product"}, {}, &out); !s.isOk())
            return fail(s);
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    const double flops = 2.0 * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
    const int threads = args.threads > 0 ? args.threads : schedulableCores();
    const double best = *std::min_element(seconds.begin(), seconds.end());
    report.text("matmul M=%lld K=%lld N=%lld%s%s float32, %d intra-op threads, %d runs through Session::run\n",
                static_cast<long long>(m), static_cast<long long>(k), static_cast<long long>(n),
                args.transposeA ? " transpose_a" : "", args.transposeB ? " transpose_b" : "", threads, args.repeat);
    report.text("  median %.3f ms  %.1f GFLOPS\n", median(seconds) * 1e3, flops / median(seconds) / 1e9);
    report.text("  best   %.3f ms  %.1f GFLOPS\n", best * 1e3, flops / best / 1e9);
    report["m"] = m;
    report["k"] = k;
    report["n"] = n;
    report["transpose_a"] = args.transposeA;
    report["transpose_b"] = args.transposeB;
    report["threads"] = threads;
    report["runs"] = args.repeat;
    report["median_ms"] = median(seconds) * 1e3;
    report["best_ms"] = best * 1e3;
    report["median_gflops"] = flops / median(seconds) / 1e9;
    report["best_gflops"] = flops / best / 1e9;
    return kExitOk;
}

int benchOverhead(const Registries& registries, const BenchArgs& args, BenchReport& report)
{
    tensorflow::GraphDef graph;
    tensorflow::NodeDef one;
    one.set_name("one");
    one.set_op("Const");
    (*one.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    auto& value = *(*one.mutable_attr())["value"].mutable_tensor();
    value.set_dtype(tensorflow::DT_FLOAT);
    value.mutable_tensor_shape();
    value.add_float_val(1.0f);
    *graph.add_node() = one;
    std::string previous = "one";
    for (int i = 0; i < args.nodes; ++i) {
        const std::string name = "add_" + std::to_string(i);
        *graph.add_node() = makeNode(name, "Add", {previous, "one"});
        previous = name;
    }
    auto session = makeSession(registries, 1);
    if (Status s = session->create(graph); !s.isOk())
        return fail(s);
    std::vector<Tensor> out;
    if (Status s = session->run({}, {previous}, {}, &out); !s.isOk())
        return fail(s);
    const float expected = static_cast<float>(args.nodes + 1);
    if (out.at(0).scalar<float>() != expected)
        return fail(internalError("the chain computed " + std::to_string(out[0].scalar<float>()) + ", expected " +
                                  std::to_string(expected)));
    std::vector<double> seconds;
    for (int r = 0; r < args.repeat; ++r) {
        const auto start = Clock::now();
        if (Status s = session->run({}, {previous}, {}, &out); !s.isOk())
            return fail(s);
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    const double perNode = median(seconds) / (args.nodes + 1) * 1e6;
    const double best = *std::min_element(seconds.begin(), seconds.end());
    report.text("overhead: chain of %d scalar Add nodes (+1 Const), %d runs through Session::run, one thread\n",
                args.nodes, args.repeat);
    report.text("  median %.3f ms per run  %.3f us per node\n", median(seconds) * 1e3, perNode);
    report.text("  best   %.3f ms per run  %.3f us per node\n", best * 1e3, best / (args.nodes + 1) * 1e6);
    report["nodes"] = args.nodes + 1;
    report["runs"] = args.repeat;
    report["median_ms_per_run"] = median(seconds) * 1e3;
    report["best_ms_per_run"] = best * 1e3;
    report["median_us_per_node"] = perNode;
    report["best_us_per_node"] = best / (args.nodes + 1) * 1e6;
    return kExitOk;
}

// ---- checkpoint -----------------------------------------------------------------------------

namespace fs = std::filesystem;

constexpr double kMB = 1e6; ///< decimal units throughout: 1 MB = 10^6 bytes, 1 GB/s = 10^9 bytes/s

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

/// A fresh directory under `parent` (or the system's temporary directory), removed on destruction.
class BenchDirectory {
public:
    static Expected<BenchDirectory> create(const std::string& parent)
    {
        std::error_code ec;
        const fs::path base = parent.empty() ? fs::temp_directory_path(ec) : fs::path(parent);
        if (ec)
            return unexpected(notFoundError("no temporary directory: " + ec.message()));
        std::random_device seed;
        for (int attempt = 0; attempt < 16; ++attempt) {
            fs::path dir = base / ("tstudio-bench-checkpoint-" + std::to_string(seed()));
            if (fs::create_directory(dir, ec))
                return BenchDirectory(std::move(dir));
            if (ec) {
                std::string message = "cannot create a directory in '" + base.string() + "': " + ec.message();
                if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
                    return unexpected(notFoundError(std::move(message)));
                if (ec == std::errc::permission_denied || ec == std::errc::read_only_file_system)
                    return unexpected(permissionDeniedError(std::move(message)));
                return unexpected(unavailableError(std::move(message)));
            }
        }
        return unexpected(unavailableError("cannot find a fresh directory name in '" + base.string() + "'"));
    }
    BenchDirectory(BenchDirectory&& other) noexcept : m_path(std::exchange(other.m_path, {})) {}
    BenchDirectory& operator=(BenchDirectory&&) = delete;
    ~BenchDirectory()
    {
        if (!m_path.empty()) {
            std::error_code ignored;
            fs::remove_all(m_path, ignored);
        }
    }
    const fs::path& path() const { return m_path; }

private:
    explicit BenchDirectory(fs::path path) : m_path(std::move(path)) {}
    fs::path m_path;
};

struct Phases {
    double add = 0;    ///< TensorBundleWriter::add for every tensor: CRC32C and buffered writes
    double finish = 0; ///< finish(): index, fsync of both files, renames
    double total() const { return add + finish; }
};

Expected<Phases> saveCheckpoint(const std::string& prefix, const std::vector<std::pair<std::string, Tensor>>& tensors)
{
    Phases phases;
    const auto start = Clock::now();
    auto writer = TensorBundleWriter::create(prefix);
    if (!writer)
        return unexpected(writer.error());
    for (const auto& [name, tensor] : tensors) {
        if (Status s = (*writer)->add(name, tensor); !s.isOk())
            return unexpected(s);
    }
    phases.add = seconds(start);
    const auto finishing = Clock::now();
    if (Status s = (*writer)->finish(); !s.isOk())
        return unexpected(s);
    phases.finish = seconds(finishing);
    return phases;
}

/// Opens the checkpoint and reads every tensor (each CRC32C checked by the reader); `check`,
/// when given, receives each tensor read.
Status restoreCheckpoint(const std::string& prefix, Allocator& allocator,
                         const std::function<Status(const std::string&, const Tensor&)>& check = {})
{
    auto reader = CheckpointReader::open(prefix);
    if (!reader)
        return reader.error();
    for (const BundleTensorInfo& info : reader->tensors()) {
        auto tensor = reader->read(info.name, allocator);
        if (!tensor)
            return tensor.error();
        if (check) {
            if (Status s = check(info.name, *tensor); !s.isOk())
                return s;
        }
    }
    return Status::ok();
}

int benchCheckpoint(const BenchArgs& args, BenchReport& report)
{
    // The model: float32 tensors of --tensor-mb each (the last one takes the remainder).
    const std::int64_t totalBytes = static_cast<std::int64_t>(args.megabytes) * 1000000;
    const std::int64_t tensorBytes = std::min<std::int64_t>(totalBytes, std::int64_t(args.tensorMegabytes) * 1000000);
    CpuAllocator cpu;
    std::vector<std::pair<std::string, Tensor>> tensors;
    std::uint64_t state = 0x9e3779b97f4a7c15ull; // xorshift64: arbitrary, reproducible values
    for (std::int64_t done = 0; done < totalBytes; done += tensorBytes) {
        const std::int64_t elements = std::min(tensorBytes, totalBytes - done) / 4;
        char name[64];
        std::snprintf(name, sizeof name, "layer%03zu/weights", tensors.size());
        auto tensor = Tensor::allocate(cpu, tensorflow::DT_FLOAT, TensorShape{elements});
        if (!tensor)
            return fail(tensor.error());
        for (float& v : tensor->values<float>()) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            v = static_cast<float>(static_cast<std::int32_t>(state >> 32)) * 1e-9f;
        }
        tensors.emplace_back(name, std::move(*tensor));
    }
    std::int64_t bytes = 0;
    for (const auto& [name, tensor] : tensors)
        bytes += static_cast<std::int64_t>(tensor.tensorData().size());

    auto dir = BenchDirectory::create(args.dir);
    if (!dir)
        return fail(dir.error());
    const int runs = args.repeatGiven ? args.repeat : 3;
    std::vector<Phases> saves;
    std::vector<double> restores;
    std::uintmax_t indexSize = 0, dataSize = 0;
    for (int r = 0; r < runs; ++r) {
        const std::string prefix = (dir->path() / ("model.ckpt-" + std::to_string(r))).string();
        auto saved = saveCheckpoint(prefix, tensors);
        if (!saved)
            return fail(saved.error());
        saves.push_back(*saved);
        const auto start = Clock::now();
        if (Status s = restoreCheckpoint(prefix, cpu); !s.isOk())
            return fail(s);
        restores.push_back(seconds(start));
        if (r == 0) {
            // Once, untimed: every tensor reads back equal to what was saved.
            std::map<std::string, const Tensor*> byName;
            for (const auto& [name, tensor] : tensors)
                byName[name] = &tensor;
            Status same = restoreCheckpoint(prefix, cpu, [&](const std::string& name, const Tensor& t) {
                const Tensor* saved = byName.at(name);
                byName.erase(name);
                const auto a = t.tensorData();
                const auto b = saved->tensorData();
                if (a.size() != b.size() || std::memcmp(a.data(), b.data(), a.size()) != 0)
                    return internalError("tensor '" + name + "' read back differs from what was saved");
                return Status::ok();
            });
            if (same.isOk() && !byName.empty())
                same = internalError("tensor '" + byName.begin()->first + "' was not read back");
            if (!same.isOk())
                return fail(same);
            std::error_code ec;
            indexSize = fs::file_size(bundle::indexFilename(prefix), ec);
            dataSize = ec ? 0 : fs::file_size(bundle::dataFilename(prefix, 0, 1), ec);
            if (ec)
                return fail(
                    unavailableError("cannot stat the checkpoint written at '" + prefix + "': " + ec.message()));
        }
        // Each run writes fresh files; the previous run's go now, outside the timings.
        std::error_code ignored;
        fs::remove(bundle::indexFilename(prefix), ignored);
        fs::remove(bundle::dataFilename(prefix, 0, 1), ignored);
    }

    const auto rate = [&](double s) {
        char text[64];
        const double perSecond = static_cast<double>(bytes) / s;
        std::snprintf(text, sizeof text, "%6.0f MB/s (%.2f GB/s)", perSecond / kMB, perSecond / 1e9);
        return std::string(text);
    };
    const auto bestSave = *std::min_element(saves.begin(), saves.end(),
                                            [](const Phases& a, const Phases& b) { return a.total() < b.total(); });
    const auto worstSave = *std::max_element(saves.begin(), saves.end(),
                                             [](const Phases& a, const Phases& b) { return a.total() < b.total(); });
    std::vector<double> saveTotals;
    for (const Phases& p : saves)
        saveTotals.push_back(p.total());
    const double bestRestore = *std::min_element(restores.begin(), restores.end());
    report.text("checkpoint: %zu float32 tensors, %.1f MB in all (1 MB = 10^6 bytes), %d runs of save then restore,\n"
                "  in %s\n",
                tensors.size(), static_cast<double>(bytes) / kMB, runs, dir->path().string().c_str());
    report.text("  files: .index %ju bytes, .data-00000-of-00001 %ju bytes\n", indexSize, dataSize);
    report.text("  save     best %.3f s  %s   median %.3f s  %s\n", bestSave.total(), rate(bestSave.total()).c_str(),
                median(saveTotals), rate(median(saveTotals)).c_str());
    report.text("           best run's phases: add %.3f s (CRC32C, writes), finish %.3f s (index, fsync, renames)\n",
                bestSave.add, bestSave.finish);
    report.text("           slowest run's phases: add %.3f s, finish %.3f s\n", worstSave.add, worstSave.finish);
    report.text("  restore  best %.3f s  %s   median %.3f s  %s   (open, read, CRC32C check)\n", bestRestore,
                rate(bestRestore).c_str(), median(restores), rate(median(restores)).c_str());
    const auto bytesPerSecond = [&](double s) { return static_cast<double>(bytes) / s; };
    report["tensors"] = tensors.size();
    report["bytes"] = bytes;
    report["runs"] = runs;
    report["directory"] = dir->path().string();
    report["index_bytes"] = indexSize;
    report["data_bytes"] = dataSize;
    report["save"] = {{"best_seconds", bestSave.total()},
                      {"best_bytes_per_second", bytesPerSecond(bestSave.total())},
                      {"median_seconds", median(saveTotals)},
                      {"median_bytes_per_second", bytesPerSecond(median(saveTotals))},
                      {"best_add_seconds", bestSave.add},
                      {"best_finish_seconds", bestSave.finish}};
    report["restore"] = {{"best_seconds", bestRestore},
                         {"best_bytes_per_second", bytesPerSecond(bestRestore)},
                         {"median_seconds", median(restores)},
                         {"median_bytes_per_second", bytesPerSecond(median(restores))}};
    return kExitOk;
}

/// `tstudio bench images`: the JPEG pipeline's sets, text and figures.
int benchImages(const Registries& registries, const BenchArgs& args, BenchReport& report)
{
    image_io::ImageBenchOptions images;
    images.threads = args.threads > 0 ? args.threads : 2;
    images.keepDir = args.keep;
    images.resizeBeforeScale = !args.convertFirst;
    auto results = image_io::runImagePipelineBench(registries.ops, registries.kernels,
                                                   image_io::defaultImageBenchSets(args.batch), images);
    if (!results)
        return fail(results.error());
    report.textBlock(image_io::formatImageBenchResults(*results, images));
    report["threads"] = images.threads;
    nlohmann::ordered_json sets = nlohmann::ordered_json::array();
    for (const image_io::ImageBenchResult& r : *results) {
        nlohmann::ordered_json ops = nlohmann::ordered_json::object();
        for (const auto& [op, micros] : r.opMicrosPerImage)
            ops[op] = micros;
        sets.push_back({{"set", r.set.name},
                        {"images", r.images},
                        {"seconds", r.seconds},
                        {"images_per_second", r.imagesPerSecond},
                        {"images_per_cpu_second", r.cpuSeconds > 0 ? nlohmann::ordered_json(double(r.images) / r.cpuSeconds)
                                                                    : nlohmann::ordered_json(nullptr)},
                        {"mean_jpeg_bytes", r.meanJpegBytes},
                        {"pipeline", r.graphSummary},
                        {"op_us_per_image", std::move(ops)},
                        {"traced_us_per_image", r.tracedMicrosPerImage}});
    }
    report["sets"] = std::move(sets);
    return report.finish(kExitOk);
}

/// `tstudio bench embedding`: sparse against dense updates of a 10,000 x 200 embedding.
int benchEmbedding(const Registries& registries, const BenchArgs& args, BenchReport& report)
{
    training::EmbeddingBenchOptions embedding;
    embedding.threads = args.threads;
    embedding.steps = args.steps > 0 ? args.steps : embedding.steps;
    embedding.repeat = args.repeatGiven ? args.repeat : embedding.repeat;
    auto results = training::runEmbeddingBench(registries.ops, registries.kernels, embedding);
    if (!results)
        return fail(results.error());
    report.textBlock(training::formatEmbeddingBenchResults(*results, embedding));
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const training::EmbeddingBenchResult& r : *results)
        runs.push_back({{"optimizer", r.optimizer},
                        {"sparse", r.sparse},
                        {"remapper", r.remapper},
                        {"steps_per_second", r.stepsPerSecond},
                        {"final_loss", r.finalLoss}});
    report["runs"] = std::move(runs);
    return report.finish(kExitOk);
}

/// The bench command's options, into `args`; returns --repeat and --nodes, whose presence counts.
std::pair<CLI::Option*, CLI::Option*> addBenchOptions(CLI::App* cmd, BenchArgs& args)
{
    cmd->add_option("WHAT", args.what,
                    "matmul, overhead, checkpoint, mlp, lenet, resnet, resnet50, events, eval, images, queues, functions, datasets, "
                    "embedding, ptb or all")
        ->required()
        ->check(CLI::IsMember(
            {"matmul", "overhead", "checkpoint", "mlp", "lenet", "resnet", "resnet50", "events", "eval", "images", "queues",
             "functions", "datasets", "embedding", "ptb", "all"}));
    cmd->add_option("--only", args.all.only, "all: the rows to run (default every one): mlp, lenet, resnet, ptb, images, pipelines")
        ->check(CLI::IsMember(benchAllRows()));
    cmd->add_flag("--json", args.all.json, "print the figures as JSON on stdout, the text on stderr (all: the table, "
                                          "with rounds, min, median, max and ratio per row)");
    cmd->add_option("--rounds", args.all.rounds, "all: interleaved rounds (each runs every row and its peer once)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100));
    cmd->add_option("--tools", args.all.tools,
                    "all: the folder of pytorch_bench.py, pytorch_ptb.py and pillow_decode.py (default: tools/bench "
                    "above this program or the working directory)");
    cmd->add_option("--python", args.all.python, "all: the Python that runs the peers (Debian's, with python3-torch "
                                                  "and python3-pil)")
        ->capture_default_str();
    cmd->add_option("--project", args.project, "eval: a .tsproj with an eval section, or a shipped example's name")
        ->capture_default_str();
    cmd->add_option("--set", args.sets, "eval: KEY=VALUE overrides of the project, e.g. --set data.dir=MNIST_DIR");
    cmd->add_option("--device", args.device, "mlp, lenet, resnet, resnet50: cpu or gpu (GPU:0, ops placed as TensorFlow does)")
        ->capture_default_str()
        ->check(CLI::IsMember({"cpu", "gpu"}));
    cmd->add_flag("--no-cuda-graphs", args.noCudaGraphs,
                  "mlp, lenet, resnet on the GPU: run every step in the executor (default: the training step is "
                  "captured once as a CUDA graph and replayed)");
    cmd->add_flag("--no-remapping", args.noRemapping,
                  "mlp, lenet, resnet, ptb: turn Grappler's remapper off (RewriterConfig remapping OFF), so no ops run "
                  "fused (default on, as in TensorFlow: Conv2D + BiasAdd + Relu runs as one _FusedConv2D)");
    cmd->add_option("--batch", args.batch, "mlp, lenet, resnet, resnet50: examples per step (0 = 100, resnet 256, resnet50 8)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--size", args.size, "matmul: N for an NxN by NxN product")->capture_default_str()->check(CLI::Range(1, 16384));
    cmd->add_option("--shape", args.shape,
                    "matmul: M,K,N for an [M,K] x [K,N] product instead of --size (e.g. 20,400,800, an LSTM step)");
    cmd->add_flag("--transpose-a", args.transposeA, "matmul: MatMul's transpose_a (a is fed as [K,M])");
    cmd->add_flag("--transpose-b", args.transposeB, "matmul: MatMul's transpose_b (b is fed as [N,K])");
    cmd->add_option("--threads", args.threads, "matmul, mlp, lenet, ptb, all: intra-op threads (0 = one per core this process may run on)")->capture_default_str();
    auto* repeat =
        cmd->add_option("--repeat", args.repeat, "timed runs (after one warm-up run; checkpoint: 3 runs, no warm-up)")
            ->capture_default_str()
            ->check(CLI::Range(1, 100000));
    auto* nodes = cmd->add_option("--nodes", args.nodes,
                                  "overhead: length of the Add chain; functions: length of each chain (default 2000)")
                      ->capture_default_str()
                      ->check(CLI::Range(1, 10000000));
    cmd->add_option("--steps", args.steps,
                    "mlp, lenet, queues, ptb, all: timed training steps (0 = 300 for mlp, 30 for lenet, 2000 for queues, 50 for ptb)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--warmup", args.warmup,
                    "mlp, lenet, queues, ptb: untimed steps first (0 = 20 for mlp, 3 for lenet, 100 for queues, 5 for ptb)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000000));
    cmd->add_flag("--trace", args.trace,
                  "mlp, lenet: also time the steps with FULL_TRACE (as the profiler runs them) and print the "
                  "tracing overhead");
    cmd->add_option("--profile", args.profileSteps,
                    "mlp, lenet, resnet, resnet50, ptb: after the timed blocks, trace this many steps and print the op and "
                    "scope tables (average per step), as tstudio profile --summary does")
        ->check(CLI::Range(0, 100000));
    cmd->add_flag("--debug", args.debug,
                  "mlp, lenet: also time the steps with the debugger attached (no breakpoints) and with its NaN/Inf "
                  "check on every float tensor, and print both overheads");
    cmd->add_option("--mb", args.megabytes,
                    "checkpoint: model size in MB (10^6 bytes) of float32 tensors; events: size of the "
                    "log directory written")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--tensor-mb", args.tensorMegabytes, "checkpoint: size of each tensor in MB")
        ->capture_default_str()
        ->check(CLI::Range(1, 2000));
    cmd->add_option("--dir", args.dir,
                    "checkpoint: where to write (a fresh directory inside it, removed afterwards; "
                    "default: the system's temporary directory); events: a log directory to read instead of "
                    "writing one");
    cmd->add_option("--runs", args.runs, "events: runs the log directory is split into")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--data", args.data,
                    "queues: a folder with MNIST's idx files (default ../shared/fixtures/mnist when present, else "
                    "10,000 synthetic examples)");
    cmd->add_option("--reader-threads", args.readerThreads, "queues: threads of the graph's batch queue runner and of its tf.data map")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    cmd->add_flag("--convert-first", args.convertFirst,
                  "images: convert_image_dtype to float32 before resize_images (default: resize the uint8 batch, "
                  "then scale by 1/255, the TensorFlow idiom and Pillow's order)");
    cmd->add_option("--keep", args.keep, "events: write the log directory here and keep it (for "
                                          "tensorstudio --bench-dashboard)");
    cmd->add_option("--background-load", args.backgroundLoad,
                    "run beside N busy processes, each spinning on one of the last N cores, as another program "
                    "(a compiler, a browser, the IDE's own window) keeps cores busy; killed when the benchmark ends")
        ->capture_default_str();
    return {repeat, nodes};
}

/// Runs the benchmark `args` name (the bench command's callback).
int runBench(BenchArgs& args)
{
    auto load = BackgroundLoad::start(args.backgroundLoad);
    if (!load)
        return fail(load.error());
    // Every benchmark but `all` (which has its own table) reports through `report`.
    BenchReport report(args.what, args.all.json);
    if (args.backgroundLoad > 0) {
        std::fprintf(args.all.json ? stderr : stdout, "background load: %s\n", load->describe().c_str());
        std::fflush(stdout);
        report["background_load"] = load->describe();
    }
    if (args.what == "all") {
        BenchAllArgs all = args.all;
        all.threads = args.threads > 0 ? args.threads : schedulableCores();
        all.steps = args.steps;
        all.warmup = args.warmup;
        return benchAll(all);
    }
    if (args.what == "events")
        return report.finish(benchEvents({args.dir, args.megabytes, args.runs, args.keep}, report));
    if (args.what == "checkpoint")
        return report.finish(benchCheckpoint(args, report));
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail(registries.error());
    if (args.what == "images")
        return benchImages(**registries, args, report);
    if (args.what == "embedding")
        return benchEmbedding(**registries, args, report);
    if (args.what == "datasets") {
        DatasetsBenchArgs datasets;
        datasets.elements = args.nodesGiven ? args.nodes : 0;
        datasets.batch = args.batch;
        datasets.threads = args.threads;
        datasets.repeat = args.repeatGiven ? args.repeat : 3;
        return report.finish(benchDatasets(**registries, datasets, report));
    }
    if (args.what == "functions") {
        FunctionsBenchArgs functions;
        functions.calls = args.nodesGiven ? args.nodes : 2000;
        functions.repeat = args.repeatGiven ? args.repeat : 20;
        return report.finish(benchFunctions(**registries, functions, report));
    }
    if (args.what == "eval") {
        EvalBenchArgs eval;
        eval.project = args.project;
        eval.sets = args.sets;
        eval.steps = args.steps > 0 ? args.steps : 2000;
        eval.repeat = args.repeatGiven ? args.repeat : 2;
        eval.threads = args.threads;
        return report.finish(benchEvaluation(**registries, eval, report));
    }
    if (args.what == "queues") {
        QueuesBenchArgs queues;
        queues.dataDir = args.data;
        queues.steps = args.steps;
        queues.warmup = args.warmup;
        queues.batch = args.batch;
        queues.threads = args.threads;
        queues.readerThreads = args.readerThreads;
        queues.repeat = args.repeatGiven ? args.repeat : 3;
        return report.finish(benchQueues(**registries, queues, report));
    }
    if (args.what == "ptb") {
        PtbBenchArgs ptb;
        ptb.threads = args.threads;
        ptb.steps = args.steps;
        ptb.warmup = args.warmup;
        ptb.profileSteps = args.profileSteps;
        ptb.remapping = !args.noRemapping;
        return report.finish(benchPtb(**registries, ptb, report));
    }
    if (args.what == "mlp" || args.what == "lenet" || args.what == "resnet" || args.what == "resnet50") {
        TrainingBenchArgs training;
        training.model = args.what;
        training.device = args.device;
        training.threads = args.threads;
        training.steps = args.steps;
        training.warmup = args.warmup;
        training.batch = args.batch;
        training.trace = args.trace;
        training.debug = args.debug;
        training.profileSteps = args.profileSteps;
        training.cudaGraphs = !args.noCudaGraphs;
        training.remapping = !args.noRemapping;
        return report.finish(benchTraining(**registries, training, report));
    }
    return report.finish(args.what == "matmul" ? benchMatmul(**registries, args, report)
                                                    : benchOverhead(**registries, args, report));
}

} // namespace

void addBenchCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("bench", "Measure the engine: 'matmul' (GFLOPS), 'overhead' (microseconds per "
                                            "node), 'checkpoint' (save and restore GB/s), 'mlp', 'lenet', 'resnet' or 'resnet50' "
                                            "(training steps per second, batch 100, resnet 256, resnet50 (224x224) 8, on the CPU or the GPU; "
                                            "compare with tools/bench/pytorch_bench.py), "
                                            "'events' (event file reading MB/s, one thread), 'eval' (what a project's evaluation while training "
                                            "costs: trained with and without its eval section), 'images' (JPEG decoding and "
                                            "augmentation images/s, 2 threads; --keep DIR keeps the JPEGs for "
                                            "tools/bench/pillow_decode.py), 'queues' (a project reading MNIST from "
                                            "TFRecords through its graph's queues, and through its graph's tf.data "
                                            "pipeline, against the same project fed from memory, steps/s and the "
                                            "ratios), 'functions' (microseconds per library-function call, by "
                                            "name and through (Stateful)PartitionedCall, against inline nodes), 'datasets' (a tf.data "
                                            "pipeline's elements/s, sequential map against parallel map + prefetch), 'embedding' (a 10,000 x 200 "
                                            "embedding trained with sparse updates against the same model forced dense, "
                                            "SGD and Adam, steps/s), 'ptb' (PTB-small language-model training steps/s, "
                                            "2 x 200 LSTM, 20 steps, batch 20, vocabulary 10,000; compare with "
                                            "tools/bench/pytorch_ptb.py), 'all' (every training and pipeline "
                                            "benchmark beside its peer, PyTorch, Pillow or fed from memory, in "
                                            "interleaved rounds, as one table with min / median / max and ratios)");
    auto args = std::make_shared<BenchArgs>();
    const auto [repeat, nodes] = addBenchOptions(cmd, *args);
    cmd->callback([args, repeat, nodes, &exitCode] {
        args->repeatGiven = repeat->count() > 0;
        args->nodesGiven = nodes->count() > 0;
        exitCode = runBench(*args);
    });
}

} // namespace tstudio::cli
