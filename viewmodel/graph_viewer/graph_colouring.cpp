// Fills per colour mode, aggregated bottom-up over the hierarchy in one pass.
#include "graph_viewer/graph_colouring.h"

#include "common/op_style.h"
#include "framework/op_registry.h"
#include "graph_viewer/function_library_view.h"
#include "graph_viewer/graph_facts.h"
#include "graph_viewer/run_stats.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <set>

namespace tstudio::graph_viewer {
namespace {

const QColor kUnknown(0xd8, 0xd8, 0xd8);
const QColor kRunnable(0xb8, 0xe0, 0xb0);
const QColor kNotRunnable(0xe8, 0x6a, 0x5c);

QColor heat(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    const QColor low(0xff, 0xf5, 0xeb), high(0xd6, 0x27, 0x28);
    auto mixc = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return QColor(mixc(low.red(), high.red()), mixc(low.green(), high.green()), mixc(low.blue(), high.blue()));
}

QString formatValue(double v, bool memory)
{
    if (memory)
        return QLocale().formattedDataSize(static_cast<qint64>(v));
    if (v >= 1e6)
        return QCoreApplication::translate("GraphColouring", "%1 s").arg(v / 1e6, 0, 'f', 2);
    if (v >= 1e3)
        return QCoreApplication::translate("GraphColouring", "%1 ms").arg(v / 1e3, 0, 'f', 2);
    return QCoreApplication::translate("GraphColouring", "%1 µs").arg(v, 0, 'f', 0);
}

} // namespace

QString shortDeviceName(const std::string& device)
{
    if (device.empty())
        return {};
    QString d = QString::fromStdString(device);
    const int at = static_cast<int>(d.lastIndexOf(QStringLiteral("device:")));
    if (at >= 0)
        return d.mid(at + 7);
    if (d.startsWith(QLatin1Char('/')))
        d.remove(0, 1);
    return d.toUpper();
}

GraphColouring::GraphColouring(const GraphHierarchy* hierarchy, const tensorflow::GraphDef* graph, const OpRegistry* ops,
                               const GraphFacts* facts, const RunStats* stats, ColourMode mode,
                               const FunctionLibraryView* functions)
    : m_hierarchy(hierarchy), m_graph(graph), m_ops(ops), m_facts(facts), m_stats(stats), m_functions(functions),
      m_mode(mode)
{
    if (!m_hierarchy)
        return;
    m_fills.resize(m_hierarchy->nodes().size());
    switch (mode) {
    case ColourMode::kStructure:
        computeStructure();
        break;
    case ColourMode::kRequestedDevice:
        computeDevices(false);
        break;
    case ColourMode::kPlacedDevice:
        computeDevices(true);
        break;
    case ColourMode::kComputeTime:
        computeValues(false);
        break;
    case ColourMode::kMemory:
        computeValues(true);
        break;
    case ColourMode::kRunnable:
        computeRunnable();
        break;
    }
}

const NodeFill& GraphColouring::fill(int node) const
{
    if (node < 0 || static_cast<std::size_t>(node) >= m_fills.size())
        return m_none;
    return m_fills[static_cast<std::size_t>(node)];
}

double GraphColouring::value(int node) const
{
    if (node < 0 || static_cast<std::size_t>(node) >= m_values.size())
        return -1;
    return m_values[static_cast<std::size_t>(node)];
}

std::vector<int> GraphColouring::postOrder() const
{
    std::vector<int> order;
    order.reserve(m_hierarchy->nodes().size());
    std::vector<std::pair<int, std::size_t>> stack{{m_hierarchy->root(), 0}};
    while (!stack.empty()) {
        auto& [node, next] = stack.back();
        const auto& children = m_hierarchy->node(node).children;
        if (next < children.size()) {
            const int child = children[next++];
            stack.emplace_back(child, 0);
            continue;
        }
        order.push_back(node);
        stack.pop_back();
    }
    return order;
}

void GraphColouring::computeStructure()
{
    std::unordered_map<std::uint64_t, int> signatureCount;
    for (const auto& n : m_hierarchy->nodes())
        if (n.kind != HierarchyNodeKind::kOp && n.id != m_hierarchy->root())
            ++signatureCount[n.signature];
    std::set<std::string_view> present;
    for (const auto& n : m_hierarchy->nodes()) {
        QColor colour;
        if (n.kind == HierarchyNodeKind::kOp) {
            const OpRegistration* reg = m_ops ? m_ops->find(n.op) : nullptr;
            std::string_view category = reg ? std::string_view(reg->category) : std::string_view{};
            // A tf.data pipeline reads as one chain of one colour; a call (If, While, PartitionedCall, a call by
            // name) stands out from the ops around it.
            if (isDatasetOp(n.op))
                category = kDatasetCategory;
            else if (m_functions && n.graphIndex >= 0 && !m_functions->callsOf(n.graphIndex).empty())
                category = kFunctionCallCategory;
            present.insert(category);
            colour = opCategoryColour(category);
        } else if (signatureCount[n.signature] >= 2) {
            // Groups that repeat a structure share a pastel hue derived from the structure signature.
            colour = QColor::fromHsl(static_cast<int>(n.signature % 360), 120, 200);
        } else {
            colour = QColor(0xe4, 0xe4, 0xe4);
        }
        m_fills[static_cast<std::size_t>(n.id)].bands = {{colour, 1.0}};
    }
    // Only the categories this graph has, in legend order.
    for (std::string_view category : opCategoriesForLegend())
        if (present.count(category))
            m_legend.push_back({opCategoryColour(category), opCategoryDisplayName(category)});
    m_legend.push_back({QColor::fromHsl(200, 120, 200), QCoreApplication::translate("GraphColouring", "Same structure")});
}

void GraphColouring::fillFromHistograms(const std::vector<std::map<std::string, double>>& histograms,
                                        const std::map<std::string, QColor>& colours)
{
    for (std::size_t i = 0; i < histograms.size(); ++i) {
        double total = 0;
        for (const auto& [key, count] : histograms[i])
            total += count;
        auto& bands = m_fills[i].bands;
        bands.clear();
        if (total <= 0) {
            bands.push_back({kUnknown, 1.0});
            continue;
        }
        for (const auto& [key, count] : histograms[i])
            bands.push_back({colours.at(key), count / total});
    }
}

void GraphColouring::computeDevices(bool placed)
{
    const std::size_t n = m_hierarchy->nodes().size();
    std::vector<std::map<std::string, double>> histograms(n);
    std::map<std::string, QColor> colours;
    const std::string unknown; // ops with no device
    for (int id : postOrder()) {
        const auto& node = m_hierarchy->node(id);
        auto& histogram = histograms[static_cast<std::size_t>(id)];
        if (node.kind == HierarchyNodeKind::kOp) {
            std::string device;
            if (!placed) {
                device = node.device;
            } else {
                if (m_stats) {
                    const auto it = m_stats->byNode.find(node.nodeName);
                    if (it != m_stats->byNode.end())
                        device = it->second.device;
                }
                if (device.empty() && m_facts && node.graphIndex >= 0 &&
                    static_cast<std::size_t>(node.graphIndex) < m_facts->nodes.size())
                    device = m_facts->nodes[static_cast<std::size_t>(node.graphIndex)].placedDevice;
            }
            const std::string key = shortDeviceName(device).toStdString();
            histogram[key] += 1;
            colours.emplace(key, QColor());
        } else {
            for (int child : node.children)
                for (const auto& [key, count] : histograms[static_cast<std::size_t>(child)])
                    histogram[key] += count;
        }
    }
    int index = 0;
    for (auto& [key, colour] : colours) {
        colour = key.empty() ? kUnknown : paletteColour(index++);
        m_legend.push_back({colour, key.empty() ? QCoreApplication::translate("GraphColouring", "No device") : QString::fromStdString(key)});
    }
    if (placed && !m_facts && !m_stats)
        m_legend.push_back({kUnknown, QCoreApplication::translate("GraphColouring", "Placement not computed")});
    fillFromHistograms(histograms, colours);
}

void GraphColouring::computeValues(bool memory)
{
    const std::size_t n = m_hierarchy->nodes().size();
    m_values.assign(n, -1.0);
    double maxValue = 0;
    for (int id : postOrder()) {
        const auto& node = m_hierarchy->node(id);
        double v = -1;
        if (node.kind == HierarchyNodeKind::kOp) {
            if (m_stats) {
                const auto it = m_stats->byNode.find(node.nodeName);
                if (it != m_stats->byNode.end())
                    v = memory ? static_cast<double>(std::max(it->second.peakBytes, it->second.outputBytes))
                               : it->second.computeMicros;
            }
        } else {
            for (int child : node.children) {
                const double c = m_values[static_cast<std::size_t>(child)];
                if (c >= 0)
                    v = (v < 0 ? 0 : v) + c;
            }
        }
        m_values[static_cast<std::size_t>(id)] = v;
        if (id != m_hierarchy->root())
            maxValue = std::max(maxValue, v);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const double v = m_values[i];
        const QColor c = v < 0 ? kUnknown : heat(maxValue > 0 ? std::sqrt(v / maxValue) : 0.0);
        m_fills[i].bands = {{c, 1.0}};
    }
    if (!m_stats) {
        m_legend.push_back({kUnknown, QCoreApplication::translate("GraphColouring", "No run metadata: run the graph with tracing or open an event file with RunMetadata")});
        return;
    }
    m_legend.push_back({heat(0), formatValue(0, memory)});
    m_legend.push_back({heat(0.5), formatValue(maxValue * 0.25, memory)});
    m_legend.push_back({heat(1), formatValue(maxValue, memory)});
    m_legend.push_back({kUnknown, QCoreApplication::translate("GraphColouring", "Not in this step")});
}

void GraphColouring::computeRunnable()
{
    const std::size_t n = m_hierarchy->nodes().size();
    std::vector<std::map<std::string, double>> histograms(n);
    const std::map<std::string, QColor> colours = {{"no", kNotRunnable}, {"yes", kRunnable}, {"?", kUnknown}};
    for (int id : postOrder()) {
        const auto& node = m_hierarchy->node(id);
        auto& histogram = histograms[static_cast<std::size_t>(id)];
        if (node.kind == HierarchyNodeKind::kOp) {
            const bool known = m_facts && node.graphIndex >= 0 &&
                               static_cast<std::size_t>(node.graphIndex) < m_facts->nodes.size();
            histogram[!known ? "?" : m_facts->nodes[static_cast<std::size_t>(node.graphIndex)].runnable ? "yes" : "no"] += 1;
        } else {
            for (int child : node.children)
                for (const auto& [key, count] : histograms[static_cast<std::size_t>(child)])
                    histogram[key] += count;
        }
    }
    fillFromHistograms(histograms, colours);
    m_legend.push_back({kRunnable, QCoreApplication::translate("GraphColouring", "Runnable here (CPU kernel)")});
    m_legend.push_back({kNotRunnable, QCoreApplication::translate("GraphColouring", "Not runnable here")});
}

} // namespace tstudio::graph_viewer
