// The "replicas" key: a project's model built as N data-parallel towers (builder/towers.h), each on
// its own device with an equal part of every batch, and their gradients averaged.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "training/optimizer.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::project {

/// What the towers came to: the gradients to apply (averaged over the towers), the towers' mean
/// loss, and for the log where each tower runs.
struct ReplicatedGradients {
    std::vector<training::GradAndVar> gradients;
    Output loss;                      ///< "tower_loss": the mean of the towers' losses
    std::vector<std::string> devices; ///< tower i's device ("/device:CPU:1")
};

/// Builds `count` towers of the graph's loss in `b` (the project's imported graph): the nodes the
/// loss computes from the fed placeholders `splitFeeds` (tensor names "x:0") are copied under the
/// name scopes "tower_<i>/" onto "/device:<deviceType>:<i>", each copy reading the i-th of
/// Split(num_split = count) of every fed placeholder (made on /device:CPU:0, so the global batch is
/// fed as before); everything the loss takes that does not depend on the data (variables and their
/// reads, constants, the learning phase) is shared, not copied. Each tower's gradients over
/// `varList` come from optimizer.computeGradients; averageGradients combines them on
/// /device:CPU:0. For a loss that is a mean over the batch (as tf.losses give it) a step is the
/// one-device step of the whole batch.
/// Errors (InvalidArgument, prefixed `where`): a loss that does not depend on any fed placeholder;
/// a node the copy cannot make (an op not in the registry, a while loop's frame ops Enter / Exit /
/// NextIteration / LoopCond, a stateful update such as Assign inside the forward pass), naming
/// the node; the builder's and the optimizer's errors.
Expected<ReplicatedGradients> buildReplicas(GraphBuilder& b, const Output& loss, int count,
                                            const std::string& deviceType, const std::vector<std::string>& splitFeeds,
                                            training::Optimizer& optimizer,
                                            const std::optional<std::vector<Variable>>& varList,
                                            const std::string& where);

} // namespace tstudio::project
