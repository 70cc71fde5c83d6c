// GraphColouring: the fill of every hierarchy node under a colour mode (structure, device, time, memory, runnable).
#pragma once

#include "graph_viewer/graph_hierarchy.h"

#include <QColor>
#include <QString>

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::graph_viewer {

class FunctionLibraryView;
struct GraphFacts;
struct RunStats;

enum class ColourMode {
    kStructure,       ///< ops by category; groups of identical structure share a colour (TensorBoard's "Structure")
    kRequestedDevice, ///< NodeDef.device; groups show the share of their ops per device
    kPlacedDevice,    ///< the engine's placement (of a run when one is selected, else computed by the placer)
    kComputeTime,     ///< compute time from the selected RunMetadata step
    kMemory,          ///< memory from the selected RunMetadata step
    kRunnable,        ///< whether the engine has a CPU kernel for each op
};

/// A node's fill: one or more colour bands with their shares of the width (shares sum to 1).
struct NodeFill {
    std::vector<std::pair<QColor, double>> bands;
    QColor primary() const { return bands.empty() ? QColor(Qt::lightGray) : bands.front().first; }
};

struct LegendEntry {
    QColor colour;
    QString label;
};

/// Computes fills for all hierarchy nodes at once (a post-order pass), so drawing only looks them up.
/// Inputs are borrowed and must outlive the object; facts and stats may be null (their modes then fall back
/// to grey with a legend entry saying why).
class GraphColouring {
public:
    GraphColouring() = default;
    /// `functions` (may be null) marks call nodes: in the structure mode they take the "Function call" colour,
    /// as tf.data ops take the "Dataset" one (isDatasetOp), whatever the registry's category.
    GraphColouring(const GraphHierarchy* hierarchy, const tensorflow::GraphDef* graph, const OpRegistry* ops,
                   const GraphFacts* facts, const RunStats* stats, ColourMode mode,
                   const FunctionLibraryView* functions = nullptr);

    ColourMode mode() const { return m_mode; }
    const NodeFill& fill(int node) const;
    const std::vector<LegendEntry>& legend() const { return m_legend; }
    /// For time and memory: the node's value (microseconds or bytes) and whether it is known.
    double value(int node) const;

private:
    void computeStructure();
    void computeDevices(bool placed);
    void computeValues(bool memory);
    void computeRunnable();
    std::vector<int> postOrder() const;
    void fillFromHistograms(const std::vector<std::map<std::string, double>>& histograms,
                            const std::map<std::string, QColor>& colours);

    const GraphHierarchy* m_hierarchy = nullptr;
    const tensorflow::GraphDef* m_graph = nullptr;
    const OpRegistry* m_ops = nullptr;
    const GraphFacts* m_facts = nullptr;
    const RunStats* m_stats = nullptr;
    const FunctionLibraryView* m_functions = nullptr;
    ColourMode m_mode = ColourMode::kStructure;
    std::vector<NodeFill> m_fills;
    std::vector<double> m_values;
    std::vector<LegendEntry> m_legend;
    NodeFill m_none;
};

/// Short readable device name: "/job:localhost/replica:0/task:0/device:GPU:0" -> "GPU:0"; "" -> "".
QString shortDeviceName(const std::string& device);

} // namespace tstudio::graph_viewer
