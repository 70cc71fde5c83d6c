// UPDATE_OPS: the ops a training step must run besides the optimizer's (batch normalisation's moving
// averages), as TensorFlow 1.x code runs them with tf.control_dependencies(tf.get_collection(UPDATE_OPS)).
#pragma once

#include "builder/graph_builder.h"
#include "builder/scope_guard.h"
#include "core/expected.h"
#include "model/meta_graph.h"

#include <map>
#include <string>
#include <vector>

namespace tstudio::training {

/// The operations of the builder's UPDATE_OPS collection (tf.get_collection(UPDATE_OPS)), in order.
std::vector<Operation> updateOps(const GraphBuilder& b);

/// `with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):` — every op built
/// while the guard lives runs after the update ops (an optimizer's minimize() inside it gives a
/// train op that also updates the moving statistics).
ScopeGuard afterUpdateOps(GraphBuilder& b);

/// Fills UPDATE_OPS of a builder made from a graph read from a file, which carries no Python
/// collections: a MetaGraphDef's "update_ops" node_list when `collections` has one, else the
/// updates TensorFlow's batch normalisation builds, found by their names: an AssignSub (or
/// AssignSubVariableOp) named "<layer>/AssignMovingAvg" or "<layer>/AssignMovingAvg_<n>" that nothing
/// consumes (tf.layers and Keras name them so), or, when only Merges consume it (the unfused layer
/// with a training tensor assigns in a cond branch: "<layer>/cond_2/AssignMovingAvg"), those Merges.
/// Leaves a collection that is not empty as it is.
/// Returns the collection's ops. NotFound when a node_list entry names no op of the graph.
Expected<std::vector<Operation>> recoverUpdateOps(GraphBuilder& b,
                                                  const std::map<std::string, ImportedCollection>* collections = nullptr);

} // namespace tstudio::training
