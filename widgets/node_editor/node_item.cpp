// Painting and port geometry of a node on the editor canvas.
#include "node_editor/node_item.h"

#include "common/op_style.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace tstudio::node_editor {

NodeItem::NodeItem(DocNodeId id, QGraphicsItem* parent) : QGraphicsObject(parent), m_id(id)
{
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setAcceptHoverEvents(true);
    setZValue(1);
}

void NodeItem::setNode(const DocNode& node, const QColor& colour, std::vector<PortInfo> inputs, std::vector<PortInfo> outputs)
{
    prepareGeometryChange();
    m_name = QString::fromStdString(node.name);
    m_type = QString::fromStdString(node.type);
    m_layer = node.kind == NodeKind::kLayer;
    m_colour = colour;
    m_inputs = std::move(inputs);
    m_outputs = std::move(outputs);
    relayout();
    updateToolTip();
    update();
}

void NodeItem::setLiveFacts(const std::vector<PortFacts>& inputs, const std::vector<PortFacts>& outputs)
{
    bool changed = false;
    auto apply = [&changed](std::vector<PortInfo>& ports, const std::vector<PortFacts>& facts) {
        for (std::size_t i = 0; i < ports.size(); ++i) {
            const PortFacts fact = i < facts.size() ? facts[i] : PortFacts{};
            const QString dtype = fact.dtype.isEmpty() ? ports[i].declaredDtype : fact.dtype;
            if (ports[i].dtype != dtype || ports[i].shape != fact.shape) {
                ports[i].dtype = dtype;
                ports[i].shape = fact.shape;
                changed = true;
            }
        }
    };
    apply(m_inputs, inputs);
    apply(m_outputs, outputs);
    if (changed) {
        prepareGeometryChange();
        relayout();
        update();
    }
}

void NodeItem::setProblem(const QString& problem)
{
    if (problem == m_problem)
        return;
    m_problem = problem;
    updateToolTip();
    update();
}

void NodeItem::setBreakpointMark(BreakpointMark mark, const QStringList& specs)
{
    if (mark == m_breakpointMark && specs == m_breakpointSpecs)
        return;
    m_breakpointMark = mark;
    m_breakpointSpecs = specs;
    updateToolTip();
    update();
}

QRectF NodeItem::breakpointMarkRect() const
{
    // On the top-left corner, where an IDE's gutter would be: clear of the control-in square below it
    // and of the title, and inside boundingRect (which reaches kPortRadius + 2 beyond the body).
    return m_breakpointMark == BreakpointMark::kNone ? QRectF() : QRectF(-5, -5, 12, 12);
}

void NodeItem::updateToolTip()
{
    m_nodeToolTip = QStringLiteral("<b>%1</b><br>%2").arg(m_name.toHtmlEscaped(), m_type.toHtmlEscaped()) +
                    (m_problem.isEmpty() ? QString()
                                         : QStringLiteral("<br><span style='color:#c00'>%1</span>").arg(m_problem.toHtmlEscaped()));
    for (const QString& spec : m_breakpointSpecs)
        m_nodeToolTip += QStringLiteral("<br>") + tr("Breakpoint: %1").arg(spec.toHtmlEscaped());
    if (m_breakpointMark == BreakpointMark::kDisabled)
        m_nodeToolTip += QStringLiteral(" ") + tr("(disabled)");
    setToolTip(m_nodeToolTip);
}

QFont NodeItem::portFont()
{
    QFont font;
    font.setPixelSize(10);
    return font;
}

QString NodeItem::portLabel(int port, bool output) const
{
    const PortInfo* p = output ? outputInfo(port) : inputInfo(port);
    if (!p)
        return {};
    // Inputs: name and dtype (the connection carries the shape); outputs: their shape too.
    QString facts = p->dtype;
    if (output && !p->shape.isEmpty())
        facts = facts.isEmpty() ? p->shape : tr("%1 %2", "port dtype and shape").arg(facts, p->shape);
    return facts.isEmpty() ? p->name : tr("%1: %2", "port name and what flows through it").arg(p->name, facts);
}

QString NodeItem::shownPortLabel(int port, bool output) const
{
    const QString label = portLabel(port, output);
    return QFontMetricsF(portFont()).elidedText(label, Qt::ElideRight, portLabelRect(port, output).width());
}

QString NodeItem::portToolTip(int port, bool output) const
{
    const PortInfo* p = output ? outputInfo(port) : inputInfo(port);
    if (!p)
        return {};
    QString facts = p->dtype;
    if (!p->shape.isEmpty())
        facts = facts.isEmpty() ? p->shape : tr("%1 %2", "port dtype and shape").arg(facts, p->shape);
    QStringList lines{tr("%1: %2", "port name and what flows through it")
                          .arg(p->name, facts.isEmpty() ? tr("dtype and shape not known yet") : facts)};
    if (!p->expects.isEmpty())
        lines << (output ? tr("Gives %1") : tr("Expects %1")).arg(p->expects);
    if (p->ref)
        lines << tr("Takes a reference to a variable (a _ref dtype)");
    return lines.join(QLatin1Char('\n'));
}

QRectF NodeItem::portLabelRect(int port, bool output) const
{
    if (output ? port < 0 || port >= outputCount() : port < 0 || port >= inputCount())
        return {};
    const double y = portY(port) - kPortPitch / 2;
    if (output)
        return QRectF(m_size.width() - kPortRadius - 4 - m_outputTextWidth, y, m_outputTextWidth, kPortPitch);
    return QRectF(kPortRadius + 4, y, m_inputTextWidth, kPortPitch);
}

void NodeItem::relayout()
{
    QFont bold;
    bold.setPixelSize(12);
    bold.setBold(true);
    QFont small = portFont();
    const QFontMetricsF boldMetrics(bold), smallMetrics(small);
    // Label widths rounded up so that text measured again when painting never comes out wider. A label
    // whose facts wiring changes counts as its name with the room kept for them, whatever they are
    // now: were the node as wide as those facts, a connection would widen it and move its output
    // ports away from the mouse that is about to drag from them.
    const auto labelWidth = [&](const PortInfo& p, bool output, int port) {
        if (p.ownFacts)
            return smallMetrics.horizontalAdvance(portLabel(port, output));
        const QString room = QString::fromLatin1(output ? kOutputFactsRoom : kInputFactsRoom);
        return smallMetrics.horizontalAdvance(tr("%1: %2", "port name and what flows through it").arg(p.name, room));
    };
    m_inputTextWidth = 0;
    m_outputTextWidth = 0;
    for (int i = 0; i < inputCount(); ++i)
        m_inputTextWidth = std::max(m_inputTextWidth, std::ceil(labelWidth(m_inputs[static_cast<std::size_t>(i)], false, i)) + 1);
    for (int i = 0; i < outputCount(); ++i)
        m_outputTextWidth = std::max(m_outputTextWidth, std::ceil(labelWidth(m_outputs[static_cast<std::size_t>(i)], true, i)) + 1);
    // Title and type with 12 px margins and room for the problem badge on the right of the header.
    const double title = std::max(boldMetrics.horizontalAdvance(m_name), smallMetrics.horizontalAdvance(m_type)) + 24 + kBadge;
    // Port labels sit kPortRadius + 4 in from each edge with at least kLabelGap between the two sides.
    const double ports = m_inputTextWidth + m_outputTextWidth + 2 * (kPortRadius + 4) + kLabelGap;
    const double width = std::ceil(std::max({title, ports, 120.0}));
    const int rows = std::max<int>(1, static_cast<int>(std::max(m_inputs.size(), m_outputs.size())));
    m_size = QSizeF(width, kHeader + 12 + rows * kPortPitch);
}

QRectF NodeItem::boundingRect() const
{
    return QRectF(-kPortRadius - 2, -kPortRadius - 2, m_size.width() + 2 * kPortRadius + 4, m_size.height() + 2 * kPortRadius + 4);
}

QPointF NodeItem::inputPos(int slot) const
{
    return mapToScene(QPointF(0, portY(slot)));
}

QPointF NodeItem::outputPos(int output) const
{
    return mapToScene(QPointF(m_size.width(), portY(output)));
}

QPointF NodeItem::controlInPos() const
{
    return mapToScene(QPointF(0, kHeader / 2));
}

QPointF NodeItem::controlOutPos() const
{
    return mapToScene(QPointF(m_size.width(), kHeader / 2));
}

std::pair<int, bool> NodeItem::portAt(QPointF local) const
{
    auto near = [&](QPointF p) { return QLineF(p, local).length() <= kPortRadius + 3; };
    for (int i = 0; i < inputCount(); ++i)
        if (near(QPointF(0, portY(i))))
            return {i, false};
    for (int i = 0; i < outputCount(); ++i)
        if (near(QPointF(m_size.width(), portY(i))))
            return {i, true};
    if (near(QPointF(0, kHeader / 2)))
        return {Connection::kControl, false};
    if (near(QPointF(m_size.width(), kHeader / 2)))
        return {Connection::kControl, true};
    return {-2, false};
}

const PortInfo* NodeItem::inputInfo(int slot) const
{
    return slot >= 0 && slot < inputCount() ? &m_inputs[static_cast<std::size_t>(slot)] : nullptr;
}

const PortInfo* NodeItem::outputInfo(int output) const
{
    return output >= 0 && output < outputCount() ? &m_outputs[static_cast<std::size_t>(output)] : nullptr;
}

void NodeItem::setHighlightedInput(int slot)
{
    if (slot != m_highlightedInput) {
        m_highlightedInput = slot;
        update();
    }
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QPalette& palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, true);
    const QRectF body(QPointF(0, 0), m_size);
    const bool selected = isSelected();
    QColor border = m_problem.isEmpty() ? m_colour.darker(170) : QColor(0xd0, 0x20, 0x20);
    // Body and header.
    painter->setPen(QPen(selected ? palette.color(QPalette::Highlight) : border, selected || !m_problem.isEmpty() ? 2.5 : 1.2));
    painter->setBrush(palette.color(QPalette::Base));
    painter->drawRoundedRect(body, 6, 6);
    QPainterPath header;
    header.addRoundedRect(QRectF(0, 0, m_size.width(), kHeader), 6, 6);
    header.addRect(QRectF(0, kHeader - 6, m_size.width(), 6));
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_colour);
    painter->drawPath(header.simplified());
    if (m_layer) {
        // Layer nodes carry a band: they stand for several ops.
        painter->setBrush(m_colour.darker(125));
        painter->drawRect(QRectF(0, kHeader - 4, m_size.width(), 4));
    }
    if (lod < 0.35) {
        painter->setPen(QPen(border, 1.5));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(body, 6, 6);
        paintBreakpointMark(painter, lod);
        return;
    }
    QFont bold = portFont();
    bold.setPixelSize(12);
    bold.setBold(true);
    const QColor text = textColourOn(m_colour);
    painter->setFont(bold);
    painter->setPen(text);
    const double titleWidth = m_size.width() - 24 - kBadge;
    const QRectF titleRect(12, 1, titleWidth, kHeader / 2 + 3);
    painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetricsF(bold).elidedText(m_name, Qt::ElideMiddle, titleRect.width()));
    painter->setFont(portFont());
    painter->drawText(QRectF(12, kHeader / 2 + 1, titleWidth, kHeader / 2 - 2), Qt::AlignLeft | Qt::AlignVCenter, m_type);
    // Ports.
    const QColor portText = palette.color(QPalette::Text);
    for (int i = 0; i < inputCount(); ++i) {
        const QPointF c(0, portY(i));
        painter->setPen(QPen(border, 1));
        painter->setBrush(i == m_highlightedInput ? palette.color(QPalette::Highlight)
                                                  : (m_inputs[static_cast<std::size_t>(i)].ref ? QColor(0xe0, 0x7b, 0x00) : m_colour));
        painter->drawEllipse(c, kPortRadius, kPortRadius);
        painter->setPen(portText);
        painter->drawText(portLabelRect(i, false), Qt::AlignLeft | Qt::AlignVCenter, shownPortLabel(i, false));
    }
    for (int i = 0; i < outputCount(); ++i) {
        const QPointF c(m_size.width(), portY(i));
        painter->setPen(QPen(border, 1));
        painter->setBrush(m_colour);
        painter->drawEllipse(c, kPortRadius, kPortRadius);
        const PortInfo& p = m_outputs[static_cast<std::size_t>(i)];
        painter->setPen(p.shape.isEmpty() ? portText : palette.color(QPalette::Link));
        painter->drawText(portLabelRect(i, true), Qt::AlignRight | Qt::AlignVCenter, shownPortLabel(i, true));
    }
    // Control ports: small squares on the title bar.
    painter->setPen(QPen(text, 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(QRectF(-3.5, kHeader / 2 - 3.5, 7, 7));
    painter->drawRect(QRectF(m_size.width() - 3.5, kHeader / 2 - 3.5, 7, 7));
    if (!m_problem.isEmpty()) {
        // In the header's right end, kept free for it: it never covers a port label.
        const QRectF badge(m_size.width() - 8 - 16, (kHeader - 16) / 2 - 1, 16, 16);
        painter->setPen(QPen(Qt::white, 1));
        painter->setBrush(QColor(0xd0, 0x20, 0x20));
        painter->drawEllipse(badge);
        painter->setPen(Qt::white);
        painter->setFont(bold);
        painter->drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
    }
    paintBreakpointMark(painter, lod);
}

void NodeItem::paintBreakpointMark(QPainter* painter, double lod) const
{
    if (m_breakpointMark == BreakpointMark::kNone)
        return;
    // The colours of an IDE's gutter: a filled red dot, or a red ring for a disabled breakpoint. Zoomed
    // far out, where the node shows no text, a larger dot fills the header's left end so that it stays a
    // few pixels wide on screen (the corner one would shrink to nothing).
    const QColor red(0xd3, 0x2f, 0x2f);
    QRectF dot = breakpointMarkRect().adjusted(1, 1, -1, -1);
    if (lod < 0.35) {
        const double radius = std::min(kHeader / 2 - 2, 4 / std::max(lod, 0.01));
        dot = QRectF(kHeader / 2 - radius, kHeader / 2 - radius, 2 * radius, 2 * radius);
    }
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (m_breakpointMark == BreakpointMark::kEnabled) {
        painter->setPen(QPen(Qt::white, 1.5));
        painter->setBrush(red);
    } else {
        painter->setPen(QPen(red, 2));
        painter->setBrush(scene() ? scene()->palette().color(QPalette::Base) : QColor(Qt::white));
    }
    painter->drawEllipse(dot);
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value)
{
    if (change == ItemPositionHasChanged)
        emit geometryChanged();
    return QGraphicsObject::itemChange(change, value);
}

void NodeItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event)
{
    const auto [slot, output] = portAt(event->pos());
    if (slot == -2) {
        setCursor(Qt::ArrowCursor);
    } else {
        setCursor(Qt::CrossCursor);
    }
    // Over a data port its own tooltip, elsewhere the node's.
    const QString tip = slot >= 0 ? portToolTip(slot, output) : m_nodeToolTip;
    if (toolTip() != tip)
        setToolTip(tip);
    QGraphicsObject::hoverMoveEvent(event);
}

} // namespace tstudio::node_editor
