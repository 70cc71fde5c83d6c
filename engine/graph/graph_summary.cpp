// GraphSummary: op histogram, placeholders, variables and devices of a graph.
#include "graph/graph_summary.h"

#include "framework/data_type.h"
#include "framework/node_attrs.h"
#include "io/formats/graph_file.h"

#include <algorithm>
#include <map>
#include <set>

namespace tstudio {
namespace {

GraphSummary::Endpoint endpoint(const tensorflow::NodeDef& node)
{
    GraphSummary::Endpoint e;
    e.name = node.name();
    if (auto dtype = attrType(node, "dtype"))
        e.dtype = dataTypeName(*dtype);
    auto shape = attrShape(node, "shape");
    e.shape = shape ? shape->toString() : "<unknown>";
    return e;
}

} // namespace

GraphSummary summarizeGraph(const tensorflow::GraphDef& graph)
{
    GraphSummary s;
    s.nodeCount = graph.node_size();
    s.functionCount = graph.library().function_size();
    if (graph.has_versions())
        s.producerVersion = graph.versions().producer();
    std::map<std::string, std::int64_t> ops;
    std::set<std::string> devices;
    for (const auto& node : graph.node()) {
        ++ops[node.op()];
        if (!node.device().empty())
            devices.insert(node.device());
        if (node.op() == "Placeholder" || node.op() == "PlaceholderV2" || node.op() == "PlaceholderWithDefault")
            s.placeholders.push_back(endpoint(node));
        else if (node.op() == "VariableV2" || node.op() == "Variable" || node.op() == "VarHandleOp")
            s.variables.push_back(endpoint(node));
    }
    s.opHistogram.assign(ops.begin(), ops.end());
    std::stable_sort(s.opHistogram.begin(), s.opHistogram.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    s.devices.assign(devices.begin(), devices.end());
    return s;
}

Expected<GraphSummary> summarizeGraphFile(const std::filesystem::path& path)
{
    auto file = readGraphFromFile(path);
    if (!file)
        return unexpected(file.error());
    return summarizeGraph(file->graph);
}

} // namespace tstudio
