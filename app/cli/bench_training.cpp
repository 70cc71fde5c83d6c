// benchTraining: the engine's side of tools/bench/pytorch_bench.py, timed the same way.
#include "bench_training.h"

#include "bench_report.h"

#include "bench_profile.h"

#include "classifier_training.h"
#include "debugger/debug_controller.h"
#include "core/affinity_cores.h"
#include "layer_networks.h"
#include "runtime/arena_run_metadata.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "devices/gpu_activity.h"
#include "devices/gpu_probe.h"
#include "proto/config.pb.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <thread>

namespace tstudio::cli {

namespace {

/// The GPU's figures of a training benchmark: the share of a block's time the GPU was busy (one more
/// block, timed by `timeBlock`, while CUPTI records) and the CUDA graph captures of `session`.
void reportGpuFigures(BenchReport& report, Session& session, int steps, bool cudaGraphs,
                      const std::function<Expected<double>()>& timeBlock)
{
    // The GPU's share of a block's time, measured in one more block while CUPTI records every
    // kernel, copy and memset (recording slows launches a little: the figures above are without).
    auto recorder = GpuActivityRecorder::start();
    if (!recorder) {
        report.text("GPU busy: not measured (%s)\n", recorder.error().message().c_str());
    } else {
        auto t = timeBlock();
        auto activity = (*recorder)->stop();
        if (!t || !activity) {
            report.text("GPU busy: not measured (%s)\n", (!t ? t.error() : activity.error()).message().c_str());
        } else {
            report["gpu_busy_share"] = activity->busyShare();
            report.text("GPU busy: %.1f%% of a %d-step block of %.3f s (%lld kernels, %.1f ms in kernels, "
                        "%lld copies, %lld memsets; %.1f launches per step%s)\n",
                        100.0 * activity->busyShare(), steps, activity->seconds,
                        static_cast<long long>(activity->kernels), activity->kernelSeconds * 1e3,
                        static_cast<long long>(activity->copies), static_cast<long long>(activity->memsets),
                        static_cast<double>(activity->kernels + activity->copies + activity->memsets) / steps,
                        activity->droppedRecords ? ", some records dropped: the share is low" : "");
        }
    }
    const StepCaptureStats capture = session.captureStats();
    report["cuda_graphs"] = cudaGraphs ? nlohmann::ordered_json{{"captures", capture.captures},
                                                                {"replays", capture.replays},
                                                                {"executor_steps", capture.executorSteps}}
                                       : nlohmann::ordered_json(nullptr);
    if (!cudaGraphs)
        report.text("CUDA graphs: off (--no-cuda-graphs), every step ran in the executor\n");
    else
        report.text("CUDA graphs: %lld captured, %lld steps replayed, %lld steps in the executor; last: %s\n",
                    static_cast<long long>(capture.captures), static_cast<long long>(capture.replays),
                    static_cast<long long>(capture.executorSteps), capture.lastEvent.c_str());
}

} // namespace

int benchTraining(const Registries& registries, const TrainingBenchArgs& args, BenchReport& report)
{
    const bool mlp = args.model == "mlp";
    const bool resnet = args.model == "resnet";
    const bool resnet50 = args.model == "resnet50";
    const bool gpu = args.device == "gpu";
    if (args.device != "cpu" && !gpu) {
        std::fprintf(stderr, "error: --device must be cpu or gpu, not '%s'\n", args.device.c_str());
        return 1;
    }
    if (gpu) {
        const GpuProbeReport report = probeGpus();
        if (report.devices.empty()) {
            std::fprintf(stderr, "error: --device gpu: no usable GPU (%s)\n", gpuUnusableText(report).c_str());
            return 1;
        }
    }
    const int steps = args.steps > 0 ? args.steps : (mlp ? 300 : resnet50 ? 5 : 30);
    const int warmup = args.warmup > 0 ? args.warmup : (mlp ? 20 : resnet50 ? 1 : 3);
    const std::int64_t batch = args.batch > 0 ? args.batch : (resnet ? 256 : resnet50 ? 8 : 100);
    const std::int64_t features = resnet ? 32 * 32 * 3 : resnet50 ? 224 * 224 * 3 : 784;
    examples::LayerNetworkOptions options;
    options.optimizer = examples::OptimizerKind::kGradientDescent;
    options.learningRate = 0.01;
    auto graph = mlp        ? examples::buildMlp(registries.ops, options)
                 : resnet   ? examples::buildResNet20(registries.ops, options)
                 : resnet50 ? examples::buildResNet50(registries.ops, options)
                            : examples::buildLeNet5(registries.ops, options);
    if (!graph) {
        std::fprintf(stderr, "error: %s\n", graph.error().toString().c_str());
        return 1;
    }
    auto session = examples::startClassifierSession(*graph, registries, args.threads, gpu, args.cudaGraphs,
                                                  args.remapping);
    if (!session) {
        std::fprintf(stderr, "error: %s\n", session.error().toString().c_str());
        return 1;
    }
    // Random images and labels of MNIST's shape: the speed does not depend on the values.
    CpuAllocator allocator;
    std::mt19937_64 engine(1);
    auto images = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({batch, features}));
    auto labels = Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({batch}));
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
    DebugController attached;
    DebugController checking;
    checking.setStopOnNonFinite(true);
    // The kinds of block timed: plain, then those asked for.
    enum Mode { kPlain, kTraced, kDebugger, kDebuggerNanCheck };
    std::vector<Mode> modes = {kPlain};
    if (args.trace)
        modes.push_back(kTraced);
    if (args.debug) {
        modes.push_back(kDebugger);
        modes.push_back(kDebuggerNanCheck);
    }
    auto step = [&](Mode mode) {
        switch (mode) {
        case kTraced: {
            ArenaRunMetadata metadata; // as the profiler runs a traced step
            Status s = (*session)->run(traced, feeds, {}, {graph->train}, &out, metadata.get());
            for (const auto& device : metadata->step_stats().dev_stats())
                tracedRecords += static_cast<std::size_t>(device.node_stats_size());
            return s;
        }
        case kDebugger:
        case kDebuggerNanCheck:
            return (*session)->run(tensorflow::RunOptions(), feeds, {}, {graph->train}, &out, nullptr,
                                   mode == kDebugger ? &attached : &checking);
        case kPlain: break;
        }
        return (*session)->run(feeds, {}, {graph->train}, &out);
    };
    // Seconds for `steps` steps. On a GPU the steps only queue work; fetching the loss at the end
    // waits for all of it (the one host synchronisation of the block).
    auto timeSteps = [&](Mode mode) -> Expected<double> {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < steps; ++i)
            if (Status s = step(mode); !s.isOk())
                return unexpected(s);
        if (gpu)
            if (Status s = (*session)->run(feeds, {graph->loss}, {}, &out); !s.isOk())
                return unexpected(s);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (int i = 0; i < warmup; ++i) {
        if (Status s = step(modes[static_cast<std::size_t>(i) % modes.size()]); !s.isOk()) {
            std::fprintf(stderr, "error: %s\n", s.toString().c_str());
            return 1;
        }
    }
    // The fastest of three blocks per mode, the modes alternating.
    std::vector<double> seconds(modes.size(), std::numeric_limits<double>::infinity());
    for (int round = 0; round < (modes.size() > 1 ? 3 : 1); ++round) {
        for (std::size_t m = 0; m < modes.size(); ++m) {
            auto t = timeSteps(modes[m]);
            if (!t) {
                std::fprintf(stderr, "error: %s\n", t.error().toString().c_str());
                return 1;
            }
            seconds[m] = std::min(seconds[m], *t);
        }
    }
    if (Status s = (*session)->run(feeds, {graph->loss}, {}, &out); !s.isOk()) {
        std::fprintf(stderr, "error: %s\n", s.toString().c_str());
        return 1;
    }
    const unsigned threads =
        args.threads > 0 ? static_cast<unsigned>(args.threads) : static_cast<unsigned>(schedulableCores());
    if (gpu)
        report.text("tensorstudio, %s, batch %lld, %d steps in %.3f s (loss %.4f)\n",
                    probeGpus().devices.front().name.c_str(), static_cast<long long>(batch), steps, seconds[0],
                    static_cast<double>(out[0].values<float>()[0]));
    else
        report.text("tensorstudio, %u threads, batch %lld, %d steps in %.3f s (loss %.4f)\n", threads,
                    static_cast<long long>(batch), steps, seconds[0], static_cast<double>(out[0].values<float>()[0]));
    if (!args.remapping)
        report.text("Grappler's remapper off (--no-remapping): no fused nodes\n");
    // What a data-parallel step of this model allreduces (docs/scaling.md's model takes both
    // figures); the steps/s line stays last, as tools/bench/pytorch_bench.py prints it.
    report.text("%s: %.4f s per step, %lld trainable parameters (%.1f MB of float32 gradients per step)\n",
                args.model.c_str(), seconds[0] / steps, static_cast<long long>(graph->trainableParameters),
                4e-6 * static_cast<double>(graph->trainableParameters));
    report.text("%s: %.1f steps/s\n", args.model.c_str(), steps / seconds[0]);
    report["device"] = gpu ? probeGpus().devices.front().name : std::string("cpu");
    report["threads"] = threads;
    report["batch"] = batch;
    report["steps"] = steps;
    report["seconds"] = seconds[0];
    report["seconds_per_step"] = seconds[0] / steps;
    report["steps_per_second"] = steps / seconds[0];
    report["loss"] = static_cast<double>(out[0].values<float>()[0]);
    report["trainable_parameters"] = graph->trainableParameters;
    if (gpu)
        reportGpuFigures(report, **session, steps, args.cudaGraphs, [&] { return timeSteps(kPlain); });
    for (std::size_t m = 1; m < modes.size(); ++m) {
        const double overhead = 100.0 * (seconds[m] / seconds[0] - 1.0);
        switch (modes[m]) {
        case kTraced:
            report["traced_steps_per_second"] = steps / seconds[m];
            report["tracing_overhead_percent"] = overhead;
            report.text("%s traced: %.1f steps/s (FULL_TRACE, %.0f node records per step)\n", args.model.c_str(),
                        steps / seconds[m], static_cast<double>(tracedRecords) / (3.0 * steps + warmup / 2));
            report.text("tracing overhead: %.1f%%\n", overhead);
            break;
        case kDebugger:
            report["debugger_steps_per_second"] = steps / seconds[m];
            report["debugger_overhead_percent"] = overhead;
            report.text("%s with the debugger attached: %.1f steps/s (no breakpoints, values kept)\n",
                        args.model.c_str(), steps / seconds[m]);
            report.text("debugger attached: %.1f%%\n", overhead);
            break;
        case kDebuggerNanCheck:
            report["nan_check_steps_per_second"] = steps / seconds[m];
            report["nan_check_overhead_percent"] = overhead;
            report.text("%s with the debugger's NaN/Inf check: %.1f steps/s (every float output)\n", args.model.c_str(),
                        steps / seconds[m]);
            report.text("debugger with NaN/Inf check: %.1f%%\n", overhead);
            break;
        case kPlain: break;
        }
    }
    if (args.profileSteps > 0) {
        const Status s =
            printStepProfile(args.profileSteps, &graph->graph,
                             [&](const tensorflow::RunOptions& options, tensorflow::RunMetadata* metadata) {
                                 return (*session)->run(options, feeds, {}, {graph->train}, &out, metadata);
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
