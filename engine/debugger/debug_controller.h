// DebugController: an ExecutionObserver that pauses, steps, runs to a node or op type, stops at
// the first NaN or Inf, and cancels, commanded from another thread (the debugger's GUI thread).
#pragma once

#include "debugger/breakpoint.h"
#include "framework/allocator.h"
#include "runtime/execution_observer.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

/// Where and why a run is paused.
struct PausePoint {
    enum class Reason {
        kPauseRequested, ///< pause() was called (or continueRuns() ran its runs)
        kStep,           ///< step() finished its node
        kStepOverScope,  ///< stepOverScope() left the name scope
        kRunToNode,      ///< runToNode() reached its node
        kRunToOp,        ///< runToOp() reached a node of its op type
        kNonFinite,      ///< a node produced NaN or Inf (paused after it)
        kBreakpoint,     ///< a breakpoint hit (before the node, or after it for a condition)
    };
    Reason reason = Reason::kPauseRequested;
    std::string node;
    std::string op;
    std::string device;
    std::string frame;
    std::int64_t iteration = 0;
    bool afterNode = false; ///< paused after the node computed (kNonFinite, conditional breakpoints)
    /// The node's inputs (before) or outputs (after). They share buffers with the run: valid while
    /// the device lives, and may change once the run goes on (deep-copy to keep a snapshot).
    std::vector<Tensor> values;
    std::vector<bool> valueLive;
    /// The tensor name of each value: the node's data inputs as "producer:slot" (before), or
    /// "node:i" (after).
    std::vector<std::string> names;
    /// For kNonFinite: "output 0 of node 'x' has NaN" (or Inf); for a conditional breakpoint the
    /// condition's reason ("output 0: max 1.2e+03 > 100").
    std::string detail;
    /// For kBreakpoint: the index in breakpoints().breakpoints().
    std::optional<std::size_t> breakpoint;
    std::int64_t run = 0;      ///< the session run paused in (0 for the first run attached)
    std::int64_t executed = 0; ///< nodes of this run executed before the pause (its own included when after)
};

/// One output of an executed node as the execution list shows it.
struct ExecutedOutput {
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape shape;
    std::int64_t bytes = 0;
    bool live = true; ///< false for an output a Switch did not take
    /// The value after the node ran, while retainValues is on (else uninitialized). Non-ref
    /// outputs share the run's buffer (kernels never write a buffer someone else holds) until
    /// sessionClosing(); ref outputs and variable reads share the variable's buffer until a node
    /// is about to write through it (Assign, Apply*), and are deep-copied then.
    Tensor value = Tensor::uninitialized(tensorflow::DT_INVALID);
    bool copied = false; ///< `value` is a deep copy of the controller's own
    /// `value` shares a ref variable's buffer: it is deep-copied just before a node writes to
    /// that variable (copy on write), so it keeps the value the node saw.
    bool variableBuffer = false;
};

/// One node execution of a run, in execution order (tfdbg's `lt` row).
struct ExecutedNode {
    std::string node;
    std::string op;
    std::string device;
    std::string frame;
    std::int64_t iteration = 0;
    std::int64_t startNanos = 0;    ///< from the start of the run
    std::int64_t durationNanos = 0; ///< compute time (beforeNode to afterNode)
    std::vector<ExecutedOutput> outputs;
    std::int64_t bytes() const;
};

/// A watched tensor's value at the end of one session run it was computed in.
struct WatchedValue {
    std::int64_t run = 0;
    Tensor value; ///< deep copy
};

/// Drives a run for the debugger. Attach it with Session::run(..., &controller); the run is then
/// single-threaded in the stable topological order. Dead nodes (untaken branches) never pause.
///
/// Besides pausing, it records every node that runs (name, op, device, times, output dtypes,
/// shapes and, by default, values) so that any input or output of an executed node can be
/// inspected while paused or after the run, and keeps the history of watched tensors across runs.
///
/// Threads: the command functions may be called from any thread, before or during a run; the
/// run's thread blocks inside the observer callbacks while paused. One controller serves one run
/// at a time; its commands (except cancel) carry over from one run to the next.
class DebugController : public ExecutionObserver {
public:
    /// Watched tensors keep at most this many values each (the oldest are dropped).
    static constexpr std::size_t kMaxHistory = 1000;

    DebugController();
    ~DebugController() override;

    /// Pause before the next node that runs.
    void pause();
    /// Run on freely (until a breakpoint, a run-to target, a NaN/Inf stop, or pause()).
    void resume();
    /// Run the node paused at (or, while running, the next one) and pause before the following one.
    void step();
    /// Run until the first node outside the name scope of the node paused at ("layer1/" for
    /// "layer1/MatMul"); a node at the top level steps.
    void stepOverScope();
    /// Run until just before the node named `name` (run to cursor).
    void runToNode(std::string name);
    /// Run until just before the next node whose op is `op` ("MatMul").
    void runToOp(std::string op);
    /// Run on, ignoring breakpoints, until `runs` session runs (this one included, if one is
    /// under way) have finished, then pause before the first node of the next run.
    void continueRuns(int runs);
    /// Run on (breakpoints honoured) and pause before the first node of the next session run.
    void runToNextRun();
    /// Pause after the first node with a float output holding NaN or Inf.
    void setStopOnNonFinite(bool stop);
    /// Replaces the breakpoints (takes effect from the next node).
    void setBreakpoints(debugger::BreakpointSet breakpoints);
    debugger::BreakpointSet breakpoints() const;
    /// Keep the outputs of every executed node of the current run (on by default). Off, the
    /// execution list still has dtypes, shapes and times.
    void setRetainValues(bool retain);
    /// Tensors ("node:0", or "node" for output 0) whose values are kept after every run they are
    /// computed in (up to kMaxHistory each).
    void setWatched(std::vector<std::string> tensors);
    std::vector<std::string> watched() const;
    /// Stop the run: the node paused at does not run and Session::run returns Cancelled.
    void cancel();
    /// Clears a cancel (and every other command) for the next run; breakpoints and watches stay.
    void reset();

    bool isPaused() const;
    /// The current pause, if paused.
    std::optional<PausePoint> pausePoint() const;
    /// Blocks until the run pauses, a run finishes, or `timeout` passes; true if it is paused.
    bool waitUntilPaused(std::chrono::milliseconds timeout) const;
    /// Called on the run's thread each time it pauses (e.g. to post a queued signal to a GUI).
    void setPauseCallback(std::function<void(const PausePoint&)> callback);
    /// Called on the run's thread at the end of every run attached, with its result and number.
    void setRunFinishedCallback(std::function<void(const Status&, std::int64_t run)> callback);

    /// Session runs finished while attached.
    std::int64_t runsFinished() const;
    /// The nodes executed so far in the current run, or in the last run when none is under way
    /// (also while a new run is paused before its first node).
    std::vector<ExecutedNode> executedNodes() const;
    /// The value of a tensor ("node:1"; "node" means ":0"): fed to the current run (or to the last
    /// one, when none is under way), else an executed node's output from the current or last run, else
    /// one of the values of the pause: NotFound when the node has not run and is not fed,
    /// FailedPrecondition when values are not retained, InvalidArgument for a bad name or slot.
    Expected<Tensor> tensorValue(const std::string& tensor) const;
    /// The tensors fed to the current run (or the last one), as "x:0", in the order given. Their values
    /// are kept whether or not retainValues is on (they are the caller's tensors, shared).
    std::vector<std::string> fedTensors() const;
    /// The values a watched tensor had, oldest first.
    std::vector<WatchedValue> history(const std::string& tensor) const;

    ObserverAction beforeNode(const NodeExecution& execution) override;
    ObserverAction afterNode(const NodeExecution& execution) override;
    void runFinished(const Status& status) override;
    void runFeeds(const std::vector<std::string>& names, const std::vector<Tensor>& values) override;
    /// Drops the retained values that share the session's buffers (the execution list keeps
    /// dtypes, shapes and times; deep-copied values and watched histories stay).
    void sessionClosing() override;

    /// The first NaN or Inf in `execution`'s live float outputs, as "output 0 of node 'x' has NaN";
    /// empty if there is none.
    static std::string findNonFinite(const NodeExecution& execution);

private:
    using Clock = std::chrono::steady_clock;

    /// `runStart`: before the run's first node (the last run's record is still the one kept).
    ObserverAction pauseHere(std::unique_lock<std::mutex>& lock, PausePoint point, bool runStart = false);
    /// The node's record with its outputs (values retained or deep-copied as ExecutedOutput says).
    ExecutedNode recordOf(const NodeExecution& execution, bool retain) const;
    void keepWatched(const NodeExecution& execution);
    /// tensorValue from the execution list only.
    Expected<Tensor> keptValue(const std::string& tensor) const;
    /// Copy on write: deep-copies the kept values that share a variable `execution` writes to.
    void snapshotVariablesWrittenBy(const NodeExecution& execution);

    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    bool m_pauseRequested = false;
    bool m_stepping = false;
    std::optional<std::string> m_stepOverScope; ///< the scope prefix ("layer1/") to leave
    std::optional<std::string> m_runToNode;
    std::optional<std::string> m_runToOp;
    int m_skipRuns = 0; ///< continueRuns(): runs still to finish without stopping
    bool m_pauseAtNextRun = false;
    bool m_stopOnNonFinite = false;
    bool m_cancelled = false;
    bool m_retainValues = true;
    std::shared_ptr<const debugger::BreakpointSet> m_breakpoints = std::make_shared<debugger::BreakpointSet>();
    std::int64_t m_finishedRuns = 0;
    bool m_runActive = false;
    std::optional<PausePoint> m_paused;
    std::function<void(const PausePoint&)> m_callback;
    std::function<void(const Status&, std::int64_t)> m_runCallback;

    // The run's record, written by the run's thread (under m_mutex) and read by commands.
    std::vector<ExecutedNode> m_executed;
    std::unordered_map<std::string, std::size_t> m_executedByName; ///< last execution of each node
    /// The run's feeds ("x:0" and value), from runFeeds: set before its first node.
    std::vector<std::pair<std::string, Tensor>> m_feeds;
    /// (record, output) of kept values still sharing a ref variable's buffer, and those buffers
    /// (an Identity of a variable's read gets no ref input, but the same buffer).
    std::vector<std::pair<std::size_t, std::size_t>> m_variableViews;
    std::unordered_set<const std::byte*> m_variableBuffers;
    Clock::time_point m_runStart;
    Clock::time_point m_nodeStart;
    std::set<std::string> m_watched;
    std::map<std::string, std::deque<WatchedValue>> m_history;
    /// Where deep copies (ref outputs, watched values) live; they outlive the run's devices.
    std::unique_ptr<Allocator> m_copies;
};

} // namespace tstudio
