// Executor: TensorFlow's propagation of values and deadness through frames and iterations
// (executor.cc / propagator_state.cc), with a ready queue in stable topological order.
#include "runtime/executor.h"
#include "runtime/iteration_state.h"
#include "devices/gpu_activity.h"

#include "runtime/execution_observer.h"
#include "runtime/step_stats_collector.h"

#include <condition_variable>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <tuple>

namespace tstudio {
namespace {

using executor_state::Entry;
using executor_state::IterationPtr;
using executor_state::IterationState;
using executor_state::newIteration;

/// The per-node vectors of Step::process, kept between nodes so that a step does not allocate
/// them for every node it runs: they are cleared (their tensors released) after each node and
/// keep their capacity. `inputs` and `entries` are filled by the node (moved-in values);
/// `outputs` is sized here.
struct NodeScratch {
    std::vector<TensorValue> inputs;
    std::vector<bool> present;
    std::vector<TensorValue> outputs;
    std::vector<bool> live;
    std::vector<Entry> entries;
    /// The kernel's own output slots and their set flags (OpKernelContext::Params::outputStorage).
    std::vector<TensorValue> kernelOutputs;
    std::vector<bool> kernelSet;

    void prepare(int numInputs, int numOutputs)
    {
        inputs.clear();
        inputs.reserve(static_cast<std::size_t>(numInputs));
        present.assign(static_cast<std::size_t>(numInputs), false);
        outputs.resize(static_cast<std::size_t>(numOutputs));
        live.assign(static_cast<std::size_t>(numOutputs), false);
        entries.clear();
        entries.reserve(static_cast<std::size_t>(numOutputs));
    }
    void release()
    {
        inputs.clear();
        // Outputs are released by moving them out: a moved-from value holds no memory, and the
        // next node assigns over it instead of constructing (and allocating) a new one. Every slot
        // is assigned before it is read: a kernel sets all its outputs (or the node fails), and a
        // primitive's dead outputs are reset to empty values after it computes.
        for (TensorValue& output : outputs)
            TensorValue released = std::move(output);
        for (TensorValue& output : kernelOutputs) // moved out already, unless the kernel failed
            TensorValue released = std::move(output);
        entries.clear();
    }
};

/// Host copies of the live values among `values` (refs read under their lock), for observers of a
/// node whose device memory the host cannot read. Values already in host memory are shared.
Expected<std::vector<TensorValue>> hostCopies(const std::vector<TensorValue>& values, const std::vector<bool>& live,
                                              Device& device)
{
    std::vector<TensorValue> copies(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i < live.size() && !live[i])
            continue;
        std::unique_lock<std::mutex> lock;
        if (values[i].refMutex)
            lock = std::unique_lock(*values[i].refMutex);
        const Tensor& value = values[i].get();
        if (!value.isInitialized() || value.inHostMemory()) {
            copies[i] = TensorValue{value};
            continue;
        }
        auto copy = device.copyToHost(value, device.hostAllocator());
        if (!copy)
            return unexpected(copy.error());
        copies[i] = TensorValue{std::move(*copy)};
    }
    return copies;
}

/// One instance of a static frame: the root frame, or one execution of a while loop.
struct FrameState {
    int staticFrame = 0;
    std::uint64_t id = 0;
    FrameState* parent = nullptr;
    IterationState* parentIter = nullptr;
    std::int64_t iterationCount = 0; ///< the highest iteration started
    int numPendingInputs = 0;        ///< Enter deliveries still to come
    int numOutstandingIterations = 1;
    int maxParallelIterations = 1;
    std::map<std::int64_t, IterationPtr> iterations;
    std::vector<int> deadExits;                       ///< Exit nodes dead in the last iteration
    std::vector<std::pair<int, Entry>> nextIterRoots; ///< NextIteration values deferred by parallel_iterations
    std::vector<std::pair<int, Entry>> invValues;     ///< loop invariants (is_constant Enter values)

    IterationState* iteration(std::int64_t i)
    {
        const auto it = iterations.find(i);
        return it == iterations.end() ? nullptr : it->second.get();
    }
};

struct TaggedNode {
    int node = -1;
    FrameState* frame = nullptr;
    IterationState* iter = nullptr;
    bool dead = false;
    std::uint64_t seq = 0;
};

std::string nodeContext(const PlanNode& node)
{
    return "node '" + node.def->name() + "' (op '" + node.def->op() + "')";
}

/// Asks the CPU to fetch the `bytes` from `p` into its caches (a hint: no fault, no wait).
void prefetchBytes(const void* p, std::size_t bytes)
{
    const auto* first = static_cast<const char*>(p);
    for (std::size_t offset = 0; offset < bytes; offset += 64)
        __builtin_prefetch(first + offset);
}

/// What running the plan nodes after `index` will read first, fetched ahead in three stages: a
/// step runs them in the plan's (topological) order when one thread does, and a large graph's
/// nodes, kernels and their type lists are far apart in memory, so each node would otherwise
/// wait on several cache misses. Stage by stage, each reads only pointers an earlier call fetched.
void prefetchAhead(const std::vector<PlanNode>& nodes, int index)
{
    const auto i = static_cast<std::size_t>(index);
    if (i + 3 < nodes.size())
        prefetchBytes(&nodes[i + 3], sizeof(PlanNode));
    if (i + 2 < nodes.size()) {
        const PlanNode& next = nodes[i + 2];
        if (next.runtime.kernel)
            prefetchBytes(next.runtime.kernel, sizeof(OpKernel));
        prefetchBytes(next.outEdges.data(), next.outEdges.size() * sizeof(PlanEdge));
    }
    if (i + 1 < nodes.size())
        if (const OpKernel* kernel = nodes[i + 1].runtime.kernel) {
            __builtin_prefetch(kernel->inputTypes().data());
            __builtin_prefetch(kernel->outputTypes().data());
        }
}

/// The value of a ref, as a plain tensor read under the ref's mutex (shares the buffer).
TensorValue dereference(const TensorValue& value)
{
    if (!value.isRef())
        return value;
    std::unique_lock<std::mutex> lock;
    if (value.refMutex)
        lock = std::unique_lock(*value.refMutex);
    return TensorValue{*value.ref};
}

class Step {
public:
    Step(const ExecutorPlan& plan, const StepParams& params, std::vector<FetchedValue>* fetched)
        : m_plan(plan), m_params(params), m_fetched(fetched)
    {
    }

    Status run();

private:
    // Everything below runs with m_mutex held, except compute().
    void push(int node, FrameState* frame, IterationState* iter, bool dead);
    void workLoop();
    void process(const TaggedNode& tagged, std::unique_lock<std::mutex>& lock);
    /// Computes one live node (without the lock). Fills the scratch's outputs and their liveness.
    Status compute(const TaggedNode& tagged, NodeScratch& scratch);
    void fail(Status status);

    /// Delivers the node's outputs; values are moved out of `outputs` to their last readers.
    Status propagate(const TaggedNode& tagged, std::vector<Entry>& outputs);
    /// `movable`: `outputs` itself, when each value may be moved to the last edge that reads it
    /// (PlanEdge::lastReader) instead of copied; null when the values are delivered again later.
    Status activate(const PlanNode& node, bool isDead, FrameState* frame, IterationState* iter,
                    const std::vector<Entry>& outputs, int* activated, std::vector<Entry>* movable = nullptr);
    /// `value` moved to where input `dstSlot` of `dst` wants it (host or device memory), or
    /// nothing (the value as it is) when it is there already; `source` produced it.
    Expected<std::optional<TensorValue>> moveForInput(const PlanNode& dst, int dstSlot, const TensorValue& value,
                                                      Device* source, bool crossDevice);
    /// Stores a copy of `value` in the input slot, or moves it there from `*movable` (the same
    /// Entry, given when nothing reads it after this edge).
    Status deliverData(const PlanNode& dst, int dstIndex, int dstSlot, const Entry& value, bool srcDead,
                       bool crossDevice, FrameState* frame, IterationState* iter, int* activated,
                       Device* source = nullptr, Entry* movable = nullptr);
    void deliverControl(const PlanNode& dst, int dstIndex, bool srcDead, FrameState* frame, IterationState* iter,
                        int* activated);
    int mergeDeadThreshold(const PlanNode& merge, const IterationState* iter) const;

    FrameState* findOrCreateChildFrame(FrameState* frame, IterationState* iter, const PlanNode& enter);
    Status addLoopInvariant(FrameState* frame, int node, const Entry& value);
    IterationState* incrementIteration(FrameState* frame, Status* status);
    bool adjustOutstanding(FrameState* frame, IterationState* iter, int delta, Status* status);
    bool cleanupIterations(FrameState* frame, IterationState* iter, Status* status);
    bool isIterationDone(FrameState* frame, IterationState* iter);
    static bool isFrameDone(const FrameState* frame)
    {
        return frame->numPendingInputs == 0 && frame->numOutstandingIterations == 0;
    }
    Status finishFrame(FrameState* frame);
    void deleteFrame(FrameState* frame, Status* status);

    const ExecutorPlan& m_plan;
    const StepParams& m_params;
    std::vector<FetchedValue>* m_fetched;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    struct Later {
        const ExecutorPlan* plan;
        bool operator()(const TaggedNode& a, const TaggedNode& b) const
        {
            const int ta = plan->nodes[static_cast<std::size_t>(a.node)].topoIndex;
            const int tb = plan->nodes[static_cast<std::size_t>(b.node)].topoIndex;
            return ta != tb ? ta > tb : a.seq > b.seq;
        }
    };
    std::priority_queue<TaggedNode, std::vector<TaggedNode>, Later> m_ready{Later{&m_plan}};
    std::uint64_t m_seq = 0;
    int m_outstanding = 0; ///< tagged nodes queued or running, over all frames
    int m_helpers = 0;     ///< pool threads inside workLoop
    bool m_singleThreaded = true;
    Status m_status;
    bool m_aborted = false;

    std::vector<std::unique_ptr<NodeScratch>> m_scratch; ///< free NodeScratch sets (guarded by m_mutex)

    std::map<std::uint64_t, std::unique_ptr<FrameState>> m_frames;
    std::map<std::tuple<std::uint64_t, std::int64_t, int>, FrameState*> m_frameByKey;
    std::uint64_t m_nextFrameId = 0;
    FrameState* m_root = nullptr;
};

void Step::push(int node, FrameState* frame, IterationState* iter, bool dead)
{
    m_ready.push(TaggedNode{node, frame, iter, dead, m_seq++});
    ++m_outstanding;
}

void Step::fail(Status status)
{
    if (m_status.isOk())
        m_status = std::move(status);
    m_aborted = true;
    m_outstanding -= static_cast<int>(m_ready.size());
    m_ready = decltype(m_ready)(Later{&m_plan});
}

Status Step::run()
{
    m_fetched->assign(m_plan.fetches.size(), FetchedValue{});
    m_singleThreaded = m_params.observer != nullptr || m_params.parallelism <= 1 || !m_params.schedule;

    std::unique_lock lock(m_mutex);
    auto root = std::make_unique<FrameState>();
    root->id = m_nextFrameId++;
    root->maxParallelIterations = 1;
    root->iterations.emplace(0, newIteration(m_plan, 0, 0));
    m_root = root.get();
    m_frames.emplace(root->id, std::move(root));
    IterationState* iter0 = m_root->iteration(0);

    for (std::size_t f = 0; f < m_plan.fetches.size(); ++f) {
        const PlanFetch& fetch = m_plan.fetches[f];
        if (fetch.feedIndex >= 0)
            (*m_fetched)[f].value = TensorValue{(*m_params.feedValues)[static_cast<std::size_t>(fetch.feedIndex)]};
    }
    int activated = 0;
    for (const PlanFeedEdge& feed : m_plan.feedEdges) {
        const Entry value{true, TensorValue{(*m_params.feedValues)[static_cast<std::size_t>(feed.feedIndex)]}};
        const PlanNode& dst = m_plan.nodes[static_cast<std::size_t>(feed.dst)];
        if (Status s = deliverData(dst, feed.dst, feed.dstSlot, value, false, false, m_root, iter0, &activated);
            !s.isOk())
            return s;
    }
    for (int node : m_plan.roots) {
        push(node, m_root, iter0, false);
        ++activated;
    }
    iter0->outstandingOps = activated;

    if (!m_singleThreaded) {
        for (int k = 1; k < m_params.parallelism; ++k) {
            ++m_helpers;
            m_params.schedule([this] {
                workLoop();
                std::lock_guard helperLock(m_mutex);
                --m_helpers;
                m_wake.notify_all();
            });
        }
    }
    lock.unlock();
    workLoop();
    lock.lock();
    m_wake.wait(lock, [this] { return m_helpers == 0; });
    return m_status;
}

void Step::workLoop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return !m_ready.empty() || m_outstanding == 0; });
        if (m_outstanding == 0)
            break;
        TaggedNode tagged = m_ready.top();
        m_ready.pop();
        if (m_singleThreaded)
            prefetchAhead(m_plan.nodes, tagged.node);
        if (m_params.deadline && std::chrono::steady_clock::now() > *m_params.deadline) {
            --m_outstanding;
            fail(Status(StatusCode::kDeadlineExceeded,
                        "Timed out waiting for notification: the run took longer than RunOptions.timeout_in_ms"));
            continue;
        }
        process(tagged, lock);
        if (!m_singleThreaded)
            m_wake.notify_all();
    }
    m_wake.notify_all();
}

void Step::process(const TaggedNode& tagged, std::unique_lock<std::mutex>& lock)
{
    const PlanNode& node = m_plan.nodes[static_cast<std::size_t>(tagged.node)];
    // A scratch set for this node, given back (released) on every way out: all of them hold the lock.
    std::unique_ptr<NodeScratch> scratch;
    if (m_scratch.empty()) {
        scratch = std::make_unique<NodeScratch>();
    } else {
        scratch = std::move(m_scratch.back());
        m_scratch.pop_back();
    }
    struct GiveBack {
        std::vector<std::unique_ptr<NodeScratch>>& pool;
        std::unique_ptr<NodeScratch>& scratch;
        ~GiveBack()
        {
            scratch->release();
            pool.push_back(std::move(scratch));
        }
    } giveBack{m_scratch, scratch};
    scratch->prepare(node.numInputs, node.numOutputs);
    std::vector<TensorValue>& inputs = scratch->inputs;
    std::vector<bool>& present = scratch->present;
    for (int i = 0; i < node.numInputs; ++i) {
        Entry& slot = tagged.iter->inputs[static_cast<std::size_t>(node.inputStart + i)];
        if (slot.has) {
            inputs.push_back(std::move(*slot.held));
            present[static_cast<std::size_t>(i)] = true;
            --tagged.iter->heldInputs;
        } else {
            inputs.emplace_back(); // a Merge's missing input
        }
        slot = Entry{};
    }
    lock.unlock();

    std::vector<TensorValue>& outputs = scratch->outputs;
    std::vector<bool>& live = scratch->live;
    Status status;
    if (tagged.dead) {
        if (m_params.observer) {
            static const std::vector<TensorValue> kNone;
            static const std::vector<bool> kNoneLive;
            NodeExecution execution{node.def,
                                    &node.runtime.device->name(),
                                    &m_plan.frames[static_cast<std::size_t>(node.frame)].name,
                                    tagged.iter->iter,
                                    m_params.stepId,
                                    true,
                                    &kNone,
                                    &kNoneLive,
                                    nullptr,
                                    nullptr};
            if (m_params.observer->beforeNode(execution) == ObserverAction::kCancel) {
                status = cancelledError("Run call was cancelled");
            } else {
                execution.outputs = &kNone;
                execution.outputLive = &kNoneLive;
                if (m_params.observer->afterNode(execution) == ObserverAction::kCancel)
                    status = cancelledError("Run call was cancelled");
            }
        }
    } else if (node.controlOnly) {
        // Nothing reads its outputs (see markControlOnlyNodes), so it does not compute, with a
        // debugger attached too: the debugger sees the run as it happens (as Grappler's pruning
        // hides such nodes from tfdbg), and a dead-end gradient MatMul costs no time.
    } else {
        status = compute(tagged, *scratch);
    }

    lock.lock();
    --m_outstanding;
    if (!status.isOk()) {
        fail(std::move(status));
        return;
    }
    if (m_aborted)
        return;
    for (const auto& [slot, fetchIndex] : node.fetches) {
        FetchedValue& fetched = (*m_fetched)[static_cast<std::size_t>(fetchIndex)];
        // An Exit runs once per iteration but is live at most once (in the last iteration).
        if (!tagged.dead && live[static_cast<std::size_t>(slot)])
            fetched.value = outputs[static_cast<std::size_t>(slot)];
        else if (!fetched.value)
            fetched.dead = true;
    }
    std::vector<Entry>& entries = scratch->entries;
    for (std::size_t i = 0; i < outputs.size(); ++i)
        entries.emplace_back(!tagged.dead && live[i], std::move(outputs[i]));
    if (Status s = propagate(tagged, entries); !s.isOk())
        fail(s.withContext(nodeContext(node)));
}

Status Step::compute(const TaggedNode& tagged, NodeScratch& scratch)
{
    std::vector<TensorValue>& inputs = scratch.inputs;
    std::vector<bool>& present = scratch.present;
    std::vector<TensorValue>& outputs = scratch.outputs;
    std::vector<bool>& live = scratch.live;
    const PlanNode& node = m_plan.nodes[static_cast<std::size_t>(tagged.node)];
    const std::vector<DataType>& inputTypes = *node.runtime.inputTypes;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!present[i]) {
            if (node.primitive == PrimitiveKind::kMerge)
                continue;
            return internalError("Missing input " + std::to_string(i)).withContext(nodeContext(node));
        }
        if (isRefType(inputTypes[i])) {
            if (!inputs[i].isRef())
                return invalidArgumentError("input " + std::to_string(i) + " must be a reference (" +
                                            dataTypeString(inputTypes[i]) + ") but a value was given")
                    .withContext(nodeContext(node));
        } else if (inputs[i].isRef()) {
            inputs[i] = dereference(inputs[i]);
            if (!inputs[i].tensor.isInitialized())
                return failedPreconditionError("Attempting to use uninitialized value " +
                                               node.def->input(static_cast<int>(i)))
                    .withContext(nodeContext(node));
        }
    }

    NodeExecution execution{node.def,
                            &node.runtime.device->name(),
                            &m_plan.frames[static_cast<std::size_t>(node.frame)].name,
                            tagged.iter->iter,
                            m_params.stepId,
                            false,
                            &inputs,
                            &present,
                            nullptr,
                            nullptr,
                            node.runtime.inputTypes};
    // An observer reads values on the host: a GPU node's are shown as host copies.
    std::vector<TensorValue> hostInputs;
    if (m_params.observer && node.onDeviceMemory) {
        auto copies = hostCopies(inputs, present, *node.runtime.device);
        if (!copies)
            return copies.error().withContext(nodeContext(node));
        hostInputs = std::move(*copies);
        execution.inputs = &hostInputs;
    }
    if (m_params.observer && m_params.observer->beforeNode(execution) == ObserverAction::kCancel)
        return cancelledError("Run call was cancelled");

    std::optional<NodeStatsRecorder> stats;
    Allocator& allocator = node.runtime.device->allocator();
    AllocatorStats memoryBefore;
    if (m_params.stats) {
        stats.emplace(*node.def, m_params.stats->arena());
        memoryBefore = allocator.stats();
        // Per-node peaks are only meaningful when nothing else allocates meanwhile.
        if (m_singleThreaded)
            allocator.resetPeak();
        stats->opStart();
    }

    Status status;
    if (node.primitive != PrimitiveKind::kNone) {
        status = computePrimitive(node.primitive, inputs, present, allocator, &outputs, &live);
        // A Switch's untaken output is left empty, as observers are promised (the scratch slot
        // still holds what an earlier node's output was moved out of).
        for (std::size_t i = 0; i < outputs.size(); ++i)
            if (!live[i])
                outputs[i] = TensorValue{};
    } else {
        OpKernelContext::Params contextParams;
        contextParams.kernel = node.runtime.kernel;
        contextParams.device = node.runtime.device;
        contextParams.inputs = &inputs;
        contextParams.resources = m_params.resources;
        contextParams.stepId = m_params.stepId;
        contextParams.stepContainer = m_params.stepContainer;
        contextParams.deadline = m_params.deadline;
        contextParams.sessionClosed = m_params.sessionClosed;
        contextParams.functions = m_params.functions;
        // In-place outputs (cwise kernels) in host memory; an observer sees the inputs unchanged.
        contextParams.inputForwarding = !m_params.observer && !node.onDeviceMemory;
        contextParams.outputStorage = &scratch.kernelOutputs;
        contextParams.setStorage = &scratch.kernelSet;
        OpKernelContext context(contextParams);
        {
            // A traced step's GPU work carries the node (plan index + 1) into its CUPTI records.
            std::optional<GpuActivityTag> gpuTag;
            if (m_params.tagGpuWork && node.onDeviceMemory)
                gpuTag.emplace(static_cast<std::uint64_t>(tagged.node) + 1);
            std::unique_lock<std::mutex> serial;
            if (node.runtime.kernelMutex)
                serial = std::unique_lock(*node.runtime.kernelMutex);
            status = node.runtime.kernel->compute(context);
        }
        if (status.isOk()) {
            const std::vector<DataType>& outputTypes = *node.runtime.outputTypes;
            for (int i = 0; i < node.numOutputs; ++i) {
                const auto u = static_cast<std::size_t>(i);
                if (!context.outputIsSet(i)) {
                    status = internalError("Missing " + std::to_string(i) + "-th output");
                    break;
                }
                TensorValue& value = context.outputs()[u];
                if (isRefType(outputTypes[u]) && !value.isRef()) {
                    status = internalError("output " + std::to_string(i) + " must be a reference (" +
                                           dataTypeString(outputTypes[u]) + ") but the kernel set a value");
                    break;
                }
                outputs[u] = isRefType(outputTypes[u]) || !value.isRef() ? std::move(value) : dereference(value);
                live[u] = true;
            }
        }
    }
    if (!status.isOk())
        return status.withContext(nodeContext(node));

    if (stats) {
        stats->opEnd();
        std::int64_t newBytes = 0;
        for (int i = 0; i < node.numOutputs; ++i) {
            const auto u = static_cast<std::size_t>(i);
            if (!live[u])
                continue;
            const TensorValue value = dereference(outputs[u]);
            stats->addOutput(i, value.tensor, allocator.name());
            bool aliased = value.tensor.numElements() == 0;
            for (const TensorValue& in : inputs)
                aliased = aliased || (!in.isRef() && value.tensor.sharesBufferWith(in.tensor)) ||
                          (in.isRef() && value.tensor.sharesBufferWith(*in.ref));
            if (!aliased && !outputs[u].isRef())
                newBytes += static_cast<std::int64_t>(value.tensor.totalBytes());
        }
        const AllocatorStats memoryAfter = allocator.stats();
        const std::int64_t peak = m_singleThreaded
                                      ? std::max<std::int64_t>(0, memoryAfter.peakBytesInUse - memoryBefore.bytesInUse)
                                      : newBytes;
        stats->setMemory(allocator.name(), newBytes, std::max(peak, newBytes), newBytes, memoryAfter.bytesInUse);
        tensorflow::NodeExecStats* record = stats->finish();
        // The timeline tells a loop body's executions apart by their iteration.
        setLoopPosition(record, m_plan.frames[static_cast<std::size_t>(node.frame)].name, tagged.iter->iter);
        m_params.stats->add(node.runtime.deviceIndex, record);
    }

    if (m_params.observer) {
        std::vector<TensorValue> hostOutputs;
        execution.outputs = &outputs;
        if (node.onDeviceMemory) {
            auto copies = hostCopies(outputs, live, *node.runtime.device);
            if (!copies)
                return copies.error().withContext(nodeContext(node));
            hostOutputs = std::move(*copies);
            execution.outputs = &hostOutputs;
        }
        execution.outputLive = &live;
        if (m_params.observer->afterNode(execution) == ObserverAction::kCancel)
            return cancelledError("Run call was cancelled");
    }
    return Status::ok();
}

// --- Propagation -----------------------------------------------------------------------------------

int Step::mergeDeadThreshold(const PlanNode& merge, const IterationState* iter) const
{
    // A loop's Merge sees its forward (Enter) inputs at iteration 0 and its NextIteration inputs
    // after that; a cond's Merge sees all of its inputs in every iteration.
    if (merge.numBackInputs == 0)
        return merge.numInputs;
    return iter->iter == 0 ? merge.numForwardInputs : merge.numBackInputs;
}

Expected<std::optional<TensorValue>> Step::moveForInput(const PlanNode& dst, int dstSlot, const TensorValue& value,
                                                        Device* source, bool crossDevice)
{
    // A reference input (Assign's, an Apply* update's) is the variable itself, kept where its device
    // keeps it (placement colocates the two): never copied, and not yet initialised before its
    // first Assign (an uninitialised tensor has no memory to be in).
    if (value.isRef() && isRefType((*dst.runtime.inputTypes)[static_cast<std::size_t>(dstSlot)]))
        return std::optional<TensorValue>{};
    const bool wantHost = dst.wantsHostInput(dstSlot);
    bool isHost = true;
    {
        std::unique_lock<std::mutex> lock;
        if (value.refMutex)
            lock = std::unique_lock(*value.refMutex);
        isHost = value.get().inHostMemory();
    }
    if (wantHost == isHost && !crossDevice)
        return std::optional<TensorValue>{}; // already where it is wanted (refs stay refs)
    const TensorValue plain = dereference(value);
    if (!plain.tensor.isInitialized())
        return unexpected(failedPreconditionError("Attempting to use uninitialized value " + dst.def->input(dstSlot)));
    Device& target = *dst.runtime.device;
    Allocator& hostMemory = target.hostMemory() ? target.allocator() : target.hostAllocator();
    Expected<Tensor> moved = unexpected(internalError("no copy"));
    if (isHost && wantHost) // host memory of one device to another's (TensorFlow's Send/Recv)
        moved = plain.tensor.deepCopy(hostMemory);
    else if (isHost) // to the device
        moved = target.copyFromHost(plain.tensor);
    else if (wantHost) // from the device that produced it
        moved = source ? source->copyToHost(plain.tensor, hostMemory)
                       : unexpected(internalError("a value in device memory has no producing device"));
    else if (source) { // between two devices' memories, through the host
        auto host = source->copyToHost(plain.tensor, source->hostAllocator());
        moved = host ? target.copyFromHost(*host) : host;
    }
    if (!moved)
        return unexpected(moved.error().withContext("moving input " + std::to_string(dstSlot) + " of '" +
                                                    dst.def->name() + "' to " + target.name()));
    return std::optional<TensorValue>{TensorValue{std::move(*moved)}};
}

Status Step::deliverData(const PlanNode& dst, int dstIndex, int dstSlot, const Entry& value, bool srcDead,
                         bool crossDevice, FrameState* frame, IterationState* iter, int* activated, Device* source,
                         Entry* movable)
{
    const auto local = static_cast<std::size_t>(dst.localIndex);
    int& pending = iter->pending[local];
    int& dead = iter->dead[local];
    const bool isLive = value.has && !srcDead;

    auto store = [&]() -> Status {
        Entry& slot = iter->inputs[static_cast<std::size_t>(dst.inputStart + dstSlot)];
        if (!slot.has) // stored once an iteration (a Merge only its first live value)
            ++iter->heldInputs;
        if (m_plan.hasDeviceMemory) {
            auto moved = moveForInput(dst, dstSlot, value.value(), source, crossDevice);
            if (!moved)
                return moved.error();
            if (*moved)
                slot = Entry{true, std::move(**moved)};
            else if (movable)
                slot = std::move(*movable);
            else
                slot = value;
        } else if (crossDevice) {
            // The tensor moves into the destination device's memory (TensorFlow's Send/Recv).
            const TensorValue plain = dereference(value.value());
            if (!plain.tensor.isInitialized())
                return failedPreconditionError("Attempting to use uninitialized value " + dst.def->input(dstSlot));
            auto copy = plain.tensor.deepCopy(dst.runtime.device->allocator());
            if (!copy)
                return copy.error();
            slot = Entry{true, TensorValue{std::move(*copy)}};
        } else if (movable) {
            slot = std::move(*movable);
        } else {
            slot = value;
        }
        return Status::ok();
    };

    bool ready = false;
    bool dstDead = false;
    if (dst.primitive == PrimitiveKind::kMerge) {
        if (isLive) {
            const bool first = (pending & 1) != 0;
            if (first) {
                if (Status s = store(); !s.isOk())
                    return s;
                pending &= ~1;
                ready = pending == 0;
            }
        } else {
            ++dead;
            dstDead = dead == mergeDeadThreshold(dst, iter);
            ready = pending == 1 && dstDead;
        }
    } else {
        if (isLive) {
            if (Status s = store(); !s.isOk())
                return s;
        } else {
            Entry& slot = iter->inputs[static_cast<std::size_t>(dst.inputStart + dstSlot)];
            if (slot.has)
                --iter->heldInputs;
            slot = Entry{};
            ++dead;
        }
        --pending;
        dstDead = dead > 0;
        ready = pending == 0;
    }
    if (ready) {
        push(dstIndex, frame, iter, dstDead && dst.primitive != PrimitiveKind::kControlTrigger);
        ++*activated;
    }
    return Status::ok();
}

void Step::deliverControl(const PlanNode& dst, int dstIndex, bool srcDead, FrameState* frame, IterationState* iter,
                          int* activated)
{
    const auto local = static_cast<std::size_t>(dst.localIndex);
    int& pending = iter->pending[local];
    int& dead = iter->dead[local];
    bool ready = false;
    bool dstDead = false;
    if (dst.primitive == PrimitiveKind::kMerge) {
        pending -= 2;
        dstDead = dead == mergeDeadThreshold(dst, iter);
        ready = pending == 0 || (pending == 1 && dstDead);
    } else {
        if (srcDead)
            ++dead;
        --pending;
        dstDead = dead > 0;
        ready = pending == 0;
    }
    if (ready) {
        push(dstIndex, frame, iter, dstDead && dst.primitive != PrimitiveKind::kControlTrigger);
        ++*activated;
    }
}

Status Step::activate(const PlanNode& node, bool isDead, FrameState* frame, IterationState* iter,
                      const std::vector<Entry>& outputs, int* activated, std::vector<Entry>* movable)
{
    for (const PlanEdge& edge : node.outEdges) {
        const PlanNode& dst = m_plan.nodes[static_cast<std::size_t>(edge.dst)];
        if (edge.isControl()) {
            deliverControl(dst, edge.dst, isDead, frame, iter, activated);
        } else {
            static const Entry kDead;
            const auto slot = static_cast<std::size_t>(edge.srcSlot);
            const Entry& value = slot < outputs.size() ? outputs[slot] : kDead;
            Entry* last = movable && edge.lastReader && slot < movable->size() ? &(*movable)[slot] : nullptr;
            if (Status s = deliverData(dst, edge.dst, edge.dstSlot, value, isDead, edge.crossDevice, frame, iter,
                                       activated, node.runtime.device, last);
                !s.isOk())
                return s;
        }
    }
    return Status::ok();
}

FrameState* Step::findOrCreateChildFrame(FrameState* frame, IterationState* iter, const PlanNode& enter)
{
    const auto key = std::make_tuple(frame->id, iter->iter, enter.enterFrame);
    if (const auto it = m_frameByKey.find(key); it != m_frameByKey.end())
        return it->second;
    const PlanFrame& info = m_plan.frames[static_cast<std::size_t>(enter.enterFrame)];
    auto child = std::make_unique<FrameState>();
    child->staticFrame = enter.enterFrame;
    child->id = m_nextFrameId++;
    child->parent = frame;
    child->parentIter = iter;
    child->numPendingInputs = info.enterCount;
    child->maxParallelIterations = std::max(1, info.parallelIterations);
    child->iterations.emplace(0, newIteration(m_plan, enter.enterFrame, 0));
    ++iter->outstandingFrameCount;
    FrameState* raw = child.get();
    m_frameByKey.emplace(key, raw);
    m_frames.emplace(raw->id, std::move(child));
    return raw;
}

Status Step::addLoopInvariant(FrameState* frame, int node, const Entry& value)
{
    frame->invValues.emplace_back(node, value);
    const std::vector<Entry> outputs{value};
    for (std::int64_t i = 0; i <= frame->iterationCount; ++i) {
        IterationState* iter = frame->iteration(i);
        if (!iter)
            continue;
        int activated = 0;
        if (Status s =
                activate(m_plan.nodes[static_cast<std::size_t>(node)], !value.has, frame, iter, outputs, &activated);
            !s.isOk())
            return s;
        iter->outstandingOps += activated;
    }
    return Status::ok();
}

IterationState* Step::incrementIteration(FrameState* frame, Status* status)
{
    ++frame->iterationCount;
    IterationPtr next = newIteration(m_plan, frame->staticFrame, frame->iterationCount);
    IterationState* iter = next.get();
    frame->iterations.emplace(frame->iterationCount, std::move(next));
    ++frame->numOutstandingIterations;
    frame->deadExits.clear();

    int activated = 0;
    // Values of NextIteration nodes deferred while parallel_iterations were running.
    auto deferred = std::move(frame->nextIterRoots);
    frame->nextIterRoots.clear();
    for (const auto& [node, value] : deferred) {
        Status s = activate(m_plan.nodes[static_cast<std::size_t>(node)], !value.has, frame, iter, {value}, &activated);
        if (!s.isOk() && status->isOk())
            *status = s;
    }
    // Loop invariants reach every iteration.
    for (const auto& [node, value] : frame->invValues) {
        Status s = activate(m_plan.nodes[static_cast<std::size_t>(node)], !value.has, frame, iter, {value}, &activated);
        if (!s.isOk() && status->isOk())
            *status = s;
    }
    iter->outstandingOps += activated;
    return iter;
}

bool Step::isIterationDone(FrameState* frame, IterationState* iter)
{
    if (iter->outstandingOps != 0 || iter->outstandingFrameCount != 0)
        return false;
    if (iter->iter == 0)
        return frame->numPendingInputs == 0;
    return frame->iteration(iter->iter - 1) == nullptr;
}

bool Step::adjustOutstanding(FrameState* frame, IterationState* iter, int delta, Status* status)
{
    iter->outstandingOps += delta;
    if (iter->outstandingOps != 0)
        return false;
    return cleanupIterations(frame, iter, status);
}

bool Step::cleanupIterations(FrameState* frame, IterationState* iter, Status* status)
{
    std::int64_t current = iter->iter;
    while (iter && current <= frame->iterationCount && isIterationDone(frame, iter)) {
        frame->iterations.erase(current);
        --frame->numOutstandingIterations;
        ++current;
        // A finished iteration makes room for one deferred by parallel_iterations.
        if (!frame->nextIterRoots.empty())
            incrementIteration(frame, status);
        iter = current <= frame->iterationCount ? frame->iteration(current) : nullptr;
    }
    return isFrameDone(frame);
}

void Step::deleteFrame(FrameState* frame, Status* status)
{
    FrameState* parent = frame->parent;
    IterationState* parentIter = frame->parentIter;
    if (parent) {
        // An Exit that was dead in the last iteration tells the parent frame its value is dead.
        const std::vector<Entry> none;
        int activated = 0;
        for (int exitNode : frame->deadExits) {
            Status s =
                activate(m_plan.nodes[static_cast<std::size_t>(exitNode)], true, parent, parentIter, none, &activated);
            if (!s.isOk() && status->isOk())
                *status = s;
        }
        parentIter->outstandingOps += activated;
        m_frameByKey.erase(std::make_tuple(parent->id, parentIter->iter, frame->staticFrame));
    }
    if (frame != m_root)
        m_frames.erase(frame->id);
}

Status Step::finishFrame(FrameState* frame)
{
    // Deleting a frame may complete the iteration (and frame) that started it, and so on upwards.
    Status status;
    while (frame && frame != m_root) {
        FrameState* parent = frame->parent;
        IterationState* parentIter = frame->parentIter;
        deleteFrame(frame, &status);
        --parentIter->outstandingFrameCount;
        frame = cleanupIterations(parent, parentIter, &status) ? parent : nullptr;
    }
    return status;
}

Status Step::propagate(const TaggedNode& tagged, std::vector<Entry>& outputs)
{
    const PlanNode& node = m_plan.nodes[static_cast<std::size_t>(tagged.node)];
    FrameState* frame = tagged.frame;
    IterationState* iter = tagged.iter;
    Status status;
    bool frameDone = false;
    int activated = 0;

    switch (node.primitive) {
    case PrimitiveKind::kEnter: {
        FrameState* child = findOrCreateChildFrame(frame, iter, node);
        IterationState* childIter = child->iteration(0);
        if (node.isConstantEnter) {
            status = addLoopInvariant(child, tagged.node, outputs.at(0));
        } else {
            status = activate(node, tagged.dead, child, childIter, outputs, &activated);
            childIter->outstandingOps += activated;
        }
        --child->numPendingInputs;
        // A frame whose last Enter started nothing is already finished.
        if (status.isOk() && childIter && childIter->outstandingOps == 0 &&
            cleanupIterations(child, childIter, &status))
            if (Status s = finishFrame(child); !s.isOk() && status.isOk())
                status = s;
        frameDone = adjustOutstanding(frame, iter, -1, &status);
        break;
    }
    case PrimitiveKind::kExit:
        if (tagged.dead) {
            if (iter->iter == frame->iterationCount)
                frame->deadExits.push_back(tagged.node);
        } else {
            status = activate(node, false, frame->parent, frame->parentIter, outputs, &activated, &outputs);
            frame->parentIter->outstandingOps += activated;
        }
        frameDone = adjustOutstanding(frame, iter, -1, &status);
        break;
    case PrimitiveKind::kNextIteration:
        // A dead NextIteration ends the loop for this value: it starts no iteration.
        if (!tagged.dead) {
            IterationState* next = nullptr;
            if (iter->iter == frame->iterationCount) {
                if (frame->numOutstandingIterations == frame->maxParallelIterations)
                    frame->nextIterRoots.emplace_back(tagged.node, outputs.at(0));
                else
                    next = incrementIteration(frame, &status);
            } else {
                next = frame->iteration(iter->iter + 1);
            }
            if (next) {
                if (Status s = activate(node, false, frame, next, outputs, &activated); !s.isOk() && status.isOk())
                    status = s;
                next->outstandingOps += activated;
            }
        }
        frameDone = adjustOutstanding(frame, iter, -1, &status);
        break;
    default:
        status = activate(node, tagged.dead, frame, iter, outputs, &activated, &outputs);
        frameDone = adjustOutstanding(frame, iter, activated - 1, &status);
        break;
    }
    if (frameDone && frame != m_root)
        if (Status s = finishFrame(frame); !s.isOk() && status.isOk())
            status = s;
    return status;
}

} // namespace

Status runExecutorStep(const ExecutorPlan& plan, const StepParams& params, std::vector<FetchedValue>* fetched)
{
    Step step(plan, params, fetched);
    return step.run();
}

} // namespace tstudio
