// tstudio_allreduce_bench: run under `mpirun -np N`. Measures (1) the allreduce path of Horovod's
// ops (MpiContext's background thread, and the HorovodAllreduce node in a session) against a plain
// MPI_Allreduce of the same float32 bytes, and (2) the training steps per second of an MLP
// (784-256-10, per-rank batch 100, one intra-op thread) trained with DistributedOptimizer.
// Rank 0 prints the figures.
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/distributed_optimizer.h"
#include "distributed/mpi_context.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "training/gradient_descent.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace tstudio;
using tstudio::distributed::MpiContext;
namespace tf = tensorflow;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

int fail(const Status& s)
{
    std::fprintf(stderr, "%s\n", s.toString().c_str());
    if (Status finalized = MpiContext::instance().finalize(); !finalized.isOk())
        std::fprintf(stderr, "%s\n", finalized.toString().c_str());
    return 1;
}

/// Bytes per second (algorithm bandwidth: the buffer's bytes / time per call) of `run`, best of 3
/// rounds of `repeat` calls after a warm-up call, every rank starting together.
template <typename F>
Expected<double> bandwidth(std::size_t bytes, int repeat, F&& run)
{
    if (Status s = run(); !s.isOk())
        return tl::unexpected(s);
    double best = 1e30;
    for (int round = 0; round < 3; ++round) {
        if (Status s = MpiContext::instance().barrier(); !s.isOk())
            return tl::unexpected(s);
        const auto start = Clock::now();
        for (int i = 0; i < repeat; ++i)
            if (Status s = run(); !s.isOk())
                return tl::unexpected(s);
        best = std::min(best, secondsSince(start) / repeat);
    }
    return static_cast<double>(bytes) / best;
}

Status benchAllreduce(const Registries& registries, int rank)
{
    CpuAllocator allocator;
    if (rank == 0)
        std::printf("allreduce of float32 buffers, %d ranks: bytes/s (buffer bytes / time per call)\n"
                    "%12s %16s %16s %16s %10s\n",
                    MpiContext::instance().size(), "bytes", "MPI_Allreduce", "MpiContext", "HorovodAllreduce",
                    "op/MPI");
    for (std::int64_t count : {1024LL, 262144LL, 4194304LL, 16777216LL}) {
        const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
        const int repeat = count <= 262144 ? 50 : 5;
        std::vector<float> buffer(static_cast<std::size_t>(count), 1.0f);
        auto plain = bandwidth(bytes, repeat, [&] {
            return MpiContext::instance().plainAllreduceFloat(buffer.data(), count);
        });
        if (!plain)
            return plain.error();
        auto ours = bandwidth(bytes, repeat, [&] {
            return MpiContext::instance().allreduce("bench/" + std::to_string(count), tf::DT_FLOAT, buffer.data(), count);
        });
        if (!ours)
            return ours.error();
        // The graph op in a session: the fed tensor, the kernel's copy, the negotiation, the reduce.
        GraphBuilder b(registries.ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({count}), "x");
        if (!x)
            return x.error();
        if (auto op = b.op("HorovodAllreduce", {OpInput(*x)}, {}, "sum"); !op)
            return op.error();
        SessionOptions options;
        options.ops = &registries.ops;
        options.kernels = &registries.kernels;
        Session session(options);
        if (Status s = session.create(b.graphDef()); !s.isOk())
            return s;
        auto input = Tensor::fromVector<float>(allocator, {count}, buffer);
        if (!input)
            return input.error();
        auto graphOp = bandwidth(bytes, repeat, [&] {
            std::vector<Tensor> out;
            return session.run({{"x:0", *input}}, {"sum:0"}, {}, &out);
        });
        if (!graphOp)
            return graphOp.error();
        if (rank == 0)
            std::printf("%12zu %16.4g %16.4g %16.4g %10.2f\n", bytes, *plain, *ours, *graphOp, *graphOp / *plain);
    }
    return Status::ok();
}

Status benchMlp(const Registries& registries, int rank, int size, int steps)
{
    constexpr int kBatch = 100;
    GraphBuilder b(registries.ops);
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 784}), "x");
    auto y = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 10}), "y");
    auto w1 = getVariable(b, "w1", {784, 256}, tf::DT_FLOAT, Initializer::constant(0.01));
    auto b1 = getVariable(b, "b1", {256}, tf::DT_FLOAT, Initializer::constant(0.0));
    auto w2 = getVariable(b, "w2", {256, 10}, tf::DT_FLOAT, Initializer::constant(0.01));
    auto b2 = getVariable(b, "b2", {10}, tf::DT_FLOAT, Initializer::constant(0.0));
    if (!x || !y || !w1 || !b1 || !w2 || !b2)
        return internalError("MLP variables");
    auto z1 = ops::matMul(b, *x, w1->value());
    auto a1 = z1 ? ops::add(b, *z1, b1->value()) : z1;
    auto h = a1 ? ops::relu(b, *a1) : a1;
    auto z2 = h ? ops::matMul(b, *h, w2->value()) : h;
    auto logits = z2 ? ops::add(b, *z2, b2->value()) : z2;
    if (!logits)
        return logits.error();
    auto xent = b.op("SoftmaxCrossEntropyWithLogits", {*logits, *y});
    if (!xent)
        return xent.error();
    auto axes = ops::constantInts(b, {0}, {1});
    auto loss = b.op("Mean", {xent->output(0), *axes}, {}, "loss");
    if (!loss)
        return loss.error();
    training::GradientDescentOptimizer sgd(distributed::scaledLearningRate(0.01, size, true));
    distributed::DistributedOptimizer opt(sgd, size);
    auto train = opt.minimize(b, loss->output(0));
    if (!train)
        return train.error();
    auto bcast = distributed::broadcastGlobalVariables(b, 0);
    if (!bcast)
        return bcast.error();
    if (auto init = globalVariablesInitializer(b); !init)
        return init.error();
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    options.config.set_intra_op_parallelism_threads(1);
    options.config.set_inter_op_parallelism_threads(1);
    Session session(options);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return s;
    std::vector<Tensor> out;
    if (Status s = session.run({}, {}, {"init"}, &out); !s.isOk())
        return s;
    if (Status s = session.run({}, {}, {bcast->name()}, &out); !s.isOk())
        return s;
    CpuAllocator allocator;
    std::mt19937 random(static_cast<unsigned>(rank) + 1);
    std::uniform_real_distribution<float> u(0.0f, 1.0f / 28); // inputs summing to about 14, as MNIST's
    std::vector<float> xs(kBatch * 784);
    std::vector<float> ys(kBatch * 10, 0.0f);
    for (float& v : xs)
        v = u(random);
    for (int i = 0; i < kBatch; ++i)
        ys[static_cast<std::size_t>(i * 10 + i % 10)] = 1.0f;
    auto xt = Tensor::fromVector<float>(allocator, {kBatch, 784}, xs);
    auto yt = Tensor::fromVector<float>(allocator, {kBatch, 10}, ys);
    if (!xt || !yt)
        return internalError("MLP batch");
    const std::vector<std::pair<std::string, Tensor>> feeds = {{"x:0", *xt}, {"y:0", *yt}};
    for (int i = 0; i < 20; ++i)
        if (Status s = session.run(feeds, {}, {train->name()}, &out); !s.isOk())
            return s;
    if (Status s = MpiContext::instance().barrier(); !s.isOk())
        return s;
    const auto start = Clock::now();
    for (int i = 0; i < steps; ++i)
        if (Status s = session.run(feeds, {}, {train->name()}, &out); !s.isOk())
            return s;
    const double seconds = secondsSince(start);
    std::vector<Tensor> lossOut;
    if (Status s = session.run(feeds, {"loss:0"}, {}, &lossOut); !s.isOk())
        return s;
    if (rank == 0)
        std::printf("loss after %d steps: %g\n", steps + 20, lossOut.front().data<float>()[0]);
    if (rank == 0)
        std::printf("mlp 784-256-10, %d rank(s) x 1 thread, per-rank batch %d x %d = global batch %d: "
                    "%.1f steps/s, %.0f examples/s\n",
                    size, kBatch, size, kBatch * size, steps / seconds, steps * kBatch * size / seconds);
    return Status::ok();
}

} // namespace

int main(int argc, char** argv)
{
    const std::string what = argc > 1 ? argv[1] : "all";
    const int steps = argc > 2 ? std::atoi(argv[2]) : 300;
    if (Status s = MpiContext::instance().initialize(); !s.isOk())
        return fail(s);
    const int rank = MpiContext::instance().rank();
    const int size = MpiContext::instance().size();
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail(registries.error());
    if (what == "allreduce" || what == "all")
        if (Status s = benchAllreduce(**registries, rank); !s.isOk())
            return fail(s);
    if (what == "mlp" || what == "all")
        if (Status s = benchMlp(**registries, rank, size, steps); !s.isOk())
            return fail(s);
    if (Status s = MpiContext::instance().finalize(); !s.isOk())
        return fail(s);
    return 0;
}
