// StepCapture: a static step of one plan captured once as device work (a CUDA graph) and replayed,
// so a training step costs one launch instead of an executor walk and a kernel launch per node.
#pragma once

#include "core/expected.h"
#include "framework/graph_capture.h"
#include "framework/resource_manager.h"
#include "framework/tensor.h"
#include "runtime/executor.h"
#include "runtime/executor_plan.h"
#include "runtime/step_capture_stats.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

/// Why steps of `plan` cannot be captured as one graph of `device`'s work, naming the node or
/// feed, or nullopt when they can. A captured step replays only the device's work, with the
/// values the host computed at capture time, so:
///  - no control flow (Switch, Merge, Enter, Exit, NextIteration, LoopCond): what runs depends
///    on values;
///  - every node runs on `device` or on a device without memory of its own (the CPU);
///  - nodes on the host are stateless and write through no reference (they run once, at capture);
///  - stateful nodes on `device` are variables, their reads and assignments and the optimizers'
///    Apply ops, whose effects are all device work; others (random ops, whose counters live on
///    the host; stacks; queues) would repeat their first run;
///  - every feed goes to device memory of `device` (a fed value read on the host would be frozen);
///  - no value produced in `device`'s memory is consumed in host memory within the step.
/// Nodes that do not compute (PlanNode::controlOnly) are not checked.
std::optional<std::string> captureObstacle(const ExecutorPlan& plan, const Device& device);

/// The capture state of one plan whose device memory is on one CapturingDevice. run() decides per
/// step:
///  - an obstacle (captureObstacle, or a capture that failed) runs every step in the executor;
///  - the first kWarmUpSteps steps with given feed shapes run in the executor (kernels and
///    libraries make their one-time allocations and choices there, outside any capture);
///  - the next step is captured: the feeds are copied into device buffers kept for the graph, the
///    executor runs single-threaded while the device records, then the graph runs once for it;
///  - later steps copy their feeds into those buffers and replay the graph.
/// A graph is dropped, and the plan warms up again, when the feeds' shapes or dtypes change or a
/// variable's buffer was replaced (the session's ResourceManager::variableStorageGeneration). A
/// capture that fails, or whose step replaced a variable's buffer, is not kept; its step runs in
/// the executor (the failed capture ran no device work) and the plan is not captured again.
/// Thread-safety: steps of one plan are serialised until it has an obstacle; a capture holds
/// `deviceUse` exclusively, other steps hold it shared (the session's steps on the device too).
class StepCapture {
public:
    static constexpr int kWarmUpSteps = 2;
    /// After this many drops for replaced variable buffers the plan is no longer captured.
    static constexpr int kMaxRecaptures = 8;

    /// Runs one step through the executor: with `capturing`, single-threaded on this thread.
    using ExecuteStep =
        std::function<Status(const std::vector<Tensor>& feedValues, bool capturing, std::vector<FetchedValue>* fetched)>;
    /// Copies the fetched values to the host (called while the step's buffers are still its own).
    using CollectResults = std::function<Status(const std::vector<FetchedValue>& fetched)>;

    /// `resources`: the session's, whose variables the plan's steps use (their storage generation).
    StepCapture(Device& device, CapturingDevice& capturing, const ResourceManager& resources,
                std::optional<std::string> obstacle);
    ~StepCapture();
    StepCapture(const StepCapture&) = delete;
    StepCapture& operator=(const StepCapture&) = delete;

    Status run(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
               const ExecuteStep& execute, const CollectResults& collect);

    StepCaptureStats stats() const;
    std::optional<std::string> obstacle() const;

private:
    using FeedKey = std::vector<std::pair<DataType, TensorShape>>;
    Status runInExecutor(const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse, const ExecuteStep& execute,
                         const CollectResults& collect);
    Status capture(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                   const ExecuteStep& execute, const CollectResults& collect);
    Status replay(const ExecutorPlan& plan, const std::vector<Tensor>& feeds, std::shared_mutex& deviceUse,
                  const CollectResults& collect);
    void drop(const std::string& why, std::shared_mutex& deviceUse);
    void setObstacle(std::string why);

    Device& m_device;
    CapturingDevice& m_capturing;
    const ResourceManager& m_resources;
    mutable std::mutex m_mutex;
    std::optional<std::string> m_obstacle;
    FeedKey m_key;
    int m_warmSteps = 0;
    int m_recaptures = 0;
    std::uint64_t m_generation = 0;
    // The graph goes last: the buffers below are released while its replays may still run, which
    // stream order makes safe, and its pool is then empty and returned at once.
    std::unique_ptr<CapturedWork> m_graph;
    std::vector<Tensor> m_feedBuffers;     ///< device buffers the graph reads the feeds from
    std::vector<FetchedValue> m_fetched;   ///< the fetched values as the graph leaves them
    StepCaptureStats m_stats;
};

} // namespace tstudio
