// tstudio bench functions: chains of function calls against the same chain of inline adds.
#include "bench_functions.h"

#include "bench_report.h"

#include "bench_support.h"

#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace tstudio::cli {
namespace {

using Clock = std::chrono::steady_clock;

/// add(x: float, y: float) -> z: float = x + y, as TensorFlow writes a FunctionDef.
constexpr const char* kAddFunction = R"pb(
  signature {
    name: 'add'
    input_arg { name: 'x' type: DT_FLOAT }
    input_arg { name: 'y' type: DT_FLOAT }
    output_arg { name: 'z' type: DT_FLOAT }
  }
  node_def { name: 'sum' op: 'AddV2' input: 'x' input: 'y' attr { key: 'T' value { type: DT_FLOAT } } }
  ret { key: 'z' value: 'sum:z:0' }
)pb";

struct Chain {
    const char* label;
    std::string last; ///< the node to fetch
};

tensorflow::NodeDef link(const std::string& name, const std::string& kind, const std::string& previous)
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.add_input(previous);
    node.add_input("one");
    auto& attrs = *node.mutable_attr();
    if (kind == "inline") {
        node.set_op("AddV2");
        attrs["T"].set_type(tensorflow::DT_FLOAT);
    } else if (kind == "by name") {
        node.set_op("add");
    } else {
        node.set_op(kind);
        attrs["Tin"].mutable_list()->add_type(tensorflow::DT_FLOAT);
        attrs["Tin"].mutable_list()->add_type(tensorflow::DT_FLOAT);
        attrs["Tout"].mutable_list()->add_type(tensorflow::DT_FLOAT);
        attrs["f"].mutable_func()->set_name("add");
    }
    return node;
}

} // namespace

int benchFunctions(const Registries& registries, const FunctionsBenchArgs& args, BenchReport& report)
{
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(kAddFunction, graph.mutable_library()->add_function()))
        return fail(internalError("the benchmark's FunctionDef does not parse"));
    tensorflow::NodeDef& one = *graph.add_node();
    one.set_name("one");
    one.set_op("Const");
    (*one.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    auto& value = *(*one.mutable_attr())["value"].mutable_tensor();
    value.set_dtype(tensorflow::DT_FLOAT);
    value.mutable_tensor_shape();
    value.add_float_val(1.0f);
    std::vector<Chain> chains{
        {"inline", ""}, {"by name", ""}, {"PartitionedCall", ""}, {"StatefulPartitionedCall", ""}};
    for (std::size_t c = 0; c < chains.size(); ++c) {
        std::string previous = "one";
        for (int i = 0; i < args.calls; ++i) {
            const std::string name = "chain" + std::to_string(c) + "_" + std::to_string(i);
            *graph.add_node() = link(name, chains[c].label, previous);
            previous = name;
        }
        chains[c].last = previous;
    }
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    options.config.set_intra_op_parallelism_threads(1);
    options.config.set_inter_op_parallelism_threads(1);
    Session session(options);
    if (Status s = session.create(graph); !s.isOk())
        return fail(s);
    report.text("functions: chains of %d links over a float scalar, each adding Const 1 to the previous link; "
                "%d runs each through Session::run, one thread, median\n",
                args.calls, args.repeat);
    const float expected = static_cast<float>(args.calls + 1);
    report["calls"] = args.calls;
    report["runs"] = args.repeat;
    report["chains"] = nlohmann::ordered_json::array();
    double inlinePerLink = 0;
    for (const Chain& chain : chains) {
        std::vector<Tensor> out;
        if (Status s = session.run({}, {chain.last}, {}, &out); !s.isOk())
            return fail(s);
        if (out.at(0).scalar<float>() != expected)
            return fail(internalError(std::string(chain.label) + " chain computed " +
                                      std::to_string(out[0].scalar<float>()) + ", expected " +
                                      std::to_string(expected)));
        std::vector<double> seconds;
        for (int r = 0; r < args.repeat; ++r) {
            const auto start = Clock::now();
            if (Status s = session.run({}, {chain.last}, {}, &out); !s.isOk())
                return fail(s);
            seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        }
        const double perLink = median(seconds) / args.calls * 1e6;
        const bool inlined = chain.label == chains.front().label;
        report["chains"].push_back({{"chain", chain.label},
                                    {"us_per_link", perLink},
                                    {"call_overhead_us", inlined ? nlohmann::ordered_json(nullptr)
                                                                 : nlohmann::ordered_json(perLink - inlinePerLink)}});
        if (inlined) {
            inlinePerLink = perLink;
            report.text("  %-24s %8.3f us per link (AddV2 node: the body's work without a call)\n", chain.label,
                        perLink);
        } else {
            report.text("  %-24s %8.3f us per link, call overhead %.3f us per call\n", chain.label, perLink,
                        perLink - inlinePerLink);
        }
    }
    return kExitOk;
}

} // namespace tstudio::cli
