// Shared by the plan-fusion tests (test_sparse_adam_fusion, test_contraction_fusion): a session with
// Grappler's remapper on or off, and an observer that records the op types a run executes.
#pragma once

#include "runtime/execution_observer.h"
#include "training_test_support.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tstudio::testing {

/// A Session over `graph` (2 intra-op threads; remapping OFF when `remapping` is false) with `init` run.
inline std::unique_ptr<Session> remapperSession(const tensorflow::GraphDef& graph, const std::string& init,
                                                bool remapping)
{
    TrainingRegistries& r = TrainingRegistries::get();
    SessionOptions options;
    options.ops = &r.ops;
    options.kernels = &r.kernels;
    options.config.set_intra_op_parallelism_threads(2);
    if (!remapping)
        options.config.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
            tensorflow::RewriterConfig::OFF);
    auto s = std::make_unique<Session>(options);
    if (Status status = s->create(graph); !status.isOk())
        qFatal("session: %s", status.toString().c_str());
    std::vector<Tensor> out;
    if (Status status = s->run({}, {}, {init}, &out); !status.isOk())
        qFatal("init: %s", status.toString().c_str());
    return s;
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
