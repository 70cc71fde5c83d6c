// prepareTraining: the project's graph read and imported, the optimizer built when asked, every
// name checked, and the feeds producer over the data sources' pipelines.
#include "project/run/training_setup.h"

#include "builder/control_flow_contexts.h"
#include "builder/graph_builder.h"
#include "training/input_pipeline.h"
#include "builder/variables.h"
#include "project/sources/data_sources.h"
#include "training/distributed_optimizer.h"
#include "distributed/mpi_context.h"
#include "framework/op_registry.h"
#include "io/formats/graph_def_io.h"
#include "graph/variable_roles.h"
#include "graph/tensor_id.h"
#include "project/format/graph_dependencies.h"
#include "io/file_kind_detector.h"
#include "io/formats/meta_graph_format.h"
#include "io/formats/open_graph.h"
#include "model/meta_graph.h"
#include "project/format/project_json.h"
#include "project/run/replicas.h"
#include "training/adadelta.h"
#include "training/adagrad.h"
#include "training/adam.h"
#include "training/lazy_adam.h"
#include "builder/clip_ops.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/learning_rate_decay.h"
#include "training/momentum.h"
#include "training/rmsprop.h"
#include "training/update_ops.h"
#include "project/run/warm_start.h"

#include <memory>
#include <set>

namespace tstudio::project {
namespace {

struct LoadedGraph {
    tensorflow::GraphDef graph;
    std::optional<ImportedMetaGraph> meta;
    /// A MetaGraphDef's "while_context" and "cond_context" collections, as stored.
    std::optional<tensorflow::CollectionDef> whileContexts;
    std::optional<tensorflow::CollectionDef> condContexts;
};

Expected<LoadedGraph> loadGraph(const Project& project, const OpRegistry& ops, const std::string& label)
{
    LoadedGraph out;
    if (!project.graph.pbtxt.empty()) {
        auto graph = parseGraphDef(project.graph.pbtxt, label + "graph.pbtxt");
        if (!graph)
            return unexpected(graph.error());
        out.graph = std::move(*graph);
        return out;
    }
    const std::filesystem::path path = project.resolve(project.graph.file);
    auto kind = detectFileKind(path);
    if (!kind)
        return unexpected(kind.error().withContext(label + "graph.file"));
    switch (kind->kind) {
    case FileKind::kGraphDef:
    case FileKind::kGraphDefText: {
        auto opened = formats::openGraph(*kind);
        if (!opened)
            return unexpected(opened.error().withContext(label + "graph.file"));
        out.graph = *opened->graph;
        return out;
    }
    case FileKind::kMetaGraphDef:
    case FileKind::kMetaGraphDefText: {
        // The detector parsed the MetaGraphDef to be sure of the kind; it is not read again.
        auto meta = formats::metaGraphOf(*kind);
        if (!meta)
            return unexpected(meta.error().withContext(label + "graph.file"));
        MetaGraphImportOptions options;
        options.ops = &ops;
        auto imported = importMetaGraph(**meta, options);
        if (!imported)
            return unexpected(imported.error().withContext(label + "graph.file '" + path.string() + "'"));
        out.graph = imported->graph;
        out.meta = std::move(*imported);
        if (const auto it = (*meta)->collection_def().find("while_context"); it != (*meta)->collection_def().end())
            out.whileContexts = it->second;
        if (const auto it = (*meta)->collection_def().find("cond_context"); it != (*meta)->collection_def().end())
            out.condContexts = it->second;
        return out;
    }
    default:
        return unexpected(invalidArgumentError(label + "graph.file: '" + path.string() + "' holds " +
                                               std::string(fileKindDescription(kind->kind)) +
                                               ", not a GraphDef or MetaGraphDef"));
    }
}

/// "x" -> "x:0"; control names and bad names are left for the lookup to refuse.
std::string tensorName(const std::string& name)
{
    auto id = parseTensorId(name);
    if (!id || id->isControl())
        return name;
    return id->node + ":" + std::to_string(id->index);
}

Expected<Output> findTensor(const GraphBuilder& b, const std::string& name, const std::string& where)
{
    auto t = b.tensor(tensorName(name));
    if (!t)
        return unexpected(invalidArgumentError(where + ": '" + tensorName(name) + "' is not in the graph"));
    return t;
}

Expected<Operation> findOp(const GraphBuilder& b, const std::string& name, const std::string& where)
{
    auto id = parseTensorId(name);
    const std::string node = id ? id->node : name;
    auto op = b.operation(node);
    if (!op)
        return unexpected(invalidArgumentError(where + ": '" + node + "' is not in the graph"));
    return op;
}

/// Names of every node `root` depends on (data and control inputs), itself included.
std::set<std::string> dependencies(const tensorflow::GraphDef& graph, const std::string& root)
{
    std::set<std::string> seen;
    addWithInputs(nodesByName(graph), root, seen);
    return seen;
}

Expected<training::Hyper> learningRate(GraphBuilder& b, const LearningRate& lr, const Output& step)
{
    if (lr.schedule == "constant")
        return training::Hyper(lr.learningRate);
    Expected<Output> out = unexpected(internalError("unknown schedule " + lr.schedule));
    if (lr.schedule == "exponential_decay")
        out = training::exponentialDecay(b, lr.learningRate, step, lr.decaySteps, lr.decayRate, lr.staircase);
    else if (lr.schedule == "piecewise_constant")
        out = training::piecewiseConstant(b, step, lr.boundaries, lr.values);
    else if (lr.schedule == "polynomial_decay")
        out =
            training::polynomialDecay(b, lr.learningRate, step, lr.decaySteps, lr.endLearningRate, lr.power, lr.cycle);
    else if (lr.schedule == "cosine_decay")
        out = training::cosineDecay(b, lr.learningRate, step, lr.decaySteps, lr.alpha);
    else if (lr.schedule == "inverse_time_decay")
        out = training::inverseTimeDecay(b, lr.learningRate, step, lr.decaySteps, lr.decayRate, lr.staircase);
    if (!out)
        return unexpected(out.error());
    return training::Hyper(*out);
}

Expected<std::unique_ptr<training::Optimizer>> makeOptimizer(const OptimizerSpec& spec, training::Hyper lr)
{
    auto n = [&](const char* key) { return spec.numbers.at(key); };
    auto f = [&](const char* key) { return spec.flags.at(key); };
    if (spec.type == "GradientDescent")
        return std::unique_ptr<training::Optimizer>(std::make_unique<training::GradientDescentOptimizer>(lr));
    if (spec.type == "Momentum")
        return std::unique_ptr<training::Optimizer>(
            std::make_unique<training::MomentumOptimizer>(lr, n("momentum"), false, "Momentum", f("use_nesterov")));
    if (spec.type == "Adam")
        return std::unique_ptr<training::Optimizer>(
            std::make_unique<training::AdamOptimizer>(lr, n("beta1"), n("beta2"), n("epsilon")));
    if (spec.type == "LazyAdam")
        return std::unique_ptr<training::Optimizer>(
            std::make_unique<training::LazyAdamOptimizer>(lr, n("beta1"), n("beta2"), n("epsilon")));
    if (spec.type == "RMSProp")
        return std::unique_ptr<training::Optimizer>(std::make_unique<training::RMSPropOptimizer>(
            lr, n("decay"), n("momentum"), n("epsilon"), false, f("centered")));
    if (spec.type == "Adadelta")
        return std::unique_ptr<training::Optimizer>(
            std::make_unique<training::AdadeltaOptimizer>(lr, n("rho"), n("epsilon")));
    auto adagrad = training::AdagradOptimizer::create(lr, n("initial_accumulator_value"));
    if (!adagrad)
        return unexpected(adagrad.error());
    return std::unique_ptr<training::Optimizer>(std::move(*adagrad));
}

/// Puts the graph's variables into the builder's collections: a MetaGraphDef's as stored, a plain
/// GraphDef's into GLOBAL_VARIABLES, and into TRAINABLE_VARIABLES those its own optimizer ops update.
Status registerVariables(GraphBuilder& b, const LoadedGraph& loaded, const std::string& label)
{
    if (!loaded.meta) {
        // A GraphDef with its own optimizer: what that optimizer updates is what was trainable.
        const std::set<std::string> trained = trainedVariables(b.graphDef());
        for (const Variable& v : graphVariables(b)) {
            b.collections().add(graph_keys::kGlobalVariables, v);
            if (trained.count(v.name()) > 0)
                b.collections().add(graph_keys::kTrainableVariables, v);
        }
        return Status::ok();
    }
    for (const auto& [key, collection] : loaded.meta->collections) {
        for (const tensorflow::VariableDef& def : collection.variables) {
            auto v = importedVariable(b, def);
            if (!v)
                return v.error().withContext(label + "graph.file: collection '" + key + "'");
            b.collections().add(key, *v);
        }
    }
    return Status::ok();
}

/// The ops of a MetaGraphDef's "table_initializer" collection (lookup tables, and the initializers of
/// tf.data iterators, which TensorFlow 1.x programs add there so that MonitoredTrainingSession
/// starts them): into the builder's collection, which the Scaffold's local init op groups.
Status registerTableInitializers(GraphBuilder& b, const LoadedGraph& loaded, const std::string& label)
{
    if (!loaded.meta)
        return Status::ok();
    const auto it = loaded.meta->collections.find("table_initializer");
    if (it == loaded.meta->collections.end())
        return Status::ok();
    for (const std::string& entry : it->second.def.node_list().value()) {
        auto id = parseTensorId(entry);
        auto op = b.operation(id ? id->node : entry);
        if (!op)
            return op.error().withContext(label + "graph.file: collection 'table_initializer'");
        b.collections().add("table_initializer", *op);
    }
    return Status::ok();
}

/// The float variables `loss` depends on, for a graph that does not say which are trainable, less
/// those the graph updates itself (batch-norm moving statistics, moving averages, metric state:
/// graph/variable_roles.h), which TensorFlow creates with trainable=False.
std::vector<Variable> lossVariables(const GraphBuilder& b, const Output& loss)
{
    const tensorflow::GraphDef& graph = b.graphDef();
    const std::set<std::string> deps = dependencies(graph, loss.node());
    const std::set<std::string> state = stateVariables(graph);
    std::vector<Variable> out;
    for (const Variable& v : b.collections().variables(graph_keys::kGlobalVariables)) {
        if (deps.count(v.name()) > 0 && state.count(v.name()) == 0 && isFloating(v.dtype()))
            out.push_back(v);
    }
    return out;
}

/// The QueueRunnerDefs of a MetaGraphDef's "queue_runners" collection, each op they name checked
/// against the graph (a runner whose op is missing would fail on its own thread, far from the file).
Expected<std::vector<tensorflow::QueueRunnerDef>> graphQueueRunners(const GraphBuilder& b, const LoadedGraph& loaded,
                                                                    const Project& project, const std::string& label)
{
    if (!loaded.meta)
        return std::vector<tensorflow::QueueRunnerDef>{};
    auto it = loaded.meta->collections.find(std::string(input::kQueueRunnersKey));
    if (it == loaded.meta->collections.end())
        return std::vector<tensorflow::QueueRunnerDef>{};
    const std::string where = label + "graph.file '" + project.resolve(project.graph.file).string() +
                              "': collection '" + std::string(input::kQueueRunnersKey) + "'";
    auto runners = input::queueRunnersFromCollection(it->second.def);
    if (!runners)
        return unexpected(runners.error().withContext(where));
    for (std::size_t i = 0; i < runners->size(); ++i) {
        const tensorflow::QueueRunnerDef& r = (*runners)[i];
        const std::string entry = where + ": entry " + std::to_string(i) + " (queue '" + r.queue_name() + "')";
        if (r.enqueue_op_name_size() == 0)
            return unexpected(invalidArgumentError(entry + ": no enqueue op"));
        std::vector<std::pair<std::string, std::string>> named = {{"queue", r.queue_name()}};
        for (const std::string& op : r.enqueue_op_name())
            named.emplace_back("enqueue op", op);
        if (!r.close_op_name().empty())
            named.emplace_back("close op", r.close_op_name());
        if (!r.cancel_op_name().empty())
            named.emplace_back("cancel op", r.cancel_op_name());
        for (const auto& [what, name] : named) {
            auto id = parseTensorId(name);
            if (!b.findNode(id ? id->node : name))
                return unexpected(invalidArgumentError(entry + ": " + what + " '" + name + "' is not in the graph"));
        }
    }
    return runners;
}

/// Every Placeholder (not PlaceholderWithDefault) the train op needs must be fed by a data source:
/// otherwise the first step would fail with the session's "You must feed a value", which says
/// nothing about the project.
Status checkPlaceholdersFed(const GraphBuilder& b, const std::string& trainOp,
                            const std::map<std::string, std::string>& fedBy, bool hasQueueRunners,
                            const Project& project, const std::string& label)
{
    const tensorflow::GraphDef& graph = b.graphDef();
    const std::set<std::string> needed = dependencies(graph, trainOp);
    for (const tensorflow::NodeDef& node : graph.node()) {
        if (node.op() != "Placeholder" || !needed.count(node.name()))
            continue;
        bool fed = false;
        for (const auto& [tensor, source] : fedBy)
            fed = fed || tensor.rfind(node.name() + ":", 0) == 0;
        for (const CarryState& c : project.carryState) // fed by the training loop (carried_state.h)
            fed = fed || c.feed == node.name() || c.feed.rfind(node.name() + ":", 0) == 0;
        if (fed)
            continue;
        if (project.sources.empty() && !hasQueueRunners)
            return invalidArgumentError(label + "data.sources: the project has no data sources and its graph no queue "
                                                "runners (a MetaGraphDef's \"queue_runners\" collection), but the "
                                                "train op needs placeholder '" + node.name() + "'");
        return invalidArgumentError(label + "data.sources: the train op needs placeholder '" + node.name() +
                                    "', which no data source feeds");
    }
    return Status::ok();
}

} // namespace

Status checkFeed(const GraphBuilder& b, const FeedSpec& feed, std::int64_t batchSize, const std::string& where)
{
    auto id = parseTensorId(feed.placeholder);
    const std::string node = id ? id->node : feed.placeholder;
    const tensorflow::NodeDef* def = b.findNode(node);
    if (!def)
        return invalidArgumentError(where + ": '" + node + "' is not in the graph");
    if (def->op() != "Placeholder" && def->op() != "PlaceholderWithDefault")
        return invalidArgumentError(where + ": '" + node + "' is a " + def->op() + ", not a placeholder");
    auto tensor = b.tensor(tensorName(feed.placeholder));
    if (!tensor)
        return invalidArgumentError(where + ": '" + tensorName(feed.placeholder) + "' is not in the graph");
    std::vector<std::int64_t> dims{-1};
    dims.insert(dims.end(), feed.exampleShape.dims().begin(), feed.exampleShape.dims().end());
    std::vector<std::int64_t> batchDims = dims;
    batchDims.front() = batchSize;
    if (feed.batchShape) // a sparse feature's part: shaped for the batch as a whole
    {
        dims.assign(feed.batchShape->dims().begin(), feed.batchShape->dims().end());
        batchDims = dims;
    }
    if (tensor->baseDtype() != feed.dtype || !tensor->shape().isCompatibleWith(TensorShape(batchDims)))
        return invalidArgumentError(where + ": placeholder '" + node + "' expects " +
                                    dataTypeString(tensor->baseDtype()) + " " + tensor->shape().toString() +
                                    " but the source gives " + dataTypeString(feed.dtype) + " " +
                                    TensorShape(dims).toString());
    return Status::ok();
}

namespace {

/// What nextFeeds() drives: the allocator first, so that it outlives the iterators.
struct FeedState {
    std::shared_ptr<CpuAllocator> allocator;
    std::vector<std::unique_ptr<data::DatasetIterator>> iterators;
    std::vector<std::vector<std::string>> names;
};

} // namespace

namespace {

/// The learning rate of a data-parallel run: every value of the schedule times `factor`.
LearningRate scaledSchedule(LearningRate lr, int size)
{
    lr.learningRate = distributed::scaledLearningRate(lr.learningRate, size, true);
    lr.endLearningRate = distributed::scaledLearningRate(lr.endLearningRate, size, true);
    for (double& v : lr.values)
        v = distributed::scaledLearningRate(v, size, true);
    return lr;
}

/// Whether the graph averages its own gradients (a graph built with Horovod).
bool hasHorovodAllreduce(const GraphBuilder& b)
{
    for (const tensorflow::NodeDef& node : b.graphDef().node())
        if (node.op() == "HorovodAllreduce")
            return true;
    return false;
}

/// DistributedOptimizer.compute_gradients' averaging, over the project's (possibly sparse)
/// gradients: each made dense, allreduced and divided by the number of ranks.
Status averageOverRanks(GraphBuilder& b, std::vector<training::SparseGradAndVar>& gradients, int size,
                        const std::string& optimizerName)
{
    auto scope = b.nameScope("Distributed" + optimizerName + "_Allreduce");
    if (!scope)
        return scope.error();
    for (auto& [grad, var] : gradients) {
        if (!grad)
            continue;
        auto dense = toDenseGradient(b, *grad);
        if (!dense)
            return dense.error().withContext("variable '" + var.name() + "'");
        auto averaged = distributed::allreduce(b, *dense, size, true);
        if (!averaged)
            return averaged.error().withContext("variable '" + var.name() + "'");
        grad = Gradient(*averaged);
    }
    return Status::ok();
}

/// training.optimizer: the global step (made when missing), the learning rate, the variables to
/// train, the towers' or the loss's gradients (averaged across ranks, clipped) and the update that
/// applies them. Returns the train op's name; fills out's globalStep, updateOps and, with towers,
/// loss and towerDevices.
Expected<std::string> buildOptimizerStep(GraphBuilder& b, const Project& project, const LoadedGraph& loaded,
                                         const DataParallel& parallel, const std::optional<Output>& loss,
                                         const std::map<std::string, std::string>& fedBy, const std::string& label,
                                         PreparedTraining& out)
{
    const TrainingSetup& setup = project.training;
    const bool distributedRun = parallel.size > 1 && !parallel.asynchronous;
    auto stepOr = training::getOrCreateGlobalStep(b);
    if (!stepOr)
        return unexpected(stepOr.error().withContext(label + "training.global_step"));
    const Variable step = *stepOr;
    out.globalStep = step.value().name();
    const OptimizerSpec& spec = *setup.optimizer;
    const bool scaleRate = distributedRun && (parallel.scaleLearningRate || project.distributed.scaleLearningRate);
    auto rate = learningRate(b, scaleRate ? scaledSchedule(spec.learningRate, parallel.size) : spec.learningRate,
                             step.value());
    if (!rate)
        return unexpected(rate.error().withContext(label + "training.optimizer.learning_rate"));
    auto optimizer = makeOptimizer(spec, *rate);
    if (!optimizer)
        return unexpected(optimizer.error().withContext(label + "training.optimizer"));
    std::optional<std::vector<Variable>> varList;
    // The graph's own trainables (a MetaGraphDef's collection, or what a GraphDef's optimizer
    // updates), else the float variables the loss depends on that the graph does not update itself.
    const bool graphTrainables = !b.collections().variables(graph_keys::kTrainableVariables).empty();
    if (!graphTrainables) {
        varList = lossVariables(b, *loss);
        if (varList->empty())
            return unexpected(invalidArgumentError(label + "training.loss: '" + loss->name() +
                                                   "' depends on no floating-point variable; there is "
                                                   "nothing to train"));
        for (const Variable& v : *varList)
            b.collections().add(graph_keys::kTrainableVariables, v);
    }
    // The batch-norm updates run with every step, as `with tf.control_dependencies(
    // tf.get_collection(UPDATE_OPS)): minimize(...)` has them (a graph from a file brings them
    // in its MetaGraphDef's collection or by TensorFlow's names).
    if (setup.varList) {
        // minimize(var_list=...): the trainable variables whose names match from the start.
        const std::vector<Variable> all =
            varList ? *varList : b.collections().variables(graph_keys::kTrainableVariables);
        std::vector<Variable> kept;
        std::string names;
        for (const Variable& v : all) {
            names += (names.empty() ? "" : ", ") + v.name();
            if (matchesFromStart(*setup.varList, v.name()))
                kept.push_back(v);
        }
        if (kept.empty())
            return unexpected(invalidArgumentError(label + "training.var_list: '" + *setup.varList +
                                                   "' matches none of the trainable variables (" + names + ")"));
        varList = kept;
    }
    auto updates = training::recoverUpdateOps(b, loaded.meta ? &loaded.meta->collections : nullptr);
    if (!updates)
        return unexpected(updates.error().withContext(label + "graph"));
    out.updateOps = updates->size();
    if (parallel.asynchronous && !updates->empty())
        return unexpected(invalidArgumentError(
            label + "distributed.replication: \"async\": the graph has " + std::to_string(updates->size()) +
            " UPDATE_OPS (batch-norm moving averages), which the train op runs on the worker's forward pass; a "
            "parameter server applies gradients only. Train this graph with \"sync\" replication"));
    auto afterUpdates = training::afterUpdateOps(b);
    std::vector<training::GradAndVar> gradsAndVars;
    if (project.replicas > 1) {
        std::vector<std::string> splitFeeds;
        for (const auto& [tensor, source] : fedBy)
            splitFeeds.push_back(tensor);
        auto towers = buildReplicas(b, *loss, static_cast<int>(project.replicas),
                                    project.device == "gpu" ? "GPU" : "CPU", splitFeeds, **optimizer, varList,
                                    label + "replicas");
        if (!towers)
            return unexpected(towers.error());
        gradsAndVars = std::move(towers->gradients);
        out.loss = towers->loss.name();
        out.towerDevices = std::move(towers->devices);
    }
    // As Optimizer.minimize: a variable read through a Gather (embedding_lookup) gets its
    // gradient as IndexedSlices, clipped and applied sparsely; the others stay dense.
    std::vector<training::SparseGradAndVar> sparseGradsAndVars;
    if (project.replicas > 1) {
        for (auto& [g, v] : gradsAndVars)
            sparseGradsAndVars.emplace_back(g ? std::optional<Gradient>(Gradient(*g)) : std::nullopt, v);
    } else {
        auto grads = (*optimizer)->computeGradientsWithSlices(b, *loss, varList);
        if (!grads)
            return unexpected(grads.error().withContext(label + "training.optimizer"));
        sparseGradsAndVars = std::move(*grads);
    }
    if (distributedRun)
        if (Status s = averageOverRanks(b, sparseGradsAndVars, parallel.size, (*optimizer)->name()); !s.isOk())
            return unexpected(s.withContext(label + "distributed"));
    if (setup.clipByGlobalNorm) {
        std::vector<std::optional<Gradient>> list;
        for (const auto& [g, v] : sparseGradsAndVars)
            list.push_back(g);
        auto clipped = training::clipByGlobalNormWithSlices(b, list, *setup.clipByGlobalNorm);
        if (!clipped)
            return unexpected(clipped.error().withContext(label + "training.clip_by_global_norm"));
        for (std::size_t i = 0; i < sparseGradsAndVars.size(); ++i)
            sparseGradsAndVars[i].first = clipped->first[i];
    }
    for (const auto& [g, v] : sparseGradsAndVars) {
        if (!g)
            continue;
        if (g->isSparse()) {
            out.gradientTensors.push_back(g->sparse().values.name());
            out.gradientTensors.push_back(g->sparse().indices.name());
        } else {
            out.gradientTensors.push_back(g->dense().name());
        }
    }
    auto train = (*optimizer)->applyGradientsWithSlices(b, sparseGradsAndVars, step);
    if (!train)
        return unexpected(train.error().withContext(label + "training.optimizer"));
    return train->name();
}

} // namespace

Expected<PreparedTraining> prepareTraining(const Project& project, const OpRegistry& ops, const DataParallel& parallel)
{
    const std::string label = projectLabel(project);
    const TrainingSetup& setup = project.training;
    const bool distributedRun = parallel.size > 1 && !parallel.asynchronous;
    if (parallel.asynchronous && setup.trainOp)
        return unexpected(invalidArgumentError(
            label + "distributed.replication: \"async\" needs training.optimizer (the workers send its gradients "
                    "to the parameter servers, which apply them); the graph's own training.train_op '" +
            *setup.trainOp + "' cannot be split so"));
    if (parallel.asynchronous && project.replicas > 1)
        return unexpected(invalidArgumentError(label + "distributed.replication: \"async\" with replicas " +
                                               std::to_string(project.replicas) + ": train one tower per worker"));
    if ((distributedRun || parallel.asynchronous) && !distributed::mpiBuilt())
        return unexpected(unavailableError(
            label + "distributed: this build has no MPI support (install openmpi-bin and libopenmpi-dev)"));
    TSTUDIO_TRY(loaded, loadGraph(project, ops, label));
    if (project.replicas > 1) {
        if (setup.trainOp)
            return unexpected(invalidArgumentError(
                label + "replicas: " + std::to_string(project.replicas) +
                " towers need training.optimizer (the towers' gradients are averaged before one update); the "
                "graph's own training.train_op cannot be split into towers"));
        // _variable_on_cpu: the towers share one copy of each variable, on the host.
        for (tensorflow::NodeDef& node : *loaded.graph.mutable_node())
            if ((node.op() == "VariableV2" || node.op() == "Variable" || node.op() == "VarHandleOp") &&
                node.device().empty())
                node.set_device("/device:CPU:0");
    }
    auto builder = std::make_shared<GraphBuilder>(ops);
    GraphBuilder& b = *builder;
    if (Status s = b.importGraphDef(loaded.graph); !s.isOk())
        return unexpected(s.withContext(label + "graph"));
    if (Status s = registerVariables(b, loaded, label); !s.isOk())
        return unexpected(s);
    if (Status s = registerTableInitializers(b, loaded, label); !s.isOk())
        return unexpected(s);
    // The loops and conds of a MetaGraphDef, so that gradients can be taken through them.
    if (loaded.whileContexts || loaded.condContexts)
        if (Status s = importControlFlowContexts(b, loaded.whileContexts ? &*loaded.whileContexts : nullptr,
                                                 loaded.condContexts ? &*loaded.condContexts : nullptr);
            !s.isOk())
            return unexpected(s.withContext(label + "graph.file"));

    PreparedTraining out;
    TSTUDIO_TRY(runners, graphQueueRunners(b, loaded, project, label));
    out.queueRunners = std::move(runners);
    std::optional<Output> loss;
    if (!setup.loss.empty()) {
        TSTUDIO_TRY(t, findTensor(b, setup.loss, label + "training.loss"));
        if (setup.optimizer && !isFloating(t.baseDtype()))
            return unexpected(invalidArgumentError(label + "training.loss: '" + t.name() + "' is " +
                                                   dataTypeString(t.baseDtype()) + "; a loss must be floating-point"));
        loss = t;
        out.loss = t.name();
        out.modelLoss = t.name();
    }
    if (setup.globalStep) {
        TSTUDIO_TRY(t, findTensor(b, *setup.globalStep, label + "training.global_step"));
        std::optional<Variable> variable;
        for (const Variable& v : b.collections().variables(graph_keys::kGlobalVariables))
            if (v.name() == t.node() || v.value().node() == t.node())
                variable = v;
        if (!variable)
            return unexpected(invalidArgumentError(label + "training.global_step: '" + t.name() +
                                                   "' is not the value of a variable of the graph"));
        b.collections().clear(graph_keys::kGlobalStep);
        b.collections().add(graph_keys::kGlobalStep, *variable);
    }

    // The feeds, checked before anything is built.
    auto state = std::make_shared<FeedState>();
    state->allocator = std::make_shared<CpuAllocator>();
    std::map<std::string, std::string> fedBy;
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        TSTUDIO_TRY(pipeline,
                    buildSourcePipeline(project, i, *state->allocator, SourceShard{parallel.size, parallel.rank}));
        const std::string path = "data.sources[" + std::to_string(i) + "]";
        std::vector<std::string> names;
        for (const FeedSpec& feed : pipeline.feeds) {
            const std::string where = label + path + ".feeds." + feed.placeholder;
            if (Status s = checkFeed(b, feed, project.batchSize, where); !s.isOk())
                return unexpected(s);
            if (project.replicas > 1 && feed.batchShape)
                return unexpected(invalidArgumentError(label + "replicas: " + path + ".feeds." + feed.placeholder +
                                                       " is a part of a sparse feature, which cannot be split "
                                                       "across towers"));
            const std::string name = tensorName(feed.placeholder);
            if (auto [it, fresh] = fedBy.emplace(name, path); !fresh)
                return unexpected(invalidArgumentError(where + ": '" + name + "' is fed by " + it->second + " too"));
            names.push_back(name);
        }
        state->iterators.push_back(pipeline.batches.makeIterator());
        state->names.push_back(std::move(names));
    }

    if (setup.trainOp) {
        TSTUDIO_TRY(train, findOp(b, *setup.trainOp, label + "training.train_op"));
        out.trainOp = train.name();
        if (distributedRun && !hasHorovodAllreduce(b))
            return unexpected(invalidArgumentError(
                label + "distributed: " + std::to_string(parallel.size) +
                " ranks need training.optimizer (its gradients are averaged across the ranks) or a train op that "
                "averages them itself with HorovodAllreduce; training.train_op '" +
                out.trainOp + "' has none"));
        TSTUDIO_TRY(step, training::getGlobalStep(b));
        if (!step)
            return unexpected(invalidArgumentError(label + "training.global_step: the graph has no global step "
                                                           "(no \"global_step\" variable); name the step's tensor"));
        out.globalStep = step->value().name();
    } else {
        TSTUDIO_TRY(train, buildOptimizerStep(b, project, loaded, parallel, loss, fedBy, label, out));
        out.trainOp = train;
    }

    if (Status s = checkPlaceholdersFed(b, out.trainOp, fedBy, !out.queueRunners.empty(), project, label); !s.isOk())
        return unexpected(s);

    if (setup.initOp) {
        TSTUDIO_TRY(init, findOp(b, *setup.initOp, label + "training.init_op"));
        out.initOp = init.name();
    } else {
        auto init = globalVariablesInitializer(b);
        if (!init)
            return unexpected(init.error().withContext(label + "training"));
        out.initOp = init->name();
    }

    if (distributedRun) {
        auto broadcast = distributed::broadcastGlobalVariables(b, 0);
        if (!broadcast)
            return unexpected(broadcast.error().withContext(label + "distributed"));
        out.broadcastOp = broadcast->name();
    }

    if (setup.warmStart) {
        // WarmStartSettings warms trainable variables; a graph that does not say which are
        // trainable (a GraphDef with its own train op) offers every variable but the global step.
        std::vector<Variable> candidates = b.collections().variables(graph_keys::kTrainableVariables);
        if (candidates.empty())
            for (const Variable& v : b.collections().variables(graph_keys::kGlobalVariables))
                if (v.value().name() != out.globalStep)
                    candidates.push_back(v);
        auto plan = addWarmStart(b, project, *setup.warmStart, candidates, out.initOp, label + "training.warm_start");
        if (!plan)
            return unexpected(plan.error());
        out.initOp = plan->initOp;
        out.warmStarted = plan->variables;
        out.warmStartCheckpoint = plan->checkpoint;
    }

    if (loaded.meta) {
        out.saverDef = loaded.meta->saverDef;
        for (const auto& [key, collection] : loaded.meta->collections)
            out.collections[key] = collection.def;
    }
    for (const std::string& key : b.collections().keys()) {
        if (auto def = b.collections().toCollectionDef(key))
            out.collections[key] = std::move(*def);
    }
    out.graph = b.toGraphDef();
    out.builder = builder;
    out.nextFeeds = [state]() -> Expected<Feeds> {
        Feeds feeds;
        for (std::size_t i = 0; i < state->iterators.size(); ++i) {
            auto element = state->iterators[i]->getNext();
            if (!element)
                return unexpected(element.error());
            if (!*element)
                return unexpected(outOfRangeError("data.sources[" + std::to_string(i) + "] ended"));
            for (std::size_t k = 0; k < state->names[i].size(); ++k)
                feeds.emplace_back(state->names[i][k], (**element)[k]);
        }
        return feeds;
    };
    return out;
}

} // namespace tstudio::project
