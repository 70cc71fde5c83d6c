// From a project to what a training loop runs: the graph (with the optimizer built in when the
// project asks for one), the names of its train op, loss, global step and initializer, and the
// feeds of each step, every name checked against the graph.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "project/run/data_parallel.h"
#include "framework/tensor.h"
#include "project/format/project_file.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/queue_runner.pb.h"
#include "proto/saver.pb.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::project {

using Feeds = std::vector<std::pair<std::string, Tensor>>;

struct PreparedTraining {
    /// The prepared graph as a builder (its collections and variables included), for callers that
    /// add to it (summaries, hooks) before a session is made; `graph` is its GraphDef.
    std::shared_ptr<GraphBuilder> builder;
    tensorflow::GraphDef graph;
    /// From a MetaGraphDef: its saver; nullopt for a GraphDef.
    std::optional<tensorflow::SaverDef> saverDef;
    /// The graph's collections after preparation (variables, trainable_variables, global_step,
    /// train_op, ...), as a MetaGraphDef stores them.
    std::map<std::string, tensorflow::CollectionDef> collections;
    std::string trainOp;    ///< an op name
    std::string loss;       ///< a tensor name "node:i"; empty when the project names none
    /// The graph's own loss (training.loss), which evaluation runs: `loss` itself, except with
    /// replicas > 1, where `loss` is the towers' mean ("tower_loss:0") that the train op minimises.
    std::string modelLoss;
    /// With replicas > 1: tower i's device ("/device:CPU:1"); empty otherwise.
    std::vector<std::string> towerDevices;
    std::string globalStep; ///< the global step's value tensor, e.g. "global_step/read:0"
    std::string initOp;     ///< initializes every variable (run once before training)
    /// DataParallel with size > 1: the NoOp "group_deps" grouping one Assign of HorovodBroadcast
    /// (root rank 0) per global variable, slots and global step included: run once after the
    /// session is created (restored or initialised), as BroadcastGlobalVariablesHook. Empty
    /// otherwise.
    std::string broadcastOp;
    /// With an optimizer: the tensors apply_gradients takes (after averaging and clipping): a dense
    /// gradient's tensor, an IndexedSlices' values and indices; the train op computes from them
    /// alone, so a run feeding them applies those gradients (a parameter server's update).
    std::vector<std::string> gradientTensors;
    /// How many UPDATE_OPS (batch-norm moving averages) the train op built from `optimizer` runs first.
    std::size_t updateOps = 0;
    /// training.warm_start: the variables initOp restores from `warmStartCheckpoint` after
    /// initialising every variable (empty without warm start).
    std::vector<std::string> warmStarted;
    std::string warmStartCheckpoint;
    /// The graph's own input pipelines: the QueueRunnerDefs of a MetaGraphDef's "queue_runners"
    /// collection (empty for a GraphDef), for MonitoredTrainingSessionOptions::queueRunners.
    std::vector<tensorflow::QueueRunnerDef> queueRunners;
    /// The feeds of the next step: {placeholder tensor name -> batch}, one entry per feed of every
    /// data source (none when the project has no data sources). Errors are the pipelines' (a damaged record, ...). One thread at a time.
    std::function<Expected<Feeds>()> nextFeeds;
};

/// Reads the project's graph (file or inline pbtxt; a MetaGraphDef's collections are imported) and
/// prepares it for training:
///  - train_op given: it, the loss, the global step (training.global_step, else get_global_step)
///    and the init op (training.init_op, else a new "init" NoOp over every variable) are looked up;
///  - optimizer given: the graph is imported into a GraphBuilder; get_or_create_global_step; the
///    learning rate (constant or schedule of the global step); compute_gradients of the loss over
///    the trainable variables (a MetaGraphDef's trainable_variables collection; for a plain
///    GraphDef every float variable the loss depends on); clip_by_global_norm when asked;
///    apply_gradients, both after the UPDATE_OPS (recoverUpdateOps: a MetaGraphDef's collection, else
///    TensorFlow's batch-norm "AssignMovingAvg" updates by name); then the init op over every global
///    variable (slots included);
///  - replicas > 1 (optimizer only): the gradients come from that many towers of the loss
///    (buildReplicas, replicas.h) on CPU:i ("cpu") or GPU:i ("gpu"), the graph's variables pinned to
///    /device:CPU:0, each fed placeholder split evenly across the towers, and averaged before
///    clipping and apply_gradients.
/// Errors (InvalidArgument unless the readers say otherwise), prefixed "<file>: ":
///   "training.loss: 'loss:0' is not in the graph"
///   "training.train_op: 'train' is not in the graph"
///   "data.sources[0].feeds.x: 'x' is not in the graph"
///   "data.sources[0].feeds.x: 'x' is a MatMul, not a placeholder"
///   "data.sources[0].feeds.x: placeholder 'x' expects float [?,2] but the source gives int64 [?]"
///   "data.sources[1].feeds.x: 'x' is fed by data.sources[0] too"
///   "graph.file '/p/model.meta': collection 'queue_runners': queue_runners entry 0 is not a
///    QueueRunnerDef with a queue_name"; "... entry 1 (queue 'batch/fifo_queue'): enqueue op
///    'batch/fifo_queue_enqueue' is not in the graph"
///   "data.sources: the project has no data sources and its graph no queue runners (a MetaGraphDef's
///    \"queue_runners\" collection), but the train op needs placeholder 'x'"
///   "data.sources: the train op needs placeholder 'x', which no data source feeds"
///   "replicas: 2 towers need training.optimizer: ..." (with train_op), "replicas: ... feeds.x is a
///    part of a sparse feature, which cannot be split across towers", and buildReplicas' errors
/// A graph whose queue runners feed it needs no data sources; with both, the sources feed the
/// placeholders and the queues the rest.
/// and the graph file's, the builder's and the data sources' errors.
///
/// `parallel` (data_parallel.h) with size > 1: every data source is read as shard `rank` of `size`;
/// the learning rate is scaled by size when asked (parallel.scaleLearningRate or the project's
/// distributed.scale_learning_rate); each gradient (an IndexedSlices one made dense first, as
/// Horovod's sparse_as_dense) is averaged over the ranks under the name scope
/// "Distributed<optimizer>_Allreduce" (HorovodAllreduce "HorovodAllreduce_<gradient>", then "div"
/// by size) before clipping and apply_gradients; and `broadcastOp` is built. The ranks' graphs must
/// build the same gradients (the collectives match them by name). Errors, besides the above:
///   "distributed: 2 ranks need training.optimizer (its gradients are averaged across the ranks) or
///    a train op that averages them itself with HorovodAllreduce; training.train_op 'train' has none"
///   "distributed: this build has no MPI support (install openmpi-bin and libopenmpi-dev)"
///   the data sources' shard errors (a word_text source cannot be sharded).
Expected<PreparedTraining> prepareTraining(const Project& project, const OpRegistry& ops,
                                           const DataParallel& parallel = {});

struct FeedSpec;

/// Checks that `feed` can feed the graph: a Placeholder (or PlaceholderWithDefault) whose dtype is
/// the source's and whose shape takes [batchSize] + the example's shape (a sparse feature's part:
/// its FeedSpec::batchShape). `where` prefixes the
/// errors ("<file>: data.sources[0].feeds.x"): "'x' is not in the graph", "'x' is a MatMul, not a
/// placeholder", "placeholder 'x' expects float [?,2] but the source gives int64 [?]".
Status checkFeed(const GraphBuilder& b, const FeedSpec& feed, std::int64_t batchSize, const std::string& where);

} // namespace tstudio::project
