// NodePropertiesPanel: the graph viewer's sidebar describing the selected node or collapsed name scope.
#pragma once

#include "proto/graph.pb.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

class QLabel;
class QPushButton;
class QScrollArea;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace tstudio {
class OpRegistry;
}

namespace tstudio::graph_viewer {

/// A function named by a call node, or called by a function, as the panel lists it.
struct FunctionLink {
    QString attr;          ///< "f", "then_branch", "branches[1]"; empty for a call by name or a callee
    QString function;      ///< the function's name
    bool inLibrary = true; ///< false when the graph's library lacks it: listed, but not a link
};

/// A library function as the panel shows it (the selection is the function's group).
struct FunctionSummary {
    QString name;
    QStringList inputs;         ///< "x: float"
    QStringList outputs;        ///< "y: float"
    QStringList controlOutputs; ///< control_ret names
    int bodyNodeCount = 0;
    QString gradient;           ///< the function the library names as its gradient, or empty
    QStringList callers;        ///< names of the nodes that call it (links)
    QList<FunctionLink> callees;
};

class FunctionLibraryView;
class TensorValueDialog;
struct FunctionCall;

/// The panel's view of the calls a node makes (FunctionLibraryView::callsOf).
QList<FunctionLink> functionLinks(const std::vector<FunctionCall>& calls);
/// The panel's view of function `index` of `functions` (callers named as in its view graph).
FunctionSummary functionSummary(const FunctionLibraryView& functions, int index);

/// What TensorBoard's and Netron's node sidebars show: the name (selectable, with a copy button), the op type,
/// its category and its documentation from the registry (in the UI language, opCatalogText), the requested and
/// placed devices, the attributes written readably (hidden "_" attrs last, greyed), the inputs with their
/// sources' output descriptions and the outputs with their consumers. Inputs and consumers are links: a click
/// emits nodeActivated.
///
/// Object names for tests and style sheets: "nameLabel", "copyNameButton", "opLabel", "categoryLabel",
/// "summaryLabel", "descriptionLabel", "deviceLabel", "placedDeviceLabel", "placeholderLabel", and the trees
/// "valueLabel", "showValuesButton", "attributesTree", "inputsTree", "outputsTree", "groupTree", "functionsTree"
/// (each item's Qt::UserRole holds
/// the node name a click activates, empty for items that are not links; kFunctionRole the function a click opens;
/// attribute items hold the attr name in column 0).
///
/// A node holding a tensor (a Const's "value") gets a "Value" section: dtype, shape, element count and the first
/// values, and "Show values…", which opens the whole tensor in a TensorValueDialog.
///
/// Nothing is clipped without a way to read it: labels wrap and are selectable; tree cells that do not fit are
/// elided with their full text as tooltip, rows are selectable, and Ctrl+C or the context menu copies a row.
///
/// The panel keeps the GraphDef it is given (shared, never modified); the consumer index is built on the first
/// showNode after setGraph, in one pass over the edges. GUI thread only.
class NodePropertiesPanel : public QWidget {
    Q_OBJECT
public:
    /// Describes output `output` of node `graphIndex`, e.g. "float32 [?,784]"; empty when unknown.
    using OutputDescription = std::function<QString(int graphIndex, int output)>;

    /// Item data role holding the node name a click on the item activates.
    static constexpr int kNodeNameRole = Qt::UserRole;
    /// Item data role on attribute items: true for hidden attrs (names starting with '_').
    static constexpr int kHiddenAttrRole = Qt::UserRole + 1;
    /// Item data role on function items: the function's name (a click emits functionActivated).
    static constexpr int kFunctionRole = Qt::UserRole + 2;

    explicit NodePropertiesPanel(QWidget* parent = nullptr);
    ~NodePropertiesPanel() override;

    /// The graph whose nodes showNode describes. `ops` (may be null, must outlive the panel's use of this graph)
    /// supplies op documentation, categories and argument names; `outputDescription` may be empty. Clears the
    /// panel.
    void setGraph(std::shared_ptr<const tensorflow::GraphDef> graph, const OpRegistry* ops,
                  OutputDescription outputDescription);

    /// Shows node `graphIndex` of the graph (an index into GraphDef::node); -1 or an index out of range clears
    /// the panel ("Select a node to see its properties").
    void showNode(int graphIndex);
    /// Shows a collapsed name scope: its path, how many ops it holds, and the op types and devices inside.
    void showGroup(const QString& scope, int opCount, const QMap<QString, int>& opHistogram,
                   const QMap<QString, int>& deviceHistogram);
    /// The device the placer chose for the shown node; empty hides the line.
    void setPlacedDevice(const QString& device);
    /// After showNode: the functions the node calls ("Calls functions" section, each a link). Empty hides it.
    void setFunctionCalls(const QList<FunctionLink>& calls);
    /// After showGroup for a function's group: the function's signature, its callers and the functions it calls.
    void setFunction(const FunctionSummary& function);
    /// After showGroup for a scope that is also a node's name ("dense/kernel" and "dense/kernel/read"): a link
    /// to that node (op type `op`) at the top of the contents, so the scope's own node is one click away.
    void setScopeNode(const QString& nodeName, const QString& op);
    /// Opens the shown node's tensor value (its "value" attr) in a TensorValueDialog and returns it (it deletes
    /// itself when closed); null when the shown node holds no tensor or the tensor does not parse.
    TensorValueDialog* showValues();

    /// The node shown, or -1 (nothing, or a group).
    int shownNode() const { return m_shownNode; }

signals:
    /// A click on an input or a consumer: the node that entry names.
    void nodeActivated(const QString& nodeName);
    /// The "Copy name" button (the name is also put on the clipboard).
    void copyNameRequested(const QString& nodeName);
    /// A click on a function: the viewer opens (expands and selects) its group.
    void functionActivated(const QString& functionName);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Consumer {
        int node = -1;
        int output = 0; ///< the producer's output; -1 for a control edge
    };

    void retranslateUi();
    void clear();
    void ensureIndex();
    void fillAttributes(const tensorflow::NodeDef& node, const tensorflow::OpDef* opDef);
    void fillInputs(const tensorflow::NodeDef& node, const tensorflow::OpDef* opDef);
    void fillOutputs(int graphIndex, const tensorflow::NodeDef& node, const tensorflow::OpDef* opDef);
    void fillValue(const tensorflow::NodeDef& node);
    void copyRow(QTreeWidget* tree, QTreeWidgetItem* item);
    void onItemClicked(QTreeWidgetItem* item);
    void copyName();
    void setTreeVisible(QTreeWidget* tree, QLabel* title, bool visible);

    std::shared_ptr<const tensorflow::GraphDef> m_graph;
    const OpRegistry* m_ops = nullptr;
    OutputDescription m_outputDescription;
    bool m_indexed = false;
    std::unordered_map<std::string, int> m_nodeIndex;
    std::vector<std::vector<Consumer>> m_consumers; ///< per producer node
    int m_shownNode = -1;
    bool m_groupShown = false;
    QString m_groupScope;
    QString m_scopeNode;
    QString m_scopeNodeOp;
    int m_groupOpCount = 0;
    QMap<QString, int> m_groupOps;
    QMap<QString, int> m_groupDevices;
    QString m_placedDevice;
    QList<FunctionLink> m_calls;
    std::optional<FunctionSummary> m_function;

    QScrollArea* m_scroll;
    QLabel* m_placeholder;
    QWidget* m_content;
    QLabel* m_name;
    QToolButton* m_copyName;
    QLabel* m_op;
    QLabel* m_category;
    QLabel* m_summary;
    QLabel* m_description;
    QLabel* m_device;
    QLabel* m_placed;
    QLabel* m_valueTitle;
    QLabel* m_value;
    QPushButton* m_showValues;
    QLabel* m_attributesTitle;
    QTreeWidget* m_attributes;
    QLabel* m_inputsTitle;
    QTreeWidget* m_inputs;
    QLabel* m_outputsTitle;
    QTreeWidget* m_outputs;
    QLabel* m_groupTitle;
    QTreeWidget* m_group;
    QLabel* m_functionsTitle;
    QTreeWidget* m_functions;
};

} // namespace tstudio::graph_viewer
