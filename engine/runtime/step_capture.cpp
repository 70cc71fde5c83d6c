// StepCapture: the capture rules, and warm-up, capture, replay and drop of one plan's graph.
#include "runtime/step_capture.h"

#include "core/log.h"
#include "framework/data_type.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace tstudio {

namespace {

/// One step in the executor, then its results, both holding the device shared: collecting copies
/// device values to the host, which records an event on the compute stream and waits for a copy
/// stream, and neither may happen while another plan's step captures that stream (the event
/// would be recorded into the capture and the copy stream joined to it).
Status executeAndCollect(const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                         const StepCapture::ExecuteStep& execute, const StepCapture::CollectResults& collect)
{
    std::vector<FetchedValue> fetched;
    std::shared_lock deviceLock(deviceUse);
    if (Status s = execute(feeds, false, &fetched); !s.isOk())
        return s;
    return collect(fetched);
}

std::string nodeLabel(const PlanNode& node)
{
    return "node '" + node.def->name() + "' (op '" + node.def->op() + "')";
}

/// Stateful ops whose every effect is device work on the variable's buffer, or a lookup the host
/// repeats identically (handles, the variable itself).
bool isCapturableStatefulOp(std::string_view op)
{
    static constexpr std::array<std::string_view, 9> kVariableOps = {
        "VariableV2",       "Variable",           "VarHandleOp",         "ReadVariableOp",      "AssignVariableOp",
        "AssignAddVariableOp", "AssignSubVariableOp", "ResourceGather", "ResourceScatterUpdate"};
    if (std::find(kVariableOps.begin(), kVariableOps.end(), op) != kVariableOps.end())
        return true;
    return op.starts_with("ResourceApply");
}

bool producesDeviceMemory(const PlanNode& node, int slot)
{
    return node.onDeviceMemory && node.runtime.kernel && !node.runtime.kernel->outputInHostMemory(slot);
}

} // namespace

std::optional<std::string> captureObstacle(const ExecutorPlan& plan, const Device& device)
{
    if (plan.frames.size() > 1)
        return "the step has a while loop (" + plan.frames[1].name + "): how often its body runs depends on values";
    for (const PlanNode& node : plan.nodes) {
        if (node.primitive != PrimitiveKind::kNone && node.primitive != PrimitiveKind::kControlTrigger)
            return nodeLabel(node) + " is control flow: what runs after it depends on values";
        if (node.controlOnly)
            continue;
        const bool onDevice = node.runtime.device == &device;
        if (!onDevice && node.onDeviceMemory)
            return nodeLabel(node) + " runs on " + node.runtime.device->name() + ", and only " + device.name() +
                   "'s work is captured";
        if (!onDevice) {
            if (node.runtime.kernelMutex)
                return nodeLabel(node) + " is stateful and runs on the host (" + node.runtime.device->name() +
                       "): it would run only once, at capture";
            for (DataType type : *node.runtime.inputTypes)
                if (isRefType(type))
                    return nodeLabel(node) + " writes a variable on the host (" + node.runtime.device->name() +
                           "): it would run only once, at capture";
        } else if (node.runtime.kernelMutex && !isCapturableStatefulOp(node.def->op())) {
            return nodeLabel(node) + " is stateful and keeps its state on the host: replays would repeat its "
                                     "first run";
        }
        for (const PlanEdge& edge : node.outEdges) {
            if (edge.isControl() || !producesDeviceMemory(node, edge.srcSlot))
                continue;
            const PlanNode& dst = plan.nodes[static_cast<std::size_t>(edge.dst)];
            if (!dst.controlOnly && dst.wantsHostInput(edge.dstSlot))
                return "input " + std::to_string(edge.dstSlot) + " of " + nodeLabel(dst) + " is read on the host, from " +
                       device.name() + "'s memory: the host would wait for a value the capture has not computed";
        }
    }
    for (const PlanFeedEdge& feed : plan.feedEdges) {
        const PlanNode& dst = plan.nodes[static_cast<std::size_t>(feed.dst)];
        if (dst.runtime.device != &device || dst.wantsHostInput(feed.dstSlot))
            return "input " + std::to_string(feed.dstSlot) + " of " + nodeLabel(dst) +
                   " is fed and read on the host: replays would keep the first fed value";
    }
    return std::nullopt;
}

StepCapture::StepCapture(Device& device, CapturingDevice& capturing, const ResourceManager& resources,
                         std::optional<std::string> obstacle)
    : m_device(device), m_capturing(capturing), m_resources(resources), m_obstacle(std::move(obstacle))
{
    if (m_obstacle)
        m_stats.lastEvent = "not captured: " + *m_obstacle;
}

StepCapture::~StepCapture() = default;

StepCaptureStats StepCapture::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

std::optional<std::string> StepCapture::obstacle() const
{
    std::lock_guard lock(m_mutex);
    return m_obstacle;
}

void StepCapture::setObstacle(std::string why)
{
    m_obstacle = std::move(why);
    m_stats.lastEvent = "not captured: " + *m_obstacle;
    logInfo("capture", "CUDA graphs: this step is not captured: " + *m_obstacle);
}

void StepCapture::drop(const std::string& why, std::shared_mutex& deviceUse)
{
    {
        // Destroying the graph waits for the compute stream, which must not be capturing another
        // plan's step meanwhile (synchronizing a capturing stream is refused and breaks the capture).
        std::shared_lock deviceLock(deviceUse);
        m_fetched.clear();
        m_feedBuffers.clear();
        m_graph.reset();
    }
    m_stats.graphNodes = 0;
    m_warmSteps = 0;
    m_stats.lastEvent = "graph dropped: " + why;
    logInfo("capture", "CUDA graphs: the captured step is dropped and will be captured again: " + why);
}

Status StepCapture::run(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                        const ExecuteStep& execute, const CollectResults& collect)
{
    std::unique_lock lock(m_mutex);
    if (m_obstacle) {
        // Nothing of this object is used: steps of the plan may run concurrently, as without capture.
        ++m_stats.executorSteps;
        lock.unlock();
        return executeAndCollect(feeds, deviceUse, execute, collect);
    }

    FeedKey key;
    key.reserve(feeds.size());
    for (const Tensor& feed : feeds)
        key.emplace_back(feed.dtype(), feed.shape());
    if (m_graph) {
        if (key != m_key) {
            drop("the fed tensors' shapes or dtypes changed", deviceUse);
        } else if (m_resources.variableStorageGeneration() != m_generation) {
            drop("a variable's buffer was replaced or released since the capture", deviceUse);
            if (++m_recaptures >= kMaxRecaptures) {
                setObstacle("variables' buffers keep being replaced between steps (" +
                            std::to_string(m_recaptures) + " times)");
                return runInExecutor(feeds, deviceUse, execute, collect);
            }
        }
    }
    if (key != m_key) {
        m_key = std::move(key);
        m_warmSteps = 0;
    }
    if (m_graph)
        return replay(plan, feeds, deviceUse, collect);
    if (m_warmSteps < kWarmUpSteps) {
        Status s = runInExecutor(feeds, deviceUse, execute, collect);
        if (s.isOk())
            ++m_warmSteps;
        return s;
    }
    return capture(plan, feeds, deviceUse, execute, collect);
}

Status StepCapture::runInExecutor(const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                                  const ExecuteStep& execute, const CollectResults& collect)
{
    ++m_stats.executorSteps;
    return executeAndCollect(feeds, deviceUse, execute, collect);
}

namespace {

/// A fetch of a fed tensor returns the value fed to this step (the graph holds the first one).
void refreshFedFetches(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::vector<FetchedValue>& fetched)
{
    for (std::size_t f = 0; f < plan.fetches.size() && f < fetched.size(); ++f)
        if (plan.fetches[f].feedIndex >= 0)
            fetched[f].value = TensorValue{feeds[static_cast<std::size_t>(plan.fetches[f].feedIndex)]};
}

} // namespace

Status StepCapture::capture(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                            const ExecuteStep& execute, const CollectResults& collect)
{
    std::unique_lock deviceLock(deviceUse); // nothing else may queue work while the device records
    // The feeds' device buffers are made before the capture, from the device's own memory: the
    // graph reads them, and every replay first copies its feeds into them.
    std::vector<Tensor> buffers;
    buffers.reserve(feeds.size());
    for (std::size_t i = 0; i < feeds.size(); ++i) {
        auto buffer = m_device.copyFromHost(feeds[i]);
        if (!buffer)
            return buffer.error().withContext("copying feed " + std::to_string(i) + " to " + m_device.name());
        buffers.push_back(std::move(*buffer));
    }
    const std::uint64_t generation = m_resources.variableStorageGeneration();
    if (Status s = m_capturing.beginCapture(); !s.isOk()) {
        deviceLock.unlock();
        setObstacle("the device could not begin a capture: " + s.message());
        return runInExecutor(feeds, deviceUse, execute, collect);
    }
    std::vector<FetchedValue> fetched;
    const Status stepStatus = execute(buffers, true, &fetched);
    auto graph = m_capturing.endCapture();
    const bool replaced = m_resources.variableStorageGeneration() != generation;
    if (!stepStatus.isOk() || !graph) {
        const Status why = !stepStatus.isOk() ? stepStatus : graph.error();
        fetched.clear();
        // The partial graph never runs: destroy it now (the device still held) so that its private
        // pool goes back to the device's allocator before the executor runs the step. Kept until
        // the return, a capture that failed for lack of memory would leave the executor without it.
        if (graph)
            graph->reset();
        buffers.clear();
        if (replaced) {
            setObstacle("capturing it failed after it replaced a variable's buffer: " + why.message());
            return internalError("capturing this step as a CUDA graph failed (" + why.message() +
                                 ") after it gave a variable a new buffer that the failed capture never filled; "
                                 "re-initialise or restore the variables, and run with CUDA graphs off "
                                 "(tstudio --no-cuda-graphs)");
        }
        deviceLock.unlock();
        // The capture ran no device work and the host's part of the step keeps no state (the
        // rules above), so the executor can run the step as if nothing had happened.
        Status s = runInExecutor(feeds, deviceUse, execute, collect);
        if (s.isOk())
            setObstacle("capturing it failed: " + why.message());
        else
            m_warmSteps = 0; // the step fails by itself: try again once it runs
        return s;
    }
    // Nothing of this step has run yet: the graph's first launch is its run.
    if (Status s = (*graph)->replay(); !s.isOk())
        return s;
    refreshFedFetches(plan, feeds, fetched);
    if (replaced) {
        // Its buffers are right for this step only: run it, then let it go (its destructor waits).
        setObstacle("the step gives a variable a new buffer (a resource variable's copy-on-write while a read of "
                    "it is alive, or an Assign of a new size), so a replay would use a stale one");
        return collect(fetched);
    }
    ++m_stats.captures;
    m_graph = std::move(*graph);
    m_feedBuffers = std::move(buffers);
    m_fetched = fetched;
    m_generation = generation;
    m_stats.graphNodes = m_graph->size();
    m_stats.lastEvent = "captured: " + std::to_string(m_stats.graphNodes) + " work items";
    logInfo("capture", "CUDA graphs: captured a step on " + m_device.name() + " (" +
                           std::to_string(m_stats.graphNodes) + " work items); later steps replay it");
    return collect(fetched);
}

Status StepCapture::replay(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                           const CollectResults& collect)
{
    std::shared_lock deviceLock(deviceUse);
    for (std::size_t i = 0; i < feeds.size(); ++i)
        if (Status s = m_capturing.copyFromHostInto(feeds[i], m_feedBuffers[i]); !s.isOk())
            return s.withContext("copying feed " + std::to_string(i) + " into the captured step's buffer");
    if (Status s = m_graph->replay(); !s.isOk())
        return s;
    std::vector<FetchedValue> fetched = m_fetched;
    refreshFedFetches(plan, feeds, fetched);
    ++m_stats.replays;
    return collect(fetched);
}

} // namespace tstudio
