// LocalFunctionRuntime: building an instantiation (graph, placement, kernels, plan) once and running it
// as a nested executor step of the caller.
#include "runtime/local_function_runtime.h"

#include "framework/kernel_registry.h"
#include "framework/node_def_validation.h"
#include "framework/op_kernel.h"
#include "framework/op_registry.h"
#include "function/functional_control_flow_shapes.h"
#include "graph/graph.h"
#include "kernels/function/function_call_kernel.h"
#include "runtime/control_flow_primitives.h"
#include "runtime/executor.h"
#include "runtime/executor_plan.h"

#include <algorithm>

namespace tstudio {

/// One instantiated function: its body and what running it needs, immutable once built (kernels
/// keep their own state; stateful ones are serialised by their mutex).
class FunctionRuntime::Instance {
public:
    struct NodeState {
        std::unique_ptr<OpKernel> kernel;
        std::mutex mutex;
        bool serialised = false;
        std::vector<DataType> inputTypes;
        std::vector<DataType> outputTypes;
    };

    FunctionBody body;
    std::optional<Graph> graph;
    std::vector<int> placement;
    std::vector<std::unique_ptr<NodeState>> nodes; ///< by NodeId; set for the nodes the plan runs
    std::optional<ExecutorPlan> plan;
};

namespace {

std::string typeList(const std::vector<DataType>& types)
{
    return "(" + dataTypeListString(types) + ")";
}

/// Checks the dtypes a call node gives or expects against the function's. `what` is "argument" or
/// "result"; `callSide` names the call's list ("Tin", "the call's inputs").
Status checkCallTypes(const std::string& function, const std::vector<DataType>& call,
                      const std::vector<DataType>& body, const std::string& what, const std::string& callSide)
{
    if (call.size() != body.size())
        return invalidArgumentError("function '" + function + "' has " + std::to_string(body.size()) + " " + what +
                                    " tensors " + typeList(body) + ", but " + callSide + " lists " +
                                    std::to_string(call.size()) + " " + typeList(call));
    for (std::size_t i = 0; i < call.size(); ++i)
        if (baseType(call[i]) != body[i])
            return invalidArgumentError("function '" + function + "': " + what + " " + std::to_string(i) + " is " +
                                        dataTypeString(body[i]) + ", but " + callSide + "[" + std::to_string(i) +
                                        "] is " + dataTypeString(baseType(call[i])));
    return Status::ok();
}

} // namespace

Expected<std::unique_ptr<OpKernel>> createNodeKernel(const tensorflow::NodeDef& node, const FunctionLibrary& library,
                                                     const KernelRegistry& kernels, Device& device)
{
    if (library.ops().find(node.op()) || !library.contains(node.op()))
        return kernels.createKernel(node, library.ops(), device);
    const tensorflow::OpDef& signature = library.find(node.op())->signature();
    auto inputTypes = inputTypesForNode(signature, node);
    if (!inputTypes)
        return unexpected(inputTypes.error());
    auto outputTypes = outputTypesForNode(signature, node);
    if (!outputTypes)
        return unexpected(outputTypes.error());
    OpKernelConstruction construction(node, signature, device, std::move(*inputTypes), std::move(*outputTypes));
    return makeFunctionCallKernel(construction);
}

LocalFunctionRuntime::LocalFunctionRuntime(const OpRegistry& ops, const KernelRegistry& kernels,
                                           std::vector<Device*> devices, PlacementOptions placement)
    : m_ops(ops), m_kernels(kernels), m_devices(std::move(devices)), m_placement(placement), m_library(ops)
{
}

LocalFunctionRuntime::~LocalFunctionRuntime() = default;

Status LocalFunctionRuntime::addLibrary(const tensorflow::FunctionDefLibrary& library)
{
    return m_library.add(library);
}

const FunctionBody& LocalFunctionRuntime::body(Handle handle) const
{
    return handle->body;
}

Expected<FunctionRuntime::Handle> LocalFunctionRuntime::instantiate(const FunctionCallTarget& target)
{
    const std::string key = instantiationKey(target);
    std::lock_guard lock(m_mutex);
    if (const auto it = m_instances.find(key); it != m_instances.end())
        return it->second.get();
    auto body = instantiateFunction(m_library, target);
    if (!body)
        return unexpected(body.error());
    auto instance = build(std::move(*body));
    if (!instance)
        return unexpected(instance.error().withContext("function '" + target.name + "'"));
    Handle handle = instance->get();
    m_instances.emplace(key, std::move(*instance));
    return handle;
}

Expected<FunctionRuntime::Handle> LocalFunctionRuntime::instantiateBody(const std::string& key,
                                                                   const std::function<Expected<FunctionBody>()>& make)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_instances.find(key); it != m_instances.end())
        return it->second.get();
    auto body = make();
    if (!body)
        return unexpected(body.error());
    const std::string name = body->name;
    auto instance = build(std::move(*body));
    if (!instance)
        return unexpected(instance.error().withContext("function '" + name + "'"));
    Handle handle = instance->get();
    m_instances.emplace(key, std::move(*instance));
    return handle;
}

Status LocalFunctionRuntime::checkCall(const tensorflow::NodeDef& call, const std::vector<DataType>& inputTypes,
                                  const std::vector<DataType>& outputTypes) const
{
    const std::string context = "node '" + call.name() + "' (op '" + call.op() + "')";
    auto target = functionCallTarget(call);
    if (!target)
        return target.error();
    auto types = functionSignatureTypes(m_library, *target);
    if (!types)
        return types.error().withContext(context);
    const bool partitioned = isPartitionedCallOp(call.op());
    if (Status s = checkCallTypes(target->name, inputTypes, types->argTypes, "argument",
                                  partitioned ? "Tin" : "the call's inputs");
        !s.isOk())
        return s.withContext(context);
    if (Status s = checkCallTypes(target->name, outputTypes, types->retTypes, "result",
                                  partitioned ? "Tout" : "the call's outputs");
        !s.isOk())
        return s.withContext(context);
    return Status::ok();
}

Expected<FunctionRuntime::Handle> LocalFunctionRuntime::instantiateCall(const tensorflow::NodeDef& call,
                                                                   const std::vector<DataType>& inputTypes,
                                                                   const std::vector<DataType>& outputTypes)
{
    if (Status s = checkCall(call, inputTypes, outputTypes); !s.isOk())
        return unexpected(s);
    auto target = functionCallTarget(call);
    if (!target)
        return unexpected(target.error());
    auto handle = instantiate(*target);
    if (!handle)
        return unexpected(handle.error().withContext("node '" + call.name() + "' (op '" + call.op() + "')"));
    return handle;
}

Expected<std::unique_ptr<FunctionRuntime::Instance>> LocalFunctionRuntime::build(FunctionBody body)
{
    auto instance = std::make_unique<Instance>();
    auto graph = Graph::fromGraphDef(body.graph);
    if (!graph)
        return unexpected(graph.error());
    instance->graph.emplace(std::move(*graph));
    instance->body = std::move(body);
    const Graph& g = *instance->graph;
    auto placement = placeGraph(g, m_ops, m_kernels, m_devices, m_placement);
    if (!placement)
        return unexpected(placement.error());
    instance->placement = std::move(*placement);
    instance->nodes.resize(static_cast<std::size_t>(g.nodeCount()));

    std::vector<TensorRef> feeds;
    for (const std::string& arg : instance->body.argNodes)
        feeds.emplace_back(*g.findNode(arg), 0);
    std::vector<TensorRef> fetches;
    std::vector<NodeId> fetchNodes;
    for (const std::string& ret : instance->body.retTensors) {
        auto id = parseTensorId(ret);
        if (!id)
            return unexpected(id.error());
        const TensorRef ref{*g.findNode(id->node), id->index};
        fetches.push_back(ref);
        if (std::find(feeds.begin(), feeds.end(), ref) == feeds.end())
            fetchNodes.push_back(ref.first);
    }
    std::vector<NodeId> targets;
    for (const std::string& node : instance->body.controlRetNodes)
        targets.push_back(*g.findNode(node));
    const std::vector<bool> needed = pruneForRun(g, feeds, fetchNodes, targets);

    Instance* raw = instance.get();
    auto lookup = [this, raw](NodeId id) -> Expected<NodeRuntime> {
        auto& slot = raw->nodes[static_cast<std::size_t>(id)];
        const tensorflow::NodeDef& node = raw->graph->node(id);
        Device& device = *m_devices[static_cast<std::size_t>(raw->placement[static_cast<std::size_t>(id)])];
        if (!slot) {
            if (node.op() == "_Arg" || node.op() == "_Retval")
                return unexpected(internalError("node '" + node.name() + "' (op '" + node.op() +
                                                "') of the body would run: arguments are fed, results fetched"));
            auto opDef = m_library.lookUpOpDef(node.op());
            if (!opDef)
                return unexpected(opDef.error().withContext("node '" + node.name() + "'"));
            auto state = std::make_unique<Instance::NodeState>();
            auto inputTypes = inputTypesForNode(**opDef, node);
            if (!inputTypes)
                return unexpected(inputTypes.error());
            auto outputTypes = outputTypesForNode(**opDef, node);
            if (!outputTypes)
                return unexpected(outputTypes.error());
            state->inputTypes = std::move(*inputTypes);
            state->outputTypes = std::move(*outputTypes);
            // Function calls and functional control flow are re-entrant (a recursive function runs
            // its own call or If node nested): never serialised, or the nested run would wait for itself.
            state->serialised = (*opDef)->is_stateful() && !isFunctionCall(node, m_library) &&
                                !isFunctionalControlFlowOp(node.op());
            if (primitiveKind(node.op()) == PrimitiveKind::kNone) {
                auto kernel = createNodeKernel(node, m_library, m_kernels, device);
                if (!kernel)
                    return unexpected(kernel.error());
                state->kernel = std::move(*kernel);
            }
            slot = std::move(state);
        }
        NodeRuntime runtime;
        runtime.deviceIndex = raw->placement[static_cast<std::size_t>(id)];
        runtime.device = &device;
        runtime.kernel = slot->kernel.get();
        runtime.kernelMutex = slot->serialised ? &slot->mutex : nullptr;
        runtime.inputTypes = &slot->inputTypes;
        runtime.outputTypes = &slot->outputTypes;
        return runtime;
    };
    auto plan = buildExecutorPlan(g, needed, feeds, fetches, lookup);
    if (!plan)
        return unexpected(plan.error());
    markControlOnlyNodes(*plan, targets);
    instance->plan.emplace(std::move(*plan));
    return instance;
}

namespace {

/// InvalidArgument unless `args` are the body's argument dtypes, in TensorFlow's words.
Status checkArguments(const FunctionBody& body, const std::vector<Tensor>& args)
{
    if (args.size() != body.argTypes.size())
        return invalidArgumentError("function '" + body.name + "' expects " + std::to_string(body.argTypes.size()) +
                                    " arguments, but " + std::to_string(args.size()) + " are provided");
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i].dtype() != body.argTypes[i])
            return invalidArgumentError("function '" + body.name + "' expects arg[" + std::to_string(i) + "] to be " +
                                        dataTypeString(body.argTypes[i]) + " but " +
                                        dataTypeString(args[i].dtype()) + " is provided");
    return Status::ok();
}

/// The body's results from its step's fetches: values as they are, a ref result by value (a
/// snapshot from `allocator`, independent of later assignments); an uncomputed or dead result and
/// an uninitialized variable are errors naming the function and the result.
Status collectResults(const FunctionBody& body, const std::vector<FetchedValue>& fetched, Allocator& allocator,
                      std::vector<Tensor>* results)
{
    for (std::size_t i = 0; i < fetched.size(); ++i) {
        if (!fetched[i].value)
            return invalidArgumentError("function '" + body.name + "': result " + std::to_string(i) + " ('" +
                                        body.retNodes[i] + "', tensor '" + body.retTensors[i] + "') " +
                                        (fetched[i].dead ? "is dead (on an untaken branch of a Switch)"
                                                         : "was not computed"));
        const TensorValue& value = *fetched[i].value;
        if (!value.isRef()) {
            results->push_back(value.tensor);
            continue;
        }
        std::unique_lock<std::mutex> lock;
        if (value.refMutex)
            lock = std::unique_lock(*value.refMutex);
        if (!value.get().isInitialized())
            return failedPreconditionError("function '" + body.name + "': result " + std::to_string(i) +
                                           " is an uninitialized variable ('" + body.retTensors[i] + "')");
        auto copy = value.get().deepCopy(allocator);
        if (!copy)
            return copy.error();
        results->push_back(std::move(*copy));
    }
    return Status::ok();
}

} // namespace

Status LocalFunctionRuntime::run(Handle handle, const FunctionCallScope& scope, OpKernelContext& caller,
                            const std::vector<Tensor>& args, std::vector<Tensor>* results)
{
    const FunctionBody& body = handle->body;
    results->clear();
    if (scope.depth >= kMaxCallDepth) {
        Status status = resourceExhaustedError("function '" + body.name + "' is called more than " +
                                               std::to_string(kMaxCallDepth) + " deep (the innermost call is node '" +
                                               caller.kernel().name() + "'): a recursion without a base case?");
        if (scope.recursion) {
            std::lock_guard lock(scope.recursion->mutex);
            if (!scope.recursion->error)
                scope.recursion->error = status;
        }
        return status;
    }
    if (Status s = checkArguments(body, args); !s.isOk())
        return s;

    FunctionCallScope inner = scope;
    inner.depth = scope.depth + 1;
    StepParams params;
    params.stepId = caller.stepId();
    params.feedValues = &args;
    params.resources = &caller.resources();
    params.stepContainer = caller.stepContainer();
    params.deadline = caller.deadline();
    params.sessionClosed = scope.sessionClosed;
    params.functions = &inner;
    std::vector<FetchedValue> fetched;
    if (Status s = runExecutorStep(*handle->plan, params, &fetched); !s.isOk())
        return s;
    return collectResults(body, fetched, caller.allocator(), results);
}

Status LocalFunctionRuntime::runDetached(Handle handle, const FunctionCallScope& scope, ResourceManager& resources,
                                   const std::string& callerName, const std::vector<Tensor>& args,
                                   std::vector<Tensor>* results)
{
    // Detached calls take step ids of their own, counting down from -1, so that their per-step
    // containers never meet a session step's ("__per_step_<n>", n >= 1).
    static std::atomic<std::int64_t> nextDetachedStep{-1};
    const FunctionBody& body = handle->body;
    results->clear();
    if (scope.depth >= kMaxCallDepth)
        return resourceExhaustedError("function '" + body.name + "' is called more than " +
                                      std::to_string(kMaxCallDepth) + " deep (by '" + callerName +
                                      "'): a recursion without a base case?");
    if (Status s = checkArguments(body, args); !s.isOk())
        return s;

    FunctionCallScope inner = scope;
    inner.depth = scope.depth + 1;
    ScopedStepContainer stepContainer(nextDetachedStep.fetch_sub(1), resources);
    StepParams params;
    params.stepId = stepContainer.stepId();
    params.feedValues = &args;
    params.resources = &resources;
    params.stepContainer = &stepContainer;
    params.sessionClosed = scope.sessionClosed;
    params.functions = &inner;
    std::vector<FetchedValue> fetched;
    if (Status s = runExecutorStep(*handle->plan, params, &fetched); !s.isOk())
        return s;
    return collectResults(body, fetched, m_devices.front()->allocator(), results);
}

} // namespace tstudio
