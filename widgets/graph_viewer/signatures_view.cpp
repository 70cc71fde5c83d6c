// SignaturesView: a SavedModel's signatures as a tree of inputs and outputs whose tensors select their nodes.
#include "graph_viewer/signatures_view.h"

#include "framework/data_type.h"
#include "graph/tensor_id.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::graph_viewer {
namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The node behind a stored tensor name ("x:0" -> "x"); empty when the name does not parse.
QString nodeOf(const std::string& tensorName)
{
    auto id = parseTensorId(tensorName);
    return id ? q(id->node) : QString();
}

} // namespace

SignaturesView::SignaturesView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("signaturesMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setEnabled(false);
    layout->addWidget(m_message);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("signaturesTree"));
    m_tree->setColumnCount(kColumnCount);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->header()->setMinimumSectionSize(40);
    m_tree->installEventFilter(this);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { onItemActivated(item); });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { onItemActivated(item); });
    retranslateUi();
}

SignaturesView::~SignaturesView() = default;

void SignaturesView::setSignatures(std::vector<SignatureInfo> signatures)
{
    m_signatures = std::move(signatures);
    rebuild();
}

void SignaturesView::rebuild()
{
    m_tree->clear();
    const QPalette pal = palette();
    auto addTensor = [&](QTreeWidgetItem* parent, const SignatureTensor& tensor) {
        auto* item = new QTreeWidgetItem(parent);
        item->setText(kKey, q(tensor.key));
        // An init op's "output" is an op, not a tensor: it has no dtype to show.
        const QString dtype = tensor.dtype == tensorflow::DT_INVALID ? QString() : q(dataTypeName(tensor.dtype));
        item->setText(kType, (dtype + ' ' + q(tensor.shape.toString())).trimmed());
        QString node;
        if (tensor.sparse) {
            item->setText(kTensor, tr("sparse: indices %1, values %2, dense shape %3")
                                       .arg(q(tensor.sparse->indices), q(tensor.sparse->values), q(tensor.sparse->denseShape)));
            node = nodeOf(tensor.sparse->values);
        } else if (tensor.tensorName.empty()) {
            item->setText(kTensor, tr("(a composite tensor)"));
        } else {
            item->setText(kTensor, q(tensor.tensorName));
            node = nodeOf(tensor.tensorName);
        }
        for (int c = 0; c < kColumnCount; ++c)
            item->setToolTip(c, item->text(c));
        if (!node.isEmpty()) {
            item->setData(0, kNodeNameRole, node);
            QFont font = item->font(kTensor);
            font.setUnderline(true);
            item->setFont(kTensor, font);
            item->setForeground(kTensor, pal.color(QPalette::Link));
            item->setToolTip(kTensor, tr("%1 — click to select node %2 in the graph").arg(item->text(kTensor), node));
        }
    };
    for (const SignatureInfo& signature : m_signatures) {
        auto* top = new QTreeWidgetItem(m_tree);
        top->setText(kKey, q(signature.key));
        top->setFirstColumnSpanned(true);
        QFont bold = top->font(kKey);
        bold.setBold(true);
        top->setFont(kKey, bold);
        top->setToolTip(kKey, q(signature.key));
        if (!signature.methodName.empty()) {
            auto* method = new QTreeWidgetItem(top, {tr("Method: %1").arg(q(signature.methodName))});
            method->setFirstColumnSpanned(true);
            method->setToolTip(0, method->text(0));
        }
        auto* inputs = new QTreeWidgetItem(top, {tr("Inputs (%1)").arg(signature.inputs.size())});
        inputs->setFirstColumnSpanned(true);
        for (const SignatureTensor& tensor : signature.inputs)
            addTensor(inputs, tensor);
        auto* outputs = new QTreeWidgetItem(top, {tr("Outputs (%1)").arg(signature.outputs.size())});
        outputs->setFirstColumnSpanned(true);
        for (const SignatureTensor& tensor : signature.outputs)
            addTensor(outputs, tensor);
    }
    m_tree->expandAll();
    // The key column fits the tensor keys (not the spanned signature names above them), the type its
    // contents; the tensor name takes the rest. Long keys must leave it some room in a narrow sidebar;
    // tooltips hold what is elided.
    const QFontMetrics metrics(m_tree->font());
    int keyWidth = metrics.horizontalAdvance(m_tree->headerItem()->text(kKey)) + 16;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        if (!(*it)->text(kType).isEmpty())
            keyWidth = std::max(keyWidth, metrics.horizontalAdvance((*it)->text(kKey)) + 3 * m_tree->indentation() + 12);
    m_tree->setColumnWidth(kKey, std::min(keyWidth, 170));
    m_tree->resizeColumnToContents(kType);
    m_tree->setColumnWidth(kType, std::min(m_tree->columnWidth(kType), 150));
    m_tree->setVisible(!m_signatures.empty());
    m_message->setVisible(m_signatures.empty());
}

void SignaturesView::onItemActivated(QTreeWidgetItem* item)
{
    if (!item)
        return;
    const QString node = item->data(0, kNodeNameRole).toString();
    if (!node.isEmpty())
        emit nodeActivated(node);
}

bool SignaturesView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_tree && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        if (QTreeWidgetItem* item = m_tree->currentItem()) {
            const QString text = item->text(kTensor).isEmpty() ? item->text(kKey) : item->text(kTensor);
            QApplication::clipboard()->setText(text);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SignaturesView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
}

void SignaturesView::retranslateUi()
{
    m_tree->setHeaderLabels({tr("Name"), tr("Type"), tr("Tensor")});
    m_message->setText(tr("This SavedModel has no signatures"));
    rebuild();
}

} // namespace tstudio::graph_viewer
