// InteractiveSession: one engine Session that lives as long as an editor document, as TensorFlow's
// tf.InteractiveSession lives as long as a Python shell: variables keep the values runs give them,
// evaluations see them, and the document's later nodes join by Session.extend. The Session console
// and the editor's Evaluate… share it. No Qt.
#pragma once

#include "core/expected.h"
#include "document/graph_document.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace tstudio {
class ExecutionObserver;
class Session;
struct Registries;
}

namespace tstudio::node_editor {

/// A feed typed in the console: "x=1,2,3", "x[2,3]=random", "images=batch.npy".
struct ConsoleFeed {
    std::string name;                 ///< a tensor ("x" means "x:0")
    std::optional<TensorShape> shape; ///< given in brackets; else the placeholder's (an unknown
                                      ///< dimension is taken from the count of numbers given)
    std::string text;                 ///< parseFeedText's text: zeros, ones, random, numbers, a .npy path
};

/// One console line: "FETCH[, FETCH...] [with NAME=VALUE[; NAME=VALUE...]]". A fetch is a tensor
/// ("logits", "split:1") or an operation without outputs (an initializer, a train op), which is run
/// as a target.
struct ConsoleRequest {
    std::vector<std::string> fetches;
    std::vector<ConsoleFeed> feeds;
};

/// Parses a console line. InvalidArgument naming what is wrong: nothing to fetch, an empty name,
/// a feed without '=', a bad shape in brackets.
Expected<ConsoleRequest> parseConsoleLine(std::string_view line);

class InteractiveSession {
public:
    explicit InteractiveSession(const Registries& registries);
    ~InteractiveSession();
    InteractiveSession(const InteractiveSession&) = delete;
    InteractiveSession& operator=(const InteractiveSession&) = delete;

    /// What bringing the session up to date with the document did.
    struct SyncReport {
        bool created = false;                 ///< a new session started (its initializers run)
        int added = 0;                        ///< nodes sent (the whole graph when created)
        std::vector<std::string> initialized; ///< variables whose own initializers ran
    };
    /// One fetched value.
    struct Value {
        std::string name; ///< the tensor, "x:0"
        Tensor tensor;
    };
    struct RunReport {
        SyncReport sync;
        std::vector<Value> values;        ///< the fetched tensors, in order
        std::vector<std::string> targets; ///< the operations run for their effect
    };

    /// Builds the document (what builds; a node with a problem is left out) and brings the session
    /// to it: the first time creates the session and runs the graph's "init" when it has one, else
    /// each variable's initializer ("<var>/Assign", or the Assign writing it); later,
    /// nodes new since then are added (Session.extend) and the initializers of new variables run,
    /// while variables already there keep their values. A node the session has that is now
    /// different (another op, inputs or attrs) cannot be followed: FailedPrecondition "The graph
    /// changed where the session cannot follow it: node 'x' is not the node the session holds.
    /// Re-initialise the session to start again from the variables' initial values.", and the
    /// session stays out of date until reset(). Nodes only grouping others (NoOp, e.g. "init") may
    /// change: they hold no state.
    Expected<SyncReport> sync(const GraphDocument& document);
    /// sync(), then one run of `request`: fetches and targets resolved in the built graph, feeds
    /// typed for their placeholders, the graph's learning phase fed false (inference) unless the
    /// request feeds it. Errors: sync's, unknown names ("No node 'x' in the graph"), feeds that do
    /// not parse (naming the feed), the Session's run errors (naming the node).
    Expected<RunReport> run(const GraphDocument& document, const ConsoleRequest& request);
    /// sync(), then every output of document node `id` (the editor's Evaluate…), with `feeds` (copied:
    /// the caller's allocator may die before the session).
    /// Errors: the node does not build (its problem, naming it), and run's.
    Expected<std::vector<Tensor>> evaluate(const GraphDocument& document, DocNodeId id,
                                           const std::vector<std::pair<std::string, Tensor>>& feeds);

    /// tfdbg's wrapped session (LocalCLIDebugWrapperSession over an InteractiveSession): `request` run
    /// with `observer` (the debugger) attached, on a thread of its own, so that the caller's thread
    /// stays free while the debugger holds the run paused. The document is brought up to date and the
    /// request resolved first, on the caller's thread: their errors are returned and nothing runs.
    /// `done` is called on the run's thread with the report or the run's error (Cancelled when the
    /// debugger stopped it); variables keep what the run did to them, as after run(). Until the run has
    /// ended (just before `done`), run, evaluate and sync answer FailedPrecondition "A run under the debugger is in
    /// progress: continue or stop it in the Debugger tab"; reset() and the destructor call `cancel`
    /// and wait for the run. Returns the graph the session runs (the debugger shows it).
    /// Values the observer keeps share the session's buffers and the feeds' (this object's allocator):
    /// reset() and the destructor call its sessionClosing() (on every observer of this session still
    /// alive) before they go.
    Expected<std::shared_ptr<const tensorflow::GraphDef>>
    startDebugged(const GraphDocument& document, const ConsoleRequest& request,
                  std::shared_ptr<ExecutionObserver> observer, std::function<void()> cancel,
                  std::function<void(Expected<RunReport>)> done);
    /// Whether a run started by startDebugged has not finished yet.
    bool isDebugging() const { return m_debugging.load(); }

    /// Drops the session (tf.Session.close): the next sync starts a new one, initialised. A run under
    /// the debugger is cancelled and waited for first.
    void reset();
    /// Whether a session is open.
    bool isOpen() const;
    /// Why the session no longer follows the document (empty when it does or none is open).
    const std::string& outOfDate() const { return m_outOfDate; }
    /// Runs made since the session opened (evaluations included).
    int runCount() const { return m_runs.load(); }
    /// Nodes the session holds.
    int nodeCount() const { return static_cast<int>(m_sent.size()); }

private:
    struct Synced;
    /// A request resolved against the session's graph, ready to run.
    struct Prepared {
        RunReport report; ///< sync and targets filled
        std::vector<std::string> fetches;
        std::vector<std::pair<std::string, Tensor>> feeds;
        std::shared_ptr<const tensorflow::GraphDef> graph;
    };
    Expected<Synced> bringUpToDate(const GraphDocument& document);
    Expected<Prepared> prepare(const GraphDocument& document, const ConsoleRequest& request);
    Expected<RunReport> finish(Prepared prepared, ExecutionObserver* observer);
    Expected<std::vector<Tensor>> runSession(const std::vector<std::pair<std::string, Tensor>>& feeds,
                                             const std::vector<std::string>& fetches,
                                             const std::vector<std::string>& targets,
                                             ExecutionObserver* observer = nullptr);
    Status refuseWhileDebugging() const;
    /// Cancels a run under the debugger and waits for its thread.
    void stopDebugged();

    const Registries& m_registries;
    /// Holds the feeds' buffers (typed feeds, the learning phase); declared before the session, which
    /// may keep a fed tensor until it is destroyed.
    CpuAllocator m_allocator;
    std::unique_ptr<Session> m_session;
    std::map<std::string, tensorflow::NodeDef> m_sent; ///< node name -> the NodeDef the session has
    std::string m_outOfDate;
    std::atomic<int> m_runs = 0;
    std::atomic<bool> m_debugging = false;
    std::function<void()> m_cancelDebugged;
    std::vector<std::weak_ptr<ExecutionObserver>> m_observers; ///< of every run under the debugger
    std::thread m_debugThread; ///< last: joined before the members it uses go
};

} // namespace tstudio::node_editor
