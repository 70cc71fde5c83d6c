// The node editor's documents as projects (.tsproj): the document written into a project (its graph
// as plain TensorFlow, its layer nodes and node positions kept for the editor, training and data
// taken from its optimizer and Dataset nodes), and the editor's state read back from a project.
#pragma once

#include "core/expected.h"
#include "document/graph_document.h"
#include "project/format/project_file.h"
#include "proto/graph.pb.h"

#include <QPointF>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::node_editor {

/// The key of the editor's state in a project's free-form settings:
///   "editor": {"version": 1,
///              "document": "<GraphDef text: the document's nodes, layer nodes marked as in a fragment>",
///              "positions": {"<node name>": [x, y], ...},
///              "collapsed": ["<name scope>", ...],
///              "auto_layout": true}
/// The project's "graph" holds the same document expanded to TensorFlow ops (what the runner and
/// TensorFlow read); "document" lets the editor reopen it with its layer nodes. "collapsed" and
/// "auto_layout" (added later; absent in older files) are the canvas's view state: the positions
/// of a graph laid out with collapsed scopes only make sense with those scopes collapsed.
inline constexpr const char* kEditorSettingsKey = "editor";
inline constexpr int kEditorSettingsVersion = 1;

/// The canvas's view state saved with the document (not part of the graph, not an edit).
struct EditorView {
    /// The name scopes shown collapsed (sorted; only scopes of the document's node names).
    std::set<std::string> collapsedScopes;
    /// The positions are the editor's automatic layout (expanding a scope lays it out again),
    /// not an arrangement by hand.
    bool autoLayout = false;
    bool operator==(const EditorView&) const = default;
};

/// A new project's settings for a document that was never part of one: named `name`, batch size
/// 100, 1,000 steps, log directory "runs/<name>", CPU, no data sources and no training set-up (the
/// document's optimizer node gives that).
project::Project newProject(const std::string& name);

/// `base` with the document in it:
///  - graph: the document as documentGraphDef builds it, inline as text ("pbtxt"); but base's graph
///    file stays when the document builds exactly its graph (ignoring "_output_shapes" and the nodes'
///    order), so that a MetaGraphDef's collections (while-loop contexts, queue runners, summaries)
///    stay with it;
///  - settings.editor: the document's nodes and positions, and `view` (kEditorSettingsKey);
///  - training: from the document's optimizer node (palette group "Training"), when it has one: its
///    train op, the loss it minimises (the tensor on its input), the global step ("Variable":
///    the variable its train op increments) and "init"; else base's set-up, whose loss or train op
///    must name a node of the graph;
///  - data: a Dataset node gets an "mnist" source (its labels and scale) feeding "<scope>/images"
///    and "<scope>/labels", unless one of base's sources feeds those placeholders already. A
///    data-source node (MnistSource, SpiralsSource, ImageFolderSource, NumpySource, CsvSource,
///    TfRecordSource; layers/data_source_nodes.h) gets the source of its kind ("mnist",
///    "two_spirals", "image_folder", "numpy", "csv", "tfrecord") with its params, feeding
///    {"<scope>/<component>": ["<component>"]}; it replaces a source of base that feeds those
///    placeholders (keeping its shuffle settings), so node and project always agree. An Input node
///    whose "data" port is connected to a component (DocumentBuild::bindings) is fed that
///    component by the same source: {"input": ["images"]} beside {"mnist/images": ["images"]}.
///    The source's own placeholder is still built and fed when only bindings use it: the node's
///    ports, previews and shapes are that placeholder's, editorState finds the node's source by it,
///    a component may be bound and wired into layers at once, and feeding a placeholder that no
///    fetch needs costs nothing (Session::Run prunes it, as TensorFlow does; the batch tensor is
///    shared, not copied). A feed of those placeholders in another source of base (an Input fed by
///    hand before it was bound) is dropped, and a source left without feeds goes with it. The
///    summaries and eval splits that name base's sources by index follow them to their new index
///    (an eval split is cut again from the source as it is now).
/// Errors (InvalidArgument unless said): documentGraphDef's ("node 'mm' cannot be built: input 'b'
/// is not connected"); "the graph has no optimizer node, so a project cannot train it: add one
/// from the palette's Training group (it names the loss to minimise)"; "the graph has 2 optimizer
/// nodes ('a', 'b'); a project trains one train op"; "optimizer 'train' has global_step 'none';
/// the training loop counts steps on a global step: set global_step to global_step or Variable";
/// "training.loss: 'x:0' is not in the graph any more"; a data-source node's: "node 'data'
/// (NumpySource): param 'files' is empty; set the files to read", "node 'data' (NumpySource): file
/// 'a.npy' gives the component 'a' but param 'components' names 'x' in its place", the component
/// list errors of layers::dataSourceComponents; a binding that does not fit: "node 'input' cannot be
/// built: Input 'input' is float32 [?,784] but port 'images' of 'mnist' is uint8 [?,784]: ...";
/// "summaries[0] reads data.sources[1], whose placeholders are now fed by a data-source node; ..."
/// (that source was dropped), "eval.sources[0] splits data.sources[0], now a two_spirals source; ...".
Expected<project::Project> documentProject(const GraphDocument& document, const OpRegistry& ops,
                                           project::Project base, const EditorView& view = {});

/// The project data source a data-source node stands for (layers/data_source_nodes.h): the source
/// of its kind with the node's params (missing ones take their defaults), feeding
/// {"<node name>/<component>": ["<component>"]} - the placeholders the node's expansion makes
/// unless TensorFlow's uniquifying renamed its scope (documentProject feeds the built names and
/// adds the Input nodes bound to the node).
/// Reads no file. Errors (InvalidArgument): layers::dataSourceComponents'; "node 'data'
/// (NumpySource): param 'files' is empty; set the files to read"; "node 'data' (ImageFolderSource):
/// param 'dir' is empty; set the folder of class folders"; "node 'data' (NumpySource): file 'a.npy'
/// gives the component 'a' but param 'components' names 'x' in its place"; "node 'data'
/// (CsvSource): 'f' has the default 'abc', which is not a number"; "node 'x' (Dense) is not a
/// data-source node".
Expected<project::DataSource> dataSourceOfNode(const DocNode& node);

/// What the editor shows for a project.
struct EditorState {
    /// The document's nodes (layer nodes marked) when the saved editor state still describes the
    /// project's graph; else the project's graph itself.
    tensorflow::GraphDef graph;
    /// By node name; nodes without a position are laid out automatically.
    std::map<std::string, QPointF> positions;
    /// True when `graph` is the saved document with its layer nodes.
    bool layersKept = false;
    /// The saved view state; nullopt when the project has none (saved before it was kept, or
    /// never by the editor), so the editor chooses.
    std::optional<EditorView> view;
    /// Why the saved state was (partly) not used, for the user.
    std::vector<std::string> warnings;
};

/// Reads a project's graph (inline or its file, a MetaGraphDef's graph for .meta) and the editor
/// state in its settings. The saved document is used only when it builds into exactly the
/// project's graph; otherwise (the graph was edited outside the editor) the graph is shown with
/// the positions of the nodes whose names it still has, and a warning says so. Data-source nodes
/// take their params back from the project's sources feeding their placeholders (what the Training
/// panel or --set changed there), unless that would change the graph (then a warning says so and
/// the saved params stay). Errors: the graph
/// file's (naming it), "<project>: graph.pbtxt: ..." for inline text that does not parse.
Expected<EditorState> editorState(const project::Project& project, const OpRegistry& ops);

} // namespace tstudio::node_editor
