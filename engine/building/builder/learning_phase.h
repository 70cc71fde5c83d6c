// learningPhase: the graph's one training flag (Keras's learning phase, defaulting to training), which
// batch normalisation and dropout take as their `training` tensor, and how evaluation finds it to feed false.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "proto/graph.pb.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio {

/// The learning phase's node name. Keras (TF 1.x) names its flag "keras_learning_phase" and defaults
/// it to False (inference unless fed); ours defaults to true (training unless fed), so it has its own
/// name and a Keras graph's flag is never taken for it.
inline constexpr std::string_view kLearningPhaseName = "learning_phase";

namespace graph_keys {
/// The collection holding the learning-phase tensor (one item, "learning_phase:0"); a MetaGraphDef
/// exported from the builder carries it as a node_list.
inline constexpr std::string_view kLearningPhase = "learning_phase";
} // namespace graph_keys

/// The graph's learning phase: tf.placeholder_with_default(True, shape=[], name="learning_phase"),
/// a bool scalar PlaceholderWithDefault "learning_phase" whose default is the Const
/// "learning_phase/input". True while training (nothing fed); evaluation, export and freeze feed
/// false (learningPhaseFeeds). Made by the first call, at the graph's root whatever the caller's name
/// scope, control-flow context, control dependencies and device scope, and added to the collection
/// graph_keys::kLearningPhase; later calls return the same tensor. A builder started from a graph
/// that already has one (importGraphDef) adopts it. Errors: InvalidArgument when the name
/// "learning_phase" is taken by a node that is not a bool scalar PlaceholderWithDefault, or by a
/// name scope; the builder's.
Expected<Output> learningPhase(GraphBuilder& b);

/// The learning phase's tensor name in `graph` ("learning_phase:0"): a node named kLearningPhaseName
/// that is a bool PlaceholderWithDefault; nullopt when the graph has none (nothing to feed).
std::optional<std::string> findLearningPhase(const tensorflow::GraphDef& graph);

/// The feed that sets the learning phase of `graph` to `training` ({"learning_phase:0", false} for
/// evaluation), or nothing when the graph has no learning phase. Errors: the allocator's.
Expected<std::vector<std::pair<std::string, Tensor>>> learningPhaseFeeds(const tensorflow::GraphDef& graph,
                                                                         bool training, Allocator& allocator);

} // namespace tstudio
