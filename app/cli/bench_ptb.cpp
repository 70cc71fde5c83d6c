// benchPtb: the engine's side of tools/bench/pytorch_ptb.py, timed the same way.
#include "bench_ptb.h"

#include "bench_report.h"

#include "bench_profile.h"

#include "builder/graph_builder.h"
#include "builder/variables.h"
#include "core/affinity_cores.h"
#include "ptb_model.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "builder/clip_ops.h"
#include "training/gradient_descent.h"

#include "proto/config.pb.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <random>
#include <thread>

namespace tstudio::cli {

namespace {

constexpr std::int64_t kBatch = 20;

struct PtbTrainingGraph {
    tensorflow::GraphDef graph;
    std::string train; ///< the train op
    std::string cost;  ///< "cost:0"
    std::string init;  ///< the variables' initializer
};

Expected<PtbTrainingGraph> buildTraining(const Registries& registries, const examples::PtbModelOptions& options)
{
    auto forward = examples::buildPtbModel(registries.ops, options);
    if (!forward)
        return unexpected(forward.error());
    GraphBuilder b(registries.ops);
    if (Status s = b.importGraphDef(*forward); !s.isOk())
        return unexpected(s);
    const std::vector<Variable> variables = graphVariables(b);
    auto cost = b.tensor("cost:0");
    if (!cost)
        return unexpected(cost.error());
    training::GradientDescentOptimizer optimizer(1.0);
    auto grads = optimizer.computeGradientsWithSlices(b, *cost, variables);
    if (!grads)
        return unexpected(grads.error());
    std::vector<std::optional<Gradient>> gradients;
    for (const auto& [g, v] : *grads)
        gradients.push_back(g);
    auto clipped = training::clipByGlobalNormWithSlices(b, gradients, 5.0);
    if (!clipped)
        return unexpected(clipped.error());
    std::vector<training::SparseGradAndVar> clippedAndVars;
    for (std::size_t i = 0; i < grads->size(); ++i)
        clippedAndVars.emplace_back(clipped->first[i], (*grads)[i].second);
    auto train = optimizer.applyGradientsWithSlices(b, clippedAndVars);
    if (!train)
        return unexpected(train.error());
    auto init = variablesInitializer(b, variables);
    if (!init)
        return unexpected(init.error());
    return PtbTrainingGraph{b.graphDef(), train->name(), "cost:0", init->name()};
}

} // namespace

int benchPtb(const Registries& registries, const PtbBenchArgs& args, BenchReport& report)
{
    const int steps = args.steps > 0 ? args.steps : 50;
    const int warmup = args.warmup > 0 ? args.warmup : 5;
    examples::PtbModelOptions options; // the tutorial's SmallConfig
    auto graph = buildTraining(registries, options);
    if (!graph) {
        std::fprintf(stderr, "error: %s\n", graph.error().toString().c_str());
        return 1;
    }
    SessionOptions sessionOptions;
    sessionOptions.ops = &registries.ops;
    sessionOptions.kernels = &registries.kernels;
    sessionOptions.config.set_intra_op_parallelism_threads(args.threads);
    sessionOptions.config.set_inter_op_parallelism_threads(1);
    (*sessionOptions.config.mutable_device_count())["GPU"] = 0;
    if (!args.remapping)
        sessionOptions.config.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
            tensorflow::RewriterConfig::OFF);
    Session session(sessionOptions);
    if (Status s = session.create(graph->graph); !s.isOk()) {
        std::fprintf(stderr, "error: %s\n", s.toString().c_str());
        return 1;
    }
    std::vector<Tensor> out;
    if (Status s = session.run({}, {}, {graph->init}, &out); !s.isOk()) {
        std::fprintf(stderr, "error: %s\n", s.toString().c_str());
        return 1;
    }
    // Random ids (the speed does not depend on them): 16 batches of inputs and shifted targets.
    CpuAllocator allocator;
    std::mt19937 engine(1);
    std::uniform_int_distribution<std::int32_t> word(0, static_cast<std::int32_t>(options.vocabSize - 1));
    std::vector<std::pair<Tensor, Tensor>> batches;
    for (int k = 0; k < 16; ++k) {
        std::vector<std::int32_t> ids(static_cast<std::size_t>(kBatch * (options.numSteps + 1)));
        for (std::int32_t& id : ids)
            id = word(engine);
        std::vector<std::int32_t> x, y;
        for (std::int64_t r = 0; r < kBatch; ++r) {
            for (std::int64_t t = 0; t < options.numSteps; ++t) {
                x.push_back(ids[static_cast<std::size_t>(r * (options.numSteps + 1) + t)]);
                y.push_back(ids[static_cast<std::size_t>(r * (options.numSteps + 1) + t + 1)]);
            }
        }
        auto xs = Tensor::fromVector(allocator, TensorShape({kBatch, options.numSteps}), x);
        auto ys = Tensor::fromVector(allocator, TensorShape({kBatch, options.numSteps}), y);
        if (!xs || !ys) {
            std::fprintf(stderr, "error: cannot allocate the batches\n");
            return 1;
        }
        batches.emplace_back(*xs, *ys);
    }
    // The state carried from one step to the next: the final state's fetches feed the next step's
    // initial state (zeros, the placeholders' default, at the first step).
    std::vector<std::string> fetches = {graph->cost};
    std::vector<std::string> stateFeeds;
    for (std::int64_t k = 0; k < options.numLayers; ++k) {
        for (const char* part : {"c", "h"}) {
            fetches.push_back("final_state_" + std::string(part) + std::to_string(k) + ":0");
            stateFeeds.push_back("initial_state_" + std::string(part) + std::to_string(k) + ":0");
        }
    }
    std::vector<Tensor> state;
    auto step = [&](int i) -> Status {
        const auto& [x, y] = batches[static_cast<std::size_t>(i) % batches.size()];
        std::vector<std::pair<std::string, Tensor>> feeds = {{"inputs:0", x}, {"targets:0", y}};
        for (std::size_t s = 0; s < state.size(); ++s)
            feeds.emplace_back(stateFeeds[s], state[s]);
        if (Status s = session.run(feeds, fetches, {graph->train}, &out); !s.isOk())
            return s;
        state.assign(out.begin() + 1, out.end());
        return Status::ok();
    };
    for (int i = 0; i < warmup; ++i) {
        if (Status s = step(i); !s.isOk()) {
            std::fprintf(stderr, "error: %s\n", s.toString().c_str());
            return 1;
        }
    }
    double best = std::numeric_limits<double>::infinity();
    for (int round = 0; round < 3; ++round) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < steps; ++i) {
            if (Status s = step(i); !s.isOk()) {
                std::fprintf(stderr, "error: %s\n", s.toString().c_str());
                return 1;
            }
        }
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const unsigned threads =
        args.threads > 0 ? static_cast<unsigned>(args.threads) : static_cast<unsigned>(schedulableCores());
    report.text("tensorstudio, %u threads, batch %lld x %lld steps, vocabulary %lld, %lld x %lld LSTM, %d steps in "
                "%.3f s (cost %.4f)\n",
                threads, static_cast<long long>(kBatch), static_cast<long long>(options.numSteps),
                static_cast<long long>(options.vocabSize), static_cast<long long>(options.numLayers),
                static_cast<long long>(options.hiddenSize), steps, best,
                static_cast<double>(out.at(0).values<float>()[0]));
    if (!args.remapping)
        report.text("Grappler's remapper off (--no-remapping): no fused nodes\n");
    report.text("ptb-small: %.1f steps/s, %.0f words/s\n", steps / best,
                steps * static_cast<double>(kBatch * options.numSteps) / best);
    report["threads"] = threads;
    report["remapping"] = args.remapping;
    report["batch"] = kBatch;
    report["num_steps"] = options.numSteps;
    report["vocabulary"] = options.vocabSize;
    report["layers"] = options.numLayers;
    report["hidden_size"] = options.hiddenSize;
    report["steps"] = steps;
    report["seconds"] = best;
    report["cost"] = static_cast<double>(out.at(0).values<float>()[0]);
    report["steps_per_second"] = steps / best;
    report["words_per_second"] = steps * static_cast<double>(kBatch * options.numSteps) / best;
    if (args.profileSteps > 0) {
        int i = 0;
        const Status s = printStepProfile(
            args.profileSteps, &graph->graph,
            [&](const tensorflow::RunOptions& runOptions, tensorflow::RunMetadata* metadata) {
                const auto& [x, y] = batches[static_cast<std::size_t>(i++) % batches.size()];
                std::vector<std::pair<std::string, Tensor>> feeds = {{"inputs:0", x}, {"targets:0", y}};
                for (std::size_t k = 0; k < state.size(); ++k)
                    feeds.emplace_back(stateFeeds[k], state[k]);
                Status status = session.run(runOptions, feeds, fetches, {graph->train}, &out, metadata);
                if (status.isOk())
                    state.assign(out.begin() + 1, out.end());
                return status;
            },
            report);
        if (!s.isOk()) {
            std::fprintf(stderr, "error: %s\n", s.toString().c_str());
            return 1;
        }
    }
    return 0;
}

} // namespace tstudio::cli
