// NodePropertiesPanel: header, op documentation, device, attributes, inputs and outputs of one graph node.
#include "graph_viewer/node_properties_panel.h"

#include "common/catalog_text.h"
#include "common/op_style.h"
#include "framework/allocator.h"
#include "framework/data_type.h"
#include "framework/node_def_validation.h"
#include "framework/op_registry.h"
#include "framework/tensor.h"
#include "graph/tensor_id.h"
#include "graph_viewer/attr_value_text.h"
#include "graph_viewer/function_library_view.h"
#include "graph_viewer/tensor_value_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::graph_viewer {
namespace {

constexpr int kMaxConsumersShown = 500; ///< per output; the rest are counted in one item
const QString kEllipsis = QStringLiteral("\u2026");

// --- Argument names from the OpDef ----------------------------------------------------------------------------

/// One name per tensor of the arguments: "a", "b" for single tensors, "values[0]", "values[1]" for lists. Empty
/// when the node's attrs do not say how long a list is.
QStringList argumentNames(const google::protobuf::RepeatedPtrField<tensorflow::OpDef::ArgDef>& args,
                          const tensorflow::NodeDef& node)
{
    QStringList names;
    for (const auto& arg : args) {
        const QString name = QString::fromStdString(arg.name());
        std::int64_t count = 1;
        bool isList = false;
        if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
            isList = true;
            const std::string& lengthAttr = arg.number_attr().empty() ? arg.type_list_attr() : arg.number_attr();
            const auto it = node.attr().find(lengthAttr);
            if (it == node.attr().end())
                return {};
            count = arg.number_attr().empty() ? it->second.list().type_size() : it->second.i();
            if (count < 0 || count > 100000)
                return {};
        }
        for (std::int64_t i = 0; i < count; ++i)
            names << (isList ? QStringLiteral("%1[%2]").arg(name).arg(i) : name);
    }
    return names;
}

// --- Tree helpers -------------------------------------------------------------------------------------------------

/// A cell's text as a copy should hold it: an elided attr keeps its full value in the tooltip.
QString fullText(const QTreeWidgetItem* item, int column)
{
    const QString text = item->text(column);
    const QString tip = item->toolTip(column);
    if (text.endsWith(kEllipsis) && tip.size() > text.size() && tip.startsWith(text.left(text.size() - 1)))
        return tip;
    return text;
}

QTreeWidget* makeTree(const QString& objectName, int columns, QWidget* parent)
{
    auto* tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setColumnCount(columns);
    tree->setRootIsDecorated(false);
    tree->setUniformRowHeights(true);
    // Selectable, so that a row can be copied (Ctrl+C, context menu): an elided cell is still readable.
    tree->setSelectionMode(QAbstractItemView::SingleSelection);
    tree->setContextMenuPolicy(Qt::CustomContextMenu);
    tree->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tree->setTextElideMode(Qt::ElideMiddle);
    tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tree->header()->setStretchLastSection(true);
    for (int c = 0; c + 1 < columns; ++c)
        tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    tree->header()->setMinimumSectionSize(40);
    // The panel's width decides; columns elide rather than widen the sidebar.
    tree->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    tree->setMinimumWidth(0);
    return tree;
}

/// Makes the tree exactly as tall as its expanded rows, so the scroll area scrolls the whole panel.
void fitTreeHeight(QTreeWidget* tree)
{
    int rows = 0;
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        const QTreeWidgetItem* parent = (*it)->parent();
        if (!parent || parent->isExpanded())
            ++rows;
    }
    const int hinted = tree->topLevelItemCount() > 0 ? tree->sizeHintForRow(0) : -1;
    const int rowHeight = hinted > 0 ? hinted : tree->fontMetrics().height() + 4;
    const int header = tree->isHeaderHidden() ? 0 : tree->header()->sizeHint().height();
    tree->setFixedHeight(header + rows * rowHeight + 2 * tree->frameWidth() + 2);
}

void makeLink(QTreeWidgetItem* item, int column, const QString& nodeName, const QPalette& palette)
{
    item->setData(column, NodePropertiesPanel::kNodeNameRole, nodeName);
    QFont font = item->font(column);
    font.setUnderline(true);
    item->setFont(column, font);
    item->setForeground(column, palette.color(QPalette::Link));
}

/// A function name drawn as a link; the function is kept on column 0, where onItemClicked looks.
void makeFunctionLink(QTreeWidgetItem* item, int column, const QString& function, const QPalette& palette)
{
    item->setData(0, NodePropertiesPanel::kFunctionRole, function);
    QFont font = item->font(column);
    font.setUnderline(true);
    item->setFont(column, font);
    item->setForeground(column, palette.color(QPalette::Link));
}

} // namespace

QList<FunctionLink> functionLinks(const std::vector<FunctionCall>& calls)
{
    QList<FunctionLink> links;
    for (const FunctionCall& call : calls)
        links.push_back({QString::fromStdString(call.attr), QString::fromStdString(call.function), call.index >= 0});
    return links;
}

FunctionSummary functionSummary(const FunctionLibraryView& functions, int index)
{
    FunctionSummary summary;
    if (index < 0 || static_cast<std::size_t>(index) >= functions.functions().size())
        return summary;
    const LibraryFunction& f = functions.functions()[static_cast<std::size_t>(index)];
    const auto texts = [](const std::vector<std::string>& strings) {
        QStringList list;
        for (const auto& s : strings)
            list << QString::fromStdString(s);
        return list;
    };
    summary.name = QString::fromStdString(f.name);
    summary.inputs = texts(f.inputs);
    summary.outputs = texts(f.outputs);
    summary.controlOutputs = texts(f.controlOutputs);
    summary.bodyNodeCount = f.bodyNodeCount;
    summary.gradient = QString::fromStdString(f.gradient);
    const tensorflow::GraphDef& view = *functions.viewGraph();
    for (int caller : f.callers)
        summary.callers << QString::fromStdString(view.node(caller).name());
    for (int callee : f.callees)
        summary.callees.push_back(
            {QString(), QString::fromStdString(functions.functions()[static_cast<std::size_t>(callee)].name), true});
    return summary;
}

NodePropertiesPanel::NodePropertiesPanel(QWidget* parent) : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);

    m_placeholder = new QLabel(this);
    m_placeholder->setObjectName(QStringLiteral("placeholderLabel"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setEnabled(false);
    outer->addWidget(m_placeholder);

    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(m_scroll);

    m_content = new QWidget(m_scroll);
    auto* layout = new QVBoxLayout(m_content);
    auto makeLabel = [this](const QString& objectName, bool wrap) {
        auto* label = new QLabel(m_content);
        label->setObjectName(objectName);
        label->setWordWrap(wrap);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        return label;
    };

    auto* header = new QHBoxLayout;
    m_name = makeLabel(QStringLiteral("nameLabel"), true);
    QFont nameFont = m_name->font();
    nameFont.setBold(true);
    nameFont.setPointSizeF(nameFont.pointSizeF() * 1.15);
    m_name->setFont(nameFont);
    header->addWidget(m_name, 1);
    m_copyName = new QToolButton(m_content);
    m_copyName->setObjectName(QStringLiteral("copyNameButton"));
    header->addWidget(m_copyName, 0, Qt::AlignTop);
    layout->addLayout(header);

    auto* opLine = new QHBoxLayout;
    m_op = makeLabel(QStringLiteral("opLabel"), true);
    m_category = makeLabel(QStringLiteral("categoryLabel"), false);
    m_category->setEnabled(false);
    m_category->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    opLine->addWidget(m_op, 1);
    opLine->addWidget(m_category);
    layout->addLayout(opLine);
    m_summary = makeLabel(QStringLiteral("summaryLabel"), true);
    m_description = makeLabel(QStringLiteral("descriptionLabel"), true);
    m_device = makeLabel(QStringLiteral("deviceLabel"), true);
    m_placed = makeLabel(QStringLiteral("placedDeviceLabel"), true);
    layout->addWidget(m_summary);
    layout->addWidget(m_description);
    layout->addWidget(m_device);
    layout->addWidget(m_placed);

    // A tensor-holding node's value: what a reader of a frozen graph's weights came for.
    m_valueTitle = new QLabel(m_content);
    {
        QFont font = m_valueTitle->font();
        font.setBold(true);
        m_valueTitle->setFont(font);
    }
    layout->addSpacing(6);
    layout->addWidget(m_valueTitle);
    m_value = makeLabel(QStringLiteral("valueLabel"), true);
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    layout->addWidget(m_value);
    m_showValues = new QPushButton(m_content);
    m_showValues->setObjectName(QStringLiteral("showValuesButton"));
    layout->addWidget(m_showValues, 0, Qt::AlignLeft);
    connect(m_showValues, &QPushButton::clicked, this, [this] { showValues(); });

    auto section = [&](const QString& objectName, int columns, QLabel** title) {
        *title = new QLabel(m_content);
        QFont font = (*title)->font();
        font.setBold(true);
        (*title)->setFont(font);
        layout->addSpacing(6);
        layout->addWidget(*title);
        QTreeWidget* tree = makeTree(objectName, columns, m_content);
        layout->addWidget(tree);
        connect(tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { onItemClicked(item); });
        connect(tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { onItemClicked(item); });
        connect(tree, &QTreeWidget::itemExpanded, tree, [tree] { fitTreeHeight(tree); });
        connect(tree, &QTreeWidget::itemCollapsed, tree, [tree] { fitTreeHeight(tree); });
        connect(tree, &QTreeWidget::customContextMenuRequested, this, [this, tree](const QPoint& pos) {
            QTreeWidgetItem* item = tree->itemAt(pos);
            if (!item)
                return;
            const int column = tree->columnAt(pos.x());
            QMenu menu(tree);
            if (column >= 0 && !item->text(column).isEmpty())
                menu.addAction(tr("Copy \"%1\"").arg(elided(item->text(column), 40)),
                               [item, column] { QApplication::clipboard()->setText(fullText(item, column)); });
            menu.addAction(tr("Copy row"), [this, tree, item] { copyRow(tree, item); });
            menu.exec(tree->viewport()->mapToGlobal(pos));
        });
        tree->installEventFilter(this);
        return tree;
    };
    // What a call node calls comes first: it is what the user came to the node for.
    m_functions = section(QStringLiteral("functionsTree"), 2, &m_functionsTitle);
    m_functions->setRootIsDecorated(true);
    m_attributes = section(QStringLiteral("attributesTree"), 2, &m_attributesTitle);
    m_attributes->setTextElideMode(Qt::ElideRight);
    m_inputs = section(QStringLiteral("inputsTree"), 3, &m_inputsTitle);
    m_outputs = section(QStringLiteral("outputsTree"), 2, &m_outputsTitle);
    m_outputs->setRootIsDecorated(true);
    m_group = section(QStringLiteral("groupTree"), 2, &m_groupTitle);
    m_group->setRootIsDecorated(true);
    layout->addStretch(1);
    m_scroll->setWidget(m_content);

    connect(m_copyName, &QToolButton::clicked, this, &NodePropertiesPanel::copyName);
    clear();
    retranslateUi();
}

NodePropertiesPanel::~NodePropertiesPanel() = default;

void NodePropertiesPanel::setGraph(std::shared_ptr<const tensorflow::GraphDef> graph, const OpRegistry* ops,
                                   OutputDescription outputDescription)
{
    m_graph = std::move(graph);
    m_ops = ops;
    m_outputDescription = std::move(outputDescription);
    m_indexed = false;
    m_nodeIndex.clear();
    m_consumers.clear();
    showNode(-1);
}

void NodePropertiesPanel::ensureIndex()
{
    if (m_indexed || !m_graph)
        return;
    m_indexed = true;
    const int count = m_graph->node_size();
    m_nodeIndex.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        m_nodeIndex.emplace(m_graph->node(i).name(), i); // the first of duplicate names wins
    m_consumers.assign(static_cast<std::size_t>(count), {});
    for (int i = 0; i < count; ++i) {
        for (const std::string& input : m_graph->node(i).input()) {
            auto id = parseTensorId(input);
            if (!id)
                continue;
            const auto it = m_nodeIndex.find(id->node);
            if (it != m_nodeIndex.end())
                m_consumers[static_cast<std::size_t>(it->second)].push_back({i, id->index});
        }
    }
}

void NodePropertiesPanel::clear()
{
    m_shownNode = -1;
    m_groupShown = false;
    m_groupScope.clear();
    m_scopeNode.clear();
    m_scopeNodeOp.clear();
    m_placedDevice.clear();
    m_valueTitle->setVisible(false);
    m_value->setVisible(false);
    m_showValues->setVisible(false);
    m_attributes->clear();
    m_inputs->clear();
    m_outputs->clear();
    m_group->clear();
    m_functions->clear();
    m_calls.clear();
    m_function.reset();
    setTreeVisible(m_functions, m_functionsTitle, false);
    m_placeholder->setVisible(true);
    m_scroll->setVisible(false);
}

void NodePropertiesPanel::setTreeVisible(QTreeWidget* tree, QLabel* title, bool visible)
{
    tree->setVisible(visible);
    title->setVisible(visible);
    if (!visible)
        return;
    // A narrow panel elides any cell: each keeps its full text as tooltip unless it has a more useful one.
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        for (int c = 0; c < tree->columnCount(); ++c)
            if ((*it)->toolTip(c).isEmpty() && !(*it)->text(c).isEmpty())
                (*it)->setToolTip(c, (*it)->text(c));
    fitTreeHeight(tree);
}

void NodePropertiesPanel::copyRow(QTreeWidget* tree, QTreeWidgetItem* item)
{
    if (!item)
        return;
    QStringList cells;
    for (int c = 0; c < tree->columnCount(); ++c)
        if (!item->text(c).isEmpty())
            cells << fullText(item, c);
    QApplication::clipboard()->setText(cells.join(QLatin1Char('\t')));
}

bool NodePropertiesPanel::eventFilter(QObject* watched, QEvent* event)
{
    auto* tree = qobject_cast<QTreeWidget*>(watched);
    if (tree && event->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        copyRow(tree, tree->currentItem());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void NodePropertiesPanel::showNode(int graphIndex)
{
    clear();
    if (!m_graph || graphIndex < 0 || graphIndex >= m_graph->node_size())
        return;
    ensureIndex();
    m_shownNode = graphIndex;
    const tensorflow::NodeDef& node = m_graph->node(graphIndex);
    const OpRegistration* registration = m_ops ? m_ops->find(node.op()) : nullptr;
    const tensorflow::OpDef* opDef = registration ? &registration->opDef : nullptr;

    const QString name = QString::fromStdString(node.name());
    m_name->setText(name);
    m_name->setToolTip(name);
    m_copyName->setVisible(true);
    m_op->setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(node.op()).toHtmlEscaped()));
    m_op->setTextFormat(Qt::RichText);
    if (registration) {
        // A known category in the UI language, as the palette and the legend name it; another
        // spelling as the registry has it.
        const auto& known = opCategoriesForLegend();
        const std::string& category = registration->category;
        m_category->setText(category.empty() ? tr("Uncategorized")
                            : std::find(known.begin(), known.end(), category) != known.end()
                                ? opCategoryDisplayName(category)
                                : QString::fromStdString(category));
        m_summary->setText(opCatalogText(opDef->summary()));
        m_description->setText(opCatalogText(opDef->description()));
    } else {
        m_category->setText(QString());
        // The nodes the viewer adds to a function's body stand for its signature.
        if (node.op() == kFunctionArgOp)
            m_summary->setText(tr("An input argument of the function: the value a caller passes in"));
        else if (node.op() == kFunctionRetvalOp)
            m_summary->setText(tr("A result of the function: what a caller receives as this output"));
        else if (node.op() == kFunctionControlRetOp)
            m_summary->setText(tr("A control output of the function: a call is done only once this node has run"));
        else
            m_summary->setText(tr("Op not registered in this engine"));
        m_description->setText(QString());
    }
    if (isDatasetOp(node.op()))
        m_category->setText(opCategoryDisplayName(kDatasetCategory)); // as the canvas colours it
    m_category->setVisible(!m_category->text().isEmpty());
    m_summary->setVisible(!m_summary->text().isEmpty());
    m_description->setVisible(!m_description->text().isEmpty());
    m_device->setText(node.device().empty() ? tr("Requested device: any")
                                            : tr("Requested device: %1").arg(QString::fromStdString(node.device())));
    m_device->setVisible(true);
    m_placed->setVisible(false);

    fillValue(node);
    fillAttributes(node, opDef);
    fillInputs(node, opDef);
    fillOutputs(graphIndex, node, opDef);
    setTreeVisible(m_attributes, m_attributesTitle, true);
    setTreeVisible(m_inputs, m_inputsTitle, true);
    setTreeVisible(m_outputs, m_outputsTitle, true);
    setTreeVisible(m_group, m_groupTitle, false);
    m_placeholder->setVisible(false);
    m_scroll->setVisible(true);
}

void NodePropertiesPanel::fillValue(const tensorflow::NodeDef& node)
{
    const auto it = node.attr().find("value");
    if (it == node.attr().end() || it->second.value_case() != tensorflow::AttrValue::kTensor)
        return;
    const tensorflow::TensorProto& proto = it->second.tensor();
    CpuAllocator allocator;
    auto tensor = Tensor::fromProto(allocator, proto);
    QString text = dtypeText(proto.dtype()) + ' ' + shapeText(proto.tensor_shape());
    if (tensor) {
        text = tr("%1 · %2 value(s)").arg(text, QLocale().toString(static_cast<qlonglong>(tensor->numElements())));
        const QString preview = tensorText(proto);
        const auto equals = preview.indexOf(QStringLiteral(" = "));
        if (equals >= 0)
            text += '\n' + preview.mid(equals + 3);
    } else {
        text += '\n' + tr("The value does not parse: %1").arg(QString::fromStdString(tensor.error().message()));
    }
    m_value->setText(text);
    m_valueTitle->setVisible(true);
    m_value->setVisible(true);
    m_showValues->setVisible(tensor.has_value());
}

TensorValueDialog* NodePropertiesPanel::showValues()
{
    if (!m_graph || m_shownNode < 0 || m_shownNode >= m_graph->node_size())
        return nullptr;
    const tensorflow::NodeDef& node = m_graph->node(m_shownNode);
    const auto it = node.attr().find("value");
    if (it == node.attr().end() || it->second.value_case() != tensorflow::AttrValue::kTensor)
        return nullptr;
    CpuAllocator allocator;
    auto tensor = Tensor::fromProto(allocator, it->second.tensor());
    if (!tensor)
        return nullptr;
    auto* dialog = new TensorValueDialog(QString::fromStdString(node.name()),
                                         tr("%1 node").arg(QString::fromStdString(node.op())), *tensor, this);
    dialog->show();
    return dialog;
}

void NodePropertiesPanel::setScopeNode(const QString& nodeName, const QString& op)
{
    if (!m_groupShown)
        return;
    m_scopeNode = nodeName;
    m_scopeNodeOp = op;
    auto* item = new QTreeWidgetItem({tr("Node %1 (%2)").arg(nodeName, op)});
    m_group->insertTopLevelItem(0, item);
    item->setFirstColumnSpanned(true);
    item->setToolTip(0, tr("This scope is also the name of a node: show it"));
    makeLink(item, 0, nodeName, palette());
    setTreeVisible(m_group, m_groupTitle, true);
}

void NodePropertiesPanel::fillAttributes(const tensorflow::NodeDef& node, const tensorflow::OpDef* opDef)
{
    // The OpDef's order first, then other visible attrs by name, then the hidden ("_") ones by name.
    std::vector<std::string> names;
    if (opDef) {
        for (const auto& attr : opDef->attr())
            if (node.attr().count(attr.name()) > 0)
                names.push_back(attr.name());
    }
    std::vector<std::string> others;
    std::vector<std::string> hidden;
    for (const auto& [name, value] : node.attr()) {
        if (std::find(names.begin(), names.end(), name) != names.end())
            continue;
        (name.starts_with('_') ? hidden : others).push_back(name);
    }
    std::sort(others.begin(), others.end());
    std::sort(hidden.begin(), hidden.end());
    names.insert(names.end(), others.begin(), others.end());
    const std::size_t firstHidden = names.size();
    names.insert(names.end(), hidden.begin(), hidden.end());

    const QColor grey = palette().color(QPalette::Disabled, QPalette::Text);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const tensorflow::AttrValue& value = node.attr().at(names[i]);
        auto* item = new QTreeWidgetItem(m_attributes);
        item->setText(0, QString::fromStdString(names[i]));
        item->setText(1, attrText(value));
        item->setToolTip(1, attrToolTip(value));
        item->setData(0, kHiddenAttrRole, i >= firstHidden);
        if (i >= firstHidden) {
            item->setForeground(0, grey);
            item->setForeground(1, grey);
        }
    }
    m_attributesTitle->setText(tr("Attributes (%1)").arg(names.size()));
}

void NodePropertiesPanel::fillInputs(const tensorflow::NodeDef& node, const tensorflow::OpDef* opDef)
{
    const QStringList argNames = opDef ? argumentNames(opDef->input_arg(), node) : QStringList();
    int dataIndex = 0;
    for (const std::string& input : node.input()) {
        auto* item = new QTreeWidgetItem(m_inputs);
        const QString text = QString::fromStdString(input);
        auto id = parseTensorId(input);
        if (!id) {
            item->setText(0, text);
            item->setText(2, tr("malformed input: %1").arg(QString::fromStdString(id.error().message())));
            continue;
        }
        const QString source = QString::fromStdString(id->node);
        const auto it = m_nodeIndex.find(id->node);
        if (id->isControl()) {
            item->setText(0, source);
            item->setText(1, tr("control"));
        } else {
            item->setText(0, text);
            item->setText(1, dataIndex < argNames.size() ? argNames[dataIndex] : QStringLiteral("#%1").arg(dataIndex));
            ++dataIndex;
            if (it == m_nodeIndex.end())
                item->setText(2, tr("not in the graph"));
            else if (m_outputDescription)
                item->setText(2, m_outputDescription(it->second, id->index));
        }
        if (it != m_nodeIndex.end())
            makeLink(item, 0, source, palette());
        item->setToolTip(0, text);
        item->setToolTip(2, item->text(2)); // a narrow panel elides it
    }
    m_inputsTitle->setText(tr("Inputs (%1)").arg(node.input_size()));
}

void NodePropertiesPanel::fillOutputs(int graphIndex, const tensorflow::NodeDef& node, const tensorflow::OpDef* opDef)
{
    const std::vector<Consumer>& consumers = m_consumers[static_cast<std::size_t>(graphIndex)];
    // How many outputs: the OpDef's, else as many as consumers and _output_shapes show.
    int outputCount = 0;
    QStringList argNames;
    std::vector<DataType> dtypes;
    if (opDef) {
        if (auto types = outputTypesForNode(*opDef, node))
            dtypes = *types;
        argNames = argumentNames(opDef->output_arg(), node);
        outputCount = static_cast<int>(dtypes.size());
    } else {
        for (const Consumer& c : consumers)
            outputCount = std::max(outputCount, c.output + 1);
        const auto shapes = node.attr().find("_output_shapes");
        if (shapes != node.attr().end())
            outputCount = std::max(outputCount, shapes->second.list().shape_size());
    }

    auto addConsumers = [&](QTreeWidgetItem* parent, int output) {
        int shown = 0;
        int hiddenCount = 0;
        for (const Consumer& c : consumers) {
            if (c.output != output)
                continue;
            if (shown == kMaxConsumersShown) {
                ++hiddenCount;
                continue;
            }
            ++shown;
            auto* item = new QTreeWidgetItem(parent);
            const QString name = QString::fromStdString(m_graph->node(c.node).name());
            item->setText(0, name);
            item->setText(1, QString::fromStdString(m_graph->node(c.node).op()));
            item->setToolTip(0, name);
            makeLink(item, 0, name, palette());
        }
        if (hiddenCount > 0)
            new QTreeWidgetItem(parent, {tr("%n more consumer(s)", nullptr, hiddenCount)});
        return shown + hiddenCount;
    };

    for (int output = 0; output < outputCount; ++output) {
        auto* item = new QTreeWidgetItem(m_outputs);
        QString label = QStringLiteral(":%1").arg(output);
        if (output < argNames.size())
            label += QStringLiteral(" (%1)").arg(argNames[output]);
        item->setText(0, label);
        QString description = m_outputDescription ? m_outputDescription(graphIndex, output) : QString();
        if (description.isEmpty() && output < static_cast<int>(dtypes.size()))
            description = QString::fromStdString(dataTypeName(dtypes[static_cast<std::size_t>(output)]));
        const int count = addConsumers(item, output);
        item->setText(1, description.isEmpty() ? tr("%n consumer(s)", nullptr, count)
                                               : tr("%1 \u2014 %n consumer(s)", nullptr, count).arg(description));
        item->setToolTip(1, item->text(1)); // a narrow panel elides it
        item->setExpanded(true);
    }
    const bool hasControl = std::any_of(consumers.begin(), consumers.end(),
                                        [](const Consumer& c) { return c.output == TensorId::kControlSlot; });
    if (hasControl) {
        auto* item = new QTreeWidgetItem(m_outputs);
        item->setText(0, tr("control"));
        const int count = addConsumers(item, TensorId::kControlSlot);
        item->setText(1, tr("%n consumer(s)", nullptr, count));
        item->setExpanded(true);
    }
    m_outputsTitle->setText(tr("Outputs (%1)").arg(outputCount));
}

void NodePropertiesPanel::showGroup(const QString& scope, int opCount, const QMap<QString, int>& opHistogram,
                                    const QMap<QString, int>& deviceHistogram)
{
    clear();
    m_groupShown = true;
    m_groupScope = scope;
    m_groupOpCount = opCount;
    m_groupOps = opHistogram;
    m_groupDevices = deviceHistogram;

    m_name->setText(scope);
    m_name->setToolTip(scope);
    m_copyName->setVisible(true);
    m_op->setTextFormat(Qt::PlainText);
    m_op->setText(tr("Name scope"));
    m_category->setVisible(false);
    m_summary->setText(tr("%n op(s) inside", nullptr, opCount));
    m_summary->setVisible(true);
    m_description->setVisible(false);
    m_device->setVisible(false);
    m_placed->setVisible(false);

    auto addHistogram = [this](const QString& title, const QMap<QString, int>& histogram) {
        auto* top = new QTreeWidgetItem(m_group, {title, QString::number(histogram.size())});
        std::vector<std::pair<QString, int>> entries(histogram.keyValueBegin(), histogram.keyValueEnd());
        std::stable_sort(entries.begin(), entries.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        for (const auto& [key, count] : entries)
            new QTreeWidgetItem(top, {key, QString::number(count)});
        top->setExpanded(true);
    };
    addHistogram(tr("Operations"), opHistogram);
    addHistogram(tr("Devices"), deviceHistogram);
    m_groupTitle->setText(tr("Contents"));

    setTreeVisible(m_attributes, m_attributesTitle, false);
    setTreeVisible(m_inputs, m_inputsTitle, false);
    setTreeVisible(m_outputs, m_outputsTitle, false);
    setTreeVisible(m_group, m_groupTitle, true);
    m_placeholder->setVisible(false);
    m_scroll->setVisible(true);
}

void NodePropertiesPanel::setPlacedDevice(const QString& device)
{
    m_placedDevice = device;
    m_placed->setText(tr("Placed on: %1").arg(device));
    m_placed->setVisible(m_shownNode >= 0 && !device.isEmpty());
}

void NodePropertiesPanel::setFunctionCalls(const QList<FunctionLink>& calls)
{
    m_functions->clear();
    m_calls = calls;
    m_functions->setRootIsDecorated(false);
    m_functions->setHeaderHidden(false);
    m_functions->setHeaderLabels({tr("Attribute"), tr("Function")});
    for (const FunctionLink& call : calls) {
        auto* item = new QTreeWidgetItem(m_functions);
        item->setText(0, call.attr.isEmpty() ? tr("(its op)") : call.attr);
        if (call.inLibrary) {
            item->setText(1, call.function);
            makeFunctionLink(item, 1, call.function, palette());
            item->setToolTip(1, tr("Open %1 in the function library").arg(call.function));
        } else {
            item->setText(1, tr("%1 (not in the graph's library)").arg(call.function));
            item->setToolTip(1, item->text(1));
        }
    }
    m_functionsTitle->setText(tr("Calls functions (%1)").arg(calls.size()));
    setTreeVisible(m_functions, m_functionsTitle, !calls.isEmpty());
}

void NodePropertiesPanel::setFunction(const FunctionSummary& function)
{
    m_function = function;
    m_name->setText(function.name); // the group's path starts with "__function_library__/"; the name is the point
    m_op->setTextFormat(Qt::PlainText);
    m_op->setText(tr("Function of the graph's library"));
    m_summary->setText(tr("%n node(s) in its body", nullptr, function.bodyNodeCount));
    m_summary->setVisible(true);
    m_description->setText(QStringLiteral("(%1) → (%2)")
                               .arg(function.inputs.join(QStringLiteral(", ")), function.outputs.join(QStringLiteral(", "))));
    m_description->setVisible(true);
    m_device->setText(tr("Gradient function: %1").arg(function.gradient));
    m_device->setVisible(!function.gradient.isEmpty());

    m_functions->clear();
    m_functions->setRootIsDecorated(true);
    m_functions->setHeaderHidden(true);
    auto addSection = [this](const QString& title, int count) {
        auto* top = new QTreeWidgetItem(m_functions, {tr("%1 (%2)").arg(title).arg(count)});
        top->setFirstColumnSpanned(true);
        top->setExpanded(true);
        return top;
    };
    auto addTexts = [&](const QString& title, const QStringList& texts) {
        QTreeWidgetItem* top = addSection(title, static_cast<int>(texts.size()));
        for (const QString& text : texts)
            new QTreeWidgetItem(top, {text});
    };
    // A caller inside another function: "node (in function)" rather than its long view-graph path.
    const QString libraryPrefix = QString::fromLatin1(kFunctionLibraryScope.data(), kFunctionLibraryScope.size()) + '/';
    auto callerText = [&](const QString& caller) {
        if (!caller.startsWith(libraryPrefix))
            return caller;
        const QString rest = caller.mid(libraryPrefix.size());
        const auto slash = rest.indexOf('/');
        return slash < 0 ? rest : tr("%1 (in %2)").arg(rest.mid(slash + 1), rest.left(slash));
    };
    addTexts(tr("Inputs"), function.inputs);
    addTexts(tr("Outputs"), function.outputs);
    if (!function.controlOutputs.isEmpty())
        addTexts(tr("Control outputs"), function.controlOutputs);
    QTreeWidgetItem* callers = addSection(tr("Called by"), static_cast<int>(function.callers.size()));
    for (const QString& caller : function.callers) {
        auto* item = new QTreeWidgetItem(callers, {callerText(caller)});
        item->setFirstColumnSpanned(true);
        item->setToolTip(0, caller);
        makeLink(item, 0, caller, palette());
    }
    QTreeWidgetItem* callees = addSection(tr("Calls"), static_cast<int>(function.callees.size()));
    for (const FunctionLink& callee : function.callees) {
        auto* item = new QTreeWidgetItem(callees, {callee.function});
        item->setFirstColumnSpanned(true);
        if (callee.inLibrary)
            makeFunctionLink(item, 0, callee.function, palette());
    }
    m_functionsTitle->setText(tr("Function %1").arg(function.name));
    setTreeVisible(m_functions, m_functionsTitle, true);
}

void NodePropertiesPanel::onItemClicked(QTreeWidgetItem* item)
{
    if (!item)
        return;
    const QString function = item->data(0, kFunctionRole).toString();
    if (!function.isEmpty()) {
        emit functionActivated(function);
        return;
    }
    const QString name = item->data(0, kNodeNameRole).toString();
    if (!name.isEmpty())
        emit nodeActivated(name);
}

void NodePropertiesPanel::copyName()
{
    const QString name = m_name->text();
    if (name.isEmpty())
        return;
    QApplication::clipboard()->setText(name);
    emit copyNameRequested(name);
}

void NodePropertiesPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void NodePropertiesPanel::retranslateUi()
{
    m_placeholder->setText(tr("Select a node to see its properties"));
    m_copyName->setText(tr("Copy name"));
    m_valueTitle->setText(tr("Value"));
    m_showValues->setText(tr("Show values…"));
    m_showValues->setToolTip(tr("Open the whole tensor in a table, with its histogram and heat map"));
    m_copyName->setToolTip(tr("Copy the full name to the clipboard"));
    m_attributes->setHeaderLabels({tr("Name"), tr("Value")});
    m_inputs->setHeaderLabels({tr("Input"), tr("Argument"), tr("Output")});
    m_outputs->setHeaderLabels({tr("Output"), tr("Description")});
    m_group->setHeaderLabels({tr("Kind"), tr("Count")});
    // The shown content holds translated words too: show it again.
    const QString placed = m_placedDevice;
    const QList<FunctionLink> calls = m_calls;
    const std::optional<FunctionSummary> function = m_function;
    if (m_shownNode >= 0) {
        showNode(m_shownNode);
        setPlacedDevice(placed);
        if (!calls.isEmpty())
            setFunctionCalls(calls);
    } else if (m_groupShown) {
        const QMap<QString, int> ops = m_groupOps;
        const QMap<QString, int> devices = m_groupDevices;
        const QString scopeNode = m_scopeNode;
        const QString scopeNodeOp = m_scopeNodeOp;
        showGroup(QString(m_groupScope), m_groupOpCount, ops, devices);
        if (!scopeNode.isEmpty())
            setScopeNode(scopeNode, scopeNodeOp);
        if (function)
            setFunction(*function);
    }
}

} // namespace tstudio::graph_viewer
