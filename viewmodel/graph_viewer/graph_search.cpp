// Find by name, op type or regex, and ancestor tracing, over a GraphDef.
#include "graph_viewer/graph_search.h"

#include "graph/tensor_id.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace tstudio::graph_viewer {
SearchResult searchGraph(const tensorflow::GraphDef& graph, const QString& query, SearchMode mode)
{
    SearchResult result;
    if (query.isEmpty())
        return result;
    QRegularExpression regex;
    if (mode == SearchMode::kRegex) {
        regex.setPattern(query);
        regex.optimize();
        if (!regex.isValid()) {
            result.error = QCoreApplication::translate("GraphSearch", "Invalid regular expression at offset %1: %2")
                               .arg(regex.patternErrorOffset())
                               .arg(regex.errorString());
            return result;
        }
    }
    const QByteArray needle = query.toUtf8().toLower();
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& node = graph.node(i);
        bool hit = false;
        switch (mode) {
        case SearchMode::kName:
            hit = QByteArray::fromRawData(node.name().data(), static_cast<qsizetype>(node.name().size()))
                      .toLower()
                      .contains(needle);
            break;
        case SearchMode::kOpType:
            hit = QByteArray::fromRawData(node.op().data(), static_cast<qsizetype>(node.op().size())).toLower() ==
                  needle;
            break;
        case SearchMode::kRegex:
            hit = regex.match(QString::fromStdString(node.name())).hasMatch();
            break;
        }
        if (hit)
            result.matches.push_back(i);
    }
    return result;
}

std::vector<int> traceInputs(const tensorflow::GraphDef& graph, int graphIndex, bool includeControl)
{
    std::vector<int> result;
    if (graphIndex < 0 || graphIndex >= graph.node_size())
        return result;
    std::unordered_map<std::string_view, int> byName;
    byName.reserve(static_cast<std::size_t>(graph.node_size()));
    for (int i = 0; i < graph.node_size(); ++i)
        byName.emplace(graph.node(i).name(), i);
    std::vector<char> seen(static_cast<std::size_t>(graph.node_size()), 0);
    std::vector<int> stack{graphIndex};
    seen[static_cast<std::size_t>(graphIndex)] = 1;
    while (!stack.empty()) {
        const int current = stack.back();
        stack.pop_back();
        for (const auto& input : graph.node(current).input()) {
            if (!includeControl && !input.empty() && input.front() == '^')
                continue;
            const auto id = parseTensorId(input);
            if (!id)
                continue; // a malformed input names no node
            const auto it = byName.find(id->node);
            if (it == byName.end() || seen[static_cast<std::size_t>(it->second)])
                continue;
            seen[static_cast<std::size_t>(it->second)] = 1;
            result.push_back(it->second);
            stack.push_back(it->second);
        }
    }
    std::sort(result.begin(), result.end());
    return result;
}

} // namespace tstudio::graph_viewer
