// DocumentBuild: a GraphDocument (raw ops and layer nodes) built into one GraphBuilder, and its export
// as a GraphDef or a MetaGraphDef (Qt-free logic over the document's model).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "document/graph_document.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tstudio {

class OpRegistry;

/// An Input node bound through its binding port ("data", layers::LayerType::bindingNames) to a
/// component of a data-source node: the project feeds that component to the Input's placeholder.
struct SourceBinding {
    DocNodeId node = kNoNode;   ///< the Input node
    std::string placeholder;    ///< its placeholder as built ("input:0")
    DocNodeId source = kNoNode; ///< the data-source node
    int output = 0;             ///< the component's output port on it
    std::string component;      ///< the component's name ("images")
};

/// What building a document produced.
struct DocumentBuild {
    /// The whole document in one builder, collections included (layers' variables, losses, train ops).
    std::unique_ptr<GraphBuilder> builder;
    /// Every built node's output tensor names, in port order ("fc1/Relu:0", "mm:0"). A layer's are
    /// the tensors its expansion returned; an optimizer layer has none. Nodes with a problem are absent.
    std::map<DocNodeId, std::vector<std::string>> tensors;
    /// Per node: why it could not be built, in the engine's words (the node was then skipped, and so
    /// were its consumers, which say which input failed). A binding that does not fit is its
    /// Input's problem too, but the Input and its consumers are built (their shapes still show).
    std::map<DocNodeId, std::string> problems;
    /// The bindings that fit, in Input node id order.
    std::vector<SourceBinding> bindings;
    /// The train ops of optimizer layers (node names), in build order.
    std::vector<std::string> targets;
    /// The name each built raw node got (the document's name unless a layer had already made a node
    /// of that name; then TensorFlow's uniquified one). Layer nodes are absent (they make many nodes).
    std::map<DocNodeId, std::string> opNames;
};

/// Builds every node in a topological order of the document's data and control edges, ready nodes
/// in ascending id order. Nodes left over on cycles (imported while loops) come next, the lowest id
/// on a cycle first; a data input whose source is not built yet is fed meanwhile by another input of
/// the same node with the same dtype (as tf.while_loop builds a Merge) and replaced once its source
/// is built (GraphBuilder::updateInput). Layer nodes cannot be on a cycle.
///
/// Raw ops go through GraphBuilder::op with their attrs ("_output_shapes" is left out: it is derived),
/// device, data inputs grouped into the OpDef's arguments and control inputs; each keeps its document
/// name unless a layer already made a node of that name. Layer nodes go through
/// layers::expandLayerNode with the node's name (TensorFlow's uniquifying may change the scope; the
/// tensors say what was built), inside the node's device and control-dependency scopes; "N" and
/// "inputs" (the port count of variadic layers, see installLayerPorts) are not passed as params.
///
/// A layer's binding ports (layers::LayerType::bindingNames) are not inputs of its expansion. Once
/// everything is built, each connected one is checked: it must come from a data-source node
/// ("port 'data' takes a component of a data-source node (MnistSource, ...); 'fc' (Dense) is not
/// one") whose component fits the placeholder (layers::checkSourceBinding); one that fits is
/// listed in `bindings`, one that does not is the Input's problem. An unconnected one is fine.
///
/// A node with an empty slot ("input 'b' is not connected"), an input from a node with a problem
/// ("input 'b' comes from 'x', which has a problem"), or a failing build (the engine's message) gets
/// a problem and is skipped, and so are its consumers. With `allowIncomplete` false, building stops
/// at the first problem (what saving needs); with true, every other node is still built so that one
/// bad node never hides the others' shapes. A failing layer may leave the nodes it made before the
/// failure in the builder (their names stay reserved, as in TensorFlow).
/// Never throws; never aborts on any document. Threads: reads the document only; GUI thread (or
/// any thread while the document does not change).
DocumentBuild buildDocument(const GraphDocument& document, const OpRegistry& ops, bool allowIncomplete);

/// The document as a GraphDef (as tf.Graph.as_graph_def() writes it, without "_output_shapes"),
/// with "init" (tf.global_variables_initializer()) added when layer nodes made variables.
/// Errors: InvalidArgument "node 'mm' cannot be built: input 'b' is not connected" for the first
/// problem in build order.
Expected<tensorflow::GraphDef> documentGraphDef(const GraphDocument& document, const OpRegistry& ops);

/// What documentGraphDef builds: the complete build ("init" added to its builder when layer nodes made
/// variables; tensors and targets as buildDocument's) and the GraphDef, for callers that need both.
struct BuiltDocumentGraph {
    DocumentBuild build;
    tensorflow::GraphDef graph;
};
/// Errors: documentGraphDef's.
Expected<BuiltDocumentGraph> buildDocumentGraph(const GraphDocument& document, const OpRegistry& ops);

/// The document as tf.train.export_meta_graph writes it after `tf.train.Saver()` and
/// `tf.global_variables_initializer()`: collections from the layers, a saver over the global
/// variables ("save/..."; over the graph's own VariableV2 nodes when no layer made variables; an
/// existing "<scope>/SaveV2" saver with its Const / control_dependency / restore_all is reused
/// instead of adding a second one; none when there is nothing to save), "init" when layer nodes
/// made variables. Errors: documentGraphDef's; buildSaverGraph's and exportMetaGraph's.
Expected<tensorflow::MetaGraphDef> documentMetaGraph(const GraphDocument& document, const OpRegistry& ops);

/// Installs on `document` the port counts of layer nodes from the layer catalogue: its inputs, then
/// its binding ports (Input's "data"), and outputs; for variadic types (Concat, Add) the node's int
/// attr "N" or "inputs" when set (1..1024), else 2; for data-source nodes one output per component
/// of their params (layerOutputNames). Unknown layer types get 1 in, 1 out. Nodes already in the
/// document keep their ports until their attrs change (the document recomputes ports then). Also
/// names the input slots after the catalogue's inputNames and bindingNames (GraphDocument::slotName:
/// "labels", "data", "values[1]" for a variadic type).
void installLayerPorts(GraphDocument& document);

} // namespace tstudio
