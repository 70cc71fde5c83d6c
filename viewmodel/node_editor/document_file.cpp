// What the node editor opens, read off the GUI thread.
#include "node_editor/document_file.h"

#include "io/formats/graph_file.h"

#include <algorithm>
#include <cctype>

namespace tstudio::node_editor {

bool isProjectPath(const std::string& path)
{
    constexpr std::string_view kSuffix = ".tsproj";
    if (path.size() < kSuffix.size())
        return false;
    return std::equal(kSuffix.begin(), kSuffix.end(), path.end() - static_cast<std::ptrdiff_t>(kSuffix.size()),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

Expected<DocumentFile> readDocumentFile(const std::string& path, const OpRegistry* ops)
{
    DocumentFile file;
    if (!isProjectPath(path)) {
        auto graph = readGraphFromFile(path);
        if (!graph)
            return unexpected(graph.error());
        file.graph = std::move(graph->graph);
        return file;
    }
    if (!ops)
        return unexpected(failedPreconditionError("no op registry"));
    auto project = project::loadProject(path);
    if (!project)
        return unexpected(project.error());
    auto state = editorState(*project, *ops);
    if (!state)
        return unexpected(state.error());
    file.project = std::move(*project);
    file.state = std::move(*state);
    return file;
}

} // namespace tstudio::node_editor
