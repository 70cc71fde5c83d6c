// The summaries a project's training writes besides the loss: the graph's own (a MetaGraphDef's
// "summaries" collection, or the summary ops of a graph read without one, such as the node editor's)
// and the project's "summaries" entries, all put into the SUMMARIES collection that the training's
// summary hook merges (tf.summary.merge_all) and writes to the event files.
#pragma once

#include "builder/graph_builder.h"
#include "core/status.h"
#include "project/format/project_file.h"
#include "proto/meta_graph.pb.h"

#include <map>
#include <string>

namespace tstudio::project {

/// Adds to the builder's SUMMARIES collection, in this order:
///  1. The graph's own summaries. `collections` (PreparedTraining::collections) with a "summaries"
///     entry: its node_list as stored (a MetaGraphDef's; what tf.summary.merge_all() gathered when
///     it was exported). Without one (a plain GraphDef, as the node editor writes it, whose summary
///     nodes and layer summaries are summary ops): every ScalarSummary, HistogramSummary,
///     ImageSummary, AudioSummary(V2), TensorSummary(V2) and MergeSummary that no MergeSummary
///     reads. Either way a summary that needs a Placeholder no data source feeds (an evaluation
///     summary) is left out with a warning (log source "summaries"), since running it would stop
///     every summary step.
///  2. project.summaries: tf.summary.<kind>(tag, tensor) of the entry's tensor, or of the
///     placeholder its source feeds the component to (reshaped to [-1] + shape first when shape is
///     set, [-1, 28, 28, 1] for an mnist source's images as image); an empty tag is the tensor's
///     name ("dense/kernel:0" -> "dense/kernel_0", as tf.summary.<kind>(t.name, t)).
/// Errors (InvalidArgument, prefixed with projectLabel: "<project>: "):
///   "graph: collection 'summaries' names 'x:0', which is not a tensor of the graph"
///   "summaries[2].tensor: 'x:0' is not in the graph"
///   "summaries[1].tensor: 'x:0': an image summary needs uint8, ... with 1, 3 or 4 channels, got
///    float32 [?,784] (\"shape\" reshapes each example first, e.g. [28, 28, 1])"
///   "summaries[1].shape: [28,28,3] holds 2352 values but an example of 'x:0' (float32 [?,784])
///    has 784"
///   "summaries[0].tensor: 'y:0' needs placeholder 'y', which no data source feeds"
///   and the summary API's (a family on text, ...).
Status addProjectSummaries(GraphBuilder& b, const Project& project,
                           const std::map<std::string, tensorflow::CollectionDef>& collections);

} // namespace tstudio::project
