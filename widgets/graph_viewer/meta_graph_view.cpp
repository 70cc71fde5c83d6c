// MetaGraphView (meta_graph_view.h): a tree of sections over MetaGraphContents.
#include "graph_viewer/meta_graph_view.h"

#include "graph/tensor_id.h"

#include <QEvent>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tstudio::graph_viewer {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

MetaGraphView::MetaGraphView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("metaGraphView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("metaGraphTree"));
    m_tree->setColumnCount(1);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(m_tree);
    auto activate = [this](QTreeWidgetItem* item) {
        const QString node = item ? item->data(0, kNodeNameRole).toString() : QString();
        if (!node.isEmpty())
            emit nodeActivated(node);
    };
    connect(m_tree, &QTreeWidget::itemClicked, this, activate);
    connect(m_tree, &QTreeWidget::itemActivated, this, activate);
}

void MetaGraphView::setContents(MetaGraphContents contents, std::function<bool(const std::string&)> isNode)
{
    m_contents = std::move(contents);
    m_isNode = std::move(isNode);
    rebuild();
}

QTreeWidgetItem* MetaGraphView::section(const QString& title)
{
    auto* item = new QTreeWidgetItem(m_tree, {title});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    return item;
}

void MetaGraphView::rebuild()
{
    m_tree->clear();
    const MetaGraphContents& m = m_contents;
    auto line = [](QTreeWidgetItem* parent, const QString& text) {
        auto* item = new QTreeWidgetItem(parent, {text});
        item->setToolTip(0, text);
        return item;
    };

    QTreeWidgetItem* info = section(tr("Written by"));
    line(info, m.tensorflowVersion.empty() ? tr("TensorFlow (version not recorded)")
                                           : tr("TensorFlow %1").arg(q(m.tensorflowVersion)));
    if (!m.tensorflowGitVersion.empty())
        line(info, tr("Git version %1").arg(q(m.tensorflowGitVersion)));
    if (!m.tags.empty()) {
        QStringList tags;
        for (const auto& t : m.tags)
            tags << q(t);
        line(info, tr("Tags: %1").arg(tags.join(QStringLiteral(", "))));
    }
    line(info, m.strippedDefaultAttrs ? tr("Default attrs stripped") : tr("Default attrs kept"));

    QTreeWidgetItem* saver = section(tr("Saver"));
    if (!m.hasSaver) {
        line(saver, tr("No SaverDef"));
    } else {
        line(saver, tr("%1 checkpoints%2").arg(q(m.saver.version), m.saver.sharded ? tr(", sharded") : QString()));
        line(saver, tr("Filename tensor: %1").arg(q(m.saver.filenameTensor)));
        line(saver, tr("Save tensor: %1").arg(q(m.saver.saveTensor)));
        line(saver, tr("Restore op: %1").arg(q(m.saver.restoreOp)));
        line(saver, tr("max_to_keep %1, keep_checkpoint_every_n_hours %2")
                        .arg(m.saver.maxToKeep)
                        .arg(static_cast<double>(m.saver.keepCheckpointEveryNHours)));
    }

    QTreeWidgetItem* collections = section(tr("Collections (%1)").arg(m.collections.size()));
    const QPalette pal = palette();
    for (const auto& c : m.collections) {
        auto* item = line(collections, QStringLiteral("%1  (%2, %3)")
                                           .arg(q(c.name), q(c.kind))
                                           .arg(c.members.size()));
        for (const std::string& member : c.members) {
            auto* row = line(item, q(member));
            // A node or tensor of the graph (a cond context's name is its own, not a node).
            const auto id = parseTensorId(member);
            if (id && m_isNode && m_isNode(id->node)) {
                row->setData(0, kNodeNameRole, q(id->node));
                QFont font = row->font(0);
                font.setUnderline(true);
                row->setFont(0, font);
                row->setForeground(0, pal.color(QPalette::Link));
                row->setToolTip(0, tr("%1 — click to select node %2 in the graph").arg(q(member), q(id->node)));
            }
        }
    }

    QTreeWidgetItem* ops = section(tr("Stripped op list (%1)").arg(m.strippedOps.size()));
    for (const std::string& op : m.strippedOps)
        line(ops, q(op));
    if (!m.assets.empty()) {
        QTreeWidgetItem* assets = section(tr("Asset files (%1)").arg(m.assets.size()));
        for (const auto& a : m.assets)
            line(assets, tr("%1 (fed to %2)").arg(q(a.filename), q(a.tensor)));
    }
    info->setExpanded(true);
    saver->setExpanded(true);
    collections->setExpanded(true);
}

void MetaGraphView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(event);
}

} // namespace tstudio::graph_viewer
