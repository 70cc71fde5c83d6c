// benchTraining: the engine's side of tools/bench/pytorch_bench.py, timed the same way.
#include "bench_training.h"

#include "classifier_training.h"
#include "layer_networks.h"
#include "runtime/arena_run_metadata.h"
#include "runtime/default_registries.h"
#include "runtime/session.h"

#include "proto/config.pb.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <cstdio>
#include <random>
#include <thread>

namespace tstudio::cli {

int benchTraining(const Registries& registries, const TrainingBenchArgs& args)
{
    const bool mlp = args.model == "mlp";
    const int steps = args.steps > 0 ? args.steps : (mlp ? 300 : 30);
    const int warmup = args.warmup > 0 ? args.warmup : (mlp ? 20 : 3);
    examples::LayerNetworkOptions options;
    options.optimizer = examples::OptimizerKind::kGradientDescent;
    options.learningRate = 0.01;
    auto graph = mlp ? examples::buildMlp(registries.ops, options) : examples::buildLeNet5(registries.ops, options);
    if (!graph) {
        std::fprintf(stderr, "error: %s\n", graph.error().toString().c_str());
        return 1;
    }
    auto session = examples::startClassifierSession(*graph, registries, args.threads);
    if (!session) {
        std::fprintf(stderr, "error: %s\n", session.error().toString().c_str());
        return 1;
    }
    // Random images and labels of MNIST's shape: the speed does not depend on the values.
    CpuAllocator allocator;
    std::mt19937_64 engine(1);
    auto images = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({args.batch, 784}));
    auto labels = Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({args.batch}));
    if (!images || !labels) {
        std::fprintf(stderr, "error: cannot allocate the batch\n");
        return 1;
    }
    for (float& v : images->values<float>())
        v = static_cast<float>(engine() >> 40) * 0x1.0p-24f;
    for (std::int64_t& v : labels->values<std::int64_t>())
        v = static_cast<std::int64_t>(engine() % 10);
    const std::vector<std::pair<std::string, Tensor>> feeds = {{graph->inputs, *images}, {graph->labels, *labels}};
    std::vector<Tensor> out;
    tensorflow::RunOptions traced;
    traced.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    std::size_t tracedRecords = 0;
    auto step = [&](bool trace) {
        if (!trace)
            return (*session)->run(feeds, {}, {graph->train}, &out);
        ArenaRunMetadata metadata; // as the profiler runs a traced step
        Status s = (*session)->run(traced, feeds, {}, {graph->train}, &out, metadata.get());
        for (const auto& device : metadata->step_stats().dev_stats())
            tracedRecords += static_cast<std::size_t>(device.node_stats_size());
        return s;
    };
    // Seconds for `steps` steps.
    auto timeSteps = [&](bool trace) -> Expected<double> {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < steps; ++i)
            if (Status s = step(trace); !s.isOk())
                return unexpected(s);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (int i = 0; i < warmup; ++i) {
        if (Status s = step(args.trace && i % 2 == 1); !s.isOk()) {
            std::fprintf(stderr, "error: %s\n", s.toString().c_str());
            return 1;
        }
    }
    double seconds = std::numeric_limits<double>::infinity();
    double tracedSeconds = std::numeric_limits<double>::infinity();
    for (int round = 0; round < (args.trace ? 3 : 1); ++round) {
        for (bool trace : {false, true}) {
            if (trace && !args.trace)
                continue;
            auto t = timeSteps(trace);
            if (!t) {
                std::fprintf(stderr, "error: %s\n", t.error().toString().c_str());
                return 1;
            }
            (trace ? tracedSeconds : seconds) = std::min(trace ? tracedSeconds : seconds, *t);
        }
    }
    if (Status s = (*session)->run(feeds, {graph->loss}, {}, &out); !s.isOk()) {
        std::fprintf(stderr, "error: %s\n", s.toString().c_str());
        return 1;
    }
    const unsigned threads = args.threads > 0 ? static_cast<unsigned>(args.threads) : std::thread::hardware_concurrency();
    std::printf("tensorstudio, %u threads, batch %d, %d steps in %.3f s (loss %.4f)\n", threads, args.batch, steps,
                seconds, static_cast<double>(out[0].values<float>()[0]));
    std::printf("%s: %.1f steps/s\n", args.model.c_str(), steps / seconds);
    if (args.trace) {
        std::printf("%s traced: %.1f steps/s (FULL_TRACE, %.0f node records per step)\n", args.model.c_str(),
                    steps / tracedSeconds, static_cast<double>(tracedRecords) / (3.0 * steps + warmup / 2));
        std::printf("tracing overhead: %.1f%%\n", 100.0 * (tracedSeconds / seconds - 1.0));
    }
    return 0;
}

} // namespace tstudio::cli
