// learningPhase: Keras's learning_phase() as a placeholder_with_default(True), made once per graph.
#include "builder/learning_phase.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "core/try.h"

#include <variant>

namespace tstudio {
namespace {

bool isLearningPhaseNode(const tensorflow::NodeDef& node)
{
    if (node.op() != "PlaceholderWithDefault")
        return false;
    auto dtype = node.attr().find("dtype");
    return dtype != node.attr().end() && dtype->second.type() == tensorflow::DT_BOOL;
}

} // namespace

Expected<Output> learningPhase(GraphBuilder& b)
{
    for (const CollectionItem& item : b.collections().get(graph_keys::kLearningPhase))
        if (const Output* phase = std::get_if<Output>(&item))
            return *phase;
    const std::string name(kLearningPhaseName);
    if (const tensorflow::NodeDef* existing = b.findNode(name)) {
        if (!isLearningPhaseNode(*existing) || existing->input_size() < 1)
            return unexpected(invalidArgumentError("the learning phase needs the node name '" + name + "', which a " +
                                                   existing->op() + " node already has"));
        TSTUDIO_TRY(adopted, b.tensor(name));
        if (adopted.shape().rank() > 0)
            return unexpected(invalidArgumentError("the learning phase '" + name + "' must be a scalar, got shape " +
                                                   adopted.shape().toString()));
        b.collections().add(graph_keys::kLearningPhase, adopted);
        return adopted;
    }
    // Keras makes it under name_scope(''): the root, whatever the caller is building.
    ScopeGuard root = b.controlFlowContextScope(nullptr);
    ScopeGuard noControls = b.clearControlDependencies();
    ScopeGuard noDevice = b.clearDevice();
    TSTUDIO_TRY(rootScope, b.nameScope(""));
    TSTUDIO_TRY(scope, b.nameScope(name));
    if (scope.name() != name + "/")
        return unexpected(invalidArgumentError("the learning phase needs the node name '" + name +
                                               "', which the graph already uses as a name scope"));
    TSTUDIO_TRY(input, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_BOOL, "input"));
    TSTUDIO_TRY(phase, ops::firstOutput(b.op(
                           "PlaceholderWithDefault", {input},
                           {{"dtype", attr::type(tensorflow::DT_BOOL)}, {"shape", attr::shape(TensorShape::scalar())}},
                           scope.name())));
    b.collections().add(graph_keys::kLearningPhase, phase);
    return phase;
}

std::optional<std::string> findLearningPhase(const tensorflow::GraphDef& graph)
{
    for (const tensorflow::NodeDef& node : graph.node())
        if (node.name() == kLearningPhaseName && isLearningPhaseNode(node))
            return node.name() + ":0";
    return std::nullopt;
}

Expected<std::vector<std::pair<std::string, Tensor>>> learningPhaseFeeds(const tensorflow::GraphDef& graph,
                                                                         bool training, Allocator& allocator)
{
    std::vector<std::pair<std::string, Tensor>> feeds;
    const std::optional<std::string> phase = findLearningPhase(graph);
    if (!phase)
        return feeds;
    TSTUDIO_TRY(value, Tensor::fromVector(allocator, TensorShape::scalar(), std::vector<bool>{training}));
    feeds.emplace_back(*phase, std::move(value));
    return feeds;
}

} // namespace tstudio
