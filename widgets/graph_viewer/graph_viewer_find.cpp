// GraphViewer's navigation: find (next, previous, the match revealed), selection and its details
// (inputs traced, edges described, outputs), the problems list, functions opened, names copied.
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/graph_viewer_internal.h"

#include "common/background_run.h"
#include "common/canvas_overlays.h"
#include "graph_viewer/checkpoint_variables_view.h"
#include "graph_viewer/graph_export.h"
#include "graph_viewer/graph_minimap.h"
#include "graph/tensor_id.h"
#include "graph_viewer/node_properties_panel.h"
#include "graph_viewer/signatures_view.h"
#include "common/empty_state.h"
#include "registries/default_registries.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QImageWriter>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace tstudio::graph_viewer {

using namespace detail;

void GraphViewer::onSelectionChanged(int node)
{
    if (m_traceAction->isChecked())
        traceInputs(true);
    updateActions();
    if (!m_loaded)
        return;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    if (node < 0 || static_cast<std::size_t>(node) >= h.nodes().size()) {
        m_properties->showNode(-1);
        return;
    }
    const HierarchyNode& n = h.node(node);
    const EmbeddedSelection embedded = std::exchange(m_embeddedSelection, {});
    if (n.kind == HierarchyNodeKind::kOp) {
        // An embedded constant asked for by name: its consumer is selected, the panel describes the constant.
        const int shown = embedded.host == node && embedded.graphIndex >= 0 ? embedded.graphIndex : n.graphIndex;
        m_properties->showNode(shown);
        QString placed;
        if (m_facts && shown >= 0 && static_cast<std::size_t>(shown) < m_facts->nodes.size())
            placed = q(m_facts->nodes[static_cast<std::size_t>(shown)].placedDevice);
        m_properties->setPlacedDevice(placed);
        if (m_loaded->functions && shown >= 0)
            m_properties->setFunctionCalls(functionLinks(m_loaded->functions->callsOf(shown)));
    } else {
        QMap<QString, int> ops, devices;
        for (const auto& [k, v] : n.opHistogram)
            ops.insert(q(k), v);
        for (const auto& [k, v] : n.deviceHistogram)
            devices.insert(q(k), v);
        m_properties->showGroup(q(n.name), static_cast<int>(n.opCount), ops, devices);
        // A scope that is also a node's name (a frozen graph's "dense/kernel" Const): offer the node itself.
        const int self = n.kind == HierarchyNodeKind::kGroup ? h.findOp(n.name) : -1;
        if (self >= 0)
            m_properties->setScopeNode(q(h.node(self).nodeName), q(h.node(self).op));
        const int function = m_loaded->functions ? m_loaded->functions->findScope(n.name) : -1;
        if (function >= 0)
            m_properties->setFunction(functionSummary(*m_loaded->functions, function));
    }
}

void GraphViewer::selectNode(int node)
{
    if (!m_loaded || node < 0)
        return;
    if (m_canvas->itemIndexOf(node) >= 0) {
        m_canvas->setSelected(node);
        m_canvas->zoomToNode(node);
        return;
    }
    m_focusAfterLayout = node;
    requestLayout([node](GraphViewLayout& layout) { layout.expandTo(node); });
}

bool GraphViewer::selectNodeNamed(const QString& name)
{
    if (!m_loaded)
        return false;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    const std::string key = name.toStdString();
    int node = h.findOp(key);
    if (node < 0) {
        const int host = h.embeddingHost(key);
        if (host >= 0) {
            const tensorflow::GraphDef& view = *m_loaded->viewGraph;
            int index = -1;
            for (int i = 0; i < view.node_size() && index < 0; ++i)
                if (view.node(i).name() == key)
                    index = i;
            m_embeddedSelection = {host, index};
            if (m_canvas->selected() == host)
                onSelectionChanged(host); // no selection change to wait for
            else
                selectNode(host);
            return true;
        }
        node = h.find(key);
    }
    if (node < 0)
        return false;
    selectNode(node);
    return true;
}

bool GraphViewer::openFunction(const QString& name)
{
    if (!m_loaded || !m_loaded->functions)
        return false;
    const int function = m_loaded->functions->find(name.toStdString());
    if (function < 0)
        return false;
    const int node = m_loaded->hierarchy->find(m_loaded->functions->functions()[static_cast<std::size_t>(function)].scope);
    if (node < 0)
        return false; // a function without arguments, body or results has no group
    m_canvas->keepFitting(false);
    m_focusAfterLayout = node;
    requestLayout([node](GraphViewLayout& layout) {
        layout.expandTo(node);
        layout.setExpanded(node, true);
    });
    // The whole body in view, not just a corner of it.
    connect(this, &GraphViewer::layoutFinished, m_canvas, [this, node] { m_canvas->zoomToNode(node); },
            Qt::SingleShotConnection);
    return true;
}

int GraphViewer::find(const QString& query, SearchMode mode)
{
    m_matches.clear();
    m_matchIndex = -1;
    if (!m_loaded)
        return 0;
    const tensorflow::GraphDef& graph = *m_loaded->viewGraph; // function bodies are searched too
    const SearchResult result = searchGraph(graph, query, mode);
    if (!result.error.isEmpty()) {
        m_findStatus->setText(result.error);
        m_canvas->setMatches({}, -1);
        return 0;
    }
    for (int index : result.matches) {
        const int node = m_loaded->hierarchy->find(graph.node(index).name());
        if (node >= 0)
            m_matches.push_back(node);
    }
    if (!m_matches.empty())
        m_matchIndex = 0;
    revealMatch();
    return static_cast<int>(m_matches.size());
}

void GraphViewer::findNext()
{
    if (m_matches.empty())
        return;
    m_matchIndex = (m_matchIndex + 1) % static_cast<int>(m_matches.size());
    revealMatch();
}

void GraphViewer::findPrevious()
{
    if (m_matches.empty())
        return;
    m_matchIndex = (m_matchIndex + static_cast<int>(m_matches.size()) - 1) % static_cast<int>(m_matches.size());
    revealMatch();
}

void GraphViewer::revealMatch()
{
    // Every match and every group holding one is marked, so matches inside collapsed groups show.
    std::vector<int> marked;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    std::vector<char> seen(h.nodes().size(), 0);
    for (int node : m_matches)
        for (int n = node; n > 0 && !seen[static_cast<std::size_t>(n)]; n = h.node(n).parent) {
            seen[static_cast<std::size_t>(n)] = 1;
            marked.push_back(n);
        }
    const int current = m_matchIndex >= 0 ? m_matches[static_cast<std::size_t>(m_matchIndex)] : -1;
    m_canvas->setMatches(std::move(marked), current);
    updateFindStatus();
    if (current >= 0)
        selectNode(current);
}

void GraphViewer::updateFindStatus()
{
    if (!m_findStatus)
        return;
    if (m_findEdit->text().isEmpty())
        m_findStatus->clear();
    else if (m_matches.empty())
        m_findStatus->setText(tr("No matches"));
    else
        m_findStatus->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(m_matches.size()));
}

void GraphViewer::traceInputs(bool on)
{
    m_traced.clear();
    const int selected = m_canvas->selected();
    if (on && m_loaded && selected >= 0) {
        const GraphHierarchy& h = *m_loaded->hierarchy;
        std::vector<int> ops;
        const HierarchyNode& n = h.node(selected);
        if (n.kind == HierarchyNodeKind::kOp) {
            ops = graph_viewer::traceInputs(*m_loaded->viewGraph, n.graphIndex);
        }
        std::vector<char> seen(h.nodes().size(), 0);
        auto mark = [&](int node) {
            for (int k = node; k > 0 && !seen[static_cast<std::size_t>(k)]; k = h.node(k).parent) {
                seen[static_cast<std::size_t>(k)] = 1;
                m_traced.push_back(k);
            }
        };
        mark(selected);
        for (int index : ops) {
            const int node = h.find(m_loaded->viewGraph->node(index).name());
            if (node >= 0)
                mark(node);
        }
    }
    {
        const QSignalBlocker block(m_traceAction);
        m_traceAction->setChecked(on);
    }
    m_canvas->setTraced(on ? m_traced : std::vector<int>{});
}

QString GraphViewer::outputDescription(int graphIndex, int output) const
{
    if (!m_facts || graphIndex < 0 || static_cast<std::size_t>(graphIndex) >= m_facts->nodes.size())
        return {};
    const auto& outputs = m_facts->nodes[static_cast<std::size_t>(graphIndex)].outputs;
    if (output < 0 || static_cast<std::size_t>(output) >= outputs.size())
        return {};
    const OutputFact& fact = outputs[static_cast<std::size_t>(output)];
    const QString dtype = fact.dtype == tensorflow::DT_INVALID ? QStringLiteral("?") : q(dataTypeName(fact.dtype));
    return dtype + QLatin1Char(' ') + q(fact.shape.toString());
}

QString GraphViewer::describeEdge(int group, int edgeIndex) const
{
    if (!m_loaded)
        return {};
    const GraphHierarchy& h = *m_loaded->hierarchy;
    const auto& edges = h.node(group).edges;
    if (edgeIndex < 0 || static_cast<std::size_t>(edgeIndex) >= edges.size())
        return {};
    const HierarchyEdge& e = edges[static_cast<std::size_t>(edgeIndex)];
    QString text = QStringLiteral("<b>%1</b> → <b>%2</b>")
                       .arg(leafName(h.node(e.from).name).toHtmlEscaped(), leafName(h.node(e.to).name).toHtmlEscaped());
    QStringList parts;
    if (e.dataCount)
        parts << tr("%n tensor(s)", nullptr, e.dataCount);
    if (e.refCount)
        parts << tr("%n reference edge(s)", nullptr, e.refCount);
    if (e.controlCount)
        parts << tr("%n control dependenc(ies)", nullptr, e.controlCount);
    text += QStringLiteral("<br>") + parts.join(QStringLiteral(", "));
    // Between two ops: the shapes of the tensors that flow.
    const HierarchyNode& from = h.node(e.from);
    const HierarchyNode& to = h.node(e.to);
    if (from.kind == HierarchyNodeKind::kOp && to.kind == HierarchyNodeKind::kOp && from.graphIndex >= 0 && to.graphIndex >= 0) {
        const auto& consumer = m_loaded->viewGraph->node(to.graphIndex);
        QStringList shapes;
        for (const auto& input : consumer.input()) {
            const auto id = parseTensorId(input);
            if (!id || id->isControl() || id->node != from.nodeName)
                continue;
            const QString d = outputDescription(from.graphIndex, id->index);
            shapes << (d.isEmpty() ? q(input) : q(input) + QStringLiteral(": ") + d);
        }
        if (!shapes.isEmpty())
            text += QStringLiteral("<br>") + shapes.join(QStringLiteral("<br>")).toHtmlEscaped().replace(QStringLiteral("&lt;br&gt;"), QStringLiteral("<br>"));
    } else if (e.sizedCount > 0) {
        text += QStringLiteral("<br>") + tr("%1 elements over %2 sized tensor(s)").arg(e.totalSize).arg(e.sizedCount);
    }
    return text;
}

void GraphViewer::fillProblems()
{
    m_problems->clear();
    if (!m_loaded)
        return;
    for (const auto& p : m_loaded->hierarchy->problems())
        m_problems->addItem(q(p));
    for (const auto& w : m_loaded->warnings)
        m_problems->addItem(q(w));
    if (m_loaded->functions)
        for (const auto& p : m_loaded->functions->problems())
            m_problems->addItem(q(p));
    if (m_facts) {
        for (const auto& p : m_facts->problems)
            m_problems->addItem(q(p));
        for (std::size_t i = 0; i < m_facts->nodes.size(); ++i) {
            const std::string& problem = m_facts->nodes[i].problem;
            if (problem.empty())
                continue;
            const QString name = q(m_loaded->graph->node(static_cast<int>(i)).name());
            auto* item = new QListWidgetItem(QStringLiteral("%1: %2").arg(name, q(problem)), m_problems);
            item->setData(Qt::UserRole, name);
            item->setToolTip(tr("Click to show %1").arg(name));
        }
    }
    m_side->setTabText(m_side->indexOf(m_problems), m_facts ? tr("Problems (%1)").arg(m_problems->count()) : tr("Problems"));
}

void GraphViewer::copySelectedName()
{
    if (!m_loaded || m_canvas->selected() < 0)
        return;
    const HierarchyNode& n = m_loaded->hierarchy->node(m_canvas->selected());
    QApplication::clipboard()->setText(q(n.kind == HierarchyNodeKind::kOp ? n.nodeName : n.name));
}

} // namespace tstudio::graph_viewer
