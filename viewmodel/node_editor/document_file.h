// What the node editor opens, read where it may take long (off the GUI thread): a graph file's
// GraphDef, or a project with the editor's state saved in it.
#pragma once

#include "core/expected.h"
#include "node_editor/document_project.h"
#include "project/format/project_file.h"
#include "proto/graph.pb.h"

#include <optional>
#include <string>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::node_editor {

/// A file read for the node editor.
struct DocumentFile {
    /// A graph file (.pb, .pbtxt, .meta, a SavedModel, ...): its graph. Empty for a project.
    tensorflow::GraphDef graph;
    /// A project (.tsproj): the project and the editor's state read from it (its graph is the one shown).
    std::optional<project::Project> project;
    std::optional<EditorState> state;
};

/// Whether the editor opens `path` as a project (a .tsproj, whatever the case of its extension).
bool isProjectPath(const std::string& path);

/// Reads `path` as the node editor opens it: a project through project::loadProject and editorState
/// (which needs `ops`: FailedPrecondition without it), anything else through readGraphFromFile. Reads
/// files and the registry only, so it may run on a worker thread. Errors as those functions word them.
Expected<DocumentFile> readDocumentFile(const std::string& path, const OpRegistry* ops);

} // namespace tstudio::node_editor
