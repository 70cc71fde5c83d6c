// NodeInfoView: the debugger's node information (tfdbg's `ni`, `li`, `lo`): attributes, and inputs and consumers
// as trees to a chosen depth with control edges marked.
#pragma once

#include "debugger/node_info.h"
#include "proto/graph.pb.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace tstudio::debugger_ui {

/// Shows one node of a GraphDef: a header (name, op, requested device), its attributes (name, value in short
/// form; tensors as dtype and shape), and two trees: inputs (data, then control, in NodeDef order) and
/// consumers, expanded to depth() levels (1 = direct only, at most kMaxDepth) from debugger::NodeRelations. A
/// node reached twice is listed again but not expanded again, so loops end. Control edges read "^name (Ctrl)"
/// in the Tensor column, in italics, with kControlRole true.
///
/// Object names: "nodeLabel", "depthSpin", "attributesTree", "inputsTree", "consumersTree". Tree items hold the
/// node name in kNodeNameRole and the edge's tensor ("x:1", "^x") in kTensorRole; activating one emits
/// nodeActivated, and for a data input also tensorActivated. GUI thread only.
class NodeInfoView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxDepth = 20;
    static constexpr int kNodeNameRole = Qt::UserRole;
    static constexpr int kTensorRole = Qt::UserRole + 1;
    static constexpr int kControlRole = Qt::UserRole + 2;

    explicit NodeInfoView(QWidget* parent = nullptr);
    ~NodeInfoView() override;

    /// The graph whose nodes showNode describes (kept, never modified). Clears the view.
    void setGraph(std::shared_ptr<const tensorflow::GraphDef> graph);
    /// Shows `node`; false, with a message in place of the node, when the graph has no such node.
    bool showNode(const QString& node);
    /// Shows the hint "Select a node ...".
    void clear();
    /// The node shown, or empty.
    QString node() const { return m_node; }
    /// Tree depth (clamped to 1..kMaxDepth); refills the trees.
    void setDepth(int depth);
    int depth() const;

signals:
    void nodeActivated(const QString& node);
    /// A data input was activated: its tensor ("x:0").
    void tensorActivated(const QString& tensor);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void fillTrees();
    void fillTree(QTreeWidget* tree, const std::vector<debugger::NodeLink>& links);
    void addLink(QTreeWidgetItem* parent, QTreeWidget* tree, const debugger::NodeLink& link);
    void onActivated(QTreeWidgetItem* item);

    std::shared_ptr<const tensorflow::GraphDef> m_graph;
    std::optional<debugger::NodeRelations> m_relations;
    QString m_node;
    QString m_message;

    QLabel* m_header = nullptr;
    QLabel* m_depthLabel = nullptr;
    QSpinBox* m_depth = nullptr;
    QLabel* m_attributesTitle = nullptr;
    QTreeWidget* m_attributes = nullptr;
    QLabel* m_inputsTitle = nullptr;
    QTreeWidget* m_inputs = nullptr;
    QLabel* m_consumersTitle = nullptr;
    QTreeWidget* m_consumers = nullptr;
};

} // namespace tstudio::debugger_ui
