// `tstudio bench embedding`: sparse against dense updates of an embedding table (see embedding_bench.h).
#include "training/embedding_bench.h"

#include "builder/graph_builder.h"
#include "framework/allocator.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "runtime/session.h"
#include "training/adam.h"
#include "training/gradient_descent.h"
#include "training/lazy_adam.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

namespace tstudio::training {
namespace {

struct Model {
    explicit Model(const OpRegistry& ops) : graph(ops) {}
    GraphBuilder graph;
    std::string train;
    std::string loss;
    std::string init;
};

Expected<std::unique_ptr<Model>> buildModel(const OpRegistry& ops, const EmbeddingBenchOptions& o,
                                            const std::string& optimizer, bool sparse)
{
    auto model = std::make_unique<Model>(ops);
    GraphBuilder& b = model->graph;
    auto table = getVariable(b, "embedding", TensorShape{o.vocabulary, o.dimension}, tensorflow::DT_FLOAT,
                             Initializer::randomUniform(-0.05, 0.05, 7));
    if (!table)
        return unexpected(table.error());
    auto ids = ops::placeholder(b, tensorflow::DT_INT32, TensorShape{o.batch, o.length}, "ids");
    if (!ids)
        return unexpected(ids.error());
    auto lookup = nn::embeddingLookup(b, table->value(), *ids);
    if (!lookup)
        return unexpected(lookup.error());
    auto sq = ops::square(b, *lookup);
    if (!sq)
        return unexpected(sq.error());
    auto axes = ops::constantInts(b, {0, 1, 2}, {3});
    if (!axes)
        return unexpected(axes.error());
    auto loss = b.op("Mean", {*sq, *axes}, {}, "loss");
    if (!loss)
        return unexpected(loss.error());
    std::unique_ptr<Optimizer> opt;
    if (optimizer == "sgd")
        opt = std::make_unique<GradientDescentOptimizer>(0.1);
    else if (optimizer == "lazy_adam")
        opt = std::make_unique<LazyAdamOptimizer>(0.001);
    else
        opt = std::make_unique<AdamOptimizer>(0.001);
    Expected<Operation> train = unexpected(internalError("no train op"));
    if (sparse) {
        train = opt->minimize(b, loss->output(0));
    } else {
        // The old path: the IndexedSlices made dense (UnsortedSegmentSum) before a dense Apply*.
        auto grads = opt->computeGradients(b, loss->output(0));
        if (!grads)
            return unexpected(grads.error());
        train = opt->applyGradients(b, *grads);
    }
    if (!train)
        return unexpected(train.error());
    auto init = globalVariablesInitializer(b);
    if (!init)
        return unexpected(init.error());
    model->train = train->name();
    model->loss = loss->output(0).name();
    model->init = init->name();
    return model;
}

} // namespace

Expected<std::vector<EmbeddingBenchResult>> runEmbeddingBench(const OpRegistry& ops, const KernelRegistry& kernels,
                                                              const EmbeddingBenchOptions& o)
{
    CpuAllocator allocator;
    // A pool of id batches, drawn once (Zipf-like: small ids more often, as words are).
    std::mt19937 rng(1234);
    std::vector<Tensor> pool;
    for (int k = 0; k < 16; ++k) {
        std::vector<std::int32_t> ids(static_cast<std::size_t>(o.batch * o.length));
        for (auto& id : ids) {
            const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
            id = std::min(o.vocabulary - 1, static_cast<int>(std::pow(static_cast<double>(o.vocabulary), u)) - 1);
        }
        auto t = Tensor::fromVector<std::int32_t>(allocator, TensorShape{o.batch, o.length}, ids);
        if (!t)
            return unexpected(t.error());
        pool.push_back(std::move(*t));
    }
    // Every configuration is built first; the runs then take turns (run 1 of each, run 2 of each,
    // ...), so that a machine whose speed drifts treats them alike. The fastest run counts.
    struct Configuration {
        EmbeddingBenchResult result;
        std::unique_ptr<Model> model;
    };
    std::vector<Configuration> configurations;
    for (const std::string optimizer : {"sgd", "adam", "lazy_adam"}) {
        for (bool sparse : {true, false}) {
            if (optimizer == "lazy_adam" && !sparse)
                continue; // LazyAdam's dense update is Adam's
            // Adam's sparse update twice: fused by the session's remapper (the default), and op by op.
            for (bool remapper : {true, false}) {
                if (!remapper && (optimizer != "adam" || !sparse))
                    continue;
                auto model = buildModel(ops, o, optimizer, sparse);
                if (!model)
                    return unexpected(model.error());
                configurations.push_back({EmbeddingBenchResult{optimizer, sparse, remapper, 0.0, 0.0}, std::move(*model)});
            }
        }
    }
    for (int run = 0; run < o.repeat; ++run) {
        for (Configuration& c : configurations) {
            EmbeddingBenchResult& result = c.result;
            SessionOptions options;
            options.ops = &ops;
            options.kernels = &kernels;
            if (o.threads > 0)
                options.config.set_intra_op_parallelism_threads(o.threads);
            if (!result.remapper)
                options.config.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
                    tensorflow::RewriterConfig::OFF);
            Session session(options);
            if (Status s = session.create(c.model->graph.graphDef()); !s.isOk())
                return unexpected(s);
            std::vector<Tensor> out;
            if (Status s = session.run({}, {}, {c.model->init}, &out); !s.isOk())
                return unexpected(s);
            auto step = [&](int i, bool fetchLoss) -> Status {
                std::vector<std::pair<std::string, Tensor>> feeds = {
                    {"ids:0", pool[static_cast<std::size_t>(i) % pool.size()]}};
                std::vector<std::string> fetches;
                if (fetchLoss)
                    fetches.push_back(c.model->loss);
                return session.run(feeds, fetches, {c.model->train}, &out);
            };
            for (int i = 0; i < o.warmup; ++i)
                if (Status s = step(i, false); !s.isOk())
                    return unexpected(s);
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < o.steps; ++i)
                if (Status s = step(i, false); !s.isOk())
                    return unexpected(s);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            result.stepsPerSecond = std::max(result.stepsPerSecond, o.steps / seconds);
            if (Status s = step(o.steps, true); !s.isOk())
                return unexpected(s);
            result.finalLoss = static_cast<double>(out.front().values<float>()[0]);
        }
    }
    std::vector<EmbeddingBenchResult> results;
    for (const Configuration& c : configurations)
        results.push_back(c.result);
    return results;
}

std::string formatEmbeddingBenchResults(const std::vector<EmbeddingBenchResult>& results,
                                        const EmbeddingBenchOptions& o)
{
    std::string text;
    char line[256];
    std::snprintf(line, sizeof line,
                  "embedding %d x %d, ids %d x %d, loss mean(square(lookup)), %d timed steps after %d, best of %d\n",
                  o.vocabulary, o.dimension, o.batch, o.length, o.steps, o.warmup, o.repeat);
    text += line;
    for (const auto& r : results) {
        std::snprintf(line, sizeof line, "%s %s%s: %.1f steps/s (loss after the run %.6g)\n", r.optimizer.c_str(),
                      r.sparse ? "sparse" : "dense", r.remapper ? "" : " op by op (remapping off)", r.stepsPerSecond,
                      r.finalLoss);
        text += line;
    }
    for (const auto& r : results) {
        if (!r.sparse || !r.remapper)
            continue;
        // LazyAdam against Adam's dense update (its own dense update is Adam's).
        const std::string denseOptimizer = r.optimizer == "lazy_adam" ? "adam" : r.optimizer;
        for (const auto& d : results) {
            if (d.optimizer == denseOptimizer && !d.sparse && d.stepsPerSecond > 0) {
                std::snprintf(line, sizeof line, "%s sparse / %s dense: %.2fx\n", r.optimizer.c_str(),
                              denseOptimizer.c_str(), r.stepsPerSecond / d.stepsPerSecond);
                text += line;
                // The same update op by op, for the fusion's share.
                for (const auto& u : results)
                    if (u.optimizer == r.optimizer && u.sparse && !u.remapper) {
                        std::snprintf(line, sizeof line, "%s sparse op by op / %s dense: %.2fx\n",
                                      r.optimizer.c_str(), denseOptimizer.c_str(), u.stepsPerSecond / d.stepsPerSecond);
                        text += line;
                    }
            }
        }
    }
    return text;
}

} // namespace tstudio::training
