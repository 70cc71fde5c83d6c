// DebuggerView: the debugger panel: run controls, execution list, breakpoints, the paused node's tensors,
// node info and the tensor inspector, over a DebugController that drives a run on another thread.
#pragma once

#include "debugger/breakpoint.h"
#include "debugger/debug_controller.h"
#include "proto/graph.pb.h"

#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

class QAction;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTimer;
class QToolBar;
class QTreeWidget;
class QTreeWidgetItem;

namespace tstudio {
class EmptyState;
}

namespace tstudio::debugger_ui {

class BreakpointListModel;
class BreakpointListView;
class ExecutionListModel;
class ExecutionListView;
class NodeInfoView;
class TensorInspector;

/// The debugger's panel. It commands an attached DebugController (pause, step, step over a name scope, run to
/// the cursor node, continue N session runs, stop, stop on NaN/Inf) and shows what the controller recorded:
/// the execution order (tfdbg's `lt`, filtered by node regex, op regex and device), the breakpoints (editable,
/// pushed to the controller on every change), the inputs and outputs of the node paused at or selected, its
/// node info, and any of those tensors in a TensorInspector (with the history of watched tensors).
///
/// Threads: the controller's callbacks run on the run's thread; they deep-copy the pause's values and post
/// the update to the GUI thread (queued, guarded: a view destroyed meanwhile is never touched). Everything
/// the view shows or keeps is deep-copied into its own memory, so a Session may close at any time. A view
/// destroyed (or detached) while its run is paused cancels the run; one destroyed while it runs disarms the
/// controller (no breakpoint, step or stop is left that nobody could resume).
///
/// Runs are started by the owner: Run, Step, Run to cursor and Continue N runs emit startRequested when no run
/// is known to be under way; the owner starts one with the controller attached and calls notifyRunStarted()
/// (as it does for runs it starts on its own, such as training steps). Object names: "debuggerToolBar" (its
/// actions "runAction", "stepAction", ...), "continueRunsSpin", "statusLabel", "leftTabs" (Execution,
/// Breakpoints), "rightTabs" (Tensors, Node info), "tensorsTree", "nodeInfoView",
/// "tensorInspector", "tensorMessageLabel", and those of ExecutionListView and BreakpointListView. GUI thread
/// only.
class DebuggerView : public QWidget {
    Q_OBJECT
public:
    /// The width at which the inspector needs no horizontal scrolling.
    int preferredWidth() const;
    enum class Action {
        kRunContinue,     ///< F5: continue when paused, else startRequested
        kStep,            ///< F10
        kStepOverScope,   ///< Shift+F10, while paused
        kRunToCursor,     ///< Ctrl+F10, to the node setCursorNode gave
        kContinueRuns,    ///< the number in "continueRunsSpin"
        kPause,           ///< pause before the next node (of this run, or of the next one)
        kStop,            ///< Shift+F5: cancel the run
        kStopOnNonFinite, ///< checkable: pause after the first node producing NaN or Inf
        kRetainValues,    ///< checkable, on: keep every executed node's outputs for inspection
    };
    /// What the view knows of the run.
    enum class RunState { kDetached, kIdle, kRunning, kPaused, kFinished };

    explicit DebuggerView(QWidget* parent = nullptr);
    ~DebuggerView() override;

    /// Attaches to a controller used by a run on another thread, and the graph it runs (for node info and for
    /// resolving inputs "x:1"). Replaces the controller's pause and run-finished callbacks and hands it this
    /// view's breakpoints, watches and options. Detaches from a previous controller first.
    void attach(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph);
    /// Removes the callbacks; a paused run is cancelled, a running one disarmed (see the class comment).
    void detach();
    DebugController* controller() const { return m_controller.get(); }

    void setBreakpoints(std::vector<debugger::Breakpoint> breakpoints);
    std::vector<debugger::Breakpoint> breakpointList() const;
    /// Removes the node breakpoints on `node`, or adds one (the graph viewer's and node editor's F9).
    void toggleNodeBreakpoint(const QString& node);
    /// The nodes with an enabled node breakpoint (what the graph viewer marks).
    QSet<QString> breakpointNodes() const;
    /// Replaces the watched tensors ("node:0"; a document's saved ones), handing them to the attached
    /// controller. Emits nothing: watchesChanged is the user's toggling.
    void setWatches(const std::vector<std::string>& tensors);
    /// The watched tensors, sorted.
    std::vector<std::string> watchList() const { return {m_watched.begin(), m_watched.end()}; }
    /// The node "Run to cursor" runs to (the graph viewer's selection); empty disables the action.
    void setCursorNode(const QString& node);
    QString cursorNode() const { return m_cursorNode; }
    /// Opens `tensor` ("node:1", "node" for output 0) in the inspector: its value from the controller (the
    /// current or last run), or from the pause when it is an input or output of the node paused at. False,
    /// with the reason in "tensorMessageLabel", when no value is available.
    bool showTensor(const QString& tensor);
    /// The tensor the inspector shows ("node:0"), or empty.
    QString shownTensor() const { return m_shownTensor; }

    bool isPaused() const { return m_state == RunState::kPaused; }
    RunState runState() const { return m_state; }
    /// The owner started a run with the attached controller: the view shows it as running.
    void notifyRunStarted();
    /// The status line: "Paused before layer1/MatMul (breakpoint op:MatMul)", "Running", "Finished run 3".
    QString statusText() const;
    /// The node paused at, or empty.
    QString pausedNode() const;
    /// The tensors of the pause ("x:0"; the paused node's inputs first), as the Tensors list shows them.
    QStringList pausedTensors() const;
    /// The nodes executed in the current (or last) run, in order, each once.
    QStringList executedNodeNames() const { return m_executedNames; }

    QAction* action(Action action) const;
    ExecutionListView* executionView() const { return m_execution; }
    ExecutionListModel* executionModel() const;
    BreakpointListView* breakpointsView() const { return m_breakpoints; }
    BreakpointListModel* breakpointModel() const;
    NodeInfoView* nodeInfo() const { return m_nodeInfo; }
    TensorInspector* inspector() const { return m_inspector; }
    /// The inputs and outputs listed for the node paused at or selected.
    QTreeWidget* tensorsTree() const { return m_tensors; }

signals:
    /// The run paused before or after `node`; empty when it runs on or finished.
    void pausedAt(const QString& node);
    void executedNodesChanged(const QStringList& nodes);
    /// The breakpoint list changed (the owner saves it with the project).
    void breakpointsChanged();
    /// The user watched or unwatched a tensor in the inspector (the owner saves watchList() with the project).
    void watchesChanged();
    /// Select this node in the graph (a click in the execution list or node info).
    void nodeActivated(const QString& node);
    /// Run (or Step, Run to cursor, Continue N runs) was pressed while no run is under way.
    void startRequested();
    /// Stop was pressed (the controller is already cancelled).
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void release();
    void buildUi();
    void retranslateUi();
    void updateActions();
    void setState(RunState state);
    void onPaused(const PausePoint& point);
    void onRunFinished(const Status& status, std::int64_t run);
    void refreshExecuted();
    void pushBreakpoints();
    /// Continues from a pause, or starts a run when none is under way, after `apply` set the controller up.
    void command(bool needsPause, const std::function<void(DebugController&)>& apply);
    /// Lists `node`'s inputs and outputs in the tensors tree (values from the pause when paused at it).
    void listTensors(const QString& node);
    void addTensorItem(const QString& tensor, const QString& role, int pauseIndex);
    void showExecutedNode(const QString& node);
    void onWatchToggled(const QString& tensor, bool watched);
    void showHistory();
    QString describePause(const PausePoint& point) const;

    std::shared_ptr<DebugController> m_controller;
    std::shared_ptr<const tensorflow::GraphDef> m_graph;
    std::unordered_map<std::string, int> m_nodeIndex; ///< name -> index in m_graph
    /// Bumped by every attach/detach: callbacks of an earlier attachment are ignored.
    quint64 m_generation = 0;
    RunState m_state = RunState::kDetached;
    std::optional<PausePoint> m_pause; ///< deep copies, while paused
    QString m_finishedText;
    QString m_cursorNode;
    QString m_shownTensor;
    QStringList m_executedNames;
    std::set<std::string> m_watched;

    QToolBar* m_toolBar = nullptr;
    std::vector<QAction*> m_actions;
    QSpinBox* m_continueRuns = nullptr;
    QLabel* m_status = nullptr;
    EmptyState* m_empty = nullptr; ///< over the lists and the inspector while no run is attached
    QTabWidget* m_leftTabs = nullptr;
    ExecutionListView* m_execution = nullptr;
    BreakpointListView* m_breakpoints = nullptr;
    QTabWidget* m_rightTabs = nullptr;
    QTreeWidget* m_tensors = nullptr;
    NodeInfoView* m_nodeInfo = nullptr;
    QLabel* m_tensorMessage = nullptr;
    TensorInspector* m_inspector = nullptr;
    QWidget* m_inspectorBox = nullptr; ///< the inspector and its message, inside a scroll area
    QTimer* m_refreshTimer = nullptr;
};

} // namespace tstudio::debugger_ui
