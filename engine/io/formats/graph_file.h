// Reading the graph out of any file that holds one: GraphDef (.pb/.pbtxt), MetaGraphDef
// (.meta, binary or text) or SavedModel (directory or saved_model.pb/.pbtxt), detected by content.
#pragma once

#include "core/expected.h"
#include "io/file_kind.h"
#include "proto/graph.pb.h"

#include <filesystem>

namespace tstudio {

struct GraphFile {
    tensorflow::GraphDef graph;
    FileKind kind = FileKind::kUnknown;  ///< what the path held
};

/// The GraphDef held by `path` (for a SavedModel, its first meta graph's). InvalidArgument naming
/// the path when it holds no graph (a checkpoint, an event file, ...); DataLoss when the file does
/// not parse as what its content says it is.
Expected<GraphFile> readGraphFromFile(const std::filesystem::path& path);

/// The same for a file already detected: the report's kind is trusted and not sniffed again.
Expected<GraphFile> readGraphFromFile(const FileKindReport& report);

} // namespace tstudio
