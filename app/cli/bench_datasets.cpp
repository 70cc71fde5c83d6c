// tstudio bench datasets: elements per second of a tf.data pipeline, sequential map against parallel
// map with prefetch.
#include "bench_datasets.h"

#include "bench_report.h"

#include "builder/dataset.h"
#include "builder/graph_builder.h"
#include "cli_command.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace tstudio::cli {
namespace {

using Clock = std::chrono::steady_clock;

/// work(x: int64) -> y: float = Sum(Sin(Fill([1024], Cast(x)))), as TensorFlow writes a FunctionDef.
constexpr const char* kWorkFunction = R"pb(
  signature {
    name: 'work'
    input_arg { name: 'x' type: DT_INT64 }
    output_arg { name: 'y' type: DT_FLOAT }
  }
  node_def {
    name: 'cast' op: 'Cast' input: 'x'
    attr { key: 'SrcT' value { type: DT_INT64 } }
    attr { key: 'DstT' value { type: DT_FLOAT } }
  }
  node_def {
    name: 'dims' op: 'Const'
    attr { key: 'dtype' value { type: DT_INT32 } }
    attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 1024 } } }
  }
  node_def {
    name: 'fill' op: 'Fill' input: 'dims:output:0' input: 'cast:y:0'
    attr { key: 'T' value { type: DT_FLOAT } }
    attr { key: 'index_type' value { type: DT_INT32 } }
  }
  node_def { name: 'sin' op: 'Sin' input: 'fill:output:0' attr { key: 'T' value { type: DT_FLOAT } } }
  node_def {
    name: 'axis' op: 'Const'
    attr { key: 'dtype' value { type: DT_INT32 } }
    attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 } } }
  }
  node_def {
    name: 'sum' op: 'Sum' input: 'sin:y:0' input: 'axis:output:0'
    attr { key: 'T' value { type: DT_FLOAT } }
    attr { key: 'Tidx' value { type: DT_INT32 } }
    attr { key: 'keep_dims' value { b: false } }
  }
  ret { key: 'y' value: 'sum:output:0' }
)pb";

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio bench: %s\n", s.toString().c_str());
    return kExitFailure;
}

struct Pipeline {
    const char* label;
    std::string initializer;
    std::string next;
};

Expected<Pipeline> buildPipeline(GraphBuilder& b, const char* label, const DatasetsBenchArgs& args, bool parallel)
{
    auto d = dataset::range(b, 0, args.elements);
    if (!d)
        return unexpected(d.error());
    dataset::MapOptions map;
    map.numParallelCalls = parallel ? args.threads : 0;
    d = dataset::map(b, *d, "work", {tensorflow::DT_FLOAT}, {TensorShape::scalar()}, map);
    if (d)
        d = dataset::batch(b, *d, args.batch);
    if (d && parallel)
        d = dataset::prefetch(b, *d, 2);
    if (!d)
        return unexpected(d.error());
    auto it = dataset::makeInitializableIterator(b, *d);
    if (!it)
        return unexpected(it.error());
    return Pipeline{label, it->initializer.name(), it->next.front().name()};
}

/// One pass: MakeIterator, then GetNext until OutOfRange; the sum of every element.
Expected<double> pass(Session& session, const Pipeline& pipeline)
{
    if (Status s = session.run({}, {}, {pipeline.initializer}, nullptr); !s.isOk())
        return unexpected(s);
    double total = 0;
    std::vector<Tensor> out;
    while (true) {
        Status s = session.run({}, {pipeline.next}, {}, &out);
        if (s.code() == StatusCode::kOutOfRange)
            return total;
        if (!s.isOk())
            return unexpected(s);
        for (float v : out.at(0).values<float>())
            total += v;
    }
}

} // namespace

int benchDatasets(const Registries& registries, const DatasetsBenchArgs& given, BenchReport& report)
{
    DatasetsBenchArgs args = given;
    args.elements = args.elements > 0 ? args.elements : 20000;
    args.batch = args.batch > 0 ? args.batch : 100;
    args.threads = args.threads > 0 ? args.threads : 4;
    args.repeat = std::max(1, args.repeat);

    GraphBuilder b(registries.ops);
    tensorflow::FunctionDefLibrary library;
    if (!google::protobuf::TextFormat::ParseFromString(kWorkFunction, library.add_function()))
        return fail(internalError("the benchmark's FunctionDef does not parse"));
    if (Status s = b.addFunctions(library); !s.isOk())
        return fail(s);
    std::vector<Pipeline> pipelines;
    for (bool parallel : {false, true}) {
        auto p = buildPipeline(b, parallel ? "parallel map + prefetch" : "map", args, parallel);
        if (!p)
            return fail(p.error());
        pipelines.push_back(*p);
    }
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    Session session(options);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return fail(s);

    double expected = 0;
    for (int x = 0; x < args.elements; ++x)
        expected += 1024.0 * std::sin(static_cast<double>(static_cast<float>(x)));
    report.text("datasets: range(%d).map(work).batch(%d), work(x) = sum(sin(fill([1024], x))); the parallel "
                "pipeline maps with num_parallel_calls=%d and prefetches 2 batches; best of %d passes\n",
                args.elements, args.batch, args.threads, args.repeat);
    report["elements"] = args.elements;
    report["batch"] = args.batch;
    report["parallel_calls"] = args.threads;
    report["passes"] = args.repeat;
    report["pipelines"] = nlohmann::ordered_json::array();
    double sequential = 0;
    for (const Pipeline& p : pipelines) {
        auto warm = pass(session, p);
        if (!warm)
            return fail(warm.error());
        // float sums of sin over 1024 copies: a loose bound on the rounding of a float pipeline
        if (std::abs(*warm - expected) > 1e-3 * args.elements * 1024.0)
            return fail(internalError(std::string(p.label) + " pipeline summed " + std::to_string(*warm) +
                                      ", expected " + std::to_string(expected)));
        double best = 0;
        for (int r = 0; r < args.repeat; ++r) {
            const auto start = Clock::now();
            auto total = pass(session, p);
            if (!total)
                return fail(total.error());
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            best = std::max(best, args.elements / seconds);
        }
        report["pipelines"].push_back({{"pipeline", p.label},
                                       {"elements_per_second", best},
                                       {"ratio_to_sequential", sequential > 0 ? nlohmann::ordered_json(best / sequential)
                                                                              : nlohmann::ordered_json(nullptr)}});
        if (sequential == 0) {
            sequential = best;
            report.text("  %-24s %12.0f elements/s\n", p.label, best);
        } else {
            report.text("  %-24s %12.0f elements/s (%.2fx the sequential map)\n", p.label, best, best / sequential);
        }
    }
    return kExitOk;
}

} // namespace tstudio::cli
