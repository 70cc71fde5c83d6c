// Session: graph set-up (defaults, validation, placement), feeds and fetches, per-signature plans,
// cached kernels, and the step's results (fetched copies, step stats, partition graphs).
#define EIGEN_USE_THREADS
#include "runtime/session.h"

#include "devices/cpu/cpu_device.h"
#include "core/log.h"
#include "devices/gpu_activity.h"
#include "devices/gpu_devices.h"
#include "distributed/mpi_context.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/node_def_validation.h"
#include "framework/op_kernel.h"
#include "framework/op_registry.h"
#include "runtime/execution_observer.h"
#include "runtime/executor.h"
#include "runtime/executor_plan.h"
#include "runtime/gpu_stream_stats.h"
#include "runtime/local_function_runtime.h"
#include "runtime/placer.h"
#include "runtime/step_capture.h"
#include "runtime/step_stats_collector.h"

#include <unsupported/Eigen/CXX11/ThreadPool>

#include <algorithm>
#include <set>

namespace tstudio {

/// What the session keeps per node once the node has run: its kernel (and so the kernel's state),
/// the mutex that serialises a stateful kernel, and its dtypes.
struct Session::NodeState {
    std::unique_ptr<OpKernel> kernel;
    std::mutex mutex;
    bool stateful = false;
    std::vector<DataType> inputTypes;
    std::vector<DataType> outputTypes;
};

namespace {

/// Memory for the tensors run() returns. It lives as long as the process, so results may outlive
/// the session whose devices computed them.
Allocator& resultAllocator()
{
    static Allocator* allocator = new CpuAllocator();
    return *allocator;
}

bool isPlaceholderOp(const std::string& op)
{
    return op == "Placeholder" || op == "PlaceholderV2";
}

/// A shape as TensorFlow's Python prints it: "(?, 784)", "(3,)", "()", "<unknown>".
std::string pythonShape(const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return "<unknown>";
    std::string out = "(";
    for (int i = 0; i < shape.rank(); ++i) {
        out += i ? ", " : "";
        out += shape.dim(i) < 0 ? std::string("?") : std::to_string(shape.dim(i));
    }
    if (shape.rank() == 1)
        out += ",";
    return out + ")";
}

/// The last GraphDef version whose Placeholders wrote an unknown shape as an empty one: TensorFlow
/// reads a rank-0 `shape` of such a graph (TF 0.x) as unknown, not as a scalar.
constexpr int kLastProducerWithLegacyPlaceholderShape = 21;

/// The shape the graph (of GraphDef version `producer`) declares for output `slot` of `node`, if
/// it declares one.
std::optional<TensorShape> declaredShape(const tensorflow::NodeDef& node, int slot, int producer)
{
    if (isPlaceholderOp(node.op()) || node.op() == "PlaceholderWithDefault") {
        if (auto shape = attrShape(node, "shape")) {
            if (producer <= kLastProducerWithLegacyPlaceholderShape && shape->rank() == 0 && isPlaceholderOp(node.op()))
                return std::nullopt;
            return *shape;
        }
        return std::nullopt;
    }
    if (const tensorflow::AttrValue* shapes = findAttr(node, "_output_shapes")) {
        if (slot < shapes->list().shape_size())
            if (auto shape = TensorShape::fromProto(shapes->list().shape(slot)))
                return *shape;
    }
    return std::nullopt;
}

std::string tensorName(const std::string& node, int slot)
{
    return node + ":" + std::to_string(slot);
}

} // namespace

Session::Session(SessionOptions options) : m_options(std::move(options))
{
    if (!m_options.ops || !m_options.kernels) {
        m_initStatus = invalidArgumentError("SessionOptions needs an OpRegistry and a KernelRegistry");
        return;
    }
    m_initStatus = createDevices();
    if (m_initStatus.isOk()) {
        PlacementOptions placement;
        placement.allowSoftPlacement = m_options.config.allow_soft_placement();
        m_functions = std::make_unique<LocalFunctionRuntime>(*m_options.ops, *m_options.kernels, devices(), placement);
    }
}

Session::~Session() = default;

Status Session::createDevices()
{
    const tensorflow::ConfigProto& config = m_options.config;
    int cpus = 1;
    if (const auto it = config.device_count().find("CPU"); it != config.device_count().end())
        cpus = it->second;
    if (cpus < 1)
        return invalidArgumentError("ConfigProto.device_count['CPU'] is " + std::to_string(cpus) +
                                    ": a session needs at least one CPU device");
    for (int i = 0; i < cpus; ++i)
        m_devices.push_back(std::make_unique<CpuDevice>(i, config.intra_op_parallelism_threads()));
    // GPUs after the CPUs, as TensorFlow lists them; device_count["GPU"] caps them (absent: all).
    int gpus = -1;
    if (const auto it = config.device_count().find("GPU"); it != config.device_count().end())
        gpus = std::max(0, it->second);
    auto gpuDevices = createGpuDevices(config.gpu_options(), gpus);
    if (!gpuDevices)
        return gpuDevices.error().withContext("creating the session's GPU devices");
    for (auto& gpu : *gpuDevices)
        m_devices.push_back(std::move(gpu));
    for (const auto& device : m_devices)
        m_hasDeviceMemory = m_hasDeviceMemory || !device->allocator().hostAccessible();
    m_interOpThreads = std::max(1, config.inter_op_parallelism_threads());
    if (m_interOpThreads > 1)
        m_interOpPool = std::make_unique<Eigen::ThreadPool>(m_interOpThreads - 1);
    return Status::ok();
}

std::vector<Device*> Session::devices() const
{
    std::vector<Device*> out;
    for (const auto& device : m_devices)
        out.push_back(device.get());
    return out;
}

std::optional<std::string> Session::assignedDevice(const std::string& nodeName) const
{
    std::shared_lock lock(m_graphMutex);
    if (!m_graph)
        return std::nullopt;
    const auto id = m_graph->findNode(nodeName);
    if (!id)
        return std::nullopt;
    return m_devices[static_cast<std::size_t>(m_placement[static_cast<std::size_t>(*id)])]->name();
}

Status Session::create(tensorflow::GraphDef graph)
{
    if (!m_initStatus.isOk())
        return m_initStatus;
    std::unique_lock lock(m_graphMutex);
    if (m_graph)
        return Status(StatusCode::kAlreadyExists, "A Graph has already been created for this session.");
    return setGraph(std::move(graph));
}

Status Session::extend(tensorflow::GraphDef graph)
{
    if (!m_initStatus.isOk())
        return m_initStatus;
    std::unique_lock lock(m_graphMutex);
    if (!m_graph)
        return setGraph(std::move(graph));
    tensorflow::GraphDef combined = m_graph->graphDef();
    // The extension's functions join the library (a different function under a known name fails).
    if (Status s = m_functions->addLibrary(graph.library()); !s.isOk())
        return s;
    for (const tensorflow::FunctionDef& function : graph.library().function()) {
        const auto& known = combined.library().function();
        if (std::none_of(known.begin(), known.end(), [&](const tensorflow::FunctionDef& f) {
                return f.signature().name() == function.signature().name();
            }))
            *combined.mutable_library()->add_function() = function;
    }
    for (tensorflow::NodeDef& node : *graph.mutable_node()) {
        if (m_graph->findNode(node.name()))
            return invalidArgumentError("GraphDef argument to Extend includes node '" + node.name() +
                                        "', which was created by a previous call to Create or Extend in this session.");
        *combined.add_node() = std::move(node);
    }
    return setGraph(std::move(combined));
}

Status Session::setGraph(tensorflow::GraphDef graph)
{
    const int known = m_graph ? m_graph->nodeCount() : 0;
    // Functions first: a node may call one by name (its op is the function's name).
    if (Status s = m_functions->addLibrary(graph.library()); !s.isOk())
        return s;
    for (int i = known; i < graph.node_size(); ++i) {
        tensorflow::NodeDef* node = graph.mutable_node(i);
        auto op = opDefFor(node->op());
        if (!op)
            return op.error().withContext("node '" + node->name() + "'");
        addDefaultAttrs(**op, node);
        if (Status s = validateNodeDef(**op, *node); !s.isOk())
            return s;
    }
    auto built = Graph::fromGraphDef(std::move(graph));
    if (!built)
        return built.error();

    PlacementOptions placementOptions;
    placementOptions.allowSoftPlacement = m_options.config.allow_soft_placement();
    placementOptions.logDevicePlacement = m_options.config.log_device_placement();
    placementOptions.logClusterMapping = true;
    if (const auto& mpi = distributed::MpiContext::instance(); mpi.isInitialized())
        placementOptions.clusterRanks = ClusterRanks{mpi.rank(), mpi.size()};
    auto placement = placeGraph(*built, *m_options.ops, *m_options.kernels, devices(), placementOptions, m_placement);
    if (!placement)
        return placement.error();
    if (Status s = checkFunctionCalls(*built, known); !s.isOk())
        return s;

    std::lock_guard stateLock(m_stateMutex);
    m_graph.emplace(std::move(*built));
    m_placement = std::move(*placement);
    m_nodes.resize(static_cast<std::size_t>(m_graph->nodeCount()));
    m_captures.clear();
    m_lastCapture = nullptr;
    m_plans.clear();
    return Status::ok();
}

Expected<const tensorflow::OpDef*> Session::opDefFor(const std::string& op) const
{
    return m_functions->library().lookUpOpDef(op);
}

Status Session::checkFunctionCalls(const Graph& graph, int first) const
{
    for (NodeId id = first; id < graph.nodeCount(); ++id) {
        const tensorflow::NodeDef& node = graph.node(id);
        if (!isFunctionCall(node, m_functions->library()))
            continue;
        auto op = opDefFor(node.op());
        if (!op)
            return op.error();
        auto inputTypes = inputTypesForNode(**op, node);
        if (!inputTypes)
            return inputTypes.error();
        auto outputTypes = outputTypesForNode(**op, node);
        if (!outputTypes)
            return outputTypes.error();
        if (Status s = m_functions->checkCall(node, *inputTypes, *outputTypes); !s.isOk())
            return s;
    }
    return Status::ok();
}

Expected<Session::NodeState*> Session::nodeState(NodeId id)
{
    // Called with m_stateMutex held.
    std::unique_ptr<NodeState>& slot = m_nodes[static_cast<std::size_t>(id)];
    if (slot)
        return slot.get();
    const tensorflow::NodeDef& node = m_graph->node(id);
    auto op = opDefFor(node.op());
    if (!op)
        return unexpected(op.error());
    auto state = std::make_unique<NodeState>();
    auto inputTypes = inputTypesForNode(**op, node);
    if (!inputTypes)
        return unexpected(inputTypes.error());
    auto outputTypes = outputTypesForNode(**op, node);
    if (!outputTypes)
        return unexpected(outputTypes.error());
    state->inputTypes = std::move(*inputTypes);
    state->outputTypes = std::move(*outputTypes);
    state->stateful = (*op)->is_stateful();
    if (primitiveKind(node.op()) == PrimitiveKind::kNone) {
        Device& device = *m_devices[static_cast<std::size_t>(m_placement[static_cast<std::size_t>(id)])];
        // Calls by name get the function-call kernel (their op is a library function's name).
        auto kernel = createNodeKernel(node, m_functions->library(), *m_options.kernels, device);
        if (!kernel)
            return unexpected(kernel.error());
        state->kernel = std::move(*kernel);
    }
    slot = std::move(state);
    return slot.get();
}

Expected<std::shared_ptr<const ExecutorPlan>> Session::planFor(const std::vector<std::pair<NodeId, int>>& feeds,
                                                               const std::vector<std::pair<NodeId, int>>& fetches,
                                                               const std::vector<NodeId>& targets, bool observed)
{
    // Grappler's rewrites, as a TensorFlow 1.x session applies them unless the config turns them
    // off. A run with an observer (the debugger) sees every node of the graph run: no merging.
    const tensorflow::RewriterConfig& rewriter = m_options.config.graph_options().rewrite_options();
    const bool optimizerOn = !rewriter.disable_meta_optimizer();
    PlanRewrites rewrites;
    rewrites.mergeEquivalentNodes =
        optimizerOn && !observed && rewriter.arithmetic_optimization() != tensorflow::RewriterConfig::OFF;
    // The remapper's fusions (plan_fusion.h); TensorFlow's remapper is on by default too.
    rewrites.remapping = optimizerOn && !observed && rewriter.remapping() != tensorflow::RewriterConfig::OFF;
    rewrites.targets = targets;
    const bool dependencyOptimization =
        optimizerOn && rewriter.dependency_optimization() != tensorflow::RewriterConfig::OFF;

    std::string key = rewrites.mergeEquivalentNodes ? "m," : "";
    if (rewrites.remapping)
        key += "a,";
    for (const auto& [node, slot] : feeds)
        key += "f" + std::to_string(node) + ":" + std::to_string(slot) + ",";
    for (const auto& [node, slot] : fetches)
        key += "o" + std::to_string(node) + ":" + std::to_string(slot) + ",";
    for (NodeId node : targets)
        key += "t" + std::to_string(node) + ",";

    std::lock_guard lock(m_stateMutex);
    if (const auto it = m_plans.find(key); it != m_plans.end())
        return it->second;

    std::vector<NodeId> fetchNodes;
    const std::set<std::pair<NodeId, int>> fed(feeds.begin(), feeds.end());
    for (const auto& fetch : fetches)
        if (!fed.count(fetch))
            fetchNodes.push_back(fetch.first);
    const std::vector<bool> needed = pruneForRun(*m_graph, feeds, fetchNodes, targets);

    // An unfed Placeholder fails before anything runs, in the words of TensorFlow's kernel.
    for (NodeId id : m_graph->topologicalOrder()) {
        const tensorflow::NodeDef& node = m_graph->node(id);
        if (!needed[static_cast<std::size_t>(id)] || !isPlaceholderOp(node.op()))
            continue;
        const auto dtype = attrType(node, "dtype");
        std::string message = "You must feed a value for placeholder tensor '" + node.name() + "' with dtype " +
                              (dtype ? dataTypeString(*dtype) : std::string("unknown"));
        if (auto shape = attrShape(node, "shape"); shape && !shape->isUnknownRank())
            message += " and shape " + shape->toString();
        return unexpected(invalidArgumentError(message));
    }

    auto lookup = [this](NodeId id) -> Expected<NodeRuntime> {
        auto state = nodeState(id);
        if (!state)
            return unexpected(state.error());
        NodeRuntime runtime;
        runtime.deviceIndex = m_placement[static_cast<std::size_t>(id)];
        runtime.device = m_devices[static_cast<std::size_t>(runtime.deviceIndex)].get();
        runtime.kernel = (*state)->kernel.get();
        runtime.kernelMutex = (*state)->stateful ? &(*state)->mutex : nullptr;
        runtime.inputTypes = &(*state)->inputTypes;
        runtime.outputTypes = &(*state)->outputTypes;
        return runtime;
    };
    auto plan = buildExecutorPlan(*m_graph, needed, feeds, fetches, lookup, rewrites);
    if (!plan)
        return unexpected(plan.error());
    if (dependencyOptimization)
        markControlOnlyNodes(*plan, targets);
    auto shared = std::make_shared<const ExecutorPlan>(std::move(*plan));
    m_plans.emplace(key, shared);
    return shared;
}

Status Session::appendGpuTrace(const ExecutorPlan& plan, GpuActivityRecorder& recorder, tensorflow::StepStats* stats)
{
    for (const std::unique_ptr<Device>& device : m_devices)
        if (device->driverOrdinal() >= 0)
            if (Status s = device->synchronize(); !s.isOk())
                return s;
    auto activity = recorder.stop();
    if (!activity)
        return activity.error();
    auto gpuName = [&](std::uint32_t ordinal) -> std::optional<std::string> {
        for (const std::unique_ptr<Device>& device : m_devices)
            if (device->driverOrdinal() == static_cast<int>(ordinal))
                return device->name();
        return std::nullopt;
    };
    auto nodeOfTag = [&](std::uint64_t tag) -> std::optional<GpuTaggedNode> {
        if (tag == 0 || tag > plan.nodes.size())
            return std::nullopt;
        const tensorflow::NodeDef& node = *plan.nodes[static_cast<std::size_t>(tag - 1)].def;
        return GpuTaggedNode{node.name(), node.op()};
    };
    appendGpuStreamStats(*activity, gpuName, nodeOfTag, stats);
    if (activity->droppedRecords > 0)
        logWarning("trace", "CUPTI dropped " + std::to_string(activity->droppedRecords) +
                                " GPU activity records of this step: the trace lacks some kernels");
    return Status::ok();
}

StepCapture* Session::captureFor(const ExecutorPlan& plan)
{
    std::lock_guard lock(m_stateMutex);
    if (const auto it = m_captures.find(&plan); it != m_captures.end())
        return it->second.get();
    // The device with memory of its own that the plan uses: only such a device captures.
    Device* device = nullptr;
    for (const PlanNode& node : plan.nodes)
        if (node.onDeviceMemory) {
            device = node.runtime.device;
            break;
        }
    auto* capturing = dynamic_cast<CapturingDevice*>(device);
    std::unique_ptr<StepCapture> capture;
    if (capturing)
        capture = std::make_unique<StepCapture>(*device, *capturing, m_resources, captureObstacle(plan, *device));
    StepCapture* raw = capture.get();
    m_captures.emplace(&plan, std::move(capture));
    return raw;
}

StepCaptureStats Session::captureStats() const
{
    std::lock_guard lock(m_stateMutex);
    StepCaptureStats total;
    for (const auto& [plan, capture] : m_captures) {
        if (!capture)
            continue;
        const StepCaptureStats one = capture->stats();
        total.captures += one.captures;
        total.replays += one.replays;
        total.executorSteps += one.executorSteps;
        total.graphNodes += one.graphNodes;
        if (capture.get() == m_lastCapture)
            total.lastEvent = one.lastEvent;
    }
    return total;
}

Status Session::collectResults(const std::vector<std::pair<NodeId, int>>& fetchRefs,
                               const std::vector<FetchedValue>& fetched, bool mayShare,
                               std::vector<Tensor>* results)
{
    const Graph& graph = *m_graph;
    results->clear();
    for (std::size_t i = 0; i < fetched.size(); ++i) {
        const std::string name = tensorName(graph.node(fetchRefs[i].first).name(), fetchRefs[i].second);
        if (!fetched[i].value) {
            return invalidArgumentError(
                "Retval[" + std::to_string(i) + "] does not have value: the fetched tensor '" + name + "' " +
                (fetched[i].dead ? "is dead (it is on an untaken branch of a Switch)" : "was not computed"));
        }
        const TensorValue& value = *fetched[i].value;
        std::unique_lock<std::mutex> refLock;
        if (value.refMutex)
            refLock = std::unique_lock(*value.refMutex);
        if (!value.get().isInitialized())
            return failedPreconditionError("Attempting to use uninitialized value " +
                                           graph.node(fetchRefs[i].first).name());
        // Values in GPU memory come back through their device (the one wait a step has).
        Device& producer =
            *m_devices[static_cast<std::size_t>(m_placement[static_cast<std::size_t>(fetchRefs[i].first)])];
        // A step's own value (not a variable's, a feed's, a constant's or another fetch's) in a CPU
        // device's memory needs no copy: a CpuDevice's allocator lives on while its tensors do, and
        // `fetched` is about to let go of it. This spares a pass over every fetched batch. Not from
        // a device with a memory limit: results the caller keeps must not count against it.
        if (mayShare && !value.isRef() && dynamic_cast<CpuDevice*>(&producer) && !producer.allocator().byteLimit() &&
            value.tensor.bufferAllocator() == &producer.allocator() && !value.tensor.bufferIsShared()) {
            results->push_back(value.tensor);
            continue;
        }
        auto copy = producer.copyToHost(value.get(), resultAllocator());
        if (!copy)
            return copy.error().withContext("Cannot return '" + name + "'");
        results->push_back(std::move(*copy));
    }
    return Status::ok();
}

Status Session::run(const std::vector<std::pair<std::string, Tensor>>& feeds, const std::vector<std::string>& fetches,
                    const std::vector<std::string>& targets, std::vector<Tensor>* outputs, ExecutionObserver* observer)
{
    return run(tensorflow::RunOptions(), feeds, fetches, targets, outputs, nullptr, observer);
}

Status Session::run(const tensorflow::RunOptions& options, const std::vector<std::pair<std::string, Tensor>>& feeds,
                    const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                    std::vector<Tensor>* outputs, tensorflow::RunMetadata* metadata, ExecutionObserver* observer)
{
    Status status = runOnce(options, feeds, fetches, targets, outputs, metadata, observer);
    if (observer)
        observer->runFinished(status);
    return status;
}

Status Session::runOnce(const tensorflow::RunOptions& options, const std::vector<std::pair<std::string, Tensor>>& feeds,
                        const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                        std::vector<Tensor>* outputs, tensorflow::RunMetadata* metadata, ExecutionObserver* observer)
{
    if (outputs)
        outputs->clear();
    if (!m_initStatus.isOk())
        return m_initStatus;
    if (m_closed.load())
        return failedPreconditionError("Attempted to use a closed Session.");
    std::shared_lock graphLock(m_graphMutex);
    if (!m_graph)
        return invalidArgumentError("Session was not created with a graph before Run()!");
    const Graph& graph = *m_graph;

    // Feeds: known tensors, each once, of the right dtype and a fitting shape.
    std::vector<std::pair<NodeId, int>> feedRefs;
    std::vector<Tensor> feedValues;
    std::vector<std::string> feedNames; // "x:0", for an observer
    for (const auto& [name, value] : feeds) {
        auto id = parseTensorId(name);
        if (!id)
            return id.error().withContext("Cannot feed '" + name + "'");
        if (id->isControl())
            return invalidArgumentError("Cannot feed '" + name + "': it names a control input, not a tensor");
        const auto node = graph.findNode(id->node);
        if (!node)
            return notFoundError("FeedInputs: unable to find feed output " + tensorName(id->node, id->index));
        const tensorflow::NodeDef& def = graph.node(*node);
        auto op = opDefFor(def.op());
        if (!op)
            return op.error();
        auto outputTypes = outputTypesForNode(**op, def);
        if (!outputTypes)
            return outputTypes.error();
        const std::string tensor = tensorName(id->node, id->index);
        if (id->index >= static_cast<int>(outputTypes->size()))
            return invalidArgumentError("Cannot feed '" + tensor + "': node '" + def.name() + "' (op '" + def.op() +
                                        "') has " + std::to_string(outputTypes->size()) + " outputs");
        const std::pair<NodeId, int> ref{*node, id->index};
        if (std::find(feedRefs.begin(), feedRefs.end(), ref) != feedRefs.end())
            return invalidArgumentError("Tensor '" + tensor + "' is fed more than once");
        const DataType expected = baseType((*outputTypes)[static_cast<std::size_t>(id->index)]);
        if (value.dtype() != expected)
            return invalidArgumentError("Cannot feed value of dtype " + dataTypeString(value.dtype()) +
                                        " for Tensor '" + tensor + "', which has dtype " + dataTypeString(expected));
        if (auto shape = declaredShape(def, id->index, graph.graphDef().versions().producer());
            shape && !shape->isCompatibleWith(value.shape()))
            return invalidArgumentError("Cannot feed value of shape " + pythonShape(value.shape()) + " for Tensor '" +
                                        tensor + "', which has shape '" + pythonShape(*shape) + "'");
        feedRefs.push_back(ref);
        feedValues.push_back(value);
        feedNames.push_back(tensor);
    }

    std::vector<std::pair<NodeId, int>> fetchRefs;
    for (const std::string& name : fetches) {
        auto id = parseTensorId(name);
        if (!id)
            return id.error().withContext("Cannot fetch '" + name + "'");
        if (id->isControl())
            return invalidArgumentError("Cannot fetch '" + name +
                                        "': it names a control input, not a tensor (run the node as a target)");
        const auto node = graph.findNode(id->node);
        if (!node)
            return notFoundError("FetchOutputs node " + tensorName(id->node, id->index) + ": not found");
        auto op = opDefFor(graph.node(*node).op());
        if (!op)
            return op.error();
        auto outputTypes = outputTypesForNode(**op, graph.node(*node));
        if (!outputTypes)
            return outputTypes.error();
        if (id->index >= static_cast<int>(outputTypes->size()))
            return invalidArgumentError("Cannot fetch '" + tensorName(id->node, id->index) + "': node '" + id->node +
                                        "' (op '" + graph.node(*node).op() + "') has " +
                                        std::to_string(outputTypes->size()) + " outputs");
        fetchRefs.emplace_back(*node, id->index);
    }

    std::vector<NodeId> targetIds;
    for (const std::string& name : targets) {
        const std::string nodeName = !name.empty() && name[0] == '^' ? name.substr(1) : name;
        const auto node = graph.findNode(nodeName);
        if (!node)
            return notFoundError("PruneForTargets: Some target nodes not found: " + nodeName);
        targetIds.push_back(*node);
    }

    std::shared_lock<std::shared_mutex> buildLock;
    if (m_hasDeviceMemory) // new kernels may upload constants: never into another plan's capture
        buildLock = std::shared_lock(m_deviceUse);
    auto plan = planFor(feedRefs, fetchRefs, targetIds, observer != nullptr);
    if (buildLock)
        buildLock.unlock();
    if (!plan)
        return plan.error();
    if (observer)
        observer->runFeeds(feedNames, feedValues);

    const bool traced = options.trace_level() > tensorflow::RunOptions::NO_TRACE;
    std::optional<StepStatsCollector> collector;
    if (traced)
        collector.emplace(devices(), metadata ? metadata->GetArena() : nullptr);
    // A traced step on a GPU records its kernels, copies and memsets (TensorFlow's GPU tracer) when
    // CUPTI can be had; otherwise the trace holds the host's records of the GPU nodes only.
    std::unique_ptr<GpuActivityRecorder> gpuTrace;
    if (traced && metadata && (*plan)->hasDeviceMemory) {
        auto recorder = GpuActivityRecorder::start({.keepRecords = true});
        if (recorder)
            gpuTrace = std::move(*recorder);
        else
            logInfo("trace", "GPU kernels are not in this trace: " + recorder.error().message());
    }
    StepParams params;
    params.stepId = m_nextStepId++;
    params.feedValues = &feedValues;
    params.resources = &m_resources;
    params.stats = collector ? &*collector : nullptr;
    params.observer = observer;
    params.tagGpuWork = gpuTrace != nullptr;
    params.parallelism = m_interOpThreads;
    params.sessionClosed = &m_closed;
    // Function calls of this step run their bodies through the session's runtime, one level down.
    FunctionCallScope::RecursionRecord recursion;
    const FunctionCallScope functions{m_functions.get(), 0, &m_closed, &recursion};
    params.functions = &functions;
    if (m_interOpPool)
        params.schedule = [pool = m_interOpPool.get()](std::function<void()> task) { pool->Schedule(std::move(task)); };
    const std::int64_t timeoutMs =
        options.timeout_in_ms() > 0 ? options.timeout_in_ms() : m_options.config.operation_timeout_in_ms();
    if (timeoutMs > 0)
        params.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);

    // One step in the executor; `capturing`: single-threaded on this thread, for a CUDA graph.
    auto execute = [&](const std::vector<Tensor>& values, bool capturing, std::vector<FetchedValue>* fetched) {
        StepParams step = params;
        step.feedValues = &values;
        if (capturing) {
            step.parallelism = 1;
            step.schedule = nullptr;
        }
        // Per-step resources (the stacks of loop gradients) go when the step ends, whatever its outcome.
        ScopedStepContainer stepContainer(step.stepId, m_resources);
        step.stepContainer = &stepContainer;
        return runExecutorStep(**plan, step, fetched);
    };
    std::vector<Tensor> results;
    // A captured step's values are copied (its buffers are replayed into); the executor's are
    // handed over when nothing else holds them.
    auto collect = [&](const std::vector<FetchedValue>& fetched) {
        return collectResults(fetchRefs, fetched, false, &results);
    };
    StepCapture* capture = (*plan)->hasDeviceMemory ? captureFor(**plan) : nullptr;
    if (capture && m_options.captureGraphs && !traced && !observer && !params.deadline) {
        {
            std::lock_guard lock(m_stateMutex);
            m_lastCapture = capture;
        }
        if (Status s = capture->run(**plan, feedValues, m_deviceUse, execute, collect); !s.isOk())
            return s;
    } else {
        // A capture of another signature must record neither this step's work nor the copies that
        // bring its fetches back (they record an event on the compute stream).
        std::vector<FetchedValue> fetched;
        std::shared_lock<std::shared_mutex> deviceLock;
        if (capture)
            deviceLock = std::shared_lock(m_deviceUse);
        if (Status s = execute(feedValues, false, &fetched); !s.isOk())
            return s;
        if (Status s = collectResults(fetchRefs, fetched, true, &results); !s.isOk())
            return s;
    }

    if (metadata) {
        if (collector)
            collector->finish(metadata->mutable_step_stats());
        if (gpuTrace)
            if (Status s = appendGpuTrace(**plan, *gpuTrace, metadata->mutable_step_stats()); !s.isOk())
                logWarning("trace", "GPU kernels are not in this trace: " + s.message());
        if (options.output_partition_graphs()) {
            // One GraphDef per device, its nodes in GraphDef order with their assigned devices. Only on
            // request, as TensorFlow: copying every NodeDef would double the cost of a traced step.
            std::vector<std::vector<NodeId>> byDevice(m_devices.size());
            for (const PlanNode& node : (*plan)->nodes)
                byDevice[static_cast<std::size_t>(node.runtime.deviceIndex)].push_back(node.id);
            for (std::size_t d = 0; d < byDevice.size(); ++d) {
                if (byDevice[d].empty())
                    continue;
                std::sort(byDevice[d].begin(), byDevice[d].end());
                tensorflow::GraphDef* partition = metadata->add_partition_graphs();
                *partition->mutable_versions() = graph.graphDef().versions();
                for (NodeId id : byDevice[d]) {
                    tensorflow::NodeDef* node = partition->add_node();
                    *node = graph.node(id);
                    node->set_device(m_devices[d]->name());
                }
            }
        }
    }
    if (outputs)
        *outputs = std::move(results);
    return Status::ok();
}

} // namespace tstudio
