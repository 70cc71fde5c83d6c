// Importing a graph into the editor's document, as tf.import_graph_def(graph_def, input_map,
// name=prefix) imports into a graph that already has nodes: the imported nodes go under a fresh
// name scope ("import", "import_1", ...) and chosen placeholders are replaced by tensors of the
// document. The engine's GraphBuilder::importGraphDef does the renaming and the checks; this turns
// its result into a fragment the document pastes. No Qt.
#pragma once

#include "core/expected.h"
#include "document/graph_document.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "proto/graph.pb.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {
struct Registries;
}

namespace tstudio::node_editor {

/// A placeholder of the graph to import, which may be mapped to a document tensor.
struct ImportInput {
    std::string name; ///< its tensor, "x:0"
    DataType dtype = tensorflow::DT_FLOAT;
    TensorShape shape;
};

/// The Placeholders (and PlaceholderWithDefaults) of `graph`, in graph order.
std::vector<ImportInput> importInputs(const tensorflow::GraphDef& graph);

/// A tensor of the document an imported input can be wired to.
struct DocumentTensor {
    DocNodeId node = kNoNode;
    int output = 0;
    std::string label; ///< "dense:0" for a document node's output 0
    DataType dtype = tensorflow::DT_FLOAT;
    TensorShape shape;
};

/// Every output of every node of the document that builds, in node order.
std::vector<DocumentTensor> documentTensors(const GraphDocument& document, const Registries& registries);

struct GraphImport {
    std::string prefix = "import"; ///< the name scope asked for ("" keeps the names, made unique)
    /// Imported tensor ("x:0") -> the document output that replaces it.
    std::map<std::string, std::pair<DocNodeId, int>> inputMap;
};

/// What to paste: the imported nodes, renamed, their mapped inputs naming document nodes.
struct ImportFragment {
    tensorflow::GraphDef fragment;
    std::string prefix; ///< the scope used ("import_1" when "import" was taken)
};

/// Imports `graph` into the graph the document builds and returns the new nodes. Errors:
/// GraphBuilder::importGraphDef's (an unknown op, "Input 0 of node import/y was passed int32 from
/// k:0 incompatible with expected float.", "Attempted to map inputs that were not found in
/// graph_def: [z:0]"), a mapped document node that does not build.
Expected<ImportFragment> importIntoDocument(const GraphDocument& document, const Registries& registries,
                                            const tensorflow::GraphDef& graph, const GraphImport& request);

} // namespace tstudio::node_editor
