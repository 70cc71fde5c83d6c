// Helpers the fuzz targets share: the registries, a graph's way through import, shape inference and
// placement, scratch files for readers that only take a path, and invariant checks that abort.
#pragma once

#include "core/log.h"
#include "framework/allocator.h"
#include "graph/graph.h"
#include "function/shape_refiner.h"
#include "proto/graph.pb.h"
#include "registries/default_registries.h"
#include "runtime/kernel_constant_evaluator.h"
#include "runtime/placer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace tstudio::fuzz {

/// The bytes libFuzzer hands over, as the std::string most readers take.
inline std::string bytesOf(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// Aborts with `what` when `condition` is false: a broken promise of a reader's contract is a
/// finding, as a crash is. Reached from both libFuzzer and the regression runner.
inline void require(bool condition, const char* what)
{
    if (!condition) {
        std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
        std::abort();
    }
}

/// Called first by every target: the engine's log goes to a sink that drops it (without a sink,
/// warnings about bad records would go to stderr on every input and drown libFuzzer's output).
inline void quietLogs()
{
    static const bool once = [] {
        addLogSink([](const LogRecord&) {});
        return true;
    }();
    (void)once;
}

/// Every op and CPU kernel, made once per process and shared read-only by the inputs.
inline const Registries& registries()
{
    static const std::unique_ptr<Registries> made = [] {
        auto r = makeDefaultRegistries();
        require(r.has_value(), "makeDefaultRegistries failed");
        return std::move(*r);
    }();
    return *made;
}

/// Memory a reader may take for one input's tensors: what a real file's tensors need is far less,
/// and libFuzzer's own -rss_limit_mb (2 GiB by default) reports anything that escapes the allocator.
constexpr std::int64_t kTensorBytesLimit = 256 << 20;

/// What a reader hands over as a graph goes where the GUI and `tstudio inspect` take it: import
/// (Graph::fromGraphDef), shape inference with constant evaluation on the CPU kernels, and placement
/// on one CPU. Errors are expected answers to bad graphs; only crashes and broken invariants count.
inline void checkGraph(const tensorflow::GraphDef& graphDef)
{
    auto graph = Graph::fromGraphDef(graphDef);
    if (!graph)
        return;
    require(graph->topologicalOrder().size() <= static_cast<std::size_t>(graph->nodeCount()),
            "topological order longer than the graph");
    const Registries& r = registries();
    KernelConstantEvaluator evaluator(r.ops, r.kernels);
    ShapeRefinerOptions options;
    options.evaluator = evaluator.function();
    auto shapes = inferGraphShapes(*graph, r.ops, evaluator.allocator(), options);
    (void)shapes;
    const std::vector<PlacementDevice> devices{{"/job:localhost/replica:0/task:0/device:CPU:0", "CPU"}};
    PlacementOptions placement;
    placement.allowSoftPlacement = true;
    auto placed = placeGraph(*graph, r.ops, r.kernels, devices, placement);
    if (placed) {
        require(placed->size() == static_cast<std::size_t>(graph->nodeCount()), "placement misses nodes");
        for (int device : *placed)
            require(device == 0, "a node placed on a device that does not exist");
    }
}

/// A scratch directory of this process (so parallel libFuzzer jobs do not share files), made once.
inline const std::filesystem::path& scratchDirectory()
{
    static const std::filesystem::path dir = [] {
        std::filesystem::path d = std::filesystem::temp_directory_path() /
                                  ("tstudio-fuzz-" + std::to_string(static_cast<long>(::getpid())));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

/// Writes `bytes` to `name` in the scratch directory and returns its path, for readers that only
/// take a path (their files are what users hand over, so the path is the real entry point).
inline std::filesystem::path scratchFile(const std::string& name, std::string_view bytes)
{
    const std::filesystem::path path = scratchDirectory() / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    require(static_cast<bool>(out), "cannot write a scratch file");
    return path;
}

} // namespace tstudio::fuzz
