// Shared by the plan-fusion tests (test_sparse_adam_fusion, test_contraction_fusion,
// test_matmul_sum_fusion): a session with Grappler's remapper on or off, a traced step and the
// timeline labels of the nodes it ran, and an observer that records the op types a run executes.
#pragma once

#include "runtime/execution_observer.h"
#include "training_test_support.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tstudio::testing {

/// A Session over `graph` (`threads` intra-op threads; remapping OFF when `remapping` is false) with
/// `init` run unless it is empty.
inline std::unique_ptr<Session> remapperSession(const tensorflow::GraphDef& graph, const std::string& init,
                                                bool remapping, int threads = 2)
{
    TrainingRegistries& r = TrainingRegistries::get();
    SessionOptions options;
    options.ops = &r.ops;
    options.kernels = &r.kernels;
    options.config.set_intra_op_parallelism_threads(threads);
    if (!remapping)
        options.config.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
            tensorflow::RewriterConfig::OFF);
    auto s = std::make_unique<Session>(options);
    if (Status status = s->create(graph); !status.isOk())
        qFatal("session: %s", status.toString().c_str());
    std::vector<Tensor> out;
    if (!init.empty())
        if (Status status = s->run({}, {}, {init}, &out); !status.isOk())
            qFatal("init: %s", status.toString().c_str());
    return s;
}

/// One FULL_TRACE run: its status, what it fetched and the timeline labels ("name = Op(inputs)")
/// of the nodes that ran.
struct StepResult {
    Status status;
    std::vector<Tensor> fetched;
    std::vector<std::string> labels;
};

inline StepResult tracedStep(Session& s, const std::vector<std::pair<std::string, Tensor>>& feeds,
                             const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                             ExecutionObserver* observer = nullptr)
{
    tensorflow::RunOptions options;
    options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    tensorflow::RunMetadata metadata;
    StepResult r;
    r.status = s.run(options, feeds, fetches, targets, &r.fetched, &metadata, observer);
    for (const auto& device : metadata.step_stats().dev_stats())
        for (const auto& node : device.node_stats())
            r.labels.push_back(node.timeline_label());
    return r;
}

/// How many of `labels` contain `part`.
inline int countLabels(const std::vector<std::string>& labels, const std::string& part)
{
    return static_cast<int>(
        std::count_if(labels.begin(), labels.end(), [&](const std::string& l) { return l.find(part) != l.npos; }));
}

/// "name:0" of every VariableV2 of `graph`, in graph order.
inline std::vector<std::string> variableTensors(const tensorflow::GraphDef& graph)
{
    std::vector<std::string> names;
    for (const auto& node : graph.node())
        if (node.op() == "VariableV2")
            names.push_back(node.name() + ":0");
    return names;
}

/// The op types of the nodes an observed run executes.
class OpTypeObserver : public ExecutionObserver {
public:
    std::set<std::string> ops;
    ObserverAction beforeNode(const NodeExecution& e) override
    {
        ops.insert(e.node->op());
        return ObserverAction::kContinue;
    }
    ObserverAction afterNode(const NodeExecution&) override { return ObserverAction::kContinue; }
};

} // namespace tstudio::testing
