// NodeItem: one document node on the editor's canvas: title, typed ports, output shapes and its problem.
#pragma once

#include "document/graph_document.h"

#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace tstudio::node_editor {

/// What the canvas shows about one port.
struct PortInfo {
    QString name;          ///< "a", "values[1]", "labels", "output"
    QString dtype;         ///< shown: the live build's dtype, else declaredDtype; "" when unknown
    QString shape;         ///< "[?,784]" once inferred (an input shows its source's); "" unknown
    QString declaredDtype; ///< from the OpDef, the attrs or the source op ("float32_ref"); "" unknown
    QString expects;       ///< what an input expects / an output gives (tooltip); "" when nothing is said
    bool ref = false;      ///< an input that takes a variable reference (Assign's "ref")
    /// The facts follow only the node's own attrs (an output of a node without tensor inputs, a
    /// Placeholder's or a Const's): the whole label sizes the node. Otherwise (every input, and the
    /// outputs of a node with tensor inputs) wiring changes them, so the node keeps a fixed room for
    /// them (kInputFactsRoom, kOutputFactsRoom) and elides what is longer: a connection made or
    /// removed never moves a port (issue #51).
    bool ownFacts = false;
};

/// What the latest build says about one port: dtype and shape, "" when unknown.
struct PortFacts {
    QString dtype;
    QString shape;
};

/// A projection of one DocNode; it never changes the document itself (the scene turns drags into commands).
/// Inputs on the left edge, outputs on the right, the control input and output as small squares on the title.
/// Each port is labelled with its name and dtype (outputs also their shape) and has its own tooltip with
/// the whole text. The node is as wide as its title, its port names and a fixed room for the facts that
/// wiring brings need (see PortInfo::ownFacts), so its size and port positions never change when it is
/// connected or disconnected; facts longer than that room are elided on the canvas (shownPortLabel).
class NodeItem : public QGraphicsObject {
    Q_OBJECT
public:
    static constexpr double kHeader = 26;
    static constexpr double kPortPitch = 18;
    static constexpr double kPortRadius = 5;
    /// Room kept at the right of the header for the problem badge.
    static constexpr double kBadge = 20;
    /// Least space between an input's label and an output's label on the same row.
    static constexpr double kLabelGap = 12;
    /// The facts an input or output label keeps room for when wiring changes them: a dtype (a
    /// variable's, as every "read" Identity of a TF1 graph takes) and a dtype with a 2-D shape (a
    /// batch of feature rows); longer ones are elided. Never translated.
    static constexpr const char* kInputFactsRoom = "float32_ref";
    static constexpr const char* kOutputFactsRoom = "float32 [?,1000]";

    NodeItem(DocNodeId id, QGraphicsItem* parent = nullptr);

    DocNodeId nodeId() const { return m_id; }
    /// Refreshes title, ports and colour from the document node.
    void setNode(const DocNode& node, const QColor& colour, std::vector<PortInfo> inputs, std::vector<PortInfo> outputs);
    /// Dtypes and shapes after the latest build (either vector may be shorter than the ports; missing
    /// ones are unknown). An unknown dtype falls back to the port's declaredDtype.
    void setLiveFacts(const std::vector<PortFacts>& inputs, const std::vector<PortFacts>& outputs);
    /// The engine's message for this node, or empty.
    void setProblem(const QString& problem);
    const QString& problem() const { return m_problem; }

    int inputCount() const { return static_cast<int>(m_inputs.size()); }
    int outputCount() const { return static_cast<int>(m_outputs.size()); }
    /// Port centres in scene coordinates.
    QPointF inputPos(int slot) const;
    QPointF outputPos(int output) const;
    QPointF controlInPos() const;
    QPointF controlOutPos() const;
    /// The port under an item-local point: {slot, isOutput}; slot Connection::kControl for the control ports;
    /// {-2, false} for none.
    std::pair<int, bool> portAt(QPointF local) const;
    const PortInfo* inputInfo(int slot) const;
    const PortInfo* outputInfo(int output) const;
    /// The text drawn next to a port: "labels: int64", "output: float32 [?,500]"; "" for no such port.
    QString portLabel(int port, bool output) const;
    /// portLabel as drawn: elided at the right to portLabelRect's width when its facts are longer than
    /// the room kept for them (the name itself always fits).
    QString shownPortLabel(int port, bool output) const;
    /// The port's tooltip: "labels: int64 [?]" and what it expects ("Expects int32 or int64 class ids
    /// [batch], from the data"); "" for no such port.
    QString portToolTip(int port, bool output) const;
    /// Where shownPortLabel is drawn, in item coordinates (inside the body, clear of the other side's labels).
    QRectF portLabelRect(int port, bool output) const;
    /// The node's body in item coordinates (ports stick out of it by kPortRadius).
    QRectF body() const { return QRectF(QPointF(0, 0), m_size); }
    /// The font of port labels.
    static QFont portFont();

    /// While the user drags a connection: ports that may take it are lit (-2: none).
    void setHighlightedInput(int slot);

    /// The debugger's breakpoints on this node, drawn as a gutter dot on its top-left corner: filled red
    /// when an enabled breakpoint applies, a red ring when only disabled ones do.
    enum class BreakpointMark { kNone, kEnabled, kDisabled };
    /// `specs` ("node:dense/MatMul", "regex:^dense/") go into the node's tooltip.
    void setBreakpointMark(BreakpointMark mark, const QStringList& specs = {});
    BreakpointMark breakpointMark() const { return m_breakpointMark; }
    /// The marker's rectangle in item coordinates (empty without a mark).
    QRectF breakpointMarkRect() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    /// Emitted during moves (the scene keeps connection paths attached).
    void geometryChanged();

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    void relayout();
    void updateToolTip();
    /// `lod`: the painter's level of detail (scene to screen scale).
    void paintBreakpointMark(QPainter* painter, double lod) const;
    double portY(int row) const { return kHeader + 6 + kPortPitch * (row + 0.5); }

    DocNodeId m_id;
    QString m_name;
    QString m_type;
    bool m_layer = false;
    QColor m_colour;
    std::vector<PortInfo> m_inputs;
    std::vector<PortInfo> m_outputs;
    QString m_problem;
    QString m_nodeToolTip;
    QSizeF m_size{160, 60};
    double m_inputTextWidth = 0;
    double m_outputTextWidth = 0;
    int m_highlightedInput = -2;
    BreakpointMark m_breakpointMark = BreakpointMark::kNone;
    QStringList m_breakpointSpecs;
};

} // namespace tstudio::node_editor
