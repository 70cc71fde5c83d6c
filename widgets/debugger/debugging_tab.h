// DebuggingTab: the IDE's debugging tab, the graph a run executes beside the debugger panel, kept in
// step: breakpoints, the paused op and the executed ops marked in the graph, F9 in the graph toggling
// breakpoints, the graph's selection as "Run to cursor", a node picked in the panel selected in the graph.
#pragma once

#include "debugger/debug_controller.h"
#include "proto/graph.pb.h"

#include <QSplitter>

#include <memory>

namespace tstudio {
struct Registries;
}

namespace tstudio::graph_viewer {
class GraphViewer;
}

namespace tstudio::debugger_ui {

class DebuggerView;

class DebuggingTab : public QSplitter {
    Q_OBJECT
public:
    /// `registries` (may be null) as GraphViewer takes them; must outlive the tab.
    explicit DebuggingTab(const Registries* registries, QWidget* parent = nullptr);

    /// Shows `graph` (titled `title`) and attaches the panel to `controller`, keeping the breakpoints
    /// and watches the controller already has (a project's saved ones).
    void attach(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph,
                const QString& title);

    DebuggerView* debugger() const { return m_debugger; }
    graph_viewer::GraphViewer* graphViewer() const { return m_graph; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void updateMarks();
    bool m_sized = false; ///< the first show gave the debugger its preferred width

    graph_viewer::GraphViewer* m_graph;
    DebuggerView* m_debugger;
    QString m_shownTitle;
};

} // namespace tstudio::debugger_ui
