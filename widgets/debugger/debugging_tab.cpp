// DebuggingTab: a GraphViewer and a DebuggerView side by side, wired to each other.
#include "debugger/debugging_tab.h"

#include "debugger/debugger_view.h"
#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/graph_viewer.h"

#include <google/protobuf/util/message_differencer.h>

#include <QEvent>
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
    connect(m_debugger, &DebuggerView::breakpointsChanged, this, [this] {
        updateMarks();
        if (!m_applying)
            emit settingsEdited();
    });
    connect(m_debugger, &DebuggerView::watchesChanged, this, &DebuggingTab::settingsEdited);
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

void DebuggingTab::changeEvent(QEvent* event)
{
    QSplitter::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        emit titleChanged(title());
}

void DebuggingTab::attach(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph,
                          const QString& title)
{
    if (!controller)
        return;
    // The controller's breakpoints and watches (the project's, set before the first step) become the
    // panel's: nothing of an earlier run or document is carried into this one.
    m_debugger->detach();
    setSettings({controller->breakpoints().breakpoints(), controller->watched()});
    // Laying a graph out again costs time and the user's view: only a changed graph (edited since the
    // last run, or another document's) is shown again.
    const bool sameGraph = graph && m_shownGraph && title == m_shownTitle &&
                           google::protobuf::util::MessageDifferencer::Equals(*graph, *m_shownGraph);
    if (graph && !sameGraph) {
        m_graph->showGraph(*graph, title);
        m_shownTitle = title;
        m_shownGraph = graph;
    }
    m_graph->show();
    m_applying = true; // attaching hands the panel's breakpoints over: no edit of the user's
    m_debugger->attach(std::move(controller), std::move(graph));
    m_applying = false;
    m_debugger->notifyRunStarted();
    updateMarks();
}

void DebuggingTab::setDocument(QObject* document, const QString& name)
{
    if (document != m_document) {
        if (m_document)
            disconnect(m_document, nullptr, this, nullptr);
        reset();
        m_document = document;
        if (document)
            connect(document, &QObject::destroyed, this, [this] {
                reset();
                m_documentName.clear();
                emit titleChanged(title());
                emit documentClosed(); // the last act: the owner may delete the tab here
            });
    }
    m_documentName = name;
    emit titleChanged(title());
}

void DebuggingTab::setDocumentName(const QString& name)
{
    if (name == m_documentName)
        return;
    m_documentName = name;
    emit titleChanged(title());
}

QString DebuggingTab::title() const
{
    return m_documentName.isEmpty() ? tr("Debugger") : tr("Debugger — %1").arg(m_documentName);
}

project::DebuggerSettings DebuggingTab::settings() const
{
    return {m_debugger->breakpointList(), m_debugger->watchList()};
}

void DebuggingTab::setSettings(const project::DebuggerSettings& settings)
{
    m_applying = true;
    m_debugger->setBreakpoints(settings.breakpoints);
    m_applying = false;
    m_debugger->setWatches(settings.watch);
}

void DebuggingTab::reset()
{
    // Detaching cancels a paused run: nobody could resume it from a tab of another document.
    m_debugger->detach();
    setSettings({});
    m_shownTitle.clear();
    m_shownGraph.reset();
    // The graph of a document that is gone (or not the tab's any more) is not shown: the panel's
    // "no run" state takes the tab until the next run attaches.
    m_graph->hide();
}

void DebuggingTab::updateMarks()
{
    const QStringList executed = m_debugger->executedNodeNames();
    m_graph->setDebugMarks(m_debugger->pausedNode(), QSet<QString>(executed.begin(), executed.end()),
                           m_debugger->breakpointNodes());
}

} // namespace tstudio::debugger_ui
