// Tests for GraphDocument and its undo commands: ports, connection checks, every command's do/undo/redo,
// drag merging, GraphDef round trips (the book's MNIST .meta), and 1,000 random edits against a replay.
#include "document/document_commands.h"
#include "document/graph_document.h"

#include "../../support/test_files.h"
#include "framework/op_registry.h"
#include "model/meta_graph.h"
#include "registries/register_all_ops.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <functional>
#include <sstream>

using namespace tstudio;

namespace {

tensorflow::AttrValue typeAttr(DataType t)
{
    tensorflow::AttrValue v;
    v.set_type(t);
    return v;
}

tensorflow::AttrValue intAttr(long long i)
{
    tensorflow::AttrValue v;
    v.set_i(i);
    return v;
}

/// Everything the document holds, by id: any difference in nodes, attrs, connections, ports or
/// positions shows up.
std::string dumpById(const GraphDocument& doc)
{
    std::ostringstream out;
    for (DocNodeId id : doc.nodes()) {
        const DocNode& n = *doc.node(id);
        out << id << ' ' << n.name << ' ' << int(n.kind) << ' ' << n.type << " dev=" << n.device << " pos=("
            << n.position.x() << ',' << n.position.y() << ") out=" << n.outputs << " in=[";
        for (const InputSlot& s : n.inputs)
            out << (s.isConnected() ? std::to_string(s.source) + ":" + std::to_string(s.output) : "-") << ' ';
        out << "] ctrl=[";
        for (DocNodeId c : n.controlInputs)
            out << c << ' ';
        out << "] attrs={";
        for (const auto& [name, value] : n.attrs)
            out << name << ':' << value.ShortDebugString() << ';';
        out << "}\n";
    }
    return out.str();
}

/// The same by name (ids differ between a document and its replay).
std::string dumpByName(const GraphDocument& doc)
{
    std::map<std::string, std::string> lines;
    for (DocNodeId id : doc.nodes()) {
        const DocNode& n = *doc.node(id);
        std::ostringstream out;
        out << int(n.kind) << ' ' << n.type << " dev=" << n.device << " pos=(" << n.position.x() << ','
            << n.position.y() << ") out=" << n.outputs << " in=[";
        for (const InputSlot& s : n.inputs)
            out << (s.isConnected() ? doc.node(s.source)->name + ":" + std::to_string(s.output) : "-") << ' ';
        std::set<std::string> controls;
        for (DocNodeId c : n.controlInputs)
            controls.insert(doc.node(c)->name);
        out << "] ctrl=[";
        for (const auto& c : controls)
            out << c << ' ';
        out << "] attrs={";
        for (const auto& [name, value] : n.attrs)
            out << name << ':' << value.ShortDebugString() << ';';
        out << '}';
        lines[n.name] = out.str();
    }
    std::string all;
    for (const auto& [name, line] : lines)
        all += name + " " + line + "\n";
    return all;
}

/// The consumer index agrees with the slots, and names with the name index.
bool consistent(const GraphDocument& doc)
{
    std::size_t fromConsumers = 0;
    for (DocNodeId id : doc.nodes()) {
        if (doc.findByName(doc.node(id)->name) != id)
            return false;
        for (const Connection& c : doc.consumersOf(id)) {
            if (c.from != id || !doc.hasConnection(c))
                return false;
            ++fromConsumers;
        }
    }
    return fromConsumers == doc.connections().size();
}

template <typename T> T* pushed(GraphDocument& doc, Expected<std::unique_ptr<T>> command)
{
    if (!command)
        return nullptr;
    T* raw = command->release();
    doc.undoStack()->push(raw);
    return raw;
}

DocNodeId addOp(GraphDocument& doc, const std::string& type, const std::string& name,
             std::map<std::string, tensorflow::AttrValue> attrs = {})
{
    NodeSpec spec;
    spec.type = type;
    spec.name = name;
    spec.attrs = std::move(attrs);
    auto* command = pushed(doc, AddNodeCommand::create(&doc, spec));
    return command ? command->nodeId() : kNoNode;
}

bool link(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot)
{
    return pushed(doc, ConnectCommand::create(&doc, {from, output, to, slot})) != nullptr;
}

} // namespace

class TestGraphDocument : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(registerAllOps(m_ops).isOk()); }

    void portsFollowOpDefAndAttrs()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId mm = addOp(doc, "MatMul", "mm");
        QCOMPARE(doc.node(mm)->inputs.size(), std::size_t(2));
        QCOMPARE(doc.node(mm)->outputs, 1);
        QCOMPARE(doc.slotName(mm, 1), std::string("b"));
        const DocNodeId addn = addOp(doc, "AddN", "sum", {{"N", intAttr(3)}, {"T", typeAttr(tensorflow::DT_FLOAT)}});
        QCOMPARE(doc.node(addn)->inputs.size(), std::size_t(3));
        QCOMPARE(doc.slotName(addn, 2), std::string("inputs[2]"));
        const DocNodeId split = addOp(doc, "Split", "split", {{"num_split", intAttr(4)}});
        QCOMPARE(doc.node(split)->inputs.size(), std::size_t(2));
        QCOMPARE(doc.node(split)->outputs, 4);
        // Layers ask the editor's function; the default is 1 in / 1 out.
        NodeSpec layer{NodeKind::kLayer, "Dense", "dense", {}, {}, {}, {}};
        auto* add = pushed(doc, AddNodeCommand::create(&doc, layer));
        QVERIFY(add);
        QCOMPARE(doc.node(add->nodeId())->inputs.size(), std::size_t(1));
        doc.setLayerPorts([](const DocNode& n) { return PortCounts{n.type == "Concat" ? 3 : 1, 2}; });
        layer.type = "Concat";
        layer.name = "concat";
        add = pushed(doc, AddNodeCommand::create(&doc, layer));
        QCOMPARE(doc.node(add->nodeId())->inputs.size(), std::size_t(3));
        QCOMPARE(doc.node(add->nodeId())->outputs, 2);
        // An op the registry does not know is refused when made by hand.
        NodeSpec unknown{NodeKind::kOp, "NoSuchOp", "x", {}, {}, {}, {}};
        const auto refused = AddNodeCommand::create(&doc, unknown);
        QVERIFY(!refused);
        QCOMPARE(refused.error().message(), std::string("Op type not registered 'NoSuchOp'"));
    }

    void setAttrResizesSlotsUndoably()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId x = addOp(doc, "Placeholder", "x", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId sum = addOp(doc, "AddN", "sum", {{"N", intAttr(3)}, {"T", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId split =
            addOp(doc, "Split", "split", {{"num_split", intAttr(3)}, {"T", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId dim = addOp(doc, "Const", "dim", {{"dtype", typeAttr(tensorflow::DT_INT32)}});
        QVERIFY(link(doc, dim, 0, split, 0));
        QVERIFY(link(doc, x, 0, split, 1));
        for (int i = 0; i < 3; ++i)
            QVERIFY(link(doc, split, i, sum, i));
        const std::string before = dumpById(doc);
        QSignalSpy ports(&doc, &GraphDocument::nodePortsChanged);
        QSignalSpy gone(&doc, &GraphDocument::disconnected);
        QVERIFY(pushed(doc, SetAttrCommand::create(&doc, sum, "N", intAttr(2))));
        QCOMPARE(doc.node(sum)->inputs.size(), std::size_t(2));
        QCOMPARE(gone.count(), 1);
        QCOMPARE(ports.count(), 1);
        // Shrinking the outputs drops the consumer of split:2 and split:1.
        QVERIFY(pushed(doc, SetAttrCommand::create(&doc, split, "num_split", intAttr(1))));
        QCOMPARE(doc.node(split)->outputs, 1);
        QCOMPARE(doc.consumersOf(split).size(), std::size_t(1));
        const std::string after = dumpById(doc);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(dumpById(doc), before);
        doc.undoStack()->redo();
        doc.undoStack()->redo();
        QCOMPARE(dumpById(doc), after);
        QVERIFY(consistent(doc));
    }

    void everyCommandDoesUndoesRedoes()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId x = addOp(doc, "Placeholder", "x", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId w = addOp(doc, "VariableV2", "w", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId mm = addOp(doc, "MatMul", "mm", {{"T", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId relu = addOp(doc, "Relu", "relu", {{"T", typeAttr(tensorflow::DT_FLOAT)}});
        QVERIFY(link(doc, x, 0, mm, 0));
        QVERIFY(link(doc, w, 0, mm, 1));
        QVERIFY(link(doc, mm, 0, relu, 0));
        QVERIFY(pushed(doc, ConnectCommand::create(&doc, Connection::control(x, relu))));
        std::vector<std::function<QUndoCommand*()>> makers = {
            [&] {
                return pushed(doc, MoveNodesCommand::create(&doc, {{mm, QPointF(10, 20)}, {x, QPointF(-5, 3)}}));
            },
            [&] { return pushed(doc, RenameCommand::create(&doc, mm, "dense/MatMul")); },
            [&] {
                return pushed(doc, SetAttrCommand::create(&doc, mm, "transpose_a", [] {
                                  tensorflow::AttrValue v;
                                  v.set_b(true);
                                  return v;
                              }()));
            },
            [&] { return pushed(doc, SetAttrCommand::create(&doc, mm, "T", std::nullopt)); },
            [&] { return pushed(doc, SetDeviceCommand::create(&doc, relu, "/device:GPU:0")); },
            [&] {
                return pushed(doc, DisconnectCommand::create(&doc, {w, 0, mm, 1}));
            },
            [&] { return pushed(doc, DisconnectCommand::create(&doc, Connection::control(x, relu))); },
            [&] {
                return pushed(doc, ConnectCommand::create(&doc, {x, 0, mm, 1}));
            }, // replaces w:0
            [&] { return pushed(doc, RemoveNodesCommand::create(&doc, {mm})); },
            [&] {
                return pushed(doc, RemoveNodesCommand::create(&doc, {x, relu}));
            },
            [&] {
                return pushed(doc, GroupIntoScopeCommand::create(&doc, {mm, relu}, "layer"));
            },
            [&] {
                return pushed(doc, AddNodeCommand::create(&doc, NodeSpec{NodeKind::kOp, "Relu", "r2", {}, {}, {}, {}}));
            },
            [&] {
                return pushed(doc, PasteCommand::create(&doc, doc.fragment({x, mm, relu}), doc.positions(), {5, 5}));
            },
        };
        for (std::size_t i = 0; i < makers.size(); ++i) {
            const std::string before = dumpById(doc);
            QUndoCommand* command = makers[i]();
            QVERIFY2(command, qPrintable(QString("command %1").arg(i)));
            const std::string after = dumpById(doc);
            QVERIFY2(after != before, qPrintable(QString("command %1 changed nothing").arg(i)));
            doc.undoStack()->undo();
            QCOMPARE(dumpById(doc), before);
            QVERIFY(consistent(doc));
            doc.undoStack()->redo();
            QCOMPARE(dumpById(doc), after);
            doc.undoStack()->undo(); // leave the document as it was for the next command
            QCOMPARE(dumpById(doc), before);
        }
        // Ungroup (needs a group first).
        QVERIFY(pushed(doc, GroupIntoScopeCommand::create(&doc, {mm, relu}, "a/b")));
        QCOMPARE(doc.node(mm)->name, std::string("a/b/mm"));
        const std::string grouped = dumpById(doc);
        QVERIFY(pushed(doc, UngroupCommand::create(&doc, "a/b")));
        QCOMPARE(doc.node(mm)->name, std::string("a/mm"));
        QCOMPARE(doc.node(relu)->name, std::string("a/relu"));
        doc.undoStack()->undo();
        QCOMPARE(dumpById(doc), grouped);
    }

    void removeRestoresConnectionsExactly()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId x = addOp(doc, "Placeholder", "x", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId a = addOp(doc, "Identity", "a", {{"T", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId s = addOp(doc, "AddN", "s", {{"N", intAttr(3)}, {"T", typeAttr(tensorflow::DT_FLOAT)}});
        QVERIFY(link(doc, x, 0, a, 0));
        QVERIFY(link(doc, a, 0, s, 0));
        QVERIFY(link(doc, x, 0, s, 1));
        QVERIFY(link(doc, a, 0, s, 2));
        QVERIFY(pushed(doc, ConnectCommand::create(&doc, Connection::control(a, s))));
        const std::string before = dumpById(doc);
        QSignalSpy removed(&doc, &GraphDocument::nodeRemoved);
        QVERIFY(pushed(doc, RemoveNodesCommand::create(&doc, {a})));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(doc.node(s)->inputs[0].isConnected(), false);
        QCOMPARE(doc.node(s)->inputs[1].source, x);
        doc.undoStack()->undo();
        QCOMPARE(dumpById(doc), before);
        QCOMPARE(doc.node(a)->name, std::string("a")); // the same id again
        // Ids are never handed out twice.
        const DocNodeId next = addOp(doc, "Identity", "b", {});
        QVERIFY(next > s);
        doc.undoStack()->undo();
        QCOMPARE(addOp(doc, "Identity", "b", {}), next + 1);
    }

    void dragsMerge()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId a = addOp(doc, "NoOp", "a");
        const DocNodeId b = addOp(doc, "NoOp", "b");
        const int base = doc.undoStack()->count();
        for (int i = 1; i <= 5; ++i)
            QVERIFY(pushed(doc, MoveNodesCommand::create(&doc, {{a, QPointF(i, i)}, {b, QPointF(-i, 0)}})));
        QCOMPARE(doc.undoStack()->count(), base + 1);
        QCOMPARE(doc.node(a)->position, QPointF(5, 5));
        QVERIFY(pushed(doc, MoveNodesCommand::create(&doc, {{a, QPointF(9, 9)}}))); // another set: no merge
        QCOMPARE(doc.undoStack()->count(), base + 2);
        doc.undoStack()->undo();
        QCOMPARE(doc.node(a)->position, QPointF(5, 5));
        doc.undoStack()->undo();
        QCOMPARE(doc.node(a)->position, QPointF(0, 0));
        QCOMPARE(doc.node(b)->position, QPointF(0, 0));
        doc.undoStack()->redo();
        QCOMPARE(doc.node(b)->position, QPointF(-5, 0));
    }

    void namesStayUnique()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId x = addOp(doc, "NoOp", "x");
        QCOMPARE(addOp(doc, "NoOp", "x"), kNoNode);
        QVERIFY(RenameCommand::create(&doc, x, "9/ok")); // digits may start a name
        const auto invalid = RenameCommand::create(&doc, x, "_x");
        QVERIFY(!invalid);
        QVERIFY(QString::fromStdString(invalid.error().message()).contains("not a valid node name"));
        auto* p1 = pushed(doc, PasteCommand::create(&doc, doc.fragment({x})));
        auto* p2 = pushed(doc, PasteCommand::create(&doc, doc.fragment({x})));
        QCOMPARE(doc.node(p1->pastedIds()[0])->name, std::string("x_1"));
        QCOMPARE(doc.node(p2->pastedIds()[0])->name, std::string("x_2"));
        auto* g1 = pushed(doc, GroupIntoScopeCommand::create(&doc, {x}, "g"));
        auto* g2 = pushed(doc, GroupIntoScopeCommand::create(&doc, {p1->pastedIds()[0]}, "g"));
        QCOMPARE(g1->scope(), std::string("g"));
        QCOMPARE(g2->scope(), std::string("g_1"));
        QCOMPARE(doc.node(p1->pastedIds()[0])->name, std::string("g_1/x_1"));
        // Ungrouping g: "g/x" -> "x"; Ungrouping g_1 then: "x_1" is free again -> "x_1".
        const DocNodeId other = addOp(doc, "NoOp", "y");
        QVERIFY(pushed(doc, RenameCommand::create(&doc, other, "x")));
        QVERIFY(pushed(doc, UngroupCommand::create(&doc, "g")));
        QCOMPARE(doc.node(x)->name, std::string("x_1")); // "x" is taken by the other node, x_1 is free
        QVERIFY(pushed(doc, UngroupCommand::create(&doc, "g_1")));
        QCOMPARE(doc.node(p1->pastedIds()[0])->name, std::string("x_1_1"));
        std::set<std::string> names;
        for (DocNodeId id : doc.nodes())
            QVERIFY(names.insert(doc.node(id)->name).second);
    }

    void canConnectGivesReasons()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId x = addOp(doc, "Placeholder", "x", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId i = addOp(doc, "Placeholder", "i", {{"dtype", typeAttr(tensorflow::DT_INT32)}});
        const DocNodeId s = addOp(doc, "Placeholder", "s", {{"dtype", typeAttr(tensorflow::DT_STRING)}});
        const DocNodeId mmInt = addOp(doc, "MatMul", "MatMul", {{"T", typeAttr(tensorflow::DT_INT32)}});
        QCOMPARE(QString::fromStdString(doc.canConnect(x, 0, mmInt, 1).message()),
                 QString("Cannot connect float32 output 'x:0' to input 'b' of 'MatMul' which expects int32"));
        QVERIFY(doc.canConnect(i, 0, mmInt, 1).isOk());
        // T unset: the allowed list decides, then the first connected input fixes T.
        const DocNodeId mm = addOp(doc, "MatMul", "mm");
        QCOMPARE(QString::fromStdString(doc.canConnect(s, 0, mm, 0).message()),
                 QString("Cannot connect string output 's:0' to input 'a' of 'mm' which expects one of "
                         "bfloat16, float16, float32, float64, int32, int64, complex64, complex128"));
        QVERIFY(link(doc, x, 0, mm, 0));
        QCOMPARE(QString::fromStdString(doc.canConnect(i, 0, mm, 1).message()),
                 QString("Cannot connect int32 output 'i:0' to input 'b' of 'mm' which expects float32"));
        QCOMPARE(doc.outputType(mm, 0), tensorflow::DT_FLOAT); // inferred through a
        // Replacing the only typed input is judged without it.
        QVERIFY(doc.canConnect(i, 0, mm, 0).isOk());
        // Ref inputs need a ref-typed source.
        const DocNodeId assign = addOp(doc, "Assign", "assign", {{"T", typeAttr(tensorflow::DT_FLOAT)}});
        QCOMPARE(QString::fromStdString(doc.canConnect(x, 0, assign, 0).message()),
                 QString("Cannot connect float32 output 'x:0' to input 'ref' of 'assign' which expects float32_ref"));
        const DocNodeId v = addOp(doc, "VariableV2", "v", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}, {"shape", {}}});
        QVERIFY(doc.canConnect(v, 0, assign, 0).isOk());
        QVERIFY(doc.canConnect(v, 0, mm, 1).isOk()); // a ref feeds a value input
        // Cycles, ranges, control edges.
        const DocNodeId r = addOp(doc, "Relu", "r", {{"T", typeAttr(tensorflow::DT_FLOAT)}});
        QVERIFY(link(doc, mm, 0, r, 0));
        QCOMPARE(QString::fromStdString(doc.canConnect(r, 0, mm, 1).message()),
                 QString("Connecting 'r:0' to 'mm' would create a cycle"));
        QCOMPARE(QString::fromStdString(doc.canConnectControl(r, i).message()), QString());
        QCOMPARE(QString::fromStdString(doc.canConnectControl(r, x).message()),
                 QString("A control edge from 'r' to 'x' would create a cycle"));
        QVERIFY(doc.canConnectControl(r, mm).message().find("would create a cycle") != std::string::npos);
        QCOMPARE(QString::fromStdString(doc.canConnect(x, 1, r, 0).message()),
                 QString("Node 'x' has no output 1 (it has 1)"));
        QCOMPARE(QString::fromStdString(doc.canConnect(x, 0, r, 1).message()),
                 QString("Node 'r' has no input slot 1 (it has 1)"));
        QVERIFY(!ConnectCommand::create(&doc, {x, 0, mmInt, 0}));
    }

    void graphDefOutput()
    {
        GraphDocument doc(&m_ops);
        const DocNodeId x = addOp(doc, "Placeholder", "x", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}});
        const DocNodeId split = addOp(doc, "Split", "split", {{"num_split", intAttr(2)}});
        const DocNodeId dim = addOp(doc, "Const", "dim", {{"dtype", typeAttr(tensorflow::DT_INT32)}});
        const DocNodeId sum = addOp(doc, "AddN", "sum");
        QCOMPARE(QString::fromStdString(doc.toGraphDef().error().message()),
                 QString("Node 'split' (Split): input 'split_dim' is not connected"));
        QVERIFY(doc.toGraphDef({true}).has_value());
        QVERIFY(link(doc, dim, 0, split, 0));
        QVERIFY(link(doc, x, 0, split, 1));
        QVERIFY(pushed(doc, SetAttrCommand::create(&doc, sum, "N", intAttr(2))));
        QVERIFY(link(doc, split, 1, sum, 0));
        QVERIFY(link(doc, split, 0, sum, 1));
        QVERIFY(pushed(doc, ConnectCommand::create(&doc, Connection::control(x, sum))));
        QVERIFY(pushed(doc, SetDeviceCommand::create(&doc, sum, "/device:CPU:0")));
        const auto graph = doc.toGraphDef();
        QVERIFY(graph);
        QCOMPARE(graph->node_size(), 4);
        const auto& sumDef = graph->node(3);
        QCOMPARE(sumDef.input_size(), 3);
        QCOMPARE(sumDef.input(0), std::string("split:1"));
        QCOMPARE(sumDef.input(1), std::string("split"));
        QCOMPARE(sumDef.input(2), std::string("^x"));
        QCOMPARE(sumDef.device(), std::string("/device:CPU:0"));
        // T of Split and AddN (no defaults) come from the connections.
        QCOMPARE(sumDef.attr().at("T").type(), tensorflow::DT_FLOAT);
        QCOMPARE(graph->node(1).attr().at("T").type(), tensorflow::DT_FLOAT);
        // Layers need the expander.
        auto* dense =
            pushed(doc, AddNodeCommand::create(&doc, NodeSpec{NodeKind::kLayer, "Dense", "dense", {}, {}, {}, {}}));
        QVERIFY(link(doc, x, 0, dense->nodeId(), 0));
        QCOMPARE(QString::fromStdString(doc.toGraphDef().error().message()),
                 QString("Layer node 'dense' (Dense) cannot be written: no layer expander is set"));
        doc.setLayerExpander([&doc](const DocNode& n, tensorflow::GraphDef& g) {
            auto* def = g.add_node();
            def->set_name(n.name + "/BiasAdd");
            def->set_op("Identity");
            def->add_input(doc.inputString(n.inputs[0].source, n.inputs[0].output));
            return Status::ok();
        });
        doc.setLayerOutputTensor([](const DocNode& n, int) { return n.name + "/BiasAdd"; });
        const DocNodeId after = addOp(doc, "Relu", "after");
        QVERIFY(link(doc, dense->nodeId(), 0, after, 0));
        const auto withLayer = doc.toGraphDef();
        QVERIFY(withLayer);
        QCOMPARE(withLayer->node(4).name(), std::string("dense/BiasAdd"));
        QCOMPARE(withLayer->node(4).input(0), std::string("x"));
        QCOMPARE(withLayer->node(5).input(0), std::string("dense/BiasAdd"));
    }

    void fromGraphDefWarns()
    {
        tensorflow::GraphDef g;
        auto* a = g.add_node();
        a->set_name("a");
        a->set_op("Placeholder");
        (*a->mutable_attr())["dtype"] = typeAttr(tensorflow::DT_FLOAT);
        auto* b = g.add_node();
        b->set_name("b");
        b->set_op("Add");
        b->add_input("missing:0");
        b->add_input("a");
        b->add_input("^a");
        auto* c = g.add_node();
        c->set_name("c");
        c->set_op("FancyOp"); // not registered: keeps what it has
        c->add_input("b");
        c->add_input("a:3");
        GraphDocument doc(&m_ops);
        QSignalSpy reset(&doc, &GraphDocument::reset);
        const auto warnings = doc.fromGraphDef(g, {{"a", QPointF(1, 2)}});
        QVERIFY(warnings);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(int(warnings->size()), 3);
        QCOMPARE(QString::fromStdString((*warnings)[0]), QString("Node 'c': op type not registered 'FancyOp'"));
        QCOMPARE(QString::fromStdString((*warnings)[1]),
                 QString("Node 'b', input 0: input 'missing' names no node in the graph; the slot is left empty"));
        QVERIFY(QString::fromStdString((*warnings)[2]).startsWith("Node 'c', input 1: Node 'a' has no output 3"));
        const DocNodeId bId = doc.findByName("b");
        QVERIFY(!doc.node(bId)->inputs[0].isConnected());
        QCOMPARE(doc.node(bId)->inputs[1].source, doc.findByName("a"));
        QCOMPARE(doc.node(bId)->controlInputs.size(), std::size_t(1));
        QCOMPARE(doc.node(doc.findByName("c"))->inputs.size(), std::size_t(2));
        QCOMPARE(doc.node(doc.findByName("a"))->position, QPointF(1, 2));
        // Errors leave the document alone.
        tensorflow::GraphDef dup = g;
        dup.mutable_node(1)->set_name("a");
        const auto failed = doc.fromGraphDef(dup);
        QVERIFY(!failed);
        QCOMPARE(QString::fromStdString(failed.error().message()), QString("Duplicate node name 'a' in the GraphDef"));
        QCOMPARE(doc.nodeCount(), std::size_t(3));
    }

    void mnistMetaRoundTrip()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const std::string path = (fixtures + "/tf1-mnist-book/mnist_model-28001.meta").toStdString();
        if (fixtures.isEmpty() || !QFile::exists(QString::fromStdString(path)))
            QSKIP("tf1-mnist-book fixture not found (set TSTUDIO_FIXTURES)");
        const auto meta = readMetaGraphFile(path);
        QVERIFY2(meta, meta ? "" : meta.error().toString().c_str());
        const tensorflow::GraphDef& original = meta->graph_def();
        GraphDocument doc(&m_ops);
        const auto warnings = doc.fromGraphDef(original);
        QVERIFY(warnings);
        QVERIFY2(warnings->empty(), warnings->empty() ? "" : warnings->front().c_str());
        QCOMPARE(int(doc.nodeCount()), 331);
        const auto written = doc.toGraphDef();
        QVERIFY2(written, written ? "" : written.error().toString().c_str());
        QCOMPARE(written->node_size(), original.node_size());
        auto sortedInputs = [](const tensorflow::NodeDef& n) {
            std::vector<std::string> v(n.input().begin(), n.input().end());
            std::sort(v.begin(), v.end());
            return v;
        };
        for (int i = 0; i < original.node_size(); ++i) {
            const auto& a = original.node(i);
            const auto& b = written->node(i);
            QCOMPARE(b.name(), a.name());
            QCOMPARE(b.op(), a.op());
            QCOMPARE(b.device(), a.device());
            QCOMPARE(sortedInputs(b), sortedInputs(a));
            QCOMPARE(b.attr().size(), a.attr().size());
            for (const auto& [name, value] : a.attr())
                QVERIFY2(b.attr().count(name) && b.attr().at(name).SerializeAsString() == value.SerializeAsString(),
                         qPrintable(QString::fromStdString(a.name() + " attr " + name)));
        }
        // The whole graph copied and pasted into an empty document gives the same GraphDef.
        const auto ids = doc.nodes();
        GraphDocument copy(&m_ops);
        QVERIFY(pushed(copy, PasteCommand::create(&copy, doc.fragment({ids.begin(), ids.end()}))));
        QCOMPARE(dumpByName(copy), dumpByName(doc));
    }

    void randomEditsMatchReplay()
    {
        GraphDocument doc(&m_ops);
        QRandomGenerator random(20240508);
        struct Entry {
            std::function<bool(GraphDocument&)> replay;
        };
        std::vector<Entry> log; // mirrors the undo stack: log[i] is the command at index i
        int nameCounter = 0;
        const std::vector<std::string> types = {"Placeholder", "Identity", "Relu", "AddN",
                                                "MatMul",      "Split",    "Add",  "Dense"};
        std::set<DocNodeId> lastMoved;
        auto pick = [&](const std::vector<DocNodeId>& ids) { return ids[random.bounded(int(ids.size()))]; };
        auto nameOf = [&](DocNodeId id) { return doc.node(id)->name; };
        auto idOf = [](GraphDocument& d, const std::string& name) { return d.findByName(name); };
        auto subset = [&](int most) {
            std::set<DocNodeId> s;
            const auto ids = doc.nodes();
            const int n = 1 + random.bounded(std::min<int>(most, int(ids.size())));
            while (int(s.size()) < n)
                s.insert(pick(ids));
            return s;
        };
        auto namesOf = [&](const std::set<DocNodeId>& ids) {
            std::vector<std::string> v;
            for (DocNodeId id : ids)
                v.push_back(nameOf(id));
            return v;
        };
        auto idsOf = [&](GraphDocument& d, const std::vector<std::string>& names) {
            std::set<DocNodeId> s;
            for (const auto& n : names)
                s.insert(idOf(d, n));
            return s;
        };
        // Pushes a made command; keeps the log in step with the stack (merged moves replace the last entry).
        auto record = [&](QUndoCommand* command, std::function<bool(GraphDocument&)> replay, int indexBefore) {
            if (!command)
                return false;
            log.resize(indexBefore);
            if (doc.undoStack()->index() == indexBefore)
                log.back() = {std::move(replay)};
            else
                log.push_back({std::move(replay)});
            return true;
        };
        int edits = 0, undos = 0, redos = 0, refused = 0, merges = 0;
        while (edits < 1000) {
            const int roll = random.bounded(100);
            if (roll < 8 && doc.undoStack()->canRedo()) {
                doc.undoStack()->redo();
                ++redos;
                continue;
            }
            if (roll < 20 && doc.undoStack()->canUndo()) {
                doc.undoStack()->undo();
                ++undos;
                continue;
            }
            const int indexBefore = doc.undoStack()->index();
            const auto ids = doc.nodes();
            const int op = ids.size() < 4 ? 0 : random.bounded(11);
            bool ok = false;
            if (op == 0) {
                NodeSpec spec;
                spec.type = types[random.bounded(int(types.size()))];
                spec.kind = spec.type == "Dense" ? NodeKind::kLayer : NodeKind::kOp;
                spec.name = "n" + std::to_string(nameCounter++);
                if (spec.type == "Placeholder")
                    spec.attrs["dtype"] = typeAttr(random.bounded(3) ? tensorflow::DT_FLOAT : tensorflow::DT_INT32);
                else if (spec.kind == NodeKind::kOp && random.bounded(2))
                    spec.attrs["T"] = typeAttr(tensorflow::DT_FLOAT);
                if (spec.type == "AddN")
                    spec.attrs["N"] = intAttr(1 + random.bounded(3));
                if (spec.type == "Split")
                    spec.attrs["num_split"] = intAttr(1 + random.bounded(3));
                spec.position = QPointF(random.bounded(500), random.bounded(500));
                ok = record(
                    pushed(doc, AddNodeCommand::create(&doc, spec)),
                    [spec](GraphDocument& d) { return pushed(d, AddNodeCommand::create(&d, spec)) != nullptr; },
                    indexBefore);
            } else if (op == 1) {
                const auto names = namesOf(subset(2));
                ok = record(
                    pushed(doc, RemoveNodesCommand::create(&doc, idsOf(doc, names))),
                    [=](GraphDocument& d) {
                        return pushed(d, RemoveNodesCommand::create(&d, idsOf(d, names))) != nullptr;
                    },
                    indexBefore);
            } else if (op == 2 || op == 3) {
                const DocNodeId from = pick(ids), to = pick(ids);
                const bool control = random.bounded(8) == 0;
                const int output = doc.node(from)->outputs ? random.bounded(doc.node(from)->outputs) : 0;
                const int slotCount = int(doc.node(to)->inputs.size());
                const int slot = slotCount ? random.bounded(slotCount) : 0;
                const std::string f = nameOf(from), t = nameOf(to);
                auto make = [=](GraphDocument& d) {
                    return control ? Connection::control(idOf(d, f), idOf(d, t))
                                   : Connection{idOf(d, f), output, idOf(d, t), slot};
                };
                ok = record(
                    pushed(doc, ConnectCommand::create(&doc, make(doc))),
                    [=](GraphDocument& d) { return pushed(d, ConnectCommand::create(&d, make(d))) != nullptr; },
                    indexBefore);
            } else if (op == 4) {
                const auto all = doc.connections();
                if (!all.empty()) {
                    const Connection c = all[random.bounded(int(all.size()))];
                    const std::string f = nameOf(c.from), t = nameOf(c.to);
                    auto make = [=](GraphDocument& d) { return Connection{idOf(d, f), c.output, idOf(d, t), c.slot}; };
                    ok = record(
                        pushed(doc, DisconnectCommand::create(&doc, make(doc))),
                        [=](GraphDocument& d) { return pushed(d, DisconnectCommand::create(&d, make(d))) != nullptr; },
                        indexBefore);
                }
            } else if (op == 5) {
                // Half of the moves drag the set moved last (these merge when nothing came between).
                std::set<DocNodeId> set = subset(3);
                if (random.bounded(4) && !lastMoved.empty() &&
                    std::all_of(lastMoved.begin(), lastMoved.end(), [&](DocNodeId id) { return doc.node(id); }))
                    set = lastMoved;
                lastMoved = set;
                std::map<std::string, QPointF> target;
                std::map<DocNodeId, QPointF> positions;
                for (DocNodeId id : set) {
                    const QPointF p(random.bounded(800), random.bounded(800));
                    positions[id] = p;
                    target[nameOf(id)] = p;
                }
                const int countBefore = doc.undoStack()->count();
                auto make = [=](GraphDocument& d) {
                    std::map<DocNodeId, QPointF> m;
                    for (const auto& [name, p] : target)
                        m[idOf(d, name)] = p;
                    return m;
                };
                // A merged command covers all the merged moves: its replay is the merged move.
                ok = record(
                    pushed(doc, MoveNodesCommand::create(&doc, positions)),
                    [=](GraphDocument& d) { return pushed(d, MoveNodesCommand::create(&d, make(d))) != nullptr; },
                    indexBefore);
                if (ok && doc.undoStack()->count() == countBefore && doc.undoStack()->index() == indexBefore)
                    ++merges;
            } else if (op == 6) {
                const std::string old = nameOf(pick(ids));
                const std::string name = random.bounded(4) ? "r" + std::to_string(nameCounter++) : nameOf(pick(ids));
                ok = record(
                    pushed(doc, RenameCommand::create(&doc, idOf(doc, old), name)),
                    [=](GraphDocument& d) {
                        return pushed(d, RenameCommand::create(&d, idOf(d, old), name)) != nullptr;
                    },
                    indexBefore);
            } else if (op == 7) {
                const std::string target = nameOf(pick(ids));
                const DocNode& n = *doc.node(idOf(doc, target));
                std::string attr = "T";
                std::optional<tensorflow::AttrValue> value =
                    typeAttr(random.bounded(2) ? tensorflow::DT_FLOAT : tensorflow::DT_INT32);
                if (n.type == "AddN" && random.bounded(2)) {
                    attr = "N";
                    value = intAttr(1 + random.bounded(4));
                } else if (n.type == "Split" && random.bounded(2)) {
                    attr = "num_split";
                    value = intAttr(1 + random.bounded(4));
                } else if (random.bounded(4) == 0) {
                    value = std::nullopt;
                }
                ok = record(
                    pushed(doc, SetAttrCommand::create(&doc, idOf(doc, target), attr, value)),
                    [=](GraphDocument& d) {
                        return pushed(d, SetAttrCommand::create(&d, idOf(d, target), attr, value)) != nullptr;
                    },
                    indexBefore);
            } else if (op == 8) {
                const auto names = namesOf(subset(3));
                const std::string scope = random.bounded(2) ? "g" : "h/k";
                ok = record(
                    pushed(doc, GroupIntoScopeCommand::create(&doc, idsOf(doc, names), scope)),
                    [=](GraphDocument& d) {
                        return pushed(d, GroupIntoScopeCommand::create(&d, idsOf(d, names), scope)) != nullptr;
                    },
                    indexBefore);
            } else if (op == 9) {
                std::vector<std::string> scoped;
                for (DocNodeId id : ids)
                    if (nameOf(id).find('/') != std::string::npos)
                        scoped.push_back(nameOf(id));
                if (!scoped.empty()) {
                    const std::string name = scoped[random.bounded(int(scoped.size()))];
                    const std::string scope = name.substr(0, name.rfind('/'));
                    ok = record(
                        pushed(doc, UngroupCommand::create(&doc, scope)),
                        [=](GraphDocument& d) { return pushed(d, UngroupCommand::create(&d, scope)) != nullptr; },
                        indexBefore);
                }
            } else {
                const tensorflow::GraphDef fragment = doc.fragment(subset(3));
                const std::map<std::string, QPointF> positions = doc.positions();
                const QPointF offset(random.bounded(50), random.bounded(50));
                ok = record(
                    pushed(doc, PasteCommand::create(&doc, fragment, positions, offset)),
                    [=](GraphDocument& d) {
                        return pushed(d, PasteCommand::create(&d, fragment, positions, offset)) != nullptr;
                    },
                    indexBefore);
            }
            if (ok)
                ++edits;
            else
                ++refused;
            QVERIFY(consistent(doc));
        }
        qInfo("random driver: %d edits (%d moves merged), %d refused, %d undos, %d redos, %d nodes, stack %d/%d", edits,
              merges, refused, undos, redos, int(doc.nodeCount()), doc.undoStack()->index(), doc.undoStack()->count());
        QCOMPARE(int(log.size()), doc.undoStack()->count());
        QVERIFY(doc.nodeCount() > 20);
        QVERIFY(undos > 100);
        QVERIFY(merges > 0);
        // Replay the surviving commands on a fresh document.
        GraphDocument replay(&m_ops);
        for (int i = 0; i < doc.undoStack()->index(); ++i)
            QVERIFY2(log[i].replay(replay), qPrintable(QString("replay of command %1 was refused").arg(i)));
        QCOMPARE(dumpByName(replay), dumpByName(doc));
        // Undo everything: back to the empty document; redo everything: back to the end state.
        const std::string end = dumpById(doc);
        const int endIndex = doc.undoStack()->index();
        while (doc.undoStack()->canUndo())
            doc.undoStack()->undo();
        QCOMPARE(doc.nodeCount(), std::size_t(0));
        QCOMPARE(dumpById(doc), std::string());
        QVERIFY(consistent(doc));
        while (doc.undoStack()->index() < endIndex)
            doc.undoStack()->redo();
        QCOMPARE(dumpById(doc), end);
        QVERIFY(consistent(doc));
    }

    void timings2000Nodes()
    {
        // Figures for the report (no assertion on time: timing targets belong in `tstudio bench`).
        GraphDocument doc(&m_ops);
        QElapsedTimer timer;
        timer.start();
        std::vector<DocNodeId> ids;
        ids.push_back(addOp(doc, "Placeholder", "x", {{"dtype", typeAttr(tensorflow::DT_FLOAT)}}));
        for (int i = 1; i < 2000; ++i)
            ids.push_back(addOp(doc, i % 2 ? "Relu" : "Identity", "n" + std::to_string(i),
                                {{"T", typeAttr(tensorflow::DT_FLOAT)}}));
        const qint64 addNs = timer.nsecsElapsed();
        timer.restart();
        for (int i = 1; i < 2000; ++i)
            QVERIFY(link(doc, ids[i - 1], 0, ids[i], 0));
        const qint64 connectNs = timer.nsecsElapsed();
        timer.restart();
        const auto graph = doc.toGraphDef();
        const qint64 graphNs = timer.nsecsElapsed();
        QVERIFY(graph);
        QCOMPARE(graph->node_size(), 2000);
        QCOMPARE(graph->node(1999).input(0), std::string("n1998"));
        timer.restart();
        while (doc.undoStack()->canUndo())
            doc.undoStack()->undo();
        const qint64 undoNs = timer.nsecsElapsed();
        QCOMPARE(doc.nodeCount(), std::size_t(0));
        qInfo("2000 nodes: addNode %.1f us/node, connect (chain, cycle check) %.1f us/edge, toGraphDef %.2f ms, "
              "undo all 3999 commands %.2f ms",
              addNs / 2000.0 / 1e3, connectNs / 1999.0 / 1e3, graphNs / 1e6, undoNs / 1e6);
    }

private:
    OpRegistry m_ops;
};

QTEST_GUILESS_MAIN(TestGraphDocument)
#include "test_graph_document.moc"
