// GraphDocument: the node editor's model, an ID-based graph of raw TensorFlow ops and layer nodes.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "proto/attr_value.pb.h"
#include "proto/graph.pb.h"

#include <QMetaType>
#include <QObject>
#include <QPointF>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

class QUndoStack;

namespace tstudio {

class OpRegistry;

/// A node's identity in one document: handed out from 1 upwards and never given to another node
/// of the same document (undo restores a removed node under its old id). 0 means "no node".
/// (Not "NodeId": the engine's graph.h uses that name for its own node indices.)
using DocNodeId = std::uint64_t;
inline constexpr DocNodeId kNoNode = 0;

enum class NodeKind { kOp, kLayer };

/// One data input slot: empty (source == kNoNode) or fed by output `output` of node `source`.
struct InputSlot {
    DocNodeId source = kNoNode;
    int output = 0;
    bool isConnected() const { return source != kNoNode; }
    bool operator==(const InputSlot&) const = default;
};

/// An edge. Data edges: output `output` of `from` feeds slot `slot` of `to`. Control edges have
/// output == slot == kControl.
struct Connection {
    static constexpr int kControl = -1;
    DocNodeId from = kNoNode;
    int output = 0;
    DocNodeId to = kNoNode;
    int slot = 0;
    bool isControl() const { return slot == kControl; }
    static Connection control(DocNodeId from, DocNodeId to) { return {from, kControl, to, kControl}; }
    auto operator<=>(const Connection&) const = default;
};

/// A node as the document stores it. Read through GraphDocument::node(); change only through
/// the document's mutators (better: the undo commands of document_commands.h).
struct DocNode {
    DocNodeId id = kNoNode;
    std::string name; ///< unique in the document; "a/b" lies in scope "a"
    NodeKind kind = NodeKind::kOp;
    std::string type;                                   ///< op type ("MatMul") or layer type ("Dense")
    std::map<std::string, tensorflow::AttrValue> attrs; ///< op attrs, or a layer's parameters
    std::string device;
    QPointF position;
    std::vector<InputSlot> inputs; ///< one per data input tensor, in OpDef order
    std::set<DocNodeId> controlInputs;
    int outputs = 0; ///< number of output tensors
};

/// Slot and output counts of a layer node, supplied by the editor (GraphDocument::setLayerPorts).
struct PortCounts {
    int inputs = 1;
    int outputs = 1;
};

/// What a new node is made of (AddNode); the document gives it an id and its ports.
struct NodeSpec {
    NodeKind kind = NodeKind::kOp;
    std::string type;
    std::string name; ///< must be a valid, free name
    std::map<std::string, tensorflow::AttrValue> attrs;
    std::string device;
    QPointF position;
    /// Port counts for an op the registry does not know (required then; ignored otherwise).
    std::optional<PortCounts> ports;
};

/// In a GraphDef fragment (copy/paste, see GraphDocument::fragment), a NodeDef carrying this attr
/// (bool true) stands for a layer node: op() is the layer type and the other attrs its parameters.
inline constexpr std::string_view kLayerMarkerAttr = "_tstudio_layer";
/// In a fragment, the indices of empty input slots (list(int)); the NodeDef's data inputs fill the
/// other slots in order.
inline constexpr std::string_view kEmptySlotsAttr = "_tstudio_empty_slots";

struct ToGraphDefOptions {
    /// When false (default) an empty input slot of a raw op is an error; when true the slot is
    /// left out of the NodeDef (useful to save work in progress; the GraphDef is then invalid).
    bool allowUnconnected = false;
};

/// The node editor's graph model (QtNodes' AbstractGraphModel in spirit): nodes by stable id,
/// connections by id, one fine-grained signal per change, and the QUndoStack of its commands.
///
/// Ports: a raw op's input slots and outputs come from its OpDef and attrs (`N * T` and
/// `list(type)` arguments expand; an attr that is missing falls back to its default, then to its
/// minimum, then to 1); an op the registry does not know keeps the counts it was created with.
/// Layer nodes ask layerPorts (default: 1 in, 1 out). Changing an attr recomputes the ports and
/// drops connections to slots or from outputs that no longer exist.
///
/// The mutators below are public for the undo commands; each checks its arguments, leaves the
/// document unchanged when it returns an error, and emits its signal after the change. Code other
/// than the commands should push commands instead so that every edit can be undone.
///
/// Threads: GUI thread only. The OpRegistry must outlive the document and not change meanwhile.
class GraphDocument : public QObject {
    Q_OBJECT
public:
    explicit GraphDocument(const OpRegistry* ops, QObject* parent = nullptr);
    ~GraphDocument() override;

    const OpRegistry* opRegistry() const { return m_ops; }
    QUndoStack* undoStack() const { return m_undoStack; }

    /// Port counts of layer nodes; set by the editor before layer nodes are added.
    void setLayerPorts(std::function<PortCounts(const DocNode&)> layerPorts);
    /// Names of a layer node's input slots ("labels", "values[1]"), set by the editor; "" falls back to
    /// "input N".
    void setLayerSlotNames(std::function<std::string(const DocNode&, int slot)> slotNames);
    /// Expands one layer node into NodeDefs appended to the GraphDef (toGraphDef).
    void setLayerExpander(std::function<Status(const DocNode&, tensorflow::GraphDef&)> expander);
    /// The GraphDef tensor name of a layer node's output (what raw consumers write as input), e.g.
    /// "dense/BiasAdd:0"; default: the node name with ":k" for k > 0, as for raw ops.
    void setLayerOutputTensor(std::function<std::string(const DocNode&, int output)> outputTensor);

    // ---- queries ----
    /// Every node id, ascending (creation order).
    std::vector<DocNodeId> nodes() const;
    std::size_t nodeCount() const { return m_nodes.size(); }
    /// The node, or nullptr.
    const DocNode* node(DocNodeId id) const;
    /// The node named `name` (case-sensitive, as GraphDef names), or kNoNode.
    DocNodeId findByName(std::string_view name) const;
    /// The data and control connections feeding `id`, data slots first in slot order.
    std::vector<Connection> inputsOf(DocNodeId id) const;
    /// The data and control connections leaving `id`, in (to, slot) order, data before control per node.
    std::vector<Connection> consumersOf(DocNodeId id) const;
    /// True when `c` is currently in the document.
    bool hasConnection(const Connection& c) const;
    /// Every connection, ordered by (to, slot): data slots, then control inputs.
    std::vector<Connection> connections() const;

    /// Name of input slot `slot`: the OpDef argument ("b"; "values[1]" inside a list argument), a layer's
    /// port name from setLayerSlotNames ("labels"), else "input N" (unknown ops and layer types). Empty
    /// for a slot that does not exist.
    std::string slotName(DocNodeId id, int slot) const;
    /// The tensor name of output `output` for messages, "node:0" (layers: node name too).
    std::string tensorName(DocNodeId id, int output) const;
    /// The name consumers write in a NodeDef input: "node", "node:1", or the layer's output tensor.
    std::string inputString(DocNodeId id, int output) const;
    /// The dtype of an output where the OpDef and the attrs (with defaults, and type attrs taken
    /// from the connected inputs) determine it; DT_INVALID when unknown (layers, unknown ops, unset attrs).
    DataType outputType(DocNodeId id, int output) const;

    /// Whether output `output` of `from` may feed slot `slot` of `to` (an occupied slot would be
    /// replaced). Errors (InvalidArgument unless said): NotFound for a missing node; an output or
    /// slot out of range; "would create a cycle"; a dtype mismatch where both sides are known:
    /// "Cannot connect float32 output 'x:0' to input 'b' of 'mm' which expects int32"; a ref
    /// input fed by a non-ref tensor ("... which expects float32_ref").
    Status canConnect(DocNodeId from, int output, DocNodeId to, int slot) const;
    /// Whether `from` may become a control input of `to`: both exist, differ, no cycle, not present.
    Status canConnectControl(DocNodeId from, DocNodeId to) const;

    /// Ok for a valid node name (TF's [A-Za-z0-9.][A-Za-z0-9_.\-/]*) not taken by another node than `except`.
    Status checkName(std::string_view name, DocNodeId except = kNoNode) const;
    /// `base` when it is free, else the first free of base_1, base_2, ... ; `reserved` counts as taken.
    std::string uniqueName(std::string_view base, const std::set<std::string>* reserved = nullptr) const;
    /// True when a node is named `scope` or lies inside it ("scope/...").
    bool scopeInUse(std::string_view scope) const;

    // ---- mutators (for the commands) ----
    /// Adds a node with its ports and no connections. `id` kNoNode takes the next free id; a given
    /// id must not be in use (restoring a removed node). Errors: bad or taken name, empty type.
    Expected<DocNodeId> addNode(const NodeSpec& spec, DocNodeId id = kNoNode);
    /// Removes a node after disconnecting everything attached to it (disconnected signals first).
    Status removeNode(DocNodeId id);
    Status moveNode(DocNodeId id, QPointF position);
    /// Renames several nodes at once (the final names must be valid and unique; intermediate
    /// clashes among them are fine). Emits nodeRenamed per node whose name changes.
    Status renameNodes(const std::vector<std::pair<DocNodeId, std::string>>& renames);
    /// Sets (value) or removes (nullopt) an attr, then recomputes the ports (nodePortsChanged when
    /// they change, after disconnected for each connection that no longer fits).
    Status setAttr(DocNodeId id, const std::string& name, const std::optional<tensorflow::AttrValue>& value);
    Status setDevice(DocNodeId id, const std::string& device);
    /// Connects a data edge (replacing the slot's source; disconnected is emitted for that first) or
    /// a control edge. Checks only existence and ranges, not dtypes or cycles (see canConnect):
    /// imported graphs (while loops) have cycles.
    Status connect(const Connection& c);
    /// Removes a connection that is present.
    Status disconnect(const Connection& c);
    /// Positions set without undo (loading a project); unknown names are ignored.
    void setPositions(const std::map<std::string, QPointF>& positions);
    /// Removes everything, clears the undo stack; emits reset().
    void clear();

    // ---- GraphDef ----
    /// One NodeDef per raw node in id order ("src", "src:1", "^ctrl" inputs; attrs; device), type
    /// and number attrs that have no default and are unset filled in from the connections; layer
    /// nodes through the layer expander (FailedPrecondition when there is one and no expander).
    Expected<tensorflow::GraphDef> toGraphDef(const ToGraphDefOptions& options = {}) const;
    /// Replaces the document with the raw nodes of `graph` (clears the undo stack, emits reset()).
    /// NodeDefs marked with kLayerMarkerAttr become layer nodes. Inputs naming unknown nodes or
    /// outputs, and data inputs beyond the node's slots, are left empty and reported in the
    /// returned warnings. Errors (document unchanged): an invalid or duplicate node name, an
    /// unparsable input string.
    Expected<std::vector<std::string>> fromGraphDef(const tensorflow::GraphDef& graph,
                                                    const std::map<std::string, QPointF>& positions = {});
    /// A copy of the nodes `ids` (raw nodes as NodeDefs, layer nodes marked) with the inputs they
    /// have, including those from nodes outside the set, for the clipboard (PasteCommand).
    tensorflow::GraphDef fragment(const std::set<DocNodeId>& ids) const;
    /// Positions by node name, for the project file.
    std::map<std::string, QPointF> positions() const;

signals:
    void nodeAdded(tstudio::DocNodeId id);
    void nodeRemoved(tstudio::DocNodeId id);
    void nodeMoved(tstudio::DocNodeId id);
    void nodeRenamed(tstudio::DocNodeId id, const QString& oldName, const QString& newName);
    void attrChanged(tstudio::DocNodeId id, const QString& name);
    void deviceChanged(tstudio::DocNodeId id);
    void nodePortsChanged(tstudio::DocNodeId id);
    void connected(const tstudio::Connection& connection);
    void disconnected(const tstudio::Connection& connection);
    void controlConnected(tstudio::DocNodeId from, tstudio::DocNodeId to);
    void controlDisconnected(tstudio::DocNodeId from, tstudio::DocNodeId to);
    void reset();

private:
    PortCounts portsFor(const DocNode& node) const;
    /// The node's attrs plus defaults plus type/number attrs inferred from its inputs (depth-limited;
    /// slot `skipSlot` is ignored, as if it were being reconnected).
    std::map<std::string, tensorflow::AttrValue> effectiveAttrs(const DocNode& node, int depth,
                                                                int skipSlot = -1) const;
    DataType outputTypeAt(DocNodeId id, int output, int depth) const;
    bool reaches(DocNodeId from, DocNodeId target) const;
    void eraseConsumer(const Connection& c);

    const OpRegistry* m_ops;
    QUndoStack* m_undoStack;
    std::function<PortCounts(const DocNode&)> m_layerPorts;
    std::function<Status(const DocNode&, tensorflow::GraphDef&)> m_layerExpander;
    std::function<std::string(const DocNode&, int)> m_layerOutputTensor;
    std::function<std::string(const DocNode&, int)> m_layerSlotNames;
    std::map<DocNodeId, DocNode> m_nodes;
    std::unordered_map<std::string, DocNodeId> m_byName;
    std::unordered_map<DocNodeId, std::set<Connection>> m_consumers; // every edge leaving a node
    DocNodeId m_nextId = 1;
};

} // namespace tstudio

Q_DECLARE_METATYPE(tstudio::Connection)
