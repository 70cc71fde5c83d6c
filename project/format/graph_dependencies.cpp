// The input walk over a GraphDef shared by the project library.
#include "project/format/graph_dependencies.h"

#include "graph/tensor_id.h"

#include <deque>

namespace tstudio::project {

std::map<std::string, const tensorflow::NodeDef*> nodesByName(const tensorflow::GraphDef& graph)
{
    std::map<std::string, const tensorflow::NodeDef*> byName;
    for (const auto& n : graph.node())
        byName[n.name()] = &n;
    return byName;
}

void addWithInputs(const std::map<std::string, const tensorflow::NodeDef*>& byName, const std::string& root,
                   std::set<std::string>& keep)
{
    std::deque<std::string> queue;
    if (keep.insert(root).second)
        queue.push_back(root);
    while (!queue.empty()) {
        auto it = byName.find(queue.front());
        queue.pop_front();
        if (it == byName.end())
            continue;
        for (const std::string& input : it->second->input()) {
            auto id = parseTensorId(input);
            if (id && keep.insert(id->node).second)
                queue.push_back(id->node);
        }
    }
}

} // namespace tstudio::project
