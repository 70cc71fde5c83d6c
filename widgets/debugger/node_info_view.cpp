// NodeInfoView: a node's header, attributes and input/consumer trees from debugger::NodeRelations.
#include "debugger/node_info_view.h"

#include "common/attr_text.h"
#include "framework/data_type.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <string>
#include <vector>

namespace tstudio::debugger_ui {
namespace {

/// Attribute values longer than this are cut in the cell (the tooltip has more).
constexpr int kMaxAttrChars = 200;
constexpr int kMaxAttrTooltipChars = 2000;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QString elided(const QString& text, int chars)
{
    return text.size() <= chars ? text : text.left(chars) + QStringLiteral("…");
}

QString shapeText(const tensorflow::TensorShapeProto& shape)
{
    if (shape.unknown_rank())
        return QStringLiteral("<unknown>");
    QStringList dims;
    for (const auto& d : shape.dim())
        dims << (d.size() < 0 ? QStringLiteral("?") : QString::number(d.size()));
    return '[' + dims.join(',') + ']';
}

/// The AttrDef type an AttrValue holds ("int", "list(float)", ...), for attrValueText. An empty list is
/// "list(int)" (it prints "[]" whatever its type).
std::string attrType(const tensorflow::AttrValue& value)
{
    using V = tensorflow::AttrValue;
    switch (value.value_case()) {
    case V::kS: return "string";
    case V::kI: return "int";
    case V::kF: return "float";
    case V::kB: return "bool";
    case V::kType: return "type";
    case V::kShape: return "shape";
    case V::kTensor: return "tensor";
    case V::kFunc: return "func";
    case V::kList: {
        const auto& l = value.list();
        if (l.s_size())
            return "list(string)";
        if (l.f_size())
            return "list(float)";
        if (l.b_size())
            return "list(bool)";
        if (l.type_size())
            return "list(type)";
        if (l.shape_size())
            return "list(shape)";
        if (l.tensor_size())
            return "list(tensor)";
        if (l.func_size())
            return "list(func)";
        return "list(int)";
    }
    case V::kPlaceholder:
    case V::VALUE_NOT_SET: break;
    }
    return {};
}

/// An attribute's value in short form; tensors as "float32 [784,10]" (their values can be megabytes).
QString attrText(const tensorflow::AttrValue& value)
{
    using V = tensorflow::AttrValue;
    if (value.value_case() == V::kTensor)
        return q(dataTypeName(value.tensor().dtype())) + ' ' + shapeText(value.tensor().tensor_shape());
    if (value.value_case() == V::kPlaceholder)
        return '$' + q(value.placeholder());
    if (value.value_case() == V::kList && value.list().tensor_size())
        return NodeInfoView::tr("%n tensor(s)", nullptr, value.list().tensor_size());
    if (value.value_case() == V::VALUE_NOT_SET)
        return NodeInfoView::tr("(not set)");
    return attrValueText(attrType(value), value);
}

QWidget* section(QLabel*& title, QTreeWidget*& tree, const QString& name, int columns, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    title = new QLabel(box);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    tree = new QTreeWidget(box);
    tree->setObjectName(name);
    tree->setColumnCount(columns);
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    tree->header()->setStretchLastSection(true);
    layout->addWidget(title);
    layout->addWidget(tree, 1);
    return box;
}

} // namespace

NodeInfoView::NodeInfoView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("nodeLabel"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true);
    m_depthLabel = new QLabel(this);
    m_depth = new QSpinBox(this);
    m_depth->setObjectName(QStringLiteral("depthSpin"));
    m_depth->setRange(1, kMaxDepth);
    m_depth->setValue(1);
    top->addWidget(m_header, 1);
    top->addWidget(m_depthLabel);
    top->addWidget(m_depth);
    layout->addLayout(top);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(section(m_attributesTitle, m_attributes, QStringLiteral("attributesTree"), 2, splitter));
    splitter->addWidget(section(m_inputsTitle, m_inputs, QStringLiteral("inputsTree"), 3, splitter));
    splitter->addWidget(section(m_consumersTitle, m_consumers, QStringLiteral("consumersTree"), 3, splitter));
    m_attributes->setRootIsDecorated(false);
    layout->addWidget(splitter, 1);

    connect(m_depth, &QSpinBox::valueChanged, this, [this] { fillTrees(); });
    for (QTreeWidget* tree : {m_inputs, m_consumers})
        connect(tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { onActivated(item); });
    retranslateUi();
    clear();
}

NodeInfoView::~NodeInfoView() = default;

void NodeInfoView::setGraph(std::shared_ptr<const tensorflow::GraphDef> graph)
{
    m_relations.reset();
    m_graph = std::move(graph);
    if (m_graph)
        m_relations.emplace(*m_graph);
    clear();
}

void NodeInfoView::clear()
{
    m_node.clear();
    m_message.clear();
    m_attributes->clear();
    m_inputs->clear();
    m_consumers->clear();
    retranslateUi();
}

bool NodeInfoView::showNode(const QString& node)
{
    clear();
    const tensorflow::NodeDef* def = m_relations ? m_relations->find(node.toStdString()) : nullptr;
    if (!def) {
        m_message = tr("Node '%1' is not in the graph").arg(node);
        retranslateUi();
        return false;
    }
    m_node = node;
    std::vector<std::string> names;
    for (const auto& [name, value] : def->attr())
        names.push_back(name);
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
        const QString text = attrText(def->attr().at(name));
        auto* item = new QTreeWidgetItem(m_attributes);
        item->setText(0, q(name));
        item->setText(1, elided(text, kMaxAttrChars));
        item->setToolTip(1, elided(text, kMaxAttrTooltipChars));
    }
    m_attributes->resizeColumnToContents(0);
    fillTrees();
    retranslateUi();
    return true;
}

void NodeInfoView::setDepth(int depth)
{
    m_depth->setValue(std::clamp(depth, 1, kMaxDepth)); // refills through valueChanged
}

int NodeInfoView::depth() const
{
    return m_depth->value();
}

void NodeInfoView::fillTrees()
{
    m_inputs->clear();
    m_consumers->clear();
    if (m_node.isEmpty() || !m_relations)
        return;
    const std::string name = m_node.toStdString();
    if (auto inputs = m_relations->inputs(name, depth()))
        fillTree(m_inputs, *inputs);
    if (auto consumers = m_relations->consumers(name, depth()))
        fillTree(m_consumers, *consumers);
    retranslateUi();
}

void NodeInfoView::fillTree(QTreeWidget* tree, const std::vector<debugger::NodeLink>& links)
{
    for (const debugger::NodeLink& link : links)
        addLink(nullptr, tree, link);
    tree->expandAll();
    tree->resizeColumnToContents(0);
}

void NodeInfoView::addLink(QTreeWidgetItem* parent, QTreeWidget* tree, const debugger::NodeLink& link)
{
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, q(link.node));
    item->setText(1, link.op.empty() ? tr("(not in graph)") : q(link.op));
    item->setText(2, link.control ? tr("%1 (Ctrl)").arg(q(link.tensor)) : q(link.tensor));
    item->setData(0, kNodeNameRole, q(link.node));
    item->setData(0, kTensorRole, q(link.tensor));
    item->setData(0, kControlRole, link.control);
    item->setToolTip(0, q(link.node));
    if (link.control) {
        QFont italic = item->font(0);
        italic.setItalic(true);
        for (int c = 0; c < 3; ++c) {
            item->setFont(c, italic);
            item->setForeground(c, palette().color(QPalette::Disabled, QPalette::Text));
        }
    }
    for (const debugger::NodeLink& child : link.children)
        addLink(item, tree, child);
}

void NodeInfoView::onActivated(QTreeWidgetItem* item)
{
    if (!item)
        return;
    const QString node = item->data(0, kNodeNameRole).toString();
    if (!node.isEmpty())
        emit nodeActivated(node);
    // The tensor column of the inputs tree names what flows into the parent: a value one can inspect.
    if (item->treeWidget() == m_inputs && !item->data(0, kControlRole).toBool())
        emit tensorActivated(item->data(0, kTensorRole).toString());
}

void NodeInfoView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void NodeInfoView::retranslateUi()
{
    m_depthLabel->setText(tr("Depth:"));
    m_depth->setToolTip(tr("How many levels of inputs and consumers to list"));
    m_attributes->setHeaderLabels({tr("Attribute"), tr("Value")});
    m_inputs->setHeaderLabels({tr("Node"), tr("Op"), tr("Tensor")});
    m_consumers->setHeaderLabels({tr("Node"), tr("Op"), tr("Tensor")});
    const tensorflow::NodeDef* def =
        m_relations && !m_node.isEmpty() ? m_relations->find(m_node.toStdString()) : nullptr;
    if (def) {
        const QString device = def->device().empty() ? tr("(no device requested)") : q(def->device());
        m_header->setText(tr("<b>%1</b><br>Op: %2 · Device: %3")
                              .arg(m_node.toHtmlEscaped(), q(def->op()).toHtmlEscaped(), device.toHtmlEscaped()));
    } else {
        m_header->setText(m_message.isEmpty() ? tr("Select a node to see its attributes, inputs and consumers.")
                                              : m_message.toHtmlEscaped());
    }
    m_attributesTitle->setText(tr("Attributes (%1)").arg(m_attributes->topLevelItemCount()));
    m_inputsTitle->setText(tr("Inputs (%1)").arg(m_inputs->topLevelItemCount()));
    m_consumersTitle->setText(tr("Consumers (%1)").arg(m_consumers->topLevelItemCount()));
}

} // namespace tstudio::debugger_ui
