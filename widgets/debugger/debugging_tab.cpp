// DebuggingTab: a GraphViewer and a DebuggerView side by side, wired to each other.
#include "debugger/debugging_tab.h"

#include "debugger/debugger_view.h"
#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/graph_viewer.h"

#include <QSet>
#include <QShowEvent>

#include <algorithm>

namespace tstudio::debugger_ui {

DebuggingTab::DebuggingTab(const Registries* registries, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent), m_graph(new graph_viewer::GraphViewer(registries, this)),
      m_debugger(new DebuggerView(this))
{
    setObjectName(QStringLiteral("debuggingTab"));
    addWidget(m_graph);
    addWidget(m_debugger);
    setStretchFactor(0, 2);
    setStretchFactor(1, 3);

    connect(m_debugger, &DebuggerView::pausedAt, this, [this](const QString& node) {
        updateMarks();
        if (!node.isEmpty())
            m_graph->selectNodeNamed(node);
    });
    connect(m_debugger, &DebuggerView::executedNodesChanged, this, &DebuggingTab::updateMarks);
    connect(m_debugger, &DebuggerView::breakpointsChanged, this, &DebuggingTab::updateMarks);
    connect(m_debugger, &DebuggerView::nodeActivated, this, [this](const QString& node) { m_graph->selectNodeNamed(node); });
    connect(m_graph, &graph_viewer::GraphViewer::breakpointToggleRequested, m_debugger,
            &DebuggerView::toggleNodeBreakpoint);
    connect(m_graph, &graph_viewer::GraphViewer::loaded, this, [this](bool ok) {
        if (ok)
            updateMarks();
    });
    connect(m_graph->canvas(), &graph_viewer::GraphCanvas::selectionChanged, this, [this](int node) {
        const graph_viewer::GraphHierarchy* hierarchy = m_graph->hierarchy();
        if (!hierarchy || node < 0)
            return;
        const graph_viewer::HierarchyNode& n = hierarchy->node(node);
        if (n.kind == graph_viewer::HierarchyNodeKind::kOp)
            m_debugger->setCursorNode(QString::fromStdString(n.nodeName));
    });
}

void DebuggingTab::showEvent(QShowEvent* event)
{
    QSplitter::showEvent(event);
    if (m_sized || width() <= 0)
        return;
    m_sized = true;
    // The inspector (health counts, slice and highlight fields) wants its width; the graph takes the
    // rest but keeps at least a third.
    const int debugger = std::min(std::max(width() * 3 / 5, m_debugger->preferredWidth()), width() * 2 / 3);
    setSizes({width() - debugger, debugger});
}

void DebuggingTab::attach(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph,
                          const QString& title)
{
    // The controller's breakpoints (the project's, set before the first step) become the panel's.
    m_debugger->setBreakpoints(controller->breakpoints().breakpoints());
    if (graph && title != m_shownTitle) {
        m_graph->showGraph(*graph, title);
        m_shownTitle = title;
    }
    m_debugger->attach(std::move(controller), std::move(graph));
    m_debugger->notifyRunStarted();
    updateMarks();
}

void DebuggingTab::updateMarks()
{
    const QStringList executed = m_debugger->executedNodeNames();
    m_graph->setDebugMarks(m_debugger->pausedNode(), QSet<QString>(executed.begin(), executed.end()),
                           m_debugger->breakpointNodes());
}

} // namespace tstudio::debugger_ui
