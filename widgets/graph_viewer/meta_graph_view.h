// MetaGraphView: the graph viewer's "MetaGraph" tab: what a .meta file or a SavedModel's MetaGraph
// holds besides the graph: TensorFlow's version and tags, the SaverDef, every collection with its
// members (node and tensor names are links that select their node), the stripped op list and the
// asset files.
#pragma once

#include "model/meta_graph_contents.h"

#include <QWidget>

#include <functional>
#include <string>

class QTreeWidget;
class QTreeWidgetItem;

namespace tstudio::graph_viewer {

class MetaGraphView : public QWidget {
    Q_OBJECT
public:
    /// On member rows naming a node or tensor of the graph: the node a click selects.
    static constexpr int kNodeNameRole = Qt::UserRole;

    explicit MetaGraphView(QWidget* parent = nullptr);

    /// Shows `contents`; `isNode` tells which names are nodes of the graph (others are not links).
    void setContents(MetaGraphContents contents, std::function<bool(const std::string&)> isNode);
    QTreeWidget* tree() const { return m_tree; }

signals:
    void nodeActivated(const QString& nodeName);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    QTreeWidgetItem* section(const QString& title);

    MetaGraphContents m_contents;
    std::function<bool(const std::string&)> m_isNode;
    QTreeWidget* m_tree = nullptr;
};

} // namespace tstudio::graph_viewer
