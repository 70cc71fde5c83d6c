// Session: runs a TensorFlow 1.x graph on the CPU devices with TensorFlow's rules for feeds,
// fetches, targets, placement, control flow, state and tracing (tf.compat.v1.Session).
#pragma once

#include "core/expected.h"
#include "framework/device.h"
#include "framework/resource_manager.h"
#include "framework/tensor.h"
#include "graph/graph.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/step_capture_stats.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace Eigen {
class ThreadPoolInterface;
}

namespace tstudio {

class GpuActivityRecorder;

class ExecutionObserver;
class FunctionRuntime;
class KernelRegistry;
class OpKernel;
class OpRegistry;
struct ExecutorPlan;
struct FetchedValue;
class StepCapture;

struct SessionOptions {
    /// Used: device_count["CPU"] (default 1), device_count["GPU"] (default: every visible GPU;
    /// gpu_options: visible_device_list, allow_growth, per_process_gpu_memory_fraction),
    /// intra_op_parallelism_threads (per CPU device),
    /// inter_op_parallelism_threads (> 1: a pool of that many threads runs independent nodes; 0 or
    /// 1: one thread in the stable order, where TensorFlow would pick a size itself),
    /// allow_soft_placement, log_device_placement, operation_timeout_in_ms.
    tensorflow::ConfigProto config;
    const OpRegistry* ops = nullptr;         ///< must outlive the session
    const KernelRegistry* kernels = nullptr; ///< must outlive the session
    /// CUDA Graphs: a step whose plan allows it (captureObstacle) and whose feeds keep their shapes
    /// is captured once on its GPU and replayed (see StepCapture). Off: every step runs in the
    /// executor. Steps that are traced, observed or have a timeout always run in the executor.
    bool captureGraphs = true;
};

/// A graph, its devices, and the state its kernels keep between runs (variables live as long as
/// the session: kernels are created once per node and cached, and resources live in one
/// ResourceManager per session). Each run has a per-step container "__per_step_<step id>" in that
/// manager (ScopedStepContainer); what kernels create there (stacks) is removed when the run ends,
/// successful or not.
///
/// Threads: run() may be called from several threads at once (kernels that keep state are
/// serialised); create()/extend() wait for runs in progress. Tensors returned by run() are
/// independent of the session (a value the step made and nothing else holds is handed over, any
/// other is copied) and may outlive it.
class Session {
public:
    explicit Session(SessionOptions options);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Sets the graph: fills attrs left out with their defaults, validates every node against its
    /// OpDef ("Op type not registered 'Foo'", validateNodeDef's errors), builds the Graph and
    /// places it (see placer.h). AlreadyExists if the session has a graph already; the errors of
    /// a bad ConfigProto (no CPU device) also come from here.
    /// The GraphDef's `library` is added to the session's functions (FunctionLibrary::add's
    /// errors): a node whose op is a library function calls it by name and is validated against
    /// its signature; every call node (by name, PartitionedCall, StatefulPartitionedCall) has its
    /// function instantiated here, so a missing function (NotFound "node 'call' (op
    /// 'StatefulPartitionedCall'): function 'f' is not in the graph's library"), a body that does
    /// not instantiate and Tin/Tout that do not match the function fail create(), naming the node.
    Status create(tensorflow::GraphDef graph);
    /// Adds nodes to the graph (create() when there is none). The new nodes may refer to existing
    /// ones; a node name already in the graph is InvalidArgument. Existing nodes keep their
    /// devices and kernels (and so their state). The extension's library functions join the
    /// session's (a different function under a known name is InvalidArgument).
    Status extend(tensorflow::GraphDef graph);

    /// Runs the graph once, TensorFlow's Session::Run:
    ///  - `feeds`: ("node:1" or "node" = output 0, value); a fed tensor replaces its producer;
    ///    the dtype must match and, for a Placeholder (or a node with _output_shapes), the shape
    ///    must fit: "Cannot feed value of shape (3,) for Tensor 'x:0', which has shape '(?, 784)'".
    ///  - `fetches`: tensor names ("node:0", or "node" for output 0); `outputs` receives one
    ///    tensor per fetch, in order.
    ///  - `targets`: node names run for their effects.
    /// Only what the fetches and targets need runs (walking inputs backwards, stopping at fed
    /// tensors). Errors: InvalidArgument "You must feed a value for placeholder tensor 'x' with
    /// dtype float and shape [?,784]" for a needed, unfed Placeholder; NotFound naming an unknown
    /// fed/fetched tensor or target; a kernel's error prefixed "node 'a' (op 'Add'): "; Cancelled
    /// when `observer` cancels; DeadlineExceeded after RunOptions.timeout_in_ms.
    /// With options.trace_level > NO_TRACE, `metadata` (may be null) receives step_stats (one
    /// DeviceStepStats per device, one NodeExecStats per executed node); with
    /// output_partition_graphs (not implied by FULL_TRACE, as in TensorFlow), also one partition
    /// GraphDef per device that ran nodes. The records are created on `metadata`'s arena
    /// (ArenaRunMetadata): much cheaper than on the heap, which a RunMetadata without one uses.
    /// With an `observer` the run is single-threaded in the stable order.
    Status run(const tensorflow::RunOptions& options, const std::vector<std::pair<std::string, Tensor>>& feeds,
               const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
               std::vector<Tensor>* outputs, tensorflow::RunMetadata* metadata, ExecutionObserver* observer = nullptr);
    /// run() with default RunOptions and no metadata.
    Status run(const std::vector<std::pair<std::string, Tensor>>& feeds, const std::vector<std::string>& fetches,
               const std::vector<std::string>& targets, std::vector<Tensor>* outputs,
               ExecutionObserver* observer = nullptr);

    /// tf.Session.close: runs in progress whose kernels wait for another run (a dequeue on an empty
    /// queue, an enqueue on a full one, a reader waiting for a work unit) return Cancelled
    /// "Session has been closed." within a few milliseconds, and every later run fails with
    /// FailedPrecondition "Attempted to use a closed Session.". Kernels that do not wait finish their
    /// node as usual. Thread-safe; idempotent. The destructor does not close: whoever destroys the
    /// session has already joined the threads that run it.
    void close() { m_closed.store(true); }
    bool isClosed() const { return m_closed.load(); }

    /// The devices, in ConfigProto order ("/job:localhost/replica:0/task:0/device:CPU:0", ...).
    std::vector<Device*> devices() const;
    /// The full name of the device `nodeName` is placed on, or nullopt for an unknown node.
    std::optional<std::string> assignedDevice(const std::string& nodeName) const;
    /// The session's resources (variables and other state shared by name).
    ResourceManager& resources() { return m_resources; }
    /// The current graph, or nullptr before create().
    const Graph* graph() const { return m_graph ? &*m_graph : nullptr; }
    /// What CUDA graph capture has done in this session so far, summed over its run signatures
    /// (lastEvent: that of the signature that ran last).
    StepCaptureStats captureStats() const;

private:
    struct NodeState;
    Status createDevices();
    Status setGraph(tensorflow::GraphDef graph);
    Status runOnce(const tensorflow::RunOptions& options, const std::vector<std::pair<std::string, Tensor>>& feeds,
                   const std::vector<std::string>& fetches, const std::vector<std::string>& targets,
                   std::vector<Tensor>* outputs, tensorflow::RunMetadata* metadata, ExecutionObserver* observer);
    Expected<NodeState*> nodeState(NodeId id);
    /// The OpDef of `op`: a registered op's, else a library function's signature.
    Expected<const tensorflow::OpDef*> opDefFor(const std::string& op) const;
    /// Checks each call node among nodes [first, end) of the graph against its function's signature
    /// (FunctionRuntime::checkCall); bodies are instantiated when a run first reaches them.
    Status checkFunctionCalls(const Graph& graph, int first) const;
    /// The plan for a signature; `observed`: the run has an observer (the debugger), which sees
    /// every node run, so nodes are not merged (a separate plan).
    Expected<std::shared_ptr<const ExecutorPlan>> planFor(const std::vector<std::pair<NodeId, int>>& feeds,
                                                          const std::vector<std::pair<NodeId, int>>& fetches,
                                                          const std::vector<NodeId>& targets, bool observed);
    /// The capture state of `plan`, or nullptr when it has no device that captures (CPU only).
    StepCapture* captureFor(const ExecutorPlan& plan);
    /// Waits for the GPUs, stops `recorder` and appends its records to `stats` as stream devices
    /// named after the plan's nodes.
    Status appendGpuTrace(const ExecutorPlan& plan, GpuActivityRecorder& recorder, tensorflow::StepStats* stats);
    /// The fetched values as independent host tensors, in order. With `mayShare`, a value in a CPU
    /// device's memory that nothing else holds is returned as it is (its allocator outlives the
    /// session when it must); otherwise, and for refs and device memory, it is copied.
    Status collectResults(const std::vector<std::pair<NodeId, int>>& fetchRefs,
                          const std::vector<FetchedValue>& fetched, bool mayShare, std::vector<Tensor>* results);

    SessionOptions m_options;
    Status m_initStatus;
    // Destroyed in reverse order: kernels and resources before the devices whose memory they hold.
    std::vector<std::unique_ptr<Device>> m_devices;
    std::unique_ptr<Eigen::ThreadPoolInterface> m_interOpPool;
    int m_interOpThreads = 1;
    ResourceManager m_resources;
    /// The graph's functions and their instantiations (their kernels go before the devices).
    std::unique_ptr<FunctionRuntime> m_functions;

    mutable std::shared_mutex m_graphMutex; ///< shared by runs, exclusive for create/extend
    std::optional<Graph> m_graph;
    std::vector<int> m_placement;                    ///< device index by NodeId
    mutable std::mutex m_stateMutex;                 ///< guards m_nodes creation and m_plans
    std::vector<std::unique_ptr<NodeState>> m_nodes; ///< by NodeId, created on first use
    std::map<std::string, std::shared_ptr<const ExecutorPlan>> m_plans;
    /// By plan (guarded by m_stateMutex; cleared with m_plans). After m_devices: gone before them.
    std::map<const ExecutorPlan*, std::unique_ptr<StepCapture>> m_captures;
    const StepCapture* m_lastCapture = nullptr; ///< the capture state that ran last (m_stateMutex)
    /// Steps on a device that captures hold it shared; a capture holds it exclusively.
    std::shared_mutex m_deviceUse;
    /// A device has memory of its own (a GPU): building kernels and collecting fetches then hold
    /// m_deviceUse shared, as they may queue copies on its streams.
    bool m_hasDeviceMemory = false;
    std::atomic<std::int64_t> m_nextStepId{1};
    std::atomic<bool> m_closed{false}; ///< set by close(); seen by waiting kernels (StepParams::sessionClosed)
};

} // namespace tstudio
