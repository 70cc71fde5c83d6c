// ExecutionObserver: the debugger's seam into Session::run, called before and after every node.
#pragma once

#include "framework/op_kernel.h"
#include "proto/node_def.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio {

/// One execution of one node: which node, where, in which loop frame and iteration, and its values.
/// Everything referenced is valid only during the callback that receives it; an observer that
/// keeps a value deep-copies it (Tensor::deepCopy), because kernels may write buffers in place.
struct NodeExecution {
    const tensorflow::NodeDef* node = nullptr;
    const std::string* device = nullptr; ///< full device name
    /// The static frame ("" outside loops; an Enter's frame_name inside) and the iteration within
    /// it (0 outside loops). Nested loops name the innermost frame.
    const std::string* frameName = nullptr;
    std::int64_t iteration = 0;
    std::int64_t stepId = 0;
    /// True when the node does not compute because a data or control input is dead (an untaken
    /// branch of a Switch); its outputs are dead too, and `inputs`/`outputs` are empty.
    bool isDead = false;
    /// The data inputs; `inputLive` is false for the inputs a Merge did not receive (dead ones).
    const std::vector<TensorValue>* inputs = nullptr;
    const std::vector<bool>* inputLive = nullptr;
    /// The outputs, in afterNode only; an output a Switch did not take is left empty (dead), which
    /// `outputLive` tells apart from a real empty tensor.
    const std::vector<TensorValue>* outputs = nullptr;
    const std::vector<bool>* outputLive = nullptr;
    /// The kernel's input dtypes: a ref dtype marks an input the node may write through (Assign,
    /// ApplyGradientDescent); null for dead nodes.
    const std::vector<DataType>* inputTypes = nullptr;
};

/// What the run does after a callback.
enum class ObserverAction {
    kContinue,
    kCancel, ///< stop the run: no further node starts, and Session::run returns Cancelled
};

/// Called by the session around each node when attached to Session::run. The run is then
/// single-threaded and follows the stable topological order (the Graph's order, loops iteration by
/// iteration), so stepping through the same graph twice visits the same nodes in the same order.
///
/// Threads: the callbacks come on the thread that called Session::run. An observer may block in
/// them (that is how the debugger pauses) and be released from another thread; while it blocks,
/// nothing else of the run proceeds.
class ExecutionObserver {
public:
    virtual ~ExecutionObserver() = default;

    /// Before the node computes (also for dead nodes, with isDead set).
    virtual ObserverAction beforeNode(const NodeExecution& execution) = 0;
    /// After the node computed successfully (also for dead nodes). Not called when the kernel fails.
    virtual ObserverAction afterNode(const NodeExecution& execution) = 0;
    /// Once per Session::run it was attached to, at the end, with the run's result (also when the
    /// run failed before any node started).
    virtual void runFinished(const Status& status) { (void)status; }
    /// Once per Session::run it is attached to, after the feeds were checked and before the first node:
    /// the fed tensors ("x:0") and their values, in the order given. A fed tensor's producer does not
    /// run for it, so this is the only place its value is seen. The values are the caller's tensors,
    /// which kernels never write; an observer may keep them (sharing their buffers) until sessionClosing.
    virtual void runFeeds(const std::vector<std::string>& names, const std::vector<Tensor>& values)
    {
        (void)names;
        (void)values;
    }
    /// The Session it was attached to is about to be destroyed: drop every tensor that shares the
    /// session's buffers (they would outlive the device's allocator). Whoever owns the Session
    /// and attached the observer calls this.
    virtual void sessionClosing() {}
};

} // namespace tstudio
