// Reading and writing GraphDef files, binary (.pb) or text (.pbtxt), without losing anything.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"

#include <filesystem>

namespace tstudio {

enum class GraphDefFormat { kBinary, kText };

/// Reads a GraphDef; the format is decided by content (text-format files are printable).
/// Errors name the file: NotFound, DataLoss for a truncated or corrupt binary, InvalidArgument
/// with line and column for a text file that does not parse. Unknown fields are kept.
Expected<tensorflow::GraphDef> readGraphDef(const std::filesystem::path& path, GraphDefFormat* formatOut = nullptr);

/// Parses bytes that hold a GraphDef in either format; `what` names the source in errors.
Expected<tensorflow::GraphDef> parseGraphDef(const std::string& bytes, const std::string& what,
                                             GraphDefFormat* formatOut = nullptr);

/// Serialises as TensorFlow does: deterministic binary, or text format as tf.io.write_graph.
Expected<std::string> serializeGraphDef(const tensorflow::GraphDef& graph, GraphDefFormat format);

/// Writes atomically (temporary file, then rename).
Status writeGraphDef(const std::filesystem::path& path, const tensorflow::GraphDef& graph, GraphDefFormat format);

} // namespace tstudio
